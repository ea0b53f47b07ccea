"""NumPy adapter (policies `numpy` = NumPy 2.4.6 and `numpy1` = NumPy 1.26.4; the venv decides which).

How each cell is performed (the way a NumPy user writes it):

* operands: an n-d tensor is `np.ones(2, dtype)` (all True for bool); a 0-d tensor is
  `np.array(value, dtype)` -- a 0-d ndarray, not a NumPy scalar; a literal is the Python object.
* add subtract multiply divide floor_divide remainder power, the comparisons and bitwise_and/or/xor:
  the Python operators `+ - * / // % ** == != < <= > >= & | ^`, so a literal on the left goes
  through the reflected operator (`1 + a` is `a.__radd__(1)`).  `**` is ndarray.__pow__, which
  has NumPy's "fast scalar power" paths (x**2 -> square, x**0.5 -> sqrt, ...): that is what users get.
* maximum minimum logical_and logical_or logical_xor: `np.maximum(a, b)` etc.
* matmul: `a @ b` (only n-d tensors are recorded).   sum: `np.sum(a)`.
* out=D: the op's ufunc with an out array, `np.add(a, b, out=np.empty(2, D))` (`np.less`,
  `np.power`, ...), with NumPy's default casting='same_kind' -- `a += b` is exactly
  `np.add(a, b, out=a)`.  matmul has no out cells.

The answer is the dtype of the result (ndarray or NumPy scalar).  Errors are classified by exception
type AND message (see `classify`); an unknown exception returns "?..." so that it shows up as an
adapter error instead of being guessed.

Results outside the 15 dtypes: NumPy 1 turns a Python int that fits no integer dtype (>= 2**64 or
< -2**63) into an object array, and the op then runs elementwise on Python objects, giving an
object array (or a plain Python int/float/bool for 0-d operands).  That is answered `!overflow`
(the literal's value fits no NumPy dtype); it never happens with NumPy 2 (OverflowError).

Warnings (RuntimeWarning overflow/divide by zero, DeprecationWarning) are not errors: the dtype is
recorded.  If the environment variable PROMOTE_WARN_LOG names a file, each warning is appended to
it as `CELL<TAB>Category: message`, and each exception as `CELL<TAB>raised Type: message` (used by
analyze_numpy.py for the notes).
"""
from __future__ import annotations

import os
import warnings

import numpy as np
import syntax  # noqa: E402  (tools/oracle is on sys.path in the worker)

NAMES = {
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
    "float16", "float32", "float64", "complex64", "complex128",
}

OPERATORS = syntax.OPERATORS
FUNCTIONS = {
    "maximum": np.maximum, "minimum": np.minimum, "logical_and": np.logical_and,
    "logical_or": np.logical_or, "logical_xor": np.logical_xor,
}
UFUNCS = {
    "add": np.add, "subtract": np.subtract, "multiply": np.multiply, "divide": np.divide,
    "floor_divide": np.floor_divide, "remainder": np.remainder, "power": np.power,
    "maximum": np.maximum, "minimum": np.minimum, "equal": np.equal, "not_equal": np.not_equal,
    "less": np.less, "less_equal": np.less_equal, "greater": np.greater,
    "greater_equal": np.greater_equal, "logical_and": np.logical_and,
    "logical_or": np.logical_or, "logical_xor": np.logical_xor, "bitwise_and": np.bitwise_and,
    "bitwise_or": np.bitwise_or, "bitwise_xor": np.bitwise_xor,
}

_LOG = os.environ.get("PROMOTE_WARN_LOG")


def setup(mode):
    assert mode == "default", mode
    np.seterr(all="warn")  # the default, made explicit


def np_dtype(name):
    """The NumPy dtype of a name; the narrow ones are ml_dtypes' (record_narrow.py only)."""
    if name in syntax.NARROW_DTYPES:
        import ml_dtypes  # ml_dtypes==0.6.0 (requirements-numpy.txt)
        return np.dtype(getattr(ml_dtypes, name))
    return name


def make(o):
    if o.kind == "literal":
        return o.py
    assert not o.weak, "numpy has no weak tensors"
    if o.kind == "tensor":
        return np.ones(2, dtype=np_dtype(o.dtype))
    return np.array(o.py, dtype=np_dtype(o.dtype))


def huge_int(cell):
    """A Python int literal outside [-2**63, 2**64) is in the cell (NumPy 1 makes it an object)."""
    for o in cell.operands:
        if o.kind == "literal":
            v = o.py
            if type(v) is int and not (-2**63 <= v < 2**64):
                return True
    return False


def classify(e, cell):
    """Map a NumPy exception to an answer token (by type and message)."""
    msg = str(e)
    name = type(e).__name__
    if isinstance(e, OverflowError):
        # "Python integer 300 out of bounds for uint8", "Python int too large to convert to C long"
        return "!overflow"
    if name == "UFuncOutputCastingError" or (
            isinstance(e, TypeError) and msg.startswith("Cannot cast ufunc") and "output" in msg):
        # out= refused by casting='same_kind'
        return "!no_promotion"
    if isinstance(e, TypeError) and (
            "not supported for the input types" in msg        # no loop (bitwise on floats, // on complex)
            or "numpy boolean subtract" in msg                 # bool - bool
            or "did not contain a loop with signature" in msg):
        return "!unsupported"
    if huge_int(cell) and (
            (isinstance(e, TypeError) and ("unsupported operand type" in msg
                                           or "not supported between instances" in msg))
            or (isinstance(e, AttributeError) and "has no attribute" in msg)):
        # NumPy 1's object loop (a huge int literal made an object array): Python refuses the
        # op on these objects (float & int, complex < int), or the loop looks for a method the
        # Python object lacks (np.logical_xor calls `x.logical_xor(y)` on objects)
        return "!unsupported"
    if isinstance(e, ValueError) and "Integers to negative integer powers are not allowed" in msg:
        # int ** negative int: the dtypes promote, the value is refused (the spec's `value`)
        return "!value"
    return "?" + name + ":" + msg.replace("\n", " ")[:200]


def dtype_token(r, cell):
    if isinstance(r, (np.ndarray, np.generic)):
        name = r.dtype.name
        if name in NAMES:
            return name
        if any(o.dtype in syntax.NARROW_DTYPES for o in cell.operands) and (
                name in syntax.NARROW_DTYPES or name == "bfloat16"):
            return name  # ml_dtypes' types, where a cell has one (record_narrow.py)
        if name == "object" and huge_int(cell):
            return "!overflow"
        return "?result dtype " + name
    if isinstance(r, (bool, int, float, complex)) and huge_int(cell):
        return "!overflow"  # NumPy 1, 0-d operand with a huge int: the object loop's Python scalar
    return "?result type " + type(r).__name__


def compute(cell):
    args = [make(o) for o in cell.operands]
    op = cell.op
    if op == "sum":
        return np.sum(args[0])
    if cell.out:
        return UFUNCS[op](args[0], args[1], out=np.empty(2, dtype=cell.out))
    if op in OPERATORS:
        return OPERATORS[op](args[0], args[1])
    return FUNCTIONS[op](args[0], args[1])


def answer(cell):
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            r = compute(cell)
            ans = dtype_token(r, cell)
        except Exception as e:  # noqa: BLE001 -- classified by type and message
            ans = classify(e, cell)
            exc = e
        else:
            exc = None
    if _LOG and (ws or exc is not None):
        with open(_LOG, "a") as f:
            if exc is not None:
                f.write(f"{cell}\traised {type(exc).__name__}: {str(exc).splitlines()[0]}\n")
            for w in ws:
                f.write(f"{cell}\t{w.category.__name__}: {str(w.message).splitlines()[0]}\n")
    return ans
