"""Record the *installed* framework and report every cell where it and a policy disagree.

This is how to learn that a new framework release changed its promotion. The recording runs
the adapters of ``tools/oracle`` (copied into :mod:`promote._oracle`) in a worker process: a
cell that crashes or hangs the framework costs that cell (reported as not recordable), not the
run.

    python -m promote.verify numpy                 # a sample of 2000 cells
    python -m promote.verify torch --cases 5000
    python -m promote.verify numpy --all           # every cell of the policy's case list

>>> import promote
>>> r = promote.verify("numpy", cases=50)          # doctest: +SKIP
>>> r.ok, r.agreement                              # doctest: +SKIP
(True, 1.0)
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import platform
import random
import subprocess
import sys
from typing import Any, Iterable, Optional, Union

from . import _oracle
from ._promote import policy as _policy


@dataclasses.dataclass(frozen=True)
class Disagreement:
    """One cell: the call in the compact syntax, the policy's answer, the framework's."""

    call: str
    policy: str
    framework: str

    def __str__(self) -> str:
        return f"{self.call} : policy {self.policy}, installed {self.framework}"


@dataclasses.dataclass
class Report:
    """What :func:`verify` found."""

    policy: str
    #: What the policy reproduces (``numpy 2.4.6``).
    policy_framework: str
    #: The package whose installed version was recorded, and that version.
    package: str
    installed: str
    #: The version the policy's fixtures were recorded with.
    recorded: str
    python: str
    #: Cells in the policy's full case list, and cells checked here.
    total: int
    checked: int
    disagreements: list[Disagreement]
    #: Cells that crashed or hung the framework (``X`` in the fixtures).
    not_recordable: list[str]
    #: Cells where the adapter itself failed (an exception it does not know): a bug to report.
    adapter_errors: list[Disagreement]

    @property
    def ok(self) -> bool:
        """No cell disagrees and the adapter understood every answer."""
        return not self.disagreements and not self.adapter_errors

    @property
    def agreement(self) -> float:
        """The share of recordable cells where the framework and the policy agree."""
        n = self.checked - len(self.not_recordable)
        return 1.0 if n == 0 else (n - len(self.disagreements) - len(self.adapter_errors)) / n

    def __str__(self) -> str:
        head = (f"{self.policy} ({self.policy_framework}) vs installed {self.package} "
                f"{self.installed} (python {self.python}): {self.checked} of {self.total} cells")
        lines = [head, f"agreement {self.agreement:.4%}: {len(self.disagreements)} disagree, "
                       f"{len(self.not_recordable)} not recordable, "
                       f"{len(self.adapter_errors)} adapter errors"]
        if self.installed != self.recorded:
            lines.append(f"note: the policy was recorded with {self.package} {self.recorded}")
        lines += [f"  {d}" for d in self.disagreements]
        lines += [f"  adapter error: {d}" for d in self.adapter_errors]
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        """Plain data (JSON-able)."""
        d = dataclasses.asdict(self)
        d["ok"], d["agreement"] = self.ok, self.agreement
        return d


def recordable() -> list[str]:
    """The policies :func:`verify` can record (every built-in but OneFlow, derived from source)."""
    return sorted(_oracle.load("record").POLICIES)


def case_list(policy: str) -> list[str]:
    """Every cell of a policy's case list, in the compact syntax (as the fixtures list them)."""
    _, _, _, dtypes, weak = _spec(policy)
    cases = _oracle.load("cases")
    return [str(c) for c in cases.cells(dtypes, weak)]


def _spec(policy: str):
    pols = _oracle.load("record").POLICIES
    if policy not in pols:
        raise ValueError(f"cannot record {policy!r}: verify knows {', '.join(sorted(pols))}")
    return pols[policy]


def installed_version(package: str, python: Optional[str] = None) -> str:
    """The version of ``package`` installed for an interpreter (``"not installed"`` if none)."""
    code = ("import importlib.metadata as m, sys\n"
            "try: print(m.version(sys.argv[1]))\n"
            "except m.PackageNotFoundError: print('not installed')")
    if python is None or python == sys.executable:
        import importlib.metadata as m
        try:
            return m.version(package)
        except m.PackageNotFoundError:
            return "not installed"
    out = subprocess.run([python, "-c", code, package], capture_output=True, text=True, check=True)
    return out.stdout.strip()


def _sample(cells: list[str], cases: Union[int, str], seed: int) -> list[str]:
    if cases == "all" or (isinstance(cases, int) and cases >= len(cells)):
        return cells
    if not isinstance(cases, int) or cases < 0:
        raise ValueError(f"cases is a number of cells or 'all', not {cases!r}")
    keep = set(random.Random(seed).sample(range(len(cells)), cases))
    return [c for i, c in enumerate(cells) if i in keep]


def verify(policy: str, cases: Union[int, str] = 2000, *, python: Optional[str] = None,
           timeout: float = 20.0, seed: int = 0, progress: bool = False) -> Report:
    """Record the installed framework on ``cases`` cells of ``policy``'s case list (a seeded
    sample, or ``"all"``) and compare each answer with the policy's.

    ``python`` is the interpreter that has the framework (default: this one); ``timeout`` the
    seconds one cell may take before it counts as a hang.

    >>> import promote
    >>> r = promote.verify("numpy", cases=20)
    >>> r.checked, r.package
    (20, 'numpy')
    >>> r.ok == (r.installed == r.recorded) or r.ok
    True
    """
    adapter, mode, pin, _, _ = _spec(policy)
    package, _, recorded = pin.partition("==")
    python = python or sys.executable
    installed = installed_version(package, python)
    if installed == "not installed":
        raise ModuleNotFoundError(
            f"{package} is not installed for {python}: pip install {pin}, or pass python=PATH "
            f"of an interpreter that has it")
    p = _policy(policy)
    all_cells = case_list(policy)
    cells = _sample(all_cells, cases, seed)
    harness, syntax = _oracle.load("harness"), _oracle.load("syntax")
    answers = harness.run([syntax.parse_cell(c) for c in cells], python, adapter, mode,
                          timeout=timeout, progress=progress)
    recorded_answers = [(str(c), a) for c, a in answers]
    expected = p.tokens([c for c, _ in recorded_answers])
    dis, bad, lost = [], [], []
    for (cell, got), want in zip(recorded_answers, expected):
        if got == "X":
            lost.append(cell)
        elif got.startswith("?"):
            bad.append(Disagreement(cell, want, got))
        elif got != want:
            dis.append(Disagreement(cell, want, got))
    py_version = platform.python_version() if python == sys.executable else subprocess.run(
        [python, "-c", "import platform; print(platform.python_version())"],
        capture_output=True, text=True).stdout.strip()
    return Report(policy=policy, policy_framework=p.framework, package=package,
                  installed=installed, recorded=recorded, python=py_version,
                  total=len(all_cells), checked=len(cells), disagreements=dis,
                  not_recordable=lost, adapter_errors=bad)


def main(argv: Optional[Iterable[str]] = None) -> int:
    """``python -m promote.verify POLICY [--cases N | --all]``; exit status 1 on disagreement."""
    ap = argparse.ArgumentParser(prog="python -m promote.verify", description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("policy", choices=recordable())
    ap.add_argument("--cases", type=int, default=2000, help="a seeded sample of this many cells")
    ap.add_argument("--all", action="store_true", help="every cell of the case list")
    ap.add_argument("--python", default=None, help="the interpreter with the framework")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds before a cell is a hang")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="the report as JSON")
    a = ap.parse_args(list(argv) if argv is not None else None)
    r = verify(a.policy, "all" if a.all else a.cases, python=a.python, timeout=a.timeout,
               seed=a.seed, progress=not a.json)
    print(json.dumps(r.to_dict(), indent=1) if a.json else r)
    return 0 if r.ok else 1


if __name__ == "__main__":
    sys.exit(main())
