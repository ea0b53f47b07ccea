"""Mixed-precision autocast layers through the Python API (``promote.policy(name, autocast=...)``):
the recordings of real PyTorch/Paddle autocast (tests/fixtures/autocast/) replayed through
``Policy.resolve``, matmul values under CPU autocast through ``Policy.eval``, and the layer's
step at the head of every plan."""
from __future__ import annotations

import gzip
import json
import os
import random

import numpy as np
import pytest

import promote
from conftest import FIXTURES, call_args, has, need_repo

AUTOCAST_FIXTURES = os.path.join(FIXTURES, "autocast")


def recorded_cells(file: str):
    """(header, [(call, answer)]) of an autocast recording."""
    with gzip.open(os.path.join(AUTOCAST_FIXTURES, file), "rt") as f:
        lines = f.read().splitlines()
    cells = [line.rpartition(" : ")[::2] for line in lines if not line.startswith("#")]
    return lines[0], cells


def header_field(header: str, key: str) -> str:
    return next(w.split("=", 1)[1] for w in header.split() if w.startswith(key + "="))


@pytest.mark.parametrize("layer, file", [("torch-cpu-bf16", "torch-cpu-bf16.txt.gz"),
                                         ("torch-cpu-f16", "torch-cpu-f16.txt.gz"),
                                         # Paddle AMP is recorded to change nothing on CPU
                                         (None, "paddle-cpu-o1-f16.txt.gz"),
                                         (None, "paddle-cpu-o2-bf16.txt.gz")])
def test_recordings_replay_through_python(layer, file):
    need_repo()
    header, cells = recorded_cells(file)
    p = promote.policy(header_field(header, "base"), autocast=layer)
    assert p.autocast == layer
    # every cell of an op the engine names, and a sample's plans checked step by step
    named = [(c, a) for c, a in cells if c.split()[0] in promote.OPS and a != "X"]
    assert len(named) > 1000
    wrong = []
    for call, answer in named:
        op, operands, out = call_args(call)
        got = p.resolve(op, *operands, out=out, errors="return").token
        if got != answer:
            wrong.append((call, answer, got))
    assert not wrong, f"{len(wrong)} of {len(named)} cells differ, first: {wrong[:5]}"
    # the library's own answers (p.tokens) agree, cell for cell
    assert p.tokens([c for c, _ in named]) == [a for _, a in named]
    if layer is None:
        return
    for call, answer in random.Random(14).sample(named, 200):
        op, operands, out = call_args(call)
        plan = p.resolve(op, *operands, out=out, errors="return")
        if isinstance(plan, promote.PromoteError):
            continue
        assert plan.steps[0]["rule"] == "autocast", call
        assert f"of {layer}" in plan.steps[0]["detail"], call
        assert str(plan).splitlines()[0].endswith(f", autocast {layer} "
                                                   f"(torch.autocast(\"cpu\", dtype=torch.{'bfloat16' if 'bf16' in layer else 'float16'})).")


def test_matmul_values_under_cpu_autocast_bit_for_bit():
    """The recorded matmul values (tools/oracle/record_values_autocast.py) in bfloat16/float16,
    bit for bit, through Policy.eval; the dtype of every line through Policy.query."""
    need_repo()
    with gzip.open(os.path.join(AUTOCAST_FIXTURES, "values-torch-cpu.jsonl.gz"), "rt") as f:
        lines = [json.loads(line) for line in f]
    checked = 0
    for v in lines:
        q, want = v["q"], v["a"]
        # the query's own "autocast" key, through the plain policy
        assert json.loads(promote.policy("torch").query(json.dumps(q)))["dtype"] == want["dtype"]
        if want["dtype"] not in ("bfloat16", "float16") or q.get("out"):
            continue
        if want["dtype"] == "bfloat16" and not has("ml_dtypes"):
            continue
        p = promote.policy("torch", autocast=q["autocast"])
        arrays = [np.array([float(x) for x in o["data"]], dtype=o["dtype"]) for o in q["operands"]]
        got = p.eval(q["op"], *arrays)
        wanted = np.array([float(x) for x in want["data"]]).astype(got.dtype)
        assert got.dtype.name == want["dtype"]
        assert np.asarray(got).reshape(-1).tobytes() == wanted.tobytes(), (q, want, got)
        checked += 1
    assert checked >= 14 if not has("ml_dtypes") else checked >= 28


def test_every_method_honours_the_layer():
    torch = promote.policy("torch")
    f16 = promote.policy("torch", autocast="torch-cpu-f16")
    assert repr(f16).startswith("promote.policy('torch', autocast='torch-cpu-f16')")
    assert str(torch.result_type("float32", "float32", op="matmul")) == "float32"
    assert str(f16.result_type("float32", "float32", op="matmul")) == "float16"
    assert str(f16.result_type(np.float32, np.float32, op="matmul")) == "float16"  # no table shortcut
    assert f16.token("matmul float32 float32") == "float16"
    assert f16.tokens(["matmul float32 float32", "add float32 float32"]) == ["float16", "float32"]
    q = '{"op": "matmul", "operands": [{"dtype": "float32"}, {"dtype": "float32"}]}'
    assert json.loads(f16.query(q))["dtype"] == "float16"
    # the query's key overrides the policy's layer
    keyed = json.loads(q) | {"autocast": "torch-cpu-bf16"}
    assert json.loads(f16.query(json.dumps(keyed)))["dtype"] == "bfloat16"
    # a float64 operand is left alone by torch.autocast: matmul then refuses two dtypes
    assert f16.resolve("matmul", "float32", "float64", errors="return").token == "!no_promotion"
    # eval: the data is rounded to float16 first (1 + 2**-11 is a tie, to even: 1)
    a = np.array([1 + 2.0 ** -11, 3.0], np.float32)
    assert torch.eval("matmul", a, np.ones(2, np.float32)) == np.float32(4.00048828125)
    r = f16.eval("matmul", a, np.ones(2, np.float32))
    assert r.dtype == np.float16 and r == 4.0
    # a Python scalar is never cast; genesis casts every floating tensor to float32
    g = promote.policy("torch", autocast="genesis-f32")
    assert g.resolve("add", "float16", 1.5).token == "float32"
    assert g.resolve("add", "int8", "int8").token == "int8"


def test_bad_layers_are_invalid_with_a_hint(tmp_path):
    with pytest.raises(promote.InvalidCall, match="torch-cpu-bf16"):
        promote.policy("torch", autocast="torch-cpu-bf61")
    with pytest.raises(promote.PromoteError, match="autocast"):
        promote.policy("torch", autocast=str(tmp_path / "missing.toml"))
    q = '{"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8"}], "autocast": 3}'
    assert json.loads(promote.policy("torch").query(q))["error"] == "invalid"


def test_a_user_autocast_file(tmp_path):
    need_repo()
    from conftest import ROOT
    text = open(os.path.join(ROOT, "policies", "autocast", "genesis-f16.toml"), encoding="utf-8").read()
    mine = tmp_path / "mine.toml"
    mine.write_text(text.replace('name = "genesis-f16"', 'name = "mine"'))
    p = promote.policy("torch", autocast=str(mine))
    assert p.autocast == "mine"
    assert p.resolve("add", "float32", "float32").token == "float16"
    assert promote.autocasts() == ["torch-cpu-bf16", "torch-cpu-f16", "torch-cuda-f16", "torch-cuda-bf16",
                                   "paddle-o1-f16", "paddle-o1-bf16", "paddle-o2-f16", "paddle-o2-bf16",
                                   "genesis-f32", "genesis-f16"]
