"""The compact cell syntax shared by every adapter (see README.md)."""
from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from typing import Optional

DTYPES = [
    "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
    "bfloat16", "float16", "float32", "float64", "complex64", "complex128",
]
KIND = {
    "bool": "b", "uint8": "u", "uint16": "u", "uint32": "u", "uint64": "u",
    "int8": "i", "int16": "i", "int32": "i", "int64": "i",
    "bfloat16": "f", "float16": "f", "float32": "f", "float64": "f",
    "complex64": "c", "complex128": "c",
}

# the narrow dtypes of ML (src/kernel/narrow/format.rs), recorded by record_narrow.py
NARROW_DTYPES = [
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz",
    "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float6_e2m3fn", "float6_e3m2fn",
    "float4_e2m1fn", "int2", "uint2", "int4", "uint4", "complex32",
]

_TENSOR = re.compile(r"^(~?)([a-z0-9_]+)(?:\((.*)\))?$")


@dataclass(frozen=True)
class Operand:
    """One operand of a cell.

    kind: "tensor" (n-d), "zerodim" (0-d tensor), or "literal" (Python scalar).
    For tensors: dtype, weak, value (text or None). For literals: value is the Python object.
    """

    kind: str
    dtype: Optional[str] = None
    weak: bool = False
    text: Optional[str] = None  # the value as text (0-d tensors and literals)

    @property
    def py(self):
        """The Python value of a literal, or of a 0-d tensor's value (default 1)."""
        if self.kind == "literal":
            return eval(self.text, {"__builtins__": {}}, {"inf": float("inf"), "nan": float("nan")})
        if self.text in (None, ""):
            return True if self.dtype == "bool" else 1
        v = eval(self.text, {"__builtins__": {}}, {"inf": float("inf"), "nan": float("nan")})
        return v

    def __str__(self) -> str:
        if self.kind == "literal":
            return self.text
        s = ("~" if self.weak else "") + self.dtype
        if self.kind == "zerodim":
            s += "(" + (self.text or "") + ")"
        return s


def parse_operand(tok: str) -> Operand:
    m = _TENSOR.match(tok)
    if m and (m.group(2) in DTYPES or m.group(2) in NARROW_DTYPES):
        weak, dt, val = m.group(1) == "~", m.group(2), m.group(3)
        if val is None:
            return Operand("tensor", dt, weak)
        return Operand("zerodim", dt, weak, val)
    return Operand("literal", text=tok)


@dataclass(frozen=True)
class Cell:
    op: str
    operands: tuple
    out: Optional[str] = None
    dtype: Optional[str] = None  # a reduction's `dtype=` argument (tools/oracle/ops_cases.py)
    # the entry point (issue 10, forms_cases.py): None = the recordings' default (the operator, or
    # the function where there is no operator); "function" = the namespace function (np.add,
    # torch.add, tf.math.add, ...); "tnp" = tf.experimental.numpy.add (TensorFlow only)
    form: Optional[str] = None
    casting: Optional[str] = None  # NumPy's `casting=` (with out=), and can_cast's casting rule

    def __str__(self) -> str:
        s = " ".join([self.op + (":" + self.form if self.form else "")]
                     + [str(o) for o in self.operands])
        if self.dtype:
            s += " dtype=" + self.dtype
        if self.casting:
            s += " casting=" + self.casting
        if self.out:
            s += " out=" + self.out
        return s


_KEYS = ("out", "dtype", "casting")


def parse_cell(line: str) -> Cell:
    """`OP[:FORM] OPERAND... [dtype=D] [casting=C] [out=D]` (the keys in any order)."""
    toks = line.split()
    keys = {}
    while len(toks) > 1 and "=" in toks[-1] and toks[-1].split("=", 1)[0] in _KEYS:
        k, v = toks.pop().split("=", 1)
        keys[k] = v
    op, _, form = toks[0].partition(":")
    return Cell(op, tuple(parse_operand(t) for t in toks[1:]), keys.get("out"), keys.get("dtype"),
                form or None, keys.get("casting"))


def literal_kind(op: Operand) -> str:
    """'bool', 'int', 'float' or 'complex' for a literal operand."""
    return type(op.py).__name__


# The ops a user writes with a Python operator (a literal on the left goes through the reflected
# one). Each adapter adds its framework's functions for the others (maximum, logical_and, ...).
OPERATORS = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
    "divide": operator.truediv, "floor_divide": operator.floordiv, "remainder": operator.mod,
    "power": operator.pow, "equal": operator.eq, "not_equal": operator.ne, "less": operator.lt,
    "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge,
    "bitwise_and": operator.and_, "bitwise_or": operator.or_, "bitwise_xor": operator.xor,
    "matmul": operator.matmul,
}
