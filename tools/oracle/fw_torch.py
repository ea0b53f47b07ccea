"""PyTorch adapter (policy `torch`, torch==2.15.0 on CPU, default dtype float32).

How each cell is performed:

* Operands.  `tensor`: ``torch.ones(2, dtype=D)`` (all True for bool).  `zerodim`:
  ``torch.tensor(value, dtype=D)`` (0-d; value 1/True unless the cell gives one).
  `literal`: the Python object itself (bool/int/float/complex, any size), which PyTorch
  wraps as a "wrapped number" 0-d tensor internally.  PyTorch has no weak tensors: the
  `torch` policy is recorded without `~` operands, and no result is ever marked `~`.
* Ops with a Python operator are written with it, so a literal on the left goes through
  the reflected dunder (``1 - a`` -> ``Tensor.__rsub__``): add ``a + b``, subtract ``a - b``,
  multiply ``a * b``, divide ``a / b``, floor_divide ``a // b``, remainder ``a % b``,
  power ``a ** b``, equal ``a == b``, not_equal ``a != b``, less ``a < b``, less_equal
  ``a <= b``, greater ``a > b``, greater_equal ``a >= b``, bitwise_and ``a & b``,
  bitwise_or ``a | b``, bitwise_xor ``a ^ b``, matmul ``a @ b`` (1-d with 1-d: the dot
  product).  Literal op literal never occurs in the case list.
* Ops without an operator use the torch function: ``torch.maximum(a, b)``,
  ``torch.minimum(a, b)``, ``torch.logical_and/or/xor(a, b)``.  These take Tensors only:
  with a Python literal on either side they raise TypeError ("argument 'other'
  (position 2) must be Tensor, not int"), recorded as `!unsupported` (the API refuses a
  Python scalar there).
* sum: ``a.sum()`` (full reduction, no dtype argument).
* ``out=D``: the op's torch function with an ``out=`` tensor of dtype D and the result's
  shape: ``torch.add(a, b, out=torch.empty(2, dtype=D))`` (``torch.empty(())`` when both
  operands are 0-d).  Functions: add->torch.add, subtract->torch.sub, multiply->torch.mul,
  divide->torch.div, floor_divide->torch.floor_divide, remainder->torch.remainder,
  power->torch.pow, maximum/minimum->torch.maximum/minimum, the comparisons ->
  torch.eq/ne/lt/le/gt/ge, logical_* -> torch.logical_*, bitwise_* -> torch.bitwise_*.
  In the case list an out= cell always has a tensor first operand, so the function is
  always called tensor-first (a literal second operand is passed as the Python object).
  The answer is D, or the error PyTorch raises (its ``canCast`` check in TensorIterator:
  "result type Float can't be cast to the desired output type Long" -> `!no_promotion`).

Errors are classified by exception type AND message (``_RULES`` below); a message that no
rule knows is returned as ``?unclassified ...`` so the harness reports it as an adapter
error instead of guessing.

Value-level errors: ``int_tensor ** -1`` ("Integers to negative integer powers are not
allowed") and integer ``//``/``%`` by a scalar that is 0 in the tensor's dtype (the literal
0/False, a 0-d False, or e.g. ``int8 // 256``, which wraps to 0: "ZeroDivisionError") are
recorded as `!value` (the spec's kind for values the framework refuses at run time).

Result dtypes outside the 15 of the spec: a ``float16`` tensor (n-d or 0-d) combined with
a complex literal or a complex 0-d tensor of a lower category yields ``complex32``
(torch.chalf, "ComplexHalf"); where the op has a kernel for it (add, subtract, multiply,
``complex / float16``) it succeeds, and since the answer vocabulary has no such dtype it is
recorded as `!unsupported` (80 cells, described in notes/torch.md).  ``bfloat16`` the same
way promotes to ``BComplex32``, for which almost no kernel exists ("add_stub" not
implemented for 'BComplex32') -> a genuine `!unsupported` (eq/ne do work -> bool).  Any
other dtype outside the 15 would also give `!unsupported`; none occurs.
"""
from __future__ import annotations

import re

import torch
import syntax  # noqa: E402  (tools/oracle is on sys.path in the worker)

NAMES = {
    torch.bool: "bool", torch.uint8: "uint8", torch.uint16: "uint16", torch.uint32: "uint32",
    torch.uint64: "uint64", torch.int8: "int8", torch.int16: "int16", torch.int32: "int32",
    torch.int64: "int64", torch.bfloat16: "bfloat16", torch.float16: "float16",
    torch.float32: "float32", torch.float64: "float64", torch.complex64: "complex64",
    torch.complex128: "complex128",
}
DTYPES = {v: k for k, v in NAMES.items()}
# the narrow dtypes (record_narrow.py), complex32 included: float16 + 1j is complex32 (ComplexHalf;
# the classic recordings answered it `!unsupported` before complex32 had a name, re-recorded by
# rerecord.py --cells)
NARROW_NAMES = {
    torch.float8_e4m3fn: "float8_e4m3fn", torch.float8_e5m2: "float8_e5m2",
    torch.float8_e4m3fnuz: "float8_e4m3fnuz", torch.float8_e5m2fnuz: "float8_e5m2fnuz",
    torch.float8_e8m0fnu: "float8_e8m0fnu", torch.complex32: "complex32",
}
DTYPES.update({v: k for k, v in NARROW_NAMES.items()})

OPERATOR = {
    **syntax.OPERATORS,
    "maximum": lambda a, b: torch.maximum(a, b),
    "minimum": lambda a, b: torch.minimum(a, b),
    "logical_and": lambda a, b: torch.logical_and(a, b),
    "logical_or": lambda a, b: torch.logical_or(a, b),
    "logical_xor": lambda a, b: torch.logical_xor(a, b),
}
FUNCTION = {
    "add": torch.add, "subtract": torch.sub, "multiply": torch.mul, "divide": torch.div,
    "floor_divide": torch.floor_divide, "remainder": torch.remainder, "power": torch.pow,
    "maximum": torch.maximum, "minimum": torch.minimum,
    "equal": torch.eq, "not_equal": torch.ne, "less": torch.lt, "less_equal": torch.le,
    "greater": torch.gt, "greater_equal": torch.ge,
    "logical_and": torch.logical_and, "logical_or": torch.logical_or,
    "logical_xor": torch.logical_xor,
    "bitwise_and": torch.bitwise_and, "bitwise_or": torch.bitwise_or,
    "bitwise_xor": torch.bitwise_xor,
}

# (exception type, message regex, answer).  Checked in order; first match wins.
_RULES = [
    # out= casting refusal (TensorIterator::compute_types, canCast)
    (RuntimeError, r"result type \w+ can't be cast to the desired output type \w+", "!no_promotion"),
    # the barebones unsigned types have no promotion with other types
    (RuntimeError, r"Promotion for uint16, uint32, uint64 types is not supported", "!no_promotion"),
    # dot/matmul demand equal dtypes
    (RuntimeError, r"expected .*same dtype", "!no_promotion"),
    # a Python int that does not fit the dtype it is converted to
    (RuntimeError, r"value cannot be converted to type \S+ without overflow", "!overflow"),
    (OverflowError, r"", "!overflow"),
    (RuntimeError, r"Overflow when unpacking long", "!overflow"),
    # kernels missing for a dtype
    (NotImplementedError, r"not implemented for '\w+'", "!unsupported"),
    (RuntimeError, r"not implemented for '\w+'", "!unsupported"),
    # subtract with bool operands
    (NotImplementedError, r"Subtraction, the `-` operator, with (a bool tensor|two bool tensors) is not supported", "!unsupported"),
    # functions that take Tensors only, given a Python scalar
    (TypeError, r"argument '\w+' \(position \d\) must be Tensor, not \w+", "!unsupported"),
    # maximum/minimum refuse complex inputs
    (TypeError, r"^(maximum|minimum) not implemented for complex tensors", "!unsupported"),
    # float8 meets any other dtype: "Promotion for Float8 Types is not supported, attempted to
    # promote Float8_e4m3fn and Float" (c10/core/ScalarType.cpp promoteTypes)
    (RuntimeError, r"Promotion for Float8 Types is not supported", "!no_promotion"),
    # float8 with a complex scalar: no complex counterpart ("Unknown Complex ScalarType")
    (RuntimeError, r"Unknown Complex ScalarType for Float8", "!no_promotion"),
    # value-level refusals (the spec's `value`: the dtypes promote, these values are refused):
    # integer tensor ** negative integer scalar ...
    (RuntimeError, r"^Integers to negative integer powers are not allowed", "!value"),
    # ... and integer // or % by a scalar that is 0 after conversion to the tensor's dtype
    (RuntimeError, r"^ZeroDivisionError$", "!value"),
]


def classify(e: BaseException) -> str:
    msg = str(e)
    for typ, rx, ans in _RULES:
        if isinstance(e, typ) and re.search(rx, msg):
            return ans
    return "?unclassified " + type(e).__name__ + ": " + msg.replace("\n", " ")[:160]


def setup(mode):
    torch.set_default_dtype(torch.float32)
    torch.set_num_threads(1)
    import warnings
    warnings.filterwarnings("ignore")


def make(opnd):
    if opnd.kind == "literal":
        return opnd.py
    dt = DTYPES[opnd.dtype]
    if opnd.kind == "zerodim":
        return torch.tensor(opnd.py, dtype=dt)
    return torch.ones(2, dtype=dt)


def perform(cell):
    """Run the cell; return the result tensor (or raise what PyTorch raises)."""
    args = [make(o) for o in cell.operands]
    if cell.op == "sum":
        return args[0].sum()
    if cell.out:
        shape = (2,) if any(o.kind == "tensor" for o in cell.operands) else ()
        out = torch.empty(shape, dtype=DTYPES[cell.out])
        r = FUNCTION[cell.op](*args, out=out)
        assert r.dtype == out.dtype
        return r
    return OPERATOR[cell.op](*args)


def raw(cell):
    """(answer token, detail): detail is the torch dtype name or 'Type: message'."""
    try:
        r = perform(cell)
    except Exception as e:  # the framework's answer
        return classify(e), type(e).__name__ + ": " + str(e).replace("\n", " ")
    if not isinstance(r, torch.Tensor):
        return "?not a tensor: " + type(r).__name__, repr(r)
    name = NAMES.get(r.dtype) or NARROW_NAMES.get(r.dtype)
    if name is None:
        # BComplex32 etc.: a dtype outside the spec's names -> see notes/torch.md
        return "!unsupported", "dtype " + str(r.dtype)
    return name, str(r.dtype)


def answer(cell):
    return raw(cell)[0]
