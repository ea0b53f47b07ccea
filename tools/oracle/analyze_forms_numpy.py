"""NumPy 2.4.6 (`numpy`) and 1.26.4 (`numpy1`): the issue-10 recordings as rules.

    python3 tools/oracle/analyze_forms_numpy.py [numpy|numpy1] [--show N]

Replays tests/fixtures/resolve-forms/{numpy,numpy1}.txt.gz (analyze_forms.check).  The rules
(notes/forms-numpy.md) build on analyze_numpy.py, whose predictors the `numpy`/`numpy1` policies
encode:
* function form (`np.add(a, b)` ...): the operator's answer (tests/fixtures/resolve), except
  NumPy 1's `power` where the operator took ndarray.__pow__'s fast scalar path
  (numpy/core/src/multiarray/number.c fast_scalar_power): np.power is the plain ufunc, whose
  result is NumPy 1's linear loop search (np1_predict without the fast path).  `np.matmul` is
  the ufunc behind `@`, `np.sum` is what the operator form already calls.
* promote_types: analyze_numpy.promote_types.
* result_type: NumPy 2 = NEP 50 (arrays of any ndim strong, Python scalars weak: the strong
  dtypes are promoted, then each Python scalar as np2_weak_dtype; only scalars: the default dtype
  of the highest kind); NumPy 1 = np1_result_type (value-based over all operands).
* can_cast: `no`/`equiv` the same dtype, `safe` can_cast_safe, `same_kind`, `unsafe` always;
  FROM a Python scalar: NumPy 2 refuses (TypeError); NumPy 1 value-based (min_scalar_type).
* dtype=D on a ufunc: the loop for D (casting='same_kind' on the inputs); casting=C with out=D:
  the inputs cast to the loop safely, the output cast under C.
* concatenate / stack / where / clip: result_type over the operands (clip: its own order).
"""
from __future__ import annotations

import analyze_forms
import analyze_numpy as an
from analyze_numpy import (Answer, KIND, can_cast_safe, can_cast_same_kind, promote_types)
from syntax import Cell, parse_operand

NAMES = ["numpy", "numpy1"]
_ORDER = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def promote_sequence(dts):
    """np.result_type of several dtypes (common_dtype.c PyArray_PromoteDTypeSequence): a dtype
    that every other one promotes *to* wins outright -- (uint8, int8, float16) is float16,
    though folding pairs gives int16 then float32 -- otherwise the pairs fold."""
    for d in dts:
        if all(promote_types(d, x) == d for x in dts):
            return d
    r = dts[0]
    for d in dts[1:]:
        r = promote_types(r, d)
    return r


def literal_array_dtype(v):
    """np.asarray(v).dtype of a Python scalar (int64, else uint64; beyond: OverflowError)."""
    dt = an.np1_literal_dtype(v)
    if dt is None:
        raise Answer("!overflow")
    return dt


def np2_result_type(ops):
    strong = [o.dtype for o in ops if o.kind != "literal"]
    weak = [o.py for o in ops if o.kind == "literal"]
    try:
        if not strong:
            # only Python scalars: each is the dtype np.asarray gives it, promoted
            return promote_sequence([literal_array_dtype(v) for v in weak])
    except Answer as e:
        return e.token
    r = promote_sequence(strong)
    for v in weak:
        r = promote_types(r, an.np2_weak_dtype(v, r))
    return r


def np2_clip(ops):
    """np.clip: result_type over the three, and each Python int must fit the result (the weak
    int is converted to it: OverflowError, as for np.add) -- except a bound that cannot clip an
    integer array: a Python int minimum below its dtype's range or maximum above it is dropped
    first (numpy/_core/_methods.py _clip, NumPy 2)."""
    r = np2_result_type(ops)
    if r.startswith("!"):
        return r
    a = ops[0].dtype
    try:
        for i, o in enumerate(ops):
            if o.kind != "literal":
                continue
            if type(o.py) is int and a and KIND[a] in "iu":
                lo, hi = an.INT_RANGE[a]
                if (i == 1 and o.py < lo) or (i == 2 and o.py > hi):
                    continue
            an.np2_check_int(o.py, r)
    except Answer as e:
        return e.token
    return r


def result_type(policy, ops):
    if policy == "numpy":
        return np2_result_type(ops)
    try:
        return np1_result_type(ops)
    except Answer as e:
        return "!overflow" if e.token == "object" else e.token


def np1_result_type(ops):
    """analyze_numpy.np1_result_type for any number of operands: value-based (min_scalar_type
    for 0-d arrays and Python scalars when no scalar is of a higher category than every array),
    then the dtypes promoted in the operands' order (a "small unsigned" scalar counts as the
    signed type of its size next to a signed or inexact dtype, analyze_numpy.np1_promote) -- or,
    for three or more, the dtype every other one promotes to (promote_sequence)."""
    cell_ops = an.np1_operands(Cell("result_type", tuple(ops)))
    use_min = an.np1_use_min_scalar(cell_ops)
    dts = []
    for dt, sc, v in cell_ops:
        if sc and use_min:
            m = an.min_scalar_type(dt, v)
            dts.append((m, KIND[m] == "u" and an.fits(int(v), "int" + m[4:])))
        else:
            dts.append((dt, False))
    if len(dts) >= 3 and not use_min:
        return promote_sequence([d for d, _ in dts])
    # value-based: fold in the operands' order; two small unsigned values stay small unsigned
    r, r_small = dts[0]
    for d, d_small in dts[1:]:
        r, r_small = an.np1_promote(r, r_small, d, d_small), r_small and d_small
    return r


def can_cast(policy, cell):
    f, to = cell.operands
    casting = cell.casting
    src = f.dtype
    if f.kind == "literal":
        if policy == "numpy":
            return "!unsupported"
        src = an.np1_literal_dtype(f.py)
    if policy == "numpy1" and f.kind != "tensor":
        if src is None:
            src = "object"  # a Python int beyond uint64: an object array
        else:
            src = an.min_scalar_type(src, f.py)  # value-based, whatever the casting
            if casting in ("safe", "same_kind") and KIND[src] == "u" and \
                    an.fits(int(f.py), "int" + src[4:]) and KIND[to.dtype] != "u":
                src = "int" + src[4:]  # a small unsigned value next to a signed/inexact target
    if src == "object":
        return "True" if casting == "unsafe" else "False"
    if casting in ("no", "equiv") and policy == "numpy1" and f.kind != "tensor":
        # NumPy 1 value-based `no`/`equiv`: the scalar's own dtype, its min_scalar_type, or (a
        # small unsigned value) the signed type of that size -- observed, see notes
        own = f.dtype if f.kind == "zerodim" else an.np1_literal_dtype(f.py)
        small = KIND[src] == "u" and an.fits(int(f.py), "int" + src[4:])
        ok = to.dtype in (own, src) or (small and to.dtype == "int" + src[4:])
    elif casting in ("no", "equiv"):
        ok = src == to.dtype
    elif casting == "safe":
        ok = can_cast_safe(src, to.dtype)
    elif casting == "same_kind":
        ok = can_cast_same_kind(src, to.dtype)
    else:
        ok = True
    return "True" if ok else "False"


# the loops of the dtype= ops: the dtypes D with a loop D,D->D (less: output bool only)
_INTS = {"uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64"}
_INEXACT = {"float16", "float32", "float64", "complex64", "complex128"}
LOOP_DTYPES = {"add": {"bool"} | _INTS | _INEXACT, "divide": _INEXACT, "less": {"bool"},
               "bitwise_and": {"bool"} | _INTS, "power": _INTS | _INEXACT}


def dtype_arg(policy, cell):
    """np.OP(a, b, dtype=D): the loop whose dtype is D (for a comparison: whose output is D);
    none -> !unsupported; each input cast to the loop's input dtype with casting='same_kind'
    (a Python scalar counts as its default dtype: int64, float64) -> else !no_promotion."""
    d = cell.dtype
    if d not in LOOP_DTYPES[cell.op]:
        return "!unsupported"
    if cell.op == "less":
        return "bool"
    for o in cell.operands:
        # a Python scalar is weak (NEP 50; NumPy 1 the same here): it takes D when D's kind is
        # not lower than its own (an int into any integer D, a float into a float D)
        src = an.np2_weak_dtype(o.py, d) if o.kind == "literal" else o.dtype
        if not can_cast_same_kind(src, d):
            return "!no_promotion"
    return d


def _cast(src, dst, casting):
    if casting in ("no", "equiv"):
        return src == dst
    if casting == "safe":
        return can_cast_safe(src, dst)
    if casting == "same_kind":
        return can_cast_same_kind(src, dst)
    return True


def casting_arg(policy, cell):
    """np.OP(a, b, out=np.empty(2, D), casting=C): the loop promotion picks (the operator's), its
    inputs cast from a and b under C, its output cast to D under C; a refused cast is
    !no_promotion (UFuncTypeError "Cannot cast ufunc 'add' input/output ... with casting rule")."""
    a, b = (o.dtype for o in cell.operands)
    loop = promote_types(a, b)
    if cell.op == "divide" and KIND[loop] in "bui":
        loop = "float64"
    if cell.op == "less" and {a, b} == {"int64", "uint64"}:
        return cell.out if _cast("bool", cell.out, cell.casting) else "!no_promotion"  # qQ/Qq loops
    out = "bool" if cell.op == "less" else loop
    if not (_cast(a, loop, cell.casting) and _cast(b, loop, cell.casting)):
        return "!no_promotion"
    return cell.out if _cast(out, cell.out, cell.casting) else "!no_promotion"


def function(policy, cell, base):
    if policy == "numpy1" and cell.op == "power" and an.np1_fast_scalar_power(cell):
        saved = an.np1_fast_scalar_power
        an.np1_fast_scalar_power = lambda c: None
        try:
            return an.np1_predict(Cell(cell.op, cell.operands))
        finally:
            an.np1_fast_scalar_power = saved
    return base.of(cell)


def predictor(policy):
    base = analyze_forms.Base(policy)

    def predict(cell):
        op = cell.op
        if op == "promote_types":
            return promote_types(*[o.dtype for o in cell.operands])
        if op == "result_type":
            return result_type(policy, cell.operands)
        if op == "can_cast":
            return can_cast(policy, cell)
        if cell.form == "function" and cell.dtype:
            return dtype_arg(policy, cell)
        if cell.form == "function" and cell.casting:
            return casting_arg(policy, cell)
        if cell.form == "function":
            return function(policy, cell, base)
        if op == "concatenate" and any(o.kind != "tensor" for o in cell.operands):
            return "!unsupported"  # "zero-dimensional arrays cannot be concatenated"
        if op in ("stack", "clip") and policy == "numpy":
            # np.stack makes every operand an array (asanyarray), np.clip its first one
            # (fromnumeric._wrapit): such a Python scalar is strong, its np.asarray dtype
            strong = cell.operands if op == "stack" else cell.operands[:1]
            ops = [parse_operand(literal_array_dtype(o.py)) if o.kind == "literal" and o in strong
                   else o for o in cell.operands]
            return np2_clip(ops) if op == "clip" else result_type(policy, ops)
        if op in ("concatenate", "stack", "clip"):
            return result_type(policy, cell.operands)
        if op == "where":
            return result_type(policy, cell.operands[1:])
        return None
    return predict


def quirks(policy):
    return []


if __name__ == "__main__":
    analyze_forms.main(NAMES, predictor, quirks)
