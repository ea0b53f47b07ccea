"""Issue-12 ops on NumPy (policies `numpy` = 2.4.6 and `numpy1` = 1.26.4; the venv decides which).

Operands as in fw_numpy.py (np.ones(2, D), np.array(v, D), Python literals).  Each op is the NumPy
function of the same name, called as a user calls it: `np.sqrt(a)`, `np.arctan2(a, b)`,
`np.divmod(a, b)` (two results: `D1,D2`), `np.sum(a)` / `np.sum(a, dtype=D)` (whole tensor; also
prod mean max min argmax cumsum cumprod any all var std; argmax and max/min take no dtype).
bitwise_invert is `np.bitwise_invert` (NumPy 2), else `np.invert` (NumPy 1 has no bitwise_invert);
conj is `np.conj`.  A result that is a plain Python scalar (np.real(1j) returns `x.real` of the
literal) is answered `=float` etc.
"""
from __future__ import annotations

import sys

import numpy as np

import fw_numpy
import ops_common
from ops_cases import ALL_OPS

ROOTS = {"np": np}
NAMES = {op: [f"np:{op}"] for op in ALL_OPS}
NAMES["bitwise_invert"] = ["np:bitwise_invert", "np:invert"]
NAMES["conj"] = ["np:conj", "np:conjugate"]
NAMES["divmod"] = ["np:divmod"]

RULES = [
    # np.negative(bool): "The numpy boolean negative, the `-` operator, is not supported, use ..."
    ("TypeError", r"numpy boolean negative", "!unsupported"),
    # dtype= the reduction cannot cast its input to (casting='same_kind' on the input)
    ("TypeError", r"Cannot cast ufunc '\w+' input", "!no_promotion"),
    ("TypeError", r"Cannot cast array data from", "!no_promotion"),
]


def setup(mode):
    fw_numpy.setup(mode)


make = fw_numpy.make


def call(op, fn, args, cell):
    if op in ops_common.ALL_REDUCTIONS:
        if cell.dtype:
            return fn(args[0], dtype=cell.dtype)
        return fn(args[0])
    return fn(*args)


def token(r, cell):
    t = ops_common.python_scalar_token(r)
    if t and not fw_numpy.huge_int(cell):
        return t
    return fw_numpy.dtype_token(r, cell)


def classify(e, cell):
    k = ops_common.classify_rules(e, RULES)
    if k:
        return k
    k = fw_numpy.classify(e, cell)
    return None if k.startswith("?") else k


def answer(cell):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ops_common.answer(cell, sys.modules[__name__])
