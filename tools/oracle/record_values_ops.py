"""Record NumPy's or PyTorch's element values for the ops of issue 12:
tests/fixtures/eval-ops/{numpy,torch}.jsonl.gz.

    /work/venvs/numpy/bin/python tools/oracle/record_values_ops.py numpy [--out PATH] [--check]
    /work/venvs/torch/bin/python tools/oracle/record_values_ops.py torch [--out PATH] [--check]

One JSON object per line:

    {"op": OP, "in": [{"dtype": D, "data": [...]}, ...], "shape": [R, C] | null,
     "axis": 0 | null, "dtype": D | null, "compute": C, "a": {"dtype": R, "data": [...]}}

or with "a": {"error": TYPE} (the exception's class name) where the framework refuses the dtype.
`divmod` answers two arrays: "a": {"dtype": R, "data": [...], "dtype2": R2, "data2": [...]}.

* unary ops (ops_cases.UNARY_OPS): each dtype once, over values.EDGES plus UNARY_EXTRA (halfway
  cases for round, overflow edges of exp/sinh, big arguments of the trigonometric functions,
  complex branch cuts) plus 48 seeded pseudo-random floats over several decades (for the
  transcendental functions' last bits);
* binary ops (ops_cases.BINARY_OPS): each dtype with itself, the cross product of a reduced edge
  set (element k = (A[i], B[j])); ints add shift amounts at and past the width;
* reductions (ops_cases.REDUCTIONS): each dtype over its edge values (whole array), over 200
  seeded values (whole array unless ORDER_FREE, and as an 8 x 25 array along axis 0), and with `dtype=` for a few
  (input, dtype) pairs where the framework takes it (ops_cases.DTYPE_ARG).

"compute" is the dtype the element function runs in: NumPy's loop dtype
(`ufunc.resolve_dtypes`), or for PyTorch: the input's dtype for predicates and complex -> real
ops (abs, angle), else the result's; reductions: `dtype=` when given, else the result's
(NumPy's mean of float16 sums in float32: "float32"; var/std of a float or complex
input: the input's dtype, NumPy's of an integer one: float64). The answer's dtype is always the
framework's own. Values as text, as in values.py (shortest round-trip, Python's repr layout).
PyTorch runs on one thread (torch.set_num_threads(1)).
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import values  # noqa: E402
from ops_cases import BINARY_OPS, DTYPE_ARG, REDUCTIONS, UNARY_OPS  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(HERE))
KIND = values.KIND
fmt, parse = values.fmt, values.parse

UNARY_EXTRA = {
    "f": [0.5, 1.5, 2.5, -0.5, -1.5, 3.5, 4.5, 0.49999997019767761, 0.5000000000000001, 1e-7,
          0.7, -0.3, 2.0, 10.0, 11.0, -20.0, 100.0, -100.0, 1e5, 1e22, 3.141592653589793,
          1.5707963267948966, 88.5, 89.0, 709.0, 710.0, -745.0, -104.0, 1e-30, 4503599627370497.0,
          8388609.0],
    "c": [complex(-1, 0.0), complex(-1, -0.0), complex(-2, 0), complex(0.5, 0.5),
          complex(-0.5, -0.5), complex(1e-20, 1e-20), complex(2, -3), complex(0, -2),
          complex(-0.0, 0.0), complex(-3, -4)],
}
SHIFTS = [8, 15, 16, 31, 32, 63, 64]


def seeded(kind, dtype, n, seed):
    """n deterministic values of a dtype, over several decades for floats."""
    rng = np.random.default_rng(seed)
    if kind == "b":
        return list(rng.integers(0, 2, n).astype(bool))
    if kind in "iu":
        info = np.iinfo(dtype)
        lo, hi = max(info.min, -100), min(info.max, 100)
        return [int(x) for x in rng.integers(lo, hi + 1, n)]
    mags = 10.0 ** rng.uniform(-3, 3, n) if dtype != "float16" else 10.0 ** rng.uniform(-2, 2, n)
    signs = np.where(rng.integers(0, 2, n) == 1, -1.0, 1.0)
    re = [float(f"{x:.4g}") for x in signs * mags]  # short texts, still inexact in binary
    if kind == "c":
        im = [float(f"{x:.4g}") for x in rng.standard_normal(n) * 10.0]
        return [complex(a, b) for a, b in zip(re, im)]
    return re


def texts(dtype, vals):
    out = []
    for v in vals:
        if dtype == "bfloat16":
            t = values.fmt_bf16(values.bf16_bits(float(v)))
        elif KIND[dtype] in "iu":
            info = np.iinfo(dtype)
            if not info.min <= int(v) <= info.max:
                continue
            t = str(int(v))
        else:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t = fmt(np.array(v, dtype=dtype)[()], dtype)
        if t not in out:
            out.append(t)
    return out


def unary_inputs(d):
    k = KIND[d]
    extra = UNARY_EXTRA.get(k, [])
    rnd = seeded(k, d, 48, 1) if k in "fc" else []
    return texts(d, list(values.EDGES[d]) + extra + rnd)


def binary_inputs(d):
    k = KIND[d]
    base = list(values.EDGES[d])
    if k in "iu":
        base += SHIFTS
    elif k == "f":
        base += [2.0, -3.0, 1.5, 1e-7, 100.0]
    return texts(d, base)


def reduction_inputs(d):
    k = KIND[d]
    return texts(d, values.EDGES[d]), texts_exact(d, seeded(k, d, 200, 7))


def texts_exact(d, vals):
    """Like texts, keeping duplicates (a fixed length)."""
    if d == "bfloat16":
        return [values.fmt_bf16(values.bf16_bits(float(v))) for v in vals]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return [fmt(np.array(v, dtype=d)[()], d) for v in vals]


# ---------------------------------------------------------------------------------------------
# the frameworks

class NumPy:
    name = "numpy"
    dtypes = [d for d in values.DTYPES if d != "bfloat16"]
    np_names = {"bitwise_invert": "bitwise_invert"}

    def __init__(self):
        assert np.__version__ == "2.4.6", np.__version__

    def array(self, data, d, shape=None):
        a = np.array([parse(t, d) for t in data], dtype=d)
        return a.reshape(shape) if shape else a

    def texts(self, r):
        r = np.asarray(r)
        return r.dtype.name, [fmt(x, r.dtype.name) for x in r.reshape(-1)]

    def elementwise(self, op, arrays):
        fn = getattr(np, op)
        r = fn(*arrays)
        if isinstance(fn, np.ufunc):
            loop = fn.resolve_dtypes(tuple(a.dtype for a in arrays) + (None,) * fn.nout)
            return r, loop[0].name
        # round, real, imag, angle are Python functions: the result's dtype, or the input's
        # for complex -> real
        name = np.asarray(r).dtype.name
        to_real = arrays[0].dtype.kind == "c" and np.asarray(r).dtype.kind != "c"
        return r, (arrays[0].dtype.name if to_real else name)

    def reduce(self, op, a, axis, dtype):
        kw = {"dtype": dtype} if dtype else {}
        fn = getattr(np, op)
        r = fn(a) if axis is None and op in ("cumsum", "cumprod") and not kw else \
            fn(a, axis=axis, **kw)
        r = np.asarray(r)
        compute = dtype or r.dtype.name
        if op == "mean" and not dtype and a.dtype == np.float16:
            compute = "float32"
        if op in ("var", "std") and not dtype:
            compute = a.dtype.name if a.dtype.kind in "fc" else "float64"
        if op in ("max", "min", "argmax", "any", "all"):
            compute = a.dtype.name
        return r, compute


class Torch:
    name = "torch"
    dtypes = values.DTYPES
    names = {"negative": "neg", "absolute": "abs", "arcsin": "asin", "arctan": "atan",
             "bitwise_invert": "bitwise_not", "left_shift": "bitwise_left_shift",
             "right_shift": "bitwise_right_shift", "arctan2": "atan2", "conj": "conj_physical"}

    def __init__(self):
        import torch
        import fw_torch
        assert torch.__version__.split("+")[0] == "2.15.0", torch.__version__
        torch.set_num_threads(1)
        self.torch, self.fw = torch, fw_torch

    def array(self, data, d, shape=None):
        torch = self.torch
        if d == "bfloat16":
            bits = np.array([parse(t, d) for t in data], dtype=np.uint16)
            t = torch.from_numpy(bits.view(np.int16).copy()).view(torch.bfloat16)
        else:
            t = torch.from_numpy(np.array([parse(t, d) for t in data], dtype=d).copy())
        return t.reshape(shape) if shape else t

    def texts(self, t):
        torch = self.torch
        name = self.fw.NAMES[t.dtype]
        t = t.reshape(-1).resolve_conj()
        if name == "bfloat16":
            bits = t.view(torch.int16).numpy().view(np.uint16)
            return name, [fmt(int(b), name) for b in bits]
        if name in ("uint16", "uint32", "uint64"):
            return name, [str(int(x)) for x in t.tolist()]
        return name, [fmt(x, name) for x in t.numpy()]

    def elementwise(self, op, arrays):
        if op == "divmod":
            raise NotImplementedError("torch has no divmod")
        r = getattr(self.torch, self.names.get(op, op))(*arrays)
        name = self.fw.NAMES[r.dtype]
        src = self.fw.NAMES[arrays[0].dtype]
        to_real = KIND[src] == "c" and KIND[name] != "c"
        return r, (src if name == "bool" or to_real else name)

    def reduce(self, op, a, axis, dtype):
        torch = self.torch
        kw = {"dtype": self.fw.DTYPES[dtype]} if dtype else {}
        fn = getattr(torch, op)
        if op in ("cumsum", "cumprod"):
            r = fn(a.reshape(-1) if axis is None else a, dim=0, **kw)
        elif axis is None:
            r = fn(a, **kw)
        else:
            r = fn(a, dim=axis, **kw)
            if op in ("max", "min"):
                r = r.values
        name = self.fw.NAMES[r.dtype]
        compute = dtype or name
        if op in ("max", "min", "argmax", "any", "all", "var", "std"):
            compute = self.fw.NAMES[a.dtype]
        return r, compute


# ---------------------------------------------------------------------------------------------

def answer(fw, thunk):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r, compute = thunk()
        except Exception as e:  # noqa: BLE001
            return {"error": type(e).__name__}, None
    if isinstance(r, tuple):
        d1, t1 = fw.texts(r[0])
        d2, t2 = fw.texts(r[1])
        return {"dtype": d1, "data": t1, "dtype2": d2, "data2": t2}, compute
    if fw.name == "torch" and r.dtype not in fw.fw.NAMES:
        return {"error": "unsupported dtype " + str(r.dtype)}, None
    d, t = fw.texts(r)
    return {"dtype": d, "data": t}, compute


def record(fw, op, ins, shape=None, axis=None, dtype=None):
    arrays = [fw.array(data, d, shape) for d, data in ins]
    if op in REDUCTIONS:
        a, compute = answer(fw, lambda: fw.reduce(op, arrays[0], axis, dtype))
    else:
        a, compute = answer(fw, lambda: fw.elementwise(op, arrays))
    return {"op": op, "in": [{"dtype": d, "data": data} for d, data in ins], "shape": shape,
            "axis": axis, "dtype": dtype, "compute": compute, "a": a}


# reductions whose value does not depend on the order of evaluation: no long whole-array record
ORDER_FREE = ("max", "min", "argmax", "any", "all")
DTYPE_PAIRS = [("bool", "int64"), ("int8", "int64"), ("int8", "float64"), ("int32", "float32"),
               ("uint8", "int16"), ("float16", "float32"), ("float32", "float64"),
               ("float64", "float32"), ("complex64", "complex128")]


def queries(dtypes, dtype_arg_ops):
    """The grid, as (op, [(dtype, texts)...], shape, axis, dtype=) tuples, in fixture order;
    `dtype_arg_ops`: the reductions whose function takes dtype= (ops_cases.DTYPE_ARG)."""
    for op in UNARY_OPS:
        for d in dtypes:
            yield op, [(d, unary_inputs(d))], None, None, None
    for op in BINARY_OPS:
        for d in dtypes:
            t = binary_inputs(d)
            A, B = values.cross(t, t)
            yield op, [(d, A), (d, B)], None, None, None
    for op in REDUCTIONS:
        for d in dtypes:
            edges, long = reduction_inputs(d)
            yield op, [(d, edges)], None, None, None
            if op not in ORDER_FREE:
                yield op, [(d, long)], None, None, None
            yield op, [(d, long)], [8, 25], 0, None
        if op in dtype_arg_ops:
            for d, to in DTYPE_PAIRS:
                if d in dtypes and to in dtypes:
                    yield op, [(d, reduction_inputs(d)[1])], None, None, to


def records(fw):
    for op, ins, shape, axis, dtype in queries(fw.dtypes, DTYPE_ARG[fw.name]):
        yield record(fw, op, ins, shape=shape, axis=axis, dtype=dtype)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("framework", choices=["numpy", "torch"])
    ap.add_argument("--out")
    ap.add_argument("--check", action="store_true", help="verify an existing recording")
    a = ap.parse_args()
    fw = NumPy() if a.framework == "numpy" else Torch()
    out = a.out or os.path.join(ROOT, "tests", "fixtures", "eval-ops", f"{fw.name}.jsonl.gz")
    if a.check:
        with gzip.open(out, "rt") as f:
            recs = [json.loads(line) for line in f]
        for rec, again in zip(recs, records(fw)):
            assert rec == again, (rec["op"], rec["in"][0]["dtype"])
        print(f"checked {len(recs)} records in {out}: they reproduce")
        return
    os.makedirs(os.path.dirname(out), exist_ok=True)
    n = 0
    with gzip.open(out + ".tmp", "wt", compresslevel=9) as f:
        for rec in records(fw):
            f.write(json.dumps(rec, separators=(",", ":")) + "\n")
            n += 1
    os.replace(out + ".tmp", out)
    print(f"wrote {n} records to {out} ({os.path.getsize(out)} bytes)")


if __name__ == "__main__":
    main()
