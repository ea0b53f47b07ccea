"""Issue-12 ops on array-api-strict 2.6.1 (policy `array-api`, api_version 2024.12).

Operands as in fw_array_api.py.  Each op is the standard's function (xp.negative, ..., xp.asin,
xp.atan, xp.bitwise_invert, xp.real/imag/conj, xp.bitwise_left_shift/bitwise_right_shift,
xp.atan2, xp.hypot, xp.copysign, xp.logaddexp, xp.nextafter, xp.sum/prod(x[, dtype=D]),
xp.mean/max/min/argmax/any/all/var/std(x), xp.cumulative_sum/cumulative_prod(x[, dtype=D])).
angle, fmax, fmin, fmod, float_power, divmod and heaviside are not in the standard:
`!unsupported` with the AttributeError.  The standard's functions take arrays (a Python scalar
is refused by array-api-strict except as the second operand of some binary functions).
"""
from __future__ import annotations

import os
import sys

import array_api_strict as xp
from array_api_strict._array_object import Array

import fw_array_api
import ops_common
from ops_cases import ALL_OPS

ROOTS = {"xp": xp}
NAMES = {op: [f"xp:{op}"] for op in ALL_OPS}
NAMES.update({
    "absolute": ["xp:abs"], "arcsin": ["xp:asin"], "arctan": ["xp:atan"],
    "left_shift": ["xp:bitwise_left_shift"], "right_shift": ["xp:bitwise_right_shift"],
    "arctan2": ["xp:atan2"], "cumsum": ["xp:cumulative_sum"], "cumprod": ["xp:cumulative_prod"],
})

RULES = [
    # cumulative_sum/prod of a 0-d array: "Only ndim >= 1 arrays are allowed in cumulative_prod"
    ("ValueError", r"^Only ndim >= 1 arrays are allowed", "!unsupported"),
    # a Python scalar where the function takes arrays only: "Only Array objects are allowed; got"
    ("TypeError", r"^Only Array objects are allowed", "!unsupported"),
    # value-level refusal: a negative shift ("bitwise_left_shift(x1, x2) is only defined for x2 >= 0")
    ("ValueError", r"is only defined for x2 >= 0", "!unsupported"),
    # ... whose check `x2 < 0` cannot compare a complex scalar: the complex literal is refused
    ("TypeError", r"'<' not supported between instances of 'complex' and 'int'", "!unsupported"),
    ("TypeError", r"^Only .* dtypes are allowed|[Oo]nly .* allowed in|not allowed", "!unsupported"),
    ("TypeError", r"must be an array|Expected Array|Input must be an array|object has no attribute", "!unsupported"),
    ("AttributeError", r"object has no attribute", "!unsupported"),
    ("ValueError", r"0-d|zero-dimensional|at least one dimension|axis", "!unsupported"),
    ("TypeError", r"[Cc]annot|can't", "!no_promotion"),
]


def setup(mode):
    fw_array_api.setup(mode)


make = fw_array_api.make


def call(op, fn, args, cell):
    if cell.dtype:
        return fn(args[0], dtype=getattr(xp, cell.dtype))
    return fn(*args)


def token(r, cell):
    if not isinstance(r, Array):
        return ops_common.python_scalar_token(r) or "?result type " + type(r).__name__
    name = str(r.dtype._np_dtype.name) if hasattr(r.dtype, "_np_dtype") else str(r.dtype)
    return name if name in fw_array_api.NAMES else "?result dtype " + name


def classify(e, cell):
    k = fw_array_api.classify(e)
    if not k.startswith("?"):
        return k
    return ops_common.classify_rules(e, RULES)


def answer(cell):
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ops_common.answer(cell, sys.modules[__name__])
