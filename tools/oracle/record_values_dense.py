"""Record NumPy's or PyTorch's element values on a DENSE sample of ordinary values (not only the
edge values of record_values_ops.py): tests/fixtures/eval-dense/{numpy,torch}.txt.gz, replayed
by tests/dense_values.rs through `evaluate` (eval's library path).

    nice -n 19 /work/venvs/numpy/bin/python tools/oracle/record_values_dense.py numpy
    nice -n 19 /work/venvs/torch/bin/python tools/oracle/record_values_dense.py torch

Per float dtype (float16, float32, float64; bfloat16 for torch) a seeded sample of N = 512
values: uniform random bit patterns of finite values (log-uniform magnitudes over the whole
range, both signs), integers -32..31, halfway cases k + 0.5, uniform values in [0, 100), and the
edges (values.EDGES: ±0, ±inf, nan, subnormals, limits); operand B is a seeded permutation of it.
int8 is its 256 values (unary ops only). Each unary op of issue 12 (ops_cases.UNARY_OPS) and each
float binary op (the classic arithmetic ones and issue 12's, ops_cases.BINARY_OPS without the
shifts and divmod) runs once on the whole array (the SIMD paths) and once per element on 1-element
arrays for the first 32 elements (the scalar paths). A call the framework refuses is not written.

Lines (text, gzip):
    # {"framework": ..., "python": ..., "machine": ..., "recorded": ...}
    S DTYPE HEX            operand A of DTYPE, each element's bits as fixed-width hex
    B DTYPE HEX            operand B
    OP DTYPE FORM RESULT_DTYPE HEX    FORM: n (whole array) or 1 (first 32, one by one)
"""
from __future__ import annotations

import datetime
import gzip
import json
import os
import platform
import sys
import warnings

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import values  # noqa: E402
from ops_cases import BINARY_OPS, UNARY_OPS  # noqa: E402

N = 512
SINGLES = 32
CLASSIC = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "power",
           "maximum", "minimum"]
BINARY = CLASSIC + [op for op in BINARY_OPS if op not in ("left_shift", "right_shift", "divmod")]
BITS = {"float16": np.uint16, "bfloat16": np.uint16, "float32": np.uint32, "float64": np.uint64,
        "int8": np.uint8, "bool": np.uint8, "int16": np.uint16, "int32": np.uint32,
        "int64": np.uint64, "uint8": np.uint8}
FLOAT = {"float16": np.float16, "float32": np.float32, "float64": np.float64}


def bits_of_floats(xs, dtype):
    """The bits of float64 values rounded to dtype (bfloat16: round to nearest even)."""
    if dtype == "bfloat16":
        return np.array([values.bf16_bits(float(x)) for x in xs], dtype=np.uint16)
    return np.asarray(xs, dtype=FLOAT[dtype]).view(BITS[dtype])


def sample(dtype, seed=12):
    """The dense sample of a dtype, as bits."""
    if dtype == "int8":
        return np.arange(-128, 128, dtype=np.int8).view(np.uint8)
    rng = np.random.default_rng(seed)
    ub = BITS[dtype]
    width = np.dtype(ub).itemsize * 8
    top = {16: 0x7BFF, 32: 0x7F7FFFFF, 64: 0x7FEFFFFFFFFFFFFF}[width]
    if dtype == "bfloat16":
        top = 0x7F7F
    edges = values.to_numpy(values.edge_texts(dtype), dtype).reshape(-1).view(ub)
    ordinary = bits_of_floats(rng.uniform(0, 100, size=32), dtype)
    ints = bits_of_floats(np.arange(-32, 32, dtype=np.float64), dtype)
    halves = bits_of_floats(np.arange(-32, 32, dtype=np.float64) + 0.5, dtype)
    n = N - ordinary.size - ints.size - halves.size - edges.size
    rand = rng.integers(0, top, size=n, dtype=np.uint64, endpoint=True)
    sign = rng.integers(0, 2, size=n, dtype=np.uint64) << np.uint64(width - 1)
    # ordinary values first: the 1-element calls take the first SINGLES
    return np.concatenate([ordinary, (rand | sign).astype(ub), ints, halves, edges]).astype(ub)


def hexes(bits):
    w = bits.dtype.itemsize * 2
    return "".join(format(int(b), f"0{w}x") for b in bits.reshape(-1))


class Numpy:
    name = "numpy"
    dtypes = ["float16", "float32", "float64", "int8"]

    def __init__(self):
        assert np.__version__ == "2.4.6", np.__version__
        self.version = "numpy==" + np.__version__

    def array(self, bits, dtype):
        return bits.view(np.dtype(dtype)).copy()

    def run(self, op, arrays):
        return getattr(np, op)(*arrays)

    def out(self, r):
        r = np.asarray(r)
        return r.dtype.name, r.view(BITS[r.dtype.name])


class Torch:
    name = "torch"
    dtypes = ["float16", "bfloat16", "float32", "float64", "int8"]
    names = {"negative": "neg", "absolute": "abs", "arcsin": "asin", "arctan": "atan",
             "bitwise_invert": "bitwise_not", "arctan2": "atan2", "conj": "conj_physical",
             "power": "pow"}

    def __init__(self):
        import torch
        import fw_torch
        assert torch.__version__.split("+")[0] == "2.15.0", torch.__version__
        torch.set_num_threads(1)
        self.torch, self.fw = torch, fw_torch
        self.version = "torch==" + torch.__version__

    def array(self, bits, dtype):
        torch = self.torch
        if dtype == "bfloat16":
            return torch.from_numpy(bits.view(np.int16).copy()).view(torch.bfloat16)
        return torch.from_numpy(bits.view(np.dtype(dtype)).copy())

    def run(self, op, arrays):
        return getattr(self.torch, self.names.get(op, op))(*arrays)

    def out(self, r):
        name = self.fw.NAMES[r.dtype]
        r = r.resolve_conj().contiguous()
        if name == "bfloat16":
            return name, r.view(self.torch.int16).numpy().view(np.uint16)
        return name, r.numpy().view(BITS[name])


def call(fw, op, arrays):
    """(result dtype, bits) or None where the framework refuses."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = fw.run(op, arrays)
        except Exception:  # noqa: BLE001
            return None
    try:
        return fw.out(r)
    except (KeyError, TypeError):
        return None


def lines(fw):
    rng = np.random.default_rng(7)
    for dtype in fw.dtypes:
        a = sample(dtype)
        b = a[rng.permutation(a.size)]
        yield f"S {dtype} {hexes(a)}"
        yield f"B {dtype} {hexes(b)}"
        ops = [(op, 1) for op in UNARY_OPS]
        if dtype != "int8":
            ops += [(op, 2) for op in BINARY]
        for op, arity in ops:
            full = [fw.array(a, dtype), fw.array(b, dtype)][:arity]
            got = call(fw, op, full)
            if got is None:
                continue
            yield f"{op} {dtype} n {got[0]} {hexes(got[1])}"
            ones = []
            for i in range(SINGLES):
                one = call(fw, op, [fw.array(a[i:i + 1], dtype), fw.array(b[i:i + 1], dtype)][:arity])
                if one is None:
                    break
                ones.append(one)
            if len(ones) == SINGLES and len({d for d, _ in ones}) == 1:
                yield f"{op} {dtype} 1 {ones[0][0]} {hexes(np.concatenate([x for _, x in ones]))}"


def main():
    which = sys.argv[1]
    fw = {"numpy": Numpy, "torch": Torch}[which]()
    root = os.path.dirname(os.path.dirname(HERE))
    path = os.path.join(root, "tests", "fixtures", "eval-dense", f"{which}.txt.gz")
    head = {"framework": fw.version, "python": platform.python_version(),
            "machine": platform.machine(), "recorded": datetime.date.today().isoformat()}
    with gzip.open(path, "wt") as f:
        f.write("# " + json.dumps(head) + "\n")
        for line in lines(fw):
            f.write(line + "\n")
    print(path, os.path.getsize(path))


if __name__ == "__main__":
    main()
