#!/usr/bin/env python3
"""Builds the constructed frames for the mouth-cover check (docs/calibration.md, "Covered faces"): hands over
the mouth, and the faces that must NOT read as covered — beards, moustaches, stubble and a fringe of hair over
the forehead — from real face photos, following the FaceMesh landmarks of the reference pipeline.

No permissively licensed photo of a hand over a mouth, of a beard or of a fringe ships in the packages the
calibration photos come from, so they are drawn here, each from the photo's own pixels where it can be:

  hand_<dir>_<n>   a hand over the mouth. Its surface is the photo's own cheek texture (the cheek's detail
                   laid over a smooth hand colour), four fingers as shaded cylinders (darker at their sides),
                   a thumb, shadowed gaps between the fingers, knuckle creases, nails, and a soft shadow cast
                   on the face around it. <dir> is where the fingers point: `h`/`hr` across the mouth to the
                   image's right/left (the usual gesture), `d`/`dr` diagonal (±25°), `v` up along the cheek;
                   <n> (1…8, the table HANDS) varies the
                   position (centred on the mouth, higher over the nose tip, lower over the chin; `hand_v_nose`
                   up over the nose and eyes, `hand_d_cheek` on the right cheek with its palm pushed 0.3 face
                   widths out, off the face: issue 32), the hand's
                   tone (the skin's, 10 % lighter and redder like a palm, 12 % darker) and the light (from
                   above, from either side).
  beard_<colour>   a full beard: jaw, chin, cheeks below the cheekbone and a moustache, lips left free;
  moustache_<colour>, goatee_<colour>, stubble
                   hair drawn as thousands of short strands (random length and curl) flowing down along the
                   jaw, in the photo's own hair colour (`dark`: sampled above the forehead when that hair is
                   dark, else a dark brown) or a light one (`light`: ash blond / grey).
  mask_<colour>_<reach>
                   a dark pleated mask (`black`, `charcoal`, `navy`, `brown`) laid along the FaceMesh outline of
                   the lower face (pushed out 4 %), its top edge across the nose at `high` (its middle, 197:
                   the mask reaches up under the eyes and over the upper cheeks, as a real one pulled up does)
                   or `mid` (195); three pleats with a shadow under each fold, a woven texture, light from one
                   side, a binding along the top edge.
  sunglasses_<kind>
                   dark glasses over both eyes, from the eye corners and lids: `dark` (grey-black), `brown`
                   (a brown lens that lets a quarter of the light through: the eye shows dimly behind it),
                   `gradient` (brown, dark at the top and light toward the bottom), `reflect` (a dark lens with a
                   window's reflection and a lit streak across it), each with a frame round the lens, a bridge
                   and arms.
  shadow_<kind>    uncovered eyes in hard light (must NOT read as covered): `brow` (light from above: the eye
                   sockets in the brow's shadow, to 35 % of the light at the lids), `side` (light from the
                   image's left: the far half of the face at 30 %, the edge soft along the nose), `glasses_dim`
                   (thin clear glasses drawn round the eyes with a faint reflection on the lens, the whole
                   frame at gain 0.5: clear glasses in dim light).
  fringe_<colour>  hair over the forehead from the hairline down to the eyebrows (strand ends ragged, some over
                   the brows), same colours.

Usage: FACECAP_MODEL_DIR=models python3 tools/make_cover_frames.py --ref-tools DIR --out OUTDIR PHOTO...
(numpy, pillow; DIR holds the reference pipeline, ref_pipeline.py). Writes OUTDIR/<photo>_<variant>.png (or
.jpg with --jpeg) and <photo>_open.png; the same seed gives the same frames. Then
`tools/calibrate_eyes.py [--frames FRAMES] OUTDIR` tabulates what facecap measures on them.
"""
import argparse
import math
import os
import sys

import numpy as np
from PIL import Image, ImageDraw, ImageFilter

FACE_OVAL = [10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152,
             148, 176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109]
LIPS = [61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146]
BROWS = [(70, 63, 105, 66, 107), (336, 296, 334, 293, 300)]


class Face:
    def __init__(self, img, lms):
        self.img = img
        self.H, self.W, _ = img.shape
        self.P = lms[:, :2] * [self.W, self.H]
        self.span = float(np.linalg.norm(self.P[263] - self.P[33]))
        across = (self.P[263] - self.P[33]) / self.span
        self.along = across
        self.down = np.array([-across[1], across[0]])

    def p(self, i):
        return self.P[i].copy()

    def skin(self):
        """The cheeks' median colour."""
        pts = [self.p(i) for i in (50, 280, 118, 347)]
        r = max(2, int(0.03 * self.span))
        patches = [self.img[int(y) - r:int(y) + r + 1, int(x) - r:int(x) + r + 1].reshape(-1, 3) for x, y in pts]
        return np.median(np.concatenate(patches), axis=0)

    def cheek_detail(self):
        """The cheek's fine detail (luma minus its blur), tiled by mirroring to the frame size."""
        c = self.p(50)
        r = max(6, int(0.09 * self.span))
        patch = self.img[int(c[1]) - r:int(c[1]) + r, int(c[0]) - r:int(c[0]) + r]
        lum = patch @ [0.299, 0.587, 0.114]
        blur = gaussian(lum, max(1.5, r / 6))
        detail = (lum - blur) / max(1.0, float(lum.mean()))
        tile = np.concatenate([detail, detail[:, ::-1]], 1)
        tile = np.concatenate([tile, tile[::-1]], 0)
        reps = (self.H // tile.shape[0] + 1, self.W // tile.shape[1] + 1)
        return np.tile(tile, reps)[:self.H, :self.W]

    def hair_colour(self, which):
        if which == 'light':
            return np.array([176, 160, 128.])
        top = self.p(10) - 0.18 * self.span * self.down
        r = max(2, int(0.05 * self.span))
        x, y = int(top[0]), int(top[1])
        if y - r < 0:
            return np.array([48, 38, 32.])
        px = self.img[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].reshape(-1, 3)
        c = np.median(px, axis=0)
        return c if c @ [0.299, 0.587, 0.114] < 90 else np.array([48, 38, 32.])


def gaussian(a, sigma):
    """A separable Gaussian blur of a 2-D float array (edges replicated)."""
    k = np.arange(-int(3 * sigma) - 1, int(3 * sigma) + 2)
    k = np.exp(-0.5 * (k / sigma) ** 2)
    k /= k.sum()
    r = len(k) // 2
    padded = np.pad(a, r, mode='edge')
    rows = np.apply_along_axis(lambda v: np.convolve(v, k, 'valid'), 1, padded)
    return np.apply_along_axis(lambda v: np.convolve(v, k, 'valid'), 0, rows)


def capsule(draw, a, b, w, fill):
    draw.line([tuple(a), tuple(b)], fill=fill, width=max(1, int(round(w))))
    for q in (a, b):
        draw.ellipse([q[0] - w / 2, q[1] - w / 2, q[0] + w / 2, q[1] + w / 2], fill=fill)


def draw_hand(face, direction, variant, seed):
    """A hand over the mouth; returns the new image."""
    img, W, H = face.img, face.W, face.H
    rng = np.random.default_rng(seed)
    s = face.span                      # eye corner to corner, ~0.45 of the face width
    mouth = (face.p(13) + face.p(14)) / 2
    pos, tone, light = variant
    if pos == 'cheek_out':              # on the right cheek (50), pushed 0.3 face widths out: the palm off the face
        centre = face.p(50) - 0.3 * float(np.linalg.norm(face.p(454) - face.p(234))) * face.along
    else:
        centre = mouth + {'mid': 0.0, 'high': -0.18, 'low': 0.2, 'nose': -0.7}[pos] * s * face.down
    face_angle = math.atan2(face.along[1], face.along[0])
    angle = face_angle + {'h': 0.0, 'hr': math.pi, 'd': -0.44, 'dr': math.pi + 0.44, 'v': -math.pi / 2 + 0.2}[direction]
    u = np.array([math.cos(angle), math.sin(angle)])          # along the fingers, toward the tips
    n = np.array([-u[1], u[0]])
    fw = 0.21 * s * rng.uniform(0.92, 1.08)                   # finger width
    lengths = np.array([0.95, 1.0, 0.93, 0.75]) * 1.05 * s   # index … little finger
    # The knuckle line sits behind the mouth centre so the fingers cross the mouth.
    base = centre - 0.45 * s * u
    body = Image.new('L', (W, H), 0)
    gaps = Image.new('L', (W, H), 0)
    creases = Image.new('L', (W, H), 0)
    nails = Image.new('L', (W, H), 0)
    ridge = np.zeros((H, W), np.float32)                      # cylinder shading: 1 on a finger's ridge, 0 at its side
    db, dg, dc, dn = (ImageDraw.Draw(x) for x in (body, gaps, creases, nails))
    ys, xs = np.mgrid[0:H, 0:W]
    pts = np.stack([xs + 0.5, ys + 0.5], -1)
    order = [-1.5, -0.5, 0.5, 1.5]
    spread = rng.uniform(0.0, 0.06)
    for k, (off, length) in enumerate(zip(order, lengths)):
        a = base + off * fw * n
        tip_dir = u + spread * off * n
        tip_dir /= np.linalg.norm(tip_dir)
        b = a + length * tip_dir
        capsule(db, a, b, fw * 0.98, 255)
        # Cylinder shading from the distance to the finger's axis.
        d = pts - a
        t = np.clip(d @ tip_dir, 0, length)
        perp = np.linalg.norm(d - t[..., None] * tip_dir, axis=-1)
        ridge = np.maximum(ridge, np.clip(1 - (perp / (0.5 * fw)) ** 2, 0, 1) * (t > 0))
        for c in (0.42, 0.68):                                 # knuckle creases across the finger
            m = a + (c + rng.uniform(-0.05, 0.05)) * length * tip_dir
            dc.line([tuple(m - 0.25 * fw * n), tuple(m + 0.25 * fw * n)], fill=int(rng.uniform(120, 255)),
                    width=max(1, int(0.05 * fw)))
        nail_c = b - 0.28 * fw * tip_dir
        dn.ellipse([nail_c[0] - 0.28 * fw, nail_c[1] - 0.28 * fw, nail_c[0] + 0.28 * fw, nail_c[1] + 0.28 * fw],
                   fill=255)
        if k < 3:                                              # the gap toward the next finger
            g0 = base + (off + 0.5) * fw * n + 0.15 * s * u
            g1 = g0 + min(length, lengths[k + 1]) * 0.92 * u
            dg.line([tuple(g0), tuple(g1)], fill=255, width=max(1, int(round(0.07 * fw))))
    # The back of the hand behind the knuckles and the thumb along the little-finger-far side.
    back_c = base - 0.35 * s * u
    capsule(db, back_c - 1.5 * fw * n, back_c + 1.5 * fw * n, 0.9 * s, 255)
    thumb_a = base - 0.3 * s * u + 2.2 * fw * n
    capsule(db, thumb_a, thumb_a + 0.55 * s * (0.8 * u + 0.6 * n), 1.1 * fw, 255)
    body = body.filter(ImageFilter.GaussianBlur(max(0.6, 0.015 * s)))
    gaps = gaps.filter(ImageFilter.GaussianBlur(max(0.6, 0.03 * fw)))
    creases = creases.filter(ImageFilter.GaussianBlur(max(0.5, 0.02 * fw)))
    nails = nails.filter(ImageFilter.GaussianBlur(max(0.5, 0.05 * fw)))
    alpha = np.asarray(body, np.float32) / 255
    # Colour: the skin's, shifted by the variant's tone; the cheek's own detail on top.
    colour = face.skin() * {'same': [1, 1, 1], 'palm': [1.12, 1.06, 1.04], 'dark': [0.88, 0.87, 0.86]}[tone]
    lit = {'top': -face.down, 'left': -face.along, 'right': face.along}[light]
    proj = (pts - centre) @ lit / s
    light_map = 1.0 + 0.12 * np.clip(proj, -1.5, 1.5)
    shade = (0.80 + 0.22 * ridge) * light_map
    shade *= 1 - 0.45 * np.asarray(gaps, np.float32) / 255
    shade *= 1 - 0.12 * np.asarray(creases, np.float32) / 255
    hand = colour[None, None, :] * shade[..., None] * (1 + 1.3 * face.cheek_detail()[..., None])
    nail = np.asarray(nails, np.float32)[..., None] / 255 * (alpha[..., None] > 0.5)
    hand = hand * (1 - 0.5 * nail) + np.minimum(255, colour * [1.18, 1.08, 1.1]) * 0.5 * nail
    # A soft shadow on the face beside the hand, away from the light.
    shadow = Image.fromarray((alpha * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.08 * s))
    sh = np.asarray(shadow, np.float32) / 255
    shifted = np.roll(np.roll(sh, int(round(-lit[1] * 0.05 * s)), 0), int(round(-lit[0] * 0.05 * s)), 1)
    out = img * (1 - 0.35 * shifted[..., None] * (1 - alpha[..., None]))
    return out * (1 - alpha[..., None]) + hand * alpha[..., None]


def polygon_mask(face, poly, blur):
    m = Image.new('L', (face.W, face.H), 0)
    ImageDraw.Draw(m).polygon([tuple(p) for p in poly], fill=255)
    if blur:
        m = m.filter(ImageFilter.GaussianBlur(blur))
    return np.asarray(m, np.float32) / 255


def beard_regions(face, kind):
    """Where hair grows for `kind`: a mask (0…1) and the lips, which stay free."""
    P, s, down, along = face.P, face.span, face.down, face.along
    centre = face.p(1)
    lips_mask = polygon_mask(face, [face.p(13) + (P[i] - face.p(13)) * 1.12 for i in LIPS], 0.02 * s)
    ear_y = (P[234] @ down + P[454] @ down) / 2
    oval = [centre + (P[i] - centre) * 1.02 for i in FACE_OVAL]
    lower = [q for q in oval if q @ down >= ear_y - 0.05 * s]
    lower.sort(key=lambda q: math.atan2(*(q - centre)[::-1]))
    moustache = [face.p(61) - 0.08 * s * along - 0.02 * s * down, face.p(98) + 0.04 * s * down,
                 face.p(2) + 0.03 * s * down, face.p(327) + 0.04 * s * down,
                 face.p(291) + 0.08 * s * along - 0.02 * s * down, face.p(291) + 0.05 * s * along + 0.04 * s * down,
                 face.p(0) + 0.03 * s * down, face.p(61) - 0.05 * s * along + 0.04 * s * down]
    if kind == 'moustache':
        return polygon_mask(face, moustache, 0.02 * s) * (1 - 0.6 * lips_mask), lips_mask
    chin = [face.p(61) - 0.1 * s * along + 0.05 * s * down, face.p(17) + 0.02 * s * down,
            face.p(291) + 0.1 * s * along + 0.05 * s * down, face.p(365) * 0.5 + face.p(291) * 0.5,
            face.p(152) + 0.03 * s * down, face.p(136) * 0.5 + face.p(61) * 0.5]
    if kind == 'goatee':
        m = np.maximum(polygon_mask(face, moustache, 0.02 * s), polygon_mask(face, chin, 0.03 * s))
        return m * (1 - lips_mask), lips_mask
    # Full beard: the face outline below the ears, up to a line from the ear to beside the nostrils.
    top = [face.p(454), face.p(426) * 0.6 + face.p(411) * 0.4, face.p(327) + 0.04 * s * down,
           face.p(2) + 0.03 * s * down, face.p(98) + 0.04 * s * down, face.p(206) * 0.6 + face.p(187) * 0.4,
           face.p(234)]
    full = polygon_mask(face, lower, 0)
    upper = polygon_mask(face, top + [face.p(234) - 1.0 * s * down, face.p(454) - 1.0 * s * down], 0)
    m = np.clip(full - upper, 0, 1)
    m = np.maximum(m, polygon_mask(face, moustache, 0))
    m = np.asarray(Image.fromarray((m * 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.03 * s)),
                   np.float32) / 255
    return m * (1 - lips_mask), lips_mask


def hair_layer(face, region, colour, density, length, flow, rng, width=1.0):
    """Strands in `colour` where `region` > 0: returns (rgb, alpha). `flow(p)` is the strand direction."""
    W, H, s = face.W, face.H, face.span
    scale = 3 if s < 150 else 2                               # draw larger, then shrink: thin, soft strands
    layer = Image.new('L', (W * scale, H * scale), 0)
    tint = Image.new('L', (W * scale, H * scale), 128)
    d, dt = ImageDraw.Draw(layer), ImageDraw.Draw(tint)
    ys, xs = np.nonzero(region > 0.05)
    if len(xs) == 0:
        return np.zeros((H, W, 3)), np.zeros((H, W))
    count = int(density * len(xs))
    pick = rng.integers(0, len(xs), count)
    for x0, y0 in zip(xs[pick] + rng.random(count), ys[pick] + rng.random(count)):
        if rng.random() > region[int(y0), int(x0)]:
            continue
        p = np.array([x0, y0])
        L = length * s * rng.uniform(0.5, 1.4)
        direction = flow(p) + rng.normal(0, 0.25, 2)
        direction /= np.linalg.norm(direction)
        curl = rng.normal(0, 0.5)
        pts = [p]
        for _ in range(4):
            direction = direction + curl * 0.3 * np.array([-direction[1], direction[0]])
            direction /= np.linalg.norm(direction)
            pts.append(pts[-1] + direction * L / 4)
        d.line([tuple(q * scale) for q in pts], fill=int(rng.uniform(150, 255)), width=max(1, int(width * scale)))
        dt.line([tuple(q * scale) for q in pts], fill=int(np.clip(rng.normal(128, 40), 0, 255)),
                width=max(1, int(width * scale)))
    alpha = np.asarray(layer.resize((W, H), Image.LANCZOS), np.float32) / 255
    t = (np.asarray(tint.resize((W, H), Image.BILINEAR), np.float32) - 128) / 128
    rgb = colour[None, None, :] * (1 + 0.45 * t[..., None])
    return np.clip(rgb, 0, 255), np.clip(alpha, 0, 1)


def draw_beard(face, kind, colour_name, seed):
    rng = np.random.default_rng(seed)
    region, _ = beard_regions(face, {'stubble': 'full'}.get(kind, kind))
    colour = face.hair_colour(colour_name)
    centre = face.p(1)
    def flow(p):            # down, and a little outward on either side of the face
        return face.down + 0.175 * face.along * np.sign((p - centre) @ face.along)
    img = face.img
    if kind == 'stubble':
        rgb, alpha = hair_layer(face, region, colour * 0.7, 0.5, 0.015, flow, rng)
        alpha = alpha * 0.45
    else:
        # A dense underlayer (the skin shows only a little through a full beard), then strands on top.
        under = np.asarray(Image.fromarray((region * 255).astype(np.uint8)).filter(
            ImageFilter.GaussianBlur(0.01 * face.span)), np.float32)[..., None] / 255
        img = img * (1 - 0.75 * under) + colour * 0.8 * 0.75 * under
        rgb, alpha = hair_layer(face, region, colour, 1.6, 0.09, flow, rng)
    return img * (1 - alpha[..., None]) + rgb * alpha[..., None]


def draw_fringe(face, colour_name, seed):
    """Hair from above the hairline down over the forehead to the brows, ends ragged."""
    rng = np.random.default_rng(seed)
    s, down, along = face.span, face.down, face.along
    brow_pts = [face.p(i) for row in BROWS for i in row]
    left = min(brow_pts, key=lambda q: q @ along) - 0.25 * s * along
    right = max(brow_pts, key=lambda q: q @ along) + 0.25 * s * along
    brow_line = [face.p(i) - 0.02 * s * down for i in reversed(BROWS[0])] + \
                [face.p(i) - 0.02 * s * down for i in BROWS[1]]
    brow_line = sorted(brow_line, key=lambda q: q @ along)
    top = face.p(10) - 0.6 * s * down
    poly = [left - 0.1 * s * down] + brow_line + [right - 0.1 * s * down, right - 0.9 * s * down,
                                                  top + 0.9 * s * along, top - 0.9 * s * along,
                                                  left - 0.9 * s * down]
    region = polygon_mask(face, poly, 0.02 * s)
    colour = face.hair_colour(colour_name)
    img = face.img
    # A dense underlayer, fading out toward the brows so the strands' ends show.
    pixels = np.stack(np.mgrid[0:face.H, 0:face.W][::-1], -1)
    under = region[..., None] * np.clip((face.p(10) @ down + 0.55 * s - pixels @ down) / (0.5 * s), 0, 1)[..., None]
    img = img * (1 - 0.85 * under) + colour * 0.85 * 0.85 * under
    rgb, alpha = hair_layer(face, region, colour, 0.9, 0.3, lambda p: down + 0.25 * along, rng, width=1.5)
    # Strands end at the brows, ragged: some a little above, some over them.
    ragged = [q - ((q - left) @ down) * down + (np.interp((q - left) @ along,
              [(b - left) @ along for b in brow_line], [(b - left) @ down for b in brow_line])) * down
              + rng.uniform(-0.05, 0.05) * s * down for q in np.linspace(left, right, 24)]
    keep = polygon_mask(face, ragged + [right - 2 * s * down, left - 2 * s * down], 0.01 * s)
    alpha = alpha * keep
    return img * (1 - alpha[..., None]) + rgb * alpha[..., None]


# FaceMesh's face oval from the left cheek at nose level round the chin to the right one (tools/realset.py lays
# its mask photos along the same outline).
LOWER_OVAL = [323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93]
DARK_MASKS = {'black': (30, 30, 33), 'charcoal': (60, 60, 64), 'navy': (30, 36, 64), 'brown': (64, 50, 42)}
# Eyes by their landmarks: outer corner, inner corner, upper lid, lower lid; brow points.
EYES = [(33, 133, 159, 145, (70, 63, 105, 66, 107)), (263, 362, 386, 374, (300, 293, 334, 296, 336))]


def pixels(face):
    ys, xs = np.mgrid[0:face.H, 0:face.W]
    return np.stack([xs + 0.5, ys + 0.5], -1)


def blurred(a, sigma):
    im = Image.fromarray(np.clip(a * 255, 0, 255).astype(np.uint8))
    return np.asarray(im.filter(ImageFilter.GaussianBlur(max(0.5, sigma))), np.float32) / 255


def draw_dark_mask(face, colour, reach, seed):
    """A dark pleated mask over the lower face, its top edge across the nose at `reach`."""
    rng = np.random.default_rng(seed)
    s, down, along = face.span, face.down, face.along
    top = face.p({'high': 197, 'mid': 195}[reach])
    left, right = face.p(93), face.p(323)
    corner_l = top + ((left - top) @ along) * along
    corner_r = top + ((right - top) @ along) * along
    poly = [face.p(i) for i in LOWER_OVAL] + [corner_l, top, corner_r]
    c = np.mean(poly, axis=0)
    poly = [c + (q - c) * 1.04 for q in poly]
    alpha = polygon_mask(face, poly, 0.6)
    pts = pixels(face)
    height = max(1.0, float((face.p(152) - top) @ down) * 1.04)
    v = ((pts - top) @ down) / height                         # 0 at the top edge, 1 at the chin
    u = ((pts - corner_l) @ along) / max(1.0, float((corner_r - corner_l) @ along))
    shade = np.ones((face.H, face.W), np.float32)
    for y in (0.3, 0.5, 0.7):                                 # three pleats: a lit fold, a shadow under it
        f = (v - y - 0.04 * np.sin(np.pi * u)) / 0.035
        shade *= 1 - 0.4 * np.exp(-np.clip(f, 0, None) ** 2 * 2) * (f > 0) + 0.15 * np.exp(-f ** 2 * 4)
    shade *= 1.12 - 0.24 * np.clip(u, 0, 1)                   # light from one side
    shade *= np.where((v > 0) & (v < 0.05), 0.85, 1.0)        # the binding along the top edge
    weave = blurred(rng.normal(0.5, 0.08, (face.H, face.W)), 0.4) - 0.5
    fabric = np.array(DARK_MASKS[colour], np.float32) * (shade * (1 + 0.6 * weave))[..., None]
    out = face.img * (1 - alpha[..., None]) + fabric * alpha[..., None]
    im = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(im)
    loop = tuple(int(x) for x in DARK_MASKS[colour])
    width = max(2, int(0.02 * s))
    for corner, ear in ((poly[-3], face.p(234)), (poly[-1], face.p(454))):
        draw.line([tuple(corner), tuple(ear - 0.1 * s * down)], fill=loop, width=width)
    return np.asarray(im, np.float32)


def lens_polygon(face, eye):
    """A lens round `eye` (EYES entry): an ellipse level with the eyes, a little above the eye's middle."""
    outer, inner, upper, lower, _ = eye
    w = float(np.linalg.norm(face.p(outer) - face.p(inner)))
    mid = (face.p(outer) + face.p(inner)) / 2 - 0.12 * w * face.down
    t = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    return [mid + 0.95 * w * math.cos(a) * face.along + 0.72 * w * math.sin(a) * face.down for a in t], mid, w


def draw_sunglasses(face, kind, seed):
    """Dark glasses: a lens over each eye that lets little light through, a frame, a bridge and arms."""
    rng = np.random.default_rng(seed)
    img, s, down, along = face.img, face.span, face.down, face.along
    pts = pixels(face)
    out = img.copy()
    frame_colour = (24, 24, 28) if kind in ('dark', 'reflect') else (74, 48, 32)
    rims = []
    for eye in EYES:
        poly, mid, w = lens_polygon(face, eye)
        rims.append((poly, mid, w))
        a = polygon_mask(face, poly, 0.6)[..., None]
        v = np.clip(((pts - mid) @ down) / (0.72 * w) * 0.5 + 0.5, 0, 1)[..., None]   # 0 top … 1 bottom
        if kind == 'dark':
            lens = img * 0.06 + np.array([20, 22, 27], np.float32)
        elif kind == 'brown':
            lens = img * 0.25 * np.array([1.0, 0.78, 0.55], np.float32) + np.array([34, 22, 12], np.float32)
        elif kind == 'gradient':
            through = 0.08 + 0.42 * v
            lens = img * through * np.array([1.0, 0.8, 0.6], np.float32) + np.array([30, 20, 12], np.float32) * (1 - v)
        else:                                                 # reflect: a dark lens with a window and a streak
            lens = img * 0.08 + np.array([18, 20, 26], np.float32)
            side = 1 if eye[0] == 33 else -1
            c = mid - side * 0.35 * w * along - 0.3 * w * down
            window = [c + (-0.28 * along - 0.22 * down) * w, c + (0.22 * along - 0.26 * down) * w,
                      c + (0.26 * along + 0.18 * down) * w, c + (-0.24 * along + 0.22 * down) * w]
            win = polygon_mask(face, window, 0.03 * w)[..., None]
            bars = polygon_mask(face, [c - 0.02 * w * along - 0.26 * w * down, c + 0.02 * w * along - 0.26 * w * down,
                                       c + 0.02 * w * along + 0.22 * w * down, c - 0.02 * w * along + 0.22 * w * down],
                                0.01 * w)[..., None]
            sky = np.array([205, 214, 228], np.float32) * rng.uniform(0.9, 1.0)
            lens = lens * (1 - 0.75 * win) + sky * 0.75 * win * (1 - 0.6 * bars)
            d = ((pts - mid) @ (0.8 * along + 0.6 * down)) / w
            streak = (np.exp(-((d - 0.25) / 0.06) ** 2) * 0.35)[..., None]
            lens = lens * (1 - streak) + 235 * streak
        out = out * (1 - a) + lens * a
    im = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(im)
    for poly, mid, w in rims:
        draw.line([tuple(q) for q in poly + poly[:1]], fill=frame_colour, width=max(2, int(0.09 * w)))
    (p0, m0, w0), (p1, m1, w1) = rims
    lw = max(2, int(0.08 * w0))
    near0 = max(p0, key=lambda q: (q - m0) @ (m1 - m0))
    near1 = max(p1, key=lambda q: (q - m1) @ (m0 - m1))
    draw.line([tuple(near0 - 0.2 * w0 * down), tuple(near1 - 0.2 * w1 * down)], fill=frame_colour, width=lw)
    far0 = max(p0, key=lambda q: (q - m0) @ (m0 - m1))
    far1 = max(p1, key=lambda q: (q - m1) @ (m1 - m0))
    draw.line([tuple(far0), tuple(face.p(234) - 0.1 * s * down)], fill=frame_colour, width=lw)
    draw.line([tuple(far1), tuple(face.p(454) - 0.1 * s * down)], fill=frame_colour, width=lw)
    return np.asarray(im, np.float32)


def draw_shadow(face, kind, seed):
    """Uncovered eyes in hard light: the brow's shadow, light from one side, or clear glasses in dim light."""
    img, s, down, along = face.img, face.span, face.down, face.along
    pts = pixels(face)
    if kind == 'brow':
        shadow = np.zeros((face.H, face.W), np.float32)
        for eye in EYES:
            outer, inner, upper, lower, brow = eye
            w = float(np.linalg.norm(face.p(outer) - face.p(inner)))
            top = np.mean([face.p(i) for i in brow], axis=0)
            mid = (face.p(upper) + face.p(lower)) / 2
            centre = (top + mid) / 2 - 0.05 * w * down
            d = pts - centre
            e = ((d @ along) / (0.85 * w)) ** 2 + ((d @ down) / (0.62 * w)) ** 2
            shadow = np.maximum(shadow, (e < 1).astype(np.float32))
        shadow = np.clip(1.3 * blurred(shadow, 0.08 * s), 0, 1)
        return img * (1 - 0.65 * shadow)[..., None]
    if kind == 'side':
        x = ((pts - face.p(1)) @ along) / (0.08 * s)
        lit = 0.3 + 0.7 / (1 + np.exp(x))
        return img * lit[..., None]
    # glasses_dim: clear glasses (thin frames, a faint reflection on the lens), the whole frame dim.
    im = Image.fromarray(np.clip(img, 0, 255).astype(np.uint8))
    out = np.asarray(im, np.float32).copy()
    rims = []
    for eye in EYES:
        poly, mid, w = lens_polygon(face, eye)
        rims.append((poly, mid, w))
        a = polygon_mask(face, poly, 0.6)
        d = ((pts - mid) @ (0.8 * along - 0.6 * down)) / w
        glint = (np.exp(-((d + 0.3) / 0.12) ** 2) * 0.25 * a)[..., None]
        out = out * (1 - glint) + 230 * glint
    im = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(im)
    for poly, mid, w in rims:
        draw.line([tuple(q) for q in poly + poly[:1]], fill=(40, 34, 30), width=max(1, int(0.04 * w)))
    (p0, m0, w0), (p1, m1, w1) = rims
    near0 = max(p0, key=lambda q: (q - m0) @ (m1 - m0))
    near1 = max(p1, key=lambda q: (q - m1) @ (m0 - m1))
    draw.line([tuple(near0 - 0.2 * w0 * down), tuple(near1 - 0.2 * w1 * down)], fill=(40, 34, 30),
              width=max(1, int(0.04 * w0)))
    return np.asarray(im, np.float32) * 0.5


HANDS = {
    'hand_h_1': ('h', ('mid', 'same', 'top')),
    'hand_hr_2': ('hr', ('mid', 'palm', 'left')),
    'hand_h_3': ('h', ('low', 'dark', 'right')),
    'hand_hr_4': ('hr', ('high', 'same', 'top')),
    'hand_d_5': ('d', ('mid', 'same', 'left')),
    'hand_dr_6': ('dr', ('low', 'palm', 'top')),
    'hand_v_7': ('v', ('mid', 'same', 'top')),
    'hand_v_8': ('v', ('low', 'dark', 'right')),
    'hand_v_nose': ('v', ('nose', 'same', 'top')),
    'hand_d_cheek': ('d', ('cheek_out', 'same', 'top')),
}
HAIR = ['beard_dark', 'beard_light', 'moustache_dark', 'moustache_light', 'goatee_dark', 'stubble',
        'fringe_dark', 'fringe_light']
# Not in the default list (name them with --variants): dark masks, dark glasses, eyes in hard light.
DARK = [f'mask_{c}_{r}' for c in DARK_MASKS for r in ('high', 'mid')]
GLASSES = ['sunglasses_dark', 'sunglasses_brown', 'sunglasses_gradient', 'sunglasses_reflect']
SHADOWS = ['shadow_brow', 'shadow_side', 'shadow_glasses_dim']


def make(variant, face, seed=11):
    if variant in HANDS:
        direction, v = HANDS[variant]
        return draw_hand(face, direction, v, seed)
    kind, _, colour = variant.partition('_')
    if kind == 'mask':
        colour, _, reach = colour.partition('_')
        return draw_dark_mask(face, colour, reach, seed)
    if kind == 'sunglasses':
        return draw_sunglasses(face, colour, seed)
    if kind == 'shadow':
        return draw_shadow(face, colour, seed)
    if kind == 'fringe':
        return draw_fringe(face, colour, seed)
    return draw_beard(face, kind, colour or 'dark', seed)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--ref-tools', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--variants', default=','.join(list(HANDS) + HAIR),
                    help='comma-separated; `dark`, `glasses` and `shadows` name the groups DARK, GLASSES, SHADOWS')
    ap.add_argument('--jpeg', type=int, metavar='QUALITY')
    ap.add_argument('--no-open', action='store_true')
    ap.add_argument('--sheet', metavar='FILE', help='a contact sheet of the face crops, one row per photo')
    ap.add_argument('photos', nargs='+')
    args = ap.parse_args()
    groups = {'dark': DARK, 'glasses': GLASSES, 'shadows': SHADOWS}
    args.variants = ','.join(x for v in args.variants.split(',') for x in groups.get(v, [v]))
    sys.path.insert(0, args.ref_tools)
    import ref_pipeline as rp
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for photo in args.photos:
        name = os.path.splitext(os.path.basename(photo))[0]
        img = np.asarray(Image.open(photo).convert('RGB'), dtype=np.float32)
        H, W, _ = img.shape
        dets = rp.detect_faces(img)
        lms = rp.face_mesh(img, rp.detection_to_roi(dets[0], W, H))[0] if dets else None
        if lms is None:
            print(f'{name}: no face found, skipped')
            continue
        face = Face(img, lms)
        ext = 'jpg' if args.jpeg else 'png'
        def save(a, variant):
            im = Image.fromarray(np.clip(np.round(a), 0, 255).astype(np.uint8))
            im.save(os.path.join(args.out, f'{name}_{variant}.{ext}'), **({'quality': args.jpeg} if args.jpeg else {}))
            return im
        xs, ys = face.P[:, 0], face.P[:, 1]
        side = 1.3 * max(xs.max() - xs.min(), ys.max() - ys.min())
        box = (int(xs.mean() - side / 2), int(ys.mean() - side / 2), int(xs.mean() + side / 2), int(ys.mean() + side / 2))
        row = [Image.fromarray(img.astype(np.uint8)).crop(box).resize((120, 120), Image.LANCZOS)]
        if not args.no_open:
            save(img, 'open')
        for variant in args.variants.split(','):
            im = save(make(variant, face), variant)
            row.append(im.crop(box).resize((120, 120), Image.LANCZOS))
        rows.append(row)
        print(f'{name}: {len(args.variants.split(","))} variants')
    if args.sheet and rows:
        sheet = Image.new('RGB', (120 * max(len(r) for r in rows), 120 * len(rows)), 'white')
        for y, row in enumerate(rows):
            for x, tile in enumerate(row):
                sheet.paste(tile, (120 * x, 120 * y))
        sheet.save(args.sheet, **({'quality': 80} if args.sheet.endswith('.jpg') else {}))


if __name__ == '__main__':
    main()
