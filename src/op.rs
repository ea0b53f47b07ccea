//! The ops of the machine interface, and a call: an op over operands with an optional `out`.

use std::fmt;
use std::str::FromStr;

use crate::dtype::DType;
use crate::error::{suggest, PromoteError};
use crate::operand::Operand;

mod casting;
mod form;
mod registry;

pub use casting::Casting;
pub use form::Form;
pub use registry::{register, OpEntry, OpForm, OpInfo, CATALOGUE};

/// An op: an id into the op registry (`policies/ops.toml`, built in, plus the ops policy files
/// add). Its name, spellings, form, class and kernel are data ([`Op::info`]); the engine has no
/// per-op code.
///
/// ```
/// use promote::{Op, OpForm};
/// let sqrt = Op::parse("sqrt").unwrap();
/// assert_eq!(sqrt.form(), OpForm::Unary);
/// assert_eq!(sqrt.class(), "unary_float");
/// assert_eq!(Op::parse("abs").unwrap().name(), "absolute");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Op(pub(crate) u16);

macro_rules! core_ops {
    ($($variant:ident = $index:literal $name:literal;)*) => {
        /// The spec's version-1 ops, by the position `policies/ops.toml` gives them (code that
        /// must name one of them, such as the kernels of the 23 binary ops, uses these).
        #[allow(non_upper_case_globals)]
        impl Op {
            $(
                #[doc = concat!("`", $name, "`")]
                pub const $variant: Op = Op($index);
            )*
        }

        #[cfg(test)]
        #[test]
        fn core_ops_are_where_the_catalogue_puts_them() {
            $(assert_eq!(Op::$variant.name(), $name);)*
        }
    };
}

core_ops! {
    Add = 0 "add";
    Subtract = 1 "subtract";
    Multiply = 2 "multiply";
    Divide = 3 "divide";
    FloorDivide = 4 "floor_divide";
    Remainder = 5 "remainder";
    Power = 6 "power";
    Maximum = 7 "maximum";
    Minimum = 8 "minimum";
    Equal = 9 "equal";
    NotEqual = 10 "not_equal";
    Less = 11 "less";
    LessEqual = 12 "less_equal";
    Greater = 13 "greater";
    GreaterEqual = 14 "greater_equal";
    LogicalAnd = 15 "logical_and";
    LogicalOr = 16 "logical_or";
    LogicalXor = 17 "logical_xor";
    BitwiseAnd = 18 "bitwise_and";
    BitwiseOr = 19 "bitwise_or";
    BitwiseXor = 20 "bitwise_xor";
    Matmul = 21 "matmul";
    Sum = 22 "sum";
}

impl Op {
    /// Every op: the catalogue's, then those policy files added.
    ///
    /// ```
    /// use promote::Op;
    /// let all = Op::all();
    /// assert!(all.contains(&Op::parse("add").unwrap()));
    /// assert_eq!(all[3].index(), 3);
    /// ```
    pub fn all() -> Vec<Op> {
        registry::all()
    }

    /// The op's entry in the registry.
    ///
    /// ```
    /// let sum = promote::Op::parse("sum").unwrap();
    /// assert_eq!(sum.info().name, "sum");
    /// assert!(sum.info().parts.is_empty());
    /// ```
    pub fn info(self) -> &'static OpInfo {
        registry::info(self)
    }

    /// The op's position in the registry (dense: 0 up to the number of ops).
    ///
    /// ```
    /// use promote::Op;
    /// assert_eq!(Op::all()[Op::Add.index()], Op::Add);
    /// ```
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The op's name (`floor_divide`, `sqrt`, ...).
    ///
    /// ```
    /// assert_eq!(promote::Op::parse("abs").unwrap().name(), "absolute");
    /// ```
    pub fn name(self) -> &'static str {
        self.info().name
    }

    /// How many operands it takes.
    ///
    /// ```
    /// use promote::Op;
    /// assert_eq!(Op::Add.arity(), 2);
    /// assert_eq!(Op::parse("sqrt").unwrap().arity(), 1);
    /// ```
    pub fn arity(self) -> usize {
        self.info().form.operands()
    }

    /// Whether the op takes `n` operands (a variadic op takes any number, at least one).
    ///
    /// ```
    /// use promote::Op;
    /// assert!(Op::Add.accepts(2) && !Op::Add.accepts(3));
    /// assert!(Op::parse("concatenate").unwrap().accepts(5));
    /// ```
    pub fn accepts(self, n: usize) -> bool {
        self.info().form.accepts(n)
    }

    /// Unary, binary, reduction, ternary or variadic.
    ///
    /// ```
    /// use promote::{Op, OpForm};
    /// assert_eq!(Op::parse("sum").unwrap().form(), OpForm::Reduction);
    /// ```
    pub fn form(self) -> OpForm {
        self.info().form
    }

    /// The op class policies attach rules to by default (`arithmetic`, `unary_float`, ...).
    ///
    /// ```
    /// assert_eq!(promote::Op::Add.class(), "arithmetic");
    /// ```
    pub fn class(self) -> &'static str {
        self.info().class
    }

    /// The same as [`Op::class`] (the version-1 word: `arithmetic`, `comparison`, ...).
    ///
    /// ```
    /// use promote::Op;
    /// assert_eq!(Op::Add.group(), Op::Add.class());
    /// ```
    pub fn group(self) -> &'static str {
        self.class()
    }

    /// Parse an op name or spelling, or fail with the nearest one.
    ///
    /// ```
    /// use promote::Op;
    /// assert_eq!(Op::parse("floor_divide").unwrap(), Op::FloorDivide);
    /// assert!(Op::parse("substract").unwrap_err().to_string().contains("subtract"));
    /// ```
    pub fn parse(s: &str) -> Result<Op, PromoteError> {
        registry::find(s).ok_or_else(|| PromoteError::UnknownOp {
            name: s.to_string(),
            suggestion: op_suggestion(s),
        })
    }
}

impl fmt::Debug for Op {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Op({})", self.name())
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
    /// The op.
    pub op: Op,
    /// Its operands, in call order.
    pub operands: Vec<Operand>,
    /// The dtype of the tensor the result is written into (`out=`, in place).
    pub out: Option<DType>,
    /// The op's `dtype=` argument (`np.sum(a, dtype=D)`): the dtype it computes and returns in,
    /// where the policy says the op takes one.
    pub dtype: Option<DType>,
    /// NumPy's `casting=` argument: the casts allowed into the loop and into `out`, where the
    /// policy's functions take it.
    pub casting: Option<Casting>,
    /// The entry point: the operator (the default), the namespace function, or a named variant.
    pub form: Form,
}

impl Call {
    /// A call, checked for the op's arity.
    ///
    /// ```
    /// use promote::{Call, DType, Op, Operand};
    /// let c = Call::new(Op::Add, vec![Operand::tensor(DType::Int8), Operand::tensor(DType::UInt8)], None).unwrap();
    /// assert_eq!(c.to_string(), "add int8 uint8");
    /// assert!(Call::new(Op::Add, vec![Operand::tensor(DType::Int8)], None).is_err());
    /// ```
    pub fn new(op: Op, operands: Vec<Operand>, out: Option<DType>) -> Result<Call, PromoteError> {
        if !op.accepts(operands.len()) {
            return Err(arity_error(op, operands.len()));
        }
        if op.info().verdict
            && !matches!(
                operands.get(1),
                Some(Operand::Tensor {
                    zero_dim: false,
                    weak: false,
                    ..
                })
            )
        {
            return Err(PromoteError::invalid(format!(
                "{op} takes two operands, [from, to]; `to` is a dtype ({{\"dtype\": \"int8\"}}, in the compact syntax `int8`)"
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
        Ok(Call {
            op,
            operands,
            out,
            dtype: None,
            casting: None,
            form: Form::Operator,
        })
    }

    /// The same call with a `casting=` argument.
    ///
    /// ```
    /// use promote::{Call, Casting};
    /// let c: Call = "add int8 int16 out=int16".parse().unwrap();
    /// let c = c.with_casting(Some(Casting::Safe));
    /// assert_eq!(c.to_string(), "add int8 int16 casting=safe out=int16");
    /// ```
    pub fn with_casting(mut self, casting: Option<Casting>) -> Call {
        self.casting = casting;
        self
    }

    /// The same call with a `dtype=` argument.
    ///
    /// ```
    /// use promote::{Call, DType};
    /// let c: Call = "sum int8".parse().unwrap();
    /// assert_eq!(c.with_dtype(Some(DType::Int16)).to_string(), "sum int8 dtype=int16");
    /// ```
    pub fn with_dtype(mut self, dtype: Option<DType>) -> Call {
        self.dtype = dtype;
        self
    }

    /// The same call through another entry point.
    ///
    /// ```
    /// use promote::{Call, Form};
    /// let c: Call = "add int8 1".parse().unwrap();
    /// assert_eq!(c.with_form(Form::Function).to_string(), "add:function int8 1");
    /// ```
    pub fn with_form(mut self, form: Form) -> Call {
        self.form = form;
        self
    }
}

impl FromStr for Call {
    type Err = PromoteError;
    /// `[OP[:FORM]] OPERAND [OPERAND] [dtype=DTYPE] [casting=C] [out=DTYPE]` (the keys in any
    /// order), operands in the compact syntax; without an op word the op is `add` (the one call
    /// grammar of every subcommand); `OP:FORM` names the entry point ([`Form`]:
    /// `add:function int8 1`).
    ///
    /// ```
    /// use promote::{Call, Op};
    /// assert_eq!("int8 1.0".parse::<Call>().unwrap().op, Op::Add);
    /// assert!("out=int8".parse::<Call>().is_err());
    /// assert!("substract int8 int8".parse::<Call>().unwrap_err().to_string().contains("subtract"));
    /// ```
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut words: Vec<&str> = s.split_whitespace().collect();
        let (mut out, mut dtype, mut casting) = (None, None, None);
        while let Some((key, value)) = words.last().and_then(|w| w.split_once('=')) {
            match key {
                "out" => out = Some(DType::parse(value)?),
                "dtype" => dtype = Some(DType::parse(value)?),
                "casting" => casting = Some(Casting::parse(value)?),
                _ => break,
            }
            words.pop();
        }
        let mut form = Form::Operator;
        if let Some((op, f)) = words.first().copied().and_then(|w| w.split_once(':')) {
            if Op::parse(op).is_ok() {
                form = Form::parse(f)?;
                words[0] = op;
            }
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
        Ok(Call::new(op, operands, out)?
            .with_dtype(dtype)
            .with_casting(casting)
            .with_form(form))
    }
}

/// The error of a call with the wrong number of operands.
pub(crate) fn arity_error(op: Op, n: usize) -> PromoteError {
    let takes = match op.form() {
        OpForm::Variadic => "one or more operands".to_string(),
        f if f.operands() == 1 => "1 operand".to_string(),
        f => format!("{} operands", f.operands()),
    };
    PromoteError::invalid(format!("{op} takes {takes}, got {n}"))
}

fn op_suggestion(word: &str) -> Option<String> {
    let ops = Op::all();
    suggest(
        word,
        ops.iter()
            .flat_map(|o| std::iter::once(o.name()).chain(o.info().aliases.iter().copied())),
    )
}

impl fmt::Display for Call {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.op.name())?;
        if self.form != Form::Operator {
            write!(f, ":{}", self.form)?;
        }
        for o in &self.operands {
            write!(f, " {o}")?;
        }
        if let Some(d) = self.dtype {
            write!(f, " dtype={d}")?;
        }
        if let Some(c) = self.casting {
            write!(f, " casting={c}")?;
        }
        if let Some(d) = self.out {
            write!(f, " out={d}")?;
        }
        Ok(())
    }
}
