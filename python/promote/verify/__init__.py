"""Record the *installed* framework and report every cell where it and a policy disagree
(the code is in :mod:`promote._verify`).

    python -m promote.verify numpy                 # a sample of 2000 cells
    python -m promote.verify torch --cases 5000
    python -m promote.verify numpy --all           # every cell of the policy's case list

This module is callable: ``promote.verify("numpy")`` works whether ``promote.verify`` names
the function or, after ``import promote.verify``, this module.
"""
from __future__ import annotations

import sys
import types
from typing import Any

from .._verify import Disagreement, Report, case_list, installed_version, main, recordable, verify

__all__ = ["Disagreement", "Report", "case_list", "installed_version", "main", "recordable", "verify"]


class _CallableModule(types.ModuleType):
    def __call__(self, *args: Any, **kwargs: Any) -> Report:
        return verify(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
