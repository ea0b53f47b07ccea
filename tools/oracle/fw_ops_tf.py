"""Issue-12 ops on TensorFlow 2.21 (policies tf, tf-legacy, tf-all, tf-safe; modes in fw_tf.py).

Operands as in fw_tf.py (tf.constant([v, v], D), tf.constant(v, D), WeakTensor.from_tensor for `~D`,
Python literals).  Each op is TensorFlow's own function (tf.math.* / tf.bitwise.*), see NAMES:
negative -> tf.math.negative, absolute -> tf.math.abs, arcsin -> tf.math.asin, isnan ->
tf.math.is_nan, bitwise_invert -> tf.bitwise.invert, left_shift -> tf.bitwise.left_shift,
arctan2 -> tf.math.atan2, fmod -> tf.truncatemod (C fmod: the remainder of truncated division),
sum -> tf.math.reduce_sum, var -> tf.math.reduce_variance, std -> tf.math.reduce_std,
cumsum -> tf.math.cumsum (axis 0; a 0-d tensor is refused), argmax -> tf.math.argmax (axis 0).
An op with no TF function (positive, log2, log10, trunc, signbit, hypot, copysign, logaddexp,
fmax, fmin, float_power, divmod, heaviside) answers `!unsupported` with the AttributeError of
tf.math.<op>.  TF's reductions take no dtype argument, so there are no dtype= cells.
"""
from __future__ import annotations

import re
import sys

import fw_tf
import ops_common
from ops_cases import ALL_OPS

ROOTS = {}
NAMES = {op: [f"tf:math.{op}"] for op in ALL_OPS}
NAMES.update({
    "absolute": ["tf:math.abs"], "arcsin": ["tf:math.asin"], "arctan": ["tf:math.atan"],
    "isnan": ["tf:math.is_nan"], "isinf": ["tf:math.is_inf"], "isfinite": ["tf:math.is_finite"],
    "bitwise_invert": ["tf:bitwise.invert"], "left_shift": ["tf:bitwise.left_shift"],
    "right_shift": ["tf:bitwise.right_shift"], "arctan2": ["tf:math.atan2"],
    "fmod": ["tf:math.fmod", "tf:truncatemod"],
    "sum": ["tf:math.reduce_sum"], "prod": ["tf:math.reduce_prod"], "mean": ["tf:math.reduce_mean"],
    "max": ["tf:math.reduce_max"], "min": ["tf:math.reduce_min"], "any": ["tf:math.reduce_any"],
    "all": ["tf:math.reduce_all"], "var": ["tf:math.reduce_variance"],
    "std": ["tf:math.reduce_std"],
})

RULES = [
    # reduce_variance/reduce_std of an integer tensor: "Input must be either real or complex.
    # Received integer type"; real of bool: "input must be a numeric tensor"; conj of bool:
    # "Expected numeric or variant tensor, got dtype tf.bool."
    ("TypeError", r"^Input must be either real or complex\. Received integer type", "!unsupported"),
    ("TypeError", r"^input must be a numeric tensor, but got tensor with dtype", "!unsupported"),
    ("TypeError", r"^Expected numeric or variant tensor, got dtype", "!unsupported"),
    # cumsum/cumprod/argmax along axis 0 of a 0-d tensor: "ScanOp: Expected scan axis in the range"
    ("InvalidArgumentError", r"Expected scan axis in the range|Expected dimension in the range", "!unsupported"),
    ("TypeError", r"[Aa]rgument `?\w+`? must be a .* tensor|must be (a )?(real|floating|complex)", "!unsupported"),
    ("ValueError", r"must be (a )?(real|floating|complex|float)", "!unsupported"),
    ("InvalidArgumentError", r"[Ee]xpected .*dimension|out of range|must be in range|Expected axis", "!unsupported"),
    ("ValueError", r"\bas_numpy_dtype\b|Attempt to convert a value .* with an unsupported type", "!unsupported"),
]


def setup(mode):
    fw_tf.setup(mode)
    ROOTS["tf"] = fw_tf.tf


make = fw_tf.make


def call(op, fn, args, cell):
    if op in ("cumsum", "cumprod", "argmax"):
        return fn(args[0], axis=0)
    return fn(*args)


def token(r, cell):
    try:
        return fw_tf.token(r)
    except fw_tf._NotATensor:
        return ops_common.python_scalar_token(r) or "!unsupported"


def classify(e, cell):
    msg = str(e)
    # logical_not / reduce_any / reduce_all are defined for bool only: a non-bool input fails in
    # the conversion to bool ("Cannot convert 1 to EagerTensor of dtype bool", "Tensor conversion
    # requested dtype bool", "cannot compute LogicalNot as input #0(zero-based) was expected to be
    # a bool tensor"): unsupported, as fw_tf.py answers for logical_and/or/xor
    if cell.op in ("logical_not", "any", "all") and re.search(
            r"EagerTensor of dtype bool|requested dtype bool|expected to be a bool tensor", msg):
        return "!unsupported"
    # tf.math.angle of a real tensor is where(x < 0, pi * ones_like(x), zeros_like(x)): for a
    # bool/integer x (and bfloat16 in legacy mode) an internal step fails ("Cannot convert
    # 3.141592653589793 to EagerTensor of dtype int8", "cannot compute Select as input #2 was
    # expected to be a double tensor"): angle is not defined for that dtype
    if cell.op == "angle" and re.search(r"Cannot convert (0|3\.141592653589793) to EagerTensor|"
                                        r"cannot compute Select|DTypePromotionError|"
                                        r"\bpromot", ops_common.one_line(e)):
        return "!unsupported"
    k = fw_tf.classify(e, cell)
    if k and not k.startswith("?") and k != "=value":
        return k
    return ops_common.classify_rules(e, RULES)


def answer(cell):
    fw_tf.pywrap_tfe.TFE_ClearScalarCache()
    return ops_common.answer(cell, sys.modules[__name__])
