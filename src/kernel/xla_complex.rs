//! XLA's complex element functions on CPU (the `xla-cpu` semantics, JAX's `jnp` ufuncs of a
//! complex operand), written after `EmitComplexUnaryOp`, `EmitComplexLog`, `EmitComplexSqrt`
//! and `EmitSqrtComplexAbs` in XLA's `xla/service/elemental_ir_emitter.cc` (the XLA of JAX
//! 0.10.2). The formulas and their special-case selects are XLA's, so infinities and NaNs come
//! out where XLA's do; the real functions inside (`exp`, `sin`, `log`, `atan2`, ...) are the C
//! library's where XLA runs its own polynomial approximations, which differ in the last bits
//! of finite values only. Every step's result is flushed to zero when subnormal (the CPU's
//! FTZ mode, which XLA's runtime turns on).
//!
//! ```
//! use promote::kernel::array::C32;
//! use promote::kernel::xla_complex::XlaComplex;
//! // exp(-inf + inf·i): exp(-inf) · cos(inf) is 0 · NaN
//! let z = C32::xla_exp(C32::new(f32::NEG_INFINITY, f32::INFINITY));
//! assert!(z.re.is_nan() && z.im.is_nan());
//! // sqrt(-inf + 0i) is 0 + inf·i, as C99 says
//! let s = C32::xla_sqrt(C32::new(f32::NEG_INFINITY, 0.0));
//! assert_eq!((s.re, s.im), (0.0, f32::INFINITY));
//! ```

use super::array::{C32, C64};
use super::compute::Arith;
use super::xla::{XlaComplexAbs, XlaOps};

/// XLA's complex `exp`, `log`, `sqrt`, `sin`, `cos`, `tan`, `tanh` and `log1p`.
pub trait XlaComplex: Copy {
    /// `e^a · (cos b + i·sin b)`.
    fn xla_exp(z: Self) -> Self;
    /// `log|z| + i·atan2(b, a)` with XLA's `|z|`.
    fn xla_log(z: Self) -> Self;
    /// `sqrt|z| · (cos(t/2) + i·sin(t/2))`, `t = atan2(b, a)`, with C99's infinite cases.
    fn xla_sqrt(z: Self) -> Self;
    /// `sin a · cosh b + i·cos a · sinh b`, the hyperbolic parts from `e^b` and `0.5 / e^b`.
    fn xla_sin(z: Self) -> Self;
    /// `cos a · cosh b − i·sin a · sinh b`.
    fn xla_cos(z: Self) -> Self;
    /// `(e^2a − e^−2a + 2i·sin 2b) / (e^2a + e^−2a + 2 cos 2b)` through `expm1`, with XLA's
    /// limits for an infinite denominator and its NaN/zero corner cases.
    fn xla_tanh(z: Self) -> Self;
    /// `−i · tanh(−b + a·i)`.
    fn xla_tan(z: Self) -> Self;
    /// `log1p(max(|a+1|, |b|) − 1) + ½·log1p((min / max)²) + i·atan2(b, a + 1)`.
    fn xla_log1p(z: Self) -> Self;
}

macro_rules! xla_complex {
    ($($c:ty, $f:ty);*) => {$(
        impl XlaComplex for $c {
            fn xla_exp(z: $c) -> $c {
                let f = |x: $f| x.flush();
                let e = f(z.re.exp());
                <$c>::new(f(e * f(z.im.cos())), f(e * f(z.im.sin())))
            }
            fn xla_log(z: $c) -> $c {
                let f = |x: $f| x.flush();
                let angle = f(z.im.atan2(z.re));
                let abs = <$f as XlaComplexAbs>::xla_complex_abs(z.re, z.im);
                <$c>::new(f(abs.ln()), angle)
            }
            fn xla_sqrt(z: $c) -> $c {
                let f = |x: $f| x.flush();
                let (a, b) = (z.re, z.im);
                let inf = <$f>::INFINITY;
                // EmitSqrtComplexAbs: sqrt(max) · (1 + (min / max)²)^¼, min where NaN
                let (ar, ai) = (a.abs(), b.abs());
                let (max, min) = (<$f as XlaOps>::xla_max(ar, ai), <$f as XlaOps>::xla_min(ar, ai));
                let div = f(min / max);
                let one_plus = f(1.0 + f(div * div));
                let r = f(f(max.sqrt()) * f(one_plus.powf(0.25)));
                let r = if r.is_nan() { min } else { r };
                let angle = f(f(b.atan2(a)) * 0.5);
                let (cos, sin) = (f(angle.cos()), f(angle.sin()));
                let abs_b = b.abs();
                let re = if abs_b == inf || a == inf {
                    inf
                } else if a == -inf && abs_b != inf {
                    0.0
                } else {
                    f(r * cos)
                };
                let im = if abs_b == inf || a == -inf {
                    inf.copysign(b)
                } else if r.is_nan() {
                    <$f>::NAN
                } else if sin == 0.0 {
                    sin
                } else {
                    f(r * sin)
                };
                if r == 0.0 { <$c>::new(0.0, 0.0) } else { <$c>::new(re, im) }
            }
            fn xla_sin(z: $c) -> $c {
                let (sinh, cosh, sin, cos) = sin_cos_parts::<$f>(z.re, z.im);
                let f = |x: $f| x.flush();
                <$c>::new(f(sin * cosh), f(cos * sinh))
            }
            fn xla_cos(z: $c) -> $c {
                let (sinh, cosh, sin, cos) = sin_cos_parts::<$f>(z.re, z.im);
                let f = |x: $f| x.flush();
                <$c>::new(f(cos * cosh), -f(sin * sinh))
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
                let f = |x: $f| x.flush();
                let (a, b) = (z.re, z.im);
                let a1 = f(a + 1.0);
                let (abs_a1, abs_b) = (a1.abs(), b.abs());
                let max = <$f as XlaOps>::xla_max(abs_a1, abs_b);
                let min = <$f as XlaOps>::xla_min(abs_a1, abs_b);
                let max_m1 = if a1 > abs_b { a } else { f(max - 1.0) };
                let ratio = f(min / max);
                let r = f(f(0.5 * f(f(ratio * ratio).ln_1p())) + f(max_m1.ln_1p()));
                let re = if r.is_nan() { min } else { r };
                <$c>::new(re, f(b.atan2(a1)))
            }
        }
    )*};
}
xla_complex!(C32, f32; C64, f64);

/// `(sinh y, cosh y, sin x, cos x)` as XLA's complex `sin`/`cos` compute them.
fn sin_cos_parts<F: num_traits::Float + Arith>(x: F, y: F) -> (F, F, F, F) {
    let f = |v: F| v.flush();
    let half = F::from(0.5).expect("0.5 is a float");
    let e = f(y.exp());
    let (he, hne) = (f(half * e), f(half / e));
    (f(he - hne), f(he + hne), f(x.sin()), f(x.cos()))
}

/// The parts of XLA's complex `tanh(a + b·i)`.
fn tanh_parts<F: num_traits::Float + Arith>(a: F, b: F) -> (F, F) {
    let f = |v: F| v.flush();
    let c = |v: f64| F::from(v).expect("a small constant");
    let two_a = f(a + a);
    let (em, enm) = (f(two_a.exp_m1()), f((-two_a).exp_m1()));
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
