//! `tan` of float32 as Intel's SVML computes it (`__svml_tanf16`, the "LA" AVX-512 variant),
//! which NumPy 2.4.6 calls for float32 `tan` on AVX-512 CPUs, and for float16 widened to
//! float32 and rounded back (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src). Its
//! results are up to 2 ulps from a correctly rounded `tan`.
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_tan_s_la.s`; our own
//! code, its constants and 32-entry table copied as data):
//!
//! 1. `N = rint(x · 32/π)` (a fused multiply-add with `1.5 · 2^23`), `R = x − N·π/32` in
//!    three fused steps (`π/32` split in three parts);
//! 2. `tan(R) ≈ P = R + R²·(R·(c1 + c2·R²))`, `T = tan(j·π/32)` for `j = N mod 32`
//!    (`−FLT_MAX` for `j = 16`);
//! 3. `tan(x) = (T + P) / (1 − T·P)`: the quotient by the CPU's 14-bit reciprocal estimate
//!    (`vrcp14ps`) and one Newton step that also folds in the low parts of the numerator and
//!    the denominator.
//!
//! Above `|x| = 8256` SVML reduces by a long multiplication (`large`): the significand
//! times a 96-bit window of the bits of `2/π` (`__svml_stan_reduction_data_internal`, whose
//! entry for the biased exponent `e` is `⌊2/π · 2^(e−56)⌋ mod 2^96`: here cut from
//! `TWO_OVER_PI`) in 16-bit pieces, the fraction of `x/(2π)` rounded to `2^-8` and the rest
//! assembled in float32 pieces and multiplied by `2π`; then the same table and quotient.
//! Infinities give the CPU's default NaN, `-NaN`; a NaN comes back quieted.
//!
//! ```
//! use promote::kernel::libm::svml::tan::tanf;
//! assert_eq!(tanf(0.0), 0.0);
//! assert_eq!(tanf(-0.0).to_bits(), (-0.0f32).to_bits());
//! assert!((tanf(1.0) - 1.0f32.tan()).abs() <= 2.0 * f32::EPSILON);
//! ```

/// `32/π` (offset 0 of `__svml_stan_data_internal`).
const INV_PIO32: f32 = f32::from_bits(0x4122_f983);
/// `π/32` in three parts (offsets 64, 128, 192).
const PIO32: [u32; 3] = [0x3dc9_0fda, 0x31a2_2168, 0x25c2_34c5];
/// `1.5 · 2^23`: adding it rounds to an integer (offset 1088).
const SHIFTER: f32 = f32::from_bits(0x4b40_0000);
/// The polynomial's coefficients (offsets 640, 704).
const C1: f32 = f32::from_bits(0x3eaa_aaa6);
const C2: f32 = f32::from_bits(0x3e08_b888);
/// `|x|` above which SVML takes its large-argument reduction (offset 768).
pub const LARGE: f32 = 8256.0;

/// `tan(j·π/32)`, `j = 0..32`, as float32 bits (offsets 384, 448; `−0` for `j = 0`).
const TH: [u32; 32] = [
    0x80000000, 0x3dc9b5dc, 0x3e4bafaf, 0x3e9b5042, 0x3ed413cd, 0x3f08d5b9, 0x3f2b0dc1, 0x3f521801,
    0x3f800000, 0x3f9bf7ec, 0x3fbf90c7, 0x3fef789e, 0x401a827a, 0x4052facf, 0x40a0dff7, 0x41227363,
    0xff7fffff, 0xc1227363, 0xc0a0dff7, 0xc052facf, 0xc01a827a, 0xbfef789e, 0xbfbf90c7, 0xbf9bf7ec,
    0xbf800000, 0xbf521801, 0xbf2b0dc1, 0xbf08d5b9, 0xbed413cd, 0xbe9b5042, 0xbe4bafaf, 0xbdc9b5dc,
];

/// `tan(x)` in float32, bit for bit as SVML's `__svml_tanf16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::tan::tanf;
/// assert!(tanf(f32::INFINITY).is_nan());
/// assert!((tanf(1e6) - 1e6f64.tan() as f32).abs() <= 2.0 * f32::EPSILON);
/// ```
#[inline(always)]
pub fn tanf(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    if x.is_infinite() {
        return f32::from_bits(0xffc0_0000);
    }
    if x.abs() > LARGE {
        let (j, r) = large(x);
        return quotient(f32::from_bits(TH[j]), r);
    }
    let s = x.mul_add(INV_PIO32, SHIFTER);
    let n = -(s - SHIFTER);
    let r = n.mul_add(f32::from_bits(PIO32[0]), x);
    let r = n.mul_add(f32::from_bits(PIO32[1]), r);
    let r = n.mul_add(f32::from_bits(PIO32[2]), r);
    quotient(f32::from_bits(TH[(s.to_bits() & 31) as usize]), r)
}

/// The first 224 bits of `2/π` (`0.a2f9836e…` in hex).
const TWO_OVER_PI: [u32; 7] = [
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab,
];

/// `⌊2/π · 2^n⌋ mod 2^96` as three words, high first (`n ≤ 199`).
#[inline(always)]
fn window(n: i32) -> [u32; 3] {
    let mut v: u128 = 0;
    for k in (n - 95).max(1)..=n {
        // bit `k` after the binary point
        let (w, b) = (((k - 1) / 32) as usize, (k - 1) % 32);
        v = (v << 1) | u128::from((TWO_OVER_PI[w] >> (31 - b)) & 1);
    }
    [(v >> 64) as u32, (v >> 32) as u32, v as u32]
}

/// SVML's reduction of `|x| > 8256`: the table index and the reduced argument `R`, from
/// `m · P` (`m` the 24-bit significand, `P` the 96-bit window of `2/π` for `x`'s exponent)
/// computed in 16-bit pieces as SVML's integer multiplies do, kept as the 32-bit words `H`, `L`.
#[cold]
#[inline(never)]
fn large(x: f32) -> (usize, f32) {
    let xb = x.to_bits();
    let sign = xb & 0x8000_0000;
    let [w0, w1, w2] = window(((xb >> 23) & 0xff) as i32 - 56);
    let a = [
        w2 & 0xffff,
        w2 >> 16,
        w1 & 0xffff,
        w1 >> 16,
        w0 & 0xffff,
        w0 >> 16,
    ];
    let m = (xb & 0x007f_ffff) | 0x0080_0000;
    let (mh, ml) = (m >> 16, m & 0xffff);
    let h = |i: usize| a[i] * mh;
    let lo = |i: usize| a[i] * ml;
    let d0 = h(1) + (lo(1) >> 16) + (lo(2) & 0xffff) + (h(0) >> 16);
    let d1 = h(2) + (lo(2) >> 16) + (lo(3) & 0xffff) + (d0 >> 16);
    let d2 = h(3) + (lo(3) >> 16) + (lo(4) & 0xffff) + (d1 >> 16);
    let d3 = h(4) + (lo(4) >> 16) + (lo(5) & 0xffff) + (d2 >> 16);
    let hw = (d3 << 16).wrapping_add(d2 & 0xffff);
    let lw = (d1 << 16).wrapping_add(d0 & 0xffff);
    // ±1.f (the fraction's first 23 bits), rounded to 2^-8 by a shifter; the next 23 and 18
    // bits as float32s scaled by 2^-23 and 2^-46 (each with the implicit bit subtracted)
    let shifter = f32::from_bits(0x4740_0000);
    let one = f32::from_bits((sign ^ 0x3f80_0000) | (hw >> 9));
    let sh = shifter + one;
    let hi = one - (sh - shifter);
    let e23 = f32::from_bits(sign ^ 0x3400_0000);
    let mid = f32::from_bits(e23.to_bits() | ((hw & 0x1ff) << 14) | (lw >> 18)) - e23;
    let e46 = f32::from_bits(sign ^ 0x2880_0000);
    let low = f32::from_bits(e46.to_bits() | ((lw & 0x3ffff) << 5)) - e46;
    let s = hi + mid;
    let rest = (mid + (hi - s)) + low;
    // times 2π (high and low parts), then the multiple of π/128 the table does not cover
    let (pi2_hi, pi2_lo) = (f32::from_bits(0x40c9_0fdb), f32::from_bits(0xb43b_bd2e));
    let ph = s * pi2_hi;
    let pl = pi2_hi.mul_add(rest, pi2_lo.mul_add(s, s.mul_add(pi2_hi, -ph)));
    let n = sh.to_bits() & 0xff;
    let j = (n + 2 - (ph.to_bits() >> 31)) >> 2;
    let k = n.wrapping_sub(j << 2) as i32 as f32;
    let t = k.mul_add(f32::from_bits(0xb03b_bd2e), pl) + ph;
    ((j & 31) as usize, f32::from_bits(0x3cc9_0fdb).mul_add(k, t))
}

/// `(t + P(r)) / (1 − t·P(r))` as SVML's main path computes it (see the module notes).
#[inline(always)]
fn quotient(t: f32, r: f32) -> f32 {
    let r2 = r * r;
    let p = r * r2.mul_add(C2, C1);
    let p = r2.mul_add(p, r);
    let tp = t * p;
    let num = p + t;
    let den = 1.0 - tp;
    // the numerator's and the denominator's rounding errors
    let num_lo = p - (num - t);
    let den_lo = (den - 1.0) + tp;
    let rcp = crate::kernel::libm::svml::atan2::rcp14(den);
    let q = num * rcp;
    let err = (-q).mul_add(den_lo, q.mul_add(den, -num));
    (-rcp).mul_add(err - num_lo, q)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_c_library_and_edges() {
        for i in -20000..20000 {
            let x = i as f32 / 97.0;
            let (got, want) = (f64::from(tanf(x)), f64::from(x).tan());
            // SVML's "LA" accuracy: within 4 float32 ulps
            assert!(
                (got - want).abs() <= 4.8e-7 * want.abs(),
                "{x}: {got} vs {want}"
            );
        }
        for (j, &t) in TH.iter().enumerate().filter(|&(j, _)| j != 16) {
            let want = (j as f64 * std::f64::consts::PI / 32.0).tan();
            assert!((f64::from(f32::from_bits(t)) - want).abs() <= 6e-8 * want.abs());
        }
        assert_eq!(tanf(f32::NEG_INFINITY).to_bits(), 0xffc0_0000);
        assert_eq!(tanf(1e-30), 1e-30);
        // the reduction table's entries (offsets 1536, 1548 of SVML's)
        assert_eq!(window(72), [0xa2, 0xf983_6e4e, 0x4415_29fc]);
        assert_eq!(window(73), [0x145, 0xf306_dc9c, 0x882a_53f8]);
        assert_eq!(window(-1), [0, 0, 0]);
        // NumPy 2.4.6's values on AVX-512 (tests/fixtures/eval-dense/numpy.txt.gz)
        assert_eq!(tanf(1e10).to_bits(), 0xbf0e_f001);
        assert_eq!(tanf(f32::from_bits(0xfe99_296e)).to_bits(), 0xbed0_ef5a);
    }
}
