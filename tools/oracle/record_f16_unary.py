"""Record NumPy's float16 unary ops on every one of the 65,536 float16 bit patterns:
tests/fixtures/eval-f16/numpy.txt.gz, replayed bit for bit by tests/kernel_f16_exhaustive.rs.

NumPy (AVX512_SKX and above, no AVX512_FP16) computes most float16 transcendental functions by
converting to float32, calling Intel's SVML (`__svml_<op>f16`,
numpy/_core/src/umath/loops_umath_fp.dispatch.c.src) and rounding back to float16; an exhaustive
table is the only way to see where that differs from a correctly rounded float32 function.

    nice -n 19 /work/venvs/numpy/bin/python tools/oracle/record_f16_unary.py

Line 1: `# numpy <version> <cpu flags> ops: <op> <op> ...`; then one line per pattern: the
input's bits and each op's result bits, 4 hex digits each, space-separated, in the header's op
order.
"""
from __future__ import annotations

import gzip
import os
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "eval-f16", "numpy.txt.gz")
OPS = ["exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "arcsin",
       "arctan", "sinh", "tanh", "sqrt"]


def cpu_features() -> str:
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as f
    except ImportError:  # numpy 1.x
        from numpy.core._multiarray_umath import __cpu_features__ as f
    keys = ["AVX512F", "AVX512_SKX", "AVX512_ICL", "AVX512_SPR", "AVX512FP16"]
    return ",".join(k for k in keys if f.get(k))


def main() -> None:
    x = np.arange(65536, dtype=np.uint32).astype(np.uint16).view(np.float16)
    cols = [x.view(np.uint16)]
    with np.errstate(all="ignore"):
        for op in OPS:
            cols.append(getattr(np, op)(x).view(np.uint16))
    with gzip.open(FIXTURE, "wt", compresslevel=9) as out:
        out.write(f"# numpy {np.__version__} {cpu_features()} ops: {' '.join(OPS)}\n")
        for row in zip(*cols):
            out.write(" ".join(f"{int(v):04x}" for v in row) + "\n")
    print(FIXTURE, os.path.getsize(FIXTURE), "bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
