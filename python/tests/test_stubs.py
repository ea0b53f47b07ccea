"""The type stubs match the compiled module (mypy's stubtest), and the package type-checks."""
from __future__ import annotations

import subprocess
import sys

import pytest

from conftest import has


@pytest.fixture(autouse=True)
def need_mypy():
    if not has("mypy"):
        pytest.skip("mypy is not installed: the stubs are not checked here")


def test_stubtest():
    r = subprocess.run([sys.executable, "-m", "mypy.stubtest", "promote._promote"],
                       capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stdout + r.stderr


def test_package_type_checks():
    # the package's own modules, as installed (the _oracle copies are the recording scripts')
    mods = ["promote", "promote._errors", "promote._verify", "promote.verify", "promote._oracle"]
    args = [a for m in mods for a in ("-m", m)]
    r = subprocess.run([sys.executable, "-m", "mypy", "--ignore-missing-imports", "--no-incremental",
                        *args], capture_output=True, text=True, cwd="/")
    assert r.returncode == 0, r.stdout + r.stderr
