//! XLA's complex element functions on CPU (the `xla-cpu` semantics, JAX's `jnp` ufuncs of a
//! complex operand), written after `EmitComplexUnaryOp` and `EmitCosm1` in XLA's `xla/service/elemental_ir_emitter.cc` (the XLA
//! of JAX 0.10.2), JAX's `_sin_complex`/`_cos_complex` (`jax/_src/lax/lax.py`) and CHLO's
//! `sinh`, as the HLO JAX 0.10.2 compiles shows them (`XLA_FLAGS=--xla_dump_to=DIR`); `sqrt`,
//! `log` and `log1p` are StableHLO's complex-math expanders ([`super::xla_math`]). The formulas and their special-case selects are XLA's, so infinities and NaNs come
//! out where XLA's do; the real functions inside (`exp`, `sin`, `log`, `atan2`, ...) are the C
//! library's where XLA runs its own polynomial approximations, which differ in the last bits
//! of finite values only. Every step's result is flushed to zero when subnormal (the CPU's
//! FTZ mode, which XLA's runtime turns on).
//!
//! ```
//! use promote::kernel::array::C32;
//! use promote::kernel::libm::xla_complex::XlaComplex;
//! // exp(-inf + inf·i): exp(-inf) · cos(inf) is 0 · NaN
//! let z = C32::xla_exp(C32::new(f32::NEG_INFINITY, f32::INFINITY));
//! assert!(z.re.is_nan() && z.im.is_nan());
//! // sqrt(-inf + 0i) is 0 + inf·i, as C99 says
//! let s = C32::xla_sqrt(C32::new(f32::NEG_INFINITY, 0.0));
//! assert_eq!((s.re, s.im), (0.0, f32::INFINITY));
//! ```

use super::xla_math::{self, XlaReal};
use crate::kernel::array::{C32, C64};
use crate::kernel::compute::Arith;
use crate::kernel::xla::{XlaComplexAbs, XlaOps};

/// XLA's complex `exp`, `expm1`, `log`, `sqrt`, `sin`, `sinh`, `cos`, `tan`, `tanh` and
/// `log1p`.
pub trait XlaComplex: Copy {
    /// `e^a · (cos b + i·sin b)` as XLA expands it for JAX 0.10.2: where `e^a` overflows,
    /// `(e^(a/2) · cos b) · e^(a/2)`; an imaginary part of zero gives zero (`exp(nan+0j)` is
    /// `nan+0j`, `exp(inf+0j)` is `inf+0j`).
    fn xla_exp(z: Self) -> Self;
    /// `chlo.sinh` of a complex number: `exp(z − ln 2) − exp(−ln 2 − z)` by
    /// [`XlaComplex::xla_exp`].
    fn xla_sinh(z: Self) -> Self;
    /// XLA's complex `expm1` (`EmitComplexUnaryOp`, `kExpm1`):
    /// `expm1(a)·cos b + cosm1(b) + i·(expm1(a) + 1)·sin b`, the imaginary part zero where
    /// `b` is; `cosm1` is XLA's `EmitCosm1` (cephes' polynomial where `b² ≤ 0.61685`).
    fn xla_expm1(z: Self) -> Self;
    /// StableHLO's complex `log` ([`xla_math::complex_log_re`]) `+ i·atan2(b, a)`.
    fn xla_log(z: Self) -> Self;
    /// StableHLO's complex `sqrt` ([`xla_math::complex_sqrt`]).
    fn xla_sqrt(z: Self) -> Self;
    /// JAX's `_sin_complex` (`jax/_src/lax/lax.py`): `sin a · cosh b + i·cos a · sinh b`
    /// with `2 sinh b = expm1(b) − expm1(−b)`, `2 cosh b = expm1(b) + expm1(−b) + 2`, the real
    /// part zero where `a` is.
    fn xla_sin(z: Self) -> Self;
    /// JAX's `_cos_complex`: `cos a · cosh b − i·sin a · sinh b` as in
    /// [`XlaComplex::xla_sin`], the imaginary part zero where `a` is.
    fn xla_cos(z: Self) -> Self;
    /// `(e^2a − e^−2a + 2i·sin 2b) / (e^2a + e^−2a + 2 cos 2b)` through `expm1`, with XLA's
    /// limits for an infinite denominator and its NaN/zero corner cases.
    fn xla_tanh(z: Self) -> Self;
    /// `−i · tanh(−b + a·i)`.
    fn xla_tan(z: Self) -> Self;
    /// StableHLO's complex `log1p` ([`xla_math::complex_log1p_re`]) `+ i·atan2(b, a + 1)`.
    fn xla_log1p(z: Self) -> Self;
    /// CHLO's complex `atan` ([`xla_math::complex_atan`]).
    fn xla_atan(z: Self) -> Self;
    /// CHLO's complex `asin` ([`xla_math::complex_asin`]).
    fn xla_asin(z: Self) -> Self;
    /// XLA's complex `atan2(y, x)` (`EmitComplexBinaryOp`, `kAtan2`, as JAX 0.10.2's XLA
    /// emits `jnp.arctan2` of complex operands: `stablehlo.atan2` itself):
    /// `−i · log((x + i·y) / sqrt(x² + y²))`, the square root by XLA's own `EmitComplexSqrt`
    /// (`emit_sqrt` here), the quotient by [`XlaOps::xla_div`], `|·|` by
    /// [`XlaComplexAbs::xla_complex_abs`], XLA's real `log`; the C library's `atan2`,
    /// `sincos` and `pow` (the symbols of the compiled kernel).
    fn xla_atan2(y: Self, x: Self) -> Self;
    /// JAX 0.10.2's complex `logaddexp` (`jax/_src/lax/other.py`): with `m` the larger
    /// operand by [`XlaOps::xla_max`], `m + log1p(exp((a + b) − 2m))` by
    /// [`XlaComplex::xla_exp`] and [`XlaComplex::xla_log1p`], the imaginary part wrapped
    /// into `[−π, π]` (`_wrap_between`: `rem(t + π, 2π)`, plus `2π` below zero, minus `π`;
    /// `rem` the C library's `fmod`).
    fn xla_logaddexp(a: Self, b: Self) -> Self;
}

macro_rules! xla_complex {
    ($($c:ty, $f:ty);*) => {$(
        impl XlaComplex for $c {
            fn xla_exp(z: $c) -> $c {
                let f = |x: $f| x.flush();
                let (a, b) = (z.re, z.im);
                let e = a.xla_exp();
                let h = f(a * 0.5).xla_exp();
                let part = |t: $f| if e == <$f>::INFINITY { f(f(h * t) * h) } else { f(e * t) };
                let im = if b == 0.0 { 0.0 } else { part(f(b.sin())) };
                <$c>::new(part(f(b.cos())), im)
            }
            fn xla_sinh(z: $c) -> $c {
                let f = |x: $f| x.flush();
                let ln2 = std::f64::consts::LN_2 as $f;
                let e1 = Self::xla_exp(<$c>::new(f(z.re + -ln2), f(z.im + 0.0)));
                let e2 = Self::xla_exp(<$c>::new(f(-ln2 - z.re), f(0.0 - z.im)));
                <$c>::new(f(e1.re - e2.re), f(e1.im - e2.im))
            }
            fn xla_expm1(z: $c) -> $c {
                let f = |x: $f| x.flush();
                let (a, b) = (z.re, z.im);
                let expm1_a = xla_math::expm1(a);
                let exp_a = f(expm1_a + 1.0);
                let cosm1_b = cosm1::<$f>(b);
                let cos_b = f(cosm1_b + 1.0);
                let re = f(f(expm1_a * cos_b) + cosm1_b);
                let im = if b == 0.0 { 0.0 } else { f(exp_a * f(b.sin())) };
                <$c>::new(re, im)
            }
            fn xla_log(z: $c) -> $c {
                let angle = z.im.atan2(z.re).flush();
                <$c>::new(xla_math::complex_log_re(z.re, z.im), angle)
            }
            fn xla_sqrt(z: $c) -> $c {
                let (re, im) = xla_math::complex_sqrt(z.re, z.im);
                <$c>::new(re, im)
            }
            fn xla_sin(z: $c) -> $c {
                let (sinh, cosh, sin, cos) = sin_cos_parts::<$f>(z.re, z.im);
                let f = |x: $f| x.flush();
                let re = if z.re == 0.0 { 0.0 } else { f(sin * cosh) };
                <$c>::new(re, f(cos * sinh))
            }
            fn xla_cos(z: $c) -> $c {
                let (sinh, cosh, sin, cos) = sin_cos_parts::<$f>(z.re, z.im);
                let f = |x: $f| x.flush();
                let im = if z.re == 0.0 { 0.0 } else { f(f(-sin) * sinh) };
                <$c>::new(f(cos * cosh), im)
            }
            fn xla_tanh(z: $c) -> $c {
                let (re, im) = tanh_parts::<$f>(z.re, z.im);
                <$c>::new(re, im)
            }
            fn xla_tan(z: $c) -> $c {
                let (re, im) = tanh_parts::<$f>(-z.im, z.re);
                <$c>::new(im, -re)
            }
            fn xla_log1p(z: $c) -> $c {
                let angle = z.im.atan2((z.re.flush() + 1.0).flush()).flush();
                <$c>::new(xla_math::complex_log1p_re(z.re, z.im), angle)
            }
            fn xla_atan(z: $c) -> $c {
                let (re, im) = xla_math::complex_atan(z.re, z.im);
                <$c>::new(re, im)
            }
            fn xla_asin(z: $c) -> $c {
                let (re, im) = xla_math::complex_asin(z.re, z.im);
                <$c>::new(re, im)
            }
            fn xla_atan2(y: $c, x: $c) -> $c {
                let f = |v: $f| v.flush();
                // x² + y², each square (a² − b², 2ab) with the first product fused
                let square = |z: $c| (f(z.re.mul_add(z.re, -f(z.im * z.im))), f(f(z.im * z.re) * 2.0));
                let ((x2r, x2i), (y2r, y2i)) = (square(x), square(y));
                let (dr, di) = emit_sqrt::<$f>(f(x2r + y2r), f(x2i + y2i));
                // x + i·y, i·y as the complex product (0 + 1i)(y): (y.re·0 − y.im, y.re + y.im·0)
                let iy = (f(y.re.mul_add(0.0, -y.im)), f(y.im.mul_add(0.0, y.re)));
                let num = <$c>::new(f(x.re + iy.0), f(x.im + iy.1));
                let q = <$c as XlaOps>::xla_div(num, <$c>::new(dr, di));
                let l = <$f as XlaComplexAbs>::xla_complex_abs(q.re, q.im).xla_log();
                let a = f(q.im.atan2(q.re));
                // −i · (l + a·i): (l·0 − a·(−1), l·(−1) + a·0)
                <$c>::new(f(l.mul_add(0.0, a)), f(a.mul_add(0.0, -l)))
            }
            fn xla_logaddexp(a: $c, b: $c) -> $c {
                let f = |v: $f| v.flush();
                let m = <$c as XlaOps>::xla_max(a, b);
                // (a + b) − m·(2 + 0i), the product's parts exact: (2·m.re − 0·m.im, 0·m.re + 2·m.im)
                let twice = (f(m.re.mul_add(2.0, -(m.im * 0.0))), f(m.re.mul_add(0.0, m.im * 2.0)));
                let delta = <$c>::new(f(f(a.re + b.re) - twice.0), f(f(a.im + b.im) - twice.1));
                let l = Self::xla_log1p(Self::xla_exp(delta));
                let (re, t) = (f(m.re + l.re), f(m.im + l.im));
                let pi = std::f64::consts::PI as $f;
                let two_pi = (2.0 * std::f64::consts::PI) as $f;
                let rem = crate::kernel::xla::under_daz_ftz(|| f(t + pi) % two_pi);
                let rem = if rem < 0.0 { f(rem + two_pi) } else { rem };
                <$c>::new(re, f(rem + -pi))
            }
        }
    )*};
}
xla_complex!(C32, f32; C64, f64);

/// XLA's `EmitComplexSqrt` (`xla/service/elemental_ir_emitter.cc`; the complex `atan2`'s
/// root, not StableHLO's expander of `sqrt`): `r = sqrt(max) · pow(1 + (min/max)², ¼)` of the
/// parts' magnitudes (`min` where NaN), `θ = atan2(b, a)/2`, `(r·cos θ, r·sin θ)` (the
/// imaginary part 0 where `sin θ` is), with C99's infinite cases and `(0, 0)` where `r` is 0.
fn emit_sqrt<F: XlaReal>(a: F, b: F) -> (F, F) {
    let f = |v: F| v.flush();
    let c = |v: f64| F::from(v).expect("a small constant");
    let (aa, ab, inf) = (a.abs(), b.abs(), F::infinity());
    let (mx, mn) = if aa.is_nan() || ab.is_nan() {
        (F::nan(), F::nan())
    } else {
        (aa.max(ab), aa.min(ab))
    };
    let q = f(mn / mx);
    let r = f(f(mx.sqrt()) * f(f(q.mul_add(q, F::one())).powf(c(0.25))));
    let r = if r.is_nan() { mn } else { r };
    let theta = f(f(b.atan2(a)) * c(0.5));
    let (sin, cos) = (f(theta.sin()), f(theta.cos()));
    let im = if sin == c(0.0) { c(0.0) } else { f(r * sin) };
    let b_finite_or_nan = ab != inf;
    let re = if a == -inf && !ab.is_nan() && b_finite_or_nan {
        c(0.0)
    } else {
        f(r * cos)
    };
    let re = if ab == inf || a == inf { inf } else { re };
    let im = if r.is_nan() { F::nan() } else { im };
    let im = if ab == inf || a == -inf {
        inf.copysign(b)
    } else {
        im
    };
    if r == c(0.0) {
        (c(0.0), c(0.0))
    } else {
        (re, im)
    }
}

/// `(sinh y, cosh y, sin x, cos x)` as JAX's `_sin_complex`/`_cos_complex` compute them:
/// `(expm1(y) − expm1(−y)) · 0.5` and `((expm1(y) + expm1(−y)) + 2) · 0.5` (XLA turns the
/// division by 2 into that exact product).
fn sin_cos_parts<F: XlaReal>(x: F, y: F) -> (F, F, F, F) {
    let f = |v: F| v.flush();
    let c = |v: f64| F::from(v).expect("a small constant");
    let (e1, e2) = (xla_math::expm1(y), xla_math::expm1(-y));
    let sinh = f(f(e1 - e2) * c(0.5));
    let cosh = f(f(f(e1 + e2) + c(2.0)) * c(0.5));
    (sinh, cosh, f(x.sin()), f(x.cos()))
}

/// XLA's `EmitCosm1`: cephes' `−x²/2 + x⁴·P(x²)` where `x² ≤ 0.61685` (about (π/4)²),
/// `cos x − 1` beyond; `P` by Horner's rule, each step flushed.
fn cosm1<F: num_traits::Float + Arith>(x: F) -> F {
    const COEFFS: [f64; 7] = [
        4.737750796424621e-14,
        -1.147028484342536e-11,
        2.087675428708152e-9,
        -2.755731921499979e-7,
        2.480158730157055e-5,
        -0.0013888888888888872,
        0.041666666666666664,
    ];
    let f = |v: F| v.flush();
    let c = |v: f64| F::from(v).expect("a coefficient");
    let xx = f(x * x);
    if xx > c(0.61685) {
        return f(f(x.cos()) + c(-1.0));
    }
    let xxxx = f(xx * xx);
    let poly = COEFFS[1..]
        .iter()
        .fold(c(COEFFS[0]), |p, &k| f(f(p * xx) + c(k)));
    f(f(xxxx * poly) + f(c(-0.5) * xx))
}

/// The parts of XLA's complex `tanh(a + b·i)`.
fn tanh_parts<F: XlaReal>(a: F, b: F) -> (F, F) {
    let f = |v: F| v.flush();
    let c = |v: f64| F::from(v).expect("a small constant");
    let two_a = f(a + a);
    let (em, enm) = (xla_math::expm1(two_a), xla_math::expm1(-two_a));
    let real_num = f(em - enm);
    let (cos_b, sin_b) = (f(b.cos()), f(b.sin()));
    let two_cos_2b_p2 = f(f(cos_b * cos_b) * c(4.0));
    let imag_num = f(c(4.0) * f(cos_b * sin_b));
    let exp_sum_m2 = f(em + enm);
    let denom = f(exp_sum_m2 + two_cos_2b_p2);
    let real = if exp_sum_m2 == F::infinity() {
        c(-1.0).copysign(a)
    } else {
        f(real_num / denom)
    };
    let imag = f(imag_num / denom);
    let (a_inf, sin_nan) = (a.abs() == F::infinity(), imag_num.is_nan());
    let real = if sin_nan && !a_inf { F::nan() } else { real };
    let imag = if b == c(0.0) || (a_inf && sin_nan) {
        c(0.0)
    } else {
        imag
    };
    (real, imag)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values JAX 0.10.2 gives on this CPU (`jax.jit(jnp.arctan2)`, `jnp.logaddexp` of
    /// arrays; x64 on for complex128).
    #[test]
    fn recorded_binary_values() {
        let (a, b) = (C32::new(1.0, 2.0), C32::new(0.5, 1.0));
        assert_eq!(C32::xla_atan2(a, b), C32::new(1.1071486, 0.0));
        assert_eq!(C32::xla_logaddexp(a, b), C32::new(1.3523648, 1.6330097));
        let (a, b) = (C64::new(3.0, -1.0), C64::new(-2.0, 0.25));
        assert_eq!(
            C64::xla_atan2(a, b),
            C64::new(2.134470321982476, 0.08984350022697436)
        );
        let l = C64::xla_logaddexp(a, b);
        assert_eq!(l, C64::new(3.002142727483649, -0.9936194350151171));
        let (a, b) = (C64::new(1.0, 2.0), C64::new(0.5, 1.0));
        assert_eq!(
            C64::xla_atan2(a, b),
            C64::new(1.1071487177940906, 3.33066907387547e-16)
        );
    }
}
