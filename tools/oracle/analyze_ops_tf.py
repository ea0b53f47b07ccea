"""The op-class rules of TensorFlow 2.21 (`tf`, `tf-legacy`, `tf-all`, `tf-safe`) for the ops of issue
12, checked against tests/fixtures/resolve-ops/tf*.txt.gz.  See notes/ops-tf.md.

    python3 tools/oracle/analyze_ops_tf.py [tf|tf-legacy|tf-all|tf-safe] [--show N]

TF never promotes inside an op: each op runs on one dtype T, from its kernel list (KERNELS below:
the dtypes for which the op's CPU kernel is registered -- REGISTER*(..., CPU, "Atan2", ...) in
tensorflow/core/kernels/cwise_op_*.cc -- as recorded on same-dtype tensors).  What differs by
mode is how the operands become tensors of one dtype:

* the op's Python wrapper converts a Python literal to the other operand's dtype, or alone
  (convert_to_tensor): bool, int32 (int64 beyond int32, `!overflow` beyond int64), float32
  (`!overflow` beyond float32), complex128.  Two tensors of different dtypes: `!no_promotion`.
* in all/safe, the ops that weak_tensor_ops.py wraps (WEAK_AWARE) infer the input type with
  flexible_dtypes.result_type first: a Python int is ~int32 (`!overflow` beyond int32), a float
  ~float32 (1e+300 becomes inf, no error), a complex ~complex128, a bool strong bool; a
  WeakTensor stays weak, and the result is weak when the inferred input type is.  Binary ones
  use the same promotion as `maximum` (recorded in tests/fixtures/resolve).  Ops that are not
  wrapped take a WeakTensor as its strong tensor (the result is never weak).
"""
from __future__ import annotations

import analyze_ops
from syntax import KIND

AB = {"b": "bool", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "i8": "int8",
      "i16": "int16", "i32": "int32", "i64": "int64", "bf16": "bfloat16", "f16": "float16",
      "f32": "float32", "f64": "float64", "c64": "complex64", "c128": "complex128"}
INTS = "u8 u16 u32 u64 i8 i16 i32 i64"
SINTS = "i8 i16 i32 i64"
FLOATS = "bf16 f16 f32 f64"
CPLX = "c64 c128"
_K = {
    "negative": f"{SINTS} {FLOATS} {CPLX}", "absolute": f"{SINTS} {FLOATS} {CPLX}",
    "sign": f"{SINTS} {FLOATS} {CPLX}", "square": f"{INTS} {FLOATS} {CPLX}",
    "floor": FLOATS, "ceil": FLOATS, "round": f"{INTS} {FLOATS}",
    "isnan": FLOATS, "isinf": FLOATS, "isfinite": FLOATS, "logical_not": "b",
    "bitwise_invert": INTS, "real": f"{INTS} {FLOATS} {CPLX}", "imag": f"b {INTS} {FLOATS} {CPLX}",
    "conj": f"{INTS} {FLOATS} {CPLX}", "angle": f"{FLOATS} {CPLX}",
    "left_shift": INTS, "right_shift": INTS, "arctan2": FLOATS, "nextafter": "f32 f64",
    "fmod": "i32 i64 f32 f64",
    "sum": f"{INTS} {FLOATS} {CPLX}", "prod": f"{INTS} {FLOATS} {CPLX}",
    "mean": f"{INTS} {FLOATS} {CPLX}", "max": f"{INTS} {FLOATS}", "min": f"{INTS} {FLOATS}",
    "argmax": f"b {INTS} {FLOATS}", "cumsum": f"{INTS} {FLOATS} {CPLX}",
    "cumprod": f"{INTS} {FLOATS} {CPLX}", "any": "b", "all": "b",
    "var": f"{FLOATS} {CPLX}", "std": f"{FLOATS} {CPLX}",
}
for _op in "sqrt reciprocal exp expm1 log log1p sin cos tan arcsin arctan sinh tanh".split():
    _K[_op] = f"{FLOATS} {CPLX}"
KERNELS = {op: {AB[t] for t in v.split()} for op, v in _K.items()}
# no TF function at all: AttributeError "module 'tensorflow._api.v2.math' has no attribute ..."
ABSENT = set("positive log2 log10 trunc signbit hypot copysign logaddexp fmax fmin float_power "
             "divmod heaviside".split())
PART = {"complex64": "float32", "complex128": "float64"}
# the functions weak_tensor_ops.py wraps (weak_tensor_unary_op_wrapper / _binary_op_wrapper)
WEAK_AWARE = set("negative absolute sign square sqrt reciprocal exp expm1 log log1p sin cos tan "
                 "arcsin arctan sinh tanh floor ceil round real imag conj angle "
                 "fmod sum prod mean max min var std".split())
WEAK_DTYPES = {"int32", "int64", "float32", "float64", "complex128"}  # WeakTensor's allowed dtypes
BOOL_ONLY = {"logical_not", "any", "all"}  # they convert their input to bool

OP_CLASS = {}
for _ops, _cls in [
    ("sqrt reciprocal exp expm1 log log1p sin cos tan arcsin arctan sinh tanh", "unary_float"),
    ("negative absolute sign square floor ceil round bitwise_invert conj", "unary_same"),
    ("isnan isinf isfinite logical_not", "predicate"), ("real imag angle", "complex_part"),
    ("arctan2 nextafter fmod left_shift right_shift", "binary_same"),
    ("sum prod mean max min cumsum cumprod var std", "reduce_same"), ("argmax", "reduce_index"),
    ("any all", "reduce_bool"),
]:
    for _o in _ops.split():
        OP_CLASS[_o] = _cls
for _o in ABSENT:
    OP_CLASS[_o] = "absent"

I32, I64 = (-2**31, 2**31 - 1), (-2**63, 2**63 - 1)
F32_MAX = 3.4028234663852886e38


class Answer(Exception):
    pass


def convert_literal(v, aware):
    """(dtype, weak) of a Python literal converted alone."""
    if type(v) is bool:
        return "bool", False
    if type(v) is int:
        if I32[0] <= v <= I32[1]:
            return "int32", aware
        if aware:
            raise Answer("!overflow")  # "Python int ... too large to convert to np.int32"
        if I64[0] <= v <= I64[1]:
            return "int64", False
        raise Answer("!overflow")
    if type(v) is float:
        if not aware and abs(v) > F32_MAX and v == v and abs(v) != float("inf"):
            raise Answer("!overflow")
        return "float32", aware
    return "complex128", aware


def operand(o, aware, op):
    """(dtype, weak) of one operand of a unary op or reduction."""
    if o.kind == "literal" and op in BOOL_ONLY:
        if type(o.py) is int and not I64[0] <= o.py <= I64[1]:
            raise Answer("!overflow")
        if type(o.py) is not bool:
            raise Answer("!unsupported")  # converted to bool: "Cannot convert 1 to EagerTensor"
    if o.kind == "literal":
        return convert_literal(o.py, aware)
    if o.weak and o.dtype not in WEAK_DTYPES:
        raise Answer("!unsupported")  # "not allowed as a weak type"
    return o.dtype, o.weak and aware


def finish(op, dt, weak):
    if dt not in KERNELS[op]:
        raise Answer("!unsupported")
    cls = OP_CLASS[op]
    if cls in ("predicate", "reduce_bool"):
        return "bool"
    if cls == "reduce_index":
        return "int64"
    if op in ("absolute", "real", "imag", "angle", "var", "std"):
        dt = PART.get(dt, dt)
    return ("~" if weak else "") + dt


def predict_for(policy):
    new = policy in ("tf-all", "tf-safe")

    def predict(cell, base):
        op, ops = cell.op, cell.operands
        if OP_CLASS[op] == "absent":
            return "!unsupported"
        aware = new and op in WEAK_AWARE
        try:
            if op == "angle" and policy == "tf-legacy" and ops[0].dtype == "bfloat16":
                # angle of a real x is where(x < 0, np.pi * ones_like(x), ...): in legacy
                # (NumPy) mode np.pi * bfloat16 finds no common dtype (DTypePromotionError)
                return "!unsupported"
            if len(ops) == 1:
                if op in ("cumsum", "cumprod", "argmax") and ops[0].kind == "zerodim":
                    return "!unsupported"  # axis 0 of a 0-d tensor: "Expected scan axis"
                return finish(op, *operand(ops[0], aware, op))
            a, b = ops
            for o in (a, b):
                if o.weak and o.dtype not in WEAK_DTYPES:
                    return "!unsupported"
            if aware:
                r = base("remainder", a, b)  # `%` is floor_mod, wrapped the same way as truncate_mod
                if r.startswith("!"):
                    return r
                weak = r.startswith("~")
                return finish(op, analyze_ops.strip_weak(r), weak)
            # not wrapped: a WeakTensor is its strong tensor; a literal takes the tensor's dtype
            if new and any(o.weak for o in (a, b)) and any(
                    o.kind == "literal" and type(o.py) is int and not I32[0] <= o.py <= I32[1]
                    for o in (a, b)):
                # a WeakTensor makes the Python int go through the new type inference, which
                # refuses ints beyond int32 ("Python int ... too large to convert to np.int32"):
                # only 2**63 is recorded, so the int32 bound is the inference's, not measured here
                return "!overflow"
            return binary_plain(op, (a, b), base)
        except Answer as e:
            return e.args[0]
    return predict


def binary_plain(op, ops, base):
    """A generated op's eager conversion (execute.args_to_matching_eager): T is the dtype of the
    first tensor argument; each Python literal is converted to T (literal_into); then the kernel
    must exist for T (`!unsupported`), then the other tensor must be T (`!no_promotion`)."""
    tens = [o for o in ops if o.kind != "literal"]
    T = tens[0].dtype
    for o in ops:
        if o.kind == "literal":
            err = literal_into(o.py, T)
            if err:
                return err
    if T not in KERNELS[op]:
        return "!unsupported"
    if any(o.dtype != T for o in tens):
        return "!no_promotion"  # "cannot compute Atan2 as input #1(zero-based) was expected ..."
    return T


# dtypes a Python scalar converts to directly (tensorflow/python/lib/core/py_seq_tensor.cc has a
# converter per dtype for these); to any other dtype it is converted to its own inferred dtype
# (bool, int32 / int64, float32, complex128) and then cast, which bool does not allow
DIRECT = {"bool", "int32", "int64", "uint64", "float16", "float32", "float64", "complex128"}


def literal_into(v, dt):
    """convert_to_tensor(v, dtype=dt) in eager mode: the error token, or None."""
    k = KIND[dt]
    t = type(v)
    if t is bool:
        if dt == "bool" or (dt in DIRECT and k != "b"):
            return None
        return "!no_promotion"  # "Cannot convert True to EagerTensor of dtype int8"
    if t is int:
        if dt == "bool":
            return "!overflow" if not I64[0] <= v <= I64[1] else "!no_promotion"
        if dt == "uint64":
            return None if 0 <= v < 2**64 else "!overflow"
        if dt in DIRECT and k in "fc":
            return None
        if not I64[0] <= v <= I64[1]:
            return "!overflow"  # "Can't convert Python sequence with out-of-range integer"
        return None  # int32/int64, then a wrapping cast
    if t is float:
        return None if k in "fc" else "!no_promotion"  # "Cannot convert 1.0 to EagerTensor of dtype int8"
    return None if k == "c" else "!no_promotion"


QUIRKS = {p: [] for p in ("tf", "tf-legacy", "tf-all", "tf-safe")}

if __name__ == "__main__":
    analyze_ops.main(["tf", "tf-legacy", "tf-all", "tf-safe"], predict_for, lambda p: QUIRKS[p],
                     OP_CLASS)
