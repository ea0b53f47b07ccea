"""The op-class rules of NumPy 2.4.6 (`numpy`) and 1.26.4 (`numpy1`) for the ops of issue 12,
checked against tests/fixtures/resolve-ops/{numpy,numpy1}.txt.gz.  See notes/ops-numpy.md.

    python3 tools/oracle/analyze_ops.py is the checker; run this file:
    python3 tools/oracle/analyze_ops_numpy.py [numpy|numpy1] [--show N]

The rule for every ufunc is NumPy's loop search: the first loop of `np.<ufunc>.types` (LOOPS
below, in that order, copied from NumPy 2.4.6; NumPy 1.26.4 has the same lists) whose input
types every operand casts to safely; the loop's output types are the result.  What "the operand's
dtype" is comes from the existing promotion rules of analyze_numpy.py: NEP 50 in NumPy 2 (a
Python scalar next to an array takes the array's dtype when its kind is not higher, else int64 /
float64 / complex128), value-based casting in NumPy 1 (a scalar next to an array of the same or
a higher category counts as its min_scalar_type).
"""
from __future__ import annotations

import sys

import analyze_ops
from analyze_numpy import (Answer, KIND, can_cast_safe, default_kind_dtype, fits,
                           np1_can_cast_operand, np1_literal_dtype, np1_result_type,
                           np1_use_min_scalar, np2_weak_dtype, promote_types)
from syntax import Cell, parse_operand

C = {"?": "bool", "b": "int8", "B": "uint8", "h": "int16", "H": "uint16", "i": "int32",
     "I": "uint32", "l": "int64", "L": "uint64", "q": "int64", "Q": "uint64", "e": "float16",
     "f": "float32", "d": "float64", "F": "complex64", "D": "complex128"}
NUM = "bBhHiIlLqQefdFD"      # the numeric loops without bool (negative, square, ...)
FLT = "efdFD"                # the float and complex loops (sqrt, exp, ...)
INT = "bBhHiIlLqQ"


def loops(*sigs):
    """('xy->z', ...) -> [((in dtypes), (out dtypes))] in order; loops NumPy has for types outside
    the 14 (g G m M O) are left out."""
    out = []
    for s in sigs:
        ins, outs = s.split("->")
        if all(c in C for c in ins + outs):
            out.append((tuple(C[c] for c in ins), tuple(C[c] for c in outs)))
    return out


def uni(chars, out=None):
    return loops(*[f"{c}->{out or c}" for c in chars])


def bi(chars, out=None, n_out=1):
    return loops(*[f"{c}{c}->{(out or c) * n_out}" for c in chars])


LOOPS = {
    "negative": uni(NUM), "positive": uni(NUM), "sign": uni(NUM), "square": uni(NUM),
    "reciprocal": uni(NUM), "conj": uni(NUM),
    "absolute": uni("?" + INT + "efd") + loops("F->f", "D->d"),
    "floor": uni("?" + INT + "efd"), "ceil": uni("?" + INT + "efd"), "trunc": uni("?" + INT + "efd"),
    "rint": uni(FLT),
    "isnan": uni("?" + NUM, "?"), "isinf": uni("?" + NUM, "?"), "isfinite": uni("?" + NUM, "?"),
    "logical_not": uni("?" + NUM, "?"), "signbit": uni("efd", "?"),
    "bitwise_invert": uni("?" + INT),
    "arctan2": bi("efd"), "hypot": bi("efd"), "copysign": bi("efd"), "logaddexp": bi("efd"),
    "nextafter": bi("efd"), "heaviside": bi("efd"),
    "fmax": bi("?" + NUM), "fmin": bi("?" + NUM), "fmod": bi(INT + "efd"),
    "float_power": bi("dD"), "divmod": bi(INT + "efd", n_out=2),
    "left_shift": bi(INT), "right_shift": bi(INT),
}
for _op in ["sqrt", "exp", "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "arcsin",
            "arctan", "sinh", "tanh"]:
    LOOPS[_op] = uni(FLT)

OP_CLASS = {}
for _op, _cls in [
    ("negative positive sign square reciprocal conj", "unary_same"),
    ("absolute", "unary_abs"),
    ("sqrt exp expm1 log log1p log2 log10 sin cos tan arcsin arctan sinh tanh", "unary_float"),
    ("floor ceil trunc", "unary_rounding"), ("round", "round"),
    ("isnan isinf isfinite signbit logical_not", "predicate"),
    ("bitwise_invert", "unary_bitwise"), ("real imag", "complex_part"), ("angle", "angle"),
    ("arctan2 hypot copysign logaddexp nextafter heaviside", "binary_float"),
    ("fmax fmin", "binary_same"), ("fmod", "binary_int_float"), ("divmod", "binary_divmod"),
    ("float_power", "binary_float64"), ("left_shift right_shift", "binary_shift"),
    ("sum prod cumsum cumprod", "reduce_sum"), ("mean", "reduce_mean"),
    ("var std", "reduce_var"), ("max min", "reduce_same"), ("argmax", "reduce_index"),
    ("any all", "reduce_bool"),
]:
    for _o in _op.split():
        OP_CLASS[_o] = _cls


def literal_dtype(v, numpy1):
    """np.asarray(v).dtype of a lone Python scalar: an int beyond int64 is uint64 (else an error)."""
    if numpy1:
        return np1_literal_dtype(v)
    if type(v) is int and not fits(v, "int64"):
        if fits(v, "uint64"):
            return "uint64"
        raise Answer("!overflow")
    return default_kind_dtype(v)


# NumPy 1.26 has float loops only for floor/ceil/trunc (NumPy 2 added bool and integer loops)
LOOPS1 = dict(LOOPS, floor=uni("efd"), ceil=uni("efd"), trunc=uni("efd"))
# ufuncs with a uniform type resolver (the loop of the input's own dtype, no casting):
# generate_umath.py gives negative PyUFunc_NegativeTypeResolver and positive/sign
# PyUFunc_SimpleUnaryOperationTypeResolver; bool has no loop there, so bool is refused
UNIFORM = {"negative", "positive", "sign"}
NUMPY1 = [False]


def find_loop(op, casts):
    for ins, outs in (LOOPS1 if NUMPY1[0] else LOOPS)[op]:
        if all(casts(i, t) for i, t in enumerate(ins)):
            return ins, outs
    raise Answer("!unsupported")


def search(op, casts):
    """First loop whose every input satisfies casts(i, loop_type); its outputs joined by ','."""
    return ",".join(find_loop(op, casts)[1])


def unary(op, o, numpy1):
    dt = literal_dtype(o.py, numpy1) if o.kind == "literal" else o.dtype
    if op in UNIFORM:
        return search(op, lambda i, t: t == dt)
    return search(op, lambda i, t: can_cast_safe(dt, t))


# binary ufuncs with PyUFunc_SimpleBinaryOperationTypeResolver: the loop of result_type(a, b)
# (value-based in NumPy 1: fmax(uint8, 300) is uint16, where a linear search would pick int16)
UNIFORM2 = {"fmax", "fmin"}


def binary(op, a, b, numpy1):
    if op in UNIFORM2 and numpy1:
        r = np1_result_type(Cell(op, (a, b)))
        return search(op, lambda i, t: t == r)
    if numpy1:
        ops = []
        for o in (a, b):
            if o.kind == "literal":
                ops.append((np1_literal_dtype(o.py), True, o.py))
            else:
                ops.append((o.dtype, o.kind == "zerodim", o.py if o.kind == "zerodim" else None))
        use_min = np1_use_min_scalar(ops)
        return search(op, lambda i, t: np1_can_cast_operand(*ops[i], t, use_min))
    dts, lits = [], []
    for o, other in ((a, b), (b, a)):
        if o.kind == "literal":
            dts.append(np2_weak_dtype(o.py, other.dtype))
            lits.append(o.py)
        else:
            dts.append(o.dtype)
            lits.append(None)
    if op in UNIFORM2:
        r = promote_types(*dts)
        ins, outs = find_loop(op, lambda i, t: t == r)
    else:
        ins, outs = find_loop(op, lambda i, t: can_cast_safe(dts[i], t))
    r = ",".join(outs)
    for v, t in zip(lits, ins):
        # a Python int is converted to the loop's integer type: OverflowError unless it fits
        if type(v) is int and KIND[t] in "iu" and not fits(v, t):
            raise Answer("!overflow")
    return r


def reduction(op, o, dtype):
    dt = o.dtype
    k = KIND[dt]
    if dtype:
        if op in ("var", "std") and dtype == "bool" and dt == "bool":
            # x - mean(x, dtype=bool) in bool: "numpy boolean subtract, the `-` operator, is not
            # supported" (_methods.py _var); any other x makes the difference x's dtype
            raise Answer("!unsupported")
        return dtype
    if op in ("sum", "prod", "cumsum", "cumprod"):
        return {"b": "int64", "i": "int64", "u": "uint64"}.get(k, dt)
    if op == "mean":
        return "float64" if k in "bui" else dt
    if op in ("var", "std"):
        return "float64" if k in "bui" else {"complex64": "float32", "complex128": "float64"}.get(dt, dt)
    if op == "argmax":
        return "int64"
    if op in ("any", "all"):
        return "bool"
    return dt  # max min


def predict_for(policy):
    numpy1 = policy == "numpy1"
    NUMPY1[0] = numpy1

    def predict(cell, base):
        op, ops = cell.op, cell.operands
        try:
            cls = OP_CLASS[op]
            if cls.startswith("reduce"):
                return reduction(op, ops[0], cell.dtype)
            if len(ops) == 2:
                return binary(op, ops[0], ops[1], numpy1)
            o = ops[0]
            if cls == "complex_part":
                if o.kind == "literal":
                    # np.real(x) is `x.real` for a non-array: the Python scalar's own attribute
                    # (True.real is the int 1, (1j).real the float 0.0)
                    return "=" + {bool: "int", int: "int", float: "float", complex: "float"}[type(o.py)]
                return {"complex64": "float32", "complex128": "float64"}.get(o.dtype, o.dtype)
            if cls == "angle":
                # np.angle(z) = arctan2(z.imag, z.real) for complex z, else arctan2(0, z) with a
                # Python 0 (lib/_function_base_impl.py)
                dt = literal_dtype(o.py, numpy1) if o.kind == "literal" else o.dtype
                if KIND[dt] == "c":
                    part = {"complex64": "float32", "complex128": "float64"}[dt]
                    return search("arctan2", lambda i, t: can_cast_safe(part, t))
                # a literal becomes a 0-d array (np.asanyarray); in NumPy 1 the Python 0 next to
                # a 0-d array is not value-based (no n-d array): int64, so float64 for all
                z = parse_operand(f"{dt}({o.text})") if o.kind == "literal" else o
                return binary("arctan2", parse_operand("0"), z, numpy1)
            if cls == "round":
                # np.round -> ndarray.round: integers are returned as they are, others through rint
                dt = literal_dtype(o.py, numpy1) if o.kind == "literal" else o.dtype
                if KIND[dt] in "iu":
                    return dt
                return search("rint", lambda i, t: can_cast_safe(dt, t))
            return unary(op, o, numpy1)
        except Answer as e:
            return e.token
    return predict


QUIRKS = {
    "numpy": [],
    "numpy1": [],
}


if __name__ == "__main__":
    analyze_ops.main(["numpy", "numpy1"], predict_for, lambda p: QUIRKS[p], OP_CLASS)
