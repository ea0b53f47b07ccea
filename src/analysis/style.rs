//! What a table shows — its op ([`TableOp`]), its columns ([`With`]) — and how it names and
//! orders dtypes ([`Style`]: the frameworks' docs each have theirs).

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Op;
use crate::operand::Literal;
use crate::policy::RulePolicy;

use super::Outcome;

/// What a table's cells answer: an op's result, or the promotion alone (the policy's join table,
/// before any op rule, as the lattice tables of JAX's and TensorFlow's docs show it).
///
/// ```
/// use promote::analysis::TableOp;
/// assert_eq!(TableOp::parse("promote").unwrap(), TableOp::Promote);
/// assert_eq!(TableOp::parse("add").unwrap().arity(), 2);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableOp {
    /// An op's result.
    Call(Op),
    /// The promotion alone (`--op promote`).
    Promote,
}

impl TableOp {
    /// `promote`, or an op's name.
    ///
    /// ```
    /// use promote::analysis::TableOp;
    /// assert_eq!(TableOp::parse("promote").unwrap(), TableOp::Promote);
    /// assert!(TableOp::parse("ad").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<TableOp, PromoteError> {
        if s == "promote" {
            Ok(TableOp::Promote)
        } else {
            Op::parse(s).map(TableOp::Call)
        }
    }
    /// `promote`, or the op's name.
    ///
    /// ```
    /// use promote::analysis::TableOp;
    /// assert_eq!(TableOp::parse("multiply").unwrap().name(), "multiply");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            TableOp::Call(op) => op.name(),
            TableOp::Promote => "promote",
        }
    }
    /// How many operands a cell's call takes.
    ///
    /// ```
    /// use promote::analysis::TableOp;
    /// assert_eq!(TableOp::Promote.arity(), 2);
    /// ```
    pub fn arity(self) -> usize {
        match self {
            TableOp::Call(op) => op.arity(),
            TableOp::Promote => 2,
        }
    }
}

impl std::fmt::Display for TableOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a table's columns are (the rows are tensors of each dtype, or every node with `Nodes`).
///
/// ```
/// use promote::analysis::With;
/// assert_eq!(With::parse("zero-dim").ok(), Some(With::ZeroDim));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum With {
    /// Tensor with tensor.
    Tensors,
    /// Tensor with Python scalars (True, 1, 1.0, 1j; or --literals).
    Scalars,
    /// Tensor with 0-d tensors.
    ZeroDim,
    /// Tensor with weakly typed tensors.
    Weak,
    /// Every node of the policy, rows and columns: the dtypes and the weak types (JAX's i*,
    /// TensorFlow's i32*), as the JAX and TensorFlow docs print their tables.
    Nodes,
    /// A one-operand op (a reduction) with each dtype as its `dtype=` argument (`sum(a, dtype=D)`).
    #[cfg_attr(feature = "cli", value(name = "dtype-arg"))]
    DTypeArg,
}

/// How dtypes are named and ordered.
///
/// ```
/// use promote::analysis::Style;
/// assert_eq!(Style::parse("jax").unwrap(), Style::Jax);
/// assert_eq!(Style::Auto.resolve("jax"), Style::Jax);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Style {
    /// The style of the policy's framework docs: paddle for paddle, tf for tf-*, jax for jax*, else plain.
    Auto,
    /// Short names (b1, u8, i32, bf16, c64) in the spec's order; weak results as ~i32.
    Plain,
    /// Paddle's guide: bool, floats first in the tensor table, `+/-/*` in the corner.
    Paddle,
    /// TensorFlow's guide: b, u8 ..., weak types as i32*, f32*, c128*.
    Tf,
    /// JAX's docs: b1, u8 ..., weak types as i*, f*, c*.
    Jax,
    /// Full names (int8, float32), weak results as ~int32.
    Full,
}

/// A name from a list, or an `invalid` error naming the list.
fn by_name<T: Copy>(what: &str, s: &str, all: &[(&str, T)]) -> Result<T, PromoteError> {
    let s_low = s.to_ascii_lowercase();
    all.iter()
        .find(|(n, _)| *n == s_low)
        .map(|(_, v)| *v)
        .ok_or_else(|| PromoteError::Invalid {
            message: format!(
                "{what} `{s}` is not one of {}",
                all.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
            ),
        })
}

impl With {
    /// Every choice with its name (`tensors`, `scalars`, `zero-dim`, `weak`, `nodes`,
    /// `dtype-arg`).
    pub const ALL: [(&'static str, With); 6] = [
        ("tensors", With::Tensors),
        ("scalars", With::Scalars),
        ("zero-dim", With::ZeroDim),
        ("weak", With::Weak),
        ("nodes", With::Nodes),
        ("dtype-arg", With::DTypeArg),
    ];
    /// By name (any case).
    ///
    /// ```
    /// use promote::analysis::With;
    /// assert_eq!(With::parse("zero-dim").unwrap(), With::ZeroDim);
    /// assert!(With::parse("sideways").unwrap_err().to_string().contains("tensors, scalars"));
    /// ```
    pub fn parse(s: &str) -> Result<With, PromoteError> {
        by_name("with", s, &With::ALL)
    }
}

impl Style {
    /// Every style with its name (`auto`, `plain`, `paddle`, `tf`, `jax`, `full`).
    pub const ALL: [(&'static str, Style); 6] = [
        ("auto", Style::Auto),
        ("plain", Style::Plain),
        ("paddle", Style::Paddle),
        ("tf", Style::Tf),
        ("jax", Style::Jax),
        ("full", Style::Full),
    ];
    /// By name (any case).
    ///
    /// ```
    /// use promote::analysis::Style;
    /// assert!(Style::parse("nonsense").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Style, PromoteError> {
        by_name("style", s, &Style::ALL)
    }

    /// The style `auto` stands for with this policy.
    ///
    /// ```
    /// use promote::analysis::Style;
    /// assert_eq!(Style::Auto.resolve("jax-x64"), Style::Jax);
    /// assert_eq!(Style::Full.resolve("jax"), Style::Full);
    /// ```
    pub fn resolve(self, policy: &str) -> Style {
        match self {
            Style::Auto if policy.starts_with("paddle") => Style::Paddle,
            Style::Auto if policy.starts_with("tf") => Style::Tf,
            Style::Auto if policy.starts_with("jax") => Style::Jax,
            Style::Auto => Style::Plain,
            s => s,
        }
    }

    /// A dtype's name in this style.
    ///
    /// ```
    /// use promote::{analysis::Style, DType};
    /// assert_eq!(Style::Full.dtype(DType::Int8), "int8");
    /// ```
    pub fn dtype(self, d: DType) -> String {
        match (self, d) {
            (Style::Full, _) => d.name().into(),
            (Style::Paddle, DType::Bool) => "bool".into(),
            (Style::Tf, DType::Bool) => "b".into(),
            _ => d.short_name().into(),
        }
    }

    /// A weakly typed dtype's name in this style (`policy` names its weak nodes).
    ///
    /// ```
    /// use promote::{analysis::Style, builtin, DType};
    /// let jax = builtin("jax").unwrap();
    /// assert_ne!(Style::Jax.weak(&jax, DType::Int32), Style::Jax.dtype(DType::Int32));
    /// ```
    pub fn weak(self, p: &RulePolicy, d: DType) -> String {
        match self {
            Style::Tf => format!("{}*", self.dtype(d)),
            Style::Full | Style::Paddle => format!("~{}", self.dtype(d)),
            _ => p
                .nodes
                .iter()
                .skip(DType::COUNT)
                .find(|n| n.weak && p.canonical(n.dtype) == d)
                .map_or_else(|| format!("~{}", self.dtype(d)), |n| n.name.clone()),
        }
    }

    /// An answer in this style: `i16`, `i32*`, `-` (no promotion), `!` (unsupported), `OF`
    /// (overflow), `V` (refused for these values), `?` (invalid).
    ///
    /// ```
    /// use promote::{analysis::{Outcome, Style}, builtin, DType};
    /// let numpy = builtin("numpy").unwrap();
    /// assert_eq!(Style::Full.outcome(&numpy, &Outcome::Value(DType::Int16, false)), "int16");
    /// ```
    pub fn outcome(self, p: &RulePolicy, o: &Outcome) -> String {
        use crate::ErrorKind as E;
        match o {
            Outcome::Value(d, false) => self.dtype(*d),
            Outcome::Value(d, true) => self.weak(p, *d),
            Outcome::Error(k) => match k {
                E::NoPromotion => "-".into(),
                E::Unsupported => "!".into(),
                E::Overflow => "OF".into(),
                E::Value => "V".into(),
                E::Invalid => "?".into(),
            },
            Outcome::Python(k) => k.name().into(),
        }
    }

    /// A Python scalar's column label: Paddle's guide heads its columns by kind, which works
    /// while each kind appears once among `all`.
    ///
    /// ```
    /// use promote::{analysis::Style, Literal};
    /// let all: Vec<Literal> = ["1", "1.0"].iter().map(|s| Literal::parse(s).unwrap()).collect();
    /// assert!(!Style::Full.literal(&all[1], &all).is_empty());
    /// ```
    pub fn literal(self, l: &Literal, all: &[Literal]) -> String {
        let unique = all.iter().filter(|m| m.kind() == l.kind()).count() == 1;
        if self == Style::Paddle && unique {
            l.kind().name().into()
        } else {
            l.to_string()
        }
    }

    /// The dtypes as rows, in this style's order.
    ///
    /// ```
    /// use promote::analysis::{Style, With};
    /// assert!(!Style::Full.order(With::Tensors).is_empty());
    /// ```
    pub fn order(self, with: With) -> Vec<DType> {
        match (self, with) {
            (Style::Paddle, With::Tensors) => vec![
                DType::BFloat16,
                DType::Float16,
                DType::Float32,
                DType::Float64,
                DType::Bool,
                DType::UInt8,
                DType::UInt16,
                DType::UInt32,
                DType::UInt64,
                DType::Int8,
                DType::Int16,
                DType::Int32,
                DType::Int64,
                DType::Complex64,
                DType::Complex128,
            ],
            (Style::Paddle, _) => vec![
                DType::Bool,
                DType::UInt8,
                DType::UInt16,
                DType::UInt32,
                DType::UInt64,
                DType::Int8,
                DType::Int16,
                DType::Int32,
                DType::Int64,
                DType::BFloat16,
                DType::Float16,
                DType::Float32,
                DType::Float64,
                DType::Complex64,
                DType::Complex128,
            ],
            _ => DType::ALL.to_vec(),
        }
    }
}
