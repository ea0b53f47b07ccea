//! The diff of two policies (`promote diff`) as a value: every call over a grid of operands
//! where their answers differ, grouped by operand kinds and op.
//!
//! ```
//! use promote::analysis::{diff, DiffOptions};
//! let (torch, jax) = (promote::builtin("torch").unwrap(), promote::builtin("jax").unwrap());
//! let d = diff(&torch, &jax, &DiffOptions::default());
//! assert!(d.differ() > 0 && d.differ() < d.cells());
//! for x in d.differences() {
//!     assert_ne!(x.a, x.b, "{}", x.call); // each difference names the call and both answers
//! }
//! ```

use std::sync::Arc;

use serde_json::{json, Value};

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::{Call, Op, OpForm};
use crate::operand::{Literal, Operand};
use crate::policy::{self, RulePolicy};

use super::{outcome, Outcome};

/// The Python scalars every diff tries: small and large ints of both signs (the edges of the
/// integer dtypes, where value-based rules and overflow checks differ), floats beyond float16 and
/// float32, and a complex.
pub const LITERALS: &[&str] = &[
    "True",
    "1",
    "-1",
    "200",
    "300",
    "-300",
    "70000",
    "2147483648",
    "9223372036854775808",
    "18446744073709551616",
    "1.0",
    "1e+39",
    "1j",
];

/// What to compare.
///
/// ```
/// use promote::analysis::DiffOptions;
/// let o = DiffOptions::default();
/// assert_eq!((o.ops.len(), o.ignore_weak), (1, false));
/// ```
#[derive(Clone, Debug)]
pub struct DiffOptions {
    /// The ops compared, in this order.
    pub ops: Vec<Op>,
    /// Count a result that only one policy marks weak as the same answer.
    pub ignore_weak: bool,
}

impl Default for DiffOptions {
    /// `add`, weakness counted.
    fn default() -> Self {
        DiffOptions {
            ops: vec![Op::parse("add").expect("add is an op")],
            ignore_weak: false,
        }
    }
}

/// One call the two policies answer differently.
///
/// ```
/// use promote::{analysis::{diff, outcome, DiffOptions}, builtin};
/// let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
/// let d = diff(&torch, &jax, &DiffOptions::default());
/// let x = d.differences().next().unwrap();
/// assert_eq!(x.a, outcome(&*torch, &x.call));
/// assert_ne!(x.a, x.b);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// The call.
    pub call: Call,
    /// The first policy's answer.
    pub a: Outcome,
    /// The second policy's answer.
    pub b: Outcome,
}

/// One group of calls: an op over operands of two kinds (`tensor · Python scalar`).
///
/// ```
/// use promote::{analysis::{diff, DiffOptions}, builtin};
/// let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
/// let d = diff(&torch, &jax, &DiffOptions::default());
/// assert_eq!(d.groups.iter().map(|g| g.diffs.len()).sum::<usize>(), d.differ());
/// ```
#[derive(Clone, Debug)]
pub struct DiffGroup {
    /// The operand kinds, in call order (`tensor · 0-d tensor`).
    pub kinds: &'static str,
    /// The op.
    pub op: Op,
    /// How many calls were compared.
    pub cells: usize,
    /// The calls whose answers differ.
    pub diffs: Vec<Difference>,
}

/// Two policies compared.
///
/// ```
/// use promote::{analysis::{diff, DiffOptions}, builtin};
/// let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
/// let d = diff(&torch, &jax, &DiffOptions::default());
/// assert_eq!((d.a.as_str(), d.b.as_str()), ("torch", "jax"));
/// ```
#[derive(Clone, Debug)]
pub struct Diff {
    /// The first policy's name.
    pub a: String,
    /// The second policy's name.
    pub b: String,
    /// Dtypes only the first policy has (left out of the grid).
    pub only_a: Vec<DType>,
    /// Dtypes only the second policy has (left out of the grid).
    pub only_b: Vec<DType>,
    /// The groups, op by op.
    pub groups: Vec<DiffGroup>,
}

impl Diff {
    /// Calls compared.
    ///
    /// ```
    /// use promote::{analysis::{diff, DiffOptions}, builtin};
    /// let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
    /// let d = diff(&torch, &jax, &DiffOptions::default());
    /// assert!(d.cells() > d.differ());
    /// ```
    pub fn cells(&self) -> usize {
        self.groups.iter().map(|g| g.cells).sum()
    }
    /// Calls whose answers differ.
    ///
    /// ```
    /// use promote::{analysis::{diff, DiffOptions}, builtin};
    /// let torch = builtin("torch").unwrap();
    /// assert_eq!(diff(&torch, &torch, &DiffOptions::default()).differ(), 0);
    /// ```
    pub fn differ(&self) -> usize {
        self.groups.iter().map(|g| g.diffs.len()).sum()
    }
    /// Every difference, group by group.
    ///
    /// ```
    /// use promote::{analysis::{diff, DiffOptions}, builtin};
    /// let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
    /// let d = diff(&torch, &jax, &DiffOptions::default());
    /// assert_eq!(d.differences().count(), d.differ());
    /// ```
    pub fn differences(&self) -> impl Iterator<Item = &Difference> {
        self.groups.iter().flat_map(|g| &g.diffs)
    }
    /// The report of `promote diff --format json`.
    ///
    /// ```
    /// use promote::{analysis::{diff, DiffOptions}, builtin};
    /// let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
    /// let j = diff(&torch, &jax, &DiffOptions::default()).to_json();
    /// assert!(j.is_object());
    /// ```
    pub fn to_json(&self) -> Value {
        json!({
            "a": self.a,
            "b": self.b,
            "cells": self.cells(),
            "differ": self.differ(),
            "groups": self.groups.iter().map(|g| json!({
                "op": g.op.name(),
                "operands": g.kinds,
                "cells": g.cells,
                "differ": g.diffs.len(),
                "diffs": g.diffs.iter().map(|d| json!({"call": d.call.to_string(), "a": d.a.to_string(), "b": d.b.to_string()})).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }
}

/// Compare two policies on every call of [`calls`], op by op.
///
/// ```
/// use promote::{analysis::{diff, DiffOptions}, builtin};
/// let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
/// let all = diff(&torch, &jax, &DiffOptions::default());
/// let weakless = DiffOptions { ignore_weak: true, ..DiffOptions::default() };
/// assert!(diff(&torch, &jax, &weakless).differ() < all.differ());
/// ```
pub fn diff(a: &RulePolicy, b: &RulePolicy, o: &DiffOptions) -> Diff {
    let only = |x: &RulePolicy, y: &RulePolicy| {
        DType::ALL
            .iter()
            .copied()
            .filter(|d| x.has(*d) && !y.has(*d))
            .collect()
    };
    Diff {
        a: a.name.clone(),
        b: b.name.clone(),
        only_a: only(a, b),
        only_b: only(b, a),
        groups: o
            .ops
            .iter()
            .flat_map(|&op| compare(a, b, op, o.ignore_weak))
            .collect(),
    }
}

fn compare(a: &RulePolicy, b: &RulePolicy, op: Op, ignore_weak: bool) -> Vec<DiffGroup> {
    let norm = |o: Outcome| match o {
        Outcome::Value(d, _) if ignore_weak => Outcome::Value(d, false),
        o => o,
    };
    calls(a, b, op)
        .into_iter()
        .map(|(kinds, cs)| {
            let cells = cs.len();
            let diffs = cs
                .into_iter()
                .filter_map(|call| {
                    let (x, y) = (outcome(a, &call), outcome(b, &call));
                    (norm(x.clone()) != norm(y.clone())).then_some(Difference { call, a: x, b: y })
                })
                .collect();
            DiffGroup {
                kinds,
                op,
                cells,
                diffs,
            }
        })
        .collect()
}

/// Ops by name: one, several separated by commas, or `all`.
///
/// ```
/// let ops = promote::analysis::parse_ops("add, divide").unwrap();
/// assert_eq!(ops.iter().map(|o| o.name()).collect::<Vec<_>>(), ["add", "divide"]);
/// ```
pub fn parse_ops(s: &str) -> Result<Vec<Op>, PromoteError> {
    if s == "all" {
        return Ok(Op::all());
    }
    s.split(',').map(|o| Op::parse(o.trim())).collect()
}

/// A built-in policy by name, or a policy file (a path ending in `.toml`, or any existing file);
/// `NAME:FORM` is one entry point of it as a policy of its own ([`RulePolicy::as_form`]):
/// `tf:function`, `tf:operator`; `NAME@KEY=VALUE` is it under framework settings
/// ([`RulePolicy::with_settings`]): `torch@default_float=float64`, `jax@enable_x64=true`.
///
/// ```
/// use promote::analysis::load_policy;
/// assert_eq!(load_policy("torch").unwrap().name, "torch");
/// assert_eq!(load_policy(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/jax.toml")).unwrap().name, "jax");
/// assert!(load_policy("tourch").is_err());
/// ```
pub fn load_policy(name: &str) -> Result<Arc<RulePolicy>, PromoteError> {
    if name.ends_with(".toml") || std::path::Path::new(name).is_file() {
        return policy::load_file(std::path::Path::new(name)).map(Arc::new);
    }
    match name.rsplit_once(':') {
        // `tf:function`: one entry point of a policy, as a policy of its own
        Some((base, form)) => {
            let form = crate::op::Form::parse(form)?;
            load_policy(base)?.as_form(form).map(Arc::new)
        }
        // `torch@default_float=float64`: a policy under framework settings (`@KEY=VALUE` each)
        None => match name.split_once('@') {
            Some((base, set)) => {
                let pairs = set
                    .split('@')
                    .map(|kv| {
                        kv.split_once('=').ok_or_else(|| {
                            PromoteError::invalid(format!(
                                "`{kv}` in `{name}` is not KEY=VALUE: write e.g. torch@default_float=float64"
                            ))
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                load_policy(base)?.with_settings(&pairs)
            }
            None => policy::builtin(name),
        },
    }
}

type Operands = Vec<Vec<Operand>>;

/// The groups of calls compared for one op over the dtypes both policies have: tensors, 0-d
/// tensors and the [`LITERALS`] in both orders, and weak tensors where either policy has them;
/// a one-operand op over tensors (a reduction also with each dtype as its `dtype=` argument);
/// matmul over tensors alone.
///
/// ```
/// use promote::{analysis::calls, builtin, Op};
/// let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
/// let groups = calls(&torch, &jax, Op::Add);
/// assert!(groups.iter().all(|(_, cs)| cs.iter().all(|c| c.op == Op::Add)));
/// ```
pub fn calls(a: &RulePolicy, b: &RulePolicy, op: Op) -> Vec<(&'static str, Vec<Call>)> {
    let ds: Vec<DType> = DType::ALL
        .iter()
        .copied()
        .filter(|d| a.has(*d) && b.has(*d))
        .collect();
    let lits: Vec<Literal> = LITERALS
        .iter()
        .map(|s| Literal::parse(s).expect("literal"))
        .collect();
    let t = |d: DType| Operand::tensor(d);
    let z = |d: DType| Operand::zero_dim(d, None);
    let w = |d: DType| Operand::weak(d);
    let pairs = |f: &dyn Fn(DType) -> Operand, g: &dyn Fn(DType) -> Operand| -> Operands {
        ds.iter()
            .flat_map(|&x| ds.iter().map(move |&y| vec![f(x), g(y)]))
            .collect()
    };
    let with_lits = |f: &dyn Fn(DType) -> Operand, first: bool| -> Operands {
        let l = |x: &Literal| Operand::Literal(x.clone());
        ds.iter()
            .flat_map(|&x| {
                lits.iter().map(move |y| {
                    if first {
                        vec![f(x), l(y)]
                    } else {
                        vec![l(y), f(x)]
                    }
                })
            })
            .collect()
    };
    let mut groups: Vec<(&'static str, Operands)> = Vec::new();
    if op.arity() == 1 {
        groups.push(("tensor", ds.iter().map(|&d| vec![t(d)]).collect()));
    } else if op.name() == "matmul" {
        groups.push(("tensor · tensor", pairs(&t, &t)));
    } else {
        groups.push(("tensor · tensor", pairs(&t, &t)));
        groups.push(("tensor · 0-d tensor", pairs(&t, &z)));
        groups.push(("0-d tensor · tensor", pairs(&z, &t)));
        groups.push(("0-d tensor · 0-d tensor", pairs(&z, &z)));
        groups.push(("tensor · Python scalar", with_lits(&t, true)));
        groups.push(("Python scalar · tensor", with_lits(&t, false)));
        if has_weak(a) || has_weak(b) {
            groups.push(("tensor · weak tensor", pairs(&t, &w)));
            groups.push(("weak tensor · tensor", pairs(&w, &t)));
            groups.push(("weak tensor · weak tensor", pairs(&w, &w)));
            groups.push(("weak tensor · Python scalar", with_lits(&w, true)));
        }
    }
    let call = |ops| Call::new(op, ops, None).ok();
    let mut out: Vec<(&'static str, Vec<Call>)> = groups
        .into_iter()
        .map(|(k, v)| (k, v.into_iter().filter_map(call).collect()))
        .collect();
    if op.info().form == OpForm::Reduction {
        let with_arg = |(x, d): (DType, DType)| {
            let mut c = Call::new(op, vec![t(x)], None).ok()?;
            c.dtype = Some(d);
            Some(c)
        };
        let cells = ds.iter().flat_map(|&x| ds.iter().map(move |&d| (x, d)));
        out.push(("tensor, dtype=", cells.filter_map(with_arg).collect()));
    }
    out
}

fn has_weak(p: &RulePolicy) -> bool {
    p.nodes.iter().any(|n| n.weak)
}
