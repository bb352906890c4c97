#!/usr/bin/env python3
"""Frame pacing of a soak: is the time from a frame's arrival to its analysed guidance stable over the run?

Usage: pacing.py [--warm-up-frames N] [--growth X] [--slack MS] [--min-frames N] FINAL [SNAPSHOT ...]

FINAL and each SNAPSHOT are what facecap writes to FACECAP_FRAME_STATS (see WizardSession.writeFrameStats):
cumulative counts of a histogram in 0.1 ms buckets, with `frames` analysed so far and `t`, the seconds since
facecap started. A snapshot is a copy taken while it ran (it rewrites the file every 5 s). The difference of
two of them is the exact histogram of the frames analysed in between, so the run after the warm-up (the first
snapshot holding at least N analysed frames, default 40) is cut into thirds by analysed frames, at the
snapshots nearest the cuts, and the first third is compared with the last one.

Everything is judged against the run itself, nothing against a fixed time or a speed measured elsewhere: a
machine slow or busy throughout analyses fewer frames a second and each takes longer, in every third alike.
(Guest.sh runs the soak until enough frames were analysed, whatever the time.) A host whose load changes
between the thirds changes their rates and times: the factor X is what allows for that.

Prints one line: frames, p50/p90 of the run after the warm-up, and of its first and last thirds (with
their frames per second). Exits 1 when pacing is not stable:
- a third holds fewer than N frames (--min-frames, default 15; the run proves nothing then),
- the last third's p50 or p90 is above X (default 2) times the first third's plus slack (default 20 ms)
  (e.g. work or a queue that grows with the run; not compared when that bound is past the histogram's 1-s end),
- the last third analyses fewer than 1/X of the frames per second of the first.
The defaults are for qemu's software emulation, where a frame takes 0.15–0.4 s (p50).
"""
import argparse
import json
import math
import sys


def load(path):
    with open(path) as f:
        stats = json.load(f)
    stats["counts"] = {int(index): int(count) for index, count in stats.get("buckets", [])}
    return stats


def difference(later, earlier):
    """The histogram of the frames between two snapshots: {bucket: count}."""
    counts = dict(later["counts"])
    for index, count in (earlier["counts"] if earlier else {}).items():
        counts[index] = counts.get(index, 0) - count
    if any(count < 0 for count in counts.values()):
        raise ValueError(f"snapshot at t={later['t']} holds fewer frames than the one at t={earlier['t']}")
    return {index: count for index, count in counts.items() if count}


OVERFLOW = 10_000   # LatencyHistogram's last bucket: 1 s and longer


def percentile(counts, fraction, bucket_ms):
    """To the upper edge of the bucket, as facecap's LatencyHistogram does (infinity in the last bucket: 1 s
    or more); None for no frames."""
    total = sum(counts.values())
    if not total:
        return None
    rank = max(1, math.ceil(fraction * total))
    seen = 0
    for index in sorted(counts):
        seen += counts[index]
        if seen >= rank:
            return math.inf if index >= OVERFLOW else (index + 1) * bucket_ms
    return None


def ms(value):
    return "≥1000 ms" if value == math.inf else f"{value or 0:.1f} ms"


def describe(counts, seconds, bucket_ms):
    """Frames, p50, p90 and a line. p90, not p99: a third holds some tens of frames, whose p99 is its one slowest
    frame, and one hiccup of a busy host is no sign of work that grows."""
    total = sum(counts.values())
    p50, p90 = percentile(counts, 0.5, bucket_ms), percentile(counts, 0.9, bucket_ms)
    text = f"{total} frames, p50 {ms(p50)}, p90 {ms(p90)}"
    if seconds:
        text += f", {total / seconds:.1f} frames/s"
    return total, p50, p90, text


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--warm-up-frames", type=int, default=40)
    ap.add_argument("--growth", type=float, default=2)
    ap.add_argument("--slack", type=float, default=20)
    ap.add_argument("--min-frames", type=int, default=15)
    ap.add_argument("final")
    ap.add_argument("snapshots", nargs="*")
    args = ap.parse_args()
    try:
        final = load(args.final)
        snapshots = []
        for path in args.snapshots:
            try:
                snapshots.append(load(path))
            except (OSError, ValueError):
                pass   # a copy taken before facecap first wrote the file
    except (OSError, ValueError) as error:
        print(f"no frame statistics from facecap (FACECAP_FRAME_STATS): {error}")
        return 1
    bucket_ms = final.get("bucket_ms", 0.1)
    snapshots = sorted((s for s in snapshots if s["t"] < final["t"]), key=lambda s: s["t"])
    warm = next((s for s in snapshots if s["frames"] >= args.warm_up_frames), None)
    if warm is None:
        print(f"no snapshot after {args.warm_up_frames} analysed frames among {len(snapshots)}; "
              f"whole run: {final['frames']} frames, p50 {final['p50_ms']} ms, p99 {final['p99_ms']} ms")
        return 1
    span = final["frames"] - warm["frames"]

    def nearest(frames):
        return min((s for s in snapshots if s["t"] >= warm["t"]), key=lambda s: abs(s["frames"] - frames))

    first_end = nearest(warm["frames"] + span / 3)
    last_start = nearest(final["frames"] - span / 3)
    try:
        after_warm_up = difference(final, warm)
        run = describe(after_warm_up, final["t"] - warm["t"], bucket_ms)
        first = describe(difference(first_end, warm), first_end["t"] - warm["t"], bucket_ms)
        last = describe(difference(final, last_start), final["t"] - last_start["t"], bucket_ms)
    except ValueError as error:
        print(str(error))
        return 1
    facts = (f"arrival → guidance after the first {warm['frames']} frames (t {warm['t']:.0f}–{final['t']:.0f} s): "
             f"{run[3]}; first third (to t {first_end['t']:.0f} s): {first[3]}; "
             f"last third (from t {last_start['t']:.0f} s): {last[3]}; whole run {final['frames']} frames, "
             f"max {final['max_ms']} ms")
    problems = []
    for label, frames in (("first third", first[0]), ("last third", last[0])):
        if frames < args.min_frames:
            problems.append(f"only {frames} frames in the {label}, at least {args.min_frames}")
    if first[0] and last[0]:
        for name, index in (("p50", 1), ("p90", 2)):
            bound = first[index] * args.growth + args.slack
            if bound >= OVERFLOW * bucket_ms:
                # The histogram ends at 1 s: a last third's "1 s or more" cannot be told to be above such a bound.
                facts += f"; the {name}s not compared (the bound, {ms(bound)}, is past the histogram's 1-s end)"
                continue
            if last[index] > bound:
                problems.append(f"the last third's {name} {ms(last[index])} is above {args.growth:g} × the "
                                f"first third's + {args.slack:g} ms = {bound:.1f} ms")
        first_rate = first[0] / max(first_end["t"] - warm["t"], 1e-9)
        last_rate = last[0] / max(final["t"] - last_start["t"], 1e-9)
        if last_rate * args.growth < first_rate:
            problems.append(f"the last third analyses {last_rate:.1f} frames/s, the first {first_rate:.1f}")
    print(("; ".join(problems) + ": " if problems else "") + facts)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
