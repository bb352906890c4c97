#!/usr/bin/env python3
"""Checks that every Swift module of a SwiftPM build is compiled with Swift's run-time checks on.

Usage: tools/checked_build.py [MANIFEST]   (default .build/release.yaml, written by `swift build -c release`)

Reads the compiler invocations in the build manifest and fails when a module is compiled with
-Ounchecked, -remove-runtime-asserts or -enforce-exclusivity=unchecked, or without an -O level at
all: facecap's modules read files, server replies and arguments, and an unchecked build turns an
out-of-range index or an overflow into silent memory corruption instead of a trap (issue 11, §1).
Prints each module with its optimisation flags.
"""
import os
import re
import sys

UNCHECKED = ("-Ounchecked", "-remove-runtime-asserts", "-enforce-exclusivity=unchecked")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(".build", "release.yaml")
    try:
        with open(path) as f:
            text = f.read()
    except OSError as error:
        print(f"checked_build: {error}; build first (swift build -c release)")
        return 2
    modules = re.findall(r'"C\.([\w-]+?)-(?:x86_64|aarch64)[\w-]*\.module":.*?\n    args: \[(.*?)\]\n', text, re.S)
    if not modules:
        print(f"checked_build: no Swift module in {path}")
        return 2
    problems = []
    for name, args in modules:
        flags = re.findall(r'"([^"]*)"', args)
        levels = [f for f in flags if re.fullmatch(r"-O\w*", f)]
        bad = [f for f in flags if f in UNCHECKED]
        print(f"{name:32} {' '.join(levels) or '(no -O)'}{'  ' + ' '.join(bad) if bad else ''}")
        if bad or not levels:
            problems.append(name)
    if problems:
        print("checked_build: compiled without Swift's checks: " + ", ".join(problems))
        return 1
    print(f"checked_build: all {len(modules)} modules keep Swift's run-time checks")
    return 0


if __name__ == "__main__":
    sys.exit(main())
