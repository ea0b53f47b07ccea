"""How each framework makes a 1-d tensor from values, runs one op and gives its values back, for
record_values_fw.py. Each backend is a class with `setup(mode)`, `tensor(texts, dtype)`,
`run(op, tensors)`, `answer(result)` -> (dtype name, weak flag, NumPy array) and
`classify(exception, op, dtypes)` -> a spec error kind, or None (unknown: not recorded as a guess).

The ops are written as in the resolve recordings (the same adapters, fw_jax / fw_tf / fw_paddle):
Python operators `+ - * / // % ** == != < <= > >= & | ^`, the framework's maximum / minimum /
logical_and / logical_or / logical_xor functions, and its full sum (jnp.sum, tf.reduce_sum,
paddle.sum). Errors a kernel raises for some values only (integer division by zero, an integer
to a negative integer power) are the spec's `value` error.
"""
from __future__ import annotations

import types
import warnings

import numpy as np

import values

VALUE_MESSAGES = values.VALUE_MESSAGES


def _cell(op, dtypes):
    """What the adapters' classifiers read of a cell: the op and tensor operands."""
    ops = [types.SimpleNamespace(kind="tensor", dtype=d, weak=False, py=None) for d in dtypes]
    return types.SimpleNamespace(op=op, operands=ops, out=None)


class Jax:
    """JAX on CPU; mode x32 (the default) or x64 (jax_enable_x64)."""

    def setup(self, mode):
        import fw_jax
        import ml_dtypes

        fw_jax.setup(mode)
        self.fw, self.jnp, self.bf16 = fw_jax, fw_jax.jnp, ml_dtypes.bfloat16
        import jax

        self.version = "jax==" + jax.__version__

    def tensor(self, texts, dtype):
        arr = values.to_numpy(texts, dtype)
        if dtype == "bfloat16":
            arr = arr.view(self.bf16)
        t = self.jnp.asarray(arr)
        assert np.dtype(t.dtype).name == dtype, (dtype, t.dtype)
        return t

    def run(self, op, ts):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = self.jnp.sum(ts[0]) if op == "sum" else self.fw._binary(op, ts[0], ts[1])
            return np.dtype(r.dtype).name, bool(r.weak_type), np.asarray(r)

    def classify(self, e, op, dtypes):
        if any(m in str(e) for m in VALUE_MESSAGES):
            return "value"
        k = self.fw._classify(e)
        return k[1:] if k else None


class Tf:
    """TensorFlow (CPU); mode off (the default), legacy, all or safe."""

    def setup(self, mode):
        import fw_tf

        fw_tf.setup(mode)
        self.fw, self.tf = fw_tf, fw_tf.tf
        self.version = "tensorflow==" + self.tf.__version__

    def tensor(self, texts, dtype):
        arr = values.to_numpy(texts, dtype)
        if dtype == "bfloat16":
            arr = arr.view(self.tf.bfloat16.as_numpy_dtype)
        t = self.tf.constant(arr)
        assert self.fw.NAMES[t.dtype] == dtype, (dtype, t.dtype)
        return t

    def run(self, op, ts):
        self.fw.pywrap_tfe.TFE_ClearScalarCache()
        r = self.fw.compute_on(types.SimpleNamespace(op=op), ts)
        weak = isinstance(r, self.fw.WeakTensor)
        return self.fw.NAMES[r.dtype], weak, r.numpy()

    def classify(self, e, op, dtypes):
        k = self.fw.classify(e, _cell(op, dtypes))
        if k == "=value":
            return "value"
        return k[1:] if k.startswith("!") else None


class Paddle:
    """PaddlePaddle on CPU (dynamic graph); mode default."""

    def setup(self, mode):
        import fw_paddle

        fw_paddle.setup(mode)
        self.fw, self.paddle = fw_paddle, fw_paddle.paddle
        self.version = "paddlepaddle==" + self.paddle.__version__

    def tensor(self, texts, dtype):
        arr = values.to_numpy(texts, dtype)
        t = self.paddle.to_tensor(arr, dtype=dtype)
        assert self.fw.NAMES[t.dtype] == dtype, (dtype, t.dtype)
        return t

    def run(self, op, ts):
        if op == "sum":
            r = self.paddle.sum(ts[0])
        else:
            r = self.fw.OPERATORS[op](ts[0], ts[1])
        if not isinstance(r, self.paddle.Tensor):
            raise TypeError(f"not a tensor result: {type(r).__name__}")
        return self.fw.NAMES[r.dtype], False, r.numpy()

    def classify(self, e, op, dtypes):
        if any(m in str(e) for m in VALUE_MESSAGES):
            return "value"
        k = self.fw.classify(e, _cell(op, dtypes))
        return k[1:] if k and k.startswith("!") else None


BACKENDS = {"jax": Jax, "tf": Tf, "paddle": Paddle}
