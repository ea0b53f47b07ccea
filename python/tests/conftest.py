"""Shared helpers: the repository's fixtures, and the operand objects of a compact-syntax call."""
from __future__ import annotations

import gzip
import os
import re

import pytest

import promote

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(ROOT, "tests", "fixtures")
LITERAL_NAMES = {"inf": float("inf"), "nan": float("nan")}
_ZERO_DIM = re.compile(r"^([a-z0-9]+)\((.*)\)$")


def need_repo():
    if not os.path.isdir(FIXTURES):
        pytest.skip(f"the repository's fixtures are not at {FIXTURES} (tests run from a checkout)")


def resolve_lines(policy: str):
    """(call, answer) of every cell of a policy's recording."""
    with gzip.open(os.path.join(FIXTURES, "resolve", policy + ".txt.gz"), "rt") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            call, _, answer = line.rstrip("\n").rpartition(" : ")
            yield call, answer


def python_operand(tok: str):
    """A compact-syntax operand as what a Python user passes: a Python scalar for a literal,
    ``promote.weak(...)`` for a weak tensor, a dtype name for a tensor, and the compact text for
    a 0-d tensor of a given value (no array library needed for bfloat16)."""
    if tok.startswith("~"):
        m = _ZERO_DIM.match(tok[1:])
        if m:
            return promote.weak(m.group(1), value=_literal(m.group(2)) if m.group(2) else 1)
        return promote.weak(tok[1:])
    if tok[0].isalpha() and tok not in ("True", "False", "inf", "nan"):
        return tok
    return _literal(tok)


def _literal(text: str):
    return eval(text, {"__builtins__": {}}, LITERAL_NAMES)  # noqa: S307 - the fixtures' repr texts


def call_args(call: str):
    """(op, operands, out) of a compact-syntax call."""
    toks = call.split()
    out = None
    if toks[-1].startswith("out="):
        out = toks.pop()[4:]
    return toks[0], [python_operand(t) for t in toks[1:]], out


def has(module: str) -> bool:
    try:
        __import__(module)
        return True
    except ImportError:
        return False
