"""The cells of issue 10 (entry points, op-less and n-ary questions, dtype=/casting=, settings).

Recorded by record_forms.py into tests/fixtures/resolve-forms/NAME.txt.gz.  Families (each can be
chosen alone with record_forms.py --families):

* `function`: the 21 binary ops + matmul + sum of cases.py through the framework's namespace
  function (`add:function int8 1` = np.add / torch.add / jnp.add / tf.math.add / paddle.add /
  xp.add), over exactly the operand grid of cases.py (tensor, every 0-d value, all 46 literals,
  weak tensors) without its out= cells (those already call the function: fw_numpy.py, fw_torch.py).
  TensorFlow also gets form `tnp` (tf.experimental.numpy.add, its third entry point), on the
  reduced grid (reduced_operator_cells: ops_cases.py's 8 literals and 0-d tensors holding 1).
* `operator`: cases.cells() unchanged (the operator form, as tests/fixtures/resolve): recorded only
  under a framework setting (torch default float64, JAX strict with x64 off, ...), never for a
  policy's default setting, which tests/fixtures/resolve already holds.  The JAX settings runs
  use the reduced grid for `operator` and `function` (record_forms.py --reduced).
* `result_type`: the framework's own result_type with 1 operand (every operand of the grid), 2
  operands (the pair grid of cases.py, all 46 literals and every 0-d value) and 3 operands (every
  ordered triple of POOL3, see there for why these 21-23 operands).
* `promote_types`: every ordered pair of dtypes (the operands name dtypes, `int8` = the dtype).
* `can_cast`: `can_cast FROM TO casting=C` for every ordered pair of dtypes and each casting of
  the framework (CASTINGS; none for functions without the argument), plus FROM = every literal and
  every 0-d value of the grid (value-based in NumPy 1; refused or dtype-based elsewhere).
* `nary`: `concatenate` (n-d operands: every pair, and the triples of POOL3's n-d tensors; a
  0-d or literal operand only with each n-d dtype, to record the refusal), `stack` (operands of one
  shape: n-d pairs, pairs of 0-d tensors and literals of ops_cases.py's reduced set; the triples
  of POOL3's n-d tensors and of its 0-d tensors and literals), `where COND X Y` (COND a bool tensor, X Y the reduced pair grid; and COND of other
  kinds with a few X Y), `clip A LO HI` (POOL3 triples, every order: NumPy's
  test_permutations_do_not_influence_result is about these orders).
* `dtype`: `OP:function A B dtype=D` -- the ufunc's dtype= argument, ops DTYPE_OPS, every pair of
  n-d dtypes and of n-d dtype with the literals 1 and 1.0, every D.  Frameworks whose binary
  functions take no dtype= get `add` only (to record how they refuse it).
* `casting` (NumPy only): `OP:function A B casting=C out=D` for CASTING_OPS, every n-d pair, out
  dtype and casting.
"""
from __future__ import annotations

import itertools

from cases import BINARY_OPS, DTYPES, LITERALS, ZERO_DIM_VALUES, cells as operator_cells
from ops_cases import BINARY_LITERALS
from syntax import Cell, parse_operand

CASTINGS = ["no", "equiv", "safe", "same_kind", "unsafe"]
FUNCTION_OPS = BINARY_OPS + ["matmul", "sum"]
DTYPE_OPS = ["add", "divide", "less", "bitwise_and", "power"]
CASTING_OPS = ["add", "divide", "less"]

# adapter -> the forms of its binary ops besides the operator
FORMS = {"numpy": ["function"], "torch": ["function"], "jax": ["function"],
         "tf": ["function", "tnp"], "paddle": ["function"], "array_api": ["function"],
         "oneflow": ["function"]}  # oneflow: derived from source (tools/oracle/derive_oneflow.py)
# adapter -> can_cast's casting values (None: the function has no casting argument)
CAN_CAST_CASTINGS = {"numpy": CASTINGS, "jax": CASTINGS, "torch": [None], "array_api": [None],
                     "tf": [None], "paddle": [None], "oneflow": [None]}
# adapter -> whether its binary functions take dtype= (the full dtype family), else `add` only
DTYPE_FULL = {"numpy": True}  # jnp.add & co. take no dtype= in 0.10.2 (jnp.ufunc.__call__)
# TF's result_type: tf.experimental.numpy.result_type, and form `flexible` =
# tensorflow.python.framework.flexible_dtypes.result_type (the all/safe modes' own, with weakness)
RESULT_TYPE_FORMS = {"tf": [None, "flexible"]}
# the n-ary ops' forms: None = the framework's main function (np.concatenate, torch.cat, tf.concat,
# ...); TF also `tnp` (tf.experimental.numpy.concatenate/stack/where/clip)
NARY_FORMS = {"tf": [None, "tnp"]}

# Three-operand sample (every ordered triple, so every permutation of a set is in it): one n-d
# tensor of each kind and the pairs that cross kinds or signedness (bool, uint8/int8, int16,
# uint64/int64 -- the pair that leaves the integers -- the two 16-bit floats, float32, float64,
# complex64); 0-d tensors small and full-range (value-based casting in NumPy 1: uint8(255) needs
# its type, int8(1) does not) and of a higher kind than the tensors (float16 0-d, float64 0-d);
# literals of each kind plus the sign and range edges (-1 with unsigned, 300 beyond 8 bits); weak
# tensors of each kind where the framework has them.  n-ary promotion differs from folding pairs
# exactly when an operand's category or value interacts with a third (NumPy 1 compares categories
# over all operands, JAX joins the lattice in one step).
POOL3 = ["bool", "uint8", "int8", "int16", "uint64", "int64", "bfloat16", "float16", "float32",
         "float64", "complex64", "int8(1)", "uint8(255)", "float16(1.0)", "float64(1.0)",
         "True", "1", "-1", "300", "1.0", "1j"]
POOL3_WEAK = ["~int32", "~float32"]

FAMILIES = ["function", "operator", "result_type", "promote_types", "can_cast", "nary", "dtype",
            "casting"]


def _ops(tokens, dtypes, weak):
    out = []
    for t in tokens:
        o = parse_operand(t)
        if o.kind != "literal" and o.dtype not in dtypes:
            continue
        if o.weak and not weak:
            continue
        out.append(o)
    return out


def _grids(dtypes, weak):
    dts = [d for d in DTYPES if d in dtypes]
    T = [parse_operand(d) for d in dts]
    Z1 = [parse_operand(f"{d}({ZERO_DIM_VALUES[d][0]})") for d in dts]
    Z = [parse_operand(f"{d}({v})") for d in dts for v in ZERO_DIM_VALUES[d]]
    W = [parse_operand("~" + d) for d in dts] if weak else []
    L = [parse_operand(v) for v in LITERALS]
    BL = [parse_operand(v) for v in BINARY_LITERALS]
    return dts, T, Z1, Z, W, L, BL


def _pairs(T, Z1, Z, W, L):
    """The operand pairs of cases.py (Z: the 0-d operands paired with tensors, L: the literals)."""
    p = [(a, b) for a in T for b in T]
    p += [(a, b) for a in T for b in Z] + [(b, a) for a in T for b in Z]
    p += [(a, b) for a in T for b in L] + [(b, a) for a in T for b in L]
    p += [(a, b) for a in Z1 for b in Z1]
    p += [(a, b) for a in Z1 for b in L] + [(b, a) for a in Z1 for b in L]
    if W:
        p += [(a, b) for a in W for b in T] + [(b, a) for a in W for b in T]
        p += [(a, b) for a in W for b in W]
        p += [(a, b) for a in W for b in L] + [(b, a) for a in W for b in L]
        p += [(a, b) for a in W for b in Z1] + [(b, a) for a in W for b in Z1]
    return p


def reduced_operator_cells(dtypes, weak):
    """cases.cells() with ops_cases.py's reduced operands (its 8 literals, 0-d tensors holding 1):
    the operator grid of the settings runs and TF's `tnp` form (fixtures stay a few MB)."""
    dts, T, Z1, Z, W, L, BL = _grids(dtypes, weak)
    for op in BINARY_OPS:
        for a, b in _pairs(T, Z1, Z1, W, BL):
            yield Cell(op, (a, b))
    for a in T + W:
        for b in T + W:
            yield Cell("matmul", (a, b))
    for a in T + Z1 + W:
        yield Cell("sum", (a,))
    for c in operator_cells(dtypes, weak):
        if c.out and (c.operands[1].kind != "literal" or str(c.operands[1]) in BINARY_LITERALS):
            yield c


def _nary(form, T, Z1, W, BL, pool3, dtypes, weak):
    """The n-ary cells (concatenate, stack, where, clip) in one form."""
    reduced = _pairs(T, Z1, Z1, W, BL)
    # concatenate joins along an existing axis: n-d operands only (a 0-d array or a Python
    # scalar is a shape error, not a promotion question; a few such cells record the refusal)
    nd = T + W
    for a in nd:
        for b in nd:
            yield Cell("concatenate", (a, b), form=form)
    for a in T:
        for b in _ops(["int8(1)", "1", "1.0"], dtypes, weak):
            yield Cell("concatenate", (a, b), form=form)
    for t in itertools.product([o for o in pool3 if o.kind == "tensor"], repeat=3):
        yield Cell("concatenate", t, form=form)
    # stack needs operands of one shape: n-d with n-d, and 0-d tensors with Python scalars
    scalars = Z1 + BL
    for a in nd:
        for b in nd:
            yield Cell("stack", (a, b), form=form)
    for a in scalars:
        for b in scalars:
            yield Cell("stack", (a, b), form=form)
    for t in itertools.product([o for o in pool3 if o.kind == "tensor"], repeat=3):
        yield Cell("stack", t, form=form)
    for t in itertools.product([o for o in pool3 if o.kind != "tensor"], repeat=3):
        yield Cell("stack", t, form=form)
    cond = parse_operand("bool")
    for a, b in reduced:
        yield Cell("where", (cond, a, b), form=form)
    xy = _ops(["int8", "uint8", "float32", "1", "1.0"], dtypes, weak)
    for c in _ops(["int8", "float32", "bool(True)", "True", "1"], dtypes, weak):
        for a in xy:
            for b in xy:
                yield Cell("where", (c, a, b), form=form)
    for t in itertools.product(pool3, repeat=3):
        yield Cell("clip", t, form=form)


def cells(adapter, dtypes=DTYPES, weak=False, families=None, reduced=False):
    """Yield the cells of the chosen families (all but `operator` by default) for one framework.
    reduced: the operator and function grids use reduced_operator_cells (settings runs)."""
    fams = families or [f for f in FAMILIES if f != "operator"]
    dts, T, Z1, Z, W, L, BL = _grids(dtypes, weak)
    pool3 = _ops(POOL3 + POOL3_WEAK, dtypes, weak)
    grid = reduced_operator_cells if reduced else operator_cells

    if "operator" in fams:
        yield from grid(dtypes, weak)

    if "function" in fams:
        for form in FORMS[adapter]:
            # TF's third entry point (tnp) on the reduced grid: its differences from tf.math are
            # by dtype kind, which the reduced literals cover (notes/forms-tf.md)
            g = reduced_operator_cells if form == "tnp" else grid
            for c in g(dtypes, weak):
                if c.out is None:
                    yield Cell(c.op, c.operands, form=form)

    if "result_type" in fams:
        for form in RESULT_TYPE_FORMS.get(adapter, [None]):
            for a in T + Z + W + L:
                yield Cell("result_type", (a,), form=form)
            for a, b in _pairs(T, Z1, Z, W, L):
                yield Cell("result_type", (a, b), form=form)
            for t in itertools.product(pool3, repeat=3):
                yield Cell("result_type", t, form=form)

    if "promote_types" in fams:
        for a in T:
            for b in T:
                yield Cell("promote_types", (a, b))

    if "can_cast" in fams:
        for casting in CAN_CAST_CASTINGS[adapter]:
            for a in T + Z + L:
                for b in T:
                    yield Cell("can_cast", (a, b), casting=casting)

    if "nary" in fams:
        for nform in NARY_FORMS.get(adapter, [None]):
            yield from _nary(nform, T, Z1, W, BL, pool3, dtypes, weak)

    if "dtype" in fams:
        ops = DTYPE_OPS if DTYPE_FULL.get(adapter) else ["add"]
        lits = [parse_operand("1"), parse_operand("1.0")]
        for op in ops:
            pairs = [(a, b) for a in T for b in T]
            pairs += [(a, b) for a in T for b in lits] + [(b, a) for a in T for b in lits]
            for a, b in pairs:
                for d in dts:
                    yield Cell(op, (a, b), dtype=d, form="function")

    if "casting" in fams and adapter == "numpy":
        for op in CASTING_OPS:
            for a in T:
                for b in T:
                    for o in dts:
                        for casting in CASTINGS:
                            yield Cell(op, (a, b), out=o, form="function", casting=casting)


if __name__ == "__main__":
    import sys
    ad = sys.argv[1] if len(sys.argv) > 1 else "numpy"
    for fam in FAMILIES:
        print(fam, sum(1 for _ in cells(ad, weak="--weak" in sys.argv, families=[fam])))
