"""The op rules of PaddlePaddle 3.3.1 (`paddle`) for the ops of issue 12, checked against
tests/fixtures/resolve-ops/paddle.txt.gz.  See notes/ops-paddle.md.

    python3 tools/oracle/analyze_ops_paddle.py [--show N]

Paddle has no op classes to speak of: each op has its own CPU kernel list (PD_REGISTER_KERNEL in
paddle/phi/kernels/cpu/*_kernel.cc) and a few of them compute integers in float32 (sqrt, sin,
... register int kernels that return float32; exp/log only for int32/int64).  TABLE below is each
op's answer on same-dtype n-d tensors, as recorded; the rules say how every other cell reduces to
it:

* a 0-d tensor behaves as an n-d tensor of its dtype;
* a Python literal is refused (`!unsupported`): the functions take Tensors only ("x must be
  tensor type, but got <class 'int'>"), except the few listed in LITERAL_OK;
* two operands: Paddle's binary promotion as recorded for `maximum` (tests/fixtures/resolve),
  then TABLE at the promoted dtype (arctan2, nextafter, fmax, fmin); copysign promotes as `add`;
  left_shift, right_shift, heaviside are not promoted (the kernel follows y); hypot and
  logaddexp are Python compositions of other ops (see the code below and notes/ops-paddle.md);
* reductions with dtype=D: D where TABLE has a kernel for D (the input is cast to D first),
  else `!unsupported`; without dtype= TABLE.
"""
from __future__ import annotations

import analyze_ops
from analyze_ops import parse_table
from analyze_paddle import promote
from analyze_paddle import promote

FLOATS = {"bfloat16", "float16", "float32", "float64"}
CPLX = {"complex64", "complex128"}
KERNEL_OF_Y = {"left_shift", "right_shift", "heaviside"}
# paddle.pow(x, 2)'s CPU kernels (as recorded through hypot; `power` in tests/fixtures/resolve)
POW_KERNELS = {"int32", "int64", "float32", "float64", "complex64", "complex128"}


TABLE = {}
OP_CLASS = {}
exec(open(__file__.replace("analyze_ops_paddle.py", "ops_tables/paddle.py")).read())  # noqa: S102
T = parse_table(TABLE)
ABSENT = {"fmod", "float_power", "divmod"}  # AttributeError: module 'paddle' has no attribute 'fmod'
for _op in T:
    OP_CLASS[_op] = "table"
for _op in ABSENT:
    OP_CLASS[_op] = "absent"


def predict_for(policy):
    def predict(cell, base):
        op, ops = cell.op, cell.operands
        if op in ABSENT:
            return "!unsupported"
        if op == "copysign" and ops[1].kind == "literal" and ops[0].kind != "literal":
            # paddle.copysign: `if isinstance(y, (float, int)): y = paddle.to_tensor(y,
            # dtype=x.dtype)` (python/paddle/tensor/math.py), then the same-dtype kernel
            v = ops[1].py
            if type(v) is int and not -2**63 <= v < 2**63 and ops[0].dtype == "bfloat16":
                return "!overflow"  # to_tensor(2**63, dtype=bfloat16) fails; other dtypes take it
            if type(v) is complex:
                return "!unsupported"
            return T[op][ops[0].dtype]
        if any(o.kind == "literal" for o in ops):
            return "!unsupported"
        if len(ops) == 2:
            a, b = ops
            if op == "hypot":
                # paddle.hypot is Python: (paddle.pow(x, 2) + paddle.pow(y, 2)).sqrt()
                # (python/paddle/tensor/math.py): pow's kernels, then `+`, then sqrt's table
                if a.dtype not in POW_KERNELS or b.dtype not in POW_KERNELS:
                    return "!unsupported"
                r = base("add", a, b)
                return r if r is None or r.startswith("!") else T["sqrt"][r]
            if op == "logaddexp":
                # paddle.logaddexp is Python: log1p(exp(-abs(x - y))) + maximum(x, y)
                # (python/paddle/tensor/math.py): `x - y` promotes as `+` does (recorded for
                # add), then abs/exp/log1p need kernels for that dtype (TABLE's logaddexp row);
                # maximum(x, y) promotes as recorded for maximum (an int result is cast to the
                # log1p dtype), and the final `+` of the two promotes floats
                r = base("add", a, b)
                if r is None or r.startswith("!") or T[op][r].startswith("!"):
                    return r if r is None or r.startswith("!") else T[op][r]
                m = base("maximum", a, b)
                if m is None or m.startswith("!"):
                    return m
                lg = T[op][r]
                return promote(lg, lg if m in ("int32", "int64") else m)
            if a.dtype == b.dtype:
                return T[op][a.dtype]
            if op in KERNEL_OF_Y:
                # outside Paddle's promotion white list: the kernel is chosen by y's dtype
                # (phi KernelKeyParser takes the last input), which must have a kernel; x is
                # then read with that dtype: "The type of data we are trying to retrieve
                # (float32) does not match the type of data (int8)"
                k = b.dtype
                if a.dtype in CPLX or b.dtype in CPLX:
                    k = "complex64"  # a complex input makes the kernel complex
                if T[op][k].startswith("!"):
                    return T[op][k]
                return "!no_promotion"
            # Paddle's binary promotion as recorded for paddle.maximum (type_promotion.h);
            # copysign is in the white list of the 0-d rules like `+` (a 0-d operand of the
            # same kind takes the n-d one's dtype), so it follows `add`
            r = base("add" if op == "copysign" else "maximum", a, b)
            if r is None or r.startswith("!"):
                return r
            return T[op].get(r)
            # Tensor with Tensor (0-d or not): only float with float, or anything with complex
            # (type_promotion.h); else "Type promotion only support calculations between
            # floating-point numbers and between complex and real numbers"
            x, y = a.dtype, b.dtype
            if (x in FLOATS and y in FLOATS) or x in CPLX or y in CPLX:
                return T[op].get(promote(x, y), "!unsupported")
            return "!no_promotion"
        dt = ops[0].dtype
        if cell.dtype:
            return cell.dtype if not T[op].get(cell.dtype, "!").startswith("!") else "!unsupported"
        return T[op][dt]
    return predict


QUIRKS = [
    (r"^copysign .*\(.* : b?float16$", "copysign of a float16/bfloat16 operand with a 0-d operand "
     "of another kind (either side) answers float16/bfloat16 where `add` (the promotion used "
     "above) answers differently for the same operands"),
]

if __name__ == "__main__":
    analyze_ops.main(["paddle"], predict_for, lambda p: QUIRKS, OP_CLASS)
