"""The recording scripts of ``tools/oracle`` (the adapters, the worker, the harness, the case
list), so that an installed package can record the installed framework.

In the repository they are symlinks to ``tools/oracle`` (one copy of each script); maturin
follows them, so the wheel carries the files themselves. ``tests/test_oracle_copy.py`` checks
that the installed files are byte for byte those of ``tools/oracle``.

The scripts import each other by top-level name (``import syntax``), as in the worker process;
:func:`load` imports them that way without leaving those names in ``sys.modules``.
"""
from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType

HERE = os.path.dirname(os.path.abspath(__file__))
_LOADED: dict[str, ModuleType] = {}


def load(name: str) -> ModuleType:
    """One of the scripts (``cases``, ``harness``, ``record``, ``syntax``) as a module."""
    if name in _LOADED:
        return _LOADED[name]
    saved = {n: sys.modules.get(n) for n in ("syntax", "cases", "harness", "record")}
    try:
        for dep in ("syntax", "cases", "harness", "record"):
            if dep in _LOADED:
                sys.modules[dep] = _LOADED[dep]
            else:
                spec = importlib.util.spec_from_file_location(
                    f"promote._oracle.{dep}", os.path.join(HERE, dep + ".py"))
                assert spec is not None and spec.loader is not None
                mod = importlib.util.module_from_spec(spec)
                sys.modules[dep] = sys.modules[spec.name] = mod
                spec.loader.exec_module(mod)
                _LOADED[dep] = mod
            if dep == name:
                break
    finally:
        for n, m in saved.items():
            if m is None:
                sys.modules.pop(n, None)
            else:
                sys.modules[n] = m
    return _LOADED[name]
