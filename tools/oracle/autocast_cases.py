"""The cells of issue 14 (mixed-precision autocast), one list for every autocast recorded.

Recorded by record_autocast.py into tests/fixtures/autocast/NAME.txt.gz.

Operand kinds (syntax.py): `float32` n-d tensor, `float32(1.0)` 0-d tensor, Python literals.
The dtypes are the ones autocast tells apart: the four floating dtypes (float64 is the one autocast
leaves alone in PyTorch), two integer dtypes, bool, uint8 and one complex dtype.

* the ops the engine knows: the 21 binary ops of cases.py over tensor x tensor, tensor x 0-d,
  0-d x tensor, tensor x literal, literal x tensor, 0-d x 0-d and 0-d x literal (LITERALS: one
  per Python kind); `matmul` over n-d tensor pairs; `sum` over n-d and 0-d tensors.
* the ops the autocast lists name that matter most (recorded whether or not the engine can name
  them yet; a replay skips the ones it cannot): lower-precision `mm`, `bmm`, `linear`, `addmm`
  (three operands), `conv1d`; float32-list unary/reductions `exp`, `log`, `softmax`, `mean`,
  `prod`, `cumsum`; promote-list `concatenate`, `stack` (two operands; PyTorch's `cat`/`stack` are
  on no CPU list and `dot` is on the CUDA promote list).
* ``matmul D D out=D`` for the four floating dtypes: the out= overload under autocast.  These take n-d tensors only (the adapter
  gives each the shape it needs) and, for the unary ones, 0-d tensors too.
"""
from __future__ import annotations

from cases import BINARY_OPS
from syntax import Cell, parse_operand

DTYPES = ["bool", "uint8", "int32", "int64", "bfloat16", "float16", "float32", "float64",
          "complex64"]
ZERO_DIM = {"bool": "True", "complex64": "1j"}  # the 0-d value; 1 / 1.0 otherwise
LITERALS = ["True", "2", "2.0", "1j"]

LOWER_PRECISION_OPS = ["mm", "bmm", "linear", "conv1d"]  # two operands
THREE_OPERAND_OPS = ["addmm"]
UNARY_OPS = ["exp", "log", "softmax", "mean", "prod", "cumsum"]
LIST_OPS = ["concatenate", "stack"]


def _zero_dim(d):
    v = ZERO_DIM.get(d) or ("1.0" if d in ("bfloat16", "float16", "float32", "float64") else "1")
    return parse_operand(f"{d}({v})")


def cells(dtypes=DTYPES, engine_only=False):
    """Yield every cell (a syntax.Cell) of the autocast recordings for these dtypes; with
    engine_only, only the engine's ops (the binary ops, matmul, sum)."""
    T = [parse_operand(d) for d in dtypes]
    Z = [_zero_dim(d) for d in dtypes]
    L = [parse_operand(v) for v in LITERALS]
    pairs = [(a, b) for a in T for b in T]
    pairs += [(a, b) for a in T for b in Z] + [(b, a) for a in T for b in Z]
    pairs += [(a, b) for a in T for b in L] + [(b, a) for a in T for b in L]
    pairs += [(a, b) for a in Z for b in Z]
    pairs += [(a, b) for a in Z for b in L] + [(b, a) for a in Z for b in L]
    for op in BINARY_OPS:
        for a, b in pairs:
            yield Cell(op, (a, b))
    if engine_only:
        for a in T:
            for b in T:
                yield Cell("matmul", (a, b))
        for a in T + Z:
            yield Cell("sum", (a,))
        return
    # matmul writing into an out= tensor of its operands' dtype: the out= overload of an op is
    # registered on no autocast list (PyTorch), so it computes as without autocast
    for d in ("bfloat16", "float16", "float32", "float64"):
        if d in dtypes:
            yield Cell("matmul", (parse_operand(d), parse_operand(d)), d)
    for op in ["matmul"] + LOWER_PRECISION_OPS + LIST_OPS:
        for a in T:
            for b in T:
                yield Cell(op, (a, b))
    for op in THREE_OPERAND_OPS:
        for a in T:
            for b in T:
                for c in T:
                    if len({a.dtype, b.dtype, c.dtype}) <= 2:
                        yield Cell(op, (a, b, c))
    for op in ["sum"] + UNARY_OPS:
        for a in T + Z:
            yield Cell(op, (a,))
