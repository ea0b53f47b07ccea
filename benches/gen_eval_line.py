"""One eval query line for the JSONL memory measurement (benches/RESULTS.md): add float32 + float32,
N elements each, values as NumPy's shortest text.  python benches/gen_eval_line.py 1e7 big32.jsonl"""
import sys
import numpy as np
n = int(float(sys.argv[1]))
rng = np.random.default_rng(0)
parts = []
for k in range(2):
    a = (rng.standard_normal(n) * 1000).astype(np.float32)
    text = ",".join('"' + s + '"' for s in map(str, a))
    parts.append('{"dtype": "float32", "data": [' + text + "]}")
with open(sys.argv[2], "w") as f:
    f.write('{"op": "add", "operands": [' + ", ".join(parts) + "]}\n")
