#!/usr/bin/env python3
"""Calibrates the analyzer's thresholds (Sources/FaceCapCore/Analysis/AnalyzerThresholds.swift) on real
face photos, and prints the numbers docs/calibration.md records.

For each photo it finds the face with the MediaPipe reference pipeline (NumPy + the two .tflite
models), builds webcam-like 640x480 frames from it (the face scaled to a given width of the frame,
placed on mid-grey, optionally darkened, brightened, blurred, rotated or given sensor noise), runs the
pipeline again on each constructed frame, and computes the same measures as the Swift code:

  light      mean luma / under-, over-exposed fractions / half-to-half balance on the inner 80 % x 90 %
             of the face box, sampled on a grid of at most 64 x 64
  sharpness  variance of the 4-neighbour Laplacian on the central 70 % of the box resampled to 64 x 64
             (up to 3 x 3 taps per pixel), scaled by (128 / crop mean)^2
  pose       weighted Procrustes of 11 canonical-model vertices onto the landmarks (yaw, pitch, roll)
  eyes       6-point eye aspect ratio per eye; mouth: inner-lip gap over inner mouth width

Usage (from the repository root, after `make models`):
  python3 tools/calibrate.py Tests/Fixtures/sergey.png Tests/Fixtures/images/grace_hopper.jpg [MORE PHOTOS...]
The MediaPipe reference pipeline (NumPy + the two .tflite models) is in tools/reference; --ref-tools DIR
uses another copy. The models are read from $FACECAP_MODEL_DIR (default: models/ beside tools/).
docs/calibration.md lists the other photos it was run on (not in the repository). Needs numpy and pillow.
"""
import argparse
import math
import os
import sys

import numpy as np
from PIL import Image, ImageFilter

FRAME_W, FRAME_H = 640, 480

# ---------------------------------------------------------------- measures (mirror the Swift code) --
CANONICAL = [  # index, (X, Y, Z) of canonical_face_model.obj, weight
    (1, (0, -1.127, 7.476), 1), (4, (0, -0.463, 7.587), 1), (10, (0, 8.262, 4.482), 1),
    (33, (-4.446, 2.664, 3.173), 1), (263, (4.446, 2.664, 3.173), 1),
    (133, (-1.856, 2.585, 3.758), 1), (362, (1.856, 2.585, 3.758), 1),
    (61, (-2.456, -4.343, 4.284), 0.5), (291, (2.456, -4.343, 4.284), 0.5),
    (152, (0, -9.403, 4.264), 1), (199, (0, -7.942, 5.181), 1),
]


def luma_of(rgb):
    rgb = rgb.astype(np.int32)
    return ((77 * rgb[..., 0] + 150 * rgb[..., 1] + 29 * rgb[..., 2] + 128) >> 8).astype(np.int32)


def at(luma, x, y):
    h, w = luma.shape
    return luma[np.clip(y, 0, h - 1), np.clip(x, 0, w - 1)]


def light(luma, box, nose_x):
    x, y, w, h = box
    rx, ry, rw, rh = x + 0.1 * w, y + 0.05 * h, 0.8 * w, 0.9 * h
    H, W = luma.shape
    x0, y0 = max(0, int(math.floor(rx))), max(0, int(math.floor(ry)))
    x1, y1 = min(W, int(math.ceil(rx + rw))), min(H, int(math.ceil(ry + rh)))
    sx, sy = max(1, (x1 - x0) // 64), max(1, (y1 - y0) // 64)
    xs = np.arange(x0 + sx // 2, x1, sx)
    ys = np.arange(y0 + sy // 2, y1, sy)
    v = luma[np.ix_(ys, xs)]
    left = v[:, xs < int(round(nose_x))]
    right = v[:, xs >= int(round(nose_x))]
    lm = left.mean() if left.size else v.mean()
    rm = right.mean() if right.size else v.mean()
    return dict(mean=float(v.mean()), dark=float((v <= 25).mean()), bright=float((v >= 250).mean()),
                balance=1.0 if max(lm, rm) < 1 else float(min(lm, rm) / max(lm, rm)))


def sharpness(luma, box):
    x, y, w, h = box
    rx, ry, rw, rh = x + 0.15 * w, y + 0.15 * h, 0.7 * w, 0.7 * h
    n = 64
    scx, scy = rw / n, rh / n
    tx, ty = min(3, max(1, int(round(scx)))), min(3, max(1, int(round(scy))))
    i = np.arange(n)
    crop = np.zeros((n, n))
    for b in range(ty):
        sy = (ry + (i + (b + 0.5) / ty) * scy).astype(np.int64)
        for a in range(tx):
            sx = (rx + (i + (a + 0.5) / tx) * scx).astype(np.int64)
            crop += at(luma, sx[None, :], sy[:, None])
    crop /= tx * ty
    lap = 4 * crop[1:-1, 1:-1] - crop[1:-1, :-2] - crop[1:-1, 2:] - crop[:-2, 1:-1] - crop[2:, 1:-1]
    return float(lap.var() * (128.0 / max(crop.mean(), 16.0)) ** 2)


def head_pose(lms):
    m = np.array([[p[0], -p[1], -p[2]] for _, p, _ in CANONICAL])
    d = np.array([lms[i] for i, _, _ in CANONICAL])
    w = np.array([wt for _, _, wt in CANONICAL])[:, None]
    mc = (w * m).sum(0) / w.sum()
    dc = (w * d).sum(0) / w.sum()
    s = ((m - mc) * w).T @ (d - dc)            # Σ w m dᵀ
    u, _, vt = np.linalg.svd(s)
    r = vt.T @ np.diag([1, 1, np.sign(np.linalg.det(vt.T @ u.T))]) @ u.T   # d ≈ R m
    b = math.asin(max(-1, min(1, -r[2, 0])))
    a = math.atan2(r[2, 1], r[2, 2])
    c = math.atan2(r[1, 0], r[0, 0])
    return dict(yaw=-math.degrees(b), pitch=-math.degrees(a), roll=math.degrees(c))


def features(lms):
    p = np.asarray(lms)[:, :2]

    def dist(i, j):
        return float(np.linalg.norm(p[i] - p[j]))

    def ear(idx):
        return (dist(idx[1], idx[5]) + dist(idx[2], idx[4])) / (2 * dist(idx[0], idx[3]))
    return dict(ear_r=ear([33, 160, 158, 133, 153, 144]), ear_l=ear([362, 385, 387, 263, 373, 380]),
                mouth=dist(13, 14) / dist(78, 308))


# ------------------------------------------------------------------------------- the pipeline --
def find_faces(rp, rgb):
    img = rgb.astype(np.float32)
    H, W, _ = img.shape
    faces = []
    for d in rp.detect_faces(img):
        box = d['box'] * [W, H, W, H]
        lms, _ = rp.face_mesh(img, rp.detection_to_roi(d, W, H))
        faces.append(dict(score=float(d['score']),
                          box=(box[0], box[1], box[2] - box[0], box[3] - box[1]),
                          nose=float(d['kps'][2][0] * W),
                          lms=None if lms is None else lms * [W, H, W]))
    return faces


def face_box(face):
    """The analyzer's face box: landmark bounds when there are landmarks, else the detector's box."""
    if face['lms'] is None:
        return face['box']
    lo, hi = face['lms'][:, :2].min(0), face['lms'][:, :2].max(0)
    return (lo[0], lo[1], hi[0] - lo[0], hi[1] - lo[1])


def measure(rgb, face):
    luma = luma_of(rgb)
    box = face_box(face)
    out = dict(score=face['score'], width=box[2] / rgb.shape[1],
               frame_mean=float(luma[::8, ::8].mean()))
    nose = face['lms'][1][0] if face['lms'] is not None else face['nose']
    out.update(light(luma, box, nose))
    out['sharpness'] = sharpness(luma, box)
    if face['lms'] is not None:
        out.update(head_pose(face['lms']))
        out.update(features(face['lms']))
    return out


def make_frame(photo, face, width=0.38, cx=0.5, cy=0.5, degrees=0.0, gain=1.0, offset=0.0,
               blur=0.0, noise=0.0, seed=0):
    """A webcam-like frame: the photo scaled so the face box is `width` of the frame, its centre at
    (cx, cy), rotated, on mid-grey; then optical blur (Gaussian sigma in frame px), exposure and noise."""
    bx, by, bw, bh = face_box(face)
    scale = width * FRAME_W / bw
    im = Image.fromarray(photo)
    big = im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)
    fcx, fcy = (bx + bw / 2) * scale, (by + bh / 2) * scale
    canvas = Image.new('RGB', (FRAME_W, FRAME_H), (128, 128, 128))
    if degrees:
        big = big.rotate(-degrees, resample=Image.BICUBIC, center=(fcx, fcy), fillcolor=(128, 128, 128))
    canvas.paste(big, (round(cx * FRAME_W - fcx), round(cy * FRAME_H - fcy)))
    if blur > 0:
        canvas = canvas.filter(ImageFilter.GaussianBlur(blur))
    a = np.asarray(canvas, dtype=np.float64) * gain + offset
    if noise > 0:
        a = a + np.random.default_rng(seed).normal(0, noise, a.shape)
    return np.clip(np.round(a), 0, 255).astype(np.uint8)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--ref-tools', default=os.environ.get('FACECAP_REF_TOOLS', os.path.join(here, 'reference')),
                    help='folder with ref_pipeline.py (default: tools/reference; or set FACECAP_REF_TOOLS)')
    ap.add_argument('--large', nargs='*', default=[],
                    help='photos whose face is large enough (>= 190 px) for the sharpness study')
    ap.add_argument('photos', nargs='+')
    args = ap.parse_args()
    if not os.path.exists(os.path.join(args.ref_tools, 'ref_pipeline.py')):
        sys.exit(f'calibrate.py: no ref_pipeline.py in {args.ref_tools} (pass --ref-tools DIR)')
    os.environ.setdefault('FACECAP_MODEL_DIR', os.path.join(os.path.dirname(here), 'models'))
    sys.path.insert(0, args.ref_tools)
    import ref_pipeline as rp

    np.set_printoptions(precision=3, suppress=True)
    photos = {}
    print('== photos as they are (native resolution)')
    for path in args.photos:
        rgb = np.asarray(Image.open(path).convert('RGB'))
        faces = find_faces(rp, rgb)
        name = os.path.basename(path)
        if not faces:
            print(f'{name}: no face')
            continue
        face = max(faces, key=lambda f: f['box'][2])
        photos[name] = (rgb, face)
        m = measure(rgb, face)
        print(f"{name}: face {face['box'][2]:.0f}px score {m['score']:.3f} yaw {m['yaw']:+.1f} "
              f"pitch {m['pitch']:+.1f} roll {m['roll']:+.1f} EAR {m['ear_r']:.3f}/{m['ear_l']:.3f} "
              f"mouth {m['mouth']:.3f} luma {m['mean']:.0f} dark {m['dark']:.3f} bright {m['bright']:.3f} "
              f"balance {m['balance']:.2f}")

    def run(name, **kw):
        rgb, face = photos[name]
        frame = make_frame(rgb, face, **kw)
        found = find_faces(rp, frame)
        if not found:
            return None
        return measure(frame, max(found, key=lambda f: f['box'][2]))

    print('\n== good 640x480 frames (face 0.38 of the width, centred): light, pose, eyes')
    for name in photos:
        m = run(name)
        if m is None:
            print(f'{name}: face lost')
            continue
        print(f"{name}: width {m['width']:.3f} luma {m['mean']:.0f} dark {m['dark']:.3f} "
              f"bright {m['bright']:.3f} balance {m['balance']:.2f} yaw {m['yaw']:+.1f} pitch {m['pitch']:+.1f} "
              f"roll {m['roll']:+.1f} EAR {max(m['ear_r'], m['ear_l']):.3f} sharp {m['sharpness']:.0f}")

    print('\n== roll: in-plane rotation of the frame (fitted roll minus photo roll)')
    for name in photos:
        base = run(name)
        if base is None:
            continue
        row = []
        for deg in (-20, -10, 10, 20):
            m = run(name, degrees=deg)
            row.append('%+d:%s' % (deg, 'lost' if m is None else '%+.1f' % (m['roll'] - base['roll'])))
        print(f"{name}: " + ' '.join(row))

    print('\n== exposure: gain applied to the frame (face mean luma, dark/bright fractions, detection)')
    for name in photos:
        row = []
        for gain in (0.1, 0.15, 0.2, 0.3, 0.45, 1.6, 2.0, 2.5):
            m = run(name, gain=gain, noise=2.0)
            if m is None:
                frame = make_frame(*photos[name], gain=gain, noise=2.0)
                row.append(f'g{gain}:lost(frame {luma_of(frame).mean():.0f})')
            else:
                row.append(f"g{gain}:{m['mean']:.0f}/{m['dark']:.2f}/{m['bright']:.2f}/f{m['frame_mean']:.0f}")
        print(f'{name}: ' + ' '.join(row))

    print('\n== side light: one half of the frame darkened (balance)')
    for name in photos:
        rgb, face = photos[name]
        row = []
        for factor in (0.8, 0.6, 0.45, 0.3):
            frame = make_frame(rgb, face).astype(np.float64)
            frame[:, :FRAME_W // 2] *= factor
            frame = np.clip(frame, 0, 255).astype(np.uint8)
            found = find_faces(rp, frame)
            row.append(f'x{factor}:' + ('lost' if not found else '%.2f' % measure(frame, found[0])['balance']))
        print(f'{name}: ' + ' '.join(row))

    large = [os.path.basename(p) for p in args.large] or list(photos)
    print('\n== sharpness: webcam-like frames of the large-face photos; face widths 0.28-0.50, sensor noise')
    print('   sigma 1.0/2.5/4.0 luma, optical blur sigma in frame pixels')
    by_sigma = {}
    for name in large:
        if name not in photos:
            continue
        for width in (0.28, 0.33, 0.38, 0.44, 0.50):
            for sigma in (0.0, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0):
                for noise in (1.0, 2.5, 4.0):
                    m = run(name, width=width, blur=sigma, noise=noise,
                            seed=int(width * 100 + sigma * 10 + noise))
                    if m is not None:
                        by_sigma.setdefault(sigma, []).append(m['sharpness'])
    for sigma, values in sorted(by_sigma.items()):
        v = np.array(values)
        print(f'blur {sigma}: n {len(v)} min {v.min():.0f} p10 {np.percentile(v, 10):.0f} '
              f'median {np.median(v):.0f} p90 {np.percentile(v, 90):.0f} max {v.max():.0f}')
    for limit in (80, 100, 120, 130, 150, 180):
        print(f'below {limit}: ' + ' '.join(f'blur {s}: {100 * np.mean(np.array(v) < limit):.0f}%'
                                           for s, v in sorted(by_sigma.items())))
    for name in large:
        if name not in photos:
            continue
        row = []
        for gain in (0.5, 0.7, 1.0, 1.3):
            m = run(name, gain=gain, blur=0.7, noise=2.5)
            row.append(f'gain {gain}: ' + ('lost' if m is None else '%.0f' % m['sharpness']))
        print(f'{name} exposure (blur 0.7, noise 2.5): ' + ', '.join(row))

    print('\n== stillness: 10 frames of one still scene, fresh sensor noise (sigma 2.5) each, 30 fps')
    print('   (the jitter the motion and geometry thresholds must sit above)')
    for name in photos:
        rgb, face = photos[name]
        boxes = []
        for k in range(10):
            frame = make_frame(rgb, face, noise=2.5, seed=100 + k)
            found = find_faces(rp, frame)
            if found and found[0]['lms'] is not None:
                boxes.append(face_box(found[0]))
        if len(boxes) < 4:
            continue
        b = np.array(boxes)
        cx, cy, w = (b[:, 0] + b[:, 2] / 2) / FRAME_W, (b[:, 1] + b[:, 3] / 2) / FRAME_H, b[:, 2] / FRAME_W
        # Over 3 frames (100 ms at 30 fps), as the Swift MotionTracker measures it.
        speed = np.hypot(cx[3:] - cx[:-3], (cy[3:] - cy[:-3]) * FRAME_H / FRAME_W)
        size = np.abs(w[3:] / w[:-3] - 1)
        print(f'{name}: width sd {w.std():.4f}, centre speed per 100 ms max {speed.max():.4f}, '
              f'size change per 100 ms max {size.max():.4f}')

    print('\n== closed eyes by construction: each eye painted over with lid skin and a lash line')
    for name in photos:
        rgb, face = photos[name]
        frame = make_frame(rgb, face)
        found = find_faces(rp, frame)
        if not found or found[0]['lms'] is None:
            continue
        before = features(found[0]['lms'])
        closed = close_eyes(frame, found[0]['lms'])
        after = find_faces(rp, closed)
        text = 'lost' if not after or after[0]['lms'] is None else \
            '%.3f/%.3f' % (features(after[0]['lms'])['ear_r'], features(after[0]['lms'])['ear_l'])
        print(f"{name}: open {before['ear_r']:.3f}/{before['ear_l']:.3f} -> closed {text}")


def close_eyes(frame, lms):
    """Paints each eye over with the skin colour just above it and draws a lash line: a closed eye."""
    from PIL import ImageDraw
    contours = {(33, 133, 159): [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7],
                (362, 263, 386): [362, 398, 384, 385, 386, 387, 388, 466, 263, 249, 390, 373, 374, 380, 381, 382]}
    im = Image.fromarray(frame)
    draw = ImageDraw.Draw(im)
    for (a, b, up), contour in contours.items():
        w = abs(lms[b][0] - lms[a][0])
        sx, sy = int(lms[up][0]), int(lms[up][1] - 0.25 * w)
        patch = frame[sy - 2:sy + 3, sx - int(0.2 * w):sx + int(0.2 * w)].reshape(-1, 3)
        skin = tuple(int(v) for v in np.median(patch, axis=0))
        pts = [(lms[i][0], lms[i][1]) for i in contour]
        cx, cy = np.mean([p[0] for p in pts]), np.mean([p[1] for p in pts])
        draw.polygon([(cx + (x - cx) * 1.15, cy + (y - cy) * 1.4) for x, y in pts], fill=skin)
        lower = sorted([(lms[i][0], lms[i][1] - 0.05 * w) for i in contour[8:]] + [(lms[a][0], lms[a][1])])
        draw.line(lower, fill=(40, 30, 30), width=max(1, int(w * 0.06)))
    return np.asarray(im.filter(ImageFilter.GaussianBlur(0.6)))

if __name__ == '__main__':
    main()
