"""Merge runs of record_values_fw.py into one fixture (a run killed or interrupted keeps every
query it wrote; rerunning some ops or dtypes fills the gaps):

    python tools/oracle/merge_values.py OUT.jsonl.gz RUN1.jsonl.gz[.tmp] RUN2.jsonl.gz ...

The header is the first run's, with the edges of every run (they must agree). A grid query of a
later run replaces the same (op, grid) of an earlier one unless the later one was not recordable
({"x": ...}); the follow-up query (a full {"q"} line) after a grid line goes with it. A truncated
last line (a killed run) is dropped.
"""
from __future__ import annotations

import gzip
import json
import sys
import zlib


def lines_of(path):
    """The complete JSON lines of a (possibly truncated) gzip file."""
    raw = open(path, "rb").read()
    text = zlib.decompressobj(zlib.MAX_WBITS | 16).decompress(raw).decode("utf-8", "replace")
    out = []
    for line in text.split("\n"):
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return out


def groups(recs):
    """(op, grid) -> [grid line, follow-up lines...], in order."""
    out, key = {}, None
    for r in recs:
        if "grid" in r:
            key = (r["op"], tuple(r["grid"]))
            out[key] = [r]
        elif key is not None:
            out[key].append(r)
    return out


def main():
    out_path, runs = sys.argv[1], sys.argv[2:]
    head, merged = None, {}
    for path in runs:
        recs = lines_of(path)
        h, body = recs[0], recs[1:]
        if head is None:
            head = h
        for d, e in h["edges"].items():
            assert head["edges"].setdefault(d, e) == e, (path, d)
        for key, g in groups(body).items():
            old = merged.get(key)
            if old is None or "x" not in g[0]["a"]:
                merged[key] = g
    with gzip.open(out_path, "wt", compresslevel=9) as f:
        f.write(json.dumps(head, separators=(",", ":")) + "\n")
        for g in merged.values():
            for r in g:
                f.write(json.dumps(r, separators=(",", ":")) + "\n")
    n = sum(len(g) for g in merged.values())
    bad = sum(1 for g in merged.values() for r in g if "x" in r["a"])
    print(f"wrote {n} queries ({bad} not recordable) to {out_path}")


if __name__ == "__main__":
    main()
