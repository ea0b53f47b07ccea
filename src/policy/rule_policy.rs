//! The compiled policy: [`RulePolicy`], its accessors, and the dense fast path of
//! [`Policy::result`] (two strong tensors: one table load).

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::kernel::compute::Semantics;
use std::sync::Arc;

use crate::op::{Call, Form, Op};
use crate::operand::LiteralKind;
use crate::operand::Operand;
use crate::plan::{Plan, Traced};

use super::compiled::{OpRule, OutRule, Range, Scheme};
use super::corner::CornerRule;
use super::join::{JoinTable, Joined, Node};
use super::resolve::Trace;
use super::Policy;

/// A compiled, data-driven policy: the one built-in implementation of [`Policy`].
///
/// ```
/// use promote::{compile, Policy};
/// let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/torch.toml")).unwrap();
/// let p = compile(&text, "torch.toml").unwrap();
/// assert_eq!(p.name(), "torch");
/// ```
#[derive(Clone, Debug)]
pub struct RulePolicy {
    /// The policy's name (`torch`, `jax-x64`, ...).
    pub name: String,
    /// The framework and version it reproduces.
    pub framework: String,
    /// One paragraph for people.
    pub description: String,
    /// How the rules were obtained: `recorded` or `derived from source`.
    pub provenance: String,
    pub(crate) dtypes: Vec<DType>,
    pub(crate) available: [bool; DType::COUNT],
    /// The default integer dtype (a Python int enters here unless the policy says otherwise).
    pub default_int: DType,
    /// The default floating dtype.
    pub default_float: DType,
    /// The default complex dtype.
    pub default_complex: DType,
    pub(crate) canonical: [DType; DType::COUNT],
    /// The nodes of the promotion graph: the 15 dtypes (indices 0..15), the policy's own nodes, and a table's `!` node.
    pub nodes: Vec<Node>,
    /// The join of every two nodes.
    pub join: JoinTable,
    /// `lattice` or `table`.
    pub join_source: &'static str,
    pub(crate) literal_node: [Vec<usize>; 4],
    pub(crate) weak_node: [usize; DType::COUNT],
    /// How the promoted node is found.
    pub scheme: Scheme,
    pub(crate) range: Range,
    pub(crate) ops: Vec<OpRule>,
    /// The rule of casting into `out`.
    pub out: OutRule,
    pub(crate) out_source: String,
    pub(crate) out_first: bool,
    /// Corner rules, in order.
    pub rules: Vec<CornerRule>,
    pub(crate) semantics: Semantics,
    pub(crate) semantics_source: String,
    /// Every op over two strong tensors (sum: one), resolved once, on the first
    /// [`Policy::result`] call that could use it (a command that resolves one call never
    /// pays for it): dtype index | 0x80 if weak.
    pub(crate) fast: std::sync::OnceLock<Vec<u8>>,
    /// The rule of each `casting=` value (by [`crate::Casting`] as an index), where the
    /// policy's functions take the argument.
    pub(crate) casting_arg: Vec<Option<OutRule>>,
    pub(crate) casting_source: String,
    /// The framework settings the file declares (`[settings.KEY]`), and its text for patches.
    pub(crate) settings: std::sync::Arc<super::settings::Settings>,
    /// The entry point this policy answers for (`operator`, or the form of a variant).
    pub form: Form,
    /// The other entry points the file describes (`[forms.NAME]`), each a policy of its own.
    pub(crate) forms: Vec<FormVariant>,
    /// This policy without its `canonical` mapping, for the ops that take dtypes as written
    /// (`dtypes_as_written`); `None` where nothing is canonical or no op asks.
    pub(crate) as_written: Option<Arc<RulePolicy>>,
}

/// An entry point of a policy as a policy of its own (`[forms.NAME]`, compiled).
#[derive(Clone, Debug)]
pub(crate) struct FormVariant {
    pub(crate) form: Form,
    pub(crate) source: String,
    pub(crate) policy: Arc<RulePolicy>,
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
    fn semantics(&self) -> Semantics {
        self.semantics
    }
    fn resolve(&self, call: &Call) -> Result<Plan, PromoteError> {
        self.resolve_call(call, &mut Trace::new(true))
            .map(|p| p.with_operands(call))
    }
    fn resolve_traced(&self, call: &Call) -> Traced {
        let mut trace = Trace::new(true);
        let outcome = self
            .resolve_call(call, &mut trace)
            .map(|p| p.with_operands(call));
        let steps = match &outcome {
            Ok(plan) => plan.steps.clone(),
            Err(_) => trace.steps,
        };
        Traced { outcome, steps }
    }
    fn promote_types(&self, a: DType, b: DType) -> Option<DType> {
        RulePolicy::promote_types(self, a, b)
    }
    fn set(
        &self,
        settings: &[(String, String)],
    ) -> Result<std::sync::Arc<dyn Policy>, PromoteError> {
        Ok(self.with_settings(settings)?)
    }
    #[inline]
    fn result(&self, call: &Call) -> Result<(DType, bool), PromoteError> {
        if call.form != self.form {
            let p = self.for_form(call.form)?;
            if !std::ptr::eq(p, self) {
                return p.result(call);
            }
        }
        if call.out.is_none() && call.dtype.is_none() && call.casting.is_none() {
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
                [a] if call.op.arity() == 1 => strong(a).map(|a| (a, 0)),
                _ => None,
            };
            if let Some((a, b)) = key {
                let n = DType::ALL.len();
                let cell = self
                    .fast
                    .get_or_init(|| super::compile::fast_table(self))
                    .get((call.op.index() * n + a) * n + b)
                    .copied()
                    .unwrap_or(FAST_SLOW);
                if cell != FAST_SLOW {
                    return Ok((DType::ALL[(cell & 0x7f) as usize], cell & 0x80 != 0));
                }
            }
        }
        self.resolve_call(call, &mut Trace::new(false))
            .map(|p| (p.result, p.weak))
    }
}

/// A cell of the fast table that needs the full resolver (an error, with its message).
pub(crate) const FAST_SLOW: u8 = 0xff;

impl RulePolicy {
    /// The policy that answers calls of an entry point: this one, the `[forms.NAME]` variant,
    /// or (`function` without a section: the two faces agree) this one again; a named variant
    /// the file does not describe is refused.
    ///
    /// ```
    /// use promote::{builtin, Form};
    /// let tf = builtin("tf").unwrap();
    /// assert_eq!(tf.for_form(Form::Function).unwrap().form, Form::Function);
    /// assert!(builtin("numpy").unwrap().for_form(Form::Tnp).is_err());
    /// ```
    pub fn for_form(&self, form: Form) -> Result<&RulePolicy, PromoteError> {
        if form == self.form {
            return Ok(self);
        }
        match self.forms.iter().find(|v| v.form == form) {
            Some(v) => Ok(&v.policy),
            None if form == Form::Function && self.form == Form::Operator => Ok(self),
            None => Err(PromoteError::FormMissing {
                policy: self.name.clone(),
                form: form.name().into(),
                framework: self.framework.clone(),
                has: self.form_names().join(", "),
            }),
        }
    }

    /// One entry point of the policy as a policy of its own, named `NAME:FORM`: every call it
    /// resolves goes through that entry point (what `promote diff tf:function tf:operator`
    /// and `--form` compare and tabulate).
    ///
    /// ```
    /// use promote::{builtin, Call, Form, Policy};
    /// let f = builtin("tf").unwrap().as_form(Form::Function).unwrap();
    /// assert_eq!(f.name, "tf:function");
    /// let c: Call = "add 1 uint8".parse().unwrap();
    /// assert!(f.result(&c).is_err()); // tf.math.add(1, t): the 1 is int32 on its own
    /// assert!(builtin("tf").unwrap().result(&c).is_ok()); // 1 + t is uint8
    /// ```
    pub fn as_form(&self, form: Form) -> Result<RulePolicy, PromoteError> {
        let mut p = self.for_form(form)?.clone();
        p.name = format!("{}:{form}", self.name);
        p.form = Form::Operator;
        p.forms = Vec::new();
        Ok(p)
    }

    /// The entry points the policy answers for: `operator`, `function`, and the named variants
    /// its file describes.
    ///
    /// ```
    /// let tf = promote::builtin("tf").unwrap();
    /// assert_eq!(tf.form_names()[..2], ["operator", "function"]);
    /// ```
    pub fn form_names(&self) -> Vec<&'static str> {
        let mut names = vec![Form::Operator.name(), Form::Function.name()];
        for v in &self.forms {
            if !names.contains(&v.form.name()) {
                names.push(v.form.name());
            }
        }
        names
    }

    /// Where a form's differences come from (its `[forms.NAME] source`), `None` for a form the
    /// file does not describe.
    ///
    /// ```
    /// use promote::{builtin, Form};
    /// assert!(builtin("tf").unwrap().form_source(Form::Function).is_some());
    /// assert!(builtin("oneflow").unwrap().form_source(Form::Function).is_some());
    /// assert_eq!(builtin("torch").unwrap().form_source(Form::Tnp), None);
    /// ```
    pub fn form_source(&self, form: Form) -> Option<&str> {
        self.forms
            .iter()
            .find(|v| v.form == form)
            .map(|v| v.source.as_str())
    }

    /// Whether the framework has this dtype.
    ///
    /// ```
    /// use promote::{load_file, DType};
    /// let jax = load_file(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/jax.toml"))).unwrap();
    /// assert!(jax.has(DType::BFloat16));
    /// ```
    pub fn has(&self, d: DType) -> bool {
        self.available[d.index()]
    }

    /// The dtype the framework silently replaces `d` by (JAX without x64: int64 → int32).
    ///
    /// ```
    /// use promote::{load_file, DType};
    /// let jax = load_file(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/jax.toml"))).unwrap();
    /// assert_eq!(jax.canonical(DType::Int64), DType::Int32);
    /// ```
    pub fn canonical(&self, d: DType) -> DType {
        self.canonical[d.index()]
    }

    /// The compiled rule of an op, `None` where the framework lacks the op.
    pub(crate) fn op_rule(&self, op: Op) -> Option<&OpRule> {
        self.ops.get(op.index()).filter(|r| r.known)
    }

    /// Whether the framework has the op.
    ///
    /// ```
    /// use promote::{load_file, Op};
    /// let torch = load_file(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/torch.toml"))).unwrap();
    /// assert!(torch.knows(Op::Add));
    /// ```
    pub fn knows(&self, op: Op) -> bool {
        self.op_rule(op).is_some()
    }

    /// The rule of an op, or the error of a framework that lacks it.
    pub(crate) fn rule_of(&self, op: Op) -> Result<&OpRule, PromoteError> {
        self.op_rule(op).ok_or_else(|| PromoteError::Unsupported {
            policy: self.name.clone(),
            op: op.name().into(),
            dtype: "any dtype".into(),
            rule: format!(
                "the framework has no `{op}`; `promote ops --policy {}` lists the ops it has",
                self.name
            ),
        })
    }

    /// Where the policy's element semantics come from (its `[kernel] source`: the recordings
    /// they replay, or why there are none).
    ///
    /// ```
    /// let paddle = promote::builtin("paddle").unwrap();
    /// assert!(paddle.semantics_source().contains("tests/fixtures/eval/paddle.jsonl.gz"));
    /// ```
    pub fn semantics_source(&self) -> &str {
        &self.semantics_source
    }

    /// Where the `out` rule comes from.
    ///
    /// ```
    /// use promote::load_file;
    /// let torch = load_file(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/torch.toml"))).unwrap();
    /// assert!(!torch.out_source().is_empty());
    /// ```
    pub fn out_source(&self) -> &str {
        &self.out_source
    }

    /// The nodes a Python literal of this kind enters the promotion at, in the order they are
    /// tried (the first its value fits; the last when none does).
    ///
    /// ```
    /// use promote::{builtin, operand::LiteralKind};
    /// let jax = builtin("jax").unwrap();
    /// let names: Vec<&str> = jax.literal_nodes(LiteralKind::Float).map(|n| n.name.as_str()).collect();
    /// assert_eq!(names, ["f*"]);
    /// ```
    pub fn literal_nodes(&self, kind: LiteralKind) -> impl Iterator<Item = &Node> {
        self.literal_node[kind as usize]
            .iter()
            .map(|&n| &self.nodes[n])
    }

    /// The node a weakly typed tensor of dtype `d` enters the promotion at (its own dtype's
    /// node where the policy has no weak node for it).
    ///
    /// ```
    /// use promote::{builtin, DType};
    /// let jax = builtin("jax").unwrap();
    /// assert_eq!(jax.weak_node(DType::Int32).name, "i*");
    /// ```
    pub fn weak_node(&self, d: DType) -> &Node {
        &self.nodes[self.weak_node[self.canonical(d).index()]]
    }

    pub(crate) fn join_nodes(&self, a: usize, b: usize) -> Joined {
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

    pub(crate) fn node_name(&self, n: usize) -> &str {
        &self.nodes[n].name
    }
}
