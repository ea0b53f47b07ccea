"""Run cells through an adapter in a worker subprocess, so that a crash or hang costs one cell."""
from __future__ import annotations

import os
import select
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


class Worker:
    def __init__(self, python, adapter, mode, env=None):
        self.args = [python, os.path.join(HERE, "worker.py"), adapter, mode]
        self.env = env
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen(self.args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1, env=self.env)
        line = self._readline(600)
        if line != "READY":
            raise RuntimeError(f"worker did not start: {line!r}")

    def _readline(self, timeout):
        fd = self.proc.stdout
        r, _, _ = select.select([fd], [], [], timeout)
        if not r:
            return None  # hang
        line = fd.readline()
        if not line:
            return None  # crash (EOF)
        return line.rstrip("\n")

    def ask(self, cell: str, timeout: float):
        if self.proc is None:
            self.start()
        try:
            self.proc.stdin.write(cell + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            self.kill()
            return None
        ans = self._readline(timeout)
        if ans is None:
            self.kill()
        return ans

    def kill(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait()
            self.proc = None


def run(cells, python, adapter, mode, timeout=20.0, env=None, progress=True):
    """Yield (cell, answer) for each cell; answer 'X' where the worker crashed or hung."""
    w = Worker(python, adapter, mode, env)
    t0 = time.time()
    try:
        for i, cell in enumerate(cells):
            ans = w.ask(str(cell), timeout)
            if ans is None:
                ans = "X"
                print(f"\n[not recordable] {cell}", file=sys.stderr)
            yield cell, ans
            if progress and i % 2000 == 0:
                print(f"\r{adapter}/{mode}: {i} cells, {time.time() - t0:.0f}s", end="", file=sys.stderr)
    finally:
        w.kill()
        if progress:
            print(file=sys.stderr)
