"""Rules that predict every recorded NumPy cell (policies `numpy` and `numpy1`), checked against the
recordings in tests/fixtures/resolve/.  Pure Python (no NumPy): the rules are written out here so
that they can be encoded as policy data; see tools/oracle/notes/numpy.md and numpy1.md.

    python3 tools/oracle/analyze_numpy.py [numpy|numpy1 ...] [--show N] [--tables]
    python3 tools/oracle/analyze_numpy.py numpy --log LOG   # messages logged while recording

Prints, per policy, the number of cells, the accuracy of the predictor, counts per answer, and the
cells it misses (none, once the rules are right).  --tables prints the Markdown add table.
"""
from __future__ import annotations

import argparse
import collections
import gzip
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from syntax import KIND, parse_cell  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
NP_DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
             "float16", "float32", "float64", "complex64", "complex128"]
BITS = {"bool": 1, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "int8": 8, "int16": 16,
        "int32": 32, "int64": 64, "float16": 16, "float32": 32, "float64": 64, "complex64": 64,
        "complex128": 128}
ARITH = {"add", "subtract", "multiply", "maximum", "minimum", "matmul"}
COMPARE = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
LOGICAL = {"logical_and", "logical_or", "logical_xor"}
BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor"}
INT_RANGE = {
    "uint8": (0, 2**8 - 1), "uint16": (0, 2**16 - 1), "uint32": (0, 2**32 - 1),
    "uint64": (0, 2**64 - 1), "int8": (-2**7, 2**7 - 1), "int16": (-2**15, 2**15 - 1),
    "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1),
}


def load(policy):
    path = os.path.join(ROOT, "tests", "fixtures", "resolve", policy + ".txt.gz")
    rows = []
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            text, ans = line.rstrip("\n").rsplit(" : ", 1)
            rows.append((text, parse_cell(text), ans))
    return rows


# ---------------------------------------------------------------------------------------------
# The dtype lattice shared by NumPy 1 and 2 (np.promote_types / np.can_cast(..., "safe")).

def _float_for_int(bits):
    """The smallest float an int of this many bits casts to safely (NumPy's table)."""
    return {8: 16, 16: 32, 32: 64, 64: 64}[bits]


def can_cast_safe(a, b):
    if a == b:
        return True
    ka, kb = KIND[a], KIND[b]
    ba, bb = BITS[a], BITS[b]
    if ka == "b":
        return True
    if kb == "b":
        return False
    if ka == "u":
        if kb == "u":
            return bb >= ba
        if kb == "i":
            return bb > ba
        if kb == "f":
            return bb >= _float_for_int(ba)
        return bb // 2 >= _float_for_int(ba)  # complex: each component
    if ka == "i":
        if kb == "u":
            return False
        if kb == "i":
            return bb >= ba
        if kb == "f":
            return bb >= _float_for_int(ba)
        return bb // 2 >= _float_for_int(ba)
    if ka == "f":
        if kb == "f":
            return bb >= ba
        if kb == "c":
            return bb // 2 >= ba
        return False
    return kb == "c" and bb >= ba  # complex


def promote_types(a, b):
    """np.promote_types: the first dtype, in the order bool, uint8..uint64, int8..int64,
    float16..float64, complex64, complex128, to which both cast safely (uint8 + int8 -> int16,
    not float16; uint64 + int64 -> float64)."""
    for t in NP_DTYPES:
        if can_cast_safe(a, t) and can_cast_safe(b, t):
            return t
    raise AssertionError((a, b))


_KIND_ORDER = {"b": 0, "u": 1, "i": 2, "f": 3, "c": 4}


def can_cast_same_kind(a, b):
    """casting='same_kind': safe, or to the same or a higher kind (b < u < i < f < c)."""
    return can_cast_safe(a, b) or _KIND_ORDER[KIND[a]] <= _KIND_ORDER[KIND[b]]


def fits(v, dt):
    lo, hi = INT_RANGE[dt]
    return lo <= v <= hi


def default_kind_dtype(v):
    """The dtype NumPy gives a Python scalar alone: bool, int64, float64, complex128."""
    return {bool: "bool", int: "int64", float: "float64", complex: "complex128"}[type(v)]


# ---------------------------------------------------------------------------------------------
# NumPy 2 (NEP 50): arrays of any ndim are strong; Python scalars are weak.

class Answer(Exception):
    """An error answer found while resolving."""

    def __init__(self, token):
        super().__init__(token)
        self.token = token


def np2_weak_dtype(lit, other):
    """The dtype a Python literal takes next to an array of dtype `other` (NEP 50)."""
    k = KIND[other]
    if type(lit) is bool:
        return other
    if type(lit) is int:
        return "int64" if k == "b" else other
    if type(lit) is float:
        return "float64" if k in "bui" else other
    # complex
    if k in "bui":
        return "complex128"
    if other in ("float16", "float32"):
        return "complex64"
    if other == "float64":
        return "complex128"
    return other


def np2_check_int(lit, dt):
    """A Python int converted to dtype dt: OverflowError unless it fits (floats never overflow)."""
    if type(lit) is int and KIND[dt] in "iu" and not fits(lit, dt):
        raise Answer("!overflow")


def np2_predict(cell):
    op = cell.op
    if op == "sum":
        return sum_dtype(cell.operands[0].dtype)
    a, b = cell.operands
    lits = [o for o in (a, b) if o.kind == "literal"]
    arrs = [o for o in (a, b) if o.kind != "literal"]
    assert len(arrs) >= 1
    try:
        if lits:
            lit, arr = lits[0].py, arrs[0].dtype
            weak = np2_weak_dtype(lit, arr)
            r = promote_types(arr, weak)
            # how the Python int is converted depends on the ufunc's promoter
            if op in LOGICAL:
                # logical ufuncs promote everything to their bool loop; a Python int is first
                # made a default-int (int64) array
                np2_check_int(lit, "int64")
            elif op in COMPARE:
                # comparisons with a Python int: integer arrays compare by value (no error),
                # a bool array makes it int64
                if KIND[arr] == "b":
                    np2_check_int(lit, "int64")
            elif op == "divide":
                pass  # true_divide of integers runs the float64 loop: the int becomes float64
            else:
                np2_check_int(lit, r)
        else:
            r = promote_types(a.dtype, b.dtype)
        res = np_op_result(op, r, cell, power_negative_error=True)
    except Answer as e:
        return e.token
    return np_out(cell, res)


def sum_dtype(dt):
    """np.sum: bool and signed ints accumulate in int64, unsigned in uint64, others keep."""
    k = KIND[dt]
    if k in "bi":
        return "int64"
    if k == "u":
        return "uint64"
    return dt


def np_op_result(op, r, cell, power_negative_error):
    """The output dtype of the ufunc loop NumPy picks for the promoted dtype r (or an Answer)."""
    k = KIND[r]
    if op in ARITH:
        if op == "subtract" and k == "b":
            raise Answer("!unsupported")  # "numpy boolean subtract ... is not supported"
        return r
    if op == "divide":
        return "float64" if k in "bui" else r
    if op in ("floor_divide", "remainder"):
        if k == "c":
            raise Answer("!unsupported")
        return "int8" if k == "b" else r
    if op == "power":
        if k == "b":
            r = "int8"
        if KIND[r] in "iu" and power_negative_error and exponent_negative(cell):
            raise Answer("!unsupported")  # ValueError: Integers to negative integer powers
        return r
    if op in COMPARE or op in LOGICAL:
        return "bool"
    if op in BITWISE:
        if k in "fc":
            raise Answer("!unsupported")
        return r
    raise AssertionError(op)


def exponent_negative(cell):
    e = cell.operands[1]
    if e.kind == "tensor":
        return False  # np.ones
    v = e.py
    return not isinstance(v, complex) and v < 0


def np_out(cell, res):
    """out=D: the loop's output is cast into D with casting='same_kind'."""
    if not cell.out:
        return res
    return cell.out if can_cast_same_kind(res, cell.out) else "!no_promotion"


# ---------------------------------------------------------------------------------------------
# NumPy 1.26: value-based casting of Python scalars and 0-d arrays.

def min_scalar_type(dt, v):
    """np.min_scalar_type of a value held in dtype dt (NumPy 1 convert_datatype.c)."""
    k = KIND[dt]
    if k == "b":
        return "bool"
    if k in "ui":
        v = int(v)
        if v >= 0:
            for t in ("uint8", "uint16", "uint32", "uint64"):
                if fits(v, t):
                    return t
        for t in ("int8", "int16", "int32", "int64"):
            if fits(v, t):
                return t
        raise AssertionError(v)
    if k == "f":
        if dt == "float16":
            return "float16"
        v = float(v)
        if (-65000 < v < 65000) or v != v or v in (float("inf"), float("-inf")):
            return "float16"
        if -3.4e38 < v < 3.4e38 or dt == "float32":
            return "float32"
        return "float64"
    v = complex(v)
    if dt == "complex64":
        return "complex64"
    if all(-3.4e38 < x < 3.4e38 for x in (v.real, v.imag)):
        return "complex64"
    return "complex128"


CATEGORY = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 2}


def np1_literal_dtype(v):
    """np.asarray(v).dtype for a Python scalar: int64, else uint64, else object (None)."""
    if type(v) is int:
        if fits(v, "int64"):
            return "int64"
        if fits(v, "uint64"):
            return "uint64"
        return None  # object
    return default_kind_dtype(v)


def np1_result_type(cell):
    """PyArray_ResultType with value-based casting; returns the promoted dtype or raises Answer."""
    ops = []
    for o in cell.operands:
        if o.kind == "literal":
            dt = np1_literal_dtype(o.py)
            if dt is None:
                raise Answer("object")
            ops.append((dt, True, o.py))
        elif o.kind == "zerodim":
            ops.append((o.dtype, True, o.py))
        else:
            ops.append((o.dtype, False, None))
    arrays = [dt for dt, sc, _ in ops if not sc]
    scalars = [(dt, v) for dt, sc, v in ops if sc]
    use_min = bool(arrays) and bool(scalars) and (
        max(CATEGORY[KIND[dt]] for dt, _ in scalars) <= max(CATEGORY[KIND[dt]] for dt in arrays))
    dts = [(dt, False) for dt in arrays]
    for dt, v in scalars:
        if use_min:
            m = min_scalar_type(dt, v)
            # "small unsigned": a non-negative value whose unsigned min type also fits the signed
            # type of the same size (1 -> uint8 but fits int8); next to a dtype that is neither
            # bool nor unsigned it counts as that signed type (int8 + 1 -> int8, not int16)
            small = KIND[m] == "u" and fits(int(v), "int" + m[4:])
            dts.append((m, small))
        else:
            dts.append((dt, False))
    r, r_small = dts[0]
    for d, d_small in dts[1:]:
        r, r_small = np1_promote(r, r_small, d, d_small), False
    return r


def np1_promote(a, a_small, b, b_small):
    """promote_types() of NumPy 1's convert_datatype.c, with the small-unsigned flags."""
    if a_small and KIND[b] not in "bu":
        return promote_types("int" + a[4:], b)
    if b_small and KIND[a] not in "bu":
        return promote_types(a, "int" + b[4:])
    return promote_types(a, b)


# ufuncs whose NumPy 1 type resolver is the default linear search over the loop list (the first
# loop whose input types every operand casts to safely, value-based for scalars); the others
# (add, subtract, multiply, divide, maximum, minimum, comparisons, logical_*) use result_type.
LINEAR_SEARCH = {"floor_divide", "remainder", "power", "bitwise_and", "bitwise_or", "bitwise_xor"}
# their loops in order (generate_umath.py of NumPy 1.26; l and q are both int64 on Linux)
INTS_ORDER = ["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"]
LOOPS = {
    "floor_divide": INTS_ORDER + ["float16", "float32", "float64"],
    "remainder": INTS_ORDER + ["float16", "float32", "float64"],
    "power": INTS_ORDER + ["float16", "float32", "float64", "complex64", "complex128"],
    "bitwise_and": ["bool"] + INTS_ORDER,
    "bitwise_or": ["bool"] + INTS_ORDER,
    "bitwise_xor": ["bool"] + INTS_ORDER,
}


def np1_operands(cell):
    """(dtype, is_scalar, value) per operand; raises Answer('object') for a huge Python int."""
    ops = []
    for o in cell.operands:
        if o.kind == "literal":
            dt = np1_literal_dtype(o.py)
            if dt is None:
                raise Answer("object")
            ops.append((dt, True, o.py))
        elif o.kind == "zerodim":
            ops.append((o.dtype, True, o.py))
        else:
            ops.append((o.dtype, False, None))
    return ops


def np1_use_min_scalar(ops):
    """should_use_min_scalar(): some n-d array, and no scalar of a higher category
    (bool < integer < inexact) than every array."""
    arrays = [dt for dt, sc, _ in ops if not sc]
    scalars = [dt for dt, sc, _ in ops if sc]
    return bool(arrays) and bool(scalars) and (
        max(CATEGORY[KIND[dt]] for dt in scalars) <= max(CATEGORY[KIND[dt]] for dt in arrays))


def np1_can_cast_operand(dt, is_scalar, v, to, use_min):
    """PyArray_CanCastArrayTo(..., 'safe') -- can_cast_scalar_to() for value-based scalars."""
    if not (is_scalar and use_min):
        return can_cast_safe(dt, to)
    m = min_scalar_type(dt, v)
    if KIND[m] == "u" and fits(int(v), "int" + m[4:]) and KIND[to] != "u":
        m = "int" + m[4:]  # small unsigned next to a non-unsigned loop type
    return can_cast_safe(m, to)


def np1_linear_search(cell, ops):
    use_min = np1_use_min_scalar(ops)
    for t in LOOPS[cell.op]:
        if all(np1_can_cast_operand(dt, sc, v, t, use_min) for dt, sc, v in ops):
            return t
    raise Answer("!unsupported")  # "ufunc ... not supported for the input types"


def np1_fast_scalar_power(cell):
    """`a ** e` (the operator, not np.power) in NumPy 1.26 number.c fast_scalar_power(): when `a`
    is an array (any ndim) of a float or complex dtype and `e` is a Python int/bool/float, a NumPy
    int/float scalar or a 0-d int/float array whose value is 1, -1, 0, 0.5 or 2, the result is
    positive/reciprocal/ones_like/sqrt/square of `a`: a's dtype, whatever e's dtype.  (For an int
    array only e == 2 is special: square, in float64 when e is a float.)  Returns None otherwise."""
    if cell.op != "power" or cell.out:
        return None
    a, e = cell.operands
    if a.kind == "literal":
        return None  # `2 ** arr` is arr.__rpow__: no fast path
    if e.kind == "literal":
        v = e.py
        if type(v) is int and not fits(v, "int64"):
            return None  # PyLong_AsLong fails
        if type(v) not in (bool, int, float):
            return None
        ekind = "f" if type(v) is float else "i"
    elif e.kind == "zerodim" and KIND[e.dtype] in "uif":
        v, ekind = e.py, ("f" if KIND[e.dtype] == "f" else "i")
    else:
        return None
    x = float(v)
    if KIND[a.dtype] in "fc":
        return a.dtype if x in (1.0, -1.0, 0.0, 0.5, 2.0) else None
    if x == 2.0:
        return "float64" if ekind == "f" and KIND[a.dtype] in "ui" else a.dtype
    return None


def np1_predict(cell):
    op = cell.op
    if op == "sum":
        return sum_dtype(cell.operands[0].dtype)
    fast = np1_fast_scalar_power(cell)
    if fast:
        return fast
    try:
        try:
            ops = np1_operands(cell)
        except Answer:
            return np1_object(cell)
        if op in LINEAR_SEARCH:
            r = np1_linear_search(cell, ops)
        else:
            r = np1_result_type(cell)
        res = np_op_result(op, r, cell, power_negative_error=True)
    except Answer as e:
        return e.token
    return np_out(cell, res)


def _py_value(o):
    """The Python object an element of this array operand becomes in an object loop."""
    v = o.py if o.kind == "zerodim" else (True if o.dtype == "bool" else 1)
    return {"b": bool, "u": int, "i": int, "f": float, "c": complex}[KIND[o.dtype]](v)


def _obj_maximum(x, y):
    return x if x >= y else y  # npy_ObjectMax: PyObject_RichCompareBool(x, y, Py_GE)


def _obj_minimum(x, y):
    return x if x <= y else y


def _obj_logical_xor(x, y):
    raise AttributeError("logical_xor")  # the object loop calls the method x.logical_xor(y)


PY_OPS = {
    "add": lambda x, y: x + y, "subtract": lambda x, y: x - y, "multiply": lambda x, y: x * y,
    "divide": lambda x, y: x / y, "floor_divide": lambda x, y: x // y,
    "remainder": lambda x, y: x % y, "power": lambda x, y: x ** y,
    "maximum": _obj_maximum, "minimum": _obj_minimum,
    "equal": lambda x, y: x == y, "not_equal": lambda x, y: x != y, "less": lambda x, y: x < y,
    "less_equal": lambda x, y: x <= y, "greater": lambda x, y: x > y,
    "greater_equal": lambda x, y: x >= y,
    "logical_and": lambda x, y: x and y, "logical_or": lambda x, y: x or y,
    "logical_xor": _obj_logical_xor,
    "bitwise_and": lambda x, y: x & y, "bitwise_or": lambda x, y: x | y,
    "bitwise_xor": lambda x, y: x ^ y,
}


def np1_object(cell):
    """A Python int outside [-2**63, 2**64) makes NumPy 1 use the object loop: comparisons give
    bool, every other op an object array (answered !overflow), and Python's own TypeError (or the
    missing method of logical_xor) is !unsupported."""
    op = cell.op
    res = "bool" if op in COMPARE else "object"
    if cell.out:
        if res == "object":
            return "!no_promotion"  # object -> D is not a same_kind cast
    x, y = [o.py if o.kind == "literal" else _py_value(o) for o in cell.operands]
    try:
        PY_OPS[op](x, y)
    except (TypeError, AttributeError, ZeroDivisionError):
        return "!unsupported"
    if res == "object":
        return "!overflow"
    return np_out(cell, res)


PREDICT = {"numpy": np2_predict, "numpy1": np1_predict}


# ---------------------------------------------------------------------------------------------

def add_table(rows):
    t = {}
    for _, c, ans in rows:
        if c.op == "add" and not c.out and all(o.kind == "tensor" and not o.weak for o in c.operands):
            t[(c.operands[0].dtype, c.operands[1].dtype)] = ans
    return t


def markdown_table(t, dts):
    out = ["| a \\ b | " + " | ".join(dts) + " |", "|---" * (len(dts) + 1) + "|"]
    for a in dts:
        out.append(f"| **{a}** | " + " | ".join(t.get((a, b), "") for b in dts) + " |")
    return "\n".join(out)


def check(policy, predict, show, tables, dtypes=NP_DTYPES, promote=None):
    rows = load(policy)
    t = add_table(rows)
    promote = promote or promote_types
    lattice_ok = sum(1 for (a, b), v in t.items() if (promote(a, b) or "!no_promotion") == v)
    miss = []
    by_answer = collections.Counter()
    for text, c, ans in rows:
        by_answer[ans] += 1
        p = predict(c)
        if p != ans:
            miss.append((text, ans, p))
    n = len(rows)
    print(f"== {policy}: {n} cells, predictor {n - len(miss)}/{n} = {100 * (n - len(miss)) / n:.3f}%"
          f"; the promotion function matches {lattice_ok}/{len(t)} add tensor cells;"
          f" X cells: {by_answer.get('X', 0)}")
    print("   answers: " + ", ".join(f"{k} {v}" for k, v in by_answer.most_common()))
    if miss:
        kinds = collections.Counter((m[0].split()[0], m[1], m[2]) for m in miss)
        for k, v in kinds.most_common(40):
            print(f"   miss {v:6d}  {k}")
        for m in miss[:show]:
            print(f"   {m[0]} : recorded {m[1]}, predicted {m[2]}")
    if tables:
        print(markdown_table(t, dtypes))
    return len(miss)


_NORMALIZE = [
    (re.compile(r"array_api_strict\.(bool|u?int\d+|float\d+|complex\d+)"), "D"),
    (re.compile(r"dtype\('[^']*'\)"), "dtype(D)"),
    (re.compile(r"\b(bool|u?int\d+|float\d+|complex\d+)\b"), "D"),
    (re.compile(r"ufunc '[a-z_]+'"), "ufunc 'OP'"),
    (re.compile(r"__[a-z]+__"), "__OP__"),
    (re.compile(r"\b[a-z_]+\(\.\.\.\)"), "OP(...)"),
    (re.compile(r"encountered in [a-z_]+"), "encountered in OP"),
    (re.compile(r"typecode '.'"), "typecode 'T'"),
    (re.compile(r"'[<>=!]+'"), "'CMP'"),
    (re.compile(r"-?\d+"), "N"),
]


def normalize(msg):
    for rx, rep in _NORMALIZE:
        msg = rx.sub(rep, msg)
    return msg


def summarize_log(policy, log):
    """The messages the adapter logged (PROMOTE_WARN_LOG) while recording: per answer token, each
    distinct exception message (normalized) with its count and one example cell; then warnings."""
    answers = {text: ans for text, _, ans in load(policy)}
    raised = collections.defaultdict(collections.Counter)
    warned = collections.Counter()
    example = {}
    warned_cells = set()
    with open(log) as f:
        for line in f:
            cell, msg = line.rstrip("\n").split("\t", 1)
            if msg.startswith("raised "):
                key = (answers.get(cell, "?"), normalize(msg[7:]))
                raised[key[0]][key[1]] += 1
            else:
                key = ("warning", normalize(msg))
                warned[key[1]] += 1
                warned_cells.add(cell)
            example.setdefault(key, cell)
    print(f"== {policy}: messages logged in {log}")
    for ans in sorted(raised):
        print(f"  {ans}:")
        for msg, n in raised[ans].most_common():
            print(f"    {n:6d}  {msg}   e.g. `{example[(ans, msg)]}`")
    print(f"  warnings ({len(warned_cells)} cells warned; the dtype is recorded):")
    for msg, n in warned.most_common():
        print(f"    {n:6d}  {msg}   e.g. `{example[('warning', msg)]}`")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policies", nargs="*", default=["numpy", "numpy1"])
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("--tables", action="store_true")
    ap.add_argument("--log", help="summarize a PROMOTE_WARN_LOG file written while recording")
    a = ap.parse_args()
    if a.log:
        for p in a.policies:
            summarize_log(p, a.log)
        return
    bad = 0
    for p in a.policies:
        bad += check(p, PREDICT[p], a.show, a.tables)
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
