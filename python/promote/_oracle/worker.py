"""Worker process: `python worker.py ADAPTER MODE`; reads cells on stdin, writes one answer per line."""
import importlib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from syntax import parse_cell  # noqa: E402


def main():
    adapter = importlib.import_module("fw_" + sys.argv[1])
    adapter.setup(sys.argv[2])
    out = sys.stdout
    sys.stdout = sys.stderr  # frameworks that print must not corrupt the answer stream
    out.write("READY\n")
    out.flush()
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            ans = adapter.answer(parse_cell(line))
        except Exception as e:  # an adapter bug, not a framework answer: make it visible
            ans = "?" + type(e).__name__ + ":" + str(e).replace("\n", " ")[:200]
        out.write(ans + "\n")
        out.flush()


if __name__ == "__main__":
    main()
