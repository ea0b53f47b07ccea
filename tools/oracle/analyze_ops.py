"""Shared checker for the issue-12 analyses (analyze_ops_<framework>.py).

Each analysis states its framework's op-class rules as a function `predict(cell, base)` and a list
of explicit quirks; `check()` replays tests/fixtures/resolve-ops/POLICY.txt.gz through them and
reports coverage per op class and every cell the rules miss.  `base` gives the answers of
tests/fixtures/resolve/POLICY.txt.gz (the 23 binary ops already encoded in the policies), so that a
new binary op can be stated as "an existing op's promotion, then this op-class step".

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
from syntax import DTYPES, KIND, Cell, parse_cell  # noqa: E402,F401

ROOT = os.path.dirname(os.path.dirname(HERE))
BITS = {"bool": 1, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "int8": 8, "int16": 16,
        "int32": 32, "int64": 64, "bfloat16": 16, "float16": 16, "float32": 32, "float64": 64,
        "complex64": 64, "complex128": 128}


def load(policy, folder="resolve-ops"):
    path = os.path.join(ROOT, "tests", "fixtures", folder, policy + ".txt.gz")
    rows = []
    with gzip.open(path, "rt") as f:
        for line in f:
            if line.startswith("#"):
                continue
            text, ans = line.rstrip("\n").rsplit(" : ", 1)
            rows.append((text, parse_cell(text), ans))
    return rows


class Base:
    """Answers of the existing recordings (tests/fixtures/resolve/POLICY.txt.gz) by cell text."""

    def __init__(self, policy):
        self.table = {text: ans for text, _, ans in load(policy, "resolve")}

    def __call__(self, op, *operands):
        text = " ".join([op] + [str(o) for o in operands])
        return self.table.get(text)


def strip_weak(ans):
    return ans[1:] if ans.startswith("~") else ans


def check(policy, predict, quirks, op_class, show=20):
    """Replay the recordings of `policy`; return (cells, misses).

    predict(cell, base) -> answer or None; quirks: list of (regex over 'CELL : ANSWER', reason)
    that explain cells the class rules do not (each must match at least one cell)."""
    rows = load(policy)
    base = Base(policy)
    per_class = collections.defaultdict(lambda: [0, 0, 0])  # cells, by rule, by quirk
    used = collections.Counter()
    misses = []
    xs = 0
    for text, cell, ans in rows:
        cls = op_class.get(cell.op, "?")
        per_class[cls][0] += 1
        if ans == "X":
            xs += 1
            per_class[cls][1] += 1
            continue
        got = predict(cell, base)
        if got == ans:
            per_class[cls][1] += 1
            continue
        line = f"{text} : {ans}"
        for i, (rx, _) in enumerate(quirks):
            if re.search(rx, line):
                used[i] += 1
                per_class[cls][2] += 1
                break
        else:
            misses.append((line, got))
    print(f"== {policy}: {len(rows)} cells ({xs} X), rules {len(rows) - len(misses) - sum(used.values())}, "
          f"quirks {sum(used.values())}, unexplained {len(misses)}")
    for cls, (n, r, q) in sorted(per_class.items()):
        print(f"   {cls:16} {n:6} cells  rule {r:6}  quirk {q:5}  missed {n - r - q}")
    for i, (rx, why) in enumerate(quirks):
        print(f"   quirk {used[i]:5} x  /{rx}/  {why}")
        if used[i] == 0:
            print("      ^ matches no cell: remove it")
    groups = collections.OrderedDict()
    for line, got in misses:
        cell_text, ans = line.rsplit(" : ", 1)
        key = (cell_text.split()[0], ans, got)
        groups.setdefault(key, []).append(cell_text)
    for (op, ans, got), cells in list(groups.items())[:show]:
        print(f"   MISS {len(cells):5} x {op} : {ans} (rules say {got}), e.g. {'; '.join(cells[:4])}")
    return len(rows), len(misses)


def main(policies, predict_for, quirks_for, op_class):
    show = 20
    if "--show" in sys.argv:
        show = int(sys.argv[sys.argv.index("--show") + 1])
    want = [p for p in sys.argv[1:] if p in policies] or policies
    bad = 0
    for p in want:
        _, m = check(p, predict_for(p), quirks_for(p), op_class, show)
        bad += m
    sys.exit(1 if bad else 0)


AB = {"b": "bool", "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "i8": "int8",
      "i16": "int16", "i32": "int32", "i64": "int64", "bf16": "bfloat16", "f16": "float16",
      "f32": "float32", "f64": "float64", "c64": "complex64", "c128": "complex128"}
ERR = {"-": "!unsupported", "NP": "!no_promotion", "OV": "!overflow"}


def parse_table(table):
    """{op: "i8:f32 u8:- ..."} -> {op: {dtype: answer}}: an op's answer on same-dtype n-d tensors
    (`-` unsupported, `NP` no_promotion; two results joined by ',')."""
    out = {}
    for op, text in table.items():
        row = {}
        for item in text.split():
            d, a = item.split(":")
            row[AB[d]] = ERR.get(a) or ",".join(AB[x] for x in a.split(","))
        out[op] = row
    return out
