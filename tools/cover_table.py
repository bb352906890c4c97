#!/usr/bin/env python3
"""Per-category figures of the cover measures on the constructed frames (docs/calibration.md, "A hand over the
mouth" and "Masks of any colour").

Runs `facecap analyze --json` on every image in the folders (made by tools/make_cover_frames.py and
tools/make_eye_frames.py, optionally framed by tools/calibrate_eyes.py --frames) and prints per category (from
the variant in the file name: hand_h/hr = across, hand_d/dr = diagonal, hand_v = fingers up, hand_mouth = the
flat drawn hand, mask_*, beard/moustache/goatee/stubble, fringe, sunglasses, hand_eye, uncovered): the frames
with a face, the hand flag's highest reading and how many reach `minHandOverMouth` (0.5), the lower face's hue
(lowest and highest), how many get the `mouth` region, and how many `faceCovered`, with the rule that caught
them (hand model, hue, the neutral dark lower face, the older mouth rules), and how many get the eye regions
(`eyes`: both eyes, `eye`: one).

Usage: tools/cover_table.py [--binary .build/release/facecap] FOLDER...
"""
import argparse
import collections
import glob
import json
import os
import re
import subprocess

CATEGORIES = [
    ('hand across', r'_hand_h[r]?_\d'), ('hand diagonal', r'_hand_d[r]?_\d'), ('fingers up', r'_hand_v_\d'),
    ('flat drawn hand', r'_hand_mouth'), ('hand over an eye', r'_hand_eye'), ('sunglasses', r'_sunglasses(_w\d+_g\d+)?$'),
    ('mask, pleated green', r'_mask_pleated_green'), ('mask, pleated blue', r'_mask_pleated_blue'),
    ('mask, pleated white', r'_mask_pleated_white'), ('mask, printed', r'_mask_printed'),
    ('mask, light blue (flat)', r'_mask_surgical'), ('mask, dark cloth', r'_mask_cloth'),
    ('mask, black/charcoal', r'_mask_(black|charcoal)_'), ('mask, navy', r'_mask_navy_'),
    ('mask, brown', r'_mask_brown_'),
    ('sunglasses, dark', r'_sunglasses_dark'), ('sunglasses, brown', r'_sunglasses_brown'),
    ('sunglasses, gradient', r'_sunglasses_gradient'), ('sunglasses, reflecting', r'_sunglasses_reflect'),
    ('brow shadow (uncovered)', r'_shadow_brow'), ('side light (uncovered)', r'_shadow_side'),
    ('clear glasses, dim (uncovered)', r'_shadow_glasses_dim'),
    ('beard', r'_beard_'), ('moustache', r'_moustache_'), ('goatee', r'_goatee_'), ('stubble', r'_stubble'),
    ('fringe', r'_fringe_'), ('uncovered (open, closed, gaze)', r'_(open|closed|gaze_\w+)(_w\d+_g\d+)?$'),
]


def neutral(c):
    """The neutral dark lower face (a black or charcoal mask) by the default thresholds."""
    low, up, luma = c.get('lowerFaceSaturation'), c.get('upperFaceSaturation'), c.get('lowerToUpperLuma')
    return None not in (low, up, luma) and up >= 0.04 and low < 0.07 and low < up and luma < 0.6


def category(name):
    for label, pattern in CATEGORIES:
        if re.search(pattern, name):
            return label
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--binary', default='.build/release/facecap')
    ap.add_argument('folders', nargs='+')
    args = ap.parse_args()
    files = sorted(f for folder in args.folders for f in glob.glob(os.path.join(folder, '*'))
                   if f.endswith(('.png', '.jpg')))
    rows = collections.defaultdict(list)
    for start in range(0, len(files), 64):
        out = subprocess.run([args.binary, 'analyze', '--json'] + files[start:start + 64], capture_output=True,
                             text=True).stdout
        for line in out.splitlines():
            d = json.loads(line)
            name = os.path.splitext(os.path.basename(d['file']))[0]
            label = category(name)
            if label is None:
                continue
            cover = d['metrics'].get('cover')
            rows[label].append((name, cover, d['guidance']))
    print(f'{"frames":32s} {"n":>4s} {"no face":>7s} {"hand max":>8s} {">=0.5":>5s} {"hue":>11s} '
          f'{"mouth":>5s} {"covered":>7s}  by: hand hue neutral older  eyes eye')
    for label, _ in CATEGORIES:
        entries = rows.get(label, [])
        if not entries:
            continue
        seen = [(n, c, g) for n, c, g in entries if c]
        flags = [c.get('handOverMouth') or 0 for _, c, _ in seen]
        hues = [c.get('lowerFaceHue') or 0 for _, c, _ in seen]
        mouth = sum('mouth' in c['regions'] for _, c, _ in seen)
        covered = sum('faceCovered' in g for _, _, g in entries)
        by_hand = sum((c.get('handOverMouth') or 0) >= 0.5 for _, c, _ in seen)
        by_hue = sum((c.get('lowerFaceHue') or 0) > 9 for _, c, _ in seen)
        by_neutral = sum(neutral(c) for _, c, _ in seen)
        older = sum('mouth' in c['regions'] and (c.get('handOverMouth') or 0) < 0.5 and (c.get('lowerFaceHue') or 0) <= 9
                    and not neutral(c) for _, c, _ in seen)
        eyes = sum('eyes' in c['regions'] for _, c, _ in seen)
        eye = sum('eye' in c['regions'] for _, c, _ in seen)
        print(f'{label:32s} {len(entries):4d} {len(entries) - len(seen):7d} {max(flags, default=0):8.3f} '
              f'{sum(f >= 0.5 for f in flags):5d} {min(hues, default=0):5.1f}–{max(hues, default=0):<5.1f} '
              f'{mouth:5d} {covered:7d}  {by_hand:4d} {by_hue:3d} {by_neutral:7d} {older:5d}  {eyes:4d} {eye:3d}')


if __name__ == '__main__':
    main()
