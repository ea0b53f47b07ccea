"""Record the values of `a @ b` (n-d matmul) in one framework: tests/fixtures/eval-matmul/NAME.jsonl.gz.

    /work/venvs/numpy/bin/python  tools/oracle/record_values_matmul.py numpy
    /work/venvs/torch/bin/python  tools/oracle/record_values_matmul.py torch
    /work/venvs/jax/bin/python    tools/oracle/record_values_matmul.py jax      # x32 -> jax
    /work/venvs/jax/bin/python    tools/oracle/record_values_matmul.py jax-x64
    /work/venvs/tf/bin/python     tools/oracle/record_values_matmul.py tf
    /work/venvs/paddle/bin/python tools/oracle/record_values_matmul.py paddle
    ... [--out PATH] [--dtypes int8,float32]

For every dtype the framework has (each with itself: the promotion of mixed operands is the
resolve recordings' business), `a @ b` (the Python operator, one thread) on:

* `outer`: the dtype's edge values (values.EDGES) as a column (L, 1) times a row (1, L): every
  product of two edge values, each alone in its sum (k = 1);
* `pairs`: rows [e_i, 1] (L, 2) times columns [1, e_j] (2, L): every sum of two edge values,
  each through a product with one (k = 2);
* `random`: seeded values (ints over the dtype's whole range, so products and sums wrap; floats
  with mixed magnitudes, so the order and fusing of the multiply-adds shows in the last bits) in
  the shapes of SHAPES: 2-d with k = 1 ... 64, batched 3-d, a 3-d @ 2-d (batch broadcast), and
  1-d on either side.

Line 1 is a header {"framework", "policy", "python", "machine", "recorded"}; then one line per
case: {"case", "dtype", "a": {"shape", "data"}, "b": {"shape", "data"}, "r": ANSWER}, ANSWER
{"dtype", "shape", "data"} or {"error": "unsupported", "message": ...} when the framework refuses
the call (the message is kept: the evidence, never classified by guess). Values as text as in
values.py (bfloat16 through its bits).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import platform
import sys
import time
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import values  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
VERSIONS = {"numpy": "2.4.6", "torch": "2.15.0", "jax": "0.10.2", "tensorflow": "2.21.0",
            "paddlepaddle": "3.3.1"}
# (a's shape, b's shape)
SHAPES = [((3, 5), (5, 4)), ((2, 1), (1, 3)), ((2, 3), (3, 2)), ((4, 8), (8, 3)),
          ((3, 17), (17, 2)), ((2, 64), (64, 3)), ((2, 3, 4), (2, 4, 5)), ((2, 3, 4), (4, 2)),
          ((6,), (6,)), ((4,), (4, 3)), ((3, 4), (4,))]


class Numpy:
    def setup(self):
        self.version = "numpy==" + np.__version__

    def tensor(self, arr, dtype):
        return arr

    def to_numpy(self, r):
        return np.asarray(r).dtype.name, np.asarray(r)


class Torch:
    def setup(self):
        import torch

        torch.set_num_threads(1)
        self.torch = torch
        self.version = "torch==" + torch.__version__.split("+")[0]

    def tensor(self, arr, dtype):
        if dtype == "bfloat16":
            return self.torch.from_numpy(arr.view(np.int16).copy()).view(self.torch.bfloat16)
        return self.torch.from_numpy(arr.copy())

    def to_numpy(self, r):
        if r.dtype == self.torch.bfloat16:
            return "bfloat16", r.view(self.torch.int16).numpy().view(np.uint16)
        return r.numpy().dtype.name, r.numpy()


class Jax:
    def __init__(self, x64):
        self.x64 = x64

    def setup(self):
        import jax

        jax.config.update("jax_enable_x64", self.x64)
        jax.config.update("jax_platforms", "cpu")
        import jax.numpy as jnp
        import ml_dtypes

        self.jnp, self.bf16 = jnp, ml_dtypes.bfloat16
        self.version = "jax==" + jax.__version__

    def tensor(self, arr, dtype):
        t = self.jnp.asarray(arr.view(self.bf16) if dtype == "bfloat16" else arr)
        assert np.dtype(t.dtype).name == dtype, (dtype, t.dtype)
        return t

    def to_numpy(self, r):
        arr = np.asarray(r)
        name = np.dtype(r.dtype).name
        return name, (arr.view(np.uint16) if name == "bfloat16" else arr)


class Tf:
    def setup(self):
        import tensorflow as tf

        tf.config.threading.set_intra_op_parallelism_threads(1)
        tf.config.threading.set_inter_op_parallelism_threads(1)
        self.tf = tf
        self.version = "tensorflow==" + tf.__version__

    def tensor(self, arr, dtype):
        t = self.tf.constant(arr.view(self.tf.bfloat16.as_numpy_dtype) if dtype == "bfloat16"
                             else arr)
        return t

    def to_numpy(self, r):
        arr = r.numpy()
        if r.dtype.name == "bfloat16":
            return "bfloat16", arr.view(np.uint16)
        return r.dtype.name, arr


class Paddle:
    def setup(self):
        import fw_paddle

        fw_paddle.setup("default")
        self.fw, self.paddle = fw_paddle, fw_paddle.paddle
        self.paddle.set_device("cpu")
        self.version = "paddlepaddle==" + self.paddle.__version__

    def tensor(self, arr, dtype):
        # bfloat16: the bits as uint16, which Paddle takes as bfloat16's storage
        t = self.paddle.to_tensor(arr, dtype=dtype)
        assert self.fw.NAMES[t.dtype] == dtype, (dtype, t.dtype)
        return t

    def to_numpy(self, r):
        name = self.fw.NAMES[r.dtype]
        arr = r.numpy()
        return name, (arr.view(np.uint16) if name == "bfloat16" else arr)


BACKENDS = {"numpy": lambda: Numpy(), "torch": lambda: Torch(), "jax": lambda: Jax(False),
            "jax-x64": lambda: Jax(True), "tf": lambda: Tf(), "paddle": lambda: Paddle()}


def dtypes_of(name):
    if name == "jax":
        return [d for d in values.DTYPES if d not in ("uint64", "int64", "float64", "complex128")]
    if name == "paddle":
        return [d for d in values.DTYPES if d not in ("uint16", "uint32", "uint64")]
    if name == "numpy":
        return [d for d in values.DTYPES if d != "bfloat16"]
    return list(values.DTYPES)


def random_texts(rng, dtype, n):
    """n seeded values of dtype as text: ints over the whole range, floats of mixed magnitude."""
    kind = values.KIND[dtype]
    if kind == "b":
        return values.texts_of(rng.integers(0, 2, n).astype(bool), dtype)
    if kind in "iu":
        info = np.iinfo(dtype)
        return values.texts_of(rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True),
                               dtype)
    spread = 2.0 if dtype in ("float16", "bfloat16") else 6.0
    def real():
        return rng.standard_normal(n) * 10.0 ** rng.uniform(-spread, spread, n)
    if kind == "c":
        z = (real() + 1j * real()).astype(dtype)
        return values.texts_of(z, dtype)
    if dtype == "bfloat16":
        return [values.fmt_bf16(values.bf16_bits(float(x))) for x in real()]
    return values.texts_of(real().astype(dtype), dtype)


def one_of(dtype):
    return {"b": "True", "c": "(1+0j)"}.get(values.KIND[dtype], "1" if values.KIND[dtype] in "iu"
                                              else "1.0")


def cases(dtype, rng):
    e = values.edge_texts(dtype)
    n = len(e)
    yield "outer", ((n, 1), e), ((1, n), e)
    one = one_of(dtype)
    yield "pairs", ((n, 2), [t for x in e for t in (x, one)]), \
        ((2, n), [one] * n + e)
    for sa, sb in SHAPES:
        yield "random", (sa, random_texts(rng, dtype, int(np.prod(sa)))), \
            (sb, random_texts(rng, dtype, int(np.prod(sb))))


def run(b, dtype, a, bb):
    (sa, ta), (sb, tb) = a, bb
    x = b.tensor(values.to_numpy(ta, dtype).reshape(sa), dtype)
    y = b.tensor(values.to_numpy(tb, dtype).reshape(sb), dtype)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = x @ y
            name, arr = b.to_numpy(r)
    except Exception as ex:  # noqa: BLE001 - the message is kept as the evidence
        msg = f"{type(ex).__name__}: {ex}".replace("\n", " ")[:300]
        return {"error": "unsupported", "message": msg}
    return {"dtype": name, "shape": list(arr.shape), "data": values.texts_of(arr, name)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policy", choices=sorted(BACKENDS))
    ap.add_argument("--out")
    ap.add_argument("--dtypes")
    a = ap.parse_args()
    b = BACKENDS[a.policy]()
    b.setup()
    fw, ver = b.version.split("==")
    assert VERSIONS[fw] == ver, (fw, ver)
    out = a.out or os.path.join(ROOT, "tests", "fixtures", "eval-matmul", a.policy + ".jsonl.gz")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    dtypes = a.dtypes.split(",") if a.dtypes else dtypes_of(a.policy)
    head = {"framework": b.version, "policy": a.policy, "python": platform.python_version(),
            "machine": platform.machine(), "recorded": time.strftime("%Y-%m-%d", time.gmtime())}
    n = 0
    with gzip.open(out + ".tmp", "wt", compresslevel=9) as f:
        f.write(json.dumps(head, separators=(",", ":")) + "\n")
        for d in dtypes:
            rng = np.random.default_rng(values.DTYPES.index(d) + 16)
            for case, x, y in cases(d, rng):
                r = run(b, d, x, y)
                rec = {"case": case, "dtype": d, "a": {"shape": list(x[0]), "data": x[1]},
                       "b": {"shape": list(y[0]), "data": y[1]}, "r": r}
                f.write(json.dumps(rec, separators=(",", ":")) + "\n")
                n += 1
    os.replace(out + ".tmp", out)
    print(f"wrote {n} cases to {out} ({os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
