#!/usr/bin/env python3
"""Dark glasses of every tint and shadowed eyes, constructed on the real-photo set's faces, read by facecap.

Issue 32 asks that dark glasses which reflect, are tinted brown or grey, or sit over shadowed eyes be caught,
and that shadowed or squinting eyes not be called covered. No real photo of dark glasses ships in the packages
the real-photo set comes from, so this measures where facecap stands on constructions, kept apart from real
figures: on the clean frames of the set's 20 uncovered faces (.cache/realset/frames, `make eval-real`), the
lenses of `draw_sunglasses` (tools/make_eye_frames.py: two ellipses 1.8 × 1.24 eye widths over the eyes,
placed from the iris model's points read by LiteRT) are filled with the photo itself seen through the lens:

  grey_T        the eye behind a neutral lens passing T of the light (T = 0.12, 0.25, 0.40, 0.55)
  brown_T       the same through a brown lens (R, G, B passing T·1.0, T·0.7, T·0.45)
  mirror        a mirror lens: the eye at 0.08 under a sky-to-ground reflection (luma ~170 at the top to ~60)
                with a bright streak; `mirror_blue` a blue coating (luma ~100 to ~50), `mirror_silver` a silver
                one reflecting a bright room (luma ~228 to ~150: as light as the cheek or lighter)
  shadow_G      no lens: the eye sockets in shadow (a soft blob over each eye, the light times G = 0.45, 0.6),
                as under a brow with light from above — must not read covered

Each lens variant also has a dark rim (the frame, 0.08 eye widths) and a bridge. Prints, per variant, how many
frames facecap calls `faceCovered`, the range of `cover.lensEdge` (the lower of the two eyes; needs a facecap
that reports it), of `cover.eyeTexture` and `cover.eyeDip` (the higher of the two eyes: the mirror rule wants
both low) and the other codes they get.

Usage: FACECAP_MODEL_DIR=models .cache/litert-venv/bin/python tools/lens_sweep.py --binary PATH [--out DIR]
[--place iris|facecap]. Needs numpy, pillow and ai-edge-litert (see tools/gaze_down_probe.py); with
`--place facecap` (the lenses placed on the binary's own FaceMesh eye corners) numpy and pillow alone. docs/calibration.md, "Dark glasses of
every tint (issue 32)", records its figures.
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import gaze_down_probe as probe  # noqa: E402
import realset  # noqa: E402

VARIANTS = ['grey_0.12', 'grey_0.25', 'grey_0.40', 'grey_0.55', 'grey_0.70', 'brown_0.12', 'brown_0.25',
            'brown_0.40', 'brown_0.55', 'brown_0.70', 'mirror', 'mirror_blue', 'mirror_silver', 'shadow_0.35',
            'shadow_0.45', 'shadow_0.60']
# The mirrors' reflections, top to bottom of the lens (RGB): a sky over the ground, a blue mirror coating, and
# a silver one reflecting a bright room (lighter than most skin at the top, as light as it at the bottom).
MIRRORS = {'mirror': ([150, 175, 200], [70, 60, 50]), 'mirror_blue': ([60, 110, 190], [30, 50, 110]),
           'mirror_silver': ([225, 228, 232], [150, 150, 155])}


def lens_geometry(eyes):
    out = []
    for eye in eyes:
        c = eye['contours'][:, :2]
        w = np.linalg.norm(c[8] - c[0])
        out.append(((c[0] + c[8]) / 2 - [0, 0.08 * w], w))
    return out


def facecap_geometry(landmarks):
    """`lens_geometry` from facecap's own FaceMesh eye corners (33–133, 362–263) instead of the iris model's."""
    pts = np.asarray(landmarks, np.float32)[:, :2]
    out = []
    for a, b in ((33, 133), (362, 263)):
        w = np.linalg.norm(pts[b] - pts[a])
        out.append(((pts[a] + pts[b]) / 2 - [0, 0.08 * w], w))
    return out


def analyze(binary, paths):
    reports = {}
    for i in range(0, len(paths), 64):
        result = subprocess.run([binary, 'analyze', '--json', *paths[i:i + 64]], capture_output=True, text=True)
        for line in result.stdout.splitlines():
            d = json.loads(line)
            reports[d['file']] = d
    return reports


def lens_mask(shape, geometry, blur=0.8):
    H, W = shape
    mask = Image.new('L', (W, H), 0)
    d = ImageDraw.Draw(mask)
    for mid, w in geometry:
        d.ellipse([mid[0] - 0.9 * w, mid[1] - 0.62 * w, mid[0] + 0.9 * w, mid[1] + 0.62 * w], fill=255)
    return np.asarray(mask.filter(ImageFilter.GaussianBlur(blur)), np.float32)[..., None] / 255


def with_lenses(img, geometry, variant):
    H, W, _ = img.shape
    a = lens_mask((H, W), geometry)
    if variant.startswith('grey_'):
        seen = img * float(variant[5:])
    elif variant.startswith('brown_'):
        seen = img * float(variant[6:]) * np.array([1.0, 0.7, 0.45], np.float32)
    else:  # a mirror
        yy = np.arange(H, dtype=np.float32)[:, None, None]
        top = min(m[1] - 0.62 * w for m, w in geometry)
        bottom = max(m[1] + 0.62 * w for m, w in geometry)
        t = np.clip((yy - top) / max(bottom - top, 1), 0, 1)
        upper, lower = MIRRORS[variant]
        sky = (1 - t) * np.array(upper, np.float32) + t * np.array(lower, np.float32)
        seen = img * 0.08 + sky * np.ones((1, W, 1), np.float32)
        for mid, w in geometry:  # a bright diagonal streak across each lens
            xx = np.arange(W, dtype=np.float32)[None, :]
            d = np.abs((xx - mid[0]) + (yy[..., 0] - mid[1]) * 0.8) / (0.12 * w)
            seen = seen + 80 * np.exp(-d ** 2)[..., None] * (np.abs(yy[..., 0] - mid[1]) < 0.5 * w)[..., None]
    out = img * (1 - a) + seen * a
    im = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(im)
    (m0, w0), (m1, w1) = geometry
    rim = max(2, int(0.08 * w0))
    for mid, w in geometry:
        draw.ellipse([mid[0] - 0.9 * w, mid[1] - 0.62 * w, mid[0] + 0.9 * w, mid[1] + 0.62 * w],
                     outline=(25, 22, 20), width=rim)
    draw.line([(m0[0] + 0.85 * w0, m0[1] - 0.3 * w0), (m1[0] - 0.85 * w1, m1[1] - 0.3 * w1)], fill=(25, 22, 20),
              width=rim)
    return np.asarray(im)


def with_shadow(img, geometry, gain):
    H, W, _ = img.shape
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    shade = np.zeros((H, W), np.float32)
    for mid, w in geometry:
        shade = np.maximum(shade, np.exp(-(((xx - mid[0]) / (0.9 * w)) ** 2 + ((yy - mid[1] + 0.1 * w) / (0.6 * w)) ** 2)))
    return np.clip(img * (1 - (1 - gain) * shade[..., None]), 0, 255).astype(np.uint8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--binary', required=True)
    ap.add_argument('--out', help='keep the frames here (default: a temporary folder)')
    ap.add_argument('--place', choices=['iris', 'facecap'], default='iris',
                    help="where the lenses go: the iris model's eye corners read by LiteRT (default), or the "
                         "binary's own FaceMesh corners (`analyze --json`; needs no LiteRT)")
    args = ap.parse_args()
    rows = realset.uncovered_clean_rows()
    out = args.out or tempfile.mkdtemp(prefix='lens_sweep_')
    os.makedirs(out, mode=0o700, exist_ok=True)
    run = probe.lite_iris() if args.place == 'iris' else None
    placed = analyze(args.binary, [os.path.join(ROOT, r['frame']) for r in rows]) if run is None else {}
    files = {}
    for r in rows:
        img = np.asarray(Image.open(os.path.join(ROOT, r['frame'])).convert('RGB'), dtype=np.float32)
        if run is None:
            faces = placed.get(os.path.join(ROOT, r['frame']), {}).get('faces') or [{}]
            geometry = facecap_geometry(faces[0]['landmarks']) if faces[0].get('landmarks') else None
        else:
            reading = probe.read(img, run)
            geometry = lens_geometry(reading[1]) if reading is not None else None
        if geometry is None:
            print(f'{r["id"]} {r["variant"]}: no face')
            continue
        for variant in VARIANTS:
            frame = with_shadow(img, geometry, float(variant[7:])) if variant.startswith('shadow_') \
                else with_lenses(img, geometry, variant)
            path = os.path.join(out, f'{r["id"]}__{r["variant"]}__{variant}.png')
            Image.fromarray(frame).save(path)
            files[path] = variant
    reports, edges, flat = {}, {}, {}
    paths = sorted(files)
    for path, d in analyze(args.binary, paths).items():
        reports[path] = d['guidance']
        cover = ((d.get('metrics') or {}).get('cover') or {})
        edges[path] = min(cover.get('lensEdge') or [0])
        if cover.get('eyeTexture') and cover.get('eyeDip'):
            flat[path] = (max(cover['eyeTexture']), max(cover['eyeDip']))
    print(f'{"variant":13s} {"frames":>6s} {"faceCovered":>11s}  {"lensEdge (lower eye)":>20s}  '
          f'{"eyeTexture, eyeDip (more of the two eyes)":>42s}  other codes')

    def span(values, digits):
        return f'{min(values):.{digits}f}…{max(values):.{digits}f}' if values else '-'

    for variant in VARIANTS:
        mine = [p for p in paths if files[p] == variant]
        got = [reports.get(p, ['(unread)']) for p in mine]
        covered = sum('faceCovered' in g for g in got)
        other = collections.Counter(c for g in got for c in g if c != 'faceCovered')
        seen = [edges[p] for p in mine if edges.get(p) is not None]
        textures = [flat[p][0] for p in mine if p in flat]
        dips = [flat[p][1] for p in mine if p in flat]
        both = f'{span(textures, 3)}, {span(dips, 3)}'
        print(f'{variant:13s} {len(got):6d} {covered:11d}  {span(seen, 2):>20s}  {both:>42s}  '
              f'{dict(other.most_common())}')


if __name__ == '__main__':
    main()
