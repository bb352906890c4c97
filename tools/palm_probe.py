#!/usr/bin/env python3
"""Measures whether MediaPipe's palm detector (and its hand-landmark model's hand flag) sees a hand over the
mouth or an eye, run by LiteRT — an experiment, not wired into facecap (docs/notes/palm-detector.md).

For every image: `facecap analyze --json` gives the face box and the detector's keypoints (eyes, mouth
centre). The palm detector (palm_detection_full.tflite, 192x192, [0,1], letterboxed with zero borders like
MediaPipe's ImageToTensorCalculator) runs on the whole image and on squares of 2x and 3x the face box around
its centre. Decoding follows palm_detection_cpu.pbtxt: SSD anchors (4 layers, strides 8/16/16/16, fixed size,
offset 0.5 -> 2016), box = raw/192 + anchor, score = sigmoid(clip(raw, +-100)), then IoU-0.3 suppression
(plain, not weighted). Each palm candidate >= --palm-min gets the hand ROI of MediaPipe's hand pipeline
(rotation from keypoint 0 to keypoint 2 to 90 degrees, shift_y -0.5, square long side, scale 2.6) and
hand_landmark_full.tflite's hand flag on that 224x224 crop.

A candidate is "over the mouth" when its palm box intersects a box of +-0.25 x +-0.12 face widths/heights
around the mouth-centre keypoint, "over an eye" likewise +-0.12 x +-0.10 around an eye keypoint.

Usage: tools/palm_probe.py --palm palm_detection_full.tflite --hand hand_landmark_full.tflite
           [--binary .build/release/facecap] [--palm-min 0.3] --out RESULTS.jsonl IMAGE...
       tools/palm_probe.py --table RESULTS.jsonl...
(numpy, pillow, ai-edge-litert). Image names say what they show, as tools/make_cover_frames.py and
tools/make_eye_frames.py write them (hand_h_1, hand_mouth, hand_eye, beard_dark, ...).
"""
import argparse
import json
import math
import os
import subprocess

import numpy as np

CROPS = ('whole', 'sq2.0', 'sq3.0')


def anchors():
    """palm_detection_cpu.pbtxt's SsdAnchorsCalculator: layers of equal stride merged, 2 anchors per layer
    (aspect 1 and the interpolated scale), fixed anchor size, so only the centres matter."""
    out = []
    for stride, per in ((8, 2), (16, 6)):
        f = math.ceil(192 / stride)
        for y in range(f):
            for x in range(f):
                out += [((x + 0.5) / f, (y + 0.5) / f)] * per
    a = np.array(out, np.float32)
    assert len(a) == 2016
    return a


ANCHORS = anchors()


class Probe:
    def __init__(self, palm_path, hand_path):
        from ai_edge_litert.interpreter import Interpreter
        self.palm = Interpreter(model_path=palm_path, num_threads=1)
        self.palm.allocate_tensors()
        self.palm_in = self.palm.get_input_details()[0]['index']
        outs = self.palm.get_output_details()
        self.palm_reg = [o['index'] for o in outs if o['shape'][-1] == 18][0]
        self.palm_cls = [o['index'] for o in outs if o['shape'][-1] == 1][0]
        self.hand = Interpreter(model_path=hand_path, num_threads=1)
        self.hand.allocate_tensors()
        self.hand_in = self.hand.get_input_details()[0]['index']
        self.hand_flag_out = {o['name']: o['index'] for o in self.hand.get_output_details()}['Identity_1']

    def palms(self, image, box, minimum):
        from PIL import Image
        x0, y0, x1, y1 = box
        s = 192 / max(x1 - x0, y1 - y0)
        ox, oy = (192 - (x1 - x0) * s) / 2, (192 - (y1 - y0) * s) / 2
        t = image.transform((192, 192), Image.AFFINE, (1 / s, 0, x0 - ox / s, 0, 1 / s, y0 - oy / s),
                            resample=Image.BILINEAR, fillcolor=(0, 0, 0))
        self.palm.set_tensor(self.palm_in, (np.asarray(t, np.float32) / 255)[None])
        self.palm.invoke()
        reg = self.palm.get_tensor(self.palm_reg)[0]
        score = 1 / (1 + np.exp(-np.clip(self.palm.get_tensor(self.palm_cls)[0, :, 0], -100, 100)))

        def back(i, k):
            u, v = reg[i, k] / 192 + ANCHORS[i, 0], reg[i, k + 1] / 192 + ANCHORS[i, 1]
            return x0 + (u * 192 - ox) / s, y0 + (v * 192 - oy) / s
        found = []
        for i in np.argsort(-score):
            if score[i] < minimum or len(found) == 5:
                break
            cx, cy = back(i, 0)
            w, h = reg[i, 2] / s, reg[i, 3] / s
            b = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
            if any(iou(b, f['box']) > 0.3 for f in found):
                continue
            found.append({'score': float(score[i]), 'box': tuple(map(float, b)), 'w': float(w), 'h': float(h),
                          'k0': back(i, 4), 'k2': back(i, 8)})
        return found

    def hand_flag(self, image, d):
        from PIL import Image
        (x0, y0), (x2, y2) = d['k0'], d['k2']
        r = math.pi / 2 - math.atan2(-(y2 - y0), x2 - x0)
        b = d['box']
        cx = (b[0] + b[2]) / 2 + 0.5 * d['h'] * math.sin(r)
        cy = (b[1] + b[3]) / 2 - 0.5 * d['h'] * math.cos(r)
        k = max(d['w'], d['h']) * 2.6 / 224
        c, s = math.cos(r), math.sin(r)
        t = image.transform((224, 224), Image.AFFINE,
                            (c * k, -s * k, cx - 112 * k * (c - s), s * k, c * k, cy - 112 * k * (s + c)),
                            resample=Image.BILINEAR, fillcolor=(0, 0, 0))
        self.hand.set_tensor(self.hand_in, (np.asarray(t, np.float32) / 255)[None])
        self.hand.invoke()
        return float(self.hand.get_tensor(self.hand_flag_out)[0, 0])


def iou(a, b):
    ix = max(0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0, min(a[3], b[3]) - max(a[1], b[1]))
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / u if u > 0 else 0


def measure(args):
    from PIL import Image
    probe = Probe(args.palm, args.hand)
    result = subprocess.run([args.binary, 'analyze', '--json'] + args.images, capture_output=True, text=True)
    with open(args.out, 'w') as out:
        for line in result.stdout.splitlines():
            d = json.loads(line)
            image = Image.open(d['file']).convert('RGB')
            row = {'file': os.path.basename(d['file'])}
            crops = {'whole': (0, 0, image.width, image.height)}
            if d['faces']:
                face = d['faces'][0]
                x, y, w, h = face['box']
                for k in (2.0, 3.0):
                    side = k * max(w, h)
                    crops[f'sq{k}'] = (x + w / 2 - side / 2, y + h / 2 - side / 2, x + w / 2 + side / 2, y + h / 2 + side / 2)
                row['box'], row['kp'] = face['box'], face['keypoints']
            for name, box in crops.items():
                row[name] = [[p['score'], *p['box'], probe.hand_flag(image, p)] for p in probe.palms(image, box, args.palm_min)]
            out.write(json.dumps(row) + '\n')


def category(name):
    if 'hand_eye' in name:
        return 'hand over an eye'
    if 'hand_mouth' in name:
        return 'hand over the mouth: flat drawing'
    for tag, label in (('hand_hr_', 'across'), ('hand_h_', 'across'), ('hand_dr_', 'diagonal'), ('hand_d_', 'diagonal'),
                       ('hand_v_', 'fingers up')):
        if tag in name:
            return 'hand over the mouth: ' + label
    for k in ('mask', 'sunglasses'):
        if k in name:
            return k
    for k in ('beard', 'moustache', 'goatee', 'stubble', 'fringe'):
        if '_' + k in name:
            return 'uncovered: ' + k + ' (drawn)'
    return 'uncovered: photo (open, closed, gaze)'


def best(row, crop, target, value):
    """Highest palm score (value 0) or hand flag (value 5) of a candidate whose box meets the target region."""
    if crop not in row or 'kp' not in row:
        return None
    x, y, w, h = row['box']
    kp = row['kp']
    mx, my = kp['mouth_centre']
    mouth = [(mx - 0.25 * w, my - 0.12 * h, mx + 0.25 * w, my + 0.12 * h)]
    eyes = [(ex - 0.12 * w, ey - 0.1 * h, ex + 0.12 * w, ey + 0.1 * h) for ex, ey in (kp['right_eye'], kp['left_eye'])]
    regions = {'mouth': mouth, 'eye': eyes, 'face': mouth + eyes}[target]
    meets = [c[value] for c in row[crop] if any(c[1] < r[2] and r[0] < c[3] and c[2] < r[3] and r[1] < c[4] for r in regions)]
    return max(meets, default=0.0)


def table(files):
    rows = [json.loads(line) for f in files for line in open(f)]
    groups = {}
    for r in rows:
        groups.setdefault(category(r['file']), []).append(r)
    print('| frames | n (face found) | palm score over the region: max, ≥ 0.5 per crop (whole / 2× / 3× face) '
          '| hand flag over the region: max, ≥ 0.6 per crop | hand flag ≥ 0.6 in any crop |')
    print('|---|---|---|---|---|')
    for name in sorted(groups):
        rs = [r for r in groups[name] if 'kp' in r]
        target = 'eye' if 'eye' in name else ('mouth' if name.startswith('hand') else 'face')
        cells = []
        for value, limit in ((0, 0.5), (5, 0.6)):
            parts = []
            for crop in CROPS:
                v = [best(r, crop, target, value) for r in rs]
                parts.append(f'{max(v, default=0):.2f}, {sum(x >= limit for x in v)}')
            cells.append(' / '.join(parts))
        anyc = sum(any(best(r, c, target, 5) >= 0.6 for c in CROPS) for r in rs)
        print(f'| {name} | {len(groups[name])} ({len(rs)}) | {cells[0]} | {cells[1]} | {anyc} |')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--palm')
    ap.add_argument('--hand')
    ap.add_argument('--binary', default='.build/release/facecap')
    ap.add_argument('--palm-min', type=float, default=0.3)
    ap.add_argument('--out')
    ap.add_argument('--table', action='store_true')
    ap.add_argument('images', nargs='+')
    args = ap.parse_args()
    if args.table:
        table(args.images)
    else:
        measure(args)


if __name__ == '__main__':
    main()
