#!/usr/bin/env python3
"""Eyes cast down at a screen below the camera, head level: what the models read, measure by measure.

Takes the uncovered faces of the real-photo set (.cache/realset/frames, `make eval-real` composes them: 20
people looking into the camera), turns both eyes of each clean frame DEGREES down with their lids
(`look_vertically` in tools/make_eye_frames.py: the globe 0.39·sin θ eye widths, the upper lid a little
further, the lower lid a little less), keeps a turn only when LiteRT's run of the iris model reads it open
and turned (`reads_vertical_gaze`), and prints for every candidate measure (FaceMesh and iris model, LiteRT):

  - one frame: the range on the camera, the range turned down, and the gap between them (negative: overlap);
  - the person's own reference: how far each kept turn moves the measure from the same frame on the camera,
    against how far the same person's other expressions looking into the camera move it (the set's
    `same_person_ft3` faces: one woman, 11 expressions; every ordered pair), optionally only between
    readings whose eye opening and mouth width are alike (`--gate-opening`, `--gate-mouth`).

With --out DIR the kept turned frames are written there as PNG for `facecap analyze --json`.

Usage: FACECAP_MODEL_DIR=models .cache/litert-venv/bin/python tools/gaze_down_probe.py [--degrees 20]
       [--gate-opening 0.02] [--gate-mouth 0.03] [--out DIR]
Needs numpy, pillow and ai-edge-litert: the venv `make bench` makes (.cache/litert-venv) with pillow added
(`.cache/litert-venv/bin/pip install pillow`). docs/calibration.md, "Eyes on a screen below the camera",
records its figures.
"""
import argparse
import itertools
import os
import sys

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'reference'))
import iris_ref  # noqa: E402
import make_eye_frames as mef  # noqa: E402
import realset  # noqa: E402
import ref_interpreter as ri  # noqa: E402
import ref_pipeline as rp  # noqa: E402

BROWS = [70, 63, 105, 66, 107, 300, 293, 334, 296, 336]


def lite_iris():
    from ai_edge_litert.interpreter import Interpreter
    lite = Interpreter(model_path=os.path.join(os.environ.get('FACECAP_MODEL_DIR', 'models'),
                                               'iris_landmark.tflite'), num_threads=1)
    lite.allocate_tensors()

    def run(x):
        lite.set_tensor(lite.get_input_details()[0]['index'], x[None])
        lite.invoke()
        outs = sorted((lite.get_tensor(d['index']) for d in lite.get_output_details()), key=lambda o: -o.size)
        return outs[0], outs[1]
    return run


def read(img, run):
    """FaceMesh landmarks (pixels) and both eyes' iris-model points, or None."""
    H, W, _ = img.shape
    dets = rp.detect_faces(img)
    if not dets:
        return None
    lms, _ = rp.face_mesh(img, rp.detection_to_roi(dets[0], W, H))
    if lms is None:
        return None
    return lms * [W, H, W], iris_ref.eyes(rp, ri, None, img, lms, run=run)


def measures(reading):
    """Every candidate, in eye widths (iris model) or inter-iris distances (against FaceMesh points), y down."""
    lms, eyes = reading
    across = lms[454, :2] - lms[234, :2]
    face_width = np.linalg.norm(across)
    across /= face_width
    down = np.array([-across[1], across[0]])
    iris = (eyes[0]['iris'][0, :2] + eyes[1]['iris'][0, :2]) / 2
    iod = np.linalg.norm(eyes[0]['iris'][0, :2] - eyes[1]['iris'][0, :2])
    per_eye = [mef.eye_measures(eyes[0], True), mef.eye_measures(eyes[1], False)]

    def to_lower_lid(e, first):
        a, _, dn, width = mef.lid_frame(e, first)
        c = e['contours'][:, :2]
        return ((e['iris'][0, :2] - a) @ dn - np.mean([(c[i] - a) @ dn for i in (2, 3, 4, 5, 6)])) / width
    upper_lid = (eyes[0]['contours'][12, :2] + eyes[1]['contours'][12, :2]) / 2
    return {
        'gazeY (iris vs corner line, facecap)': (per_eye[0][2] + per_eye[1][2]) / 2,
        'iris vs lower lid (facecap)': (to_lower_lid(eyes[0], True) + to_lower_lid(eyes[1], False)) / 2,
        'opening, less open eye': min(per_eye[0][0], per_eye[1][0]),
        'iris vs nasion (mesh 168)': float((iris - lms[168, :2]) @ down / iod),
        'iris vs nose bridge (mesh 6)': float((iris - lms[6, :2]) @ down / iod),
        'iris vs brows (mesh)': float((iris - lms[BROWS, :2].mean(0)) @ down / iod),
        'iris vs mesh eye corners': float((iris - lms[[33, 133, 362, 263], :2].mean(0)) @ down / iod),
        'iris vs cheekbones (mesh)': float((iris - lms[[116, 117, 118, 345, 346, 347], :2].mean(0)) @ down / iod),
        'iris vs nose tip (mesh 1)': float((iris - lms[1, :2]) @ down / iod),
        'upper lid vs brows': float((upper_lid - lms[BROWS, :2].mean(0)) @ down / iod),
        'mesh upper lid vs brows': float((lms[[159, 386], :2].mean(0) - lms[BROWS, :2].mean(0)) @ down / iod),
        'mouth width (gate)': float(np.linalg.norm(lms[61, :2] - lms[291, :2]) / face_width),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--degrees', type=float, default=20)
    ap.add_argument('--gate-opening', type=float, default=None,
                    help='compare two readings only when the later eye opening is at most this much wider')
    ap.add_argument('--gate-mouth', type=float, default=None,
                    help='compare two readings only when their mouth widths differ by at most this')
    ap.add_argument('--out')
    args = ap.parse_args()
    rows = realset.uncovered_clean_rows()
    run = lite_iris()
    if args.out:
        os.makedirs(args.out, mode=0o700, exist_ok=True)
    results = []
    for r in rows:
        img = np.asarray(Image.open(os.path.join(ROOT, r['frame'])).convert('RGB'), dtype=np.float32)
        before = read(img, run)
        if before is None:
            print(f'{r["id"]} {r["variant"]}: no face')
            continue
        eyes = before[1]
        turned = mef.look_vertically(mef.look_vertically(img, eyes[0], True, args.degrees), eyes[1], False,
                                     args.degrees)
        turned = np.clip(np.round(turned), 0, 255).astype(np.uint8)
        after = read(turned.astype(np.float32), run)
        kept = after is not None and mef.reads_vertical_gaze(eyes, after[1], args.degrees)
        results.append(dict(id=r['id'], variant=r['variant'], tags=r['tags'], kept=kept, on=measures(before),
                            down=measures(after) if after else None))
        if kept and args.out:
            Image.fromarray(turned).save(os.path.join(args.out, f'{r["id"]}__{r["variant"]}_down{args.degrees:g}.png'))
    kept = [x for x in results if x['kept']]
    print(f'{len(kept)}/{len(results)} frames turned {args.degrees:g}° down and read turned by LiteRT '
          f'(rejected: {", ".join(x["id"] + " " + x["variant"] for x in results if not x["kept"]) or "none"})\n')

    same = [x for x in results if 'same_person_ft3' in x['tags']]

    def alike(a, b):
        if args.gate_opening is not None and \
                b['opening, less open eye'] - a['opening, less open eye'] > args.gate_opening:
            return False
        return args.gate_mouth is None or abs(b['mouth width (gate)'] - a['mouth width (gate)']) <= args.gate_mouth
    print(f'{"measure":38s} {"on the camera":>16s} {"turned down":>16s} {"gap":>7s} | {"own turn moves it":>17s} '
          f'{"median":>7s} | {"same person, other expression":>29s}')
    for key in kept[0]['on']:
        if key == 'mouth width (gate)':
            continue
        on = [x['on'][key] for x in results]
        down = [x['down'][key] for x in kept]
        own = [x['down'][key] - x['on'][key] for x in kept if alike(x['on'], x['down'])]
        pairs = [b['on'][key] - a['on'][key] for a, b in itertools.permutations(same, 2) if alike(a['on'], b['on'])]
        sign = 1 if np.median(own) >= 0 else -1
        gap = (min(down) - max(on)) if sign > 0 else (min(on) - max(down))
        worst = max(p * sign for p in pairs) * sign if pairs else float('nan')
        print(f'{key:38s} {min(on):+.3f}…{max(on):+.3f} {min(down):+.3f}…{max(down):+.3f} {gap:+.3f} | '
              f'{min(own):+.3f}…{max(own):+.3f} {np.median(own):+.3f} | up to {worst:+.3f} over {len(pairs)} pairs')


if __name__ == '__main__':
    main()
