"""Record PyTorch's values of matmul under CPU autocast: tests/fixtures/autocast/values-torch-cpu.jsonl.gz.

    /work/venvs/torch/bin/python tools/oracle/record_values_autocast.py

One JSON object per line, {"q": QUERY, "a": ANSWER} as in record_values_torch.py, QUERY a
`promote eval` query carrying "autocast": "torch-cpu-bf16" / "torch-cpu-f16".  Each query is a
1-d matmul (the dot product; ``a @ b`` inside ``torch.autocast("cpu", dtype=D)``, one thread) of two
vectors of length N in {1, 2, 3, 7, 8, 16, 31, 64, 100, 257, 1000, 4096}, drawn from a seeded normal
distribution (float32 and float64 inputs: float64 is left alone by autocast, so a float64 x float64
dot is recorded as the control), plus float32 x float32 with values that round differently in
bfloat16 and float16 (1 + 2**-9, 1 + 2**-12, 65504, 1e-8); and one float32 matmul with
``out=`` a float32 tensor (the out= overload is on no autocast list).  Values are written as
record_values_torch.py writes them.
"""
from __future__ import annotations

import gzip
import json
import os
import sys

import numpy as np
import torch

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import record_values_torch as rvt  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
LENGTHS = [1, 2, 3, 7, 8, 16, 31, 64, 100, 257, 1000, 4096]
SPECIAL = [1 + 2 ** -9, 1 + 2 ** -12, 65504.0, 1e-8, -3.0, 0.1]


def query(name, a, b):
    q = {"op": "matmul", "operands": [], "autocast": name}
    for t in (a, b):
        dt, texts = rvt.texts_of(t)
        q["operands"].append({"dtype": dt, "data": texts})
    return q


def main():
    torch.set_num_threads(1)
    rng = np.random.default_rng(14)
    rows = []
    for name, dtype in (("torch-cpu-bf16", torch.bfloat16), ("torch-cpu-f16", torch.float16)):
        cases = []
        for n in LENGTHS:
            for src in (torch.float32, torch.float64):
                a = torch.from_numpy(rng.standard_normal(n)).to(src)
                b = torch.from_numpy(rng.standard_normal(n)).to(src)
                cases.append((a, b))
        s = torch.tensor(SPECIAL, dtype=torch.float32)
        cases.append((s, torch.ones(len(SPECIAL), dtype=torch.float32)))
        cases.append((s, s))
        for a, b in cases:
            with torch.autocast("cpu", dtype=dtype):
                r = a @ b
            dt, texts = rvt.texts_of(r)
            rows.append({"q": query(name, a, b), "a": {"dtype": dt, "weak": False, "data": texts}})
        # the out= overload is on no list: it computes in float32, unrounded
        a = torch.tensor([1 + 2 ** -8, 3.0], dtype=torch.float32)
        b = torch.ones(2, dtype=torch.float32)
        with torch.autocast("cpu", dtype=dtype):
            r = torch.matmul(a, b, out=torch.empty((), dtype=torch.float32))
        q = query(name, a, b)
        q["out"] = "float32"
        dt, texts = rvt.texts_of(r)
        rows.append({"q": q, "a": {"dtype": dt, "weak": False, "data": texts}})
    path = os.path.join(ROOT, "tests", "fixtures", "autocast", "values-torch-cpu.jsonl.gz")
    with gzip.open(path, "wt", compresslevel=9) as f:
        for r in rows:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    print(f"wrote {path}: {len(rows)} queries")


if __name__ == "__main__":
    main()
