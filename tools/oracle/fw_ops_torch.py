"""Issue-12 ops on PyTorch 2.15 (policy `torch`, CPU, default dtype float32).

Operands as in fw_torch.py (torch.ones(2, D), torch.tensor(v, D), Python literals).  Each op is the
torch function a user calls (NAMES below): torch.neg, torch.positive, torch.abs, torch.sign,
torch.square, torch.sqrt, torch.reciprocal, torch.exp ... torch.asin, torch.atan, ...,
torch.bitwise_not (bitwise_invert), torch.real/imag/conj/angle; torch.bitwise_left_shift /
bitwise_right_shift, torch.atan2, torch.hypot, torch.copysign, torch.logaddexp, torch.nextafter,
torch.fmax, torch.fmin, torch.fmod, torch.float_power, torch.heaviside (divmod: torch has none);
reductions torch.sum/prod/mean(a[, dtype=D]), torch.max/min/argmax/any/all/var/std(a),
torch.cumsum/cumprod(a, dim=0[, dtype=D]) (dim is required; a 0-d tensor has dim 0 too).
A Python literal is passed as the Python object (most functions refuse it: `!unsupported`).
"""
from __future__ import annotations

import sys

import torch

import fw_torch
import ops_common
from ops_cases import ALL_OPS

ROOTS = {"torch": torch}
NAMES = {op: [f"torch:{op}"] for op in ALL_OPS}
NAMES.update({
    "negative": ["torch:neg"], "absolute": ["torch:abs"], "arcsin": ["torch:asin"],
    "arctan": ["torch:atan"], "bitwise_invert": ["torch:bitwise_not"],
    "left_shift": ["torch:bitwise_left_shift"], "right_shift": ["torch:bitwise_right_shift"],
    "arctan2": ["torch:atan2"],
})

RULES = [
    # mean of an integer/bool tensor without dtype=: "mean(): could not infer output dtype. Input
    # dtype must be either a floating point or complex dtype. Got: Long"
    ("RuntimeError", r"could not infer output dtype", "!unsupported"),
    # ops refused for a dtype category with a message of their own
    ("RuntimeError", r"does not support complex|not supported for complex|is not supported for complex", "!unsupported"),
    ("RuntimeError", r"doesn't support complex|don't support complex|not implemented for complex", "!unsupported"),
    ("RuntimeError", r"[Bb]oolean|bool tensor", "!unsupported"),
    ("TypeError", r"received an invalid combination of arguments", "!unsupported"),
    ("RuntimeError", r"only supports floating-point dtypes|Expected a floating point or complex tensor|"
                     r"expected a floating|must be a floating|only support floating", "!unsupported"),
    ("RuntimeError", r"is not supported for integer|not implemented for integer|integral", "!unsupported"),
    ("RuntimeError", r"[Ee]xpected .*dtype .* but got|Expected out tensor to have dtype", "!no_promotion"),
    # heaviside refuses mixed dtypes instead of promoting: "heaviside is not yet implemented for
    # tensors with different dtypes."
    ("RuntimeError", r"not yet implemented for tensors with different dtypes", "!no_promotion"),
    ("*", r"not (yet )?implemented for complex tensors", "!unsupported"),  # fmax fmin heaviside
    ("TypeError", r"is not implemented for tensors with non-complex dtypes", "!unsupported"),  # imag
    ("NotImplementedError", r"torch.sign is not intended to support complex", "!unsupported"),
    ("*", r"does not support (complex|bool) input", "!unsupported"),  # argmax
]


def setup(mode):
    fw_torch.setup(mode)


make = fw_torch.make


def call(op, fn, args, cell):
    kw = {"dtype": fw_torch.DTYPES[cell.dtype]} if cell.dtype else {}
    if op in ("cumsum", "cumprod"):
        return fn(args[0], dim=0, **kw)
    return fn(*args, **kw)


def token(r, cell):
    if not isinstance(r, torch.Tensor):
        return ops_common.python_scalar_token(r) or "?not a tensor: " + type(r).__name__
    return fw_torch.NAMES.get(r.dtype) or "!unsupported"  # complex32 etc.: see fw_torch.py


def classify(e, cell):
    k = fw_torch.classify(e)
    if not k.startswith("?"):
        return k
    return ops_common.classify_rules(e, RULES)


def answer(cell):
    return ops_common.answer(cell, sys.modules[__name__])
