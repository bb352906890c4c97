#!/usr/bin/env python3
"""Golden data for the iris model tests (Tests/Fixtures/golden/iris_*), from the fixture photos.

For sergey.png and grace_hopper.jpg: the reference pipeline (ref_pipeline.py: detector + FaceMesh, NumPy)
finds the face, tools/iris_ref.py cuts each eye's 64x64 input, and
  - LiteRT (ai_edge_litert, 1 thread) runs iris_landmark.tflite on it: the golden outputs
    iris_<photo>_<eye>_contours_1x213.f32 and iris_<photo>_<eye>_iris_1x15.f32 (raw little-endian float32);
  - sergey's two inputs are kept too (iris_sergey_<eye>_input_1x64x64x3.f32), so the model itself is
    compared on exactly LiteRT's input;
  - iris_expected.json: per photo and eye, the ROI and the projected 71 + 5 points in image pixels from the
    reference interpreter (the end-to-end reference the Swift pipeline must meet within 0.5 px).
<eye> is 'r' (landmarks 33->133, the subject's right eye, image-left) or 'l' (362->263, flipped).

Usage: FACECAP_MODEL_DIR=models python3 tools/make_iris_golden.py --ref-tools DIR [--out Tests/Fixtures/golden]
(in a venv with numpy, pillow and ai-edge-litert).
"""
import argparse
import json
import os
import sys

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import iris_ref  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument('--ref-tools', required=True)
ap.add_argument('--out', default=os.path.join(here, '..', 'Tests', 'Fixtures', 'golden'))
args = ap.parse_args()
sys.path.insert(0, args.ref_tools)
import ref_interpreter as ri  # noqa: E402
import ref_pipeline as rp  # noqa: E402
from ai_edge_litert.interpreter import Interpreter  # noqa: E402

path = os.environ.get('FACECAP_MODEL_DIR', 'models') + '/iris_landmark.tflite'
lite = Interpreter(model_path=path, num_threads=1)
lite.allocate_tensors()
ref_model = ri.load_model(path)


def litert(x):
    lite.set_tensor(lite.get_input_details()[0]['index'], x[None])
    lite.invoke()
    outs = {d['name']: lite.get_tensor(d['index']) for d in lite.get_output_details()}
    names = sorted(outs, key=lambda n: outs[n].size, reverse=True)   # contours (213) first, iris (15)
    return outs[names[0]], outs[names[1]]


fixtures = os.path.join(here, '..', 'Tests', 'Fixtures')
expected = {}
for photo, file in (('sergey', 'sergey.png'), ('grace', 'images/grace_hopper.jpg')):
    img = np.asarray(Image.open(os.path.join(fixtures, file)).convert('RGB'), dtype=np.float32)
    H, W, _ = img.shape
    det = rp.detect_faces(img)[0]
    lms, _ = rp.face_mesh(img, rp.detection_to_roi(det, W, H))
    ref_eyes = iris_ref.eyes(rp, ri, ref_model, img, lms)
    lite_eyes = iris_ref.eyes(rp, ri, ref_model, img, lms, run=litert)
    expected[photo] = {'file': file, 'size': [W, H], 'eyes': {}}
    for tag, ref, lit in zip('rl', ref_eyes, lite_eyes):
        diff = max(np.abs(ref['contours_raw'] - lit['contours_raw']).max(), np.abs(ref['iris_raw'] - lit['iris_raw']).max())
        print(f'{photo} {tag}: reference interpreter vs LiteRT max |diff| {diff:.2e}; '
              f'iris centre {np.round(lit["iris"][0, :2], 2).tolist()}')
        lit['contours_raw'].astype('<f4').tofile(os.path.join(args.out, f'iris_{photo}_{tag}_contours_1x213.f32'))
        lit['iris_raw'].astype('<f4').tofile(os.path.join(args.out, f'iris_{photo}_{tag}_iris_1x15.f32'))
        if photo == 'sergey':
            lit['input'].astype('<f4').tofile(os.path.join(args.out, f'iris_{photo}_{tag}_input_1x64x64x3.f32'))
        cx, cy, side, rot = ref['roi']
        expected[photo]['eyes'][tag] = dict(
            roi=dict(cx=cx, cy=cy, side=side, rotation=rot), flipped=ref['flip'],
            contours=np.round(ref['contours'], 4).tolist(), iris=np.round(ref['iris'], 4).tolist())
with open(os.path.join(args.out, 'iris_expected.json'), 'w') as f:
    json.dump(expected, f, indent=0)
