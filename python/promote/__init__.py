"""How every major tensor framework promotes dtypes, as data: PyTorch, JAX, NumPy,
TensorFlow, Paddle, OneFlow and the Array API.

>>> import numpy as np, promote
>>> promote.policy("torch").result_type(np.int8, 1.0)
dtype('float32')
>>> plan = promote.policy("jax").resolve("add", np.int8, 1.0)
>>> plan.result, plan.weak
(dtype('float32'), True)
>>> promote.policy("torch", autocast="torch-cpu-bf16").resolve("matmul", "float32", "float32").token
'bfloat16'
>>> promote.policy("numpy").resolve("add", "uint8", 300)
Traceback (most recent call last):
...
promote._errors.Overflow: numpy: Python int 300 does not fit uint8 in add; pass it as an array with an explicit dtype, or cast the other operand to a wider dtype
"""
from __future__ import annotations

from typing import Any

from ._errors import InvalidCall, NoPromotion, Overflow, PromoteError, Unsupported, ValueRefused
from ._promote import OPS, Plan, Policy, autocasts, policies, policy, weak
from ._promote import _diff, _table

__all__ = [
    "OPS", "Plan", "Policy", "autocasts", "policies", "policy", "weak", "diff", "table", "verify",
    "PromoteError", "NoPromotion", "Overflow", "Unsupported", "ValueRefused", "InvalidCall",
]
__version__ = "0.1.0"


def _pandas():
    try:
        import pandas
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("frame=True needs pandas: pip install pandas") from e
    return pandas


def diff(a: str | Policy, b: str | Policy, op: str = "add", *, ignore_weak: bool = False,
         frame: bool = False) -> Any:
    """Every cell where two policies disagree (``promote diff``), as plain data.

    ``op`` is an op, several separated by commas, or ``"all"``. The result is a dict:
    ``cells`` and ``differ`` (counts), and ``groups``, one per op and operand kinds, each with
    its ``diffs`` (``{"call", "a", "b"}``, answers as tokens). ``frame=True`` returns the
    differing cells as a pandas DataFrame instead.

    >>> import promote
    >>> d = promote.diff("torch", "jax")
    >>> d["differ"] > 0
    True
    >>> cell = next(c for g in d["groups"] for c in g["diffs"] if c["call"] == "add int8 1.0")
    >>> cell
    {'a': 'float32', 'b': '~float32', 'call': 'add int8 1.0'}
    """
    report = _diff(a, b, op, ignore_weak)
    if not frame:
        return report
    rows = [{"op": g["op"], "operands": g["operands"], "call": c["call"], report["a"]: c["a"],
             report["b"]: c["b"]} for g in report["groups"] for c in g["diffs"]]
    return _pandas().DataFrame(rows, columns=["op", "operands", "call", report["a"], report["b"]])


def table(policy: str | Policy, op: str = "add", *, with_: str = "tensors", style: str = "full",
          literals: list[str] | None = None, mark: str | Policy | None = None,
          frame: bool = False) -> Any:
    """A policy's result table (``promote table``), as plain data.

    ``op`` an op, or ``"promote"`` for the promotion alone; ``with_`` what the columns are:
    ``tensors``, ``scalars`` (the Python ``literals``), ``zero-dim``, ``weak`` or ``nodes``.
    The result is a dict with ``rows``, ``cols`` (labels), ``row_operands``/``col_operands``
    (the compact syntax) and ``cells`` (each ``{"text", "dtype", "weak"}`` or
    ``{"text", "error"}``). ``frame=True`` returns the cell texts as a pandas DataFrame.

    >>> import promote
    >>> t = promote.table("torch")
    >>> t["cells"][t["rows"].index("int8")][t["cols"].index("uint8")]
    {'dtype': 'int16', 'text': 'int16', 'weak': False}
    >>> promote.table("paddle", with_="scalars", literals=["1", "1.0"])["cols"]
    ['1', '1.0']
    """
    g = _table(policy, op, with_, style, literals, mark)
    if not frame:
        return g
    return _pandas().DataFrame([[c["text"] for c in row] for row in g["cells"]],
                               index=g["rows"], columns=g["cols"])


# ``promote.verify`` is the function (its module, promote/verify, is callable too); ``python -m
# promote.verify`` runs promote/verify/__main__.py.
from ._verify import verify  # noqa: E402
