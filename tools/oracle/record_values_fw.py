"""Record the values JAX, TensorFlow or Paddle compute: tests/fixtures/eval/NAME.jsonl.gz.

    /work/venvs/jax/bin/python    tools/oracle/record_values_fw.py jax x64     # -> jax-x64
    /work/venvs/jax/bin/python    tools/oracle/record_values_fw.py jax x32     # -> jax
    /work/venvs/tf/bin/python     tools/oracle/record_values_fw.py tf off      # -> tf
    /work/venvs/tf/bin/python     tools/oracle/record_values_fw.py tf all      # -> tf-all
    /work/venvs/paddle/bin/python tools/oracle/record_values_fw.py paddle default  # -> paddle
    ... [--out PATH] [--ops add,power] [--dtypes int8,float32]

The grid is NumPy's and PyTorch's (values.py): for every ordered pair of the framework's dtypes and
every binary op of the spec (not matmul), the cross product of the two dtypes' edge values; `sum`
once per dtype. The dtypes are the 15 of the spec, less those a mode cannot make: JAX x32 has no
64-bit dtypes (it would truncate them), Paddle no uint16/uint32/uint64.

Each query runs in a worker subprocess (this script with --worker, in the same venv), one query
per line: a query that crashes the worker or runs past --timeout is recorded as not recordable
({"x": "crash"} / {"x": "hang"}), the worker restarts, and the run goes on. An exception the
backend does not recognise is recorded as {"x": "unclassified: ..."} and reported, never guessed.
When a query fails as a whole on some values (the spec's `value` error: integer division by zero,
an integer to a negative integer power) or does not return, a second query follows with those
values left out (zero integer divisors and MIN // -1; negative integer exponents), so the rest
is recorded too.

The fixture is compact: line 1 is a header {"framework", "mode", "python", "edges": {dtype: [texts]}};
then one line per query, {"op": OP, "grid": [A, B], "a": ANSWER} (operands: the cross product
of edges[A] and edges[B]; `sum`: {"grid": [A]}, the edges of A), or {"q": QUERY, "a": ANSWER} for
a query written in full (the follow-ups). ANSWER is {"dtype", "weak", "data"} or {"error": KIND}.
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import harness  # noqa: E402
import values  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
FIXTURE = {("jax", "x64"): "jax-x64", ("jax", "x32"): "jax", ("tf", "off"): "tf",
           ("tf", "all"): "tf-all", ("tf", "safe"): "tf-safe", ("tf", "legacy"): "tf-legacy",
           ("paddle", "default"): "paddle"}
VERSIONS = {"jax": "0.10.2", "tf": "2.21.0", "paddle": "3.3.1"}


def dtypes_of(fw, mode):
    if fw == "jax" and mode == "x32":
        return [d for d in values.DTYPES if d not in ("uint64", "int64", "float64", "complex128")]
    if fw == "paddle":
        return [d for d in values.DTYPES if d not in ("uint16", "uint32", "uint64")]
    return list(values.DTYPES)


# ---------------------------------------------------------------------------------------------
# the worker: one query per line in, one answer per line out

def worker(fw, mode):
    from values_frameworks import BACKENDS

    # answers go to a private copy of fd 1; fd 1 itself (where C++ code of the frameworks
    # prints) and sys.stdout go to stderr, so nothing else can enter the answer stream
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    b = BACKENDS[fw]()
    b.setup(mode)
    out.write(json.dumps({"ready": b.version}) + "\n")
    out.flush()
    for line in sys.stdin:
        q = json.loads(line)
        dts = [d for d, _ in q["operands"]]
        try:
            ts = [b.tensor(t, d) for d, t in q["operands"]]
            name, weak, arr = b.run(q["op"], ts)
            ans = {"dtype": name, "weak": weak, "data": values.texts_of(arr, name)}
        except Exception as e:  # noqa: BLE001 - classified, unknown ones reported
            kind = b.classify(e, q["op"], dts)
            ans = {"error": kind} if kind else \
                {"x": "unclassified: " + f"{type(e).__name__}: {e}".replace("\n", " ")[:300]}
        out.write(json.dumps(ans) + "\n")
        out.flush()


class ValueWorker(harness.Worker):
    """harness.Worker running this script's worker; tells a crash from a hang."""

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

    def query(self, op, operands, timeout):
        ans = self.ask(json.dumps({"op": op, "operands": operands}), timeout)
        if ans is not None:
            return json.loads(ans)
        return {"x": "hang" if timeout_hit(self) else "crash"}


def timeout_hit(w):
    return getattr(w, "_last_hang", False)


def _readline_marking(self, timeout):
    line = harness.Worker._readline(self, timeout)
    self._last_hang = line is None and self.proc is not None and self.proc.poll() is None
    return line


ValueWorker._readline = _readline_marking


# ---------------------------------------------------------------------------------------------

def suspect(op, a_texts, a, b_texts, b):
    """The elements left out of a follow-up query: zero integer divisors, negative exponents."""
    if op in ("divide", "floor_divide", "remainder"):
        # zero divisors, and MIN // -1 (its quotient overflows: x86's idiv traps)
        low = {d: values.edge_texts(d)[0] for d in values.DTYPES if values.KIND[d] == "i"}
        return [values.is_zero(y, b) or (y == "-1" and x == low.get(a))
                for x, y in zip(a_texts, b_texts)]
    if op == "power":
        return [values.is_negative_int(y, b) for y in b_texts]
    return [False] * len(b_texts)


def records(w, dtypes, ops, timeout):
    edges = {d: values.edge_texts(d) for d in dtypes}
    if "sum" in ops:
        for d in dtypes:
            yield {"op": "sum", "grid": [d], "a": w.query("sum", [[d, edges[d]]], timeout)}
    for op in [o for o in ops if o != "sum"]:
        for a in dtypes:
            for b in dtypes:
                A, B = values.cross(edges[a], edges[b])
                ans = w.query(op, [[a, A], [b, B]], timeout)
                yield {"op": op, "grid": [a, b], "a": ans}
                if ans.get("error") == "value" or ans.get("x") in ("crash", "hang"):
                    drop = suspect(op, A, a, B, b)
                    if any(drop) and not all(drop):
                        keep = [k for k, dr in enumerate(drop) if not dr]
                        ops2 = [[a, [A[k] for k in keep]], [b, [B[k] for k in keep]]]
                        q = {"op": op, "operands": [{"dtype": d, "data": t} for d, t in ops2]}
                        yield {"q": q, "a": w.query(op, ops2, timeout)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("framework", choices=["jax", "tf", "paddle"])
    ap.add_argument("mode")
    ap.add_argument("--out")
    ap.add_argument("--ops", help="comma-separated ops (default: every binary op and sum)")
    ap.add_argument("--dtypes", help="comma-separated dtypes (default: all the mode can make)")
    ap.add_argument("--timeout", type=float, default=20.0)
    a = ap.parse_args()
    if a.worker:
        worker(a.framework, a.mode)
        return
    name = FIXTURE[(a.framework, a.mode)]
    out = a.out or os.path.join(ROOT, "tests", "fixtures", "eval", name + ".jsonl.gz")
    dtypes = a.dtypes.split(",") if a.dtypes else dtypes_of(a.framework, a.mode)
    ops = a.ops.split(",") if a.ops else ["sum"] + values.OPS
    w = ValueWorker(a.framework, a.mode)
    w.start()
    want = VERSIONS[a.framework]
    assert w.version.endswith("==" + want), (w.version, want)
    head = {"framework": w.version, "mode": a.mode, "policy": name,
            "python": platform.python_version(), "machine": platform.machine(),
            "recorded": time.strftime("%Y-%m-%d", time.gmtime()),
            "edges": {d: values.edge_texts(d) for d in dtypes}}
    n, bad, t0 = 0, 0, time.time()
    tmp = out + ".tmp"
    try:
        with gzip.open(tmp, "wt", compresslevel=9) as f:
            f.write(json.dumps(head, separators=(",", ":")) + "\n")
            for rec in records(w, dtypes, ops, a.timeout):
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                f.flush()  # a run that is killed keeps every query it recorded (PATH.tmp)
                n += 1
                if "x" in rec["a"]:
                    bad += 1
                    print(f"[not recordable] {rec.get('op') or rec['q']['op']} "
                          f"{rec.get('grid', '(follow-up)')}: {rec['a']['x']}", file=sys.stderr)
                if n % 200 == 0:
                    print(f"{name}: {n} queries, {time.time() - t0:.0f}s", file=sys.stderr)
    finally:
        w.kill()
    os.replace(tmp, out)
    print(f"wrote {n} queries ({bad} not recordable) to {out} ({os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
