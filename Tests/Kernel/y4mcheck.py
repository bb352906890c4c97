#!/usr/bin/env python3
"""Checks that a file is a valid YUV4MPEG2 clip: one header, then whole frames only.

Usage: y4mcheck.py FILE
Prints `WIDTH HEIGHT FRAMES COLORSPACE` and exits 0 when the clip is valid; otherwise prints what is
wrong on one line and exits 1. Written independently of facecap's own Y4M code so that a bug shared
by facecap's writer and reader cannot hide here.
"""
import sys


def plane_bytes(colorspace, width, height):
    """Bytes of one frame for a Y4M colour space tag (the `C` parameter; 420jpeg when absent)."""
    chroma_w, chroma_h = (width + 1) // 2, (height + 1) // 2
    if colorspace.startswith("420"):
        return width * height + 2 * chroma_w * chroma_h
    if colorspace.startswith("422"):
        return width * height + 2 * chroma_w * height
    if colorspace.startswith("444"):
        return 3 * width * height
    if colorspace.startswith("mono"):
        return width * height
    raise ValueError(f"unknown colour space C{colorspace}")


def check(path):
    with open(path, "rb") as f:
        data = f.read()
    end = data.find(b"\n")
    if end < 0 or not data.startswith(b"YUV4MPEG2 "):
        raise ValueError("no YUV4MPEG2 header line")
    params = {}
    for token in data[10:end].decode("ascii", "replace").split():
        params.setdefault(token[0], token[1:])
    try:
        width, height = int(params["W"]), int(params["H"])
    except (KeyError, ValueError):
        raise ValueError("header has no valid W and H")
    if width <= 0 or height <= 0:
        raise ValueError(f"header size {width}x{height} is empty")
    colorspace = params.get("C", "420jpeg")
    size = plane_bytes(colorspace, width, height)
    offset, frames = end + 1, 0
    while offset < len(data):
        line_end = data.find(b"\n", offset, offset + 256)
        if not data.startswith(b"FRAME", offset) or line_end < 0:
            raise ValueError(f"frame {frames + 1} at byte {offset} does not start with a FRAME line")
        offset = line_end + 1
        if offset + size > len(data):
            raise ValueError(f"frame {frames + 1} is truncated: {len(data) - offset} of {size} bytes")
        offset += size
        frames += 1
    return width, height, frames, colorspace


def main():
    if len(sys.argv) != 2:
        print("usage: y4mcheck.py FILE")
        return 64
    try:
        width, height, frames, colorspace = check(sys.argv[1])
    except (OSError, ValueError) as error:
        print(f"invalid clip {sys.argv[1]}: {error}")
        return 1
    print(width, height, frames, colorspace)
    return 0


if __name__ == "__main__":
    sys.exit(main())
