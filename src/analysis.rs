//! The algebra of a policy: does every pair promote, is promotion commutative and associative,
//! and is it a lattice?
//!
//! Two levels are checked:
//!
//! * [`JoinAlgebra`]: the policy's join table over its nodes — the 15 dtypes the framework has
//!   plus its weak nodes (JAX's `i*`, TensorFlow's `i32*`). This is the lattice of the JAX and
//!   TensorFlow docs, or the promotion table of PyTorch's and Paddle's.
//! * [`OperandAlgebra`]: whole calls of one op over representative operands — n-d tensors, 0-d
//!   tensors, weak tensors, Python literals — resolved by the policy as `promote resolve` does.
//!   `(a ∘ b) ∘ c` feeds the result of `a ∘ b` (a tensor of its dtype, weak where the policy
//!   marks it weak, 0-d when both operands were) back in as an operand.
//!
//! ```
//! use promote::{analysis::JoinAlgebra, builtin};
//! let jax = JoinAlgebra::of(&builtin("jax").unwrap());
//! assert!(jax.verdict().is_lattice());
//! let torch = JoinAlgebra::of(&builtin("torch").unwrap());
//! assert!(!torch.missing.is_empty()); // uint16 + int8 does not promote
//! ```

use std::collections::HashMap;
use std::fmt;

use crate::dtype::DType;
use crate::error::ErrorKind;
use crate::op::{Call, Op};
use crate::operand::{Literal, LiteralKind, Operand, OperandClass};
use crate::policy::{Policy, RulePolicy};

/// How many counterexamples of each sort a report keeps.
pub const EXAMPLES: usize = 8;

/// Counterexamples of one sort: how many there are, and the first few.
#[derive(Clone, Debug)]
pub struct Found<T> {
    /// How many were found in all.
    pub count: usize,
    /// The first [`EXAMPLES`] of them, in node order.
    pub examples: Vec<T>,
}

impl<T> Default for Found<T> {
    fn default() -> Self {
        Found {
            count: 0,
            examples: Vec::new(),
        }
    }
}

impl<T> Found<T> {
    fn push(&mut self, t: T) {
        self.count += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.push(t);
        }
    }
    /// None found.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// A triple whose two groupings disagree: `(a∘b)∘c` is `left`, `a∘(b∘c)` is `right` (`None`: refused).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Triple<T> {
    /// The first operand.
    pub a: T,
    /// The second operand.
    pub b: T,
    /// The third operand.
    pub c: T,
    /// `a∘b`.
    pub ab: Option<T>,
    /// `(a∘b)∘c`.
    pub left: Option<T>,
    /// `b∘c`.
    pub bc: Option<T>,
    /// `a∘(b∘c)`.
    pub right: Option<T>,
}

/// A pair whose two orders disagree: `a∘b` is `ab`, `b∘a` is `ba`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Swap<T> {
    /// The first operand.
    pub a: T,
    /// The second operand.
    pub b: T,
    /// `a ∘ b` (`None`: refused).
    pub ab: Option<T>,
    /// `b ∘ a` (`None`: refused).
    pub ba: Option<T>,
}

/// The join table of a policy, restricted to the nodes that matter, with its algebraic properties.
#[derive(Clone, Debug)]
pub struct JoinAlgebra {
    /// Node names (`int8`, `i*`), in the policy's node order.
    pub names: Vec<String>,
    /// Whether each node is weak.
    pub weak: Vec<bool>,
    /// The dtype each node stands for.
    pub dtypes: Vec<DType>,
    /// `lattice` or `table`: how the policy wrote its joins.
    pub source: &'static str,
    /// Whether each node is one of the 15 dtypes (not a weak or literal node).
    pub is_dtype: Vec<bool>,
    join: Vec<Option<usize>>,
    /// Unordered pairs (a < b) with no join in either order.
    pub missing: Vec<(usize, usize)>,
    /// Nodes whose join with themselves is not themselves.
    pub not_idempotent: Vec<(usize, Option<usize>)>,
    /// Pairs with `a∘b ≠ b∘a`.
    pub not_commutative: Found<Swap<usize>>,
    /// Triples where both groupings promote, to different nodes.
    pub assoc_differ: Found<Triple<usize>>,
    /// Triples where one grouping promotes and the other is refused.
    pub assoc_one_sided: Found<Triple<usize>>,
    /// The order `a ≤ b iff a∘b = b` (or `b∘a = b`).
    pub order: Order,
}

/// Which pairs join, commute, and which triples associate, over some of a table's nodes.
#[derive(Clone, Debug, Default)]
pub struct Laws {
    /// Unordered pairs (a < b) with no join in either order.
    pub missing: Vec<(usize, usize)>,
    /// Pairs with `a∘b ≠ b∘a`.
    pub not_commutative: Found<Swap<usize>>,
    /// Triples where both groupings promote, to different nodes.
    pub assoc_differ: Found<Triple<usize>>,
    /// Triples where one grouping promotes and the other is refused.
    pub assoc_one_sided: Found<Triple<usize>>,
}

/// The order a join table induces, and how far it is from a lattice.
#[derive(Clone, Debug, Default)]
pub struct Order {
    /// `leq[a][b]`: `a ≤ b`.
    pub leq: Vec<Vec<bool>>,
    /// `a ≤ b` and `b ≤ a` for `a ≠ b`.
    pub not_antisymmetric: Vec<(usize, usize)>,
    /// `a ≤ b ≤ c` but not `a ≤ c`.
    pub not_transitive: Found<(usize, usize, usize)>,
    /// The join is defined but is not the least upper bound: `(a, b, join, least upper bounds)`.
    pub join_not_lub: Found<(usize, usize, usize, Vec<usize>)>,
    /// No join, although the pair has upper bounds: `(a, b, minimal upper bounds)`.
    pub bounded_but_missing: Found<(usize, usize, Vec<usize>)>,
    /// A node below every node.
    pub bottom: Option<usize>,
    /// A node above every node.
    pub top: Option<usize>,
}

impl Order {
    /// Reflexive, antisymmetric and transitive.
    pub fn is_partial_order(&self) -> bool {
        (0..self.leq.len()).all(|a| self.leq[a][a])
            && self.not_antisymmetric.is_empty()
            && self.not_transitive.is_empty()
    }
    /// The covering pairs `(a, b)`: `a < b` with nothing in between (the Hasse diagram's edges).
    pub fn covers(&self) -> Vec<(usize, usize)> {
        let n = self.leq.len();
        let lt = |a: usize, b: usize| a != b && self.leq[a][b];
        let mut out = Vec::new();
        for a in 0..n {
            for b in 0..n {
                if lt(a, b) && !(0..n).any(|c| lt(a, c) && lt(c, b)) {
                    out.push((a, b));
                }
            }
        }
        out
    }
}

/// What a join table is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every pair promotes, commutatively and associatively, and there is a least node: a lattice
    /// (finite, so bounded).
    Lattice,
    /// As a lattice, but with no least node: a join-semilattice.
    JoinSemilattice,
    /// A partial order whose defined joins are least upper bounds; pairs with no upper bound do
    /// not promote (JAX's strict mode).
    PartialLattice,
    /// None of the above, for these reasons.
    NotALattice(Vec<String>),
}

impl Verdict {
    /// A (bounded) lattice.
    pub fn is_lattice(&self) -> bool {
        *self == Verdict::Lattice
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Lattice => f.write_str("a lattice: every pair has a least upper bound, promotion is commutative and associative"),
            Verdict::JoinSemilattice => f.write_str("a join-semilattice: every pair promotes, commutatively and associatively, but there is no least node"),
            Verdict::PartialLattice => f.write_str("a partial lattice: a partial order where every pair with an upper bound promotes to its least one, and pairs with none are refused"),
            Verdict::NotALattice(r) => write!(f, "not a lattice: {}", r.join("; ")),
        }
    }
}

impl JoinAlgebra {
    /// Analyse a policy's join table over the types a value can have: the dtypes its framework
    /// has and its weak types (JAX's `i*`), and any node a join of those reaches.
    pub fn of(p: &RulePolicy) -> JoinAlgebra {
        JoinAlgebra::build(p, false)
    }

    /// The same, with the policy's other extra nodes too: the nodes its Python scalars enter at
    /// before they take a dtype (Paddle's `i*`, TensorFlow's `i.`), which no value ever has.
    pub fn with_scalars(p: &RulePolicy) -> JoinAlgebra {
        JoinAlgebra::build(p, true)
    }

    /// Whether the policy has extra nodes that are not weak types.
    pub fn has_scalar_nodes(p: &RulePolicy) -> bool {
        p.nodes
            .iter()
            .skip(DType::COUNT)
            .any(|n| !n.weak && !n.outside)
    }

    fn build(p: &RulePolicy, scalars: bool) -> JoinAlgebra {
        let inside = |i: usize| !p.nodes[i].outside;
        let wanted = |i: usize| inside(i) && (i < DType::COUNT || p.nodes[i].weak || scalars);
        let mut ids: Vec<usize> = (0..p.nodes.len())
            .filter(|&i| wanted(i) && (i >= DType::COUNT || p.has(DType::ALL[i])))
            .collect();
        // close under join
        loop {
            let mut added = false;
            for i in 0..ids.len() {
                for j in 0..ids.len() {
                    if let Some(r) = p.join.join(ids[i], ids[j]) {
                        if inside(r) && !ids.contains(&r) {
                            ids.push(r);
                            added = true;
                        }
                    }
                }
            }
            if !added {
                break;
            }
        }
        // the dtypes in their order, then the extra nodes by the dtype they stand for (i*, f*, c*)
        ids.sort_by_key(|&i| {
            if i < DType::COUNT {
                (0, i, String::new())
            } else {
                (
                    1,
                    p.canonical(p.nodes[i].dtype).index(),
                    p.nodes[i].name.clone(),
                )
            }
        });
        let n = ids.len();
        // a join outside the 15 (PyTorch's complex32) becomes the extra index n
        let local = |g: usize| {
            if inside(g) {
                ids.iter().position(|&x| x == g)
            } else {
                Some(n)
            }
        };
        let mut join = vec![None; n * n];
        for a in 0..n {
            for b in 0..n {
                join[a * n + b] = p.join.join(ids[a], ids[b]).and_then(local);
            }
        }
        let mut alg = JoinAlgebra {
            names: ids.iter().map(|&i| p.nodes[i].name.clone()).collect(),
            weak: ids.iter().map(|&i| p.nodes[i].weak).collect(),
            dtypes: ids.iter().map(|&i| p.nodes[i].dtype).collect(),
            source: p.join_source,
            is_dtype: ids.iter().map(|&i| i < DType::COUNT).collect(),
            join,
            missing: Vec::new(),
            not_idempotent: Vec::new(),
            not_commutative: Found::default(),
            assoc_differ: Found::default(),
            assoc_one_sided: Found::default(),
            order: Order::default(),
        };
        alg.analyse();
        alg
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// No nodes.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The join of two (local) nodes; [`Self::len`] stands for a dtype outside the 15 (a table's
    /// `!` cell), which joins with nothing.
    pub fn join(&self, a: usize, b: usize) -> Option<usize> {
        let n = self.len();
        if a >= n || b >= n {
            return None;
        }
        self.join[a * n + b]
    }

    /// A node's name, `-` for `None`, `outside` for a dtype outside the 15.
    pub fn name(&self, a: Option<usize>) -> &str {
        match a {
            None => "-",
            Some(a) if a >= self.len() => "outside",
            Some(a) => self.names[a].as_str(),
        }
    }

    /// The laws over triples and pairs drawn from `domain` (intermediate joins may leave it).
    pub fn laws(&self, domain: &[usize]) -> Laws {
        let mut l = Laws::default();
        for (i, &a) in domain.iter().enumerate() {
            for &b in &domain[i + 1..] {
                let (ab, ba) = (self.join(a, b), self.join(b, a));
                if ab.is_none() && ba.is_none() {
                    l.missing.push((a, b));
                }
                if ab != ba {
                    l.not_commutative.push(Swap { a, b, ab, ba });
                }
            }
        }
        for &a in domain {
            for &b in domain {
                let ab = self.join(a, b);
                for &c in domain {
                    let bc = self.join(b, c);
                    let left = ab.and_then(|x| self.join(x, c));
                    let right = bc.and_then(|x| self.join(a, x));
                    if left != right {
                        let t = Triple {
                            a,
                            b,
                            c,
                            ab,
                            left,
                            bc,
                            right,
                        };
                        if left.is_some() && right.is_some() {
                            l.assoc_differ.push(t);
                        } else {
                            l.assoc_one_sided.push(t);
                        }
                    }
                }
            }
        }
        l
    }

    /// The laws over the 15 dtypes alone: tensor with tensor.
    pub fn dtype_laws(&self) -> Laws {
        let domain: Vec<usize> = (0..self.len()).filter(|&i| self.is_dtype[i]).collect();
        self.laws(&domain)
    }

    fn analyse(&mut self) {
        let n = self.len();
        for a in 0..n {
            if self.join(a, a) != Some(a) {
                self.not_idempotent.push((a, self.join(a, a)));
            }
        }
        let all: Vec<usize> = (0..n).collect();
        let l = self.laws(&all);
        self.missing = l.missing;
        self.not_commutative = l.not_commutative;
        self.assoc_differ = l.assoc_differ;
        self.assoc_one_sided = l.assoc_one_sided;
        let leq: Vec<Vec<bool>> = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| self.join(a, b) == Some(b) || self.join(b, a) == Some(b))
                    .collect()
            })
            .collect();
        let mut o = Order {
            leq,
            ..Order::default()
        };
        for a in 0..n {
            for b in a + 1..n {
                if o.leq[a][b] && o.leq[b][a] {
                    o.not_antisymmetric.push((a, b));
                }
            }
        }
        for a in 0..n {
            for b in 0..n {
                if a == b || !o.leq[a][b] {
                    continue;
                }
                for c in 0..n {
                    if c != b && o.leq[b][c] && !o.leq[a][c] {
                        o.not_transitive.push((a, b, c));
                    }
                }
            }
        }
        o.bottom = (0..n).find(|&a| (0..n).all(|b| o.leq[a][b]));
        o.top = (0..n).find(|&a| (0..n).all(|b| o.leq[b][a]));
        if o.is_partial_order() {
            for a in 0..n {
                for b in a..n {
                    let ub: Vec<usize> = (0..n).filter(|&c| o.leq[a][c] && o.leq[b][c]).collect();
                    let least: Vec<usize> = ub
                        .iter()
                        .copied()
                        .filter(|&c| !ub.iter().any(|&d| d != c && o.leq[d][c]))
                        .collect();
                    for j in [self.join(a, b), self.join(b, a)]
                        .into_iter()
                        .flatten()
                        .take(1)
                    {
                        if least != [j] {
                            o.join_not_lub.push((a, b, j, least.clone()));
                        }
                    }
                    if self.join(a, b).is_none() && self.join(b, a).is_none() && !least.is_empty() {
                        o.bounded_but_missing.push((a, b, least));
                    }
                }
            }
        }
        self.order = o;
    }

    /// Promotion is commutative, associative (where both groupings promote) and idempotent.
    pub fn is_semilattice_op(&self) -> bool {
        self.not_idempotent.is_empty()
            && self.not_commutative.is_empty()
            && self.assoc_differ.is_empty()
            && self.assoc_one_sided.is_empty()
    }

    /// What this join table is.
    pub fn verdict(&self) -> Verdict {
        let o = &self.order;
        if self.is_semilattice_op() && self.missing.is_empty() {
            return if o.bottom.is_some() {
                Verdict::Lattice
            } else {
                Verdict::JoinSemilattice
            };
        }
        if self.is_semilattice_op()
            && o.is_partial_order()
            && o.join_not_lub.is_empty()
            && o.bounded_but_missing.is_empty()
        {
            return Verdict::PartialLattice;
        }
        let mut why = Vec::new();
        if !self.not_idempotent.is_empty() {
            let (a, r) = self.not_idempotent[0];
            why.push(format!(
                "{} ∘ {} is {}, not {}",
                self.names[a],
                self.names[a],
                self.name(r),
                self.names[a]
            ));
        }
        if let Some(s) = self.not_commutative.examples.first() {
            why.push(format!(
                "not commutative ({} pairs; {} ∘ {} = {} but {} ∘ {} = {})",
                self.not_commutative.count,
                self.names[s.a],
                self.names[s.b],
                self.name(s.ab),
                self.names[s.b],
                self.names[s.a],
                self.name(s.ba)
            ));
        }
        if let Some(t) = self.assoc_differ.examples.first() {
            why.push(format!(
                "not associative ({} triples; {})",
                self.assoc_differ.count,
                self.triple_text(t)
            ));
        }
        if !o.not_antisymmetric.is_empty() {
            let (a, b) = o.not_antisymmetric[0];
            why.push(format!(
                "the order is not antisymmetric ({} ≤ {} and {} ≤ {})",
                self.names[a], self.names[b], self.names[b], self.names[a]
            ));
        }
        if let Some(&(a, b, c)) = o.not_transitive.examples.first() {
            why.push(format!(
                "the order is not transitive ({} pairs; {} ≤ {} ≤ {} but {} ∘ {} = {})",
                o.not_transitive.count,
                self.names[a],
                self.names[b],
                self.names[c],
                self.names[a],
                self.names[c],
                self.name(self.join(a, c))
            ));
        }
        if let Some((a, b, j, l)) = o.join_not_lub.examples.first() {
            why.push(format!(
                "{} ∘ {} = {} is not their least upper bound ({})",
                self.names[*a],
                self.names[*b],
                self.name(Some(*j)),
                self.list(l)
            ));
        }
        if let Some((a, b, l)) = o.bounded_but_missing.examples.first() {
            why.push(format!(
                "{} pairs have upper bounds but do not promote (such as {} and {}, both below {})",
                o.bounded_but_missing.count,
                self.names[*a],
                self.names[*b],
                self.list(l)
            ));
        } else if !self.missing.is_empty() && !o.is_partial_order() {
            let (a, b) = self.missing[0];
            why.push(format!(
                "{} pairs do not promote (such as {} and {})",
                self.missing.len(),
                self.names[a],
                self.names[b]
            ));
        }
        if self.assoc_differ.is_empty() {
            if let Some(t) = self.assoc_one_sided.examples.first() {
                why.push(format!(
                    "grouping decides whether {} triples promote at all ({})",
                    self.assoc_one_sided.count,
                    self.triple_text(t)
                ));
            }
        }
        Verdict::NotALattice(why)
    }

    fn list(&self, l: &[usize]) -> String {
        if l.is_empty() {
            return "none".into();
        }
        l.iter()
            .map(|&i| self.names[i].as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// A triple in words: `(a ∘ b) ∘ c = x ∘ c = L, but a ∘ (b ∘ c) = a ∘ y = R`.
    pub fn triple_text(&self, t: &Triple<usize>) -> String {
        let (a, b, c) = (&self.names[t.a], &self.names[t.b], &self.names[t.c]);
        format!(
            "({a} ∘ {b}) ∘ {c} = {} ∘ {c} = {}, but {a} ∘ ({b} ∘ {c}) = {a} ∘ {} = {}",
            self.name(t.ab),
            self.name(t.left),
            self.name(t.bc),
            self.name(t.right)
        )
        .replace(&format!("- ∘ {c} = -"), "-")
        .replace(&format!("{a} ∘ - = -"), "-")
    }
}

/// The answer to one call, as far as the algebra cares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The result: dtype and whether it is weak.
    Value(DType, bool),
    /// Refused with this error.
    Error(ErrorKind),
    /// Two Python literals: Python computes a literal of this kind itself.
    Python(LiteralKind),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Value(d, w) => write!(f, "{}{}", if *w { "~" } else { "" }, d),
            Outcome::Error(k) => write!(f, "!{}", k.name()),
            Outcome::Python(k) => write!(f, "a Python {}", k.name()),
        }
    }
}

/// Resolve a call into an [`Outcome`].
pub fn outcome(p: &dyn Policy, call: &Call) -> Outcome {
    match p.result(call) {
        Ok((d, weak)) => Outcome::Value(d, weak),
        Err(e) => Outcome::Error(e.kind()),
    }
}

/// The laws of an op over tensors with dimensions alone.
#[derive(Clone, Debug, Default)]
pub struct TensorLaws {
    /// Ordered pairs of tensors.
    pub pairs: usize,
    /// Pairs the framework refuses to promote (`no_promotion`).
    pub refused: usize,
    /// Unordered pairs whose two orders give different results.
    pub not_commutative: usize,
    /// Triples whose groupings give different results.
    pub assoc_differ: usize,
    /// Triples where one grouping is refused.
    pub assoc_one_sided: usize,
    /// An example of different results.
    pub example: Option<Triple<usize>>,
}

/// Associativity failures of one pattern of operand classes.
#[derive(Clone, Debug)]
pub struct ClassCount {
    /// The classes of `a`, `b`, `c`.
    pub classes: [OperandClass; 3],
    /// Triples whose groupings give different results.
    pub differ: usize,
    /// Triples where one grouping is refused.
    pub one_sided: usize,
    /// A telling example of a different result (one without bool operands where there is one).
    pub example: Option<Triple<usize>>,
}

/// The answer to `a∘b`: its outcome and the operand it becomes when fed back in (`None` where
/// Python itself refuses two literals).
type Answer = Option<(Outcome, Option<usize>)>;

/// One op over representative operands, with its commutativity and associativity.
#[derive(Clone, Debug)]
pub struct OperandAlgebra {
    /// The op.
    pub op: Op,
    /// Every operand met: the representatives first, then results fed back in.
    pub operands: Vec<Operand>,
    /// How many of [`Self::operands`] are representatives.
    pub base: usize,
    /// `a∘b ≠ b∘a` (any two refusals count as equal).
    pub not_commutative: Found<Swap<usize>>,
    /// Both groupings give a result, and the results differ.
    pub assoc_differ: Found<Triple<usize>>,
    /// One grouping gives a result, the other is refused: it meets a pair the policy does not
    /// promote (`no_promotion`).
    pub assoc_one_sided: Found<Triple<usize>>,
    /// One grouping gives a result, the other meets an op with no kernel for its dtype (or an
    /// overflow): not a matter of promotion.
    pub assoc_kernel: Found<Triple<usize>>,
    /// The groupings differ only because Python folds two literals first (`True + True` is the
    /// int 2); counted apart from [`Self::assoc_differ`] and [`Self::assoc_one_sided`].
    pub assoc_python: Found<Triple<usize>>,
    /// Triples checked.
    pub triples: usize,
    /// Associativity failures by the operand classes of the triple, most first.
    pub by_classes: Vec<ClassCount>,
    answers: HashMap<(usize, usize), Answer>,
}

/// The representative operands of a policy: a tensor and a 0-d tensor of every dtype the framework
/// has, a weak tensor of the dtype of each weak node (JAX's `i*` gives a weak int32 or int64,
/// TensorFlow's `f32*` a weak float32: the weak types the frameworks actually make), and the Python
/// literals `True`, `1`, `1.0`, `1j`.
pub fn representatives(p: &RulePolicy) -> Vec<Operand> {
    let ds: Vec<DType> = DType::ALL
        .iter()
        .copied()
        .filter(|&d| p.has(d) && p.canonical(d) == d)
        .collect();
    let mut v: Vec<Operand> = ds.iter().map(|&d| Operand::tensor(d)).collect();
    v.extend(ds.iter().map(|&d| Operand::zero_dim(d, None)));
    let mut weak: Vec<DType> = p
        .nodes
        .iter()
        .filter(|n| n.weak)
        .map(|n| p.canonical(n.dtype))
        .collect();
    weak.sort();
    weak.dedup();
    v.extend(weak.into_iter().map(Operand::weak));
    v.extend(
        ["True", "1", "1.0", "1j"]
            .iter()
            .map(|s| Operand::Literal(Literal::parse(s).expect("literal"))),
    );
    v
}

/// What Python itself makes of `a op b` for two literals (no framework is involved in `1 + 2.0`).
fn python(op: Op, a: &Literal, b: &Literal) -> Option<Literal> {
    use LiteralKind as K;
    let k = a.kind().max(b.kind());
    let kind = match op.group() {
        "comparison" => {
            if k == K::Complex && !matches!(op, Op::Equal | Op::NotEqual) {
                return None;
            }
            K::Bool
        }
        "logical" => K::Bool,
        "bitwise" if k > K::Int => return None,
        "bitwise" => k,
        "division" => k.max(K::Float),
        _ if matches!(op, Op::Maximum | Op::Minimum) => k,
        _ if matches!(op, Op::FloorDivide | Op::Remainder) && k == K::Complex => return None,
        _ => k.max(K::Int),
    };
    Literal::parse(match kind {
        K::Bool => "True",
        K::Int => "1",
        K::Float => "1.0",
        K::Complex => "1j",
    })
}

impl OperandAlgebra {
    /// Check one op over the policy's [`representatives`].
    pub fn of(p: &RulePolicy, op: Op) -> OperandAlgebra {
        let operands = representatives(p);
        let base = operands.len();
        let mut alg = OperandAlgebra {
            op,
            operands,
            base,
            not_commutative: Found::default(),
            assoc_differ: Found::default(),
            assoc_one_sided: Found::default(),
            assoc_python: Found::default(),
            assoc_kernel: Found::default(),
            triples: 0,
            by_classes: Vec::new(),
            answers: HashMap::new(),
        };
        if op.arity() == 2 {
            alg.analyse(p);
        }
        alg
    }

    fn intern(&mut self, o: Operand) -> usize {
        match self.operands.iter().position(|x| *x == o) {
            Some(i) => i,
            None => {
                self.operands.push(o);
                self.operands.len() - 1
            }
        }
    }

    /// `a∘b`: the outcome, and the operand it becomes when fed back in.
    fn apply(&mut self, p: &RulePolicy, a: usize, b: usize) -> Answer {
        if let Some(r) = self.answers.get(&(a, b)) {
            return r.clone();
        }
        let (x, y) = (self.operands[a].clone(), self.operands[b].clone());
        let r = match (&x, &y) {
            (Operand::Literal(l), Operand::Literal(m)) => python(self.op, l, m).map(|lit| {
                let kind = lit.kind();
                (
                    Outcome::Python(kind),
                    Some(self.intern(Operand::Literal(lit))),
                )
            }),
            _ => {
                let out = Call::new(self.op, vec![x.clone(), y.clone()], None)
                    .map_or(Outcome::Error(ErrorKind::Invalid), |c| outcome(p, &c));
                let next = match out {
                    Outcome::Value(d, weak) => {
                        let nd = [&x, &y].iter().any(|o| {
                            matches!(
                                o,
                                Operand::Tensor {
                                    zero_dim: false,
                                    ..
                                }
                            )
                        });
                        Some(self.intern(Operand::Tensor {
                            dtype: d,
                            weak,
                            zero_dim: !nd,
                            value: None,
                        }))
                    }
                    _ => None,
                };
                Some((out, next))
            }
        };
        self.answers.insert((a, b), r.clone());
        r
    }

    fn analyse(&mut self, p: &RulePolicy) {
        let n = self.base;
        // any two refusals count as the same answer
        let same = |x: &Answer, y: &Answer| {
            let ok = |r: &Answer| r.as_ref().and_then(|v| v.1.map(|_| v.0.clone()));
            ok(x) == ok(y)
        };
        for a in 0..n {
            for b in a + 1..n {
                let (ab, ba) = (self.apply(p, a, b), self.apply(p, b, a));
                if !same(&ab, &ba) {
                    self.not_commutative.push(Swap {
                        a,
                        b,
                        ab: ab.and_then(|x| x.1),
                        ba: ba.and_then(|x| x.1),
                    });
                }
            }
        }
        let mut classes: HashMap<[OperandClass; 3], ClassCount> = HashMap::new();
        for a in 0..n {
            for b in 0..n {
                let ab = self.apply(p, a, b);
                for c in 0..n {
                    self.triples += 1;
                    let bc = self.apply(p, b, c);
                    let left = ab
                        .as_ref()
                        .and_then(|x| x.1)
                        .and_then(|x| self.apply(p, x, c));
                    let right = bc
                        .as_ref()
                        .and_then(|x| x.1)
                        .and_then(|x| self.apply(p, a, x));
                    let defined = |r: &Answer| r.as_ref().is_some_and(|v| v.1.is_some());
                    if same(&left, &right) {
                        continue;
                    }
                    let t = Triple {
                        a,
                        b,
                        c,
                        ab: ab.as_ref().and_then(|x| x.1),
                        left: left.as_ref().and_then(|x| x.1),
                        bc: bc.as_ref().and_then(|x| x.1),
                        right: right.as_ref().and_then(|x| x.1),
                    };
                    let folded =
                        |i: Option<usize>| i.is_some_and(|i| self.operands[i].literal().is_some());
                    if folded(t.ab) || folded(t.bc) {
                        self.assoc_python.push(t);
                        continue;
                    }
                    let classes_of = [
                        self.operands[a].class(),
                        self.operands[b].class(),
                        self.operands[c].class(),
                    ];
                    let no_bool = [a, b, c].iter().all(|&i| {
                        self.operands[i].dtype() != Some(DType::Bool)
                            && !matches!(self.operands[i].literal(), Some(Literal::Bool(_)))
                    });
                    let e = classes.entry(classes_of).or_insert(ClassCount {
                        classes: classes_of,
                        differ: 0,
                        one_sided: 0,
                        example: None,
                    });
                    if defined(&left) && defined(&right) {
                        let better = match &e.example {
                            None => true,
                            Some(x) => {
                                no_bool
                                    && [x.a, x.b, x.c].iter().any(|&i| {
                                        self.operands[i].dtype() == Some(DType::Bool)
                                            || matches!(
                                                self.operands[i].literal(),
                                                Some(Literal::Bool(_))
                                            )
                                    })
                            }
                        };
                        if better {
                            e.example = Some(t.clone());
                        }
                        self.assoc_differ.push(t);
                        e.differ += 1;
                    } else {
                        // which error ends the failing grouping: a promotion refusal, or an op
                        // without a kernel for the dtype (an overflow, Python itself)
                        let fail = |first: &Answer, second: &Answer| {
                            [first, second].into_iter().find_map(|r| match r {
                                Some((Outcome::Error(k), _)) => Some(*k),
                                None => Some(ErrorKind::Unsupported),
                                _ => None,
                            })
                        };
                        let kinds = [fail(&ab, &left), fail(&bc, &right)];
                        if kinds.contains(&Some(ErrorKind::NoPromotion)) {
                            self.assoc_one_sided.push(t);
                            e.one_sided += 1;
                        } else {
                            self.assoc_kernel.push(t);
                        }
                    }
                }
            }
        }
        let mut by: Vec<ClassCount> = classes.into_values().collect();
        by.sort_by_key(|c| {
            (
                std::cmp::Reverse(c.differ),
                std::cmp::Reverse(c.one_sided),
                c.classes.map(class_order),
            )
        });
        self.by_classes = by;
    }

    /// The outcome of `a∘b` (after [`Self::of`] has met the pair).
    pub fn outcome(&self, a: usize, b: usize) -> Option<Outcome> {
        self.answers.get(&(a, b)).cloned().flatten().map(|x| x.0)
    }

    /// Tensor with tensor alone (strong tensors with dimensions): what a user of the framework's
    /// tensor-tensor table sees.
    pub fn tensor_laws(&self) -> TensorLaws {
        let ts: Vec<usize> = (0..self.base)
            .filter(|&i| self.operands[i].class() == OperandClass::Tensor)
            .collect();
        let mut l = TensorLaws {
            pairs: ts.len() * ts.len(),
            ..TensorLaws::default()
        };
        let ok = |a: usize, b: usize| match self.outcome(a, b) {
            Some(Outcome::Value(d, w)) => Some((d, w)),
            _ => None,
        };
        for &a in &ts {
            for &b in &ts {
                if self.outcome(a, b) == Some(Outcome::Error(ErrorKind::NoPromotion)) {
                    l.refused += 1;
                }
                if a < b && ok(a, b) != ok(b, a) {
                    l.not_commutative += 1;
                }
            }
        }
        if let Some(k) = self
            .by_classes
            .iter()
            .find(|k| k.classes == [OperandClass::Tensor; 3])
        {
            l.assoc_differ = k.differ;
            l.assoc_one_sided = k.one_sided;
            l.example = k.example.clone();
        }
        l
    }

    /// An operand's text in the compact syntax.
    pub fn text(&self, i: Option<usize>) -> String {
        i.map_or_else(|| "refused".to_string(), |i| self.operands[i].to_string())
    }

    /// The outcome text of `x∘y`, `refused` or `!error` where it fails.
    pub fn ab_text(&self, x: usize, y: usize) -> String {
        match self.answers.get(&(x, y)).cloned().flatten() {
            Some((Outcome::Value(..), Some(i))) => self.text(Some(i)),
            Some((Outcome::Python(_), Some(i))) => format!("{} (Python)", self.text(Some(i))),
            Some((o, _)) => o.to_string(),
            None => "a TypeError in Python".into(),
        }
    }

    /// A triple in words, each grouping worked out:
    /// `add(add(a, b), c) = add(x, c) = r1, but add(a, add(b, c)) = add(a, y) = r2`.
    pub fn triple_text(&self, t: &Triple<usize>) -> String {
        let (a, b, c) = (
            self.text(Some(t.a)),
            self.text(Some(t.b)),
            self.text(Some(t.c)),
        );
        let op = self.op.name();
        let left = match t.ab {
            Some(x) => format!(
                "{op}({op}({a}, {b}), {c}) = {op}({}, {c}) = {}",
                self.text(Some(x)),
                self.ab_text(x, t.c)
            ),
            None => format!(
                "{op}({op}({a}, {b}), {c}) fails: {op}({a}, {b}) is {}",
                self.ab_text(t.a, t.b)
            ),
        };
        let right = match t.bc {
            Some(y) => format!(
                "{op}({a}, {op}({b}, {c})) = {op}({a}, {}) = {}",
                self.text(Some(y)),
                self.ab_text(t.a, y)
            ),
            None => format!(
                "{op}({a}, {op}({b}, {c})) fails: {op}({b}, {c}) is {}",
                self.ab_text(t.b, t.c)
            ),
        };
        format!("{left}, but {right}")
    }
}

fn class_order(c: OperandClass) -> u8 {
    match c {
        OperandClass::Tensor => 0,
        OperandClass::ZeroDim => 1,
        OperandClass::Weak => 2,
        OperandClass::Literal => 3,
    }
}

/// A class's name for people.
pub fn class_words(c: OperandClass) -> &'static str {
    match c {
        OperandClass::Tensor => "tensor",
        OperandClass::ZeroDim => "0-d tensor",
        OperandClass::Weak => "weak tensor",
        OperandClass::Literal => "Python scalar",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;

    #[test]
    fn jax_is_a_lattice_with_weak_nodes() {
        let a = JoinAlgebra::of(&builtin("jax-x64").unwrap());
        assert!(a.names.contains(&"i*".to_string()));
        assert_eq!(a.verdict(), Verdict::Lattice);
        assert_eq!(a.order.bottom.map(|b| a.names[b].as_str()), Some("bool"));
        let covers = a.order.covers();
        let has = |x: &str, y: &str| {
            covers
                .iter()
                .any(|&(p, q)| a.names[p] == x && a.names[q] == y)
        };
        assert!(has("bool", "i*") && has("i*", "uint8") && has("f*", "c*") && !has("bool", "int8"));
    }

    #[test]
    fn torch_table_is_partial_and_refusals_depend_on_grouping() {
        let a = JoinAlgebra::of(&builtin("torch").unwrap());
        assert!(!a.missing.is_empty());
        assert!(
            a.assoc_differ.is_empty(),
            "{:?}",
            a.assoc_differ.examples.first().map(|t| a.triple_text(t))
        );
        assert!(!a.assoc_one_sided.is_empty());
        assert!(matches!(a.verdict(), Verdict::NotALattice(_)));
    }

    #[test]
    fn operand_level_finds_torch_scalar_breaks() {
        let p = builtin("torch").unwrap();
        let o = OperandAlgebra::of(&p, Op::Add);
        // int8 + (1.0 + float64-tensor)... at least the scalar rules break associativity somewhere
        assert!(o.assoc_differ.count > 0);
        let t = &o.assoc_differ.examples[0];
        assert!(!o.triple_text(t).is_empty());
    }
}
