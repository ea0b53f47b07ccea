//! `arctan` of float32 as Intel's SVML computes it (`__svml_atanf16`, the "LA" AVX-512
//! variant), which NumPy 2.4.6 calls for float32 `arctan` on AVX-512 CPUs, and for float16
//! widened to float32 and rounded back (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src).
//! Its results are not always correctly rounded.
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_atan_s_la.s`; our own
//! code, its constants and 32-entry table copied as data):
//!
//! 1. below `|x| = 7.75`, `b = |x|` rounded to a multiple of `1/4` (ties to even,
//!    `vreduceps`), `atan(|x|) = atan(b) + atan(R)` with `R = (|x| − b) / (1 + b·|x|)`; from
//!    `7.75` up, `atan(|x|) = π/2 + atan(R)` with `R = −1 / min(|x|, 2^32)`;
//! 2. the quotient from the operands' significands (`vgetmantps`, `vgetexpps`): the CPU's
//!    14-bit reciprocal estimate (`vrcp14ps`) and one fused correction, scaled back
//!    (`vscalefps`);
//! 3. `atan(R) ≈ R + R³·(c0 + c1·R² + c2·R⁴)`, the table value added, the sign of `x` set.
//!
//! A NaN comes back quieted.
//!
//! ```
//! use promote::kernel::libm::svml::atan::atanf;
//! assert_eq!(atanf(0.0), 0.0);
//! assert_eq!(atanf(f32::NEG_INFINITY), -std::f32::consts::FRAC_PI_2);
//! assert!((atanf(0.3) - 0.3f32.atan()).abs() <= f32::EPSILON);
//! ```

/// `π/2` as float32 (offset 704 of `__svml_satan_data_internal_avx512`).
const PIO2: f32 = f32::from_bits(0x3fc9_0fdb);
/// `|x|` from which `atan(|x|) = π/2 + atan(−1/|x|)` (offset 128).
const SATURATE: f32 = 7.75;
/// The polynomial's coefficients, `R⁴` first (offsets 832, 896, 960).
const C: [u32; 3] = [0xbe0f_a8de, 0x3e4c_c8e2, 0xbeaa_aaaa];

/// `atan(j/4)`, `j = 0..32`, as float32 bits (offsets 448, 512).
const TH: [u32; 32] = [
    0x00000000, 0x3e7adbb0, 0x3eed6338, 0x3f24bc7d, 0x3f490fdb, 0x3f6563e3, 0x3f7b985f, 0x3f869c79,
    0x3f8db70d, 0x3f93877b, 0x3f985b6c, 0x3f9c6b53, 0x3f9fe0bb, 0x3fa2daa4, 0x3fa57088, 0x3fa7b46f,
    0x3fa9b465, 0x3fab7b7a, 0x3fad1283, 0x3fae809e, 0x3fafcb99, 0x3fb0f836, 0x3fb20a6a, 0x3fb30581,
    0x3fb3ec43, 0x3fb4c10a, 0x3fb585d7, 0x3fb63c64, 0x3fb6e62c, 0x3fb78478, 0x3fb81868, 0x3fb8a2f5,
];

/// `atan(x)` in float32, bit for bit as SVML's `__svml_atanf16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::atan::atanf;
/// assert_eq!(atanf(-0.0).to_bits(), (-0.0f32).to_bits());
/// assert_eq!(atanf(1.0), std::f32::consts::FRAC_PI_4);
/// assert!(atanf(f32::NAN).is_nan());
/// ```
#[inline(always)]
pub fn atanf(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    let a = x.abs();
    let (t, diff, y) = if a >= SATURATE {
        (PIO2, -1.0, a.min(f32::from_bits(0x4f80_0000))) // 2^32
    } else {
        let q = (a * 4.0).round_ties_even();
        let b = q / 4.0;
        (
            f32::from_bits(TH[q as usize & 31]),
            a - b,
            b.mul_add(a, 1.0),
        )
    };
    let r = quotient(diff, y);
    let c = |i: usize| f32::from_bits(C[i]);
    let r2 = r * r;
    let p = c(0).mul_add(r2, c(1)).mul_add(r2, c(2));
    let v = (r2 * r).mul_add(p, r) + t;
    f32::from_bits(v.to_bits() ^ (x.to_bits() & 0x8000_0000))
}

/// `d / y` (`y ≥ 1`) as SVML divides: significands in `[1, 2)`, `q = md·rcp14(my)` corrected
/// once, scaled by `2^(ed − ey)` and rounded once; `0` for `d = 0` (`vgetexpps(0) = −inf`).
#[inline(always)]
fn quotient(d: f32, y: f32) -> f32 {
    if d == 0.0 {
        return 0.0;
    }
    let (md, ed) = mant_exp(d);
    let (my, ey) = mant_exp(y);
    let rcp = crate::kernel::libm::svml::atan2::rcp14(my);
    let q0 = md * rcp;
    let q = rcp.mul_add((-q0).mul_add(my, md), q0);
    (f64::from(q) * crate::kernel::libm::pow2(ed - ey)) as f32
}

/// The significand in `[1, 2)` with `v`'s sign, and the exponent (`vgetmantps`, `vgetexpps`;
/// subnormals normalized). `v` is finite and nonzero.
#[inline(always)]
fn mant_exp(v: f32) -> (f32, i32) {
    let (v, bias) = if v.abs() < f32::MIN_POSITIVE {
        (v * f32::from_bits(0x5f80_0000), 64) // 2^64, exact
    } else {
        (v, 0)
    };
    let b = v.to_bits();
    let m = f32::from_bits((b & 0x807f_ffff) | 0x3f80_0000);
    (m, ((b >> 23) & 0xff) as i32 - 127 - bias)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_to_the_c_library_and_edges() {
        for i in -20000..20000 {
            let x = i as f32 / 997.0;
            let (got, want) = (f64::from(atanf(x)), f64::from(x).atan());
            // SVML's "LA" accuracy: within 4 float32 ulps
            assert!(
                (got - want).abs() <= 4.8e-7 * want.abs(),
                "{x}: {got} vs {want}"
            );
        }
        for (j, &t) in TH.iter().enumerate() {
            let want = (j as f64 / 4.0).atan();
            assert!((f64::from(f32::from_bits(t)) - want).abs() <= 6e-8 * want);
        }
        assert_eq!(atanf(1e-40), 1e-40);
        assert_eq!(atanf(f32::INFINITY), PIO2);
        assert_eq!(atanf(1e30), PIO2);
        assert_eq!(mant_exp(f32::from_bits(1)), (1.0, -149));
        assert_eq!(mant_exp(-3.0), (-1.5, 1));
    }
}
