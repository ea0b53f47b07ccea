"""Which elements of a float -> uint32 cast take the scalar tail (issue 11, astype_known_misses).

An array of n copies of -inf is cast to uint32; the SIMD blocks give 0x80000000 and the scalar
tail 0 (through int64). Prints, per source dtype, the tail length for n = 1..39, and whether a
view starting one element in (misaligned) gives the same lengths.

    /work/venvs/numpy/bin/python tools/oracle/probe_uint32_blocks.py ml
    /work/venvs/torch/bin/python tools/oracle/probe_uint32_blocks.py torch
"""
import sys

import numpy as np


def tail_length(cast, n):
    y = cast(n)
    zeros = [i for i in range(n) if y[i] == 0]
    return len(zeros) if zeros == list(range(n - len(zeros), n)) else ("not a tail", zeros)


def main(lib):
    if lib == "ml":
        import ml_dtypes
        srcs = {"bfloat16": ml_dtypes.bfloat16, "float32": np.float32, "float64": np.float64,
                "complex64": np.complex64, "complex128": np.complex128}
        full = lambda n, dt: np.full(n, -np.inf).astype(dt)
        to_u32 = lambda a: a.astype(np.uint32)
    else:
        import torch
        srcs = {"bfloat16": torch.bfloat16, "float32": torch.float32, "float64": torch.float64,
                "complex64": torch.complex64, "complex128": torch.complex128}
        full = lambda n, dt: torch.full((n,), -float("inf"), dtype=dt)
        to_u32 = lambda a: a.to(torch.uint32).view(torch.int32).numpy().view(np.uint32)
    for name, dt in srcs.items():
        lengths = [tail_length(lambda n: to_u32(full(n, dt)), n) for n in range(1, 40)]
        big = full(64, dt)
        shifted = [tail_length(lambda n: to_u32(big[1:1 + n]), n) for n in range(1, 40)]
        print(name, lengths, "misaligned view: same" if shifted == lengths else shifted)


if __name__ == "__main__":
    import warnings
    warnings.simplefilter("ignore")
    main(sys.argv[1])
