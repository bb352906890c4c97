#!/usr/bin/env python3
"""The constructed hand covers read live (issue 32): each `constructed:hand` frame of the real-photo set after
the same frame without the hand, as a clip through `facecap analyze` (the live tracker's cadence, as the wizard
runs it: `HandCadence` from the last analysis).

  bare     composes the set's frames again with the hands left out (realset.py's own composition, placement
           and degradation, the same seeds) into .cache/realset/bare/
  eval     for every `constructed:hand` frame: a 30 fps C444 clip of the bare frame for --bare seconds, then the
           covered frame for --covered seconds, read by `facecap analyze --json`; prints how many were named
           (`faceCovered` among the active codes) within 0.2 s and within the covered part, and how many read
           `ready` on a covered frame, by cover (full / part) and part; --list prints the frames named late or never
           and each covered frame read `ready`: when, the code before, the hand reading on it and about its age

Files holding a face are written 0600 in 0700 folders; nothing here is committed but this script. Needs the venv
of `make eval-real` (numpy, pillow). docs/calibration.md, "Palms in the wizard".
"""
import argparse
import concurrent.futures
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import realset  # noqa: E402

BARE_DIR = os.path.join(realset.CACHE, "bare")
FPS = 30


def cmd_bare(args):
    ids = sorted({r["id"] for r in hand_rows()})
    realset.FRAMES_DIR = BARE_DIR
    realset.lay_hand = lambda frame, points, hand, part, cover, mirror: frame
    realset.cmd_frames(argparse.Namespace(only=",".join(ids), binary=args.binary))


def hand_rows():
    with open(os.path.join(realset.FRAMES_DIR, "index.tsv"), newline="") as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["category"] == "constructed:hand"]


def y4m_frame(path):
    from PIL import Image
    im = Image.open(path).convert("YCbCr")
    y, cb, cr = im.split()
    return im.size, y.tobytes() + cb.tobytes() + cr.tobytes()


def write_clip(path, bare, covered, bare_frames, covered_frames):
    (w, h), a = y4m_frame(bare)
    _, b = y4m_frame(covered)
    with open(path, "wb") as f:
        f.write(f"YUV4MPEG2 W{w} H{h} F{FPS}:1 Ip A1:1 C444 XCOLORRANGE=FULL\n".encode())
        for k in range(bare_frames + covered_frames):
            f.write(b"FRAME\n")
            f.write(a if k < bare_frames else b)


def cmd_eval(args):
    rows = [r for r in hand_rows() if (not args.cover or f"_{args.cover}_" in r["variant"])
            and (not args.part or r["variant"].startswith(f"hand_{args.part}_"))]
    bare_frames, covered_frames = round(args.bare * FPS), round(args.covered * FPS)
    os.umask(0o077)
    with tempfile.TemporaryDirectory() as work:
        def one(item):
            i, r = item
            name = os.path.basename(r["frame"])
            bare = os.path.join(BARE_DIR, name)
            clip = os.path.join(work, f"{i}.y4m")
            write_clip(clip, bare, os.path.join(realset.ROOT, r["frame"]), bare_frames, covered_frames)
            out = subprocess.run([args.binary, "analyze", "--json", clip], capture_output=True, text=True)
            os.remove(clip)
            # A failing `analyze` fails the tool: its missing frames must not read as frames not named.
            if out.returncode != 0:
                sys.exit(f"{r['variant']} {r['id']}: analyze exited {out.returncode}: {out.stderr.strip()[-500:]}")
            codes, hands = [], []
            for line in out.stdout.splitlines():
                record = json.loads(line)
                codes.append(record.get("guidance") or [])
                hands.append(hand_of(record))
            if len(codes) != bare_frames + covered_frames:
                sys.exit(f"{r['variant']} {r['id']}: analyze read {len(codes)} frames of {bare_frames + covered_frames}")
            before = codes[:bare_frames]
            after = codes[bare_frames:]
            named = next((k for k, c in enumerate(after) if "faceCovered" in c), None)
            return dict(variant=r["variant"], id=r["id"], ready_before=sum(c == ["ready"] for c in before),
                        named=named, ready_after=sum(c == ["ready"] for c in after),
                        ready_frames=ready_frames(codes, hands, bare_frames))
        # Each clip is read by its own `analyze` (a fresh tracker): --jobs of them at once give the same results.
        # The first failure (SystemExit, raised again here) cancels the clips not yet started.
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = [pool.submit(one, item) for item in enumerate(rows)]
            try:
                results = [f.result() for f in futures]
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
    report(results, bare_frames, args)


def hand_of(record):
    """The frame's hand reading: the face's (mouth flag, face flag, parts) or the hidden face's flag; None without."""
    cover = (record.get("metrics") or {}).get("cover")
    if cover is not None:
        return (cover.get("handOverMouth"), cover.get("handOverFace"), tuple(cover.get("handParts") or ()))
    hidden = (record.get("metrics") or {}).get("hiddenByHand")
    return None if hidden is None else ("hidden", hidden)


def ready_frames(codes, hands, bare_frames):
    """The covered frames that read `ready`: (frame after the cover came, the frame before's code (None on a clip's
    first frame), the hand reading, frames since that reading last changed: a new reading is a new run, so this is
    about its age, inferred from equal readings, not measured)."""
    out = []
    for k in range(bare_frames, len(codes)):
        if codes[k] != ["ready"]:
            continue
        age = 0
        while k - age - 1 >= 0 and hands[k - age - 1] == hands[k]:
            age += 1
        out.append((k - bare_frames, codes[k - 1] if k > 0 else None, hands[k], age))
    return out


def report(results, bare_frames, args):
    def line(label, rs):
        n = len(rs)
        within = sum(1 for r in rs if r["named"] is not None and r["named"] <= round(0.2 * FPS))
        named = sum(1 for r in rs if r["named"] is not None)
        ready = sum(1 for r in rs if r["ready_after"] > 0)
        bare_ready = sum(1 for r in rs if r["ready_before"] >= bare_frames // 2)
        print(f"{label:28} {n:4}  named ≤0.2 s {within:4}  named {named:4}  a covered frame ready {ready:4}"
              f"  (bare ready {bare_ready})")
    line("all", results)
    for cover in ("full", "part"):
        if not any(f"_{cover}_" in r["variant"] for r in results):
            continue
        line(cover, [r for r in results if f"_{cover}_" in r["variant"]])
        for part in realset.HAND_PARTS:
            line(f"  {cover} {part}", [r for r in results if r["variant"].startswith(f"hand_{part}_{cover}_")])
    if args.list:
        for r in results:
            if r["named"] is None or r["named"] > round(0.2 * FPS) or r["ready_after"]:
                print(r["id"], r["variant"], r["named"], r["ready_after"])
                for frame, previous, hand, age in r["ready_frames"]:
                    print(f"    frame {frame:2} ready (before: {','.join(previous)}) hand {hand} unchanged {age}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    bare = sub.add_parser("bare")
    bare.add_argument("--binary", required=True)
    ev = sub.add_parser("eval")
    ev.add_argument("--binary", required=True)
    ev.add_argument("--bare", type=float, default=1.0, help="seconds of the bare frame (default 1)")
    ev.add_argument("--covered", type=float, default=1.0, help="seconds of the covered frame (default 1)")
    ev.add_argument("--cover", choices=("full", "part"), help="only the full or the partial covers")
    ev.add_argument("--part", choices=sorted(realset.HAND_PARTS), help="only the hands over this part")
    ev.add_argument("--jobs", type=int, default=1, help="clips read at once (default 1)")
    ev.add_argument("--list", action="store_true")
    ev.add_argument("--json")
    args = parser.parse_args()
    {"bare": cmd_bare, "eval": cmd_eval}[args.command](args)


if __name__ == "__main__":
    main()
