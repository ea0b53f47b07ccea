//! `log2` of float32 as Intel's SVML computes it (`__svml_log2f16`, the "LA" AVX-512
//! variant), which NumPy 2.4.6 calls for float32 `log2` on AVX-512 CPUs
//! (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src). Its results are not always
//! correctly rounded.
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_log2_s_la.s`; our own
//! code, its four 16-entry tables copied as data) is [`svml::log10`]'s with other cubics:
//! `x = m · 2^k`, `m` in `[0.75, 1.5)`, `r = m − 1`, the top four fraction bits of `m` pick
//! a cubic `C`, `log2(x) ≈ r · C(r) + k`. Zeros give `-inf`, `inf` itself, negative numbers
//! the default NaN (`-nan`); a NaN comes back quieted.
//!
//! [`svml::log10`]: crate::kernel::libm::svml::log10
//!
//! ```
//! use promote::kernel::libm::svml::log2::log2f;
//! assert_eq!(log2f(8.0), 3.0);
//! assert_eq!(log2f(-0.0), f32::NEG_INFINITY);
//! assert_eq!(log2f(-2.0).to_bits(), 0xffc0_0000);
//! ```

/// The cubics' coefficients per table index, highest first (offsets 64, 128, 192, 256 of
/// `__svml_slog2_data_internal_avx512`).
#[rustfmt::skip]
const C: [[u32; 16]; 4] = [
    [
        0xbea77e4a, 0xbe8aae3d, 0xbe67fe32, 0xbe43d1b6, 0xbe26a589, 0xbe0ee09b, 0xbdf6a8a1, 0xbdd63b49,
        0xbf584e51, 0xbf3e80a1, 0xbf2892f0, 0xbf15d377, 0xbf05b525, 0xbeef8e30, 0xbed75c8f, 0xbec24184,
    ],
    [
        0x3ef5910c, 0x3ef045a1, 0x3ee7d87e, 0x3eddbb84, 0x3ed2d6df, 0x3ec7bbd2, 0x3ebcc42f, 0x3eb22616,
        0x3e8f3399, 0x3eb1223e, 0x3ec9db4a, 0x3edb7a09, 0x3ee79a1a, 0x3eef77cb, 0x3ef407a4, 0x3ef607b4,
    ],
    [
        0xbf38a934, 0xbf387de6, 0xbf37f6f0, 0xbf37048b, 0xbf35a88a, 0xbf33ed04, 0xbf31df56, 0xbf2f8d82,
        0xbf416814, 0xbf3daf58, 0xbf3b5c08, 0xbf39fa2a, 0xbf393713, 0xbf38d7e1, 0xbf38b2cd, 0xbf38aa62,
    ],
    [
        0x3fb8aa3b, 0x3fb8a9c0, 0x3fb8a6e8, 0x3fb89f4e, 0x3fb890cb, 0x3fb879b1, 0x3fb858d8, 0x3fb82d90,
        0x3fb8655e, 0x3fb8883a, 0x3fb89aea, 0x3fb8a42f, 0x3fb8a848, 0x3fb8a9c9, 0x3fb8aa2f, 0x3fb8aa3b,
    ],
];

/// `log2(x)` in float32, bit for bit as SVML's `__svml_log2f16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::log2::log2f;
/// assert_eq!(log2f(f32::INFINITY), f32::INFINITY);
/// assert!((log2f(3.0) - 3f32.log2()).abs() <= f32::EPSILON);
/// ```
#[inline(always)]
pub fn log2f(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x < 0.0 {
        return f32::from_bits(0xffc0_0000);
    }
    if x == f32::INFINITY {
        return x;
    }
    let (m, k) = crate::kernel::libm::svml::log10::mantissa_exponent(x);
    let idx = ((m.to_bits() >> 19) & 15) as usize;
    let r = m - 1.0;
    let c = |row: usize| f32::from_bits(C[row][idx]);
    let p = (1..4).fold(c(0), |acc, row| r.mul_add(acc, c(row)));
    r.mul_add(p, k as f32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_c_library_and_edges() {
        for i in 1..20000 {
            let x = i as f32 * 0.37;
            let (got, want) = (log2f(x), x.log2());
            assert!(
                (got - want).abs() <= 2.0 * f32::EPSILON * want.abs().max(1.0),
                "{x}"
            );
        }
        let tiny = f32::from_bits(1);
        assert_eq!(log2f(tiny), -149.0);
        assert_eq!(log2f(1.0), 0.0);
        assert!(log2f(f32::NEG_INFINITY).is_nan());
    }
}
