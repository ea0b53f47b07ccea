"""Record the narrow dtypes' promotion cells (narrow_cases.py) of one policy into
tests/fixtures/resolve-narrow/POLICY.txt.gz, through the policy's adapter (fw_<name>.py) in the
crash/hang-isolating worker (harness.py), as record.py does for the classic dtypes.

    nice -n 19 python tools/oracle/record_narrow.py jax --python /work/venvs/jax/bin/python
    python tools/oracle/record_narrow.py torch --python /work/venvs/torch/bin/python --dry-run

The narrow dtypes each framework has: JAX 0.10.2 every one of ml_dtypes but complex32
(`jnp.ones(2, dtype="complex32")`: "JAX only supports number, bool, and string dtypes");
PyTorch 2.15 the five float8s it names and complex32 (its int4/uint4/int2/uint2 have no
`ones`, its float4 only comes packed in pairs); NumPy 2.4.6 with ml_dtypes 0.6.0 every one.
"""
from __future__ import annotations

import argparse
import datetime
import gzip
import os
import platform
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import harness  # noqa: E402
import narrow_cases  # noqa: E402
from record import POLICIES  # noqa: E402
from syntax import NARROW_DTYPES  # noqa: E402

TORCH = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
         "complex32"]
NARROW = {
    "jax": [d for d in NARROW_DTYPES if d != "complex32"],
    "jax-x64": [d for d in NARROW_DTYPES if d != "complex32"],
    "jax-strict": [d for d in NARROW_DTYPES if d != "complex32"],
    "torch": TORCH,
    "numpy": list(NARROW_DTYPES),
}
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(NARROW))
    ap.add_argument("--python", default=sys.executable, help="the interpreter with the framework")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the fixture")
    ap.add_argument("--timeout", type=float, default=20.0)
    a = ap.parse_args()
    adapter, mode, pin, dtypes, weak = POLICIES[a.policy]
    cs = list(narrow_cases.cells(list(dtypes) + NARROW[a.policy], weak))
    if a.limit:
        cs = cs[: a.limit]
    # JAX: the op under jax.eval_shape (fw_jax.py), one trace per cell instead of one compilation
    env = dict(os.environ, JAX_ORACLE_ABSTRACT="1") if adapter == "jax" else None
    rows = list(harness.run(cs, a.python, adapter, mode, timeout=a.timeout, env=env))
    if a.dry_run:
        for c, ans in rows:
            print(f"{c} : {ans}")
        return
    out = os.path.join(ROOT, "tests", "fixtures", "resolve-narrow")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, a.policy + ".txt.gz")
    bad = [f"{c} : {ans}" for c, ans in rows if ans.startswith("?")]
    for b in bad:
        print(f"adapter error: {b}", file=sys.stderr)
    if bad:
        sys.exit(f"{len(bad)} adapter errors: nothing written")
    with gzip.open(path, "wt", compresslevel=9) as f:
        f.write(f"# policy={a.policy} framework={pin} python={platform.python_version()} "
                f"recorded={datetime.date.today()} by tools/oracle/record_narrow.py\n")
        for c, ans in rows:
            f.write(f"{c} : {ans}\n")
    print(f"wrote {path} ({len(rows)} cells)")


if __name__ == "__main__":
    main()
