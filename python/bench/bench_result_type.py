"""Benchmark (not a test): promote's Python API against NumPy's and PyTorch's own.

    python bench/bench_result_type.py [--elements 10000000]

1. ``p.result_type(np.int8, np.float32)`` per call, against ``np.result_type``,
   ``np.promote_types`` and (where torch is installed) ``torch.result_type`` on two tensors and
   ``torch.promote_types`` on two dtypes. Best of several timeit repeats, per call.
2. ``p.eval(op, a, b)`` on arrays of N elements against the same kernel called from Rust
   (``promote._promote._time_kernel``: one ``kernel::exec::execute`` allocating its output, over
   the same NumPy buffers read in place) and NumPy's ufunc, in INTERLEAVED rounds: each round
   runs the three once each, in a rotating order, so drift and noise hit all three alike. Reports
   the median of the per-round ratio p.eval / Rust and its spread (min-max over the rounds).
   Freeing each result is left outside the timings.
"""
from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
import timeit

import numpy as np

import promote
from promote._promote import _time_kernel


def per_call(stmt, globs, number=200_000, repeat=7):
    t = min(timeit.repeat(stmt, globals=globs, number=number, repeat=repeat))
    return t / number * 1e9


def median_time(f, runs=15):
    f()
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--elements", type=int, default=10_000_000)
    ap.add_argument("--runs", type=int, default=15)
    a = ap.parse_args()
    p = promote.policy("numpy")
    g = {"p": p, "np": np}
    print(f"python {platform.python_version()}, numpy {np.__version__}, promote {promote.__version__}")
    rows = [("p.result_type(np.int8, np.float32)  [promote, numpy policy]",
             per_call("p.result_type(np.int8, np.float32)", g)),
            ("promote.policy('torch').result_type(np.int8, np.float32)",
             per_call("t.result_type(np.int8, np.float32)", {**g, "t": promote.policy("torch")})),
            ("np.result_type(np.int8, np.float32)", per_call("np.result_type(np.int8, np.float32)", g)),
            ("np.promote_types(np.int8, np.float32)", per_call("np.promote_types(np.int8, np.float32)", g))]
    try:
        import torch
        tg = {"torch": torch, "a": torch.ones(2, dtype=torch.int8), "b": torch.ones(2, dtype=torch.float32)}
        rows.append(("torch.result_type(int8 tensor, float32 tensor)", per_call("torch.result_type(a, b)", tg)))
        rows.append(("torch.promote_types(torch.int8, torch.float32)",
                     per_call("torch.promote_types(torch.int8, torch.float32)", tg)))
        rows.append(("p.result_type(int8 tensor, float32 tensor)  [torch objects]",
                     per_call("p.result_type(a, b)", {**tg, "p": promote.policy("torch")})))
    except ImportError:
        print("(torch is not installed: its rows are left out)")
    print("\n| call | ns per call |\n| --- | ---: |")
    for name, ns in rows:
        print(f"| `{name}` | {ns:.0f} |")

    n = a.elements
    threads = os.environ.get("RAYON_NUM_THREADS", f"all ({os.cpu_count()})")
    print(f"\n{n:,} elements, {a.runs} interleaved rounds, promote threads: {threads}; "
          "NumPy ufuncs are single-threaded")
    print("\n| eval | p.eval (Python) | same kernel from Rust | ratio p.eval/Rust: median (min-max) | NumPy ufunc |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for call in ["add int8 uint8", "add int32 float32", "add float16 float32", "divide int64 int64",
                 "less uint8 int8"]:
        op, da, db = call.split()
        rng = np.random.default_rng(0)
        x = (rng.integers(1, 100, n)).astype(da)
        y = (rng.integers(1, 100, n)).astype(db)
        py, rust, npy = interleaved(p, op, call, x, y, a.runs)
        ratios = sorted(t / r for t, r in zip(py, rust))
        med = statistics.median
        print(f"| `{call}` | {med(py) * 1e3:.2f} ms | {med(rust) * 1e3:.2f} ms | "
              f"{med(ratios):.2f} ({ratios[0]:.2f}-{ratios[-1]:.2f}) | {med(npy) * 1e3:.2f} ms |")


def interleaved(p, op, call, x, y, rounds):
    """Per-round seconds of p.eval, the Rust kernel and NumPy's ufunc on the same buffers."""
    ufunc = getattr(np, op)

    def py_eval():
        t = time.perf_counter()
        r = p.eval(op, x, y)
        t = time.perf_counter() - t
        del r
        return t

    def np_ufunc():
        t = time.perf_counter()
        r = ufunc(x, y)
        t = time.perf_counter() - t
        del r
        return t

    sides = [py_eval, lambda: _time_kernel("numpy", call, x, y), np_ufunc]
    for f in sides:  # warm-up: page faults of the first allocation, caches
        f()
    times = [[], [], []]
    for k in range(rounds):
        for j in range(3):
            i = (j + k) % 3
            times[i].append(sides[i]())
    return times


if __name__ == "__main__":
    main()
