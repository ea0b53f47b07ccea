"""Record np.result_type over every ordered triple of NumPy's 14 dtypes, and over the 4-operand
multisets in sorted order, into tests/fixtures/resolve-nary/POLICY.txt.gz (POLICY numpy or
numpy1; run with that policy's venv):

    /work/venvs/numpy/bin/python tools/oracle/record_nary_order.py numpy
    /work/venvs/numpy1/bin/python tools/oracle/record_nary_order.py numpy1

Why: the issue-10 grid of record_forms.py holds 20 operands in its three-operand cells, none of
them uint16/uint32; NumPy's own test_permutations_do_not_influence_result names
(uint16, int8, float16) -> float32 in every order, which folding pairs in call order does not give
(uint16 + int8 = int32, + float16 = float64).  These cells pin the sequence rule
(PyArray_PromoteDTypeSequence: each dtype promoted with the first one of the highest kind, those
results joined) on every order.  Arrays only: the 0-d and Python-scalar orders are in
resolve-forms.  Replayed by tests/conformance_nary.rs.
"""
import datetime
import gzip
import itertools
import os
import platform
import sys

import numpy as np

NAMES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
         "float16", "float32", "float64", "complex64", "complex128"]


def answer(names):
    try:
        return np.result_type(*[np.dtype(n) for n in names]).name
    except TypeError:
        return "!no_promotion"


def main():
    policy = sys.argv[1]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = os.path.join(root, "tests", "fixtures", "resolve-nary", f"{policy}.txt.gz")
    lines = [f"# policy={policy} framework=numpy=={np.__version__} python={platform.python_version()} "
             f"recorded={datetime.date.today()} by tools/oracle/record_nary_order.py"]
    for t in itertools.product(NAMES, repeat=3):
        lines.append(f"result_type {' '.join(t)} : {answer(t)}")
    for t in itertools.combinations_with_replacement(NAMES, 4):
        lines.append(f"result_type {' '.join(t)} : {answer(t)}")
    with gzip.open(out, "wt") as f:
        f.write("\n".join(lines) + "\n")
    print(out, len(lines) - 1, "cells")


if __name__ == "__main__":
    main()
