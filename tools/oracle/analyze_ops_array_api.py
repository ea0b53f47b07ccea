"""The op rules of array-api-strict 2.6.1 (`array-api`, api_version 2024.12) for the ops of issue
12, checked against tests/fixtures/resolve-ops/array-api.txt.gz.  See notes/ops-array-api.md.

    python3 tools/oracle/analyze_ops_array_api.py [--show N]

The standard gives each function the dtype categories it accepts ("Only floating-point dtypes
are allowed in sqrt", array_api_strict/_elementwise_functions.py) and says results keep the
input dtype (no int-to-float); TABLE is each op's answer on same-dtype n-d arrays, as recorded.
Rules for the other cells:

* a 0-d array behaves as an n-d array of its dtype;
* a Python literal alone is refused: "Only Array objects are allowed; got <class 'int'>";
* two operands: the standard's promotion as recorded for `add` (tests/fixtures/resolve;
  mixed kinds are `!no_promotion` in array-api-strict), then TABLE at the promoted dtype;
* reductions: sum/prod/cumulative_* with dtype=D give D; without, TABLE (unsigned ->
  uint64, signed -> int64: the default integer dtypes); cumulative_prod of a 0-d array is
  refused (cumulative_sum takes it).
"""
from __future__ import annotations

import analyze_ops
from analyze_ops import parse_table

FLOATS = {"bfloat16", "float16", "float32", "float64"}
CPLX = {"complex64", "complex128"}


TABLE = {}
OP_CLASS = {}
exec(open(__file__.replace("analyze_ops_array_api.py", "ops_tables/array_api.py")).read())  # noqa: S102
T = parse_table(TABLE)
ABSENT = {"angle", "fmax", "fmin", "fmod", "float_power", "divmod", "heaviside"}  # not in the standard
for _op in T:
    OP_CLASS[_op] = "table"
for _op in ABSENT:
    OP_CLASS[_op] = "absent"


def predict_for(policy):
    def predict(cell, base):
        op, ops = cell.op, cell.operands
        if op in ABSENT:
            return "!unsupported"
        if len(ops) == 2:
            a, b = ops
            # each array operand must be of the function's dtype category first ("Only
            # floating-point dtypes are allowed in atan2"), then the standard's promotion
            # (which also decides a Python scalar operand: allowed since 2024.12)
            if any(o.kind != "literal" and T[op][o.dtype].startswith("!") for o in ops):
                return "!unsupported"
            if op in ("left_shift", "right_shift") and b.kind == "literal" and (
                    type(b.py) is complex or (type(b.py) is int and b.py < 0)):
                # "bitwise_left_shift(x1, x2) is only defined for x2 >= 0" (a complex x2 fails
                # that check's comparison): a value-level refusal
                return "!unsupported"
            # Paddle's binary promotion as recorded for paddle.maximum (type_promotion.h)
            r = base("add", a, b)
            if r is None or r.startswith("!"):
                return r
            return T[op].get(r)
        if ops[0].kind == "literal":
            return "!unsupported"  # "Only Array objects are allowed; got <class 'int'>"
            # Tensor with Tensor (0-d or not): only float with float, or anything with complex
            # (type_promotion.h); else "Type promotion only support calculations between
            # floating-point numbers and between complex and real numbers"
            x, y = a.dtype, b.dtype
            if (x in FLOATS and y in FLOATS) or x in CPLX or y in CPLX:
                return T[op].get(promote(x, y), "!unsupported")
            return "!no_promotion"
        dt = ops[0].dtype
        if op == "cumprod" and ops[0].kind == "zerodim":
            # "Only ndim >= 1 arrays are allowed in cumulative_prod" (cumulative_sum takes 0-d)
            return "!unsupported"
        if cell.dtype:
            # the input must be numeric (not bool); any dtype= is then the result
            return T[op][dt] if T[op][dt].startswith("!") else cell.dtype
        return T[op][dt]
    return predict


QUIRKS = []

if __name__ == "__main__":
    analyze_ops.main(["array-api"], predict_for, lambda p: QUIRKS, OP_CLASS)
