"""Record the order each framework reduces and scans in, over many lengths:
tests/fixtures/eval-order/NAME.jsonl.gz, replayed bit for bit by tests/kernel_ops_values.rs
(`orders_replay_*`). The grid of record_values_ops.py has two lengths (the edge values and 200
seeded values); an order that cuts an array into windows, rows or packets shows itself only over
many, so this records `sum`, `prod`, `mean`, `cumsum`, `cumprod` of 1-d float arrays of every
length in 1..80 and 100, 127..129, 200, 255..257, 1000 (seeded values whose sums lose bits:
magnitudes spread over 10^-2..10^2; products near 1).

    nice -n 19 /work/venvs/jax/bin/python tools/oracle/record_reduce_orders.py jax x32
    nice -n 19 /work/venvs/jax/bin/python tools/oracle/record_reduce_orders.py jax x64
    nice -n 19 /work/venvs/tf/bin/python  tools/oracle/record_reduce_orders.py tf off

Line 1 is a header as record_values_ops_fw.py writes it; then records in its format
({"op", "in", "shape", "axis", "dtype", "compute", "a"}), answered in process by its `Backend`.
"""
from __future__ import annotations

import gzip
import json
import os
import platform
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import values  # noqa: E402
from record_values_ops_fw import FIXTURE, Backend  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
LENGTHS = list(range(1, 81)) + [100, 127, 128, 129, 200, 255, 256, 257, 1000]
DTYPES = {"x32": ["float16", "float32", "complex64"], "x64": ["float32", "float64", "complex128"],
          "off": ["float16", "float32", "float64", "complex64", "complex128"]}


def inputs(np, dtype, n, rng, kind):
    """`n` seeded values of `dtype`: spread magnitudes for sums, values near 1 for products."""
    if kind == "sum":
        x = rng.standard_normal(n) * 10.0 ** rng.uniform(-2, 2, n)
        if dtype.startswith("complex"):
            x = x + 1j * rng.standard_normal(n) * 10.0 ** rng.uniform(-2, 2, n)
    else:
        x = 1 + 0.2 * rng.standard_normal(n)
        if dtype.startswith("complex"):
            x = x + 0.2j * rng.standard_normal(n)
    if dtype == "float16":
        x = x / 100 if kind == "sum" else x
    return np.asarray(x).astype(dtype)


def main():
    fw, mode = sys.argv[1], sys.argv[2]
    import numpy as np

    b = Backend(fw, mode)
    rng = np.random.default_rng(16)
    name = FIXTURE[(fw, mode)]
    path = os.path.join(ROOT, "tests", "fixtures", "eval-order", f"{name}.jsonl.gz")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    header = {"framework": b.version, "mode": mode, "policy": name,
              "python": platform.python_version(), "machine": platform.machine(),
              "recorded": time.strftime("%Y-%m-%d")}
    count = 0
    with gzip.open(path, "wt") as f:
        f.write(json.dumps(header) + "\n")
        for dtype in DTYPES[mode]:
            for n in LENGTHS:
                for kind, ops in (("sum", ("sum", "mean", "cumsum")), ("prod", ("prod", "cumprod"))):
                    x = inputs(np, dtype, n, rng, kind)
                    texts = values.texts_of(x, dtype)
                    for op in ops:
                        q = {"op": op, "in": [(dtype, texts)], "shape": None, "axis": None,
                             "dtype": None}
                        a, compute = b.answer(q)
                        rec = {"op": op, "in": [{"dtype": dtype, "data": texts}], "shape": None,
                               "axis": None, "dtype": None, "compute": compute, "a": a}
                        f.write(json.dumps(rec) + "\n")
                        count += 1
    print(f"{path}: {count} records", file=sys.stderr)


if __name__ == "__main__":
    main()
