//! Per-op kernels over one homogeneous chunk, in the *working* type of a compute dtype:
//! the dtype itself, except float16 and bfloat16, which compute in `f32` and are rounded
//! once when stored (what NumPy's and PyTorch's half loops do).
//!
//! The element semantics, NumPy's ([`Semantics`] lists where PyTorch's differ, and
//! a policy names them in its `[kernel] semantics` key, [`crate::Policy::semantics`]):
//!
//! * integers wrap on overflow; `floor_divide` and `remainder` follow Python (the remainder
//!   takes the divisor's sign); `x // 0` and `x % 0` are 0, `MIN // -1` is `MIN`;
//!   `power` by squaring, wrapping, and an error for a negative exponent;
//! * floats: `floor_divide`/`remainder` by NumPy's `npy_divmod` (fmod, then adjust the sign and
//!   snap the quotient); `maximum`/`minimum` return the first operand when it is NaN or wins
//!   strictly, else the second (NumPy's SIMD loops: `maximum(0.0, -0.0)` is `-0.0`; its
//!   float16 loop keeps the first on ties), so NaN propagates from either side; `power` is
//!   the C library's `pow` (NumPy's AVX-512 SVML `pow` can differ in the last bit);
//! * complex: `*` is `(fma(ar, br, −ai·bi), fma(ar, bi, ai·br))` (NumPy's SIMD loop; plain
//!   `(ar·br − ai·bi, ar·bi + ai·br)` for PyTorch); `/` is Smith's algorithm as NumPy
//!   writes it; `power` is NumPy's `npy_cpow` (integer exponents below 100 by repeated
//!   multiplication, otherwise the C library's `cpow`); order (`<`, `maximum`) is
//!   lexicographic with NumPy's NaN rules;
//! * bool: `add`/`maximum`/`logical_or` are "or", `multiply`/`minimum` are "and";
//! * comparisons and logical ops write bool.
//!
//! ```
//! use promote::kernel::compute::Arith;
//! assert_eq!(<i8 as Arith>::floor_div(-7, 2), -4);
//! assert_eq!(<i8 as Arith>::rem(-7, 2), 1);
//! assert_eq!(<i8 as Arith>::rem(7, -2), -1);
//! assert_eq!(<i8 as Arith>::floor_div(-128, -1), -128);
//! assert_eq!(<i32 as Arith>::floor_div(5, 0), 0);
//! assert_eq!(<f64 as Arith>::rem(-1.0, 3.0), 2.0);
//! assert!(<f64 as Arith>::maximum(f64::NAN, 1.0).is_nan());
//! assert!(<f64 as Arith>::maximum(1.0, f64::NAN).is_nan());
//! ```

mod arith;
mod chunk;
mod complex;
mod error;
mod float;
mod fused;
mod integer;
mod semantics;
mod sum;
#[cfg(test)]
mod tests;

pub use arith::*;
pub use chunk::*;
pub use complex::*;
pub use error::*;
pub use fused::*;
pub use semantics::*;
pub use sum::*;
