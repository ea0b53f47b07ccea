"""Analyse the JAX recordings and check a rule-based predictor against them.

    python tools/oracle/analyze_jax.py [POLICY ...] [--file PATH] [--tables] [--misses N]

POLICY is jax, jax-x64 or jax-strict (default: all three); the recording is read from
tests/fixtures/resolve/POLICY.txt.gz (or --file). The predictor below is a transcription of
jax/_src/dtypes.py (the promotion lattice, lattice_result_type, result_type) and of the
jax.numpy functions each operator calls (jax/_src/numpy/ufuncs.py, tensor_contractions.py,
reductions.py, ops/scatter.py); notes/jax.md explains every rule in prose. It prints the
accuracy per policy and per op, and the cells it still misses. Pure Python, no JAX needed.
"""
from __future__ import annotations

import argparse
import collections
import gzip
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from syntax import DTYPES, KIND, parse_cell  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODES = {"jax": ("x32", False), "jax-x64": ("x64", False), "jax-strict": ("x64", True)}

I_, F_, C_ = "i*", "f*", "c*"  # the weak nodes (Python int, float, complex)
WEAK_NODES = (I_, F_, C_)
BITS = {"bool": 8, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64, "int8": 8, "int16": 16,
        "int32": 32, "int64": 64, "bfloat16": 16, "float16": 16, "float32": 32, "float64": 64,
        "complex64": 64, "complex128": 128}
TO32 = {"int64": "int32", "uint64": "uint32", "float64": "float32", "complex128": "complex64"}
INT_RANGE = {d: ((0, 2 ** BITS[d] - 1) if KIND[d] == "u" else (-(2 ** (BITS[d] - 1)), 2 ** (BITS[d] - 1) - 1))
             for d in DTYPES if KIND[d] in "ui"}


class PromotionError(Exception):
    pass


# ---------------------------------------------------------------- the lattice (dtypes.py)
def lattice(strict, x64):
    """_type_promotion_lattice restricted to the 15 dtypes (jax/_src/dtypes.py)."""
    if not strict:
        out = {
            "bool": [I_], I_: ["uint8", "int8"],
            "uint8": ["int16", "uint16"], "uint16": ["int32", "uint32"],
            "uint32": ["int64", "uint64"] if x64 else ["int32", "uint64"], "uint64": [F_],
            "int8": ["int16"], "int16": ["int32"], "int32": ["int64"], "int64": [F_],
            F_: ["bfloat16", "float16", C_], "bfloat16": ["float32"], "float16": ["float32"],
            "float32": ["float64", "complex64"], "float64": ["complex128"],
            C_: ["complex64"], "complex64": ["complex128"], "complex128": [],
        }
        return out
    out = {d: [] for d in DTYPES}
    out[I_] = [F_] + [d for d in DTYPES if KIND[d] in "ui"]
    out[F_] = [C_] + [d for d in DTYPES if KIND[d] == "f"]
    out[C_] = [d for d in DTYPES if KIND[d] == "c"]
    return out


def upper_bounds(lat):
    ub = {n: {n} for n in lat}
    for n in lat:
        while True:
            new = set().union(*(lat[b] for b in ub[n]))
            if new <= ub[n]:
                break
            ub[n] |= new
    return ub


UB = {(s, x): upper_bounds(lattice(s, x)) for s in (False, True) for x in (False, True)}


def lub(nodes, strict, x64):
    ub = UB[(strict, x64)]
    cub = set.intersection(*(ub[n] for n in nodes))
    res = (cub & set(nodes)) or {c for c in cub if cub <= ub[c]}
    if len(res) != 1:
        raise PromotionError(nodes)
    return res.pop()


class Policy:
    def __init__(self, name):
        self.name = name
        mode, self.strict = MODES[name]
        self.x64 = mode == "x64"

    def canon(self, d):
        return d if self.x64 else TO32.get(d, d)

    def default(self, kind):
        return self.canon({"b": "bool", "i": "int64", "u": "uint64", "f": "float64", "c": "complex128"}[kind])

    def node_dtype(self, n):
        """dtypes.dtype() of a lattice node: weak nodes give the default dtype of their kind."""
        return {I_: self.default("i"), F_: self.default("f"), C_: self.default("c")}.get(n, n)

    @staticmethod
    def jax_type(d, weak):
        """_jax_type: a weak dtype is its Python scalar type (bool stays bool)."""
        if not weak or d == "bool":
            return d
        return {"u": I_, "i": I_, "f": F_, "c": C_}[KIND[d]]

    def lattice_result_type(self, args):
        """dtypes.lattice_result_type over (dtype, weak) pairs -> (dtype, weak)."""
        dts = [d for d, _ in args]
        wks = [w for _, w in args]
        if len(args) == 1:
            d, w = args[0]
        elif len(set(dts)) == 1 and not all(wks):
            d, w = dts[0], False
        elif all(wks) and not self.strict:
            d, w = self.node_dtype(lub({*dts}, self.strict, self.x64)), True
        else:
            n = lub({self.jax_type(d, w) for d, w in args}, self.strict, self.x64)
            d, w = self.node_dtype(n), n in WEAK_NODES
        return d, (d != "bool") and w

    def result_type(self, args):
        """dtypes.result_type: like lattice_result_type, but a weak result gets the default dtype."""
        d, w = self.lattice_result_type(args)
        if w:
            d = self.default("f" if d == "bfloat16" else KIND[d])
        return d, w

    # ------------------------------------------------------------ operands
    def operand(self, o):
        """(dtype, weak) of an operand as JAX sees it; raises Overflow where JAX does."""
        if o.kind == "literal":
            v = o.py
            if isinstance(v, bool):
                return "bool", False
            if isinstance(v, int):
                return self.default("i"), True
            if isinstance(v, float):
                return self.default("f"), True
            return self.default("c"), True
        d = self.canon(o.dtype)
        if o.kind == "zerodim" and KIND[d] in "ui":
            lo, hi = INT_RANGE[d]
            if not lo <= o.py <= hi:
                raise Overflow("0-d construction")
        return d, o.weak


class Overflow(Exception):
    pass


class Unsupported(Exception):
    pass


INT_KINDS = "bui"


def to_inexact(d):
    return {"bool": "float32", "uint8": "float32", "int8": "float32", "uint16": "float32", "int16": "float32",
            "uint32": "float32", "int32": "float32", "uint64": "float64", "int64": "float64"}.get(d, d)


def to_numeric(d):
    return "int32" if d == "bool" else d


def predict(pol: Policy, cell) -> str:
    try:
        d, w = _predict(pol, cell)
    except Overflow:
        return "!overflow"
    except PromotionError:
        return "!no_promotion"
    except Unsupported:
        return "!unsupported"
    return ("~" if w else "") + d


def _literal_overflows(pol, o):
    """A Python int passed to a jitted function must fit the default int dtype."""
    if o.kind != "literal":
        return False
    v = o.py
    if isinstance(v, bool) or not isinstance(v, int):
        return False
    lo, hi = INT_RANGE[pol.default("i")]
    return not lo <= v <= hi


def _index_exponent(o):
    """power(): `operator.index(x2)` succeeds (the integer_pow path) for a Python int/bool literal
    and for a 0-d array of an integer dtype (not bool: jax refuses bool arrays as an index)."""
    if o.kind == "literal":
        return isinstance(o.py, int)
    return o.kind == "zerodim" and KIND[o.dtype] in "ui"


def _power(pol, cell, args):
    a, b = cell.operands
    if _index_exponent(b):
        # jnp.power case 1: x1, = promote_dtypes_numeric(x1); lax.integer_pow(x1, int(x2))
        # the base is not a jit argument here: a Python int base goes through np.asarray, which
        # takes any value in [-2**63, 2**64-1] (then wraps it into the default int) and raises
        # "Python int too large to convert to C long" beyond
        if a.kind == "literal" and isinstance(a.py, int) and not isinstance(a.py, bool) \
                and not -2 ** 63 <= a.py <= 2 ** 64 - 1:
            raise Overflow()
        d, w = pol.lattice_result_type(args[:1])  # promote_dtypes_numeric(x1): ~bool -> bool strong
        d = to_numeric(d)
        if b.py < 0 and KIND[d] in "ui":
            raise Unsupported("Integers cannot be raised to negative powers")
        return d, w
    if any(_literal_overflows(pol, o) for o in cell.operands):
        raise Overflow()
    d, w = pol.lattice_result_type(args)
    d = to_numeric(d)
    if KIND[d] in "ui":
        return d, False  # _pow_int_int: built on strong constants (_constant_like), never weak
    (d1, w1), (d2, w2) = args
    if KIND[d1] in "fc" and KIND[d2] in "ui":
        return d1, w1 and w2  # lax.pow(x1, x2) without promotion; lax: weak iff all inputs weak
    return d, w


def _matmul(pol, args):
    """jnp.matmul: preferred = result_type(a, b); lax.dot_general on the unconverted inputs."""
    pref, w = pol.result_type(args)
    (da, _), (db, _) = args

    def props(d):
        c = {"complex64": "float32", "complex128": "float64"}.get(d, d)
        fl = KIND[c] == "f"
        maxexp = {"bfloat16": 128, "float16": 16, "float32": 128, "float64": 1024}.get(c, -1)
        nmant = {"bfloat16": 7, "float16": 10, "float32": 23, "float64": 52}.get(c, -1)
        bw = 1 if c == "bool" else BITS[c]
        return (KIND[d] == "c", maxexp if fl else -1, nmant if fl else -1, bw, KIND[c] != "u")

    pa, pb = props(da), props(db)
    if pa == pb and da != db:
        raise Unsupported("dot_general argument type error")
    res = da if pa >= pb else db
    if res != pref and KIND[res] != "f":
        bw = lambda d: 1 if d == "bool" else BITS[d]  # noqa: E731
        if bw(pref) < bw(res):
            raise Unsupported("preferred_element_type must not be narrower")
    return pref, w


def _predict(pol, cell):
    op = cell.op
    args = [pol.operand(o) for o in cell.operands]
    if op == "sum":
        return _sum(pol, args[0])
    if op == "power":
        r = _power(pol, cell, args)
        return _out(pol, r, cell.out) if cell.out else r
    if op == "matmul":
        return _matmul(pol, args)
    if any(_literal_overflows(pol, o) for o in cell.operands):
        raise Overflow()
    d, w = pol.lattice_result_type(args)
    if op in ("add", "multiply", "maximum", "minimum"):
        r = (d, w)
    elif op == "subtract":
        if d == "bool":
            raise Unsupported("sub does not accept dtype bool")
        r = (d, w)
    elif op == "divide":
        r = (to_inexact(d), w)
    elif op in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        r = ("bool", w)
    elif op in ("logical_and", "logical_or", "logical_xor"):
        # _to_bool(x) = lax.ne(x, lax._const(x, 0)): the constant is a weak Python scalar only when
        # x is a weakly typed 0-d array, i.e. when both operands are 0-d (literal or 0-d array)
        scalar = all(o.kind in ("literal", "zerodim") for o in cell.operands)
        r = ("bool", w and scalar)
    elif op in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        if KIND[d] not in INT_KINDS:
            raise Unsupported()
        r = (d, w)
    elif op in ("floor_divide", "remainder"):
        if KIND[d] == "c":
            raise Unsupported()
        d = to_numeric(d)
        if op == "floor_divide" and w and KIND[d] == "f" and d != pol.default("f"):
            # _float_divmod: `div - 1.0` on a weak non-default float promotes to the default float,
            # and lax.select then refuses the mixed dtypes (a JAX bug)
            raise Unsupported("lax.select requires arguments to have the same dtypes")
        if op == "floor_divide" and w and KIND[d] == "i":
            # signed ints: _where(select, quotient - 1, quotient); `quotient - 1` of a weak int
            # promotes (all-weak rule) to lub(d, default int): ~int8 // ~int8 -> ~int32 / ~int64
            d = lub({d, pol.default("i")}, pol.strict, pol.x64)
        r = (d, w)
    else:
        raise ValueError(op)
    if cell.out:
        return _out(pol, r, cell.out)
    return r


def _sum(pol, arg):
    """jnp.sum: bool and narrow ints go to the default (u)int dtype; the result is strongly typed."""
    d, w = arg
    if d == "bool":
        d = pol.default("i")
    elif KIND[d] in "ui" and BITS[d] < BITS[pol.default(KIND[d])]:
        d = pol.default(KIND[d])
    return d, False


def _out(pol, r, out):
    """buf = jnp.zeros(2, out); buf.at[:].set(r): scatter keeps buf's dtype; in strict mode
    dtypes.safe_to_cast(r, out) runs result_type(r, out), which raises where strict has no path."""
    d, w = r
    o = pol.canon(out)
    if pol.strict and d != o:
        lub({pol.jax_type(d, w), o}, True, True)
    return o, False


# ---------------------------------------------------------------- driver
def load(path):
    rows = []
    with gzip.open(path, "rt") if path.endswith(".gz") else open(path) as f:
        for line in f:
            if line.startswith("#") or " : " not in line:
                continue
            lhs, ans = line.rstrip("\n").rsplit(" : ", 1)
            rows.append((lhs, parse_cell(lhs), ans))
    return rows


def add_table(rows, first="tensor"):
    t = {}
    for lhs, c, ans in rows:
        if c.op == "add" and not c.out and len(c.operands) == 2 and all(o.kind == "tensor" for o in c.operands):
            a, b = c.operands
            t[(str(a), str(b))] = ans
    return t


def markdown_table(t, keys_a, keys_b):
    def short(s):
        return s.replace("complex", "c").replace("bfloat", "bf").replace("float", "f").replace("uint", "u") \
            .replace("int", "i").replace("bool", "b").replace("!no_promotion", "✗")
    out = ["| | " + " | ".join(short(k) for k in keys_b) + " |", "|---" * (len(keys_b) + 1) + "|"]
    for a in keys_a:
        out.append(f"| **{short(a)}** | " + " | ".join(short(t.get((a, b), "")) for b in keys_b) + " |")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("policies", nargs="*", default=list(MODES))
    ap.add_argument("--file", default="")
    ap.add_argument("--tables", action="store_true")
    ap.add_argument("--misses", type=int, default=40)
    ap.add_argument("--stats", action="store_true", help="answer counts per op (for the notes)")
    a = ap.parse_args()
    total_bad = 0
    for name in a.policies:
        path = a.file or os.path.join(ROOT, "tests", "fixtures", "resolve", name + ".txt.gz")
        rows = load(path)
        pol = Policy(name)
        per_op = collections.defaultdict(lambda: [0, 0])
        misses = []
        xs = []
        for lhs, c, ans in rows:
            if ans == "X":
                xs.append(lhs)
                continue
            p = predict(pol, c)
            k = c.op + (" out=" if c.out else "")
            per_op[k][1] += 1
            if p == ans:
                per_op[k][0] += 1
            else:
                misses.append(f"{lhs} : {ans}   (predicted {p})")
        n = sum(v[1] for v in per_op.values())
        ok = sum(v[0] for v in per_op.values())
        print(f"== {name}: {len(rows)} cells, {len(xs)} X, predictor {ok}/{n} = {100.0 * ok / max(n, 1):.3f}%")
        for k, (g, t) in sorted(per_op.items()):
            if g != t:
                print(f"   {k:16s} {g}/{t}")
        for m in misses[: a.misses]:
            print("   MISS", m)
        if len(misses) > a.misses:
            print(f"   ... {len(misses) - a.misses} more misses")
        for x in xs:
            print("   X", x)
        total_bad += len(misses)
        if a.stats:
            kinds = collections.Counter()
            by_op = collections.defaultdict(collections.Counter)
            for lhs, c, ans in rows:
                k = "X" if ans == "X" else ans if ans.startswith("!") else ("weak" if ans.startswith("~") else "strong")
                kinds[k] += 1
                by_op[c.op + (" out=" if c.out else "")][k] += 1
            print("   answers:", dict(kinds))
            for op, cnt in by_op.items():
                print(f"   {op:16s}", dict(cnt))
        if a.tables:
            t = add_table(rows)
            print(markdown_table(t, DTYPES, DTYPES))
    sys.exit(1 if total_bad else 0)


if __name__ == "__main__":
    main()
