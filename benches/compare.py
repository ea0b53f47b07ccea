"""promote, NumPy and PyTorch on the same buffers, in one process, in interleaved rounds.

    cargo build --release --manifest-path benches/ffi/Cargo.toml   # the C-ABI shim
    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \\
        /work/venvs/torch/bin/python benches/compare.py --elements 10000000 100000000 \\
        --rounds 11 --json benches/compare.json --markdown

promote is called through its library: `benches/ffi` is a small cdylib (a C ABI over
`kernel::exec::execute_into` / `execute` and the floor copies of `kernel::bench`), loaded
with ctypes. Its kernels read the NumPy arrays' memory and write into NumPy's output arrays;
the PyTorch tensors are `torch.from_numpy` views of the same arrays.

Per case and size, every round times each of these once, in an order rotated each round:

* NumPy (1 thread, as NumPy is): `np.op(a, b, out=c)` and allocating `np.op(a, b)`;
* PyTorch at 1 and at 2 threads: `torch.op(a, b, out=c)`, and allocating at 2 threads;
* promote under the `numpy` and the `torch` policy (each framework's own promotion) at 1 and at
  2 threads, into the same outputs; and allocating (`execute`, the drop included);
* the copy floor of the same traffic (half the bytes the `numpy`-policy kernel reads plus
  writes, copied): `np.copyto`, one glibc `memcpy`, `memcpy` in 64 KB pieces on 2 threads,
  and promote's streaming (non-temporal) copy on 1 and on 2 threads. The floor at N threads is
  the fastest median among the copies that use at most N threads.

Before each timing the script sleeps 20 ms (`--pause`): PyTorch's OpenMP threads and
promote's rayon threads spin for a while after their work, and on 2 cores a spinning
neighbour would be timed as part of the next contender.

Ratios are taken round by round (both sides timed in the same round) and reported as median
and [fastest, slowest] over the rounds. Where a framework's own times fall into two modes
(PyTorch's int8 paths), both modes are listed. Minor page faults (getrusage) are counted
around the allocating calls.
"""
from __future__ import annotations

import argparse
import ctypes
import gc
import datetime
import json
import os
import platform
import resource
import statistics
import sys
import time

import numpy as np

try:
    import torch
except ImportError:  # the PyTorch columns are optional
    torch = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LIB = os.path.join(ROOT, "target", "release", "libpromote_bench_ffi.so")

# the cases of `promote bench` (src/kernel/bench.rs)
CASES = [  # smallest traffic first
    "less uint8 int8",
    "add int8 uint8",
    "multiply int16 int16",
    "add float16 float32",
    "add int32 float32",
    "add float64 1.0",
    "divide int64 int64",
    "add complex64 float64",
]
NP_FN = {"add": np.add, "divide": np.true_divide, "less": np.less, "multiply": np.multiply}
TH_FN = {"add": "add", "divide": "div", "less": "lt", "multiply": "mul"}
COPY_MEMCPY, COPY_PIECES, COPY_STREAM = 0, 1, 2


def load_lib(path):
    lib = ctypes.CDLL(path)
    P, I, S = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
    lib.promote_prepare.restype = P
    lib.promote_prepare.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    lib.promote_free.argtypes = [P]
    lib.promote_result_itemsize.argtypes = [P]
    lib.promote_run_into.argtypes = [P, I, P, P, P, S]
    lib.promote_run_alloc.argtypes = [P, I, P, P, S]
    lib.promote_copy.argtypes = [I, I, P, P, S]
    lib.promote_read.argtypes = [I, P, S]
    lib.promote_simd_path.restype = ctypes.c_char_p
    return lib


def data(dtype, n, seed):
    rng = np.random.default_rng(seed)
    return rng.integers(1, 101, n, dtype=np.int64).astype(dtype)


def parse(call):
    op, a, b = call.split()
    return op, a, b


def operand(spec, n, seed):
    """A NumPy array for a dtype name, or the Python literal itself."""
    try:
        return data(np.dtype(spec), n, seed), True
    except TypeError:
        return (float(spec) if "." in spec else int(spec)), False


def checked(rc, what):
    if rc != 0:
        raise RuntimeError(f"{what}: promote returned {rc}")


class Case:
    """Buffers and timed callables of one case at one size."""

    def __init__(self, lib, call, n):
        self.call, self.n = call, n
        op, a, b = parse(call)
        self.x, x_arr = operand(a, n, 1)
        self.y, y_arr = operand(b, n, 2)
        f = NP_FN[op]
        self.np_out = f(self.x[:1] if x_arr else self.x, self.y[:1] if y_arr else self.y)
        self.np_out = np.empty(n, np.asarray(self.np_out).dtype)
        ptr = lambda v, is_arr: v.ctypes.data if is_arr else None
        px, py = ptr(self.x, x_arr), ptr(self.y, y_arr)
        self.handles = {}
        for policy in ("numpy", "torch"):
            h = lib.promote_prepare(policy.encode(), call.encode())
            if not h:
                raise RuntimeError(f"promote cannot prepare {call} under {policy}")
            self.handles[policy] = h
        t = {}
        t["numpy"] = lambda: f(self.x, self.y, out=self.np_out)
        t["numpy alloc"] = lambda: f(self.x, self.y)
        outs = {"numpy": self.np_out}
        if torch is not None:
            tx = torch.from_numpy(self.x) if x_arr else self.x
            ty = torch.from_numpy(self.y) if y_arr else self.y
            g = getattr(torch, TH_FN[op])
            th_dtype = g(tx[:1] if x_arr else tx, ty[:1] if y_arr else ty).dtype
            self.th_out = torch.empty(n, dtype=th_dtype)
            outs["torch"] = self.th_out.numpy()
            self.th_dtype = str(th_dtype).replace("torch.", "")

            def th(k, alloc=False):
                def run():
                    torch.set_num_threads(k)
                    return g(tx, ty) if alloc else g(tx, ty, out=self.th_out)
                return run
            t["torch@1"], t["torch@2"], t["torch alloc@2"] = th(1), th(2), th(2, True)
        for policy, out in outs.items():
            h = self.handles[policy]
            if lib.promote_result_itemsize(h) != out.itemsize:
                raise RuntimeError(f"{call}: promote's {policy} result is not {out.dtype}")
            for k in (1, 2):
                t[f"promote[{policy}]@{k}"] = (
                    lambda h=h, k=k, out=out: checked(lib.promote_run_into(h, k, px, py, out.ctypes.data, n), call))
        for k in (1, 2):
            h = self.handles["numpy"]
            t[f"promote alloc@{k}"] = lambda h=h, k=k: checked(lib.promote_run_alloc(h, k, px, py, n), call)
        # the floor: half the bytes the numpy-policy kernel moves
        moved = (self.x.nbytes if x_arr else 0) + (self.y.nbytes if y_arr else 0) + self.np_out.nbytes
        self.bytes = moved
        half = moved // 2
        self.src, self.dst = np.ones(half, np.uint8), np.zeros(half, np.uint8)
        s, d = self.src.ctypes.data, self.dst.ctypes.data
        cp = lambda kind, k: (lambda: checked(lib.promote_copy(kind, k, s, d, half), "copy"))
        t["np.copyto"] = lambda: np.copyto(self.dst, self.src)
        t["memcpy"] = cp(COPY_MEMCPY, 1)
        t["memcpy pieces@2"] = cp(COPY_PIECES, 2)
        t["stream copy@1"] = cp(COPY_STREAM, 1)
        t["stream copy@2"] = cp(COPY_STREAM, 2)
        # the read floor: the kernel's own inputs read and nothing written (`promote_read`), the
        # bound for a kernel that reads more bytes than it writes
        reads = [(v.ctypes.data, v.nbytes) for v, is_arr in ((self.x, x_arr), (self.y, y_arr)) if is_arr]
        for k in (1, 2):
            t[f"read inputs@{k}"] = lambda k=k: [checked(lib.promote_read(k, p, nb), "read") for p, nb in reads]
        self.timed = t
        self.lib = lib

    def check(self):
        """promote's numpy-policy output equals NumPy's, bit for bit (as the value tests say)."""
        self.timed["numpy"]()
        want = self.np_out.copy()
        self.timed["promote[numpy]@2"]()
        if not np.array_equal(want.view(np.uint8), self.np_out.view(np.uint8)):
            raise RuntimeError(f"{self.call}: promote and NumPy disagree")

    def close(self):
        """Free promote's handles and break the closures' reference cycle, so that the
        buffers go now and not at the next cyclic GC (at 100M elements they are gigabytes)."""
        for h in self.handles.values():
            self.lib.promote_free(h)
        self.handles, self.timed = {}, {}


FLOOR = {1: ["np.copyto", "memcpy", "stream copy@1"],
         2: ["np.copyto", "memcpy", "memcpy pieces@2", "stream copy@1", "stream copy@2"]}


def run_case(case, rounds, pause):
    names = list(case.timed)
    times = {k: [] for k in names}
    faults = {k: [] for k in names}
    for f in case.timed.values():  # warm up: page in, spin up pools
        f()
    for r in range(rounds):
        order = names[r % len(names):] + names[:r % len(names)]
        for k in order:
            time.sleep(pause)
            f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            t0 = time.perf_counter()
            res = case.timed[k]()
            dt = time.perf_counter() - t0
            del res
            faults[k].append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0)
            times[k].append(dt)
    return times, faults


def summary(v):
    return {"median": statistics.median(v), "min": min(v), "max": max(v)}


def modes(v):
    """Two modes if the sorted times have a gap of more than 1.5x: (fast, slow) medians."""
    s = sorted(v)
    gaps = [(s[i + 1] / s[i], i) for i in range(len(s) - 1) if s[i] > 0]
    if not gaps:
        return None
    g, i = max(gaps)
    if g < 1.5:
        return None
    return {"fast": statistics.median(s[:i + 1]), "fast_rounds": i + 1,
            "slow": statistics.median(s[i + 1:]), "slow_rounds": len(s) - i - 1}


def ratios(times, num, den):
    """Per-round num/den: how many times faster den is."""
    return summary([a / b for a, b in zip(times[num], times[den])])


def floor_ratio(times, kernel, threads):
    """Per round: the kernel over the floor, the floor being the copy with the smallest median."""
    best = min(FLOOR[threads], key=lambda k: statistics.median(times[k]))
    return ratios(times, kernel, best) | {"floor": best, "floor_s": statistics.median(times[best])}


def analyse(case, times, faults):
    row = {"case": case.call, "elements": case.n, "bytes": case.bytes,
           "numpy_dtype": str(case.np_out.dtype),
           "times": {k: summary(v) for k, v in times.items()},
           "faults": {k: statistics.median(v) for k, v in faults.items()}}
    r = {"vs numpy @1": ratios(times, "numpy", "promote[numpy]@1"),
         "vs numpy @2": ratios(times, "numpy", "promote[numpy]@2"),
         "x floor @1": floor_ratio(times, "promote[numpy]@1", 1),
         "x floor @2": floor_ratio(times, "promote[numpy]@2", 2),
         "x read floor @2": ratios(times, "promote[numpy]@2", "read inputs@2"),
         "read floor / copy floor @2": ratios(times, "read inputs@2", floor_ratio(times, "promote[numpy]@2", 2)["floor"]),
         "alloc vs numpy alloc @1": ratios(times, "numpy alloc", "promote alloc@1"),
         "alloc vs numpy alloc @2": ratios(times, "numpy alloc", "promote alloc@2")}
    if torch is not None:
        row["torch_dtype"] = case.th_dtype
        r["vs torch @1"] = ratios(times, "torch@1", "promote[torch]@1")
        r["vs torch @2"] = ratios(times, "torch@2", "promote[torch]@2")
        row["torch modes"] = {k: modes(times[k]) for k in ("torch@1", "torch@2")}
    row["ratios"] = r
    return row


def fmt(s, digits=2):
    return f"{s['median']:.{digits}f} [{s['min']:.{digits}f}–{s['max']:.{digits}f}]"


def print_tables(rows, markdown):
    cols = ["vs numpy @1", "vs numpy @2", "vs torch @1", "vs torch @2", "x floor @2",
            "alloc vs numpy alloc @2"]
    head = ["case", "n"] + cols + ["floor @2 (copy)"]
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print("  ".join(head))
    for row in rows:
        r = row["ratios"]
        f2 = r["x floor @2"]
        cells = [row["case"], f"{row['elements']:.0e}".replace("e+0", "e")]
        cells += [fmt(r[c]) if c in r else "-" for c in cols]
        cells.append(f"{f2['floor_s'] * 1e3:.1f} ms ({f2['floor']})")
        print(("| " + " | ".join(cells) + " |") if markdown else "  ".join(cells))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elements", "-n", type=int, nargs="+", default=[10_000_000, 100_000_000])
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--pause", type=float, default=0.02,
                    help="seconds of sleep before each timing, so that no framework's idle "
                         "threads (OpenMP's, rayon's) still spin on the 2 cores when the next starts")
    ap.add_argument("--only", help="only the cases whose call contains this text")
    ap.add_argument("--lib", default=LIB)
    ap.add_argument("--json", help="write every time and ratio here")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    if a.rounds < 10:
        print("note: fewer than 10 rounds", file=sys.stderr)
    if not os.path.exists(a.lib):
        sys.exit(f"{a.lib} not found: cargo build --release --manifest-path benches/ffi/Cargo.toml")
    lib = load_lib(a.lib)
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    env = {k: os.environ.get(k) for k in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "RAYON_NUM_THREADS")}
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cpu": cpu, "cores": os.cpu_count(), "numpy": np.__version__,
            "torch": torch.__version__ if torch else None,
            "torch_capability": torch.backends.cpu.get_cpu_capability() if torch else None,
            "promote_simd": lib.promote_simd_path().decode(), "rounds": a.rounds,
            "load_before": os.getloadavg(), "env": env}
    try:
        import threadpoolctl
        meta["threadpools"] = [{k: i.get(k) for k in ("internal_api", "architecture", "num_threads")}
                               for i in threadpoolctl.threadpool_info()]
    except ImportError:
        pass
    rows = []
    for n in a.elements:
        for call in CASES:
            if a.only and a.only not in call:
                continue
            case = Case(lib, call, n)
            case.check()
            load_before = os.getloadavg()
            times, faults = run_case(case, a.rounds, a.pause)
            rows.append(analyse(case, times, faults)
                        | {"raw": times, "load": [load_before, os.getloadavg()]})
            case.close()
            del case
            gc.collect()
            print(f"done {call} n={n} load={os.getloadavg()[0]:.1f}", file=sys.stderr)
            if a.json:  # after every case: a run cut short keeps what it measured
                meta["load_after"] = os.getloadavg()
                with open(a.json, "w") as f:
                    json.dump({"meta": meta, "rows": rows}, f, indent=1)
    meta["load_after"] = os.getloadavg()
    print(json.dumps({k: v for k, v in meta.items()}))
    print_tables(rows, a.markdown)


if __name__ == "__main__":
    main()
