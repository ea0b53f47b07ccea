"""Issue-10 forms on NumPy (policies `numpy` = 2.4.6 and `numpy1` = 1.26.4; the venv decides which).

Operands as in fw_numpy.py (np.ones(2, D), np.array(v, D), Python literals).  Calls:
* `OP:function A B`: the ufunc itself, `np.add(a, b)` ... `np.bitwise_xor(a, b)` (the NumPy name of
  every op), `np.matmul(a, b)`, `np.sum(a)`.  With `dtype=D`: `np.add(a, b, dtype=D)`; with
  `casting=C out=D`: `np.add(a, b, out=np.empty(2, D), casting=C)`.
* `result_type ...`: `np.result_type(*operands)`; `promote_types A B`: `np.promote_types(dA, dB)`;
  `can_cast FROM TO casting=C`: `np.can_cast(from, dTO, casting=C)` where FROM is the dtype for an
  n-d operand (`int8`), the 0-d array for `int8(5)` and the Python object for a literal.
* `concatenate`/`stack`: `np.concatenate([a, b, ...])` / `np.stack([...])`; `where C X Y`:
  `np.where(c, x, y)`; `clip A LO HI`: `np.clip(a, lo, hi)`.
Cells without a form that are binary ops/matmul/sum run fw_numpy.answer (the operator form).
"""
from __future__ import annotations

import sys
import warnings

import numpy as np

import forms_common
import fw_numpy

BASE = fw_numpy
RULES = [
    # np.concatenate with a 0-d array or a Python scalar
    ("ValueError", r"zero-dimensional arrays cannot be concatenated|all the input arrays must have "
                   r"same number of dimensions", "!unsupported"),
    # np.can_cast with a Python int/float/complex in NumPy 2 (NEP 50: no value-based casting)
    ("TypeError", r"can_cast\(\) does not support Python (ints|floats|complex)", "!unsupported"),
    # casting='no'/'equiv'/'safe' refusing an input cast of the ufunc loop
    ("UFuncTypeError", r"Cannot cast ufunc '\w+' input", "!no_promotion"),
    ("TypeError", r"Cannot cast ufunc '\w+' input", "!no_promotion"),
    # np.matmul with a Python scalar operand
    ("ValueError", r"matmul: Input operand \d does not have enough dimensions", "!unsupported"),
    # dtype= that no loop of the ufunc provides (bitwise_and with dtype=float32, ...)
    ("UFuncTypeError", r"did not contain a loop with signature matching types", "!unsupported"),
    ("TypeError", r"did not contain a loop with signature matching types", "!unsupported"),
    ("TypeError", r"No loop matching the specified signature and casting was found", "!unsupported"),
    # np.clip / where in NumPy 2 when a Python int does not fit the array's dtype
    ("OverflowError", r"", "!overflow"),
]


def setup(mode):
    fw_numpy.setup(mode)


make = fw_numpy.make


def dtype(name):
    return np.dtype(name)


def is_dtype(r):
    return isinstance(r, np.dtype)


def dtype_token(dt, cell):
    if dt.name == "object" and fw_numpy.huge_int(cell):
        return "!overflow"  # NumPy 1: a Python int beyond int64/uint64 is an object (fw_numpy.py)
    return dt.name if dt.name in fw_numpy.NAMES else "?dtype " + dt.name


def token(r, cell):
    return fw_numpy.dtype_token(r, cell)


def call(cell, args):
    op = cell.op
    if op == "result_type":
        return np.result_type(*args)
    if op == "promote_types":
        return np.promote_types(*args)
    if op == "can_cast":
        return bool(np.can_cast(args[0], args[1], casting=cell.casting or "safe"))
    if op == "concatenate":
        return np.concatenate(args)
    if op == "stack":
        return np.stack(args)
    if op == "where":
        return np.where(*args)
    if op == "clip":
        return np.clip(*args)
    if op == "sum":
        return np.sum(args[0])
    fn = np.matmul if op == "matmul" else fw_numpy.UFUNCS[op]
    kw = {}
    if cell.dtype:
        kw["dtype"] = cell.dtype
    if cell.out:
        kw["out"] = np.empty(2, dtype=cell.out)
        kw["casting"] = cell.casting or "same_kind"
    return fn(*args, **kw)


def classify(e, cell):
    k = fw_numpy.classify(e, cell)
    if not k.startswith("?"):
        return k
    return forms_common.classify_rules(e, RULES)


def answer(cell):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return forms_common.answer(cell, sys.modules[__name__])
