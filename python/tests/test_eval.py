"""``Policy.eval`` on NumPy arrays: bit for bit what the installed NumPy computes, on every
query of the NumPy value fixtures (tests/fixtures/eval/numpy.jsonl.gz), and what NumPy recorded."""
from __future__ import annotations

import gzip
import json
import os
import warnings

import numpy as np
import pytest

import promote
from conftest import FIXTURES, need_repo

numpy_p = promote.policy("numpy")


def parse(text, dtype):
    kind = np.dtype(dtype).kind
    if kind == "b":
        return {"True": True, "False": False}[text]
    if kind in "ui":
        return int(text)
    if kind == "f":
        return float(text)
    return complex(text)


def same_bits(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind in "fc":
        for x, y in ([(a.real, b.real), (a.imag, b.imag)] if a.dtype.kind == "c" else [(a, b)]):
            nx, ny = np.isnan(x), np.isnan(y)
            if not (nx == ny).all() or x[~nx].tobytes() != y[~ny].tobytes():
                return False
        return True
    return a.tobytes() == b.tobytes()


def within_one_ulp(a, b):
    """Float power only: NumPy's vectorized pow (SVML on AVX-512 machines) is accurate to about
    1 ulp, not correctly rounded; the kernels use the C library's pow. tests/kernel_values.rs
    allows the same 1 ulp there and nowhere else."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.dtype.kind != "f" or a.shape != b.shape:
        return False
    ints = {4: np.int32, 8: np.int64}[a.dtype.itemsize]
    fin = np.isfinite(a) & np.isfinite(b)
    inf = np.isinf(a) | np.isinf(b)
    if not (np.isnan(a) == np.isnan(b)).all() or (a[inf] != b[inf]).any():
        return False
    ka, kb = a[fin].view(ints).astype(np.int64), b[fin].view(ints).astype(np.int64)
    return bool((np.abs(ka - kb) <= 1).all() and (np.sign(a[fin]) == np.sign(b[fin])).all())


def numpy_answer(op, arrays):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np.sum(arrays[0]) if op == "sum" else getattr(np, op)(*arrays)
        except (TypeError, ValueError) as e:  # no loop (bool - bool), int ** negative int
            return e


def queries():
    with gzip.open(os.path.join(FIXTURES, "eval", "numpy.jsonl.gz"), "rt") as f:
        for line in f:
            yield json.loads(line)


def test_eval_bit_exact_against_installed_numpy():
    need_repo()
    n = pow_ulp = 0
    for rec in queries():
        q, recorded = rec["q"], rec["a"]
        arrays = [np.array([parse(t, o["dtype"]) for t in o["data"]], dtype=o["dtype"])
                  for o in q["operands"]]
        want = numpy_answer(q["op"], arrays)
        n += 1
        try:
            got = numpy_p.eval(q["op"], *arrays)
        except promote.PromoteError as e:
            got = e
        if isinstance(want, Exception):
            assert isinstance(got, promote.PromoteError), (q, want, got)
            assert got.kind == recorded.get("error"), (q, want, got)
            continue
        assert not isinstance(got, Exception), (q, got)
        if not same_bits(got, want):
            assert q["op"] == "power" and within_one_ulp(got, want), (q["op"], q["operands"], got, want)
            pow_ulp += 1
        assert str(np.asarray(got).dtype) == recorded["dtype"]
    assert n == 4162  # every query of the fixture
    assert pow_ulp < 60, f"{pow_ulp} float power queries differ by 1 ulp"


def test_inputs_are_not_copied_and_gil_free_paths_work():
    a = np.arange(100_000, dtype=np.int32)
    b = np.ones(100_000, dtype=np.float32)
    r = numpy_p.eval("add", a, b)
    assert r.dtype == np.float64 and np.array_equal(r, a + b)
    # 2-d, one shape; scalars and 0-d arrays broadcast
    m = np.arange(12, dtype=np.int8).reshape(3, 4)
    assert np.array_equal(numpy_p.eval("multiply", m, m), m * m)
    assert numpy_p.eval("add", m, 1).shape == (3, 4)
    assert same_bits(numpy_p.eval("add", m, np.array(1.5, np.float32)), m + np.array(1.5, np.float32))
    # non-contiguous and byte-swapped inputs are copied once, same values
    assert np.array_equal(numpy_p.eval("add", m[:, ::2], m[:, 1::2]), m[:, ::2] + m[:, 1::2])
    s = np.arange(5, dtype=">i4")
    assert np.array_equal(numpy_p.eval("add", s, s), s + s)
    # a 0-d result is a NumPy scalar, as NumPy's ufuncs return
    assert isinstance(numpy_p.eval("sum", m), np.integer)


def test_eval_releases_the_gil():
    """While ``eval`` computes, another Python thread runs. With the GIL held by native code no
    other thread can execute a bytecode, so a timestamp of the other thread's strictly inside
    the call (away from its edges by several switch intervals) proves the GIL was released."""
    import sys
    import threading
    import time

    interval = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        stamps, stop = [], threading.Event()

        def ticker():
            while not stop.is_set():
                stamps.append(time.perf_counter())

        n = 4_000_000
        a = np.arange(n, dtype=np.int64)
        b = np.ones(n, dtype=np.int64)
        t = threading.Thread(target=ticker)
        t.start()
        try:
            for _ in range(20):  # until one call is long enough to hold a margin on both sides
                start = time.perf_counter()
                r = numpy_p.eval("divide", a, b)
                end = time.perf_counter()
                if end - start > 0.05:
                    break
                a, b = np.concatenate([a, a]), np.concatenate([b, b])
        finally:
            stop.set()
            t.join()
        assert r.dtype == np.float64
        margin = 0.01
        inside = [s for s in stamps if start + margin < s < end - margin]
        assert end - start > 2 * margin, "the call was too short to tell"
        assert inside, f"no other thread ran during {end - start:.3f} s of eval: the GIL was held"
    finally:
        sys.setswitchinterval(interval)


def test_element_semantics_are_the_policys():
    a = np.array([-7, 7], np.int8)
    assert numpy_p.eval("floor_divide", a, np.array([2, -2], np.int8)).tolist() == [-4, -4]
    t = promote.policy("torch").eval("add", np.array([127], np.int8), np.array([1], np.uint8))
    assert t.dtype == np.int16 and t.tolist() == [128]


def test_eval_refusals():
    with pytest.raises(promote.Overflow):
        numpy_p.eval("add", np.ones(2, np.uint8), 300)
    with pytest.raises(promote.InvalidCall, match="do not broadcast"):
        numpy_p.eval("add", np.ones((2, 3)), np.ones((3, 2)))
    with pytest.raises(promote.InvalidCall, match="one shape"):
        numpy_p.eval("add", np.ones((2, 3)), np.ones((1, 3)))
    with pytest.raises(promote.InvalidCall, match="needs data"):
        numpy_p.eval("add", "int8", np.ones(2, np.int8))
