#!/usr/bin/env python3
"""How much a preview drawn in a terminal looks like its source frame (issue 18's acceptance).

The cells (a `tmux capture-pane -e -p -N` capture of facecap, or chafa's output) are turned back into pixels:
two a cell (upper and lower half); a glyph other than the half blocks is drawn with DejaVu Sans Mono and its
ink coverage of each half mixes foreground and background. The source frame is averaged down to the same
pixels. Both are seen through a slight blur (a Gaussian of one preview pixel, in linear light, as the eye
averages a dither) and compared inside the oval (0.4 of the frame wide, 1.25 times as tall, centred; for a capture
shrunk to 0.7, so that the drawn outline, blurred, is not counted):

  dE      mean CIE76 colour difference
  hue     hue difference of the mean skin colour (source L* 20..90, C* >= 8, h 10..80 deg)
  r       Pearson correlation of L*

Usage:
  preview_fidelity.py capture.ansi source.png [--mirror] [--light]   one capture (rect found from the cells)
  preview_fidelity.py --chafa source.png --size 53x20 [--colors 256] [chafa options...]
  preview_fidelity.py --densities                                    ink coverage of the ASCII ramp
Needs Pillow and NumPy (pip).
"""
import argparse
import re
import subprocess
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"
BASE16 = [(0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205),
          (229, 229, 229), (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255),
          (255, 0, 255), (0, 255, 255), (255, 255, 255)]
DARK = ((208, 208, 208), (24, 24, 28))      # default fg, bg (as the review's ansi2png.py)
LIGHT = ((30, 30, 30), (250, 250, 245))


def pal256(n):
    if n < 16:
        return BASE16[n]
    if n < 232:
        n -= 16
        f = lambda v: 0 if v == 0 else 55 + 40 * v
        return (f(n // 36), f(n // 6 % 6), f(n % 6))
    v = 8 + 10 * (n - 232)
    return (v, v, v)


def parse_ansi(text):
    """Rows of cells (char, fg, bg, bold), fg/bg an RGB tuple or None (default)."""
    rows = []
    sgr = re.compile(r"\x1b\[([0-9;:]*)m")
    other = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-B])")
    fg = bg = None
    bold = rev = False
    for line in text.split("\n"):
        cells = []
        i = 0
        while i < len(line):
            m = sgr.match(line, i)
            if m:
                ps = [int(p) if p else 0 for p in re.split("[;:]", m.group(1))] if m.group(1) else [0]
                k = 0
                while k < len(ps):
                    p = ps[k]
                    if p == 0:
                        fg = bg = None; bold = rev = False
                    elif p == 1: bold = True
                    elif p == 22: bold = False
                    elif p == 7: rev = True
                    elif p == 27: rev = False
                    elif 30 <= p <= 37: fg = BASE16[p - 30]
                    elif 90 <= p <= 97: fg = BASE16[p - 90 + 8]
                    elif 40 <= p <= 47: bg = BASE16[p - 40]
                    elif 100 <= p <= 107: bg = BASE16[p - 100 + 8]
                    elif p == 39: fg = None
                    elif p == 49: bg = None
                    elif p in (38, 48) and k + 1 < len(ps):
                        if ps[k + 1] == 5:
                            c = pal256(ps[k + 2]); k += 2
                        else:
                            c = tuple(ps[k + 2:k + 5]); k += 4
                        if p == 38: fg = c
                        else: bg = c
                    k += 1
                i = m.end()
                continue
            m = other.match(line, i)
            if m:
                i = m.end()
                continue
            f, b = (bg, fg) if rev else (fg, bg)
            cells.append((line[i], f, b, bold))
            i += 1
        rows.append(cells)
    while rows and not rows[-1]:
        rows.pop()
    return rows


_cov = {}
SHADES = {"\u2591": 0.25, "\u2592": 0.5, "\u2593": 0.75}


def coverage(ch):
    """Ink coverage of the upper and lower half of a cell."""
    if ch in _cov:
        return _cov[ch]
    if ch == " ": c = (0.0, 0.0)
    elif ch == "\u2580": c = (1.0, 0.0)
    elif ch == "\u2584": c = (0.0, 1.0)
    elif ch == "\u2588": c = (1.0, 1.0)
    elif ch in SHADES:
        # The shade glyphs the 16 and 8 colour preview uses, at their nominal coverage: terminals that draw the
        # block elements themselves (VTE, kitty, xterm, foot, Alacritty, Konsole) draw them so, and so does
        # tools/ansi2png.py. (DejaVu's own glyphs, drawn below in this cell, would give 0.16, 0.43, 0.69-0.78:
        # the font's box is not the cell's.)
        c = (SHADES[ch], SHADES[ch])
    else:
        cw, chh = 20, 40
        im = Image.new("L", (cw, chh), 0)
        ImageDraw.Draw(im).text((0, 2), ch, fill=255, font=ImageFont.truetype(FONT, 32))
        a = np.asarray(im, dtype=np.float64) / 255
        c = (a[:chh // 2].mean(), a[chh // 2:].mean())
    _cov[ch] = c
    return c


def lin(c):
    c = np.asarray(c, dtype=np.float64) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def lab(l):
    x = (l[..., 0] * 0.4124 + l[..., 1] * 0.3576 + l[..., 2] * 0.1805) / 0.95047
    y = l[..., 0] * 0.2126 + l[..., 1] * 0.7152 + l[..., 2] * 0.0722
    z = (l[..., 0] * 0.0193 + l[..., 1] * 0.1192 + l[..., 2] * 0.9505) / 1.08883
    f = lambda t: np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    fx, fy, fz = f(x), f(y), f(z)
    return np.stack([116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)], -1)


def blur(img, sx, sy):
    def k(s):
        r = max(1, int(np.ceil(3 * s)))
        v = np.exp(-np.arange(-r, r + 1) ** 2 / (2 * s * s))
        return v / v.sum(), r
    out = img
    for axis, s in ((1, sx), (0, sy)):
        kv, r = k(s)
        pad = [(0, 0)] * 3
        pad[axis] = (r, r)
        p = np.pad(out, pad, mode="edge")
        acc = np.zeros_like(out)
        for i, w in enumerate(kv):
            sl = [slice(None)] * 3
            sl[axis] = slice(i, i + out.shape[axis])
            acc += w * p[tuple(sl)]
        out = acc
    return out


def cells_to_pixels(cells, theme):
    """(2·rows, cols, 3) linear RGB; `mono` when no cell had a colour."""
    dfg, dbg = theme
    h, w = len(cells), max(len(r) for r in cells)
    out = np.zeros((2 * h, w, 3))
    for y, row in enumerate(cells):
        for x, (ch, fg, bg, bold) in enumerate(row):
            f = lin(fg if fg is not None else dfg)
            b = lin(bg if bg is not None else dbg)
            top, bottom = coverage(ch)
            out[2 * y, x] = b + top * (f - b)
            out[2 * y + 1, x] = b + bottom * (f - b)
    return out


def measure(pixels, source, mirror=False, shrink=0.7, mono=False):
    """pixels: (H, W, 3) linear; source: PIL RGB image of the whole frame shown."""
    h, w = pixels.shape[:2]
    src = source.convert("RGB")
    if mirror:
        src = src.transpose(Image.FLIP_LEFT_RIGHT)
    # Area average in linear light.
    big = lin(np.asarray(src.resize((w * 8, h * 8), Image.BILINEAR)))
    ref = big.reshape(h, 8, w, 8, 3).mean(axis=(1, 3))
    a = lab(blur(pixels, 1.0, 1.0))
    b = lab(blur(ref, 1.0, 1.0))
    fw, fh = src.size
    ys, xs = np.mgrid[0:h, 0:w]
    fx = (xs + 0.5) / w * fw
    fy = (ys + 0.5) / h * fh
    rx = 0.4 * fw / 2 * shrink
    ry = 0.4 * fw * 1.25 / 2 * shrink
    inside = ((fx - fw / 2) / rx) ** 2 + ((fy - fh / 2) / ry) ** 2 <= 1
    la, lb = a[inside][:, 0], b[inside][:, 0]
    if mono:
        yb = lab(np.repeat((ref @ np.array([0.2126, 0.7152, 0.0722]))[..., None], 3, -1))
        lb = lab(np.repeat((blur(ref, 1.0, 1.0) @ np.array([0.2126, 0.7152, 0.0722]))[..., None], 3, -1))[inside][:, 0]
        del yb
    r = float(np.corrcoef(la, lb)[0, 1])
    de = float(np.sqrt(((a[inside] - b[inside]) ** 2).sum(-1)).mean())
    bi, ai = b[inside], a[inside]
    chroma = np.hypot(bi[:, 1], bi[:, 2])
    hue = np.degrees(np.arctan2(bi[:, 2], bi[:, 1]))
    skin = (bi[:, 0] >= 20) & (bi[:, 0] <= 90) & (chroma >= 8) & (hue >= 10) & (hue <= 80)
    dh = float("nan")
    if skin.any():
        ha = np.degrees(np.arctan2(ai[skin, 2].mean(), ai[skin, 1].mean()))
        hb = np.degrees(np.arctan2(bi[skin, 2].mean(), bi[skin, 1].mean()))
        dh = abs(ha - hb)
        dh = min(dh, 360 - dh)
    return {"dE": de, "hue": dh, "r": r}


def find_preview(rows):
    """The bounding box of the picture cells: half blocks, or spaces with an explicit background, in rows
    without letters or digits. A capture without colour has none: pass --rect (from a colour capture)."""
    box = None
    for y, row in enumerate(rows):
        if any(ch.isalnum() for (ch, _, _, _) in row):
            continue  # a row of text (titles and guidance may have a background of their own)
        for x, (ch, fg, bg, bold) in enumerate(row):
            if ch == "\u2580" or ch in SHADES or (bg is not None and ch == " "):
                box = (min(box[0], x), min(box[1], y), max(box[2], x), max(box[3], y)) if box else (x, y, x, y)
    return box


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("inputs", nargs="*")
    ap.add_argument("--mirror", action="store_true", help="the capture is mirrored (facecap's default)")
    ap.add_argument("--light", action="store_true", help="default colours of a light theme")
    ap.add_argument("--rect", help="x,y,w,h of the preview in the capture (default: found from its cells)")
    ap.add_argument("--chafa", action="store_true", help="render the source with chafa and measure that")
    ap.add_argument("--size", default="53x20")
    ap.add_argument("--densities", action="store_true")
    ap.add_argument("--shrink", type=float, help="the measured ellipse over the oval (default 0.7 for a capture, "
                    "1 for chafa, which draws no outline)")
    a, extra = ap.parse_known_args()
    if a.densities:
        for ch in " .:;*+=xnoe&#@B":
            t, b = coverage(ch)
            print(f"{ch!r} {(t + b) / 2:.3f}")
        return
    theme = LIGHT if a.light else DARK
    if a.chafa:
        source = Image.open(a.inputs[0])
        w, h = map(int, a.size.split("x"))
        cmd = ["chafa", "--size", f"{w}x{h}", "--stretch", "--animate", "off", "--polite", "on"] + extra + [a.inputs[0]]
        text = subprocess.run(cmd, capture_output=True, check=True).stdout.decode("utf-8", "replace")
        rows = parse_ansi(text)
        cells = [r[:w] for r in rows[:h]]
        mono = all(fg is None and bg is None for r in cells for (_, fg, bg, _) in r)
        m = measure(cells_to_pixels(cells, theme), source, mirror=False, shrink=a.shrink or 1.0, mono=mono)
        m["bytes"] = len(text.encode())
        print(" ".join(f"{k} {v:.3f}" if isinstance(v, float) else f"{k} {v}" for k, v in m.items()))
        return
    capture, source = a.inputs
    rows = parse_ansi(open(capture, encoding="utf-8", errors="replace").read())
    if a.rect:
        x, y, w, h = map(int, a.rect.split(","))
    else:
        box = find_preview(rows)
        if not box:
            sys.exit("no preview cells found; pass --rect")
        x, y, w, h = box[0], box[1], box[2] - box[0] + 1, box[3] - box[1] + 1
    cells = [(r + [(" ", None, None, False)] * (x + w))[x:x + w] for r in rows[y:y + h]]
    mono = all(fg is None and bg is None for r in cells for (_, fg, bg, _) in r)
    m = measure(cells_to_pixels(cells, theme), Image.open(source), mirror=a.mirror, shrink=a.shrink or 0.7, mono=mono)
    print(f"rect {x},{y},{w}x{h} " + " ".join(f"{k} {v:.3f}" for k, v in m.items()))


if __name__ == "__main__":
    main()
