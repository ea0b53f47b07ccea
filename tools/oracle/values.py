"""The edge-value grid and the value text format shared by every value recorder.

Used by record_values.py (NumPy), record_values_torch.py (PyTorch) and record_values_fw.py
(JAX, TensorFlow, Paddle); it needs only NumPy, so it imports in every framework's venv.

* EDGES: the edge values of each of the 15 dtypes (0, -0, ±1, small values for // % **, min/max,
  subnormals, ±inf, nan, the halfway cases of the narrower float dtypes).
* fmt / parse: one element as text and back, exactly (shortest round-trip text at the dtype's
  precision, laid out like Python's repr; bfloat16 through its bits, rounded once from float64).
* edge_texts(d): the edge values of d as text, each checked to read back to the same bits.
* cross(a, b): the two operands of a grid query (element k is (A[i], B[j]) for k = i·len(B) + j).
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "bfloat16", "float16", "float32", "float64", "complex64", "complex128"]
OPS = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
       "maximum", "minimum", "equal", "not_equal", "less", "less_equal", "greater",
       "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
       "bitwise_or", "bitwise_xor"]

# messages of errors that refuse values, not dtypes: the spec's `value` error
VALUE_MESSAGES = ("Integer division by zero", "Integers to negative integer powers are not allowed",
                  "Integers cannot be raised to negative powers", "ZeroDivisionError")

INF, NAN = math.inf, math.nan
# Edge values per dtype (as Python numbers; floats are rounded into the dtype).
EDGES = {
    "bool": [False, True],
    # ints: 0, 1, small values for the rounding of // and % and for **, the max / min, and
    # values just past the narrower types (they overflow them), 2**24+1 / 2**53+1 (not exact in
    # float32 / float64)
    "uint8": [0, 1, 2, 3, 7, 127, 128, 254, 255],
    "uint16": [0, 1, 2, 7, 255, 256, 32767, 32768, 65535],
    "uint32": [0, 1, 2, 7, 65535, 65536, 16777217, 2**31 - 1, 2**31, 2**32 - 1],
    "uint64": [0, 1, 2, 7, 2**32 - 1, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1],
    "int8": [-128, -127, -7, -2, -1, 0, 1, 2, 3, 7, 127],
    "int16": [-32768, -129, -7, -2, -1, 0, 1, 2, 7, 128, 255, 32767],
    "int32": [-2**31, -32769, -7, -2, -1, 0, 1, 2, 7, 32768, 65536, 16777217, 2**31 - 1],
    "int64": [-2**63, -2**31 - 1, -7, -2, -1, 0, 1, 2, 7, 2**31, 2**32, 2**53 + 1, 2**63 - 1],
    # bfloat16: 0, -0, 1, -1, 0.5, 0.1, -2.5, 3, 7, 256, 257 is not a bfloat16 (258 is), the
    # smallest subnormal 2**-133 and normal 2**-126, max, -max, inf, -inf, nan
    "bfloat16": [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, -2.5, 3.0, 7.0, 256.0, 258.0, 2.0**-133,
                 2.0**-126, 3.3895313892515355e38, -3.3895313892515355e38, INF, -INF, NAN],
    # float16: 0, -0, 1, -1, 0.5, 0.1, -2.5, 3, 1000, smallest subnormal 2**-24, smallest normal
    # 2**-14, 2048 (2049 is not a float16), max 65504, -max, inf, -inf, nan
    "float16": [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, -2.5, 3.0, 1000.0, 2.0**-24, 2.0**-14, 2048.0,
                65504.0, -65504.0, INF, -INF, NAN],
    # float32: + float16 halfway cases (2049, 1+2**-11, 65520 rounds to inf in float16), 2**24,
    # smallest subnormal 2**-149, smallest normal 2**-126, 1e10, max
    "float32": [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, -2.5, 3.0, 7.0, 2.0**-149, 2.0**-126, 2049.0,
                1 + 2.0**-11, 65520.0, 16777216.0, 1e10, 3.4028234663852886e38,
                -3.4028234663852886e38, INF, -INF, NAN],
    # float64: + halfway cases for float16 and float32 (1+2**-24, 2**24+1), the float32
    # overflow threshold (rounds to inf in float32), smallest subnormal/normal, 1e-300, 1e300, max
    "float64": [0.0, -0.0, 1.0, -1.0, 0.5, 0.1, -2.5, 3.0, 7.0, 5e-324, 2.2250738585072014e-308,
                1e-300, 2049.0, 1 + 2.0**-11, 1 + 2.0**-24, 65520.0, 16777217.0,
                3.4028235677973366e38, 1e300, 1.7976931348623157e308, -1.7976931348623157e308,
                INF, -INF, NAN],
    "complex64": [0j, complex(-0.0, -0.0), 1 + 0j, 1j, complex(-1, 2), complex(0.5, -2.5),
                  complex(3, 4), complex(3.4028234663852886e38, 0), complex(2.0**-149, 1),
                  complex(INF, 0), complex(0, INF), complex(NAN, 0), complex(0, NAN),
                  complex(INF, NAN)],
    "complex128": [0j, complex(-0.0, -0.0), 1 + 0j, 1j, complex(-1, 2), complex(0.1, 0.2),
                   complex(3, 4), complex(1e300, 1e300), complex(1.7976931348623157e308, 0),
                   complex(5e-324, 1), complex(INF, 0), complex(0, INF), complex(-INF, 1),
                   complex(NAN, 0), complex(0, NAN), complex(INF, NAN)],
}

KIND = {d: ("f" if d == "bfloat16" else np.dtype(d).kind) for d in DTYPES}


# ---------------------------------------------------------------------------------------------
# bfloat16 <-> text, exactly (no double rounding)

def bf16_bits(x: float) -> int:
    """float64 -> bfloat16 bits, rounded once to nearest even."""
    if math.isnan(x):
        return 0x7FC0
    sign = 0x8000 if math.copysign(1.0, x) < 0 else 0
    a = abs(x)
    if math.isinf(a):
        return sign | 0x7F80
    if a == 0:
        return sign
    _, e = math.frexp(a)  # a = m * 2**e, 0.5 <= m < 1
    exp = max(e - 1, -126)  # bfloat16's exponent (subnormals share -126)
    ulp = Fraction(2) ** (exp - 7)
    q = Fraction(a) / ulp
    k = math.floor(q)
    rem = q - k
    if rem > Fraction(1, 2) or (rem == Fraction(1, 2) and k % 2 == 1):
        k += 1
    v = k * ulp
    if v >= Fraction(2) ** 128:
        return sign | 0x7F80
    f32 = np.float32(float(v))  # exact: at most 8 significant bits
    return sign | (int(f32.view(np.uint32)) >> 16)


def bf16_value(bits: int) -> float:
    return float(np.array(bits << 16, dtype=np.uint32).view(np.float32))


def fmt_bf16(bits: int) -> str:
    x = bf16_value(bits)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    for p in range(1, 12):
        s = format(x, f".{p - 1}e")
        if bf16_bits(float(s)) == bits:
            return repr(float(s))
    raise AssertionError(x)


# ---------------------------------------------------------------------------------------------
# text <-> value

def fmt_real(x, dt):
    """Shortest round-trip text of a float value at the precision of dt (float16/32/64)."""
    x = dt(x)
    if np.isnan(x):
        return "nan"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    if dt is np.float64:
        return repr(float(x))
    # the shortest digits that round-trip at this precision (Dragon4, unique=True), laid out as
    # Python's repr lays out a float: positional when the decimal exponent is in [-4, 16)
    # ("1000.0", "65500.0", "0.0001"), else scientific ("1e-45", "3.4028235e+38")
    sci = np.format_float_scientific(x, unique=True, trim="-", exp_digits=2)
    if -4 <= int(sci.split("e")[1]) < 16:
        return np.format_float_positional(x, unique=True, trim="0")
    return sci


def _complex_part(s):
    """Python's complex repr writes parts without a trailing '.0' ('1', '2.5', '1e+16')."""
    return s[:-2] if s.endswith(".0") else s


def fmt_complex(z, comp):
    re = _complex_part(fmt_real(z.real, comp))
    im = _complex_part(fmt_real(z.imag, comp))
    if not im.startswith("-"):
        im = "+" + im
    if float(z.real) == 0.0 and math.copysign(1.0, float(z.real)) > 0:
        return im.lstrip("+") + "j"  # like repr(1j) == '1j'
    return f"({re}{im}j)"


def fmt(v, dtype):
    """One element as text: a NumPy/Python scalar, or bfloat16 bits (an int) for bfloat16."""
    k = KIND[dtype]
    if dtype == "bfloat16":
        return fmt_bf16(int(v))
    if k == "b":
        return "True" if bool(v) else "False"
    if k in "ui":
        return str(int(v))
    if k == "f":
        return fmt_real(v, np.dtype(dtype).type)
    comp = np.float32 if dtype == "complex64" else np.float64
    return fmt_complex(v, comp)


def parse(text, dtype):
    """The value a text stands for, as a NumPy scalar of dtype (bfloat16: its bits, an int)."""
    k = KIND[dtype]
    if dtype == "bfloat16":
        return bf16_bits(float(text))
    if k == "b":
        return np.bool_({"True": True, "False": False}[text])
    if k in "ui":
        return np.array(int(text), dtype=dtype)[()]
    if k == "f":
        return np.array(float(text), dtype=dtype)[()]
    z = complex(text)
    comp = np.float32 if dtype == "complex64" else np.float64
    return np.array(complex(comp(z.real), comp(z.imag)), dtype=dtype)[()]


def to_numpy(texts, dtype):
    """A NumPy array of the values (bfloat16: uint16 bits)."""
    if dtype == "bfloat16":
        return np.array([parse(t, dtype) for t in texts], dtype=np.uint16)
    return np.array([parse(t, dtype) for t in texts], dtype=dtype)


def texts_of(arr, dtype):
    """The texts of a NumPy array of dtype (bfloat16: any 2-byte array, read as bits)."""
    arr = np.asarray(arr).reshape(-1)
    if dtype == "bfloat16":
        return [fmt(int(b), dtype) for b in arr.view(np.uint16)]
    return [fmt(x, dtype) for x in arr]


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype:
        return False
    if a.dtype.kind in "fc":
        parts = [(a.real, b.real), (a.imag, b.imag)] if a.dtype.kind == "c" else [(a, b)]
        for x, y in parts:
            if np.isnan(x) != np.isnan(y):
                return False
            if not np.isnan(x) and x.tobytes() != y.tobytes():
                return False
        return True
    return a.tobytes() == b.tobytes()


def edge_texts(dtype):
    """The edge values of dtype as text (duplicates after rounding dropped), each checked to
    read back to the same bits and to format to the same text."""
    out = []
    for v in EDGES[dtype]:
        if dtype == "bfloat16":
            t = fmt_bf16(bf16_bits(v))
            assert bf16_bits(float(t)) == bf16_bits(v), (v, t)
        else:
            x = np.array(v, dtype=dtype)[()]
            t = fmt(x, dtype)
            back = parse(t, dtype)
            assert same_bits(back, x), (dtype, v, t, back)
            assert fmt(back, dtype) == t, (dtype, t)
        if t not in out:
            out.append(t)
    return out


def cross(ta, tb):
    """The operands of a grid query: element k = i·len(tb) + j is (ta[i], tb[j])."""
    return [x for x in ta for _ in tb], [y for _ in ta for y in tb]


def is_zero(text, dtype):
    """An integer (or bool) divisor that is 0."""
    return KIND[dtype] in "biu" and text in ("0", "False")


def is_negative_int(text, dtype):
    """An integer exponent below 0."""
    return KIND[dtype] in "iu" and int(text) < 0
