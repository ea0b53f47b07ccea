"""The cells of issue 12 (unary ops, more binary ops, whole-tensor reductions), for every framework.

Recorded by record_ops.py into tests/fixtures/resolve-ops/POLICY.txt.gz; the 23 binary ops of
cases.py stay in tests/fixtures/resolve/ (record.py).

Operand kinds (syntax.py): `int8` n-d tensor, `int8(v)` 0-d tensor, `~int8` weak tensor (JAX, TF
all/safe only), Python literals.

* unary ops: every dtype as n-d tensor, as 0-d tensor holding each value of
  cases.ZERO_DIM_VALUES (1 and a limit of the dtype, nan/inf for floats), as weak tensor, and
  UNARY_LITERALS (the adapter calls the framework's function on the Python object; a function that
  refuses Python scalars answers `!unsupported`).
* binary ops: the operand grid of cases.py with a reduced literal set (BINARY_LITERALS, 8 instead
  of 46: one per kind plus the range edges that change answers) and 0-d tensors holding 1 only
  (cases.py's second/third 0-d values are left out; value-based casting is already recorded for the
  23 binary ops in tests/fixtures/resolve).  The pairs: tensor x tensor, tensor x 0-d, 0-d x
  tensor, tensor x literal, literal x tensor, 0-d x 0-d, and with weak tensors weak x
  tensor/weak/literal/0-d and back.
* reductions (whole tensor): every dtype as n-d tensor, 0-d tensor holding each value of
  cases.ZERO_DIM_VALUES, weak tensor, and UNARY_LITERALS (`np.sum(1)`; a function that refuses a
  Python scalar answers `!unsupported`), without `dtype=`, and with `dtype=D` for every dtype D of
  the framework for the reductions whose function takes a dtype argument in that framework
  (DTYPE_ARG, per adapter).
"""
from __future__ import annotations

from cases import DTYPES, ZERO_DIM_VALUES
from syntax import Cell, parse_operand

UNARY_OPS = [
    "negative", "positive", "absolute", "sign", "square", "sqrt", "reciprocal", "exp", "expm1",
    "log", "log1p", "log2", "log10", "sin", "cos", "tan", "arcsin", "arctan", "sinh", "tanh",
    "floor", "ceil", "trunc", "round", "isnan", "isinf", "isfinite", "signbit", "logical_not",
    "bitwise_invert", "real", "imag", "conj", "angle",
]
BINARY_OPS = [
    "left_shift", "right_shift", "arctan2", "hypot", "copysign", "logaddexp", "nextafter", "fmax",
    "fmin", "fmod", "float_power", "divmod", "heaviside",
]
REDUCTIONS = ["sum", "prod", "mean", "max", "min", "argmax", "cumsum", "cumprod", "any", "all",
              "var", "std"]
ALL_OPS = UNARY_OPS + BINARY_OPS + REDUCTIONS

UNARY_LITERALS = ["True", "1", "-1", "300", "2147483648", "9223372036854775808", "1.0", "1e+300",
                  "1j"]
BINARY_LITERALS = ["True", "1", "-1", "300", "9223372036854775808", "1.0", "1e+300", "1j"]

# the reductions whose function takes `dtype=` (adapter name -> ops); the others get no dtype= cells
DTYPE_ARG = {
    "numpy": ["sum", "prod", "mean", "cumsum", "cumprod", "var", "std"],
    "torch": ["sum", "prod", "mean", "cumsum", "cumprod"],
    "jax": ["sum", "prod", "mean", "cumsum", "cumprod", "var", "std"],
    "tf": [],  # tf.math.reduce_* and tf.math.cumsum/cumprod take no dtype argument
    "paddle": ["sum", "prod", "cumsum", "cumprod"],
    "array_api": ["sum", "prod", "cumsum", "cumprod"],
}


# the ops with a Python operator (ops_common.OPERATOR_FORMS): their namespace function is
# recorded as `OP:function` (resolve-ops/), their operator as plain `OP` (resolve-ops-operator/)
OPERATOR_OPS = ("negative", "positive", "absolute", "bitwise_invert", "left_shift", "right_shift",
                "divmod", "round")


def cells(adapter, dtypes=DTYPES, weak=False, ops=None, operator=False):
    """Yield every cell of issue 12 for one framework (adapter name as in DTYPE_ARG); an op of
    OPERATOR_OPS is the `function` form, or with `operator` its Python operator (those ops only)."""
    def form(op):
        return None if operator or op not in OPERATOR_OPS else "function"
    dts = [d for d in DTYPES if d in dtypes]
    T = [parse_operand(d) for d in dts]
    Z1 = [parse_operand(f"{d}({ZERO_DIM_VALUES[d][0]})") for d in dts]
    Z = [parse_operand(f"{d}({v})") for d in dts for v in ZERO_DIM_VALUES[d]]
    W = [parse_operand("~" + d) for d in dts] if weak else []
    UL = [parse_operand(v) for v in UNARY_LITERALS]
    BL = [parse_operand(v) for v in BINARY_LITERALS]
    want = set(ops or ALL_OPS)
    if operator:
        want &= set(OPERATOR_OPS)

    for op in UNARY_OPS:
        if op in want:
            # an operator on a Python literal alone (`-1`) is Python's, never the framework's
            for a in T + Z + W + ([] if operator else UL):
                yield Cell(op, (a,), form=form(op))

    pairs = []
    pairs += [(a, b) for a in T for b in T]
    pairs += [(a, b) for a in T for b in Z1] + [(b, a) for a in T for b in Z1]
    pairs += [(a, b) for a in T for b in BL] + [(b, a) for a in T for b in BL]
    pairs += [(a, b) for a in Z1 for b in Z1]
    if W:
        pairs += [(a, b) for a in W for b in T] + [(b, a) for a in W for b in T]
        pairs += [(a, b) for a in W for b in W]
        pairs += [(a, b) for a in W for b in BL] + [(b, a) for a in W for b in BL]
        pairs += [(a, b) for a in W for b in Z1] + [(b, a) for a in W for b in Z1]
    for op in BINARY_OPS:
        if op in want:
            for a, b in pairs:
                yield Cell(op, (a, b), form=form(op))

    for op in REDUCTIONS:
        if op not in want:
            continue
        for a in T + Z + W + UL:
            yield Cell(op, (a,), form=form(op))
        if op in DTYPE_ARG[adapter]:
            for a in T + Z1 + W + UL:
                for d in dts:
                    yield Cell(op, (a,), dtype=d, form=form(op))


if __name__ == "__main__":
    import sys
    print(sum(1 for _ in cells(sys.argv[1] if len(sys.argv) > 1 else "numpy",
                               weak="--weak" in sys.argv)))
