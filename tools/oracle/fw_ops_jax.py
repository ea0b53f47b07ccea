"""Issue-12 ops on JAX 0.10.2 (policies `jax` x32, `jax-x64`, `jax-strict`; see fw_jax.py for the modes).

Operands as in fw_jax.py (jnp.ones(2, D), the same re-typed weak for `~D`, jnp.array(v, D), Python
literals).  Each op is the jax.numpy function of the NumPy name (jnp.negative, jnp.sqrt, ...,
jnp.bitwise_invert, jnp.conj, jnp.left_shift, jnp.arctan2, jnp.divmod (two results), jnp.heaviside,
jnp.sum(a[, dtype=D]) and the other reductions; max/min/argmax/any/all take no dtype).  The answer
is the result's dtype, `~` prefixed when the result is weakly typed.

Eager dispatch compiles one XLA executable per op and signature (6 cells/s on this machine, days
for the grid), so the op is run under `jax.eval_shape` (the operands are built eagerly, closed
over): jnp's promotion, weak typing and dtype checks all run while tracing, and the result's
ShapeDtypeStruct carries dtype and weak_type.  JAX_OPS_EAGER=1 runs ops eagerly instead;
`record_ops.py jax --compare-eager N` checks that both agree on a sample.
"""
from __future__ import annotations

import os
import sys
import warnings

import fw_jax
import ops_common
from ops_cases import ALL_OPS

ROOTS = {}
NAMES = {op: [f"jnp:{op}"] for op in ALL_OPS}

RULES = [
    # "jnp.hypot is not well defined for complex-valued inputs", "jax.numpy.signbit is not well
    # defined for complex64"
    ("ValueError", r"is not well defined for complex", "!unsupported"),
    # var/std with a real dtype= of a complex array, or a dtype= that is not inexact
    ("ValueError", r"does not yet support real dtype parameters", "!unsupported"),
    ("ValueError", r"^dtype argument to jnp\.\w+ must be inexact", "!unsupported"),
    ("ValueError", r"^data type <class '[\w.]+'> not inexact", "!unsupported"),
    # unary dtype checks: "not does not accept dtype complex64. Accepted dtypes are subtypes of ..."
    ("TypeError", r"does not accept dtype \w+\. Accepted dtypes are", "!unsupported"),
    ("TypeError", r"does not support complex|not supported for complex|complex.* not supported|"
                  r"[Cc]omplex-valued inputs|requires real", "!unsupported"),
    ("TypeError", r"[Aa]ccepted dtypes? at position|only accepts|must be (a )?(floating|integer|real|boolean)",
     "!unsupported"),
    ("TypeError", r"requires (real )?(floating|integer|inexact)|should be (floating|integer)", "!unsupported"),
    # dtype= that the reduction refuses to cast to (strict promotion, or a lossy kind)
    ("TypeError", r"[Cc]annot (safely )?cast|cannot be cast", "!no_promotion"),
]


def setup(mode):
    fw_jax.setup(mode)
    ROOTS["jnp"] = fw_jax.jnp


def make(o):
    return fw_jax._make(o)


EAGER = os.environ.get("JAX_OPS_EAGER") == "1"


def call(op, fn, args, cell):
    def run():
        if cell.dtype:
            return fn(args[0], dtype=cell.dtype)
        return fn(*args)
    if EAGER:
        return run()
    # trace only (no XLA compilation): the dtype and weak_type JAX's tracing gives, the same
    # promotion code as eager dispatch (checked on samples: `--check-eager`, notes/ops-jax.md)
    return fw_jax.jax.eval_shape(run)


def token(r, cell):
    if not hasattr(r, "dtype") or not hasattr(r, "weak_type"):
        return ops_common.python_scalar_token(r) or "?not a jax array: " + type(r).__name__
    return fw_jax._dtype_token(r)


def classify(e, cell):
    return fw_jax._classify(e) or ops_common.classify_rules(e, RULES)


_last = [None]


def answer(cell):
    if cell.op != _last[0]:
        if _last[0] is not None and fw_jax._rss_gb() > 4.0:
            fw_jax.jax.clear_caches()
        _last[0] = cell.op
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ops_common.answer(cell, sys.modules[__name__])
