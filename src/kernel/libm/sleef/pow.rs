//! SLEEF's float64 `pow` (`xpow`, `Sleef_powd8_u10`: PyTorch's `Vectorized<double>::pow` on
//! AVX-512), written after `src/libm/sleefsimddp.c` (SLEEF 3.6 to 3.9, its AVX-512 `logk` with
//! `getexp`/`getmant`, FMA): `exp(y · log|x|)` with `log` and `exp` in double-double
//! arithmetic (`logk`, `expk`), then the sign and the special cases of C99's `pow`.

// SLEEF's constants as its sources write them (digits past the float's precision included)
#![allow(clippy::excessive_precision, clippy::approx_constant)]

use super::df::{self, Pair};
use super::ldexp2;

/// `ln 2` as a double-double.
const LN2: Pair<f64> = (0.693147180559945286226764, 2.319046813846299558417771e-17);

/// `vgetexp_vd_vd` of a finite nonzero double: `floor(log2|d|)`, subnormals included.
fn get_exp(d: f64) -> f64 {
    let bits = d.abs().to_bits();
    f64::from(match (bits >> 52) as i32 {
        0 => 63 - bits.leading_zeros() as i32 - 1074,
        e => e - 1023,
    })
}

/// `vgetmant_vd_vd` (`_MM_MANT_NORM_p75_1p5`) of a finite nonzero `|d|`: its significand in
/// `[0.75, 1.5)`.
fn get_mant(d: f64) -> f64 {
    let d = d.abs();
    let d = if d < f64::MIN_POSITIVE {
        d * 18446744073709551616.0
    } else {
        d
    };
    let m = f64::from_bits((d.to_bits() & ((1u64 << 52) - 1)) | (0x3ffu64 << 52));
    if m >= 1.5 {
        m * 0.5
    } else {
        m
    }
}

/// `logk`: `ln d` as a double-double.
#[allow(clippy::excessive_precision)]
fn logk(d: f64) -> Pair<f64> {
    let e = get_exp(d * (1.0 / 0.75));
    let m = get_mant(d);
    let x = df::div(df::add2(-1.0, m), df::add2(1.0, m));
    let x2 = df::squ(x);
    let (y, y2) = (x2.0, x2.0 * x2.0);
    let (y4, y8) = (y2 * y2, y2 * y2 * (y2 * y2));
    let p4 = |c: [f64; 4]| y2.mul_add(y.mul_add(c[0], c[1]), y.mul_add(c[2], c[3]));
    let p8 = y4.mul_add(
        p4([
            0.103239680901072952701192,
            0.117754809412463995466069,
            0.13332981086846273921509,
            0.153846227114512262845736,
        ]),
        p4([
            0.181818180850050775676507,
            0.222222222230083560345903,
            0.285714285714249172087875,
            0.400000000000000077715612,
        ]),
    );
    let t = y8.mul_add(0.116255524079935043668677, p8);
    let c = (0.666666666666666629659233, 3.80554962542412056336616e-17);
    let s = df::add_pp(df::mul_pf(LN2, e), (x.0 * 2.0, x.1 * 2.0));
    let x = df::mul_pp(x2, x);
    let s = df::add_pp(s, df::mul_pp(x, c));
    let x = df::mul_pp(x2, x);
    df::add_pp(s, df::mul_pf(x, t))
}

/// `expk`: `e^d` of a double-double, 0 below −1000.
#[allow(clippy::excessive_precision)]
fn expk(d: Pair<f64>) -> f64 {
    let (q, s) = super::exp::reduce_by_ln2(d);
    let s = df::normalize(s);
    let (x, x2) = (s.0, s.0 * s.0);
    let (x4, x8) = (x2 * x2, x2 * x2 * (x2 * x2));
    let p4 = |c: [f64; 4]| x2.mul_add(x.mul_add(c[0], c[1]), x.mul_add(c[2], c[3]));
    let p8 = x4.mul_add(
        p4([
            2.75572496725023574143864e-06,
            2.48014973989819794114153e-05,
            0.000198412698809069797676111,
            0.0013888888939977128960529,
        ]),
        p4([
            0.00833333333332371417601081,
            0.0416666666665409524128449,
            0.166666666666666740681535,
            0.500000000000000999200722,
        ]),
    );
    let u = x8.mul_add(
        x.mul_add(2.51069683420950419527139e-08, 2.76286166770270649116855e-07),
        p8,
    );
    let t = df::add_pp(df::add_fp(1.0, s), df::mul_pf(df::squ(s), u));
    let u = ldexp2(t.0 + t.1, q);
    if d.0 < -1000.0 {
        0.0
    } else {
        u
    }
}

/// `x` with its sign flipped where `y` is negative (`vmulsign`).
fn mul_sign(x: f64, y: f64) -> f64 {
    if y.is_sign_negative() {
        -x
    } else {
        x
    }
}

/// `x^y` of doubles as SLEEF's `xpow` (`Sleef_powd8_u10`) computes it.
///
/// ```
/// use promote::kernel::libm::sleef::pow_f64;
/// assert_eq!(pow_f64(2.0, 10.0), 1024.0);
/// assert_eq!(pow_f64(-2.0, 3.0), -8.0);
/// assert!(pow_f64(-2.0, 0.5).is_nan());
/// assert_eq!(pow_f64(f64::NAN, 0.0), 1.0);
/// ```
pub fn pow_f64(x: f64, y: f64) -> f64 {
    let yisint = y.round_ties_even() == y;
    let yisodd = yisint && (y * 0.5).round_ties_even() != y * 0.5;
    let d = df::mul_pf(logk(x.abs()), y);
    let mut r = if d.0 > 709.782712893384 {
        f64::INFINITY
    } else {
        expk(d)
    };
    r *= if x > 0.0 {
        1.0
    } else if !yisint {
        f64::NAN
    } else if yisodd {
        -1.0
    } else {
        1.0
    };
    let efx = mul_sign(x.abs() - 1.0, y);
    if y.is_infinite() {
        r = if efx < 0.0 {
            0.0
        } else if efx == 0.0 {
            1.0
        } else {
            f64::INFINITY
        };
    }
    if x.is_infinite() || x == 0.0 {
        let m = if y.is_sign_negative() ^ (x == 0.0) {
            0.0
        } else {
            f64::INFINITY
        };
        r = mul_sign(m, if yisodd { x } else { 1.0 });
    }
    if x.is_nan() || y.is_nan() {
        r = f64::from_bits(u64::MAX);
    }
    if y == 0.0 || x == 1.0 {
        1.0
    } else {
        r
    }
}
