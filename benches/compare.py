"""Time the `promote bench` cases in NumPy and PyTorch on this machine, next to `promote`
itself, in one run, and print the ratios.

    /work/venvs/torch/bin/python benches/compare.py [--elements N] [--runs R] [--promote PATH]

The interpreter needs numpy (2.4.6 for the recorded comparison) and, for the PyTorch columns,
torch; without torch those columns are left out. Per case, in this order, so that all three
see the same load on the machine: NumPy (`np.add(a, b, out=c)`, single-threaded as NumPy is),
PyTorch (`torch.add(a, b, out=c)`, its default number of threads), then `promote bench` for the
same case under the `numpy` and the `torch` policy (which also times a plain copy of the same
bytes: the bandwidth floor). Every framework computes in its own promotion: int32 + float32 is
float64 in NumPy and float32 in PyTorch, and `promote` is compared with each under that
framework's policy. Outputs are preallocated everywhere, so the times are the kernels'.
Inputs are the same kind of data as `promote bench` generates: integers 1..100 in each dtype.

Targets (issue 4): at least 1.5x NumPy, at least PyTorch, within 1.25x of the copy floor.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import subprocess
import sys
import time

import numpy as np

try:
    import torch
except ImportError:  # the PyTorch columns are optional
    torch = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# (promote call, numpy ufunc, torch function)
CASES = [
    ("add int8 uint8", "add"),
    ("add int32 float32", "add"),
    ("add float16 float32", "add"),
    ("add complex64 float64", "add"),
    ("divide int64 int64", "divide"),
    ("less uint8 int8", "less"),
]
TORCH_FN = {"add": "add", "divide": "div", "less": "lt"}


def median_time(f, runs):
    f()  # warm up
    ts = []
    for _ in range(runs):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    ts.sort()
    return ts[len(ts) // 2]


def data(dtype, n, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(1, 101, n).astype(dtype)


def time_numpy(call, n, runs):
    op, a, b = call.split()
    x, y = data(a, n, 1), data(b, n, 2)
    f = getattr(np, op)
    out = np.empty(n, f(x[:1], y[:1]).dtype)
    return median_time(lambda: f(x, y, out=out), runs), out.dtype.name


def time_torch(call, n, runs):
    op, a, b = call.split()
    x = torch.from_numpy(data(a, n, 1))
    y = torch.from_numpy(data(b, n, 2))
    f = getattr(torch, TORCH_FN[op])
    out = torch.empty(n, dtype=f(x[:1], y[:1]).dtype)
    return median_time(lambda: f(x, y, out=out), runs), str(out.dtype).replace("torch.", "")


def time_promote(exe, policy, call, n, runs):
    r = subprocess.run(
        [exe, "bench", "--policy", policy, "--elements", str(n), "--runs", str(runs), "--seconds", "0",
         "--only", call, "--json"],
        capture_output=True, text=True, check=True)
    for line in r.stdout.splitlines():
        row = json.loads(line)
        if row.get("case") == call:
            return row
    raise RuntimeError(f"promote bench gave no row for {call}: {r.stdout} {r.stderr}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elements", "-n", type=int, default=16 * 1024 * 1024)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--promote", default=os.path.join(ROOT, "target", "release", "promote"))
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    a = ap.parse_args()
    if not os.path.exists(a.promote):
        sys.exit(f"{a.promote} not found: run `cargo build --release` first")

    n = a.elements
    rows = []
    for call, _ in CASES:
        t_np, d_np = time_numpy(call, n, a.runs)
        t_th, d_th = (time_torch(call, n, a.runs) if torch is not None else (None, None))
        p_np = time_promote(a.promote, "numpy", call, n, a.runs)
        p_th = time_promote(a.promote, "torch", call, n, a.runs) if torch is not None else None
        rows.append((call, t_np, d_np, t_th, d_th, p_np, p_th))

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    head = (f"{datetime.date.today()}, {cpu}, {os.cpu_count()} cores, {n} elements, median of {a.runs} runs; "
            f"numpy {np.__version__}" + (f", torch {torch.__version__} ({torch.get_num_threads()} threads)" if torch else ""))
    print(head)
    if a.markdown:
        print()
        print("| case | NumPy s | promote (numpy) s | vs NumPy | PyTorch s | promote (torch) s | vs PyTorch | copy floor s | promote / copy |")
        print("|---|---|---|---|---|---|---|---|---|")
    else:
        print(f"{'case':24} {'numpy s':>9} {'ours s':>9} {'x numpy':>8} | {'torch s':>9} {'ours s':>9} {'x torch':>8} | {'copy s':>9} {'ours/copy':>9}")
    for call, t_np, d_np, t_th, d_th, p_np, p_th in rows:
        ours_np = p_np["seconds"]
        cells = [f"{call} ({d_np}{'' if d_th in (None, d_np) else ' / ' + d_th})", f"{t_np:.4f}", f"{ours_np:.4f}", f"{t_np / ours_np:.2f}x"]
        if p_th is not None:
            cells += [f"{t_th:.4f}", f"{p_th['seconds']:.4f}", f"{t_th / p_th['seconds']:.2f}x"]
        else:
            cells += ["-", "-", "-"]
        cells += [f"{p_np['copy_seconds']:.4f}", f"{ours_np / p_np['copy_seconds']:.2f}"]
        if a.markdown:
            print("| " + " | ".join(cells) + " |")
        else:
            print(f"{cells[0]:24} {cells[1]:>9} {cells[2]:>9} {cells[3]:>8} | {cells[4]:>9} {cells[5]:>9} {cells[6]:>8} | {cells[7]:>9} {cells[8]:>9}")
    print("\nx numpy / x torch: how many times faster promote is (target: >= 1.5x NumPy, >= 1x PyTorch); "
          "ours/copy: promote's time over a plain copy of the same bytes (target: <= 1.25)")


if __name__ == "__main__":
    main()
