//! `expm1` of float32 as Intel's SVML computes it (`__svml_expm1f16`, the "LA" AVX-512
//! variant), which NumPy 2.4.6 calls for float32 `expm1` on AVX-512 CPUs, and for float16
//! widened to float32 and rounded back (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src).
//! Its results are not always correctly rounded (`expm1(-17)` is `-1`, a correctly rounded
//! one `-0.99999994`).
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_expm1_s_la.s`; our own
//! code, its 32-entry low-part table copied as data, the high parts those of [`svml::exp`]):
//!
//! 1. `N = x · log2(e)` rounded to 5 fractional bits (a fused multiply-add with `1.5 · 2^18`);
//!    its low 5 bits index `Th = 2^(j/32)` and its low part `Tl`;
//! 2. `R = x − N·ln2` in two fused steps, `Ts = Th · 2^⌊N⌋` (`vscalefps`);
//! 3. `expm1(x) = (Ts − 1) + Ts · (Tl + R + R² · (c2 + c3·R))`, one fused multiply-add, the
//!    sign of `x` or-ed in.
//!
//! Operands from [`CALLOUT`] up (and `+inf`) take SVML's scalar routine: `+inf` above
//! `88.72`, else `e^x` by a degree-5 polynomial in unfused float32 steps. `-inf` gives `-1`,
//! a NaN comes back quieted.
//!
//! [`svml::exp`]: crate::kernel::libm::svml::exp
//!
//! ```
//! use promote::kernel::libm::svml::expm1::expm1f;
//! assert_eq!(expm1f(0.0), 0.0);
//! assert!((expm1f(-17.0) + 1.0).abs() <= f32::EPSILON); // -1 or the next float above
//! ```

use crate::kernel::libm::svml::exp::{LN2_HI, LN2_LO, LOG2E, TH};

/// `x` from which SVML leaves its vector path for the scalar one (`0x42ad496b`, 86.64).
pub const CALLOUT: f32 = f32::from_bits(0x42ad_496b);
/// `1.5 · 2^18`: adding it keeps 5 fractional bits.
const SHIFTER: f32 = f32::from_bits(0x48c0_0000);
/// The polynomial's `R³` and `R²` coefficients (offsets 704, 768).
const C3: f32 = f32::from_bits(0x3e2a_abf3);
const C2: f32 = f32::from_bits(0x3f00_00f6);

/// `2^(j/32) − Th[j]`, the low parts of the table (offsets 128..256).
const TL: [u32; 32] = [
    0x00000000, 0xb34a3a0a, 0x3346cb6a, 0xb36ed17e, 0xb24e0611, 0xb3517dd9, 0x334b2482, 0xb31586de,
    0x33092801, 0xb2e6f467, 0x331b85f2, 0x3099b6f1, 0xb3051aa8, 0xb2e2a0da, 0xb2006c56, 0xb3365942,
    0x329302ae, 0x32c595dc, 0xb302e5a2, 0xb28e10a1, 0x31b3d0e5, 0xb31a472b, 0x31d1daf2, 0xb305bf64,
    0xb27ce182, 0xb2f26443, 0xb1b4b0da, 0xb1da8a8f, 0xb1d290be, 0xb2d5b899, 0x31b0a147, 0xb2156afc,
];

/// `e^x − 1` in float32, bit for bit as SVML's `__svml_expm1f16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::expm1::expm1f;
/// assert_eq!(expm1f(f32::NEG_INFINITY), -1.0);
/// assert_eq!(expm1f(89.0), f32::INFINITY);
/// assert_eq!(expm1f(-0.0).to_bits(), (-0.0f32).to_bits());
/// assert!((expm1f(1e-3) / 1.0005002e-3 - 1.0).abs() < 3e-7);
/// ```
#[inline(always)]
pub fn expm1f(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    if x >= CALLOUT {
        return rare(x);
    }
    let s = x.mul_add(LOG2E, SHIFTER);
    let n = s - SHIFTER;
    let j = (s.to_bits() & 31) as usize;
    let r = (-n).mul_add(LN2_HI, x);
    let r = (-n).mul_add(LN2_LO, r);
    // `|R| < 2` even where `x` is `-inf` (R is NaN there): bit 30 cleared
    let r = f32::from_bits(r.to_bits() & 0xbfff_ffff);
    let ts = scalef(f32::from_bits(TH[j]), n);
    let ts1 = ts - 1.0;
    let p = r.mul_add(C3, C2);
    let p = (r * r).mul_add(p, f32::from_bits(TL[j]));
    let y = (p + r).mul_add(ts, ts1);
    f32::from_bits(y.to_bits() | (x.to_bits() & 0x8000_0000))
}

/// `t · 2^⌊n⌋` rounded once (`vscalefps`; `t` in `[1, 2)`, `n ≤ 125`).
#[inline(always)]
fn scalef(t: f32, n: f32) -> f32 {
    let k = n.floor();
    if k < -160.0 {
        return 0.0; // below half the smallest subnormal, `-inf` included
    }
    (f64::from(t) * f64::from_bits(((k as i64 + 1023) as u64) << 52)) as f32
}

/// SVML's scalar routine (`__svml_sexpm1_cout_rare_internal`) for `x ≥ CALLOUT`: `+inf`
/// above `88.72` (`0x42b17217`), else `e^x` (the `− 1` is below its precision) by
/// `N = rint(x·log2 e)`, `r = x − N·ln2` in two parts and a degree-5 polynomial, each product
/// and sum rounded, `N` added to the exponent bits.
#[cold]
#[inline(never)]
fn rare(x: f32) -> f32 {
    if x > f32::from_bits(0x42b1_7217) {
        return f32::INFINITY;
    }
    let t = x * LOG2E + 12_582_912.0;
    let n = t - 12_582_912.0;
    let r = x - n * f32::from_bits(0x3f31_7200);
    let r = r - n * f32::from_bits(0x35bf_be8e);
    let one = f32::from_bits(0x3f80_0001);
    let mut p = f32::from_bits(0x3c09_50ef);
    for c in [0x3d2b_b1b6, 0x3e2a_a9c6, 0x3eff_fe85] {
        p = p * r + f32::from_bits(c);
    }
    let p = (p * r + one) * r + one;
    f32::from_bits(p.to_bits().wrapping_add(t.to_bits() << 23))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_edges_and_accuracy() {
        for (j, &tl) in TL.iter().enumerate() {
            let th = f64::from(f32::from_bits(TH[j]));
            let exact = 2f64.powf(j as f64 / 32.0);
            assert!((th + f64::from(f32::from_bits(tl)) - exact).abs() < 2.5e-7);
        }
        assert_eq!(expm1f(0.0).to_bits(), 0);
        assert_eq!(expm1f(-0.0).to_bits(), 0x8000_0000);
        assert_eq!(expm1f(f32::INFINITY), f32::INFINITY);
        assert_eq!(expm1f(f32::NEG_INFINITY), -1.0);
        assert_eq!(expm1f(-1e30), -1.0);
        assert!(expm1f(f32::NAN).is_nan());
        assert_eq!(expm1f(88.8), f32::INFINITY);
        assert!(expm1f(88.7).is_finite());
        for i in -4000..3200 {
            let x = i as f32 / 37.0;
            let (got, want) = (f64::from(expm1f(x)), f64::from(x).exp_m1());
            // SVML's "LA" accuracy: within 4 float32 ulps
            assert!(
                (got - want).abs() <= 4.8e-7 * want.abs(),
                "{x}: {got} vs {want}"
            );
        }
    }
}
