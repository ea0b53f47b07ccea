//! The frameworks' own math libraries, ported element by element and bit for bit.
//!
//! A framework rarely calls the C library for a transcendental function: its vector kernels
//! run a library of their own, whose results differ from the correctly rounded ones in the
//! last bits, and from each other. The kernels reproduce those bits by running the same
//! operation sequence (our code; constants and tables copied as data). Which one an op runs
//! under a policy is data: [`crate::kernel::ops::OpSemantics`] and
//! [`crate::kernel::Semantics`], named in the policy file.
//!
//! * [`sleef`]: SLEEF, as PyTorch's `Vectorized<T>` and Paddle's kernels run it;
//! * [`svml`]: Intel's SVML, as NumPy calls it on AVX-512 CPUs;
//! * [`mkl`]: Intel MKL's vector math (VML), as PyTorch's `sqrt` runs it;
//! * [`numpy_simd`]: NumPy's own AVX-512 loops (`exp`, `log`, `sin`, `cos`, `tanh`);
//! * [`eigen`]: Eigen's packet math, as TensorFlow's and Paddle's kernels run it, and
//!   `eigen_pow`, Eigen's packet `pow` (Paddle's `pow` and `var`);
//! * [`xla_math`]: XLA's real approximations and StableHLO's complex-math expanders, as JAX
//!   compiles them for the CPU;
//! * [`xla_complex`]: XLA's complex element functions (`exp`, `log`, `sqrt`, `sin`, ...).
//!
//! ```
//! use promote::kernel::libm::mkl::sqrt_f32;
//! // MKL's float32 square root is one ulp from the correctly rounded one here
//! assert_eq!(sqrt_f32(19.0).to_bits(), 0x408b_7c19);
//! assert_eq!(19f32.sqrt().to_bits(), 0x408b_7c1a);
//! ```

#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod eigen;
pub(crate) mod eigen_pow;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod mkl;
pub mod numpy_simd;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod sleef;
pub mod svml;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod xla_complex;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod xla_math;

/// `2^k` as an `f64`, exactly (rounded to 0 below 2^-1074, infinite above 2^1023): the
/// product of two powers whose exponent bits are written directly. No branch and no call to
/// `powi` (which the ports' scalings made once per element), so their loops vectorise. Equal to
/// `2f64.powi(k)` from `k = -1023` up (below, `powi` divides by an overflowed `2^-k` and gives 0).
///
/// ```
/// use promote::kernel::libm::pow2;
/// for k in [-1023, -150, -3, 0, 127, 1023, 1024, 5000] {
///     assert_eq!(pow2(k), 2f64.powi(k));
/// }
/// assert_eq!(pow2(-1074), f64::from_bits(1)); // the smallest subnormal
/// assert_eq!(pow2(-1075), 0.0); // half of it, rounded to even
/// ```
#[inline(always)]
pub fn pow2(k: i32) -> f64 {
    let k = k.clamp(-2044, 2046);
    let half = k >> 1;
    let bits = |e: i32| f64::from_bits(((e + 1023) as u64) << 52);
    bits(half) * bits(k - half)
}
