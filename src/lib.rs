#![warn(missing_docs)]
//! # promote
//!
//! How every major tensor framework promotes dtypes — PyTorch, JAX, NumPy, TensorFlow, Paddle,
//! OneFlow, the Array API — as data, resolved into plans and executed on real arrays.
//!
//! The flow, one module each: [`dtype`] → [`operand`] → [`policy`] → [`plan`] → kernels → CLI.
//!
//! ```
//! use promote::{builtin, Call, DType, Policy};
//! let call: Call = "add int8 1.0".parse().unwrap();
//! let torch = builtin("torch").unwrap().resolve(&call).unwrap();
//! let jax = builtin("jax").unwrap().resolve(&call).unwrap();
//! assert_eq!(torch.result, DType::Float32);
//! assert!(jax.weak && !torch.weak);
//! ```

pub mod analysis;
pub mod autocast;
#[cfg(feature = "cli")]
pub mod cli;
pub mod dtype;
pub mod error;
pub mod jsonl;
pub mod kernel;
pub mod op;
pub mod operand;
pub mod plan;
pub mod policy;
pub mod query;

pub use dtype::{DType, Kind};
pub use error::{ErrorKind, PromoteError};
pub use op::{Call, Form, Op, OpForm, OpInfo};
pub use operand::{Literal, Operand};
pub use plan::{JoinSource, Plan, Step, Traced};
pub use policy::{builtin, compile, load_file, Policy, RulePolicy};
