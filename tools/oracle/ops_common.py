"""Worker-side helpers shared by the issue-12 adapters (fw_ops_*.py).

Every fw_ops_<fw>.py has a table NAMES: op -> candidate attribute paths of the framework's function
("math.negative", "neg", ...).  `resolve` returns the first path that exists, or the
AttributeError raised for the first candidate -- that message is the evidence for `!unsupported`.

An adapter's answer(cell) returns `TOKEN` or `TOKEN<TAB>detail` (detail: the exception type and
first line of the message, or the function used); record_ops.py writes TOKEN into the fixture
and the distinct details into the op log (tools/oracle/notes/ops-logs/).
"""
from __future__ import annotations

import operator
import os
import re

from ops_cases import OPERATOR_OPS
from ops_cases import REDUCTIONS as ALL_REDUCTIONS

# the Python operator of ops that have one (record_ops.py --operator records them)
OPERATOR_FORMS = {
    "negative": operator.neg, "positive": operator.pos, "absolute": abs,
    "bitwise_invert": operator.invert, "left_shift": operator.lshift,
    "right_shift": operator.rshift, "divmod": divmod, "round": round,
}
assert set(OPERATOR_FORMS) == set(OPERATOR_OPS)


def resolve(roots, paths):
    """(function, path) for the first of `paths` (dotted, relative to the root modules `roots`,
    {prefix: module}) that exists; (None, 'AttributeError: ...') if none does."""
    first_err = None
    for p in paths:
        prefix, _, rest = p.partition(":")
        obj = roots[prefix]
        try:
            for part in rest.split("."):
                obj = getattr(obj, part)
            return obj, p
        except AttributeError as e:
            if first_err is None:
                first_err = f"AttributeError: {e}"
    return None, first_err


def one_line(e, n=300):
    s = str(e).replace("\n", " ").replace("\t", " ")
    return f"{type(e).__name__}: {s[:n]}"


def classify_rules(e, rules):
    """First matching (exception type name or '*', message regex, answer) of `rules`, or None.
    The type matches the exception's class or any of its bases by name."""
    names = {c.__name__ for c in type(e).__mro__}
    msg = str(e)
    for tn, rx, ans in rules:
        if (tn == "*" or tn in names) and re.search(rx, msg):
            return ans
    return None


class Unsupported(Exception):
    """The framework has no function for the op (the AttributeError of resolve())."""


def _flatten(r):
    return r if isinstance(r, tuple) else (r,)


def answer(cell, fw, cache={}):
    """The answer line for one cell: `TOKEN` or `TOKEN<TAB>detail`.

    fw: the adapter module, with NAMES, ROOTS, make(operand), call(op, fn, args, cell),
    token(result, cell) and classify(exception, cell) -> answer token or None."""
    key = (id(fw), cell.op)
    if key not in cache:
        cache[key] = resolve(fw.ROOTS, fw.NAMES.get(cell.op, []) or [f"{next(iter(fw.ROOTS))}:{cell.op}"])
    fn, path = cache[key]
    if cell.form is None and os.environ.get("PROMOTE_OPERATOR_FORM") == "1" and cell.op in OPERATOR_FORMS:
        # record_ops.py --compare-env PROMOTE_OPERATOR_FORM=1: the Python operator instead
        fn, path = OPERATOR_FORMS[cell.op], "operator"
    if fn is None:
        return f"!unsupported\t{path}"
    try:
        args = [fw.make(o) for o in cell.operands]
        r = fw.call(cell.op, fn, args, cell)
        return ",".join(fw.token(x, cell) for x in _flatten(r))
    except Exception as e:  # noqa: BLE001 -- the framework's answer, classified by type and message
        k = fw.classify(e, cell)
        if k is None and path == "operator" and isinstance(e, (TypeError, AttributeError)):
            # the type defines no such operator for these operands (`round(array)`: no
            # __round__; `t << 1` without __lshift__): the op is not there for them
            k = "!unsupported"
        if k is None:
            return "?" + one_line(e)
        return f"{k}\t{one_line(e)}"


def python_scalar_token(r):
    """`=int` etc. for a result that is a plain Python scalar (the function made no array)."""
    if type(r) in (bool, int, float, complex):  # exactly: np.float64 subclasses float
        return "=" + type(r).__name__
    return None
