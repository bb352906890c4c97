#!/usr/bin/env python3
"""Builds facecap-fuzz with libFuzzer and AddressSanitizer, runs every fuzz target for a bounded time,
and keeps each crash as a regression input.

Usage: tools/fuzz.py [--seconds N] [--only TARGET[,TARGET…]] [--no-build]

Each target starts from its committed seeds (Tests/Fuzz/corpus/TARGET) plus what earlier runs found
(.build/fuzz/work/TARGET, not committed), with its dictionary when there is one (Tests/Fuzz/dict). A
crash, leak, timeout or out-of-memory input is copied to Tests/Fuzz/regressions/TARGET/, where
FuzzReplayTests (part of `make test`) replays it: commit it with the fix. Prints executions per second
and the coverage reached per target; exits 1 when any target found a problem.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(ROOT, ".build", "fuzz")
BUILD = ["swift", "build", "-c", "release", "--scratch-path", SCRATCH, "--product", "facecap-fuzz",
         "-Xswiftc", "-sanitize=fuzzer,address", "-Xswiftc", "-parse-as-library",
         "-Xswiftc", "-DFACECAP_LIBFUZZER", "-Xcc", "-fsanitize=fuzzer-no-link,address"]
# Longest input per target: a little over the largest seed, so the fuzzer can grow inputs a bit.
MAX_LEN = {"tflite": 4096, "y4m": 8192, "png": 4096, "jpeg": 4096, "pnm": 2048, "mjpeg": 4096}
# Which dictionary each target uses (Tests/Fuzz/dict/NAME.dict).
DICTS = {"y4m": "y4m", "thresholds": "thresholds", "arguments": "arguments", "server-reply": "server-reply"}
# Globals that live until exit but that LeakSanitizer cannot see as reachable (the file says why).
LSAN_OPTIONS = "suppressions=" + os.path.join(ROOT, "Tests", "Fuzz", "lsan.supp")
TARGETS = ["tflite", "y4m", "png", "jpeg", "pnm", "thresholds", "arguments", "server-reply", "multipart", "mjpeg"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seconds", type=int, default=int(os.environ.get("FUZZ_SECONDS", "60")))
    ap.add_argument("--only")
    ap.add_argument("--no-build", action="store_true")
    args = ap.parse_args()
    targets = args.only.split(",") if args.only else TARGETS
    if not args.no_build:
        print("fuzz: building facecap-fuzz (libFuzzer + AddressSanitizer) in .build/fuzz", flush=True)
        started = time.monotonic()
        subprocess.run(BUILD, cwd=ROOT, check=True)
        print(f"fuzz: built in {time.monotonic() - started:.0f} s", flush=True)
    binary = os.path.join(SCRATCH, "release", "facecap-fuzz")
    rows, problems = [], []
    for target in targets:
        seeds = os.path.join(ROOT, "Tests", "Fuzz", "corpus", target)
        if not os.path.isdir(seeds):
            raise SystemExit(f"fuzz: no seed corpus {seeds}")
        work = os.path.join(SCRATCH, "work", target)
        artifacts = os.path.join(SCRATCH, "artifacts", target)
        for folder in (work, artifacts):
            os.makedirs(folder, exist_ok=True)
        for old in glob.glob(os.path.join(artifacts, "*")):
            os.remove(old)
        command = [binary, f"-max_total_time={args.seconds}", "-print_final_stats=1", "-rss_limit_mb=2048",
                   "-timeout=10", f"-max_len={MAX_LEN.get(target, 1024)}", f"-artifact_prefix={artifacts}/",
                   "-close_fd_mask=1"]
        if target in DICTS:
            command.append(f"-dict={os.path.join(ROOT, 'Tests', 'Fuzz', 'dict', DICTS[target] + '.dict')}")
        command += [work, seeds]
        log_path = os.path.join(SCRATCH, f"{target}.log")
        print(f"fuzz: {target} for {args.seconds} s", flush=True)
        with open(log_path, "w") as log:
            code = subprocess.run(command, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                  env=dict(os.environ, FACECAP_FUZZ_TARGET=target,
                                           LSAN_OPTIONS=":".join(filter(None, [os.environ.get("LSAN_OPTIONS"),
                                                                               LSAN_OPTIONS])),
                                           SWIFT_BACKTRACE="interactive=no,color=no")).returncode
        with open(log_path, errors="replace") as log:
            text = log.read()
        execs = re.search(r"stat::number_of_executed_units:\s*(\d+)", text)
        rate = re.search(r"stat::average_exec_per_sec:\s*(\d+)", text)
        coverage = re.findall(r"\bcov: (\d+) ft: (\d+)", text)
        corpus = re.findall(r"\bcorp: (\d+)/", text)
        found = sorted(glob.glob(os.path.join(artifacts, "*")))
        kept, empty = [], 0
        for artifact in found:
            # An empty artifact is no input that shows the problem (a leak found at exit, after the last input,
            # is reported with the empty one libFuzzer starts with): it is reported from the log, not kept.
            if os.path.getsize(artifact) == 0:
                empty += 1
                continue
            destination = os.path.join(ROOT, "Tests", "Fuzz", "regressions", target)
            os.makedirs(destination, exist_ok=True)
            shutil.copy(artifact, destination)
            kept.append(os.path.join("Tests", "Fuzz", "regressions", target, os.path.basename(artifact)))
        if code != 0 or kept:
            summary = re.findall(r"^SUMMARY: .*$", text, re.MULTILINE)
            problems.append(f"{target}: exit {code}; kept {', '.join(kept) or 'no input'}"
                            f"{'; an empty input, not kept' if empty else ''}; "
                            f"{summary[-1] if summary else 'no sanitizer summary'}; log {log_path}")
        rows.append((target, execs.group(1) if execs else "?", rate.group(1) if rate else "?",
                     coverage[-1][0] if coverage else "?", coverage[-1][1] if coverage else "?",
                     corpus[-1] if corpus else "?", "CRASH" if (code != 0 or kept) else "ok"))
    print(f"\n{'target':14} {'execs':>10} {'execs/s':>8} {'cov':>6} {'ft':>7} {'corpus':>7}  result")
    for row in rows:
        print(f"{row[0]:14} {row[1]:>10} {row[2]:>8} {row[3]:>6} {row[4]:>7} {row[5]:>7}  {row[6]}")
    for problem in problems:
        print("fuzz: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
