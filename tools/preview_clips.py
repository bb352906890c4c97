#!/usr/bin/env python3
"""Clips for looking at the preview (tools/preview_fidelity.py, docs/images/preview-*.jpg), made from the fixture
photos the way the UX review's make_clips.sh made them with ffmpeg: 640x480, 30 fps, 4:2:0 .y4m, the face
480x480 on a 0x707880 wall. Also writes each clip's first frame as PNG (the source to measure against).

usage: preview_clips.py OUTDIR      writes good.y4m (still, 150 frames), sway.y4m (moving, 300 frames),
                                    grace.y4m (still), dark.y4m (sergey made dark-skinned: the synthetic
                                    fixture of Tests/FaceCapTerminalTests), still_noise.y4m (a
                                    small face held still, webcam noise: never captured) and *.png
Needs Pillow and NumPy (pip)."""
import math
import os
import sys

import numpy as np
from PIL import Image

# The clips hold a face: private files in private folders, as facecap writes its photos.
os.umask(0o077)

HERE = os.path.dirname(os.path.abspath(__file__))
FX = os.path.join(HERE, "..", "Tests", "Fixtures")
WALL = (0x70, 0x78, 0x80)


def canvas():
    return Image.new("RGB", (640, 480), WALL)


def yuv420(img):
    a = np.asarray(img.convert("RGB"), dtype=np.float64)
    r, g, b = a[..., 0], a[..., 1], a[..., 2]
    y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255
    u = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255
    v = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255
    sub = lambda c: c.reshape(240, 2, 320, 2).mean(axis=(1, 3))
    q = lambda c: np.clip(np.rint(c), 0, 255).astype(np.uint8).tobytes()
    return q(y) + q(sub(u)) + q(sub(v))


def write(path, frames):
    with open(path, "wb") as f:
        f.write(b"YUV4MPEG2 W640 H480 F30:1 Ip A1:1 C420jpeg\n")
        for img in frames:
            f.write(b"FRAME\n" + yuv420(img))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    sergey = Image.open(os.path.join(FX, "sergey.png")).convert("RGB")
    grace = Image.open(os.path.join(FX, "images", "grace_hopper.jpg")).convert("RGB")
    dark = Image.fromarray(np.clip(np.asarray(sergey, dtype=np.float64) * [0.48, 0.40, 0.32], 0, 255).astype(np.uint8))
    for name, photo, size in (("good", sergey, (480, 480)), ("grace", grace, (410, 480)), ("dark", dark, (480, 480))):
        img = canvas()
        img.paste(photo.resize(size, Image.LANCZOS), ((640 - size[0]) // 2, 0))
        img.save(os.path.join(out, name + ".png"))
        write(os.path.join(out, name + ".y4m"), [img] * 150)
    face = sergey.resize((400, 400), Image.LANCZOS)
    frames = []
    for i in range(300):
        t = i / 30
        img = canvas()
        img.paste(face, (int(120 + 100 * math.sin(t * 2.2)), int(40 + 25 * math.sin(t * 3.1))))
        frames.append(img)
    frames[0].save(os.path.join(out, "sway.png"))
    write(os.path.join(out, "sway.y4m"), frames)
    # A still scene with a webcam's noise (Gaussian, sigma 3 levels), the face too small to be captured.
    img = canvas()
    img.paste(sergey.resize((240, 240), Image.LANCZOS), (200, 120))
    base = np.asarray(img, dtype=np.float64)
    rng = np.random.default_rng(1)
    noisy = [Image.fromarray(np.clip(base + rng.normal(0, 3, base.shape[:2])[..., None], 0, 255).astype(np.uint8))
             for _ in range(90)]
    write(os.path.join(out, "still_noise.y4m"), noisy)


if __name__ == "__main__":
    main()
