"""PyTorch 2.15 (`torch`, and `torch@default_float=float64`): the issue-10 recordings as rules.

    python3 tools/oracle/analyze_forms_torch.py [torch|torch@default_float=float64] [--show N]

Builds on analyze_torch.py (c10 promoteTypes, at::native::result_type's dim / zero-dim /
wrapped-number categories, the kernel lists), the predictor the `torch` policy encodes.
* function form: the operator's answer (tests/fixtures/resolve/torch.txt.gz; for the float64
  setting the operator cells recorded in the same file), except
  - a comparison with the Python scalar first: torch.eq(1, t) ... torch.ge(1, t) refuse it
    (TypeError "argument 'input' (position 1) must be Tensor"): `1 < t` is Python's reflected
    `t > 1`, but the function has no Scalar-first overload (aten/src/ATen/native/native_functions.yaml:
    eq.Scalar(Tensor self, Scalar other) only) -> !unsupported;
  - divide with the scalar first: `1 / t` is Tensor.__rtruediv__ = t.reciprocal() * 1
    (torch/_tensor.py), torch.div(1, t) is div(wrapped number, tensor): the ordinary binary
    rule (a uint64-range literal with bool refuses: promoteTypes(uint64, bool)).
  torch.add(1, t) and the other Scalar-first functions accept the scalar (the python arg parser
  wraps it), unlike the issue's report for older versions.
* torch.set_default_dtype(torch.float64): the operator rules with the default float float64 and
  default complex complex128 (wrapped Python floats/complex, integer true division, reciprocal).
* result_type(a, b): analyze_torch.result_type of the two (1 or 3 operands: TypeError);
  promote_types: promoteTypes (uint16/32/64 with a non-float: RuntimeError -> !no_promotion);
  can_cast: c10::canCast on dtypes (a 0-d tensor or a literal is refused).
* cat/stack: result_type over the tensors; where(c, x, y): result_type(x, y); clip(a, lo, hi):
  result_type over the three.
"""
from __future__ import annotations

import analyze_forms
import analyze_torch as at
from syntax import Cell, parse_operand

NAMES = ["torch", "torch@default_float=float64"]
COMPARE = set(at.COMPARE)


def operator(cell):
    """analyze_torch.predict, with the value refusals the recordings now call !value."""
    r = at.predict(Cell(cell.op, cell.operands, cell.out))
    if r == "!unsupported" and at.RULE[0] and ("wraps to 0" in at.RULE[0]
                                               or "negative integer powers" in at.RULE[0]):
        return "!value"
    return r


def binary_result(ops):
    try:
        args = [at.make_arg(o) for o in ops]
        r = at.finish(at.result_type(args))
        return "!unsupported" if r == "bcomplex32" else r  # complex bfloat16: no such dtype
    except at.Refuse as r:
        return r.args[0]


def _f32_overflows(v, dt):
    """torch.where's Python scalar: a finite float beyond float32's range cannot become float32
    (the only conversion checked there: -1 into uint8, 1e+300 into float16 pass)."""
    return dt in ("float32", "complex64") and isinstance(v, float) and v == v and \
        abs(v) != float("inf") and abs(v) > 3.4028234663852886e38


def _int_overflows(v, dt):
    """c10::overflows<T>(v) for a Python int into an integer dtype: a signed type takes its
    range; an unsigned one also takes negatives down to -max (they wrap: -1 into uint8 passes)."""
    if type(v) is not int or dt not in at.INTS:
        return False
    b = at.BITS[dt]
    if dt == "uint8" or dt in at.BAREBONES:
        mx = (1 << b) - 1
        return v > mx or (v < 0 and -v > mx)
    return not (-(1 << (b - 1)) <= v < (1 << (b - 1)))


def _as_scalar(o):
    if o.kind == "literal":
        return o.text
    return o.text or {"b": "True", "i": "1", "f": "1.0", "c": "1j"}[at_kind(o.dtype)]


def at_kind(dt):
    return "b" if dt == "bool" else "i" if dt in at.INTS else "f" if dt in at.FLOATS else "c"


def clip(cell):
    """torch.clip(a, lo, hi): a must be a tensor; lo and hi both Python scalars (clamp(Tensor,
    Scalar?, Scalar?)) or both tensors (clamp.Tensor) -- one of each is refused (TypeError);
    the dtype is result_type over the three; complex is refused ("clamp is not supported for
    complex types"), as is a bool result (no clamp kernel for Bool); a Python int bound the
    integer result cannot hold raises "Clamp min value 300 is outside the representable range"."""
    a, lo, hi = cell.operands
    if a.kind == "literal":
        return "!unsupported"
    scalar = lo.kind == "literal" or hi.kind == "literal"
    if scalar and "tensor" in (lo.kind, hi.kind):
        return "!unsupported"  # an n-d tensor bound with a Python scalar bound: no overload
    if scalar:
        # clamp(Tensor, Scalar, Scalar): a 0-d tensor bound is read as a Python scalar of its kind
        lo, hi = (parse_operand(_as_scalar(o)) for o in (lo, hi))
    if a.dtype in at.COMPLEX:
        return "!unsupported"
    if scalar and any(o.kind == "literal" and isinstance(o.py, complex) for o in (lo, hi)):
        # a complex bound is converted to the real tensor's type: refused for a floating tensor
        # ("value cannot be converted ... without overflow"), no kernel for an integral one
        return "!overflow" if a.dtype in at.FLOATS else "!unsupported"
    r = binary_result((a, lo, hi))
    if r.startswith("!"):
        return r
    if r in at.COMPLEX or r == "bool":
        return "!unsupported"
    if r in at.INTS:
        lo_v, hi_v = (o.py if o.kind == "literal" else None for o in (lo, hi))
        b = at.BITS[r]
        mn, mx = (0, (1 << b) - 1) if r == "uint8" or r in at.BAREBONES else \
            (-(1 << (b - 1)), (1 << (b - 1)) - 1)
        # a minimum above the dtype's range or a maximum below it cannot be represented
        if (isinstance(lo_v, (int, float)) and lo_v > mx) or (isinstance(hi_v, (int, float)) and hi_v < mn):
            return "!overflow"
    return r


def function(cell, base):
    a = cell.operands[0]
    if cell.op in COMPARE and a.kind == "literal":
        return "!unsupported"
    if cell.op == "divide" and a.kind == "literal":
        try:
            A, B = (at.make_arg(o) for o in cell.operands)
            return at.binary(cell, A, B, "div_true", None)
        except at.Refuse as r:
            return r.args[0]
    return base(cell)


def predictor(name):
    f64 = name.endswith("float64")
    at.DEFAULT_FLOAT[:] = ["float64", "complex128"] if f64 else ["float32", "complex64"]
    if f64:
        def base(cell):
            return operator(cell)
    else:
        b = analyze_forms.Base("torch")
        base = b.of

    def predict(cell):
        op = cell.op
        if op == "promote_types":
            try:
                return at.promote_types(*[o.dtype for o in cell.operands])
            except at.Refuse as r:
                return r.args[0]
        if op == "result_type":
            if len(cell.operands) != 2:
                return "!unsupported"
            return binary_result(cell.operands)
        if op == "can_cast":
            f, to = cell.operands
            if f.kind != "tensor":
                return "!unsupported"
            return str(at.can_cast(f.dtype, to.dtype))
        if cell.form == "function" and cell.dtype:
            return "!unsupported"  # torch.add(..., dtype=): unexpected keyword argument
        if cell.form == "function":
            return function(cell, base)
        if cell.form is None and op in analyze_forms.OP_CLASS:
            return operator(cell)
        if op in ("concatenate", "stack"):
            if any(o.kind == "literal" for o in cell.operands) or (
                    op == "concatenate" and any(o.kind == "zerodim" for o in cell.operands)):
                return "!unsupported"  # a Python scalar (TypeError) / a 0-d tensor cannot be cat
            return binary_result(cell.operands)
        if op == "clip":
            return clip(cell)
        if op == "where":
            if cell.operands[0].dtype != "bool":
                return "!unsupported"  # "where expected condition to be a boolean tensor"
            r = binary_result(cell.operands[1:])
            for o in cell.operands[1:]:
                if o.kind == "literal" and not r.startswith("!") and (
                        _f32_overflows(o.py, r) or _int_overflows(o.py, r)):
                    return "!overflow"  # the scalar converted to the result dtype
            return r
        return None
    return predict


def quirks(name):
    return []


if __name__ == "__main__":
    analyze_forms.main(NAMES, predictor, quirks)
