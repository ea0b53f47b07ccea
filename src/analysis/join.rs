//! The join table of a policy as an algebra: which pairs join, whether joining commutes and
//! associates ([`JoinAlgebra`], [`Laws`]). The order it induces and the verdict are in
//! `order.rs`.

use crate::dtype::DType;
use crate::policy::RulePolicy;

use super::{Found, Order, Swap, Triple};

/// The join table of a policy, restricted to the nodes that matter, with its algebraic properties.
///
/// ```
/// use promote::{analysis::JoinAlgebra, builtin};
/// let j = JoinAlgebra::of(&builtin("numpy").unwrap());
/// assert_eq!(j.names.len(), j.len());
/// ```
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
///
/// ```
/// use promote::{analysis::JoinAlgebra, builtin};
/// // JAX's lattice commutes; NumPy's table does not once ml_dtypes' float8s are in it
/// let j = JoinAlgebra::of(&builtin("jax").unwrap());
/// assert!(j.dtype_laws().not_commutative.is_empty());
/// let numpy = JoinAlgebra::of(&builtin("numpy").unwrap());
/// assert!(!numpy.dtype_laws().not_commutative.is_empty());
/// ```
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

impl JoinAlgebra {
    /// Analyse a policy's join table over the types a value can have: the dtypes its framework
    /// has and its weak types (JAX's `i*`), and any node a join of those reaches.
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// let j = JoinAlgebra::of(&builtin("jax").unwrap());
    /// assert!(j.names.iter().any(|n| n == "i*"));
    /// ```
    pub fn of(p: &RulePolicy) -> JoinAlgebra {
        JoinAlgebra::build(p, false)
    }

    /// The same, with the policy's other extra nodes too: the nodes its Python scalars enter at
    /// before they take a dtype (Paddle's `i*`, TensorFlow's `i.`), which no value ever has.
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// let numpy = builtin("numpy").unwrap();
    /// assert!(JoinAlgebra::with_scalars(&numpy).len() >= JoinAlgebra::of(&numpy).len());
    /// ```
    pub fn with_scalars(p: &RulePolicy) -> JoinAlgebra {
        JoinAlgebra::build(p, true)
    }

    /// Whether the policy has extra nodes that are not weak types.
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// assert!(JoinAlgebra::has_scalar_nodes(&builtin("paddle").unwrap()));
    /// ```
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
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// let numpy = builtin("numpy").unwrap();
    /// assert_eq!(JoinAlgebra::of(&numpy).len(), JoinAlgebra::of(&numpy).names.len());
    /// ```
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// No nodes.
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// assert!(!JoinAlgebra::of(&builtin("numpy").unwrap()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The join of two (local) nodes; [`Self::len`] stands for a dtype outside the 15 (a table's
    /// `!` cell), which joins with nothing.
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// let j = JoinAlgebra::of(&builtin("numpy").unwrap());
    /// let at = |n: &str| j.names.iter().position(|x| x == n).unwrap();
    /// assert_eq!(j.join(at("int8"), at("uint8")), Some(at("int16")));
    /// ```
    pub fn join(&self, a: usize, b: usize) -> Option<usize> {
        let n = self.len();
        if a >= n || b >= n {
            return None;
        }
        self.join[a * n + b]
    }

    /// A node's name, `-` for `None`, `outside` for a dtype outside the 15.
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// let j = JoinAlgebra::of(&builtin("numpy").unwrap());
    /// assert_eq!(j.name(Some(0)), j.names[0]);
    /// ```
    pub fn name(&self, a: Option<usize>) -> &str {
        match a {
            None => "-",
            Some(a) if a >= self.len() => "outside",
            Some(a) => self.names[a].as_str(),
        }
    }

    /// The laws over triples and pairs drawn from `domain` (intermediate joins may leave it).
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// let j = JoinAlgebra::of(&builtin("jax").unwrap());
    /// let all: Vec<usize> = (0..j.len()).collect();
    /// assert!(j.laws(&all).not_commutative.is_empty());
    /// ```
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
    ///
    /// ```
    /// use promote::{analysis::JoinAlgebra, builtin};
    /// let j = JoinAlgebra::of(&builtin("torch").unwrap());
    /// assert!(j.dtype_laws().not_commutative.is_empty());
    /// ```
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
        self.order = Order::of(self);
    }
}
