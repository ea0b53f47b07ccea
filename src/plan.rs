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
use crate::op::Op;

/// One rule that took part in a decision, in words, with where it comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// Which rule of the policy: `lattice`, `table`, `category`, `literal`, `weak`, `op`, `out`, `canonicalize`, ...
    pub rule: &'static str,
    /// What it decided, in plain words.
    pub detail: String,
}

/// The resolution of one call.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// The op.
    pub op: Op,
    /// The dtype each operand is cast to before the kernel runs (the compute dtype, for most ops).
    pub inputs: Vec<DType>,
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
}

impl Plan {
    /// The steps as numbered lines, for people.
    pub fn explain(&self) -> String {
        let mut s = String::new();
        for (i, st) in self.steps.iter().enumerate() {
            s.push_str(&format!("{}. [{}] {}\n", i + 1, st.rule, st.detail));
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
