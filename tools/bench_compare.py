#!/usr/bin/env python3
"""Runs facecap's benchmark and LiteRT's on the same models, in one go, and prints the ratios.

Usage: bench_compare.py FACECAP_BINARY [--rounds N]  (used by `make bench`). Rounds alternate facecap and
LiteRT so both see the same machine load; the medians over rounds are reported.
"""
import json
import os
import statistics
import subprocess
import sys


def run_json(command):
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        return None, result.stderr.strip()
    return json.loads(result.stdout.strip().splitlines()[-1]), None


def main():
    binary = sys.argv[1]
    rounds = int(sys.argv[sys.argv.index('--rounds') + 1]) if '--rounds' in sys.argv else 3
    here = os.path.dirname(os.path.abspath(__file__))
    ours, theirs = [], []
    for _ in range(rounds):
        mine, error = run_json([binary, 'bench', '--json'])
        if mine is None:
            print(f'facecap bench failed: {error}', file=sys.stderr)
            sys.exit(1)
        ours.append(mine)
        lite, error = run_json([sys.executable, os.path.join(here, 'litert_bench.py')])
        if lite is not None:
            theirs.append(lite)
    def med(rows, key):
        return statistics.median(row[key] for row in rows)
    print(f'facecap (median of {rounds} rounds, each a median of {ours[0]["runs"]} runs, one thread):')
    for key in ('detector_ms', 'landmarks_ms', 'iris_ms', 'hand_ms', 'frame_ms', 'frame_mean_ms', 'frame_eyes_ms',
                'frame_hand_ms'):
        print(f'  {key:13s} {med(ours, key):7.2f}')
    print(f'  (the eyes run every {ours[0]["eye_interval"]} frames, the hand model every {ours[0]["hand_interval"]} '
          'frames on others: frame_ms is the median frame, frame_eyes_ms a frame on which both eyes ran, frame_hand_ms '
          'one on which the hand model read one mouth crop)')
    if not theirs:
        print(f'LiteRT: not measured ({error})')
        return
    print(f'LiteRT {theirs[0]["litert"]} with XNNPACK (same rounds, one thread):')
    for key in ('detector_ms', 'landmarks_ms', 'iris_ms', 'hand_ms'):
        print(f'  {key:13s} {med(theirs, key):7.2f}')
    print('ratio facecap / LiteRT (lower is faster; the bar is 1.5, for iris_ms 1.0):')
    for key in ('detector_ms', 'landmarks_ms', 'iris_ms', 'hand_ms'):
        print(f'  {key:13s} {med(ours, key) / med(theirs, key):7.2f}')


if __name__ == '__main__':
    main()
