#!/usr/bin/env python3
"""Eyes cast down at a screen, read by the attention variant of the mesh (issue 32 item 3).

`face_landmark_with_attention.tflite` (mediapipe 0.10.14, the wheel facecap already takes the hand and palm models
from) refines the eye contours and adds the irises, but holds three custom operators that neither LiteRT nor
facecap's interpreter has. MediaPipe's own Python package runs it (`FaceMesh(refine_landmarks=True)`), so this
probe installs nothing into facecap: it is a measuring instrument, run from a venv of its own with the wheel
(`python3 -m venv V && V/bin/pip install .cache/mediapipe-0.10.14-*.whl pillow`).

It reads the same frames as tools/gaze_down_probe.py: the real-photo set's uncovered clean frames (20 people
looking into the camera) and the turned frames that probe writes with --out (both eyes turned DEGREES down with
their lids, kept only where LiteRT's iris model reads them turned), and prints for each measure of the refined
contours the range on the camera, turned down, the gap (negative: overlap), how far a person's own turn moves it,
and how far the same woman's other expressions looking into the camera move it (`same_person_ft3`, every ordered
pair). Measures in eye widths (corner to corner), y down; means of both eyes.

Usage: V/bin/python tools/gaze_attention_probe.py --turned DIR [--degrees 20]
docs/calibration.md, "Eyes on a screen below the camera", records its figures.
"""
import argparse
import itertools
import os
import sys

import numpy as np
from PIL import Image

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, 'tools'))
import realset  # noqa: E402

# MediaPipe's canonical mesh: each eye's corners, its upper and lower lid contours (corner to corner) and the
# refined iris centre. "right" is the person's right eye (left in the picture).
EYES = {
    'right': dict(outer=33, inner=133, iris=468, upper=[246, 161, 160, 159, 158, 157, 173],
                  lower=[7, 163, 144, 145, 153, 154, 155]),
    'left': dict(outer=263, inner=362, iris=473, upper=[466, 388, 387, 386, 385, 384, 398],
                 lower=[249, 390, 373, 374, 380, 381, 382]),
}


def lid_at(points, x):
    """The contour's y at x, by linear interpolation between its points (sorted by x)."""
    pts = sorted(points, key=lambda p: p[0])
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return float(np.interp(x, xs, ys))


def measures(lm):
    out = {}
    per_eye = []
    for eye in EYES.values():
        outer, inner, iris = lm[eye['outer']], lm[eye['inner']], lm[eye['iris']]
        width = float(np.hypot(*(inner - outer)))
        # The corner line's y at the iris's x.
        t = (iris[0] - outer[0]) / (inner[0] - outer[0]) if inner[0] != outer[0] else 0.5
        corner_y = outer[1] + t * (inner[1] - outer[1])
        upper = lid_at([lm[i] for i in eye['upper']], iris[0])
        lower = lid_at([lm[i] for i in eye['lower']], iris[0])
        opening = lower - upper
        per_eye.append({
            'iris vs corner line': (iris[1] - corner_y) / width,
            'iris vs lower lid': (iris[1] - lower) / width,
            'iris vs upper lid': (iris[1] - upper) / width,
            'iris within the opening (0 top, 1 bottom)': (iris[1] - upper) / opening if opening > 0 else float('nan'),
            'opening': opening / width,
            'upper lid vs corner line': (upper - corner_y) / width,
            'lower lid vs corner line': (lower - corner_y) / width,
        })
    for key in per_eye[0]:
        out[key] = float(np.mean([e[key] for e in per_eye]))
    return out


def make_reader():
    import mediapipe as mp
    mesh = mp.solutions.face_mesh.FaceMesh(static_image_mode=True, max_num_faces=1, refine_landmarks=True,
                                           min_detection_confidence=0.5)

    def read(path):
        img = np.asarray(Image.open(path).convert('RGB'))
        res = mesh.process(img)
        if not res.multi_face_landmarks:
            return None
        h, w = img.shape[:2]
        lm = np.array([[p.x * w, p.y * h] for p in res.multi_face_landmarks[0].landmark])
        return measures(lm) if len(lm) == 478 else None
    return read


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--turned', required=True, help="gaze_down_probe.py's --out folder")
    ap.add_argument('--degrees', type=float, default=20)
    args = ap.parse_args()
    rows = realset.uncovered_clean_rows()
    read = make_reader()
    on, down, own, same = [], [], [], []
    missing = []
    for r in rows:
        a = read(os.path.join(ROOT, r['frame']))
        if a is None:
            missing.append(f'{r["id"]} {r["variant"]}')
            continue
        on.append(a)
        if 'same_person_ft3' in r['tags']:
            same.append(a)
        turned = os.path.join(args.turned, f'{r["id"]}__{r["variant"]}_down{args.degrees:g}.png')
        if os.path.exists(turned):
            b = read(turned)
            if b is None:
                missing.append(f'{r["id"]} {r["variant"]} turned')
                continue
            down.append(b)
            own.append({k: b[k] - a[k] for k in a})
    print(f'{len(on)} frames on the camera, {len(down)} turned {args.degrees:g}° down, '
          f'{len(same)} of the same woman; no face: {", ".join(missing) or "none"}\n')
    print(f'{"measure":44s} {"on the camera":>15s} {"turned down":>15s} {"gap":>7s} | {"own turn moves it":>15s} '
          f'{"median":>7s} | same person, other expression')
    for key in on[0]:
        o = [x[key] for x in on]
        d = [x[key] for x in down]
        m = [x[key] for x in own]
        sign = 1 if np.median(m) >= 0 else -1
        gap = (min(d) - max(o)) if sign > 0 else (min(o) - max(d))
        pairs = [b[key] - a[key] for a, b in itertools.permutations(same, 2)]
        worst = max(p * sign for p in pairs) * sign if pairs else float('nan')
        print(f'{key:44s} {min(o):+.3f}…{max(o):+.3f} {min(d):+.3f}…{max(d):+.3f} {gap:+.3f} | '
              f'{min(m):+.3f}…{max(m):+.3f} {np.median(m):+.3f} | up to {worst:+.3f} over {len(pairs)} pairs')


if __name__ == '__main__':
    main()
