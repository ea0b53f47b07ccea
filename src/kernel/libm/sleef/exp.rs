//! SLEEF's float64 `expm1` (`xexpm1`, `Sleef_expm1d8_u10`: PyTorch's `vml::vexpm1` on
//! AVX-512, every element in a vector), written after `src/libm/sleefsimddp.c` (SLEEF 3.6 to
//! 3.9, FMA): `e^a − 1` from `expk2`, SLEEF's `e^a` as a double-double.

// SLEEF's constants as its sources write them (digits past the float's precision included)
#![allow(clippy::excessive_precision, clippy::approx_constant)]

use super::df::{self, Pair};
use super::ldexp2;

/// `expk`'s and `expk2`'s reduction: `q = rint(d / ln 2)` (`i32::MIN` out of range) and
/// `d − q·ln 2` in double-double, `ln 2` in two parts.
#[allow(clippy::excessive_precision)]
pub(super) fn reduce_by_ln2(d: Pair<f64>) -> (i32, Pair<f64>) {
    let dq = ((d.0 + d.1) * std::f64::consts::LOG2_E).round_ties_even();
    let q = if dq.abs() < 2147483648.0 {
        dq as i32
    } else {
        i32::MIN
    };
    let s = df::add2_pf(
        d,
        dq * -0.693_147_180_559_662_956_511_601_805_686_950_683_593_75,
    );
    let s = df::add2_pf(
        s,
        dq * -0.282_352_905_630_315_771_225_884_481_750_134_360_255_254_120_68e-12,
    );
    (q, s)
}

/// `expk2`: `e^d` of a double-double as a double-double, 0 below −1000.
/// (`POLY10` in Estrin's scheme: the two highest coefficients, then two blocks of four.)
#[allow(clippy::excessive_precision)]
fn expk2(d: Pair<f64>) -> Pair<f64> {
    let (q, s) = reduce_by_ln2(d);
    let (s2, s4) = (df::squ(s), df::squ(df::squ(s)));
    let (x, x2, x4) = (s.0, s2.0, s4.0);
    let x8 = x4 * x4;
    let p4 = |c: [f64; 4]| x2.mul_add(x.mul_add(c[0], c[1]), x.mul_add(c[2], c[3]));
    let p8 = x4.mul_add(
        p4([
            0.2505230023782644465e-7,
            0.2755724800902135303e-6,
            0.2755731892386044373e-5,
            0.2480158735605815065e-4,
        ]),
        p4([
            0.1984126984148071858e-3,
            0.1388888888886763255e-2,
            0.8333333333333347095e-2,
            0.4166666666666669905e-1,
        ]),
    );
    let u = x8.mul_add(
        x.mul_add(0.1602472219709932072e-9, 0.2092255183563157007e-8),
        p8,
    );
    let t = df::add_fp(0.5, df::mul_pf(s, 0.1666666666666666574e+0));
    let t = df::add_fp(1.0, df::mul_pp(t, s));
    let t = df::add_fp(1.0, df::mul_pp(t, s));
    let t = df::add_pp(t, df::mul_pf(s4, u));
    if d.0 < -1000.0 {
        (0.0, 0.0)
    } else {
        (ldexp2(t.0, q), ldexp2(t.1, q))
    }
}

/// `e^a − 1` of a double as SLEEF's `xexpm1` (`Sleef_expm1d8_u10`) computes it: inf above
/// `ln(DBL_MAX)`, −1 below −36.74, −0 kept.
///
/// ```
/// use promote::kernel::libm::sleef::expm1_f64;
/// assert_eq!(expm1_f64(0.0), 0.0);
/// assert_eq!(expm1_f64(-40.0), -1.0);
/// assert_eq!(expm1_f64(1e-300), 1e-300);
/// ```
#[allow(clippy::excessive_precision)]
pub fn expm1_f64(a: f64) -> f64 {
    let d = df::add2_pf(expk2((a, 0.0)), -1.0);
    let x = d.0 + d.1;
    if a > 709.782712893383996732223 {
        f64::INFINITY
    } else if a < -36.736800569677101399113302437 {
        -1.0
    } else if a == 0.0 && a.is_sign_negative() {
        -0.0
    } else {
        x
    }
}

/// `sinh` of a double as SLEEF's `xsinh` (`Sleef_sinhd8_u10`) computes it: `(e − 1/e) / 2` of
/// `e = e^|x|` as double-doubles, the sign of `x`; inf above `|x|` 710 or where `e` overflows.
///
/// ```
/// use promote::kernel::libm::sleef::sinh_f64;
/// assert_eq!(sinh_f64(0.0), 0.0);
/// assert_eq!(sinh_f64(-710.0), f64::NEG_INFINITY);
/// assert!((sinh_f64(1.0) - 1.0f64.sinh()).abs() <= f64::EPSILON);
/// ```
pub fn sinh_f64(x: f64) -> f64 {
    let d = expk2((x.abs(), 0.0));
    let d = df::sub_pp(d, df::rec(d));
    let y = (d.0 + d.1) * 0.5;
    let y = if x.abs() > 710.0 || y.is_nan() {
        f64::INFINITY
    } else {
        y
    };
    if x.is_nan() {
        f64::from_bits(u64::MAX)
    } else if x.is_sign_negative() {
        -y
    } else {
        y
    }
}
