"""PyTorch adapter for the autocast recordings (issue 14): each cell runs inside
``torch.autocast("cpu", dtype=D)`` (mode `cpu-bfloat16` or `cpu-float16`), torch==2.15.0, CPU,
default dtype float32, one thread.

Operands are made as fw_torch.py makes them (``torch.ones(shape, dtype=D)``, ``torch.tensor(v,
dtype=D)`` for 0-d, the Python object for a literal), outside the autocast region; only the op runs
inside it.  The engine's ops are performed as fw_torch.py performs them (Python operators, the
torch function where there is none, ``a.sum()``).  The list ops get the shapes they need:

| op | call | operand shapes |
| --- | --- | --- |
| mm | ``torch.mm(a, b)`` | (2, 2), (2, 2) |
| bmm | ``torch.bmm(a, b)`` | (1, 2, 2), (1, 2, 2) |
| linear | ``torch.nn.functional.linear(a, w)`` | (2, 2), (2, 2) |
| conv1d | ``torch.nn.functional.conv1d(a, w)`` | (1, 1, 4), (1, 1, 2) |
| addmm | ``torch.addmm(c, a, b)`` | (2, 2) x 3 |
| concatenate / stack | ``torch.cat([a, b])`` / ``torch.stack([a, b])`` | (2,), (2,) |
| exp, log | ``torch.exp(a)``, ``torch.log(a)`` | (2,) or 0-d |
| softmax, cumsum | ``torch.softmax(a, dim=0)``, ``torch.cumsum(a, dim=0)`` | (2,) or 0-d |
| mean, prod | ``torch.mean(a)``, ``torch.prod(a)`` | (2,) or 0-d |
| matmul with out=D | ``torch.matmul(a, b, out=torch.empty((), dtype=D))`` | (2,), (2,) |

Answers: the result's dtype, or the error class of fw_torch.py / fw_ops_torch.py.
"""
from __future__ import annotations

import torch

import fw_ops_torch
import ops_common
import fw_torch

SHAPES = {
    "mm": [(2, 2), (2, 2)], "bmm": [(1, 2, 2), (1, 2, 2)], "linear": [(2, 2), (2, 2)],
    "conv1d": [(1, 1, 4), (1, 1, 2)], "addmm": [(2, 2), (2, 2), (2, 2)],
}
CALLS = {
    "mm": torch.mm, "bmm": torch.bmm, "linear": torch.nn.functional.linear,
    "conv1d": torch.nn.functional.conv1d, "addmm": torch.addmm,
    "concatenate": lambda a, b: torch.cat([a, b]), "stack": lambda a, b: torch.stack([a, b]),
    "exp": torch.exp, "log": torch.log, "softmax": lambda a: torch.softmax(a, dim=0),
    "cumsum": lambda a: torch.cumsum(a, dim=0), "mean": torch.mean, "prod": torch.prod,
}
AUTOCAST_DTYPE = None

# errors of the list ops beyond fw_torch.py / fw_ops_torch.py: two operands of different dtypes
# that the op's kernel refuses instead of promoting (mm/bmm/addmm/conv after autocast cast one
# of them and not the other: "expected scalar type Byte but found BFloat16", "Input type
# (CPUBFloat16Type) and weight type (CPUDoubleType) should be the same", "expected m1 and m2 to
# have the same dtype")
RULES = [
    # the promote list (cat, stack) meeting a float16 tensor under bfloat16 autocast (or the
    # reverse): at::autocast::prioritize knows float32, float64 and the autocast dtype only
    ("RuntimeError", r"Unexpected floating ScalarType in at::autocast::prioritize", "!no_promotion"),
    ("RuntimeError", r"expected scalar type \w+ but found \w+", "!no_promotion"),
    ("RuntimeError", r"Input type .* and (weight|bias) type .* should be the same", "!no_promotion"),
    ("RuntimeError", r"should be the same|must have the same dtype|to have the same dtype",
     "!no_promotion"),
]


def setup(mode):
    global AUTOCAST_DTYPE
    fw_torch.setup(mode)
    device, dtype = mode.split("-")
    assert device == "cpu", "only CPU autocast runs here"
    AUTOCAST_DTYPE = fw_torch.DTYPES[dtype]


def make(opnd, shape):
    if opnd.kind == "tensor" and shape is not None:
        return torch.ones(shape, dtype=fw_torch.DTYPES[opnd.dtype])
    return fw_torch.make(opnd)


def perform(cell):
    shapes = SHAPES.get(cell.op, [None] * len(cell.operands))
    args = [make(o, s) for o, s in zip(cell.operands, shapes)]
    with torch.autocast("cpu", dtype=AUTOCAST_DTYPE):
        if cell.op == "matmul" and cell.out:
            return torch.matmul(*args, out=torch.empty((), dtype=fw_torch.DTYPES[cell.out]))
        if cell.op in CALLS:
            return CALLS[cell.op](*args)
        if cell.op == "sum":
            return args[0].sum()
        return fw_torch.OPERATOR[cell.op](*args)


def classify(e, cell):
    k = fw_ops_torch.classify(e, cell)
    if k is None or k.startswith("?"):
        k = ops_common.classify_rules(e, RULES)
    if k is None:
        return "?unclassified " + type(e).__name__ + ": " + str(e).replace("\n", " ")[:160]
    return k


def answer(cell):
    try:
        r = perform(cell)
    except Exception as e:  # the framework's answer
        return classify(e, cell)
    if not isinstance(r, torch.Tensor):
        return "?not a tensor: " + type(r).__name__
    # complex32 (float16 + 1j) is named, as in fw_torch.py
    return fw_torch.NAMES.get(r.dtype) or fw_torch.NARROW_NAMES.get(r.dtype) or "!unsupported"
