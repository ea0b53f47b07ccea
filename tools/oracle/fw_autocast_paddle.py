"""Paddle adapter for the autocast recordings (issue 14): each cell of fw_paddle.py (the engine's
ops: the 21 binary ops, matmul, sum, performed exactly as fw_paddle.py performs them) runs inside
``paddle.amp.auto_cast(level=L, dtype=D)`` on CPU, paddlepaddle==3.3.1; mode `O1-float16`,
`O1-bfloat16`, `O2-float16`, `O2-bfloat16`.

On CPU, Paddle AMP makes no effect (auto_cast warns "amp_guard can only be enabled on CUDAPlace,
XPUPlace, and CustomPlace, current place is Place(cpu), so it makes no effect"): these recordings
are the evidence, replayed in tests/autocast.rs against the plain `paddle` policy.  The ops of the
autocast lists (mm, conv, softmax, ...) are not recorded for Paddle: with AMP off they would record
Paddle's plain kernels, not AMP.
"""
from __future__ import annotations

import warnings

import paddle

import fw_paddle

LEVEL = DTYPE = None


def setup(mode):
    global LEVEL, DTYPE
    fw_paddle.setup("default")
    LEVEL, DTYPE = mode.split("-")
    warnings.filterwarnings("ignore")


def answer(cell):
    with paddle.amp.auto_cast(level=LEVEL, dtype=DTYPE):
        return fw_paddle.answer(cell)
