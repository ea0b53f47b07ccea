//! `arctan2` of float32 as Intel's SVML computes it (`__svml_atan2f16`, the "LA" AVX-512
//! variant), which NumPy 2.4.6 calls for float32 `arctan2` on AVX-512 CPUs
//! (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src). Its results are up to 2 ulps from
//! a correctly rounded `atan2`.
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_atan2_s_la.s`; our own
//! code, its constants copied as data):
//!
//! 1. with `a = |y|, b = |x|, c = 0` where `|y| < |x|`, else `a = −|x|, b = |y|, c = π/2`,
//!    `t = a / b` by the CPU's 14-bit reciprocal estimate (`vrcp14ps`) refined by two fused
//!    Newton steps;
//! 2. `atan(t) ≈ t · P(t²)` (a degree-9 odd polynomial, evaluated in `t⁴` in two halves) plus
//!    `c`, the sign of `x` set on it, `π` added where `x` is negative, the sign of `y` set.
//!
//! Where `|x|` or `|y|` is outside `[2^-125, 2^123)` (zeros, subnormals, huge values,
//! infinities, NaNs), SVML takes a vector branch for zeros (`±0`, `±π/2`, `±π` by the signs)
//! and its scalar routine for the rest (a NaN operand passed on, `y`'s first), which this port
//! computes with the C library's `atan2` in double, rounded once.
//!
//! ```
//! use promote::kernel::libm::svml::atan2::atan2f;
//! assert_eq!(atan2f(0.0, -1.0), std::f32::consts::PI);
//! assert_eq!(atan2f(-0.0, 0.0).to_bits(), (-0.0f32).to_bits());
//! assert!((atan2f(1.0, 2.0) - 0.5f32.atan()).abs() <= 2.0 * f32::EPSILON);
//! ```

/// `π/2` as float32.
const PIO2: f32 = f32::from_bits(0x3fc9_0fdb);
/// `π` as float32.
const PI: f32 = f32::from_bits(0x4049_0fdb);
/// `P = A(t⁴) + t² · B(t⁴)`: `A`'s coefficients, highest first (offsets 448, 576, 704, 832,
/// 960 of `__svml_satan2_data_internal`).
const A: [u32; 5] = [
    0x3b32_2cc0,
    0x3d2b_c384,
    0x3dd9_6474,
    0x3e4c_b79f,
    0x3f80_0000,
];
/// `B`'s coefficients, highest first (offsets 512, 640, 768, 896).
const B: [u32; 4] = [0xbc7f_2631, 0xbd98_7629, 0xbe11_61f8, 0xbeaa_aa49];

/// `atan2(y, x)` in float32, bit for bit as SVML's `__svml_atan2f16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::atan2::atan2f;
/// assert_eq!(atan2f(1.0, 0.0), std::f32::consts::FRAC_PI_2);
/// assert!(atan2f(f32::NAN, 1.0).is_nan());
/// ```
pub fn atan2f(y: f32, x: f32) -> f32 {
    let (ax, ay) = (x.abs(), y.abs());
    let in_range = |v: f32| (0x0100_0000..0x7d00_0000).contains(&v.to_bits());
    if !(in_range(ax) && in_range(ay)) {
        return special(y, x);
    }
    let (a, b, c) = if ay < ax {
        (ay, ax, 0.0)
    } else {
        (-ax, ay, PIO2)
    };
    // a / b: the reciprocal estimate, one Newton step, then the quotient refined once
    let r = rcp14(b);
    let r = (-b).mul_add(r, 1.0).mul_add(r, r);
    let q = r * a;
    let t = (-b).mul_add(q, a).mul_add(r, q);
    let t2 = t * t;
    let t4 = t2 * t2;
    let horner = |k: &[u32]| {
        k[1..].iter().fold(f32::from_bits(k[0]), |acc, &c| {
            t4.mul_add(acc, f32::from_bits(c))
        })
    };
    let p = t2.mul_add(horner(&B), horner(&A));
    let mut v = t.mul_add(p, c);
    v = f32::from_bits(v.to_bits() | (x.to_bits() & 0x8000_0000));
    if x <= 0.0 {
        v += PI;
    }
    f32::from_bits(v.to_bits() | (y.to_bits() & 0x8000_0000))
}

/// [`atan2f`] by type, for the kernels' generic code
/// ([`crate::kernel::ops::OpSemantics::atan2_svml`]).
pub(crate) trait SvmlAtan2: Sized {
    /// Whether [`SvmlAtan2::svml_atan2`] is SVML's (float32 only: float64's
    /// `__svml_atan28_ha` is not ported, and this is the C library's `atan2`).
    const PORTED: bool;
    /// `atan2(y, x)`.
    fn svml_atan2(y: Self, x: Self) -> Self;
}

impl SvmlAtan2 for f32 {
    const PORTED: bool = true;
    fn svml_atan2(y: f32, x: f32) -> f32 {
        atan2f(y, x)
    }
}

impl SvmlAtan2 for f64 {
    const PORTED: bool = false;
    fn svml_atan2(y: f64, x: f64) -> f64 {
        y.atan2(x)
    }
}

/// SVML's branch for arguments out of the working range: zeros by their signs, NaNs passed
/// on, the rest by its scalar routine (here the C library's `atan2` in double, rounded).
fn special(y: f32, x: f32) -> f32 {
    // a NaN operand, quieted: `y`'s if it is one
    for v in [y, x] {
        if v.is_nan() {
            return f32::from_bits(v.to_bits() | 0x0040_0000);
        }
    }
    if x != 0.0 && y != 0.0 {
        // the scalar routine works in double: correctly rounded on every case recorded
        return f64::from(y).atan2(f64::from(x)) as f32;
    }
    // at least one zero: 0 (|y| = 0 < |x|, or both zero) or π/2, the sign of x set on it,
    // π added for a negative x, the sign of y set
    let c = if y == 0.0 { 0.0 } else { PIO2 };
    let mut v = f32::from_bits(c.to_bits() | (x.to_bits() & 0x8000_0000));
    if x.is_sign_negative() {
        v += PI;
    }
    f32::from_bits(v.to_bits() | (y.to_bits() & 0x8000_0000))
}

/// The CPU's `vrcp14ss` (AVX-512; elsewhere the exact reciprocal, where NumPy does not call
/// SVML either).
pub(crate) fn rcp14(x: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F (checked above).
        return unsafe { rcp14_avx512(x) };
    }
    1.0 / x
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn rcp14_avx512(x: f32) -> f32 {
    use std::arch::x86_64::{_mm_cvtss_f32, _mm_rcp14_ss, _mm_set_ss};
    let v = _mm_set_ss(x);
    _mm_cvtss_f32(_mm_rcp14_ss(v, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_c_library_and_zeros_by_sign() {
        for i in -300..300 {
            for j in -30..30 {
                let (y, x) = (i as f32 / 7.0, j as f32 / 3.0 + 0.01);
                let (got, want) = (atan2f(y, x), y.atan2(x));
                assert!(
                    (got - want).abs() <= 4.0 * f32::EPSILON * want.abs().max(1e-30),
                    "{y} {x}"
                );
            }
        }
        assert_eq!(atan2f(0.0, 0.0).to_bits(), 0);
        assert_eq!(atan2f(0.0, -0.0), PI);
        assert_eq!(atan2f(-0.0, -0.0), -PI);
        assert_eq!(atan2f(-3.0, 0.0), -PIO2);
        assert_eq!(atan2f(f32::INFINITY, 1.0), PIO2);
    }
}
