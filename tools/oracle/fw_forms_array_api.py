"""Issue-10 forms on array-api-strict 2.6.1 (policy `array-api`, api_version 2024.12).

Operands as in fw_array_api.py (xp.ones(2, D), xp.asarray(v, D), Python literals).  Calls:
`OP:function A B` -> xp.add, xp.subtract, xp.multiply, xp.divide, xp.floor_divide, xp.remainder,
xp.pow (power), xp.maximum, xp.minimum, xp.equal ... xp.greater_equal, xp.logical_*,
xp.bitwise_and/or/xor, xp.matmul, xp.sum; `dtype=D` is passed to xp.add (refused: the standard's
elementwise functions take no dtype).  `result_type ...` -> xp.result_type(*operands) (arrays,
and Python scalars, which 2024.12 allows); `promote_types` -> xp.promote_types (not in the
standard: the AttributeError); `can_cast FROM TO` -> xp.can_cast(from, dTO) (a dtype or an
array; no casting argument).  concatenate -> xp.concat([..]), stack -> xp.stack([..]), where ->
xp.where(c, x, y), clip -> xp.clip(a, lo, hi).
"""
from __future__ import annotations

import sys
import warnings

import array_api_strict as xp
from array_api_strict._array_object import Array

import forms_common
import fw_array_api

BASE = fw_array_api
NAMES = {"power": "pow", "concatenate": "concat"}
RULES = [
    # xp.result_type of Python scalars only
    ("ValueError", r"at least one array or dtype is required", "!unsupported"),
    # xp.clip: a bound of another kind than x, or a bound type it does not take
    ("TypeError", r"(min|max) must be integral when x is integral|"
                  r"must be floating-point when x is floating-point", "!no_promotion"),
    ("TypeError", r"(min|max) must be None, int, float, or Array; got", "!unsupported"),
    ("ValueError", r"min must be less than or equal to max", "!value"),
    # a Python scalar where an array is needed (clip's x, where's condition, can_cast's from_)
    ("AttributeError", r"'(int|float|complex|bool)' object has no attribute 'device'", "!unsupported"),
    ("TypeError", r"`condition` must be (an Array|have a boolean data type)", "!unsupported"),
    ("TypeError", r"from_=.*, but should be an array_api array or dtype", "!unsupported"),
    ("AttributeError", r"module 'array_api_strict' has no attribute", "!unsupported"),
    ("TypeError", r"got an unexpected keyword argument 'dtype'", "!unsupported"),
    ("TypeError", r"^Only Array objects are allowed|must be an array|Expected Array|"
                  r"[Oo]nly .* allowed|not allowed", "!unsupported"),
    ("ValueError", r"0-d|zero-dimensional|at least one dimension|must have the same shape|"
                   r"all input arrays must have the same shape|same number of dimensions", "!unsupported"),
    ("TypeError", r"[Cc]annot|can't|must be a dtype|not a valid dtype|Unsupported dtype", "!no_promotion"),
    ("ValueError", r"matmul: Input operand \d does not have enough dimensions", "!unsupported"),
]


def setup(mode):
    fw_array_api.setup(mode)


make = fw_array_api.make


def dtype(name):
    return getattr(xp, name)


def is_dtype(r):
    return type(r).__name__ == "DType" or hasattr(r, "_np_dtype")


def dtype_token(dt, cell):
    name = str(dt._np_dtype.name) if hasattr(dt, "_np_dtype") else str(dt)
    return name if name in fw_array_api.NAMES else "?dtype " + name


def token(r, cell):
    if not isinstance(r, Array):
        return "?result type " + type(r).__name__
    return dtype_token(r.dtype, cell)


def call(cell, args):
    op = cell.op
    fn = getattr(xp, NAMES.get(op, op))
    if op == "can_cast":
        return bool(fn(*args))
    if op in ("concatenate", "stack"):
        return fn(args)
    kw = {"dtype": dtype(cell.dtype)} if cell.dtype else {}
    return fn(*args, **kw)


def classify(e, cell):
    k = fw_array_api.classify(e)
    if not k.startswith("?"):
        return k
    return forms_common.classify_rules(e, RULES)


def answer(cell):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return forms_common.answer(cell, sys.modules[__name__])
