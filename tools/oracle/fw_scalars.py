"""Adapter for scalar-with-scalar cells (`add 1 1`, `equal 18446744073709551616 True`).

Two Python scalars never reach a framework through an operator (`1 + 1` is Python's own int
addition), so the question such a cell asks is the framework's *namespace function* on two Python
scalars, the spec's `"form": "function"`: `np.add(1, 1)`, `jnp.add`, `torch.add`, `tf.math.add`
(`tf.math.truediv`/`floordiv`/`floormod`/`pow`, `tf.bitwise.*`), `paddle.add`, `xp.add`, and
`matmul` as each framework's matmul function.

MODE is `FW:MODE` (`numpy:default`, `jax:x64`, `tf:safe`, ...): the issue-12 adapter
`fw_ops_FW.py` is set up in MODE (its operand makers, answer tokens and exception classifiers are
reused unchanged, see ops_common.answer) and its NAMES table gets the functions below for the 22
binary ops of cases.py.  The first candidate that exists is used; the function actually called is
in the detail of each answer (record_scalars.py logs it).  JAX runs eagerly here (JAX_OPS_EAGER:
a value error such as `jnp.power(2, -1)` is raised only with concrete values).
"""
from __future__ import annotations

import importlib
import os
import re

import cases

# matmul is left out: the spec defines its operands as arrays of one or more dimensions, so a
# query with a Python scalar is `invalid` before any policy (every framework refuses it too)
BINARY = list(cases.BINARY_OPS)
_RENAME = {
    # framework -> {op: candidate functions}; an op not named here is ROOT:op
    "numpy": {},
    "array_api": {"power": ["xp:pow"]},
    "jax": {},
    "torch": {"power": ["torch:pow"], "equal": ["torch:eq"], "not_equal": ["torch:ne"],
              "less": ["torch:lt"], "less_equal": ["torch:le"], "greater": ["torch:gt"],
              "greater_equal": ["torch:ge"]},
    "tf": {"divide": ["tf:math.truediv"], "floor_divide": ["tf:math.floordiv"],
           "remainder": ["tf:math.floormod"], "power": ["tf:math.pow"],
           "bitwise_and": ["tf:bitwise.bitwise_and"], "bitwise_or": ["tf:bitwise.bitwise_or"],
           "bitwise_xor": ["tf:bitwise.bitwise_xor"], "matmul": ["tf:linalg.matmul"]},
    "paddle": {"power": ["paddle:pow"], "less": ["paddle:less_than", "paddle:less"],
               "greater": ["paddle:greater_than", "paddle:greater"]},
}
_ROOT = {"numpy": "np", "array_api": "xp", "jax": "jnp", "torch": "torch", "tf": "tf.math",
         "paddle": "paddle"}

base = None


def setup(mode):
    global base
    fw, _, sub = mode.partition(":")
    if fw == "jax":
        os.environ["JAX_OPS_EAGER"] = "1"
    base = importlib.import_module("fw_ops_" + fw)
    base.setup(sub)
    root, _, rest = _ROOT[fw].partition(".")
    for op in BINARY:
        base.NAMES[op] = _RENAME[fw].get(op) or [f"{root}:{rest + '.' if rest else ''}{op}"]


# Answers the issue-12 adapters leave unclassified ("?Type: message"), classified here by type and
# message: matmul is defined for operands of one or more dimensions only; TF's kernels refuse
# values at run time (the spec's `value`, as fw_tf.py classifies them for tensors)
RULES = [
    (r"^ValueError: matmul: Input operand \d+ does not have enough dimensions", "!unsupported"),
    (r"^ValueError: matmul input operand \d+ must have ndim at least", "!unsupported"),
    (r"^InvalidArgumentError: .*(ndims must be (==|>=) 2|must be at least rank 2)", "!unsupported"),
    (r"^InvalidArgumentError: .*(Integers to negative integer powers are not allowed|"
     r"Integer division by zero)", "!value"),
]
_CANNOT = re.compile(r"^TypeError: Cannot convert (.+?) to EagerTensor of dtype (\w+)")
_SAME_KIND = {bool: "bool", int: "int uint", float: "float bfloat", complex: "complex"}


def _tf_cannot_convert(detail, cell):
    """TF converts the first scalar alone (a logical function: to bool), then the second to the
    first's dtype.  A logical function whose scalar is no bool: `!unsupported` (the op is defined
    for bool only, as fw_tf.py answers for tensors); else a scalar of the target's kind that does
    not fit is `!overflow`, one of another kind `!no_promotion`."""
    m = _CANNOT.match(detail)
    if not m:
        return None
    value, dtype = m.groups()
    culprits = [o.py for o in cell.operands if repr(o.py) == value or str(o.py) == value]
    if not culprits:
        return None
    if cell.op.startswith("logical_") and dtype == "bool":
        return "!unsupported"
    same = any(dtype.startswith(k) for k in _SAME_KIND[type(culprits[-1])].split())
    return "!overflow" if same else "!no_promotion"


def _object_loop(detail, cell):
    """NumPy 1 makes an object array of a Python int beyond int64/uint64 and runs Python's own
    arithmetic on it: `2**64 // 0` raises ZeroDivisionError there.  Such a cell is `!overflow`,
    as fw_numpy.py answers every object-array result (the int fits no NumPy dtype)."""
    if detail.startswith("ZeroDivisionError: ") and base.__name__ == "fw_ops_numpy":
        import fw_numpy
        if fw_numpy.huge_int(cell):
            return "!overflow"
    return None


def answer(cell):
    ans = base.answer(cell)
    if not ans.startswith("?"):
        return ans
    detail = ans[1:]
    tok = _object_loop(detail, cell)
    if tok:
        return f"{tok}\t{detail}"
    for rx, tok in RULES:
        if re.search(rx, detail):
            return f"{tok}\t{detail}"
    tok = _tf_cannot_convert(detail, cell)
    return f"{tok}\t{detail}" if tok else ans
