"""Every example in the docs runs: the docstrings of every public object (the Rust-defined
classes and functions too) and the Python section of the repository's README."""
from __future__ import annotations

import doctest
import inspect
import os
import re

import pytest

import promote
import promote._verify  # noqa: F401
from conftest import ROOT, need_repo

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def public_objects():
    import sys
    mods = [promote, sys.modules["promote._verify"], sys.modules["promote._errors"]]
    seen = set()
    for m in mods:
        yield m.__name__, m
        for name, obj in vars(m).items():
            if name.startswith("__") or id(obj) in seen:
                continue
            if getattr(obj, "__module__", "").startswith("promote") or type(obj).__name__ in (
                    "builtin_function_or_method",):
                seen.add(id(obj))
                yield f"{m.__name__}.{name}", obj
                if inspect.isclass(obj):
                    for k, v in vars(obj).items():
                        if not k.startswith("_") or k in ("__str__",):
                            yield f"{m.__name__}.{name}.{k}", v


def docstring_tests():
    parser = doctest.DocTestParser()
    for name, obj in public_objects():
        doc = getattr(obj, "__doc__", None)
        if isinstance(doc, str) and ">>>" in doc:
            yield name, parser.get_doctest(doc, {}, name, None, 0)


@pytest.mark.parametrize("name, test", list(docstring_tests()), ids=lambda x: x if isinstance(x, str) else "")
def test_docstring_examples(name, test):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.failures == 0, f"{name}: {runner.failures} failing examples (run pytest -s to see them)"


def test_the_api_has_examples():
    names = {n for n, _ in docstring_tests()}
    for must in ["promote.Policy.result_type", "promote.Policy.resolve", "promote.Policy.eval",
                 "promote.diff", "promote.table", "promote.Plan", "promote.weak", "promote.policy"]:
        assert must in names, f"{must} has no runnable example"


def readme_python_section() -> str:
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    m = re.search(r"^## Python\n(.*?)(?=^## )", text, re.S | re.M)
    assert m, "README.md has no '## Python' section"
    return m.group(1)


def test_readme_python_examples():
    need_repo()
    section = readme_python_section()
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, "the Python section has no ```python examples"
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    globs: dict = {}
    for i, b in enumerate(blocks):
        runner.run(parser.get_doctest(b, globs, f"README Python example {i + 1}", "README.md", 0))
    assert runner.failures == 0
