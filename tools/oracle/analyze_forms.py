"""Shared checker for the issue-10 analyses (analyze_forms_<framework>.py).

Each analysis states, per family of tests/fixtures/resolve-forms/NAME.txt.gz, a rule
`predict(cell, base) -> answer`: for the function forms "the operator's answer (`base`, the
recording of tests/fixtures/resolve/POLICY.txt.gz, which the policies replay 100 %) except where
a stated difference applies"; for result_type/promote_types/can_cast/n-ary ops the framework's
own rule, built on the existing analyses' predictors.  `check()` replays a fixture through it and
reports per family how many cells the rule gives, how many a listed quirk explains, and every miss.

    python3 tools/oracle/analyze_forms.py --diff POLICY   # function vs operator, grouped

Pure Python (no framework needed).
"""
from __future__ import annotations

import collections
import gzip
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from syntax import DTYPES, KIND, parse_cell  # noqa: E402,F401

ROOT = os.path.dirname(os.path.dirname(HERE))


def load(name, folder="resolve-forms"):
    path = os.path.join(ROOT, "tests", "fixtures", folder, name + ".txt.gz")
    rows = []
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            text, ans = line.rstrip("\n").rsplit(" : ", 1)
            rows.append((text, parse_cell(text), ans))
    return rows


class Base:
    """The operator form's answers (tests/fixtures/resolve/POLICY.txt.gz) by cell text."""

    def __init__(self, policy, folder="resolve"):
        self.table = {text: ans for text, _, ans in load(policy, folder)}

    def of(self, cell):
        """The operator answer of a function-form cell (the same cell without its form)."""
        text = " ".join([cell.op] + [str(o) for o in cell.operands])
        if cell.out:
            text += " out=" + cell.out
        return self.table.get(text)


def family(cell):
    """The family of a cell, for the report (forms_cases.py's families, split by op class)."""
    if cell.op in ("result_type", "promote_types", "can_cast"):
        return cell.op + (":" + cell.form if cell.form else "") + f"/{len(cell.operands)}"
    if cell.op in ("concatenate", "stack", "where", "clip"):
        return cell.op + (":" + cell.form if cell.form else "")
    if cell.casting:
        return "casting="
    if cell.dtype:
        return "dtype="
    return (cell.form or "operator") + ":" + OP_CLASS.get(cell.op, cell.op)


OP_CLASS = {
    "add": "arith", "subtract": "arith", "multiply": "arith", "maximum": "arith",
    "minimum": "arith", "divide": "divide", "floor_divide": "floor/rem", "remainder": "floor/rem",
    "power": "power", "equal": "compare", "not_equal": "compare", "less": "compare",
    "less_equal": "compare", "greater": "compare", "greater_equal": "compare",
    "logical_and": "logical", "logical_or": "logical", "logical_xor": "logical",
    "bitwise_and": "bitwise", "bitwise_or": "bitwise", "bitwise_xor": "bitwise",
    "matmul": "matmul", "sum": "sum",
}


def shape(cell):
    """`T,L(int)` etc.: the operand kinds of a cell, for grouping differences."""
    out = []
    for o in cell.operands:
        if o.kind == "literal":
            out.append("L(" + type(o.py).__name__ + ")")
        elif o.kind == "zerodim":
            out.append(("~" if o.weak else "") + "Z")
        else:
            out.append(("~" if o.weak else "") + "T")
    return ",".join(out)


def diff(policy, name=None, form="function", show=40):
    """Group the cells where the function form answers differently from the operator."""
    base = Base(policy)
    groups = collections.OrderedDict()
    n = same = 0
    for text, cell, ans in load(name or policy):
        if cell.form != form or cell.dtype or cell.casting or cell.op not in OP_CLASS:
            continue
        n += 1
        op_ans = base.of(cell)
        if op_ans == ans:
            same += 1
            continue
        key = (cell.op, shape(cell), op_ans, ans)
        groups.setdefault(key, []).append(text)
    print(f"== {name or policy} {form}: {n} cells, {same} as the operator, {n - same} differ")
    per_class = collections.Counter()
    for (op, sh, a, b), cells in groups.items():
        per_class[OP_CLASS[op]] += len(cells)
    print("   by op class: " + ", ".join(f"{k} {v}" for k, v in sorted(per_class.items())))
    for (op, sh, a, b), cells in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:show]:
        print(f"   {len(cells):5} x {op} [{sh}] operator {a} -> {form} {b}, e.g. {'; '.join(cells[:3])}")
    return n, n - same, per_class


def check(name, predict, quirks, show=20):
    """Replay resolve-forms/NAME.txt.gz; return (cells, misses).

    predict(cell) -> answer or None; quirks: (regex over 'CELL : ANSWER', reason) for cells the
    rules do not give (each must match at least one cell)."""
    rows = load(name)
    per = collections.defaultdict(lambda: [0, 0, 0])
    used = collections.Counter()
    misses = []
    xs = 0
    for text, cell, ans in rows:
        fam = family(cell)
        per[fam][0] += 1
        if ans == "X":
            xs += 1
            per[fam][1] += 1
            continue
        got = predict(cell)
        if got == ans:
            per[fam][1] += 1
            continue
        line = f"{text} : {ans}"
        for i, (rx, _) in enumerate(quirks):
            if re.search(rx, line):
                used[i] += 1
                per[fam][2] += 1
                break
        else:
            misses.append((fam, line, got))
    print(f"== {name}: {len(rows)} cells ({xs} X), rules {len(rows) - len(misses) - sum(used.values())}, "
          f"quirks {sum(used.values())}, unexplained {len(misses)}")
    for fam, (n, r, q) in sorted(per.items()):
        print(f"   {fam:26} {n:7} cells  rule {r:7}  quirk {q:5}  missed {n - r - q}")
    for i, (rx, why) in enumerate(quirks):
        print(f"   quirk {used[i]:5} x  /{rx}/  {why}")
        if used[i] == 0:
            print("      ^ matches no cell: remove it")
    groups = collections.OrderedDict()
    for fam, line, got in misses:
        cell_text, ans = line.rsplit(" : ", 1)
        key = (fam, shape(parse_cell(cell_text)), ans, got)
        groups.setdefault(key, []).append(cell_text)
    for (fam, sh, ans, got), cells in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:show]:
        print(f"   MISS {len(cells):5} x {fam} [{sh}] : {ans} (rules say {got}), e.g. {'; '.join(cells[:3])}")
    return len(rows), len(misses)


def main(names, predictor_for, quirks_for):
    show = 20
    if "--show" in sys.argv:
        show = int(sys.argv[sys.argv.index("--show") + 1])
    want = [p for p in sys.argv[1:] if p in names] or names
    bad = 0
    for p in want:
        if not os.path.exists(os.path.join(ROOT, "tests", "fixtures", "resolve-forms", p + ".txt.gz")):
            print(f"== {p}: not recorded")
            bad += 1
            continue
        _, m = check(p, predictor_for(p), quirks_for(p), show)
        bad += m
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    if sys.argv[1] == "--diff":
        pol = sys.argv[2]
        name = sys.argv[3] if len(sys.argv) > 3 else None
        form = sys.argv[4] if len(sys.argv) > 4 else "function"
        diff(pol, name, form)
