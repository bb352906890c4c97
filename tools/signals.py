#!/usr/bin/env python3
"""Signals at random moments: the wizard (full-screen, on a looped clip) in real tmux panes, 50 runs.

Usage: tools/signals.py [--binary .build/release/facecap] [--runs 50] [--seed 1]

Each run starts facecap in a fresh pane of a private tmux server (its own -L socket, no user config),
through a small shell that records `stty -a` of the pane's terminal before and after facecap and its
exit status. After a random delay (0.2–4 s: during model loading, the first frames or the live
preview) it sends one of SIGINT, SIGTERM, SIGHUP or SIGTSTP-then-SIGCONT-then-SIGTERM (chosen in
turn, the delays from --seed). A run passes when facecap exits within 15 s with the status the signal
asks for (130 for SIGINT; cancelled or 128+signal for the others), nothing on stderr says it crashed,
`stty -a` after equals before, and its output folder holds no partial photo or report (only whole
pairs of .jpg and .json, no hidden temporaries). Prints one line per run and a summary; exit 1 when any
run failed. With a clip there is no camera: the kernel suite (make test-kernel) checks its release.
"""
import argparse
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from wizard_budget import clip_path  # noqa: E402

SCRIPT = """#!/bin/sh
stty -a > "$1/stty-before"
echo $$ > "$1/pid"
"$2" --no-tutorial --input "$3" --loop --manual-after 3600 --output "$1/out" 2> "$1/stderr"
echo $? > "$1/status"
stty -a > "$1/stty-after"
"""


def wait_for(path, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return True
        time.sleep(0.02)
    return False


def facecap_pid(shell_pid):
    """facecap, the shell's child (the shell waits for it)."""
    for _ in range(200):
        try:
            children = open(f"/proc/{shell_pid}/task/{shell_pid}/children").read().split()
        except OSError:
            return None
        if children:
            return int(children[0])
        time.sleep(0.01)
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "facecap"))
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    clip = clip_path("mono")
    work = tempfile.mkdtemp(prefix="facecap-signals-")
    socket = f"facecap-signals-{os.getpid()}"
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
    script = os.path.join(work, "run.sh")
    with open(script, "w") as f:
        f.write(SCRIPT)
    os.chmod(script, 0o755)
    env = dict(os.environ, TERM="tmux-256color", LANG="C.UTF-8",
               FACECAP_MODEL_DIR=os.environ.get("FACECAP_MODEL_DIR", os.path.join(ROOT, "models")))
    subprocess.run(tmux + ["new-session", "-d", "-s", "keep", "-x", "100", "-y", "32", "sleep 100000"],
                   check=True, env=env)
    plans = ["INT", "TERM", "HUP", "TSTP"]
    failures = 0
    try:
        for run in range(args.runs):
            kind = plans[run % len(plans)]
            delay = rng.uniform(0.2, 4.0)
            folder = os.path.join(work, f"run{run}")
            os.makedirs(folder)
            subprocess.run(tmux + ["new-window", "-d", "-t", "keep", "-n", f"r{run}",
                                   f"{script} {folder} {args.binary} {clip}"], check=True, env=env)
            problems = []
            if not wait_for(os.path.join(folder, "pid"), 10):
                problems.append("the pane's shell did not start")
            else:
                pid = facecap_pid(int(open(os.path.join(folder, "pid")).read()))
                time.sleep(delay)
                if pid is None:
                    problems.append("facecap did not start")
                elif kind == "TSTP":
                    os.kill(pid, signal.SIGTSTP)
                    time.sleep(0.5)
                    os.kill(pid, signal.SIGCONT)
                    time.sleep(rng.uniform(0.2, 1.5))
                    os.kill(pid, signal.SIGTERM)
                else:
                    os.kill(pid, getattr(signal, "SIG" + kind))
                if not wait_for(os.path.join(folder, "stty-after"), 15):
                    problems.append("facecap did not exit within 15 s")
            status = open(os.path.join(folder, "status")).read().strip() if os.path.exists(
                os.path.join(folder, "status")) else "?"
            expected = {"INT": {"130"}, "TERM": {"130", "143"}, "HUP": {"130", "129"}, "TSTP": {"130", "143"}}[kind]
            if status not in expected:
                problems.append(f"exit status {status}, expected {'/'.join(sorted(expected))}")
            stderr = open(os.path.join(folder, "stderr"), errors="replace").read() if os.path.exists(
                os.path.join(folder, "stderr")) else ""
            if any(word in stderr for word in ("Fatal error", "Stack dump", "crashed", "Segmentation")):
                problems.append("crashed: " + stderr[:200].replace("\n", " "))
            before = os.path.join(folder, "stty-before")
            after = os.path.join(folder, "stty-after")
            if os.path.exists(after) and open(before).read() != open(after).read():
                problems.append("stty -a differs after facecap")
            out = os.path.join(folder, "out")
            names = sorted(os.listdir(out)) if os.path.isdir(out) else []
            stems = {n.rsplit(".", 1)[0] for n in names}
            partial = [n for n in names if n.startswith(".") or not n.endswith((".jpg", ".json"))]
            unpaired = [s for s in stems if not ({s + ".jpg", s + ".json"} <= set(names))]
            if partial or unpaired:
                problems.append(f"left behind: {partial + unpaired}")
            subprocess.run(tmux + ["kill-window", "-t", f"keep:r{run}"], env=env, stderr=subprocess.DEVNULL)
            verdict = "ok" if not problems else "FAIL " + "; ".join(problems)
            failures += bool(problems)
            print(f"signals: run {run:2} SIG{kind:4} after {delay:.2f} s: exit {status}, {len(names)} files: {verdict}",
                  flush=True)
    finally:
        subprocess.run(tmux + ["kill-server"], env=env, stderr=subprocess.DEVNULL)
        shutil.rmtree(work, ignore_errors=True)
    print(f"signals: {args.runs - failures} of {args.runs} runs restored the terminal and left nothing partial")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
