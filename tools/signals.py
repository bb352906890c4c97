#!/usr/bin/env python3
"""Signals at random moments: the full-screen wizard in real tmux panes, 50 runs, on a looped clip or a camera.

Usage: tools/signals.py [--binary .build/release/facecap] [--runs 50] [--seed 1]
                        [--device /dev/videoN [--strace SYSCALLS] [--ktest]]

Each run starts facecap in a fresh pane of a private tmux server (its own -L socket, no user config),
through a small shell that records `stty -a` of the pane's terminal before and after facecap and its
exit status. After a random delay (0.2–4 s: during model loading, the camera opening, the first frames or
the live preview; on a camera 0–2.5 s after facecap opened it, see below) it sends one of SIGINT, SIGTERM,
SIGHUP or SIGTSTP-then-SIGCONT-then-SIGTERM (chosen in turn, the delays from --seed). A run passes when facecap
exits within 15 s (times --slowness, the kernel guest's measured slowness) with the status the signal
asks for, nothing on stderr says it crashed, `stty -a` after equals before, and its output folder (mode
0700) holds no partial photo or report: only whole pairs of .jpg and .json, each 0600, no hidden
temporaries.

Without --device the wizard replays wizard_budget.py's clips (--loop), in turn: the swaying face (the
live preview goes on) and the face held still (auto-captured about 1 s in, checked, saved, then the
Success screen for 3 s), signalled 0.5–2 s in so that the signal often comes around the capture and the
save; 130, or 128+signal for a signal that came before facecap installed its handlers, is accepted, and
the summary says how many runs had saved a photo. With --device (the kernel suite, inside its
qemu guest: Tests/Kernel/guest.sh) the wizard runs on that camera and must exit 130 as documented; after
each run the camera must be released: no process holds DEV open or mapped, another open + STREAMON
streams two frames (v4l2-ctl), and, with --strace, facecap's own syscall trace shows it closed every
camera fd and unmapped every buffer before exiting (Tests/Kernel/leakcheck.py). The trace also shows when
facecap installed its handlers (rt_sigaction): a signal that came before that may end it by the default
action (128+signal) — then it must not have opened the camera yet. --ktest prints the
kernel suite's result lines, two per run: signals/run-N (terminal, exit, files) and leak/signals-N (camera).
Prints one line per run and a summary; exit 1 when any run failed.
"""
import argparse
import os
import random
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SCRIPT = """#!/bin/sh
folder=$1
shift
stty -a > "$folder/stty-before"
echo $$ > "$folder/pid"
"$@" 2> "$folder/stderr"
code=$?
echo $code > "$folder/status"
stty -a > "$folder/stty-after.new"
mv "$folder/stty-after.new" "$folder/stty-after"
"""

PLANS = ["INT", "TERM", "HUP", "TSTP"]
# How many times slower than usual the machine is (--slowness: the kernel guest's measured speed); every time
# limit that bounds a hang, and the moments a camera run waits before its signal, are stretched by it.
SLOW = 1.0


def wait_for(path, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if os.path.exists(path) and os.path.getsize(path) > 0:
            return True
        time.sleep(0.02)
    return False


def facecap_pid(shell_pid, seconds=10):
    """The facecap process the pane's shell started (its child, or further down under strace)."""
    deadline = time.monotonic() + seconds * SLOW
    while time.monotonic() < deadline:
        pending = [shell_pid]
        while pending:
            pid = pending.pop()
            try:
                if pid != shell_pid and open(f"/proc/{pid}/comm").read().strip() == "facecap":
                    return pid
                for task in os.listdir(f"/proc/{pid}/task"):
                    pending += [int(c) for c in open(f"/proc/{pid}/task/{task}/children").read().split()]
            except OSError:
                continue
        time.sleep(0.01)
    return None


def send(pid, kind, rng):
    """One signal, or SIGTSTP, SIGCONT half a second later, then SIGTERM after a random moment."""
    if kind == "TSTP":
        os.kill(pid, signal.SIGTSTP)
        time.sleep(0.5)
        os.kill(pid, signal.SIGCONT)
        time.sleep(rng.uniform(0.2, 1.5))
        os.kill(pid, signal.SIGTERM)
    else:
        os.kill(pid, getattr(signal, "SIG" + kind))


def read(path, default=""):
    try:
        with open(path, errors="replace") as f:
            return f.read()
    except OSError:
        return default


def output_problems(out):
    """What a signal may not leave in the output folder: partial or unpaired files, wrong modes."""
    if not os.path.isdir(out):
        return [], []
    names = sorted(os.listdir(out))
    problems = []
    if os.stat(out).st_mode & 0o777 != 0o700:
        problems.append(f"output folder mode {os.stat(out).st_mode & 0o777:o}, not 700")
    stems = {n.rsplit(".", 1)[0] for n in names}
    partial = [n for n in names if n.startswith(".") or not n.endswith((".jpg", ".json"))]
    unpaired = [s for s in stems if not ({s + ".jpg", s + ".json"} <= set(names))]
    if partial or unpaired:
        problems.append(f"left behind: {partial + unpaired}")
    loose = [n for n in names if os.stat(os.path.join(out, n)).st_mode & 0o777 != 0o600]
    if loose:
        problems.append(f"not 0600: {loose}")
    return problems, names


def wait_open(pid, camera, seconds):
    """Until process PID holds CAMERA open (a link in /proc/PID/fd), at most SECONDS; false when it never did or
    exited first."""
    deadline = time.monotonic() + seconds
    target = os.path.realpath(camera)
    while time.monotonic() < deadline:
        try:
            for fd in os.listdir(f"/proc/{pid}/fd"):
                try:
                    if os.readlink(f"/proc/{pid}/fd/{fd}") == target:
                        return True
                except OSError:
                    continue
        except OSError:
            return False
        time.sleep(0.05)
    return False


def run_once(tmux, env, script, folder, command, kind, delay, rng, expected, camera=None):
    """Starts COMMAND in a new pane, signals it after DELAY (counted from when it opened CAMERA, when given);
    returns (exit status, problems, output files)."""
    os.makedirs(folder)
    subprocess.run(tmux + ["new-window", "-d", "-t", "keep", "-n", os.path.basename(folder),
                           shlex.join([script, folder] + command)], check=True, env=env)
    problems = []
    if not wait_for(os.path.join(folder, "pid"), 10 * SLOW):
        problems.append("the pane's shell did not start")
    else:
        pid = facecap_pid(int(read(os.path.join(folder, "pid"))))
        if pid is None:
            problems.append("facecap did not start")
        else:
            if camera and not wait_open(pid, camera, 60 * SLOW):
                problems.append(f"facecap did not open {camera} within {60 * SLOW:.0f} s")
            time.sleep(delay)
            try:
                send(pid, kind, rng)
            except ProcessLookupError:
                problems.append(f"facecap had exited before SIG{kind}")
        if not wait_for(os.path.join(folder, "stty-after"), 15 * SLOW):
            problems.append(f"facecap did not exit within {15 * SLOW:.0f} s")
    status = read(os.path.join(folder, "status"), "?").strip()
    if status not in expected:
        problems.append(f"exit status {status}, expected {'/'.join(sorted(expected))}")
    stderr = read(os.path.join(folder, "stderr"))
    if any(word in stderr for word in ("Fatal error", "Stack dump", "crashed", "Segmentation")):
        problems.append("crashed: " + stderr[:200].replace("\n", " "))
    after = os.path.join(folder, "stty-after")
    if os.path.exists(after) and read(os.path.join(folder, "stty-before")) != read(after):
        problems.append("stty -a differs after facecap")
    left, names = output_problems(os.path.join(folder, "out"))
    subprocess.run(tmux + ["kill-window", "-t", f"keep:{os.path.basename(folder)}"], env=env,
                   stderr=subprocess.DEVNULL)
    return status, problems + left, names


def holders(device):
    """Processes that hold DEVICE open or mapped, as 'comm (pid)'."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fds = [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
            mapped = device in read(f"/proc/{pid}/maps")
            if mapped or any(fd.startswith(device) for fd in fds):
                found.append(f"{read(f'/proc/{pid}/comm').strip()} ({pid}{', mapped' if mapped else ''})")
        except OSError:
            continue
    return found


def streams(device, folder, frames=2):
    """Another open + STREAMON: v4l2-ctl streams FRAMES whole frames (its exit status cannot tell)."""
    fmt = subprocess.run(["v4l2-ctl", "-d", device, "-V"], capture_output=True, text=True).stdout
    size = next((int(line.split(":")[1]) for line in fmt.splitlines() if "Size Image" in line), 0)
    raw = os.path.join(folder, "stream.raw")
    try:
        done = subprocess.run(["v4l2-ctl", "-d", device, "--stream-mmap", f"--stream-count={frames}",
                               f"--stream-to={raw}"], capture_output=True, text=True, timeout=20 * SLOW)
        message = (done.stderr or done.stdout).strip().replace("\n", " ")[:200]
    except subprocess.TimeoutExpired:
        message = "v4l2-ctl hung"
    got = os.path.getsize(raw) if os.path.exists(raw) else 0
    if size and got == frames * size:
        return None
    return f"another open + STREAMON of {device} got {got} of {frames} × {size} bytes: {message}"


def handled_before(trace, ending):
    """For a trace that ends `killed by SIGX`: did facecap have its own handler for SIGX by then?"""
    name = ending.split()[-1]
    return any(f"rt_sigaction({name}, {{sa_handler=0x" in line for line in read(trace).splitlines())


def camera_problems(device, folder, traced):
    """The camera after a run: released by facecap itself, held by nobody, able to stream again. Returns
    (problems, facts, how often facecap opened the camera: None without a trace, killed before its handlers)."""
    problems, facts, opened, early = [], [], None, False
    if traced:
        sys.path.insert(0, os.path.join(ROOT, "Tests", "Kernel"))
        import leakcheck
        trace = os.path.join(folder, "trace")
        with open(trace, errors="replace") as lines:
            _, ending, fds, maps, opened, mapped = leakcheck.analyse(lines)
        facts.append(f"{opened} camera open(s), {mapped} buffer(s) mapped, {ending}")
        if ending and ending.startswith("killed by") and not handled_before(trace, ending):
            early = True
            facts.append("the signal came before facecap installed its handler")
            if opened:
                problems.append("killed by the default action after it had opened the camera")
        elif ending is None or ending.startswith("killed by"):
            problems.append(f"facecap did not exit by itself ({ending or 'no exit in the trace'})")
        if fds or maps:
            problems.append(f"at exit facecap still held {sorted(fds.values())} and {len(maps)} mapped buffer(s)")
    held = holders(device)
    if held:
        problems.append(f"{device} still held by {', '.join(held)}")
    stream = streams(device, folder)
    if stream:
        problems.append(stream)
    else:
        facts.append("another open + STREAMON streamed 2 frames")
    return problems, facts, opened, early


def ktest(ok, name, message):
    print(f"@@KTEST@@ {'PASS' if ok else 'FAIL'} {name} {message}".replace("\t", " "), flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "facecap"))
    ap.add_argument("--runs", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", help="a V4L2 camera instead of the clip")
    ap.add_argument("--strace", metavar="SYSCALLS", help="with --device: trace facecap for leakcheck.py")
    ap.add_argument("--ktest", action="store_true", help="with --device: print the kernel suite's result lines")
    ap.add_argument("--slowness", type=float, default=1.0,
                    help="how many times slower than usual this machine is (time limits and a camera run's wait "
                         "before its signal are stretched by it)")
    args = ap.parse_args()
    global SLOW
    SLOW = max(1.0, args.slowness)
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="facecap-signals-")
    socket = f"facecap-signals-{os.getpid()}"
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
    script = os.path.join(work, "run.sh")
    with open(script, "w") as f:
        f.write(SCRIPT)
    os.chmod(script, 0o755)
    env = dict(os.environ, TERM="tmux-256color", LANG="C.UTF-8",
               FACECAP_MODEL_DIR=os.environ.get("FACECAP_MODEL_DIR", os.path.join(ROOT, "models")))
    if args.device:
        source = ["--device", args.device]
    else:
        sys.path.insert(0, HERE)
        from wizard_budget import clip_path
        sources = [["--input", clip_path("mono"), "--loop"], ["--input", clip_path("mono", still=True), "--loop"]]
    subprocess.run(tmux + ["new-session", "-d", "-s", "keep", "-x", "100", "-y", "32", "sleep 100000"],
                   check=True, env=env)
    failures = opened = saved = 0
    try:
        for run in range(args.runs):
            kind = PLANS[run % len(PLANS)]
            still = not args.device and run % 2 == 1
            if not args.device:
                source = sources[still]
            # On a camera from 1.5 s: the kernel check wants most runs to have opened it (a signal before
            # the handlers, which a busy guest makes likelier, is what the clip runs cover).
            delay = rng.uniform(0.5, 2.0) if still else rng.uniform(1.5 if args.device else 0.2, 4.0)
            if args.device:
                # After the camera is open (run_once waits for it), so that the leak checks prove something
                # however long a slow machine takes to load the models; a signal before the handlers is what the
                # clip runs cover.
                delay = rng.uniform(0.0, 2.5)
            folder = os.path.join(work, f"r{run}")
            command = [args.binary, "--no-tutorial", *source, "--manual-after", "3600",
                       "--output", os.path.join(folder, "out")]
            if args.device and args.strace:
                command = ["strace", "-f", "-y", "-q", "--seccomp-bpf", "-o", os.path.join(folder, "trace"),
                           "-e", "trace=" + args.strace + ",rt_sigaction"] + command
            default = {"INT": "130", "TERM": "143", "HUP": "129", "TSTP": "143"}[kind]
            expected = {"130", default}
            status, problems, names = run_once(tmux, env, script, folder, command, kind, delay, rng, expected,
                                               camera=args.device)
            what = f"SIG{kind} after {delay:.2f} s (seed {args.seed}): exit {status}, {len(names)} files"
            camera, facts, opens, early = camera_problems(args.device, folder, bool(args.strace)) \
                if args.device else ([], [], None, False)
            if args.device and status == default != "130" and not early:
                problems.append(f"exit {status} (killed by the signal) although facecap handles it: expected 130")
            opened += bool(opens)
            saved += any(name.endswith(".jpg") for name in names)
            if args.ktest:
                ktest(not problems, f"signals/run-{run:02}", "; ".join(problems) + ": " + what if problems else
                      what + ", stty -a unchanged, output folder clean")
                ktest(not camera, f"leak/signals-{run:02}", "; ".join(camera + facts))
            failures += bool(problems or camera)
            verdict = "ok" if not problems + camera else "FAIL " + "; ".join(problems + camera)
            print(f"signals: run {run:2} {what}{'; ' + '; '.join(facts) if facts else ''}: {verdict}", flush=True)
    finally:
        subprocess.run(tmux + ["kill-server"], env=env, stderr=subprocess.DEVNULL)
        shutil.rmtree(work, ignore_errors=True)
    if args.ktest:
        ktest(opened * 2 >= args.runs, "signals/camera-opened",
              f"{opened} of {args.runs} runs had opened {args.device} when the signal came (seed {args.seed})")
    where = f" on {args.device} ({opened} had opened it)" if args.device else f" ({saved} had saved a photo)"
    print(f"signals: {args.runs - failures} of {args.runs} runs{where} restored the terminal and left nothing "
          f"partial{', the camera released' if args.device else ''}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
