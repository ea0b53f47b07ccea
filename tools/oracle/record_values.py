"""Record NumPy's values for the kernel layer: tests/fixtures/eval/numpy.jsonl.gz.

    /work/venvs/numpy/bin/python tools/oracle/record_values.py [--out PATH] [--check]

One JSON object per line, {"q": QUERY, "a": ANSWER}: QUERY is a `promote eval` query of
shared/spec/query-format.md (two operands {"dtype": D, "data": [...]}, values as text), ANSWER is
{"dtype": R, "weak": false, "data": [...]} or {"error": KIND}.

For every ordered pair of NumPy's 14 dtypes and every binary op of the spec (not matmul), the
operands hold the cross product of the two dtypes' edge values (EDGES below), so element k is
(A[i], B[j]). `sum` is recorded once per dtype over that dtype's edge values (the answer is a 0-d
result: data of length 1). Integer `power` whose exponents include negative values raises
ValueError in NumPy for the whole call -> {"error": "unsupported"}; such a query is followed by a
second one with the negative exponents left out, so the values are recorded too.

Values are written so that they parse back to the same number at the dtype's precision: ints in
full, bool as True/False, floats as the shortest round-trip text at the dtype's precision, laid
out like Python's repr (Python repr for float64; for float32/float16 the shortest digits of
NumPy's Dragon4: "65500.0" is float16 65504, "0.1" is float16 0.0999755859375), "nan", "inf",
"-inf"; complex like Python's repr ("(1+2j)", "1j", "(nan+infj)", "(-0-1j)") with each
part the shortest text at the component precision (float32 for complex64). Every input text is
checked to parse back to the exact value (bit pattern, except NaN payloads) before recording.
Warnings (overflow, invalid, divide by zero) are ignored: NumPy's values are recorded.
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import os
import sys
import types
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fw_numpy  # noqa: E402  (classify: the same error kinds as the resolve recordings)

ROOT = os.path.dirname(os.path.dirname(HERE))
DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
          "float16", "float32", "float64", "complex64", "complex128"]
OPS = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
       "maximum", "minimum", "equal", "not_equal", "less", "less_equal", "greater",
       "greater_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and",
       "bitwise_or", "bitwise_xor"]
UFUNC = {op: getattr(np, op) for op in OPS}

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

KIND = {d: np.dtype(d).kind for d in DTYPES}


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
    k = KIND[dtype]
    if k == "b":
        return "True" if bool(v) else "False"
    if k in "ui":
        return str(int(v))
    if k == "f":
        return fmt_real(v, np.dtype(dtype).type)
    comp = np.float32 if dtype == "complex64" else np.float64
    return fmt_complex(v, comp)


def parse(text, dtype):
    """The value a text stands for, as a NumPy scalar of dtype (the way the kernel layer reads it)."""
    k = KIND[dtype]
    if k == "b":
        return np.bool_({"True": True, "False": False}[text])
    if k in "ui":
        return np.array(int(text), dtype=dtype)[()]
    if k == "f":
        return np.array(float(text), dtype=dtype)[()]
    z = complex(text)
    comp = np.float32 if dtype == "complex64" else np.float64
    return np.array(complex(comp(z.real), comp(z.imag)), dtype=dtype)[()]


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
    out = []
    for v in EDGES[dtype]:
        x = np.array(v, dtype=dtype)[()]
        t = fmt(x, dtype)
        back = parse(t, dtype)
        assert same_bits(back, x), (dtype, v, t, back)
        assert fmt(back, dtype) == t, (dtype, t)
        if t not in out:
            out.append(t)
    return out


# ---------------------------------------------------------------------------------------------

def run(op, arrays):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if op == "sum":
                r = np.sum(arrays[0])
            else:
                r = UFUNC[op](arrays[0], arrays[1])
        except Exception as e:  # noqa: BLE001
            kind = fw_numpy.classify(e, types.SimpleNamespace(operands=()))
            assert kind.startswith("!"), (op, kind)
            return {"error": kind[1:]}
    r = np.asarray(r)
    name = r.dtype.name
    assert name in DTYPES, (op, name)
    return {"dtype": name, "weak": False, "data": [fmt(x, name) for x in r.reshape(-1)]}


def query(op, operands):
    q = {"op": op, "operands": [{"dtype": d, "data": data} for d, data in operands]}
    arrays = [np.array([parse(t, d) for t in data], dtype=d) for d, data in operands]
    return {"q": q, "a": run(op, arrays)}


def records():
    texts = {d: edge_texts(d) for d in DTYPES}
    for d in DTYPES:
        yield query("sum", [(d, texts[d])])
    for op in OPS:
        for a in DTYPES:
            for b in DTYPES:
                A = [x for x in texts[a] for _ in texts[b]]
                B = [y for _ in texts[a] for y in texts[b]]
                rec = query(op, [(a, A), (b, B)])
                yield rec
                if op == "power" and rec["a"].get("error") == "unsupported" and KIND[b] == "i":
                    # the negative exponents made the whole call fail: record the rest too
                    keep = [k for k, y in enumerate(B) if int(y) >= 0]
                    yield query(op, [(a, [A[k] for k in keep]), (b, [B[k] for k in keep])])


def check(path):
    """Re-read a recording: every text (inputs and results) parses back to a value that formats
    to the same text, and recomputing each query from its texts gives the recorded answer."""
    n = 0
    with gzip.open(path, "rt") as f:
        for line in f:
            rec = json.loads(line)
            q, ans = rec["q"], rec["a"]
            ops = [(o["dtype"], o["data"]) for o in q["operands"]]
            for d, data in ops + ([(ans["dtype"], ans["data"])] if "dtype" in ans else []):
                for t in data:
                    assert fmt(parse(t, d), d) == t, (d, t)
            assert query(q["op"], ops) == rec, q
            n += 1
    print(f"checked {n} queries in {path}: texts round-trip, answers reproduce")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "fixtures", "eval", "numpy.jsonl.gz"))
    ap.add_argument("--check", action="store_true", help="verify an existing recording")
    a = ap.parse_args()
    assert np.__version__ == "2.4.6", np.__version__
    if a.check:
        check(a.out)
        return
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    n = 0
    tmp = a.out + ".tmp"
    with gzip.open(tmp, "wt", compresslevel=9) as f:
        for rec in records():
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            n += 1
    os.replace(tmp, a.out)
    print(f"wrote {n} queries to {a.out} ({os.path.getsize(a.out)} bytes)")


if __name__ == "__main__":
    main()
