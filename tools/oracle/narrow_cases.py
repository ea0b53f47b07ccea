"""The promotion cells of the narrow dtypes (issue 11), for every framework alike.

`add` over every operand shape that meets a narrow dtype: each narrow dtype with every dtype the
framework has (both orders), with the Python literals below (both sides), as a 0-d tensor holding
1 with every tensor, and weakly typed (where the framework has weak tensors) with tensors,
literals and 0-d tensors. Answers as in the other recordings (README.md).
"""
from __future__ import annotations

from syntax import DTYPES, NARROW_DTYPES, Cell, parse_operand

LITERALS = ["True", "1", "-1", "300", "1.0", "1e+300", "inf", "nan", "1j"]


def cells(dtypes, weak=False):
    """Every cell for a framework with these dtypes (classic and narrow) that has a narrow one."""
    every = [d for d in DTYPES + NARROW_DTYPES if d in dtypes]
    narrow = [d for d in NARROW_DTYPES if d in dtypes]
    T = [parse_operand(d) for d in every]
    N = [parse_operand(d) for d in narrow]
    Z = [parse_operand(f"{d}({'True' if d == 'bool' else '1'})") for d in every]
    NZ = [parse_operand(f"{d}(1)") for d in narrow]
    L = [parse_operand(v) for v in LITERALS]
    pairs = [(a, b) for a in N for b in T] + [(b, a) for a in N for b in T if b.dtype not in narrow]
    pairs += [(a, b) for a in N for b in L] + [(b, a) for a in N for b in L]
    pairs += [(a, b) for a in N for b in Z] + [(b, a) for a in N for b in Z]
    pairs += [(a, b) for a in NZ for b in T if b.dtype not in narrow]
    pairs += [(b, a) for a in NZ for b in T if b.dtype not in narrow]
    pairs += [(a, b) for a in NZ for b in L]
    if weak:
        W = [parse_operand("~" + d) for d in every]
        NW = [parse_operand("~" + d) for d in narrow]
        pairs += [(a, b) for a in NW for b in T] + [(b, a) for a in NW for b in T]
        pairs += [(a, b) for a in W for b in N if a.dtype not in narrow]
        pairs += [(b, a) for a in W for b in N if a.dtype not in narrow]
        pairs += [(a, b) for a in NW for b in W] + [(b, a) for a in NW for b in W
                                                   if b.dtype not in narrow]
        pairs += [(a, b) for a in NW for b in L] + [(b, a) for a in NW for b in L]
    seen = set()
    for a, b in pairs:
        c = Cell("add", (a, b))
        if str(c) not in seen:
            seen.add(str(c))
            yield c
