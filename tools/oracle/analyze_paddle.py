"""Analyse the `paddle` recording: a rule-based predictor of every cell, and the tables of the notes.

    python tools/oracle/analyze_paddle.py [FIXTURE] [--tables] [--misses N]

FIXTURE defaults to tests/fixtures/resolve/paddle.txt.gz. The predictor below is the whole model of
PaddlePaddle 3.3.1 (CPU, dynamic graph) that tools/oracle/notes/paddle.md describes in words: the
promotion lattice of paddle/phi/common/type_promotion.h, the Tensor-operator patches of
paddle/fluid/pybind/eager_math_op_patch.cc (how a Python scalar becomes a tensor), and the CPU kernel
dtype lists (as Paddle's own "kernel ... is not registered" messages list them). It prints its
accuracy and the cells it misses.
"""
from __future__ import annotations

import gzip
import os
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from syntax import parse_cell  # noqa: E402

NP, U, OV, X = "!no_promotion", "!unsupported", "!overflow", "X"

# ---------------------------------------------------------------------------------------------
# dtypes and the promotion lattice (paddle/phi/common/type_promotion.h, promoteTypes)
B, U1, I1, I2, I4, I8 = "bool", "uint8", "int8", "int16", "int32", "int64"
BF, F2, F4, F8, C4, C8 = "bfloat16", "float16", "float32", "float64", "complex64", "complex128"
DTYPES = [B, U1, I1, I2, I4, I8, BF, F2, F4, F8, C4, C8]
INTS = {U1, I1, I2, I4, I8}          # is_support_int (bool is NOT an int here)
FLOATS = {BF, F2, F4, F8}            # is_support_float
COMPLEX = {C4, C8}                   # is_support_complex
INTB = INTS | {B}                    # _supported_int_dtype_ of eager_math_op_patch.cc

_ORDER = [U1, I1, I2, I4, I8, F2, F4, F8, C4, C8, B, BF]
_TABLE = """
u1 i2 i2 i4 i8 f2 f4 f8 c4 c8 u1 bf
i2 i1 i2 i4 i8 f2 f4 f8 c4 c8 i1 bf
i2 i2 i2 i4 i8 f2 f4 f8 c4 c8 i2 bf
i4 i4 i4 i4 i8 f2 f4 f8 c4 c8 i4 bf
i8 i8 i8 i8 i8 f2 f4 f8 c4 c8 i8 bf
f2 f2 f2 f2 f2 f2 f4 f8 c4 c8 f2 f4
f4 f4 f4 f4 f4 f4 f4 f8 c4 c8 f4 f4
f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 f8 f8
c4 c4 c4 c4 c4 c4 c4 c8 c4 c8 c4 c4
c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8
u1 i1 i2 i4 i8 f2 f4 f8 c4 c8 b1 bf
bf bf bf bf bf f4 f4 f8 c4 c8 bf bf
"""
_AB = {"u1": U1, "i1": I1, "i2": I2, "i4": I4, "i8": I8, "f2": F2, "f4": F4, "f8": F8,
       "c4": C4, "c8": C8, "b1": B, "bf": BF}
PROMOTE = {}
for _x, _row in zip(_ORDER, _TABLE.strip().splitlines()):
    for _y, _r in zip(_ORDER, _row.split()):
        PROMOTE[_x, _y] = _AB[_r]


def promote(x, y):
    return PROMOTE[x, y]


def common_kind(x, y):
    """is_common_dtype_for_scalar: both ints (not bool), both floats, or both complex."""
    return any(x in k and y in k for k in (INTS, FLOATS, COMPLEX))


# ---------------------------------------------------------------------------------------------
# CPU kernels: the dtypes each phi kernel is registered for (the lists Paddle prints in its
# "kernel ... is not registered ... Paddle support following DataTypes" errors)
ALL = set(DTYPES)
KERNEL = {
    "add": {B, U1, I1, I2, I4, I8, F4, F8, C4, C8},
    "subtract": {I2, I4, I8, BF, F4, F8, C4, C8},
    "multiply": {B, I4, I8, BF, F4, F8, C4, C8},
    "divide": {B, U1, I1, I2, I4, I8, F4, F8, C4, C8},
    "floor_divide": {U1, I1, I2, I4, I8, BF, F2, F4, F8},
    "remainder": {I4, I8, F4, F8, C4, C8},
    "power": {I4, I8, BF, F4, F8, C4, C8},        # elementwise_pow (tensor ** tensor)
    "pow": {I4, I8, F4, F8, C4, C8},              # pow (tensor ** Python number)
    "scale": ALL - {B},                           # tensor +-*/ Python int/float
    "maximum": {I4, I8, BF, F4, F8},
    "minimum": {I4, I8, BF, F4, F8},
    "logical": {B, I1, I2, I4, I8, F4, F8, C4, C8},
    "bitwise": {B, U1, I1, I2, I4, I8},
    "matmul": {I4, I8, F4, F8, C4, C8},
    "compare": ALL,
}
COMPARE = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
LOGICAL = {"logical_and", "logical_or", "logical_xor"}
BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor"}
FUNCS = {"maximum", "minimum"} | LOGICAL      # paddle.<op>(a, b): no Python scalars
# support_promotion_ops of type_promotion.h: the ops whose 0-d operands follow the scalar rule
ZERO_D_OPS = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power"} | COMPARE
SWAP = {"less": "greater", "less_equal": "greater_equal", "greater": "less",
        "greater_equal": "less_equal", "equal": "equal", "not_equal": "not_equal"}


def kernel_of(op):
    if op in COMPARE:
        return "compare"
    if op in LOGICAL:
        return "logical"
    if op in BITWISE:
        return "bitwise"
    return op


def result_of(op, p):
    return B if (op in COMPARE or op in LOGICAL) else p


BITS = {U1: 8, I1: 8, I2: 16, I4: 32, I8: 64}


def wrap(v, dt):
    """The value an int becomes when Paddle fills a tensor of integer dtype dt with it (C cast)."""
    if dt == B:
        return bool(v)
    n = BITS[dt]
    v &= (1 << n) - 1
    if dt != U1 and v >= 1 << (n - 1):
        v -= 1 << n
    return v


class T:
    """A tensor as the predictor sees it: dtype, 0-d or not, and its value (for zero divisors)."""

    def __init__(self, dt, zerod, value=1):
        self.dt, self.zerod, self.value = dt, zerod, value

    def cast(self, dt):
        return T(dt, self.zerod, self.value)


def binary(op, x, y):
    """A binary op on two tensors, as the generated *_ad_func runs it (type_promotion.h)."""
    k = kernel_of(op)
    if op in BITWISE:
        # no promotion at all. The kernel dtype is the last input's (y), except that a complex
        # input makes it complex (phi KernelKeyParser); the kernel then reads x with its dtype
        if x.dt in COMPLEX or y.dt in COMPLEX or y.dt not in KERNEL[k]:
            return U
        if x.dt != y.dt:
            return NP
        return y.dt
    if x.dt == y.dt:
        p = x.dt
        if op == "divide" and p in INTS:          # NeedTypePromotion: int / int -> float32
            p = F4
    elif op in ZERO_D_OPS and (x.zerod or y.zerod):
        # GetPromoteDtype, "Tensor + 0-d Tensor"
        if op == "divide" and x.dt in INTS and y.dt in INTS:
            p = F4
        elif op == "floor_divide":
            p = promote(x.dt, y.dt)   # floor_divide: 0-d operands promote like 0-d with 0-d
        elif not common_kind(x.dt, y.dt) or (x.zerod and y.zerod):
            p = promote(x.dt, y.dt)
        else:
            p = y.dt if x.zerod else x.dt
    else:
        # Tensor + Tensor: only float with float, or anything with complex
        if (x.dt in FLOATS and y.dt in FLOATS) or x.dt in COMPLEX or y.dt in COMPLEX:
            p = promote(x.dt, y.dt)
        else:
            return NP
    if op == "divide" and p in INTS:
        p = F4   # divide never returns an integer dtype (a bool / bool stays bool)
    if p not in KERNEL[k]:
        return U
    if op in ("floor_divide", "remainder") and p in INTS and y.value == 0:
        return X   # "Integer division by zero"
    if op == "divide" and p == B and not y.value:
        return X   # bool / bool runs the integer divide kernel
    return result_of(op, p)


def matmul(x, y):
    """Tensor.__matmul__ (eager_math_op_patch.cc): complex -> PromoteTypesIfComplexExists, else
    the right operand is cast to the left one's dtype."""
    l, r = x.dt, y.dt
    if l != r:
        if l in COMPLEX or r in COMPLEX:
            if not {l, r} <= {F4, F8, C4, C8}:
                return U   # "Only supports to align data type include float32, float64, complex..."
            l = C8 if {l, r} & {F8, C8} else C4
    return l if l in KERNEL["matmul"] else U


INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1
# tensor ** int: the integer pow kernel never returns for a negative exponent, nor for one at or
# beyond these (the exponent arrives as a C double and is converted back to the integer type)
HANG_POW = {I4: 2 ** 31 - 1, I8: 2 ** 63 - 1}


def scalar(op, t, v, reflected):
    """Tensor `op` Python scalar v (t is the tensor, `reflected` when v is on the left)."""
    kind = type(v).__name__
    if op in FUNCS:
        return U   # maximum(): argument 'y' (position 1) must be Tensor, but got int
    if op in BITWISE:
        if not reflected:
            return U   # bitwise_and(): argument 'y' (position 1) must be Tensor
        if kind not in ("int", "bool"):
            return U   # __rand__: unsupported operand type(s)
        # paddle.to_tensor(v, dtype=x.dtype): an int beyond int64 is a NumPy uint64 array (up to
        # 2**64-1; Paddle refuses to make bfloat16 from it) or an object array (refused)
        if not INT64_MIN <= v < 2 ** 64 or (v > INT64_MAX and t.dt == BF):
            return OV
        return binary(op, T(t.dt, True, v), t)
    s = t.dt
    # 1. the tensor is cast first, by the literal's kind
    if kind == "float" and s in INTB:
        s = F4
    elif kind == "int" and s == B:
        s = I8
    elif kind == "complex" and s not in COMPLEX:
        s = promote(s, C4)
    if op == "divide" and kind in ("int", "float") and s in INTB:
        s = F4     # __div__/__rdiv__ cast int/bool tensors to float32 for any int/float
    st = t.cast(s)
    # 2. ops with a scalar kernel: tensor +-*/ number (scale), tensor ** number (pow)
    if kind in ("int", "float"):
        if op in ("add", "subtract", "multiply") or (op == "divide" and not reflected):
            return s if s in KERNEL["scale"] else U
        if op == "power" and not reflected:
            if s not in KERNEL["pow"]:
                return U
            if s in INTS and (v < 0 or v >= HANG_POW[s]):
                return X   # integer pow loops |exponent| times: hangs (harness timeout)
            return s
    # 3. otherwise the scalar becomes a tensor: full(value, dtype) and the tensor-tensor op
    huge = kind == "int" and not INT64_MIN <= v <= INT64_MAX
    if huge:
        # CastPyArg2Scalar: PyLong_AsLongLong fails and leaves OverflowError set, but the op goes
        # on with the value -1; the pending error surfaces (SystemError <- OverflowError) only if
        # the op itself succeeds, otherwise the op's own error wins
        v = -1
    if kind == "complex":
        # __add__/__sub__/__rsub__/__eq__ fill with the (already complex) tensor's dtype; the
        # others fill complex64 ({1}-shaped; 0-d for __ne__)
        if op in ("add", "subtract", "equal"):
            other = T(s, t.zerod)
        elif op == "multiply":
            other = T(C4, t.zerod)
        elif op == "not_equal":
            other = T(C4, True)
        else:
            other = T(C4, False)
    else:
        value = v
        if s in BITS or s == B:
            value = wrap(int(v), s) if kind != "float" else v
        # __floordiv__/__rfloordiv__/__pow__ fill a {1}-shaped tensor, the others t's shape
        zerod = t.zerod and not (op == "floor_divide" or (op == "power" and not reflected))
        other = T(s, zerod, value)
    if reflected:
        r = binary(SWAP[op], st, other) if op in COMPARE else binary(op, other, st)
    else:
        r = binary(op, st, other)
    if huge and not r.startswith("!") and r != X:
        return OV
    return r


def operand(o):
    if o.kind == "literal":
        return o.py
    return T(o.dtype, o.kind == "zerodim", o.py)


ASSIGN_COMPLEX = {U1: "cast", I2: "cast", I1: U, B: "keep", I4: "keep", I8: "keep"}


def out_write(op, a, b, out):
    """out=D: in-place method when D is a's dtype (maximum/minimum: out=), else paddle.<op>(out=)."""
    inplace = out == a.dt and op not in ("maximum", "minimum")
    if inplace:
        if op == "power":
            if isinstance(b, T):
                return U   # pow_: "y must be scalar type"
            if type(b).__name__ == "complex":
                return U
            return scalar("power", a, b, False)
        if not isinstance(b, T):
            return U       # add_(1): broadcast_shape(x.shape, y.shape) on a Python scalar
        # the in-place kernels (add_, equal_, ...) are not in support_promotion_ops: a 0-d
        # operand gets the tensor-tensor rule
        return binary(op, T(a.dt, False), T(b.dt, False, b.value))
    if not isinstance(b, T):
        return U           # paddle.maximum(a, 1, out=o): 'y' must be Tensor
    r = plain(op, a, b) if op not in BITWISE else binary(op, a, b)
    if op in BITWISE and not r.startswith("!") and r != X and out in COMPLEX:
        how = ASSIGN_COMPLEX[r]   # paddle.assign(r, output=o): the quirky assign_out_ kernel
        return U if how == U else (out if how == "cast" else r)
    return r


def plain(op, a, b):
    if op == "matmul":
        return matmul(a, b)
    if isinstance(a, T) and isinstance(b, T):
        return binary(op, a, b)
    if isinstance(a, T):
        return scalar(op, a, b, False)
    return scalar(op, b, a, True)


def predict(cell):
    ops = [operand(o) for o in cell.operands]
    if cell.op == "sum":
        dt = ops[0].dt
        return I8 if dt in (B, I4, I8) else dt
    a, b = ops
    if cell.out:
        return out_write(cell.op, a, b, cell.out)
    return plain(cell.op, a, b)


def load(path):
    rows = []
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            c, a = line.rstrip("\n").rsplit(" : ", 1)
            rows.append((parse_cell(c), a))
    return rows


SHORT = {B: "bool", U1: "u8", I1: "i8", I2: "i16", I4: "i32", I8: "i64", BF: "bf16", F2: "f16",
         F4: "f32", F8: "f64", C4: "c64", C8: "c128", NP: "NP", U: "U", OV: "OV", X: "X"}

# /work/shared/seeds/paddle-implicit-type-promotion.md, table 1 (Tensor op Tensor for + - *;
# "-" = not supported), rows = first operand, in the seed's own column order
SEED_T_COLS = [BF, F2, F4, F8, B, U1, I1, I2, I4, I8, C4, C8]
SEED_T = """
bf16 bf16 f32 f32 f64 - - - - - - c64 c128
f16 f32 f16 f32 f64 - - - - - - c64 c128
f32 f32 f32 f32 f64 - - - - - - c64 c128
f64 f64 f64 f64 f64 - - - - - - c128 c128
bool - - - - - - - - - - c64 c128
u8 - - - - - - - - - - c64 c128
i8 - - - - - - - - - - c64 c128
i16 - - - - - - - - - - c64 c128
i32 - - - - - - - - - - c64 c128
i64 - - - - - - - - - - c64 c128
c64 c64 c64 c64 c64 c64 c64 c64 c64 c64 c128 c64 c128
c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128 c128
"""
# table 2 (Tensor op Scalar for + - *): columns bool, int, float, complex
SEED_S = """
bool bool i64 f32 c64
u8 u8 u8 f32 c64
i8 i8 i8 f32 c64
i16 i16 i16 f32 c64
i32 i32 i32 f32 c64
i64 i64 i64 f32 c64
bf16 bf16 bf16 bf16 c64
f16 f16 f16 f16 c64
f32 f32 f32 f32 c64
f64 f64 f64 f64 c128
c64 c64 c64 c64 c64
c128 c128 c128 c128 c128
"""
LONG = {v: k for k, v in SHORT.items()}


def seed_diff(rec):
    """Cells where the recording disagrees with the seed's two tables (for add, subtract, multiply)."""
    out = []
    for line in SEED_T.strip().splitlines():
        r, *vals = line.split()
        for c, v in zip(SEED_T_COLS, vals):
            for op in ("add", "subtract", "multiply"):
                got = rec.get(f"{op} {LONG[r]} {c}")
                if v == "-" and LONG[r] == c:
                    continue   # "-" on the diagonal: no promotion needed (the seed says nothing)
                want = "NP/U" if v == "-" else v
                ok = (got in (NP, U)) if v == "-" else SHORT.get(got) == v
                if not ok:
                    out.append(f"| 1 | `{op} {LONG[r]} {c}` | {want} | `{got}` |")
    lits = {"bool": ["True", "False"], "int": ["1", "-1", "300"], "float": ["1.0", "0.5"],
            "complex": ["1j"]}
    for line in SEED_S.strip().splitlines():
        r, *vals = line.split()
        for kind, v in zip(["bool", "int", "float", "complex"], vals):
            for op in ("add", "subtract", "multiply"):
                for lit in lits[kind]:
                    for key in (f"{op} {LONG[r]} {lit}", f"{op} {lit} {LONG[r]}"):
                        got = rec.get(key)
                        if SHORT.get(got) != v:
                            out.append(f"| 2 | `{key}` | {v} | `{got}` |")
    return out


def tables(rows):
    rec = {str(c): a for c, a in rows}
    print("## add, tensor with tensor (rows = first operand)\n")
    print("| | " + " | ".join(SHORT[d] for d in DTYPES) + " |")
    print("|---" * (len(DTYPES) + 1) + "|")
    for a in DTYPES:
        print(f"| **{SHORT[a]}** | " + " | ".join(SHORT[rec[f"add {a} {b}"]] for b in DTYPES) + " |")
    print("\n## answers by class\n")
    cnt = Counter()
    for c, a in rows:
        cnt[a if a.startswith("!") or a == X else "dtype"] += 1
    for k, n in cnt.most_common():
        print(f"- `{k}`: {n}")
    print("\n## X cells\n")
    for c, a in rows:
        if a == X:
            print(f"- `{c}`")
    print("\n## seed disagreements\n")
    print("| seed table | cell | seed | recorded |\n|---|---|---|---|")
    for l in seed_diff(rec):
        print(l)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = args[0] if args else os.path.join(HERE, "..", "..", "tests", "fixtures", "resolve",
                                             "paddle.txt.gz")
    rows = load(path)
    if "--tables" in sys.argv:
        tables(rows)
        return
    n_miss = int(next((a.split("=")[1] for a in sys.argv if a.startswith("--misses=")), "40"))
    miss = []
    for c, a in rows:
        p = predict(c)
        if p != a:
            miss.append((c, a, p))
    print(f"{len(rows) - len(miss)}/{len(rows)} cells predicted "
          f"({100.0 * (len(rows) - len(miss)) / len(rows):.3f}%)")
    cnt = Counter((c.op, a, p) for c, a, p in miss)
    for k, n in cnt.most_common(30):
        print("  ", n, k)
    for c, a, p in miss[:n_miss]:
        print(f"MISS {c} : recorded {a}, predicted {p}")


if __name__ == "__main__":
    main()
