"""The op-class rules of PyTorch 2.15 (`torch`) for the ops of issue 12, checked against
tests/fixtures/resolve-ops/torch.txt.gz.  See notes/ops-torch.md.

    python3 tools/oracle/analyze_ops_torch.py [--show N]

Binary ops use the promotion of analyze_torch.py (c10::promoteTypes + at::native::result_type's
categories: dim tensors > 0-d tensors > wrapped Python numbers), then the op class's step.  A
dtype has a kernel or not per op (the AT_DISPATCH lists of aten/src/ATen/native/cpu/*Kernel.cpp):
KERNEL below says which dtypes each op class runs for; anything else is `!unsupported`.
"""
from __future__ import annotations

import analyze_ops
from analyze_torch import BAREBONES, COMPLEX, Refuse, int_wrap, make_arg, result_type

INTS = {"uint8", "int8", "int16", "int32", "int64"}   # the integers with kernels
ALL = set(analyze_ops.DTYPES)
REALF = {"bfloat16", "float16", "float32", "float64"}
CPLX = {"complex64", "complex128"}
PART = {"complex64": "float32", "complex128": "float64"}
UN, NP = "!unsupported", "!no_promotion"
DEFAULT_FLOAT = "float32"  # torch.get_default_dtype()

OP_CLASS = {}
for _ops, _cls in [
    ("sqrt exp expm1 log log1p log2 log10 sin cos tan arcsin arctan sinh tanh reciprocal",
     "unary_float"),
    ("negative positive absolute sign square", "unary_arith"),
    ("floor ceil trunc round", "unary_rounding"), ("isnan isinf isfinite signbit logical_not",
                                                   "predicate"),
    ("bitwise_invert", "unary_bitwise"), ("real imag conj angle", "complex_part"),
    ("arctan2 hypot logaddexp copysign nextafter heaviside", "binary_float"),
    ("fmax fmin fmod", "binary_same"), ("float_power", "binary_float64"),
    ("left_shift right_shift", "binary_shift"), ("divmod", "absent"),
    ("sum prod cumsum cumprod", "reduce_sum"), ("mean var std", "reduce_float"),
    ("max min argmax", "reduce_order"), ("any all", "reduce_bool"),
]:
    for _o in _ops.split():
        OP_CLASS[_o] = _cls

# dtypes each unary op accepts (its CPU kernel dispatch list, or an explicit check)
NO_BOOL_NO_BAREBONES = ALL - {"bool"} - BAREBONES
UNARY_ACCEPTS = {
    "negative": NO_BOOL_NO_BAREBONES,    # neg: "Negation, the `-` operator, on a bool tensor"
    "positive": ALL - {"bool"},          # positive: Python-level check, no kernel (identity)
    "absolute": NO_BOOL_NO_BAREBONES,
    "sign": ALL - BAREBONES - CPLX,      # complex: "use torch.sgn instead"
    "square": ALL - BAREBONES,           # square(x) = pow(x, 2)
    "floor": ALL - {"bool"} - CPLX, "ceil": ALL - {"bool"} - CPLX,
    "trunc": ALL - {"bool"} - CPLX, "round": ALL - {"bool"} - CPLX,
    "signbit": ALL - CPLX, "logical_not": ALL - BAREBONES,
    "bitwise_invert": {"bool"} | INTS,
    "imag": CPLX,
}


def unary(op, dt):
    cls = OP_CLASS[op]
    if dt not in UNARY_ACCEPTS.get(op, ALL):
        return UN
    if cls == "unary_float":
        return DEFAULT_FLOAT if dt == "bool" or dt in INTS or dt in BAREBONES else dt
    if cls == "predicate":
        return "bool"
    if op == "absolute":
        return PART.get(dt, dt)
    if op == "square" and dt == "bool":
        return "int64"  # pow(bool, 2): the Python int 2 makes it int64
    if op in ("real", "imag"):
        return PART.get(dt, dt)
    if op == "angle":
        if dt in CPLX:
            return PART[dt]
        return DEFAULT_FLOAT if dt not in REALF else dt
    return dt


def reduction(op, dt, dtype, zerodim):
    cls = OP_CLASS[op]
    if dtype:
        if op in ("sum", "prod") and dtype in BAREBONES:
            return UN
        if op in ("cumsum", "cumprod") and (dtype in BAREBONES or dtype == "bool") and not zerodim:
            return UN
        if op == "mean" and dtype not in REALF | CPLX:
            return UN
        return dtype
    if cls == "reduce_sum":
        return "int64" if dt == "bool" or dt in INTS or dt in BAREBONES else dt
    if cls == "reduce_float":
        if dt not in REALF | CPLX:
            return UN  # "mean(): could not infer output dtype", var/std: "std and var only support
            # floating point and complex dtypes"
        return PART.get(dt, dt) if op in ("var", "std") else dt
    if cls == "reduce_order":
        if dt in BAREBONES or dt in CPLX or (op == "argmax" and dt == "bool"):
            return UN
        return "int64" if op == "argmax" else dt
    if cls == "reduce_bool":
        return "uint8" if dt == "uint8" else "bool"
    raise KeyError(op)


# functions with an overload taking a Python number: (left allowed, right allowed)
SCALAR_OK = {"fmod": (False, True), "float_power": (True, True), "left_shift": (True, True),
             "right_shift": (True, True), "copysign": (False, True)}


def binary(op, a, b):
    cls = OP_CLASS[op]
    left, right = SCALAR_OK.get(op, (False, False))
    if (a.kind == "literal" and not left) or (b.kind == "literal" and not right):
        return UN  # "argument 'other' (position 2) must be Tensor, not int"
    cplx = any((o.kind == "literal" and type(o.py) is complex) or o.dtype in CPLX for o in (a, b))
    if op in ("fmax", "fmin", "heaviside") and cplx:
        return UN  # checked before promotion: "fmax not implemented for complex tensors"
    if op == "heaviside":
        if a.dtype != b.dtype:
            return NP  # "heaviside is not yet implemented for tensors with different dtypes."
        return UN if a.dtype in BAREBONES else a.dtype  # no promotion, no int-to-float
    if cls == "binary_float64":
        # float_power casts both operands to float64 / complex128 first: no promotion step
        return "complex128" if cplx else "float64"
    try:
        r = result_type([make_arg(a), make_arg(b)])
    except Refuse as e:
        return e.args[0]
    if cls == "binary_float":
        if r in COMPLEX:
            return r if op == "logaddexp" and r in CPLX else UN
        if r not in REALF:
            # atan2, copysign: int_to_float (TensorIterator promote_integer_inputs_to_float);
            # hypot, logaddexp, nextafter: no integer kernels
            return DEFAULT_FLOAT if op in ("arctan2", "copysign") else UN
        return r
    if op == "fmod":
        if r == "bool" or r in BAREBONES or r in COMPLEX:
            return UN  # "fmod_cpu" not implemented for 'Bool'
        lit = b.py if b.kind == "literal" else None
        if r in INTS and type(lit) is int and int_wrap(lit, r) == 0:
            return UN  # the divisor wraps to 0 in r: "ZeroDivisionError"
        return r
    if cls == "binary_shift":
        return r if r in INTS else UN
    if cls == "binary_same":
        if r in COMPLEX:
            return UN
        return r
    raise KeyError(op)


def predict_for(policy):
    def predict(cell, base):
        op, ops = cell.op, cell.operands
        cls = OP_CLASS[op]
        if cls == "absent":
            return UN  # AttributeError: module 'torch' has no attribute 'divmod'
        if cls.startswith("reduce"):
            return reduction(op, ops[0].dtype, cell.dtype, ops[0].kind == "zerodim")
        if len(ops) == 2:
            return binary(op, *ops)
        if ops[0].kind == "literal":
            return UN  # torch functions take a Tensor: "must be Tensor, not int"
        return unary(op, ops[0].dtype)
    return predict


QUIRKS = []

if __name__ == "__main__":
    analyze_ops.main(["torch"], predict_for, lambda p: QUIRKS, OP_CLASS)
