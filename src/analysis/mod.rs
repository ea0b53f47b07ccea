//! What a framework author computes from a policy, as values: its algebra (`promote check`),
//! its promotion table (`promote table`), the diff of two policies (`promote diff`), the
//! explanation of a call (`promote explain`) and its lattice as a graph (`promote lattice`). The
//! CLI only parses arguments and renders these.
//!
//! | file | what | entry point |
//! | --- | --- | --- |
//! | `outcome.rs` | one call's answer, the representative operands | [`outcome()`], `representatives` |
//! | `join.rs`, `order.rs` | the join table's laws, its order, the verdict | [`JoinAlgebra`] |
//! | `operands.rs` | one op over whole operands | [`OperandAlgebra`] |
//! | `check.rs` | all of the above for one policy (`promote check`) | [`check()`] → [`Findings`] |
//! | `style.rs`, `table.rs`, `table_text.rs` | a policy's table (`promote table`) | [`table()`] → [`Table`] |
//! | `diff.rs` | two policies' answers compared (`promote diff`) | [`diff()`] → [`Diff`] |
//! | `values.rs` | two policies' element values compared (`promote diff --values`) | [`value_diff()`] → [`ValueDiff`] |
//! | `explain.rs` | why a call gets its answer (`promote explain`), an autocast layer's step first | [`explain()`], [`explain_under()`] → [`Explanation`] |
//! | `lattice.rs` | the Hasse diagram of the join table (`promote lattice`) | [`lattice()`] → [`Graph`] |
//!
//! Two levels of algebra are checked:
//!
//! * [`JoinAlgebra`]: the policy's join table over its nodes — the dtypes the framework has
//!   plus its weak nodes (JAX's `i*`, TensorFlow's `i32*`). This is the lattice of the JAX and
//!   TensorFlow docs, or the promotion table of PyTorch's and Paddle's.
//! * [`OperandAlgebra`]: whole calls of one op over representative operands — n-d tensors, 0-d
//!   tensors, weak tensors, Python literals — resolved by the policy as `promote resolve` does.
//!   `(a ∘ b) ∘ c` feeds the result of `a ∘ b` (a tensor of its dtype, weak where the policy
//!   marks it weak, 0-d when both operands were) back in as an operand.
//!
//! ```
//! use promote::{analysis::{JoinAlgebra, Verdict}, builtin};
//! let jax = JoinAlgebra::of(&builtin("jax").unwrap());
//! // a lattice over its classic dtypes; nothing is above float8, float4, int2, int4
//! assert_eq!(jax.verdict(), Verdict::PartialLattice);
//! let torch = JoinAlgebra::of(&builtin("torch").unwrap());
//! assert!(!torch.missing.is_empty()); // uint16 + int8 does not promote
//! ```

mod check;
mod diff;
mod explain;
mod join;
mod lattice;
mod nary;
mod operands;
mod order;
mod outcome;
mod style;
mod table;
mod table_text;
mod values;

pub use check::{check, Findings};

pub use diff::{
    calls, diff, load_policy, parse_ops, Diff, DiffGroup, DiffOptions, Difference, LITERALS,
};
pub use explain::{describe, explain, explain_under, ExplainedStep, Explanation};

pub use join::{JoinAlgebra, Laws};
pub use lattice::{lattice, Graph, GraphNode};
pub use nary::{call_text, nary_laws, NaryCase, NaryLaws};
pub use operands::{ClassCount, OperandAlgebra, TensorLaws};
pub use order::{Order, Verdict};
#[cfg(feature = "cli")]
pub(crate) use outcome::class_words;
pub(crate) use outcome::representatives;
pub use outcome::{outcome, Outcome};
pub use style::{Style, TableOp, With};
pub use table::{table, Cell, Marks, Table, TableOptions};

pub use values::{sample, value_diff, ElementDifference, ValueCell, ValueDiff};

/// How many counterexamples of each sort a report keeps.
pub const EXAMPLES: usize = 8;

/// Counterexamples of one sort: how many there are, and the first few.
///
/// ```
/// use promote::{analysis::check, builtin, Op};
/// let f = check(&builtin("numpy").unwrap(), Op::Add);
/// assert!(f.join.not_commutative.examples.len() <= f.join.not_commutative.count);
/// ```
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
    pub(crate) fn push(&mut self, t: T) {
        self.count += 1;
        if self.examples.len() < EXAMPLES {
            self.examples.push(t);
        }
    }
    /// None found.
    ///
    /// ```
    /// use promote::{analysis::check, builtin, Op};
    /// assert!(check(&builtin("jax").unwrap(), Op::Add).join.not_commutative.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

/// A triple whose two groupings disagree: `(a∘b)∘c` is `left`, `a∘(b∘c)` is `right` (`None`: refused).
///
/// ```
/// use promote::{analysis::check, builtin, Op};
/// let f = check(&builtin("torch").unwrap(), Op::Add);
/// for t in &f.join.assoc_differ.examples {
///     assert_ne!(t.left, t.right);
/// }
/// ```
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
///
/// ```
/// use promote::{analysis::check, builtin, Op};
/// let f = check(&builtin("numpy").unwrap(), Op::Add);
/// for s in &f.calls.not_commutative.examples {
///     assert_ne!(s.ab, s.ba);
/// }
/// ```
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use crate::op::Op;

    /// JAX's lattice over its classic dtypes and weak nodes is a lattice; its narrow dtypes
    /// (float8, float4, int2, int4) are maximal nodes with nothing above them, so a narrow dtype
    /// meets a dtype it is not above with no join ("Input dtypes have no available implicit
    /// dtype promotion path"), and the whole table is a partial lattice.
    #[test]
    fn jax_is_a_lattice_with_weak_nodes() {
        let a = JoinAlgebra::of(&builtin("jax-x64").unwrap());
        assert!(a.names.contains(&"i*".to_string()));
        assert_eq!(a.verdict(), Verdict::PartialLattice);
        let narrow = |i: usize| a.is_dtype[i] && !a.dtypes[i].is_classic();
        let (narrows, classic): (Vec<usize>, Vec<usize>) = (0..a.len()).partition(|&i| narrow(i));
        assert!(narrows.len() >= 13, "{:?}", a.names);
        let laws = a.laws(&classic);
        assert!(laws.missing.is_empty() && laws.not_commutative.is_empty());
        assert!(laws.assoc_differ.is_empty() && laws.assoc_one_sided.is_empty());
        for &x in &classic {
            for &y in &classic {
                assert!(a.join(x, y).is_some_and(|j| !narrow(j)), "{x} {y}");
            }
        }
        for &x in &narrows {
            assert_eq!(a.join(x, x), Some(x));
            for y in 0..a.len() {
                // nothing is above a narrow dtype: it joins y to itself, or not at all
                let j = a.join(x, y);
                assert!(j.is_none_or(|j| j == x), "{} {}", a.names[x], a.names[y]);
                let inexact = |i: usize| a.is_dtype[i] && a.dtypes[i].is_inexact();
                if y != x && inexact(x) && inexact(y) {
                    assert_eq!(a.join(x, y), None, "{} {}", a.names[x], a.names[y]);
                }
            }
        }
        assert!(a.missing.iter().all(|&(x, y)| narrow(x) || narrow(y)));
        assert_eq!(a.order.bottom.map(|b| a.names[b].as_str()), Some("bool"));
        let covers = a.order.covers();
        let has = |x: &str, y: &str| {
            covers
                .iter()
                .any(|&(p, q)| a.names[p] == x && a.names[q] == y)
        };
        assert!(has("bool", "i*") && has("i*", "uint8") && has("f*", "c*") && !has("bool", "int8"));
        assert!(has("f*", "float8_e4m3fn") && !has("float8_e4m3fn", "float16"));
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
        let o = OperandAlgebra::of(&p, Op::parse("add").unwrap());
        // int8 + (1.0 + float64-tensor)... at least the scalar rules break associativity somewhere
        assert!(o.assoc_differ.count > 0);
        let t = &o.assoc_differ.examples[0];
        assert!(!o.triple_text(t).is_empty());
    }
}
