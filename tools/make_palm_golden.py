#!/usr/bin/env python3
"""Golden data for the palm detector tests (Tests/Fixtures/golden/palm_*): LiteRT's outputs for one input, and the
palms MediaPipe's palm_detection_cpu.pbtxt decodes from them, computed here independently of facecap.

The input is Tests/Fixtures/images/obama.jpg (a real photo: his two hands on his crossed arms) letterboxed whole
into 192x192 (the longer side fills the tensor, the rest is 0, as ImageToTensorCalculator with keep_aspect_ratio
and BORDER_ZERO), RGB in [0, 1], bilinear. Decoding (palm_detection_cpu.pbtxt): SSD anchors of 4 layers, strides
8/16/16/16, fixed size, offset 0.5 (24x24x2 + 12x12x6 = 2016); box centre = raw/192 + anchor, size = raw/192,
keypoints likewise; score = sigmoid(clip(raw, +-100)) >= 0.5; weighted NMS at IoU 0.3 (each cluster's
score-weighted mean of corners and keypoints, the best score).

Writes into --out:
  palm_input_1x192x192x3.f32                 the model input (raw little-endian float32, NHWC)
  palm_boxes_1x2016x18.f32, palm_scores_1x2016x1.f32   LiteRT's outputs (ai-edge-litert, 1 thread)
  palm_expected.json                         the palms after NMS, in tensor units (0..1 of the letterbox)
and prints them, and the LiteRT median time of --runs invokes.

Usage: python3 tools/make_palm_golden.py --model models/palm_detection_lite.tflite [--out Tests/Fixtures/golden]
(in a venv with numpy, pillow and ai-edge-litert).
"""
import argparse
import json
import math
import os
import time

import numpy as np
from PIL import Image
from ai_edge_litert.interpreter import Interpreter

here = os.path.dirname(os.path.abspath(__file__))


def anchors():
    out = []
    for stride, per in ((8, 2), (16, 6)):
        f = math.ceil(192 / stride)
        for y in range(f):
            for x in range(f):
                out += [((x + 0.5) / f, (y + 0.5) / f)] * per
    return np.array(out, np.float64)


def letterbox(img):
    """The whole image in a 192x192 square, centred, zero border (pixel centres mapped as facecap's SamplingMap:
    tensor pixel i samples the image at (i + 0.5) * side / 192 - 0.5 from the square's corner)."""
    w, h = img.size
    side = max(w, h)
    x0, y0 = (w - side) / 2, (h - side) / 2
    k = side / 192
    t = img.transform((192, 192), Image.AFFINE, (k, 0, x0, 0, k, y0), resample=Image.BILINEAR, fillcolor=(0, 0, 0))
    return (np.asarray(t, np.float32) / 255).astype(np.float32)


def iou(a, b):
    ix = min(a[2], b[2]) - max(a[0], b[0])
    iy = min(a[3], b[3]) - max(a[1], b[1])
    if ix <= 0 or iy <= 0:
        return 0.0
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - ix * iy
    return ix * iy / u if u > 0 else 0.0


def decode(reg, logits, min_score=0.5, threshold=0.3):
    A = anchors()
    score = 1 / (1 + np.exp(-np.clip(logits.astype(np.float64), -100, 100)))
    cands = []
    for i in np.nonzero(score >= min_score)[0]:
        r = reg[i].astype(np.float64)
        cx, cy = r[0] / 192 + A[i, 0], r[1] / 192 + A[i, 1]
        w, h = r[2] / 192, r[3] / 192
        if w < 0 or h < 0:
            continue
        v = [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2]
        for k in range(7):
            v += [r[4 + 2 * k] / 192 + A[i, 0], r[5 + 2 * k] / 192 + A[i, 1]]
        cands.append((float(score[i]), np.array(v)))
    cands.sort(key=lambda c: -c[0])
    out = []
    while cands:
        top = cands[0]
        cluster = [c for j, c in enumerate(cands) if j == 0 or iou(c[1], top[1]) > threshold]
        rest = [c for j, c in enumerate(cands) if not (j == 0 or iou(c[1], top[1]) > threshold)]
        total = sum(c[0] for c in cluster)
        out.append({'score': top[0], 'values': [float(x) for x in sum(c[0] * c[1] for c in cluster) / total],
                    'cluster': len(cluster)})
        cands = rest
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--model', required=True)
    ap.add_argument('--out', default=os.path.join(here, '..', 'Tests', 'Fixtures', 'golden'))
    ap.add_argument('--image', default=os.path.join(here, '..', 'Tests', 'Fixtures', 'images', 'obama.jpg'))
    ap.add_argument('--runs', type=int, default=50)
    args = ap.parse_args()
    lite = Interpreter(model_path=args.model, num_threads=1)
    lite.allocate_tensors()
    outs = {d['name']: d['index'] for d in lite.get_output_details()}
    x = letterbox(Image.open(args.image).convert('RGB'))
    lite.set_tensor(lite.get_input_details()[0]['index'], x[None])
    lite.invoke()
    boxes, scores = lite.get_tensor(outs['Identity']).copy(), lite.get_tensor(outs['Identity_1']).copy()
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        lite.invoke()
        times.append(time.perf_counter() - t0)
    x.astype('<f4').tofile(os.path.join(args.out, 'palm_input_1x192x192x3.f32'))
    boxes.astype('<f4').tofile(os.path.join(args.out, 'palm_boxes_1x2016x18.f32'))
    scores.astype('<f4').tofile(os.path.join(args.out, 'palm_scores_1x2016x1.f32'))
    palms = decode(boxes[0], scores[0, :, 0])
    with open(os.path.join(args.out, 'palm_expected.json'), 'w') as f:
        json.dump({'model': os.path.basename(args.model), 'image': os.path.basename(args.image),
                   'palms': [{'score': round(p['score'], 6), 'values': [round(v, 6) for v in p['values']]}
                             for p in palms]}, f, indent=1)
        f.write('\n')
    for p in palms:
        v = p['values']
        print(f"palm {p['score']:.4f} box {v[0]:.3f},{v[1]:.3f}-{v[2]:.3f},{v[3]:.3f} cluster {p['cluster']}")
    print(f'LiteRT median {1000 * float(np.median(times)):.3f} ms of {args.runs} invokes (1 thread)')


main()
