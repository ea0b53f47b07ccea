"""Extract the autocast op lists from the pinned frameworks' own files, into
tests/fixtures/autocast/source-lists.txt (op names only, one per line), which tests/autocast.rs
checks the derived files of policies/autocast/ against.

    python3 tools/oracle/extract_autocast_lists.py \
        --torch /work/venvs/torch/lib/python3.11/site-packages/torch \
        --paddle /work/venvs/paddle/lib/python3.11/site-packages/paddle

Sources (both ship in the installed wheels, so the version is the pinned one):

* torch==2.15.0 ``torch/include/ATen/autocast_mode.h``: the macros AT_FORALL_LOWER_PRECISION_FP,
  AT_FORALL_FP32, AT_FORALL_FP32_SET_OPT_DTYPE, AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE (norm)
  and AT_FORALL_PROMOTE, which ``aten/src/ATen/autocast_mode.cpp`` registers for CUDA (plus
  ``cudnn_convolution`` and ``cudnn_convolution_transpose``, registered in the .cpp itself, which
  is not in the wheel: added here by name, see CUDA_CPP_EXTRA).
* paddlepaddle==3.3.1 ``paddle/amp/amp_lists.py``: ``white_list()`` and ``black_list()`` per
  dtype and level (the file is plain data; it is run alone, without importing paddle).

Line format: ``SOURCE LIST OP``, e.g. ``torch-cuda lower_precision mm``, ``paddle-float16-O1
black exp``.
"""
from __future__ import annotations

import argparse
import os
import re

MACROS = {
    "AT_FORALL_LOWER_PRECISION_FP": "lower_precision",
    "AT_FORALL_FP32": "fp32",
    "AT_FORALL_FP32_SET_OPT_DTYPE": "fp32_set_opt_dtype",
    "AT_FORALL_PROMOTE": "promote",
}
CUDA_CPP_EXTRA = [("lower_precision", "cudnn_convolution"),
                  ("lower_precision", "cudnn_convolution_transpose")]
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def torch_lists(header: str):
    text = open(header).read()
    rows = []
    for macro, name in MACROS.items():
        m = re.search(r"#define " + macro + r"\(_\)(.*?)\n\n", text, re.S)
        ops = []
        for op in re.findall(r"_\((\w+)", m.group(1)):
            if op not in ops:
                ops.append(op)
        rows += [("torch-cuda", name, op) for op in ops]
    m = re.search(r"#define AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE\(_\)(.*?)\n\n", text, re.S)
    for op in dict.fromkeys(re.findall(r"ADD_NS\((\w+)\)", m.group(1))):
        rows.append(("torch-cuda", "fp32_append_dtype", op))
    rows += [("torch-cuda", lst, op) for lst, op in CUDA_CPP_EXTRA]
    return rows


def paddle_lists(path: str):
    # the file is plain data (sets and two functions returning dicts of them): run it alone
    space = {}
    exec(compile(open(path).read(), path, "exec"), space)
    rows = []
    for func, kind in (("white_list", "white"), ("black_list", "black")):
        for dtype, levels in space[func]().items():
            for level, ops in levels.items():
                rows += [(f"paddle-{dtype}-{level}", kind, op) for op in sorted(ops)]
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--torch", required=True, help="the installed torch package directory")
    ap.add_argument("--paddle", required=True, help="the installed paddle package directory")
    a = ap.parse_args()
    rows = torch_lists(os.path.join(a.torch, "include", "ATen", "autocast_mode.h"))
    rows += paddle_lists(os.path.join(a.paddle, "amp", "amp_lists.py"))
    path = os.path.join(ROOT, "tests", "fixtures", "autocast", "source-lists.txt")
    with open(path, "w") as f:
        f.write("# extracted by tools/oracle/extract_autocast_lists.py from torch==2.15.0 "
                "torch/include/ATen/autocast_mode.h and paddlepaddle==3.3.1 paddle/amp/amp_lists.py\n")
        for r in rows:
            f.write(" ".join(r) + "\n")
    print(f"wrote {path}: {len(rows)} rows")


if __name__ == "__main__":
    main()
