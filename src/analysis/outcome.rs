//! What one call answers, as far as the analyses care ([`Outcome`]), and the operands they try
//! ([`representatives`]).

use std::fmt;

use crate::dtype::DType;
use crate::error::ErrorKind;
use crate::op::{Call, Op};
use crate::operand::{Literal, LiteralKind, Operand, OperandClass};
use crate::policy::{Policy, RulePolicy};

/// The answer to one call, as far as the algebra cares.
///
/// ```
/// use promote::{analysis::{outcome, Outcome}, builtin, Call, DType, ErrorKind};
/// let torch = builtin("torch").unwrap();
/// assert_eq!(outcome(&*torch, &"add int8 uint8".parse::<Call>().unwrap()), Outcome::Value(DType::Int16, false));
/// assert_eq!(outcome(&*torch, &"add uint16 int8".parse::<Call>().unwrap()), Outcome::Error(ErrorKind::NoPromotion));
/// ```
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
///
/// ```
/// use promote::{analysis::{outcome, Outcome}, builtin, Call, DType};
/// let jax = builtin("jax").unwrap();
/// assert_eq!(outcome(&*jax, &"add int8 1.0".parse::<Call>().unwrap()), Outcome::Value(DType::Float32, true));
/// ```
pub fn outcome(p: &dyn Policy, call: &Call) -> Outcome {
    match p.result(call) {
        Ok((d, weak)) => Outcome::Value(d, weak),
        Err(e) => Outcome::Error(e.kind()),
    }
}

/// The representative operands of a policy: a tensor and a 0-d tensor of every dtype the framework
/// has, a weak tensor of the dtype of each weak node (JAX's `i*` gives a weak int32 or int64,
/// TensorFlow's `f32*` a weak float32: the weak types the frameworks actually make), and the Python
/// literals `True`, `1`, `1.0`, `1j`.
pub(crate) fn representatives(p: &RulePolicy) -> Vec<Operand> {
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
pub(super) fn python(op: Op, a: &Literal, b: &Literal) -> Option<Literal> {
    use LiteralKind as K;
    let k = a.kind().max(b.kind());
    let kind = match op.group() {
        "comparison" => {
            if k == K::Complex && !matches!(op.name(), "equal" | "not_equal") {
                return None;
            }
            K::Bool
        }
        "logical" => K::Bool,
        "bitwise" if k > K::Int => return None,
        "bitwise" => k,
        "division" => k.max(K::Float),
        _ if matches!(op.name(), "maximum" | "minimum") => k,
        _ if matches!(op.name(), "floor_divide" | "remainder") && k == K::Complex => return None,
        _ => k.max(K::Int),
    };
    Literal::parse(match kind {
        K::Bool => "True",
        K::Int => "1",
        K::Float => "1.0",
        K::Complex => "1j",
    })
}

pub(super) fn class_order(c: OperandClass) -> u8 {
    match c {
        OperandClass::Tensor => 0,
        OperandClass::ZeroDim => 1,
        OperandClass::Weak => 2,
        OperandClass::Literal => 3,
    }
}

/// A class's name for people (`promote check`'s report).
#[cfg(feature = "cli")]
pub(crate) fn class_words(c: OperandClass) -> &'static str {
    match c {
        OperandClass::Tensor => "tensor",
        OperandClass::ZeroDim => "0-d tensor",
        OperandClass::Weak => "weak tensor",
        OperandClass::Literal => "Python scalar",
    }
}
