"""Issue-12 ops on PaddlePaddle 3.3.1 (policy `paddle`, CPU, dynamic graph).

Operands as in fw_paddle.py (paddle.to_tensor([v, v], D), paddle.to_tensor(v, D), Python literals).
Each op is the paddle function a user calls (NAMES): paddle.neg, paddle.positive, paddle.abs,
paddle.sign, ..., paddle.asin, paddle.atan, paddle.bitwise_invert, paddle.real/imag/conj/angle,
paddle.bitwise_left_shift/bitwise_right_shift, paddle.atan2, paddle.hypot, paddle.copysign,
paddle.logaddexp, paddle.nextafter, paddle.fmax, paddle.fmin, paddle.heaviside (fmod,
float_power, divmod: paddle has none), paddle.sum/prod(x[, dtype=D]), paddle.mean/max/min/argmax/
any/all/var/std(x), paddle.cumsum(x[, dtype=D]) and paddle.cumprod(x[, dtype=D]) (no axis: the
flattened tensor).
"""
from __future__ import annotations

import sys

import fw_paddle
import ops_common
import paddle
from ops_cases import ALL_OPS

ROOTS = {"paddle": paddle}
NAMES = {op: [f"paddle:{op}"] for op in ALL_OPS}
NAMES.update({
    "negative": ["paddle:neg"], "absolute": ["paddle:abs"], "arcsin": ["paddle:asin"],
    "arctan": ["paddle:atan"], "bitwise_invert": ["paddle:bitwise_invert", "paddle:bitwise_not"],
    "left_shift": ["paddle:bitwise_left_shift"], "right_shift": ["paddle:bitwise_right_shift"],
    "arctan2": ["paddle:atan2"],
})

RULES = [
    # a Python scalar where the function takes tensors: "x must be tensor type, but got <class 'int'>"
    ("TypeError", r"^[xy] must be tensor type, but got <class '(int|float|complex|bool)'>", "!unsupported"),
    ("AttributeError", r"^'(int|float|complex|bool)' object has no attribute '(dtype|flatten)'",
     "!unsupported"),
    ("*", r"must be (a )?Tensor|should be a Tensor|Expected.*Tensor|received.*\b(int|float|bool|complex)\b",
     "!unsupported"),
    ("*", r"is not registered|not support|Unsupported|only support|should be one of|must be one of|"
          r"data type of .* should be|dtype of .* must be|expected to be one of|must be in", "!unsupported"),
]


def setup(mode):
    fw_paddle.setup(mode)


make = fw_paddle.make


def call(op, fn, args, cell):
    if cell.dtype:
        return fn(args[0], dtype=cell.dtype)
    return fn(*args)


def token(r, cell):
    if isinstance(r, paddle.Tensor):
        return fw_paddle.name(r)
    return ops_common.python_scalar_token(r) or "?not a tensor: " + type(r).__name__


def classify(e, cell):
    k = fw_paddle.classify(e, cell)
    if k:
        return k
    return ops_common.classify_rules(e, RULES)


def answer(cell):
    return ops_common.answer(cell, sys.modules[__name__])
