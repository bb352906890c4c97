#!/usr/bin/env python3
"""The simulated person of issue 35 against the whole binary, in real time (`make simulate-live`).

A live 640x480 y4m stream at 30 fps, rendered from the fixture photo (Tests/Fixtures/images/sergey_luma.pgm) where
the person's face is, goes through a FIFO into `facecap --plain --input FIFO --events -`; the person follows what
facecap says — the guidance events' main message (`--listener events`, who reads the screen: the event's `slight`
says when it is in graded words, "A little lower", and the person then moves at a third of their speed) or the
`--plain` lines (`--listener plain`, a screen-reader user, who hears "A little lower" and moves slowly) — after a
reaction time, at a speed. The start states are those of `make simulate` (Tests/Fixtures/simulation/starts.json).
The face models run for real here, unlike in `make simulate` (GuidanceSimulationTests), which places the face by
construction on the frames' own clock; these figures depend on the machine and its load, so they are a budget
figure, not a test.

Per start state: time from the first guidance to the accepted photo (facecap's own clock, its events' `t`),
photos taken, reversals of the person's movement per axis, and seconds told a direction that points away from the
oval (judged on the face as rendered when the word was the newest heard). The closing line gives the median and
the maximum time to capture.
"""
import argparse
import errno
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures")
WIDTH, HEIGHT, FPS = 640, 480, 30

# The words of `--plain` (English) a person acts on: code and whether it is the graded form.
WORDS = {
    "Move left": ("moveLeft", False), "Move right": ("moveRight", False),
    "Move up": ("moveUp", False), "Move down": ("moveDown", False),
    "A little to the left": ("moveLeft", True), "A little to the right": ("moveRight", True),
    "A little higher": ("moveUp", True), "A little lower": ("moveDown", True),
    "Move closer": ("moveCloser", False), "Move back": ("moveBack", False),
    "Too dark — find more light": ("tooDark", False), "A little more light, please": ("tooDark", True),
    "Too bright — avoid direct light": ("tooBright", False), "A little less light, please": ("tooBright", True),
    "Keep your head level": ("keepHeadLevel", False), "Straighten your head a little": ("keepHeadLevel", True),
}



def load_starts():
    """The start states GuidanceSimulation reads: (name, face width, centre x, centre y, roll degrees, gain, offset)."""
    with open(os.path.join(FIXTURES, "simulation", "starts.json")) as f:
        entries = json.load(f)
    return [(e["name"], e.get("faceWidth", 0.32), e.get("centreX", 0.5), e.get("centreY", 0.5), e.get("degrees", 0),
             e.get("gain", 1), e.get("offset", 0)) for e in entries]


def open_fifo(fifo, proc):
    """The FIFO's writing end once facecap has opened it for reading; None when facecap ended first (a plain
    blocking open would then wait for ever)."""
    while proc.poll() is None:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except OSError as error:
            if error.errno != errno.ENXIO:
                raise
            time.sleep(0.05)
            continue
        os.set_blocking(fd, True)
        return os.fdopen(fd, "wb", buffering=0)
    return None


def load_photo():
    """sergey's luma (600x600) and its face box: the bounds of the golden landmarks, as the analyzer measures it."""
    with open(os.path.join(FIXTURES, "images", "sergey_luma.pgm"), "rb") as f:
        data = f.read()
    header = b"P5\n600 600\n255\n"
    assert data.startswith(header), "unexpected sergey_luma.pgm header"
    image = np.frombuffer(data[len(header):], dtype=np.uint8).reshape(600, 600).astype(np.float32)
    with open(os.path.join(FIXTURES, "golden", "sergey_expected.json")) as f:
        points = np.array(json.load(f)["landmarks_normalized"])[:, :2] * 600
    (x0, y0), (x1, y1) = points.min(axis=0), points.max(axis=0)
    return image, ((x0 + x1) / 2, (y0 + y1) / 2), x1 - x0


class Renderer:
    """Frames with the photo placed as `AnalysisFixtures.frame` places it: face width, centre, roll, gain, offset."""

    def __init__(self):
        self.image, self.centre, self.face_width = load_photo()
        ys, xs = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
        self.xs, self.ys = xs + 0.5, ys + 0.5
        self.rng = np.random.default_rng(35)

    def frame(self, width, cx, cy, degrees, gain, offset):
        scale = width * WIDTH / self.face_width
        a = math.radians(degrees)
        c, s = math.cos(a), math.sin(a)
        dx, dy = self.xs - cx * WIDTH, self.ys - cy * HEIGHT
        x = (c * dx + s * dy) / scale + self.centre[0]
        y = (-s * dx + c * dy) / scale + self.centre[1]
        inside = (x >= 0) & (y >= 0) & (x < 599) & (y < 599)
        x, y = np.clip(x, 0, 598.999), np.clip(y, 0, 598.999)
        x0, y0 = x.astype(np.int32), y.astype(np.int32)
        ax, ay = x - x0, y - y0
        im = self.image
        top = im[y0, x0] * (1 - ax) + im[y0, x0 + 1] * ax
        bottom = im[y0 + 1, x0] * (1 - ax) + im[y0 + 1, x0 + 1] * ax
        v = (top * (1 - ay) + bottom * ay) * gain + offset + self.rng.uniform(-3, 3, size=top.shape)
        v = np.where(inside, v, 128)
        return np.clip(np.rint(v), 0, 255).astype(np.uint8).tobytes()


def run(binary, start, speed, reaction, listener, limit, renderer, gentle=1 / 3):
    """One person from one start; the run's folder (the FIFO, the photo facecap keeps) is removed after."""
    out = tempfile.mkdtemp(prefix="facecap-live-")
    try:
        return run_in(out, binary, start, speed, reaction, listener, limit, renderer, gentle)
    finally:
        shutil.rmtree(out, ignore_errors=True)


def run_in(out, binary, start, speed, reaction, listener, limit, renderer, gentle):
    name, width, cx, cy, degrees, gain, offset = start
    fifo = os.path.join(out, "live.y4m")
    os.mkfifo(fifo)
    env = dict(os.environ, LANG="C.UTF-8", LC_ALL="C.UTF-8")
    proc = subprocess.Popen([binary, "--plain", "--no-tutorial", "--lang", "en", "--input", fifo, "--events", "-",
                             "--output", os.path.join(out, "photos"), "--manual-after", "60"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            text=True)
    lock = threading.Lock()
    heard = []  # (frame time when heard, code, graded)
    events = []
    clock = {"t": 0.0}

    def read_events():
        for line in proc.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            with lock:
                events.append(event)
                if listener == "events" and event.get("event") == "guidance":
                    heard.append((clock["t"], event["primary"], event["primary"] in event.get("slight", [])))

    def read_plain():
        for line in proc.stderr:
            line = line.rstrip("\n")
            if listener != "plain" or not line.startswith("[capture] "):
                continue
            text = line[len("[capture] "):].split(" (also: ")[0]
            code, graded = WORDS.get(text, ("stop", False))
            with lock:
                heard.append((clock["t"], code, graded))

    threads = [threading.Thread(target=read_events, daemon=True), threading.Thread(target=read_plain, daemon=True)]
    for thread in threads:
        thread.start()
    reversals, last_sign = [0, 0], [0, 0]
    wrong = 0.0
    pipe = open_fifo(fifo, proc)
    try:
        if pipe is None:
            # facecap ended before it read a frame: the run is reported from its events, as one cut short.
            raise BrokenPipeError
        with pipe:
            pipe.write(b"YUV4MPEG2 W640 H480 F30:1 Ip A1:1 Cmono\n")
            began = time.monotonic()
            for i in range(int(limit * FPS)):
                t = i / FPS
                with lock:
                    clock["t"] = t
                    word = next((w for w in reversed(heard) if w[0] <= t - reaction), None)
                    told = heard[-1][1] if heard else None
                    done = any(e.get("event") == "exit" for e in events)
                if done:
                    break
                away = {"moveLeft": cx > 0.5, "moveRight": cx < 0.5, "moveDown": cy > 0.5, "moveUp": cy < 0.5,
                        "moveCloser": width > 0.40, "moveBack": width < 0.40}
                if away.get(told, False):
                    wrong += 1 / FPS
                v = [0.0, 0.0]
                if word:
                    step = speed * (gentle if word[2] else 1)
                    code = word[1]
                    # The person's own left is the unmirrored image's right (SPEC §4).
                    if code == "moveLeft": v[0] = step
                    elif code == "moveRight": v[0] = -step
                    elif code == "moveDown": v[1] = step
                    elif code == "moveUp": v[1] = -step
                    elif code == "moveCloser": width *= 1 + 0.3 / FPS
                    elif code == "moveBack": width *= 1 - 0.3 / FPS
                    elif code == "keepHeadLevel": degrees -= math.copysign(min(abs(degrees), 10 / FPS), degrees)
                    elif code == "tooDark": gain += 0.6 / FPS
                    elif code == "tooBright": offset -= 120 / FPS
                cx += v[0] / FPS / WIDTH
                cy += v[1] / FPS / HEIGHT
                for axis in (0, 1):
                    if v[axis]:
                        sign = 1 if v[axis] > 0 else -1
                        if last_sign[axis] and last_sign[axis] != sign:
                            reversals[axis] += 1
                        last_sign[axis] = sign
                sway_x = 1.5 * math.sin(2 * math.pi * 0.4 * t) / WIDTH
                sway_y = 1.0 * math.cos(2 * math.pi * 0.3 * t) / HEIGHT
                pipe.write(b"FRAME\n" + renderer.frame(width, cx + sway_x, cy + sway_y, degrees, gain, offset))
                delay = began + (i + 1) / FPS - time.monotonic()
                if delay > 0:
                    time.sleep(delay)
    except BrokenPipeError:
        pass
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    for thread in threads:
        thread.join(timeout=5)
    first = next((e["t"] for e in events if e.get("event") == "guidance"), None)
    captures = [e for e in events if e.get("event") == "captured"]
    passed = next((e for e in events if e.get("event") == "validation" and e.get("result") == "pass"), None)
    accepted_at = None
    if passed and first is not None:
        accepted_at = max(e["t"] for e in captures) - first
    return {"start": name, "speed": speed, "reaction": reaction, "listener": listener, "time": accepted_at,
            "attempts": len(captures), "reversals": reversals, "wrong": wrong, "exit": proc.returncode}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "facecap"))
    parser.add_argument("--speed", type=float, default=150)
    parser.add_argument("--reaction", type=float, default=0.4)
    parser.add_argument("--listener", choices=["events", "plain", "both"], default="both")
    parser.add_argument("--limit", type=float, default=20, help="seconds of stream per run")
    parser.add_argument("--only", help="run only the start states whose name contains this")
    args = parser.parse_args()
    renderer = Renderer()
    listeners = ["events", "plain"] if args.listener == "both" else [args.listener]
    print(f"{'start':22}{'listener':>9}{'photo s':>9}{'attempts':>9}{'revX':>5}{'revY':>5}{'wrong s':>8}{'exit':>5}")
    results = []
    for start in load_starts():
        if args.only and args.only not in start[0]:
            continue
        for listener in listeners:
            r = run(args.binary, start, args.speed, args.reaction, listener, args.limit, renderer)
            results.append(r)
            time_text = f"{r['time']:.2f}" if r["time"] is not None else "none"
            print(f"{r['start']:22}{listener:>9}{time_text:>9}{r['attempts']:>9}{r['reversals'][0]:>5}"
                  f"{r['reversals'][1]:>5}{r['wrong']:>8.2f}{r['exit']:>5}", flush=True)
    for listener in listeners:
        times = [r["time"] for r in results if r["listener"] == listener and r["time"] is not None]
        runs = [r for r in results if r["listener"] == listener]
        if times:
            print(f"{listener}: {len(times)} of {len(runs)} accepted at {args.speed:g} px/s, {args.reaction:g} s; "
                  f"time to capture median {statistics.median(times):.2f} s, max {max(times):.2f} s")
        else:
            print(f"{listener}: none of {len(runs)} accepted")
    return 0 if all(r["time"] is not None for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
