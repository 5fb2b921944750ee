"""Reference GEMM throughput from numpy (OpenBLAS on Debian) for the profiler benchmark.
Usage: /usr/bin/python3 bench/numpy-gemm.py THREADS N [N ...]  -> JSON {N: {"medianUs": .., "gflops": ..}}"""
import json, os, sys, time

threads = sys.argv[1]
os.environ["OPENBLAS_NUM_THREADS"] = threads
os.environ["OMP_NUM_THREADS"] = threads
import numpy as np  # noqa: E402  (after the thread variables)

out = {}
for n in map(int, sys.argv[2:]):
    a = np.random.default_rng(1).standard_normal((n, n), dtype=np.float32)
    b = np.random.default_rng(2).standard_normal((n, n), dtype=np.float32)
    for _ in range(3):
        a @ b
    samples = []
    deadline = time.perf_counter() + 2.0
    while len(samples) < 10 or (time.perf_counter() < deadline and len(samples) < 200):
        t = time.perf_counter()
        a @ b
        samples.append((time.perf_counter() - t) * 1e6)
    samples.sort()
    med = samples[len(samples) // 2]
    out[n] = {"medianUs": med, "gflops": 2 * n**3 / med / 1e3, "repetitions": len(samples)}
print(json.dumps(out))
