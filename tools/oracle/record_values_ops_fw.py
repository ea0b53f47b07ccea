"""Record JAX's, TensorFlow's or Paddle's element values for the ops of issue 12:
tests/fixtures/eval-ops/NAME.jsonl.gz, over the grid of record_values_ops.py (NumPy's and
PyTorch's: the same inputs, `queries()`).

    nice -n 19 /work/venvs/jax/bin/python    tools/oracle/record_values_ops_fw.py jax x32      # -> jax
    nice -n 19 /work/venvs/jax/bin/python    tools/oracle/record_values_ops_fw.py jax x64      # -> jax-x64
    nice -n 19 /work/venvs/tf/bin/python     tools/oracle/record_values_ops_fw.py tf off       # -> tf
    nice -n 19 /work/venvs/paddle/bin/python tools/oracle/record_values_ops_fw.py paddle default
    ... [--out PATH] [--ops sqrt,sum] [--timeout 120]

Line 1 is a header {"framework", "mode", "policy", "python", "recorded"}; then one record per
line, as record_values_ops.py writes them ({"op", "in", "shape", "axis", "dtype", "compute", "a"}),
with "a": {"x": "crash" | "hang"} where the worker died or outran --timeout (not recordable: one
query lost, the worker restarts). The dtypes are those the mode makes (record_values_fw.py's
`dtypes_of`: JAX x32 has no 64-bit dtypes, Paddle no uint16/32/64). Each op is the function the
resolve recordings call (the `NAMES` of fw_ops_<fw>.py: jnp.sqrt, tf.math.sqrt, paddle.sqrt, ...),
on 1-d tensors (a reduction along an axis: the 8 x 25 reshape, axis 0; TF's cumsum/cumprod/argmax
take axis=0); a framework without the function answers {"error": "AttributeError"}. "compute" is
the dtype the element function runs in as far as the call shows it: the input's for predicates,
complex -> real ops and max/min/argmax/any/all/var/std, else `dtype=` or the result's.
JAX runs eagerly (each op and dtype compiles once); TF and Paddle on one CPU thread.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import subprocess
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402
import values  # noqa: E402
from ops_cases import DTYPE_ARG, REDUCTIONS  # noqa: E402
from record_values_fw import VERSIONS, dtypes_of  # noqa: E402
from record_values_ops import queries  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURE = {("jax", "x64"): "jax-x64", ("jax", "x32"): "jax", ("tf", "off"): "tf",
           ("paddle", "default"): "paddle"}
AXIS0_ALWAYS = ("cumsum", "cumprod", "argmax")  # TF's functions along axis 0


def compute_of(op, ins, dtype, result):
    """The dtype the element function runs in, as the call shows it (see the docstring)."""
    src = ins[0]
    if op in REDUCTIONS:
        if op in ("max", "min", "argmax", "any", "all", "var", "std"):
            return src
        return dtype or result
    to_real = values.KIND[src] == "c" and values.KIND.get(result, "") != "c"
    return src if result == "bool" or to_real else result


# ---------------------------------------------------------------------------------------------
# the worker: one query per line in, one record's "a" and "compute" per line out

class Backend:
    def __init__(self, fw, mode):
        import numpy as np
        from values_frameworks import BACKENDS

        self.np, self.fw_name = np, fw
        self.b = BACKENDS[fw]()
        self.b.setup(mode)
        self.ops = __import__(f"fw_ops_{fw}")
        if fw == "tf":
            self.ops.setup(mode)
        if fw == "jax":
            self.ops.setup(mode)
        self.version = self.b.version

    def name_of(self, r):
        if self.fw_name == "jax":
            return self.np.dtype(r.dtype).name
        return self.b.fw.NAMES[r.dtype]

    def numpy_of(self, r):
        return self.np.asarray(r) if self.fw_name == "jax" else r.numpy()

    def reshape(self, t, shape):
        if self.fw_name == "jax":
            return t.reshape(shape)
        if self.fw_name == "tf":
            return self.b.tf.reshape(t, shape)
        return t.reshape(shape)

    def call(self, op, ts, axis, dtype):
        import ops_common

        fn, path = ops_common.resolve(self.ops.ROOTS, self.ops.NAMES[op])
        if fn is None:
            raise AttributeError(path)
        if op not in REDUCTIONS:
            return fn(*ts)
        kw = {}
        if dtype:
            kw["dtype"] = self.b.fw.DTYPES[dtype] if self.fw_name == "paddle" else dtype
        if axis is not None:
            kw["axis"] = axis
        elif self.fw_name == "tf" and op in AXIS0_ALWAYS:
            kw["axis"] = 0
        return fn(ts[0], **kw)

    def answer(self, q):
        ins = [d for d, _ in q["in"]]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                ts = [self.b.tensor(t, d) for d, t in q["in"]]
                if q["shape"]:
                    ts = [self.reshape(t, q["shape"]) for t in ts]
                r = self.call(q["op"], ts, q["axis"], q["dtype"])
                rs = list(r) if isinstance(r, (tuple, list)) else [r]
                got = [(self.name_of(x), values.texts_of(self.numpy_of(x), self.name_of(x)))
                       for x in rs]
            except Exception as e:  # noqa: BLE001 - the class name is the record
                return {"error": type(e).__name__}, None
        a = {"dtype": got[0][0], "data": got[0][1]}
        if len(got) == 2:
            a.update({"dtype2": got[1][0], "data2": got[1][1]})
        return a, compute_of(q["op"], ins, q["dtype"], got[0][0])


def worker(fw, mode):
    # answers go to a private copy of fd 1; the frameworks' own prints go to stderr
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    b = Backend(fw, mode)
    out.write(json.dumps({"ready": b.version}) + "\n")
    for line in sys.stdin:
        a, compute = b.answer(json.loads(line))
        out.write(json.dumps({"a": a, "compute": compute}) + "\n")


class OpsWorker(harness.Worker):
    """harness.Worker running this script's worker."""

    def __init__(self, fw, mode):
        super().__init__(sys.executable, fw, mode)
        self.args = [sys.executable, os.path.abspath(__file__), "--worker", fw, mode]
        self.version = None

    def start(self):
        env = dict(os.environ, OMP_NUM_THREADS="1", TF_NUM_INTRAOP_THREADS="1",
                   TF_NUM_INTEROP_THREADS="1", XLA_FLAGS="--xla_cpu_multi_thread_eigen=false")
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env)
        line = self._readline(600)
        if not line:
            raise RuntimeError("worker did not start")
        self.version = json.loads(line)["ready"]

    def query(self, q, timeout):
        self.hung = False
        ans = self.ask(json.dumps(q), timeout)
        if ans is not None:
            return json.loads(ans)
        return {"a": {"x": "hang" if self.hung else "crash"}, "compute": None}

    def _readline(self, timeout):
        line = harness.Worker._readline(self, timeout)
        self.hung = line is None and self.proc is not None and self.proc.poll() is None
        return line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("framework", choices=["jax", "tf", "paddle"])
    ap.add_argument("mode")
    ap.add_argument("--out")
    ap.add_argument("--ops", help="comma-separated ops (default: all)")
    ap.add_argument("--timeout", type=float, default=120.0)
    a = ap.parse_args()
    if a.worker:
        worker(a.framework, a.mode)
        return
    name = FIXTURE[(a.framework, a.mode)]
    out = a.out or os.path.join(ROOT, "tests", "fixtures", "eval-ops", name + ".jsonl.gz")
    want = set(a.ops.split(",")) if a.ops else None
    w = OpsWorker(a.framework, a.mode)
    w.start()
    assert w.version.endswith("==" + VERSIONS[a.framework]), w.version
    head = {"framework": w.version, "mode": a.mode, "policy": name,
            "python": platform.python_version(), "machine": platform.machine(),
            "recorded": time.strftime("%Y-%m-%d", time.gmtime())}
    n, bad, t0 = 0, 0, time.time()
    tmp = out + ".tmp"
    try:
        with gzip.open(tmp, "wt", compresslevel=9) as f:
            f.write(json.dumps(head, separators=(",", ":")) + "\n")
            for op, ins, shape, axis, dtype in queries(dtypes_of(a.framework, a.mode),
                                                        DTYPE_ARG[a.framework]):
                if want and op not in want:
                    continue
                q = {"op": op, "in": ins, "shape": shape, "axis": axis, "dtype": dtype}
                r = w.query(q, a.timeout)
                rec = {"op": op, "in": [{"dtype": d, "data": t} for d, t in ins], "shape": shape,
                       "axis": axis, "dtype": dtype, "compute": r["compute"], "a": r["a"]}
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                f.flush()  # a killed run keeps what it recorded (PATH.tmp)
                n += 1
                if "x" in r["a"]:
                    bad += 1
                    print(f"[not recordable] {op} {ins[0][0]}: {r['a']['x']}", file=sys.stderr)
                if n % 100 == 0:
                    print(f"{name}: {n} records, {time.time() - t0:.0f}s", file=sys.stderr)
    finally:
        w.kill()
    os.replace(tmp, out)
    print(f"wrote {n} records ({bad} not recordable) to {out} ({os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
