"""Issue-10 forms on PaddlePaddle 3.3.1 (policy `paddle`, CPU, dynamic graph).

Operands as in fw_paddle.py (paddle.to_tensor([v, v], D), paddle.to_tensor(v, D), Python
literals).  Calls: `OP:function A B` -> paddle.add, subtract, multiply, divide, floor_divide,
remainder, pow (power), maximum, minimum, equal, not_equal, less_than (less), less_equal,
greater_than (greater), greater_equal, logical_and/or/xor, bitwise_and/or/xor, paddle.matmul,
paddle.sum; `dtype=D` passed to paddle.add (refused).  `result_type`, `promote_types`,
`can_cast` -> paddle.result_type / promote_types / can_cast where they exist (3.3.1 has none at
the top level: the AttributeError, `!unsupported`).  concatenate -> paddle.concat([..]), stack ->
paddle.stack([..]), where -> paddle.where(c, x, y), clip -> paddle.clip(a, lo, hi).
"""
from __future__ import annotations

import sys

import paddle

import forms_common
import fw_paddle

BASE = fw_paddle
NAMES = {"power": "pow", "less": "less_than", "greater": "greater_than", "concatenate": "concat"}
RULES = [
    # concat/stack of a list holding a Python scalar
    ("ValueError", r"argument 'x' \(position 0\) must be list of Tensors", "!unsupported"),
    # concat of a 1-d and a 0-d tensor: a shape refusal
    ("ValueError", r"The shape of input\[0\] and input\[1\] is expected to be equal", "!unsupported"),
    # concat/stack do not promote: mixed dtypes are refused
    ("ValueError", r"The data_type of input tensor in list isn't consistent", "!no_promotion"),
    # clip with min > max (a value refusal)
    ("ValueError", r"max should be greater than or equal to min", "!value"),
    # where with a non-bool condition
    ("ValueError", r"The `condition` is expected to be a boolean Tensor", "!unsupported"),
    ("AttributeError", r"module 'paddle' has no attribute", "!unsupported"),
    ("TypeError", r"got an unexpected keyword argument 'dtype'", "!unsupported"),
    ("TypeError", r"^[xy] must be tensor type, but got <class '(int|float|complex|bool)'>", "!unsupported"),
    ("AttributeError", r"^'(int|float|complex|bool)' object has no attribute", "!unsupported"),
    ("*", r"must be (a )?Tensor|should be a Tensor|Expected.*Tensor|received.*\b(int|float|bool|complex)\b",
     "!unsupported"),
    ("*", r"is not registered|not support|Unsupported|only support|should be one of|must be one of|"
          r"data type of .* should be|dtype of .* must be|expected to be one of|must be in", "!unsupported"),
]


def setup(mode):
    fw_paddle.setup(mode)


make = fw_paddle.make


def dtype(name):
    return fw_paddle.DTYPES[name]


def is_dtype(r):
    return r in fw_paddle.NAMES if not isinstance(r, paddle.Tensor) else False


def dtype_token(dt, cell):
    return fw_paddle.NAMES.get(dt) or "?dtype " + str(dt)


def token(r, cell):
    if not isinstance(r, paddle.Tensor):
        return "?not a tensor: " + type(r).__name__
    return fw_paddle.name(r)


def call(cell, args):
    op = cell.op
    fn = getattr(paddle, NAMES.get(op, op))
    if op == "can_cast":
        return bool(fn(*args))
    if op in ("concatenate", "stack"):
        return fn(args)
    kw = {"dtype": cell.dtype} if cell.dtype else {}
    return fn(*args, **kw)


def classify(e, cell):
    return fw_paddle.classify(e, cell) or forms_common.classify_rules(e, RULES)


def answer(cell):
    return forms_common.answer(cell, sys.modules[__name__])
