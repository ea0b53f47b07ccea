"""Derive the `oneflow` policy fixtures from OneFlow's C++/Python-binding source (not recorded).

    python tools/oracle/derive_oneflow.py            # -> tests/fixtures/resolve{,-ops,-forms}/oneflow.txt.gz
    python tools/oracle/derive_oneflow.py --tables   # print the promotion tables as Markdown
    python tools/oracle/derive_oneflow.py --dry-run  # print the cells, write nothing

OneFlow's PyPI wheel is a placeholder, so nothing can be recorded: this script is a transcription of
the source code paths, one function per C++ functor, each citing where it comes from. Every rule and
every caveat is explained in tools/oracle/notes/oneflow.md. All files are read at one commit,
github.com/Oneflow-Inc/oneflow @ 25c8978c1c8b1371ef6aa4187dae4495bd233c35 (master, 2025-08-20);
"L" = line at that commit, "@" = a character offset kept from the first derivation where the
function is unchanged. Short names:

  dtype.cpp   oneflow/core/framework/dtype.cpp
  tp.cpp      oneflow/core/functional/tensor_processor.cpp
  bf.h/.cpp   oneflow/core/functional/impl/binary_functor.{h,cpp}
  math.cpp    oneflow/core/functional/impl/math_functor.cpp
  unary.h/cpp oneflow/core/functional/impl/unary_functor.{h,cpp}
  util.cpp    oneflow/core/functional/impl/util_ops_functor.cpp
  array.cpp   oneflow/core/functional/impl/array_functor.cpp
  nn.cpp      oneflow/core/functional/impl/nn_functor.cpp
  scalar.h    oneflow/core/common/scalar.h (and scalar.cpp)
  common.cpp  oneflow/api/python/functional/common.cpp
  parg.cpp    oneflow/api/python/functional/python_arg.cpp
  tfn.cpp     oneflow/api/python/framework/tensor_functions.cpp
  yaml        oneflow/core/functional/functional_api.yaml
  init        python/oneflow/__init__.py (which flow.X exist)
  ops/*.cpp   oneflow/user/ops/ (each op's InferDataType)
  mm_op.cpp   oneflow/user/ops/matmul_op.cpp
  common_impl oneflow/core/functional/impl/common.cpp

Scope: the dtype the functional front end computes (promotion, casts, scalar handling, in-place
checks, each op's InferDataType) and the errors raised there. Kernel availability per device is NOT
modelled (see notes §10.2: the CPU primitives have no uint16/uint32/uint64/int16 kernels, so a real
CPU run would fail on many cells this file answers with a dtype).
"""
from __future__ import annotations

import argparse
import gzip
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cases  # noqa: E402
import ops_cases  # noqa: E402
import forms_cases  # noqa: E402
from syntax import DTYPES  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "tests", "fixtures", "resolve", "oneflow.txt.gz")
OUT_FORMS = os.path.join(ROOT, "tests", "fixtures", "resolve-forms", "oneflow.txt.gz")
OUT_OPS_OPERATOR = os.path.join(ROOT, "tests", "fixtures", "resolve-ops-operator", "oneflow.txt.gz")
OUT_OPS = os.path.join(ROOT, "tests", "fixtures", "resolve-ops", "oneflow.txt.gz")
COMMIT = "25c8978c1c8b1371ef6aa4187dae4495bd233c35"  # Oneflow-Inc/oneflow master, 2025-08-20
HEADER = (f"# policy=oneflow framework=oneflow (DERIVED FROM SOURCE @ {COMMIT}, not recorded: no runnable "
          "OneFlow) by tools/oracle/derive_oneflow.py\n")
HEADER_FORMS = HEADER.replace("\n", "; issue 10 families function (flow.add(a, b), ...), result_type, "
                              "promote_types, can_cast, nary (flow.cat, flow.stack, flow.where, flow.clip), dtype "
                              "(tools/oracle/forms_cases.py); casting not derived (NumPy only)\n")
HEADER_OPS_OPERATOR = HEADER.replace("\n", "; the Python operators of the issue-12 ops (ops_cases.py "
                                     "OPERATOR_OPS; tensor_functions.cpp PyTensorObject_as_number)\n")
HEADER_OPS = HEADER.replace("\n", "; issue 12 ops (tools/oracle/ops_cases.py), each through its function flow.NAME, "
                            "written OP:function for the ops with a Python operator\n")

# ---------------------------------------------------------------------------------------------
# DataType enum (data_type.proto, as restated in dtype.cpp L190-211) and the short names the
# lookup table uses (dtype.cpp L166-187).
# ---------------------------------------------------------------------------------------------
CODES = ["iv", "c1", "f4", "f8", "i1", "i4", "i8", "u1", "re", "f2", "bu", "bf", "b1", "u2", "u4",
         "u8", "u16", "i2", "i16", "cp4", "cp8", "cp16"]  # index == DataType value (kInvalid=0 .. kComplex128=21)
IDX = {c: i for i, c in enumerate(CODES)}

# NumPy canonical name <-> OneFlow short code
NP2OF = {"bool": "b1", "uint8": "u1", "uint16": "u2", "uint32": "u4", "uint64": "u8",
         "int8": "i1", "int16": "i2", "int32": "i4", "int64": "i8", "bfloat16": "bf",
         "float16": "f2", "float32": "f4", "float64": "f8", "complex64": "cp8", "complex128": "cp16"}
OF2NP = {v: k for k, v in NP2OF.items()}
OUTSIDE_NAMES = {"cp4": "complex32", "i16": "int128", "u16": "uint128", "iv": "invalid", "c1": "char",
                 "re": "of_record", "bu": "tensor_buffer"}

# dtype.cpp L225-248: _promoteTypesLookup, copied verbatim (row = a, column = b of promoteTypes(a, b)).
_TABLE_TEXT = """
      /*          iv   c1   f4   f8   i1   i4   i8   u1   re   f2   bu   bf   b1   u2   u4   u8   u16   i2   i16   cp4   cp8   cp16 */
      /* iv */   {iv,  c1,  f4,  f8,  i1,  i4,  i8,  u1,  re,  f2,  bu,  bf,  b1,  u2,  u4,  u8,  u16,  i2,  i16,  cp4,  cp8,  cp16},
      /* c1 */   {c1,  c1,  f4,  f8,  i1,  i4,  i8,  c1,  iv,  f2,  iv,  bf,  c1,  u2,  u4,  u8,  u16,  i2,  i16,  iv,   cp8,  cp16},
      /* f4 */   {f4,  f4,  f4,  f8,  f4,  f4,  f4,  f4,  iv,  f4,  iv,  bf,  f4,  f4,  f4,  f4,  f4,   f4,  f4,   iv,   cp8,  cp16},
      /* f8 */   {f8,  f8,  f8,  f8,  f8,  f8,  f8,  f8,  iv,  f8,  iv,  bf,  f8,  f8,  f8,  f8,  f8,   f8,  f8,   iv,   cp8,  cp16},
      /* i1 */   {i1,  i1,  f4,  f8,  i1,  i4,  i8,  i2,  iv,  f2,  iv,  bf,  i1,  i4,  i8,  i16, iv,   i2,  i16,  iv,   cp8,  cp16},
      /* i4 */   {i4,  i4,  f4,  f8,  i4,  i4,  i8,  i4,  iv,  f2,  iv,  bf,  i4,  i4,  i8,  i16, iv,   i4,  i16,  iv,   cp8,  cp16},
      /* i8 */   {i8,  i8,  f4,  f8,  i8,  i8,  i8,  i8,  iv,  f2,  iv,  bf,  i8,  i8,  i8,  i16, iv,   i8,  i16,  iv,   cp8,  cp16},
      /* u1 */   {u1,  c1,  f4,  f8,  i2,  i4,  i8,  u1,  iv,  f2,  iv,  bf,  u1,  u2,  u4,  u8,  u16,  i2,  i16,  iv,   cp8,  cp16},
      /* re */   {iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,   iv,  iv,   iv,   iv,   iv},
      /* f2 */   {f2,  f2,  f4,  f8,  f2,  f2,  f2,  f2,  iv,  f2,  iv,  bf,  f2,  f2,  f2,  f2,  iv,   f2,  f2,   iv,   cp8,  cp16},
      /* bu */   {iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  bu,  iv,  iv,  iv,  iv,  iv,  iv,   iv,  iv,   iv,   iv,   iv},
      /* bf */   {bf,  bf,  bf,  bf,  bf,  bf,  bf,  bf,  iv,  bf,  iv,  bf,  bf,  bf,  bf,  bf,  iv,   bf,  bf,   iv,   cp8,  cp16},
      /* b1 */   {b1,  c1,  f4,  f8,  i1,  i4,  i8,  u1,  iv,  f2,  iv,  bf,  b1,  u2,  u4,  u8,  u16,  i2,  i16,  iv,   cp8,  cp16},
      /* u2 */   {u2,  u2,  f4,  f8,  i4,  i4,  i8,  u2,  iv,  f2,  iv,  bf,  u2,  u2,  u4,  u8,  u16,  i4,  i16,  iv,   cp8,  cp16},
      /* u4 */   {u4,  u4,  f4,  f8,  i8,  i8,  i8,  u4,  iv,  f2,  iv,  bf,  u4,  u4,  u4,  u8,  u16,  i8,  i16,  iv,   cp8,  cp16},
      /* u8 */   {u8,  u8,  f4,  f8,  i16, i16, i16, u8,  iv,  f2,  iv,  bf,  u8,  u8,  u8,  u8,  u16,  i16, i16,  iv,   cp8,  cp16},
      /* u16 */  {u16, u16, f4,  f8,  iv,  iv,  iv,  u16, iv,  f2,  iv,  bf,  u16, u16, u16, u16, u16,  iv,  iv,   iv,   cp8,  cp16},
      /* i2 */   {i2,  i2,  f4,  f8,  i2,  i4,  i8,  i2,  iv,  f2,  iv,  bf,  i2,  i4,  i8,  i16, iv,   i2,  i16,  iv,   cp8,  cp16},
      /* i16 */  {i16, i16, f4,  f8,  i16, i16, i16, i16, iv,  f2,  iv,  bf,  i16, i16, i16, i16, iv,   i16, i16,  iv,   cp8,  cp16},
      /* cp4 */  {iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,  iv,   iv,  iv,   cp4,  cp8,  cp16},
      /* cp8 */  {cp8, cp8, cp8, cp8, cp8, cp8, cp8, cp8, iv,  cp8, iv,  cp8, cp8, cp8, cp8, cp8, cp8,  cp8, cp8,  cp8,  cp8,  cp16},
      /* cp16 */ {cp16,cp16,cp16,cp16,cp16,cp16,cp16,cp16,iv,  cp16,iv,  cp16,cp16,cp16,cp16,cp16,cp16, cp16,cp16, cp16, cp16, cp16}};
"""


def _parse_table(text):
    rows = {}
    for line in text.strip().splitlines()[1:]:
        head, body = line.split("*/", 1)
        name = head.replace("/*", "").strip()
        body = body.strip().rstrip(",;").rstrip("}").strip().lstrip("{").rstrip("}")
        rows[name] = [c.strip() for c in body.split(",")]
    assert list(rows) == CODES, list(rows)
    for r in rows.values():
        assert len(r) == len(CODES) and all(c in IDX for c in r), r
    return [rows[c] for c in CODES]


TABLE = _parse_table(_TABLE_TEXT)

# dtype.cpp L127-149 (@ 25c8978c): DType::priority_order[DataType_ARRAYSIZE], one initializer per
# DataType value (the order of the comment at L213-216: iv < b1 < u1 < c1 < i1 < u2 < i2 < u4 < i4 <
# u8 < i8 < u16 < i16 < f2 < f4 < f8 < cp4 < cp8 < cp16 < bf < re < bu). (The index's older copy,
# which the first derivation used, skipped kUInt16 and left kComplex128 at 0; fixed upstream.)
PRIORITY = [0, 3, 14, 15, 4, 8, 10, 2, 20, 13, 21, 19, 1, 5, 7, 9, 11, 6, 12, 16, 17, 18]
assert len(PRIORITY) == 22


def prio(code):
    return PRIORITY[IDX[code]]


# dtype.cpp L67-89: DTypeMeta(name, is_signed, is_integer, is_floating_point, is_complex)
IS_INTEGER = {"i1", "i2", "i4", "i8", "i16", "u1", "u2", "u4", "u8", "u16"}   # bool is NOT integer
IS_FLOATING = {"f2", "f4", "f8", "bf"}                                       # complex is NOT floating
IS_COMPLEX = {"cp4", "cp8", "cp16"}


def promote_types(a, b):
    """dtype.cpp L165-251: promoteTypes(a, b) = _promoteTypesLookup[a][b]."""
    return TABLE[IDX[a]][IDX[b]]


class OFError(Exception):
    def __init__(self, kind, why):
        super().__init__(why)
        self.kind = kind   # no_promotion / overflow / unsupported
        self.why = why


def numpy_name(code):
    """The NumPy name of OneFlow dtype `code`, or the error of a result outside the 15."""
    if code not in OF2NP:
        raise OFError("unsupported", f"result dtype {OUTSIDE_NAMES.get(code, code)} is outside the 15")
    return OF2NP[code]


class T:
    """A tensor as the functors see it: dtype code and number of axes (1 = 'tensor', 0 = 0-d)."""

    def __init__(self, code, ndim):
        self.code, self.ndim = code, ndim

    def with_code(self, code):
        return T(code, self.ndim)


def cast(t, code):
    """functional::Cast. A cast to a dtype outside the 15 (complex32, int128) has no kernel on any
    device (ep/*/primitive type seqs); best reading: it raises, reported as !unsupported."""
    if code not in OF2NP:
        raise OFError("unsupported", f"cast to {OUTSIDE_NAMES.get(code, code)} (no kernel; outside the 15 dtypes)")
    return t.with_code(code)


# ---------------------------------------------------------------------------------------------
# TensorProcessor (tp.cpp)
# ---------------------------------------------------------------------------------------------
def compute_common_dtype(ts):
    """tp.cpp L31-45: 0-d tensors are skipped unless all inputs are 0-d or the 0-d tensor is
    complex; the fold is
    common = promoteTypes(tensor.dtype, common), starting from kInvalidDataType."""
    all_scalar = all(t.ndim == 0 for t in ts)
    common = "iv"
    for t in ts:
        if not all_scalar and t.ndim == 0 and t.code not in IS_COMPLEX:  # L38-41: complex 0-d kept
            continue
        common = promote_types(t.code, common)
    return common


def tensor_processor(ts, lowest=None, promote=False, promote_dtype=None, int_to_float=False):
    """tp.cpp L101-138 TensorProcessor::Apply(); `lowest` is the per-input lowest dtype (one value
    for all inputs, as every caller here passes), None = kInvalidDataType."""
    ts = list(ts)
    if promote:
        different = len(ts) > 1 and any(t.code != ts[0].code for t in ts)  # tp.cpp L44-51
        if different:
            common = promote_dtype if promote_dtype is not None else compute_common_dtype(ts)  # L105-109
            if int_to_float and common in IS_INTEGER:  # L110-114
                common = "f4"
            ts = [t if t.code == common else cast(t, common) for t in ts]  # L115, CastToSameType L53-60
        else:
            if len(ts) == 1 and ts[0].code not in IS_FLOATING and ts[0].code not in IS_COMPLEX:  # L119-126
                target = lowest if lowest is not None else "f4"
                if ts[0].code != target:
                    ts = [cast(ts[0], target)]
    else:
        for i, t in enumerate(ts):  # L124-134
            base = lowest
            if base is not None and base != "iv" and prio(base) > prio(t.code):
                ts[i] = cast(t, base)
    return ts


def check_inplace_cast_valid(x, x_cast):
    """common_impl CheckInplaceCastValid: 'result type X can't be cast to the desired output type Y'."""
    if x.code != x_cast.code:
        raise OFError("no_promotion", f"result type {x_cast.code} can't be cast to the desired output type {x.code}")


# ---------------------------------------------------------------------------------------------
# Tensor-tensor functors (bf.h, bf.cpp, math.cpp)
# ---------------------------------------------------------------------------------------------
def binary_functor(x, y):
    """bf.h L38-56 BinaryFunctor: promote to the common dtype (0-d skipped)."""
    return tensor_processor([x, y], promote=True)


def binary_float_functor(x, y):
    """bf.h L58-81 BinaryFloatFunctor (Div, Pow, BroadcastPow): if the raw table entry
    promoteTypes(x, y) (no 0-d skipping) is an integer dtype, every input is cast up to float32 by
    priority; otherwise promote to the common dtype and turn an integer common dtype into float32."""
    if promote_types(x.code, y.code) in IS_INTEGER:
        return tensor_processor([x, y], lowest="f4")
    return tensor_processor([x, y], promote=True, int_to_float=True)


def add_functor(x, y, inplace):
    """bf.cpp L67-156 AddFunctor: in place, promote_dtype is forced to the input's dtype (L110)."""
    xs = tensor_processor([x, y], promote=True, promote_dtype=x.code if inplace else None)
    if inplace:
        check_inplace_cast_valid(x, xs[0])  # L135 (always passes: x is never cast)
    return xs[0].code


def inplaceable_binary_functor(x, y, inplace):
    """bf.h L103-128 (SubFunctor, bf.cpp L158-180)."""
    xs = tensor_processor([x, y], promote=True)
    if inplace:
        check_inplace_cast_valid(x, xs[0])  # bf.h L116
    return xs[0].code


def inplace_mul_functor(x, y):
    """bf.cpp L204-230 InplaceMulFunctor."""
    xs = tensor_processor([x, y], promote=True)
    check_inplace_cast_valid(x, xs[0])  # L224
    return x.code


def inplace_div_functor(x, y):
    """bf.cpp L301-345 InplaceDivFunctor: like BinaryFloatFunctor, then the cast check."""
    if promote_types(x.code, y.code) in IS_INTEGER:  # L323
        xs = tensor_processor([x, y], lowest="f4")  # L324
    else:
        xs = tensor_processor([x, y], promote=True, int_to_float=True)  # L326-328
    check_inplace_cast_valid(x, xs[0])  # L336
    return x.code


def inplace_broadcast_greater(x, y):
    """bf.cpp InplaceBroadcastGreaterFunctor (Tensor.gt_) @~20.3k: promote, cast check, write into x."""
    xs = tensor_processor([x, y], promote=True)
    check_inplace_cast_valid(x, xs[0])
    return x.code


def reduce_sum_whole(x):
    """math.cpp L466-487 ReduceSumWholeFunctor: 0-d input is returned as is (L474); otherwise lowest
    dtype int64 by priority (L481)."""
    if x.ndim == 0:
        return x.code
    return tensor_processor([x], lowest="i8")[0].code


def reciprocal(x):
    """unary.h FloatUnaryFunctor (Reciprocal is in FLOAT_UNARY_FUNC_SEQ): AddInputs({x}, Float)
    .PromoteInputsToCommonDtype(true).PromoteIntegerInputsToFloatDtype(true) -> tp.cpp L117-121:
    a single non-floating input (bool, ints AND complex) is cast to float32."""
    return tensor_processor([x], lowest="f4", promote=True, int_to_float=True)[0]


# ---------------------------------------------------------------------------------------------
# Python scalars (common.cpp, parg.cpp, scalar.h, scalar.cpp)
# ---------------------------------------------------------------------------------------------
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1


class Scalar:
    """scalar.h L28-110. tag: B (bool), S (int64), D (double), C (complex)."""

    def __init__(self, tag, overflow=False):
        self.tag, self.overflow = tag, overflow

    def is_bool(self):
        return self.tag == "B"          # scalar.h L88

    def is_integral(self):
        return self.tag == "S"          # scalar.h L89 (HAS_S || HAS_U; bool is not integral)

    def is_floating(self):
        return self.tag == "D"          # scalar.h L90

    def is_complex(self):
        return self.tag == "C"          # scalar.h L93

    def mul(self, other):
        """scalar.cpp L38-51 operator*: complex if either is complex, else double if either is
        floating, else int64 (bool reads as 0/1 through As<int64_t>)."""
        if self.is_complex() or other.is_complex():
            return Scalar("C")
        if self.is_floating() or other.is_floating():
            return Scalar("D")
        return Scalar("S")

    def div(self, other):
        return self.mul(other)  # same macro, scalar.cpp L55


def unpack_literal(v):
    """common.cpp L149-168 PyUnpackScalar: bool -> HAS_B, int -> static_cast<int64_t>(PyLong_AsLongLong)
    (no overflow check: out of range returns -1 and leaves OverflowError pending), float -> double,
    complex -> HAS_C."""
    if isinstance(v, bool):
        return Scalar("B")
    if isinstance(v, int):
        return Scalar("S", overflow=not (INT64_MIN <= v <= INT64_MAX))
    if isinstance(v, float):
        return Scalar("D")
    if isinstance(v, complex):
        return Scalar("C")
    raise TypeError(v)


def scalar_math_base(x, s, op_name, inplace=False):
    """math.cpp L73-130 ScalarMathBaseFunctor."""
    if s.is_floating() or s.is_complex():  # L88-96 (a complex Scalar is read As<double>)
        lowest = "f4" if prio(x.code) < prio("f2") else x.code
    elif s.is_integral():  # L97-108
        if prio(x.code) == prio("b1"):
            lowest = "i8"
        elif op_name == "scalar_div":
            lowest = "f2" if x.code == "f2" else "f4"
        else:
            lowest = x.code
    else:  # L109-112: bool Scalars
        raise OFError("unsupported", f"The scalar in {op_name} should be float or int.")
    xc = tensor_processor([x], lowest=lowest)[0]  # L113
    if inplace:
        check_inplace_cast_valid(x, xc)  # L116
        return x.code
    return xc.code


def as_int64_scalar(s):
    """scalar.h L65-72: As<int64_t>() / Value<int64_t>(); HAS_C hits `default: assert(false); return 0`.
    Best reading: release builds define NDEBUG, so a complex Scalar silently becomes int64 0."""
    return Scalar("S")


def scalar_add(x, other, alpha=None, inplace=False):
    """math.cpp L132-151 ScalarAddFunctor: other*alpha is re-made as double if either is floating,
    else int64 (L144-148) -- so a bool literal becomes an int, and a complex one int 0 (NDEBUG)."""
    alpha = alpha or Scalar("S")
    if other.is_floating() or alpha.is_floating():
        scalar = Scalar("D")
    else:
        scalar = as_int64_scalar(other)
    return scalar_math_base(x, scalar, "scalar_add", inplace)


def scalar_add2(lit, t, alpha_is_one=True):
    """math.cpp L153-172 ScalarAdd2Functor (literal on the left): when alpha != 1 the tensor is first
    multiplied by alpha, `other_ = ScalarMul(alpha, other)` (L168), then ScalarAdd(other_, input) (L170)."""
    other = t if alpha_is_one else t.with_code(scalar_math_base(t, Scalar("S"), "scalar_mul"))
    return scalar_add(other, lit)


def scalar_sub(x, s, inplace=False):
    """math.cpp L174-180 ScalarSubFunctor: ScalarAdd(input, Scalar(-1) * scalar, alpha, inplace) (L178)."""
    return scalar_add(x, Scalar("S").mul(s), None, inplace)


def scalar_sub2(lit, t):
    """math.cpp L182-188 ScalarSub2Functor: ScalarAdd(scalar, input, Scalar(-1) * alpha) (L186), i.e.
    ScalarAdd2Functor with alpha = -1 (an int Scalar): the tensor goes through ScalarMul(-1, t) first."""
    return scalar_add2(lit, t, alpha_is_one=False)


def scalar_logical(x, s):
    """math.cpp ScalarLogicalBaseFunctor @96727: float -> lowest float32 for low-priority tensors;
    int or bool -> lowest int64 for bool tensors; complex -> UNIMPLEMENTED. Output is bool."""
    if s.is_floating():
        lowest = "f4" if prio(x.code) < prio("f2") else x.code
    elif s.is_integral() or s.is_bool():
        lowest = "i8" if prio(x.code) == prio("b1") else x.code
    else:
        raise OFError("unsupported", "The scalar in scalar_logical_* should be float or int.")
    tensor_processor([x], lowest=lowest)
    return "b1"


def inplace_scalar_logical_greater(x, s):
    """math.cpp InplaceScalarLogicalGreaterFunctor (Tensor.gt_(scalar)), right after
    ScalarLogicalGreater2Functor: same lowest dtype as above, but through
    PromoteInputsToCommonDtype(true) -> tp.cpp L117-121 casts a non-floating x to `lowest`; then
    CheckInplaceCastValid."""
    if s.is_floating():
        lowest = "f4" if prio(x.code) < prio("f2") else x.code
    elif s.is_integral() or s.is_bool():
        lowest = "i8" if prio(x.code) == prio("b1") else x.code
    else:
        raise OFError("unsupported", "The scalar in scalar_logical_inplace_greater should be float or int.")
    xc = tensor_processor([x], lowest=lowest, promote=True)[0]
    check_inplace_cast_valid(x, xc)
    return x.code


# ---------------------------------------------------------------------------------------------
# The Python surface: which functor each cell reaches (tfn.cpp, yaml, parg.cpp)
# ---------------------------------------------------------------------------------------------
ARITH = {"add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power", "maximum", "minimum"}
COMPARE = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal"}
LOGICAL = {"logical_and", "logical_or", "logical_xor"}
BITWISE = {"bitwise_and": "logical_and", "bitwise_or": "logical_or", "bitwise_xor": "logical_xor"}


def tensor_tensor(op, a, b):
    """Both operands tensors (n-d or 0-d). tfn.cpp L96-106: `&`,`^`,`|` are logical_and/xor/or and
    `%` is fmod; yaml: each (Tensor, Tensor) overload."""
    op = BITWISE.get(op, op)
    if op in ("add",):
        return add_functor(a, b, inplace=False)
    if op == "subtract":
        return inplaceable_binary_functor(a, b, inplace=False)
    if op in ("multiply", "floor_divide", "remainder", "maximum", "minimum"):
        # MulFunctor bf.cpp L182-202; FloorDivFunctor bf.cpp L397-406; BroadcastFModFunctor
        # bf.cpp @22769; Maximum/MinimumFunctor math.cpp just before @96727.
        return binary_functor(a, b)[0].code
    if op in ("divide", "power"):
        # DivFunctor bf.cpp L270-275; PowFunctor bf.cpp L385-395 (-> BroadcastPow when shapes
        # differ, also a BinaryFloatFunctor, bf.cpp L151-156).
        return binary_float_functor(a, b)[0].code
    if op in COMPARE or op in LOGICAL:
        binary_functor(a, b)  # Broadcast*Functor : BinaryFunctor; the ops' output dtype is kBool
        return "b1"
    raise ValueError(op)


def tensor_literal(op, t, s):
    """Tensor on the left, Python literal on the right (yaml (Tensor, Scalar) overloads)."""
    op = BITWISE.get(op, op)
    if op == "add":
        return scalar_add(t, s)
    if op == "subtract":
        return scalar_sub(t, s)
    if op == "multiply":
        return scalar_math_base(t, s, "scalar_mul")
    if op == "divide":
        return scalar_math_base(t, s, "scalar_div")          # math.cpp L210-216
    if op == "floor_divide":
        return scalar_math_base(t, s, "scalar_floordiv")     # math.cpp L335-338
    if op == "remainder":
        return scalar_math_base(t, s, "scalar_fmod")         # math.cpp L345-348 (`%` is fmod)
    if op == "power":
        return scalar_math_base(t, s, "scalar_pow")          # math.cpp L275-278
    if op in ("maximum", "minimum"):
        raise OFError("unsupported", f"{op}(): only (Tensor input, Tensor other) -- TypeError from the arg parser")
    if op in COMPARE or op in LOGICAL:
        return scalar_logical(t, s)
    raise ValueError(op)


def literal_tensor(op, s, t):
    """Python literal on the left: Python calls the tensor's slot with (literal, tensor)
    (tfn.cpp NB_BINARY_FUNC packs (a, b) as given), comparisons are reflected by Python."""
    op = BITWISE.get(op, op)
    if op == "add":
        return scalar_add2(s, t)                             # yaml (Scalar, Tensor) => ScalarAdd
    if op == "subtract":
        return scalar_sub2(s, t)                             # yaml (Scalar, Tensor) => ScalarSub
    if op == "multiply":
        return scalar_math_base(t, s, "scalar_mul")          # ScalarMul2Functor math.cpp L195-200
    if op == "divide":
        return scalar_math_base(reciprocal(t), s, "scalar_mul")  # ScalarDiv2Functor math.cpp L239-244
    if op == "power":
        return scalar_math_base(t, s, "scalar_reverse_pow")  # ScalarReversePowFunctor math.cpp L303-309
    if op in ("floor_divide", "remainder", "maximum", "minimum"):
        raise OFError("unsupported", f"no (Scalar, Tensor) overload for {op} -- TypeError from the arg parser")
    if op in COMPARE or op in LOGICAL:
        return scalar_logical(t, s)                          # reflected / *2Functor swap the operands
    raise ValueError(op)


FUNCTION_FORM = {"maximum", "minimum", "logical_and", "logical_or", "logical_xor"}


def out_of_place(op, a, b):
    """One binary cell without out=. Returns a dtype code or raises OFError."""
    if a.__class__ is T and b.__class__ is T:
        return tensor_tensor(op, a, b)
    if a.__class__ is T:
        s, lit_left = b, False
    else:
        s, lit_left = a, True
    code = literal_tensor(op, s, b) if lit_left else tensor_literal(op, a, s)
    if s.overflow:
        # PyLong_AsLongLong left an OverflowError pending (common.cpp L153); once the functor has
        # returned, NB_BINARY_FUNC's PyErr_Occurred() check (tfn.cpp L85) raises it.
        raise OFError("overflow", "Python int too large to convert to C long (OverflowError left pending by PyLong_AsLongLong)")
    return code


def in_place(op, a, b):
    """A cell with out= equal to a's dtype: the Python in-place operator or method (tfn.cpp L132-183)."""
    lit = b.__class__ is Scalar
    if op == "add":                      # a += b -> add(a, b, inplace=True)
        code = scalar_add(a, b, None, True) if lit else add_functor(a, b, inplace=True)
    elif op == "subtract":               # a -= b -> sub(a, b, inplace=True)
        code = scalar_sub(a, b, True) if lit else inplaceable_binary_functor(a, b, inplace=True)
    elif op == "multiply":               # a *= b -> mul_(a, b): InplaceScalarMul / InplaceMul
        code = scalar_math_base(a, b, "scalar_mul", True) if lit else inplace_mul_functor(a, b)
    elif op == "divide":                 # a /= b -> div_(a, b): InplaceScalarDiv / InplaceDiv
        code = (scalar_math_base(a, Scalar("D").div(b), "scalar_mul", True) if lit   # math.cpp L267-273
                else inplace_div_functor(a, b))
    elif op in ("floor_divide", "remainder", "power", "bitwise_and", "bitwise_or", "bitwise_xor"):
        # nb_inplace_floor_div / remainder / and / xor / or are NULL (tfn.cpp L173-183), so Python
        # falls back to `a = a op b`; nb_inplace_pow builds an inplace=True dict but passes NULL
        # (tfn.cpp L138-147): `a **= b` is out of place too. The result is the out-of-place one.
        return out_of_place(op, a, b)
    elif op == "greater":                # Tensor.gt_ (DIRECT_PASS greater_) is the only in-place comparison
        code = inplace_scalar_logical_greater(a, b) if lit else inplace_broadcast_greater(a, b)
    else:
        raise OFError("unsupported", f"no in-place form and no out= argument for {op}")
    if lit and b.overflow:
        raise OFError("overflow", "Python int too large to convert to C long")
    return code


def answer(cell):
    """The fixture token for one cases.Cell."""
    try:
        ops = [to_of(o) for o in cell.operands]
        if cell.op == "sum":
            code = reduce_sum_whole(ops[0])
        elif cell.op == "matmul":
            # nn.cpp MatMulFunctor @13645: two 1-d tensors reach the `a_num_axes == b_num_axes`
            # branch -> batch_matmul, whose InferTensorDesc4Matmul (mm_op.cpp) CHECK_GE(NumAxes, 2)
            # fails for every dtype.
            raise OFError("unsupported", "matmul of two 1-d tensors: Check failed NumAxes >= 2")
        elif cell.out is None:
            code = out_of_place(cell.op, ops[0], ops[1])
        elif cell.out != cell.operands[0].dtype:
            raise OFError("unsupported", "functional_api.yaml signatures take no out= argument")
        else:
            code = in_place(cell.op, ops[0], ops[1])
        return numpy_name(code)
    except OFError as e:
        return "!" + e.kind


# ---------------------------------------------------------------------------------------------
# Issue 12: unary ops, more binary ops, whole-tensor reductions (tools/oracle/ops_cases.py), each
# through the function `flow.NAME` of python/oneflow/__init__.py (`from oneflow._C import ...`),
# i.e. the functional_api.yaml signature and its functor. Notes: notes/oneflow.md R11-R20.
#   unary.h / unary.cpp  oneflow/core/functional/impl/unary_functor.{h,cpp}
#   util.cpp             oneflow/core/functional/impl/util_ops_functor.cpp
#   array.cpp            oneflow/core/functional/impl/array_functor.cpp
#   ops/*.cpp            oneflow/user/ops/<file> (each op's InferDataType)
# ---------------------------------------------------------------------------------------------
UNARY_OPS_12 = set(ops_cases.UNARY_OPS)
# the name `flow.X` each op is called by (python/oneflow/__init__.py); an op of ops_cases.py absent
# here has no function in OneFlow (no `flow.positive`, `flow.signbit`, `flow.angle`, shifts,
# `flow.hypot`, `flow.copysign`, `flow.nextafter`, `flow.fmax`/`fmin`, `flow.float_power`,
# `flow.divmod`, `flow.heaviside`: neither in __init__.py nor in functional_api.yaml)
FLOW_NAME = {
    "negative": "negative", "absolute": "abs", "sign": "sign", "square": "square", "sqrt": "sqrt",
    "reciprocal": "reciprocal", "exp": "exp", "expm1": "expm1", "log": "log", "log1p": "log1p",
    "log2": "log2", "log10": "log10", "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin",
    "arctan": "atan", "sinh": "sinh", "tanh": "tanh", "floor": "floor", "ceil": "ceil",
    "trunc": "trunc", "round": "round", "isnan": "isnan", "isinf": "isinf", "isfinite": "isfinite",
    "logical_not": "logical_not", "bitwise_invert": "bitwise_not", "real": "real", "imag": "imag",
    "conj": "conj", "arctan2": "atan2", "logaddexp": "logaddexp", "fmod": "fmod",
    "sum": "sum", "prod": "prod", "mean": "mean", "max": "max", "min": "min", "argmax": "argmax",
    "cumsum": "cumsum", "cumprod": "cumprod", "any": "any", "all": "all", "var": "var", "std": "std",
}
# unary.cpp FLOAT_UNARY_PRIMITIVE_FUNC_BWD_WITH_DY_X_SEQ / _DY_Y_SEQ / FLOAT_UNARY_FUNC_BWD_WITH_FILL_SEQ
# and `UNARY_ELEMENTWISE_FUNCTOR("negative", Negative, FloatUnaryFunctor)`: FloatUnaryFunctor.
FLOAT_UNARY = {"negative", "sign", "square", "sqrt", "reciprocal", "exp", "expm1", "log", "log1p",
               "log2", "log10", "sin", "cos", "tan", "arcsin", "arctan", "sinh", "tanh"}
# UnaryFunctor (abs: UNARY_PRIMITIVE_FUNC_BWD_WITH_DY_X_SEQ; floor/ceil/round: UNARY_FUNC_BWD_WITH_FILL_SEQ;
# bitwise_not: UNARY_ELEMENTWISE_FUNCTOR(..., UnaryFunctor)) and math.cpp TruncFunctor: no cast, and
# the ops' InferDataType is UnchangedDataType (ops/math_unary_elementwise_op.cpp, ops/trunc_op.cpp).
KEEP_UNARY = {"absolute", "floor", "ceil", "round", "trunc", "bitwise_invert"}
# util.cpp IsNan/IsInf/IsFiniteFunctor (UtilOpsFunctor, no cast); ops/util_ops.cpp: output kBool.
BOOL_UNARY = {"isnan", "isinf", "isfinite"}


def float_unary(x):
    """unary.h FloatUnaryFunctor: AddInputs({x}, Float).PromoteInputsToCommonDtype(true)
    .PromoteIntegerInputsToFloatDtype(true) -> tp.cpp L119-126: a bool or integer input is cast to
    float32; floating and complex inputs are kept. The ops' InferDataType: UnchangedDataType."""
    return tensor_processor([x], lowest="f4", promote=True, int_to_float=True)[0]


COMPLEX_TO_REAL = {"cp8": "f4", "cp16": "f8", "cp4": "f2"}  # ops/complex_ops.cpp complex_to_real_map


def unary(op, x):
    if op in FLOAT_UNARY:
        return float_unary(x).code
    if op in KEEP_UNARY:
        return x.code
    if op in BOOL_UNARY:
        return "b1"
    if op == "logical_not":
        # unary.cpp LOGICAL_FLOAT_UNARY_FUNC_SEQ: a FloatUnaryFunctor (ints -> float32), then
        # ops/logical_not_op.cpp InferDataTypeLogicalNot: kBool
        float_unary(x)
        return "b1"
    if op in ("real", "conj"):
        # math.cpp RealFunctor / ConjFunctor: a non-complex tensor is returned as it is; complex:
        # real -> ops/complex_ops.cpp complex_to_real_map, conj_physical -> UnchangedDataType
        if x.code not in IS_COMPLEX:
            return x.code
        return COMPLEX_TO_REAL[x.code] if op == "real" else x.code
    if op == "imag":
        # math.cpp ImagFunctor: CHECK(is_complex) "imag is implemented for tensors with complex dtypes"
        if x.code not in IS_COMPLEX:
            raise OFError("unsupported", "imag is implemented for tensors with complex dtypes")
        return COMPLEX_TO_REAL[x.code]
    raise ValueError(op)


def expand_one_element(x, y):
    """bf.cpp Atan2Functor: a 1-element operand is Expand()ed to the other's shape before
    BinaryFloatFunctor, so a 0-d tensor next to an n-d one is no longer 0-d (x first)."""
    if x.ndim == 0:
        return T(x.code, y.ndim), y
    if y.ndim == 0:
        return x, T(y.code, x.ndim)
    return x, y


def logaddexp(x, y):
    """math.cpp LogAddExpFunctor: Add(Maximum(x, y), Log(ScalarAdd(1.0, Exp(Negative(Abs(Sub(x, y)))))))."""
    maxes = binary_functor(x, y)[0]                         # Maximum: BinaryFunctor promotion
    d = T(inplaceable_binary_functor(x, y, inplace=False), max(x.ndim, y.ndim))   # Sub
    e = float_unary(float_unary(d))                         # Abs keeps; Negative, Exp: FloatUnary
    e = e.with_code(scalar_add(e, Scalar("D")))             # ScalarAdd(1.0, .) (ScalarAdd2, alpha 1)
    log = float_unary(e)
    return add_functor(T(maxes.code, d.ndim), log, inplace=False)


def cum_base(x, dtype):
    """math.cpp CumBaseFunctor (cumsum, cumprod; flow.cumsum(x, dim=0)): maybe_wrap_dim accepts
    dim 0 on a 0-d tensor (wrap_dim_utils.h, wrap_scalar); lowest dtype = dtype= if given, else
    int64, by priority (tp.cpp L130-139: cast only UP); ops/cum_ops.cpp: output = input dtype."""
    return tensor_processor([x], lowest=dtype or "i8")[0].code


def reduction(op, x, dtype):
    if op == "sum":
        # math.cpp ReduceSumWholeFunctor: cast to dtype= first; a 0-d input is returned as it was
        # given (`return x`, the cast dropped); else lowest dtype int64 by priority.
        if x.ndim == 0:
            return x.code
        t = cast(x, dtype) if dtype and dtype != x.code else x
        return tensor_processor([t], lowest="i8")[0].code
    if op == "prod":
        # math.cpp ReduceProdWholeFunctor: cast to dtype= first; lowest int64 for bool only
        t = cast(x, dtype) if dtype and dtype != x.code else x
        return tensor_processor([t], lowest="i8" if t.code == "b1" else t.code)[0].code
    if op in ("cumsum", "cumprod"):
        return cum_base(x, dtype)
    if dtype:
        raise ValueError(op)
    if op == "mean":
        # math.cpp ReduceMeanWholeFunctor: CHECK(IsFloatingDataType || IsComplexDataType) "Can only
        # calculate the mean of floating types or complex types"; then ReduceSumWhole and
        # ScalarMul(sum, 1.0 / n): the input dtype
        if x.code not in IS_FLOATING and x.code not in IS_COMPLEX:
            raise OFError("unsupported", "Can only calculate the mean of floating types or complex types.")
        return x.code
    if op in ("max", "min"):
        return x.code           # math.cpp Max/MinFunctor -> ReduceMax/Min; ops/reduce_ops.cpp InferDataType
    if op == "argmax":
        return "i8"             # array.cpp ArgMaxFunctor (dim=None: Flatten, argmax); ops/argmax_op.cpp kInt64
    if op in ("any", "all"):
        return "b1"             # math.cpp ReduceAny/AllWholeFunctor; ops/reduce_ops.cpp InferLogicalDataType
    if op == "var":
        # math.cpp VarianceFunctor: "var only support floating point dtypes" (IsFloatingDataType ||
        # IsHalfDataType); ops/variance_op.cpp CHECK(!reduce_axes.empty()) fails for a 0-d tensor
        if x.code not in IS_FLOATING:
            raise OFError("unsupported", "var only support floating point dtypes")
        if x.ndim == 0:
            raise OFError("unsupported", "var of a 0-d tensor: Check failed !reduce_axes.empty()")
        return x.code
    if op == "std":
        # math.cpp StandardDeviationFunctor: a 0-d tensor -> Constant(shape, 0, input dtype);
        # float64 computed as is; any other dtype cast to float64, computed, cast back to its dtype
        return x.code
    raise ValueError(op)


def op_answer(cell):
    """The fixture token for one ops_cases.py cell (flow.NAME on its operands)."""
    try:
        if cell.op not in FLOW_NAME:
            raise OFError("unsupported", f"oneflow has no function for {cell.op}")
        ops = [to_of(o) for o in cell.operands]
        lits = [o for o in ops if o.__class__ is Scalar]
        if lits and cell.op != "fmod":
            # every signature of these functions takes Tensor arguments only (yaml); a Python
            # number is no Tensor (python_arg.cpp TypeCheck kTENSOR: PyTensor_Check) -> TypeError
            raise OFError("unsupported", f"flow.{FLOW_NAME[cell.op]} takes tensors only")
        if len(ops) == 1 and cell.op in UNARY_OPS_12:
            code = unary(cell.op, ops[0])
        elif len(ops) == 1:
            code = reduction(cell.op, ops[0], NP2OF[cell.dtype] if cell.dtype else None)
        elif cell.op == "arctan2":
            code = binary_float_functor(*expand_one_element(ops[0], ops[1]))[0].code
        elif cell.op == "logaddexp":
            code = logaddexp(ops[0], ops[1])
        elif cell.op == "fmod":
            # yaml fmod: (Tensor, Tensor) => BroadcastFMod (a BinaryFunctor), (Tensor, Scalar) =>
            # ScalarFMod (R8); no (Scalar, Tensor) overload
            a, b = ops
            if a.__class__ is Scalar:
                raise OFError("unsupported", "fmod has no (Scalar, Tensor) overload -- TypeError from the arg parser")
            code = tensor_literal("remainder", a, b) if b.__class__ is Scalar else binary_functor(a, b)[0].code
            if b.__class__ is Scalar and b.overflow:
                raise OFError("overflow", "Python int too large to convert to C long")
        else:
            raise ValueError(cell.op)
        return numpy_name(code)
    except OFError as e:
        return "!" + e.kind


# ---------------------------------------------------------------------------------------------
# Issue 10: the function form (tools/oracle/forms_cases.py family `function`): `flow.add(a, b)`
# and the other functions of python/oneflow/__init__.py, against the operator (tfn.cpp). Notes:
# notes/oneflow.md R21-R23.
# ---------------------------------------------------------------------------------------------
# op -> the function (`from oneflow._C import ...` in __init__.py), PyTorch's names where OneFlow
# has them (flow.eq is broadcast_equal; flow.equal compares whole tensors); None: no function
FUNCTION_NAME = {
    "add": "add", "subtract": "sub", "multiply": "mul", "divide": "div",
    "floor_divide": "floor_divide", "remainder": None, "power": "pow", "maximum": "maximum",
    "minimum": "minimum", "equal": "eq", "not_equal": "ne", "less": "lt", "less_equal": "le",
    "greater": "gt", "greater_equal": "ge", "logical_and": "logical_and",
    "logical_or": "logical_or", "logical_xor": "logical_xor", "bitwise_and": "bitwise_and",
    "bitwise_or": "bitwise_or", "bitwise_xor": "bitwise_xor", "matmul": "matmul", "sum": "sum",
}


def scalar_bitwise(x, s):
    """math.cpp ScalarBitwiseBaseFunctor (scalar_bitwise_and/or/xor, and the *2 functors that swap
    the operands): CHECK(scalar.IsIntegral() || scalar.IsBool()) "Bitwise ops only support int and
    bool dtype"; lowest dtype int64 for a bool tensor, else its own (cast up by priority);
    user/ops/scalar_bitwise_op.cpp: output = input dtype."""
    if not (s.is_integral() or s.is_bool()):
        raise OFError("unsupported", "Bitwise ops only support int and bool dtype")
    return tensor_processor([x], lowest="i8" if x.code == "b1" else x.code)[0].code


def function_answer(cell):
    """The fixture token for `OP:function` (flow.NAME(a, b) / flow.sum(a) / flow.matmul(a, b))."""
    if FUNCTION_NAME.get(cell.op, "") is None:
        return "!unsupported"   # no flow.remainder (the `%` operator is fmod, R21)
    if not cell.op.startswith("bitwise_"):
        # the operators call the same functional entries (tfn.cpp NB_BINARY_FUNC: functional::add
        # ... with (a, b) as Python passes them; Tensor.sum: DIRECT_PASS functional::reduce_sum),
        # and a reflected comparison (`1 < t` is `t > 1`) meets the same scalar functor as
        # flow.lt(1, t)'s (Scalar, Tensor) overload (R22)
        return answer(cases.Cell(cell.op, cell.operands))
    try:
        ops = [to_of(o) for o in cell.operands]
        a, b = ops
        if a.__class__ is T and b.__class__ is T:
            # BroadcastBitwise{And,Or,Xor}Functor: BinaryFunctor (R1-R3); the op's dtype is the
            # common dtype (math_binary_broadcast_ops.cpp InferDataTypeBinaryBroadcastNormal)
            code = binary_functor(a, b)[0].code
        else:
            t, s = (a, b) if a.__class__ is T else (b, a)
            code = scalar_bitwise(t, s)
            if s.overflow:
                raise OFError("overflow", "Python int too large to convert to C long")
        return numpy_name(code)
    except OFError as e:
        return "!" + e.kind


# tfn.cpp PyTensorObject_as_number (L150-190): nb_negative -> functional::negative, nb_absolute ->
# abs, nb_invert -> bitwise_not (the functions' functors); nb_positive, nb_divmod, nb_lshift,
# nb_rshift are NULL and no Python class of Tensor defines __round__ -> TypeError (R24)
OPERATOR_NULL = {"positive", "round", "left_shift", "right_shift", "divmod"}


def operator_answer(cell):
    """The fixture token for an issue-12 op's Python operator (`-a`, `+a`, `abs(a)`, `~a`, `a << b`,
    `a >> b`, `divmod(a, b)`, `round(a)`)."""
    if cell.op in OPERATOR_NULL:
        return "!unsupported"
    return op_answer(cell)


def forms_answer(cell):
    if cell.op in ("concatenate", "stack", "where", "clip"):
        return nary_answer(cell)
    if cell.op in ("result_type", "promote_types", "can_cast"):
        return "!unsupported"   # no flow.result_type / promote_types / can_cast (R23)
    if cell.dtype:
        return "!unsupported"   # no add signature has dtype= (yaml): TypeError (R23)
    return function_answer(cell)


# ---------------------------------------------------------------------------------------------
# Issue 10: the n-ary ops (forms_cases.py family `nary`): flow.cat, flow.stack, flow.where,
# flow.clip. Notes: notes/oneflow.md R25-R28.
# ---------------------------------------------------------------------------------------------
# dtype.cpp / data_type.cpp @ 25c8978c: IsIntegralDataType is INT_DATA_TYPE_SEQ (int8, int32,
# int64) + UNSIGNED_INT_DATA_TYPE_SEQ (uint8) only; IsFloatingDataType is float, double, float16,
# bfloat16 (data_type.cpp L31-49, data_type_seq.h L26-40)
OF_INTEGRAL = {"i1", "i4", "i8", "u1"}
OF_FLOATING = {"f4", "f8", "f2", "bf"}
# common.cpp L174-197 PyScalarTensorCheck / PyUnpackScalarTensor (a 0-d tensor passed as a
# Scalar argument): IsTriviallyCopyableDataType (POD + float16/bfloat16 + complex + int16;
# data_type_seq.h L52-55, data_type.cpp L68-76) admits it; then bool -> HAS_B, IsIntegral ->
# int64, IsFloating -> PyUnpackFloatScalarTensor_AsDouble, whose switch (FLOATING_DATA_TYPE_SEQ
# INT UNSIGNED_INT: float, double, int8/32/64, uint8) has no float16/bfloat16 case -> cast_error;
# complex -> HAS_C. int16 passes the check but none of the unpackers -> RuntimeError "The object
# is not scalar tensor"; uint16/32/64 are not trivially copyable -> not a Scalar (TypeError).
ZERO_DIM_AS_SCALAR = {"b1": "B", "i1": "S", "i4": "S", "i8": "S", "u1": "S", "f4": "D", "f8": "D",
                      "cp8": "C", "cp16": "C"}
FLOAT32_MAX = 3.4028234663852886e38
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1


def concat(ts):
    """array.cpp L690-754 ConcatFunctor: every input must have the first's number of axes (L710-
    716: "Tensors must have same number of dimensions"); then TensorProcessor
    PromoteInputsToCommonDtype(true) over the inputs (L731-734): ComputeCommonDType folds
    promoteTypes(t, common) over them (tp.cpp L31-45) -- an int128 on the way (uint64 with a
    signed int) is absorbed by a later float or complex, as the table rows of i16 say -- and each
    input is cast to it; concat_op.cpp InferDataType: the first input's (all equal by then)."""
    if any(t.ndim != ts[0].ndim for t in ts):
        raise OFError("unsupported", "Tensors must have same number of dimensions")
    return tensor_processor(ts, promote=True)[0].code


def stack(ts):
    """array.cpp L758-797 StackFunctor: no TensorProcessor; the `stack` op's InferDataType
    (stack_op.cpp L97-109) checks every input has the first's dtype: "InferDataType Failed"."""
    if any(t.code != ts[0].code for t in ts):
        raise OFError("no_promotion", "stack: InferDataType Failed. Expected the first input's dtype")
    return ts[0].code


def where_scalar_xy(x, y, xv, yv):
    """array.cpp L506-560 WhereScalarXYFunctor: both bool -> bool; both floating -> float32 when
    both values lie within float32's range, else float64; both integral and signed (a Python int
    is an int64 Scalar, HAS_S) -> int32 when both fit int32, else int64; anything else (a bool
    with an int, an int with a float, a complex) -> UNIMPLEMENTED."""
    if x.is_bool() and y.is_bool():
        return "b1"
    if x.is_floating() and y.is_floating():
        return "f4" if all(-FLOAT32_MAX <= v <= FLOAT32_MAX for v in (xv, yv)) else "f8"
    if x.is_integral() and y.is_integral():
        # an overflowing int was read as -1 (PyLong_AsLongLong); its OverflowError surfaces later
        vals = [v if INT64_MIN <= v <= INT64_MAX else -1 for v in (xv, yv)]
        return "i4" if all(INT32_MIN <= v <= INT32_MAX for v in vals) else "i8"
    raise OFError("unsupported", "The x scalar and y in Where shoule be bool, float or int at the same time.")


def where(cond, x, y, xv, yv):
    """functional_api.yaml `where`: (Tensor condition, Tensor x, Tensor y) => Where, (Tensor,
    Scalar, Tensor) => WhereScalarX, (Tensor, Tensor, Scalar) => WhereScalarY, (Tensor, Scalar,
    Scalar) => WhereScalarXY, tried in that order (a 0-d tensor is a Tensor for the first);
    python/oneflow/nn/modules/where.py where_op passes (condition, x, y) to flow._C.where.
    WhereScalarX/Y (array.cpp L454-504) make the scalar a 0-d Constant of the OTHER operand's
    dtype (Constant reads the value As<int64_t>/As<double>, a complex one 0 under NDEBUG, R8);
    WhereFunctor (L438-452) dispatches the `where` op, whose InferDataType (where_op.cpp L64-73)
    needs a bool or integral (int8/int32/int64/uint8) condition and x, y of ONE dtype: no
    promotion at all, the condition never takes part."""
    if cond.__class__ is Scalar:
        raise OFError("unsupported", "where(): argument 'condition' must be Tensor -- TypeError from the arg parser")
    lits = [s for s in (x, y) if s.__class__ is Scalar]
    if x.__class__ is Scalar and y.__class__ is Scalar:
        code = where_scalar_xy(x, y, xv, yv)
    elif x.__class__ is Scalar:
        code = y.code
    elif y.__class__ is Scalar:
        code = x.code
    else:
        code = None
    if cond.code not in OF_INTEGRAL and cond.code != "b1":
        raise OFError("unsupported", "where: Check failed IsBoolDataType(cond) || IsIntegralDataType(cond)")
    if code is None:
        if x.code != y.code:
            raise OFError("no_promotion", "where: InferDataType Failed. Expected x's dtype to be y's")
        code = x.code
    if any(s.overflow for s in lits):
        raise OFError("overflow", "Python int too large to convert to C long (left pending by PyLong_AsLongLong)")
    return code


def clip(x, lo, hi):
    """functional_api.yaml clip: (Tensor input, Scalar min=None, Scalar max=None) => Clip ->
    math.cpp L1766-1772 ClipFunctor = Clamp -> ClampBaseFunctor (L1655-1720): a floating x
    (float16/32/64, bfloat16) takes the bounds As<double>, an integral one (int8/32/64, uint8)
    As<int64_t>; any other dtype "Only support floating or integral data type."; the clip op's
    InferDataType (clip_by_value_op.cpp L58-61) is x's dtype: the bounds never promote."""
    if x.__class__ is Scalar:
        raise OFError("unsupported", "clip(): argument 'input' must be Tensor -- TypeError from the arg parser")
    for b in (lo, hi):
        if b.__class__ is T:
            if b.ndim != 0:
                raise OFError("unsupported", "clip(): argument 'min'/'max' must be Scalar, not Tensor -- TypeError")
            if b.code not in ZERO_DIM_AS_SCALAR:
                raise OFError("unsupported", f"a 0-d {OF2NP[b.code]} tensor cannot be read as a Scalar (common.cpp PyUnpackScalarTensor)")
    if x.code not in OF_FLOATING and x.code not in OF_INTEGRAL:
        raise OFError("unsupported", "Only support floating or integral data type.")
    if any(b.__class__ is Scalar and b.overflow for b in (lo, hi)):
        raise OFError("overflow", "Python int too large to convert to C long (left pending by PyLong_AsLongLong)")
    return x.code


def nary_answer(cell):
    """The fixture token for one `nary` cell (flow.cat / flow.stack / flow.where / flow.clip)."""
    try:
        ops = [to_of(o) for o in cell.operands]
        if cell.op in ("concatenate", "stack"):
            if any(o.__class__ is Scalar for o in ops):
                # TensorTuple argument: PyTensorTupleCheck || PyTensorSequenceCheck (every item
                # PyTensor_Check; python_arg.cpp L249, common.cpp L131-133) -> TypeError
                raise OFError("unsupported", f"{cell.op}(): argument 'inputs' must be a sequence of Tensors")
            code = concat(ops) if cell.op == "concatenate" else stack(ops)
        elif cell.op == "where":
            vals = [o.py if o.kind == "literal" else None for o in cell.operands]
            code = where(ops[0], ops[1], ops[2], vals[1], vals[2])
        elif cell.op == "clip":
            code = clip(*ops)
        else:
            raise ValueError(cell.op)
        return numpy_name(code)
    except OFError as e:
        return "!" + e.kind


def to_of(o):
    if o.kind == "literal":
        return unpack_literal(o.py)
    return T(NP2OF[o.dtype], 0 if o.kind == "zerodim" else 1)


def all_dtypes_of_newest_table():
    """The 15 dtypes the newest table has (bool, uint8..uint64, int8..int64, bfloat16, float16..64,
    complex64/128); complex32/int128/uint128 exist too but are not among the 15 of the spec."""
    return [d for d in DTYPES if NP2OF[d] in CODES]


def markdown_tables():
    lines = ["Raw `_promoteTypesLookup` (dtype.cpp L225-248; row = `a`, column = `b` of `promoteTypes(a, b)`):", ""]
    lines.append("| a \\ b | " + " | ".join(CODES) + " |")
    lines.append("|" + "---|" * (len(CODES) + 1))
    for c in CODES:
        lines.append(f"| **{c}** | " + " | ".join(TABLE[IDX[c]]) + " |")
    lines.append("")
    names = all_dtypes_of_newest_table()
    short = {d: d.replace("float", "f").replace("complex", "c").replace("uint", "u").replace("int", "i").replace("bfloat16", "bf16") for d in names}
    lines.append("`add` tensor with tensor (rows = first operand `a`, columns = second operand `b`; "
                 "`!u` = `!unsupported` because the common dtype is complex32/int128):")
    lines.append("")
    lines.append("| a \\ b | " + " | ".join(short[d] for d in names) + " |")
    lines.append("|" + "---|" * (len(names) + 1))
    for a in names:
        row = []
        for b in names:
            tok = answer(cases.Cell("add", (cases.parse_operand(a), cases.parse_operand(b))))
            row.append("!u" if tok == "!unsupported" else short[tok])
        lines.append(f"| **{short[a]}** | " + " | ".join(row) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", action="store_true")
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    if a.tables:
        print(markdown_tables())
        return
    dts = all_dtypes_of_newest_table()
    write(OUT, HEADER, [(c, answer(c)) for c in cases.cells(dts, weak=False)], a.dry_run)
    write(OUT_OPS, HEADER_OPS, [(c, op_answer(c)) for c in ops_cases.cells("oneflow", dts)], a.dry_run)
    write(OUT_OPS_OPERATOR, HEADER_OPS_OPERATOR,
          [(c, operator_answer(c)) for c in ops_cases.cells("oneflow", dts, operator=True)], a.dry_run)
    fams = ["function", "result_type", "promote_types", "can_cast", "nary", "dtype"]
    write(OUT_FORMS, HEADER_FORMS, [(c, forms_answer(c)) for c in forms_cases.cells("oneflow", dts, families=fams)],
          a.dry_run)


def write(path, header, rows, dry_run):
    if dry_run:
        for c, ans in rows:
            print(f"{c} : {ans}")
        return
    tmp = path + ".tmp"
    text = header + "".join(f"{c} : {ans}\n" for c, ans in rows)
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=9, mtime=0) as f:
        f.write(text.encode())   # mtime 0: the same cells give the same bytes
    os.replace(tmp, path)
    print(f"wrote {path} ({len(rows)} cells)")


if __name__ == "__main__":
    main()
