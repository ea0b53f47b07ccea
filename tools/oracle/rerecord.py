"""Re-record chosen cells of a fixture with the real framework and rewrite only those lines.

    python tools/oracle/rerecord.py POLICY --python /work/venvs/torch/bin/python \
        [--fixture tests/fixtures/resolve/POLICY.txt.gz] [--ops floor_divide,remainder,power] \
        [--values-only] [--old '!unsupported,X,dtype'] [--expect '!value'] [--dry-run]

A cell is re-run when its op is in --ops and (with --values-only) one of its operands carries a
value (a Python literal or a 0-d tensor): the cells whose answer can depend on values.  Every
re-run cell whose new answer equals --expect replaces the old line; a cell whose answer changed
to anything else is printed and nothing is written (the adapter or the framework changed, and
a person should look).  The header line gets `rerecorded=DATE ...` appended.

Used for the spec's `value` error kind: the adapters now classify "ZeroDivisionError",
"Integer division by zero", "Integers to negative integer powers are not allowed" and JAX's
"Integers cannot be raised to negative powers" as `!value`, and only those cells change.
"""
from __future__ import annotations

import argparse
import datetime
import gzip
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import record  # noqa: E402
from syntax import DTYPES, parse_cell  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(record.POLICIES))
    ap.add_argument("--python", required=True, help="the interpreter with the framework")
    ap.add_argument("--fixture", default="")
    ap.add_argument("--ops", default="divide,floor_divide,remainder,power")
    ap.add_argument("--values-only", action="store_true",
                    help="only cells with a literal or 0-d operand")
    ap.add_argument("--expect", default="!value", help="the only new answer accepted")
    ap.add_argument("--old", default="", help="only cells whose recorded answer is one of these "
                    "(comma list; `dtype` stands for any dtype answer)")
    ap.add_argument("--cells", default="", help="a file of cells (one a line, `CELL` or `CELL : "
                    "...`): only these, whatever their op")
    ap.add_argument("--adapter", default="", help="ADAPTER:MODE instead of the policy's "
                    "(forms_torch:default for tests/fixtures/resolve-forms/torch.txt.gz)")
    ap.add_argument("--dry-run", action="store_true")
    ap.add_argument("--timeout", type=float, default=20.0)
    a = ap.parse_args()
    adapter, mode = a.adapter.split(":") if a.adapter else record.POLICIES[a.policy][:2]
    path = a.fixture or os.path.join(record.ROOT, "tests", "fixtures", "resolve",
                                     a.policy + ".txt.gz")
    ops = set(a.ops.split(","))
    olds = set(a.old.split(",")) if a.old else set()
    only = None
    if a.cells:
        with open(a.cells) as f:
            only = {ln.split(" : ")[0].strip() for ln in f if ln.strip()}
    with gzip.open(path, "rt") as f:
        lines = f.read().splitlines()
    chosen = {}
    for n, line in enumerate(lines):
        if line.startswith("#") or not line.strip():
            continue
        text, old = line.rsplit(" : ", 1)
        cell = parse_cell(text)
        if only is not None:
            if text in only:
                chosen[n] = (cell, old)
            continue
        if cell.op not in ops:
            continue
        if olds and old not in olds and not ("dtype" in olds and old.lstrip("~") in DTYPES):
            continue
        if a.values_only and not any(o.kind in ("literal", "zerodim") for o in cell.operands):
            continue
        chosen[n] = (cell, old)
    print(f"{a.policy}: re-running {len(chosen)} cells", file=sys.stderr)
    rows = harness.run([c for c, _ in chosen.values()], a.python, adapter, mode, timeout=a.timeout)
    changed, other = {}, []
    for n, (cell, ans) in zip(chosen, rows):
        ans = ans.split("\t")[0]  # adapters that log: `ANSWER<TAB>exception`
        old = chosen[n][1]
        if ans == old:
            continue
        if ans == a.expect:
            changed[n] = f"{cell} : {ans}"
        else:
            other.append(f"{cell} : {old} -> {ans}")
    for n, line in sorted(changed.items()):
        print(f"{lines[n]}  ->  {line.rsplit(' : ', 1)[1]}")
    for o in other:
        print("UNEXPECTED " + o, file=sys.stderr)
    print(f"{len(changed)} cells now {a.expect}, {len(other)} unexpected", file=sys.stderr)
    if other or a.dry_run:
        sys.exit(1 if other else 0)
    for n, line in changed.items():
        lines[n] = line
    if changed and lines[0].startswith("#"):
        lines[0] += (f" rerecorded={datetime.date.today()} ({len(changed)} cells -> {a.expect})"
                     f" by tools/oracle/rerecord.py")
    tmp = path + ".tmp"
    with gzip.open(tmp, "wt", compresslevel=9) as f:
        f.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
    print(f"wrote {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
