"""PaddlePaddle 3.3.1 (CPU wheel) adapter: policy `paddle`, mode `default` (dynamic graph).

Operands (see syntax.Operand):
  * tensor  -> paddle.to_tensor([v, v], dtype=D)   (v = 1, or True for bool): shape [2]
  * zerodim -> paddle.to_tensor(value, dtype=D)    (shape [], checked)
  * literal -> the Python object itself
Paddle has no weakly typed tensors, so no answer is ever prefixed with `~`.
Paddle has no usable uint16/uint32/uint64 (record.py drops them): `paddle.uint16` exists but every
tensor made with it is bfloat16 (the old bf16-as-uint16 storage), and `paddle.uint32`/`uint64` are
dtype objects that no CPU tensor can be created with ("Not supported numpy dtype uint32").

Ops, written the way a user writes them:
  * add/subtract/multiply/divide/floor_divide/remainder/power, the six comparisons, bitwise_and/or/xor,
    matmul: the Python operators + - * / // % ** == != < <= > >= & | ^ @; a literal on the left goes
    through Python's reflected operator (Tensor.__radd__, __rpow__, __rand__, ...; for comparisons
    Python swaps the comparison: `1 < t` calls `t.__gt__(1)`).
  * maximum/minimum/logical_and/logical_or/logical_xor: paddle.maximum(a, b) etc. (these refuse a
    Python scalar argument: "argument 'y' (position 1) must be Tensor" -> !unsupported).
  * sum: paddle.sum(a) (full reduction).

out=D (the destination's dtype after the write is what is recorded; Paddle never casts into an
existing tensor: its in-place methods, `out=` arguments and paddle.assign(x, output=o) all *replace*
the destination's dtype with the result's, so the recorded answer is the result dtype, not D):
  * D == a's dtype: the in-place method a.add_(b), a.subtract_(b), a.multiply_(b), a.divide_(b),
    a.floor_divide_(b), a.remainder_(b), a.pow_(b), a.equal_(b), a.not_equal_(b), a.less_than_(b),
    a.less_equal_(b), a.greater_than_(b), a.greater_equal_(b), a.logical_and_(b) / or_ / xor_,
    a.bitwise_and_(b) / or_ / xor_; the answer is a.dtype afterwards. maximum/minimum have no
    in-place method in 3.3.1 but do take `out=`, so they use paddle.maximum(a, b, out=o) as below.
    (`a += b` is not in-place in Paddle: Tensor has no __iadd__, so Python rebinds a = a + b.)
  * D != a's dtype: paddle.<op>(a, b, out=o) with o = paddle.zeros([2], D); the answer is o.dtype
    afterwards. bitwise_and/or/xor take `out=` but silently ignore it in dynamic mode (o is left
    untouched, python/paddle/tensor/logic.py:_bitwise_op), so for them a user's
    paddle.assign(paddle.bitwise_and(a, b), output=o) is recorded instead.

Errors are classified by exception type and message (see classify()); an exception not recognised
is returned as `?...` (an adapter bug that the harness reports), never guessed. "Integer division by
zero" from an integer divide/floor_divide/remainder whose divisor is 0 (a 0-d `bool(False)`, the
literals 0/False, or a literal that wraps to 0 in the tensor's integer dtype, e.g. `uint8 // 256`)
is the spec's `!value`: the dtypes promote, the value is refused.
Hangs (integer `**` with a negative or huge exponent never returns) become `X` by the harness timeout.
"""
import os

os.environ.setdefault("GLOG_minloglevel", "2")
os.environ.setdefault("GLOG_v", "0")

import warnings  # noqa: E402

warnings.filterwarnings("ignore")

import paddle  # noqa: E402
import syntax  # noqa: E402  (tools/oracle is on sys.path in the worker)

NAMES = {}
DTYPES = {}

OPERATORS = {
    **syntax.OPERATORS,
    "maximum": lambda a, b: paddle.maximum(a, b),
    "minimum": lambda a, b: paddle.minimum(a, b),
    "logical_and": lambda a, b: paddle.logical_and(a, b),
    "logical_or": lambda a, b: paddle.logical_or(a, b),
    "logical_xor": lambda a, b: paddle.logical_xor(a, b),
}

# spec op -> (in-place Tensor method, paddle function taking out=)
OUT_API = {
    "add": ("add_", "add"),
    "subtract": ("subtract_", "subtract"),
    "multiply": ("multiply_", "multiply"),
    "divide": ("divide_", "divide"),
    "floor_divide": ("floor_divide_", "floor_divide"),
    "remainder": ("remainder_", "remainder"),
    "power": ("pow_", "pow"),
    "maximum": (None, "maximum"),
    "minimum": (None, "minimum"),
    "equal": ("equal_", "equal"),
    "not_equal": ("not_equal_", "not_equal"),
    "less": ("less_than_", "less_than"),
    "less_equal": ("less_equal_", "less_equal"),
    "greater": ("greater_than_", "greater_than"),
    "greater_equal": ("greater_equal_", "greater_equal"),
    "logical_and": ("logical_and_", "logical_and"),
    "logical_or": ("logical_or_", "logical_or"),
    "logical_xor": ("logical_xor_", "logical_xor"),
    "bitwise_and": ("bitwise_and_", "bitwise_and"),
    "bitwise_or": ("bitwise_or_", "bitwise_or"),
    "bitwise_xor": ("bitwise_xor_", "bitwise_xor"),
}
OUT_IGNORED = {"bitwise_and", "bitwise_or", "bitwise_xor"}  # out= is a no-op in dynamic mode

LOG = os.environ.get("PADDLE_ORACLE_LOG")  # optional: append "cell\tclass\tmessage" lines here


# the narrow dtypes Paddle 3.3.1 names (record_narrow.py)
NARROW = ["float8_e4m3fn", "float8_e5m2"]


def setup(mode):
    if mode != "default":
        raise ValueError(f"paddle has one mode, 'default' (got {mode!r})")
    paddle.set_device("cpu")
    for n in ["bool", "uint8", "int8", "int16", "int32", "int64", "bfloat16", "float16",
              "float32", "float64", "complex64", "complex128", *NARROW]:
        dt = getattr(paddle, n)
        DTYPES[n] = dt
        NAMES[dt] = n


def make(op):
    if op.kind == "literal":
        return op.py
    if op.weak:
        raise ValueError("paddle has no weak tensors")
    if op.dtype in NARROW:
        # to_tensor does not understand these names: the value is made float32 and cast
        v = [1, 1] if op.kind == "tensor" else op.py
        t = paddle.to_tensor(v, dtype="float32").astype(DTYPES[op.dtype])
    elif op.kind == "tensor":
        v = True if op.dtype == "bool" else 1
        t = paddle.to_tensor([v, v], dtype=op.dtype)
        assert list(t.shape) == [2], t.shape
    else:
        t = paddle.to_tensor(op.py, dtype=op.dtype)
        assert list(t.shape) == [], t.shape
    assert NAMES[t.dtype] == op.dtype, (t.dtype, op.dtype)
    return t


def name(x):
    if not isinstance(x, paddle.Tensor):
        # e.g. a Python bool from a comparison that fell back to identity: not a tensor result
        return "!unsupported"
    n = NAMES.get(x.dtype)
    if n is None:
        raise ValueError(f"result dtype {x.dtype} outside the 15")
    return n


def _msg(e):
    parts = [f"{type(e).__name__}: {e}"]
    c = e.__cause__ or e.__context__
    if c is not None:
        parts.append(f"{type(c).__name__}: {c}")
    return " <- ".join(parts).replace("\n", " ")


INT64 = (-(2 ** 63), 2 ** 63 - 1)


def _huge_int_literal(cell):
    return any(o.kind == "literal" and type(o.py) is int and not INT64[0] <= o.py <= INT64[1]
               for o in cell.operands)


def classify(e, cell):
    """Map a Paddle exception to a spec error, by type and message; None if not recognised.

    Returns "!value" for integer division by zero (the cell's divisor is 0, False, or a literal
    that wraps to 0 in the tensor's integer dtype): the spec's error of refused values.
    """
    s = str(e)
    cause = e.__cause__ or e.__context__
    if isinstance(e, OverflowError) or isinstance(cause, OverflowError):
        # SystemError "<method '__eq__' of 'Tensor' objects> returned a result with an exception
        # set" caused by OverflowError "int too big to convert": the literal does not fit the
        # C int64 Paddle converts it to
        return "!overflow"
    if _huge_int_literal(cell) and (
            (isinstance(e, TypeError) and "but received object" in s)
            or (isinstance(e, ValueError) and "Input object type error or incompatible array" in s)):
        # __rand__/__ror__/__rxor__ run paddle.to_tensor(literal, dtype=x.dtype): an int beyond
        # int64 becomes a NumPy uint64/object array that Paddle refuses
        return "!overflow"
    if isinstance(e, TypeError) and "Type promotion only support calculations" in s:
        return "!no_promotion"
    if isinstance(e, TypeError) and "Invalid enum data type for type promote" in s:
        # a 0-d float8 tensor meeting another dtype: type_promotion.h has no float8 entry
        return "!no_promotion"
    if isinstance(e, ValueError) and "does not match the type of data" in s:
        # bitwise ops (not in Paddle's promotion list) read y with x's dtype: mixed dtypes are
        # refused, never promoted
        return "!no_promotion"
    if isinstance(e, RuntimeError) and "is not registered" in s and "NotFound" in s:
        return "!unsupported"  # no CPU kernel for the (promoted) dtype
    if isinstance(e, RuntimeError) and "Only supports to align data type" in s:
        return "!unsupported"  # matmul of a non-float real tensor with a complex one
    if isinstance(e, NotImplementedError) and "is not supported when casting data type" in s:
        return "!unsupported"  # paddle.assign(output=complex) cannot cast int8 / complex64
    if isinstance(e, ValueError) and "must be Tensor, but got" in s:
        return "!unsupported"  # the API refuses a Python scalar argument
    if isinstance(e, TypeError) and "unsupported operand type" in s:
        return "!unsupported"  # __rand__/__ror__/__rxor__ refuse a float/complex literal
    if isinstance(e, TypeError) and "y must be scalar type" in s:
        return "!unsupported"  # pow_ (in-place) refuses a tensor or complex exponent
    if isinstance(e, AttributeError) and "object has no attribute 'shape'" in s and \
            any(o.kind == "literal" for o in cell.operands):
        # in-place methods (add_, equal_, ...) call broadcast_shape(x.shape, y.shape) in
        # Paddle's Python: they refuse a Python scalar
        return "!unsupported"
    if "Integer division by zero" in s:
        return "!value"
    return None


def perform(cell):
    ops = [make(o) for o in cell.operands]
    if cell.op == "sum":
        return name(paddle.sum(ops[0]))
    a, b = ops
    if cell.out is None:
        return name(OPERATORS[cell.op](a, b))
    inplace, fn = OUT_API[cell.op]
    if cell.out == cell.operands[0].dtype and inplace is not None:
        r = getattr(a, inplace)(b)
        assert r is a
        return name(a)
    o = paddle.zeros([2], dtype=cell.out)
    if cell.op in OUT_IGNORED:
        paddle.assign(getattr(paddle, fn)(a, b), output=o)
    else:
        getattr(paddle, fn)(a, b, out=o)
    return name(o)


def answer(cell):
    try:
        ans = perform(cell)
        if LOG and ans == "!unsupported":
            with open(LOG, "a") as f:
                f.write(f"{cell}\tnon-tensor result\t\n")
        return ans
    except Exception as e:  # noqa: BLE001 - classified below, unknown ones surface as '?'
        k = classify(e, cell)
        if LOG:
            with open(LOG, "a") as f:
                f.write(f"{cell}\t{k}\t{_msg(e)[:400]}\n")
        if k is None:
            return "?" + _msg(e)[:300]
        return k
