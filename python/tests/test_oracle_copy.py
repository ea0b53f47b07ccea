"""The package's recording scripts are copies of tools/oracle: they must not drift."""
from __future__ import annotations

import filecmp
import os

import pytest

from conftest import ROOT, need_repo
from promote import _oracle


def copies():
    return sorted(f for f in os.listdir(_oracle.HERE) if f.endswith(".py") and f != "__init__.py")


@pytest.mark.parametrize("name", copies())
def test_copy_is_identical(name):
    need_repo()
    original = os.path.join(ROOT, "tools", "oracle", name)
    assert os.path.exists(original), f"{name} is no longer in tools/oracle: remove the copy"
    assert filecmp.cmp(original, os.path.join(_oracle.HERE, name), shallow=False), (
        f"python/promote/_oracle/{name} differs from tools/oracle/{name}: "
        f"cp tools/oracle/{name} python/promote/_oracle/")


def test_every_adapter_is_copied():
    need_repo()
    adapters = {f for f in os.listdir(os.path.join(ROOT, "tools", "oracle"))
                if f.startswith("fw_") and f.endswith(".py") and f != "fw_selftest.py"}
    assert adapters <= set(copies())
