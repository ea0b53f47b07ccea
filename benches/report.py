"""Markdown tables from the JSON of `benches/compare.py --json FILE`, for benches/RESULTS.md and
the README (so that the figures there are exactly the run's).

    python3 benches/report.py benches/compare.json
"""
from __future__ import annotations

import json
import sys


def ms(t):
    return f"{t['median'] * 1e3:.1f}"


def ratio(r):
    return f"{r['median']:.2f} [{r['min']:.2f}–{r['max']:.2f}]"


def size(n):
    return f"{n // 1_000_000}M"


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def one_thread(rows):
    head = ["case", "n", "NumPy ms", "promote@1 ms", "× NumPy", "torch@1 ms", "promote[torch]@1 ms", "× torch@1"]
    body = []
    for r in rows:
        t, q = r["times"], r["ratios"]
        body.append([r["case"], size(r["elements"]), ms(t["numpy"]), ms(t["promote[numpy]@1"]),
                     ratio(q["vs numpy @1"]), ms(t["torch@1"]), ms(t["promote[torch]@1"]),
                     ratio(q["vs torch @1"])])
    return table(head, body)


def two_threads(rows):
    head = ["case", "n", "promote@2 ms", "× NumPy (1 thread)", "torch@2 ms", "× torch@2",
            "floor ms (copy)", "promote@2 / floor", "read inputs@2 ms", "promote@2 / read",
            "read / floor", "load"]
    body = []
    for r in rows:
        t, q = r["times"], r["ratios"]
        f = q["x floor @2"]
        # the read floor: the inputs alone read at 2 threads (runs without it print "-")
        rd = [ms(t["read inputs@2"]), ratio(q["x read floor @2"]), ratio(q["read floor / copy floor @2"])] \
            if "read inputs@2" in t else ["-"] * 3
        body.append([r["case"], size(r["elements"]), ms(t["promote[numpy]@2"]), ratio(q["vs numpy @2"]),
                     ms(t["torch@2"]), ratio(q["vs torch @2"]),
                     f"{f['floor_s'] * 1e3:.1f} ({f['floor']})", ratio(f)] + rd + [load(r)])
    return table(head, body)


def load(r):
    """The 1-minute load average before and after the case's rounds."""
    if "load" not in r:
        return "-"
    before, after = r["load"]
    return f"{before[0]:.1f}–{after[0]:.1f}"


def allocating(rows):
    head = ["case", "n", "NumPy alloc ms", "promote alloc@1 ms", "promote alloc@2 ms",
            "× NumPy @1", "× NumPy @2", "faults NumPy / promote"]
    body = []
    for r in rows:
        t, q, f = r["times"], r["ratios"], r["faults"]
        body.append([r["case"], size(r["elements"]), ms(t["numpy alloc"]), ms(t["promote alloc@1"]),
                     ms(t["promote alloc@2"]), ratio(q["alloc vs numpy alloc @1"]),
                     ratio(q["alloc vs numpy alloc @2"]),
                     f"{f['numpy alloc']:.0f} / {f['promote alloc@2']:.0f}"])
    return table(head, body)


def torch_modes(rows):
    body = []
    for r in rows:
        for k, m in (r.get("torch modes") or {}).items():
            if m:
                body.append([r["case"], size(r["elements"]), k,
                             f"{m['fast'] * 1e3:.1f} ({m['fast_rounds']} rounds)",
                             f"{m['slow'] * 1e3:.1f} ({m['slow_rounds']} rounds)"])
    if not body:
        return "(no two-mode PyTorch times in this run)"
    return table(["case", "n", "torch", "fast mode ms", "slow mode ms"], body)


def main():
    d = json.load(open(sys.argv[1]))
    m = d["meta"]
    print(f"Run {m['date']}: {m['cpu']}, {m['cores']} cores; numpy {m['numpy']}, torch {m['torch']} "
          f"(CPU capability {m['torch_capability']}); promote SIMD path {m['promote_simd']}; "
          f"{m['rounds']} interleaved rounds; load average before {m['load_before'][0]:.1f}, "
          f"after {m['load_after'][0]:.1f}; OPENBLAS_* {m['env']}.\n")
    rows = d["rows"]
    for title, f in (("One thread", one_thread), ("Two threads", two_threads),
                     ("Allocating the output", allocating), ("PyTorch's two modes", torch_modes)):
        print(f"### {title}\n\n{f(rows)}\n")


if __name__ == "__main__":
    main()
