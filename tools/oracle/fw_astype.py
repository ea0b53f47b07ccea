"""The explicit conversion `astype` of every framework, for record_astype.py (mode = policy).

A cell is `astype FROM dtype=TO`: a 1-d tensor of FROM (two ones) converted to TO by the
framework's own conversion:

| policy | call |
| --- | --- |
| numpy, numpy1 | `a.astype(TO)` (the narrow dtypes are ml_dtypes': 0.6.0 / 0.5.4) |
| torch | `t.to(TO)` |
| jax, jax-x64, jax-strict | `a.astype(TO)` (jax.Array.astype), x64 off / on / strict promotion |
| tf, tf-legacy, tf-all, tf-safe | `tf.cast(t, TO)` under each dtype_conversion_mode |
| paddle | `t.astype(TO)` |
| array-api | `xp.astype(a, TO)` (array-api-strict) |

The answer is the dtype of the result (JAX without x64 answers `int32` for `int64`: its
canonical dtype), or `!unsupported` where the framework refuses the conversion (the message is
written to the log). Warnings (NumPy's ComplexWarning, JAX's) are not refusals.
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np

POLICY = None
FW = None
_LOG = os.environ.get("PROMOTE_ASTYPE_LOG")


def setup(mode):
    global POLICY, FW
    POLICY = mode
    warnings.simplefilter("ignore")
    if mode in ("numpy", "numpy1"):
        import ml_dtypes  # noqa: F401
        FW = Numpy()
    elif mode == "torch":
        FW = Torch()
    elif mode.startswith("jax"):
        FW = Jax({"jax": "x32", "jax-x64": "x64", "jax-strict": "strict"}[mode])
    elif mode.startswith("tf"):
        FW = Tf(mode)
    elif mode == "paddle":
        FW = Paddle()
    elif mode == "array-api":
        FW = ArrayApi()
    else:
        raise ValueError(f"unknown policy {mode}")


class Numpy:
    def dtype(self, name):
        import ml_dtypes
        from syntax import NARROW_DTYPES
        if name in NARROW_DTYPES or name == "bfloat16":
            return np.dtype(getattr(ml_dtypes, name))
        return np.dtype(name)

    def make(self, name):
        return np.ones(2, dtype=self.dtype(name))

    def cast(self, a, name):
        return a.astype(self.dtype(name))

    def name(self, r):
        return r.dtype.name


class Torch:
    def __init__(self):
        import torch
        self.t = torch

    def dtype(self, name):
        return getattr(self.t, name)

    def make(self, name):
        # torch.ones is not implemented for every narrow dtype: build in float32 and convert
        return self.t.ones(2, dtype=self.t.float32).to(self.dtype(name))

    def cast(self, a, name):
        return a.to(self.dtype(name))

    def name(self, r):
        n = str(r.dtype).removeprefix("torch.")
        return {"float": "float32", "double": "float64", "half": "float16", "long": "int64",
                "int": "int32", "short": "int16", "cfloat": "complex64",
                "cdouble": "complex128", "chalf": "complex32"}.get(n, n)


class Jax:
    def __init__(self, mode):
        import fw_jax
        fw_jax.setup(mode)
        self.jnp = fw_jax.jnp

    def make(self, name):
        return self.jnp.ones(2, dtype=name)

    def cast(self, a, name):
        return a.astype(name)

    def name(self, r):
        return str(r.dtype)


class Tf:
    def __init__(self, mode):
        import fw_tf
        fw_tf.setup({"tf": "off", "tf-legacy": "legacy", "tf-all": "all", "tf-safe": "safe"}[mode])
        self.fw = fw_tf
        self.tf = fw_tf.tf

    def make(self, name):
        return self.tf.cast(self.tf.ones(2, dtype=self.tf.float32), self.fw._dt(name))

    def cast(self, a, name):
        return self.tf.cast(a, self.fw._dt(name))

    def name(self, r):
        return self.fw.token(r)


class Paddle:
    def __init__(self):
        import fw_paddle
        fw_paddle.setup("default")
        self.fw = fw_paddle
        self.p = fw_paddle.paddle

    def make(self, name):
        return self.p.ones([2], dtype="float32").astype(self.fw.DTYPES[name])

    def cast(self, a, name):
        return a.astype(self.fw.DTYPES[name])

    def name(self, r):
        return self.fw.name(r)


class ArrayApi:
    def __init__(self):
        import fw_array_api
        fw_array_api.setup("default")
        self.xp = fw_array_api.xp

    def make(self, name):
        return self.xp.ones(2, dtype=getattr(self.xp, name))

    def cast(self, a, name):
        return self.xp.astype(a, getattr(self.xp, name))

    def name(self, r):
        return str(r.dtype).removeprefix("array_api_strict.")


def _log(cell, e):
    if _LOG:
        with open(_LOG, "a") as f:
            f.write(f"{cell}\t{type(e).__name__}: {str(e).splitlines()[0][:200] if str(e) else ''}\n")


def answer(cell):
    assert cell.op == "astype" and len(cell.operands) == 1 and cell.dtype, cell
    src = cell.operands[0].dtype
    try:
        a = FW.make(src)
    except Exception as e:  # noqa: BLE001 -- the framework cannot hold FROM
        _log(f"{cell} (making {src})", e)
        return "!unsupported"
    try:
        r = FW.cast(a, cell.dtype)
        name = FW.name(r)
    except Exception as e:  # noqa: BLE001 -- the framework's refusal, recorded
        _log(cell, e)
        return "!unsupported"
    return name


if __name__ == "__main__":
    sys.exit("run through record_astype.py")
