"""Summarize `record_ops.py POLICY --ops ... --compare-env PROMOTE_OPERATOR_FORM=1 --every 1` outputs:
the cells where the Python operator (`-a`, `+a`, `abs(a)`, `~a`, `a << b`, `a >> b`, `divmod(a, b)`,
`round(a)`) answers differently from the function, grouped by op and the kinds of the two answers,
as the Markdown sections of notes/ops-operator-forms.md.

    python3 tools/oracle/summarize_operator_forms.py OUT_numpy.txt OUT_torch.txt ...

Cells whose operands are all Python literals are left out (the operator is Python's own there).
"""
import collections
import re
import sys

from syntax import parse_cell

LINE = re.compile(r"^(.*) : (\S+) \(default\) vs (.*) \(PROMOTE_OPERATOR_FORM=1\)$")


def kind(a):
    if a.startswith("?"):
        return "raises " + a[1:].split(":")[0]
    if a.startswith("!") or a.startswith("="):
        return a
    return "a dtype"


def section(path):
    lines = open(path).read().splitlines()
    total = [x for x in lines if "sampled cells agree" in x]
    if not total:
        return
    groups = collections.OrderedDict()
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        cell = parse_cell(m.group(1))
        if all(o.kind == "literal" for o in cell.operands):
            continue
        fn, op = m.group(2), m.group(3)
        shown = op.split(":")[0] if op.startswith("?") else op
        groups.setdefault((cell.op, kind(fn), kind(op)), []).append(f"{m.group(1)} : {fn} vs {shown}")
    policy = total[0].split(":")[0]
    print(f"### {policy}\n\n{total[0]}\n")
    print("| op | function | operator | cells | example |\n| --- | --- | --- | --- | --- |")
    for (op, fn, opr), cells in groups.items():
        print(f"| {op} | {fn} | {opr} | {len(cells)} | `{cells[0]}` |")
    print()


if __name__ == "__main__":
    for p in sys.argv[1:]:
        section(p)
