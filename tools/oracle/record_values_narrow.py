"""Record the values the frameworks compute on the narrow dtypes (issue 11's arithmetic):
tests/fixtures/eval-narrow/NAME.jsonl.gz, replayed by tests/narrow_values.rs.

    nice -n 19 /work/venvs/numpy/bin/python tools/oracle/record_values_narrow.py numpy
    nice -n 19 /work/venvs/jax/bin/python   tools/oracle/record_values_narrow.py jax x32
    nice -n 19 /work/venvs/jax/bin/python   tools/oracle/record_values_narrow.py jax x64
    nice -n 19 /work/venvs/torch/bin/python tools/oracle/record_values_narrow.py torch
    ... [--out PATH] [--ops add,sqrt] [--dtypes float8_e4m3fn,int4] [--timeout 60]

What is asked, per narrow dtype D the framework has (record_narrow.py lists them):

* the 21 binary ops of values.OPS, D with D, over the cross product of D's edge values
  (`EDGES`: every value for the formats of 6 bits or fewer; for 8-bit ones ±0, the smallest and
  largest subnormal, the smallest normal, values around 1 with their neighbours, 2, 3, 7, 0.5,
  the largest value and its neighbour, ±inf and NaN where the format has them), and D with
  float32 / int8 / complex64 (the input casts);
* the unary ops of UNARY over every value of D (all 256 codes of the 8-bit formats);
* the reductions of REDUCTIONS over the finite edge values, whole;
* NumPy: the accumulations of ACCUMULATIONS over seeded random arrays of each dtype (RANDOM),
  where rounding every partial result into the dtype shows (ml_dtypes' loops run one element
  at a time);
* PyTorch: `divide` of complex64 (and complex32 by complex64) at the lengths of CONTRACTION
  (its complex division contracts to fused multiply-adds except in the scalar remainder).

Each query runs in a worker subprocess (this script with --worker), so a crash or hang costs one
query ({"x": "crash"} / {"x": "hang"}); an exception the classifier does not know is written as
{"x": "unclassified: ..."}, never guessed.

Values are written exactly: a narrow float as Python's repr of its float64 value (every float8,
float6 and float4 value is a short dyadic number), an integer in full, complex32 as the repr of
its complex value. The fixture: a header line with "edges" (D -> texts) and "all" (D -> every
value), then {"op", "grid": [A, B], "a"} lines (the cross product of the edges of A and B, as in
tests/fixtures/eval/) and {"q": QUERY, "a": ANSWER} lines; ANSWER is {"dtype", "weak", "data"}
or {"error": KIND} with KIND one of the spec's errors.
"""
from __future__ import annotations

import argparse
import gzip
import itertools
import json
import math
import os
import platform
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402
import values  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURE = {("numpy", "default"): "numpy", ("jax", "x32"): "jax", ("jax", "x64"): "jax-x64",
           ("torch", "default"): "torch"}
VERSIONS = {"numpy": "2.4.6", "jax": "0.10.2", "torch": "2.15.0"}

FLOAT8 = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
          "float8_e4m3b11fnuz", "float8_e3m4", "float8_e4m3", "float8_e8m0fnu"]
SMALL_FLOATS = ["float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn"]
INTS = ["int2", "uint2", "int4", "uint4"]
NARROW = {
    "numpy": FLOAT8 + SMALL_FLOATS + INTS,  # ml_dtypes 0.6.0 has no complex32 array type
    "jax": FLOAT8 + SMALL_FLOATS + INTS,
    "torch": ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
              "float8_e8m0fnu", "complex32"],
}
PARTNER = {"f": "float32", "i": "int8", "u": "uint8", "c": "complex64"}
UNARY = ["negative", "positive", "absolute", "sign", "square", "reciprocal", "sqrt", "exp",
         "expm1", "log", "log1p", "log2", "log10", "sin", "cos", "tan", "arcsin", "arctan",
         "sinh", "tanh", "floor", "ceil", "trunc", "round", "isnan", "isinf", "isfinite",
         "signbit", "logical_not", "bitwise_invert"]
REDUCTIONS = ["sum", "prod", "mean", "max", "min"]
ACCUMULATIONS = {"numpy": ["sum", "prod", "mean", "cumsum", "cumprod"]}
RANDOM = 6  # arrays per dtype and accumulation: half of every finite value, half of |v| <= 4
CONTRACTION = {"torch": [1, 2, 3, 5, 8, 9, 17]}


def kind(d):
    if d in values.DTYPES:
        return values.KIND[d]
    if d == "complex32":
        return "c"
    if d in INTS:
        return "u" if d.startswith("u") else "i"
    return "f"


# ---------------------------------------------------------------------------------------------
# values (computed with ml_dtypes in the recording venv: every venv here has it)

def ml_type(d):
    import ml_dtypes

    return getattr(ml_dtypes, d)


def code_bits(d):
    return {"float6_e2m3fn": 6, "float6_e3m2fn": 6, "float4_e2m1fn": 4, "int4": 4, "uint4": 4,
            "int2": 2, "uint2": 2}.get(d, 8)


def all_values(d, decode):
    """Every value of a narrow dtype in code order; `decode(d, codes)` decodes uint8 codes with
    the framework's own casts (complex32: the float16 edges, paired)."""
    if d == "complex32":
        parts = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, 65504.0, 2.0**-24, math.inf, math.nan]
        return [complex(r, i) for r in parts for i in parts]
    vals = decode(d, list(range(2 ** code_bits(d))))
    if kind(d) in "iu":
        return sorted(int(v) for v in vals)
    return [float(v) for v in vals]


def edge_values(d, decode):
    """The values of a binary grid: all of them for 6 bits or fewer, else the edges: ±0, the
    smallest positive value and its neighbours, 1 and its neighbours, 0.25 0.5 1.5 2 3 7, the
    largest value, its half and neighbour, ±inf and NaN where the format has them."""
    vals = all_values(d, decode)
    if len(vals) <= 64 or d == "complex32":
        return vals
    fin = sorted({v for v in vals if math.isfinite(v) and v > 0})
    one = fin.index(1.0)
    picks = [0.0, -0.0, fin[0], fin[1], fin[7], 0.25, 0.5, 1.0, -1.0, fin[one + 1],
             fin[one - 1], 1.5, -1.5, 2.0, 3.0, -3.0, 7.0, fin[-1], -fin[-1], fin[-2],
             fin[-1] / 2, math.inf, -math.inf, math.nan]
    out = []
    for v in picks:
        have = any(same(v, x) for x in vals)
        if have and not any(same(v, o) for o in out):
            out.append(v)
    return out


def same(a, b):
    if isinstance(a, float) and isinstance(b, float):
        if math.isnan(a) or math.isnan(b):
            return math.isnan(a) and math.isnan(b)
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    return a == b


def text(v, d):
    """One value as exact text (see the module doc)."""
    if d in values.DTYPES:
        import numpy as np

        if d == "bfloat16":
            return values.fmt_bf16(values.bf16_bits(float(v)))
        return values.fmt(np.array(v, dtype=d)[()], d)
    if kind(d) in "iu":
        return str(int(v))
    if kind(d) == "c":
        z = complex(v)
        return values.fmt_complex(z, float)
    f = float(v)
    if math.isnan(f):
        return "nan"
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return repr(f)


def parse(t, d):
    k = kind(d)
    if k == "b":
        return t == "True"
    if k in "iu":
        return int(t)
    if k == "c":
        return complex(t)
    return float(t)


# ---------------------------------------------------------------------------------------------
# the backends: make a 1-d array of a dtype from values, run an op, read the values back

BINARY_FN = {"add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "divide",
             "floor_divide": "floor_divide", "remainder": "remainder", "power": "power"}


class Numpy:
    def setup(self, mode):
        import ml_dtypes
        import numpy as np

        self.np = np
        self.version = "numpy==" + np.__version__
        self.ml = "ml_dtypes==" + ml_dtypes.__version__

    def tensor(self, vals, d):
        np = self.np
        t = ml_type(d) if d not in values.DTYPES else np.dtype(d)
        if kind(d) == "f":
            return np.array(vals, dtype=np.float64).astype(t)
        return np.array(vals, dtype=t)

    def decode(self, d, codes):
        np = self.np
        return list(np.array(codes, dtype=np.uint8).view(ml_type(d)).astype(np.float64))

    def run(self, op, ts):
        np = self.np
        name = {"bitwise_invert": "invert", "round": "rint", "max": "max", "min": "min"}.get(op, op)
        r = getattr(np, name)(*ts)
        r = np.asarray(r)
        return r.dtype.name, False, r.reshape(-1)

    def classify(self, e, op, dtypes):
        m = str(e)
        if type(e).__name__ in ("UFuncNoLoopError", "UFuncTypeError") or \
                "not supported for the input types" in m or "did not contain a loop" in m:
            return "unsupported"
        if "Integer division by zero" in m or "negative integer powers are not allowed" in m:
            return "value"
        return None


class Jax:
    def setup(self, mode):
        import jax

        jax.config.update("jax_enable_x64", mode == "x64")
        jax.config.update("jax_platforms", "cpu")
        import jax.numpy as jnp
        import numpy as np

        self.jax, self.jnp, self.np = jax, jnp, np
        self.version = "jax==" + jax.__version__

    def tensor(self, vals, d):
        np = self.np
        t = ml_type(d) if d not in values.DTYPES or d == "bfloat16" else d
        a = np.array(vals, dtype=np.float64).astype(t) if kind(d) == "f" else np.array(vals, dtype=t)
        x = self.jnp.asarray(a)
        assert np.dtype(x.dtype) == np.dtype(t), (d, x.dtype)
        return x

    def decode(self, d, codes):
        np = self.np
        return list(np.array(codes, dtype=np.uint8).view(ml_type(d)).astype(np.float64))

    def run(self, op, ts):
        jnp, np = self.jnp, self.np
        name = {"bitwise_invert": "invert", "round": "round"}.get(op, op)
        r = getattr(jnp, name)(*ts)
        return np.dtype(r.dtype).name, bool(r.weak_type), np.asarray(r).reshape(-1)

    def classify(self, e, op, dtypes):
        m = str(e)
        n = type(e).__name__
        if n == "TypePromotionError":
            return "no_promotion"
        if "Integers cannot be raised to negative powers" in m:
            return "value"
        if "does not accept dtype" in m or "only supports 16, 32, and 64-bit" in m or \
                "not inexact" in m:
            return "unsupported"
        if "Invalid integer data type" in m:
            return "unsupported"  # jnp.sum/prod/mean of int2/int4 (its iinfo lookup fails)
        if "Invalid XLA PrimitiveType" in m or "Accepted dtypes at position" in m or \
                "does not support" in m or "not supported" in m or "must be" in m and n == "TypeError":
            return "unsupported"
        return None


class Torch:
    TORCH_NAME = {"complex32": "complex32"}

    def setup(self, mode):
        import numpy as np
        import torch

        torch.set_num_threads(1)
        self.torch, self.np = torch, np
        self.version = "torch==" + torch.__version__.split("+")[0]

    def decode(self, d, codes):
        torch = self.torch
        x = torch.tensor(codes, dtype=torch.uint8).view(self.tdtype(d))
        return x.to(torch.float64).tolist()

    def tdtype(self, d):
        return getattr(self.torch, d)

    def tensor(self, vals, d):
        torch = self.torch
        if kind(d) == "c":
            x = torch.tensor(vals, dtype=torch.complex64)
        elif kind(d) == "f":
            x = torch.tensor(vals, dtype=torch.float64)
        else:
            return torch.tensor(vals, dtype=self.tdtype(d))
        return x.to(self.tdtype(d))

    def run(self, op, ts):
        torch = self.torch
        fn = {"bitwise_invert": "bitwise_not", "absolute": "abs", "power": "pow", "equal": "eq",
              "max": "amax", "min": "amin", "divide": "true_divide"}.get(op, op)
        r = getattr(torch, fn)(*ts)
        name = str(r.dtype).replace("torch.", "")
        name = {"bool": "bool"}.get(name, name)
        if r.dtype == torch.complex32:
            vals = r.to(torch.complex64).reshape(-1).tolist()
        elif r.dtype.is_floating_point:
            vals = r.to(torch.float64).reshape(-1).tolist()
        else:
            vals = r.reshape(-1).tolist()
        return name, False, vals

    def classify(self, e, op, dtypes):
        m = str(e)
        if "Promotion for Float8 Types is not supported" in m:
            return "no_promotion"
        if "not implemented for" in m or "not supported" in m or "Unknown Complex ScalarType" in m \
                or "does not support" in m or "only supports" in m:
            return "unsupported"
        if "ZeroDivisionError" in m:
            return "value"
        return None


BACKENDS = {"numpy": Numpy, "jax": Jax, "torch": Torch}


def worker(fw, mode):
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    import warnings

    warnings.simplefilter("ignore")
    b = BACKENDS[fw]()
    b.setup(mode)
    out.write(json.dumps({"ready": b.version}) + "\n")
    out.flush()
    for line in sys.stdin:
        q = json.loads(line)
        if "values" in q:
            d = q["values"]
            out.write(json.dumps({"edges": [text(v, d) for v in edge_values(d, b.decode)],
                                  "all": [text(v, d) for v in all_values(d, b.decode)]}) + "\n")
            out.flush()
            continue
        dts = [d for d, _ in q["operands"]]
        try:
            ts = [b.tensor([parse(t, d) for t in texts], d) for d, texts in q["operands"]]
            name, weak, arr = b.run(q["op"], ts)
            ans = {"dtype": name, "weak": weak, "data": [text(v, name) for v in list(arr)]}
        except Exception as e:  # noqa: BLE001 - classified; unknown ones reported
            k = b.classify(e, q["op"], dts)
            ans = {"error": k} if k else \
                {"x": "unclassified: " + f"{type(e).__name__}: {e}".replace("\n", " ")[:300]}
        out.write(json.dumps(ans) + "\n")
        out.flush()


class ValueWorker(harness.Worker):
    def __init__(self, fw, mode):
        super().__init__(sys.executable, fw, mode)
        self.args = [sys.executable, os.path.abspath(__file__), "--worker", fw, mode]
        self.version = None

    def start(self):
        env = dict(os.environ, OMP_NUM_THREADS="1",
                   XLA_FLAGS="--xla_cpu_multi_thread_eigen=false", JAX_PLATFORMS="cpu")
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env)
        line = self._readline(600)
        if not line:
            raise RuntimeError("worker did not start")
        self.version = json.loads(line)["ready"]

    def query(self, op, operands, timeout):
        ans = self.ask(json.dumps({"op": op, "operands": operands}), timeout)
        if ans is not None:
            return json.loads(ans)
        return {"x": "hang-or-crash"}


def records(w, head, dtypes, ops, timeout):
    edges, every = head["edges"], head["all"]
    for op in [o for o in ops if o in values.OPS]:
        for d in dtypes:
            partner = PARTNER[kind(d)]
            for a, b in [(d, d), (d, partner), (partner, d)]:
                A, B = values.cross(edges[a], edges[b])
                yield {"op": op, "grid": [a, b], "a": w.query(op, [[a, A], [b, B]], timeout)}
    for op in [o for o in ops if o in UNARY]:
        for d in dtypes:
            q = {"op": op, "operands": [{"dtype": d, "data": every[d]}]}
            yield {"q": q, "a": w.query(op, [[d, every[d]]], timeout)}
    for op in [o for o in ops if o in REDUCTIONS]:
        for d in dtypes:
            fin = [t for t in edges[d] if t not in ("nan", "inf", "-inf") and "nan" not in t
                   and "inf" not in t]
            q = {"op": op, "operands": [{"dtype": d, "data": fin}]}
            yield {"q": q, "a": w.query(op, [[d, fin]], timeout)}


def random_arrays(d, every, seed):
    """RANDOM seeded arrays of 1 to 40 finite values of d (every: its values as texts)."""
    import random

    rng = random.Random(seed)
    fin = [t for t in every if "nan" not in t and "inf" not in t]
    small = [t for t in fin if abs(parse(t, d)) <= 4] or fin
    return [[rng.choice(fin if k % 2 == 0 else small) for _ in range(rng.randint(1, 40))]
            for k in range(RANDOM)]


def extra_records(w, head, dtypes, ops, timeout, fw):
    """The accumulations over random arrays (NumPy) and the contraction lengths (PyTorch)."""
    accumulations = ACCUMULATIONS.get(fw, [])
    for op in [o for o in accumulations if o in ops]:
        for i, d in enumerate(dtypes):
            for data in random_arrays(d, head["all"][d], seed=1000 * i + accumulations.index(op)):
                q = {"op": op, "operands": [{"dtype": d, "data": data}]}
                yield {"q": q, "a": w.query(op, [[d, data]], timeout)}
    if "divide" not in ops:
        return
    for n in CONTRACTION.get(fw, []):
        # (2.5+0.5j) / (0.5-2.5j): a·rat + b cancels to 0 plain, 2.865608e-09 fused
        for a in ["complex64", "complex32"]:
            x, y = ["(2.5+0.5j)"] * n, ["(0.5-2.5j)"] * n
            q = {"op": "divide", "operands": [{"dtype": a, "data": x},
                                              {"dtype": "complex64", "data": y}]}
            yield {"q": q, "a": w.query("divide", [[a, x], ["complex64", y]], timeout)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("framework", choices=sorted(BACKENDS))
    ap.add_argument("mode", nargs="?", default="default")
    ap.add_argument("--out")
    ap.add_argument("--ops")
    ap.add_argument("--dtypes")
    ap.add_argument("--timeout", type=float, default=60.0)
    a = ap.parse_args()
    if a.worker:
        worker(a.framework, a.mode)
        return
    name = FIXTURE[(a.framework, a.mode)]
    out = a.out or os.path.join(ROOT, "tests", "fixtures", "eval-narrow", name + ".jsonl.gz")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    dtypes = a.dtypes.split(",") if a.dtypes else NARROW[a.framework]
    extra = [o for o in ACCUMULATIONS.get(a.framework, []) if o not in REDUCTIONS]
    ops = a.ops.split(",") if a.ops else values.OPS + UNARY + REDUCTIONS + extra
    w = ValueWorker(a.framework, a.mode)
    w.start()
    assert w.version.endswith("==" + VERSIONS[a.framework]), w.version
    head = {"framework": w.version, "mode": a.mode, "policy": name,
            "python": platform.python_version(), "machine": platform.machine(),
            "recorded": time.strftime("%Y-%m-%d", time.gmtime()),
            "edges": {}, "all": {}}
    for d in dtypes:
        got = json.loads(w.ask(json.dumps({"values": d}), a.timeout))
        head["edges"][d], head["all"][d] = got["edges"], got["all"]
        p = PARTNER[kind(d)]
        head["edges"][p] = values.edge_texts(p)
    n, bad, t0 = 0, 0, time.time()
    tmp = out + ".tmp"
    try:
        with gzip.open(tmp, "wt", compresslevel=9) as f:
            f.write(json.dumps(head, separators=(",", ":")) + "\n")
            more = extra_records(w, head, dtypes, ops, a.timeout, a.framework)
            for rec in itertools.chain(records(w, head, dtypes, ops, a.timeout), more):
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                f.flush()
                n += 1
                if "x" in rec["a"]:
                    bad += 1
                    what = rec.get("grid") or [o["dtype"] for o in rec["q"]["operands"]]
                    print(f"[not recordable] {rec.get('op') or rec['q']['op']} {what}: "
                          f"{rec['a']['x']}", file=sys.stderr)
                if n % 100 == 0:
                    print(f"{name}: {n} queries, {time.time() - t0:.0f}s", file=sys.stderr)
    finally:
        w.kill()
    os.replace(tmp, out)
    print(f"wrote {n} queries ({bad} not recordable) to {out} ({os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
