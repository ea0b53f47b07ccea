"""PaddlePaddle 3.3.1 (`paddle`): the issue-10 recordings as rules (reduced grid).

    python3 tools/oracle/analyze_forms_paddle.py [--show N]

* function form: the operator's answer (tests/fixtures/resolve/paddle.txt.gz), except that the
  paddle.* functions take tensors only: a Python scalar operand is refused (TypeError "y must
  be tensor type" / "(InvalidArgument) ... must be Tensor"), where the operators
  (Tensor.__add__ etc., python/paddle/base/dygraph/math_op_patch.py) wrap it first -- except
  a scalar second argument of paddle.equal / floor_divide / remainder / pow (SCALAR_Y).
* concat / stack do not promote: one dtype, or !no_promotion.
* paddle has no result_type / promote_types / can_cast at the top level: !unsupported.
"""
from __future__ import annotations

import analyze_forms

NAMES = ["paddle"]
# functions whose second argument may be a Python scalar (it is made a tensor of x's dtype)
SCALAR_Y = {"equal", "floor_divide", "remainder", "power"}


def predictor(name):
    base = analyze_forms.Base(name)

    def predict(cell):
        op = cell.op
        if op in ("result_type", "promote_types", "can_cast"):
            return "!unsupported"
        if cell.form == "function" and cell.dtype:
            return "!unsupported"
        if cell.form == "function" and op in analyze_forms.OP_CLASS:
            a, b = cell.operands + (None,) * (2 - len(cell.operands))
            if a.kind == "literal" or (b is not None and b.kind == "literal"
                                       and op not in SCALAR_Y):
                return "!unsupported"
            return base.of(cell)
        if op in ("concatenate", "stack"):
            if any(o.kind == "literal" for o in cell.operands) or (
                    op == "concatenate" and any(o.kind == "zerodim" for o in cell.operands)):
                return "!unsupported"
            dts = {o.dtype for o in cell.operands}
            # concat/stack do not promote: "The data_type of input tensor in list isn't consistent"
            return dts.pop() if len(dts) == 1 else "!no_promotion"
        return None
    return predict


def quirks(name):
    return []


if __name__ == "__main__":
    analyze_forms.main(NAMES, predictor, quirks)
