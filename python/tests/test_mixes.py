"""Seeded random operand mixes of real NumPy objects and Python scalars: ``p.result_type``,
``p.resolve(...).result`` and the JSONL machine interface (in process, and the ``promote``
binary when it is built) give one answer for the same call."""
from __future__ import annotations

import json
import os
import random
import subprocess

import numpy as np
import pytest

import promote
from conftest import ROOT

NUMPY_DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
                "float16", "float32", "float64", "complex64", "complex128"]
LITERALS = [True, False, 0, 1, -1, 127, 128, 255, 256, 300, -129, 2**31, 2**63, 2**64, -2**63 - 1,
            10**30, 1.0, -0.0, 0.5, 65504.0, 70000.0, 3.4e38, 1e39, 1e300, float("inf"),
            float("nan"), 1j, 1 + 2j, complex(1e300, 0)]
VALUES = {"b": [True, False], "u": [0, 1, 255], "i": [-1, 1, 127, -128], "f": [1.0, 0.5, -2.0, 65504.0],
          "c": [1j, 1 + 2j]}
N = 3000


def random_operand(rng: random.Random):
    """(a Python object, its operand in the spec's JSON)."""
    kind = rng.choice(["array", "array", "zero_dim", "scalar", "type", "dtype", "literal", "literal"])
    d = rng.choice(NUMPY_DTYPES)
    dt = np.dtype(d)
    if kind == "literal":
        v = rng.choice(LITERALS)
        k = type(v).__name__
        text = repr(v)
        return v, {"scalar": k, "value": text}
    if kind in ("type", "dtype", "array"):
        obj = {"type": dt.type, "dtype": dt, "array": np.ones(rng.choice([1, 3]), dt)}[kind]
        return obj, {"dtype": d}
    v = rng.choice([x for x in VALUES[dt.kind]])
    arr = np.array(v, dtype=dt)
    obj = arr if kind == "zero_dim" else arr[()]
    value = arr.item()
    return obj, {"dtype": d, "ndim": 0, "value": repr(value)}


def calls(seed: int):
    rng = random.Random(seed)
    ops = [o for o in promote.OPS if o != "matmul"]
    for _ in range(N):
        op = rng.choice(ops)
        n = 1 if op == "sum" else 2
        pairs = [random_operand(rng) for _ in range(n)]
        if all("scalar" in j for _, j in pairs):
            continue  # Python computes two Python scalars itself
        if op == "sum" and "scalar" in pairs[0][1]:
            continue
        yield op, [o for o, _ in pairs], {"op": op, "operands": [j for _, j in pairs]}


def answer(p, op, operands):
    try:
        r = p.result_type(*operands, op=op)
    except promote.PromoteError as e:
        r = e.token
    plan = p.resolve(op, *operands, errors="return")
    if isinstance(plan, promote.PromoteError):
        assert r == plan.token, (op, operands)
        return {"error": plan.kind}
    assert r == plan.result, (op, operands)
    if plan.verdict is not None:  # a yes/no op (can_cast): its answer is the value
        return {"dtype": str(plan.result), "weak": plan.weak, "value": str(plan.verdict)}
    return {"dtype": str(plan.result), "weak": plan.weak}


@pytest.mark.parametrize("name", ["torch", "numpy", "numpy1", "jax", "tf", "paddle", "array-api"])
def test_result_type_resolve_and_jsonl_agree(name):
    p = promote.policy(name)
    lines, mine = [], []
    for op, operands, q in calls(seed=sum(map(ord, name))):
        mine.append(answer(p, op, operands))
        lines.append(json.dumps(q))
    assert len(lines) > N // 2
    jsonl = [json.loads(p.query(line)) for line in lines]
    for line, m, j in zip(lines, mine, jsonl):
        j.pop("message", None)
        # an op of several results (divmod) also lists them all; result_type and the Plan's
        # result are the first, which is the answer's own dtype
        j.pop("results", None)
        assert m == j, line
    binary = os.path.join(ROOT, "target", "release", "promote")
    if os.path.exists(binary):  # the CLI, a separate process, same answers
        out = subprocess.run([binary, "resolve", "--policy", name], input="\n".join(lines) + "\n",
                             capture_output=True, text=True, check=False).stdout.splitlines()
        assert [json.loads(x) for x in out] == [json.loads(p.query(x)) for x in lines]
