"""Record the casts of the narrow dtypes (float8/6/4, int4/2) from the real libraries.

    /work/venvs/jax/bin/python   tools/oracle/record_narrow_casts.py ml_dtypes   # ml_dtypes 0.6.0
    /work/venvs/torch/bin/python tools/oracle/record_narrow_casts.py torch       # torch 2.15.0

Writes, under tests/fixtures/narrow/ (replayed bit for bit by tests/narrow_casts.rs):

* `LIB-decode.txt.gz` -- every bit pattern of every narrow type the library has, decoded to
  float32 and to float64 (one line per cell: `TYPE PATTERN F32BITS F64BITS`, hex). Types the
  library cannot cast are listed as `# no-cast TYPE: ERROR`.
* `LIB-from-f32.bin.gz`, `LIB-from-f64.bin.gz` -- float32 / float64 inputs cast to each type.
  One ASCII header line (`narrow-casts 1 lib=.. source=float32 n=N columns=a,b,..`), then the
  N inputs (little-endian bits), then one byte per input for each column (the stored byte:
  ml_dtypes keeps one element per byte, the value in the low bits). In the float64 file the
  columns `exact:TYPE` are the correctly rounded answers (exact rational arithmetic in this
  script, no library): both libraries round float64 through float32 (double rounding), which
  these columns expose.

Inputs, the same for every type of a file (the union over the types):
* float32: every representable value of every type and its float32 neighbours (+-1 ulp); every
  halfway point between neighbours (and between the largest value and the next one the
  format would have, the overflow edge; and between 0 and the smallest subnormal) and its
  float32 neighbours; both signs; +-0, +-inf, NaN payloads of both signs, float32 subnormals,
  the integer edges (+-2**31 and friends, -20..20 in quarter steps); then a dense pseudo-random
  sample (seeded): 2**16 patterns with exponents in [2**-30, 2**20] and 2**14 arbitrary ones.
* float64: every value of every float type +-1 ulp, every halfway point h and h*(1 +- 2**-k)
  for k in 20..30, 40, 52 (the values that float32 rounds onto h: the double-rounding traps),
  values outside float32's range, NaN payloads, integer edges, and 2**13 random patterns.
"""
from __future__ import annotations

import argparse
import datetime
import gzip
import math
import os
import platform
import struct
import sys
from fractions import Fraction

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "tests", "fixtures", "narrow")

FLOATS = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
          "float8_e4m3b11fnuz", "float8_e3m4", "float8_e4m3", "float8_e8m0fnu",
          "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn"]
INTS = ["int2", "uint2", "int4", "uint4"]
BITS = {"float6_e2m3fn": 6, "float6_e3m2fn": 6, "float4_e2m1fn": 4,
        "int2": 2, "uint2": 2, "int4": 4, "uint4": 4}
MANTISSA = {"float8_e4m3fn": 3, "float8_e5m2": 2, "float8_e4m3fnuz": 3, "float8_e5m2fnuz": 2,
            "float8_e4m3b11fnuz": 3, "float8_e3m4": 4, "float8_e4m3": 3, "float8_e8m0fnu": 0,
            "float6_e2m3fn": 3, "float6_e3m2fn": 2, "float4_e2m1fn": 1}


class Lib:
    """The two operations recorded, through one library."""

    def __init__(self, name):
        self.name = name
        if name == "ml_dtypes":
            import ml_dtypes
            self.mod = ml_dtypes
            self.version = f"ml_dtypes=={ml_dtypes.__version__} numpy=={np.__version__}"
        else:
            import torch
            self.mod = torch
            self.version = f"torch=={torch.__version__}"

    def dtype(self, t):
        return getattr(self.mod, t, None)

    def decode(self, t, patterns):
        """uint8 patterns -> (float32 array, float64 array)."""
        if self.name == "ml_dtypes":
            a = patterns.astype(np.uint8).view(self.dtype(t))
            return a.astype(np.float32), a.astype(np.float64)
        torch = self.mod
        a = torch.from_numpy(patterns.astype(np.uint8)).view(self.dtype(t))
        return a.to(torch.float32).numpy(), a.to(torch.float64).numpy()

    def encode(self, t, x):
        """float array -> the stored bytes (uint8)."""
        if self.name == "ml_dtypes":
            return x.astype(self.dtype(t)).view(np.uint8)
        torch = self.mod
        return torch.from_numpy(x).to(self.dtype(t)).view(torch.uint8).numpy()

    def castable(self, t):
        """None when the library casts float32 to `t`, else its error."""
        if self.dtype(t) is None:
            return "the library has no such dtype"
        try:
            self.encode(t, np.ones(2, np.float32))
            self.decode(t, np.zeros(2, np.uint8))
            return None
        except Exception as e:  # noqa: BLE001 -- recorded, not handled
            return f"{type(e).__name__}: {str(e).splitlines()[0][:120]}"


def f32_bits(x):
    return np.asarray(x, np.float32).view(np.uint32)


def f32_neighbours(x):
    x = np.asarray(x, np.float32)
    return np.concatenate([x, np.nextafter(x, np.float32(np.inf)), np.nextafter(x, np.float32(-np.inf))])


def f64_neighbours(x):
    x = np.asarray(x, np.float64)
    return np.concatenate([x, np.nextafter(x, np.inf), np.nextafter(x, -np.inf)])


def grid(lib, t):
    """The finite non-negative values of a float type, sorted, with the next value the format
    would have above its largest (the overflow edge), and the codes of the values (the edge's
    code is one more than the largest's)."""
    n = 1 << BITS.get(t, 8)
    codes = np.arange(n, dtype=np.uint8)
    _, v = lib.decode(t, codes)
    keep = np.isfinite(v) & (v >= 0) & ~((v == 0) & np.signbit(v))
    v, codes = v[keep], codes[keep].astype(np.int64)
    order = np.argsort(v, kind="stable")
    v, codes = v[order], codes[order]
    top = v[-1]
    ulp = 2.0 ** (math.frexp(top)[1] - 1 - MANTISSA[t])
    return v, top + ulp, np.append(codes, codes[-1] + 1)


def float32_inputs(lib, types):
    parts = []
    for t in types:
        if t in INTS:
            continue
        v, edge, _ = grid(lib, t)
        ext = np.append(v, edge)
        mid = (ext[:-1] + ext[1:]) / 2
        parts += [f32_neighbours(ext), f32_neighbours(mid.astype(np.float32))]
    q = np.arange(-80, 81) / 4
    ints = [2.0**31, 2.0**31 - 128, 2.0**32, 3e9, 1e10, 2.0**63, 2.0**64, 1e20, 127.5, 128, 255.5, 256]
    parts += [f32_neighbours(q), f32_neighbours(ints)]
    specials = np.array([0x0, 0x1, 0x2, 0x3, 0x3FFFFF, 0x400000, 0x400001, 0x5FFFFF, 0x600000,
                         0x7FFFFF, 0x800000, 0x7F7FFFFF, 0x7F800000, 0x7F800001, 0x7FA00000,
                         0x7FBFFFFF, 0x7FC00000, 0x7FC00001, 0x7FFFFFFF], np.uint32)
    parts.append(specials.view(np.float32))
    pos = np.concatenate(parts).astype(np.float32)
    allx = np.concatenate([pos, -pos])
    rng = np.random.default_rng(20261123)
    sign = rng.integers(0, 2, 1 << 16, dtype=np.uint32) << 31
    exp = rng.integers(127 - 30, 127 + 21, 1 << 16, dtype=np.uint32) << 23
    man = rng.integers(0, 1 << 23, 1 << 16, dtype=np.uint32)
    dense = (sign | exp | man).view(np.float32)
    wild = rng.integers(0, 1 << 32, 1 << 14, dtype=np.uint64).astype(np.uint32).view(np.float32)
    bits = np.concatenate([f32_bits(allx), dense.view(np.uint32), wild.view(np.uint32)])
    _, idx = np.unique(bits, return_index=True)
    return bits[np.sort(idx)].view(np.float32)


def float64_inputs(lib, types):
    parts = []
    for t in types:
        if t in INTS:
            continue
        v, edge, _ = grid(lib, t)
        ext = np.append(v, edge)
        mid = (ext[:-1] + ext[1:]) / 2
        parts += [f64_neighbours(ext), f64_neighbours(mid)]
        for k in list(range(20, 31)) + [40, 52]:
            parts += [mid * (1 + 2.0**-k), mid * (1 - 2.0**-k)]
    q = np.arange(-80, 81) / 4
    ints = [2.0**31, 2.0**31 - 0.5, 2.0**31 - 1, 2.0**32 + 5, 3e9 + 5, 1e10 + 7, 2.0**40 + 5,
            2.0**53 - 1, 2.0**63, 1e20, 127.5, 128, 255.5, 256, 7.9, 8.9, 15.5]
    outside = [1e39, 3.5e38, 3.4028235677973366e38, 3.4028234663852886e38 * (1 + 2.0**-30),
               1e-46, 1e-45, 7e-46, 2.0**-149, 2.0**-150, 2.0**-150 * (1 + 2.0**-30), 1e-300, 1e300,
               2.0**-127 * 1.5, 2.0**-128, 2.0**127 * 1.5, 2.0**127 * (1.5 - 2.0**-30)]
    specials = np.array([0, 1, 0x7FF0000000000000, 0x7FF0000000000001, 0x7FF8000000000000,
                         0x7FF8000000000001, 0x7FF4000000000000, 0x7FFFFFFFFFFFFFFF,
                         0x7FEFFFFFFFFFFFFF, 0x000FFFFFFFFFFFFF, 0x0010000000000000], np.uint64)
    parts += [f64_neighbours(q), f64_neighbours(ints), f64_neighbours(outside),
              specials.view(np.float64)]
    pos = np.concatenate(parts)
    allx = np.concatenate([pos, -pos])
    rng = np.random.default_rng(20261124)
    sign = rng.integers(0, 2, 1 << 13, dtype=np.uint64) << np.uint64(63)
    exp = rng.integers(1023 - 30, 1023 + 21, 1 << 13, dtype=np.uint64) << np.uint64(52)
    man = rng.integers(0, 1 << 52, 1 << 13, dtype=np.uint64)
    dense = (sign | exp | man).view(np.float64)
    bits = np.concatenate([allx.view(np.uint64), dense.view(np.uint64)])
    _, idx = np.unique(bits, return_index=True)
    return bits[np.sort(idx)].view(np.float64)


def exact_round(lib, t, x):
    """Correctly rounded float64 -> t (exact arithmetic), as codes; the specials (NaN, inf,
    zero, sign, overflow) are the library's own, obtained by casting +-inf / +-0 / +-NaN."""
    v, edge, codes = grid(lib, t)
    cand = [Fraction(float(a)) for a in v] + [Fraction(float(edge))]
    m = MANTISSA[t]
    if m == 0:
        # e8m0 has no zero, yet ml_dtypes rounds as if code 0 (2**-127) sat at 0: below
        # 2**-126 the grid is {0, 2**-126} (ties to the even code 0); we keep that rule
        cand[0] = Fraction(0)
    out = np.empty(len(x), np.float64)
    for i, xi in enumerate(x):
        if not math.isfinite(xi) or xi == 0:
            out[i] = xi
            continue
        a = Fraction(abs(float(xi)))
        # first candidate >= a (binary search over the sorted candidates)
        lo, hi = 0, len(cand) - 1
        if a >= cand[-1]:
            r = cand[-1]
        elif a <= cand[0]:
            r = cand[0]
        else:
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if cand[mid] <= a:
                    lo = mid
                else:
                    hi = mid
            below, above = cand[lo], cand[hi]
            if a == below:
                r = below
            elif a - below < above - a:
                r = below
            elif a - below > above - a:
                r = above
            else:  # a tie: the even code; with no mantissa bits (e8m0) upwards
                r = above if (m == 0 and lo > 0) or codes[lo] % 2 else below
        y = math.inf if r == cand[-1] else float(r)
        if m == 0 and r == 0:
            y = float(v[0])
        out[i] = math.copysign(y, xi)
    return lib.encode(t, out)


def write_bin(path, lib, source, x, columns):
    names = list(columns)
    header = (f"narrow-casts 1 lib={lib.name} source={source} n={len(x)} "
              f"columns={','.join(names)} version={lib.version}\n")
    with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        f.write(header.encode())
        f.write(x.tobytes())
        for n in names:
            col = np.asarray(columns[n], np.uint8)
            assert len(col) == len(x), n
            f.write(col.tobytes())
    print(f"{path}: {len(x)} inputs x {len(names)} columns, {os.path.getsize(path)} bytes")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lib", choices=["ml_dtypes", "torch"])
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    lib = Lib(args.lib)
    os.makedirs(args.out, exist_ok=True)
    import warnings
    warnings.simplefilter("ignore")
    np.seterr(all="ignore")
    types, lines = [], []
    stamp = (f"# lib={lib.name} {lib.version} python={platform.python_version()} "
             f"recorded={datetime.date.today()}")
    lines.append(stamp)
    for t in FLOATS + INTS:
        err = lib.castable(t)
        if err:
            lines.append(f"# no-cast {t}: {err}")
            continue
        types.append(t)
        n = 1 << BITS.get(t, 8)
        p = np.arange(n, dtype=np.uint8)
        a32, a64 = lib.decode(t, p)
        for i in range(n):
            lines.append(f"{t} {i:02x} {int(f32_bits(a32[i])):08x} "
                         f"{int(np.asarray(a64[i]).view(np.uint64)):016x}")
    path = os.path.join(args.out, f"{lib.name}-decode.txt.gz")
    with gzip.open(path, "wt", compresslevel=9) as f:
        f.write("\n".join(lines) + "\n")
    print(f"{path}: {len(lines)} lines; types {types}")

    x32 = float32_inputs(lib, types)
    cols = {t: lib.encode(t, x32) for t in types}
    write_bin(os.path.join(args.out, f"{lib.name}-from-f32.bin.gz"), lib, "float32", x32, cols)

    x64 = float64_inputs(lib, types)
    cols = {t: lib.encode(t, x64) for t in types}
    if lib.name == "ml_dtypes":
        for t in types:
            if t in FLOATS:
                cols[f"exact:{t}"] = exact_round(lib, t, x64)
                # self-check: on inputs float32 holds exactly, exact rounding is the library's
                exact32 = x64.astype(np.float32).astype(np.float64)
                same = (exact32 == x64) | np.isnan(x64)
                bad = np.flatnonzero(same & (cols[f"exact:{t}"] != cols[t]))
                if len(bad):
                    sys.exit(f"exact rounding disagrees with {t} on {x64[bad[:5]]}")
    write_bin(os.path.join(args.out, f"{lib.name}-from-f64.bin.gz"), lib, "float64", x64, cols)


if __name__ == "__main__":
    main()
