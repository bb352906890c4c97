#!/usr/bin/env python3
"""Golden data for the hand-landmark model tests (Tests/Fixtures/golden/hand_*), and the hand flag LiteRT
gives on the mouth crops of any photos named on the command line.

The crop is the one `HandLandmarker` cuts: a square around the mouth (the middle of FaceMesh landmarks 13
and 14) moved 0.1 face widths (234 -> 454) down the face, level with the eyes (33 -> 263), 224x224, RGB
in [0, 1], bilinear with a zero border; crop A is 1.2 face widths wide, crop B 1.0 and turned 20 degrees
the other way (`HandLandmarker.crops`). The face comes from the reference pipeline
(tools/reference/ref_pipeline.py: detector + FaceMesh in NumPy).

Writes, for crop A of Tests/Fixtures/eyes/sergey_hand_mouth_across.jpg (a constructed hand across the mouth):
  hand_input_1x224x224x3.f32           the model input (raw little-endian float32, NHWC)
  hand_landmarks_1x63.f32, hand_flag_1x1.f32, hand_handedness_1x1.f32, hand_world_1x63.f32
                                       LiteRT's outputs for it (ai-edge-litert, 1 thread)
and prints the flag of both crops for every PHOTO (and the fixture).

Usage: FACECAP_MODEL_DIR=models python3 tools/make_hand_golden.py [--out Tests/Fixtures/golden] [PHOTO...]
(in a venv with numpy, pillow and ai-edge-litert).
"""
import argparse
import math
import os
import sys

import numpy as np
from PIL import Image

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, 'reference'))
import ref_pipeline as rp  # noqa: E402
from ai_edge_litert.interpreter import Interpreter  # noqa: E402

CROPS = ((1.2, 0.0), (1.0, -20.0))   # (side in face widths, turn in degrees), as HandLandmarker.crops
DOWN = 0.1                           # the centre's shift down the face, in face widths


def face_points(img):
    H, W, _ = img.shape
    dets = rp.detect_faces(img)
    if not dets:
        return None
    det = max(dets, key=lambda d: d['box'][2] - d['box'][0])
    lms, _ = rp.face_mesh(img, rp.detection_to_roi(det, W, H))
    return None if lms is None else lms[:, :2] * [W, H]


def crop(img, P, side_fw, turn_deg):
    across = P[263] - P[33]
    roll = math.atan2(across[1], across[0])
    down = np.array([-across[1], across[0]]) / np.linalg.norm(across)
    fw = float(np.linalg.norm(P[454] - P[234]))
    centre = (P[13] + P[14]) / 2 + DOWN * fw * down
    side = side_fw * fw
    t = rp.sample_rotated_rect(img, centre[0], centre[1], side, side, roll + math.radians(turn_deg), 224, 224, 'zero')
    return (t / 255.0).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', default=os.path.join(here, '..', 'Tests', 'Fixtures', 'golden'))
    ap.add_argument('photos', nargs='*')
    args = ap.parse_args()
    path = os.environ.get('FACECAP_MODEL_DIR', 'models') + '/hand_landmark_full.tflite'
    lite = Interpreter(model_path=path, num_threads=1)
    lite.allocate_tensors()
    outs = {d['name']: d['index'] for d in lite.get_output_details()}

    def run(x):
        lite.set_tensor(lite.get_input_details()[0]['index'], x[None])
        lite.invoke()
        return {n: lite.get_tensor(i).copy() for n, i in outs.items()}

    fixture = os.path.join(here, '..', 'Tests', 'Fixtures', 'eyes', 'sergey_hand_mouth_across.jpg')
    img = np.asarray(Image.open(fixture).convert('RGB'), dtype=np.float32)
    x = crop(img, face_points(img), *CROPS[0])
    y = run(x)
    x.astype('<f4').tofile(os.path.join(args.out, 'hand_input_1x224x224x3.f32'))
    for name, file in (('Identity', 'hand_landmarks_1x63'), ('Identity_1', 'hand_flag_1x1'),
                       ('Identity_2', 'hand_handedness_1x1'), ('Identity_3', 'hand_world_1x63')):
        y[name].astype('<f4').tofile(os.path.join(args.out, file + '.f32'))
    print(f'golden: {os.path.basename(fixture)} crop A flag {float(y["Identity_1"].ravel()[0]):.4f}')
    for photo in [fixture] + args.photos:
        img = np.asarray(Image.open(photo).convert('RGB'), dtype=np.float32)
        P = face_points(img)
        if P is None:
            print(f'{os.path.basename(photo)}: no face')
            continue
        flags = [float(run(crop(img, P, *c))['Identity_1'].ravel()[0]) for c in CROPS]
        print(f'{os.path.basename(photo)}: flag A {flags[0]:.3f} B {flags[1]:.3f} max {max(flags):.3f}')


main()
