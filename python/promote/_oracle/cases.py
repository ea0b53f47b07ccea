"""The cells every framework is recorded on. Same list for all, filtered by what each has."""
from __future__ import annotations

from syntax import DTYPES, KIND, Cell, parse_operand

BINARY_OPS = [
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
    "maximum", "minimum", "equal", "not_equal", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
    "bitwise_or", "bitwise_xor",
]
# ops whose in-place/out= behaviour is recorded for every out dtype
OUT_OPS = ["add", "divide", "less", "bitwise_and", "power"]

BOOL_LITS = ["True", "False"]
INT_LITS = [
    "0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "300", "-300", "32767", "32768",
    "65535", "65536", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295",
    "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
    "-9223372036854775809", "18446744073709551615", "18446744073709551616", "-18446744073709551616",
]
FLOAT_LITS = ["1.0", "-0.0", "0.5", "1e+10", "65504.0", "70000.0", "3.4e+38", "1e+39", "1e+300",
              "inf", "-inf", "nan"]
COMPLEX_LITS = ["1j", "(1+2j)", "(1e+300+0j)", "(inf+0j)"]
LITERALS = BOOL_LITS + INT_LITS + FLOAT_LITS + COMPLEX_LITS

# values held by 0-d tensors: a small one, and ones that need the full type (value-based casting)
ZERO_DIM_VALUES = {
    "bool": ["True", "False"],
    "uint8": ["1", "255"], "uint16": ["1", "65535"], "uint32": ["1", "4294967295"],
    "uint64": ["1", "18446744073709551615"],
    "int8": ["1", "-1", "-128"], "int16": ["1", "-1", "32767"], "int32": ["1", "-1", "2147483647"],
    "int64": ["1", "-1", "9223372036854775807"],
    "bfloat16": ["1.0", "-1.0", "inf"], "float16": ["1.0", "65504.0", "nan"],
    "float32": ["1.0", "3e+38", "inf"], "float64": ["1.0", "1e+300", "nan"],
    "complex64": ["1j", "(3e+38+0j)"], "complex128": ["1j", "(1e+300+0j)"],
}


def cells(dtypes=DTYPES, weak=False, literals=LITERALS):
    """Yield every cell (as a Cell) for a framework with these dtypes (weak: it has weak tensors)."""
    dts = [d for d in DTYPES if d in dtypes]
    T = [parse_operand(d) for d in dts]
    Z1 = [parse_operand(f"{d}({ZERO_DIM_VALUES[d][0]})") for d in dts]
    Z = [parse_operand(f"{d}({v})") for d in dts for v in ZERO_DIM_VALUES[d]]
    W = [parse_operand("~" + d) for d in dts] if weak else []
    L = [parse_operand(v) for v in literals]

    pairs = []
    pairs += [(a, b) for a in T for b in T]
    pairs += [(a, b) for a in T for b in Z] + [(b, a) for a in T for b in Z]
    pairs += [(a, b) for a in T for b in L] + [(b, a) for a in T for b in L]
    pairs += [(a, b) for a in Z1 for b in Z1]
    pairs += [(a, b) for a in Z1 for b in L] + [(b, a) for a in Z1 for b in L]
    if W:
        pairs += [(a, b) for a in W for b in T] + [(b, a) for a in W for b in T]
        pairs += [(a, b) for a in W for b in W]
        pairs += [(a, b) for a in W for b in L] + [(b, a) for a in W for b in L]
        pairs += [(a, b) for a in W for b in Z1] + [(b, a) for a in W for b in Z1]

    for op in BINARY_OPS:
        for a, b in pairs:
            yield Cell(op, (a, b))
    # matmul: operands of one or more dimensions
    mm = T + W
    for a in mm:
        for b in mm:
            yield Cell("matmul", (a, b))
    # sum: a full reduction
    for a in T + Z1 + W:
        yield Cell("sum", (a,))
    # out= / in-place: every out dtype for a few ops on tensor pairs ...
    for op in OUT_OPS:
        for a in T:
            for b in T:
                for o in dts:
                    yield Cell(op, (a, b), o)
    # ... and out = the first operand's dtype (a += b) for every op, tensor with tensor/literal/0-d
    for op in BINARY_OPS:
        if op in OUT_OPS:
            continue
        for a in T:
            for b in T + L + Z1:
                yield Cell(op, (a, b), a.dtype)


if __name__ == "__main__":
    import sys
    n = 0
    for c in cells(weak="--weak" in sys.argv):
        n += 1
    print(n)
