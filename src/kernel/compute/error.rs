//! What a kernel can refuse at run time: [`KernelError`].

use crate::op::Op;

/// What a kernel can refuse at run time.
///
/// ```
/// use promote::kernel::{execute, Array, KernelError, Semantics};
/// use promote::{builtin, Call, DType, Policy};
/// let plan = builtin("torch").unwrap().resolve(&"add int16 int16".parse::<Call>().unwrap()).unwrap();
/// let (a, b) = (Array::from(vec![1i8]), Array::from(vec![1i16]));
/// let e = execute(&plan, &[a.view(), b.view()], &Semantics::NUMPY).unwrap_err();
/// assert_eq!(e, KernelError::DataDType { operand: 1, data: DType::Int8, plan: DType::Int16 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelError {
    /// An integer raised to a negative integer power.
    NegativePower,
    /// An integer divided by zero (PyTorch).
    DivisionByZero,
    /// The op has no kernel for this dtype.
    Unsupported {
        /// The op asked for.
        op: Op,
        /// The dtype it has no kernel for.
        dtype: crate::DType,
    },
    /// Operand lengths that do not broadcast, or a wrong operand count.
    Shape(String),
    /// No kernel computes the op yet (its dtypes resolve; `eval` cannot run it).
    NoKernel {
        /// The op asked for.
        op: Op,
    },
    /// An operand's data is not of the dtype the plan was resolved for ([`crate::Plan::operands`]).
    DataDType {
        /// The operand, from 1.
        operand: usize,
        /// The dtype of its data.
        data: crate::DType,
        /// The dtype the plan expects.
        plan: crate::DType,
    },
}

impl std::fmt::Display for KernelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            KernelError::DivisionByZero => f.write_str("ZeroDivisionError: integer division or remainder by zero"),
            KernelError::NegativePower => f.write_str("Integers to negative integer powers are not allowed; cast the base to a float dtype"),
            KernelError::Unsupported { op, dtype } => write!(f, "{op} has no kernel for {dtype}"),
            KernelError::Shape(m) => f.write_str(m),
            KernelError::NoKernel { op } => write!(
                f,
                "no kernel for {op} yet: `promote resolve` answers its dtypes, but eval cannot compute it"
            ),
            KernelError::DataDType { operand, data, plan } => write!(
                f,
                "operand {operand}'s data is {data} but the plan was resolved for {plan}; resolve the call with the data's dtype, or cast the data to {plan} first (`kernel::cast::cast_array`)"
            ),
        }
    }
}

impl std::error::Error for KernelError {}
