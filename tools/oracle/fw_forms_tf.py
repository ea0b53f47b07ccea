"""Issue-10 forms on TensorFlow 2.21 (policies tf, tf-legacy, tf-all, tf-safe; modes in fw_tf.py).

Operands as in fw_tf.py (tf.constant([v, v], D), tf.constant(v, D), WeakTensor.from_tensor for
`~D`, Python literals).  Three entry points for the binary ops:
* operator (no form; fw_tf.py, tests/fixtures/resolve);
* `function`: TensorFlow's own functions (FUNCTION below): tf.math.add, tf.math.subtract,
  tf.math.multiply, tf.math.truediv (divide), tf.math.floordiv, tf.math.floormod (remainder),
  tf.math.pow, tf.math.maximum/minimum, tf.math.equal ... greater_equal, tf.math.logical_*,
  tf.bitwise.bitwise_and/or/xor, tf.linalg.matmul (1-d operands as a row and a column,
  tf.expand_dims(a, 0) and tf.expand_dims(b, -1), as fw_tf.py does for `@`; tf.linalg.matmul
  refuses rank 1), tf.math.reduce_sum;
* `tnp`: tf.experimental.numpy: tnp.add, subtract, multiply, true_divide, floor_divide,
  remainder, power, maximum, minimum, equal ... greater_equal, logical_*, bitwise_*, tnp.matmul
  (1-d as is), tnp.sum.
Op-less: `result_type ...` -> tnp.result_type(*operands); `result_type:flexible ...` ->
tensorflow.python.framework.flexible_dtypes.result_type(*operands), which returns (dtype, is_weak):
answered `~D` when weak; `promote_types A B` -> tnp.promote_types(dA, dB); `can_cast` ->
tnp.can_cast (TF has none: the AttributeError, `!unsupported`).
n-ary: concatenate -> tf.concat([..], axis=0), stack -> tf.stack([..]), where -> tf.where(c, x, y),
clip -> tf.clip_by_value(a, lo, hi); form `tnp`: tnp.concatenate, tnp.stack, tnp.where, tnp.clip.
"""
from __future__ import annotations

import sys

import forms_common
import fw_tf

BASE = fw_tf
tf = tnp = flexible_dtypes = None

FUNCTION = {
    "add": "math.add", "subtract": "math.subtract", "multiply": "math.multiply",
    "divide": "math.truediv", "floor_divide": "math.floordiv", "remainder": "math.floormod",
    "power": "math.pow", "maximum": "math.maximum", "minimum": "math.minimum",
    "equal": "math.equal", "not_equal": "math.not_equal", "less": "math.less",
    "less_equal": "math.less_equal", "greater": "math.greater", "greater_equal": "math.greater_equal",
    "logical_and": "math.logical_and", "logical_or": "math.logical_or",
    "logical_xor": "math.logical_xor", "bitwise_and": "bitwise.bitwise_and",
    "bitwise_or": "bitwise.bitwise_or", "bitwise_xor": "bitwise.bitwise_xor",
    "sum": "math.reduce_sum",
}
TNP = {"divide": "true_divide"}
NARY = {None: {"concatenate": "concat", "stack": "stack", "where": "where", "clip": "clip_by_value"},
        "tnp": {"concatenate": "concatenate", "stack": "stack", "where": "where", "clip": "clip"}}

RULES = [
    ("AttributeError", r"module '[\w.]+' has no attribute '\w+'", "!unsupported"),
    ("*", r"ConcatOp : Ranks of all input tensors should match|"
          r"ConcatOp : Expected concatenating dimensions in the range|"
          r"Shapes of all inputs must match|Can't concatenate scalars", "!unsupported"),
    ("TypeError", r"[Gg]ot an unexpected keyword argument 'dtype'", "!unsupported"),  # tf.math.add(dtype=)
    # flexible_dtypes.result_type in modes off/legacy (PromoMode.OFF/LEGACY refuse every pair it
    # is asked about) and SAFE's refusals
    ("TypeError", r"^In promotion mode PromoMode\.\w+, implicit dtype promotion between", "!no_promotion"),
    # tf.clip_by_value with a 0-d tensor to clip and n-d bounds: a shape refusal
    ("ValueError", r"Shapes \(\) and \(\d+,\) are incompatible", "!unsupported"),
    ("*", r"[Ii]n\[0\] and In\[1\] ndims must be >= ?[12]|must be at least (rank|1)", "!unsupported"),
]


def setup(mode):
    global tf, tnp, flexible_dtypes
    fw_tf.setup(mode)
    tf = fw_tf.tf
    import tensorflow.experimental.numpy as _tnp
    from tensorflow.python.framework import flexible_dtypes as _fd
    tnp, flexible_dtypes = _tnp, _fd


make = fw_tf.make


def dtype(name):
    return getattr(tf, name)


def is_dtype(r):
    import numpy as np
    return isinstance(r, (tf.DType, np.dtype)) or (isinstance(r, type) and issubclass(r, np.generic))


def dtype_token(dt, cell):
    d = tf.as_dtype(dt)
    if d == tf.string and any(o.kind == "literal" and type(o.py) is int
                              and not -2**63 <= o.py < 2**64 for o in cell.operands):
        # modes off/legacy: tnp.result_type is np.result_type over the operands, which makes a
        # Python int beyond int64/uint64 an object array (TF names it string): the value fits
        # no dtype, as in NumPy 1
        return "!overflow"
    return fw_tf.NAMES.get(d) or "?dtype " + str(d)


def token(r, cell):
    try:
        return fw_tf.token(r)
    except fw_tf._NotATensor:
        return "!unsupported"


def _path(root, dotted):
    obj = root
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def call(cell, args):
    op = cell.op
    if op == "result_type":
        if cell.form == "flexible":
            d, weak = flexible_dtypes.result_type(*args)
            return ("~" if weak else "") + dtype_token(d, cell)
        return tnp.result_type(*args)
    if op == "promote_types":
        return tnp.promote_types(*args)
    if op == "can_cast":
        return bool(tnp.can_cast(*args))
    if op in forms_common.NARY:
        fn = _path(tnp if cell.form == "tnp" else tf, NARY[cell.form][op])
        if op == "concatenate":
            return fn(args, 0) if cell.form is None else fn(args)
        if op == "stack":
            return fn(args)
        return fn(*args)
    if cell.form == "tnp":
        return getattr(tnp, TNP.get(op, op))(*args)
    assert cell.form == "function", cell
    if op == "matmul":
        a, b = args
        return tf.linalg.matmul(tf.expand_dims(a, 0), tf.expand_dims(b, -1))
    kw = {"dtype": dtype(cell.dtype)} if cell.dtype else {}
    return _path(tf, FUNCTION[op])(*args, **kw)


def _cannot_convert(e):
    """`Cannot convert V to EagerTensor of dtype D` with several literals in the cell (n-ary ops):
    the literal V named in the message decides, as fw_tf.classify does for one literal: a value
    of D's kind that does not fit is `!overflow`, a value of another kind `!no_promotion`."""
    m = fw_tf._CANNOT.search(str(e))
    if not (isinstance(e, TypeError) and m):
        return None
    from syntax import KIND, parse_operand
    try:
        v = parse_operand(m.group(1)).py
    except Exception:  # noqa: BLE001 -- not a literal's repr
        return None
    dk = KIND.get(fw_tf._TFNAME.get(m.group(2), m.group(2)))
    if dk is None:
        return None
    same = {"bool": "b", "int": "iu", "float": "f", "complex": "c"}[type(v).__name__]
    return "!overflow" if dk in same else "!no_promotion"


def classify(e, cell):
    k = _cannot_convert(e) if sum(o.kind == "literal" for o in cell.operands) > 1 else None
    if k:
        return k
    k = forms_common.classify_rules(e, RULES)
    if k:
        return k
    k = fw_tf.classify(e, cell)
    if k == "=value":
        return "!value"
    return None if k.startswith("?") else k


def answer(cell):
    fw_tf.pywrap_tfe.TFE_ClearScalarCache()
    return forms_common.answer(cell, sys.modules[__name__])
