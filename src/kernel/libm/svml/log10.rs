//! `log10` of float32 as Intel's SVML computes it (`__svml_log10f16`, the "LA" AVX-512
//! variant), which NumPy 2.4.6 calls for float32 `log10` on AVX-512 CPUs
//! (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src). Its results are up to 2 ulps from
//! a correctly rounded `log10`.
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_log10_s_la.s`; our own
//! code, its four 16-entry tables copied as data):
//!
//! 1. `x = m · 2^k` with `m` in `[0.75, 1.5)` (`vgetmantps`, `vgetexpps`; subnormals
//!    included), `r = m − 1` (exact);
//! 2. the top four fraction bits of `m` pick a cubic `C`, and
//!    `log10(x) ≈ r · C(r) + k · log10(2)`, Horner with fused multiply-adds.
//!
//! Zeros, infinities and negative numbers take SVML's scalar routine: `-inf` for `±0`, `inf`
//! for `inf`, and the default NaN (`-nan`) for the rest; a NaN comes back quieted.
//!
//! ```
//! use promote::kernel::libm::svml::log10::log10f;
//! assert_eq!(log10f(1.0), 0.0);
//! assert_eq!(log10f(0.0), f32::NEG_INFINITY);
//! assert_eq!(log10f(-2.0).to_bits(), 0xffc0_0000);
//! ```

/// `log10(2)` as float32 (offset 320 of `__svml_slog10_data_internal_avx512`).
const LOG10_2: f32 = f32::from_bits(0x3e9a_209b);

/// The cubics' coefficients per table index, highest first (offsets 64, 128, 192, 256).
#[rustfmt::skip]
const C: [[u32; 16]; 4] = [
    [
        0xbdc9ae9b, 0xbda6fcf4, 0xbd8bac76, 0xbd6bca30, 0xbd48a99b, 0xbd2c0a9f, 0xbd1480db, 0xbd00faf2,
        0xbe823aa9, 0xbe656348, 0xbe4afbb9, 0xbe346895, 0xbe20ffff, 0xbe103a0b, 0xbe01a91c, 0xbde9e84e,
    ],
    [
        0x3e13d888, 0x3e10a87c, 0x3e0b95c3, 0x3e057f0b, 0x3dfde038, 0x3df080d9, 0x3de34c1e, 0x3dd68333,
        0x3dac6e8e, 0x3dd54a51, 0x3df30f40, 0x3e04235d, 0x3e0b7033, 0x3e102c90, 0x3e12ebad, 0x3e141ff8,
    ],
    [
        0xbe5e5a9b, 0xbe5e2677, 0xbe5d83f5, 0xbe5c6016, 0xbe5abd0b, 0xbe58a6fd, 0xbe562e02, 0xbe5362f8,
        0xbe68e27c, 0xbe646747, 0xbe619a73, 0xbe5ff05a, 0xbe5f0570, 0xbe5e92d0, 0xbe5e662b, 0xbe5e5c08,
    ],
    [
        0x3ede5bd8, 0x3ede5b45, 0x3ede57d8, 0x3ede4eb1, 0x3ede3d37, 0x3ede2166, 0x3eddf9d9, 0x3eddc5bb,
        0x3ede08ed, 0x3ede32e7, 0x3ede4967, 0x3ede5490, 0x3ede597f, 0x3ede5b50, 0x3ede5bca, 0x3ede5bd9,
    ],
];

/// `log10(x)` in float32, bit for bit as SVML's `__svml_log10f16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::log10::log10f;
/// assert_eq!(log10f(f32::INFINITY), f32::INFINITY);
/// assert!((log10f(2.0) - 2f32.log10()).abs() <= f32::EPSILON);
/// ```
#[inline(always)]
pub fn log10f(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x < 0.0 {
        return -f32::NAN;
    }
    if x == f32::INFINITY {
        return x;
    }
    let (m, k) = mantissa_exponent(x);
    let idx = ((m.to_bits() >> 19) & 15) as usize;
    let r = m - 1.0;
    let c = |row: usize| f32::from_bits(C[row][idx]);
    let p = (1..4).fold(c(0), |acc, row| r.mul_add(acc, c(row)));
    r.mul_add(p, k as f32 * LOG10_2)
}

/// `(m, k)` with `x = m · 2^k`, `m` in `[0.75, 1.5)`, for a positive finite `x`.
#[inline(always)]
pub(crate) fn mantissa_exponent(x: f32) -> (f32, i32) {
    // scale a subnormal up into the normal range first (exact)
    let (x, bias) = if x < f32::MIN_POSITIVE {
        (x * 2f32.powi(32), 32)
    } else {
        (x, 0)
    };
    let e = ((x.to_bits() >> 23) as i32) - 127;
    let m = f32::from_bits((x.to_bits() & 0x007f_ffff) | 0x3f80_0000);
    if m >= 1.5 {
        (m * 0.5, e + 1 - bias)
    } else {
        (m, e - bias)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_c_library_and_edges_behave() {
        for i in 1..20000 {
            let x = i as f32 * 0.37;
            let (got, want) = (log10f(x), x.log10());
            assert!(
                (got - want).abs() <= 2.0 * f32::EPSILON * want.abs().max(1.0),
                "{x}"
            );
        }
        let tiny = f32::from_bits(1);
        assert!((log10f(tiny) - tiny.log10()).abs() < 1e-5);
        assert_eq!(log10f(-0.0), f32::NEG_INFINITY);
        assert!(log10f(f32::NEG_INFINITY).is_nan());
    }
}
