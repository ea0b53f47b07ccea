"""Adapter for JAX (jax==0.10.2, CPU): policies `jax` (mode x32), `jax-x64` (x64), `jax-strict` (strict).

setup(mode) sets the configuration before any array exists:
  x32    -> jax_enable_x64=False (the default), jax_numpy_dtype_promotion="standard"
  x64    -> jax_enable_x64=True,                jax_numpy_dtype_promotion="standard"
  strict -> jax_enable_x64=True,                jax_numpy_dtype_promotion="strict"

Operands (what a user writes):
  tensor   `d`     -> jnp.ones(2, dtype=d)               (bool: all True)
  weak     `~d`    -> the same array re-typed weak with
                      jax._src.lax.lax._convert_element_type(x, x.dtype, weak_type=True)
                      (the private helper JAX itself uses in promote_dtypes; there is no public API
                      for a weak array of a chosen dtype). `.weak_type` is checked to be True.
  zerodim  `d(v)`  -> jnp.array(v, dtype=d)               (0-d, strongly typed)
  literal          -> the Python object itself.
In x32 mode a 64-bit dtype cannot be made: jnp.ones/jnp.array canonicalize int64->int32,
uint64->uint32, float64->float32, complex128->complex64 with a UserWarning ("Explicitly requested
dtype int64 requested in ones is not available, and will be truncated to dtype int32"), and the
cell is recorded with whatever dtype JAX then reports. jnp.array(v, dtype=d) raises OverflowError when
v does not fit the canonicalized dtype (e.g. uint64(18446744073709551615) in x32): recorded `!overflow`.

Ops: Python operators `+ - * / // % ** == != < <= > >= & | ^ @` (a literal on the left goes through
the reflected operator of the jax Array), jnp.maximum / jnp.minimum / jnp.logical_and / logical_or /
logical_xor, `a @ b` for matmul (1-d: dot product), jnp.sum(a) for sum.
Answer: the result's dtype name, `~` prefixed when the result's `.weak_type` is True.

out=D: JAX arrays are immutable and jnp functions have no usable out= (it raises), so the cell
records what a user does to write the result into an existing array of dtype D:
    buf = jnp.zeros(2, dtype=D); buf = buf.at[:].set(result)
and reports the dtype (and weak flag) of the updated buffer. `.at[].set` casts silently (see notes).

Recording machinery (no effect on any answer): when the op changes and the worker's RSS is
above 6 GB, it calls jax.clear_caches() (cells come grouped by op; the compiled executables of
~100k distinct signatures would otherwise pile up), and JAX_ORACLE_CACHE=DIR turns on JAX's persistent compilation cache so that the
x64 and strict runs reuse each other's executables. JAX_ORACLE_LOG=FILE appends every warning and
exception per cell to FILE (used for notes/jax.md).

Errors: classified by exception type AND message (see _classify); an unknown one is an adapter
bug ("?...") so that the harness reports it rather than recording a guess.
"""
from __future__ import annotations

import os
import warnings

import numpy as np

jax = None
jnp = None
_cet = None
_LOG = os.environ.get("JAX_ORACLE_LOG")  # optional: append warnings/errors per cell to this file
# JAX_ORACLE_ABSTRACT=1 (record_narrow.py): the binary op runs under jax.eval_shape, the operands
# (literals included) passed as its arguments as the jitted jnp function receives them: the same
# promotion code, without an XLA compilation per signature
_ABSTRACT = os.environ.get("JAX_ORACLE_ABSTRACT") == "1"
_last_op = None


def setup(mode):
    global jax, jnp, _cet
    import jax as _jax

    if mode == "x32":
        _jax.config.update("jax_enable_x64", False)
        _jax.config.update("jax_numpy_dtype_promotion", "standard")
    elif mode == "x64":
        _jax.config.update("jax_enable_x64", True)
        _jax.config.update("jax_numpy_dtype_promotion", "standard")
    elif mode == "strict":
        _jax.config.update("jax_enable_x64", True)
        _jax.config.update("jax_numpy_dtype_promotion", "strict")
    else:
        raise ValueError(f"unknown mode {mode}")
    _jax.config.update("jax_platforms", "cpu")
    cache = os.environ.get("JAX_ORACLE_CACHE")
    if cache:
        _jax.config.update("jax_compilation_cache_dir", cache)
        _jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        _jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    import jax.numpy as _jnp
    from jax._src.lax import lax as _lax

    jax, jnp, _cet = _jax, _jnp, _lax._convert_element_type


def _rss_gb():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 30
    except OSError:
        return 0.0


def _make(op):
    if op.kind == "literal":
        return op.py
    if op.kind == "zerodim":
        return jnp.array(op.py, dtype=op.dtype)
    x = jnp.ones(2, dtype=op.dtype)
    if op.weak:
        x = _cet(x, np.dtype(x.dtype), weak_type=True)
        if not x.weak_type:
            raise AssertionError("could not build a weak array")
    return x


def _binary(name, a, b):
    if name == "add":
        return a + b
    if name == "subtract":
        return a - b
    if name == "multiply":
        return a * b
    if name == "divide":
        return a / b
    if name == "floor_divide":
        return a // b
    if name == "remainder":
        return a % b
    if name == "power":
        return a ** b
    if name == "equal":
        return a == b
    if name == "not_equal":
        return a != b
    if name == "less":
        return a < b
    if name == "less_equal":
        return a <= b
    if name == "greater":
        return a > b
    if name == "greater_equal":
        return a >= b
    if name == "bitwise_and":
        return a & b
    if name == "bitwise_or":
        return a | b
    if name == "bitwise_xor":
        return a ^ b
    if name == "matmul":
        return a @ b
    if name in ("maximum", "minimum", "logical_and", "logical_or", "logical_xor"):
        return getattr(jnp, name)(a, b)
    raise ValueError(f"unknown op {name}")


# (exception type name, message fragment) -> answer; first match wins
_RULES = [
    ("OverflowError", "too large to convert", "!overflow"),
    ("OverflowError", "out of bounds for", "!overflow"),
    ("OverflowError", "An overflow was encountered while parsing an argument", "!overflow"),
    ("TypePromotionError", "jax_numpy_dtype_promotion=strict", "!no_promotion"),
    # the narrow dtypes (float8, int4, ...) join nothing but themselves and the weak types
    ("TypePromotionError", "have no available implicit dtype promotion path", "!no_promotion"),
    # float6 arrays cannot be made on the CPU backend (jnp.ones: "Invalid XLA PrimitiveType")
    ("JaxRuntimeError", "Invalid XLA PrimitiveType", "!unsupported"),
    # the op is not defined for the (promoted) dtype
    ("TypeError", "Accepted dtypes at position", "!unsupported"),  # and/or/xor/rem dtype checks
    ("TypeError", "does not support complex-valued inputs", "!unsupported"),  # floor_divide
    # `x ** n` with a negative integer n on an integer array (value-dependent refusal)
    ("TypeError", "Integers cannot be raised to negative powers", "!value"),
    # JAX-internal failures (bugs in 0.10.2, listed in notes/jax.md): the op cannot be performed
    ("TypeError", "lax.select requires arguments to have the same dtypes", "!unsupported"),
    ("TypeError", "`preferred_element_type` must not be narrower", "!unsupported"),
]


def _classify(e):
    t = type(e).__name__
    msg = str(e)
    for tn, frag, ans in _RULES:
        if t == tn and frag in msg:
            return ans
    return None


def _dtype_token(r):
    name = np.dtype(r.dtype).name
    weak = bool(getattr(r, "weak_type", False))
    return ("~" if weak else "") + name


def _log(cell, what):
    if _LOG:
        with open(_LOG, "a") as f:
            f.write(f"{cell}\t{what}\n")


def answer(cell):
    global _last_op
    if cell.op != _last_op:
        if _last_op is not None and _rss_gb() > 6.0:
            jax.clear_caches()
        _last_op = cell.op
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            ops = [_make(o) for o in cell.operands]
            if cell.op == "sum":
                r = jnp.sum(ops[0])
            elif _ABSTRACT:
                r = jax.eval_shape(lambda a, b: _binary(cell.op, a, b), ops[0], ops[1])
            else:
                r = _binary(cell.op, ops[0], ops[1])
            if cell.out:
                buf = jnp.zeros(2, dtype=cell.out)
                r = buf.at[:].set(r)
            if not hasattr(r, "dtype") or not hasattr(r, "weak_type"):
                return f"?not a jax array: {type(r).__name__}"
            ans = _dtype_token(r)
        except Exception as e:  # noqa: BLE001 - classified below
            ans = _classify(e)
            _log(cell, f"EXC {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
            if ans is None:
                return "?unclassified " + type(e).__name__ + ": " + str(e).replace("\n", " ")[:300]
    for w in ws:
        _log(cell, f"WARN {w.category.__name__}: {str(w.message).splitlines()[0]}")
    return ans
