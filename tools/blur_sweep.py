#!/usr/bin/env python3
"""A medium blur on the real-photo set's faces, read by facecap: does the mirror rule (`CoverMetrics.flatLenses`)
hold on a face just sharp enough to be judged?

The mirror rule is not read on a face that is `blurry` (sharpness under `minSharpness`, 150); the real set has
blur1 (sharpness 186-386) and blur4 (19-37) and nothing between. This blurs the clean frames (0.36 and 0.44 of
the width) of the set's faces that are not covered (.cache/realset/frames, `make eval-real`) with a Gaussian of
σ 1.5, 2, 2.5 and 3 frame pixels (σ 0: the frames as they are), and, drawn as tools/lens_sweep.py draws them on
the uncovered faces (placed on facecap's own FaceMesh corners), the eye sockets in shadow (light × 0.35, 0.45)
and the three mirrors, blurred alike. Prints, per group and σ: the frames, how many are sharp enough to be
judged (no `blurry` in their guidance), and of those the smallest `cover.eyeDip` and `cover.eyeTexture` (each
frame's higher eye: the rule wants both eyes low), how many are flat by the rule's limits (both eyes under
`maxLensTexture` 0.055 and `maxLensDip` 0.18), the smallest `cover.eyeChroma` (the lower eye's) of those flat
ones, how many of them pass `minLensChroma` too (the rule's reading), and how many read `faceCovered`.

Usage: FACECAP_MODEL_DIR=models .cache/realset/venv/bin/python tools/blur_sweep.py --binary B [--out DIR]
[--json]. Needs numpy and pillow. The frames hold faces: written 0600 in a 0700 folder. docs/calibration.md,
"A mirror's flat face", records its figures.
"""
import argparse
import collections
import csv
import json
import os
import sys
import tempfile

import numpy as np
from PIL import Image, ImageFilter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import lens_sweep  # noqa: E402

SIGMAS = (0.0, 1.5, 2.0, 2.5, 3.0)
# the real categories of faces not covered: what each must not be (a lens), whatever else it gets
REAL = {'uncovered': 'uncovered', 'eyes_closed': 'eyes closed (squeezed)', 'averted': 'other real',
        'posed': 'other real', 'downcast': 'other real', 'unclear': 'other real', 'turned': 'other real',
        'tilted': 'other real'}
DRAWN = ('shadow_0.35', 'shadow_0.45', 'mirror', 'mirror_blue', 'mirror_silver')
MAX_TEXTURE, MAX_DIP, MIN_CHROMA = 0.055, 0.18, 7.0


def save(image, path):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, 'wb') as f:
        image.save(f, 'PNG', compress_level=1)


def frames(binary, out):
    """{path: (group, sigma, id)} of every blurred frame written into `out`."""
    index = os.path.join(ROOT, '.cache', 'realset', 'frames', 'index.tsv')
    if not os.path.exists(index):
        sys.exit('no real-photo frames: run `make eval-real` (or tools/realset.py fetch and frames) first')
    rows = [r for r in csv.DictReader(open(index), delimiter='\t')
            if r['category'] in REAL and r['variant'].endswith('_clean')]
    uncovered = [os.path.join(ROOT, r['frame']) for r in rows if r['category'] == 'uncovered']
    placed = lens_sweep.analyze(binary, uncovered)
    made = {}
    for r in rows:
        src = os.path.join(ROOT, r['frame'])
        img = Image.open(src).convert('RGB')
        variants = [(REAL[r['category']], img)]
        faces = placed.get(src, {}).get('faces') or [{}]
        if r['category'] == 'uncovered' and faces[0].get('landmarks'):
            geometry = lens_sweep.facecap_geometry(faces[0]['landmarks'])
            a = np.asarray(img, dtype=np.float32)
            for v in DRAWN:
                drawn = lens_sweep.with_shadow(a, geometry, float(v[7:])) if v.startswith('shadow_') \
                    else lens_sweep.with_lenses(a, geometry, v)
                variants.append((v, Image.fromarray(drawn)))
        for group, base in variants:
            for sigma in SIGMAS:
                frame = base.filter(ImageFilter.GaussianBlur(sigma)) if sigma else base
                name = f'{r["id"]}__{r["variant"]}__{group.split(" ")[0]}__s{sigma}.png'
                path = os.path.join(out, name)
                save(frame, path)
                made[path] = (group, sigma, f'{r["id"]} {r["variant"]}')
    return made


def summary(made, reports):
    table = collections.defaultdict(lambda: dict(frames=0, judged=0, dip=None, dipAt='', texture=None,
                                                 textureAt='', flat=0, chroma=None, chromaAt='', lens=0,
                                                 covered=0))
    for path, (group, sigma, name) in made.items():
        e = table[(group, sigma)]
        e['frames'] += 1
        d = reports.get(path) or {}
        guidance = d.get('guidance') or []
        if 'faceCovered' in guidance:
            e['covered'] += 1
        cover = (d.get('metrics') or {}).get('cover') or {}
        if 'blurry' in guidance or not d.get('metrics') or not cover.get('eyeDip'):
            continue
        e['judged'] += 1
        dip, texture = max(cover['eyeDip']), max(cover['eyeTexture'])
        if e['dip'] is None or dip < e['dip']:
            e['dip'], e['dipAt'] = dip, name
        if e['texture'] is None or texture < e['texture']:
            e['texture'], e['textureAt'] = texture, name
        if dip < MAX_DIP and texture < MAX_TEXTURE:
            e['flat'] += 1
            # an eye whose colour was not measured (clipped) passes the chroma limit, as in the rule
            chroma = min(c if c is not None else float('inf') for c in (cover.get('eyeChroma') or [None]))
            if e['chroma'] is None or chroma < e['chroma']:
                e['chroma'], e['chromaAt'] = chroma, name
            e['lens'] += chroma >= MIN_CHROMA
    return table


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--binary', required=True)
    ap.add_argument('--out', help='keep the frames here (default: a temporary folder)')
    ap.add_argument('--json', action='store_true', help='print the table as JSON')
    args = ap.parse_args()
    os.umask(0o077)
    out = args.out or tempfile.mkdtemp(prefix='blur_sweep_')
    os.makedirs(out, mode=0o700, exist_ok=True)
    made = frames(args.binary, out)
    reports = lens_sweep.analyze(args.binary, sorted(made))
    table = summary(made, reports)
    order = ['uncovered', 'eyes closed (squeezed)', 'other real'] + list(DRAWN)
    keys = sorted(table, key=lambda k: (order.index(k[0]), k[1]))
    if args.json:
        print(json.dumps([dict(group=g, sigma=s, **table[(g, s)]) for g, s in keys], indent=1))
        return
    print(f'{"group":24s} {"σ":>4s} {"frames":>6s} {"judged":>6s}  {"min eyeDip (at)":>34s}  '
          f'{"min eyeTexture (at)":>34s} {"flat":>4s} {"min eyeChroma of flat (at)":>34s} {"lens":>4s} '
          f'{"faceCovered":>11s}')
    for g, s in keys:
        e = table[(g, s)]
        dip = f'{e["dip"]:.3f} ({e["dipAt"]})' if e['dip'] is not None else '-'
        tex = f'{e["texture"]:.3f} ({e["textureAt"]})' if e['texture'] is not None else '-'
        chroma = f'{e["chroma"]:.1f} ({e["chromaAt"]})' if e['chroma'] is not None else '-'
        print(f'{g:24s} {s:4.1f} {e["frames"]:6d} {e["judged"]:6d}  {dip:>34s}  {tex:>34s} {e["flat"]:4d} '
              f'{chroma:>34s} {e["lens"]:4d} {e["covered"]:11d}')


if __name__ == '__main__':
    main()
