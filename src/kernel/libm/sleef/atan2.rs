//! SLEEF's `atan2` of 1-ulp accuracy: float32 `xatan2f_u1` (`Sleef_atan2f16_u10`) and float64
//! `xatan2_u1` (`Sleef_atan2d8_u10`), PyTorch's `Vectorized<float>::atan2` and
//! `Vectorized<double>::atan2` on AVX-512, written after `src/libm/sleefsimdsp.c` and
//! `src/libm/sleefsimddp.c` (SLEEF 3.6 to 3.9, FMA build): `atan2kf_u1`/`atan2k_u1` reduce
//! `|y| / x` to an octant by a double-float quotient, a polynomial in its square, then the
//! special cases of the infinities, zeros and NaNs. Each lane is computed alone.

// SLEEF's constants as its sources write them (digits past the float's precision included)
#![allow(clippy::excessive_precision, clippy::approx_constant)]

use super::df::{self, Pair};
use num_traits::Float;

/// A float type of SLEEF's `atan2`: its constants and polynomial.
trait Atan2Float: Float {
    /// `nexttoward(1 / MAX, 1)`: below it both operands are scaled up.
    const TINY: Self;
    /// The scale: `2^24` for float, `2^53` for double.
    const SCALE: Self;
    /// π/2 as a double-float.
    const HALF_PI: Pair<Self>;
    const PI: Self;
    const FRAC_PI_2: Self;
    const FRAC_PI_4: Self;
    /// The NaN with every bit set (`vor_vm_vo32_vm` of an all-ones mask).
    const NAN_ONES: Self;
    /// `s + s·t·P(t)` of the quotient `s` and its square `t` (normalized).
    fn series(s: Pair<Self>, t: Pair<Self>) -> Pair<Self>;
}

impl Atan2Float for f32 {
    const TINY: f32 = 2.9387372783541830947e-39;
    const SCALE: f32 = 16777216.0;
    const HALF_PI: Pair<f32> = (1.5707963705062866211, -4.3711388286737928865e-08);
    const PI: f32 = std::f32::consts::PI;
    const FRAC_PI_2: f32 = std::f32::consts::FRAC_PI_2;
    const FRAC_PI_4: f32 = std::f32::consts::FRAC_PI_4;
    const NAN_ONES: f32 = f32::from_bits(u32::MAX);
    fn series(s: Pair<f32>, t: Pair<f32>) -> Pair<f32> {
        let x = t.0;
        let u = [
            0.0107900900766253471374512f32,
            -0.0309564601629972457885742,
            0.0577365085482597351074219,
            -0.0838950723409652709960938,
            0.109463557600975036621094,
            -0.142626821994781494140625,
            0.199983194470405578613281,
        ]
        .iter()
        .fold(-0.00176397908944636583328247f32, |u, &c| u.mul_add(x, c));
        let t = df::mul_pp(t, df::add(-0.333332866430282592773438, u * x));
        df::mul_pp(s, df::add_fp(1.0, t))
    }
}

impl Atan2Float for f64 {
    const TINY: f64 = 5.5626846462680083984e-309;
    const SCALE: f64 = 9007199254740992.0;
    const HALF_PI: Pair<f64> = (1.570796326794896557998982, 6.12323399573676603586882e-17);
    const PI: f64 = std::f64::consts::PI;
    const FRAC_PI_2: f64 = std::f64::consts::FRAC_PI_2;
    const FRAC_PI_4: f64 = std::f64::consts::FRAC_PI_4;
    const NAN_ONES: f64 = f64::from_bits(u64::MAX);
    fn series(s: Pair<f64>, t: Pair<f64>) -> Pair<f64> {
        let x = t.0;
        let (x2, x4) = (x * x, x * x * (x * x));
        let x8 = x4 * x4;
        // POLY16 in Estrin's scheme (src/common/estrin.h), highest coefficient first
        let p4 = |c: [f64; 4]| x2.mul_add(x.mul_add(c[0], c[1]), x.mul_add(c[2], c[3]));
        let p8 = |a: [f64; 4], b: [f64; 4]| x4.mul_add(p4(a), p4(b));
        let u = x8.mul_add(
            p8(
                [
                    1.06298484191448746607415e-05,
                    -0.000125620649967286867384336,
                    0.00070557664296393412389774,
                    -0.00251865614498713360352999,
                ],
                [
                    0.00646262899036991172313504,
                    -0.0128281333663399031014274,
                    0.0208024799924145797902497,
                    -0.0289002344784740315686289,
                ],
            ),
            p8(
                [
                    0.0359785005035104590853656,
                    -0.041848579703592507506027,
                    0.0470843011653283988193763,
                    -0.0524914210588448421068719,
                ],
                [
                    0.0587946590969581003860434,
                    -0.0666620884778795497194182,
                    0.0769225330296203768654095,
                    -0.0909090442773387574781907,
                ],
            ),
        );
        let u = [
            0.111111108376896236538123,
            -0.142857142756268568062339,
            0.199999999997977351284817,
            -0.333333333333317605173818,
        ]
        .iter()
        .fold(u, |u, &c| u.mul_add(x, c));
        df::add_pp(s, df::mul_pf(df::mul_pp(s, t), u))
    }
}

/// `atan2kf_u1`/`atan2k_u1` of `y ≥ 0` and `x`: the angle as a double-float.
fn atan2k<F: Atan2Float>(y: F, x: F) -> Pair<F> {
    let neg = x < F::zero();
    let mut q: i32 = if neg { -2 } else { 0 };
    let x = if neg { -x } else { x };
    if x < y {
        q += 1;
    }
    let (s, t) = if x < y {
        ((-x, F::zero()), (y, F::zero()))
    } else {
        ((y, F::zero()), (x, F::zero()))
    };
    let s = df::div(s, t);
    let t = df::normalize(df::squ(s));
    let t = F::series(s, t);
    let qf = F::from(q).unwrap_or_else(F::zero);
    df::add_pp(df::mul_pf(F::HALF_PI, qf), t)
}

/// `x` with its sign flipped where `y` is negative (`vmulsign`).
fn mul_sign<F: Float>(x: F, y: F) -> F {
    if y.is_sign_negative() {
        -x
    } else {
        x
    }
}

/// `visinf2`: `m` with `d`'s sign bit or'ed in where `d` is infinite, else 0.
fn inf2<F: Float>(d: F, m: F) -> F {
    if !d.is_infinite() {
        F::zero()
    } else if d.is_sign_negative() {
        -m.abs()
    } else {
        m
    }
}

/// `xatan2f_u1`/`xatan2_u1` of `y` and `x`.
fn atan2_u1<F: Atan2Float>(y: F, x: F) -> F {
    let (y, x) = if x.abs() < F::TINY {
        (y * F::SCALE, x * F::SCALE)
    } else {
        (y, x)
    };
    let d = atan2k(y.abs(), x);
    let mut r = mul_sign(d.0 + d.1, x);
    if x.is_infinite() || x == F::zero() {
        r = F::FRAC_PI_2 - inf2(x, mul_sign(F::FRAC_PI_2, x));
    }
    if y.is_infinite() {
        r = F::FRAC_PI_2 - inf2(x, mul_sign(F::FRAC_PI_4, x));
    }
    if y == F::zero() {
        r = if x.is_sign_negative() {
            F::PI
        } else {
            F::zero()
        };
    }
    if x.is_nan() || y.is_nan() {
        F::NAN_ONES
    } else {
        mul_sign(r, y)
    }
}

/// `atan2(y, x)` of floats as SLEEF's `xatan2f_u1` (`Sleef_atan2f16_u10`) computes it.
///
/// ```
/// use promote::kernel::libm::sleef::atan2_f32;
/// assert!((atan2_f32(1.0, 1.0) - std::f32::consts::FRAC_PI_4).abs() <= f32::EPSILON);
/// assert_eq!(atan2_f32(-0.0, -1.0), -std::f32::consts::PI);
/// ```
pub fn atan2_f32(y: f32, x: f32) -> f32 {
    atan2_u1(y, x)
}

/// `atan2(y, x)` of doubles as SLEEF's `xatan2_u1` (`Sleef_atan2d8_u10`) computes it.
///
/// ```
/// use promote::kernel::libm::sleef::atan2_f64;
/// assert_eq!(atan2_f64(0.0, -0.0), std::f64::consts::PI);
/// assert_eq!(atan2_f64(f64::INFINITY, f64::NEG_INFINITY), 3.0 * std::f64::consts::FRAC_PI_4);
/// ```
pub fn atan2_f64(y: f64, x: f64) -> f64 {
    atan2_u1(y, x)
}
