"""Record scalar-with-scalar cells (two Python literals) into tests/fixtures/resolve-scalars/.

    python tools/oracle/record_scalars.py POLICY --python VENV/bin/python [--ops a,b]
                                           [--limit N] [--dry-run] [--grep TEXT]

The grid: the 22 binary ops of cases.py (the 21 element-wise ops and matmul) x every pair of the
46 literals of cases.LITERALS (bool, the int range edges of every dtype, float edges, inf, nan,
complex), 46,552 cells per policy.  Each cell is the framework's namespace function called on the
two Python objects (fw_scalars.py: `np.add(1, 1)`, `tf.math.add(1, 1)`, ...), in the worker of
harness.py (a crash or hang costs one cell, `X`).  Besides the fixture it writes
tools/oracle/notes/scalars-logs/POLICY.log.gz: each distinct (op, answer, function, exception
message with the literals replaced by L) with its count and first cell -- the evidence behind
each `!` answer.  `cargo test --test conformance` replays the fixtures.
"""
from __future__ import annotations

import argparse
import collections
import datetime
import gzip
import os
import platform
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402
import harness  # noqa: E402
from fw_scalars import BINARY  # noqa: E402
from record import POLICIES, ROOT  # noqa: E402
from syntax import Cell, parse_operand  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
_NUM = re.compile(r"-?\b\d[\d.e+]*\b|\binf\b|\bnan\b")


def cells(ops=None, literals=cases.LITERALS):
    lits = [parse_operand(v) for v in literals]
    for op in ops or BINARY:
        for a in lits:
            for b in lits:
                yield Cell(op, (a, b))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(POLICIES))
    ap.add_argument("--python", default=sys.executable, help="the interpreter with the framework")
    ap.add_argument("--ops", default="", help="comma list: only these ops")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--grep", default="", help="only cells containing this text")
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the fixture")
    ap.add_argument("--timeout", type=float, default=30.0)
    a = ap.parse_args()
    adapter, mode, pin = POLICIES[a.policy][:3]
    cs = [c for c in cells(a.ops.split(",") if a.ops else None) if a.grep in str(c)]
    if a.limit:
        cs = cs[: a.limit]
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    rows = harness.run(cs, a.python, "scalars", f"{adapter}:{mode}", timeout=a.timeout, env=env)
    if a.dry_run:
        for c, ans in rows:
            print(f"{c} : {ans}")
        return
    path = os.path.join(ROOT, "tests", "fixtures", "resolve-scalars", a.policy + ".txt.gz")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    log = collections.OrderedDict()
    bad = 0
    with gzip.open(tmp, "wt", compresslevel=9) as f:
        f.write(f"# policy={a.policy} framework={pin} python={platform.python_version()} "
                f"recorded={datetime.date.today()} by tools/oracle/record_scalars.py "
                f"(the namespace function on two Python scalars)\n")
        for c, ans in rows:
            tok, _, detail = ans.partition("\t")
            if tok.startswith("?"):
                bad += 1
                print(f"adapter error: {c} : {ans}", file=sys.stderr)
            f.write(f"{c} : {tok}\n")
            if tok.startswith("!") or tok.startswith("="):
                key = (c.op, tok, _NUM.sub("L", detail))
                n, first = log.get(key, (0, str(c)))
                log[key] = (n + 1, first)
    if bad:
        print(f"{bad} adapter errors: fixture left at {tmp}", file=sys.stderr)
        sys.exit(1)
    os.replace(tmp, path)
    logdir = os.path.join(HERE, "notes", "scalars-logs")
    os.makedirs(logdir, exist_ok=True)
    with gzip.open(os.path.join(logdir, a.policy + ".log.gz"), "wt", compresslevel=9) as f:
        f.write(f"# {a.policy}: op<TAB>answer<TAB>count<TAB>first cell<TAB>detail\n")
        for (op, tok, detail), (n, first) in log.items():
            f.write(f"{op}\t{tok}\t{n}\t{first}\t{detail}\n")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
