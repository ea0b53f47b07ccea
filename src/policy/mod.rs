//! Policies: how one framework promotes.
//!
//! A policy is data (a TOML file in `policies/`, see `policies/README.md`). [`compile`] checks
//! it and turns it into a [`RulePolicy`]: the lattice or table becomes a dense join table over
//! *nodes* (the 15 dtypes plus the policy's weak nodes such as JAX's `i*`), the per-op rules
//! become one array lookup per op, so resolving two tensors is a couple of loads.
//!
//! The flow of [`Policy::resolve`]: operands → nodes (tensor dtypes, weak nodes, literal nodes)
//! → the promoted node (a `join` over all of them, or PyTorch/NumPy-style `categories`) → the
//! literal range checks → the op's rule (compute dtype, result dtype, refusals) → the cast into
//! `out`. Every stage appends a [`Step`] saying what it decided.

pub mod lattice;
pub mod spec;
pub mod table;

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use crate::dtype::{DType, Kind};
use crate::error::{suggest, PromoteError};
use crate::op::{Call, Op};
use crate::operand::{Literal, LiteralKind, Operand, OperandClass};
use crate::plan::{Plan, Step};
use toml::Spanned;

/// What every policy does: resolve a call into a plan, or refuse with a typed error.
///
/// ```
/// use promote::{builtin, Policy, Call, DType};
/// let jax = builtin("jax").unwrap();
/// let plan = jax.resolve(&"add int8 1.0".parse::<Call>().unwrap()).unwrap();
/// assert_eq!((plan.result, plan.weak), (DType::Float32, true));
/// ```
pub trait Policy: Send + Sync {
    /// The policy's name (`torch`, `jax-x64`, ...).
    fn name(&self) -> &str;
    /// The framework and version it reproduces.
    fn framework(&self) -> &str;
    /// The dtypes the framework has.
    fn dtypes(&self) -> &[DType];
    /// Resolve a call into a full plan, with the steps that explain it.
    fn resolve(&self, call: &Call) -> Result<Plan, PromoteError>;

    /// Only the answer of the machine interface: the result dtype and weak flag. Cheaper than
    /// [`Policy::resolve`] (no explanation is written; two strong tensors are one table load).
    ///
    /// ```
    /// use promote::{builtin, Call, DType, Policy};
    /// let t = builtin("torch").unwrap();
    /// let call: Call = "add int8 uint8".parse().unwrap();
    /// assert_eq!(t.result(&call).unwrap(), (DType::Int16, false));
    /// ```
    fn result(&self, call: &Call) -> Result<(DType, bool), PromoteError> {
        self.resolve(call).map(|p| (p.result, p.weak))
    }
}

/// A dense `n × n` join table over node indices; `None` is "does not promote".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinTable {
    n: usize,
    cells: Vec<u8>,
}

const NEVER: u8 = u8::MAX;

impl JoinTable {
    fn new(n: usize) -> JoinTable {
        assert!(n < NEVER as usize, "at most 254 nodes");
        JoinTable {
            n,
            cells: vec![NEVER; n * n],
        }
    }
    fn set(&mut self, a: usize, b: usize, v: Option<usize>) {
        self.cells[a * self.n + b] = v.map_or(NEVER, |x| x as u8);
    }
    /// The join of nodes `a` and `b`.
    #[inline]
    pub fn join(&self, a: usize, b: usize) -> Option<usize> {
        match self.cells[a * self.n + b] {
            NEVER => None,
            x => Some(x as usize),
        }
    }
    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.n
    }
    /// No nodes.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// A node of a policy's promotion graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Its name (`int8`, `i*`).
    pub name: String,
    /// The dtype a result at this node gets.
    pub dtype: DType,
    /// Whether a result at this node is weakly typed.
    pub weak: bool,
    /// The node stands for a dtype outside the 15 (a table's `!` cell: PyTorch's complex32, OneFlow's int128).
    pub outside: bool,
}

/// How the promoted node is found.
#[derive(Clone, Debug)]
pub enum Scheme {
    /// The join of every operand's node.
    Join {
        /// JAX: when all operands are weak, join their dtypes as strong ones, result weak.
        all_weak_join_dtypes: bool,
    },
    /// Operands grouped by class into prioritised categories (PyTorch, NumPy).
    Categories(Categories),
}

/// The parameters of the `categories` scheme.
#[derive(Clone, Debug)]
pub struct Categories {
    /// Category of each class (index by [`class_index`]); `None`: the class is not accepted.
    pub category: [Option<usize>; 4],
    /// Number of categories.
    pub count: usize,
    /// What a lower category of no higher kind contributes: its value's smallest dtype (NumPy 1).
    pub lower_by_value: bool,
    /// A float meeting a lower complex: its complex counterpart (PyTorch); `Outside` where
    /// that counterpart is none of the 15 (complex32).
    pub float_meets_complex: [Option<Meet>; 15],
    /// A bool or int meeting a lower complex takes the complex as it is (PyTorch).
    pub int_meets_complex_lower: bool,
    /// The rank of each kind (bool, unsigned, signed, float, complex) when categories compare.
    pub rank: [u8; 5],
    /// How each category merges into the higher ones.
    pub merge: Vec<Merge>,
}

/// How a lower category merges into a higher one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    /// By kind: it matters only when of a higher kind (PyTorch, NumPy).
    Kind,
    /// Never: it contributes nothing (OneFlow's 0-d tensors).
    Nothing,
    /// Always: the join of the two (OneFlow's Python scalars, through the table's scalar rows).
    Join,
    /// The join when the kinds differ, nothing when they are the same (Paddle's 0-d tensors).
    Differ,
}

impl Categories {
    fn rank(&self, d: DType) -> u8 {
        self.rank[d.kind() as usize]
    }
}

fn class_index(c: OperandClass) -> usize {
    match c {
        OperandClass::Tensor => 0,
        OperandClass::ZeroDim => 1,
        OperandClass::Weak => 2,
        OperandClass::Literal => 3,
    }
}

/// A float meeting a lower complex category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meet {
    DType(DType),
    Outside,
}

/// Where a literal's value is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeTarget {
    /// The dtype of the literal's own node.
    Node,
    /// The promoted dtype.
    Promoted,
    /// The dtype the op computes in.
    Compute,
    /// The dtype of the literal's own node, checked last: the framework reports the overflow only
    /// when nothing else failed (OneFlow leaves Python's OverflowError pending).
    Deferred,
}

/// Literal range checks.
#[derive(Clone, Debug, Default)]
pub struct Range {
    pub int: Vec<RangeTarget>,
    pub float: Vec<RangeTarget>,
}

/// What an op does with a promoted dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Compute in this dtype.
    Compute(DType),
    /// Refuse.
    Unsupported,
}

/// The steps of a resolution, recorded only when someone will read them.
struct Trace {
    on: bool,
    steps: Vec<Step>,
}

impl Trace {
    fn new(on: bool) -> Trace {
        Trace {
            on,
            steps: Vec::new(),
        }
    }
    #[inline]
    fn note(&mut self, rule: &'static str, detail: impl FnOnce() -> String) {
        if self.on {
            self.steps.push(Step {
                rule,
                detail: detail(),
            });
        }
    }
}

/// One join of the promotion graph.
enum Joined {
    Node(usize),
    Never,
    Outside,
}

/// An op's compiled rule.
#[derive(Clone, Debug)]
pub struct OpRule {
    /// Promoted dtype → action.
    pub action: [Action; 15],
    /// Result dtype (comparisons: bool); `None`: the compute dtype.
    pub result: Option<DType>,
    /// Tensors must share one dtype.
    pub same_dtype: bool,
    /// Weak stays weak.
    pub keep_weak: bool,
    /// Literal range override.
    pub range: Option<Range>,
    /// Where the rules come from.
    pub sources: Vec<String>,
    /// Result where the promoted dtype lies outside the 15 (`None`: unsupported).
    pub outside: Option<DType>,
    /// The op's loops, searched in order instead of promoting (NumPy 1's default resolver).
    pub loops: Option<Vec<DType>>,
    /// How this op takes Python literals, where it differs from the policy's `[operands]`.
    pub literal: [Option<Vec<usize>>; 4],
    /// The op ignores `out`: the framework rebinds instead of writing in place (OneFlow's `//=`).
    pub ignore_out: bool,
    /// A weak result stays weak only when every operand is 0-d or a literal (JAX's logical ops).
    pub weak_only_scalars: bool,
    /// A weak result takes the default dtype of its kind (JAX's matmul: `dtypes.result_type`).
    pub weak_default: bool,
}

/// The `out` casting rule.
#[derive(Clone, Debug)]
pub enum OutRule {
    /// Any cast.
    Any,
    /// Only the same dtype.
    Equal,
    /// The result must promote to `out` itself.
    Safe,
    /// A result may be cast to a dtype of the same or a later kind level.
    Kinds([u8; 5], String),
    /// Nothing is cast: the destination takes the result's dtype (Paddle rebinds it).
    Rebind,
}

/// When a corner rule is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Before the literals are converted (an API refusing a Python scalar).
    Arguments,
    /// Before promotion, after the literals are converted.
    Operands,
    /// After promotion, before the op's own dtype rule.
    Promoted,
    /// After the op's dtype rule.
    Computed,
}

/// What a corner rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// This error.
    Error(crate::ErrorKind),
    /// The promoted dtype, skipping the op's refusals.
    Accept,
    /// This result dtype.
    DType(DType),
    /// The first operand's dtype.
    First,
    /// The second operand's dtype.
    Second,
    /// Promote the operands' dtypes through the table (no categories) and go on.
    Join,
    /// The `out` dtype.
    Out,
    /// The dtype the op computes in.
    Compute,
}

/// A target dtype of a fits / not_fits condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitTarget {
    DType(DType),
    Compute,
}

/// Conditions on one operand.
#[derive(Clone, Debug, Default)]
pub struct Matcher {
    class: Option<[bool; 4]>,
    dtype: Option<[bool; 15]>,
    literal: Option<[bool; 4]>,
    values: Vec<(f64, f64)>,
    negative: Option<bool>,
    not_fits: Vec<FitTarget>,
    fits: Option<FitTarget>,
    wraps_to_zero: Option<bool>,
}

/// A compiled corner rule.
#[derive(Clone, Debug)]
pub struct CornerRule {
    ops: u32,
    pub at: Stage,
    any: Option<Matcher>,
    first: Option<Matcher>,
    second: Option<Matcher>,
    other: Option<Matcher>,
    out: Option<bool>,
    out_is_first: Option<bool>,
    promoted_is_first: Option<bool>,
    same_dtypes: Option<bool>,
    out_dtype: Option<[bool; 15]>,
    weak: Option<bool>,
    /// The weak flag of a decided result (default: the first operand's for `first`, else false).
    pub weak_result: Option<bool>,
    promoted: Option<[bool; 15]>,
    compute: Option<[bool; 15]>,
    pub then: Then,
    pub source: String,
}

/// Whether a value fits a dtype: ints by range, floats by magnitude (inf and nan fit).
fn value_fits(v: &Literal, d: DType) -> bool {
    match (v, d.int_range()) {
        (Literal::Int(i), Some(_)) => i.fits(d),
        (Literal::Bool(_), Some(_)) => true,
        (_, Some(_)) => false,
        _ => {
            let m = d.float_max().unwrap_or(f64::MAX);
            let (re, im) = v.to_complex();
            [re, im].iter().all(|x| !x.is_finite() || x.abs() <= m)
        }
    }
}

impl Matcher {
    fn matches(&self, i: &Input, compute: DType) -> bool {
        if let Some(c) = &self.class {
            if !c[class_index(i.class)] {
                return false;
            }
        }
        if let Some(d) = &self.dtype {
            if !d[i.dtype.index()] {
                return false;
            }
        }
        let lit = i.operand.literal();
        if let Some(k) = &self.literal {
            match lit {
                Some(l) if k[l.kind() as usize] => {}
                _ => return false,
            }
        }
        let needs_value = !self.values.is_empty()
            || self.negative.is_some()
            || !self.not_fits.is_empty()
            || self.fits.is_some()
            || self.wraps_to_zero.is_some();
        if !needs_value {
            return true;
        }
        let Some(v) = i.operand.value() else {
            return false;
        };
        let (re, im) = v.to_complex();
        if !self.values.is_empty() && !self.values.iter().any(|&(a, b)| a == re && b == im) {
            return false;
        }
        if let Some(n) = self.negative {
            let neg = match &v {
                Literal::Int(x) => x.is_negative(),
                _ => re < 0.0,
            };
            if neg != n {
                return false;
            }
        }
        let target = |t: FitTarget| match t {
            FitTarget::DType(d) => d,
            FitTarget::Compute => compute,
        };
        if self.not_fits.iter().any(|t| value_fits(&v, target(*t))) {
            return false;
        }
        if let Some(t) = self.fits {
            if !value_fits(&v, target(t)) {
                return false;
            }
        }
        if let Some(w) = self.wraps_to_zero {
            let zero = match (&v, compute.int_range()) {
                (Literal::Bool(b), Some(_)) => !b,
                (Literal::Int(x), Some(_)) if compute == DType::Bool => x.exact() == Some(0),
                (Literal::Int(x), Some(_)) => {
                    let bits = compute.bits();
                    match x.exact() {
                        Some(e) => e.rem_euclid(1i128 << bits) == 0,
                        // beyond i128: only exact multiples matter; treat as nonzero unless its text ends in enough zeros
                        None => false,
                    }
                }
                _ => false,
            };
            if zero != w {
                return false;
            }
        }
        true
    }
}

impl CornerRule {
    fn applies(
        &self,
        call: &Call,
        ins: &[Input],
        promoted: Option<DType>,
        compute: Option<DType>,
        weak: bool,
    ) -> bool {
        if self.ops & (1 << call.op as u32) == 0 {
            return false;
        }
        if self.weak.is_some_and(|w| w != weak || promoted.is_none()) {
            return false;
        }
        if self.out.is_some_and(|o| o != call.out.is_some()) {
            return false;
        }
        if let Some(want) = self.out_is_first {
            let Some(out) = call.out else { return false };
            if (call.operands.first().and_then(|o| o.dtype()) == Some(out)) != want {
                return false;
            }
        }
        let c = compute.or(promoted).unwrap_or(DType::Bool);
        if let Some(want) = self.same_dtypes {
            if ins.iter().all(|i| i.dtype == ins[0].dtype) != want {
                return false;
            }
        }
        if let Some(sel) = &self.out_dtype {
            if !call.out.is_some_and(|o| sel[o.index()]) {
                return false;
            }
        }
        if let Some(want) = self.promoted_is_first {
            let first = ins.first().map(|i| i.dtype);
            if promoted.is_none() || (promoted == first) != want {
                return false;
            }
        }
        if let (Some(sel), Some(p)) = (&self.promoted, promoted) {
            if !sel[p.index()] {
                return false;
            }
        }
        if let (Some(sel), Some(cd)) = (&self.compute, compute) {
            if !sel[cd.index()] {
                return false;
            }
        }
        if let Some(m) = &self.any {
            let hit = ins.iter().enumerate().any(|(k, i)| {
                m.matches(i, c)
                    && self.other.as_ref().is_none_or(|o| {
                        ins.iter()
                            .enumerate()
                            .any(|(j, x)| j != k && o.matches(x, c))
                    })
            });
            if !hit {
                return false;
            }
        }
        if let Some(m) = &self.first {
            if !ins.first().is_some_and(|i| m.matches(i, c)) {
                return false;
            }
        }
        if let Some(m) = &self.second {
            if !ins.get(1).is_some_and(|i| m.matches(i, c)) {
                return false;
            }
        }
        true
    }
}

/// A compiled, data-driven policy: the one built-in implementation of [`Policy`].
#[derive(Clone, Debug)]
pub struct RulePolicy {
    pub name: String,
    pub framework: String,
    pub description: String,
    pub provenance: String,
    dtypes: Vec<DType>,
    available: [bool; 15],
    pub default_int: DType,
    pub default_float: DType,
    pub default_complex: DType,
    canonical: [DType; 15],
    pub nodes: Vec<Node>,
    pub join: JoinTable,
    /// `lattice` or `table`.
    pub join_source: &'static str,
    literal_node: [Vec<usize>; 4],
    weak_node: [usize; 15],
    pub scheme: Scheme,
    range: Range,
    ops: Vec<OpRule>,
    pub out: OutRule,
    out_source: String,
    out_first: bool,
    /// Corner rules, in order.
    pub rules: Vec<CornerRule>,
    /// Every op over two strong tensors (sum: one), resolved once: dtype index | 0x80 if weak.
    fast: Vec<u8>,
}

/// Operand as the engine sees it.
#[derive(Clone, Debug)]
struct Input<'a> {
    class: OperandClass,
    /// Node it enters the promotion at.
    node: usize,
    /// The dtype that node stands for.
    dtype: DType,
    weak: bool,
    operand: &'a Operand,
}

impl Policy for RulePolicy {
    fn name(&self) -> &str {
        &self.name
    }
    fn framework(&self) -> &str {
        &self.framework
    }
    fn dtypes(&self) -> &[DType] {
        &self.dtypes
    }
    fn resolve(&self, call: &Call) -> Result<Plan, PromoteError> {
        self.resolve_call(call, true)
    }
    #[inline]
    fn result(&self, call: &Call) -> Result<(DType, bool), PromoteError> {
        if call.out.is_none() {
            let strong = |o: &Operand| match o {
                Operand::Tensor {
                    dtype,
                    weak: false,
                    zero_dim: false,
                    ..
                } => Some(dtype.index()),
                _ => None,
            };
            let key = match call.operands.as_slice() {
                [a, b] => strong(a).zip(strong(b)),
                [a] => strong(a).map(|a| (a, 0)),
                _ => None,
            };
            if let Some((a, b)) = key {
                let cell = self.fast[(call.op as usize * 15 + a) * 15 + b];
                if cell != FAST_SLOW {
                    return Ok((DType::ALL[(cell & 0x7f) as usize], cell & 0x80 != 0));
                }
            }
        }
        self.resolve_call(call, false).map(|p| (p.result, p.weak))
    }
}

/// A cell of the fast table that needs the full resolver (an error, with its message).
const FAST_SLOW: u8 = 0xff;

impl RulePolicy {
    /// Whether the framework has this dtype.
    pub fn has(&self, d: DType) -> bool {
        self.available[d.index()]
    }

    /// The dtype the framework silently replaces `d` by (JAX without x64: int64 → int32).
    pub fn canonical(&self, d: DType) -> DType {
        self.canonical[d.index()]
    }

    /// The compiled rule of an op.
    pub fn op_rule(&self, op: Op) -> &OpRule {
        &self.ops[op as usize]
    }

    /// Where the `out` rule comes from.
    pub fn out_source(&self) -> &str {
        &self.out_source
    }

    fn join_nodes(&self, a: usize, b: usize) -> Joined {
        match self.join.join(a, b) {
            None => Joined::Never,
            Some(n) if self.nodes[n].outside => Joined::Outside,
            Some(n) => Joined::Node(n),
        }
    }

    /// The promotion of two strong tensors, as the framework's table shows it (`None`: refused,
    /// or a dtype outside the 15).
    ///
    /// ```
    /// use promote::{builtin, DType};
    /// let t = builtin("torch").unwrap();
    /// assert_eq!(t.promote_types(DType::UInt8, DType::Int8), Some(DType::Int16));
    /// ```
    pub fn promote_types(&self, a: DType, b: DType) -> Option<DType> {
        let (a, b) = (self.canonical(a), self.canonical(b));
        match self.join_nodes(a.index(), b.index()) {
            Joined::Node(n) => Some(self.canonical(self.nodes[n].dtype)),
            _ => None,
        }
    }

    fn check_available(&self, d: DType) -> Result<(), PromoteError> {
        if self.has(d) {
            Ok(())
        } else {
            Err(PromoteError::DTypeMissing {
                policy: self.name.clone(),
                dtype: d.name().into(),
                available: self
                    .dtypes
                    .iter()
                    .map(|d| d.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    fn input<'a>(&self, o: &'a Operand, rule: &OpRule, steps: &mut Trace) -> Input<'a> {
        let class = o.class();
        match o {
            Operand::Literal(l) => {
                let cands = rule.literal[l.kind() as usize]
                    .as_ref()
                    .unwrap_or(&self.literal_node[l.kind() as usize]);
                let node = cands
                    .iter()
                    .copied()
                    .find(|&c| value_fits(l, self.nodes[c].dtype))
                    .unwrap_or(cands[cands.len() - 1]);
                let n = &self.nodes[node];
                steps.note("literal", || {
                    format!(
                        "Python {} {} enters as {}{}",
                        l.kind().name(),
                        l,
                        n.name,
                        if n.weak { " (weak)" } else { "" }
                    )
                });
                Input {
                    class,
                    node,
                    dtype: self.canonical(n.dtype),
                    weak: n.weak,
                    operand: o,
                }
            }
            Operand::Tensor { dtype, weak, .. } => {
                let d = self.canonical(*dtype);
                if d != *dtype {
                    steps.note("canonicalize", || {
                        format!("{} is {} in this mode", dtype, d)
                    });
                }
                if *weak {
                    let node = self.weak_node[d.index()];
                    let n = &self.nodes[node];
                    steps.note("weak", || {
                        format!("weakly typed {} enters as {}", d, n.name)
                    });
                    Input {
                        class,
                        node,
                        dtype: d,
                        weak: true,
                        operand: o,
                    }
                } else {
                    Input {
                        class,
                        node: d.index(),
                        dtype: d,
                        weak: false,
                        operand: o,
                    }
                }
            }
        }
    }

    fn node_name(&self, n: usize) -> &str {
        &self.nodes[n].name
    }

    fn no_promotion(&self, call: &Call, a: &str, b: &str, why: String) -> PromoteError {
        let ops: Vec<String> = call.operands.iter().map(|o| o.to_string()).collect();
        PromoteError::NoPromotion {
            policy: self.name.clone(),
            op: call.op.name().into(),
            operands: ops.join(" and "),
            rule: why,
            advice: format!("cast one operand explicitly so both share a dtype (e.g. the {a} operand with `.astype({b})` / `.to({b})`), or pick a policy mode that promotes"),
        }
    }

    /// The join over inputs for the `join` scheme: (dtype, weak).
    fn join_inputs(
        &self,
        call: &Call,
        ins: &[Input],
        all_weak_join_dtypes: bool,
        steps: &mut Trace,
    ) -> Result<(Option<DType>, bool), PromoteError> {
        if all_weak_join_dtypes && ins.iter().all(|i| i.weak) {
            let mut acc = ins[0].dtype.index();
            for i in &ins[1..] {
                acc = self.join.join(acc, i.dtype.index()).ok_or_else(|| {
                    self.no_promotion(
                        call,
                        ins[0].dtype.name(),
                        i.dtype.name(),
                        format!(
                            "no {} join of {} and {}",
                            self.join_source, ins[0].dtype, i.dtype
                        ),
                    )
                })?;
            }
            let d = self.canonical(self.nodes[acc].dtype);
            steps.note("weak", || format!("every operand is weak: their dtypes join as strong ones to {d}, and the result stays weak (a bool never is)"));
            return Ok((Some(d), d != DType::Bool));
        }
        let mut acc = ins[0].node;
        for i in &ins[1..] {
            let j = match self.join_nodes(acc, i.node) {
                Joined::Node(j) => j,
                Joined::Outside => return Ok((None, false)),
                Joined::Never => {
                    return Err(self.no_promotion(
                        call,
                        self.node_name(acc),
                        self.node_name(i.node),
                        format!(
                            "the {} has no join of {} and {}",
                            self.join_source,
                            self.node_name(acc),
                            self.node_name(i.node)
                        ),
                    ))
                }
            };
            if ins.len() > 1 {
                steps.note(self.join_source, || {
                    format!(
                        "join({}, {}) = {}",
                        self.node_name(acc),
                        self.node_name(i.node),
                        self.node_name(j)
                    )
                });
            }
            acc = j;
        }
        let n = &self.nodes[acc];
        let d = self.canonical(n.dtype);
        if n.weak {
            steps.note("weak", || {
                format!(
                    "{} is a weak node: the result is {} and weakly typed",
                    n.name, d
                )
            });
        }
        Ok((Some(d), n.weak))
    }

    /// The `categories` scheme.
    /// The operands grouped into the scheme's categories, highest first.
    fn group<'i, 'a>(
        &self,
        cs: &Categories,
        ins: &'i [Input<'a>],
    ) -> Result<Vec<Vec<&'i Input<'a>>>, PromoteError> {
        let mut cats: Vec<Vec<&Input>> = vec![Vec::new(); cs.count];
        for i in ins {
            let c = cs.category[class_index(i.class)].ok_or_else(|| {
                PromoteError::invalid(format!(
                    "{} has no {} operands ({}); pass a plain tensor",
                    self.name,
                    i.class.name(),
                    i.operand
                ))
            })?;
            cats[c].push(i);
        }
        Ok(cats)
    }

    /// NumPy 1's `should_use_min_scalar`: some operand of the top category, and no lower
    /// operand of a higher kind rank.
    fn use_min_scalar(&self, cs: &Categories, cats: &[Vec<&Input>]) -> bool {
        let top = cats[0].iter().map(|i| cs.rank(i.dtype)).max();
        let low = cats[1..].iter().flatten().map(|i| cs.rank(i.dtype)).max();
        matches!((top, low), (Some(t), Some(l)) if l <= t)
    }

    fn categorize(
        &self,
        call: &Call,
        ins: &[Input],
        cs: &Categories,
        steps: &mut Trace,
    ) -> Result<Option<DType>, PromoteError> {
        let cats = self.group(cs, ins)?;
        let fmc = &cs.float_meets_complex;
        let join = |a: usize, b: usize| -> Result<Option<usize>, PromoteError> {
            match self.join_nodes(a, b) {
                Joined::Node(n) => Ok(Some(n)),
                Joined::Outside => Ok(None),
                Joined::Never => Err(self.no_promotion(
                    call,
                    self.node_name(a),
                    self.node_name(b),
                    format!(
                        "the {} has no promotion of {} and {}",
                        self.join_source,
                        self.node_name(a),
                        self.node_name(b)
                    ),
                )),
            }
        };
        let dt = |n: usize| self.nodes[n].dtype;
        // (node, the category it last came from, its members)
        let mut acc: Option<(usize, usize, Vec<&Input>)> = None;
        for (ci, members) in cats.iter().enumerate().rev() {
            if members.is_empty() {
                continue;
            }
            if let Some((lower, _, _)) = &acc {
                let top = members
                    .iter()
                    .map(|m| m.dtype)
                    .max_by_key(|d| cs.rank(*d))
                    .expect("non-empty");
                if dt(*lower).kind() == Kind::Complex
                    && top.kind() == Kind::Float
                    && members.len() == 1
                    && fmc[top.index()] == Some(Meet::Outside)
                {
                    steps.note("category", || format!("{top} meeting a lower complex becomes its complex counterpart, which is none of the 15 dtypes"));
                    return Ok(None);
                }
            }
            let mut d = members[0].node;
            for m in &members[1..] {
                let Some(j) = join(d, m.node)? else {
                    return Ok(None);
                };
                d = j;
            }
            acc = Some(match acc.take() {
                None => (d, ci, members.clone()),
                Some((lower, lower_cat, lower_members)) => {
                    let (ld, hd) = (dt(lower), dt(d));
                    let combined = match cs.merge[lower_cat] {
                        Merge::Nothing => {
                            steps.note("category", || {
                                format!(
                                    "category {} ({}) ignores category {} ({})",
                                    ci + 1,
                                    hd,
                                    lower_cat + 1,
                                    ld
                                )
                            });
                            d
                        }
                        Merge::Differ if cs.rank(ld) == cs.rank(hd) => {
                            steps.note("category", || {
                                format!(
                                    "category {} ({}) ignores category {} ({}) of the same kind",
                                    ci + 1,
                                    hd,
                                    lower_cat + 1,
                                    ld
                                )
                            });
                            d
                        }
                        Merge::Join | Merge::Differ => {
                            let Some(j) = join(d, lower)? else {
                                return Ok(None);
                            };
                            steps.note("category", || {
                                format!(
                                    "category {} ({}) joins category {} ({}): {}",
                                    ci + 1,
                                    self.node_name(d),
                                    lower_cat + 1,
                                    self.node_name(lower),
                                    self.node_name(j)
                                )
                            });
                            j
                        }
                        Merge::Kind if cs.rank(ld) > cs.rank(hd) => {
                            let r = match (ld.kind(), hd.kind(), fmc[hd.index()]) {
                                (Kind::Complex, Kind::Float, Some(Meet::DType(c))) => c.index(),
                                (Kind::Complex, Kind::Bool | Kind::Signed | Kind::Unsigned, _)
                                    if cs.int_meets_complex_lower =>
                                {
                                    lower
                                }
                                _ => match join(d, lower)? {
                                    Some(j) => j,
                                    None => return Ok(None),
                                },
                            };
                            steps.note("category", || format!("category {} ({}) is of a higher kind than category {} ({}): {}", lower_cat + 1, ld, ci + 1, hd, dt(r)));
                            r
                        }
                        Merge::Kind if cs.lower_by_value => {
                            let mut r = hd;
                            for m in &lower_members {
                                let (ms, small) = min_scalar_type_of(m.operand);
                                // a "small unsigned" value also fits the signed type of its size, and
                                // counts as that next to anything but bool or unsigned
                                let ms = match (small, r.kind()) {
                                    (true, Kind::Signed | Kind::Float | Kind::Complex) => {
                                        signed_of(ms)
                                    }
                                    _ => ms,
                                };
                                let nr = self.promote_types(r, ms).ok_or_else(|| {
                                    self.no_promotion(
                                        call,
                                        r.name(),
                                        ms.name(),
                                        format!("no promotion of {r} and {ms}"),
                                    )
                                })?;
                                steps.note("value", || {
                                    format!(
                                        "{} counts by its value as {} (no higher kind than {}): {}",
                                        m.operand, ms, hd, nr
                                    )
                                });
                                r = nr;
                            }
                            r.index()
                        }
                        Merge::Kind => {
                            steps.note("category", || format!("category {} ({}) outranks category {} ({}) of no higher kind: {}", ci + 1, hd, lower_cat + 1, ld, hd));
                            d
                        }
                    };
                    let mut all = members.clone();
                    all.extend(lower_members);
                    (combined, ci, all)
                }
            });
        }
        let n = acc.expect("at least one operand").0;
        Ok(Some(self.canonical(self.nodes[n].dtype)))
    }

    /// NumPy 1's default type resolver: the first of the op's loops every operand casts to
    /// safely (a lower-category operand by its value, where values count).
    fn linear_search(
        &self,
        call: &Call,
        ins: &[Input],
        cs: &Categories,
        loops: &[DType],
        steps: &mut Trace,
    ) -> Result<DType, PromoteError> {
        let cats = self.group(cs, ins)?;
        let by_value = cs.lower_by_value && self.use_min_scalar(cs, &cats);
        let safe = |d: DType, l: DType| self.promote_types(d, l) == Some(l);
        for &l in loops {
            let ok = cats.iter().enumerate().all(|(ci, members)| {
                members.iter().all(|m| {
                    if ci == 0 || !by_value {
                        safe(m.dtype, l)
                    } else {
                        let (ms, small) = min_scalar_type_of(m.operand);
                        safe(ms, l) || (small && safe(signed_of(ms), l))
                    }
                })
            });
            if ok {
                steps.note("loops", || {
                    format!(
                        "{} takes the first of its loops every operand casts to safely{}: {}",
                        call.op,
                        if by_value { " (scalars by value)" } else { "" },
                        l
                    )
                });
                return Ok(l);
            }
        }
        Err(PromoteError::Unsupported {
            policy: self.name.clone(),
            op: call.op.name().into(),
            dtype: call
                .operands
                .iter()
                .map(|o| o.to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            rule: format!(
                "no loop of {} takes these operands safely (loops: {})",
                call.op,
                loops
                    .iter()
                    .map(|d| d.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }

    /// `node_only`: `Some(true)` the node checks, `Some(false)` the promoted/compute ones, `None` the deferred ones.
    fn check_ranges(
        &self,
        call: &Call,
        ins: &[Input],
        range: &Range,
        promoted: DType,
        compute: DType,
        node_only: Option<bool>,
    ) -> Result<(), PromoteError> {
        for i in ins {
            let Operand::Literal(l) = i.operand else {
                continue;
            };
            let targets = match l {
                Literal::Int(_) => &range.int,
                Literal::Float(_) | Literal::Complex(..) => &range.float,
                Literal::Bool(_) => continue,
            };
            for t in targets {
                let stage = match t {
                    RangeTarget::Node => Some(true),
                    RangeTarget::Deferred => None,
                    _ => Some(false),
                };
                if stage != node_only {
                    continue;
                }
                let d = match t {
                    RangeTarget::Node | RangeTarget::Deferred => i.dtype,
                    RangeTarget::Promoted => promoted,
                    RangeTarget::Compute => compute,
                };
                let fits = match l {
                    Literal::Int(v) if d.int_range().is_some() => v.fits(d),
                    Literal::Int(v) => v.to_f64().is_finite(),
                    Literal::Float(f) => {
                        d.float_max().is_none_or(|m| !f.is_finite() || f.abs() <= m)
                    }
                    Literal::Complex(re, im) => d
                        .float_max()
                        .is_none_or(|m| [re, im].iter().all(|x| !x.is_finite() || x.abs() <= m)),
                    Literal::Bool(_) => true,
                };
                if !fits {
                    return Err(PromoteError::Overflow {
                        policy: self.name.clone(),
                        op: call.op.name().into(),
                        literal_kind: l.kind().name().into(),
                        value: l.to_string(),
                        dtype: d.name().into(),
                    });
                }
            }
        }
        Ok(())
    }

    fn corner(
        &self,
        call: &Call,
        ins: &[Input],
        at: Stage,
        promoted: Option<DType>,
        compute: Option<DType>,
        weak: bool,
    ) -> Option<&CornerRule> {
        self.rules
            .iter()
            .find(|r| r.at == at && r.applies(call, ins, promoted, compute, weak))
    }

    fn corner_error(
        &self,
        call: &Call,
        r: &CornerRule,
        kind: crate::ErrorKind,
        dtype: Option<DType>,
    ) -> PromoteError {
        let ops: Vec<String> = call.operands.iter().map(|o| o.to_string()).collect();
        let rule = if r.source.is_empty() {
            "a rule of this framework".to_string()
        } else {
            r.source.clone()
        };
        match kind {
            crate::ErrorKind::NoPromotion => PromoteError::NoPromotion {
                policy: self.name.clone(),
                op: call.op.name().into(),
                operands: ops.join(" and "),
                rule,
                advice: "cast the operands explicitly so both share a dtype".into(),
            },
            crate::ErrorKind::Overflow => {
                let lit = call
                    .operands
                    .iter()
                    .find_map(|o| o.literal())
                    .map(|l| (l.kind().name().to_string(), l.to_string()));
                let (k, v) = lit.unwrap_or(("value".into(), ops.join(", ")));
                PromoteError::Overflow {
                    policy: self.name.clone(),
                    op: call.op.name().into(),
                    literal_kind: k,
                    value: v,
                    dtype: format!("{} ({rule})", dtype.map_or("its dtype", |d| d.name())),
                }
            }
            _ => PromoteError::Unsupported {
                policy: self.name.clone(),
                op: call.op.name().into(),
                dtype: dtype.map_or_else(|| ops.join(" and "), |d| d.name().to_string()),
                rule,
            },
        }
    }

    /// What a corner rule decides on its own (`None`: it lets resolution go on).
    /// What a corner rule decides on its own (`None`: it lets resolution go on).
    fn outcome(
        &self,
        call: &Call,
        ins: &[Input],
        r: &CornerRule,
        compute: Option<DType>,
        steps: &mut Trace,
    ) -> Option<Result<Plan, PromoteError>> {
        let (d, w) = match r.then {
            Then::Error(k) => return Some(Err(self.corner_error(call, r, k, None))),
            Then::DType(d) => (d, false),
            Then::First => (ins[0].dtype, ins[0].weak && ins[0].dtype != DType::Bool),
            Then::Second => (ins[ins.len() - 1].dtype, false),
            Then::Out => (call.out.unwrap_or(ins[0].dtype), false),
            Then::Compute => (compute.unwrap_or(ins[0].dtype), false),
            Then::Accept | Then::Join => return None,
        };
        let taken = Trace {
            on: steps.on,
            steps: std::mem::take(&mut steps.steps),
        };
        Some(self.decided(call, ins, r, d, r.weak_result.unwrap_or(w), taken))
    }

    /// The operands' dtypes promoted through the table alone.
    fn join_dtypes(&self, call: &Call, ins: &[Input]) -> Result<DType, PromoteError> {
        let mut d = ins[0].dtype;
        for i in &ins[1..] {
            d = self.promote_types(d, i.dtype).ok_or_else(|| {
                self.no_promotion(
                    call,
                    d.name(),
                    i.dtype.name(),
                    format!(
                        "the {} has no promotion of {} and {}",
                        self.join_source, d, i.dtype
                    ),
                )
            })?;
        }
        Ok(d)
    }

    fn decided(
        &self,
        call: &Call,
        ins: &[Input],
        r: &CornerRule,
        d: DType,
        weak: bool,
        mut steps: Trace,
    ) -> Result<Plan, PromoteError> {
        steps.note("corner", || {
            format!("{} gives {} ({})", call.op, d, r.source)
        });
        self.out_check(call, d, weak, &mut steps)?;
        let rule = &self.ops[call.op as usize];
        self.check_ranges(
            call,
            ins,
            rule.range.as_ref().unwrap_or(&self.range),
            d,
            d,
            None,
        )?;
        let result = call.out.map_or(d, |o| self.canonical(o));
        Ok(Plan {
            op: call.op,
            inputs: ins.iter().map(|_| d).collect(),
            compute: d,
            result,
            weak: weak && call.out.is_none(),
            promoted: d,
            steps: steps.steps,
        })
    }

    fn out_check(
        &self,
        call: &Call,
        result: DType,
        weak: bool,
        steps: &mut Trace,
    ) -> Result<(), PromoteError> {
        let Some(out) = call.out.map(|o| self.canonical(o)) else {
            return Ok(());
        };
        let ok = match &self.out {
            OutRule::Any => true,
            OutRule::Equal => result == out,
            // a weak result promotes from its weak node (JAX strict: a weak int goes into any int)
            OutRule::Safe if weak => {
                self.join.join(self.weak_node[result.index()], out.index()) == Some(out.index())
            }
            OutRule::Safe => self.promote_types(result, out) == Some(out),
            OutRule::Kinds(level, _) => level[result.kind() as usize] <= level[out.kind() as usize],
            OutRule::Rebind => true,
        };
        let rule_text = match &self.out {
            OutRule::Rebind => {
                "the destination takes the result's dtype: nothing is cast".to_string()
            }
            OutRule::Kinds(_, text) => format!("casting into out follows kinds {text}"),
            OutRule::Any => "any cast into out is allowed".into(),
            OutRule::Equal => "out must have the result's dtype".into(),
            OutRule::Safe => "the result must promote safely to out".into(),
        };
        if !ok {
            return Err(PromoteError::OutCast {
                policy: self.name.clone(),
                op: call.op.name().into(),
                result: result.name().into(),
                out: out.name().into(),
                rule: rule_text,
            });
        }
        steps.note("out", || {
            format!("{result} is written into {out} ({rule_text})")
        });
        Ok(())
    }

    fn resolve_call(&self, call: &Call, explain: bool) -> Result<Plan, PromoteError> {
        if call.operands.len() != call.op.arity() {
            return Err(PromoteError::invalid(format!(
                "{} takes {} operands, got {}",
                call.op,
                call.op.arity(),
                call.operands.len()
            )));
        }
        for d in call
            .operands
            .iter()
            .filter_map(|o| o.dtype())
            .chain(call.out)
        {
            self.check_available(d)?;
        }
        let rule = &self.ops[call.op as usize];
        let mut steps = Trace::new(explain);
        let ins: Vec<Input> = call
            .operands
            .iter()
            .map(|o| self.input(o, rule, &mut steps))
            .collect();

        // 1. corner rules on the arguments (an API refusing literals), the literals' conversion
        //    (a literal must fit the dtype of the node it enters at), rules on the operands
        if let Some(r) = self.corner(call, &ins, Stage::Arguments, None, None, false) {
            if let Some(decided) = self.outcome(call, &ins, r, None, &mut steps) {
                return decided;
            }
        }
        let ignored;
        let call = if rule.ignore_out && call.out.is_some() {
            steps.note("out", || {
                format!(
                    "{} has no in-place form: the result is a new tensor, not written into out",
                    call.op
                )
            });
            ignored = Call {
                op: call.op,
                operands: call.operands.clone(),
                out: None,
            };
            &ignored
        } else {
            call
        };
        self.check_ranges(
            call,
            &ins,
            rule.range.as_ref().unwrap_or(&self.range),
            DType::Bool,
            DType::Bool,
            Some(true),
        )?;
        let mut forced = None;
        if let Some(r) = self.corner(call, &ins, Stage::Operands, None, None, false) {
            if let Some(decided) = self.outcome(call, &ins, r, None, &mut steps) {
                return decided;
            }
            if r.then == Then::Join {
                forced = Some(self.join_dtypes(call, &ins)?);
                steps.note("corner", || {
                    format!(
                        "{}: the operands promote by the table ({})",
                        call.op, r.source
                    )
                });
            }
        }

        // 3. promotion
        let (promoted, mut weak) = if let Some(d) = forced {
            (Some(d), false)
        } else if rule.same_dtype {
            let d = ins[0].dtype;
            if let Some(other) = ins.iter().find(|i| i.dtype != d) {
                return Err(self.no_promotion(
                    call,
                    d.name(),
                    other.dtype.name(),
                    format!(
                        "{} needs both operands of one dtype ({})",
                        call.op,
                        rule.sources.join("; ")
                    ),
                ));
            }
            steps.note("op", || {
                format!("{} takes operands of one dtype: {}", call.op, d)
            });
            (Some(d), false)
        } else {
            match &self.scheme {
                Scheme::Join {
                    all_weak_join_dtypes,
                } => self.join_inputs(call, &ins, *all_weak_join_dtypes, &mut steps)?,
                Scheme::Categories(cs) => match &rule.loops {
                    Some(loops) => (
                        Some(self.linear_search(call, &ins, cs, loops, &mut steps)?),
                        false,
                    ),
                    None => (self.categorize(call, &ins, cs, &mut steps)?, false),
                },
            }
        };
        let Some(promoted) = promoted.map(|p| self.canonical(p)) else {
            // the framework computes in a dtype outside the 15 (PyTorch's complex32)
            if let (Some(out), true, None) = (call.out, self.out_first, rule.result) {
                if out.kind() != Kind::Complex {
                    return Err(PromoteError::OutCast {
                        policy: self.name.clone(),
                        op: call.op.name().into(),
                        result: "complex32".into(),
                        out: out.name().into(),
                        rule: "a complex result cannot be cast into a real out".into(),
                    });
                }
            }
            return match rule.outside {
                Some(d) => {
                    self.out_check(call, d, weak, &mut steps)?;
                    Ok(Plan { op: call.op, inputs: ins.iter().map(|i| i.dtype).collect(), compute: d, result: call.out.unwrap_or(d), weak: false, promoted: d, steps: steps.steps })
                }
                None => Err(PromoteError::Unsupported {
                    policy: self.name.clone(),
                    op: call.op.name().into(),
                    dtype: "a dtype outside the 15 (complex32)".into(),
                    rule: "the framework promotes these operands to a dtype this interface has no name for, and the op has no kernel for it".into(),
                }),
            };
        };

        let promoted = if rule.weak_default && weak {
            let d = match promoted.kind() {
                Kind::Bool => DType::Bool,
                Kind::Unsigned => self.canonical(DType::UInt64),
                Kind::Signed => self.default_int,
                Kind::Float => self.default_float,
                Kind::Complex => self.default_complex,
            };
            steps.note("weak", || {
                format!(
                    "{} gives a weak result the default dtype of its kind: {}",
                    call.op, d
                )
            });
            d
        } else {
            promoted
        };

        // 4. corner rules on the promoted dtype
        let mut accepted = false;
        if let Some(r) = self.corner(call, &ins, Stage::Promoted, Some(promoted), None, weak) {
            if let Some(decided) = self.outcome(call, &ins, r, None, &mut steps) {
                return decided;
            }
            if r.then == Then::Accept {
                steps.note("corner", || {
                    format!(
                        "{} of {} is computed without the op's kernel ({})",
                        call.op, promoted, r.source
                    )
                });
                accepted = true;
            }
        }

        // 5. the op's rule: compute dtype, result dtype, the literals' range in them, refusals
        let action = if accepted {
            Action::Compute(promoted)
        } else {
            rule.action[promoted.index()]
        };
        let compute = match action {
            Action::Compute(c) => self.canonical(c),
            Action::Unsupported => promoted,
        };
        let result = if accepted {
            promoted
        } else {
            rule.result.unwrap_or(compute)
        };
        if self.out_first {
            self.out_check(call, result, weak, &mut steps)?;
        }
        self.check_ranges(
            call,
            &ins,
            rule.range.as_ref().unwrap_or(&self.range),
            promoted,
            compute,
            Some(false),
        )?;
        if action == Action::Unsupported {
            return Err(PromoteError::Unsupported {
                policy: self.name.clone(),
                op: call.op.name().into(),
                dtype: promoted.name().into(),
                rule: if rule.sources.is_empty() {
                    "op rule".into()
                } else {
                    rule.sources.join("; ")
                },
            });
        }
        if compute != promoted {
            steps.note("op", || {
                format!("{} computes {} in {}", call.op, promoted, compute)
            });
        }
        if rule.result.is_some() && !accepted {
            steps.note("op", || format!("{} returns {}", call.op, result));
        }

        // 6. corner rules on the compute dtype (value errors of the kernel)
        if let Some(r) = self.corner(
            call,
            &ins,
            Stage::Computed,
            Some(promoted),
            Some(compute),
            weak,
        ) {
            if let Some(decided) = self.outcome(call, &ins, r, Some(compute), &mut steps) {
                return decided;
            }
        }
        if !rule.keep_weak
            || (rule.weak_only_scalars
                && !ins
                    .iter()
                    .all(|i| i.operand.is_zero_dim() || i.operand.literal().is_some()))
        {
            weak = false;
        }

        // 7. the cast into out
        if !self.out_first {
            self.out_check(call, result, weak, &mut steps)?;
        }
        let result = match call.out {
            Some(o) if !matches!(self.out, OutRule::Rebind) => {
                weak = false;
                self.canonical(o)
            }
            _ => result,
        };
        self.check_ranges(
            call,
            &ins,
            rule.range.as_ref().unwrap_or(&self.range),
            promoted,
            compute,
            None,
        )?;
        if steps.steps.is_empty() || (ins.len() == 1 && steps.steps.iter().all(|s| s.rule != "op"))
        {
            steps.note("op", || {
                format!("{} of {} gives {}", call.op, promoted, result)
            });
        }
        let inputs = ins
            .iter()
            .map(|i| if rule.same_dtype { i.dtype } else { compute })
            .collect();
        Ok(Plan {
            op: call.op,
            inputs,
            compute,
            result,
            weak,
            promoted,
            steps: steps.steps,
        })
    }
}

/// NumPy 1.26's `min_scalar_type` of an operand's value (`min_scalar_type_num`), with its
/// "small unsigned" flag (a non-negative int that also fits the signed type of the same size).
/// The thresholds are NumPy's: float16 below 65000 in magnitude (and every non-finite value),
/// float32 below 3.4e38; a 0-d float16 stays float16, a 0-d complex64 complex64.
///
/// ```
/// use promote::{policy::min_scalar_type_of, DType, Operand};
/// assert_eq!(min_scalar_type_of(&"256".parse().unwrap()), (DType::UInt16, true));
/// assert_eq!(min_scalar_type_of(&"65504.0".parse().unwrap()), (DType::Float32, false));
/// assert_eq!(min_scalar_type_of(&"float32(inf)".parse().unwrap()), (DType::Float16, false));
/// assert_eq!(min_scalar_type_of(&"(inf+0j)".parse().unwrap()), (DType::Complex128, false));
/// ```
pub fn min_scalar_type_of(o: &Operand) -> (DType, bool) {
    use DType::*;
    let dtype = o.dtype();
    let Some(v) = o.value() else {
        return (dtype.unwrap_or(Bool), false);
    };
    match (&v, dtype) {
        (_, Some(Float16)) => (Float16, false),
        (_, Some(Complex64)) => (Complex64, false),
        (Literal::Bool(_), _) => (Bool, false),
        (Literal::Int(i), _) if dtype.is_none_or(|d| d.is_integer() || d.is_bool()) => {
            let order: &[DType] = if i.is_negative() {
                &[Int8, Int16, Int32, Int64]
            } else {
                &[UInt8, UInt16, UInt32, UInt64]
            };
            match order.iter().copied().find(|d| i.fits(*d)) {
                Some(d) => (d, !i.is_negative() && i.fits(signed_of(d))),
                None => (Float64, false),
            }
        }
        _ => {
            let (re, im) = v.to_complex();
            let complex =
                matches!(v, Literal::Complex(..)) || dtype.is_some_and(|d| d.is_complex());
            if complex {
                let small = [re, im].iter().all(|x| -3.4e38 < *x && *x < 3.4e38);
                (if small { Complex64 } else { Complex128 }, false)
            } else if !re.is_finite() || (-65000.0 < re && re < 65000.0) {
                (Float16, false)
            } else if dtype == Some(Float32) || (-3.4e38 < re && re < 3.4e38) {
                (Float32, false)
            } else {
                (Float64, false)
            }
        }
    }
}

/// The signed integer of the same size as an unsigned one (others unchanged).
fn signed_of(d: DType) -> DType {
    match d {
        DType::UInt8 => DType::Int8,
        DType::UInt16 => DType::Int16,
        DType::UInt32 => DType::Int32,
        DType::UInt64 => DType::Int64,
        x => x,
    }
}

// ---------------------------------------------------------------------------------------------
// Compiling a policy file.

/// Line and column (1-based) of a byte offset.
fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rfind('\n').map_or(offset, |p| offset - p - 1) + 1;
    (line, col)
}

pub(crate) struct Ctx<'a> {
    file: &'a str,
    src: &'a str,
}

impl Ctx<'_> {
    pub(crate) fn err(&self, span: std::ops::Range<usize>, msg: impl Into<String>) -> PromoteError {
        let (line, column) = line_col(self.src, span.start);
        PromoteError::PolicyFile {
            file: self.file.into(),
            line,
            column,
            message: msg.into(),
        }
    }
    /// An error at (line, column) inside a string field's text.
    fn err_in(
        &self,
        field: &spec::Text,
        line: usize,
        col: usize,
        msg: impl Into<String>,
    ) -> PromoteError {
        let start = field.span().start;
        let raw = &self.src[start..];
        let mut content = start;
        if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
            content += 3;
            if self.src[content..].starts_with("\r\n") {
                content += 2;
            } else if self.src[content..].starts_with('\n') {
                content += 1;
            }
        } else {
            content += 1;
        }
        let (l0, c0) = line_col(self.src, content);
        let (line, column) = if line == 0 {
            (l0, c0 + col.saturating_sub(1))
        } else {
            (l0 + line, col.max(1))
        };
        PromoteError::PolicyFile {
            file: self.file.into(),
            line,
            column,
            message: msg.into(),
        }
    }
    fn dtype(&self, t: &spec::Text) -> Result<DType, PromoteError> {
        DType::parse(t.get_ref()).map_err(|e| self.err(t.span(), e.to_string()))
    }
}

/// Kinds and groups a selector may name, with the dtypes they cover.
fn selector_dtypes(sel: &str) -> Option<(u8, Vec<DType>)> {
    let of = |f: &dyn Fn(DType) -> bool| {
        DType::ALL
            .iter()
            .copied()
            .filter(|d| f(*d))
            .collect::<Vec<_>>()
    };
    Some(match sel {
        "*" => (0, DType::ALL.to_vec()),
        "int" => (1, of(&|d| d.is_integer())),
        "inexact" => (1, of(&|d| d.is_inexact())),
        "bool" => (3, vec![DType::Bool]),
        "unsigned" => (2, of(&|d| d.kind() == Kind::Unsigned)),
        "signed" => (2, of(&|d| d.kind() == Kind::Signed)),
        "float" => (2, of(&|d| d.kind() == Kind::Float)),
        "complex" => (2, of(&|d| d.kind() == Kind::Complex)),
        _ => (3, vec![DType::parse(sel).ok()?]),
    })
}

const SELECTOR_WORDS: [&str; 8] = [
    "*", "int", "inexact", "bool", "unsigned", "signed", "float", "complex",
];

/// Parse a kind order such as `"bool < unsigned = signed < float < complex"` into the level of
/// each kind (bool, unsigned, signed, float, complex); `=` puts kinds on one level.
fn kind_levels(ctx: &Ctx, k: &spec::Text) -> Result<[u8; 5], PromoteError> {
    let mut level = [u8::MAX; 5];
    for (li, lvl) in k.get_ref().split('<').enumerate() {
        for name in lvl.split('=') {
            let name = name.trim();
            let idx = ["bool", "unsigned", "signed", "float", "complex"]
                .iter()
                .position(|x| *x == name)
                .ok_or_else(|| {
                    ctx.err(
                        k.span(),
                        format!("unknown kind `{name}` (bool, unsigned, signed, float, complex)"),
                    )
                })?;
            level[idx] = li as u8;
        }
    }
    if level.contains(&u8::MAX) {
        return Err(ctx.err(
            k.span(),
            "kinds must name all five: bool, unsigned, signed, float, complex",
        ));
    }
    Ok(level)
}

/// Compile a policy file's text; `file` names it in errors.
///
/// ```
/// let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/torch.toml")).unwrap();
/// let p = promote::policy::compile(&src, "torch.toml").unwrap();
/// assert_eq!(p.name, "torch");
/// let bad = promote::policy::compile("name = 3", "bad.toml").unwrap_err();
/// assert!(bad.to_string().starts_with("bad.toml:1:8:"), "{bad}");
/// ```
pub fn compile(src: &str, file: &str) -> Result<RulePolicy, PromoteError> {
    let ctx = Ctx { file, src };
    let spec: spec::PolicySpec = toml::from_str(src).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        ctx.err(span, e.message().to_string())
    })?;

    // dtypes
    let mut available = [spec.dtypes.is_none(); 15];
    let mut dtypes = Vec::new();
    for t in spec.dtypes.iter().flatten() {
        let d = ctx.dtype(t)?;
        available[d.index()] = true;
    }
    for d in DType::ALL {
        if available[d.index()] {
            dtypes.push(d);
        }
    }
    let mut canonical = DType::ALL;
    for (k, v) in &spec.canonical {
        let from = DType::parse(k).map_err(|e| ctx.err(v.span(), format!("canonical: {e}")))?;
        canonical[from.index()] = ctx.dtype(v)?;
    }
    let default_int = canonical[ctx.dtype(&spec.defaults.int)?.index()];
    let default_float = canonical[ctx.dtype(&spec.defaults.float)?.index()];
    let default_complex = canonical[ctx.dtype(&spec.defaults.complex)?.index()];
    let target_dtype = |t: &spec::Text| -> Result<DType, PromoteError> {
        match t.get_ref().as_str() {
            "default_int" => Ok(default_int),
            "default_float" => Ok(default_float),
            "default_complex" => Ok(default_complex),
            _ => ctx.dtype(t),
        }
    };

    // nodes: the 15 dtypes, then the extra ones
    let mut nodes: Vec<Node> = DType::ALL
        .iter()
        .map(|d| Node {
            name: d.name().into(),
            dtype: *d,
            weak: false,
            outside: false,
        })
        .collect();
    for (name, ns) in &spec.nodes {
        if DType::parse(name).is_ok() {
            return Err(ctx.err(ns.dtype.span(), format!("node `{name}` has a dtype's name; weak nodes need names of their own, such as `i*`")));
        }
        nodes.push(Node {
            name: name.clone(),
            dtype: target_dtype(&ns.dtype)?,
            weak: ns.weak,
            outside: false,
        });
    }
    if nodes.len() > 250 {
        return Err(ctx.err(
            0..0,
            format!(
                "{} nodes: a policy has at most 250 (the 15 dtypes and its weak nodes)",
                nodes.len()
            ),
        ));
    }
    if spec.table.is_some() {
        nodes.push(Node {
            name: "!".into(),
            dtype: DType::Bool,
            weak: false,
            outside: true,
        });
    }
    let names: BTreeMap<String, usize> = nodes
        .iter()
        .enumerate()
        .skip(15)
        .map(|(i, n)| (n.name.clone(), i))
        .collect();
    let lookup = |s: &str| -> Option<usize> {
        names
            .get(s)
            .copied()
            .or_else(|| DType::parse(s).ok().map(|d| d.index()))
    };
    let node_err = |s: &str| {
        let cands: Vec<&str> = names
            .keys()
            .map(|k| k.as_str())
            .chain(DType::ALL.iter().map(|d| d.name()))
            .collect();
        match suggest(s, cands.into_iter()) {
            Some(x) => format!("unknown node `{s}`; did you mean `{x}`?"),
            None => format!("unknown node `{s}`"),
        }
    };

    let (join, join_source) = match (&spec.lattice, &spec.table) {
        (Some(l), None) => {
            let mut edges = Vec::new();
            for (ln, line) in l.edges.get_ref().lines().enumerate() {
                let line = line.split('#').next().unwrap_or("");
                if line.trim().is_empty() {
                    continue;
                }
                let (lo, his) = line.split_once("->").ok_or_else(|| {
                    ctx.err_in(
                        &l.edges,
                        ln,
                        1,
                        "an edge line is `LOWER -> UPPER [UPPER ...]`",
                    )
                })?;
                let col_of = |w: &str| line.find(w).map_or(1, |p| p + 1);
                let lo = lo.trim();
                let a =
                    lookup(lo).ok_or_else(|| ctx.err_in(&l.edges, ln, col_of(lo), node_err(lo)))?;
                for hi in his.split_whitespace() {
                    let b = lookup(hi)
                        .ok_or_else(|| ctx.err_in(&l.edges, ln, col_of(hi), node_err(hi)))?;
                    edges.push((a, b));
                }
            }
            let t = lattice::build(nodes.len(), &edges, l.partial).map_err(|e| {
                let msg = match e {
                    lattice::LatticeError::Cycle(c) => format!("the lattice has a cycle through {}", c.iter().map(|&i| nodes[i].name.as_str()).collect::<Vec<_>>().join(", ")),
                    lattice::LatticeError::NoJoin(a, b) => format!("{} and {} have no upper bound: add an edge, or declare `partial = true` if they must not promote", nodes[a].name, nodes[b].name),
                    lattice::LatticeError::Ambiguous(a, b, m) => format!("{} and {} have no least upper bound: {} are all minimal; add an edge to order them", nodes[a].name, nodes[b].name, m.iter().map(|&i| nodes[i].name.as_str()).collect::<Vec<_>>().join(", ")),
                };
                ctx.err(l.edges.span(), msg)
            })?;
            (t, "lattice")
        }
        (None, Some(t)) => {
            let jt = table::build(t.cells.get_ref(), nodes.len(), &lookup)
                .map_err(|(l, c, m)| ctx.err_in(&t.cells, l, c, m))?;
            (jt, "table")
        }
        _ => return Err(ctx.err(0..0, "a policy needs exactly one of [lattice] and [table]")),
    };

    // operands
    let mut literal_node = [
        vec![DType::Bool.index()],
        vec![default_int.index()],
        vec![default_float.index()],
        vec![default_complex.index()],
    ];
    // a literal kind and its node names (one, or a list tried in order) as node indices
    let literal_entry =
        |k: &str, v: &Spanned<spec::OneOrMany>| -> Result<(usize, Vec<usize>), PromoteError> {
            let items = v.get_ref().items();
            if items.is_empty() {
                return Err(ctx.err(v.span(), format!("literal.{k} is an empty list")));
            }
            let kind = LiteralKind::ALL
                .iter()
                .position(|x| x.name() == k)
                .ok_or_else(|| {
                    ctx.err(
                        v.span(),
                        format!("literal kinds are bool, int, float, complex; not `{k}`"),
                    )
                })?;
            let nodes = items
                .iter()
                .map(|t| lookup(t).ok_or_else(|| ctx.err(v.span(), node_err(t))))
                .collect::<Result<Vec<_>, _>>()?;
            Ok((kind, nodes))
        };
    for (k, v) in &spec.operands.literal {
        let (kind, nodes) = literal_entry(k, v)?;
        literal_node[kind] = nodes;
    }
    let mut weak_node: [usize; 15] = std::array::from_fn(|i| i);
    let mut weak_rank = [0u8; 15];
    for (sel, v) in &spec.operands.weak {
        let (rank, ds) = selector_dtypes(sel)
            .ok_or_else(|| ctx.err(v.span(), format!("unknown selector `{sel}`")))?;
        let n = lookup(v.get_ref()).ok_or_else(|| ctx.err(v.span(), node_err(v.get_ref())))?;
        for d in ds {
            if rank >= weak_rank[d.index()] {
                weak_rank[d.index()] = rank;
                weak_node[d.index()] = n;
            }
        }
    }

    // combine
    let scheme = match spec.combine.scheme.get_ref().as_str() {
        "join" => Scheme::Join {
            all_weak_join_dtypes: spec.combine.all_weak_join_dtypes,
        },
        "categories" => {
            let mut category = [None; 4];
            for (ci, cat) in spec.combine.categories.iter().enumerate() {
                for c in cat {
                    let idx = ["tensor", "zero_dim", "weak", "literal"]
                        .iter()
                        .position(|x| x == c.get_ref())
                        .ok_or_else(|| {
                            ctx.err(
                                c.span(),
                                format!(
                                    "operand classes are tensor, zero_dim, weak, literal; not `{}`",
                                    c.get_ref()
                                ),
                            )
                        })?;
                    if category[idx].is_some() {
                        return Err(
                            ctx.err(c.span(), format!("`{}` is in two categories", c.get_ref()))
                        );
                    }
                    category[idx] = Some(ci);
                }
            }
            if category[0].is_none() {
                return Err(ctx.err(spec.combine.scheme.span(), "categories must place `tensor`"));
            }
            let lower_by_value = match spec
                .combine
                .lower_same_kind
                .as_ref()
                .map(|t| t.get_ref().as_str())
            {
                None | Some("nothing") => false,
                Some("value") => true,
                Some(x) => {
                    return Err(ctx.err(
                        spec.combine.lower_same_kind.as_ref().expect("some").span(),
                        format!("lower_same_kind is `nothing` or `value`, not `{x}`"),
                    ))
                }
            };
            let mut fmc = [None; 15];
            for (k, v) in &spec.combine.float_meets_complex {
                let f = DType::parse(k).map_err(|e| ctx.err(v.span(), e.to_string()))?;
                fmc[f.index()] = Some(if v.get_ref() == "outside" {
                    Meet::Outside
                } else {
                    Meet::DType(ctx.dtype(v)?)
                });
            }
            let int_meets_complex_lower = match spec
                .combine
                .int_meets_complex
                .as_ref()
                .map(|t| (t.get_ref().as_str(), t.span()))
            {
                None | Some(("join", _)) => false,
                Some(("lower", _)) => true,
                Some((x, sp)) => {
                    return Err(ctx.err(
                        sp,
                        format!("int_meets_complex is `lower` or `join`, not `{x}`"),
                    ))
                }
            };
            let rank = match &spec.combine.kinds {
                Some(k) => kind_levels(&ctx, k)?,
                None => [0, 1, 1, 2, 3],
            };
            let mut merge = vec![Merge::Kind; spec.combine.categories.len()];
            for (i, m) in spec.combine.merge.iter().enumerate() {
                if i >= merge.len() {
                    return Err(
                        ctx.err(m.span(), "merge has more entries than there are categories")
                    );
                }
                merge[i] = match m.get_ref().as_str() {
                    "kind" => Merge::Kind,
                    "nothing" => Merge::Nothing,
                    "join" => Merge::Join,
                    "differ" => Merge::Differ,
                    x => {
                        return Err(ctx.err(
                            m.span(),
                            format!("merge is kind, nothing, join or differ; not `{x}`"),
                        ))
                    }
                };
            }
            Scheme::Categories(Categories {
                category,
                count: spec.combine.categories.len(),
                lower_by_value,
                float_meets_complex: fmc,
                int_meets_complex_lower,
                rank,
                merge,
            })
        }
        x => {
            return Err(ctx.err(
                spec.combine.scheme.span(),
                format!("scheme is `join` or `categories`, not `{x}`"),
            ))
        }
    };

    let range_of = |r: &spec::RangeSpec| -> Result<Range, PromoteError> {
        let conv = |v: &Vec<spec::Text>| {
            v.iter()
                .map(|t| match t.get_ref().as_str() {
                    "node" => Ok(RangeTarget::Node),
                    "promoted" => Ok(RangeTarget::Promoted),
                    "compute" => Ok(RangeTarget::Compute),
                    "deferred" => Ok(RangeTarget::Deferred),
                    x => Err(ctx.err(
                        t.span(),
                        format!("range targets are node, promoted, compute, deferred; not `{x}`"),
                    )),
                })
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Range {
            int: conv(&r.int)?,
            float: conv(&r.float)?,
        })
    };
    let range = range_of(&spec.literal_range)?;

    // ops: start from "compute in the promoted dtype", apply each rule in order
    let mut ops: Vec<OpRule> = Op::ALL
        .iter()
        .map(|_| OpRule {
            action: std::array::from_fn(|i| Action::Compute(DType::ALL[i])),
            result: None,
            same_dtype: false,
            keep_weak: true,
            range: None,
            sources: Vec::new(),
            outside: None,
            loops: None,
            literal: Default::default(),
            ignore_out: false,
            weak_only_scalars: false,
            weak_default: false,
        })
        .collect();
    for r in &spec.ops {
        let mut targets = Vec::new();
        for o in &r.ops {
            let name = o.get_ref().as_str();
            let matched: Vec<Op> = Op::ALL
                .iter()
                .copied()
                .filter(|op| name == "all" || op.name() == name || op.group() == name)
                .collect();
            if matched.is_empty() {
                let groups = [
                    "arithmetic",
                    "division",
                    "comparison",
                    "logical",
                    "bitwise",
                    "matmul",
                    "reduction",
                    "all",
                ];
                let s = suggest(name, Op::ALL.iter().map(|o| o.name()).chain(groups));
                return Err(ctx.err(
                    o.span(),
                    format!(
                        "unknown op or group `{name}`{}",
                        s.map(|x| format!("; did you mean `{x}`?"))
                            .unwrap_or_default()
                    ),
                ));
            }
            targets.extend(matched);
        }
        // selector → action, most specific selector wins
        let mut acts: [Option<(u8, Action)>; 15] = [None; 15];
        for (sel, v) in &r.compute {
            let (rank, ds) = selector_dtypes(sel).ok_or_else(|| {
                ctx.err(
                    v.span(),
                    format!(
                        "unknown selector `{sel}` (a dtype or one of {})",
                        SELECTOR_WORDS.join(", ")
                    ),
                )
            })?;
            let act = match v.get_ref().as_str() {
                "unsupported" => Action::Unsupported,
                _ => Action::Compute(target_dtype(v)?),
            };
            for d in ds {
                if acts[d.index()].is_none_or(|(r0, _)| rank >= r0) {
                    acts[d.index()] = Some((rank, act));
                }
            }
        }
        for sel in &r.unsupported {
            let (_, ds) = selector_dtypes(sel.get_ref()).ok_or_else(|| {
                ctx.err(sel.span(), format!("unknown selector `{}`", sel.get_ref()))
            })?;
            for d in ds {
                acts[d.index()] = Some((u8::MAX, Action::Unsupported));
            }
        }
        let result = r.result.as_ref().map(target_dtype).transpose()?;
        let outside = r.outside.as_ref().map(target_dtype).transpose()?;
        let loops = r
            .loops
            .as_ref()
            .map(|v| {
                v.iter()
                    .map(|t| ctx.dtype(t))
                    .collect::<Result<Vec<_>, _>>()
            })
            .transpose()?;
        let mut lit: [Option<Vec<usize>>; 4] = Default::default();
        for (k, v) in &r.literal {
            let (kind, nodes) = literal_entry(k, v)?;
            lit[kind] = Some(nodes);
        }
        let rr = r.literal_range.as_ref().map(range_of).transpose()?;
        for op in targets {
            let rule = &mut ops[op as usize];
            for (i, a) in acts.iter().enumerate() {
                if let Some((_, a)) = a {
                    rule.action[i] = *a;
                }
            }
            if result.is_some() {
                rule.result = result;
            }
            if outside.is_some() {
                rule.outside = outside;
            }
            if loops.is_some() {
                rule.loops = loops.clone();
            }
            for (k, l) in lit.iter().enumerate() {
                if l.is_some() {
                    rule.literal[k] = l.clone();
                }
            }
            if let Some(i) = r.ignore_out {
                rule.ignore_out = i;
            }
            if let Some(w) = r.weak_only_scalars {
                rule.weak_only_scalars = w;
            }
            if let Some(w) = r.weak_default {
                rule.weak_default = w;
            }
            if let Some(s) = r.same_dtype {
                rule.same_dtype = s;
            }
            if let Some(k) = r.keep_weak {
                rule.keep_weak = k;
            }
            if rr.is_some() {
                rule.range = rr.clone();
            }
            if !r.source.is_empty() {
                rule.sources.push(r.source.clone());
            }
        }
    }

    let mut rules = Vec::new();
    for r in &spec.rules {
        let mut mask = 0u32;
        for o in &r.ops {
            let name = o.get_ref().as_str();
            let matched: Vec<Op> = Op::ALL
                .iter()
                .copied()
                .filter(|op| name == "all" || op.name() == name || op.group() == name)
                .collect();
            if matched.is_empty() {
                return Err(ctx.err(o.span(), format!("unknown op or group `{name}`")));
            }
            for m in matched {
                mask |= 1 << m as u32;
            }
        }
        let at = match r.at.get_ref().as_str() {
            "arguments" => Stage::Arguments,
            "operands" => Stage::Operands,
            "promoted" => Stage::Promoted,
            "computed" => Stage::Computed,
            x => {
                return Err(ctx.err(
                    r.at.span(),
                    format!("at is arguments, operands, promoted or computed; not `{x}`"),
                ))
            }
        };
        let sel_mask = |v: &Vec<spec::Text>| -> Result<Option<[bool; 15]>, PromoteError> {
            if v.is_empty() {
                return Ok(None);
            }
            let mut m = [false; 15];
            for t in v {
                let (_, ds) = selector_dtypes(t.get_ref()).ok_or_else(|| {
                    ctx.err(
                        t.span(),
                        format!(
                            "unknown selector `{}` (a dtype or one of {})",
                            t.get_ref(),
                            SELECTOR_WORDS.join(", ")
                        ),
                    )
                })?;
                for d in ds {
                    m[d.index()] = true;
                }
            }
            Ok(Some(m))
        };
        let fit1 = |t: &spec::Text| -> Result<FitTarget, PromoteError> {
            if t.get_ref() == "compute" {
                Ok(FitTarget::Compute)
            } else {
                ctx.dtype(t).map(FitTarget::DType)
            }
        };
        let fit = |t: &Option<spec::Text>| -> Result<Option<FitTarget>, PromoteError> {
            t.as_ref().map(fit1).transpose()
        };
        let matcher = |m: &Option<spec::OperandMatch>| -> Result<Option<Matcher>, PromoteError> {
            let Some(m) = m else { return Ok(None) };
            let class = if m.class.is_empty() {
                None
            } else {
                let mut c = [false; 4];
                for t in &m.class {
                    let i = ["tensor", "zero_dim", "weak", "literal"]
                        .iter()
                        .position(|x| x == t.get_ref())
                        .ok_or_else(|| {
                            ctx.err(t.span(), "classes are tensor, zero_dim, weak, literal")
                        })?;
                    c[i] = true;
                }
                Some(c)
            };
            let literal = if m.literal.is_empty() {
                None
            } else {
                let mut c = [false; 4];
                for t in &m.literal {
                    let i = LiteralKind::ALL
                        .iter()
                        .position(|x| x.name() == t.get_ref())
                        .ok_or_else(|| {
                            ctx.err(t.span(), "literal kinds are bool, int, float, complex")
                        })?;
                    c[i] = true;
                }
                Some(c)
            };
            let values = m.values_parsed(&ctx)?;
            Ok(Some(Matcher {
                class,
                dtype: sel_mask(&m.dtype)?,
                literal,
                values,
                negative: m.negative,
                not_fits: m.not_fits.iter().map(fit1).collect::<Result<Vec<_>, _>>()?,
                fits: fit(&m.fits)?,
                wraps_to_zero: m.wraps_to_zero,
            }))
        };
        let then = match r.then.get_ref().as_str() {
            "accept" => Then::Accept,
            "first" => Then::First,
            "second" => Then::Second,
            "join" => Then::Join,
            "out" => Then::Out,
            "compute" => Then::Compute,
            x => match crate::ErrorKind::parse(x) {
                Some(k) => Then::Error(k),
                None => Then::DType(target_dtype(&r.then)?),
            },
        };
        if matches!(at, Stage::Arguments | Stage::Operands) && then == Then::Accept {
            return Err(ctx.err(
                r.then.span(),
                "`accept` needs a promoted dtype: use it at promoted or computed",
            ));
        }
        rules.push(CornerRule {
            ops: mask,
            at,
            any: matcher(&r.any)?,
            first: matcher(&r.first)?,
            second: matcher(&r.second)?,
            other: matcher(&r.other)?,
            out: r.out,
            out_is_first: r.out_is_first,
            promoted_is_first: r.promoted_is_first,
            same_dtypes: r.same_dtypes,
            weak: r.weak,
            weak_result: r.weak_result,
            out_dtype: sel_mask(&r.out_dtype)?,
            promoted: sel_mask(&r.promoted)?,
            compute: sel_mask(&r.compute)?,
            then,
            source: r.source.clone(),
        });
    }

    let out = match spec.out.casting.get_ref().as_str() {
        "any" => OutRule::Any,
        "equal" => OutRule::Equal,
        "safe" => OutRule::Safe,
        "rebind" => OutRule::Rebind,
        "kinds" => {
            let k = spec.out.kinds.as_ref().ok_or_else(|| ctx.err(spec.out.casting.span(), "casting = \"kinds\" needs kinds = \"bool < unsigned < signed < float < complex\""))?;
            let level = kind_levels(&ctx, k)?;
            OutRule::Kinds(level, k.get_ref().clone())
        }
        x => {
            return Err(ctx.err(
                spec.out.casting.span(),
                format!("casting is kinds, any, equal, safe or rebind; not `{x}`"),
            ))
        }
    };

    let mut p = RulePolicy {
        name: spec.name,
        framework: spec.framework,
        description: spec.description,
        provenance: spec.provenance,
        dtypes,
        available,
        default_int,
        default_float,
        default_complex,
        canonical,
        nodes,
        join,
        join_source,
        literal_node,
        weak_node,
        scheme,
        range,
        ops,
        out,
        out_source: spec.out.source,
        out_first: spec.out.before_op_refusals,
        rules,
        fast: Vec::new(),
    };
    let mut fast = vec![FAST_SLOW; Op::ALL.len() * 15 * 15];
    for &op in Op::ALL {
        for a in DType::ALL {
            for b in DType::ALL {
                let operands = if op.arity() == 1 {
                    if b != DType::Bool {
                        continue;
                    }
                    vec![Operand::tensor(a)]
                } else {
                    vec![Operand::tensor(a), Operand::tensor(b)]
                };
                let call = Call {
                    op,
                    operands,
                    out: None,
                };
                if let Ok(plan) = p.resolve_call(&call, false) {
                    fast[(op as usize * 15 + a.index()) * 15 + b.index()] =
                        plan.result.index() as u8 | if plan.weak { 0x80 } else { 0 };
                }
            }
        }
    }
    p.fast = fast;
    Ok(p)
}

// ---------------------------------------------------------------------------------------------
// The built-in policies, embedded in the binary.

macro_rules! builtins {
    ($($name:literal => $file:literal,)*) => {
        /// The names of the built-in policies, as the spec lists them.
        pub const BUILTIN: &[&str] = &[$($name),*];
        fn builtin_source(name: &str) -> Option<(&'static str, &'static str)> {
            match name {
                $($name => Some((include_str!(concat!("../../policies/", $file)), $file)),)*
                _ => None,
            }
        }
    };
}

builtins! {
    "torch" => "torch.toml",
    "jax" => "jax.toml",
    "jax-x64" => "jax-x64.toml",
    "jax-strict" => "jax-strict.toml",
    "numpy" => "numpy.toml",
    "numpy1" => "numpy1.toml",
    "array-api" => "array-api.toml",
    "oneflow" => "oneflow.toml",
    "paddle" => "paddle.toml",
    "tf" => "tf.toml",
    "tf-legacy" => "tf-legacy.toml",
    "tf-all" => "tf-all.toml",
    "tf-safe" => "tf-safe.toml",
}

/// A built-in policy by name, compiled once and shared.
///
/// ```
/// let p = promote::builtin("torch").unwrap();
/// assert_eq!(promote::Policy::name(&*p), "torch");
/// assert!(promote::builtin("pytorch").unwrap_err().to_string().contains("did you mean `torch`"));
/// ```
pub fn builtin(name: &str) -> Result<Arc<RulePolicy>, PromoteError> {
    static CACHE: OnceLock<std::sync::Mutex<BTreeMap<String, Arc<RulePolicy>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(p) = cache
        .lock()
        .map_err(|_| PromoteError::invalid("policy cache poisoned"))?
        .get(name)
    {
        return Ok(p.clone());
    }
    let (src, file) = builtin_source(name).ok_or_else(|| PromoteError::UnknownPolicy {
        name: name.into(),
        suggestion: suggest(name, BUILTIN.iter().copied()).or_else(|| {
            BUILTIN
                .iter()
                .find(|b| name.contains(*b) || b.contains(name))
                .map(|s| s.to_string())
        }),
    })?;
    let p = Arc::new(compile(src, &format!("policies/{file}"))?);
    cache
        .lock()
        .map_err(|_| PromoteError::invalid("policy cache poisoned"))?
        .insert(name.into(), p.clone());
    Ok(p)
}

/// Load a policy from a user's file.
pub fn load_file(path: &std::path::Path) -> Result<RulePolicy, PromoteError> {
    let src = std::fs::read_to_string(path).map_err(|e| PromoteError::PolicyFile {
        file: path.display().to_string(),
        line: 0,
        column: 0,
        message: format!("cannot read: {e}"),
    })?;
    compile(&src, &path.display().to_string())
}
