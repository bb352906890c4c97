#!/usr/bin/env python3
"""LiteRT (ai-edge-litert, XNNPACK, one thread) timing of facecap's four models, for `make bench`.

Prints one JSON object: {"detector_ms": median, "landmarks_ms": median, "iris_ms": median (one eye),
"hand_ms": median (one mouth crop),
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


def median_ms(path, runs, low):
    interpreter = Interpreter(model_path=path, num_threads=1)
    interpreter.allocate_tensors()
    detail = interpreter.get_input_details()[0]
    rng = np.random.default_rng(1)
    interpreter.set_tensor(detail['index'], rng.uniform(low, 1.0, size=detail['shape']).astype(np.float32))
    for _ in range(max(5, runs // 10)):
        interpreter.invoke()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        interpreter.invoke()
        times.append((time.perf_counter() - start) * 1000)
    return float(np.median(times))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--runs', type=int, default=300)
    parser.add_argument('--model-dir', default=os.environ.get('FACECAP_MODEL_DIR', 'models'))
    args = parser.parse_args()
    result = {
        'detector_ms': median_ms(os.path.join(args.model_dir, 'face_detection_short_range.tflite'), args.runs, -1.0),
        'landmarks_ms': median_ms(os.path.join(args.model_dir, 'face_landmark.tflite'), args.runs, 0.0),
        'iris_ms': median_ms(os.path.join(args.model_dir, 'iris_landmark.tflite'), args.runs, 0.0),
        'hand_ms': median_ms(os.path.join(args.model_dir, 'hand_landmark_full.tflite'), args.runs, 0.0),
        'runs': args.runs,
        'litert': getattr(ai_edge_litert, '__version__', 'unknown'),
    }
    print(json.dumps(result))


if __name__ == '__main__':
    main()
