"""How XLA's CPU backend (JAX 0.10.2) computes on the narrow floats, read from the compiled HLO.

Run with the jax venv (nice -n 19 python tools/oracle/probe_xla_narrow_hlo.py); writes
tools/oracle/notes/xla-narrow-hlo.md. For each narrow float it records the upcast type XLA's
float normalization gives its ops (the type of the `convert` of the parameter), whether every
HLO op of `jnp.arcsin` and of a reduction is followed by a `convert` back to the narrow dtype,
the init constant of jnp.sum/max/min (as XLA folded it) and the constant jnp.mean multiplies
by. src/kernel/narrow/xla.rs models these (`NarrowSteps::XlaEachOp`); the values themselves are
tests/fixtures/eval-narrow/jax*.jsonl.gz (record_values_narrow.py).
"""
import re
import sys

import jax
import jax.numpy as jnp
import ml_dtypes

NARROW = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
          "float8_e4m3b11fnuz", "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float4_e2m1fn"]


def hlo(f, x):
    return jax.jit(f).lower(x).compile().as_text()


def constants(text):
    return re.findall(r"= (\w+)\[\] constant\(([^)]*)\)", text)


def row(name):
    dt = getattr(ml_dtypes, name)
    x = jnp.zeros(21, dtype=dt)
    asin = hlo(jnp.arcsin, x)
    upcast = re.search(r"= (\w+)\[21\]\{0\} convert\(%param", asin).group(1)
    ops = len(re.findall(rf"= {upcast}\[21\]\{{0\}} (?:add|subtract|multiply|sqrt|atan2)\(", asin))
    back = len(re.findall(r"= \w+\[21\]\{[^}]*\} convert\(%asin", asin))
    fold = {f.__name__: constants(hlo(f, x)) for f in (jnp.sum, jnp.max, jnp.min, jnp.mean)}
    return (f"| {name} | {upcast} | {ops} ops, {back} converted back | "
            + " | ".join(", ".join(f"{t} {v}" for t, v in fold[k]) for k in ("sum", "max", "min", "mean"))
            + " |")


def main():
    out = ["# XLA on CPU (jax " + jax.__version__ + ") on the narrow floats: compiled HLO", "",
           "Written by tools/oracle/probe_xla_narrow_hlo.py (arrays of 21 elements).", "",
           "| dtype | upcast type | jnp.arcsin | sum constants | max | min | mean |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    out += [row(n) for n in NARROW]
    text = "\n".join(out) + "\n"
    path = sys.argv[1] if len(sys.argv) > 1 else "tools/oracle/notes/xla-narrow-hlo.md"
    with open(path, "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
