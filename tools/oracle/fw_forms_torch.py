"""Issue-10 forms on PyTorch 2.15 (policy `torch`; mode `default` = default dtype float32, mode
`float64` = after torch.set_default_dtype(torch.float64), the `--set default_float=float64` runs).

Operands as in fw_torch.py (torch.ones(2, D), torch.tensor(v, D), Python literals).  Calls:
* `OP:function A B`: the torch function of fw_torch.FUNCTION (torch.add, torch.sub, torch.mul,
  torch.div, torch.floor_divide, torch.remainder, torch.pow, torch.maximum/minimum, torch.eq ...
  torch.ge, torch.logical_*, torch.bitwise_*), `torch.matmul(a, b)`, `torch.sum(a)`; a Python
  literal is passed as the Python object in its position (torch.add(1, t) is refused: "argument
  'input' (position 1) must be Tensor").  `dtype=D`: `torch.add(a, b, dtype=D)`.
* `result_type A B`: `torch.result_type(a, b)` (binary only: 1 or 3 operands are refused as
  torch refuses them); `promote_types A B`: `torch.promote_types(dA, dB)`; `can_cast FROM TO`:
  `torch.can_cast(dFROM, dTO)` (dtypes only: a 0-d tensor or literal FROM is passed as is, and
  refused).
* `concatenate`: `torch.cat([a, b, ...])`; `stack`: `torch.stack([...])`; `where C X Y`:
  `torch.where(c, x, y)`; `clip A LO HI`: `torch.clip(a, lo, hi)`.
Cells without a form that are binary ops/matmul/sum run fw_torch.answer (the operator form).
"""
from __future__ import annotations

import re
import sys

import torch

import forms_common
import fw_torch

BASE = fw_torch
RULES = [
    # a Python scalar or a dtype where the function takes tensors / other argument types
    ("TypeError", r"must be (Tensor|torch\.dtype|tuple of Tensors), not \w+", "!unsupported"),
    ("TypeError", r"received an invalid combination of arguments", "!unsupported"),
    ("TypeError", r"got an unexpected keyword argument 'dtype'", "!unsupported"),  # torch.add(dtype=)
    ("TypeError", r"expected Tensor as element \d in argument \d, but got \w+", "!unsupported"),
    # torch.clip with a scalar bound the tensor's integer dtype cannot hold (a value refusal)
    ("RuntimeError", r"Clamp (min|max) value \S+ is outside the representable range", "!overflow"),
    ("TypeError", r"takes \d+ positional arguments? but \d+ (was|were) given|"
                  r"missing \d+ required positional argument", "!unsupported"),
    # torch.cat/stack of 0-d tensors or of tensors of different shapes
    ("RuntimeError", r"zero-dimensional tensor .* cannot be concatenated", "!unsupported"),
    ("RuntimeError", r"stack expects each tensor to be equal size", "!unsupported"),
    ("RuntimeError", r"Tensors must have same number of dimensions", "!unsupported"),
    # torch.where with a non-bool condition
    ("RuntimeError", r"where expected condition to be a boolean tensor", "!unsupported"),
    # clamp is not defined for complex / bool
    ("RuntimeError", r"clamp is not supported for complex types", "!unsupported"),
    ("RuntimeError", r"\"clamp\w*\" not implemented for", "!unsupported"),
    # matmul of a 0-d operand
    ("RuntimeError", r"both arguments to matmul need to be at least 1D", "!unsupported"),
]


def setup(mode):
    fw_torch.setup(mode)
    if mode == "float64":
        torch.set_default_dtype(torch.float64)
    else:
        assert mode == "default", mode
    assert torch.get_default_dtype() == (torch.float64 if mode == "float64" else torch.float32)


make = fw_torch.make


def dtype(name):
    return fw_torch.DTYPES[name]


def is_dtype(r):
    return isinstance(r, torch.dtype)


def dtype_token(dt, cell):
    # complex32 (float16 meeting a lower complex) is named, as in fw_torch.py
    return fw_torch.NAMES.get(dt) or fw_torch.NARROW_NAMES.get(dt) or "!unsupported"


def token(r, cell):
    if not isinstance(r, torch.Tensor):
        return "?not a tensor: " + type(r).__name__
    return fw_torch.NAMES.get(r.dtype) or fw_torch.NARROW_NAMES.get(r.dtype) or "!unsupported"


def call(cell, args):
    op = cell.op
    if op == "result_type":
        return torch.result_type(*args)
    if op == "promote_types":
        return torch.promote_types(*args)
    if op == "can_cast":
        return bool(torch.can_cast(*args))
    if op == "concatenate":
        return torch.cat(args)
    if op == "stack":
        return torch.stack(args)
    if op == "where":
        return torch.where(*args)
    if op == "clip":
        return torch.clip(*args)
    if op == "sum":
        return torch.sum(args[0])
    fn = torch.matmul if op == "matmul" else fw_torch.FUNCTION[op]
    kw = {"dtype": fw_torch.DTYPES[cell.dtype]} if cell.dtype else {}
    return fn(*args, **kw)


def classify(e, cell):
    k = fw_torch.classify(e)
    if not k.startswith("?"):
        return k
    return forms_common.classify_rules(e, RULES)


def answer(cell):
    return forms_common.answer(cell, sys.modules[__name__])
