"""Record the ops of issue 12 from a real framework into tests/fixtures/resolve-ops/POLICY.txt.gz.

    python tools/oracle/record_ops.py POLICY --python VENV/bin/python [--ops a,b] [--limit N]
                                       [--dry-run] [--grep TEXT] [--operator]

`--operator` records the Python operator of the ops that have one (`-a`, `+a`, `abs(a)`, `~a`,
`a << b`, `a >> b`, `divmod(a, b)`, `round(a)`: ops_common.OPERATOR_FORMS) into
tests/fixtures/resolve-ops-operator/POLICY.txt.gz; the default fixture holds the namespace
functions (`np.negative(a)`, ...), replayed as `OP:function`.

Cells come from ops_cases.py, answers from the adapter fw_ops_<fw>.py run in harness.py's worker
(one crash or hang costs one cell: `X`).  Besides the fixture it writes
tools/oracle/notes/ops-logs/POLICY.log.gz: every distinct (op, answer, exception message with the
dtype names replaced by D) with its count and first cell -- the evidence behind each `!` answer.
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
import harness  # noqa: E402
import ops_cases  # noqa: E402
from record import POLICIES, ROOT  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
_DT = re.compile(r"\b(bool|u?int(8|16|32|64)|bfloat16|float(16|32|64)|complex(64|128)|Bool|Byte|Char|"
                 r"Short|Int|Long|Half|Float|Double|BFloat16|ComplexFloat|ComplexDouble|"
                 r"UInt(16|32|64))\b")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(POLICIES))
    ap.add_argument("--python", default=sys.executable, help="the interpreter with the framework")
    ap.add_argument("--ops", default="", help="comma list: only these ops")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--grep", default="", help="only cells containing this text")
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the fixture")
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--compare-env", default="",
                    help="VAR=VALUE: run every --every-th cell with and without this environment "
                         "variable (e.g. JAX_OPS_EAGER=1) and report the cells that differ")
    ap.add_argument("--every", type=int, default=20)
    ap.add_argument("--operator", action="store_true",
                    help="the Python operators of ops_common.OPERATOR_FORMS (those ops only) into "
                         "resolve-ops-operator/")
    ap.add_argument("--merge", action="store_true",
                    help="record only the cells not yet in the fixture (with --ops: also every "
                         "cell of those ops) and keep the fixture's other answers")
    a = ap.parse_args()
    adapter, mode, pin, dtypes, weak = POLICIES[a.policy]
    ops = a.ops.split(",") if a.ops else None
    cs = [c for c in ops_cases.cells(adapter, dtypes, weak, ops, operator=a.operator)
          if a.grep in str(c)]
    old = {}
    folder = "resolve-ops-operator" if a.operator else "resolve-ops"
    path = os.path.join(ROOT, "tests", "fixtures", folder, a.policy + ".txt.gz")
    if a.merge:
        every = list(ops_cases.cells(adapter, dtypes, weak, operator=a.operator))
        with gzip.open(path, "rt") as f:
            header = f.readline().rstrip("\n")
            for line in f:
                if not line.startswith("#"):
                    k, _, v = line.rstrip("\n").rpartition(" : ")
                    old[k] = v
        cs = [c for c in every if str(c) not in old or (ops and c.op in ops)]
        print(f"{a.policy}: recording {len(cs)} cells, keeping {len(every) - len(cs)}")
    if a.limit:
        cs = cs[: a.limit]
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    if a.operator:
        env["PROMOTE_OPERATOR_FORM"] = "1"
    if a.compare_env:
        var, _, val = a.compare_env.partition("=")
        sample = cs[:: a.every]
        one = [t for _, t in harness.run(sample, a.python, "ops_" + adapter, mode, a.timeout, env)]
        two = [t for _, t in harness.run(sample, a.python, "ops_" + adapter, mode, a.timeout,
                                         dict(env, **{var: val}))]
        diff = [(c, x, y) for c, x, y in zip(sample, one, two) if x.split("\t")[0] != y.split("\t")[0]]
        for c, x, y in diff:
            print(f"{c} : {x.split(chr(9))[0]} (default) vs {y.split(chr(9))[0]} ({a.compare_env})")
        print(f"{a.policy}: {len(sample) - len(diff)} of {len(sample)} sampled cells agree with {a.compare_env}")
        return
    rows = harness.run(cs, a.python, "ops_" + adapter, mode, timeout=a.timeout, env=env)
    if a.merge:
        new = {str(c): ans for c, ans in rows}
        rows = [(c, new[str(c)] if str(c) in new else old[str(c)]) for c in every]
        cs = every
    if a.dry_run:
        for c, ans in rows:
            print(f"{c} : {ans}")
        return
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    log = collections.OrderedDict()
    bad = 0
    with gzip.open(tmp, "wt", compresslevel=9) as f:
        if a.merge:
            f.write(f"{header}; cells added {datetime.date.today()} by record_ops.py --merge\n")
        else:
            f.write(f"# policy={a.policy} framework={pin} python={platform.python_version()} "
                    f"recorded={datetime.date.today()} by tools/oracle/record_ops.py"
                    f"{' --operator (the Python operators)' if a.operator else ' (issue 12 ops)'}\n")
        for c, ans in rows:
            tok, _, detail = ans.partition("\t")
            if tok.startswith("?"):
                bad += 1
                print(f"adapter error: {c} : {ans}", file=sys.stderr)
            f.write(f"{c} : {tok}\n")
            if detail:
                key = (c.op, tok, _DT.sub("D", detail))
                n, first = log.get(key, (0, str(c)))
                log[key] = (n + 1, first)
    logname = a.policy + (".operator" if a.operator else "") + ".log.gz"
    logpath = os.path.join(HERE, "notes", "ops-logs", logname)
    os.makedirs(os.path.dirname(logpath), exist_ok=True)
    if a.merge and os.path.exists(logpath):
        # the kept cells' evidence stays: the new messages are added to the old log's counts
        with gzip.open(logpath, "rt") as f:
            for line in list(f)[1:]:
                op, tok, n, first, detail = line.rstrip("\n").split("\t", 4)
                m, f1 = log.get((op, tok, detail), (0, first))
                log[(op, tok, detail)] = (m + int(n), f1)
    with gzip.open(logpath, "wt", compresslevel=9) as f:
        f.write("# op\tanswer\tcount\tfirst cell\tdetail (dtype names replaced by D)\n")
        for (op, tok, detail), (n, first) in log.items():
            f.write(f"{op}\t{tok}\t{n}\t{first}\t{detail}\n")
    if bad:
        print(f"{bad} adapter errors: fixture left at {tmp}", file=sys.stderr)
        sys.exit(1)
    os.replace(tmp, path)
    print(f"wrote {path} ({len(cs)} cells)")


if __name__ == "__main__":
    main()
