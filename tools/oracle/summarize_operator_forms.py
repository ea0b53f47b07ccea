"""Summarize `record_ops.py POLICY --compare-env PROMOTE_OPERATOR_FORM=1 --every 1` output (stdin):
the cells where the Python operator (`-a`, `+a`, `abs(a)`, `~a`, `a << b`, `a >> b`, `divmod(a, b)`,
`round(a)`) answers differently from the function, grouped by op, operand kinds and the two
answers (`lit` = Python literal, `nd` = n-d tensor, `0d` = 0-d tensor, `~` = weak).

    python3 tools/oracle/summarize_operator_forms.py < /tmp/opform_torch.txt
"""
import collections
import re
import sys

from syntax import parse_cell

groups = collections.OrderedDict()
total = None
skipped = 0
for line in sys.stdin:
    m = re.match(r"^(.*) : (\S+) \(default\) vs (.*) \(PROMOTE_OPERATOR_FORM=1\)$", line.rstrip("\n"))
    if not m:
        if "sampled cells agree" in line:
            total = line.strip()
        continue
    cell = parse_cell(m.group(1))
    if all(o.kind == "literal" for o in cell.operands):
        skipped += 1  # `-1` on a Python literal is Python's own operator, not the framework's
        continue
    kinds = " ".join(("lit" if o.kind == "literal" else ("~" if o.weak else "") +
                      ("nd" if o.kind == "tensor" else "0d")) for o in cell.operands)
    op_ans = m.group(3)
    if op_ans.startswith("?"):
        op_ans = "raised " + op_ans[1:].split(":")[0]
    key = (cell.op, kinds, m.group(2), op_ans)
    groups.setdefault(key, []).append(m.group(1))
print(total, f"({skipped} differing cells with only a Python literal operand left out)")
print("| op | operands | function | operator | cells | e.g. |")
print("| --- | --- | --- | --- | --- | --- |")
for (op, kinds, fn, opr), cells in groups.items():
    print(f"| {op} | {kinds} | {fn} | {opr} | {len(cells)} | `{cells[0]}` |")
