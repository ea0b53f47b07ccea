"""Record the values of `astype` between every pair of a library's dtypes, classic and narrow.

    nice -n 19 /work/venvs/numpy/bin/python tools/oracle/record_astype_values.py numpy  # + ml_dtypes 0.6.0
    nice -n 19 /work/venvs/torch/bin/python tools/oracle/record_astype_values.py torch  # .to()

Sources: every dtype the library casts. A source of 8 bits or fewer (bool, int8, uint8, every
float8/6/4, int4/uint4/int2/uint2) takes **every bit pattern**; a wider one its edge values: ±0,
±1, halves and quarters around each integer edge (the limits of every integer dtype, ±1, ±0.5),
the largest finite value and ±inf, NaN (both signs, a payload), subnormals, the narrow formats'
largest values and overflow halfway points, 1e10 / 1e20 / 1e300, and for complex sources the
same values with imaginary parts 0, 1, NaN. Targets: every dtype. One cell per (source value,
target); a pair the library refuses is listed as refused. NumPy: `a.astype(T)`; torch:
`t.to(T)`.

Output: tests/fixtures/astype/LIB.bin.gz (replayed by tests/astype_values.rs):
one ASCII header line `astype-values 1 lib=.. version=..`, then per section a line
`section FROM n=N to=T1,T2,.. refused=R1,R2,..` followed by the N inputs (their stored bytes,
little-endian, the dtype's itemsize; narrow: one byte per element, complex32 two float16s) and,
per target T in order, the N results' stored bytes. A pair that crashes the worker is refused
with an `X` mark (`refused=T:X`): each pair runs in a subprocess with a timeout.
"""
from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fixtures", "astype")

CLASSIC = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
           "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
NARROW = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
          "float8_e4m3b11fnuz", "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float6_e2m3fn",
          "float6_e3m2fn", "float4_e2m1fn", "int2", "uint2", "int4", "uint4", "complex32"]
BITS = {"float6_e2m3fn": 6, "float6_e3m2fn": 6, "float4_e2m1fn": 4, "int2": 2, "uint2": 2,
        "int4": 4, "uint4": 4}
TORCH = CLASSIC + ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
                   "float8_e8m0fnu", "complex32"]


def edge_values():
    v = [0.0, 1.0, 0.5, 1.5, 2.5, 0.25, 0.75, 3.0, 7.0, 7.5, 8.5, 15.5, 100.0, 1e10, 1e20, 1e300,
         2.0**-24, 2.0**-14, 2.0**-126, 2.0**-149, 2.0**-1074, 2.0**-133, 65504.0, 65520.0,
         3.4028234663852886e38, 1.7976931348623157e308, 448.0, 464.0, 57344.0, 61440.0, 240.0,
         248.0, 30.0, 28.0, 6.0, 7.0, 0.1, 1.0 / 3]
    for e in [7, 8, 15, 16, 24, 31, 32, 53, 63, 64]:
        for d in [-1.0, -0.5, 0.0, 0.5, 1.0]:
            v.append(2.0**e + d)
    return v


def library(name):
    if name == "numpy":
        import ml_dtypes

        def dt(t):
            return np.dtype(getattr(ml_dtypes, t)) if t in NARROW or t == "bfloat16" else np.dtype(t)
        return dt, CLASSIC + NARROW, f"numpy=={np.__version__} ml_dtypes=={ml_dtypes.__version__}"
    import torch

    def dt(t):
        return getattr(torch, t)
    return dt, TORCH, f"torch=={torch.__version__}"


def itemsize(t):
    if t == "complex32":
        return 4
    if t in NARROW:
        return 1
    return np.dtype(t if t != "bfloat16" else "uint16").itemsize


def inputs(t):
    """The source values of `t` as a NumPy array of its stored bytes (viewable as t)."""
    if t == "bool":
        return np.array([0, 1], np.uint8)
    if t in ("int8", "uint8") or (t in NARROW and t != "complex32"):
        return np.arange(1 << BITS.get(t, 8), dtype=np.uint8)
    pos = np.array(edge_values(), np.float64)
    real = np.concatenate([pos, -pos, [np.inf, -np.inf, np.nan, -np.nan],
                           np.array([0x7FF4000000000001], np.uint64).view(np.float64)])
    if t.startswith("complex"):
        comp = {"complex32": np.float16, "complex64": np.float32, "complex128": np.float64}[t]
        with np.errstate(all="ignore"):
            re = real.astype(comp)
        parts = [np.stack([re, np.zeros_like(re)], 1), np.stack([re, np.ones_like(re)], 1),
                 np.stack([re, np.full_like(re, np.nan)], 1)]
        return np.ascontiguousarray(np.concatenate(parts)).ravel().view(np.uint8)
    with np.errstate(all="ignore"):
        if t == "bfloat16":  # the float32 bits rounded to the upper half (nearest even), NaN kept
            b = real.astype(np.float32).view(np.uint32).astype(np.uint64)
            r = ((b + 0x7FFF + ((b >> 16) & 1)) >> 16).astype(np.uint16)
            r = np.where(np.isnan(real), (b >> 16).astype(np.uint16) | 0x40, r)
            return r.astype(np.uint16).view(np.uint8)
        if t.startswith("float"):
            return real.astype(t).view(np.uint8)
        info = np.iinfo(t)
        ints = [x for x in (int(a) for a in pos if np.isfinite(a) and a == int(a))] + [
            info.min, info.min + 1, info.max, info.max - 1, -1, -2, -127, -128, -129, 255, 256]
        ints = sorted({i for i in ints if info.min <= i <= info.max} |
                      {-i for i in ints if info.min <= -i <= info.max})
        return np.array(ints, dtype=t).view(np.uint8)


def cast_pair(lib, src, dst, raw):
    """Cast the raw bytes of `src` to `dst` in this process; the result's bytes."""
    dt, _, _ = library(lib)
    if lib == "numpy":
        a = raw.view(dt(src)) if src != "complex32" else raw.view(dt(src))
        return np.ascontiguousarray(a.astype(dt(dst))).view(np.uint8)
    import torch
    t = torch.from_numpy(raw.copy()).view(dt(src))
    r = t.to(dt(dst)).contiguous()
    return r.view(torch.uint8).numpy()


def worker(lib):
    """Child: read `SRC DST HEX` lines, answer the hex of the result (or `!ERROR`)."""
    import warnings
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    library(lib)
    for line in sys.stdin:
        src, dst, hexed = line.split()
        try:
            out = cast_pair(lib, src, dst, np.frombuffer(bytes.fromhex(hexed), np.uint8))
            print(out.tobytes().hex(), flush=True)
        except Exception as e:  # noqa: BLE001 -- the library's refusal, recorded
            print("!" + type(e).__name__ + ":" + str(e).replace("\n", " ")[:150], flush=True)


class Child:
    def __init__(self, lib):
        self.lib, self.p = lib, None

    def ask(self, src, dst, raw, timeout=120):
        import select
        if self.p is None:
            self.p = subprocess.Popen([sys.executable, __file__, self.lib, "--worker"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            self.p.stdin.write(f"{src} {dst} {raw.tobytes().hex()}\n")
            self.p.stdin.flush()
            r, _, _ = select.select([self.p.stdout], [], [], timeout)
            line = self.p.stdout.readline() if r else ""
        except BrokenPipeError:
            line = ""
        if not line:
            self.p.kill()
            self.p.wait()
            self.p = None
            return None
        return line.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lib", choices=["numpy", "torch"])
    ap.add_argument("--worker", action="store_true")
    a = ap.parse_args()
    if a.worker:
        return worker(a.lib)
    _, names, version = library(a.lib)
    child = Child(a.lib)
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, f"{a.lib}.bin.gz")
    with gzip.GzipFile(path + ".tmp", "wb", compresslevel=9, mtime=0) as f:
        f.write(f"astype-values 1 lib={a.lib} version={version}\n".encode())
        for src in names:
            raw = inputs(src)
            n = len(raw) // itemsize(src)
            outs, to, refused = [], [], []
            for dst in names:
                ans = child.ask(src, dst, raw)
                if ans is None:
                    refused.append(f"{dst}:X")
                elif ans.startswith("!"):
                    refused.append(dst)
                    print(f"{src} -> {dst}: {ans}", file=sys.stderr)
                else:
                    out = bytes.fromhex(ans)
                    assert len(out) == n * itemsize(dst), (src, dst, len(out))
                    to.append(dst)
                    outs.append(out)
            f.write(f"section {src} n={n} to={','.join(to)} refused={','.join(refused)}\n".encode())
            f.write(raw.tobytes())
            for o in outs:
                f.write(o)
            print(f"{src}: {n} values x {len(to)} targets, refused {refused}", file=sys.stderr)
    os.replace(path + ".tmp", path)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main()
