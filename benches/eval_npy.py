"""`promote eval` on `.npy` files against the library call on the same data (issue 15, goal 5).

    cargo build --release                                    # the `promote` binary
    cargo build --release --manifest-path benches/ffi/Cargo.toml
    /work/venvs/torch/bin/python benches/eval_npy.py --elements 10000000 100000000 \\
        --rounds 11 --json benches/eval_npy.json

Per case and size the operands are saved once as `.npy` files (in `--dir`, default a
directory under the repository's `target/`) and read once, so that they sit in the page
cache. Every round then times, in an order rotated each round:

* `eval`: the command `promote eval --policy numpy OP a.npy b.npy -o c.npy`, as a child
  process (start-up, policy loading, the memory-mapped inputs, the kernel on the machine's
  2 threads, writing `c.npy` to the page cache); `c.npy` is deleted between rounds, untimed;
* `eval start-up`: the same command on two 0-d values (`int8(1) int8(2)`), what a call costs
  without data;
* `library`: `kernel::execute` (allocating) on 2 threads through `benches/ffi`, on the same
  data already in memory (`np.load`), the result dropped inside the timing;
* `library + np.save`: the library call into a preallocated NumPy array, then `np.save` of
  it to the same directory: what writing the result costs from Python.

Ratios are taken round by round and given as median [fastest–slowest]; the load average is
recorded before and after each case.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import compare  # noqa: E402  (the ffi loader and the cases' data)

PROMOTE = os.path.join(ROOT, "target", "release", "promote")
CASES = ["add int8 uint8", "add float16 float32", "add int32 float32", "add float64 1.0",
         "divide int64 int64", "add complex64 float64"]


class Case:
    def __init__(self, lib, call, n, folder):
        self.call, self.n = call, n
        op, a, b = compare.parse(call)
        self.op = op
        self.words, self.arrays = [], []
        for i, spec in enumerate((a, b)):
            v, is_arr = compare.operand(spec, n, i + 1)
            if is_arr:
                path = os.path.join(folder, f"{'ab'[i]}.npy")
                np.save(path, v)
                self.words.append(path)
                self.arrays.append(np.load(path))  # read once: in memory, and in the page cache
            else:
                self.words.append(spec)
                self.arrays.append(v)
        self.out = os.path.join(folder, "c.npy")
        h = lib.promote_prepare(b"numpy", call.encode())
        if not h:
            raise RuntimeError(f"promote cannot prepare {call}")
        self.handle, self.lib = h, lib
        ptr = lambda v: v.ctypes.data if isinstance(v, np.ndarray) else None
        px, py = ptr(self.arrays[0]), ptr(self.arrays[1])
        want = compare.NP_FN[op](*self.arrays)
        self.result = np.empty_like(want)
        self.want = want
        saved = os.path.join(folder, "s.npy")
        cmd = [PROMOTE, "eval", "--policy", "numpy", op, *self.words, "-o", self.out]
        tiny = [PROMOTE, "eval", "--policy", "numpy", op, "int8(1)", "int8(2)"]
        run = lambda c: subprocess.run(c, check=True, stdout=subprocess.DEVNULL)

        def library():
            compare.checked(lib.promote_run_alloc(h, 2, px, py, n), call)

        def library_save():
            compare.checked(lib.promote_run_into(h, 2, px, py, self.result.ctypes.data, n), call)
            np.save(saved, self.result)

        self.timed = {"eval": lambda: run(cmd), "eval start-up": lambda: run(tiny),
                      "library": library, "library + np.save": library_save}
        self.after = {"eval": lambda: os.unlink(self.out), "library + np.save": lambda: os.unlink(saved)}

    def check(self):
        """eval's file holds NumPy's result, bit for bit."""
        self.timed["eval"]()
        got = np.load(self.out)
        if got.dtype != self.want.dtype or not np.array_equal(got.view(np.uint8), self.want.view(np.uint8)):
            raise RuntimeError(f"{self.call}: promote eval and NumPy disagree")
        os.unlink(self.out)

    def close(self):
        self.lib.promote_free(self.handle)
        for w in self.words:
            if w.endswith(".npy"):
                os.unlink(w)


def run_case(case, rounds, pause):
    names = list(case.timed)
    times = {k: [] for k in names}
    for k in names:  # warm up
        case.timed[k]()
        case.after.get(k, lambda: None)()
    for r in range(rounds):
        for k in names[r % len(names):] + names[:r % len(names)]:
            time.sleep(pause)
            t0 = time.perf_counter()
            case.timed[k]()
            times[k].append(time.perf_counter() - t0)
            case.after.get(k, lambda: None)()
    return times


def summary(v):
    return {"median": statistics.median(v), "min": min(v), "max": max(v)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--elements", "-n", type=int, nargs="+", default=[10_000_000, 100_000_000])
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--pause", type=float, default=0.02)
    ap.add_argument("--only")
    ap.add_argument("--dir", default=os.path.join(ROOT, "target", "eval-npy-bench"))
    ap.add_argument("--json")
    a = ap.parse_args()
    for path in (PROMOTE, compare.LIB):
        if not os.path.exists(path):
            sys.exit(f"{path} not found: see the build commands at the top of this file")
    os.makedirs(a.dir, exist_ok=True)
    lib = compare.load_lib(compare.LIB)
    meta = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
            "cores": os.cpu_count(), "numpy": np.__version__, "rounds": a.rounds,
            "dir": a.dir, "promote_simd": lib.promote_simd_path().decode()}
    rows = []
    for n in a.elements:
        for call in CASES:
            if a.only and a.only not in call:
                continue
            case = Case(lib, call, n, a.dir)
            case.check()
            before = os.getloadavg()
            times = run_case(case, a.rounds, a.pause)
            case.close()
            ratio = lambda k: summary([x / y for x, y in zip(times[k], times["library"])])
            rows.append({"case": call, "elements": n, "load": [before, os.getloadavg()],
                         "times": {k: summary(v) for k, v in times.items()},
                         "eval / library": ratio("eval"),
                         "library + np.save / library": ratio("library + np.save"),
                         "raw": times})
            r = rows[-1]
            print(f"{call} n={n}: eval {r['times']['eval']['median'] * 1e3:.1f} ms, library "
                  f"{r['times']['library']['median'] * 1e3:.1f} ms, eval/library "
                  f"{r['eval / library']['median']:.2f} [{r['eval / library']['min']:.2f}–"
                  f"{r['eval / library']['max']:.2f}], load {before[0]:.1f}", file=sys.stderr)
            if a.json:
                with open(a.json, "w") as f:
                    json.dump({"meta": meta, "rows": rows}, f, indent=1)
    fmt = lambda s: f"{s['median']:.2f} [{s['min']:.2f}–{s['max']:.2f}]"
    print("| case | n | eval ms | start-up ms | library ms | library + np.save ms | eval / library "
          "| (library + np.save) / library | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        t = r["times"]
        ms = lambda k: f"{t[k]['median'] * 1e3:.1f}"
        print(f"| {r['case']} | {r['elements'] // 1_000_000}M | {ms('eval')} | {ms('eval start-up')} | "
              f"{ms('library')} | {ms('library + np.save')} | {fmt(r['eval / library'])} | "
              f"{fmt(r['library + np.save / library'])} | {r['load'][0][0]:.1f}–{r['load'][1][0]:.1f} |")


if __name__ == "__main__":
    main()
