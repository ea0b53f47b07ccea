//! `arcsin` of float32 as Intel's SVML computes it (`__svml_asinf16`, the "LA" AVX-512
//! variant), which NumPy 2.4.6 calls for float32 `arcsin` on AVX-512 CPUs, and for float16
//! widened to float32 and rounded back (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src).
//! Its results are up to 2 ulps from a correctly rounded `asin`.
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_asin_s_la.s`; our own
//! code, its constants copied as data):
//!
//! 1. below `|x| = 0.5`, `asin(|x|) = |x| + |x| · z · P(z)` with `z = x²`;
//! 2. from `0.5` up, `asin(|x|) = π/2 − 2·asin(√Y)`, `Y = 0.5 − 0.5·|x|`, `z = Y`: the root
//!    `−2√Y` from the CPU's 14-bit reciprocal square root estimate (`vrsqrt14ps`) and one
//!    correction step, then the same polynomial;
//! 3. the sign of `x` set on the result.
//!
//! `|x| > 1` (infinities too) gives the CPU's default NaN, `-NaN` (SVML's scalar routine
//! divides `0/0`); a NaN comes back quieted.
//!
//! ```
//! use promote::kernel::libm::svml::asin::asinf;
//! assert_eq!(asinf(1.0), std::f32::consts::FRAC_PI_2);
//! assert_eq!(asinf(-0.0).to_bits(), (-0.0f32).to_bits());
//! assert!(asinf(2.0).is_nan() && asinf(2.0).is_sign_negative());
//! ```

/// `π/2` as float32 (offset 960 of `__svml_sasin_data_internal`).
const PIO2: f32 = f32::from_bits(0x3fc9_0fdb);
/// The root's correction coefficients (offsets 512, 576).
const S1: f32 = f32::from_bits(0xbdc0_0004);
const S0: f32 = f32::from_bits(0x3e80_0001);
/// The polynomial, as SVML evaluates it: `P(z) = ((C0·z + C1)·z² + (C2·z + C3))·z + C4`
/// (offsets 640, 704, 768, 832, 896).
const C: [u32; 5] = [
    0x3d2e_dc07,
    0x3cc3_2a6b,
    0x3d3a_9ab4,
    0x3d99_7c12,
    0x3e2a_aaff,
];

/// `asin(x)` in float32, bit for bit as SVML's `__svml_asinf16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::asin::asinf;
/// assert_eq!(asinf(0.0), 0.0);
/// assert!((asinf(0.5) - std::f32::consts::FRAC_PI_6).abs() <= 2.0 * f32::EPSILON);
/// assert!(asinf(f32::NAN).is_nan());
/// ```
#[inline(always)]
pub fn asinf(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    let a = x.abs();
    if a > 1.0 {
        return f32::from_bits(0xffc0_0000);
    }
    let c = |i: usize| f32::from_bits(C[i]);
    let y = (-0.5f32).mul_add(a, 0.5);
    let x2 = a * a;
    let large = a >= 0.5;
    let z = if x2 < y { x2 } else { y };
    let s = if large { minus_two_root(y) } else { a };
    let p = (z * z).mul_add(c(0).mul_add(z, c(1)), c(2).mul_add(z, c(3)));
    let zp = z * z.mul_add(p, c(4));
    let mut r = s.mul_add(zp, s);
    if large {
        r += PIO2;
    }
    f32::from_bits(r.to_bits() ^ (x.to_bits() & 0x8000_0000))
}

/// `≈ −2√y` as SVML computes it: `s = 2y · rsqrt14(y)` (`0` for `y < 2^-32`), corrected by
/// `e = rsqrt14(y)² · 2y − 2`: `s·e·(S1·e + S0) − s`.
#[inline(always)]
fn minus_two_root(y: f32) -> f32 {
    let rs = if y < f32::from_bits(0x2f80_0000) {
        0.0
    } else {
        rsqrt14(y)
    };
    let y2 = y + y;
    let s = y2 * rs;
    let e = (rs * rs).mul_add(y2, -2.0);
    (s * e).mul_add(S1.mul_add(e, S0), -s)
}

/// The CPU's `vrsqrt14ss` (AVX-512; elsewhere `1/√y`, where NumPy does not call SVML
/// either).
fn rsqrt14(y: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f") {
        // SAFETY: the CPU has AVX-512F (checked above).
        return unsafe { rsqrt14_avx512(y) };
    }
    1.0 / y.sqrt()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn rsqrt14_avx512(y: f32) -> f32 {
    use std::arch::x86_64::{_mm_cvtss_f32, _mm_rsqrt14_ss, _mm_set_ss};
    let v = _mm_set_ss(y);
    _mm_cvtss_f32(_mm_rsqrt14_ss(v, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_c_library_and_edges() {
        for i in -1000..=1000 {
            let x = i as f32 / 1000.0;
            let (got, want) = (f64::from(asinf(x)), f64::from(x).asin());
            // SVML's "LA" accuracy: within 4 float32 ulps
            assert!(
                (got - want).abs() <= 4.8e-7 * want.abs(),
                "{x}: {got} vs {want}"
            );
        }
        assert_eq!(asinf(-1.0), -PIO2);
        assert_eq!(asinf(1e-30), 1e-30);
        assert_eq!(asinf(f32::INFINITY).to_bits(), 0xffc0_0000);
        assert_eq!(asinf(-1.5).to_bits(), 0xffc0_0000);
    }
}
