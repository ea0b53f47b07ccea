"""Rules that predict every recorded cell of the `array-api` policy (array-api-strict 2.6.1,
api_version 2024.12), checked against tests/fixtures/resolve/array-api.txt.gz.  Pure Python; see
tools/oracle/notes/array-api.md.

    python3 tools/oracle/analyze_array_api.py [--show N] [--tables] [--log LOG]
"""
from __future__ import annotations

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from analyze_numpy import BITS, COMPARE, INT_RANGE, check, fits, summarize_log  # noqa: E402,F401
from syntax import KIND  # noqa: E402

AA_DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
             "float32", "float64", "complex64", "complex128"]

# dtype categories of array_api_strict/_dtypes.py
CATEGORY = {
    "all": set(AA_DTYPES),
    "numeric": set(AA_DTYPES) - {"bool"},
    "real numeric": {d for d in AA_DTYPES if KIND[d] in "uif"},
    "integer": {d for d in AA_DTYPES if KIND[d] in "ui"},
    "integer or boolean": {d for d in AA_DTYPES if KIND[d] in "uib"},
    "boolean": {"bool"},
    "floating-point": {d for d in AA_DTYPES if KIND[d] in "fc"},
}
# the category each op requires (operators: _array_object.py; functions: _elementwise_functions.py)
OP_CATEGORY = {
    "add": "numeric", "subtract": "numeric", "multiply": "numeric", "divide": "floating-point",
    "floor_divide": "real numeric", "remainder": "real numeric", "power": "numeric",
    "maximum": "real numeric", "minimum": "real numeric", "equal": "all", "not_equal": "all",
    "less": "real numeric", "less_equal": "real numeric", "greater": "real numeric",
    "greater_equal": "real numeric", "logical_and": "boolean", "logical_or": "boolean",
    "logical_xor": "boolean", "bitwise_and": "integer or boolean",
    "bitwise_or": "integer or boolean", "bitwise_xor": "integer or boolean", "matmul": "numeric",
    "sum": "numeric",
}
FUNCTIONS = {"maximum", "minimum", "logical_and", "logical_or", "logical_xor"}
INPLACE = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
           "bitwise_and", "bitwise_or", "bitwise_xor"}


def aa_promote(a, b):
    """The standard's promotion tables (type_promotion.rst): only within a kind; None = refused."""
    if a == b:
        return a
    ka, kb = KIND[a], KIND[b]
    if "b" in (ka, kb):
        return None
    if ka in "ui" and kb in "ui":
        if ka == kb:
            return a if BITS[a] >= BITS[b] else b
        u, i = (a, b) if ka == "u" else (b, a)
        for t in ("int8", "int16", "int32", "int64"):
            if BITS[t] > BITS[u] and BITS[t] >= BITS[i]:
                return t
        return None  # uint64 with any signed int
    if ka in "fc" and kb in "fc":
        prec = max(BITS[a] // (2 if ka == "c" else 1), BITS[b] // (2 if kb == "c" else 1))
        if "c" in (ka, kb):
            return "complex64" if prec == 32 else "complex128"
        return "float32" if prec == 32 else "float64"
    return None  # integer with floating


class Err(Exception):
    def __init__(self, token):
        super().__init__(token)
        self.token = token


def promote_scalar(v, arr):
    """Array._promote_scalar: the dtype a Python scalar gets next to an array of dtype arr."""
    k = KIND[arr]
    if type(v) is bool:
        if k != "b":
            raise Err("!no_promotion")  # "Python bool scalars can only be promoted with bool arrays"
        return arr
    if type(v) is int:
        if k == "b":
            raise Err("!no_promotion")  # "Python int scalars cannot be promoted with bool arrays"
        if k in "ui" and not fits(v, arr):
            raise Err("!overflow")  # "Python int scalars must be within the bounds of the dtype"
        return arr
    if type(v) is float:
        if k not in "fc":
            raise Err("!no_promotion")  # "Python float scalars can only be promoted with floating-point arrays."
        return arr
    if k not in "fc":
        raise Err("!no_promotion")  # "Python complex scalars can only be promoted with floating-point arrays."
    return {"float32": "complex64", "float64": "complex128"}.get(arr, arr)


def need(dt, cat):
    if dt not in CATEGORY[cat]:
        raise Err("!unsupported")  # "Only <category> dtypes are allowed in <op>"


def resolve(op, a, b):
    """The dtype pair the op runs on, after array-api-strict's checks (in its order)."""
    cat = OP_CATEGORY[op]
    if op in FUNCTIONS:
        # _maybe_normalize_py_scalars: the array's category, then the scalar; or both arrays
        if a.kind == "literal" or b.kind == "literal":
            lit, arr = (a, b) if a.kind == "literal" else (b, a)
            need(arr.dtype, cat)
            s = promote_scalar(lit.py, arr.dtype)
            pair = (s, arr.dtype) if a.kind == "literal" else (arr.dtype, s)
        else:
            need(a.dtype, cat)
            need(b.dtype, cat)
            pair = (a.dtype, b.dtype)
    else:
        # operator: self is the array on the left, or the right one for a reflected operator;
        # _check_allowed_dtypes checks self's category, then the other operand
        self_, other = (b, a) if a.kind == "literal" else (a, b)
        need(self_.dtype, cat)
        if other.kind == "literal":
            s = promote_scalar(other.py, self_.dtype)
        else:
            need(other.dtype, cat)
            s = other.dtype
        pair = (s, self_.dtype) if a.kind == "literal" else (self_.dtype, s)
    r = aa_promote(*pair)
    if r is None:
        raise Err("!no_promotion")  # "<a> and <b> cannot be type promoted together"
    return r


def numpy_step(op, r, cell):
    """What NumPy then does with the promoted operands (array-api-strict calls NumPy)."""
    if op in ("floor_divide", "remainder") and KIND[r] == "c":
        raise Err("!unsupported")  # float32 // 1j got past the checks; NumPy has no complex loop
    if op == "power" and KIND[r] in "ui":
        e = cell.operands[1]
        if e.kind != "tensor" and e.py < 0:
            raise Err("!unsupported")  # ValueError: Integers to negative integer powers
    if op in COMPARE or op in ("logical_and", "logical_or", "logical_xor"):
        return "bool"
    return r


def aa_predict(cell):
    op = cell.op
    try:
        if op == "sum":
            dt = cell.operands[0].dtype
            need(dt, "numeric")  # "Only numeric dtypes are allowed in sum"
            return {"u": "uint64", "i": "int64"}.get(KIND[dt], dt)
        a, b = cell.operands
        if cell.out:
            # no out= in the API: only `a op= b` with out == a's dtype can be written
            if cell.out != a.dtype or op not in INPLACE:
                return "!unsupported"
            r = resolve(op, a, b)
            if r != a.dtype:
                raise Err("!no_promotion")  # "Cannot perform __iadd__ with dtypes ..."
            return numpy_step(op, r, cell)
        r = resolve(op, a, b)
        return numpy_step(op, r, cell)
    except Err as e:
        return e.token


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("--tables", action="store_true")
    ap.add_argument("--log", help="summarize a PROMOTE_WARN_LOG file written while recording")
    a = ap.parse_args()
    if a.log:
        summarize_log("array-api", a.log)
        return
    sys.exit(1 if check("array-api", aa_predict, a.show, a.tables, AA_DTYPES,
                       lambda x, y: "!unsupported" if "bool" in (x, y) else aa_promote(x, y)) else 0)


if __name__ == "__main__":
    main()
