"""Real framework objects as operands, where the framework is installed (each test says so in
the pytest summary when it is not): dtype, rank, 0-d value and weak flag are read from them."""
from __future__ import annotations

import pytest

import promote
from conftest import has


def need(module):
    if not has(module):
        pytest.skip(f"{module} is not installed in this environment")
    return __import__(module)


def test_torch_tensors_and_dtypes():
    torch = need("torch")
    t = promote.policy("torch")
    a = torch.ones(2, dtype=torch.int8)
    assert t.resolve("add", a, torch.tensor(2.5)).call == "add int8 float32(2.5)"
    assert t.resolve("add", torch.int8, torch.uint8).call == "add int8 uint8"
    assert t.resolve("add", torch.ones(2, dtype=torch.bfloat16), 1).call == "add bfloat16 1"
    # the policy answers what torch itself answers
    for x, y in [(a, torch.tensor(2.5)), (a, torch.ones(2, dtype=torch.uint8)), (a, 1.0),
                 (torch.ones(2, dtype=torch.float16), torch.tensor(1, dtype=torch.int64))]:
        assert str(t.result_type(x, y)) == str(torch.result_type(x, y)).replace("torch.", "")


def test_jax_arrays_weak_type():
    jax = need("jax")
    import jax.numpy as jnp
    j = promote.policy("jax")
    x, w = jnp.ones(2, jnp.int8), jnp.asarray(3)
    assert w.weak_type
    plan = j.resolve("add", x, w)
    assert plan.call == "add int8 ~int32(3)" and plan.token == "int8"
    assert j.resolve("add", jnp.bfloat16, 1.0).call == "add bfloat16 1.0"
    for a, b in [(x, w), (x, jnp.ones(2, jnp.uint8)), (w, 1.5), (jnp.asarray(1.0), w)]:
        r = a + b
        assert j.resolve("add", a, b).token == ("~" if r.weak_type else "") + str(r.dtype)
    del jax


def test_tensorflow_tensors():
    tf = need("tensorflow")
    p = promote.policy("tf")
    a = tf.ones(2, tf.int8)
    assert p.resolve("add", a, tf.constant(1, tf.int8)).call == "add int8 int8(1)"
    assert p.resolve("add", tf.int16, tf.int16).call == "add int16 int16"


def test_paddle_tensors():
    paddle = need("paddle")
    p = promote.policy("paddle")
    a = paddle.ones([2], dtype="int8")
    assert p.resolve("add", a, paddle.to_tensor(2.5, dtype="float32")).call == "add int8 float32(2.5)"
    assert p.resolve("add", paddle.float16, paddle.float32).call == "add float16 float32"
