"""float32 -> float8_e4m3fn and back: promote vs ml_dtypes (NumPy astype) vs PyTorch .to(), in
one process, on the same buffers, in interleaved rounds (the method of benches/compare.py).

    (cd benches/ffi && cargo build --release)      # the C-ABI shim, with promote_narrow_*
    /work/venvs/torch/bin/python benches/compare_narrow.py --elements 10000000 --rounds 11 \\
        --json benches/compare_narrow.json

ml_dtypes 0.6.0 is imported from the JAX venv (`--ml-dtypes-site`, appended to sys.path: the
torch venv has the same NumPy 2.4.6). Buffers: x (float32, uniform in [-500, 500): in range
and beyond e4m3fn's 448), codes (uint8, viewed as ml_dtypes.float8_e4m3fn by NumPy and as
torch.float8_e4m3fn by PyTorch), back (float32). Per round, each contender runs once, in an
order rotated each round, after a 20 ms pause:

* encode: `np.copyto(codes_f8, x, casting="unsafe")` (ml_dtypes' cast into the buffer) and
  allocating `x.astype(float8_e4m3fn)`; `t_codes.copy_(tx)` at 1 and 2 threads and allocating
  `tx.to(torch.float8_e4m3fn)`; promote with ml_dtypes' and PyTorch's semantics at 1 and 2
  threads (`promote_narrow_run`);
* decode: the same, the other way;
* the copy floor: a copy of the same traffic (5 bytes an element, halved: a copy reads and
  writes each byte) by np.copyto, one memcpy, memcpy in 64 KB pieces on 2 threads, and
  promote's streaming copy on 1 and 2 threads; the floor at N threads is the fastest median
  among the copies using at most N threads.

Before timing, promote's codes are checked equal to ml_dtypes' and to PyTorch's (each with its
own semantics), and promote's decode equal to both, bit for bit.
"""
from __future__ import annotations

import argparse
import ctypes
import datetime
import json
import os
import platform
import statistics
import sys
import time

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
LIBS = [os.path.join(HERE, "ffi", "target", "release", "libpromote_bench_ffi.so"),
        os.path.join(os.path.dirname(HERE), "target", "release", "libpromote_bench_ffi.so")]
FLOOR = {1: ["np.copyto", "memcpy", "stream copy@1"],
         2: ["np.copyto", "memcpy", "memcpy pieces@2", "stream copy@1", "stream copy@2"]}


def load(path):
    lib = ctypes.CDLL(path)
    P, I, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
    lib.promote_narrow_codec.restype = P
    lib.promote_narrow_codec.argtypes = [ctypes.c_char_p, I]
    lib.promote_narrow_free.argtypes = [P]
    lib.promote_narrow_run.argtypes = [P, I, I, P, P, S]
    lib.promote_copy.argtypes = [I, I, P, P, S]
    lib.promote_read.argtypes = [I, P, S]
    lib.promote_simd_path.restype = ctypes.c_char_p
    return lib


def ok(rc):
    if rc != 0:
        raise RuntimeError(f"promote returned {rc}")


def contenders(lib, ml, n):
    rng = np.random.default_rng(7)
    x = (rng.random(n, dtype=np.float64) * 1000 - 500).astype(np.float32)
    codes, back = np.zeros(n, np.uint8), np.zeros(n, np.float32)
    codes_f8 = codes.view(ml.float8_e4m3fn)
    tx, tcodes, tback = torch.from_numpy(x), torch.from_numpy(codes).view(torch.float8_e4m3fn), torch.from_numpy(back)
    codec = {k: lib.promote_narrow_codec(b"float8_e4m3fn", i) for i, k in enumerate(["ml_dtypes", "torch"])}
    px, pc, pb = x.ctypes.data, codes.ctypes.data, back.ctypes.data

    def th(k, f):
        def run():
            torch.set_num_threads(k)
            return f()
        return run

    # correctness on the same buffers first
    want_ml = x.astype(ml.float8_e4m3fn).view(np.uint8).copy()
    want_th = tx.to(torch.float8_e4m3fn).view(torch.uint8).numpy().copy()
    for sem, want in [("ml_dtypes", want_ml), ("torch", want_th)]:
        ok(lib.promote_narrow_run(codec[sem], 2, 0, px, pc, n))
        if not np.array_equal(codes, want):
            raise RuntimeError(f"promote[{sem}] encode differs from {sem}")
        ok(lib.promote_narrow_run(codec[sem], 2, 1, pb, pc, n))
        ref = codes.view(ml.float8_e4m3fn).astype(np.float32) if sem == "ml_dtypes" else tcodes.to(torch.float32).numpy()
        if not np.array_equal(back.view(np.uint32), ref.view(np.uint32)):
            raise RuntimeError(f"promote[{sem}] decode differs from {sem}")

    enc = {
        "ml_dtypes": lambda: np.copyto(codes_f8, x, casting="unsafe"),
        "ml_dtypes alloc": lambda: x.astype(ml.float8_e4m3fn),
        "torch@1": th(1, lambda: tcodes.copy_(tx)),
        "torch@2": th(2, lambda: tcodes.copy_(tx)),
        "torch alloc@2": th(2, lambda: tx.to(torch.float8_e4m3fn)),
    }
    dec = {
        "ml_dtypes": lambda: np.copyto(back, codes_f8, casting="unsafe"),
        "ml_dtypes alloc": lambda: codes_f8.astype(np.float32),
        "torch@1": th(1, lambda: tback.copy_(tcodes)),
        "torch@2": th(2, lambda: tback.copy_(tcodes)),
        "torch alloc@2": th(2, lambda: tcodes.to(torch.float32)),
    }
    for sem in codec:
        for k in (1, 2):
            enc[f"promote[{sem}]@{k}"] = lambda h=codec[sem], k=k: ok(lib.promote_narrow_run(h, k, 0, px, pc, n))
            dec[f"promote[{sem}]@{k}"] = lambda h=codec[sem], k=k: ok(lib.promote_narrow_run(h, k, 1, pb, pc, n))
    half = 5 * n // 2
    src, dst = np.ones(half, np.uint8), np.zeros(half, np.uint8)
    s, d = src.ctypes.data, dst.ctypes.data
    floor = {
        "np.copyto": lambda: np.copyto(dst, src),
        "memcpy": lambda: ok(lib.promote_copy(0, 1, s, d, half)),
        "memcpy pieces@2": lambda: ok(lib.promote_copy(1, 2, s, d, half)),
        "stream copy@1": lambda: ok(lib.promote_copy(2, 1, s, d, half)),
        "stream copy@2": lambda: ok(lib.promote_copy(2, 2, s, d, half)),
        # not a floor of FLOOR: the encode's float32 input read alone (4 bytes an element, more
        # than the copy of the same traffic reads), the bound of a read-bandwidth-bound encode
        "read f32@1": lambda: ok(lib.promote_read(1, px, x.nbytes)),
        "read f32@2": lambda: ok(lib.promote_read(2, px, x.nbytes)),
    }
    keep = (x, codes, back, src, dst, codec)
    return enc, dec, floor, keep


def rounds(timed, n_rounds, pause):
    names = list(timed)
    times = {k: [] for k in names}
    for f in timed.values():
        f()
    for r in range(n_rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for k in order:
            time.sleep(pause)
            t0 = time.perf_counter()
            timed[k]()
            times[k].append(time.perf_counter() - t0)
    return times


def summary(times, floor_times):
    med = {k: statistics.median(v) for k, v in times.items()}
    floors = {}
    for k in (1, 2):
        best = min(FLOOR[k], key=lambda c: statistics.median(floor_times[c]))
        floors[k] = best
    rows = {}
    for name, ts in times.items():
        k = 2 if name.endswith("@2") else 1
        f = floor_times[floors[k]]
        ratio = [a / b for a, b in zip(ts, f)]
        rows[name] = {
            "median_ms": med[name] * 1e3, "min_ms": min(ts) * 1e3, "max_ms": max(ts) * 1e3,
            "threads": k, "floor": floors[k],
            "x_floor": statistics.median(ratio), "x_floor_range": [min(ratio), max(ratio)],
        }
    for name, row in rows.items():  # promote vs each framework at the same thread count, round by round
        if not name.startswith("promote["):
            continue
        sem, k = name[len("promote["):].split("]@")
        other = "ml_dtypes" if sem == "ml_dtypes" else f"torch@{k}"
        if other in times:
            r = [b / a for a, b in zip(times[name], times[other])]
            row[f"speedup_vs_{other}"] = [statistics.median(r), min(r), max(r)]
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--elements", type=int, default=10_000_000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--pause", type=float, default=0.02)
    ap.add_argument("--json")
    ap.add_argument("--ml-dtypes-site", default="/work/venvs/jax/lib/python3.11/site-packages")
    args = ap.parse_args()
    sys.path.append(args.ml_dtypes_site)
    import ml_dtypes as ml
    path = next((p for p in LIBS if os.path.exists(p)), None)
    if path is None:
        sys.exit("build the shim first: (cd benches/ffi && cargo build --release)")
    lib = load(path)
    load_before = os.getloadavg()
    enc, dec, floor, keep = contenders(lib, ml, args.elements)
    result = {"run": {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "elements": args.elements, "rounds": args.rounds, "cpu": platform.processor() or platform.machine(),
        "cores": os.cpu_count(), "numpy": np.__version__, "ml_dtypes": ml.__version__, "torch": torch.__version__,
        "simd": lib.promote_simd_path().decode(), "loadavg_before": load_before,
    }}
    floor_times = rounds(floor, args.rounds, args.pause)
    for what, timed in [("encode f32->float8_e4m3fn", enc), ("decode float8_e4m3fn->f32", dec)]:
        times = rounds({**timed, **floor}, args.rounds, args.pause)
        result[what] = summary({k: times[k] for k in timed}, {k: times[k] for k in floor})
        result[what]["floor ms"] = {k: statistics.median(times[k]) * 1e3 for k in floor}
    result["run"]["loadavg_after"] = os.getloadavg()
    del keep
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=1)
    print(json.dumps(result["run"]))
    for what in ("encode f32->float8_e4m3fn", "decode float8_e4m3fn->f32"):
        print(f"\n### {what}, {args.elements:,} elements\n")
        print("| contender | threads | median ms [min–max] | × copy floor (median [range]) | promote's speed-up vs the framework |")
        print("|---|---|---|---|---|")
        for name, row in result[what].items():
            if name == "floor ms":
                continue
            sp = next((f"{v[0]:.2f}× [{v[1]:.2f}–{v[2]:.2f}] vs {k[11:]}" for k, v in row.items() if k.startswith("speedup_vs_")), "")
            print(f"| {name} | {row['threads']} | {row['median_ms']:.2f} [{row['min_ms']:.2f}–{row['max_ms']:.2f}] "
                  f"| {row['x_floor']:.2f} [{row['x_floor_range'][0]:.2f}–{row['x_floor_range'][1]:.2f}] ({row['floor']}) | {sp} |")
        fl = result[what]["floor ms"]
        print("\ncopy floor medians (ms): " + ", ".join(f"{k} {v:.2f}" for k, v in fl.items()))


if __name__ == "__main__":
    main()
