"""Analyse the torch recording: a rule-based predictor of every cell, and summary tables.

    python tools/oracle/analyze_torch.py [FIXTURE] [--tables] [--misses N]

Reads tests/fixtures/resolve/torch.txt.gz (or FIXTURE), predicts every cell with the rules
written up in notes/torch.md (they mirror PyTorch's own code: c10 promoteTypes,
at::native::result_type / combine_categories, TensorIterator's canCast check, the per-op
kernel dtype lists, and a few value-level checks), and reports the accuracy and the cells
it misses.  Needs no torch: plain Python 3.

    python tools/oracle/analyze_torch.py --messages --python /work/venvs/torch/bin/python

re-runs every error cell through fw_torch.raw() in that interpreter and prints each
distinct error message (numbers normalised) with its count, class and one example cell.
"""
from __future__ import annotations

import collections
import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from syntax import DTYPES, parse_cell  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURE = os.path.join(ROOT, "tests", "fixtures", "resolve", "torch.txt.gz")

NP, OV, UN = "!no_promotion", "!overflow", "!unsupported"


class Refuse(Exception):
    """PyTorch raises; args[0] is the answer token."""


# --- dtype classes --------------------------------------------------------------------
# Internal names: the 15 of the spec plus complex32 (ComplexHalf) and bcomplex32 (BComplex32,
# toComplexType(BFloat16), new in 2.15), which only arise as computed common dtypes.
BAREBONES = {"uint16", "uint32", "uint64"}          # isBarebonesUnsignedType
INTS = {"uint8", "int8", "int16", "int32", "int64"} | BAREBONES
FLOATS = {"bfloat16", "float16", "float32", "float64"}  # isFloatingType
COMPLEX = {"complex64", "complex128", "complex32", "bcomplex32"}
BITS = {"bool": 1, "uint8": 8, "int8": 8, "int16": 16, "int32": 32, "int64": 64,
        "uint16": 16, "uint32": 32, "uint64": 64}


def is_integral(dt, include_bool):
    return dt in INTS or (include_bool and dt == "bool")


# c10/core/ScalarType.cpp, promoteTypes: the 13x13 table (u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1 bf)
_IDX = ["uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64",
        "complex32", "complex64", "complex128", "bool", "bfloat16"]
_TAB = """
u1 i2 i2 i4 i8 f2 f4 f8 c2 c4 c8 u1 bf
i2 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 i1 bf
i2 i2 i2 i4 i8 f2 f4 f8 c2 c4 c8 i2 bf
i4 i4 i4 i4 i8 f2 f4 f8 c2 c4 c8 i4 bf
i8 i8 i8 i8 i8 f2 f4 f8 c2 c4 c8 i8 bf
f2 f2 f2 f2 f2 f2 f4 f8 c2 c4 c8 f2 f4
f4 f4 f4 f4 f4 f4 f4 f8 c4 c4 c8 f4 f4
f8 f8 f8 f8 f8 f8 f8 f8 c8 c8 c8 f8 f8
c2 c2 c2 c2 c2 c2 c4 c8 c2 c4 c8 c2 c4
c4 c4 c4 c4 c4 c4 c4 c8 c4 c4 c8 c4 c4
c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8 c8
u1 i1 i2 i4 i8 f2 f4 f8 c2 c4 c8 b1 bf
bf bf bf bf bf f4 f4 f8 c4 c4 c8 bf bf
"""
_SHORT = dict(zip(["u1", "i1", "i2", "i4", "i8", "f2", "f4", "f8", "c2", "c4", "c8", "b1", "bf"], _IDX))
PROMOTE = {}
for _a, _row in zip(_IDX, _TAB.split("\n")[1:]):
    for _b, _r in zip(_IDX, _row.split()):
        PROMOTE[_a, _b] = _SHORT[_r]


def promote_types(a, b):
    """c10::promoteTypes (the parts the cases reach)."""
    if a == b:
        return a
    if a in BAREBONES or b in BAREBONES:
        # "Promotion for uint16, uint32, uint64 types is not supported" unless the other is a float
        if a in FLOATS:
            return a
        if b in FLOATS:
            return b
        raise Refuse(NP)
    return PROMOTE[a, b]


def to_complex(dt):
    return {"float16": "complex32", "bfloat16": "bcomplex32", "float32": "complex64",
            "float64": "complex128"}[dt]


def combine_categories(higher, lower):
    """at::native combine_categories (aten/src/ATen/native/TypeProperties.cpp)."""
    if higher in COMPLEX:
        return higher
    if lower in COMPLEX:
        return to_complex(higher) if higher in FLOATS else lower
    if higher in FLOATS:
        return higher
    if higher == "bool" or lower in FLOATS:
        return promote_skip_undefined(higher, lower)
    return higher if higher is not None else lower


def promote_skip_undefined(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return promote_types(a, b)


# torch.get_default_dtype() and its complex counterpart: float32 by default; the issue-10 analysis
# of torch.set_default_dtype(torch.float64) (analyze_forms_torch.py) sets these two
DEFAULT_FLOAT = ["float32", "complex64"]


class Arg:
    """An operand as ATen sees it: dtype, category ('dim', 'zero', 'wrapped') and value."""

    def __init__(self, dtype, cat, value):
        self.dtype, self.cat, self.value = dtype, cat, value

    @property
    def type_for_promotion(self):
        # update_result_type_state: a wrapped number counts as the default dtype of its kind
        if self.cat == "wrapped":
            if self.dtype in COMPLEX:
                return DEFAULT_FLOAT[1]  # get_default_complex_dtype()
            if self.dtype in FLOATS:
                return DEFAULT_FLOAT[0]  # get_default_dtype()
        return self.dtype


def result_type(args):
    dim = zero = wrapped = None
    for a in args:
        t = a.type_for_promotion
        if a.cat == "dim":
            dim = promote_skip_undefined(dim, t)
        elif a.cat == "wrapped":
            wrapped = promote_skip_undefined(wrapped, t)
        else:
            zero = promote_skip_undefined(zero, t)
    return combine_categories(dim, combine_categories(zero, wrapped))


def scalar_dtype(v):
    """The dtype of the Scalar a Python literal becomes (torch/csrc/utils/python_arg_parser)."""
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, int):
        if -2 ** 63 <= v < 2 ** 63:
            return "int64"
        if 2 ** 63 <= v < 2 ** 64:
            return "uint64"
        raise Refuse(OV)  # "int too big to convert" / "can't convert negative int to unsigned"
    if isinstance(v, float):
        return "float64"
    return "complex128"


def make_arg(opnd):
    if opnd.kind == "literal":
        v = opnd.py
        return Arg(scalar_dtype(v), "wrapped", v)
    return Arg(opnd.dtype, "dim" if opnd.kind == "tensor" else "zero", opnd.py)


# --- kernels: for which computation dtypes a CPU kernel exists ----------------------------
def kernel_ok(kernel, dt):
    if kernel in ("add", "sub"):        # add_stub (sub is add with alpha=-1)
        return dt not in BAREBONES and dt != "bcomplex32"
    if kernel == "mul":
        return dt != "bcomplex32"
    if kernel == "div_true":
        return dt not in ("complex32", "bcomplex32")
    if kernel in ("div_floor", "remainder"):
        return dt not in BAREBONES and dt != "bool" and dt not in COMPLEX
    if kernel == "pow":
        return dt not in BAREBONES and dt != "bool" and dt not in ("complex32", "bcomplex32")
    if kernel in ("lt", "le", "gt", "ge"):
        return dt not in BAREBONES and dt not in COMPLEX
    if kernel in ("eq", "ne"):
        return True
    if kernel == "logical":
        return dt not in BAREBONES and dt not in ("complex32", "bcomplex32")
    if kernel == "bitwise":
        return dt == "bool" or dt in INTS
    if kernel == "maxmin":
        return dt not in COMPLEX
    raise KeyError(kernel)


def int_wrap(v, dt):
    """A Python int value cast (wrapping) to an integer dtype."""
    b = BITS[dt]
    if dt == "bool":
        return v != 0
    v &= (1 << b) - 1
    if dt not in ("uint8",) and dt not in BAREBONES and v >= 1 << (b - 1):
        v -= 1 << b
    return v


HALF_MAX, BF16_MAX = 65504.0, 3.3895313892515355e38


def checked_convert_overflows(v, dt):
    """c10::checked_convert: does the Scalar v overflow dtype dt (the pow exponent check)?"""
    if isinstance(v, complex):
        return False
    if dt in ("float16", "bfloat16"):
        if isinstance(v, float) and (v != v or v in (float("inf"), float("-inf"))):
            return False
        m = HALF_MAX if dt == "float16" else BF16_MAX
        return abs(v) > m
    if dt in FLOATS or dt in COMPLEX:
        return False
    if isinstance(v, float):
        return False  # not reached in the cases
    v = int(v)
    if dt == "bool":
        return False
    b = BITS[dt]
    if dt == "uint8" or dt in BAREBONES:
        return not (0 <= v < 1 << b)
    return not (-(1 << (b - 1)) <= v < 1 << (b - 1))


COMPARE = {"equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le",
           "greater": "gt", "greater_equal": "ge"}
SWAP = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "eq": "eq", "ne": "ne"}
FUNCTION_ONLY = {"maximum", "minimum", "logical_and", "logical_or", "logical_xor"}


def can_cast(src, dst):
    """c10::canCast."""
    if src in COMPLEX and dst not in COMPLEX:
        return False
    if src in FLOATS and is_integral(dst, False):
        return False
    if src != "bool" and dst == "bool":
        return False
    return True


def finish(dt):
    """Map a computed result dtype to an answer token."""
    if dt in ("complex32",):
        return UN  # a real result, but outside the spec's 15 dtypes (see notes)
    return dt


RULE = [None]   # the rule that decided the last prediction (for the per-rule counts)


def ok(token, rule):
    RULE[0] = rule
    return token


def success(out, dt, rule):
    if out:
        return ok(out, "out=: allowed -> out dtype")
    if dt == "complex32":
        return ok(UN, "result complex32 (outside the 15) -> !unsupported")
    return ok(dt, rule)


def refuse(token, rule):
    RULE[0] = rule
    raise Refuse(token)


def predict(cell):
    try:
        return _predict(cell)
    except Refuse as r:
        return r.args[0]


def _predict(cell):
    op, ops, out = cell.op, cell.operands, cell.out
    if op == "sum":
        dt = ops[0].dtype
        return ok("int64", "sum: integral/bool -> int64") if is_integral(dt, True) \
            else ok(dt, "sum: float/complex -> same dtype")
    if op == "matmul":
        a, b = ops[0].dtype, ops[1].dtype
        if a != b:
            refuse(NP, "matmul: dot demands equal dtypes")
        if a == "bool" or a in BAREBONES:
            refuse(UN, "matmul: no dot kernel for bool/uint16/32/64")
        return ok(a, "matmul: equal dtypes -> that dtype")
    if op in FUNCTION_ONLY and any(o.kind == "literal" for o in ops):
        refuse(UN, "maximum/minimum/logical_*: Python scalar refused (TypeError)")
    try:
        A, B = (make_arg(o) for o in ops)
    except Refuse:
        refuse(OV, "literal int outside [-2**63, 2**64): OverflowError")
    if op in ("maximum", "minimum"):
        if A.dtype in COMPLEX or B.dtype in COMPLEX:
            refuse(UN, "maximum/minimum: complex operand refused (TypeError)")
        return binary(cell, A, B, "maxmin", out)
    if op == "subtract":
        if A.dtype == "bool" or B.dtype == "bool":
            refuse(UN, "subtract: a bool operand (tensor, 0-d or literal) is refused")
        return binary(cell, A, B, "sub", out)
    if op in ("add", "multiply"):
        return binary(cell, A, B, {"add": "add", "multiply": "mul"}[op], out)
    if op == "divide":
        if ops[0].kind == "literal":
            # Tensor.__rtruediv__: self.reciprocal() * other
            R = Arg(recip_dtype(B.dtype), B.cat, None)
            return binary(cell, R, A, "mul", out, "divide literal-first: reciprocal(t) * literal")
        return binary(cell, A, B, "div_true", out)
    if op in ("floor_divide", "remainder"):
        return binary(cell, A, B, {"floor_divide": "div_floor", "remainder": "remainder"}[op], out)
    if op == "power":
        return power(cell, A, B, out)
    if op in COMPARE:
        return binary(cell, A, B, COMPARE[op], out)
    if op.startswith("logical_"):
        return binary(cell, A, B, "logical", out)
    if op.startswith("bitwise_"):
        return binary(cell, A, B, "bitwise", out)
    raise KeyError(op)


def recip_dtype(dt):
    # reciprocal is a unary float op: integral (and bool) inputs give the default float
    return DEFAULT_FLOAT[0] if is_integral(dt, True) else dt


BOOL_OUT = ("eq", "ne", "lt", "le", "gt", "ge", "logical")


def result_type_checked(args, what):
    try:
        return result_type(args)
    except Refuse:
        refuse(NP, what + ": result_type hits promoteTypes(uint16/32/64, non-float)")


def binary(cell, A, B, kernel, out, note=None):
    what = note or kernel
    common = result_type_checked([A, B], "binary")
    if kernel == "div_true" and is_integral(common, True):
        common = DEFAULT_FLOAT[0]   # promote_integer_inputs_to_float
    res = "bool" if kernel in BOOL_OUT else common
    if out and kernel not in BOOL_OUT and not can_cast(common, out):
        refuse(NP, "out=: canCast(common dtype, out) is false")
    if not kernel_ok(kernel, common):
        refuse(UN, f"no {kernel} kernel for the common dtype")
    if kernel in ("div_floor", "remainder") and is_integral(common, False):
        if B.cat != "dim" and isinstance(B.value, int) and int_wrap(int(B.value), common) == 0:
            refuse(UN, "//, %: integer divisor scalar wraps to 0 (ZeroDivisionError)")
    return success(out, res, f"{what}: {'bool result' if kernel in BOOL_OUT else 'common dtype'}")


def power(cell, A, B, out):
    if B.cat == "wrapped":
        # pow(Tensor, Scalar)
        exp = B.value
        if is_integral(A.dtype, True) and B.dtype in ("bool", "int64", "uint64"):
            if B.dtype == "uint64":
                refuse(OV, "pow(int tensor, int scalar >= 2**63): exp.toLong() overflows")
            if int(exp) < 0:
                refuse(UN, "pow(int tensor, negative int scalar): 'Integers to negative integer powers'")
        common = result_type_checked([A, B], "pow")
        if out and not can_cast(common, out):
            refuse(NP, "out=: canCast(common dtype, out) is false")
        if exp == 0 or exp == 1:   # exp.equal(0/false) -> fill_(1); exp.equal(1/true) -> copy_
            return success(out, common, "pow(t, 0|1|True|False|0.0|1.0): no kernel -> common dtype")
        if not kernel_ok("pow", common):
            refuse(UN, "no pow kernel for the common dtype")
        if checked_convert_overflows(exp, common):
            refuse(OV, "pow(t, scalar): exponent overflows the common int/half/bfloat16 dtype")
        return success(out, common, "pow(t, scalar): common dtype")
    if A.cat == "wrapped":
        # pow(Scalar, Tensor)
        common = result_type_checked([A, B], "pow")
        if out and not can_cast(common, out):
            refuse(NP, "out=: canCast(common dtype, out) is false")
        if A.value == 1 and not isinstance(A.value, bool):   # base.equal(1.0) -> fill_(1)
            return success(out, common, "pow(1 or 1.0, t): no kernel -> common dtype")
        if not kernel_ok("pow", common):
            refuse(UN, "no pow kernel for the common dtype")
        return success(out, common, "pow(scalar, t): common dtype")
    return binary(cell, A, B, "pow", out)


# --- driver -------------------------------------------------------------------------------
def load(path):
    rows = []
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            c, a = line.rstrip("\n").rsplit(" : ", 1)
            rows.append((c, a))
    return rows


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("fixture", nargs="?", default=FIXTURE)
    ap.add_argument("--misses", type=int, default=40, help="how many missed cells to print")
    ap.add_argument("--tables", action="store_true")
    ap.add_argument("--messages", action="store_true")
    ap.add_argument("--python", default=sys.executable)
    a = ap.parse_args()
    path, nmiss = a.fixture, a.misses
    rows = load(path)
    miss = []
    rules = collections.Counter()
    for c, ans in rows:
        p = predict(parse_cell(c))
        rules[RULE[0]] += 1
        if p != ans:
            miss.append((c, ans, p))
    n = len(rows)
    print(f"{n - len(miss)}/{n} cells predicted ({100 * (n - len(miss)) / n:.3f}%), "
          f"{len(miss)} missed, {sum(x == 'X' for _, x in rows)} X")
    for c, a, p in miss[:nmiss]:
        print(f"  MISS {c} : recorded {a}, predicted {p}")
    if a.tables:
        print("\ncells per deciding rule:")
        for r, k in sorted(rules.items(), key=lambda x: -x[1]):
            print(f"  {k:6d}  {r}")
        tables(rows)
    if a.messages:
        messages(rows, a.python)


_MSG_SCRIPT = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
import fw_torch
from syntax import parse_cell
fw_torch.setup("default")
for line in sys.stdin:
    tok, det = fw_torch.raw(parse_cell(line.strip()))
    print(json.dumps([line.strip(), tok, det]))
"""


def messages(rows, python):
    """Each distinct error message (numbers and quoted names normalised), count, class, example."""
    import json
    import re
    import subprocess
    cells = "\n".join(c for c, a in rows if a.startswith("!")) + "\n"
    out = subprocess.run([python, "-c", _MSG_SCRIPT, HERE], input=cells, text=True,
                         capture_output=True, check=True).stdout
    groups = collections.OrderedDict()
    for line in out.splitlines():
        c, tok, det = json.loads(line)
        key = re.sub(r"\d+", "N", det)
        key = re.sub(r"'\w+'", "'T'", key)
        key = re.sub(r"(found|promote|type) \w+ and \w+", r"\1 A and B", key)
        key = re.sub(r"result type \w+ can't be cast to the desired output type \w+",
                     "result type A can't be cast to the desired output type B", key)
        key = re.sub(r"not (int|bool|float|complex)$", "not PYTYPE", key)
        g = groups.setdefault((tok, key), [0, c, det])
        g[0] += 1
    print("\n| class | count | message (normalised) | example cell | its message |")
    print("|---|---|---|---|---|")
    for (tok, key), (n, c, det) in sorted(groups.items()):
        print(f"| `{tok}` | {n} | {key[:120]} | `{c}` | {det[:200]} |")


def tables(rows):
    rec = dict(rows)
    short = {"!no_promotion": "NP", "!unsupported": "U", "!overflow": "OV"}
    print("\n| add | " + " | ".join(DTYPES) + " |")
    print("|---" * (len(DTYPES) + 1) + "|")
    for a in DTYPES:
        print(f"| **{a}** | " + " | ".join(short.get(rec[f'add {a} {b}'], rec[f'add {a} {b}'])
                                       for b in DTYPES) + " |")
    cnt = collections.Counter(a for _, a in rows)
    print("\nanswers:", dict(sorted(cnt.items())))


if __name__ == "__main__":
    main()
