#!/usr/bin/env python3
"""Did a running wizard let go of its camera while it showed the connectionError screen?

Usage: fdwatch.py PID EVENTS MARK SECONDS READY
PID is the wizard (still running), EVENTS its JSON Lines events file, MARK the number of event lines
written before the camera is unplugged. Touches READY once it has looked at PID the first time (the
caller unplugs the camera after that), then watches every 10 ms, for at most SECONDS, until the
wizard is back on the capture screen after a connectionError screen (or has exited).

Passes (exit 0) when at one moment the wizard was alive, its last screen event (read before and after
the look) was connectionError, and /proc/PID/fd held no /dev/video* file. Unlike a check after the
process has exited (when the kernel closes everything anyway), this can fail while the wizard runs.
Prints one line either way.
"""
import json
import os
import sys
import time


def video_files(pid):
    """The /dev/video* files PID holds, or None when it is gone (or a zombie, whose fds are gone too)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            state = stat.read().rsplit(")", 1)[1].split()[0]
        if state in ("Z", "X"):
            return None
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return None
    held = []
    for name in names:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{name}")
        except OSError:
            continue
        if target.startswith("/dev/video"):
            held.append(target)
    return sorted(held)


def screens(path, mark):
    """(line number, screen) of every screen event after line MARK."""
    found = []
    try:
        with open(path, errors="replace") as events:
            for number, line in enumerate(events, 1):
                if number <= mark or '"screen"' not in line:
                    continue
                try:
                    record = json.loads(line)
                except ValueError:
                    continue  # a line still being written
                if record.get("event") == "screen":
                    found.append((number, record.get("screen")))
    except OSError:
        pass
    return found


def main():
    if len(sys.argv) != 6:
        print(__doc__.strip().splitlines()[2])
        return 64
    pid, path, mark, seconds, ready = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
    before = video_files(pid)
    open(ready, "w").close()
    if before is None:
        print(f"pid {pid} was not running when the watch began")
        return 1
    if not before:
        print(f"pid {pid} held no /dev/video file while capturing, so its release proves nothing")
        return 1
    start = time.monotonic()
    deadline = start + seconds
    lost_at = None
    last_held = before
    samples = 0
    while time.monotonic() < deadline:
        first = screens(path, mark)
        held = video_files(pid)
        after = screens(path, mark)
        if held is None:
            print(f"pid {pid} exited before it was seen without the camera; screens since the unplug: "
                  f"{[name for _, name in after]}")
            return 1
        if after and after[-1][1] == "connectionError":
            if lost_at is None:
                lost_at = time.monotonic()
            samples += 1
            if first and first[-1] == after[-1] and not held:
                print(f"pid {pid} held {', '.join(before)} while capturing and no /dev/video file on the "
                      f"connectionError screen ({time.monotonic() - lost_at:.2f}s after the screen was seen, "
                      f"{samples} look(s))")
                return 0
            last_held = held
        elif lost_at is None and any(name == "connectionError" for _, name in after):
            print(f"pid {pid} left the connectionError screen before it could be looked at; screens since the "
                  f"unplug: {[name for _, name in after]}")
            return 1
        elif lost_at is not None:
            print(f"pid {pid} held {', '.join(last_held) or 'nothing'} at every look ({samples}) from the "
                  f"connectionError screen until it showed {after[-1][1] if after else '?'}")
            return 1
        time.sleep(0.01)
    if lost_at is None:
        print(f"no connectionError screen within {seconds:.0f}s of the unplug (screens since: "
              f"{[name for _, name in screens(path, mark)]}); pid {pid} holds {', '.join(last_held) or 'nothing'}")
    else:
        print(f"pid {pid} still held {', '.join(last_held) or '?'} after {samples} look(s) over "
              f"{time.monotonic() - lost_at:.1f}s on the connectionError screen")
    return 1


if __name__ == "__main__":
    sys.exit(main())
