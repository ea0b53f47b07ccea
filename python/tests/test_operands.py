"""Operands as users have them: NumPy dtypes, scalar types, arrays and scalars, Python scalars
of any size, dtype names, promote.weak; and the errors for everything else."""
from __future__ import annotations

import numpy as np
import pytest

import promote
from conftest import has

torch_p, numpy_p, numpy1, jax = (promote.policy(n) for n in ("torch", "numpy", "numpy1", "jax"))


@pytest.mark.parametrize("obj", [np.int8, np.dtype("int8"), np.dtype(">i1"), "int8", "i8",
                                 "np.int8", "torch.int8", np.ones(3, np.int8)])
def test_int8_spellings(obj):
    assert torch_p.result_type(obj, np.uint8) == np.dtype("int16")
    assert torch_p.resolve("add", obj, np.uint8).call == "add int8 uint8"


def test_python_types_are_numpy_dtypes():
    # as numpy.dtype reads them: int is int64, float float64, bool bool
    assert numpy_p.resolve("add", int, np.int8).call == "add int64 int8"
    assert numpy_p.resolve("add", float, np.int8).call == "add float64 int8"
    assert numpy_p.resolve("add", bool, np.int8).call == "add bool int8"


def test_python_scalars_any_size():
    assert numpy_p.resolve("add", np.int8, 1).call == "add int8 1"
    assert numpy_p.resolve("add", np.int8, True).call == "add int8 True"
    assert numpy_p.resolve("add", np.float32, 1e300).call == "add float32 1e+300"
    assert numpy_p.resolve("add", np.float32, 1 + 2j).call == "add float32 (1+2j)"
    big = 2**200
    assert numpy_p.resolve("add", np.int8, big, errors="return").token == "!overflow"
    assert torch_p.resolve("add", np.int8, 2**63).call == "add int8 9223372036854775808"


def test_arrays_and_scalars_carry_rank_and_value():
    a0 = np.array(255, np.uint8)
    assert torch_p.resolve("add", np.ones(2, np.int8), a0).call == "add int8 uint8(255)"
    # NumPy scalars are 0-d with their value, also float64/complex128 (subclasses of float/complex)
    assert torch_p.resolve("add", np.ones(2, np.int8), np.float64(2.5)).call == "add int8 float64(2.5)"
    assert torch_p.resolve("add", np.int16(7), np.complex128(1j)).call == "add int16(7) complex128(1j)"
    # value-based NumPy 1: a 0-d int16 holding -1 counts as int8
    assert numpy1.result_type(np.ones(2, np.uint8), np.array(-1, np.int16)) == np.dtype("int16")
    assert numpy1.result_type(np.ones(2, np.int8), np.array(1, np.int16)) == np.dtype("int8")
    assert numpy1.result_type(np.ones(2, np.int8), np.array(300, np.int16)) == np.dtype("int16")


def test_weak_by_hand():
    assert jax.resolve("add", np.int8, promote.weak("int32")).token == "int8"
    assert jax.resolve("add", promote.weak("int32"), promote.weak("float32")).token == "~float32"
    assert repr(promote.weak("int32")) == "promote.weak('int32')"
    assert str(promote.weak(np.float16, value=2.0)) == "~float16(2.0)"


def test_compact_strings():
    assert jax.resolve("add", "int8", "~int32").token == "int8"
    assert numpy1.resolve("add", "uint8", "int16(-1)").token == "int16"


def test_out_and_results_are_numpy_dtypes():
    plan = torch_p.resolve("add", np.int8, np.int8, out=np.float64)
    assert plan.result == np.dtype("float64") and plan.compute == np.dtype("int8")
    assert isinstance(torch_p.result_type(np.int8, np.float32), np.dtype)
    assert all(isinstance(d, np.dtype) for d in numpy_p.dtypes)


@pytest.mark.skipif(not has("ml_dtypes"), reason="ml_dtypes not installed: bfloat16 comes back as the name 'bfloat16'")
def test_bfloat16_with_ml_dtypes():
    import ml_dtypes
    bf = np.dtype(ml_dtypes.bfloat16)
    assert torch_p.result_type(bf, np.int8) == bf
    assert torch_p.result_type(ml_dtypes.bfloat16, np.int8) == bf


@pytest.mark.skipif(not has("ml_dtypes"), reason="ml_dtypes not installed: the narrow dtypes come back as names")
def test_narrow_dtypes_with_ml_dtypes():
    import ml_dtypes
    f8 = np.dtype(ml_dtypes.float8_e4m3fn)
    jax_p = promote.policy("jax")
    # JAX joins a float8 with itself only; the answer is ml_dtypes' dtype, read back from one
    assert jax_p.result_type(f8, "float8_e4m3fn") == f8
    assert jax_p.result_type(ml_dtypes.float8_e4m3fn, f8) == f8
    with pytest.raises(promote.NoPromotion):
        jax_p.result_type(f8, np.float32)
    with pytest.raises(promote.NoPromotion, match="float8_e4m3fn and float32"):
        torch_p.result_type(f8, np.float32)
    c32 = torch_p.result_type("complex32", np.float16)  # ml_dtypes 0.6 names complex32 too
    assert isinstance(c32, np.dtype) and c32.name == "complex32" and c32.itemsize == 4


def test_bfloat16_without_ml_dtypes_is_a_name():
    r = torch_p.result_type("bfloat16", np.int8)
    assert r == ("bfloat16" if not has("ml_dtypes") else np.dtype(__import__("ml_dtypes").bfloat16))


@pytest.mark.parametrize("bad, kind", [(object(), promote.InvalidCall), ("int7", promote.InvalidCall),
                                       (np.dtype("float128") if hasattr(np, "float128") else "float128", promote.InvalidCall),
                                       ([1, 2], promote.InvalidCall)])
def test_bad_operands(bad, kind):
    with pytest.raises(kind) as e:
        torch_p.result_type(bad, np.int8)
    assert "int8" in str(e.value) or "dtype" in str(e.value)


def test_errors_are_typed_and_carry_the_message():
    with pytest.raises(promote.Overflow, match="does not fit uint8") as e:
        numpy_p.result_type(np.uint8, 300)
    assert isinstance(e.value, OverflowError) and e.value.kind == "overflow"
    with pytest.raises(promote.NoPromotion) as e:
        promote.policy("jax-strict").result_type(np.int8, np.float32)
    assert isinstance(e.value, TypeError) and e.value.token == "!no_promotion"
    with pytest.raises(promote.Unsupported):
        torch_p.result_type(np.float32, np.float32, op="bitwise_and")
    with pytest.raises(promote.InvalidCall, match="did you mean `subtract`"):
        torch_p.result_type(np.int8, np.int8, op="substract")
    with pytest.raises(promote.InvalidCall, match="did you mean `torch`"):
        promote.policy("pytorch")
    with pytest.raises(promote.InvalidCall, match="takes 2 operands"):
        torch_p.resolve("add", np.int8)
    err = numpy_p.resolve("add", "uint8", 300, errors="return")
    assert isinstance(err, promote.Overflow)
    # errors="return" returns every PromoteError, an invalid call too
    assert isinstance(numpy_p.resolve("add", "uint8", errors="return"), promote.InvalidCall)
    with pytest.raises(promote.InvalidCall, match="errors is"):
        numpy_p.resolve("add", "uint8", 1, errors="ignore")


def test_policy_from_a_file(tmp_path):
    import shutil
    from conftest import ROOT, need_repo
    need_repo()
    src = tmp_path / "mine.toml"
    shutil.copy(f"{ROOT}/policies/torch.toml", src)
    mine = promote.policy(path=str(src))
    assert mine.result_type(np.int8, np.uint8) == np.dtype("int16")
    bad = tmp_path / "bad.toml"
    bad.write_text("name = 3\n")
    with pytest.raises(promote.InvalidCall, match="bad.toml:1"):
        promote.policy(path=str(bad))
