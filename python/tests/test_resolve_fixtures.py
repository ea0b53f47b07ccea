"""Every recorded cell of every framework, replayed through the Python API: the answers are
the Rust library's (tests/conformance.rs), cell for cell."""
from __future__ import annotations

import pytest

import promote
from conftest import call_args, need_repo, resolve_lines


@pytest.mark.parametrize("name", promote.policies())
def test_replay_through_python_api(name):
    need_repo()
    p = promote.policy(name)
    calls, answers, mine = [], [], []
    for call, answer in resolve_lines(name):
        if answer == "X":  # crashed or hung the framework: not recordable
            continue
        op, operands, out = call_args(call)
        r = p.resolve(op, *operands, out=out, errors="return")
        calls.append(call)
        answers.append(answer)
        mine.append(r.token)
    assert len(calls) > 50_000
    rust = p.tokens(calls)  # the same calls through the library alone
    wrong = [(c, a, m, r) for c, a, m, r in zip(calls, answers, mine, rust) if not a == m == r]
    assert not wrong, f"{len(wrong)} cells differ, first: {wrong[:5]}"
