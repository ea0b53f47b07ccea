"""Record the cells of issue 10 (forms_cases.py) into tests/fixtures/resolve-forms/NAME.txt.gz.

    python tools/oracle/record_forms.py POLICY --python VENV/bin/python [--set KEY=VALUE]
        [--families function,result_type,...] [--every N] [--limit N] [--dry-run] [--grep TEXT]

NAME is POLICY, or POLICY@KEY=VALUE for a framework setting (SETTINGS: the adapter mode that
realises it; such a run records the operator grid too, `operator` family).  Answers come from
fw_forms_<fw>.py in harness.py's worker (a crash or hang costs one cell: `X`).  Besides the
fixture it writes tools/oracle/notes/forms-logs/NAME.log.gz: every distinct (op, form, answer,
exception message with dtype names replaced by D), its count and first cell.
"""
from __future__ import annotations

import argparse
import collections
import datetime
import gzip
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import forms_cases  # noqa: E402
import harness  # noqa: E402
from record import POLICIES, ROOT  # noqa: E402
from record_ops import _DT  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))

# (policy, KEY=VALUE) -> adapter mode realising the setting (see the adapters' setup())
SETTINGS = {
    ("torch", "default_float=float64"): "float64",
    ("jax", "numpy_dtype_promotion=strict"): "strict-x32",
    ("jax", "explicit_x64_dtypes=allow"): "x32-allow",
    ("jax", "explicit_x64_dtypes=error"): "x32-error",
    ("jax-x64", "explicit_x64_dtypes=error"): "x64-error",
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(POLICIES))
    ap.add_argument("--python", default=sys.executable, help="the interpreter with the framework")
    ap.add_argument("--set", default="", help="KEY=VALUE: a framework setting (SETTINGS)")
    ap.add_argument("--families", default="", help="comma list of forms_cases.FAMILIES")
    ap.add_argument("--reduced", action="store_true",
                    help="operator/function grids with ops_cases.py's reduced operands")
    ap.add_argument("--every", type=int, default=1, help="only every N-th cell (a quick look)")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--grep", default="", help="only cells containing this text")
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the fixture")
    ap.add_argument("--timeout", type=float, default=30.0)
    a = ap.parse_args()
    adapter, mode, pin, dtypes, weak = POLICIES[a.policy]
    name = a.policy
    if a.set:
        mode = SETTINGS[(a.policy, a.set)]
        name = f"{a.policy}@{a.set}"
    fams = a.families.split(",") if a.families else None
    if fams is None and a.set:
        fams = forms_cases.FAMILIES
    cs = [c for c in forms_cases.cells(adapter, dtypes, weak, fams, a.reduced) if a.grep in str(c)]
    cs = cs[:: a.every]
    if a.limit:
        cs = cs[: a.limit]
    env = dict(os.environ, PYTHONWARNINGS="ignore")
    rows = harness.run(cs, a.python, "forms_" + adapter, mode, timeout=a.timeout, env=env)
    if a.dry_run:
        bad = 0
        for c, ans in rows:
            tok = ans.split("\t")[0]
            bad += tok.startswith("?")
            print(f"{c} : {ans if tok.startswith('?') else tok}")
        print(f"{len(cs)} cells, {bad} adapter errors", file=sys.stderr)
        return
    path = os.path.join(ROOT, "tests", "fixtures", "resolve-forms", name + ".txt.gz")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    log = collections.OrderedDict()
    bad = 0
    with gzip.open(tmp, "wt", compresslevel=9) as f:
        f.write(f"# policy={a.policy}{' set=' + a.set if a.set else ''} framework={pin} "
                f"python={platform.python_version()} recorded={datetime.date.today()} "
                f"by tools/oracle/record_forms.py (issue 10: {','.join(fams or ['default'])}"
                f"{'; reduced grid' if a.reduced else ''}"
                f"{f'; every {a.every}th cell' if a.every > 1 else ''})\n")
        for c, ans in rows:
            tok, _, detail = ans.partition("\t")
            if tok.startswith("?"):
                bad += 1
                print(f"adapter error: {c} : {ans}", file=sys.stderr)
            f.write(f"{c} : {tok}\n")
            if detail:
                key = (c.op + (":" + c.form if c.form else ""), tok, _DT.sub("D", detail))
                n, first = log.get(key, (0, str(c)))
                log[key] = (n + 1, first)
    logpath = os.path.join(HERE, "notes", "forms-logs", name + ".log.gz")
    os.makedirs(os.path.dirname(logpath), exist_ok=True)
    with gzip.open(logpath, "wt", compresslevel=9) as f:
        f.write("# op[:form]\tanswer\tcount\tfirst cell\tdetail (dtype names replaced by D)\n")
        for (op, tok, detail), (n, first) in log.items():
            f.write(f"{op}\t{tok}\t{n}\t{first}\t{detail}\n")
    if bad:
        print(f"{bad} adapter errors: fixture left at {tmp}", file=sys.stderr)
        sys.exit(1)
    os.replace(tmp, path)
    print(f"wrote {path} ({len(cs)} cells)")


if __name__ == "__main__":
    main()
