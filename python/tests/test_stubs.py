"""The type stubs match the compiled module (mypy's stubtest), and the package type-checks."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import has

PKG = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def need_mypy():
    if not has("mypy"):
        pytest.skip("mypy is not installed: the stubs are not checked here")


def test_stubtest():
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "promote._promote"],
                       capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stdout + r.stderr


def test_package_type_checks():
    import promote
    pkg = os.path.dirname(promote.__file__)
    r = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-incremental",
                        "--exclude", "_oracle/", pkg], capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stdout + r.stderr
