//! The element operations of XLA's CPU backend (JAX's `jnp` ufuncs compiled by XLA) where they
//! differ from NumPy's: the `xla-cpu` [`Semantics`](super::compute::Semantics) select them.
//! Each is written after the source it reproduces (JAX 0.10.2's `jax/_src/numpy/ufuncs.py`,
//! XLA's `xla/service/elemental_ir_emitter.cc`) and checked against
//! `tests/fixtures/eval/jax.jsonl.gz` / `jax-x64.jsonl.gz`.
//!
//! ```
//! use promote::kernel::xla::XlaOps;
//! use promote::kernel::array::C32;
//! // JAX's integer power looks at the low 6 bits of the exponent only
//! assert_eq!(<u8 as XlaOps>::xla_pow(2, 128), 1);
//! // floats: IEEE maximum, -0.0 below 0.0
//! assert!(<f32 as XlaOps>::xla_max(-0.0, 0.0).is_sign_positive());
//! // complex order: the real parts decide unless equal, NaN is not special
//! assert!(<C32 as XlaOps>::xla_lt(C32::new(0.0, 0.0), C32::new(f32::INFINITY, f32::NAN)));
//! ```

use super::array::{C32, C64};
use super::compute::Arith;

/// XLA's (and JAX's) element operations, for every working type; where an op has no XLA
/// variant for a type, the method is that type's [`Arith`] op.
pub trait XlaOps: Copy {
    /// `jnp.floor_divide` of floats (`_float_divmod`): `mod = fmod(a, b)`,
    /// `div = (b == 0 ? a : a − mod) / b`, minus one where `mod` and `b` differ in sign, then
    /// rounded half away from zero (`lax.round`). `store` is what each HLO op does to its
    /// result: rounding to float16/bfloat16 (XLA computes those in f32 one op at a time) and
    /// the CPU's flush to zero.
    fn xla_floor_div(a: Self, b: Self, store: impl Fn(Self) -> Self) -> Self;
    /// XLA's complex division (`EmitComplexDivide`: Smith's algorithm dividing by the
    /// denominator, not multiplying by its reciprocal, then C99-like fixes for a NaN result),
    /// each step flushed to zero when subnormal (only the `xla-cpu` semantics, which flush,
    /// use it).
    fn xla_div(a: Self, b: Self) -> Self;
    /// Integers: `jnp.power`'s `_pow_int_int` (binary exponentiation over the low 6 bits of the
    /// exponent; `0 ** b` is 0 for any `b != 0`). Complex: `EmitComplexPower`
    /// (`|a|^c · e^(−d·arg a) · cis(c·arg a + d·ln|a|)` with Kahan's cut-offs), with the C
    /// library's `pow`, `atan2`, `exp`, `log`, `cos`, `sin`. Floats: the C library's `pow`
    /// run with the CPU's DAZ and FTZ modes on, as XLA's runtime runs it ([`under_daz_ftz`]:
    /// a subnormal base is read as zero by `pow`'s arithmetic but not by its bit tests).
    fn xla_pow(a: Self, b: Self) -> Self;
    /// `a < b`; complex: `re(a) == re(b) ? im(a) < im(b) : re(a) < re(b)` (`jnp.less`'s
    /// `_complex_comparison`, a `select`: no NaN rule).
    fn xla_lt(a: Self, b: Self) -> bool;
    /// `a <= b`, as [`XlaOps::xla_lt`].
    fn xla_le(a: Self, b: Self) -> bool;
    /// `lax.max`: floats as IEEE 754-2019's `maximum` (LLVM's `llvm.maximum`: NaN from
    /// either side, `-0.0 < 0.0`);
    /// complex: `select(re equal ? im(a) > im(b) : re(a) > re(b), a, b)`, compared with
    /// subnormal parts read as zero but returning the operand as it is.
    fn xla_max(a: Self, b: Self) -> Self;
    /// `lax.min`, as [`XlaOps::xla_max`] with `<`.
    fn xla_min(a: Self, b: Self) -> Self;
}

impl XlaOps for bool {
    fn xla_floor_div(a: bool, b: bool, _: impl Fn(bool) -> bool) -> bool {
        <bool as Arith>::floor_div(a, b)
    }
    fn xla_div(a: bool, b: bool) -> bool {
        <bool as Arith>::div(a, b)
    }
    fn xla_pow(a: bool, b: bool) -> bool {
        <bool as Arith>::pow(a, b)
    }
    fn xla_lt(a: bool, b: bool) -> bool {
        <bool as Arith>::clt(a, b)
    }
    fn xla_le(a: bool, b: bool) -> bool {
        <bool as Arith>::cle(a, b)
    }
    fn xla_max(a: bool, b: bool) -> bool {
        a | b
    }
    fn xla_min(a: bool, b: bool) -> bool {
        a & b
    }
}

/// `f()` with the x86 MXCSR's DAZ (denormals are zero) and FTZ (flush to zero) bits set, the
/// register restored after: how XLA's CPU runtime runs its kernels and the C library calls in
/// them. Elsewhere than x86-64, `f()` as it is.
pub fn under_daz_ftz<R>(f: impl FnOnce() -> R) -> R {
    #[cfg(target_arch = "x86_64")]
    {
        #[allow(deprecated)]
        use std::arch::x86_64::{_mm_getcsr, _mm_setcsr};
        const DAZ_FTZ: u32 = 0x8040;
        // SAFETY: MXCSR is per thread and only its DAZ/FTZ bits change, for the span of `f`;
        // `black_box` keeps `f`'s floating-point work between the two register writes.
        #[allow(deprecated)]
        unsafe {
            let saved = _mm_getcsr();
            _mm_setcsr(saved | DAZ_FTZ);
            let r = std::hint::black_box(f());
            _mm_setcsr(saved);
            r
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    f()
}

macro_rules! xla_int {
    ($($t:ty),*) => {$(
        impl XlaOps for $t {
            fn xla_floor_div(a: $t, b: $t, _: impl Fn($t) -> $t) -> $t {
                <$t as Arith>::floor_div(a, b)
            }
            fn xla_div(a: $t, b: $t) -> $t {
                <$t as Arith>::div(a, b)
            }
            fn xla_pow(a: $t, b: $t) -> $t {
                // acc = (a == 0 && b != 0) ? 0 : 1; six rounds of "if b & 1: acc *= a;
                // a *= a; b >>= 1", wrapping
                if a == 0 && b != 0 {
                    0
                } else {
                    <$t as Arith>::pow(a, b & 63)
                }
            }
            fn xla_lt(a: $t, b: $t) -> bool {
                a < b
            }
            fn xla_le(a: $t, b: $t) -> bool {
                a <= b
            }
            fn xla_max(a: $t, b: $t) -> $t {
                a.max(b)
            }
            fn xla_min(a: $t, b: $t) -> $t {
                a.min(b)
            }
        }
    )*};
}
xla_int!(u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! xla_float {
    ($($t:ty),*) => {$(
        impl XlaOps for $t {
            fn xla_floor_div(a: $t, b: $t, store: impl Fn($t) -> $t) -> $t {
                let m = store(a % b);
                let x1 = if b == 0.0 { a } else { store(a - m) };
                let div = store(x1 / b);
                // lax.sign: ±1, or the value itself (±0, NaN); `!=` is true for NaN
                let sign = |x: $t| if x > 0.0 { 1.0 } else if x < 0.0 { -1.0 } else { x };
                let div = if m != 0.0 && sign(b) != sign(m) { store(div - 1.0) } else { div };
                div.round()
            }
            fn xla_div(a: $t, b: $t) -> $t {
                a / b
            }
            fn xla_pow(a: $t, b: $t) -> $t {
                under_daz_ftz(|| a.powf(b))
            }
            fn xla_lt(a: $t, b: $t) -> bool {
                a < b
            }
            fn xla_le(a: $t, b: $t) -> bool {
                a <= b
            }
            fn xla_max(a: $t, b: $t) -> $t {
                if a.is_nan() || a > b || (a == b && a.is_sign_positive()) { a } else { b }
            }
            fn xla_min(a: $t, b: $t) -> $t {
                if a.is_nan() || a < b || (a == b && a.is_sign_negative()) { a } else { b }
            }
        }
    )*};
}
xla_float!(f32, f64);

macro_rules! xla_complex {
    ($($c:ty, $f:ty);*) => {$(
        impl XlaOps for $c {
            fn xla_floor_div(a: $c, b: $c, _: impl Fn($c) -> $c) -> $c {
                <$c as Arith>::floor_div(a, b)
            }
            fn xla_div(a: $c, b: $c) -> $c {
                let (ar, ai, br, bi) = (a.re, a.im, b.re, b.im);
                // every `x * y + z` contracted to a fused multiply-add, as XLA's LLVM does;
                // every step's result flushed to zero when subnormal (the CPU's FTZ mode)
                let f = |x: $f| x.flush();
                let (rat1, rat2) = (f(br / bi), f(bi / br));
                let (den1, den2) = (f(rat1.mul_add(br, bi)), f(rat2.mul_add(bi, br)));
                let (bra, bia) = (br.abs(), bi.abs());
                let (cr, ci) = if bra < bia {
                    (f(f(rat1.mul_add(ar, ai)) / den1), f(f(rat1.mul_add(ai, -ar)) / den1))
                } else {
                    (f(f(rat2.mul_add(ai, ar)) / den2), f(f((-rat2).mul_add(ar, ai)) / den2))
                };
                if !(cr.is_nan() && ci.is_nan()) {
                    return <$c>::new(cr, ci);
                }
                let inf = <$f>::INFINITY;
                let unit = |inf_part: bool, sign: $f| (if inf_part { 1.0 } else { 0.0 } as $f).copysign(sign);
                if bra == 0.0 && bia == 0.0 && !(ar.is_nan() && ai.is_nan()) {
                    // case 1: a zero denominator
                    let s = inf.copysign(br);
                    return <$c>::new(s * ar, s * ai);
                }
                let (ar_inf, ai_inf) = (ar.abs() == inf, ai.abs() == inf);
                if (ar_inf || ai_inf) && br.is_finite() && bi.is_finite() {
                    // case 2: an infinite numerator, a finite denominator
                    let (sr, si) = (unit(ar_inf, ar), unit(ai_inf, ai));
                    return <$c>::new(inf * (sr * br + si * bi), inf * (si * br - sr * bi));
                }
                let (br_inf, bi_inf) = (bra == inf, bia == inf);
                if (br_inf || bi_inf) && ar.is_finite() && ai.is_finite() {
                    // case 3: a finite numerator, an infinite denominator
                    let (sr, si) = (unit(br_inf, br), unit(bi_inf, bi));
                    return <$c>::new(0.0 * (ar * sr + ai * si), 0.0 * (ai * sr - ar * si));
                }
                <$c>::new(cr, ci)
            }
            fn xla_pow(x: $c, y: $c) -> $c {
                let (a, b, c, d) = (x.re, x.im, y.re, y.im);
                let abs = a.hypot(b);
                let arg = b.atan2(a);
                let coeff = abs.powf(c) * (-d * arg).exp();
                let q = c * arg + d * abs.ln();
                let one = <$c>::new(1.0, 0.0);
                let inf = <$f>::INFINITY;
                if a == inf && b == 0.0 && d == 0.0 && c < 0.0 {
                    <$c>::new(0.0, 0.0)
                } else if a == inf && b == 0.0 && d == 0.0 && c > 0.0 {
                    <$c>::new(inf, 0.0)
                } else if (a == 1.0 && b == 0.0) || (c == 0.0 && d == 0.0) {
                    one
                } else if abs == 0.0 && d == 0.0 && 0.0 <= c {
                    <$c>::new(if c == 0.0 { 1.0 } else { 0.0 }, 0.0)
                } else {
                    <$c>::new(coeff * q.cos(), coeff * q.sin())
                }
            }
            fn xla_lt(a: $c, b: $c) -> bool {
                if a.re == b.re { a.im < b.im } else { a.re < b.re }
            }
            fn xla_le(a: $c, b: $c) -> bool {
                if a.re == b.re { a.im <= b.im } else { a.re <= b.re }
            }
            fn xla_max(a: $c, b: $c) -> $c {
                let (x, y) = (a.flush(), b.flush());
                let gt = if x.re == y.re { x.im > y.im } else { x.re > y.re };
                if gt { a } else { b }
            }
            fn xla_min(a: $c, b: $c) -> $c {
                let (x, y) = (a.flush(), b.flush());
                let lt = if x.re == y.re { x.im < y.im } else { x.re < y.re };
                if lt { a } else { b }
            }
        }
    )*};
}
xla_complex!(C32, f32; C64, f64);

/// XLA's `EmitComplexAbs` (`xla/service/elemental_ir_emitter.cc`, as JAX 0.10.2's XLA emits
/// `abs` and the `|z|` of `sign` for a complex number): with `max`/`min` the larger and smaller
/// magnitude of the parts, `max · sqrt(1 + (min / max)²)`, or `min` where that is NaN
/// (`(0, 0)`, `(inf, inf)`, a NaN part); every step's result flushed to zero when subnormal
/// (the CPU's FTZ mode) and read as zero when subnormal (DAZ). LLVM contracts `1 + r·r` into
/// one fused multiply-add (XLA allows FMA fusion): `fma(r, r, 1)` matched `jnp.abs` on 3,000
/// complex128 and 20,000 complex64 values, the plain sum missed 34 and 257 of them.
///
/// ```
/// use promote::kernel::xla::XlaComplexAbs;
/// assert_eq!(<f32 as XlaComplexAbs>::xla_complex_abs(3.0, -4.0), 5.0);
/// // jnp.abs(1.177-2.975j) under jax 0.10.2 (the sum rounded before the root: ...6235)
/// assert_eq!(<f64 as XlaComplexAbs>::xla_complex_abs(1.177, -2.975), 3.199367750040623);
/// assert_eq!(<f64 as XlaComplexAbs>::xla_complex_abs(f64::INFINITY, f64::INFINITY), f64::INFINITY);
/// // a subnormal part reads as zero: min / max is 0 / 0, NaN, so the answer is min
/// assert_eq!(<f32 as XlaComplexAbs>::xla_complex_abs(1e-45, 0.0), 0.0);
/// ```
pub trait XlaComplexAbs: Copy {
    /// `|re + im·i|` as XLA computes it.
    fn xla_complex_abs(re: Self, im: Self) -> Self;
}

macro_rules! xla_complex_abs {
    ($($t:ty),*) => {$(
        impl XlaComplexAbs for $t {
            fn xla_complex_abs(re: $t, im: $t) -> $t {
                let f = |x: $t| x.flush();
                let (ar, ai) = (re.abs(), im.abs());
                let (max, min) = (<$t as XlaOps>::xla_max(ar, ai), <$t as XlaOps>::xla_min(ar, ai));
                let div = f(f(min) / f(max));
                let one_plus = div.mul_add(div, 1.0);
                let r = f(f(max) * one_plus.sqrt());
                if r.is_nan() { min } else { r }
            }
        }
    )*};
}
xla_complex_abs!(f32, f64);
