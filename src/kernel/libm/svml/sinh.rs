//! `sinh` of float32 as Intel's SVML computes it (`__svml_sinhf16`, the "LA" AVX-512
//! variant), which NumPy 2.4.6 calls for float32 `sinh` on AVX-512 CPUs
//! (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src). Its results are not always
//! correctly rounded.
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_sinh_s_la.s`; our own
//! code, its constants copied as data):
//!
//! 1. `N = rint(|x| / ln 2)` (a fused multiply-add with `1.5 · 2^23`), `R = |x| − N·ln2` in
//!    two fused steps;
//! 2. `G1 = 2^(N−1) + 2^(−N−1)`, `G2 = 2^(N−1) − 2^(−N−1)` from the exponent bits;
//! 3. `sinh(|x|) = G1·sinh(R) + G2·R²·Q(R²) + G2` with `sinh(R) ≈ R + R·R²·(a3 + a5·R²)`
//!    (`cosh(R) − 1 ≈ R²·Q(R²)`), the sign of `x` or-ed in.
//!
//! Operands above `|x| = 87.34` (`0x42aeac4e`) take SVML's scalar routine, a double-precision
//! `sinh`: this port takes `sinh` in double of the float32 operand, rounded once (`±inf` from
//! `89.42` up). A NaN comes back quieted.
//!
//! ```
//! use promote::kernel::libm::svml::sinh::sinhf;
//! assert_eq!(sinhf(0.0), 0.0);
//! assert_eq!(sinhf(-0.0).to_bits(), (-0.0f32).to_bits());
//! assert_eq!(sinhf(100.0), f32::INFINITY);
//! ```

/// `1/ln 2`, and `ln 2` in a high and a low part (offsets 960, 1024, 1088 of
/// `__svml_ssinh_data_internal`).
const INV_LN2: f32 = f32::from_bits(0x3fb8_aa3b);
const LN2_HI: f32 = f32::from_bits(0x3f31_7000);
const LN2_LO: f32 = f32::from_bits(0x3805_fdf4);
/// `1.5 · 2^23` (offset 1280).
const SHIFTER: f32 = f32::from_bits(0x4b40_0000);
/// The bits of `|x|` above which SVML takes its scalar routine (offset 1408).
const CALLOUT_BITS: u32 = 0x42ae_ac4e;
/// `sinh(R)`'s coefficients `a3`, `a5` (offsets 1600, 1728), `cosh(R) − 1`'s `Q`
/// coefficients `½`, `a4`, `a6` (offsets 1536, 1664, 1792).
const A3: f32 = f32::from_bits(0x3e2a_aa57);
const A5: f32 = f32::from_bits(0x3c09_1461);
const Q: [u32; 3] = [0x3f00_0000, 0x3d2a_aa72, 0x3ab6_a8a3];

/// `sinh(x)` in float32, bit for bit as SVML's `__svml_sinhf16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::sinh::sinhf;
/// assert!((sinhf(1.0) - 1.0f32.sinh()).abs() <= 2.0 * f32::EPSILON);
/// assert_eq!(sinhf(f32::NEG_INFINITY), f32::NEG_INFINITY);
/// ```
#[inline(always)]
pub fn sinhf(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    let a = x.abs();
    let sign = x.to_bits() & 0x8000_0000;
    if a.to_bits() > CALLOUT_BITS {
        return f32::from_bits((f64::from(a).sinh() as f32).to_bits() | sign);
    }
    let m = a.mul_add(INV_LN2, SHIFTER);
    let e = m.to_bits() << 23;
    let n = m - SHIFTER;
    let g = f32::from_bits(0x3f00_0000u32.wrapping_add(e));
    let gi = f32::from_bits(0x3f00_0000u32.wrapping_sub(e));
    let (g1, g2) = (g + gi, g - gi);
    let r = (-n).mul_add(LN2_HI, a);
    let r = (-n).mul_add(LN2_LO, r);
    let r2 = r * r;
    let sinh_r = r.mul_add(r2 * A5.mul_add(r2, A3), r);
    let q = |i: usize| f32::from_bits(Q[i]);
    let cosh_r = g2 * (r2 * r2.mul_add(q(2).mul_add(r2, q(1)), q(0)));
    let v = sinh_r.mul_add(g1, cosh_r) + g2;
    f32::from_bits(v.to_bits() | sign)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_c_library_and_edges() {
        for i in -9000..9000 {
            let x = i as f32 / 101.0;
            let (got, want) = (f64::from(sinhf(x)), f64::from(x).sinh());
            // SVML's "LA" accuracy: within 4 float32 ulps
            assert!(
                (got - want).abs() <= 4.8e-7 * want.abs(),
                "{x}: {got} vs {want}"
            );
        }
        assert_eq!(sinhf(1e-30), 1e-30);
        assert_eq!(sinhf(-89.5), f32::NEG_INFINITY);
        assert!(sinhf(89.4).is_finite());
        assert!(sinhf(f32::NAN).is_nan());
    }
}
