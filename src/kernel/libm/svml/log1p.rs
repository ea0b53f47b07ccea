//! `log1p` of float32 as Intel's SVML computes it (`__svml_log1pf16`, the "LA" AVX-512
//! variant), which NumPy 2.4.6 calls for float32 `log1p` on AVX-512 CPUs
//! (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src). Its results are not always
//! correctly rounded.
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_log1p_s_la.s`; our own
//! code, its constants copied as data):
//!
//! 1. `A = 1 + x` rounded (the larger of `1`, `x` plus the smaller), its rounding error `lo`;
//! 2. `A = m · 2^k` with `m` in `[2/3, 4/3)` by integer arithmetic on the bits,
//!    `R = (m − 1) + lo · 2^−k`;
//! 3. `log1p(x) ≈ k·ln2 + R + R²·P(R)` (`P` of degree 7, Horner with fused multiply-adds),
//!    the sign of `x` or-ed in.
//!
//! Where `A` is not a normal float below `2^127` SVML takes its scalar routine: `-inf` for
//! `x = −1`, the default NaN (`-nan`) below it, `inf` for `inf`; the finite operands from
//! `2^127` up are `log1p` in double, rounded once, here. A NaN comes back quieted.
//!
//! ```
//! use promote::kernel::libm::svml::log1p::log1pf;
//! assert_eq!(log1pf(0.0), 0.0);
//! assert_eq!(log1pf(-1.0), f32::NEG_INFINITY);
//! assert_eq!(log1pf(-2.0).to_bits(), 0xffc0_0000);
//! ```

/// `2/3`'s bits: `A`'s bits minus these split `A` into `m` in `[2/3, 4/3)` and `k` (offset
/// 2688 of `__svml_slog1p_data_internal`).
const TWO_THIRDS: u32 = 0x3f2a_aaab;
/// `ln 2` (offset 2816).
const LN2: f32 = f32::from_bits(0x3f31_7218);
/// `P`'s coefficients, highest first (offsets 2496, 2432, 2368, 2304, 2240, 2176, 2112, 2048).
const P: [u32; 8] = [
    0x3e0d_84ed,
    0xbe1a_d9e3,
    0x3e0f_cb12,
    0xbe28_ad37,
    0x3e4c_e190,
    0xbe80_058e,
    0x3eaa_aa94,
    0xbf00_0000,
];

/// `ln(1 + x)` in float32, bit for bit as SVML's `__svml_log1pf16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::log1p::log1pf;
/// assert_eq!(log1pf(-0.0).to_bits(), (-0.0f32).to_bits());
/// assert!((log1pf(1e-3) - 1e-3f32.ln_1p()).abs() <= 1e-3 * f32::EPSILON);
/// assert_eq!(log1pf(f32::INFINITY), f32::INFINITY);
/// ```
#[inline(always)]
pub fn log1pf(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    let (hi, lo) = if x > 1.0 { (x, 1.0) } else { (1.0, x) };
    let a = hi + lo;
    if (a.to_bits().wrapping_add(0x0100_0000) as i32) < 0x0180_0000 {
        return rare(x);
    }
    let t = a.to_bits().wrapping_sub(TWO_THIRDS) as i32;
    let k = t >> 23;
    let lo = ((hi - a) + lo) * f32::from_bits(0x3f80_0000u32.wrapping_sub((k << 23) as u32));
    let m = f32::from_bits(((t as u32) & 0x007f_ffff) + TWO_THIRDS);
    let r = (m - 1.0) + lo;
    let c = |i: usize| f32::from_bits(P[i]);
    let p = (2..8).fold(c(0).mul_add(r, c(1)), |p, i| r.mul_add(p, c(i)));
    let q = r.mul_add(r * p, r);
    let v = (k as f32).mul_add(LN2, q);
    f32::from_bits(v.to_bits() | (x.to_bits() & 0x8000_0000))
}

/// SVML's scalar routine (`1 + x` not a normal float below `2^127`).
#[cold]
#[inline(never)]
fn rare(x: f32) -> f32 {
    if x == -1.0 {
        f32::NEG_INFINITY
    } else if x < -1.0 {
        f32::from_bits(0xffc0_0000)
    } else {
        f64::from(x).ln_1p() as f32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_c_library_and_edges() {
        for i in -999..20000 {
            let x = i as f32 / 1000.0;
            let (got, want) = (f64::from(log1pf(x)), f64::from(x).ln_1p());
            // SVML's "LA" accuracy: within 4 float32 ulps
            assert!(
                (got - want).abs() <= 4.8e-7 * want.abs(),
                "{x}: {got} vs {want}"
            );
        }
        assert_eq!(log1pf(1e-30), 1e-30);
        assert_eq!(log1pf(f32::NEG_INFINITY).to_bits(), 0xffc0_0000);
        assert!((log1pf(f32::MAX) - 88.72284).abs() < 1e-5);
    }
}
