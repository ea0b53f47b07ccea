//! A plan: what resolving a call decided, and why.
//!
//! ```
//! use promote::{builtin, Call, DType, Policy};
//! let torch = builtin("torch").unwrap();
//! let plan = torch.resolve(&"divide int8 int8".parse::<Call>().unwrap()).unwrap();
//! assert_eq!(plan.compute, DType::Float32);   // true division of ints computes in the default float
//! assert_eq!(plan.inputs, vec![DType::Float32, DType::Float32]);
//! assert_eq!(plan.result, DType::Float32);
//! assert!(!plan.weak);
//! ```

use std::fmt;

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Op;
use crate::operand::{Literal, LiteralKind};

/// Where a join comes from: the policy's lattice or its table.
///
/// ```
/// use promote::{builtin, Call, JoinSource, Policy, Step};
/// let plan = builtin("jax").unwrap().resolve(&"add int8 uint8".parse::<Call>().unwrap()).unwrap();
/// assert!(plan.steps.iter().any(|s| matches!(s, Step::Join { source: JoinSource::Lattice, .. })));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinSource {
    /// The least upper bound in the policy's `[lattice]`.
    Lattice,
    /// A cell of the policy's `[table]`.
    Table,
}

impl JoinSource {
    /// `lattice` or `table`.
    ///
    /// ```
    /// assert_eq!(promote::JoinSource::Table.name(), "table");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            JoinSource::Lattice => "lattice",
            JoinSource::Table => "table",
        }
    }
}

/// One rule that took part in a decision, with what it decided and where it comes from.
///
/// Render a step with [`Step::rule`] (its kind, one word) and its [`Display`](fmt::Display)
/// (what it decided, in plain words); match on it for the structured parts.
///
/// ```
/// use promote::{builtin, Call, Policy, Step};
/// let numpy = builtin("numpy").unwrap();
/// let plan = numpy.resolve(&"add uint8 int8".parse::<Call>().unwrap()).unwrap();
/// assert!(plan.steps.iter().any(|s| matches!(s,
///     Step::Join { a, b, join, .. } if a == "uint8" && b == "int8" && join == "int16")));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Step {
    /// A Python literal entered the promotion at a node.
    Literal {
        /// The literal.
        literal: Literal,
        /// The node it entered at (`float32`, `f*`).
        node: String,
        /// Whether that node is weak.
        weak: bool,
    },
    /// A dtype the framework replaces by another in this mode (JAX without x64: int64 → int32).
    Canonical {
        /// The dtype as given.
        from: DType,
        /// The dtype the framework uses.
        to: DType,
    },
    /// Two nodes joined in the policy's lattice or table.
    Join {
        /// Lattice or table.
        source: JoinSource,
        /// The first node.
        a: String,
        /// The second node.
        b: String,
        /// Their join (the table's cell, or the lattice's least upper bound).
        join: String,
    },
    /// Weak typing: a weak operand's node, a weak result, the dtypes of all-weak operands.
    Weak(String),
    /// Operand categories meeting (PyTorch, NumPy, Paddle, OneFlow).
    Category(String),
    /// NumPy 1's value-based casting: an operand counted by its value.
    Value(String),
    /// NumPy 1's loop search: the first loop every operand casts to safely.
    Loop(String),
    /// The op's own rule (compute dtype, result dtype, one dtype for all operands).
    OpRule {
        /// What it decided.
        detail: String,
        /// Where the op's rules come from (the `source` of its `[[ops]]` entries).
        sources: Vec<String>,
    },
    /// A corner rule of the framework decided.
    Corner {
        /// What it decided.
        detail: String,
        /// Where the rule comes from (its `source` in the policy file).
        source: String,
    },
    /// The cast into `out`.
    Out(String),
    /// A mixed-precision autocast layer decided (`crate::autocast`): the list the op is on
    /// and the operands it cast, before the promotion's steps.
    Autocast {
        /// The autocast (`torch-cpu-bf16`).
        layer: String,
        /// The class of the op's list (`lower_precision`, `fp32`, `promote`, `fallthrough`).
        list: String,
        /// What it decided, in plain words.
        detail: String,
        /// Where the list comes from (its `source` in the autocast file).
        source: String,
    },
}

impl Step {
    /// The kind of rule, one word: `literal`, `canonicalize`, `lattice`, `table`, `weak`,
    /// `category`, `value`, `loops`, `op`, `corner`, `out`, `autocast`.
    ///
    /// ```
    /// use promote::{builtin, Call, Policy};
    /// let plan = builtin("torch").unwrap().resolve(&"add int8 1.0".parse::<Call>().unwrap()).unwrap();
    /// assert_eq!(plan.steps[0].rule(), "literal");
    /// ```
    pub fn rule(&self) -> &'static str {
        match self {
            Step::Literal { .. } => "literal",
            Step::Canonical { .. } => "canonicalize",
            Step::Join { source, .. } => source.name(),
            Step::Weak(_) => "weak",
            Step::Category(_) => "category",
            Step::Value(_) => "value",
            Step::Loop(_) => "loops",
            Step::OpRule { .. } => "op",
            Step::Corner { .. } => "corner",
            Step::Out(_) => "out",
            Step::Autocast { .. } => "autocast",
        }
    }

    /// Where the rule comes from, when the policy file says (`source = ...`).
    ///
    /// ```
    /// use promote::Step;
    /// let corner = Step::Corner { detail: "a rule".into(), source: "torch/_refs".into() };
    /// assert_eq!(corner.source(), Some("torch/_refs"));
    /// assert_eq!(Step::Weak("weak".into()).source(), None);
    /// ```
    pub fn source(&self) -> Option<&str> {
        match self {
            Step::Corner { source, .. } | Step::Autocast { source, .. } if !source.is_empty() => {
                Some(source)
            }
            Step::OpRule { sources, .. } if !sources.is_empty() => {
                sources.last().map(|s| s.as_str())
            }
            _ => None,
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Literal {
                literal,
                node,
                weak,
            } => write!(
                f,
                "Python {} {} enters as {}{}",
                literal.kind().name(),
                literal,
                node,
                if *weak { " (weak)" } else { "" }
            ),
            Step::Canonical { from, to } => write!(f, "{from} is {to} in this mode"),
            Step::Join { a, b, join, .. } => write!(f, "join({a}, {b}) = {join}"),
            Step::Corner { detail, source } if !source.is_empty() => {
                write!(f, "{detail} ({source})")
            }
            Step::Autocast { detail, source, .. } => write!(f, "{detail} ({source})"),
            Step::Weak(d)
            | Step::Category(d)
            | Step::Value(d)
            | Step::Loop(d)
            | Step::Out(d)
            | Step::OpRule { detail: d, .. }
            | Step::Corner { detail: d, .. } => f.write_str(d),
        }
    }
}

/// The resolution of one call.
///
/// ```
/// use promote::{builtin, Call, DType, Policy};
/// let plan = builtin("numpy").unwrap().resolve(&"true_divide int8 int8".parse::<Call>().unwrap()).unwrap();
/// assert_eq!((plan.compute, plan.result, plan.weak), (DType::Float64, DType::Float64, false));
/// assert_eq!(plan.inputs, [DType::Float64, DType::Float64]);
/// assert_eq!(plan.operands, [DType::Int8, DType::Int8]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The op.
    pub op: Op,
    /// The dtype each operand is cast to before the kernel runs (the compute dtype, for most ops).
    pub inputs: Vec<DType>,
    /// The dtype each operand's data must have when the plan runs: a tensor's own dtype, a
    /// Python literal's input dtype (the one-value array `kernel::eval::literal_array` makes
    /// of it). `kernel::execute` refuses data of another dtype.
    pub operands: Vec<DType>,
    /// The dtype the kernel computes in.
    pub compute: DType,
    /// The dtype of the result (bool for comparisons; the `out` dtype when one is given).
    pub result: DType,
    /// Whether the framework marks the result weakly typed.
    pub weak: bool,
    /// The promoted dtype of the operands before the op's own rule (for `explain`).
    pub promoted: DType,
    /// The rules that decided, in order.
    pub steps: Vec<Step>,
    /// For an op of several results (`divmod`): the plan of each result, in order (the fields
    /// above are the first's); empty for an op of one result.
    pub parts: Vec<Plan>,
    /// The result is a plain Python number of this kind, not an array (NumPy's `np.real(1)` is
    /// `1`); `result` is then the dtype the framework would give that number.
    pub scalar: Option<LiteralKind>,
    /// The answer of a yes/no question (`can_cast`): `result` is then `bool`.
    pub verdict: Option<bool>,
}

impl Plan {
    /// Every result as (dtype, weak): the parts' for an op of several results, else this one.
    ///
    /// ```
    /// use promote::{builtin, Call, DType, Policy};
    /// let numpy = builtin("numpy").unwrap();
    /// let plan = numpy.resolve(&"divmod int8 int16".parse::<Call>().unwrap()).unwrap();
    /// assert_eq!(plan.results(), vec![(DType::Int16, false), (DType::Int16, false)]);
    /// ```
    pub fn results(&self) -> Vec<(DType, bool)> {
        if self.parts.is_empty() {
            vec![(self.result, self.weak)]
        } else {
            self.parts.iter().map(|p| (p.result, p.weak)).collect()
        }
    }

    /// The steps as numbered lines, `N. [rule] what it decided`.
    ///
    /// ```
    /// use promote::{builtin, Call, Policy};
    /// let torch = builtin("torch").unwrap();
    /// let plan = torch.resolve(&"add int8 1.0".parse::<Call>().unwrap()).unwrap();
    /// assert!(plan.explain().starts_with("1. [literal] Python float 1.0 enters as float32\n"));
    /// ```
    pub fn explain(&self) -> String {
        render_steps(&self.steps)
    }

    /// The plan with [`Plan::operands`] set from its call (each part's too): a tensor's data
    /// is in its own dtype, a Python literal's in its input dtype.
    pub(crate) fn with_operands(mut self, call: &crate::op::Call) -> Plan {
        self.set_operands(call);
        self
    }

    fn set_operands(&mut self, call: &crate::op::Call) {
        let inputs = self.inputs.iter().chain(std::iter::repeat(&self.compute));
        self.operands = call
            .operands
            .iter()
            .zip(inputs)
            .map(|(o, &input)| o.dtype().unwrap_or(input))
            .collect();
        for part in &mut self.parts {
            part.set_operands(call);
        }
    }
}

/// Steps as numbered lines, `N. [rule] what it decided`.
pub(crate) fn render_steps(steps: &[Step]) -> String {
    let mut s = String::new();
    for (i, st) in steps.iter().enumerate() {
        s.push_str(&format!("{}. [{}] {}\n", i + 1, st.rule(), st));
    }
    s
}

/// A resolution with its steps, whether it succeeded or was refused: the answer to "why was
/// this refused?" (see [`crate::Policy::resolve_traced`]).
///
/// ```
/// use promote::{builtin, Call, Policy};
/// let t = builtin("torch").unwrap().resolve_traced(&"add uint16 int8".parse::<Call>().unwrap());
/// assert!(t.outcome.is_err());
/// let t = builtin("torch").unwrap().resolve_traced(&"add int8 1.0".parse::<Call>().unwrap());
/// assert_eq!(t.steps, t.outcome.unwrap().steps);
/// ```
#[derive(Clone, Debug)]
pub struct Traced {
    /// The plan, or the refusal.
    pub outcome: Result<Plan, PromoteError>,
    /// The steps taken, up to the plan or the refusal.
    pub steps: Vec<Step>,
}

impl Traced {
    /// The steps as numbered lines, then the refusal, if any.
    ///
    /// ```
    /// use promote::{builtin, Call, Policy};
    /// let torch = builtin("torch").unwrap();
    /// let t = torch.resolve_traced(&"add uint16 int8".parse::<Call>().unwrap());
    /// assert!(t.outcome.is_err());
    /// assert!(t.explain().contains("refused"));
    /// ```
    pub fn explain(&self) -> String {
        let mut s = render_steps(&self.steps);
        if let Err(e) = &self.outcome {
            s.push_str(&format!("refused: {e}\n"));
        }
        s
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ins: Vec<&str> = self.inputs.iter().map(|d| d.name()).collect();
        write!(
            f,
            "{}: cast inputs to [{}], compute in {}, result {}{}",
            self.op,
            ins.join(", "),
            self.compute,
            if self.weak { "~" } else { "" },
            self.result
        )
    }
}
