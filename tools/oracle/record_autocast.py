"""Record what an autocast region does to each cell of autocast_cases.py, into
tests/fixtures/autocast/NAME.txt.gz (the fixture format of README.md; NAME is the autocast's name).

    nice -n 19 python tools/oracle/record_autocast.py torch-cpu-bf16 --python /work/venvs/torch/bin/python
    python tools/oracle/record_autocast.py paddle-cpu-o1-f16 --python /work/venvs/paddle/bin/python

The adapter runs in harness.py's crash-isolating worker: a cell that kills or hangs the worker is
recorded `X`.  Lines whose answer starts with `?` (an adapter error) stop the fixture from being
written.
"""
from __future__ import annotations

import argparse
import datetime
import gzip
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import autocast_cases  # noqa: E402
import harness  # noqa: E402

# name -> (adapter, mode, base policy, framework pin, dtypes, engine ops only)
AUTOCASTS = {
    "torch-cpu-bf16": ("autocast_torch", "cpu-bfloat16", "torch", "torch==2.15.0",
                       autocast_cases.DTYPES, False),
    "torch-cpu-f16": ("autocast_torch", "cpu-float16", "torch", "torch==2.15.0",
                      autocast_cases.DTYPES, False),
    **{f"paddle-cpu-{lvl.lower()}-{short}": ("autocast_paddle", f"{lvl}-{dt}", "paddle",
                                             "paddlepaddle==3.3.1", autocast_cases.DTYPES, True)
       for lvl in ("O1", "O2") for short, dt in (("f16", "float16"), ("bf16", "bfloat16"))},
}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name", choices=sorted(AUTOCASTS))
    ap.add_argument("--python", default=sys.executable, help="the interpreter with the framework")
    ap.add_argument("--grep", default="", help="only cells containing this text")
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the fixture")
    ap.add_argument("--timeout", type=float, default=20.0)
    a = ap.parse_args()
    adapter, mode, base, pin, dtypes, engine_only = AUTOCASTS[a.name]
    cs = [c for c in autocast_cases.cells(dtypes, engine_only) if a.grep in str(c)]
    rows = harness.run(cs, a.python, adapter, mode, timeout=a.timeout)
    if a.dry_run:
        for c, ans in rows:
            print(f"{c} : {ans}")
        return
    path = os.path.join(ROOT, "tests", "fixtures", "autocast", a.name + ".txt.gz")
    tmp = path + ".tmp"
    bad = 0
    with gzip.open(tmp, "wt", compresslevel=9) as f:
        f.write(f"# autocast={a.name} base={base} mode={mode} framework={pin} "
                f"python={platform.python_version()} recorded={datetime.date.today()} "
                f"by tools/oracle/record_autocast.py\n")
        for c, ans in rows:
            if ans.startswith("?"):
                bad += 1
                print(f"adapter error: {c} : {ans}", file=sys.stderr)
            f.write(f"{c} : {ans}\n")
    if bad:
        print(f"{bad} adapter errors: fixture left at {tmp}", file=sys.stderr)
        sys.exit(1)
    os.replace(tmp, path)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
