"""The op-class rules of JAX 0.10.2 (`jax` x32, `jax-x64`, `jax-strict`) for the ops of issue 12,
checked against tests/fixtures/resolve-ops/jax*.txt.gz.  See notes/ops-jax.md.

    python3 tools/oracle/analyze_ops_jax.py [jax|jax-x64|jax-strict] [--show N]

Operands: in x32 every 64-bit dtype is canonicalized to its 32-bit sibling when the array is made
(jnp.ones(2, int64) is int32).  A Python int is a weak default int (~int32 / ~int64,
`!overflow` outside it), a float ~float32/~float64, a complex ~complex64/~complex128, a bool a
strong bool.  Binary ops first promote like `add` (jnp's lattice, recorded in
tests/fixtures/resolve), then the op class maps the promoted dtype.  The weak flag of a unary
result follows the op's WEAK entry (jnp functions differ: some keep it, some go through
jnp.asarray / a strong constant and drop it).
"""
from __future__ import annotations

import analyze_ops
from syntax import KIND

UN = "!unsupported"
CPLX_PART = {"complex64": "float32", "complex128": "float64"}

OP_CLASS = {}
for _ops, _cls in [
    ("sqrt exp expm1 log log1p log2 log10 sin cos tan arcsin arctan sinh tanh reciprocal",
     "unary_float"),
    ("negative positive absolute sign square floor ceil trunc round bitwise_invert conj",
     "unary_same"),
    ("isnan isinf isfinite signbit logical_not", "predicate"), ("real imag angle", "complex_part"),
    ("arctan2 hypot logaddexp copysign nextafter float_power heaviside", "binary_float"),
    ("fmax fmin fmod divmod", "binary_same"), ("left_shift right_shift", "binary_shift"),
    ("sum prod cumsum cumprod", "reduce_sum"), ("mean var std", "reduce_float"),
    ("max min argmax", "reduce_order"), ("any all", "reduce_bool"),
]:
    for _o in _ops.split():
        OP_CLASS[_o] = _cls

# which inputs each unary op refuses (kinds: b u i f c)
REFUSES = {"negative": "b", "sign": "b", "round": "b", "floor": "c", "ceil": "c", "trunc": "c",
           "bitwise_invert": "fc", "signbit": "c"}
# the weak flag of the result of a weak input: keep / drop / inexact (kept for float and complex
# inputs only) / bool (kept for bool inputs only) / notbool (kept unless the input is bool);
# separately for weak tensors and for Python literals where they differ
WEAK = {op: ("notbool", "notbool") for op in OP_CLASS}
WEAK.update({
    "positive": ("keep", "keep"), "absolute": ("keep", "keep"), "floor": ("keep", "keep"),
    "ceil": ("keep", "keep"), "trunc": ("keep", "keep"), "conj": ("keep", "keep"),
    "real": ("keep", "keep"), "imag": ("keep", "keep"), "bitwise_invert": ("keep", "keep"),
    "isnan": ("keep", "keep"), "isinf": ("drop", "drop"), "isfinite": ("inexact", "inexact"),
    "signbit": ("drop", "drop"), "logical_not": ("bool", "keep"), "log2": ("drop", "drop"),
    "log10": ("drop", "drop"), "angle": ("inexact", "complex"), "square": ("notbool", "notbool"),
})


class Mode:
    def __init__(self, policy):
        self.x64 = policy != "jax"
        self.strict = policy == "jax-strict"
        b = 64 if self.x64 else 32
        self.DI, self.DU, self.DF = f"int{b}", f"uint{b}", f"float{b}"
        self.DC = "complex128" if self.x64 else "complex64"

    def to_float(self, d):
        """The float an integer or bool input computes in (dtypes.to_inexact_dtype): float32,
        except the 64-bit integers, which give float64 (so only with x64)."""
        return "float64" if d in ("int64", "uint64") else "float32"

    def canon(self, d):
        if self.x64:
            return d
        return {"int64": "int32", "uint64": "uint32", "float64": "float32",
                "complex128": "complex64"}.get(d, d)

    def operand(self, o):
        """(dtype, weak, is_literal) or raises Answer."""
        if o.kind != "literal":
            d = self.canon(o.dtype)
            if o.kind == "zerodim" and d != o.dtype and KIND[d] in "ui" and not fits(o.py, d):
                raise Answer("!overflow")  # jnp.array(v, dtype=int64) in x32 makes int32
            return d, o.weak, False
        v = o.py
        if type(v) is bool:
            return "bool", False, True
        if type(v) is int:
            b = 64 if self.x64 else 32
            if not -2**(b - 1) <= v < 2**(b - 1):
                raise Answer("!overflow")
            return self.DI, True, True
        if type(v) is float:
            return self.DF, True, True
        return self.DC, True, True


def fits(v, d):
    b = int(d.lstrip("uint"))
    return (0 <= v < 2**b) if d.startswith("u") else (-2**(b - 1) <= v < 2**(b - 1))


class Answer(Exception):
    pass


def weak_rule(rule, dt_in):
    k = KIND[dt_in]
    return {"keep": True, "drop": False, "inexact": k in "fc", "bool": k == "b",
            "notbool": k != "b", "complex": k == "c"}[rule]


def unary(m, op, o):
    dt, weak, lit = m.operand(o)
    k = KIND[dt]
    if k in REFUSES.get(op, ""):
        return UN
    cls = OP_CLASS[op]
    if cls == "unary_float":
        r = dt if k in "fc" else m.to_float(dt)
    elif cls == "predicate":
        r = "bool"
    elif op == "square" and k == "b":
        r, weak = "int32", False  # square of bools is computed in int32 (also with x64)
    elif op in ("absolute", "real", "imag"):
        r = CPLX_PART.get(dt, dt)
    elif op == "angle":
        # complex: the component; a real float n-d array keeps its dtype; an int/bool array
        # or a real float 0-d array gives the default float
        r = CPLX_PART[dt] if k == "c" else (dt if k == "f" and o.kind == "tensor" else m.DF)
    else:
        r = dt
    if weak:
        weak = weak_rule(WEAK[op][1 if lit else 0], dt)
    if m.strict and op == "trunc" and weak and k == "f":
        # trunc is where(x < 0, ceil(x), floor(x)) with Python constants: under strict
        # promotion a weak float meets a weak Python float and becomes the weak default float
        r = m.DF
    return ("~" if weak else "") + r


def reduction(m, op, o, dtype):
    dt, weak, _ = m.operand(o)
    k = KIND[dt]
    cls = OP_CLASS[op]
    if dtype:
        want = m.canon(dtype)
        if op in ("mean", "var", "std") and dtype == "bool":
            return UN  # "data type <class 'numpy.bool'> not inexact"
        if op in ("var", "std") and k == "c" and KIND[want] != "c":
            return UN  # "does not yet support real dtype parameters" for complex input
        if op == "std" and KIND[want] in "ui":
            return UN  # "dtype argument to jnp.std must be inexact"
        if op == "var" and KIND[want] in "ui":
            # var computes an integer dtype= in the default float, weakly typed; strict
            # promotion refuses the mix that follows ("jax_numpy_dtype_promotion=strict")
            return "!no_promotion" if m.strict else "~" + m.DF
        return want
    if cls == "reduce_sum":
        if op in ("sum", "prod"):
            return m.DI if k in "bi" else (m.DU if k == "u" else dt)
        return m.DI if k == "b" else dt  # cumsum/cumprod keep integer dtypes
    if cls == "reduce_float":
        r = dt if k in "fc" else m.to_float(dt)
        return CPLX_PART.get(r, r) if op in ("var", "std") else r
    if op == "argmax":
        return m.DI
    if cls == "reduce_bool":
        return "bool"
    return dt  # max min


def binary(m, op, a, b, base):
    r = base("add", a, b)
    if r is None or r.startswith("!"):
        return r
    weak = r.startswith("~")
    r = analyze_ops.strip_weak(r)
    k = KIND[r]
    cls = OP_CLASS[op]
    if cls == "binary_float":
        if k == "c" and op not in ("float_power", "logaddexp", "arctan2"):
            return UN
        if op == "hypot" or (op == "logaddexp" and k == "c"):
            weak = False
        if op == "heaviside":
            # where(x1 < 0, 0, where(x1 > 0, 1, x2)): weak when x1 is a Python scalar or a strong
            # 0-d array, strong when x1 is a weak array or a strong n-d array
            weak = weak and (a.kind == "literal" or (a.kind == "zerodim" and not a.weak))
            if a.kind == "literal" and type(a.py) is int and b.weak and KIND[b.dtype] == "f" \
                    and r != m.DF:
                # heaviside(Python int, weak float narrower than the default float) is strong
                weak = False
        if k not in "fc":
            r, weak = m.to_float(r), weak and k != "b"
    elif cls == "binary_shift":
        if k == "b":
            r = "int32"  # bools are shifted as int32 (also with x64)
        elif k not in "ui":
            return UN
    elif op in ("fmod", "divmod"):
        if k == "c":
            return UN  # "rem does not accept dtype complex64"
        if k == "b":
            r, weak = "int32", False  # bools are computed in int32 (also with x64)
    if op == "divmod":
        rem = ("~" if weak else "") + r
        weak_or_lit = [o.weak or (o.kind == "literal" and type(o.py) is not bool) for o in (a, b)]
        if k != "b" and ((a.weak and b.weak) or (KIND[r] == "f" and all(weak_or_lit))):
            # floor_divide of two weak arrays mixes in Python-scalar constants, and weak with weak
            # re-promotes to the kind's default dtype: the quotient is ~int32/~int64; for
            # ~float16/~bfloat16 the two branches of its lax.select then differ (a JAX bug:
            # "lax.select requires arguments to have the same dtypes")
            if KIND[r] == "i":
                return f"~{m.DI},{rem}"  # the sign correction of signed integer floor division
            if KIND[r] == "f" and r != m.DF:
                return UN
        return f"{rem},{rem}"
    return ("~" if weak else "") + r


def predict_for(policy):
    m = Mode(policy)

    def predict(cell, base):
        op, ops = cell.op, cell.operands
        try:
            if OP_CLASS[op].startswith("reduce"):
                return reduction(m, op, ops[0], cell.dtype)
            if len(ops) == 2:
                return binary(m, op, ops[0], ops[1], base)
            return unary(m, op, ops[0])
        except Answer as e:
            return e.args[0]
    return predict


_Q = [
    (r"^fmod ~(u?int\d+) ~bool : ~int(32|64)$", "fmod of a weak int and a weak bool (in this order) is the "
     "weak default int; `fmod ~bool ~int8` is ~int8"),
    (r"^hypot (uint64\(1\) u?int\d+\(1\)|u?int\d+\(1\) uint64\(1\)) : ~float64$", "x64: hypot of a 0-d uint64 and a 0-d signed "
     "int keeps the weak flag of their float64 promotion (every other int pair is strong)"),
]
QUIRKS = {"jax": _Q[:1], "jax-x64": _Q, "jax-strict": []}

if __name__ == "__main__":
    import os
    have = [p for p in ("jax", "jax-x64", "jax-strict") if os.path.exists(
        os.path.join(analyze_ops.ROOT, "tests", "fixtures", "resolve-ops", p + ".txt.gz"))]
    analyze_ops.main(have, predict_for, lambda p: QUIRKS[p], OP_CLASS)
