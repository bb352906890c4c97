#!/usr/bin/env python3
"""Writes a mono 640x480 30 fps .y4m clip of sergey (Tests/Fixtures/images/sergey_luma.pgm) holding still in the
oval, his face 38 % of the frame wide: the wizard captures it and the built-in validator accepts it. The same
geometry as TestClips.sergey in Tests/FaceCapCLITests. Usage: make_clip.py OUT.y4m [FRAMES]  (default 90, 3 s)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PGM = os.path.join(HERE, '..', 'Fixtures', 'images', 'sergey_luma.pgm')
# sergey's face box (landmark bounds) in the 600x600 photo.
BOX_X, BOX_Y, BOX_W, BOX_H = 136.0, 141.5, 320.0, 367.0


def frame(width_fraction=0.38):
    pixels = open(PGM, 'rb').read()[15:]
    scale = width_fraction * 640 / BOX_W
    cx, cy = BOX_X + BOX_W / 2, BOX_Y + BOX_H / 2
    out = bytearray([128]) * (640 * 480)
    for y in range(480):
        sy = int((y + 0.5 - 240) / scale + cy) if (y + 0.5 - 240) / scale + cy >= 0 else -1
        if not 0 <= sy < 600:
            continue
        row = sy * 600
        for x in range(640):
            fx = (x + 0.5 - 320) / scale + cx
            if 0 <= fx < 600:
                out[y * 640 + x] = pixels[row + int(fx)]
    return bytes(out)


def main():
    path = sys.argv[1]
    frames = int(sys.argv[2]) if len(sys.argv) > 2 else 90
    image = frame()
    with open(path, 'wb') as clip:
        clip.write(b'YUV4MPEG2 W640 H480 F30:1 Ip A1:1 Cmono XCOLORRANGE=FULL\n')
        for _ in range(frames):
            clip.write(b'FRAME\n' + image)


if __name__ == '__main__':
    main()
