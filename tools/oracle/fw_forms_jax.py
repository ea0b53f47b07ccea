"""Issue-10 forms on JAX 0.10.2 (policies `jax`, `jax-x64`, `jax-strict`, and settings).

Modes: `x32`, `x64`, `strict` as fw_jax.py (`strict` is jax-strict: x64 ON and
jax_numpy_dtype_promotion="strict"), and the settings of record_forms.py:
  strict-x32 -> jax_enable_x64=False, jax_numpy_dtype_promotion="strict"
  x32-allow  -> jax_enable_x64=False, jax_explicit_x64_dtypes="allow" (64-bit dtypes asked for
                explicitly are kept: jnp.ones(2, int64) is int64)
  x32-error  -> jax_enable_x64=False, jax_explicit_x64_dtypes="error" (asking for a 64-bit dtype
                raises ValueError "Explicitly requested dtype int64 ... is not available")
  x64-error  -> jax_enable_x64=True,  jax_explicit_x64_dtypes="error" (no effect expected)
Operands as in fw_jax.py.  Calls: `OP:function A B` -> jnp.add ... jnp.bitwise_xor (jnp.divide for
divide), jnp.matmul, jnp.sum; `result_type ...` -> jnp.result_type(*operands) (a dtype: JAX's
public result_type does not report weakness); `promote_types` -> jnp.promote_types(dA, dB);
`can_cast FROM TO casting=C` -> jnp.can_cast(from, dTO, casting=C); concatenate/stack/where/clip
-> jnp.concatenate([..]), jnp.stack([..]), jnp.where(c, x, y), jnp.clip(a, lo, hi).
Cells without a form (the operator form, recorded for settings only) run fw_jax's operator
mapping (`a + b`, ...; out=D as `.at[].set`).

Every call runs under jax.eval_shape (operands built eagerly, closed over), as fw_ops_jax.py does:
eager dispatch compiles one XLA executable per signature (6 cells/s).  `record_forms.py jax-x64
--families operator --every 50 --dry-run` compared with tests/fixtures/resolve/jax-x64.txt.gz
(eager) checks that tracing gives the operator recordings' answers (notes/forms-jax.md).
"""
from __future__ import annotations

import sys
import warnings

import numpy as np

import forms_common
import fw_jax

BASE = None  # operator cells are traced here too (eval_shape), not run eagerly by fw_jax.answer
RULES = [
    # jnp.concatenate / stack of 0-d arrays or Python scalars, or of mismatched shapes
    ("ValueError", r"Zero-dimensional arrays cannot be concatenated", "!unsupported"),
    ("ValueError", r"All input arrays must have the same shape|"
                   r"Cannot concatenate arrays with different numbers of dimensions", "!unsupported"),
    ("TypeError", r"got an unexpected keyword argument 'dtype'", "!unsupported"),  # jnp.add(dtype=)
    # jnp.can_cast: a Python scalar `from` (NEP 50 in JAX: no value-based casting)
    ("TypeError", r"can_cast\(\) does not support Python", "!unsupported"),
    ("TypeError", r"Cannot interpret '[^']*' as a data type", "!unsupported"),
    # jnp.clip of complex
    ("ValueError", r"Clip received a complex value", "!unsupported"),
    # jnp.matmul: 0-d operands
    ("TypeError", r"Cannot concatenate arrays with different numbers of dimensions", "!unsupported"),
    ("ValueError", r"matmul input operand \d must have ndim at least 1", "!unsupported"),
    # x32-allow: a JAX-internal failure (a weak int64/complex128 array with a Python scalar in a
    # logical op: jnp's bool conversion compares against a canonicalised 32-bit zero), as
    # fw_jax.py's "lax.select requires arguments to have the same dtypes": not performable
    ("TypeError", r"lax\.\w+ requires arguments to have the same dtypes", "!unsupported"),
    # x32-error: a 64-bit dtype asked for explicitly
    ("ValueError", r"Explicitly requested dtype \w+ requested in \w+ is not available", "!unsupported"),
    ("ValueError", r"Explicitly requested dtype \w+ .* is not available", "!unsupported"),
]


def setup(mode):
    base = {"strict-x32": "x32", "x32-allow": "x32", "x32-error": "x32", "x64-error": "x64"}
    fw_jax.setup(base.get(mode, mode))
    cfg = fw_jax.jax.config
    if mode == "strict-x32":
        cfg.update("jax_numpy_dtype_promotion", "strict")
    if mode.endswith("-allow"):
        cfg.update("jax_explicit_x64_dtypes", "allow")
    if mode.endswith("-error"):
        cfg.update("jax_explicit_x64_dtypes", "error")


def make(o):
    return fw_jax._make(o)


def dtype(name):
    return np.dtype(name) if name != "bfloat16" else fw_jax.jnp.bfloat16


def is_dtype(r):
    return isinstance(r, np.dtype)


def dtype_token(dt, cell):
    return np.dtype(dt).name


def token(r, cell):
    if not hasattr(r, "dtype") or not hasattr(r, "weak_type"):
        return "?not a jax array: " + type(r).__name__
    return fw_jax._dtype_token(r)


def _traced(fn):
    return fw_jax.jax.eval_shape(fn)


def call(cell, args):
    jnp = fw_jax.jnp
    op = cell.op
    if op == "result_type":
        return jnp.result_type(*args)
    if op == "promote_types":
        return jnp.promote_types(*args)
    if op == "can_cast":
        return bool(jnp.can_cast(args[0], args[1], casting=cell.casting or "safe"))
    if op == "concatenate":
        return _traced(lambda: jnp.concatenate(args))
    if op == "stack":
        return _traced(lambda: jnp.stack(args))
    if op == "where":
        return _traced(lambda: jnp.where(*args))
    if op == "clip":
        return _traced(lambda: jnp.clip(*args))
    if cell.form is None:  # the operator form (fw_jax.answer's ops), traced
        def run():
            r = jnp.sum(args[0]) if op == "sum" else fw_jax._binary(op, args[0], args[1])
            if cell.out:
                r = jnp.zeros(2, dtype=cell.out).at[:].set(r)
            return r
        return _traced(run)
    assert cell.form == "function", cell
    fn = getattr(jnp, op)
    kw = {"dtype": cell.dtype} if cell.dtype else {}
    return _traced(lambda: fn(*args, **kw))


def classify(e, cell):
    return fw_jax._classify(e) or forms_common.classify_rules(e, RULES)


_last = [None]


def answer(cell):
    if cell.op != _last[0]:
        if _last[0] is not None and fw_jax._rss_gb() > 4.0:
            fw_jax.jax.clear_caches()
        _last[0] = cell.op
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # operator cells are traced too (BASE None): forms_common.answer sends them to call()
        return forms_common.answer(cell, sys.modules[__name__])
