"""Record PyTorch's values for the kernel layer: tests/fixtures/eval/torch.jsonl.gz.

    /work/venvs/torch/bin/python tools/oracle/record_values_torch.py [--out PATH] [--check]

The same layout as record_values.py (NumPy's): one JSON object per line, {"q": QUERY, "a": ANSWER},
QUERY a `promote eval` query with two operands {"dtype": D, "data": [...]}, ANSWER
{"dtype": R, "weak": false, "data": [...]} or {"error": KIND} (KIND as fw_torch.classify gives it).
All 15 dtypes (bfloat16 and uint16/32/64 included), every binary op of the spec except matmul, on
the cross product of the two dtypes' edge values (values.EDGES, shared by every value recorder),
and `sum` once per dtype. Each binary op is its torch function on two 1-d tensors
(torch.add, torch.sub, torch.mul, torch.div, torch.floor_divide, torch.remainder, torch.pow,
torch.maximum, ..., torch.bitwise_xor); sum is Tensor.sum(). One thread (torch.set_num_threads(1)).

When an integer floor_divide/remainder fails on the whole call because a divisor is 0
(RuntimeError "ZeroDivisionError": the spec's `value` error), a second query follows with those elements left out, so that
the other values are recorded too.

Values as text, as in record_values.py (ints in full, True/False, shortest round-trip text at the
dtype's precision laid out like Python's repr, complex like Python's repr). bfloat16 values are
read by rounding the text's float64 value to bfloat16 once (to nearest even; PyTorch's own
double -> bfloat16 goes through float32), and written as the shortest text that reads back so.
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
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fw_torch  # noqa: E402
import record_values as rv  # noqa: E402  (the edge values and the text format of NumPy's recording)

ROOT = os.path.dirname(os.path.dirname(HERE))
DTYPES = rv.values.DTYPES
OPS = rv.OPS
FN = {op: fw_torch.FUNCTION[op] for op in OPS}
TD = {name: fw_torch.DTYPES[name] for name in DTYPES}
KIND = rv.values.KIND
fmt = rv.values.fmt
parse_one = rv.values.parse
edge_texts = rv.values.edge_texts
is_zero = rv.values.is_zero


def tensor(texts, dtype):
    if dtype == "bfloat16":
        bits = np.array([parse_one(t, dtype) for t in texts], dtype=np.uint16)
        return torch.from_numpy(bits.view(np.int16).copy()).view(torch.bfloat16)
    arr = np.array([parse_one(t, dtype) for t in texts], dtype=dtype)
    return torch.from_numpy(arr.copy())


def texts_of(t: torch.Tensor):
    name = fw_torch.NAMES[t.dtype]
    t = t.reshape(-1)
    if name == "bfloat16":
        bits = t.view(torch.int16).numpy().view(np.uint16)
        return name, [fmt(int(b), name) for b in bits]
    if name in ("uint16", "uint32", "uint64"):
        # torch.Tensor.numpy() supports them; keep the exact integers
        return name, [str(int(x)) for x in t.tolist()]
    arr = t.numpy()
    return name, [fmt(x, name) for x in arr]



# ---------------------------------------------------------------------------------------------

def run(op, tensors):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = tensors[0].sum() if op == "sum" else FN[op](tensors[0], tensors[1])
        except Exception as e:  # noqa: BLE001
            if any(m in str(e) for m in rv.values.VALUE_MESSAGES):
                return {"error": "value"}  # the values, not the dtypes, are refused
            kind = fw_torch.classify(e)
            assert kind.startswith("!"), (op, [t.dtype for t in tensors], kind)
            return {"error": kind[1:]}
    if r.dtype not in fw_torch.NAMES:
        return {"error": "unsupported"}
    name, data = texts_of(r)
    return {"dtype": name, "weak": False, "data": data}


def query(op, operands):
    q = {"op": op, "operands": [{"dtype": d, "data": data} for d, data in operands]}
    return {"q": q, "a": run(op, [tensor(data, d) for d, data in operands])}



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
                if op in ("floor_divide", "remainder") and rec["a"].get("error") == "value" \
                        and any(is_zero(y, b) for y in B):
                    keep = [k for k, y in enumerate(B) if not is_zero(y, b)]
                    yield query(op, [(a, [A[k] for k in keep]), (b, [B[k] for k in keep])])


def check(path):
    n = 0
    with gzip.open(path, "rt") as f:
        for line in f:
            rec = json.loads(line)
            q = rec["q"]
            ops = [(o["dtype"], o["data"]) for o in q["operands"]]
            assert query(q["op"], ops) == rec, q
            n += 1
    print(f"checked {n} queries in {path}: answers reproduce")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "fixtures", "eval", "torch.jsonl.gz"))
    ap.add_argument("--check", action="store_true", help="verify an existing recording")
    a = ap.parse_args()
    assert torch.__version__.split("+")[0] == "2.15.0", torch.__version__
    torch.set_num_threads(1)
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
