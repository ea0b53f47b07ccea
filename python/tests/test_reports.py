"""promote.diff and promote.table: the CLI's reports as plain data (DataFrames with pandas)."""
from __future__ import annotations

import json
import os
import subprocess

import pytest

import promote
from conftest import ROOT, has


def test_diff_is_the_cli_report():
    d = promote.diff("torch", "jax", op="add,divide")
    assert d["a"] == "torch" and d["b"] == "jax"
    assert d["differ"] == sum(g["differ"] for g in d["groups"]) > 0
    assert {g["op"] for g in d["groups"]} == {"add", "divide"}
    binary = os.path.join(ROOT, "target", "release", "promote")
    if os.path.exists(binary):
        out = subprocess.run([binary, "diff", "torch", "jax", "--op", "add,divide", "--format", "json"],
                             capture_output=True, text=True).stdout
        assert json.loads(out) == d
    same = promote.diff("torch", promote.policy("torch"))
    assert same["differ"] == 0


def test_table_cells():
    t = promote.table("jax", op="promote", with_="nodes", style="jax")
    assert "i*" in t["rows"] and len(t["cells"]) == len(t["rows"])
    m = promote.table("tf-all", mark="tf-safe")
    assert "mark" in m
    with pytest.raises(promote.InvalidCall, match="is not one of"):
        promote.table("torch", with_="sideways")


@pytest.mark.skipif(not has("pandas"), reason="pandas is not installed: frame=True is not exercised")
def test_frames():
    t = promote.table("torch", frame=True)
    assert t.loc["int8", "uint8"] == "int16"
    d = promote.diff("torch", "jax", frame=True)
    assert list(d.columns) == ["op", "operands", "call", "torch", "jax"] and len(d) > 0
