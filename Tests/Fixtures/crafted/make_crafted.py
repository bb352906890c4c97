#!/usr/bin/env python3
"""Writes the small crafted images the image-decoder tests read (needs Pillow).

Every image is 16x12 pixels and follows a formula the tests recompute:
  colour(x, y) = (x * 16, y * 20, (x + y) * 8)     grey(x, y) = (x * 16 + y) % 256
JPEGs are lossy, so they use four flat 8x6 quadrants (colours in QUADRANTS) and the tests allow a
small tolerance inside each quadrant.
Run from this folder: python3 make_crafted.py
"""
from PIL import Image

W, H = 16, 12
QUADRANTS = [(200, 30, 40), (20, 180, 60), (30, 40, 220), (240, 240, 20)]
GREY_QUADRANTS = [30, 90, 160, 230]


def colour(x, y):
    return (x * 16 % 256, y * 20 % 256, (x + y) * 8 % 256)


def grey(x, y):
    return (x * 16 + y) % 256


def quadrant(x, y):
    return (1 if x >= W // 2 else 0) + (2 if y >= H // 2 else 0)


rgb = Image.new("RGB", (W, H))
rgb.putdata([colour(x, y) for y in range(H) for x in range(W)])
gray = Image.new("L", (W, H))
gray.putdata([grey(x, y) for y in range(H) for x in range(W)])

# 16-bit RGB: each 8-bit value v stored as v * 257 (Pillow cannot write 16-bit RGB, so build it by hand).
import struct, zlib
def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff)
def write_png(path, color_type, bit_depth, rows, interlace=0, raw=None):
    raw = raw if raw is not None else b"".join(b"\x00" + row for row in rows)
    ihdr = struct.pack(">IIBBBBB", W, H, bit_depth, color_type, 0, 0, interlace)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(raw))
                + png_chunk(b"IEND", b""))
write_png("rgb16.png", 2, 16,
          [b"".join(struct.pack(">HHH", *[v * 257 for v in colour(x, y)]) for x in range(W)) for y in range(H)])
write_png("gray16.png", 0, 16, [b"".join(struct.pack(">H", grey(x, y) * 257) for x in range(W)) for y in range(H)])
# RGBA with varying alpha: the decoder drops alpha and keeps the colour.
write_png("rgba8.png", 6, 8,
          [b"".join(bytes(colour(x, y) + ((x * 17) % 256,)) for x in range(W)) for y in range(H)])
write_png("graya8.png", 4, 8, [b"".join(bytes((grey(x, y), 128)) for x in range(W)) for y in range(H)])
# 1-bit grey: black where (x + y) is even.
write_png("gray1.png", 0, 1,
          [bytes(int("".join("0" if (x + y) % 2 == 0 else "1" for x in range(r, r + 8)), 2) for r in (0, 8))
           for y in range(H)])

# Adam7-interlaced 8-bit RGB (Pillow cannot write interlaced PNGs): seven passes of sub-images.
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
passes = b""
for x0, y0, dx, dy in ADAM7:
    for y in range(y0, H, dy):
        xs = range(x0, W, dx)
        if len(xs):
            passes += b"\x00" + b"".join(bytes(colour(x, y)) for x in xs)
write_png("interlaced.png", 2, 8, None, interlace=1, raw=passes)
palette = Image.new("P", (W, H))
palette.putpalette([c for q in QUADRANTS for c in q])
palette.putdata([quadrant(x, y) for y in range(H) for x in range(W)])
palette.save("palette.png", transparency=0)

quads = Image.new("RGB", (W, H))
quads.putdata([QUADRANTS[quadrant(x, y)] for y in range(H) for x in range(W)])
quads.save("quadrants.jpg", quality=95)
quads.save("quadrants-progressive.jpg", quality=95, progressive=True)
quads.convert("CMYK").save("quadrants-cmyk.jpg", quality=95)
greyq = Image.new("L", (W, H))
greyq.putdata([GREY_QUADRANTS[quadrant(x, y)] for y in range(H) for x in range(W)])
greyq.save("quadrants-gray.jpg", quality=95)

# A phone-style JPEG: stored landscape with EXIF Orientation 6 (display rotated 90° clockwise).
exif = Image.Exif()
exif[0x0112] = 6
quads.save("quadrants-exif6.jpg", quality=95, exif=exif.tobytes())
