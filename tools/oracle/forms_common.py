"""Worker-side helpers shared by the issue-10 adapters (fw_forms_<fw>.py).

An adapter module provides:
  BASE          the operator-form adapter module (fw_numpy, fw_torch, ...): cells without a form
                that are plain binary ops/matmul/sum go to BASE.answer unchanged (settings runs);
                None: the adapter's call() answers them too (JAX traces them, fw_forms_jax.py);
  make(operand) the framework object for an operand (as the operator recordings make them);
  dtype(name)   the framework's dtype object for a dtype name (promote_types, can_cast, dtype=);
  call(cell, args) -> result       every cell that BASE does not answer;
  token(result, cell) -> answer    for an array result;
  dtype_token(dt, cell) -> answer        for a dtype object (result_type, promote_types);
  classify(exception, cell) -> answer token or None.
`answer` returns `TOKEN` or `TOKEN<TAB>detail` like ops_common.answer (record_forms.py writes
TOKEN into the fixture and the distinct details into notes/forms-logs/NAME.log.gz).
"""
from __future__ import annotations

from ops_common import classify_rules, one_line  # noqa: F401  (re-exported for the adapters)

OPLESS = {"result_type", "promote_types", "can_cast"}
NARY = {"concatenate", "stack", "where", "clip"}
# operands that name a dtype, not a value: promote_types (both), can_cast's `to`, and can_cast's
# `from` when it is written as an n-d tensor (`can_cast int8 uint8`: the dtype int8)
DTYPE_POSITIONS = {"promote_types": (0, 1), "can_cast": (1,)}


def is_operator_cell(cell):
    return cell.form is None and cell.op not in OPLESS | NARY and cell.casting is None


def make_args(cell, fw):
    args = []
    for i, o in enumerate(cell.operands):
        if i in DTYPE_POSITIONS.get(cell.op, ()) or (cell.op == "can_cast" and o.kind == "tensor"):
            args.append(fw.dtype(o.dtype))
        else:
            args.append(fw.make(o))
    return args


def render(r, cell, fw):
    if isinstance(r, str):
        return r  # an adapter that made the token itself (TF's flexible result_type: weakness)
    if cell.op == "can_cast" and isinstance(r, bool):
        return "True" if r else "False"
    if cell.op in ("result_type", "promote_types") and fw.is_dtype(r):
        return fw.dtype_token(r, cell)
    return fw.token(r, cell)


def answer(cell, fw):
    if is_operator_cell(cell) and fw.BASE is not None:
        return fw.BASE.answer(cell)
    try:
        args = make_args(cell, fw)
        r = fw.call(cell, args)
        return render(r, cell, fw)
    except Exception as e:  # noqa: BLE001 -- the framework's answer, classified by type and message
        k = fw.classify(e, cell)
        if k is None:
            return "?" + one_line(e)
        return f"{k}\t{one_line(e)}"
