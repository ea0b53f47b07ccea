"""Record one policy's cells from the real framework into tests/fixtures/resolve/POLICY.txt.gz.

    python tools/oracle/record.py POLICY [--python PATH] [--limit N] [--dry-run] [--grep TEXT]

The adapter and its mode for each policy name of the spec are in POLICIES below.
"""
from __future__ import annotations

import argparse
import datetime
import gzip
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cases  # noqa: E402
import harness  # noqa: E402

# policy -> (adapter, mode, framework pin, dtypes the framework has, has weak tensors)
ALL = cases.DTYPES
POLICIES = {
    "torch": ("torch", "default", "torch==2.15.0", ALL, False),
    "jax": ("jax", "x32", "jax==0.10.2", ALL, True),
    "jax-x64": ("jax", "x64", "jax==0.10.2", ALL, True),
    "jax-strict": ("jax", "strict", "jax==0.10.2", ALL, True),
    "numpy": ("numpy", "default", "numpy==2.4.6", [d for d in ALL if d != "bfloat16"], False),
    "numpy1": ("numpy", "default", "numpy==1.26.4", [d for d in ALL if d != "bfloat16"], False),
    "array-api": ("array_api", "default", "array-api-strict==2.6.1",
                  [d for d in ALL if d not in ("bfloat16", "float16")], False),
    "tf": ("tf", "off", "tensorflow-cpu==2.21.0", ALL, False),
    "tf-legacy": ("tf", "legacy", "tensorflow-cpu==2.21.0", ALL, False),
    "tf-all": ("tf", "all", "tensorflow-cpu==2.21.0", ALL, True),
    "tf-safe": ("tf", "safe", "tensorflow-cpu==2.21.0", ALL, True),
    "paddle": ("paddle", "default", "paddlepaddle==3.3.1",
               [d for d in ALL if d not in ("uint16", "uint32", "uint64")], False),
}

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(POLICIES))
    ap.add_argument("--python", default=sys.executable, help="the interpreter with the framework")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--grep", default="", help="only cells containing this text")
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the fixture")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--dtypes", default="", help="comma list overriding the framework's dtypes")
    a = ap.parse_args()
    adapter, mode, pin, dtypes, weak = POLICIES[a.policy]
    if a.dtypes:
        dtypes = a.dtypes.split(",")
    cs = [c for c in cases.cells(dtypes, weak) if a.grep in str(c)]
    if a.limit:
        cs = cs[: a.limit]
    write(a.policy, cs, "resolve", a, by="record.py")


def write(policy, cells, folder, a, by, env=None):
    """Run the cells through the policy's adapter (a.python, a.timeout) and write
    tests/fixtures/FOLDER/POLICY.txt.gz, or print them with a.dry_run; the one driver of
    record.py and record_narrow.py. Adapter errors (`?...`) leave the fixture unwritten."""
    adapter, mode, pin, _, _ = POLICIES[policy]
    rows = harness.run(cells, a.python, adapter, mode, timeout=a.timeout, env=env)
    if a.dry_run:
        for c, ans in rows:
            print(f"{c} : {ans}")
        return
    out = os.path.join(ROOT, "tests", "fixtures", folder)
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, policy + ".txt.gz")
    tmp = path + ".tmp"
    bad = 0
    with gzip.open(tmp, "wt", compresslevel=9) as f:
        f.write(f"# policy={policy} framework={pin} python={platform.python_version()} "
                f"recorded={datetime.date.today()} by tools/oracle/{by}\n")
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
