#!/usr/bin/env python3
"""Soak test: the wizard in --plain mode on a looped clip for 10 000 frames, watched from outside.

Usage: tools/soak.py [--binary .build/release/facecap] [--frames 10000] [--json FILE]

Replays wizard_budget.py's 3 s mono clip (640x480, 30 fps, a face swaying across the oval so the wizard
stays on the live preview; made once in .cache/bench) with --loop for FRAMES/30 s plus a little, then
stops facecap with SIGINT. Once a second it samples /proc/PID: VmRSS, the open file descriptors, the
memory mappings (and those of files that no longer exist or of /dev/video*). It reports start (the
first sample after ~frame 300, once the models and buffers are warm), peak and end of each; and the
frame pacing facecap itself measured (FACECAP_FRAME_STATS: per frame, the time from its arrival to its
analysed guidance, p50/p99/max). Fails (exit 1) when RSS grows by more than 2 MB or the descriptors or
mappings by any from start to end, when fewer than FRAMES frames were read, or when facecap does not
exit 130 on SIGINT with nothing left in its output folder but whole photos.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from wizard_budget import clip_path  # noqa: E402  (the same clip as the memory budget's)

FPS = 30


def sample(pid):
    """RSS in MB, open fds, mappings, and mappings of deleted files or video devices; None once gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            status = dict(line.split(":", 1) for line in f if ":" in line)
        fds = len(os.listdir(f"/proc/{pid}/fd"))
        with open(f"/proc/{pid}/maps") as f:
            maps = f.read().splitlines()
    except OSError:
        return None
    stale = sum(1 for m in maps if m.endswith("(deleted)") or "/dev/video" in m)
    return {"t": time.monotonic(), "rss_mb": int(status["VmRSS"].split()[0]) / 1024, "fds": fds,
            "maps": len(maps), "stale_maps": stale}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "facecap"))
    ap.add_argument("--frames", type=int, default=10_000)
    ap.add_argument("--json")
    args = ap.parse_args()
    clip = clip_path("mono")
    seconds = args.frames / FPS + 3
    work = tempfile.mkdtemp(prefix="facecap-soak-")
    stats_path = os.path.join(work, "frames.json")
    env = dict(os.environ, FACECAP_FRAME_STATS=stats_path,
               FACECAP_MODEL_DIR=os.environ.get("FACECAP_MODEL_DIR", os.path.join(ROOT, "models")))
    command = [args.binary, "--plain", "--input", clip, "--loop", "--no-tutorial", "--manual-after", "3600",
               "--output", os.path.join(work, "out"), "--events", os.path.join(work, "events.jsonl")]
    print(f"soak: {' '.join(command)} for {seconds:.0f} s; load {open('/proc/loadavg').read().split()[:3]}",
          flush=True)
    started = time.monotonic()
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    samples = []
    while time.monotonic() - started < seconds and process.poll() is None:
        s = sample(process.pid)
        if s:
            s["t"] -= started
            samples.append(s)
        time.sleep(1)
    exited_early = process.poll() is not None
    process.send_signal(signal.SIGINT)
    try:
        code = process.wait(30)
    except subprocess.TimeoutExpired:
        process.kill()
        code = process.wait()
    stderr = process.stderr.read().decode(errors="replace")
    problems = []
    if exited_early:
        problems.append(f"facecap exited by itself after {samples[-1]['t'] if samples else 0:.0f} s: {stderr[-300:]}")
    if code != 130:
        problems.append(f"exit {code} on SIGINT, not 130")
    try:
        with open(stats_path) as f:
            pacing = json.load(f)
    except (OSError, ValueError) as error:
        pacing = {}
        problems.append(f"no frame statistics ({error})")
    warm = [s for s in samples if s["t"] >= 10] or samples
    if not warm:
        problems.append("no sample taken")
        warm = [{"t": 0, "rss_mb": 0, "fds": 0, "maps": 0, "stale_maps": 0}]
    start, end = warm[0], warm[-1]
    figures = {}
    for key, unit in (("rss_mb", "MB"), ("fds", ""), ("maps", ""), ("stale_maps", "")):
        peak = max(s[key] for s in warm)
        figures[key] = {"start": start[key], "peak": peak, "end": end[key]}
        fmt = "{:.1f}" if key == "rss_mb" else "{}"
        print(f"soak: {key:10} start {fmt.format(start[key])}{unit} (t={start['t']:.0f} s)  "
              f"peak {fmt.format(peak)}{unit}  end {fmt.format(end[key])}{unit} (t={end['t']:.0f} s)")
    if end["rss_mb"] - start["rss_mb"] > 2:
        problems.append(f"RSS grew {end['rss_mb'] - start['rss_mb']:.1f} MB")
    for key in ("fds", "maps"):
        if end[key] > start[key]:
            problems.append(f"{key} grew from {start[key]} to {end[key]}")
    if end["stale_maps"]:
        problems.append(f"{end['stale_maps']} mappings of deleted files or video devices")
    # Every frame is read (and shown); about 15 a second are analysed (every other one of the 30 fps clip).
    frames = pacing.get("frames_read", pacing.get("frames", 0))
    print(f"soak: frames read {frames}, analysed {pacing.get('frames', 0)}; arrival → guidance p50 "
          f"{pacing.get('p50_ms')} ms, p99 {pacing.get('p99_ms')} ms, max {pacing.get('max_ms')} ms")
    if frames < args.frames:
        problems.append(f"{frames} frames read, fewer than {args.frames}")
    out = os.path.join(work, "out")
    leftovers = [n for n in (os.listdir(out) if os.path.isdir(out) else []) if not n.endswith((".jpg", ".json"))]
    if leftovers:
        problems.append(f"left in the output folder: {leftovers}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"figures": figures, "pacing": pacing, "exit": code, "problems": problems,
                       "samples": samples}, f, indent=1)
    for problem in problems:
        print("soak: PROBLEM " + problem)
    print("soak: " + ("flat" if not problems else "FAILED"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
