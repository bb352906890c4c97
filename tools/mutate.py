#!/usr/bin/env python3
"""Applies known mutations to a copy of facecap, one at a time, and reports which ones the tests catch.

Usage: tools/mutate.py [--kernel] [--only ID[,ID…]] [--tests FILTER] [--list | --check]

The copy lives in .build/mutate/src (the working tree's files, with its own build there, so a
second run builds incrementally); the working tree is never changed. Each mutation in
tools/mutations.json replaces an exact text (`find`, which must occur `count` times, default 1: a
mutation that no longer applies is an error, not a pass) in `file` (and in `also`), builds the tests,
and runs the unit tests (`--tests`: an XCTest filter, default every suite but the command-line ones,
which cover nothing these mutations touch and take most of the time). With --kernel, mutations that
name a `kernel` scenario also run `Tests/Kernel/run.sh --only SCENARIO` on the mutated binary and
report separately whether the kernel checks alone caught it. Exit status 1 when any mutation survived.
--check only looks that every mutation's texts are found in the working tree as often as they must be
(Tests/Make/check.sh runs it in `make test`, so a change that moves a mutated line says so at once).
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COPY = os.path.join(ROOT, ".build", "mutate", "src")
TEST_FLAGS = ["-c", "release", "-Xswiftc", "-enable-testing"]


def run(command, log, cwd=COPY, env=None):
    with open(log, "w") as out:
        return subprocess.run(command, cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env).returncode


def sync():
    """Makes the copy's sources those of the working tree; only files whose content differs are written."""
    files = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, check=True,
                           capture_output=True, text=True).stdout.split("\n")
    for name in filter(None, files):
        source, target = os.path.join(ROOT, name), os.path.join(COPY, name)
        if not os.path.isfile(source):
            continue
        with open(source, "rb") as f:
            data = f.read()
        if os.path.exists(target):
            with open(target, "rb") as f:
                if f.read() == data:
                    continue
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(source, target)
        shutil.copymode(source, target)
    # A file the tree no longer has (renamed, deleted) goes from the copy too, or the copy builds it still.
    kept = {os.path.normpath(name) for name in files if name}
    for top in ("Sources", "Tests", "Resources", "tools"):
        for folder, _, names in os.walk(os.path.join(COPY, top)):
            for name in names:
                relative = os.path.relpath(os.path.join(folder, name), COPY)
                if relative not in kept and "__pycache__" not in relative:
                    os.remove(os.path.join(COPY, relative))
    # The models and the kernel test's cached kernel are shared with the working tree, not copied.
    for shared in ("models", ".cache"):
        if os.path.isdir(os.path.join(ROOT, shared)) and not os.path.lexists(os.path.join(COPY, shared)):
            os.symlink(os.path.join(ROOT, shared), os.path.join(COPY, shared))


def apply(path, find, replace, count):
    full = os.path.join(COPY, path)
    with open(full) as f:
        text = f.read()
    found = text.count(find)
    if found != count:
        raise SystemExit(f"mutate.py: {path}: expected {count} of {find!r}, found {found}: update tools/mutations.json")
    with open(full, "w") as f:
        f.write(text.replace(find, replace))


def stale(mutations):
    """The mutations whose `find` texts are not in the working tree `count` times, as lines to print."""
    problems = []
    for m in mutations:
        for part in [m] + m.get("also", []):
            path = os.path.join(ROOT, part["file"])
            text = open(path).read() if os.path.isfile(path) else ""
            found, count = text.count(part["find"]), part.get("count", 1)
            if found != count:
                problems.append(f"{m['id']}: {part['file']}: expected {count} of {part['find']!r}, found {found}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", action="store_true", help="also run the kernel scenario a mutation names")
    ap.add_argument("--only", help="comma-separated mutation ids")
    ap.add_argument("--tests", default="FaceCapCoreTests|FaceCapIOTests|FaceCapTerminalTests",
                    help="XCTest filter for the unit run")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--check", action="store_true", help="only check that every mutation still applies")
    args = ap.parse_args()
    with open(os.path.join(ROOT, "tools", "mutations.json")) as f:
        mutations = json.load(f)
    if args.only:
        wanted = set(args.only.split(","))
        mutations = [m for m in mutations if m["id"] in wanted]
        if len(mutations) != len(wanted):
            raise SystemExit(f"mutate.py: unknown id in {args.only}")
    if args.check:
        problems = stale(mutations)
        for line in problems:
            print(f"mutate.py: {line}: update tools/mutations.json", file=sys.stderr)
        return 1 if problems else 0
    if args.list:
        for m in mutations:
            print(f"{m['id']:5} {m['what']}")
        return 0
    env = dict(os.environ, FACECAP_MODEL_DIR=os.environ.get("FACECAP_MODEL_DIR", os.path.join(ROOT, "models")))
    logs = os.path.join(ROOT, ".build", "mutate", "logs")
    os.makedirs(logs, exist_ok=True)
    print("mutate: baseline (unmutated copy)", flush=True)
    sync()
    if run(["swift", "build"] + TEST_FLAGS + ["--build-tests"], f"{logs}/baseline-build.log", env=env) or \
            run(["swift", "test"] + TEST_FLAGS + ["--skip-build", "--disable-swift-testing", "--filter", args.tests],
                f"{logs}/baseline-test.log", env=env):
        raise SystemExit(f"mutate.py: the unmutated copy does not build or pass; see {logs}/baseline-*.log")
    survived = []
    for m in mutations:
        started = time.monotonic()
        sync()
        apply(m["file"], m["find"], m["replace"], m.get("count", 1))
        for extra in m.get("also", []):
            apply(extra["file"], extra["find"], extra["replace"], extra.get("count", 1))
        log = f"{logs}/{m['id']}"
        if run(["swift", "build"] + TEST_FLAGS + ["--build-tests"], log + "-build.log", env=env):
            verdict = "caught (does not build)"
        else:
            failed = run(["swift", "test"] + TEST_FLAGS + ["--skip-build", "--disable-swift-testing",
                                                           "--filter", args.tests], log + "-test.log", env=env)
            with open(log + "-test.log", errors="replace") as f:
                failing = sorted({line.split("error: ")[1].split(" :")[0] for line in f if ": error: " in line})
            verdict = f"caught by {len(failing)} test(s): {', '.join(failing[:4])}" if failed else "SURVIVED unit tests"
            if failed and not failing:
                verdict = "caught (test run failed without an XCTest failure; see log)"
            if args.kernel and m.get("kernel"):
                built = run(["swift", "build", "-c", "release", "--product", "facecap"], log + "-kbuild.log", env=env)
                if not built:
                    run([os.path.join(COPY, "Tests/Kernel/run.sh"), "--binary", ".build/release/facecap",
                         "--only", m["kernel"]], log + "-kernel.log", env=env)
                with open(log + "-kernel.log", errors="replace") as f:
                    text = f.read()
                # Caught only by a check of the scenario failing, not by a harness that could not run.
                checks = sorted({line.split()[1].rstrip(":") for line in text.splitlines() if line.startswith("FAIL ")})
                ran = " passed, " in text and "test-kernel: error" not in text
                verdict += "; kernel checks: " + (f"caught by {', '.join(checks)}" if ran and checks
                                                  else "SURVIVED" if ran else "did not run (see log)")
                if not (ran and checks):
                    failed = False
            if not failed:
                survived.append(m["id"])
        print(f"mutate: {m['id']:5} {m['what']}: {verdict} ({time.monotonic() - started:.0f} s)", flush=True)
    sync()
    print(f"mutate: {len(mutations) - len(survived)} of {len(mutations)} caught"
          + (f"; survived: {', '.join(survived)}" if survived else ""))
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
