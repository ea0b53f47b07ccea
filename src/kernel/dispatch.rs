//! The one dispatch point from an op to the code that computes it: a table of kernels keyed by
//! the op's kernel name (`Op::info().kernel`, the op's NumPy name unless the catalogue says
//! otherwise). An op without an entry answers [`KernelError::NoKernel`] in `eval` ("no kernel
//! for OP yet"); a new kernel is one function and one line in [`KERNELS`].
//!
//! ```
//! use promote::{kernel::dispatch, Op};
//! assert_eq!(dispatch::kernel(Op::Add).unwrap().name, "add");
//! let sqrt = Op::parse("sqrt").unwrap();
//! assert_eq!(dispatch::kernel(sqrt).is_ok(), dispatch::KERNELS.iter().any(|k| k.name == "sqrt"));
//! ```

use std::sync::LazyLock;

use crate::op::Op;
use crate::plan::Plan;

use super::array::{View, ViewMut};
use super::compute::{KernelError, Semantics};
use super::exec;
use super::ops;

/// A kernel: computes a plan over its inputs (already checked for length) into `out` (of the
/// plan's result dtype and the kernel's result length).
pub type KernelFn = fn(&Plan, &[View<'_>], ViewMut<'_>, &Semantics) -> Result<(), KernelError>;

/// How long a kernel's result is, given its operands' lengths.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Length {
    /// Elementwise: the operands broadcast (each of length 1 or the same length).
    Broadcast,
    /// A whole-tensor reduction: one value.
    One,
    /// A dot product: two vectors of one length, one value.
    Dot,
    /// A scan (`cumsum`): as long as its one operand.
    Same,
}

/// One kernel of the table.
#[derive(Clone, Copy)]
pub struct Kernel {
    /// The kernel name it answers to (an op's `kernel` in `policies/ops.toml`).
    pub name: &'static str,
    /// Its result's length.
    pub length: Length,
    /// The code.
    pub run: KernelFn,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Kernel({}, {:?})", self.name, self.length)
    }
}

const fn elementwise(name: &'static str) -> Kernel {
    Kernel {
        name,
        length: Length::Broadcast,
        run: exec::run_elementwise,
    }
}

/// The kernels of the spec's version-1 ops (elementwise arithmetic, `matmul`, `sum`).
const CORE: &[Kernel] = &[
    elementwise("add"),
    elementwise("subtract"),
    elementwise("multiply"),
    elementwise("divide"),
    elementwise("floor_divide"),
    elementwise("remainder"),
    elementwise("power"),
    elementwise("maximum"),
    elementwise("minimum"),
    elementwise("equal"),
    elementwise("not_equal"),
    elementwise("less"),
    elementwise("less_equal"),
    elementwise("greater"),
    elementwise("greater_equal"),
    elementwise("logical_and"),
    elementwise("logical_or"),
    elementwise("logical_xor"),
    elementwise("bitwise_and"),
    elementwise("bitwise_or"),
    elementwise("bitwise_xor"),
    Kernel {
        name: "matmul",
        length: Length::Dot,
        run: super::matmul::run_dot,
    },
    Kernel {
        name: "sum",
        length: Length::One,
        run: ops::run_sum,
    },
];

/// Every kernel, by name: the version-1 kernels, then one per op of [`ops`] (unary ops,
/// further binary ops, reductions; each computes with the policy's element semantics).
pub static KERNELS: LazyLock<Vec<Kernel>> = LazyLock::new(|| {
    let mut all = CORE.to_vec();
    for name in ops::names() {
        if all.iter().any(|k| k.name == name) {
            continue;
        }
        let length = match ops::kernel(name, &Semantics::NUMPY).map(|k| k.class) {
            Some(ops::OpClass::Reduce(r)) if r.is_cumulative() => Length::Same,
            Some(ops::OpClass::Reduce(_)) => Length::One,
            _ => Length::Broadcast,
        };
        all.push(Kernel {
            name,
            length,
            run: ops::run_planned,
        });
    }
    all
});

/// The kernel of an op, or [`KernelError::NoKernel`]. An op of several results (`divmod`) runs
/// the kernel of each part (`eval` executes each part's plan); its length is the first's.
pub fn kernel(op: Op) -> Result<&'static Kernel, KernelError> {
    if let Some(&first) = op.info().parts.first() {
        return kernel(first);
    }
    let name = op.info().kernel;
    KERNELS
        .iter()
        .find(|k| k.name == name)
        .ok_or(KernelError::NoKernel { op })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kernel_name_is_an_op_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for k in KERNELS.iter() {
            assert!(seen.insert(k.name), "{} twice", k.name);
            assert!(
                Op::all().iter().any(|o| o.info().kernel == k.name),
                "no op runs kernel {}",
                k.name
            );
        }
    }

    const KERNELLESS: &str = "dispatch_test_kernelless";

    #[test]
    fn every_catalogue_op_has_a_kernel() {
        // (the op the next test registers, maybe concurrently, is not the catalogue's; the
        // op-less questions and n-ary ops of issue 10, `apart` in the catalogue, resolve only:
        // `eval` answers "no kernel for OP yet")
        for op in Op::all()
            .into_iter()
            .filter(|o| o.name() != KERNELLESS && !o.info().apart)
        {
            assert!(kernel(op).is_ok(), "{op} has no kernel");
        }
    }

    #[test]
    fn an_op_without_a_kernel_says_so() {
        let entry = crate::op::OpEntry {
            name: KERNELLESS.into(),
            aliases: vec![],
            arity: "unary".into(),
            class: "unary_arith".into(),
            kernel: Some("no_such_kernel".into()),
            core: false,
            parts: vec![],
            verdict: false,
            apart: false,
        };
        let lacking = crate::op::register(&entry).unwrap();
        let e = kernel(lacking).unwrap_err();
        assert!(e.to_string().contains("no kernel for"), "{e}");
    }
}
