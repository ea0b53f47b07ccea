"""Record `astype` (the explicit conversion) between every pair of a policy's dtypes, classic
and narrow, through fw_astype.py in the crash/hang-isolating worker (harness.py).

    nice -n 19 python3 tools/oracle/record_astype.py torch --python /work/venvs/torch/bin/python
    python3 tools/oracle/record_astype.py jax --python /work/venvs/jax/bin/python --dry-run

The dtypes are the ones the policy lists as its framework's (`promote dtypes --policy P`, built
from this worktree). Cells: `astype FROM dtype=TO` for every ordered pair (FROM = TO included).
Output: tests/fixtures/resolve-astype/POLICY.txt.gz (replayed by tests/conformance_astype.rs)
and tools/oracle/notes/astype-logs/POLICY.log.gz (each refusal's exception).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record  # noqa: E402

PINS = {
    "numpy": "numpy==2.4.6 ml_dtypes==0.6.0", "numpy1": "numpy==1.26.4 ml_dtypes==0.5.4",
    "torch": "torch==2.15.0", "jax": "jax==0.10.2", "jax-x64": "jax==0.10.2",
    "jax-strict": "jax==0.10.2", "tf": "tensorflow-cpu==2.21.0",
    "tf-legacy": "tensorflow-cpu==2.21.0", "tf-all": "tensorflow-cpu==2.21.0",
    "tf-safe": "tensorflow-cpu==2.21.0", "paddle": "paddlepaddle==3.3.1",
    "array-api": "array-api-strict==2.6.1",
}


def dtypes_of(policy):
    exe = os.path.join(record.ROOT, "target", "release", "promote")
    out = subprocess.run([exe, "dtypes", "--policy", policy, "--format", "json"],
                         check=True, capture_output=True, text=True).stdout
    return [d["name"] for d in json.loads(out)["dtypes"] if d["available"]]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(PINS))
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--dry-run", action="store_true")
    a = ap.parse_args()
    names = dtypes_of(a.policy)
    cells = [f"astype {f} dtype={t}" for f in names for t in names]
    logs = os.path.join(record.ROOT, "tools", "oracle", "notes", "astype-logs")
    os.makedirs(logs, exist_ok=True)
    log = tempfile.NamedTemporaryFile(delete=False, suffix=".log").name
    env = dict(os.environ, PROMOTE_ASTYPE_LOG=log)
    # record.write's driver, with this adapter: the policy's name is the mode
    record.POLICIES[a.policy] = ("astype", a.policy, PINS[a.policy]) + record.POLICIES.get(
        a.policy, (None, None, None, None, False))[3:]
    record.write(a.policy, cells, "resolve-astype", a, "record_astype.py", env=env)
    if not a.dry_run:
        with open(log) as f, gzip.open(os.path.join(logs, a.policy + ".log.gz"), "wt",
                                       compresslevel=9) as g:
            g.write(f.read())
    os.unlink(log)


if __name__ == "__main__":
    main()
