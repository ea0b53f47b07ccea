//! The element operations of a working type ([`Arith`]), and the complex products a type
//! may fuse ([`FusedMulMaybe`]).

use crate::kernel::cast::Num;

/// The element operations of a working type.
pub trait Arith: Num + crate::kernel::xla::XlaOps {
    /// `a + b`.
    fn add(a: Self, b: Self) -> Self;
    /// `a - b`.
    fn sub(a: Self, b: Self) -> Self;
    /// `a * b`.
    fn mul(a: Self, b: Self) -> Self;
    /// True division (ints: the floor quotient; a plan never asks for it).
    fn div(a: Self, b: Self) -> Self;
    /// Floor division.
    fn floor_div(a: Self, b: Self) -> Self;
    /// Remainder with the divisor's sign.
    fn rem(a: Self, b: Self) -> Self;
    /// `a ** b` (ints: `b` must be non-negative; see [`Arith::negative`]).
    fn pow(a: Self, b: Self) -> Self;
    /// NaN-propagating maximum.
    fn maximum(a: Self, b: Self) -> Self;
    /// NaN-propagating minimum.
    fn minimum(a: Self, b: Self) -> Self;
    /// `a == b`.
    fn ceq(a: Self, b: Self) -> bool;
    /// `a != b`.
    fn cne(a: Self, b: Self) -> bool;
    /// `a < b`.
    fn clt(a: Self, b: Self) -> bool;
    /// `a <= b`.
    fn cle(a: Self, b: Self) -> bool;
    /// `a & b` (bool and ints).
    fn band(a: Self, b: Self) -> Self;
    /// `a | b`.
    fn bor(a: Self, b: Self) -> Self;
    /// `a ^ b`.
    fn bxor(a: Self, b: Self) -> Self;
    /// Below zero (an integer exponent `power` refuses).
    fn negative(self) -> bool;
    /// NaN (complex: either part).
    fn isnan(self) -> bool {
        false
    }
    /// The remainder with the divisor's sign, but a zero remainder keeps `fmod`'s sign
    /// (PyTorch's float `remainder`).
    fn rem_fmod_zero(a: Self, b: Self) -> Self {
        Self::rem(a, b)
    }
    /// PyTorch's integer power: negative exponents give 0, or ±1 for bases ±1.
    fn pow_any(a: Self, b: Self) -> Self {
        Self::pow(a, b)
    }
    /// The C library's `cpow` (complex only).
    fn pow_libm(a: Self, b: Self) -> Self {
        Self::pow(a, b)
    }
    /// Floor division where a zero divisor gives what JAX's `floor_divide` makes of XLA's
    /// `div` (−1 for 0 // 0, −2 for other signed dividends, the maximum for unsigned ones).
    fn floor_div_xla(a: Self, b: Self) -> Self {
        Self::floor_div(a, b)
    }
    /// XLA's integer `div` (true division of int2/uint2 in JAX, which stay integers):
    /// truncating, a zero divisor gives every bit set (−1; the maximum for unsigned), `MIN /
    /// −1` wraps to `MIN`.
    fn div_xla(a: Self, b: Self) -> Self {
        Self::div(a, b)
    }
    /// The remainder where a zero divisor gives 0 (JAX's `remainder`).
    fn rem_xla(a: Self, b: Self) -> Self {
        Self::rem(a, b)
    }
    /// Float floor division as `floor(a / b)` (see [`FloatFloorDiv`](super::FloatFloorDiv)); `ftz`: the quotient is
    /// flushed to zero when subnormal (the CPU's FTZ mode) before the floor.
    fn floor_div_quotient(a: Self, b: Self, _ftz: bool) -> Self {
        Self::floor_div(a, b)
    }
    /// Complex division by Smith's algorithm without a zero-divisor case (see
    /// [`ComplexDiv::SmithPlain`](super::ComplexDiv::SmithPlain)).
    fn div_smith_plain(a: Self, b: Self) -> Self {
        Self::div(a, b)
    }
    /// Complex division by Smith's algorithm with NumPy's zero-divisor case, its multiply-adds
    /// fused (see [`ComplexDiv::SmithFused`](super::ComplexDiv::SmithFused)).
    fn div_smith_fused(a: Self, b: Self) -> Self {
        Self::div(a, b)
    }
    /// Complex division as Eigen's vectorized `pdiv_complex` (see [`ComplexDiv`](super::ComplexDiv)); `ftz`: every
    /// intermediate is flushed to zero when subnormal.
    fn div_scaled(a: Self, b: Self, _ftz: bool) -> Self {
        Self::div(a, b)
    }
    /// `a == b` within 1e-15 (see [`Semantics::float_equal_within_1e15`](super::Semantics::float_equal_within_1e15)); exact for ints.
    fn ceq_within_1e15(a: Self, b: Self) -> bool {
        Self::ceq(a, b)
    }
    /// `(T) pow((double) a, (double) b)` for int32/int64 (see
    /// [`Semantics::wide_int_pow_via_f64`](super::Semantics::wide_int_pow_via_f64)); [`Arith::pow_any`] for the rest.
    fn pow_via_f64(a: Self, b: Self) -> Self {
        Self::pow_any(a, b)
    }
    /// How many elements Eigen's vectorized kernels take at once for this type (complex64: 4,
    /// complex128: 2, on AVX); 0 where the scalar tail does not differ.
    const EIGEN_PACKET: usize = 0;
    /// C99 Annex G `a * b` (libgcc's `__mulsc3`/`__muldc3`; complex only).
    fn mul_annex_g(a: Self, b: Self) -> Self {
        Self::mul(a, b)
    }
    /// C99 Annex G `a / b` (libgcc's `__divsc3`/`__divdc3`; complex only).
    fn div_annex_g(a: Self, b: Self) -> Self {
        Self::div(a, b)
    }
    /// [`Arith::rem_fmod_zero`] on a CPU in DAZ mode: `fmod` (a library call) reads a subnormal
    /// divisor as zero (NaN) but returns a subnormal dividend as it is; the sign adjustment
    /// compares with subnormals read as zero.
    fn rem_fmod_zero_daz(a: Self, b: Self) -> Self {
        Self::rem_fmod_zero(a, b)
    }
    /// The value with a subnormal float (or complex part) replaced by zero of its sign.
    fn flush(self) -> Self {
        self
    }
    /// The additive identity.
    fn zero() -> Self;
    /// Has `&`, `|`, `^`.
    const BITWISE: bool;
    /// Has `floor_divide` and `remainder`.
    const FLOOR: bool;
    /// Is an integer type (its `power` checks exponents).
    const INT: bool;
}

/// A fused complex multiply where the type has one.
pub trait FusedMulMaybe: Arith {
    /// Whether [`FusedMulMaybe::mul_maybe_fused`] differs from `mul`.
    const HAS_FUSED: bool;
    /// The fused product, or the plain one.
    fn mul_maybe_fused(a: Self, b: Self) -> Self {
        Self::mul(a, b)
    }
    /// The product as XLA's CPU emitter computes a complex one (`re = fma(a.re, b.re,
    /// −a.im·b.im)`, `im = fma(a.im, b.re, a.re·b.im)`), the plain one otherwise.
    fn mul_xla(a: Self, b: Self) -> Self {
        Self::mul(a, b)
    }
    /// The product as C99's Annex G computes a complex one (`__mulsc3`, `__muldc3`: the
    /// plain formula, then an infinite operand or product recovered where both parts are
    /// NaN), the plain one otherwise.
    fn mul_c99(a: Self, b: Self) -> Self {
        Self::mul(a, b)
    }
}

macro_rules! no_fused {
    ($($t:ty),*) => {$( impl FusedMulMaybe for $t { const HAS_FUSED: bool = false; } )*};
}
no_fused!(bool, u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);
