"""Record NumPy's values for the kernel layer: tests/fixtures/eval/numpy.jsonl.gz.

    /work/venvs/numpy/bin/python tools/oracle/record_values.py [--out PATH] [--check]

One JSON object per line, {"q": QUERY, "a": ANSWER}: QUERY is a `promote eval` query of
shared/spec/query-format.md (two operands {"dtype": D, "data": [...]}, values as text), ANSWER is
{"dtype": R, "weak": false, "data": [...]} or {"error": KIND}.

For every ordered pair of NumPy's 14 dtypes and every binary op of the spec (not matmul), the
operands hold the cross product of the two dtypes' edge values (values.EDGES), so element k is
(A[i], B[j]). `sum` is recorded once per dtype over that dtype's edge values (the answer is a 0-d
result: data of length 1). Integer `power` whose exponents include negative values raises
ValueError in NumPy for the whole call -> {"error": "value"} (the spec's error for refused
values); such a query is followed by a second one with the negative exponents left out, so the values are recorded too.

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
import os
import sys
import types
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fw_numpy  # noqa: E402  (classify: the same error kinds as the resolve recordings)

import values  # noqa: E402  (the edge values and the text format, shared by every value recorder)
from values import EDGES, OPS, fmt, parse, same_bits  # noqa: E402,F401

ROOT = os.path.dirname(os.path.dirname(HERE))
DTYPES = [d for d in values.DTYPES if d != "bfloat16"]  # NumPy has no bfloat16
UFUNC = {op: getattr(np, op) for op in OPS}
KIND = values.KIND
edge_texts = values.edge_texts


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
            if any(m in str(e) for m in values.VALUE_MESSAGES):
                return {"error": "value"}  # the values, not the dtypes, are refused
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
                if op == "power" and rec["a"].get("error") == "value" and KIND[b] == "i":
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
