"""Array API adapter (policy `array-api`): array-api-strict 2.6.1 with api_version="2024.12".

array-api-strict's default api_version is "2025.12"; setup() selects "2024.12", the standard the
`array-api` policy names (its promotion code does not depend on the version between the two:
set PROMOTE_ARRAY_API_VERSION=2025.12 to record the other one for comparison).

How each cell is performed (xp = array_api_strict):

* operands: an n-d tensor is `xp.ones(2, dtype=xp.D)` (True for bool); a 0-d tensor is
  `xp.asarray(value, dtype=xp.D)`; a literal is the Python object.
* add subtract multiply divide floor_divide remainder power, comparisons, bitwise_and/or/xor:
  the Python operators `+ - * / // % ** == != < <= > >= & | ^` (a literal on the left goes
  through the reflected operator).  maximum minimum logical_and/or/xor: `xp.maximum(a, b)` etc.
  (functions accept one Python scalar since 2024.12).  matmul: `a @ b`.  sum: `xp.sum(a)`.
* out=D: the Array API has no `out=` argument.  When D is the first operand's dtype and the op has
  an in-place operator (`+= -= *= /= //= %= **= &= |= ^=`), the cell is `a op= b` on a fresh `a`
  (array-api-strict refuses it with TypeError when the promoted dtype differs from a's dtype:
  answered `!no_promotion`).  Every other out cell -- D different from a's dtype, or an op
  without an in-place operator (comparisons, maximum, minimum, logical_*) -- cannot be written
  with the API at all and is answered `!unsupported`.

Errors (TypeError or OverflowError from array-api-strict, or NumPy's own error passed through) are
classified by type and message in classify().  Warnings are not errors: the dtype is recorded.  If
PROMOTE_WARN_LOG names a file, exceptions and warnings are appended to it as in fw_numpy.py.
"""
from __future__ import annotations

import operator
import os
import warnings

import array_api_strict as xp
from array_api_strict._array_object import Array
import syntax  # noqa: E402  (tools/oracle is on sys.path in the worker)

NAMES = {
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
    "float32", "float64", "complex64", "complex128",
}
OPERATORS = syntax.OPERATORS
INPLACE = {
    "add": operator.iadd, "subtract": operator.isub, "multiply": operator.imul,
    "divide": operator.itruediv, "floor_divide": operator.ifloordiv, "remainder": operator.imod,
    "power": operator.ipow, "bitwise_and": operator.iand, "bitwise_or": operator.ior,
    "bitwise_xor": operator.ixor,
}
FUNCTIONS = {
    "maximum": "maximum", "minimum": "minimum", "logical_and": "logical_and",
    "logical_or": "logical_or", "logical_xor": "logical_xor",
}

_LOG = os.environ.get("PROMOTE_WARN_LOG")


def setup(mode):
    assert mode == "default", mode
    xp.set_array_api_strict_flags(api_version=os.environ.get("PROMOTE_ARRAY_API_VERSION", "2024.12"))


def make(o):
    if o.kind == "literal":
        return o.py
    assert not o.weak
    dt = getattr(xp, o.dtype)
    if o.kind == "tensor":
        return xp.ones(2, dtype=dt)
    return xp.asarray(o.py, dtype=dt)


def classify(e):
    msg = str(e)
    if isinstance(e, OverflowError):
        # "Python int scalars must be within the bounds of the dtype for integer arrays",
        # numpy's "Python integer ... out of bounds", "Python int too large to convert to C long"
        return "!overflow"
    if isinstance(e, TypeError):
        if "cannot be type promoted together" in msg:
            return "!no_promotion"  # mixed kinds / uint64 with a signed int, array with array
        if msg.startswith("Cannot perform __i"):
            return "!no_promotion"  # a op= b whose promoted dtype is not a's dtype
        if msg.startswith("Python ") and ("can only be promoted with" in msg
                                          or "cannot be promoted with" in msg):
            # a Python scalar of another kind than the array: the standard leaves mixed kinds
            # unspecified and array-api-strict refuses them, as it refuses mixed-kind arrays
            return "!no_promotion"
        if msg.startswith("Only ") and "dtypes are allowed" in msg:
            return "!unsupported"  # the op is not defined for this dtype category
        if "not supported for the input types" in msg:
            # NumPy's own refusal, reached when array-api-strict let a complex scalar through
            # to a real-only op (float32 // 1j: the category check looks at the array only)
            return "!unsupported"
    if isinstance(e, ValueError) and "Integers to negative integer powers are not allowed" in msg:
        return "!value"  # NumPy's integer power with a negative exponent (a value error)
    return "?" + type(e).__name__ + ":" + msg.replace("\n", " ")[:200]


def compute(cell):
    args = [make(o) for o in cell.operands]
    op = cell.op
    if op == "sum":
        return xp.sum(args[0])
    if cell.out:
        a = cell.operands[0]
        if cell.out != a.dtype or op not in INPLACE:
            return None  # no way to write it with the API
        return INPLACE[op](args[0], args[1])
    if op in OPERATORS:
        return OPERATORS[op](args[0], args[1])
    return getattr(xp, FUNCTIONS[op])(args[0], args[1])


def answer(cell):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = compute(cell)
            exc = None
        except Exception as e:  # noqa: BLE001 -- classified by type and message
            exc = e
    if _LOG and (ws or exc is not None):
        with open(_LOG, "a") as f:
            if exc is not None:
                f.write(f"{cell}\traised {type(exc).__name__}: {str(exc).splitlines()[0]}\n")
            for w in ws:
                f.write(f"{cell}\t{w.category.__name__}: {str(w.message).splitlines()[0]}\n")
    if exc is not None:
        return classify(exc)
    if r is None:
        return "!unsupported"
    if not isinstance(r, Array):
        return "?result type " + type(r).__name__
    name = str(r.dtype._np_dtype.name) if hasattr(r.dtype, "_np_dtype") else str(r.dtype)
    if name not in NAMES:
        return "?result dtype " + name
    return name
