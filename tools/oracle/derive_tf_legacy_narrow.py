"""TF's legacy mode (`dtype_conversion_mode="legacy"`) on the narrow dtypes of
tf.dtypes.experimental: print the rows and columns they add to policies/tf-legacy.toml's table and
the Cast kernels TF lacks, and check the model against the recording
(tests/fixtures/resolve-narrow/tf-legacy.txt.gz).

    /work/venvs/tf/bin/python tools/oracle/derive_tf_legacy_narrow.py

The model (override_binary_operator.maybe_promote_tensors): the result is np.result_type of the
operands (NumPy 2.4.6 with ml_dtypes 0.6.0, a Python literal weak as in NEP 50; no common dtype:
DTypePromotionError); each tensor is then cast to it (tf.cast: most Cast kernels to or from a narrow
dtype do not exist, UnimplementedError) and each literal converted strictly (a Python bool only
into bool and a few others: "Cannot convert True to EagerTensor of dtype float8_e4m3fn"); then the
op's kernel, which no narrow dtype has.
"""
from __future__ import annotations

import gzip
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

from fw_tf import NARROW  # noqa: E402
from syntax import DTYPES, parse_cell  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHORT = {"bool": "b1", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
         "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "bfloat16": "bf16",
         "float16": "f16", "float32": "f32", "float64": "f64", "complex64": "c64",
         "complex128": "c128"}
SHORT.update({n: "f" + n[5] + n[7:] for n in NARROW if n.startswith("float")})
LITERALS = {"b*": True, "i*": 1, "f*": 1.0, "c*": 1j}


def tfd(n):
    return getattr(tf.dtypes.experimental, n) if n in NARROW else getattr(tf, n)


def npd(n):
    return np.dtype(tfd(n).as_numpy_dtype)


def name(d):
    return next(n for n in DTYPES + NARROW if npd(n) == d)


def result(a, b):
    """np.result_type of two dtype names or literal nodes; None where there is none."""
    try:
        return name(np.result_type(*(LITERALS[x] if x in LITERALS else npd(x) for x in (a, b))))
    except Exception:  # noqa: BLE001 - DTypePromotionError and TypeError alike
        return None


def has_cast(a, b):
    if a == b:
        return True
    try:
        tf.cast(tf.constant(np.array([1, 1], dtype=npd(a)), tfd(a)), tfd(b))
        return True
    except Exception:  # noqa: BLE001
        return False


def predict(cell):
    a, b = cell.operands
    if any(o.kind == "literal" and o.py is True for o in cell.operands):
        return "!no_promotion"  # tf.convert_to_tensor(True, dtype=N)
    r = result(*(o.dtype if o.kind != "literal" else
                 {bool: "b*", int: "i*", float: "f*", complex: "c*"}[type(o.py)] for o in (a, b)))
    if r is None:
        return "!no_promotion"
    casts = all(has_cast(o.dtype, r) for o in (a, b) if o.kind != "literal")
    return "!unsupported" if r in NARROW or r == "bool" or not casts else r


def main():
    classic = list(SHORT)[:15]
    print("# cells: rows and columns of the narrow dtypes (r = row, c = column)")
    for n in NARROW:
        row = [SHORT.get(result(n, x) or "", result(n, x) or "-") for x in classic]
        lits = [SHORT.get(result(n, x) or "", result(n, x) or "-") for x in LITERALS]
        nar = [SHORT.get(result(n, x) or "", result(n, x) or "-") for x in NARROW]
        print(SHORT.get(n, n), "|", " ".join(row), "|", " ".join(lits), "|", " ".join(nar))
    print("# the Cast kernels TF lacks, from each narrow dtype to a classic one")
    for n in NARROW:
        print(n, [x for x in classic if not has_cast(n, x)])
    path = os.path.join(ROOT, "tests", "fixtures", "resolve-narrow", "tf-legacy.txt.gz")
    if not os.path.exists(path):
        path = os.path.join(ROOT, "tests", "fixtures", "resolve-narrow", "pending", "tf-legacy.txt.gz")
    bad = total = 0
    for line in gzip.open(path, "rt"):
        if line.startswith("#") or not line.strip():
            continue
        text, want = line.rstrip("\n").rsplit(" : ", 1)
        total += 1
        got = predict(parse_cell(text))
        if got != want:
            bad += 1
            print(f"MISMATCH {text} : {want} (model {got})", file=sys.stderr)
    print(f"# {total} cells of {path}, {bad} differ from the model", file=sys.stderr)


if __name__ == "__main__":
    main()
