"""Derive NumPy's `add` result dtype for two arrays when an ml_dtypes dtype is involved, from
ml_dtypes' registered casts, and print it as the rows of a policy [table] (policies/numpy.toml,
numpy1.toml). Checked against the recording (tests/fixtures/resolve-narrow/POLICY.txt.gz).

    /work/venvs/numpy/bin/python tools/oracle/derive_numpy_narrow.py numpy
    /work/venvs/numpy1/bin/python tools/oracle/derive_numpy_narrow.py numpy1

ml_dtypes' types are legacy user dtypes, so a ufunc with one of them is resolved by NumPy's
legacy linear search (numpy/_core/src/umath/ufunc_type_resolution.c,
linear_search_type_resolver): first the loops registered for the operands' user dtypes
(ml_dtypes registers `T, T -> T`), then the builtin loops in `np.add.types` order; the first
loop every input casts to safely (`np.can_cast(..., "safe")`, ml_dtypes' RegisterCanCast
table for its types) decides. The builtin-only cells are NumPy's own table. The table is not
symmetric: a float8 that casts safely to another and back (float8_e4m3fn and float8_e4m3fnuz)
gives the first operand's loop.
"""
from __future__ import annotations

import gzip
import os
import sys

import ml_dtypes
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from syntax import DTYPES, NARROW_DTYPES  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHORT = {"bool": "b1", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
         "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "float16": "f16",
         "float32": "f32", "float64": "f64", "complex64": "c64", "complex128": "c128"}
# the narrow float8/float4 dtypes by their XLA names (src/kernel/narrow/format.rs spellings)
SHORT.update({n: "f" + n[5] + n[7:] for n in NARROW_DTYPES if n.startswith(("float8", "float4"))})


def dtype(name):
    return np.dtype(getattr(ml_dtypes, name)) if name in NARROW_DTYPES else np.dtype(name)


def add_result(a, b):
    """The first loop of the legacy linear search that both inputs cast to safely."""
    user = [d for d in (a, b) if d.num >= 256]
    builtin = [np.dtype(t[0]) for t in np.add.types if t[0] == t[1] and t[0] not in "MmO"]
    for loop in user + builtin:
        if np.can_cast(a, loop, "safe") and np.can_cast(b, loop, "safe"):
            return loop
    return None


def name_of(d):
    for n in DTYPES + NARROW_DTYPES:
        if n != "bfloat16" and (n in DTYPES or hasattr(ml_dtypes, n)) and dtype(n) == d:
            return n
    return str(d)


def main():
    policy = sys.argv[1]
    names = [n for n in DTYPES if n in SHORT] + [n for n in NARROW_DTYPES if hasattr(ml_dtypes, n)]
    col = {n: SHORT.get(n, n) for n in names}
    width = max(len(c) for c in col.values()) + 1
    print(" " * width + " ".join(col[n].ljust(width) for n in names).rstrip())
    for a in names:
        cells = []
        for b in names:
            r = add_result(dtype(a), dtype(b))
            cells.append("-" if r is None else col.get(name_of(r), name_of(r)))
        print(col[a].ljust(width) + " ".join(c.ljust(width) for c in cells).rstrip())
    path = os.path.join(ROOT, "tests", "fixtures", "resolve-narrow", policy + ".txt.gz")
    if not os.path.exists(path):
        path = os.path.join(ROOT, "tests", "fixtures", "resolve-narrow", "pending", policy + ".txt.gz")
    bad = checked = 0
    for line in gzip.open(path, "rt"):
        parts = line.split()
        if line.startswith("#") or len(parts) != 5 or parts[1] not in names or parts[2] not in names:
            continue
        r = add_result(dtype(parts[1]), dtype(parts[2]))
        got = "!no_promotion" if r is None else name_of(r)
        checked += 1
        if got != parts[4]:
            bad += 1
            print(f"MISMATCH {line.strip()} derived {got}", file=sys.stderr)
    print(f"# {checked} tensor x tensor cells of {path} checked, {bad} differ", file=sys.stderr)


if __name__ == "__main__":
    main()
