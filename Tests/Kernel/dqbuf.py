#!/usr/bin/env python3
"""Counts the buffers a traced facecap dequeued, from its strace log, independently of what it reports.

Usage: dqbuf.py [--fps F] TRACE
Prints `DEQUEUED FLAGGED GAPS`: successful VIDIOC_DQBUF calls, how many of those carried
V4L2_BUF_FLAG_ERROR, and the frames missing between them (buffers the driver never handed over). strace
6.1 decodes a dequeued buffer's flags and timestamp but not its sequence number; vivid stamps every
frame at its sequence number times the frame period, so the gaps come from the timestamps: a step of
n periods is n − 1 missing frames. The period is 1/F with --fps F (the negotiated rate); without it, the
lower quartile of the steps (which takes a step of several periods for one when most frames are missing,
as on a guest too slow for vivid to keep its rate). FLAGGED and GAPS are `?` when the trace has neither.
Joins calls strace split into `<unfinished ...>` and `<... ioctl resumed>` lines (-f with threads).
"""
import re
import sys


def calls(lines):
    """Whole ioctl VIDIOC_DQBUF lines, rejoined per thread."""
    pending = {}
    for line in lines:
        pid, _, rest = line.partition(" ")
        if rest.endswith("<unfinished ...>"):
            pending[pid] = rest[: -len("<unfinished ...>")]
            continue
        resumed = re.match(r"<\.\.\. \w+ resumed>(.*)", rest)
        if resumed:
            rest = pending.pop(pid, "") + resumed.group(1)
        if "VIDIOC_DQBUF" in rest:
            yield rest


def main():
    args = sys.argv[1:]
    fps = None
    if len(args) == 3 and args[0] == "--fps":
        fps = float(args[1])
        args = args[2:]
    if len(args) != 1:
        print("usage: dqbuf.py [--fps F] TRACE")
        return 64
    with open(args[0], errors="replace") as trace:
        lines = [line.rstrip("\n") for line in trace]
    dequeued, flagged, sequences, times, decoded = 0, 0, [], [], True
    for call in calls(lines):
        if not re.search(r"\)\s*=\s*0\b", call):
            continue
        dequeued += 1
        flags = re.search(r"flags=([\w|]+)", call)
        sequence = re.search(r"sequence=(\d+)", call)
        stamp = re.search(r"timestamp=\{tv_sec=(\d+), tv_usec=(\d+)\}", call)
        if not flags or not (sequence or stamp):
            decoded = False
            continue
        flagged += "V4L2_BUF_FLAG_ERROR" in flags.group(1)
        if sequence:
            sequences.append(int(sequence.group(1)))
        else:
            times.append(int(stamp.group(1)) + int(stamp.group(2)) / 1e6)
    if times:
        steps = sorted(b - a for a, b in zip(times, times[1:]))
        # The frame period: the shortest steps are whole periods (the lower quartile, robust to gaps).
        period = 1 / fps if fps else (steps[len(steps) // 4] if steps else 1)
        sequences = [round((t - times[0]) / period) for t in times] if period > 0 else []
    gaps = sum(max(0, b - a - 1) for a, b in zip(sequences, sequences[1:]))
    print(dequeued, flagged if decoded else "?", gaps if decoded else "?")
    return 0


if __name__ == "__main__":
    sys.exit(main())
