#!/usr/bin/env python3
"""Builds the constructed test frames for the eye and occlusion checks (docs/calibration.md, "Eyes: the
iris model" and "Covered faces") from real face photos, and checks each constructed eye with the iris model
run by LiteRT before it is used.

No permissively licensed photo of closed eyes, averted eyes or a covered face ships in the packages the
calibration photos come from, so they are made from each photo's own pixels:

  closed        each eye closed by warping the skin above the upper lid (the lid and the crease below the
                brow) down over the eye to the lower lid, plus a soft lash line along the seam
  gaze_left/right/down
                the iris and pupil (a disc of the iris model's iris radius) moved inside the eye opening by
                0.2 eye widths sideways (0.12 down); the uncovered place is filled with the eye's own sclera
                colour; the lids still cut the moved disc
  gaze_down2 / gaze_up
                both eyes turned 30° down or up as real eyes turn, the lids following (look_vertically; not
                in the default list: name them with --variants, --gaze-degrees for other angles); kept only
                when LiteRT's iris model reads them open and turned
  eyes_wide / eyes_narrow
                both eyes on the camera, the lids alone moved as a surprised or a squinting face moves them
                (move_lids, LID_EXPRESSIONS; not in the default list): the globe stays, so the gaze is the
                photo's own
  mask_surgical / mask_cloth
                a pleated light-blue or a dark woven mask over nose, mouth and chin, following the lower face
                outline of the FaceMesh landmarks, with ear loops
  mask_pleated_green / mask_pleated_blue / mask_pleated_white / mask_printed
                (not in the default list) surgical masks in green, mid blue and white with three deep pleats
                and light from one side, and a navy cloth mask printed with coloured dots
  hand_mouth / hand_eye
                a hand in the person's own skin colour (palm and four fingers with shading and gaps) over the
                mouth, or over the image-left eye
  sunglasses    two dark lenses over the eyes with a bridge and temple arms

Every constructed eye (closed, gaze) is read by the iris model through LiteRT and the script prints the
lid opening, iris offset and pupil shade it finds, the same measures as
Sources/FaceCapCore/Analysis/EyeMeasures.swift.

Usage: FACECAP_MODEL_DIR=models python3 tools/make_eye_frames.py --ref-tools DIR --out OUTDIR PHOTO...
(numpy, pillow, ai-edge-litert). Writes OUTDIR/<photo>_<variant>.png, and <photo>_open.png (the photo
as read), for `facecap analyze --json` (tools/calibrate_eyes.py tabulates that).
"""
import argparse
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import iris_ref  # noqa: E402

FACE_OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152,
             148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109]
# Pleated surgical masks (mask_<kind>): the cloth's colour, lit.
PLEATED = {'pleated_green': (112, 170, 150), 'pleated_blue': (70, 120, 190), 'pleated_white': (226, 228, 232)}
LIDS = [(0, 9, 10, 11, 12, 13, 14, 15, 8), (0, 1, 2, 3, 4, 5, 6, 7, 8)]   # upper, lower (contour indices)
# Eyes turned down or up with their lids (look_vertically): variant → degrees down.
VERTICAL_GAZE = {'gaze_down2': 30, 'gaze_up': -30}
# A vertical-gaze construction is kept only when LiteRT's iris model reads both eyes open and the iris moved
# at least this far (eye widths, mean of both eyes) the intended way.
MIN_VERTICAL_READING = 0.025


def lid_frame(eye, leftmost_first):
    """Eye axis from the corners: origin a (image-left corner), unit along, unit down, width."""
    c = eye['contours'][:, :2]
    a, b = (c[0], c[8]) if leftmost_first else (c[8], c[0])
    width = float(np.linalg.norm(b - a))
    along = (b - a) / width
    down = np.array([-along[1], along[0]])
    return a, along, down, width


def uv(points, a, along, down):
    d = points - a
    return d @ along, d @ down


def eye_measures(eye, leftmost_first):
    """Opening and iris offset (eye widths) as EyeMeasures.swift computes them."""
    a, along, down, width = lid_frame(eye, leftmost_first)
    c = eye['contours'][:, :2]
    gap = np.mean([(c[lo] - c[up]) @ down for up, lo in ((10, 2), (11, 3), (12, 4), (13, 5), (14, 6))])
    mid = (c[0] + c[8]) / 2
    off = eye['iris'][0, :2] - mid
    return max(0.0, gap) / width, off @ along / width, off @ down / width


def pupil_shade(img, eye, leftmost_first):
    """The pupil's shade as EyeMeasures.pupilShade computes it: the 20th percentile of the luma on a 7x7 grid
    over the disc of 0.7 iris radii around the iris centre, kept between the lids, over the median luma of
    five cheek points 0.3 eye widths below the lower lid (bilinear samples, BT.601 luma)."""
    a, along, down, width = lid_frame(eye, leftmost_first)
    c = eye['contours'][:, :2]
    luma = img[..., 0] * 0.299 + img[..., 1] * 0.587 + img[..., 2] * 0.114
    H, W = luma.shape

    def sample(u, v):
        x, y = a + along * u * width + down * v * width
        x = min(max(x - 0.5, 0), W - 1.001)
        y = min(max(y - 0.5, 0), H - 1.001)
        x0, y0 = int(x), int(y)
        tx, ty = x - x0, y - y0
        return ((luma[y0, x0] * (1 - tx) + luma[y0, x0 + 1] * tx) * (1 - ty)
                + (luma[y0 + 1, x0] * (1 - tx) + luma[y0 + 1, x0 + 1] * tx) * ty)

    def line(indices):
        u, v = uv(c[list(indices)], a, along, down)
        order = np.argsort(u)
        return u[order] / width, v[order] / width
    (uu, vu), (ul, vl) = line(LIDS[0]), line(LIDS[1])
    cu, cv = (x / width for x in uv(eye['iris'][0, :2], a, along, down))
    radius = np.mean([np.linalg.norm(p - eye['iris'][0, :2]) for p in eye['iris'][1:5, :2]]) / width
    steps = np.linspace(-0.7, 0.7, 7)
    disc = [sample(cu + du * radius, cv + dv * radius) for du in steps for dv in steps
            if du * du + dv * dv <= 0.49 + 1e-9
            and np.interp(cu + du * radius, uu, vu) < cv + dv * radius < np.interp(cu + du * radius, ul, vl)]
    disc = disc or [sample(cu, cv)]
    cheek = np.median([sample(u, np.interp(u, ul, vl) + 0.3) for u in np.linspace(0.25, 0.75, 5)])
    return float(np.percentile(disc, 20) / cheek) if cheek >= 1 else None


def curves(eye, leftmost_first):
    a, along, down, width = lid_frame(eye, leftmost_first)
    c = eye['contours'][:, :2]
    out = []
    for lid in LIDS:
        u, v = uv(c[list(lid)], a, along, down)
        order = np.argsort(u)
        out.append((u[order], v[order]))
    return a, along, down, width, out


def close_eye(img, eye, leftmost_first):
    """Warps the skin above the upper lid down over the eye; returns a new float image."""
    a, along, down, width, ((uu, vu), (ul, vl)) = curves(eye, leftmost_first)
    H, W, _ = img.shape
    ys, xs = np.mgrid[0:H, 0:W]
    pts = np.stack([xs + 0.5, ys + 0.5], -1).reshape(-1, 2)
    u, v = uv(pts, a, along, down)
    up = np.interp(u, uu, vu)
    lo = np.interp(u, ul, vl) + 0.04 * width          # cover the lower lash line too
    top = up - 0.38 * width                            # the lid and crease skin that slides down
    inside = (u > uu[0]) & (u < uu[-1]) & (v > top) & (v < lo) & (lo - up > 0.5)
    frac = np.clip((v - top) / np.maximum(lo - top, 1e-6), 0, 1)
    vsrc = top + frac * (up - top)
    src = a + np.outer(u, along) + np.outer(np.where(inside, vsrc, v), down) - 0.5
    out = img.copy().reshape(-1, 3)
    idx = np.nonzero(inside)[0]
    sx, sy = src[idx, 0], src[idx, 1]
    x0, y0 = np.clip(np.floor(sx).astype(int), 0, W - 2), np.clip(np.floor(sy).astype(int), 0, H - 2)
    fx, fy = (sx - x0)[:, None], (sy - y0)[:, None]
    flat = img.reshape(-1, 3)
    def at(yy, xx): return flat[yy * W + xx]
    out[idx] = (at(y0, x0) * (1 - fx) * (1 - fy) + at(y0, x0 + 1) * fx * (1 - fy)
                + at(y0 + 1, x0) * (1 - fx) * fy + at(y0 + 1, x0 + 1) * fx * fy)
    out = out.reshape(H, W, 3)
    # A soft lash line along the seam, darker toward the outer corner as real lashes are.
    im = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    layer = Image.new('L', (W, H), 0)
    draw = ImageDraw.Draw(layer)
    seam = []
    for t in np.linspace(0.08, 0.95, 24):
        uu_t = uu[0] + t * (uu[-1] - uu[0])
        vv_t = np.interp(uu_t, ul, vl) + 0.03 * width
        seam.append(tuple(a + uu_t * along + vv_t * down))
    draw.line(seam, fill=150, width=max(1, int(round(0.035 * width))))
    layer = layer.filter(ImageFilter.GaussianBlur(float(max(0.5, 0.012 * width))))
    alpha = np.asarray(layer, np.float32)[..., None] / 255
    dark = np.asarray(im, np.float32) * 0.35
    return np.asarray(im, np.float32) * (1 - alpha) + dark * alpha


def move_iris(img, eye, leftmost_first, shift_along, shift_down):
    a, along, down, width, ((uu, vu), (ul, vl)) = curves(eye, leftmost_first)
    H, W, _ = img.shape
    c = eye['iris'][0, :2]
    r = np.mean(np.linalg.norm(eye['iris'][1:, :2] - c, axis=1))
    d = shift_along * width * along + shift_down * width * down
    ys, xs = np.mgrid[0:H, 0:W]
    pts = np.stack([xs + 0.5, ys + 0.5], -1).reshape(-1, 2)
    u, v = uv(pts, a, along, down)
    opening = (u > uu[0]) & (u < uu[-1]) & (v > np.interp(u, uu, vu)) & (v < np.interp(u, ul, vl))
    flat = img.reshape(-1, 3)
    dist_old = np.linalg.norm(pts - c, axis=1)
    dist_new = np.linalg.norm(pts - (c + d), axis=1)
    mid_band = (v > np.interp(u, uu, vu) + 0.25 * (np.interp(u, ul, vl) - np.interp(u, uu, vu))) & \
               (v < np.interp(u, ul, vl) - 0.25 * (np.interp(u, ul, vl) - np.interp(u, uu, vu)))
    sclera_px = flat[opening & mid_band & (dist_old > 1.25 * r)]
    # The eye's own white: among the brighter half of the middle of the opening beside the iris, the least
    # saturated fifth (lid skin is pinker, lashes darker).
    if len(sclera_px) > 9:
        lum = sclera_px @ [0.299, 0.587, 0.114]
        bright = sclera_px[lum >= np.median(lum)]
        sat = (bright.max(1) - bright.min(1)) / np.maximum(bright.max(1), 1)
        sclera = np.median(bright[sat <= np.percentile(sat, 20)], axis=0)
    else:
        sclera = np.array([220, 215, 210.])
    out = flat.copy()
    rng = np.random.default_rng(7)
    fill = opening & (dist_old < 1.12 * r) & (dist_new >= 1.02 * r)
    out[fill] = sclera + rng.normal(0, 3, (fill.sum(), 3))
    moved = opening & (dist_new < 1.02 * r)
    src = pts[moved] - d - 0.5
    sx, sy = np.clip(np.round(src[:, 0]).astype(int), 0, W - 1), np.clip(np.round(src[:, 1]).astype(int), 0, H - 1)
    out[moved] = flat[sy * W + sx]
    out = out.reshape(H, W, 3)
    # Soften the pasted edges a little.
    blurred = np.asarray(Image.fromarray(np.clip(out, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.6)),
                         np.float32)
    edge = (fill | moved).reshape(H, W)
    return np.where(edge[..., None], blurred, out)


# A vertical gaze as real eyes make it (lid–globe coupling: the lids follow the eye; Becker & Fuchs 1988,
# Read et al. 2006, docs/calibration.md "Eyes: the iris model"), in eye widths for an eye rotated `degrees`
# down (negative: up). The iris and sclera move 0.39·sin(degrees) (an 11 mm corneal arc over a 28 mm wide
# eye); looking down the upper lid follows a little further (it covers ~1 mm more of the iris at full
# downgaze) and the lower lid less far (the opening narrows ~2.3 mm), looking up the upper lid rises a
# little less than the iris and the lower lid a little.
def vertical_gaze_shifts(degrees):
    globe = 0.39 * math.sin(math.radians(degrees))
    if degrees >= 0:
        return globe, globe + 0.035 * degrees / 35, globe - 0.045 * degrees / 35
    return globe, 0.85 * globe, 0.3 * globe


def look_vertically(img, eye, leftmost_first, degrees):
    """The eye turned `degrees` down (negative: up) with its lids (`move_lids` with the shifts of
    `vertical_gaze_shifts`). Returns a new float image."""
    return move_lids(img, eye, leftmost_first, *vertical_gaze_shifts(degrees))


# Expressions with the eyes on the camera (the globe still, only the lids move; eye widths, positive down).
# Wide open (surprise, tension): the upper lid retracts past the iris top, baring white above it (~4.5 mm of
# lid travel over a ~28 mm eye, 0.16), the lower lid drops ~1.5 mm (0.05). Narrowed (a squint, a broad
# smile): the upper lid comes down ~2 mm over the iris (0.07) and the lower lid up ~1.7 mm (0.06).
LID_EXPRESSIONS = {'eyes_wide': (-0.16, 0.05), 'eyes_narrow': (0.07, -0.06)}


def move_lids(img, eye, leftmost_first, globe, upper, lower):
    """The eye's globe shifted `globe` eye widths down (negative: up) inside the opening, the upper lid margin
    `upper` and the lower `lower`: the upper lid skin stretched or folded from below the brow to its new
    margin, the lower lid skin likewise down to the cheek; the corners stay. Where the shifted globe or the
    moved lids would show what the lids hid in the photo, the iris is continued by its own mirror image and
    the rest filled with the eye's white. All shifts taper to nothing at the corners. Returns a new float
    image."""
    a, along, down, width, ((uu, vu), (ul, vl)) = curves(eye, leftmost_first)
    d_globe, d_upper, d_lower = (width * d for d in (globe, upper, lower))
    H, W, _ = img.shape
    ys, xs = np.mgrid[0:H, 0:W]
    pts = np.stack([xs + 0.5, ys + 0.5], -1).reshape(-1, 2)
    u, v = uv(pts, a, along, down)
    t = np.clip((u - uu[0]) / max(uu[-1] - uu[0], 1e-6), 0, 1)
    lid_taper = np.sin(np.pi * t)
    # The globe turns as a whole (the sclera by the corners, further back, moves about half as far); looking
    # down it never outruns the upper lid, which covers it.
    globe_shift = d_globe * (0.5 + 0.5 * np.sin(np.pi * t))
    if d_globe > 0:
        globe_shift = np.minimum(globe_shift, d_upper * lid_taper)
    up_old, lo_old = np.interp(u, uu, vu), np.interp(u, ul, vl)
    up_new = up_old + d_upper * lid_taper
    lo_new = np.maximum(lo_old + d_lower * lid_taper, up_new + 1.0)
    top, bottom = up_old - 0.45 * width, lo_old + 0.35 * width
    region = (u > uu[0]) & (u < uu[-1]) & (v > top) & (v < bottom)
    vsrc = v.copy()
    upper = region & (v < up_new)
    vsrc[upper] = top[upper] + (v[upper] - top[upper]) * (up_old[upper] - top[upper]) / np.maximum(
        up_new[upper] - top[upper], 1e-6)
    lower = region & (v > lo_new)
    vsrc[lower] = bottom[lower] - (bottom[lower] - v[lower]) * (bottom[lower] - lo_old[lower]) / np.maximum(
        bottom[lower] - lo_new[lower], 1e-6)
    globe = region & ~upper & ~lower
    vsrc[globe] = v[globe] - globe_shift[globe]
    # Globe points whose source the lids covered in the photo (mainly below the iris when looking up).
    hidden = globe & ((vsrc <= up_old + 0.5) | (vsrc >= lo_old - 0.5))
    c_iris = eye['iris'][0, :2]
    r_iris = np.mean(np.linalg.norm(eye['iris'][1:, :2] - c_iris, axis=1))
    cu, cv = uv(c_iris[None], a, along, down)
    # Mirror a hidden iris point through the iris's horizontal diameter (in the eye's own axes).
    in_iris = hidden & ((u - cu[0]) ** 2 + (vsrc - cv[0]) ** 2 < (1.02 * r_iris) ** 2)
    mirrored = 2 * cv[0] - vsrc
    ok_mirror = in_iris & (mirrored > up_old + 0.5) & (mirrored < lo_old - 0.5)
    vsrc[ok_mirror] = mirrored[ok_mirror]
    fill = hidden & ~ok_mirror
    # The rest of what the lids hid is white of the eye: borrow the photo's own, beside the iris (never from it)
    # and well inside the opening, at the same place along the eye.
    # Under the iris, blend the white from both sides of it.
    def white_at(us, vs):
        up_at, lo_at = np.interp(us, uu, vu), np.interp(us, ul, vl)
        vs = np.clip(vs, up_at + 0.35 * (lo_at - up_at), lo_at - 0.35 * (lo_at - up_at))
        return sample(img, a + np.outer(us, along) + np.outer(vs, down) - 0.5)
    near_iris = np.abs(u[fill] - cu[0]) < 1.25 * r_iris
    side = cu[0] + 1.25 * r_iris
    weight = np.clip((u[fill] - (cu[0] - 1.25 * r_iris)) / (2.5 * r_iris), 0, 1)[:, None]
    white = np.where(near_iris[:, None],
                     (1 - weight) * white_at(np.full(fill.sum(), 2 * cu[0] - side), vsrc[fill])
                     + weight * white_at(np.full(fill.sum(), side), vsrc[fill]),
                     white_at(u[fill], vsrc[fill]))
    src = a + np.outer(u, along) + np.outer(vsrc, down) - 0.5
    flat = img.reshape(-1, 3)
    out = flat.copy()
    idx = np.nonzero(region)[0]
    sx, sy = src[idx, 0], src[idx, 1]
    x0, y0 = np.clip(np.floor(sx).astype(int), 0, W - 2), np.clip(np.floor(sy).astype(int), 0, H - 2)
    fx, fy = (sx - x0)[:, None], (sy - y0)[:, None]
    def at(yy, xx): return flat[yy * W + xx]
    out[idx] = (at(y0, x0) * (1 - fx) * (1 - fy) + at(y0, x0 + 1) * fx * (1 - fy)
                + at(y0 + 1, x0) * (1 - fx) * fy + at(y0 + 1, x0 + 1) * fx * fy)
    out[fill] = white
    out = out.reshape(H, W, 3)
    blurred = np.asarray(Image.fromarray(np.clip(out, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.8)),
                         np.float32)
    seam = fill.reshape(H, W)
    return np.where(seam[..., None], blurred, out)


def reads_vertical_gaze(before, after, degrees):
    """Whether the iris model reads the eyes in `after` as open (the more open eye, as `eyesClosed` asks) and
    turned the way `degrees` says."""
    if after is None:
        return False
    moved = np.mean([eye_measures(after[k], k == 0)[2] - eye_measures(before[k], k == 0)[2] for k in (0, 1)])
    opening = max(eye_measures(after[k], k == 0)[0] for k in (0, 1))
    return opening >= 0.13 and moved * np.sign(degrees) >= MIN_VERTICAL_READING


def sample(img, points):
    """Bilinear samples of `img` at pixel-index coordinates `points` (N×2)."""
    H, W, _ = img.shape
    flat = img.reshape(-1, 3)
    sx, sy = points[:, 0], points[:, 1]
    x0, y0 = np.clip(np.floor(sx).astype(int), 0, W - 2), np.clip(np.floor(sy).astype(int), 0, H - 2)
    fx, fy = np.clip(sx - x0, 0, 1)[:, None], np.clip(sy - y0, 0, 1)[:, None]
    def at(yy, xx): return flat[yy * W + xx]
    return (at(y0, x0) * (1 - fx) * (1 - fy) + at(y0, x0 + 1) * fx * (1 - fy)
            + at(y0 + 1, x0) * (1 - fx) * fy + at(y0 + 1, x0 + 1) * fx * fy)


def eye_band(img, eyes, size=(300, 100)):
    """Both eyes of `img` (located by `eyes`, the photo's own reading) as one tile of `size`."""
    c = np.concatenate([e['contours'][:16, :2] for e in eyes])
    (x0, y0), (x1, y1) = c.min(0), c.max(0)
    cx, cy, w = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * 1.25
    h = w * size[1] / size[0]
    tile = Image.fromarray(np.clip(np.round(img), 0, 255).astype(np.uint8))
    return tile.crop((int(cx - w / 2), int(cy - h / 2), int(cx + w / 2), int(cy + h / 2))).resize(size, Image.LANCZOS)


def px(lms, i, W, H):
    return (float(lms[i][0] * W), float(lms[i][1] * H))


def skin_colour(img, lms, W, H):
    pts = [px(lms, i, W, H) for i in (50, 280, 151)]
    patches = [img[int(y) - 3:int(y) + 4, int(x) - 3:int(x) + 4].reshape(-1, 3) for x, y in pts]
    return np.median(np.concatenate(patches), axis=0)


def lower_face_polygon(lms, W, H):
    """The face outline below the line through the middle of the nose, pushed out a little."""
    nose_y = lms[195][1] * H
    centre = np.array(px(lms, 1, W, H))
    poly = []
    ring = FACE_OVAL
    for k in range(len(ring)):
        p, q = np.array(px(lms, ring[k], W, H)), np.array(px(lms, ring[(k + 1) % len(ring)], W, H))
        if p[1] >= nose_y:
            poly.append(centre + (p - centre) * 1.04)
        if (p[1] - nose_y) * (q[1] - nose_y) < 0:        # crossing the nose line
            t = (nose_y - p[1]) / (q[1] - p[1])
            poly.append(centre + (p + t * (q - p) - centre) * 1.04)
    # Order around the centre so the polygon is simple.
    poly.sort(key=lambda p: math.atan2(p[1] - centre[1], p[0] - centre[0]))
    return [tuple(p) for p in poly], nose_y


def draw_mask(img, lms, kind):
    H, W, _ = img.shape
    im = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    poly, nose_y = lower_face_polygon(lms, W, H)
    layer = Image.new('RGB', (W, H))
    alpha = Image.new('L', (W, H), 0)
    ImageDraw.Draw(alpha).polygon(poly, fill=255)
    xs = [p[0] for p in poly]
    ys = [p[1] for p in poly]
    top, bottom = min(ys), max(ys)
    rng = np.random.default_rng(3)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    if kind in PLEATED:
        # A pleated surgical mask as photographed: three deep pleats whose folds throw a dark shadow under a
        # lit edge (luma from ~0.55 to ~1.1 of the cloth), light from one side.
        base = np.array(PLEATED[kind], np.float32)
        h = max(bottom - top, 1)
        arr = base * (1 - 0.10 * np.clip((yy - top) / h, 0, 1))[..., None]
        for k in range(1, 4):
            y = top + h * (0.22 + 0.17 * k)
            fold = (yy - y) / (0.035 * h + 0.8)
            shadow = 0.45 * np.exp(-np.clip(fold, 0, None) ** 2 * 2) * (fold > 0)
            arr = arr * (1 - shadow + 0.12 * np.exp(-fold ** 2 * 4))[..., None]
        x0, x1 = min(xs), max(xs)
        arr = arr * (1.08 - 0.22 * np.clip((xx - x0) / max(x1 - x0, 1), 0, 1))[..., None]
        arr = arr + rng.normal(0, 3, (H, W, 1)).astype(np.float32)
    elif kind == 'printed':
        # A cloth mask printed with a pattern: coloured dots and leaves on navy, so the mouth and the chin
        # are not one colour.
        arr = np.zeros((H, W, 3), np.float32) + [36, 44, 88]
        prints = Image.new('RGB', (W, H))
        d = ImageDraw.Draw(prints)
        r = 0.03 * (max(xs) - min(xs)) + 1
        colours = [(220, 190, 60), (200, 70, 80), (240, 240, 230), (90, 170, 120)]
        for k in range(int(900 * (max(xs) - min(xs)) * (bottom - top) / (W * H) + 40)):
            cx, cy = rng.uniform(min(xs), max(xs)), rng.uniform(top, bottom)
            rr = r * rng.uniform(0.6, 1.6)
            d.ellipse([cx - rr, cy - rr * 0.7, cx + rr, cy + rr * 0.7], fill=colours[k % len(colours)])
        p = np.asarray(prints, np.float32)
        printed = p.sum(axis=2, keepdims=True) > 0
        arr = np.where(printed, p, arr)
    elif kind == 'surgical':
        base = np.array([150, 192, 214], np.float32)
        yy = np.arange(H, dtype=np.float32)[:, None] * np.ones((1, W), np.float32)
        shade = 1 - 0.12 * np.clip((yy - top) / max(bottom - top, 1), 0, 1)
        arr = base * shade[..., None]
        for k in range(1, 4):                                    # three pleats
            y = top + (bottom - top) * (0.25 + 0.18 * k)
            band = np.exp(-((yy - y) / (0.012 * (bottom - top) + 0.8)) ** 2)
            arr = arr * (1 - 0.25 * band[..., None])
    else:
        base = np.array([38, 40, 52], np.float32)
        arr = base + rng.normal(0, 9, (H, W, 1)).astype(np.float32) * np.ones(3, np.float32)
    layer = Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8))
    alpha = alpha.filter(ImageFilter.GaussianBlur(1.0))
    im.paste(layer, (0, 0), alpha)
    draw = ImageDraw.Draw(im)
    loop = (30, 30, 36) if kind == 'cloth' else (235, 235, 235)
    left = min(poly, key=lambda p: p[0])
    right = max(poly, key=lambda p: p[0])
    ear_l, ear_r = px(lms, 234, W, H), px(lms, 454, W, H)
    lw = max(2, int(0.012 * (max(xs) - min(xs))))
    draw.line([left, (ear_l[0], ear_l[1] - 0.02 * H)], fill=loop, width=lw)
    draw.line([right, (ear_r[0], ear_r[1] - 0.02 * H)], fill=loop, width=lw)
    return np.asarray(im, np.float32)


def draw_hand(img, lms, where):
    """A hand in the person's own skin colour: palm and four fingers with gaps and shading."""
    H, W, _ = img.shape
    skin = skin_colour(img, lms, W, H)
    face_w = abs(lms[454][0] - lms[234][0]) * W
    if where == 'mouth':
        cx, cy = np.mean([px(lms, i, W, H) for i in (13, 14, 61, 291)], axis=0)
        cy += 0.02 * face_w
    else:
        cx, cy = np.mean([px(lms, i, W, H) for i in (33, 133, 159, 145)], axis=0)
    fw, fl = 0.14 * face_w, 0.55 * face_w          # finger width and length
    layer = Image.new('L', (W, H), 0)
    shade = Image.new('L', (W, H), 0)
    d, s = ImageDraw.Draw(layer), ImageDraw.Draw(shade)
    x0 = cx - 0.25 * face_w
    # Palm on the image-left side, fingers pointing to the image-right across the covered part.
    d.ellipse([x0 - 0.32 * face_w, cy - 0.27 * face_w, x0 + 0.12 * face_w, cy + 0.27 * face_w], fill=255)
    for k in range(4):
        fy = cy - 1.5 * fw + k * fw * 1.0
        length = fl * (0.85 if k in (0, 3) else 1.0)
        d.rounded_rectangle([x0 - 0.05 * face_w, fy - 0.46 * fw, x0 + length, fy + 0.46 * fw], radius=0.45 * fw,
                            fill=255)
        s.line([(x0 + 0.1 * face_w, fy + 0.5 * fw), (x0 + length - 0.2 * fw, fy + 0.5 * fw)], fill=255,
               width=max(1, int(0.08 * fw)))
    layer = layer.filter(ImageFilter.GaussianBlur(0.8))
    shade = shade.filter(ImageFilter.GaussianBlur(float(max(0.6, 0.05 * fw))))
    yy, xx = np.mgrid[0:H, 0:W]
    light = 1.05 - 0.18 * np.clip((yy - (cy - 2 * fw)) / (4 * fw), 0, 1)     # lit from above
    hand = skin[None, None, :] * light[..., None] * (1 - 0.45 * np.asarray(shade, np.float32)[..., None] / 255)
    a = np.asarray(layer, np.float32)[..., None] / 255
    return img * (1 - a) + hand * a


def draw_sunglasses(img, lms, eyes):
    H, W, _ = img.shape
    im = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    lens = Image.new('L', (W, H), 0)
    d = ImageDraw.Draw(lens)
    centres = []
    for eye in eyes:
        c = eye['contours'][:, :2]
        mid = (c[0] + c[8]) / 2 - [0, 0.08 * np.linalg.norm(c[8] - c[0])]
        w = np.linalg.norm(c[8] - c[0])
        centres.append((mid, w))
        d.ellipse([mid[0] - 0.9 * w, mid[1] - 0.62 * w, mid[0] + 0.9 * w, mid[1] + 0.62 * w], fill=255)
    lens = lens.filter(ImageFilter.GaussianBlur(0.8))
    dark = np.zeros((H, W, 3), np.float32) + [22, 24, 30]
    yy = np.arange(H, dtype=np.float32)[:, None]
    dark = dark + 18 * np.exp(-((yy - (centres[0][0][1] - 0.3 * centres[0][1])) / (0.15 * centres[0][1])) ** 2)[..., None]
    a = np.asarray(lens, np.float32)[..., None] / 255
    out = img * (1 - a) + dark * a
    im = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(im)
    (m0, w0), (m1, w1) = centres
    lw = max(2, int(0.1 * w0))
    draw.line([(m0[0] + 0.85 * w0, m0[1] - 0.3 * w0), (m1[0] - 0.85 * w1, m1[1] - 0.3 * w1)], fill=(20, 20, 24), width=lw)
    draw.line([(m0[0] - 0.9 * w0, m0[1] - 0.2 * w0), px(lms, 234, W, H)], fill=(20, 20, 24), width=lw)
    draw.line([(m1[0] + 0.9 * w1, m1[1] - 0.2 * w1), px(lms, 454, W, H)], fill=(20, 20, 24), width=lw)
    return np.asarray(im, np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ref-tools', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--variants', default='closed,gaze_left,gaze_right,gaze_down,mask_surgical,mask_cloth,'
                                          'hand_mouth,hand_eye,sunglasses')
    ap.add_argument('--jpeg', type=int, metavar='QUALITY', help='write JPEG at this quality instead of PNG '
                    '(the small committed test fixtures: Tests/Fixtures/eyes)')
    ap.add_argument('--no-open', action='store_true', help='do not write the unchanged photo')
    ap.add_argument('--gaze-degrees', metavar='DOWN,UP', help='angles of gaze_down2 and gaze_up (default '
                    f'{VERTICAL_GAZE["gaze_down2"]},{VERTICAL_GAZE["gaze_up"]})')
    ap.add_argument('--eye-sheet', metavar='FILE', help='also write a sheet of the eye region (JPEG), one row per '
                    'photo, the photo first and then each variant')
    ap.add_argument('--sheet', metavar='FILE', help='also write a contact sheet of the face crops (JPEG), one row per '
                    'photo: the pictures in docs/calibration.md')
    ap.add_argument('photos', nargs='+')
    args = ap.parse_args()
    if args.gaze_degrees:
        VERTICAL_GAZE['gaze_down2'], VERTICAL_GAZE['gaze_up'] = (float(v) for v in args.gaze_degrees.split(','))
    sys.path.insert(0, args.ref_tools)
    import ref_interpreter as ri
    import ref_pipeline as rp
    from ai_edge_litert.interpreter import Interpreter
    path = os.environ.get('FACECAP_MODEL_DIR', 'models') + '/iris_landmark.tflite'
    lite = Interpreter(model_path=path, num_threads=1)
    lite.allocate_tensors()

    def litert(x):
        lite.set_tensor(lite.get_input_details()[0]['index'], x[None])
        lite.invoke()
        outs = [lite.get_tensor(d['index']) for d in lite.get_output_details()]
        outs.sort(key=lambda o: -o.size)
        return outs[0], outs[1]

    def read_eyes(img):
        H, W, _ = img.shape
        dets = rp.detect_faces(img)
        if not dets:
            return None, None
        lms, _ = rp.face_mesh(img, rp.detection_to_roi(dets[0], W, H))
        if lms is None:
            return None, None
        return lms, iris_ref.eyes(rp, ri, None, img, lms, run=litert)

    def describe(eyes, img):
        r = eye_measures(eyes[0], True)
        l = eye_measures(eyes[1], False)
        shades = [pupil_shade(img, e, first) for e, first in ((eyes[0], True), (eyes[1], False))]
        return (f'opening {r[0]:.3f}/{l[0]:.3f}, iris offset x {(r[1] + l[1]) / 2:+.3f} '
                f'y {(r[2] + l[2]) / 2:+.3f}, pupil shade '
                + '/'.join('-' if x is None else f'{x:.2f}' for x in shades))

    os.makedirs(args.out, exist_ok=True)
    variants = args.variants.split(',')
    rows = []
    eye_rows = []
    for photo in args.photos:
        name = os.path.splitext(os.path.basename(photo))[0]
        img = np.asarray(Image.open(photo).convert('RGB'), dtype=np.float32)
        H, W, _ = img.shape
        lms, eyes = read_eyes(img)
        if eyes is None:
            print(f'{name}: no face found, skipped')
            continue
        def save(array, variant):
            if args.jpeg:
                Image.fromarray(array).save(os.path.join(args.out, f'{name}_{variant}.jpg'), quality=args.jpeg)
            else:
                Image.fromarray(array).save(os.path.join(args.out, f'{name}_{variant}.png'))
        if not args.no_open:
            save(img.astype(np.uint8), 'open')
        xs, ys = lms[:, 0] * W, lms[:, 1] * H
        side = 1.15 * max(xs.max() - xs.min(), ys.max() - ys.min())
        crop_box = (int(xs.mean() - side / 2), int(ys.mean() - side / 2), int(xs.mean() + side / 2),
                    int(ys.mean() + side / 2))
        row = [Image.fromarray(img.astype(np.uint8)).crop(crop_box).resize((120, 120), Image.LANCZOS)]
        eye_row = [eye_band(img, eyes)]
        print(f'{name} open: LiteRT iris model reads {describe(eyes, img)}')
        for variant in variants:
            if variant == 'closed':
                out = close_eye(close_eye(img, eyes[0], True), eyes[1], False)
            elif variant in LID_EXPRESSIONS:
                upper, lower = LID_EXPRESSIONS[variant]
                out = move_lids(move_lids(img, eyes[0], True, 0, upper, lower), eyes[1], False, 0, upper, lower)
            elif variant in VERTICAL_GAZE:
                degrees = VERTICAL_GAZE[variant]
                out = look_vertically(look_vertically(img, eyes[0], True, degrees), eyes[1], False, degrees)
            elif variant.startswith('gaze_'):
                along, down = {'gaze_left': (-0.2, 0), 'gaze_right': (0.2, 0), 'gaze_down': (0, 0.12)}[variant]
                out = move_iris(move_iris(img, eyes[0], True, along, down), eyes[1], False, along, down)
            elif variant.startswith('mask_'):
                out = draw_mask(img, lms, variant[5:])
            elif variant.startswith('hand_'):
                out = draw_hand(img, lms, variant[5:])
            elif variant == 'sunglasses':
                out = draw_sunglasses(img, lms, eyes)
            else:
                sys.exit(f'unknown variant {variant}')
            out = np.clip(np.round(out), 0, 255).astype(np.uint8)
            save(out, variant)
            row.append(Image.fromarray(out).crop(crop_box).resize((120, 120), Image.LANCZOS))
            eye_row.append(eye_band(out, eyes))
            _, after = read_eyes(out.astype(np.float32))
            print(f'{name} {variant}: LiteRT iris model reads ' + (describe(after, out) if after else 'no face'))
            if variant in VERTICAL_GAZE and not reads_vertical_gaze(eyes, after, VERTICAL_GAZE[variant]):
                # The model does not see it as intended: not a test frame.
                print(f'{name} {variant}: rejected (the iris model does not read open eyes turned '
                      f'{"down" if VERTICAL_GAZE[variant] > 0 else "up"} by at least {MIN_VERTICAL_READING})')
                os.remove(os.path.join(args.out, f'{name}_{variant}.{"jpg" if args.jpeg else "png"}'))
                row.pop()
                eye_row.pop()
        rows.append(row)
        eye_rows.append(eye_row)
    if args.eye_sheet and eye_rows:
        tw, th = eye_rows[0][0].size
        sheet = Image.new('RGB', (tw * max(len(r) for r in eye_rows), th * len(eye_rows)), 'white')
        for y, row in enumerate(eye_rows):
            for x, tile in enumerate(row):
                sheet.paste(tile, (tw * x, th * y))
        sheet.save(args.eye_sheet, quality=80)
    if args.sheet and rows:
        sheet = Image.new('RGB', (120 * max(len(r) for r in rows), 120 * len(rows)), 'white')
        for y, row in enumerate(rows):
            for x, tile in enumerate(row):
                sheet.paste(tile, (120 * x, 120 * y))
        sheet.save(args.sheet, quality=75)


if __name__ == '__main__':
    main()
