"""Issue 12's unary ops and reductions: promote, NumPy and PyTorch on the same buffers, in one
process, in interleaved rounds (the method of compare.py, whose helpers this reuses).

    cargo build --release --manifest-path benches/ffi/Cargo.toml
    /work/venvs/torch/bin/python benches/compare_ops.py --elements 10000000 --rounds 11 \\
        --json benches/compare_ops.json --markdown

Each case is one call as each framework spells it, resolved by each policy (`sqrt int8` is
float32 in PyTorch and float16 in NumPy; PyTorch refuses `mean` of int32). Per round, each
once, in an order rotated each round: NumPy; PyTorch at 1 and 2 threads; promote under the
`numpy` and the `torch` policy at 1 and 2 threads (into preallocated outputs); and the floor:
for an elementwise op the copies of compare.py (half the bytes the numpy-policy kernel reads
plus writes), for a reduction a read of its operand's bytes (`promote_read`, 1 and 2 threads).
Before timing, promote's outputs are checked bit for bit against NumPy's and against
PyTorch's at 1 thread (`check` in the JSON).
"""
from __future__ import annotations

import argparse
import ctypes
import datetime
import gc
import json
import os
import statistics
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare  # noqa: E402
from compare import checked, load_lib, run_case, summary  # noqa: E402

torch = compare.torch

# call -> (numpy function, torch function or None, reduction?)
CASES = {
    "sqrt int8": (np.sqrt, "sqrt", False),
    "exp float16": (np.exp, "exp", False),
    "mean int32": (np.mean, None, True),
    "sum float32": (np.sum, "sum", True),
    "cumsum float32": (np.cumsum, "cumsum", False),
}


def data(dtype, n):
    rng = np.random.default_rng(1)
    if np.dtype(dtype).kind == "f":
        return rng.uniform(-4, 4, n).astype(dtype)
    return rng.integers(1, 101, n, dtype=np.int64).astype(dtype)


class Case:
    def __init__(self, lib, call, n):
        self.call, self.n, self.lib = call, n, lib
        op, dt = call.split()
        f, tf, self.reduction = CASES[call]
        self.x = data(dt, n)
        px = self.x.ctypes.data
        t, self.outs, self.handles, self.check_result = {}, {}, {}, {}
        np_result = np.asarray(f(self.x[:2]))
        t["numpy"] = (lambda: f(self.x)) if self.reduction else (lambda: f(self.x, out=self.np_out))
        self.np_out = np.empty(1 if self.reduction else n, np_result.dtype)
        self.th = None
        if torch is not None and tf is not None:
            tx = torch.from_numpy(self.x)
            g = getattr(torch, tf)
            call_th = (lambda: g(tx, 0)) if op == "cumsum" else (lambda: g(tx))
            self.th = call_th

            def th(k):
                def run():
                    torch.set_num_threads(k)
                    return call_th()
                return run
            t["torch@1"], t["torch@2"] = th(1), th(2)
        for policy in ("numpy", "torch"):
            h = lib.promote_prepare(policy.encode(), call.encode())
            if not h:
                continue  # the policy refuses the call (PyTorch's mean of int32)
            self.handles[policy] = h
            size = lib.promote_result_itemsize(h)
            dtype = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[size]
            out = np.zeros(1 if self.reduction else n, dtype)
            self.outs[policy] = out
            for k in (1, 2):
                t[f"promote[{policy}]@{k}"] = (
                    lambda h=h, k=k, out=out: checked(lib.promote_run_into(h, k, px, None, out.ctypes.data, n), call))
        self.bytes = self.x.nbytes + self.np_out.nbytes
        if self.reduction:
            src = self.x.view(np.uint8)
            for k in (1, 2):
                t[f"read@{k}"] = lambda k=k: checked(lib.promote_read(k, src.ctypes.data, src.nbytes), "read")
        else:
            half = self.bytes // 2
            self.src, self.dst = np.ones(half, np.uint8), np.zeros(half, np.uint8)
            s, d = self.src.ctypes.data, self.dst.ctypes.data
            cp = lambda kind, k: (lambda: checked(lib.promote_copy(kind, k, s, d, half), "copy"))
            t["np.copyto"] = lambda: np.copyto(self.dst, self.src)
            t["memcpy"] = cp(compare.COPY_MEMCPY, 1)
            t["memcpy pieces@2"] = cp(compare.COPY_PIECES, 2)
            t["stream copy@2"] = cp(compare.COPY_STREAM, 2)
        self.timed = t

    def check(self):
        """promote's bits against NumPy's (numpy policy) and PyTorch's at 1 thread (torch)."""
        want = {"numpy": np.asarray(self.timed["numpy"]() if self.reduction else
                                    (self.timed["numpy"](), self.np_out)[1]).reshape(-1)}
        if self.th is not None:
            torch.set_num_threads(1)
            want["torch"] = self.th().numpy().reshape(-1)
        for policy, out in self.outs.items():
            if policy not in want:
                continue
            self.timed[f"promote[{policy}]@2"]()
            w = want[policy]
            # Bits, not values: a NaN (sqrt of a negative int8, exp of a NaN) is equal to itself.
            same = w.dtype.itemsize == out.itemsize and np.array_equal(
                np.ascontiguousarray(w).view(np.uint8), np.ascontiguousarray(out).view(np.uint8))
            self.check_result[policy] = {"dtype": str(w.dtype), "bit_exact": bool(same)}

    def close(self):
        for h in self.handles.values():
            self.lib.promote_free(h)
        self.handles, self.timed = {}, {}


def ratios(times, num, den):
    if num not in times or den not in times:
        return None
    return summary([a / b for a, b in zip(times[num], times[den])])


def floor_name(case, times, threads):
    names = ["read@1", "read@2"] if case.reduction else \
        ["np.copyto", "memcpy", "memcpy pieces@2", "stream copy@2"]
    names = [k for k in names if k in times and (threads == 2 or "@2" not in k)]
    return min(names, key=lambda k: statistics.median(times[k]))


def analyse(case, times):
    row = {"case": case.call, "elements": case.n, "bytes": case.bytes,
           "check": case.check_result, "times": {k: summary(v) for k, v in times.items()}}
    r = {}
    for k in (1, 2):
        r[f"vs numpy @{k}"] = ratios(times, "numpy", f"promote[numpy]@{k}")
        r[f"vs torch @{k}"] = ratios(times, f"torch@{k}", f"promote[torch]@{k}")
        fl = floor_name(case, times, k)
        best = "promote[numpy]" if "promote[numpy]@1" in times else "promote[torch]"
        r[f"x floor @{k}"] = ratios(times, f"{best}@{k}", fl) | {"floor": fl}
    row["ratios"] = r
    return row


def cell(s):
    return "-" if s is None else f"{s['median']:.2f} [{s['min']:.2f}–{s['max']:.2f}]"


def print_table(rows, markdown):
    cols = ["vs numpy @1", "vs numpy @2", "vs torch @1", "vs torch @2", "x floor @1", "x floor @2"]
    head = ["case", "n", "ms promote[numpy]@2", "ms numpy", "ms torch@2"] + cols + ["bit-exact"]
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    for row in rows:
        t = row["times"]
        ms = lambda k: f"{t[k]['median'] * 1e3:.2f}" if k in t else "-"
        cells = [row["case"], f"{row['elements']:.0e}", ms("promote[numpy]@2"), ms("numpy"), ms("torch@2")]
        cells += [cell(row["ratios"][c]) + (f" ({row['ratios'][c]['floor']})" if "floor" in c else "")
                  for c in cols]
        cells.append(", ".join(f"{p}: {v['bit_exact']}" for p, v in row["check"].items()))
        print(("| " + " | ".join(cells) + " |") if markdown else "  ".join(cells))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elements", "-n", type=int, nargs="+", default=[10_000_000])
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--pause", type=float, default=0.02)
    ap.add_argument("--only")
    ap.add_argument("--lib", default=compare.LIB)
    ap.add_argument("--json")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    lib = load_lib(a.lib)
    lib.promote_read.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t]
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cores": os.cpu_count(), "numpy": np.__version__,
            "torch": torch.__version__ if torch else None, "rounds": a.rounds,
            "load_before": os.getloadavg()}
    rows = []
    for n in a.elements:
        for call in CASES:
            if a.only and a.only not in call:
                continue
            case = Case(lib, call, n)
            case.check()
            times, _ = run_case(case, a.rounds, a.pause)
            rows.append(analyse(case, times) | {"raw": times})
            case.close()
            del case
            gc.collect()
            print(f"done {call} n={n} load={os.getloadavg()[0]:.1f}", file=sys.stderr)
    meta["load_after"] = os.getloadavg()
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"meta": meta, "rows": rows}, f, indent=1)
    print(json.dumps(meta))
    print_table(rows, a.markdown)


if __name__ == "__main__":
    main()
