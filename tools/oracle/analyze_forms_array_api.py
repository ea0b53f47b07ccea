"""array-api-strict 2.6.1 (`array-api`): the issue-10 recordings as rules.

    python3 tools/oracle/analyze_forms_array_api.py [--show N]

* function form: the operator's answer (tests/fixtures/resolve/array-api.txt.gz), except
  xp.matmul: array-api-strict's `@` (Array.__matmul__) checks the operands with the standard's
  promotion table (_array_object.py _promote_scalar / _result_type: no mixed kinds), while
  xp.matmul (linalg.py / _linear_algebra_functions.py matmul) only demands numeric dtypes and
  hands both arrays to np.matmul: NumPy's promotion (analyze_numpy.promote_types) between an
  integer and a floating or complex array.  xp.add(..., dtype=) does not exist: !unsupported.
* promote_types: not in the standard (AttributeError): !unsupported.
"""
from __future__ import annotations

import analyze_forms
import analyze_array_api as aa
from analyze_numpy import promote_types
from syntax import KIND

NAMES = ["array-api"]


def result_type(ops, scalars_ok=True):
    """xp.result_type: the standard's table over the arrays (refused across kinds), then each
    Python scalar as Array._promote_scalar takes it (an int outside the dtype: !overflow); no
    array at all: refused."""
    arrays = [o.dtype for o in ops if o.kind != "literal"]
    if not arrays or (not scalars_ok and len(arrays) < len(ops)):
        return "!unsupported"
    r = arrays[0]
    for d in arrays[1:]:
        r = aa.aa_promote(r, d)
        if r is None:
            return "!no_promotion"
    for o in ops:
        if o.kind == "literal":
            try:
                r = aa.promote_scalar(o.py, r)
            except aa.Err as e:
                return e.token
    return r


def predictor(name):
    base = analyze_forms.Base(name)

    def predict(cell):
        op = cell.op
        if cell.form == "function" and cell.dtype:
            return "!unsupported"
        if cell.form == "function" and op == "matmul":
            a, b = (o.dtype for o in cell.operands)
            if base.of(cell) == "!no_promotion" and "b" not in (KIND[a], KIND[b]):
                return promote_types(a, b)
            return base.of(cell)
        if cell.form == "function" and op in analyze_forms.OP_CLASS:
            return base.of(cell)
        if op == "promote_types":
            return "!unsupported"
        if op == "result_type":
            return result_type(cell.operands)
        if op in ("concatenate", "stack"):
            return result_type(cell.operands, scalars_ok=op == "stack")
        if op == "where":
            c = cell.operands[0]
            if c.kind == "literal" or c.dtype != "bool":
                return "!unsupported"  # `condition` must be a bool Array
            return result_type(cell.operands[1:])
        return None
    return predict


def quirks(name):
    return []


if __name__ == "__main__":
    analyze_forms.main(NAMES, predictor, quirks)
