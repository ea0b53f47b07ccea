//! The order a join table induces (`a ≤ b` iff `a ∘ b = b`), how far it is from a lattice, and
//! the [`Verdict`] in words.

use std::fmt;

use super::{Found, JoinAlgebra, Triple};

/// The order a join table induces, and how far it is from a lattice.
///
/// ```
/// use promote::{analysis::JoinAlgebra, builtin};
/// let j = JoinAlgebra::of(&builtin("jax").unwrap());
/// assert!(j.order.is_partial_order());
/// ```
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
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// assert!(JoinAlgebra::of(&builtin("jax").unwrap()).order.is_partial_order());
    /// ```
    pub fn is_partial_order(&self) -> bool {
        (0..self.leq.len()).all(|a| self.leq[a][a])
            && self.not_antisymmetric.is_empty()
            && self.not_transitive.is_empty()
    }
    /// The covering pairs `(a, b)`: `a < b` with nothing in between (the Hasse diagram's edges).
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// let j = JoinAlgebra::of(&builtin("numpy").unwrap());
    /// assert!(j.order.covers().iter().all(|&(a, b)| j.order.leq[a][b] && a != b));
    /// ```
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
///
/// ```
/// use promote::{analysis::{check, Verdict}, builtin, Op};
/// assert_eq!(check(&builtin("jax").unwrap(), Op::Add).join.verdict(), Verdict::PartialLattice);
/// ```
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
    ///
    /// ```
    /// use promote::analysis::Verdict;
    /// assert!(Verdict::Lattice.is_lattice());
    /// assert!(!Verdict::NotALattice(vec![]).is_lattice());
    /// ```
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

impl Order {
    /// The order of an analysed join table: `a ≤ b` iff `a∘b = b` (or `b∘a = b`).
    pub(super) fn of(alg: &JoinAlgebra) -> Order {
        let n = alg.len();
        let leq: Vec<Vec<bool>> = (0..n)
            .map(|a| {
                (0..n)
                    .map(|b| alg.join(a, b) == Some(b) || alg.join(b, a) == Some(b))
                    .collect()
            })
            .collect();
        let mut o = Order {
            leq,
            ..Order::default()
        };
        o.check_laws();
        o.bottom = (0..n).find(|&a| (0..n).all(|b| o.leq[a][b]));
        o.top = (0..n).find(|&a| (0..n).all(|b| o.leq[b][a]));
        if o.is_partial_order() {
            o.check_bounds(alg);
        }
        o
    }

    /// Antisymmetry and transitivity.
    fn check_laws(&mut self) {
        let n = self.leq.len();
        for a in 0..n {
            for b in a + 1..n {
                if self.leq[a][b] && self.leq[b][a] {
                    self.not_antisymmetric.push((a, b));
                }
            }
        }
        for a in 0..n {
            for b in 0..n {
                if a == b || !self.leq[a][b] {
                    continue;
                }
                for c in 0..n {
                    if c != b && self.leq[b][c] && !self.leq[a][c] {
                        self.not_transitive.push((a, b, c));
                    }
                }
            }
        }
    }

    /// Whether each defined join is the least upper bound, and each pair with upper bounds joins.
    fn check_bounds(&mut self, alg: &JoinAlgebra) {
        let n = self.leq.len();
        for a in 0..n {
            for b in a..n {
                let ub: Vec<usize> = (0..n)
                    .filter(|&c| self.leq[a][c] && self.leq[b][c])
                    .collect();
                let least: Vec<usize> = ub
                    .iter()
                    .copied()
                    .filter(|&c| !ub.iter().any(|&d| d != c && self.leq[d][c]))
                    .collect();
                if let Some(j) = alg.join(a, b).or(alg.join(b, a)) {
                    if least != [j] {
                        self.join_not_lub.push((a, b, j, least.clone()));
                    }
                }
                if alg.join(a, b).is_none() && alg.join(b, a).is_none() && !least.is_empty() {
                    self.bounded_but_missing.push((a, b, least));
                }
            }
        }
    }
}

impl JoinAlgebra {
    /// Promotion is commutative, associative (where both groupings promote) and idempotent.
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// assert!(JoinAlgebra::of(&builtin("jax").unwrap()).is_semilattice_op());
    /// ```
    pub fn is_semilattice_op(&self) -> bool {
        self.not_idempotent.is_empty()
            && self.not_commutative.is_empty()
            && self.assoc_differ.is_empty()
            && self.assoc_one_sided.is_empty()
    }

    /// What this join table is.
    ///
    /// ```
    /// use promote::{analysis::{JoinAlgebra, Verdict}, builtin};
    /// assert_eq!(JoinAlgebra::of(&builtin("jax").unwrap()).verdict(), Verdict::PartialLattice);
    /// ```
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
        let mut why = self.law_reasons();
        why.extend(self.order_reasons());
        Verdict::NotALattice(why)
    }

    /// Why the join is not a semilattice operation: idempotence, commutativity, associativity.
    fn law_reasons(&self) -> Vec<String> {
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
        why
    }

    /// Why the induced order is not a (partial) lattice, and where grouping decides refusal.
    fn order_reasons(&self) -> Vec<String> {
        let o = &self.order;
        let mut why = Vec::new();
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
        why
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
    ///
    /// ```
    /// use promote::analysis::{JoinAlgebra, Triple};
    /// let j = JoinAlgebra::of(&promote::builtin("numpy").unwrap());
    /// let t = Triple { a: 0, b: 1, c: 2, ab: None, left: None, bc: None, right: None };
    /// assert!(j.triple_text(&t).contains(&j.names[2]));
    /// ```
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
