//! Intel's SVML as NumPy 2.4.6 calls it on AVX-512 CPUs (`numpy/_core/src/umath/
//! loops_umath_fp.dispatch.c.src`, the "LA" variants of github.com/numpy/SVML's
//! `linux/avx512/svml_z0_*_s_la.s`): float32 functions, each in its own file after the
//! assembly it reproduces (our own code; constants and tables copied as data), bit for bit.
//! Float16 operands are widened to float32 and the result rounded once. Chosen by
//! [`crate::kernel::ops::OpSemantics`]: `exp_f16_svml` ([`exp`]), `atan2_svml` ([`atan2`]),
//! `log10_svml` ([`log10`]), `svml_unary` (the rest).
//!
//! ```
//! use promote::kernel::libm::svml::{exp::expf, tan::tanf};
//! assert_eq!(expf(0.0), 1.0);
//! assert_eq!(tanf(0.0), 0.0);
//! ```

pub mod asin;
pub mod atan;
pub mod atan2;
pub mod exp;
pub mod expm1;
pub mod log10;
pub mod log1p;
pub mod log2;
pub mod sinh;
pub mod tan;
