//! Eigen's packet `pow` (`generic_pow`, `Eigen/src/Core/arch/Default/
//! GenericPacketMathFunctions.h` at Eigen commit f612df27, the one Paddle 3.3.1 pins in
//! `cmake/external/eigen.cmake`), as Paddle's `pow` kernel runs it on the packets of a float32
//! or float64 tensor (`PowFunctor`: `x.pow(factor)`, an AVX build without FMA): `pow(x, y)`
//! is `exp2(y · log2(x))` in double-word arithmetic — `log2` of the mantissa by a
//! Sollya polynomial with extra-precise terms, the product split into an integer and a
//! fraction, `exp2` of the fraction by another polynomial, then scaled by `pldexp`. Without
//! FMA, `twoprod` is Dekker's product of Veltkamp halves and every `pmadd` rounds twice.
//! The elements past the last whole packet take the C library's `pow` (Paddle's `var`
//! squares its deviations with it: `pow(2.4, 2)` is not always `2.4 · 2.4`; the unit test
//! `squares_as_paddle_packets` pins examples).

use num_traits::Float;

/// The per-type parts of Eigen's `pow`: the mantissa's `log2`, `exp2` on `[-½, ½]`, the
/// `frexp`/`ldexp` pair and the Veltkamp split constant.
pub(crate) trait EigenPow: Float {
    /// `2^s + 1`, `s = ⌈digits / 2⌉` (`veltkamp_splitting`).
    const SPLIT: Self;
    /// `max_exponent · ln 2 / epsilon`: a `|y|` from here on over- or underflows any `x ≠ 1`.
    const HUGE_EXPONENT: Self;
    /// `accurate_log2<Scalar>` of a mantissa in `[1/√2, √2]`, as a double word.
    fn accurate_log2(m: Self) -> (Self, Self);
    /// `fast_accurate_exp2<Scalar>` on `[-½, ½]`.
    fn exp2_small(x: Self) -> Self;
    /// `pfrexp_generic`: the mantissa in `[½, 1)` and the exponent (0 for 0, inf and NaN).
    fn frexp(x: Self) -> (Self, Self);
    /// `pldexp` for the AVX packet of the type.
    fn ldexp(x: Self, e: Self) -> Self;
}

/// `a · b + c`, two roundings (`pmadd` without FMA).
fn madd<F: Float>(a: F, b: F, c: F) -> F {
    a * b + c
}

/// `{s, r}` with `x + y = s + r` exactly, `s = fl(x + y)`, if `|x| ≥ |y|`.
fn fast_twosum<F: Float>(x: F, y: F) -> (F, F) {
    let s = x + y;
    (s, y - (s - x))
}

/// Veltkamp's split of `x` into two halves of its significand.
fn split<F: EigenPow>(x: F) -> (F, F) {
    let gamma = F::SPLIT * x;
    let rho = x - gamma;
    let hi = rho + gamma;
    (hi, x - hi)
}

/// Dekker's exact product `x · y = p + q`, `p = fl(x · y)`.
fn twoprod<F: EigenPow>(x: F, y: F) -> (F, F) {
    let ((xh, xl), (yh, yl)) = (split(x), split(y));
    let p = x * y;
    let q = madd(xh, yh, -p);
    let q = madd(xh, yl, q);
    let q = madd(xl, yh, q);
    (p, madd(xl, yl, q))
}

/// Double word `x` times a float `y` (Muller's algorithm 7).
fn twoprod_dw<F: EigenPow>((xh, xl): (F, F), y: F) -> (F, F) {
    let (ch, cl1) = twoprod(xh, y);
    let (th, tl1) = fast_twosum(ch, xl * y);
    fast_twosum(th, tl1 + cl1)
}

/// Double word times double word.
fn twoprod_dw2<F: EigenPow>(x: (F, F), (yh, yl): (F, F)) -> (F, F) {
    let (hh, hl) = twoprod_dw(x, yh);
    let (lh, ll) = twoprod_dw(x, yl);
    fast_twosum_dw((hh, hl), (lh, ll))
}

/// Double word plus double word, `|x| ≥ |y|`.
fn fast_twosum_dw<F: Float>((xh, xl): (F, F), (yh, yl): (F, F)) -> (F, F) {
    let (rh, rl) = fast_twosum(xh, yh);
    fast_twosum(rh, (yl + rl) + xl)
}

/// A float plus a double word, `|x| ≥ |y|`.
fn fast_twosum_f_dw<F: Float>(x: F, (yh, yl): (F, F)) -> (F, F) {
    let (rh, rl) = fast_twosum(x, yh);
    fast_twosum(rh, yl + rl)
}

/// Dekker's double-word sum without an order between the operands (`twosum`).
fn twosum<F: Float>((xh, xl): (F, F), (yh, yl): (F, F)) -> (F, F) {
    let x_greater = yh.abs() < xh.abs();
    let (r1, l1) = fast_twosum(xh, yh);
    let (r2, l2) = fast_twosum(yh, xh);
    let (r, s) = if x_greater {
        (r1, (yl + l1) + xl)
    } else {
        (r2, (xl + l2) + yl)
    };
    fast_twosum(r, s)
}

/// Eigen's `pround` on AVX: `x + copysign(0.49999997, x)` truncated (not quite half away
/// from zero: 0.5 rounds to 0).
fn pround<F: Float>(x: F, prev_half: F) -> F {
    (x + prev_half.copysign(x)).trunc()
}

impl EigenPow for f32 {
    const SPLIT: f32 = 4097.0;
    const HUGE_EXPONENT: f32 = 128.0 * std::f32::consts::LN_2 / f32::EPSILON;

    #[allow(clippy::excessive_precision)]
    fn accurate_log2(z: f32) -> (f32, f32) {
        let x = z - 1.0;
        let x2 = x * x;
        let even = madd(
            madd(
                madd(9.703654795885e-2, x2, 0.1720575392246),
                x2,
                0.2050433009862,
            ),
            x2,
            0.2885761857032,
        );
        let odd = madd(
            madd(-0.1690667718648, x2, -0.1789081543684),
            x2,
            -0.2404672354459,
        );
        let p = madd(odd, x, even);
        let consts = [
            (-0.360674142838, -6.13283912543e-09),
            (0.480897903442, -1.44861207474e-08),
            (-0.721347510815, -4.84483164698e-09),
            (1.44269502163, 2.01711713999e-08),
        ];
        let mut q = fast_twosum_dw(consts[0], twoprod(p, x));
        for &c in &consts[1..] {
            q = fast_twosum_dw(c, twoprod_dw(q, x));
        }
        twoprod_dw(q, x)
    }

    #[allow(clippy::excessive_precision)]
    fn exp2_small(x: f32) -> f32 {
        let x2 = x * x;
        let even = madd(madd(1.539513905e-4, x2, 9.618283249e-3), x2, 0.2402264923);
        let odd = madd(1.340007293e-3, x2, 5.550328270e-2);
        let p = madd(odd, x, even);
        exp2_tail(p, x, (0.6931471825, 2.36836577e-08))
    }

    fn frexp(a: f32) -> (f32, f32) {
        let denormal = a.abs() < f32::MIN_POSITIVE;
        let normalized = if denormal { a * 16_777_216.0 } else { a };
        let offset = if denormal { -126.0 - 24.0 } else { -126.0 };
        let biased = (normalized.abs().to_bits() >> 23) as f32;
        if a == 0.0 || biased == 255.0 {
            return (a, 0.0);
        }
        let m = f32::from_bits((normalized.to_bits() & !0x7f80_0000) | 0.5f32.to_bits());
        (m, biased + offset)
    }

    fn ldexp(a: f32, exponent: f32) -> f32 {
        // pldexp_generic: e clamped to ±278 (truncated to an integer), four factors 2^b, 2^b,
        // 2^b, 2^(e − 3b), b = floor(e / 4)
        let e = exponent.clamp(-278.0, 278.0) as i32;
        let b = e >> 2;
        let pow2 = |k: i32| f32::from_bits(((k + 127) as u32) << 23);
        let c = pow2(b);
        a * c * c * c * pow2(e - 3 * b)
    }
}

/// `1 + x · (C + x · p)` in double words (the end of `fast_accurate_exp2`).
fn exp2_tail<F: EigenPow>(p: F, x: F, c: (F, F)) -> F {
    let q1 = twosum(twoprod(p, x), c);
    let (q2h, q2l) = twoprod_dw(q1, x);
    let (q3h, q3l) = fast_twosum(F::one(), q2h);
    q3h + (q2l + q3l)
}

impl EigenPow for f64 {
    const SPLIT: f64 = 134_217_729.0;
    const HUGE_EXPONENT: f64 = 1024.0 * std::f64::consts::LN_2 / f64::EPSILON;

    #[allow(clippy::excessive_precision)]
    fn accurate_log2(x: f64) -> (f64, f64) {
        let num = twoprod_dw((2.88539008177792677, 4.07660016854549667e-17), x - 1.0);
        let r = twoprod_dw2(num, reciprocal_dw(x + 1.0));
        let r2 = twoprod_dw2(r, r);
        let r4 = twoprod_dw2(r2, r2).0;
        let even = madd(
            madd(
                madd(2.87074255468000586e-9, r4, 2.31032094540014656e-7),
                r4,
                2.31271023278625638e-5,
            ),
            r4,
            2.88543873228900172e-3,
        );
        let odd = madd(
            madd(2.38957980901884082e-8, r4, 2.27279857398537278e-6),
            r4,
            2.47556738444535513e-4,
        );
        let q = madd(odd, r2.0, even);
        let p = twoprod_dw(r2, q);
        let p1 = fast_twosum_dw((0.0400377511598501157, -4.77726582251425391e-19), p);
        let p2 = twoprod_dw2(r2, p1);
        let p3 = fast_twosum_f_dw(1.0, p2);
        twoprod_dw2(p3, r)
    }

    #[allow(clippy::excessive_precision)]
    fn exp2_small(x: f64) -> f64 {
        let x2 = x * x;
        let mut even = 7.073829923303358410e-9;
        for c in [
            1.321543498017646657e-6,
            1.540353045780084423e-4,
            9.618129107593478832e-3,
            0.240226506959101332,
        ] {
            even = madd(even, x2, c);
        }
        let mut odd = 4.431642109085495276e-10;
        for c in [
            1.017822306737031311e-7,
            1.525273342728892877e-5,
            1.333355814685869807e-3,
            5.550410866481961247e-2,
        ] {
            odd = madd(odd, x2, c);
        }
        exp2_tail(
            madd(odd, x, even),
            x,
            (std::f64::consts::LN_2, 4.81927865669806721e-17),
        )
    }

    fn frexp(a: f64) -> (f64, f64) {
        let denormal = a.abs() < f64::MIN_POSITIVE;
        let normalized = if denormal {
            a * 9_007_199_254_740_992.0
        } else {
            a
        };
        let offset = if denormal { -1022.0 - 53.0 } else { -1022.0 };
        let biased = (normalized.abs().to_bits() >> 52) as f64;
        if a == 0.0 || biased == 2047.0 {
            return (a, 0.0);
        }
        let m = f64::from_bits((normalized.to_bits() & !0x7ff0_0000_0000_0000) | 0.5f64.to_bits());
        (m, biased + offset)
    }

    fn ldexp(a: f64, exponent: f64) -> f64 {
        // pldexp<Packet4d>: e clamped to ±2099, converted rounding to nearest
        let e = exponent.clamp(-2099.0, 2099.0).round_ties_even() as i64;
        let b = e >> 2;
        let pow2 = |k: i64| f64::from_bits(((k + 1023) as u64) << 52);
        let c = pow2(b);
        a * c * c * c * pow2(e - 3 * b)
    }
}

/// `1 / x` as a double word: `(1/√x)²` refined by one Newton step in double words
/// (`doubleword_reciprocal`; AVX's `prsqrt<Packet4d>` is `1 / sqrt(x)`).
fn reciprocal_dw(x: f64) -> (f64, f64) {
    let r = 1.0 / x.sqrt();
    let approx = r * r;
    let (t1h, t1l) = twoprod(-x, approx);
    let (t2h, t2l) = fast_twosum(2.0, t1h);
    let t3 = fast_twosum(t2h, t2l + t1l);
    twoprod_dw(t3, approx)
}

/// `generic_pow_impl`: `pow(x, y)` for a positive `x`.
fn pow_impl<F: EigenPow>(x: F, y: F) -> F {
    let (m, e) = F::frexp(x);
    let sqrt_half = F::from(std::f64::consts::FRAC_1_SQRT_2).expect("constant");
    let two = F::one() + F::one();
    let (m, e) = if m < sqrt_half {
        (two * m, e - F::one())
    } else {
        (m, e)
    };
    let rx = F::accurate_log2(m);
    let f = fast_twosum_dw(twoprod(e, y), twoprod_dw(rx, y));
    let prev_half = F::from(0.5).expect("constant") - F::epsilon() / (two * two);
    let n = pround(f.0, prev_half);
    let r = (f.0 - n) + f.1;
    let nr = pround(r, prev_half);
    F::ldexp(F::exp2_small(r - nr), n + nr)
}

/// Eigen's packet `pow(x, y)` (`generic_pow`): its special cases (`y = 1` gives `x`; `x = 1`,
/// `y = 0`, `x = −1` with an even or infinite `y` give 1; NaN operands and a negative `x`
/// with a non-integer finite `y` NaN; zeros and infinities by the signs; a huge `|y|` over or
/// under flows), else [`pow_impl`] of `|x|`, negated for a negative `x` and an odd `y`.
pub(crate) fn packet_pow<F: EigenPow>(x: F, y: F) -> F {
    let (zero, one, inf) = (F::zero(), F::one(), F::infinity());
    let ax = x.abs();
    let y_int = y.floor() == y;
    let half_y = y * F::from(0.5).expect("half");
    let y_even = pround(
        half_y,
        F::from(0.5).expect("half") - F::epsilon() / F::from(4).expect("4"),
    ) == half_y;
    let y_huge = F::HUGE_EXPONENT <= y.abs();
    let invalid_neg = x < zero && ax != inf && !y_int && y.abs() != inf;
    let pow_one =
        (x == one) || y == zero || (x == -one && (y.abs() == inf || (y_even && !invalid_neg)));
    let pow_nan = invalid_neg || x.is_nan() || y.is_nan();
    let y_pos = y > zero;
    let y_neg = y < zero;
    let pow_inf = (x == zero && y_neg)
        || (ax == inf && y_pos)
        || (ax < one && y_huge && y_neg)
        || (one < ax && y_huge && y_pos);
    let pow_zero = (x == zero && y_pos)
        || (ax == inf && y_neg)
        || (ax < one && y_huge && y_pos)
        || (one < ax && y_huge && y_neg);
    if y == one {
        return x;
    }
    if pow_one {
        return one;
    }
    if pow_nan {
        return F::nan();
    }
    if pow_inf {
        return inf;
    }
    if pow_zero {
        return zero;
    }
    let p = pow_impl(ax, y);
    if x < zero && !y_even {
        -p
    } else {
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_as_paddle_packets() {
        // observed: paddle.pow(x, 2) of 8 float32 / 4 float64 values (one packet each)
        assert_eq!(packet_pow(0.010768582f32, 2.0), 0.00011596236);
        assert_eq!(packet_pow(-0.35246447f32, 2.0), 0.1242312);
        assert_eq!(
            packet_pow(-0.005328057192946953f64, 2.0),
            2.8388193451313765e-05
        );
        assert_eq!(
            packet_pow(-0.058486936216085354f64, 2.0),
            0.003420721707944437
        );
        assert_eq!(packet_pow(0.0f32, 2.0), 0.0);
        assert!(packet_pow(f64::NAN, 2.0).is_nan());
        assert_eq!(packet_pow(f32::NEG_INFINITY, 2.0), f32::INFINITY);
    }
}
