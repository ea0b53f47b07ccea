//! The ops of the machine interface, and a call: an op over operands with an optional `out`.

use std::fmt;
use std::str::FromStr;

use crate::dtype::DType;
use crate::error::{suggest, PromoteError};
use crate::operand::Operand;

macro_rules! ops {
    ($($variant:ident = $name:literal, $arity:literal;)*) => {
        /// An op of the spec.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Op { $($variant),* }

        impl Op {
            /// Every op, in the spec's order.
            pub const ALL: &'static [Op] = &[$(Op::$variant),*];
            /// The spec's name (`floor_divide`, `logical_xor`, ...).
            pub fn name(self) -> &'static str { match self { $(Op::$variant => $name),* } }
            /// How many operands it takes.
            pub fn arity(self) -> usize { match self { $(Op::$variant => $arity),* } }
        }
    };
}

ops! {
    Add = "add", 2;
    Subtract = "subtract", 2;
    Multiply = "multiply", 2;
    Divide = "divide", 2;
    FloorDivide = "floor_divide", 2;
    Remainder = "remainder", 2;
    Power = "power", 2;
    Maximum = "maximum", 2;
    Minimum = "minimum", 2;
    Equal = "equal", 2;
    NotEqual = "not_equal", 2;
    Less = "less", 2;
    LessEqual = "less_equal", 2;
    Greater = "greater", 2;
    GreaterEqual = "greater_equal", 2;
    LogicalAnd = "logical_and", 2;
    LogicalOr = "logical_or", 2;
    LogicalXor = "logical_xor", 2;
    BitwiseAnd = "bitwise_and", 2;
    BitwiseOr = "bitwise_or", 2;
    BitwiseXor = "bitwise_xor", 2;
    Matmul = "matmul", 2;
    Sum = "sum", 1;
}

impl Op {
    /// Parse a spec name, or fail with the nearest one.
    ///
    /// ```
    /// use promote::Op;
    /// assert_eq!(Op::parse("floor_divide").unwrap(), Op::FloorDivide);
    /// assert!(Op::parse("substract").unwrap_err().to_string().contains("subtract"));
    /// ```
    pub fn parse(s: &str) -> Result<Op, PromoteError> {
        Op::ALL
            .iter()
            .copied()
            .find(|o| o.name() == s)
            .ok_or_else(|| PromoteError::UnknownOp {
                name: s.to_string(),
                suggestion: suggest(s, Op::ALL.iter().map(|o| o.name())),
            })
    }

    /// The op group policies attach rules to: `arithmetic`, `division`, `comparison`, `logical`, `bitwise`, `matmul`, `reduction`.
    pub fn group(self) -> &'static str {
        use Op::*;
        match self {
            Add | Subtract | Multiply | FloorDivide | Remainder | Power | Maximum | Minimum => {
                "arithmetic"
            }
            Divide => "division",
            Equal | NotEqual | Less | LessEqual | Greater | GreaterEqual => "comparison",
            LogicalAnd | LogicalOr | LogicalXor => "logical",
            BitwiseAnd | BitwiseOr | BitwiseXor => "bitwise",
            Matmul => "matmul",
            Sum => "reduction",
        }
    }
}

impl fmt::Display for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Op {
    type Err = PromoteError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Op::parse(s)
    }
}

/// One call to resolve: an op, its operands in call order, and the dtype of an `out`/in-place target.
///
/// ```
/// use promote::Call;
/// let c: Call = "add int8 300 out=int8".parse().unwrap();
/// assert_eq!(c.operands.len(), 2);
/// assert_eq!(c.to_string(), "add int8 300 out=int8");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Call {
    pub op: Op,
    pub operands: Vec<Operand>,
    pub out: Option<DType>,
}

impl Call {
    /// A call, checked for the op's arity.
    pub fn new(op: Op, operands: Vec<Operand>, out: Option<DType>) -> Result<Call, PromoteError> {
        if operands.len() != op.arity() {
            return Err(PromoteError::invalid(format!(
                "{} takes {} operand{}, got {}",
                op,
                op.arity(),
                if op.arity() == 1 { "" } else { "s" },
                operands.len()
            )));
        }
        if op == Op::Matmul
            && operands
                .iter()
                .any(|o| o.is_zero_dim() || o.literal().is_some())
        {
            return Err(PromoteError::invalid(
                "matmul takes tensors of one or more dimensions; use multiply for scalars",
            ));
        }
        Ok(Call { op, operands, out })
    }
}

impl FromStr for Call {
    type Err = PromoteError;
    /// `[OP] OPERAND [OPERAND] [out=DTYPE]`, operands in the compact syntax; without an op
    /// word the op is `add` (the one call grammar of every subcommand).
    ///
    /// ```
    /// use promote::{Call, Op};
    /// assert_eq!("int8 1.0".parse::<Call>().unwrap().op, Op::Add);
    /// assert!("out=int8".parse::<Call>().is_err());
    /// assert!("substract int8 int8".parse::<Call>().unwrap_err().to_string().contains("subtract"));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words: Vec<&str> = s.split_whitespace().collect();
        let mut out = None;
        if let Some(d) = words.last().and_then(|w| w.strip_prefix("out=")) {
            out = Some(DType::parse(d)?);
            words.pop();
        }
        let (op, operands) = match words.split_first() {
            None => {
                return Err(PromoteError::invalid(
                    "a call needs operands: write `[OP] OPERAND [OPERAND] [out=DTYPE]`, such as `add int8 1.0`",
                ))
            }
            Some((first, rest)) => match Op::parse(first) {
                Ok(op) => (op, rest),
                Err(unknown_op) => {
                    // no op word: the op is add, unless the word is neither operand nor op
                    if first.parse::<Operand>().is_err() && op_suggestion(first).is_some() {
                        return Err(unknown_op);
                    }
                    (Op::Add, &words[..])
                }
            },
        };
        let operands = operands
            .iter()
            .map(|t| t.parse())
            .collect::<Result<Vec<Operand>, _>>()?;
        Call::new(op, operands, out)
    }
}

fn op_suggestion(word: &str) -> Option<String> {
    suggest(word, Op::ALL.iter().map(|o| o.name()))
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.op.name())?;
        for o in &self.operands {
            write!(f, " {o}")?;
        }
        if let Some(d) = self.out {
            write!(f, " out={d}")?;
        }
        Ok(())
    }
}
