#!/usr/bin/env python3
# Copied from the outside UX review of 2026-12-01 (its ansi2png.py, given to the project with the review),
# unchanged but for this note; used by tools/screenshots.py (`make screenshots`).
"""Render tmux `capture-pane -e -p -N` output (ANSI SGR) to a PNG, cell by cell.

usage: ansi2png.py IN.ansi OUT.png [--cols W] [--rows H] [--light] [--cw 10] [--ch 20]
Half blocks (U+2580 upper, U+2584 lower, U+2588 full) are drawn as coloured rectangles, shades (U+2591-2593) as
a regular pattern of a quarter, half or three quarters of the pixels.
"""
import re, sys, unicodedata, argparse
from PIL import Image, ImageDraw, ImageFont

ap = argparse.ArgumentParser()
ap.add_argument("inp"); ap.add_argument("out")
ap.add_argument("--cols", type=int, default=0); ap.add_argument("--rows", type=int, default=0)
ap.add_argument("--light", action="store_true")
ap.add_argument("--cw", type=int, default=10); ap.add_argument("--ch", type=int, default=20)
ap.add_argument("--title", default="")
a = ap.parse_args()

BASE16 = [(0,0,0),(205,0,0),(0,205,0),(205,205,0),(0,0,238),(205,0,205),(0,205,205),(229,229,229),
          (127,127,127),(255,0,0),(0,255,0),(255,255,0),(92,92,255),(255,0,255),(0,255,255),(255,255,255)]
def pal256(n):
    if n < 16: return BASE16[n]
    if n < 232:
        n -= 16; r, g, b = n // 36, (n // 6) % 6, n % 6
        f = lambda v: 0 if v == 0 else 55 + 40 * v
        return (f(r), f(g), f(b))
    v = 8 + 10 * (n - 232); return (v, v, v)


BOX = {"\u2500":"lr","\u2502":"ud","\u250c":"rd","\u2510":"ld","\u2514":"ru","\u2518":"lu","\u251c":"udr","\u2524":"udl",
       "\u252c":"lrd","\u2534":"lru","\u253c":"lrud","\u2574":"l","\u2575":"u","\u2576":"r","\u2577":"d",
       "\u2501":"LR","\u2503":"UD","\u250f":"RD","\u2513":"LD","\u2517":"RU","\u251b":"LU",
       "\u2550":"=lr","\u2551":"=ud","\u2554":"=rd","\u2557":"=ld","\u255a":"=ru","\u255d":"=lu"}
ARC = {"\u256d":"rd","\u256e":"ld","\u256f":"lu","\u2570":"ru"}
def drawbox(d, ch, x0, y0, CW, CH, fg):
    cx, cy = x0 + CW//2, y0 + CH//2
    if ch in ARC:
        s = ARC[ch]; r = min(CW, CH)//2
        # straight parts then arc
        if s == "rd": d.arc([cx, cy, cx+2*r, cy+2*r], 180, 270, fill=fg, width=1); d.line([cx+r, cy, x0+CW, cy], fill=fg); d.line([cx, cy+r, cx, y0+CH], fill=fg)
        if s == "ld": d.arc([cx-2*r, cy, cx, cy+2*r], 270, 360, fill=fg, width=1); d.line([x0, cy, cx-r, cy], fill=fg); d.line([cx, cy+r, cx, y0+CH], fill=fg)
        if s == "lu": d.arc([cx-2*r, cy-2*r, cx, cy], 0, 90, fill=fg, width=1); d.line([x0, cy, cx-r, cy], fill=fg); d.line([cx, y0, cx, cy-r], fill=fg)
        if s == "ru": d.arc([cx, cy-2*r, cx+2*r, cy], 90, 180, fill=fg, width=1); d.line([cx+r, cy, x0+CW, cy], fill=fg); d.line([cx, y0, cx, cy-r], fill=fg)
        return True
    if ch == "\u2571": d.line([x0, y0+CH, x0+CW, y0], fill=fg, width=1); return True
    if ch == "\u2572": d.line([x0, y0, x0+CW, y0+CH], fill=fg, width=1); return True
    if ch not in BOX: return False
    s = BOX[ch]; wdt = 1
    if s[0] == "=":
        s = s[1:]
        for off in (-2, 2):
            if "l" in s: d.line([x0, cy+off, cx, cy+off], fill=fg)
            if "r" in s: d.line([cx, cy+off, x0+CW, cy+off], fill=fg)
            if "u" in s: d.line([cx+off, y0, cx+off, cy], fill=fg)
            if "d" in s: d.line([cx+off, cy, cx+off, y0+CH], fill=fg)
        return True
    if s.isupper(): wdt = 3; s = s.lower()
    if "l" in s: d.line([x0, cy, cx, cy], fill=fg, width=wdt)
    if "r" in s: d.line([cx, cy, x0+CW, cy], fill=fg, width=wdt)
    if "u" in s: d.line([cx, y0, cx, cy], fill=fg, width=wdt)
    if "d" in s: d.line([cx, cy, cx, y0+CH], fill=fg, width=wdt)
    return True

DFG, DBG = ((30,30,30),(250,250,245)) if a.light else ((208,208,208),(24,24,28))

text = open(a.inp, encoding="utf-8", errors="replace").read()
lines = text.split("\n")
if lines and lines[-1] == "": lines.pop()

class St:
    def __init__(s): s.reset()
    def reset(s): s.fg=None; s.bg=None; s.bold=False; s.rev=False; s.dim=False; s.ul=False; s.ital=False
st = St()
rows = []
sgr = re.compile(r"\x1b\[([0-9;:]*)m")
other = re.compile(r"\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07]*\x07|[()][0-9A-B])")
for line in lines:
    cells = []; i = 0
    while i < len(line):
        m = sgr.match(line, i)
        if m:
            ps = [p for p in re.split("[;:]", m.group(1))] if m.group(1) else ["0"]
            ps = [int(p) if p else 0 for p in ps]; j = 0
            while j < len(ps):
                p = ps[j]
                if p == 0: st.reset()
                elif p == 1: st.bold = True
                elif p == 2: st.dim = True
                elif p == 3: st.ital = True
                elif p == 4: st.ul = True
                elif p == 7: st.rev = True
                elif p == 22: st.bold = False; st.dim = False
                elif p == 23: st.ital = False
                elif p == 24: st.ul = False
                elif p == 27: st.rev = False
                elif 30 <= p <= 37: st.fg = BASE16[p-30]
                elif 90 <= p <= 97: st.fg = BASE16[p-90+8]
                elif 40 <= p <= 47: st.bg = BASE16[p-40]
                elif 100 <= p <= 107: st.bg = BASE16[p-100+8]
                elif p == 39: st.fg = None
                elif p == 49: st.bg = None
                elif p in (38, 48):
                    if j+1 < len(ps) and ps[j+1] == 5:
                        c = pal256(ps[j+2]); j += 2
                    elif j+1 < len(ps) and ps[j+1] == 2:
                        c = tuple(ps[j+2:j+5]); j += 4
                    else: c = None
                    if p == 38: st.fg = c
                    else: st.bg = c
                j += 1
            i = m.end(); continue
        m = other.match(line, i)
        if m: i = m.end(); continue
        ch = line[i]; i += 1
        if ch == "\x1b": continue
        w = 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
        if unicodedata.combining(ch) and cells:
            continue
        fg = st.fg or DFG; bg = st.bg or DBG
        if st.bold and st.fg in BASE16[:8]: fg = BASE16[BASE16.index(st.fg)+8]
        if st.rev: fg, bg = bg, fg
        if st.dim: fg = tuple((c*2 + b) // 3 for c, b in zip(fg, bg))
        cells.append((ch, fg, bg, st.bold, st.ul, w))
        if w == 2: cells.append(None)
    rows.append(cells)

W = a.cols or max((len(r) for r in rows), default=80)
H = a.rows or len(rows)
CW, CH = a.cw, a.ch
top = 24 if a.title else 0
img = Image.new("RGB", (W*CW, H*CH + top), DBG)
d = ImageDraw.Draw(img)
font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", int(CH*0.8))
fontb = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono-Bold.ttf", int(CH*0.8))
if a.title:
    d.rectangle([0,0,W*CW,top-1], fill=(60,60,90)); d.text((4,2), a.title, fill=(255,255,255), font=ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf", 16))
for y, r in enumerate(rows[:H]):
    for x, c in enumerate(r[:W]):
        if c is None: continue
        ch, fg, bg, bold, ul, w = c
        x0, y0 = x*CW, y*CH + top
        d.rectangle([x0, y0, x0 + CW*w - 1, y0 + CH - 1], fill=bg)
        if ch == "\u2580": d.rectangle([x0, y0, x0+CW-1, y0+CH//2-1], fill=fg)
        elif ch == "\u2584": d.rectangle([x0, y0+CH//2, x0+CW-1, y0+CH-1], fill=fg)
        elif ch == "\u2588": d.rectangle([x0, y0, x0+CW-1, y0+CH-1], fill=fg)
        elif ch == "\u258c": d.rectangle([x0, y0, x0+CW//2-1, y0+CH-1], fill=fg)
        elif ch == "\u2590": d.rectangle([x0+CW//2, y0, x0+CW-1, y0+CH-1], fill=fg)
        elif ch in "\u2591\u2592\u2593":
            # Shades as the terminals that draw block elements themselves do: a quarter, half or three
            # quarters of the cell's pixels in the foreground, in a regular pattern.
            lit = {"\u2591": ((0, 0),), "\u2592": ((0, 0), (1, 1)), "\u2593": ((0, 0), (1, 1), (1, 0))}[ch]
            for py in range(CH):
                for px in range(CW):
                    if (px % 2, py % 2) in lit: d.point((x0 + px, y0 + py), fill=fg)
        elif drawbox(d, ch, x0, y0, CW, CH, fg): pass
        elif ch != " ":
            d.text((x0, y0 + 1), ch, fill=fg, font=fontb if bold else font)
        if ul: d.line([x0, y0+CH-2, x0+CW*w-1, y0+CH-2], fill=fg)
# grid frame
d.rectangle([0, top, W*CW-1, H*CH+top-1], outline=(90,90,90))
img.save(a.out)
