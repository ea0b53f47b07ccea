"""Record the narrow dtypes' promotion cells (narrow_cases.py) of one policy into
tests/fixtures/resolve-narrow/POLICY.txt.gz, through the policy's adapter (fw_<name>.py) in the
crash/hang-isolating worker (harness.py), with record.py's driver (`record.write`).

    nice -n 19 python tools/oracle/record_narrow.py jax --python /work/venvs/jax/bin/python
    python tools/oracle/record_narrow.py torch --python /work/venvs/torch/bin/python --dry-run

The narrow dtypes each framework has: JAX 0.10.2 every one of ml_dtypes but complex32
(`jnp.ones(2, dtype="complex32")`: "JAX only supports number, bool, and string dtypes");
PyTorch 2.15 the five float8s it names and complex32 (its int4/uint4/int2/uint2 have no
`ones`, its float4 only comes packed in pairs); NumPy 2.4.6 with ml_dtypes 0.6.0 every one;
NumPy 1.26.4 with ml_dtypes 0.5.4 (the newest that keeps NumPy 1; 0.6.0 requires NumPy 2) every
one but complex32 (0.5.4 has none); TF 2.21 the ten of `tf.dtypes.experimental` (fw_tf.NARROW);
Paddle 3.3.1 float8_e4m3fn and float8_e5m2.
"""
from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import narrow_cases  # noqa: E402
import record  # noqa: E402
from syntax import NARROW_DTYPES  # noqa: E402

TORCH = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu",
         "complex32"]
JAX = [d for d in NARROW_DTYPES if d != "complex32"]
TF = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz",
      "float4_e2m1fn", "int2", "uint2", "int4", "uint4"]
NARROW = {
    "jax": JAX,
    "jax-x64": JAX,
    "jax-strict": JAX,
    "torch": TORCH,
    "numpy": list(NARROW_DTYPES),
    "numpy1": JAX,
    "tf": TF,
    "tf-legacy": TF,
    "tf-all": TF,
    "tf-safe": TF,
    "paddle": ["float8_e4m3fn", "float8_e5m2"],
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(NARROW))
    ap.add_argument("--python", default=sys.executable, help="the interpreter with the framework")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--dry-run", action="store_true", help="print, do not write the fixture")
    ap.add_argument("--timeout", type=float, default=20.0)
    a = ap.parse_args()
    adapter, _, _, dtypes, weak = record.POLICIES[a.policy]
    cs = list(narrow_cases.cells(list(dtypes) + NARROW[a.policy], weak))
    if a.limit:
        cs = cs[: a.limit]
    # JAX: the op under jax.eval_shape (fw_jax.py), one trace per cell instead of one compilation
    env = dict(os.environ, JAX_ORACLE_ABSTRACT="1") if adapter == "jax" else None
    record.write(a.policy, cs, "resolve-narrow", a, by="record_narrow.py", env=env)


if __name__ == "__main__":
    main()
