#!/usr/bin/env python3
"""LiteRT (ai-edge-litert, XNNPACK, one thread) timing of facecap's four models, for `make bench`.

Prints one JSON object: {"detector_ms": median, "landmarks_ms": median, "iris_ms": median (one eye),
"iris_pair_ms": median of both eyes as a frame runs them (two invokes, one crop each),
"iris_batch2_ms": median of one invoke on a batch of two crops (the input resized to 2x64x64x3),
"hand_ms": median (one mouth crop),
and each of them in the thread's CPU time as NAME_cpu_ms (XNNPACK with one thread runs in the calling thread),
"runs": N, "litert": version}.
Exits 2 with a message on stderr when ai_edge_litert is not importable (then `make bench` reports
facecap's numbers only). Usage: litert_bench.py [--runs N] [--model-dir DIR]
"""
import argparse
import json
import os
import sys
import time

try:
    import numpy as np
    from ai_edge_litert.interpreter import Interpreter
    import ai_edge_litert
except ImportError as error:  # not installed: not an error for facecap itself
    print(f"litert_bench: ai-edge-litert is not importable ({error}); 'pip install ai-edge-litert' to compare",
          file=sys.stderr)
    sys.exit(2)


def median_ms(path, runs, low, invokes=1, batch=1):
    """Median time of `invokes` invokes in a row of a batch of `batch` (the same input each time: the work does not
    depend on the values, and setting a tensor between the invokes would time numpy's copy too)."""
    interpreter = Interpreter(model_path=path, num_threads=1)
    detail = interpreter.get_input_details()[0]
    if batch != 1:
        interpreter.resize_tensor_input(detail['index'], [batch] + list(detail['shape'][1:]))
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    rng = np.random.default_rng(1)
    interpreter.set_tensor(detail['index'], rng.uniform(low, 1.0, size=detail['shape']).astype(np.float32))

    def call():
        for _ in range(invokes):
            interpreter.invoke()
    for _ in range(max(5, runs // 10)):
        call()
    times, cpu = [], []
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), time.thread_time()
        call()
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
    return float(np.median(times)), float(np.median(cpu))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--runs', type=int, default=300)
    parser.add_argument('--model-dir', default=os.environ.get('FACECAP_MODEL_DIR', 'models'))
    args = parser.parse_args()
    iris = os.path.join(args.model_dir, 'iris_landmark.tflite')
    measures = {
        'detector': (os.path.join(args.model_dir, 'face_detection_short_range.tflite'), -1.0, {}),
        'landmarks': (os.path.join(args.model_dir, 'face_landmark.tflite'), 0.0, {}),
        'iris': (iris, 0.0, {}),
        'iris_pair': (iris, 0.0, {'invokes': 2}),
        'iris_batch2': (iris, 0.0, {'batch': 2}),
        'hand': (os.path.join(args.model_dir, 'hand_landmark_full.tflite'), 0.0, {}),
    }
    result = {}
    for name, (path, low, extra) in measures.items():
        result[name + '_ms'], result[name + '_cpu_ms'] = median_ms(path, args.runs, low, **extra)
    result['runs'] = args.runs
    result['litert'] = getattr(ai_edge_litert, '__version__', 'unknown')
    print(json.dumps(result))


if __name__ == '__main__':
    main()
