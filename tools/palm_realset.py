#!/usr/bin/env python3
"""What MediaPipe's palm detector alone finds on the real-photo set's frames (tools/realset.py frames), run by LiteRT:
for each frame with a face (`facecap analyze --json`: its box), the detector on squares of 2x and 3x the face box's
longer side around its centre (letterboxed to 192x192, zero border), and the best palm score whose box meets the
face box. Groups: `constructed:hand` full and partial covers, the real hands (hand_eye, hand_mouth, hand_face), and
the real frames of faces not covered (every other webcam category). Prints, per model and crop, how many frames
reach 0.5 and 0.7 and the highest score, and each model's median invoke time (1 thread).

Usage: FACECAP_MODEL_DIR=models .cache/realset/venv/bin/python tools/palm_realset.py --binary BIN \
           MODEL.tflite [MODEL.tflite...]
(numpy, pillow, ai-edge-litert; decoding as tools/make_palm_golden.py, without the suppression: only the best
score matters here).
"""
import argparse
import collections
import csv
import json
import math
import os
import subprocess
import time

import numpy as np
from PIL import Image
from ai_edge_litert.interpreter import Interpreter

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')


def anchors():
    out = []
    for stride, per in ((8, 2), (16, 6)):
        f = math.ceil(192 / stride)
        for y in range(f):
            for x in range(f):
                out += [((x + 0.5) / f, (y + 0.5) / f)] * per
    return np.array(out, np.float32)


ANCHORS = anchors()


class Palm:
    def __init__(self, path):
        self.it = Interpreter(model_path=path, num_threads=1)
        self.it.allocate_tensors()
        self.inp = self.it.get_input_details()[0]['index']
        o = {d['name']: d['index'] for d in self.it.get_output_details()}
        self.reg, self.cls = o['Identity'], o['Identity_1']
        self.times = []

    def best_over(self, image, crop, face):
        x0, y0, x1, y1 = crop
        s = 192 / (x1 - x0)
        t = image.transform((192, 192), Image.AFFINE, (1 / s, 0, x0, 0, 1 / s, y0), resample=Image.BILINEAR,
                            fillcolor=(0, 0, 0))
        self.it.set_tensor(self.inp, (np.asarray(t, np.float32) / 255)[None])
        t0 = time.perf_counter()
        self.it.invoke()
        self.times.append(time.perf_counter() - t0)
        reg = self.it.get_tensor(self.reg)[0]
        score = 1 / (1 + np.exp(-np.clip(self.it.get_tensor(self.cls)[0, :, 0], -100, 100)))
        best = 0.0
        for i in np.argsort(-score)[:50]:
            cx, cy = x0 + (reg[i, 0] / 192 + ANCHORS[i, 0]) * 192 / s, y0 + (reg[i, 1] / 192 + ANCHORS[i, 1]) * 192 / s
            w, h = reg[i, 2] / s, reg[i, 3] / s
            ix = min(cx + w / 2, face[2]) - max(cx - w / 2, face[0])
            iy = min(cy + h / 2, face[3]) - max(cy - h / 2, face[1])
            if ix > 0 and iy > 0:
                best = max(best, float(score[i]))
        return best


def group(row):
    c = row['category']
    if c == 'constructed:hand':
        return 'constructed:hand ' + ('partial' if '_part_' in row['frame'] else 'full')
    if c in ('hand_eye', 'hand_mouth', 'hand_face'):
        return 'real hands'
    if c.startswith('constructed'):
        return None
    return 'real, not covered'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--binary', required=True)
    ap.add_argument('models', nargs='+')
    args = ap.parse_args()
    with open(os.path.join(ROOT, '.cache/realset/frames/index.tsv'), newline='') as f:
        rows = [r for r in csv.DictReader(f, delimiter='\t') if group(r)]
    files = [os.path.join(ROOT, r['frame']) for r in rows]
    faces = {}
    for i in range(0, len(files), 64):
        out = subprocess.run([args.binary, 'analyze', '--json'] + files[i:i + 64], capture_output=True, text=True)
        for line in out.stdout.splitlines():
            d = json.loads(line)
            if d.get('faces'):
                faces[d['file']] = d['faces'][0]['box']
    palms = {os.path.basename(m): Palm(m) for m in args.models}
    table = collections.defaultdict(lambda: collections.defaultdict(list))
    for r, path in zip(rows, files):
        if path not in faces:
            continue
        x, y, w, h = faces[path]
        image = Image.open(path).convert('RGB')
        for name, palm in palms.items():
            for k in (2, 3):
                side = k * max(w, h)
                crop = (x + w / 2 - side / 2, y + h / 2 - side / 2, x + w / 2 + side / 2, y + h / 2 + side / 2)
                table[group(r)][(name, k)].append(palm.best_over(image, crop, (x, y, x + w, y + h)))
    for g in sorted(table):
        for (name, k), v in sorted(table[g].items()):
            v = np.array(v)
            print(f'{g}: {name} {k}x face: n {len(v)}, >= 0.5 {int((v >= 0.5).sum())}, >= 0.7 {int((v >= 0.7).sum())}, '
                  f'max {v.max():.2f}')
    for name, palm in palms.items():
        print(f'{name}: LiteRT median {1000 * float(np.median(palm.times)):.2f} ms of {len(palm.times)} invokes')


main()
