//! Everything `promote check` finds out about one policy, as a value: its join table's algebra,
//! one op over tensors alone, and the op over whole operands.
//!
//! ```
//! let jax = promote::builtin("jax").unwrap();
//! let f = promote::analysis::check(&jax, promote::Op::parse("add").unwrap());
//! // a lattice over the classic dtypes; nothing is above float8, float4, int2, int4
//! assert_eq!(f.join.verdict(), promote::analysis::Verdict::PartialLattice);
//! assert!(f.tensors.refused > 0); // float16 + float8_e4m3fn has no promotion path
//! assert_eq!(f.to_json()["verdict"], "partial-lattice");
//! ```

use serde_json::{json, Value};

use crate::op::Op;
use crate::policy::RulePolicy;

use super::{
    call_text, nary_laws, JoinAlgebra, NaryCase, NaryLaws, OperandAlgebra, TensorLaws, Triple,
    Verdict,
};

/// Everything `check` finds out about one policy.
///
/// ```
/// use promote::{analysis::check, builtin, Op};
/// let f = check(&builtin("numpy").unwrap(), Op::Add);
/// assert_eq!(f.name, "numpy");
/// assert!(f.join.names.iter().any(|n| n == "int8"));
/// ```
#[derive(Clone, Debug)]
pub struct Findings {
    /// The policy's name.
    pub name: String,
    /// Its framework.
    pub framework: String,
    /// Its join table as an algebra.
    pub join: JoinAlgebra,
    /// The op over tensors alone.
    pub tensors: TensorLaws,
    /// The op over whole operands.
    pub calls: OperandAlgebra,
    /// For an op of any number of operands: whole calls of three against their pairwise fold
    /// and their other orders.
    pub nary: Option<NaryLaws>,
}

/// The JSON of an n-ary op's laws.
fn nary_json(n: &NaryLaws) -> Value {
    let case = |c: &NaryCase| {
        json!({
            "call": call_text(c.call.op, &c.call.operands),
            "answer": c.answer.to_string(),
            "other": c.other,
            "other_answer": c.other_answer.to_string(),
        })
    };
    json!({
        "calls": n.calls,
        "not_a_fold": n.not_a_fold.count,
        "not_a_fold_examples": n.not_a_fold.examples.iter().map(case).collect::<Vec<_>>(),
        "order_matters": n.order_matters.count,
        "order_matters_examples": n.order_matters.examples.iter().map(case).collect::<Vec<_>>(),
    })
}

/// Check a policy's join table, and one op over its operands.
///
/// ```
/// use promote::{analysis::{check, Verdict}, builtin, Op};
/// let f = check(&builtin("jax").unwrap(), Op::Add);
/// assert_eq!(f.join.verdict(), Verdict::PartialLattice);
/// ```
pub fn check(p: &RulePolicy, op: Op) -> Findings {
    let calls = OperandAlgebra::of(p, op);
    Findings {
        tensors: calls.tensor_laws(),
        name: p.name.clone(),
        framework: p.framework.clone(),
        join: JoinAlgebra::of(p),
        calls,
        nary: nary_laws(p, op),
    }
}

impl Findings {
    /// The table is a lattice and the op is commutative and associative over operands
    /// (`promote check --strict` passes).
    ///
    /// ```
    /// use promote::{analysis::check, builtin, Op};
    /// assert!(!check(&builtin("torch").unwrap(), Op::Add).clean());
    /// ```
    pub fn clean(&self) -> bool {
        self.join.verdict().is_lattice()
            && self.calls.not_commutative.is_empty()
            && self.calls.assoc_differ.is_empty()
            && self.calls.assoc_one_sided.is_empty()
            && self
                .nary
                .as_ref()
                .is_none_or(|n| n.not_a_fold.is_empty() && n.order_matters.is_empty())
    }

    /// The JSON object of `promote check --format json`.
    ///
    /// ```
    /// use promote::{analysis::check, builtin, Op};
    /// let j = check(&builtin("jax").unwrap(), Op::Add).to_json();
    /// assert_eq!(j["verdict"], "partial-lattice");
    /// ```
    pub fn to_json(&self) -> Value {
        let f = self;
        let j = &f.join;
        let c = &f.calls;
        let names = |v: &[usize]| v.iter().map(|&i| j.names[i].clone()).collect::<Vec<_>>();
        let jt = |t: &Triple<usize>| json!({"a": j.names[t.a], "b": j.names[t.b], "c": j.names[t.c], "ab": j.name(t.ab), "left": j.name(t.left), "bc": j.name(t.bc), "right": j.name(t.right)});
        let ct = |t: &Triple<usize>| json!({"a": c.text(Some(t.a)), "b": c.text(Some(t.b)), "c": c.text(Some(t.c)), "ab": c.ab_text(t.a, t.b), "left": t.ab.map(|x| c.ab_text(x, t.c)), "bc": c.ab_text(t.b, t.c), "right": t.bc.map(|y| c.ab_text(t.a, y))});
        let verdict = j.verdict();
        json!({
            "policy": f.name,
            "framework": f.framework,
            "nodes": j.names,
            "verdict": short_verdict(&verdict),
            "verdict_text": verdict.to_string(),
            "join": {
                "missing": j.missing.iter().map(|&(a, b)| [j.names[a].clone(), j.names[b].clone()]).collect::<Vec<_>>(),
                "not_commutative": j.not_commutative.count,
                "not_associative": j.assoc_differ.count,
                "not_associative_examples": j.assoc_differ.examples.iter().map(jt).collect::<Vec<_>>(),
                "grouping_decides_refusal": j.assoc_one_sided.count,
                "grouping_decides_refusal_examples": j.assoc_one_sided.examples.iter().map(jt).collect::<Vec<_>>(),
                "partial_order": j.order.is_partial_order(),
                "bottom": j.order.bottom.map(|b| j.names[b].clone()),
                "top": j.order.top.map(|b| j.names[b].clone()),
                "hasse": j.order.covers().iter().map(|&(a, b)| names(&[a, b])).collect::<Vec<_>>(),
            },
            "tensors": {
                "pairs": f.tensors.pairs,
                "refused": f.tensors.refused,
                "not_commutative": f.tensors.not_commutative,
                "not_associative": f.tensors.assoc_differ,
                "grouping_decides_refusal": f.tensors.assoc_one_sided,
            },
            "calls": {
                "op": c.op.name(),
                "operands": c.operands[..c.base].iter().map(|o| o.to_string()).collect::<Vec<_>>(),
                "triples": c.triples,
                "not_commutative": c.not_commutative.count,
                "not_associative": c.assoc_differ.count,
                "not_associative_examples": c.assoc_differ.examples.iter().map(ct).collect::<Vec<_>>(),
                "grouping_decides_refusal": c.assoc_one_sided.count,
                "grouping_decides_refusal_examples": c.assoc_one_sided.examples.iter().map(ct).collect::<Vec<_>>(),
                "python_folds": c.assoc_python.count,
                "kernel_or_overflow": c.assoc_kernel.count,
            },
            "nary": f.nary.as_ref().map(nary_json),
        })
    }
}

/// The verdict as one word for machines.
pub(crate) fn short_verdict(v: &Verdict) -> &'static str {
    match v {
        Verdict::Lattice => "lattice",
        Verdict::JoinSemilattice => "join-semilattice",
        Verdict::PartialLattice => "partial-lattice",
        Verdict::NotALattice(_) => "not-a-lattice",
    }
}
