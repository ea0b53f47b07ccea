"""JAX 0.10.2 (`jax`, `jax-x64`, `jax-strict`): the issue-10 recordings as rules.

    python3 tools/oracle/analyze_forms_jax.py [jax|jax-x64|jax-strict] [--show N]

Builds on analyze_jax.py (the lattice, weak types, x64 canonicalisation) that the jax policies
encode.  notes/forms-jax.md.
* function form: jnp.add(a, b) is what `a + b` calls (jax/_src/numpy/array_methods.py
  _defer_to_unrecognized_arg(opchar, ufuncs.add)): the operator's answer.  The operator recording
  has X where the eager worker crashed (notes/jax.md); the traced function gives the lattice
  result there (listed as a quirk).  jnp.add(..., dtype=) does not exist (jnp.ufunc.__call__
  takes out/where only): !unsupported.
* result_type(*xs): dtypes.result_type over the operands (analyze_jax.Policy.result_type: the
  lattice join, weak operands as their Python type; a weak result becomes the default dtype of
  its kind) -- the public function returns the dtype only.
* promote_types(a, b): the join of two strong dtypes (dtypes.promote_types), x64-canonicalised.
"""
from __future__ import annotations

import analyze_forms
import analyze_jax as aj

NAMES = ["jax", "jax-x64", "jax-strict", "jax@numpy_dtype_promotion=strict",
         "jax@explicit_x64_dtypes=allow", "jax@explicit_x64_dtypes=error"]
# the settings runs: (x64, strict) for analyze_jax.Policy; their operator cells are predicted by
# analyze_jax.predict (the operator rules), the others as for the policy
SETTINGS = {"jax@numpy_dtype_promotion=strict": ("x32", True)}


def predictor(name):
    if name in SETTINGS:
        aj.MODES[name] = SETTINGS[name]
    pol = aj.Policy(name if name in aj.MODES else "jax")
    base = analyze_forms.Base(name if name in ("jax", "jax-x64", "jax-strict") else "jax")

    def result_type(ops):
        try:
            d, _ = pol.result_type([pol.operand(o) for o in ops])
        except aj.Overflow:
            return "!overflow"
        except aj.PromotionError:
            return "!no_promotion"
        return d

    def predict(cell):
        op = cell.op
        if cell.form is None and op in analyze_forms.OP_CLASS:
            if name.startswith("jax@explicit"):
                return None  # explicit_x64_dtypes: not stated yet (notes/forms-jax.md)
            return aj.predict(pol, cell)
        if cell.form == "function" and cell.dtype:
            return "!unsupported"
        if cell.form == "function" and op in analyze_forms.OP_CLASS:
            return base.of(cell)
        if op == "result_type":
            return result_type(cell.operands)
        if op == "promote_types":
            # dtypes.promote_types: the join of the two dtypes as given (no x32 canonicalisation)
            a, b = (o.dtype for o in cell.operands)
            try:
                return aj.lub({a, b}, pol.strict, True)
            except aj.PromotionError:
                return "!no_promotion"
        if op in ("concatenate", "stack", "where", "clip"):
            ops = cell.operands[1:] if op == "where" else cell.operands
            if op == "concatenate" and any(o.kind != "tensor" for o in ops):
                return "!unsupported"  # "Zero-dimensional arrays cannot be concatenated"
            try:
                if any(o.kind == "literal" and aj._literal_overflows(pol, o) for o in ops):
                    return "!overflow"
                # the ops convert with dtypes.lattice_result_type: a weak result keeps its dtype
                d, w = pol.lattice_result_type([pol.operand(o) for o in ops])
            except aj.Overflow:
                return "!overflow"
            except aj.PromotionError:
                return "!no_promotion"
            if op == "clip" and aj.KIND[d] == "c":
                return "!unsupported"  # "Clip received a complex value"
            return ("~" if w else "") + d
        if op == "can_cast":
            import analyze_forms_numpy as afn
            f, to = cell.operands
            if f.kind == "literal":
                return "!unsupported"
            try:
                src = pol.operand(f)[0] if f.kind == "zerodim" else f.dtype
            except aj.Overflow:
                return "!overflow"
            if "bfloat16" in (src, to.dtype):
                return None  # bfloat16 casts: not stated yet (notes/forms-jax.md)
            return afn.can_cast("numpy", type(cell)(cell.op, (type(f)("tensor", src), to),
                                                    casting=cell.casting))
        return None
    return predict


def quirks(name):
    if "@" in name:
        return []
    return [(r"^bitwise_(and|or|xor):function (~int(16|32|64) int(8|16|32)|int(8|16|32) ~int(16|32|64)) : ",
             "the operator cell is X (the eager worker crashed, notes/jax.md); traced, the function "
             "gives the lattice join")]


if __name__ == "__main__":
    analyze_forms.main(NAMES, predictor, quirks)
