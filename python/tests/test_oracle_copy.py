"""The package's recording scripts are tools/oracle's own (symlinks in python/promote/_oracle that
maturin follows): the installed wheel must carry them exactly as they are in the repository."""
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


def test_every_adapter_of_record_py_is_copied():
    # verify records what tools/oracle/record.py records: its POLICIES name the adapters
    need_repo()
    adapters = {f"fw_{spec[0]}.py" for spec in _oracle.load("record").POLICIES.values()}
    assert adapters <= set(copies())
