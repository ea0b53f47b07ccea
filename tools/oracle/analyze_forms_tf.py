"""TensorFlow 2.21 (`tf`, `tf-legacy`, `tf-all`, `tf-safe`): the issue-10 recordings as rules.

    python3 tools/oracle/analyze_forms_tf.py [tf|tf-legacy|tf-all|tf-safe] [--show N]

The function form (tf.math.add ...) starts from the operator's answer (tests/fixtures/resolve,
which the tf* policies replay) and states where TensorFlow's two faces part (notes/forms-tf.md):
* a Python scalar FIRST: the operator `1 + t` is t.__radd__(1), which converts the scalar with
  t's dtype (math_ops.py binary_op_wrapper r_binary_op_wrapper: `y, x = maybe_promote_tensors(y,
  x)` / convert_to_tensor(x, dtype=y.dtype.base_dtype)); tf.math.add(1, t) converts the scalar on
  its own first (convert_to_tensor without a dtype: bool, int32 -- int64 beyond int32 --,
  float32, complex128) and the kernel then demands equal dtypes: the answer is the operator's
  when that default dtype is t's dtype, else !no_promotion (off/legacy).
* bool operands: `a * b`, `a & b`, `a | b`, `a ^ b` on bool tensors are logical ops in the
  operator wrappers (math_ops.py _mul_dispatch / and_ / or_ / xor_ for bool); tf.math.multiply
  and tf.bitwise.* have no bool kernel -> !unsupported.
* dtype=: tf.math.* take no dtype argument -> !unsupported.
"""
from __future__ import annotations

import analyze_forms
from syntax import KIND, Cell, parse_operand

NAMES = ["tf", "tf-legacy", "tf-all", "tf-safe"]
INT32 = (-2**31, 2**31 - 1)


def default_dtype(v):
    """tf.convert_to_tensor(v).dtype for a Python scalar (None: it fits nothing)."""
    if type(v) is bool:
        return "bool"
    if type(v) is int:
        if INT32[0] <= v <= INT32[1]:
            return "int32"
        if -2**63 <= v < 2**63:
            return "int64"
        return None
    if type(v) is float:
        # a finite float beyond float32 does not convert ("!overflow")
        return None if v == v and abs(v) != float("inf") and abs(v) > 3.4028234663852886e38 \
            else "float32"
    return "complex128"


# the tf.math functions whose Python wrapper converts x on its own (math_ops.py: add -> AddV2 via
# `x = ops.convert_to_tensor(x)` ...); the others go straight to the generated op, whose
# _apply_op_helper infers one dtype for both inputs from the tensor (a literal takes it)
CONVERT_FIRST = {"add", "divide"}


def predictor(name):
    base = analyze_forms.Base(name)

    def function(cell):
        a, b = cell.operands + (None,) * (2 - len(cell.operands))
        op = cell.op
        if cell.dtype:
            return "!unsupported"
        if op.startswith("bitwise_") and a.kind == "literal" and name in ("tf-all", "tf-safe") \
                and base.of(cell) == "!unsupported":
            # all/safe: `1 & t` fails in the operator (math_ops.and_ reads x.dtype of the
            # scalar); tf.bitwise.bitwise_and(1, t) promotes like `t & 1` (commutative)
            return function(Cell(op, (b, a), form="function"))
        off = name in ("tf", "tf-legacy")
        if (op == "multiply" or op.startswith("bitwise_")) and a.kind != "literal" \
                and a.dtype == "bool" and b.kind == "literal" and off:
            # the scalar is converted to the bool tensor's dtype: refused unless it is a bool
            # (then no kernel); an int beyond int64 first fails its own conversion
            if type(b.py) is bool:
                return "!unsupported"
            return "!overflow" if type(b.py) is int and not -2**63 <= b.py < 2**63 \
                else "!no_promotion"
        lits = [o for o in cell.operands if o.kind == "literal"]
        if op.startswith("bitwise_") and not off and lits and type(lits[0].py) is int and any(
                o.kind != "literal" and o.dtype == "bool" and not o.weak for o in cell.operands):
            return "!no_promotion"  # all/safe: a bool tensor with a Python int: no bool bitwise
        if op.startswith("bitwise_") and a.kind != "literal" and a.dtype == "bool" \
                and not a.weak and b.dtype != "bool":
            return "!unsupported"  # BitwiseAnd's dtype comes from x: bool has no kernel
        if op == "multiply" or op.startswith("bitwise_"):
            # the operators make these logical ops on bool; Mul / BitwiseAnd have no bool kernel,
            # and the generated op takes its dtype from the first tensor input
            if base.of(cell) == "bool" and (off or a.kind != "literal"):
                first_bool = (a.dtype == "bool") if a.kind != "literal" else True
                return "!unsupported" if first_bool else "!no_promotion"
        if a.kind == "literal" and name in ("tf", "tf-legacy") and op in CONVERT_FIRST:
            d = default_dtype(a.py)
            if d is None:
                return "!overflow"
            if d == "bool" and op == "add":
                return "!unsupported"  # AddV2 has no bool kernel
            if b.dtype != d:
                return "!no_promotion"
        return base.of(cell)

    off_function = None
    if name == "tf-legacy":
        # legacy mode patches the operators (TF-NumPy) but not tf.math: its functions answer as
        # in mode off (the `tf` recording's function cells)
        off_function = {t: a for t, c, a in analyze_forms.load("tf") if c.form == "function"}

    def predict(cell):
        if cell.form == "function" and off_function is not None:
            return off_function.get(str(cell))
        if cell.form == "function" and cell.op in analyze_forms.OP_CLASS:
            return function(cell)
        return None
    return predict


def quirks(name):
    return []


if __name__ == "__main__":
    analyze_forms.main(NAMES, predictor, quirks)
