"""TensorFlow adapter (tensorflow-cpu 2.21.0) for the policies tf, tf-legacy, tf-all, tf-safe.

Modes (record.py maps them): `off` (TF's default, nothing enabled), and `legacy` / `all` / `safe`,
each set by `tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=MODE)`
before any other TF call (as TF asks for all/safe).

Operands
--------
* tensor   `int8`       -> `tf.constant([v, v], tf.int8)` with v = 1 (True for bool).
* 0-d      `int8(5)`    -> `tf.constant(5, tf.int8)`.  In all/safe modes the patched `tf.constant`
  runs the new promotion on its Python value first and raises OverflowError for any Python int
  outside int32 (uint32(4294967295), int64(9223372036854775807), uint64(18446744073709551615)); for
  those the tensor is built from a NumPy scalar of the dtype instead, `tf.constant(np.uint64(v),
  tf.uint64)` -- the same strong EagerTensor.
* weak     `~int8`      -> `WeakTensor.from_tensor(tf.constant([1, 1], tf.int8))`
  (tensorflow.python.framework.weak_tensor; the documented way to make a WeakTensor of a given
  dtype).  Only the all/safe policies have weak cells.
* literal  `300`, `1.0`, `1j`, `True` -> the Python object itself.

Ops (what a user writes)
------------------------
* add/subtract/multiply/divide/floor_divide/remainder/power: `a + b`, `a - b`, `a * b`, `a / b`,
  `a // b`, `a % b`, `a ** b` (a literal on the left goes through the reflected operator).
* equal/not_equal/less/less_equal/greater/greater_equal: `==`, `!=`, `<`, `<=`, `>`, `>=`
  (literal on the left: Python turns `1 < t` into `t > 1`).
* bitwise_and/or/xor: `&`, `|`, `^` (TF maps these to logical ops for bool tensors).
* maximum/minimum: `tf.math.maximum(a, b)` / `tf.math.minimum(a, b)`.
* logical_and/or/xor: `tf.math.logical_and/or/xor(a, b)`.
* matmul: both operands are 1-d.  In mode legacy `@` runs TF-NumPy's matmul, which accepts 1-d
  operands: `a @ b`.  In modes off/all/safe `a @ b` refuses 1-d operands ("In[0] ndims must be
  >= 2"), so the vectors are made a row and a column, as NumPy defines a 1-d matmul:
  `tf.expand_dims(a, 0) @ tf.expand_dims(b, -1)`.  `tf.tensordot(a, b, 1)` was tried first and
  rejected: it is not one of TF's WeakTensor-aware APIs and drops weakness (`~float64 @ bfloat16`
  gives float64 through tensordot, bfloat16 through `@`; 129 of 400 matmul cells differ in all,
  133 in safe, none in off).  `--selfcheck` below compares the three.
* sum: `tf.reduce_sum(a)`.

out=D
-----
TF has no `out=` argument.  A cell with out=D is recorded as a user writing the result into an
existing tensor of dtype D: `v = tf.Variable(tf.zeros(2, D)); v.assign(result)`; the answer is
v's dtype (D) when the assign succeeds.  If the op itself raises, that error is the answer; if
the assign raises (a dtype mismatch: TF never casts on assign in off/legacy; all/safe allow only
a conversion whose promotion result is D, see weak_tensor_ops.py "variable_method"), the answer
is `!no_promotion`.

Answers
-------
The result's dtype name (`~` prefix when the result is a WeakTensor).  Exceptions are classified
by type AND message in `classify()` (every distinct message is listed in notes/tensorflow.md);
anything unknown comes back as `?UNCLASSIFIED ...` so the recording stops.  Special cases:
* a weak operand of a dtype WeakTensor does not allow (all but int32, int64, float32, float64,
  complex128) cannot be made: TypeError "not allowed as a weak type" -> `!unsupported`;
* kernel errors that depend on values, not dtypes ("Integer division by zero", "Integers to
  negative integer powers are not allowed") -> `!value` (the spec's kind for values the
  framework refuses at run time; `_traced` finds the dtype such a cell is built with, and
  `--selfcheck` compares tracing with eager runs);
* a result that is not a TF tensor would be `!unsupported` (never happened).
Every cell starts with TF's eager scalar cache cleared (`answer`), so that a conversion that
failed earlier in the process cannot leave a cached value behind (uint64 + -1, notes §8).

Set TF_ORACLE_LOG=PATH to append `cell<TAB>answer<TAB>exception type<TAB>message` for every
exception (used to check the classification, see notes/tensorflow.md).
"""
from __future__ import annotations

import os
import re

from syntax import KIND
import syntax  # noqa: E402  (tools/oracle is on sys.path in the worker)

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

tf = None
np = None
WeakTensor = None
MODE = None
pywrap_tfe = None
_LOG = None
NAMES = {}


def setup(mode):
    global tf, np, WeakTensor, MODE, _LOG, NAMES, pywrap_tfe
    import logging
    import numpy
    import tensorflow

    tf, np, MODE = tensorflow, numpy, mode
    if mode != "off":
        assert mode in ("legacy", "all", "safe"), mode
        tf.experimental.numpy.experimental_enable_numpy_behavior(dtype_conversion_mode=mode)
    from tensorflow.python.framework.weak_tensor import WeakTensor as WT
    from tensorflow.python.framework import ops as tfops
    from tensorflow.python import pywrap_tfe as ptfe

    WeakTensor = WT
    pywrap_tfe = ptfe
    want = {"off": "OFF", "legacy": "LEGACY", "all": "ALL", "safe": "SAFE"}[mode]
    assert tfops.get_dtype_conversion_mode().name == want, tfops.get_dtype_conversion_mode()
    tf.get_logger().setLevel(logging.ERROR)
    NAMES = {getattr(tf, n): n for n in (
        "bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64",
        "bfloat16", "float16", "float32", "float64", "complex64", "complex128")}
    NAMES.update({getattr(tf.dtypes.experimental, n): n for n in NARROW})
    path = os.environ.get("TF_ORACLE_LOG")
    _LOG = open(path, "a") if path else None


# the narrow dtypes TF 2.21 names (tf.dtypes.experimental; record_narrow.py): float8_e3m4,
# float8_e4m3, float8_e8m0fnu, the float6s and complex32 are not TF dtypes
NARROW = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
          "float8_e4m3b11fnuz", "float4_e2m1fn", "int2", "uint2", "int4", "uint4"]


def _dt(name):
    if name in NARROW:
        return getattr(tf.dtypes.experimental, name)
    return getattr(tf, name)


def make(o):
    """The framework object for one operand."""
    if o.kind == "literal":
        return o.py
    dt = _dt(o.dtype)
    if o.dtype in NARROW:
        # tf.constant cannot convert a Python number to these (no Cast kernel from int64):
        # the values come as an ml_dtypes array of the dtype
        t = tf.constant(np.array([1, 1] if o.kind == "tensor" else o.py,
                                 dtype=dt.as_numpy_dtype), dt)
    elif o.kind == "tensor":
        v = True if o.dtype == "bool" else 1
        t = tf.constant([v, v], dt)
    else:
        v = o.py
        try:
            t = tf.constant(v, dt)
        except OverflowError:
            # all/safe: the patched tf.constant refuses Python ints outside int32 (see docstring)
            t = tf.constant(np.array(v, dtype=dt.as_numpy_dtype), dt)
        if not (t.shape.rank == 0 and t.dtype == dt):
            raise RuntimeError(f"bad 0-d operand {o}: {t!r}")
    if o.weak:
        t = WeakTensor.from_tensor(t)
    return t


BINOPS = {
    **syntax.OPERATORS,
    "maximum": lambda a, b: tf.math.maximum(a, b),
    "minimum": lambda a, b: tf.math.minimum(a, b),
    "logical_and": lambda a, b: tf.math.logical_and(a, b),
    "logical_or": lambda a, b: tf.math.logical_or(a, b),
    "logical_xor": lambda a, b: tf.math.logical_xor(a, b),
}


def compute(cell):
    """Run the op on real operands; returns the framework's result (may raise)."""
    return compute_on(cell, [make(o) for o in cell.operands])


def compute_on(cell, args):
    if cell.op == "sum":
        return tf.reduce_sum(args[0])
    if cell.op == "matmul":
        a, b = args
        if MODE == "legacy":
            return a @ b
        # `@` refuses 1-d operands here: NumPy's definition of a 1-d matmul, the row a[None, :]
        # times the column b[:, None], through `@` (expand_dims keeps a WeakTensor weak)
        return tf.expand_dims(a, 0) @ tf.expand_dims(b, -1)
    return BINOPS[cell.op](*args)


def token(r):
    if isinstance(r, WeakTensor):
        return "~" + NAMES[r.dtype]
    if isinstance(r, tf.Tensor):
        return NAMES[r.dtype]
    raise _NotATensor(type(r).__name__ + ":" + repr(r))


class _NotATensor(Exception):
    pass


class _OutError(Exception):
    def __init__(self, exc):
        super().__init__(str(exc))
        self.exc = exc


# Kernel-time errors that depend on the operands' values, not on their dtypes: the spec's `!value`
# (`_traced` still finds the dtype such a cell is built with, for --selfcheck)
_VALUE_ERRORS = ("Integer division by zero", "Integers to negative integer powers are not allowed")


def _traced(cell):
    """The answer from tracing the cell into a graph (tf.function): the op is built and
    type-checked exactly as in eager mode, but no kernel runs, so a value error (integer division
    by zero, an integer to a negative integer power) cannot hide the result dtype."""
    args = [make(o) for o in cell.operands]
    r = tf.function(lambda: compute_on(cell, args)).get_concrete_function().structured_outputs
    tok = token(r)
    if cell.out:
        v = tf.Variable(tf.zeros(2, _dt(cell.out)))

        def f():
            v.assign(compute_on(cell, args))

        try:
            tf.function(f).get_concrete_function()
        except Exception as e:  # noqa: BLE001 - classified by the caller
            raise _OutError(e) from e
        tok = NAMES[v.dtype]
    return tok


def answer(cell):
    # TF caches eager scalar conversions per (value, dtype); a failed conversion (a negative int
    # into uint64) can leave a wrapped value in that cache, so a repeat of the same cell in this
    # process would answer differently from its first run.  Every cell runs on a clear cache.
    pywrap_tfe.TFE_ClearScalarCache()
    try:
        r = compute(cell)
        tok = token(r)
        if cell.out:
            v = tf.Variable(tf.zeros(2, _dt(cell.out)))
            try:
                v.assign(r)
            except Exception as e:  # noqa: BLE001 - classified below
                raise _OutError(e) from e
            tok = NAMES[v.dtype]
        return tok
    except Exception as e:  # noqa: BLE001
        ans = classify(e, cell)
        if ans == "=value":
            ans = "!value"
        if _LOG is not None:
            ex = e.exc if isinstance(e, _OutError) else e
            msg = str(ex).replace("\n", " ").replace("\t", " ")[:400]
            kind = ("assign:" if isinstance(e, _OutError) else "") + type(ex).__name__
            _LOG.write(f"{cell}\t{ans}\t{kind}\t{msg}\n")
            _LOG.flush()
        return ans


_MISMATCH = re.compile(r"cannot compute (\w+) as input #(\d)\(zero-based\) was expected to be a (\w+) "
                       r"tensor but is a (\w+) tensor")


_TFNAME = {"half": "float16", "float": "float32", "double": "float64"}
_NARROW_KIND = {"flo": "f", "int": "i", "uin": "u"}  # the kinds of NARROW, by their names
_CANNOT = re.compile(r"Cannot convert (.+) to EagerTensor of dtype (\w+)")


def classify(e, cell):
    msg = str(e)
    name = type(e).__name__
    # `bool_tensor | 1.0`: TF's operator wrapper, after the op raised TypeError, looks for the
    # reflected operator on the Python float and fails with AttributeError; the real refusal is
    # the TypeError it was handling
    if name == "AttributeError" and "object has no attribute '__r" in msg \
            and isinstance(e.__context__, (TypeError, ValueError)):
        return classify(e.__context__, cell)
    if name == "InvalidArgumentError" and any(v in msg for v in _VALUE_ERRORS):
        return "=value"
    # WeakTensor exists only for int32, int64, float32, float64, complex128
    # (weak_tensor.py _ALLOWED_WEAK_DTYPES): a weak operand of another dtype cannot be made
    if name == "TypeError" and "not allowed as a weak type" in msg:
        return "!unsupported"
    # all/safe: `True & t`, `1 | t`, `1.0 ^ t` (a Python scalar left of &, |, ^) reach
    # math_ops.and_/or_/xor_ with the scalar as x, which reads x.dtype: the API cannot take a
    # Python scalar there
    if name == "AttributeError" and re.fullmatch(r"'(bool|int|float|complex)' object has no "
                                                 r"attribute 'dtype'", msg) \
            and cell.op.startswith("bitwise_") and cell.operands[0].kind == "literal":
        return "!unsupported"
    # legacy: TF-NumPy's result type is NumPy's np.result_type, which finds no common dtype
    # (ml_dtypes' bfloat16 with most NumPy dtypes)
    if name == "DTypePromotionError":
        return "!no_promotion"
    if isinstance(e, _NotATensor):
        return "!unsupported"
    # the narrow dtypes (record_narrow.py): TF has few Cast kernels to or from them ("Cast int64
    # to float8_e4m3fn is not supported", raised as UnimplementedError, or as TypeError "Error
    # while casting from dtype int64 to float8_e4m3fn" when a Python number is converted)
    if re.search(r"Cast \w+ to \w+ is not supported", msg) and (
            name == "UnimplementedError" or msg.startswith("Error while casting from dtype")):
        return "!unsupported"
    if isinstance(e, _OutError):
        ex = e.exc
        m = str(ex)
        if isinstance(ex, tf.errors.InvalidArgumentError) and any(v in m for v in _VALUE_ERRORS):
            return "=value"
        if isinstance(ex, TypeError) and "Variable dtype is immutable" in m:
            return "!no_promotion"
        if "Tensor conversion requested dtype" in m:
            return "!no_promotion"
        if "In promotion mode PromoMode.SAFE, implicit dtype promotion" in m:
            return "!no_promotion"
        return f"?UNCLASSIFIED assign {type(ex).__name__}: {m[:200]}"
    # the new promotion (all/safe): SAFE refuses a table cell
    if name == "TypeError" and "In promotion mode PromoMode.SAFE, implicit dtype promotion" in msg:
        return "!no_promotion"
    # the new promotion: a Python int outside int32 (flexible_dtypes._get_dtype_and_weakness)
    if name == "OverflowError" and re.search(r"Python int -?\d+ too large to convert to np.int32", msg):
        return "!overflow"
    # a Python int beyond int64/uint64 for any conversion
    if name == "ValueError" and "Can't convert Python sequence with out-of-range integer" in msg:
        return "!overflow"
    if name == "ValueError" and "out of range for a double-precision float" in msg:
        return "!overflow"
    # kernels that do not exist for a dtype
    if "is not in the list of allowed values" in msg and "Value for attr" in msg:
        return "!unsupported"
    if name == "NotFoundError" and ("Could not find device for node" in msg or "OpKernel" in msg):
        return "!unsupported"
    # `/` (math_ops._truediv_python3) demands equal dtypes, and has no bool kernel
    if name == "TypeError" and "`x` and `y` must have the same dtype" in msg:
        return "!no_promotion"
    if name == "TypeError" and re.search(r"Invalid dtype tf\.\w+ in __truediv__", msg):
        return "!unsupported"
    # a Python int that does not fit uint64, raised as such
    if name == "OverflowError" and msg in ("can't convert negative int to unsigned",
                                           "int too big to convert"):
        return "!overflow"
    # a tensor converted to another dtype: logical ops convert their operands to bool (an op
    # not defined for other dtypes); elsewhere it is a refused implicit conversion
    if name == "ValueError" and "Tensor conversion requested dtype" in msg:
        if cell.op.startswith("logical_") and "requested dtype bool " in msg:
            return "!unsupported"
        return "!no_promotion"
    # TF's C conversion of a Python int that does not fit uint64 (negative, or >= 2**64) leaves
    # the OverflowError pending: Python reports SystemError with that OverflowError as context.
    if name == "SystemError" and "returned a result with an exception set" in msg \
            and isinstance(e.__context__, OverflowError):
        return "!overflow"
    # a Python literal TF will not take as the other operand's dtype
    m = _CANNOT.search(msg)
    if name == "TypeError" and m:
        lits = [o for o in cell.operands if o.kind == "literal"]
        if len(lits) == 1:
            dn = _TFNAME.get(m.group(2), m.group(2))
            kind, dk = type(lits[0].py).__name__, KIND.get(dn) or _NARROW_KIND[dn[:3]]
            same_kind = {"bool": "b", "int": "iu", "float": "f", "complex": "c"}[kind]
            # same kind: the value is out of the dtype's range; another kind: TF will not
            # convert a Python bool/int/float/complex into a dtype of another kind
            return "!overflow" if dk in same_kind else "!no_promotion"
    m = _MISMATCH.search(msg)
    if m:
        op, _, want, got = m.groups()
        # logical_and/or/xor are only defined for bool: a non-bool tensor is unsupported; `&`,
        # `|`, `^` on a bool tensor also run LogicalAnd/LogicalOr, and there a non-bool other
        # operand is a refused mix of dtypes, as `uint8 & bool` (BitwiseAnd) is
        if op in ("LogicalAnd", "LogicalOr") and want == "bool" and cell.op.startswith("logical_"):
            return "!unsupported"
        return "!no_promotion"
    return f"?UNCLASSIFIED {name}: {msg[:300]}".replace("\n", " ")


def _selfcheck(mode):
    """`python fw_tf.py --selfcheck MODE`: checks two choices of this adapter against TF itself.

    1. Tracing (used only for cells whose kernel raised a value error) gives the same answer as
       eager execution on every floor_divide/remainder/power cell that runs eagerly.
    2. The 1-d matmul (tensordot in off/all/safe, `@` in legacy) gives the same answer as `@`
       on 2-d operands (shape [1, 2] @ [2, 1]) for every matmul cell.
    """
    import sys
    import cases
    from syntax import Cell, parse_operand

    setup(mode)
    weak = mode in ("all", "safe")
    same = diff = 0
    for c in cases.cells(weak=weak):
        if c.op not in ("floor_divide", "remainder", "power"):
            continue
        pywrap_tfe.TFE_ClearScalarCache()
        try:
            eager = answer(c)
        except Exception:  # noqa: BLE001
            continue
        if eager.startswith("!"):
            continue
        try:
            traced = _traced(c)
        except Exception as e:  # noqa: BLE001
            traced = "raised " + type(e).__name__
        if traced == eager:
            same += 1
        else:
            diff += 1
            print(f"trace differs: {c} : eager {eager} traced {traced}")
    print(f"{mode}: trace agrees with eager on {same} cells, differs on {diff}")

    def mm2(c):
        a, b = [make(o) for o in c.operands]

        def two(t, shape):
            x = tf.reshape(t.to_tensor() if isinstance(t, WeakTensor) else t, shape)
            return WeakTensor.from_tensor(x) if isinstance(t, WeakTensor) else x
        try:
            return token(two(a, [1, 2]) @ two(b, [2, 1]))
        except Exception as e:  # noqa: BLE001
            return classify(e, c)

    def tdot(c):
        try:
            return token(tf.tensordot(*[make(o) for o in c.operands], 1))
        except Exception as e:  # noqa: BLE001
            return classify(e, c)

    same = diff = tsame = tdiff = 0
    for c in cases.cells(weak=weak):
        if c.op != "matmul":
            continue
        mine = answer(c)
        if any(o.weak and o.dtype not in ("int32", "int64", "float32", "float64", "complex128")
               for o in c.operands):
            continue  # no such WeakTensor
        ref = mm2(c)
        if ref == mine:
            same += 1
        else:
            diff += 1
            print(f"matmul differs: {c} : recorded {mine}, 2-d @ {ref}")
        td = tdot(c)
        if td == mine:
            tsame += 1
        else:
            tdiff += 1
            print(f"tensordot differs: {c} : recorded {mine}, tensordot {td}")
    print(f"{mode}: recorded matmul agrees with [1,2] @ [2,1] (reshaped) on {same} cells, "
          f"differs on {diff}; tf.tensordot(a, b, 1) agrees on {tsame}, differs on {tdiff}")
    sys.stdout.flush()


if __name__ == "__main__":
    import sys
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    if len(sys.argv) == 3 and sys.argv[1] == "--selfcheck":
        _selfcheck(sys.argv[2])
