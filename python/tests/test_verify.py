"""``promote.verify``: the installed framework, recorded through the package's copies of the
tools/oracle adapters, against the policy. NumPy (installed with the package) on the full case
list; torch and jax where they are installed, else skipped with the reason."""
from __future__ import annotations

import subprocess
import sys

import pytest

import promote
from conftest import has


def installed_matches(package: str, policy: str) -> str | None:
    """Why the installed version cannot be expected to agree, or None."""
    from promote._verify import _spec, installed_version
    _, _, pin, _, _ = _spec(policy)
    want = pin.partition("==")[2]
    got = installed_version(package)
    return None if got == want else f"{package} {got} is installed, the {policy} policy records {want}"


def test_numpy_full_case_list_agrees():
    why = installed_matches("numpy", "numpy")
    if why:
        pytest.skip(why)
    r = promote.verify("numpy", cases="all")
    assert r.checked == r.total > 100_000
    assert r.ok and r.agreement == 1.0, str(r)[:3000]
    assert r.installed == r.recorded


@pytest.mark.parametrize("package, policy", [("torch", "torch"), ("jax", "jax")])
def test_other_frameworks_where_installed(package, policy):
    if not has(package):
        pytest.skip(f"{package} is not installed in this environment: its verify test does not run")
    why = installed_matches(package, policy)
    if why:
        pytest.skip(why)
    r = promote.verify(policy, cases="all")
    assert r.ok, str(r)[:3000]


def test_a_disagreement_is_reported_with_versions():
    # numpy1's policy against the NumPy 2 installed here: NEP 50 changed Python-int promotion
    r = promote.verify("numpy1", cases=3000, seed=1)
    if r.installed == r.recorded:
        pytest.skip("numpy 1.26.4 is installed: nothing to disagree with")
    assert not r.ok and r.disagreements
    text = str(r)
    assert f"installed numpy {r.installed}" in text and "recorded with numpy 1.26.4" in text
    d = r.disagreements[0]
    assert promote.policy("numpy1").token(d.call) == d.policy != d.framework


def test_command_line_sample():
    out = subprocess.run([sys.executable, "-m", "promote.verify", "numpy", "--cases", "300", "--json"],
                         capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr
    assert "RuntimeWarning" not in out.stderr, out.stderr
    import json
    r = json.loads(out.stdout)
    assert r["checked"] == 300 and r["package"] == "numpy"


def test_a_crash_costs_one_cell(tmp_path, monkeypatch):
    # a worker that dies on one cell: the harness restarts it and goes on
    from promote import _oracle
    harness, syntax = _oracle.load("harness"), _oracle.load("syntax")
    adapter = tmp_path / "fw_crashy.py"
    adapter.write_text("import os\n"
                       "def setup(mode): pass\n"
                       "def answer(cell):\n"
                       "    if cell.op == 'less': os._exit(3)\n"
                       "    return 'int8'\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    cells = [syntax.parse_cell(c) for c in ["add int8 int8", "less int8 int8", "add int8 int8"]]
    import os
    got = [a for _, a in harness.run(cells, sys.executable, "crashy", "x", timeout=20,
                                     env=dict(os.environ), progress=False)]
    assert got == ["int8", "X", "int8"]


def test_unknown_policy():
    with pytest.raises(ValueError, match="cannot record 'oneflow'"):
        promote.verify("oneflow")


def test_the_module_is_callable_too():
    import importlib
    mod = importlib.import_module("promote.verify")
    assert mod("numpy", cases=5).checked == 5
    assert promote.verify("numpy", cases=5).checked == 5
