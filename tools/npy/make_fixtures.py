"""Write the tiny .npy fixtures of tests/npy.rs with real NumPy (and ml_dtypes for bfloat16).

Run: /work/venvs/jax/bin/python tools/npy/make_fixtures.py tests/fixtures/npy
Each case is three files: CASE.a.npy, CASE.b.npy and CASE.expected.npy, the result NumPy
itself computes for `np.OP(a, b)`; cases.txt lists `CASE OP` one a line. A few more files
test the header versions and layouts the reader accepts or refuses.
"""
import os
import sys

import ml_dtypes
import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
cases = []


def save(name, arr, version=None):
    path = os.path.join(out, name)
    if version is None:
        np.save(path, arr)
    else:
        with open(path, "wb") as f:
            np.lib.format.write_array(f, arr, version=version)


def case(name, op, a, b, version=None):
    save(f"{name}.a.npy", a, version)
    save(f"{name}.b.npy", b, version)
    save(f"{name}.expected.npy", getattr(np, op)(a, b))
    cases.append(f"{name} {op}")


f32 = np.array([1.5, -0.0, np.inf, np.nan, 3.4e38, 1e-45, -2.0], dtype=np.float32)
case("add_f32", "add", f32, np.array([1, -0.0, -np.inf, 1, 3.4e38, 1e-45, 0.5], np.float32))
case("divide_f64", "divide", np.array([1.0, 1.0, -1.0, 0.0]), np.array([-0.0, 0.0, 3.0, 0.0]))
case("add_i8_u8", "add", np.array([127, -128, 0], np.int8), np.array([1, 255, 7], np.uint8))
case("multiply_c128", "multiply", np.array([1 + 2j, -0.0 - 1j]), np.array([3 - 1j, 2j]))
case("logical_and_bool", "logical_and", np.array([True, False, True]), np.array([True, True, False]))
case("subtract_2d", "subtract", np.arange(6, dtype=np.int16).reshape(2, 3), np.ones((2, 3), np.int16))
case("add_v2", "add", np.array([1, 2], np.uint32), np.array([3, 4], np.uint32), version=(2, 0))
case("add_v3", "add", np.array([1, 2], np.int64), np.array([3, 4], np.int64), version=(3, 0))
case("add_0d", "add", np.array([1.5, 2.5], np.float16), np.array(np.float16(0.25)))
# bfloat16 as ml_dtypes saves it: descr '<V2'; NumPy cannot add voids, so ml_dtypes computes
bf_a = np.array([1.0, 2.5, -0.0, 3.0e38], dtype=ml_dtypes.bfloat16)
bf_b = np.array([0.5, 0.0078125, -0.0, 3.0e38], dtype=ml_dtypes.bfloat16)
save("add_bf16.a.npy", bf_a)
save("add_bf16.b.npy", bf_b)
save("add_bf16.expected.npy", bf_a + bf_b)
cases.append("add_bf16 add")

save("fortran_2d.npy", np.asfortranarray(np.arange(6, dtype=np.int32).reshape(2, 3)))
save("big_endian.npy", np.array([1, 2], dtype=">i4"))
save("structured.npy", np.zeros(2, dtype=[("x", "<i4"), ("y", "<f4")]))
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(cases) + "\n")
