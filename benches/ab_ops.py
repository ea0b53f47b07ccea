"""A/B of two builds of the benches/ffi shim in one process: compare_ops.py's cases, each build's
promote under both policies at 1 and 2 threads, with NumPy, PyTorch and the floors, in the same
interleaved rounds (compare.py's `run_case`). For kernel changes: build the shim before
(copy its .so aside) and after, then

    /work/venvs/torch/bin/python benches/ab_ops.py --a /tmp/before.so \\
        --b benches/ffi/target/release/libpromote_bench_ffi.so --only sum --rounds 15

prints, per case, the median [fastest–slowest] of each contender in ms and the per-round
ratios A/B (above 1: B is faster), B against NumPy, PyTorch and the floor. Both builds' outputs
are checked bit for bit against NumPy's and PyTorch's before timing.
"""
from __future__ import annotations

import argparse
import ctypes
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
import compare_ops  # noqa: E402
from compare import load_lib, run_case, summary  # noqa: E402


def cell(v):
    return f"{v['median']:.3f} [{v['min']:.3f}–{v['max']:.3f}]"


def per_round(times, num, den):
    if num not in times or den not in times:
        return None
    return summary([a / b for a, b in zip(times[num], times[den])])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--elements", "-n", type=int, default=10_000_000)
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--pause", type=float, default=0.02)
    ap.add_argument("--only")
    a = ap.parse_args()
    libs = {}
    for name, path in (("A", a.a), ("B", a.b)):
        lib = load_lib(path)
        lib.promote_read.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
        libs[name] = lib
    print(f"load before {os.getloadavg()[0]:.1f}")
    for call in compare_ops.CASES:
        if a.only and a.only not in call:
            continue
        cases = {k: compare_ops.Case(lib, call, a.elements) for k, lib in libs.items()}
        for c in cases.values():
            c.check()
        # one timed set: A's and B's promote entries, the rest (frameworks, floors) from A's case
        timed = dict(cases["A"].timed)
        for k, f in list(timed.items()):
            if k.startswith("promote["):
                timed[k.replace("promote[", "A[")] = timed.pop(k)
        for k, f in cases["B"].timed.items():
            if k.startswith("promote["):
                timed[k.replace("promote[", "B[")] = f
        cases["A"].timed = timed
        times, _ = run_case(cases["A"], a.rounds, a.pause)
        print(f"\n{call}  (load {os.getloadavg()[0]:.1f}; bit-exact A {cases['A'].check_result}, "
              f"B {cases['B'].check_result})")
        for k in sorted(times):
            print(f"  {k:18s} {cell({m: v * 1e3 for m, v in summary(times[k]).items()})} ms")
        floors = [k for k in times if k.startswith(("read", "np.copyto", "memcpy", "stream"))]
        for policy in ("numpy", "torch"):
            for t in (1, 2):
                b = f"B[{policy}]@{t}"
                if b not in times:
                    continue
                fw = "numpy" if policy == "numpy" else f"torch@{t}"
                fl = min((f for f in floors if t == 2 or "@2" not in f),
                         key=lambda f: statistics.median(times[f]))
                parts = [f"A/B {cell(per_round(times, f'A[{policy}]@{t}', b))}"]
                if fw in times:
                    parts.append(f"{fw}/B {cell(per_round(times, fw, b))}")
                parts.append(f"B/{fl} {cell(per_round(times, b, fl))}")
                print(f"  {b:18s} " + "  ".join(parts))
        for c in cases.values():
            c.close()


if __name__ == "__main__":
    main()
