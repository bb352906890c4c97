#!/usr/bin/env python3
"""Leak check from a syscall trace: did the process release every camera resource it took?

Usage: leakcheck.py [--expect-open] TRACE
TRACE is the output of `strace -f -y -o TRACE -e trace=<leakcheck.py --syscalls> PROGRAM …`.
Follows the first process of the trace (its threads included, its child processes not) and, at the
moment it exits, lists every file descriptor of a /dev/video* node it still holds and every buffer
it mapped from one and never unmapped. Prints one line; exits 0 when nothing is left, 1 otherwise
(and, with --expect-open, when it never opened a video node at all).

Watching from outside needs no hook in facecap and sees exactly what /proc/self/fd and
/proc/self/maps would show at exit, including a process that dies by a signal before cleaning up.
"""
import re
import sys

SYSCALLS = ("open,openat,creat,close,close_range,dup,dup2,dup3,fcntl,mmap,munmap,mremap,"
            "clone,clone3,fork,vfork,exit,exit_group")

LINE = re.compile(r"^(\d+)\s+(.*)$")
CALL = re.compile(r"^(\w+)\((.*)\)\s+=\s+(-?\w+)(<[^>]*>)?")
VIDEO = re.compile(r"^/dev/video\d+$")


def join_resumed(lines):
    """Yields (tid, text) with strace's `<unfinished ...>` / `<... name resumed>` halves joined."""
    pending = {}
    for raw in lines:
        match = LINE.match(raw.rstrip("\n"))
        if not match:
            continue
        tid, text = int(match.group(1)), match.group(2)
        if text.endswith("<unfinished ...>"):
            pending[tid] = text[: -len("<unfinished ...>")].rstrip()
            continue
        resumed = re.match(r"^<\.\.\. \w+ resumed>\s?(.*)$", text)
        if resumed:
            text = pending.pop(tid, "") + resumed.group(1)
        yield tid, text


def fd_path(argument):
    """`3</dev/video0>` → (3, "/dev/video0"); anything else → (None, None)."""
    match = re.match(r"^\s*(-?\d+)(?:<(.*)>)?\s*$", argument)
    if not match:
        return None, None
    return int(match.group(1)), match.group(2)


def split_args(args):
    """Splits a strace argument list on top-level commas."""
    parts, depth, current = [], 0, ""
    for char in args:
        if char in "([{<":
            depth += 1
        elif char in ")]}>":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    if current.strip():
        parts.append(current.strip())
    return parts


def analyse(lines):
    group = {}          # thread id → process (thread group) it belongs to
    main = None
    fds = {}            # fd → path, video nodes only, of the main process
    maps = []           # [start, end) of buffers mapped from a video node by the main process
    opened = mapped = 0
    ending = None
    for tid, text in join_resumed(lines):
        if main is None:
            main = tid
            group[tid] = tid
        process = group.get(tid)
        if text.startswith("+++ "):
            if process == main and tid == main:
                ending = text.strip("+ ")
            continue
        match = CALL.match(text)
        if not match:
            continue
        name, args, result, result_path = match.groups()
        if name in ("clone", "clone3", "fork", "vfork") and result.isdigit():
            child = int(result)
            group[child] = process if "CLONE_THREAD" in args else child
            continue
        if process != main:
            continue
        result_fd = int(result) if re.match(r"^\d+$", result) else None
        result_path = result_path[1:-1] if result_path else None
        if result_fd is not None and result_path and name != "mmap":
            # A new descriptor (open, dup, dup2 over an old one…): it is a camera or it replaced one.
            if VIDEO.match(result_path):
                fds[result_fd] = result_path
                opened += 1
            else:
                fds.pop(result_fd, None)
        argv = split_args(args)
        if name == "close" and argv:
            # Linux releases the descriptor even when close reports an error.
            fds.pop(fd_path(argv[0])[0], None)
        elif name == "close_range" and result == "0" and len(argv) >= 2:
            first, last = (int(a.split("<")[0], 0) for a in argv[:2])
            if "CLOSE_RANGE_CLOEXEC" not in args:
                for fd in [fd for fd in fds if first <= fd <= last]:
                    del fds[fd]
        elif name == "mmap" and len(argv) >= 5 and result.startswith("0x"):
            _, path = fd_path(argv[4])
            if path and VIDEO.match(path):
                start = int(result, 16)
                maps.append([start, start + int(argv[1])])
                mapped += 1
        elif name == "munmap" and result == "0" and len(argv) >= 2:
            start = int(argv[0], 16)
            end = start + int(argv[1])
            remaining = []
            for low, high in maps:
                if high <= start or low >= end:
                    remaining.append([low, high])
                    continue
                if low < start:
                    remaining.append([low, start])
                if high > end:
                    remaining.append([end, high])
            maps = remaining
    return main, ending, fds, maps, opened, mapped


def main():
    args = sys.argv[1:]
    if args == ["--syscalls"]:
        print(SYSCALLS)
        return 0
    expect_open = "--expect-open" in args
    args = [arg for arg in args if arg != "--expect-open"]
    if len(args) != 1:
        print("usage: leakcheck.py [--expect-open] TRACE   (trace with: strace -f -y -q -e trace=" + SYSCALLS + ")")
        return 64
    with open(args[0], errors="replace") as trace:
        main_pid, ending, fds, maps, opened, mapped = analyse(trace)
    if main_pid is None:
        print("the trace is empty: the program did not run under strace")
        return 1
    problems = []
    if ending is None:
        problems.append("the process never exited (still running, or strace was killed)")
    elif ending.startswith("killed by"):
        problems.append(f"the process was {ending} instead of exiting")
    if expect_open and opened == 0:
        problems.append("it never opened a /dev/video node, so there was nothing to release (see the scenario's check)")
    if fds:
        problems.append("still open at exit: " + ", ".join(f"fd {fd} ({path})" for fd, path in sorted(fds.items())))
    if maps:
        problems.append(f"{len(maps)} camera buffer range(s) still mapped at exit: "
                        + ", ".join(f"{low:#x}+{high - low}" for low, high in maps))
    if problems:
        print("; ".join(problems))
        return 1
    print(f"{opened} video fd(s) opened and closed, {mapped} buffer(s) mapped and unmapped, {ending}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
