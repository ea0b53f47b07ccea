"""Analysis of the TensorFlow recordings (tf, tf-legacy, tf-all, tf-safe).

    python tools/oracle/analyze_tf.py                # accuracy of the predictor on all four
    python tools/oracle/analyze_tf.py tf-all -v      # ... and list every cell it misses
    python tools/oracle/analyze_tf.py --tables       # the Markdown tables used in notes/tensorflow.md
    python tools/oracle/analyze_tf.py --asym         # cells where a op b and b op a differ

The predictor below is the rule set of notes/tensorflow.md written as code: it models the
Python paths TensorFlow 2.21 takes for each operator (see fw_tf.py for how the cells are run) on
top of a few small tables (kernels per TF op, how a Python literal converts to a dtype, the
promotion tables of each mode).  It reads nothing but the fixtures; no TensorFlow needed.
"""
from __future__ import annotations

import gzip
import os
import sys
from collections import Counter, defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from syntax import DTYPES, parse_cell  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
POLICIES = ["tf", "tf-legacy", "tf-all", "tf-safe"]

B = "bool"
U = ["uint8", "uint16", "uint32", "uint64"]
I = ["int8", "int16", "int32", "int64"]
INTS = U + I
FL = ["bfloat16", "float16", "float32", "float64"]
CX = ["complex64", "complex128"]
ALL = DTYPES
NOBOOL = [d for d in ALL if d != B]

NP, UN, OV = "!no_promotion", "!unsupported", "!overflow"


class Err(Exception):
    """A framework error; .kind is one of NP, UN, OV."""

    def __init__(self, kind):
        super().__init__(kind)
        self.kind = kind


# ---------------------------------------------------------------------------------------------
# Kernels: the dtypes each TF op has a CPU kernel for (its "T" attr list, minus missing kernels)
# ---------------------------------------------------------------------------------------------
K = {
    "AddV2": NOBOOL, "Sub": NOBOOL, "Mul": NOBOOL,
    "RealDiv": FL + CX,
    "FloorDiv": INTS + FL, "FloorMod": INTS + FL,
    "Pow": I + FL + CX,
    "Maximum": INTS + FL, "Minimum": INTS + FL,
    "Equal": ALL, "NotEqual": ALL,
    "Less": INTS + FL, "LessEqual": INTS + FL, "Greater": INTS + FL, "GreaterEqual": INTS + FL,
    "BitwiseAnd": INTS, "BitwiseOr": INTS, "BitwiseXor": INTS,
    "LogicalAnd": [B], "LogicalOr": [B],
    # MatMul's attr allows uint8..uint64 but there is no CPU kernel (NotFoundError); no int8/int16
    "MatMul": ["int32", "int64"] + FL + CX,
    "Sum": NOBOOL,
}
K = {k: set(v) for k, v in K.items()}
COMPARE = {"Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"}

# `/` (math_ops._truediv_python3): integer inputs are cast to a float first
TRUEDIV = {"uint8": "float32", "int8": "float32", "uint16": "float32", "int16": "float32",
           "uint32": "float64", "int32": "float64", "uint64": "float64", "int64": "float64"}


# ---------------------------------------------------------------------------------------------
# Python literals
# ---------------------------------------------------------------------------------------------
I64 = (-2 ** 63, 2 ** 63)
F32_MAX = 3.4028234663852886e38
# dtypes a Python bool converts to (tf.convert_to_tensor(True, dtype=D)); the others raise
# TypeError "Cannot convert True to EagerTensor of dtype D"
BOOL_OK = {B, "uint64", "int32", "int64", "float16", "float32", "float64", "complex128"}


def conv(v, d):
    """tf.convert_to_tensor(v, dtype=d) for a Python literal v: 'ok', NP or OV."""
    if isinstance(v, bool):
        return "ok" if d in BOOL_OK else NP
    if isinstance(v, int):
        in64 = I64[0] <= v < I64[1]
        if d == B:
            return NP if in64 else OV
        if d == "uint64":
            return "ok" if 0 <= v < 2 ** 64 else OV
        if d in ("float16", "float32", "float64", "complex128"):
            return "ok"
        return "ok" if in64 else OV  # other ints wrap silently; bfloat16, complex64
    if isinstance(v, float):
        return "ok" if d in FL + CX else NP
    return "ok" if d in CX else NP


def infer(v):
    """tf.convert_to_tensor(v) with no dtype: the dtype TF gives a Python literal alone."""
    if isinstance(v, bool):
        return B
    if isinstance(v, int):
        if -2 ** 31 <= v < 2 ** 31:
            return "int32"
        if I64[0] <= v < I64[1]:
            return "int64"
        raise Err(OV)
    if isinstance(v, float):
        if v == v and abs(v) != float("inf") and abs(v) > F32_MAX:
            raise Err(OV)
        return "float32"
    return "complex128"


def strict(v, d):
    r = conv(v, d)
    if r != "ok":
        raise Err(r)
    return d


def hint(v, d):
    """convert_to_tensor(v, dtype_hint=d): d if v converts to it; after a TypeError/ValueError
    v's own dtype; an out-of-range int for uint64 raises OverflowError/SystemError, which the
    hint does not catch."""
    r = conv(v, d)
    if r == "ok":
        return d
    if r == OV:
        raise Err(OV)
    return infer(v)


# ---------------------------------------------------------------------------------------------
# Operands: ("T", dtype, weak) for tensors and 0-d tensors, ("L", value) for literals
# ---------------------------------------------------------------------------------------------
def operand(o):
    if o.kind == "literal":
        return ("L", o.py)
    return ("T", o.dtype, o.weak)


def is_t(x):
    return x[0] == "T"


def fast(op, x, y):
    """An eager op with one type attr T for both inputs, no promotion: T is the first tensor's
    dtype; a literal converts strictly to T; T must have a kernel; the other tensor must be T."""
    t = x[1] if is_t(x) else y[1]
    for a in (x, y):
        if not is_t(a):
            strict(a[1], t)
    if t not in K[op]:
        raise Err(UN)
    for a in (x, y):
        if is_t(a) and a[1] != t:
            raise Err(NP)
    return B if op in COMPARE else t


def T(d, weak=False):
    return ("T", d, weak)


# ---------------------------------------------------------------------------------------------
# Mode off (policy tf): no implicit promotion at all
# ---------------------------------------------------------------------------------------------
OPERATOR_OP = {"add": "AddV2", "subtract": "Sub", "multiply": "Mul", "floor_divide": "FloorDiv",
               "remainder": "FloorMod", "power": "Pow", "equal": "Equal",
               "not_equal": "NotEqual", "less": "Less", "less_equal": "LessEqual",
               "greater": "Greater", "greater_equal": "GreaterEqual", "maximum": "Maximum",
               "minimum": "Minimum"}
# Python turns `1 < t` into `t > 1`
MIRROR = {"less": "greater", "less_equal": "greater_equal", "greater": "less",
          "greater_equal": "less_equal", "equal": "equal", "not_equal": "not_equal"}
BITWISE = {"bitwise_and": ("BitwiseAnd", "LogicalAnd"), "bitwise_or": ("BitwiseOr", "LogicalOr"),
           "bitwise_xor": ("BitwiseXor", "LogicalOr")}


def logical(x, y, kind):
    """LogicalAnd / LogicalOr: both inputs must be bool.  `kind` is the error a non-bool tensor
    gets: UN for tf.math.logical_* (the op has no other dtype), NP for `&`, `|`, `^` on a bool
    tensor (a refused mix of dtypes, as `uint8 & bool` is).

    The eager fast path converts the literals to bool first (int/float raise at once), then runs
    the kernel, which rejects a non-bool tensor.  A complex literal instead sends the op to its
    Python fallback, which converts the inputs in order (x first)."""
    lits = [a for a in (x, y) if not is_t(a)]
    if any(isinstance(a[1], complex) for a in lits):
        for a in (x, y):
            if is_t(a):
                if a[1] != B:
                    raise Err(kind)
            else:
                strict(a[1], B)
        return B
    for a in lits:
        strict(a[1], B)
    for a in (x, y):
        if is_t(a) and a[1] != B:
            raise Err(kind)
    return B


def off_binary(op, x, y):
    """`x op y` in mode off, both operands as they reach the operator."""
    if op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal") and not is_t(x):
        return off_binary(MIRROR[op], y, x)
    if op in ("maximum", "minimum"):
        return fast(OPERATOR_OP[op], x, y)
    if op in ("logical_and", "logical_or", "logical_xor"):
        return logical(x, y, UN)  # logical_xor runs LogicalOr(x, y) first
    if not is_t(x):
        # the reflected operator (r_binary_op_wrapper): the literal converts strictly to the
        # tensor's dtype first (maybe_promote_tensors(force_same_dtype=True))
        x = T(strict(x[1], y[1]))
    if op == "add":
        if not is_t(y):
            y = T(hint(y[1], x[1]))  # math_ops._add_dispatch: dtype_hint, falls back
        return fast("AddV2", x, y)
    if op == "multiply":
        # tensor_math_operator_overrides._mul_dispatch_factory: a bool tensor on either side
        # -> cast both to int32, multiply, cast to bool
        if x[1] == B or (is_t(y) and y[1] == B):
            if not is_t(y):
                infer(y[1])  # the cast converts the literal alone first
            return B
        return fast("Mul", x, y)
    if op == "divide":
        if not is_t(y):
            y = T(hint(y[1], x[1]))
        if x[1] != y[1]:
            raise Err(NP)
        if x[1] == B:
            raise Err(UN)
        return TRUEDIV.get(x[1], x[1])
    if op in BITWISE:
        bit, log = BITWISE[op]
        if x[1] == B:
            return logical(x, y, NP)
        return fast(bit, x, y)
    return fast(OPERATOR_OP[op], x, y)


def matmul_2d(a, b):
    """math_ops.matmul on two tensors."""
    if a != b and ((a == "bfloat16" and b not in ("int8", "uint8")) or
                   (b == "bfloat16" and a not in ("int8", "uint8"))):
        # SparseMatMul: float32 or bfloat16 inputs, float32 output
        if a in ("float32", "bfloat16") and b in ("float32", "bfloat16"):
            return "float32"
        raise Err(UN)
    return fast("MatMul", T(a), T(b))


def predict_off(c):
    ops = [operand(o) for o in c.operands]
    if c.op == "sum":
        if ops[0][1] not in K["Sum"]:
            raise Err(UN)
        return ops[0][1]
    if c.op == "matmul":
        return matmul_2d(ops[0][1], ops[1][1])
    r = off_binary(c.op, *ops)
    if c.out:
        # tf.Variable(zeros(D)).assign(r): dtypes must match exactly
        if r != c.out:
            raise Err(NP)
        return c.out
    return r


# ---------------------------------------------------------------------------------------------
# Mode legacy (policy tf-legacy): Tensor operators promote with NumPy's np.result_type
# (override_binary_operator.maybe_promote_tensors -> np_dtypes._result_type)
# ---------------------------------------------------------------------------------------------
BITS = {"bool": 1, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "int8": 8,
        "int16": 16, "int32": 32, "int64": 64, "float16": 16, "float32": 32, "float64": 64,
        "complex64": 64, "complex128": 128}
KIND = {d: ("b" if d == B else "u" if d in U else "i" if d in I else "f" if d in FL else "c")
        for d in ALL}
# bfloat16 is ml_dtypes' NumPy dtype: NumPy promotes it only with these (others raise
# DTypePromotionError)
BF16_NP = {B: "bfloat16", "uint8": "bfloat16", "int8": "bfloat16", "bfloat16": "bfloat16",
           "float32": "float32", "float64": "float64", "complex64": "complex64",
           "complex128": "complex128"}


def np_promote(a, b):
    """np.promote_types for two dtypes (NumPy 2), with ml_dtypes' bfloat16."""
    if a == b:
        return a
    if "bfloat16" in (a, b):
        o = b if a == "bfloat16" else a
        if o not in BF16_NP:
            raise Err(NP)
        return BF16_NP[o]
    if a == B:
        return b
    if b == B:
        return a
    ka, kb = KIND[a], KIND[b]
    order = "uifc"
    if ka == kb:
        return a if BITS[a] >= BITS[b] else b
    if order.index(ka) > order.index(kb):
        a, b, ka, kb = b, a, kb, ka
    # now ka "precedes" kb in u < i < f < c
    if ka == "u" and kb == "i":
        if BITS[b] > BITS[a]:
            return b
        return {8: "int16", 16: "int32", 32: "int64", 64: "float64"}[BITS[a]]
    # an integer's precision: int8/uint8 fit float16, 16-bit ints float32, wider ints float64
    need = {8: 16, 16: 32, 32: 64, 64: 64}[BITS[a]] if ka in "ui" else BITS[a]
    if kb == "f":
        return {16: "float16", 32: "float32", 64: "float64"}[max(need, BITS[b])]
    # complex: twice the float precision
    return "complex64" if max(need, BITS[b] // 2) <= 32 else "complex128"


def np_result(x, y):
    """np.result_type of two operands (NEP 50: a Python scalar is weak)."""
    if is_t(x) and is_t(y):
        return np_promote(x[1], y[1])
    t, v = (x[1], y[1]) if is_t(x) else (y[1], x[1])
    k = KIND[t]
    if isinstance(v, bool):
        return t
    if isinstance(v, int):
        return "int64" if k == "b" else t
    if isinstance(v, float):
        # NumPy does not count ml_dtypes' bfloat16 as a float here: it gets float64
        return "float64" if k in "bui" or t == "bfloat16" else t
    if k == "c":
        return t
    if t in ("bfloat16", "float16", "float32"):
        return "complex64"
    return "complex128"


def legacy_binary(op, x, y):
    if op in ("maximum", "minimum", "logical_and", "logical_or", "logical_xor"):
        return off_binary(op, x, y)  # tf.math functions: no NumPy-style promotion
    if op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal") and not is_t(x):
        return legacy_binary(MIRROR[op], y, x)
    r = np_result(x, y)
    for a in (x, y):
        if not is_t(a):
            strict(a[1], r)  # tensors are cast, literals converted to r
    return off_binary(op, T(r), T(r))


def predict_legacy(c):
    ops = [operand(o) for o in c.operands]
    if c.op == "sum":
        return predict_off(c)
    if c.op == "matmul":
        # `@` -> TF-NumPy's matmul: NumPy promotion, then the MatMul kernel
        r = np_promote(ops[0][1], ops[1][1])
        if r not in K["MatMul"]:
            raise Err(UN)
        return r
    r = legacy_binary(c.op, *ops)
    if c.out:
        if r != c.out:
            raise Err(NP)
        return c.out
    return r


# ---------------------------------------------------------------------------------------------
# Modes all / safe (policies tf-all, tf-safe): the new promotion of flexible_dtypes.py
# ---------------------------------------------------------------------------------------------
# WeakTensor exists only for these dtypes (weak_tensor._ALLOWED_WEAK_DTYPES)
WEAK_OK = {"int32", "int64", "float32", "float64", "complex128"}
_A = "ALL"  # the cell is refused in SAFE mode
_S = "SAFE"
_W = {"int32": "i32w", "int64": "i64w", "float32": "f32w", "float64": "f64w",
      "complex128": "c128w"}
# flexible_dtypes._BINARY_DTYPE_RES_HALF, row: {column: (result, weak result, level)}
_HALF_TEXT = """
bool: bool bool S, uint8 uint8 S, uint16 uint16 S, uint32 uint32 S, uint64 uint64 S,
 int8 int8 S, int16 int16 S, int32 int32 S, int64 int64 S, bfloat16 bfloat16 S,
 float16 float16 S, float32 float32 S, float64 float64 S, complex64 complex64 S,
 complex128 complex128 S, i32w i32w S, i64w i64w S, f32w f32w S, f64w f64w S, c128w c128w S
uint8: uint8 uint8 S, uint16 uint16 S, uint32 uint32 S, uint64 uint64 S, int8 int16 A,
 int16 int16 S, int32 int32 S, int64 int64 S, bfloat16 bfloat16 S, float16 float16 S,
 float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S,
 i32w uint8 S, i64w uint8 S, f32w f64w A, f64w f64w S, c128w c128w S
uint16: uint16 uint16 S, uint32 uint32 S, uint64 uint64 S, int8 int32 A, int16 int32 A,
 int32 int32 S, int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 S,
 float64 float64 S, complex64 complex64 S, complex128 complex128 S, i32w uint16 S,
 i64w uint16 S, f32w f64w A, f64w f64w S, c128w c128w S
uint32: uint32 uint32 S, uint64 uint64 S, int8 int64 A, int16 int64 A, int32 int64 A,
 int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 A, float64 float64 S,
 complex64 complex64 A, complex128 complex128 S, i32w uint32 S, i64w uint32 S, f32w f64w A,
 f64w f64w S, c128w c128w S
uint64: uint64 uint64 S, int8 f64w A, int16 f64w A, int32 f64w A, int64 f64w A,
 bfloat16 bfloat16 A, float16 float16 A, float32 float32 A, float64 float64 A,
 complex64 complex64 A, complex128 complex128 A, i32w uint64 S, i64w uint64 S, f32w f64w A,
 f64w f64w A, c128w c128w A
int8: int8 int8 S, int16 int16 S, int32 int32 S, int64 int64 S, bfloat16 bfloat16 S,
 float16 float16 S, float32 float32 S, float64 float64 S, complex64 complex64 S,
 complex128 complex128 S, i32w int8 S, i64w int8 S, f32w f64w A, f64w f64w S, c128w c128w S
int16: int16 int16 S, int32 int32 S, int64 int64 S, bfloat16 bfloat16 A, float16 float16 A,
 float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S,
 i32w int16 S, i64w int16 S, f32w f64w A, f64w f64w S, c128w c128w S
int32: int32 int32 S, int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 A,
 float64 float64 S, complex64 complex64 A, complex128 complex128 S, i32w int32 S,
 i64w int32 S, f32w f64w A, f64w f64w S, c128w c128w S
int64: int64 int64 S, bfloat16 bfloat16 A, float16 float16 A, float32 float32 A,
 float64 float64 A, complex64 complex64 A, complex128 complex128 A, i32w int64 S,
 i64w int64 S, f32w f64w A, f64w f64w A, c128w c128w A
bfloat16: bfloat16 bfloat16 S, float16 float32 A, float32 float32 S, float64 float64 S,
 complex64 complex64 S, complex128 complex128 S, i32w bfloat16 S, i64w bfloat16 S,
 f32w bfloat16 S, f64w bfloat16 S, c128w complex64 A
float16: float16 float16 S, float32 float32 S, float64 float64 S, complex64 complex64 S,
 complex128 complex128 S, i32w float16 S, i64w float16 S, f32w float16 S, f64w float16 S,
 c128w complex64 A
float32: float32 float32 S, float64 float64 S, complex64 complex64 S, complex128 complex128 S,
 i32w float32 S, i64w float32 S, f32w float32 S, f64w float32 S, c128w complex64 A
float64: float64 float64 S, complex64 complex128 A, complex128 complex128 S, i32w float64 S,
 i64w float64 S, f32w float64 S, f64w float64 S, c128w complex128 S
complex64: complex64 complex64 S, complex128 complex128 S, i32w complex64 S, i64w complex64 S,
 f32w complex64 S, f64w complex64 S, c128w complex64 S
complex128: complex128 complex128 S, i32w complex128 S, i64w complex128 S, f32w complex128 S,
 f64w complex128 S, c128w complex128 S
i32w: i32w i32w S, i64w i64w S, f32w f32w S, f64w f64w S, c128w c128w S
i64w: i64w i64w S, f32w f32w S, f64w f64w S, c128w c128w S
f32w: f32w f32w S, f64w f64w S, c128w c128w S
f64w: f64w f64w S, c128w c128w S
c128w: c128w c128w S
"""


def _parse_half(text):
    full = {}
    rows = {}
    cur = None
    for line in text.strip().splitlines():
        if not line.startswith(" "):
            cur, line = line.split(":", 1)
            rows[cur] = []
        rows[cur] += [e.split() for e in line.split(",") if e.strip()]
    for r, entries in rows.items():
        for col, res, lvl in entries:
            full[(r, col)] = full[(col, r)] = (res, lvl)
    return full


FLEX = _parse_half(_HALF_TEXT)
_UNW = {v: k for k, v in _W.items()}


def flex_key(x):
    """flexible_dtypes._get_dtype_and_weakness of an operand, as a table key."""
    if is_t(x):
        return _W[x[1]] if x[2] else x[1]
    v = x[1]
    if isinstance(v, bool):
        return B
    if isinstance(v, int):
        if not -2 ** 31 <= v < 2 ** 31:
            raise Err(OV)  # OverflowError: Python int too large to convert to np.int32
        return "i32w"
    return "f32w" if isinstance(v, float) else "c128w"


def flex(x, y, safe):
    """flexible_dtypes.result_type(x, y) -> (dtype, weak)."""
    res, lvl = FLEX[(flex_key(x), flex_key(y))]
    if safe and lvl == "A":
        raise Err(NP)  # TypeError: In promotion mode PromoMode.SAFE ... is disallowed
    return (_UNW[res], True) if res in _UNW else (res, False)


WRAPPED = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
           "equal", "maximum", "minimum"}


def auto_fast(op, x, y, kind=NP):
    """An op weak_tensor_ops.py does not wrap (`!=`, `<`, `<=`, `>`, `>=`, `&`, `|`, `^`,
    tf.math.logical_*): no promotion, a WeakTensor counts as its dtype and the result is never
    weak.  Two tensors, or a strong tensor and a literal: mode off's fast path.  A WeakTensor and
    a literal: the generated op's Python fallback converts the inputs in order (x first) to T
    (the tensor's dtype; bool for LogicalAnd/LogicalOr); the literal goes through the patched
    tf.constant, whose promotion refuses Python ints outside int32 (OverflowError) before
    anything else."""
    lit = [a for a in (x, y) if not is_t(a)]
    if not lit or not any(is_t(a) and a[2] for a in (x, y)):
        if op in ("LogicalAnd", "LogicalOr"):
            return logical(x, y, kind)
        return fast(op, x, y)
    t = B if op in ("LogicalAnd", "LogicalOr") else [a for a in (x, y) if is_t(a)][0][1]
    for a in (x, y):
        if is_t(a):
            if a[1] != t:
                raise Err(kind)  # ValueError: Tensor conversion requested dtype ...
        else:
            v = a[1]
            if isinstance(v, int) and not isinstance(v, bool) and not -2 ** 31 <= v < 2 ** 31:
                raise Err(OV)
            strict(v, t)
    if t not in K[op]:
        raise Err(UN)
    return B if op in COMPARE else t


def auto_binary(op, x, y, safe):
    if op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal") and not is_t(x):
        return auto_binary(MIRROR[op], y, x, safe)
    if op in ("logical_and", "logical_or", "logical_xor"):
        return auto_fast("LogicalAnd", x, y, UN)
    if op in BITWISE:
        if not is_t(x):
            raise Err(UN)  # math_ops.and_(x=<Python scalar>) reads x.dtype: AttributeError
        bit, log = BITWISE[op]
        return auto_fast(log if x[1] == B else bit, x, y)
    if op not in WRAPPED:
        return auto_fast(OPERATOR_OP[op], x, y)
    if op == "multiply" and any(is_t(a) and not a[2] and a[1] == B for a in (x, y)):
        # _mul_dispatch_factory's bool path runs before the promotion: cast both to int32
        for a in (x, y):
            if not is_t(a):
                infer(a[1])
        return B
    r, weak = flex(x, y, safe)
    for a in (x, y):
        if not is_t(a):
            strict(a[1], r)
    if op == "divide":
        if r == B:
            raise Err(UN)
        r = TRUEDIV.get(r, r)
    else:
        tfop = OPERATOR_OP[op]
        if r not in K[tfop]:
            raise Err(UN)
        if tfop in COMPARE:
            r = B
    if op in ("equal", "maximum", "minimum"):
        weak = False  # special_handling="comparison-method"
    return (r, weak)


def predict_auto(c, safe):
    ops = [operand(o) for o in c.operands]
    for a in ops:
        if is_t(a) and a[2] and a[1] not in WEAK_OK:
            raise Err(UN)  # TypeError: <dtype> not allowed as a weak type
    if c.op == "sum":
        a = ops[0]
        if a[1] not in K["Sum"]:
            raise Err(UN)
        return ("~" if a[2] else "") + a[1]
    if c.op == "matmul":
        r, weak = flex(*ops, safe)
        if r not in K["MatMul"]:
            raise Err(UN)
        return ("~" if weak else "") + r
    r = auto_binary(c.op, *ops, safe)
    r, weak = r if isinstance(r, tuple) else (r, False)
    if c.out:
        # ResourceVariable.assign, special_handling="variable_method": the promotion of
        # (variable, value) must be the variable's dtype
        if flex(T(c.out), T(r, weak), safe)[0] != c.out:
            raise Err(NP)
        return c.out
    return ("~" if weak else "") + r


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------
def load(policy):
    rows = []
    with gzip.open(os.path.join(ROOT, "tests", "fixtures", "resolve", policy + ".txt.gz"), "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            s, a = line.rstrip("\n").rsplit(" : ", 1)
            rows.append((s, parse_cell(s), a))
    return rows


PREDICT = {"tf": predict_off, "tf-legacy": predict_legacy,
           "tf-all": lambda c: predict_auto(c, False), "tf-safe": lambda c: predict_auto(c, True)}


def token(fn, c):
    try:
        r = fn(c)
    except Err as e:
        return e.kind
    return r


SHORT = {"bool": "b", "uint8": "u8", "uint16": "u16", "uint32": "u32", "uint64": "u64",
         "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "bfloat16": "bf16",
         "float16": "f16", "float32": "f32", "float64": "f64", "complex64": "c64",
         "complex128": "c128"}


def short(a):
    if a.startswith("!"):
        return {NP: "NP", UN: "U", OV: "OV"}[a]
    return ("~" if a.startswith("~") else "") + SHORT[a.lstrip("~")]


def md_table(rows, op, wa=False, wb=False, out=None):
    """Markdown table of `op` over tensor x tensor cells (rows = first operand)."""
    d = {}
    for s, c, a in rows:
        if c.op != op or len(c.operands) != 2 or c.out != out:
            continue
        x, y = c.operands
        if x.kind == y.kind == "tensor" and x.weak == wa and y.weak == wb:
            d[(x.dtype, y.dtype)] = a
    # weak operands other than WEAK_OK cannot be made (every such cell is U): left out
    rs = [t for t in ALL if any(k[0] == t for k in d) and (not wa or t in WEAK_OK)]
    cs = [t for t in ALL if any(k[1] == t for k in d) and (not wb or t in WEAK_OK)]
    pre = lambda w, t: ("~" if w else "") + SHORT[t]  # noqa: E731
    out_ = ["| | " + " | ".join(pre(wb, t) for t in cs) + " |",
            "|---" * (len(cs) + 1) + "|"]
    for r in rs:
        out_.append(f"| **{pre(wa, r)}** | " + " | ".join(short(d[(r, t)]) for t in cs) + " |")
    return "\n".join(out_)


REP_LITS = ["True", "0", "-1", "300", "2147483648", "-2147483649", "9223372036854775808",
            "-9223372036854775809", "18446744073709551616", "1.0", "3.4e+38", "1e+39", "inf",
            "1j"]


def lit_table(rows, op, lit_first=False, weak=False):
    """Markdown: `tensor op literal` (or `literal op tensor`), rows = literal."""
    d = {}
    for s, c, a in rows:
        if c.op != op or len(c.operands) != 2 or c.out:
            continue
        x, y = c.operands
        if lit_first:
            x, y = y, x
        if x.kind == "tensor" and x.weak == weak and y.kind == "literal":
            d[(x.dtype, y.text)] = a
    cs = [t for t in ALL if any(k[0] == t for k in d) and (not weak or t in WEAK_OK)]
    pre = "~" if weak else ""
    out_ = ["| literal | " + " | ".join(pre + SHORT[t] for t in cs) + " |",
            "|---" * (len(cs) + 1) + "|"]
    for L in REP_LITS:
        out_.append(f"| `{L}` | " + " | ".join(short(d[(t, L)]) for t in cs) + " |")
    return "\n".join(out_)


def tables():
    for p in POLICIES:
        rows = load(p)
        print(f"\n### {p}: `tensor + literal`\n")
        print(lit_table(rows, "add"))
        if p == "tf":
            print(f"\n### {p}: `literal + tensor`\n")
            print(lit_table(rows, "add", lit_first=True))
        if p in ("tf-all", "tf-safe"):
            print(f"\n### {p}: `weak tensor + literal`\n")
            print(lit_table(rows, "add", weak=True))


def tables_tt():
    for p in POLICIES:
        rows = load(p)
        print(f"\n### {p}: add, tensor + tensor\n")
        print(md_table(rows, "add"))
        if p in ("tf-all", "tf-safe"):
            print(f"\n### {p}: add, weak tensor + tensor (rows weak)\n")
            print(md_table(rows, "add", wa=True))
            print(f"\n### {p}: add, weak + weak\n")
            print(md_table(rows, "add", wa=True, wb=True))
        print(f"\n### {p}: matmul\n")
        print(md_table(rows, "matmul"))


COMMUTATIVE = ["add", "multiply", "maximum", "minimum", "equal", "not_equal", "logical_and",
               "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "matmul"]


def asymmetries():
    """Cells where `a op b` and `b op a` (for <, <=, >, >=: `b op' a` mirrored) differ."""
    for p in POLICIES:
        ans = {}
        for s, c, a in load(p):
            if len(c.operands) == 2 and c.out is None:
                ans[(c.op, str(c.operands[0]), str(c.operands[1]))] = a
        by = Counter()
        ex = {}
        for (op, x, y), a in ans.items():
            if op in COMMUTATIVE:
                b = ans.get((op, y, x))
            elif op in MIRROR:
                b = ans.get((MIRROR[op], y, x))
            else:
                continue
            if b is not None and a != b and x < y:
                k = (op, parse_cell(f"{op} {x}").operands[0].kind,
                     parse_cell(f"{op} {y}").operands[0].kind)
                by[k] += 1
                ex.setdefault(k, f"{op} {x} {y} : {a}  |  {op} {y} {x} : {b}")
        print(f"{p}: {sum(by.values())} asymmetric pairs")
        for k, n in sorted(by.items()):
            print(f"   {n:5d} {k[0]:14s} {k[1]:8s} {k[2]:8s} e.g. {ex[k]}")


def main():
    if "--asym" in sys.argv:
        asymmetries()
        return
    if "--tables" in sys.argv:
        tables_tt()
        tables()
        return
    args = [a for a in sys.argv[1:] if not a.startswith("-")]
    verbose = "-v" in sys.argv
    for p in args or POLICIES:
        if p not in PREDICT:
            print(f"{p}: no predictor yet")
            continue
        rows = load(p)
        miss = []
        for s, c, a in rows:
            try:
                got = token(PREDICT[p], c)
            except NotImplementedError:
                got = "?"
            if got != a:
                miss.append((s, a, got))
        print(f"{p}: {len(rows) - len(miss)}/{len(rows)} cells predicted "
              f"({100.0 * (len(rows) - len(miss)) / len(rows):.3f}%), {len(miss)} missed")
        if verbose:
            for s, a, got in miss:
                print(f"  MISS {s} : recorded {a}, predicted {got}")
        else:
            by = Counter((s.split()[0], a, got) for s, a, got in miss)
            for k, n in by.most_common(25):
                print("  ", n, k)


if __name__ == "__main__":
    main()
