//! `exp` of float32 as Intel's SVML computes it (`__svml_expf16`, the "LA" AVX-512 variant),
//! which NumPy calls for float16 `exp` on AVX-512 CPUs without AVX512_FP16: each float16 is
//! widened to float32, sent through SVML, and the float32 result rounded once to float16
//! (numpy/_core/src/umath/loops_umath_fp.dispatch.c.src). Its float32 results are not always
//! correctly rounded, and where one lands on the other side of a float16 rounding boundary the
//! float16 result differs by an ulp from a correctly rounded `exp` (`exp(0x1f79)`).
//!
//! The algorithm (source: github.com/numpy/SVML, `linux/avx512/svml_z0_exp_s_la.s`; our own
//! code, its two 32-entry tables copied as data):
//!
//! 1. `N = x · log2(e)` to 10 fractional bits, rounded toward zero (a fused multiply-add with
//!    `1.5 · 2^13` in round-toward-zero mode); its low 5 fractional bits index `TL`
//!    (`≈ 2^(j/1024)`), the next 5 index `TH` (`2^(j/32)`);
//! 2. `T = TH[..] · TL[..]` (just `TH[0] = 1` for `x = ±0`), `r = x − N·ln2` in two fused steps
//!    (`ln 2` split in a high and a low part);
//! 3. `exp(x) = 2^⌊N⌋ · (T + T·r)`, one fused multiply-add; `TL` is biased to absorb the
//!    missing `r²/2`.
//!
//! Lanes with `|x| ≥` [`CALLOUT`] (and infinities) take SVML's scalar "rare" path, which gives
//! `+inf` above float32's range, `0` below it and for `-inf`; in between (`87.34 ≤ |x| < 104`)
//! this port uses the C library's `expf` (results at float32's extremes, which round to `inf`
//! or `0` as float16 either way). A NaN comes back quieted.
//!
//! ```
//! use promote::kernel::libm::svml::exp::expf;
//! assert_eq!(expf(0.0), 1.0);
//! let x = half::f16::from_bits(0x1f79).to_f32();
//! assert_eq!(half::f16::from_f32(expf(x)).to_bits(), 0x3c07); // NumPy 2.4.6's float16 exp
//! ```

/// `|x|` from which SVML leaves its vector path for the scalar one (`0x42aeac4f`, 87.34).
pub const CALLOUT: f32 = f32::from_bits(0x42ae_ac4f);

/// `log2(e)` as float32.
pub(crate) const LOG2E: f32 = f32::from_bits(0x3fb8_aa3b);
/// `ln 2`, high part.
pub(crate) const LN2_HI: f32 = f32::from_bits(0x3f31_7218);
/// `ln 2`, low part (negative: `LN2_HI` is above `ln 2`).
pub(crate) const LN2_LO: f32 = f32::from_bits(0xb102_e308);

/// `≈ 2^(j/1024)`, `j = 0..32`, as float32 bits (biased, see the module notes).
pub(crate) const TL: [u32; 32] = [
    1065353217, 1065358897, 1065364581, 1065370269, 1065375961, 1065381656, 1065387356, 1065393059,
    1065398766, 1065404477, 1065410192, 1065415911, 1065421634, 1065427360, 1065433091, 1065438825,
    1065444563, 1065450305, 1065456051, 1065461801, 1065467554, 1065473312, 1065479074, 1065484839,
    1065490608, 1065496381, 1065502159, 1065507940, 1065513725, 1065519513, 1065525306, 1065531103,
];

/// `2^(j/32)`, `j = 0..32`, as float32 bits.
pub(crate) const TH: [u32; 32] = [
    1065353216, 1065536903, 1065724611, 1065916431, 1066112450, 1066312762, 1066517459, 1066726640,
    1066940400, 1067158842, 1067382066, 1067610179, 1067843287, 1068081499, 1068324927, 1068573686,
    1068827891, 1069087663, 1069353124, 1069624397, 1069901610, 1070184894, 1070474380, 1070770206,
    1071072509, 1071381432, 1071697119, 1072019719, 1072349383, 1072686266, 1073030525, 1073382323,
];

/// `e^x` in float32, bit for bit as SVML's `__svml_expf16` (see the module notes).
///
/// ```
/// use promote::kernel::libm::svml::exp::expf;
/// assert_eq!(expf(0.0), 1.0);
/// assert!((expf(1.0) / std::f32::consts::E - 1.0).abs() < 5e-7); // within SVML's 4 ulps
/// assert_eq!(expf(f32::NEG_INFINITY), 0.0);
/// ```
#[inline(always)]
pub fn expf(x: f32) -> f32 {
    if x.is_nan() {
        return f32::from_bits(x.to_bits() | 0x0040_0000);
    }
    if x.abs() >= CALLOUT {
        return rare(x);
    }
    // x · log2(e) is exact in f64 (24 + 24 bits); rounding `1.5·2^13 + that` toward zero to
    // float32 keeps 10 fractional bits, i.e. the floor on the grid of 2^-10 (the sum is positive)
    let m = (f64::from(x) * f64::from(LOG2E) * 1024.0).floor();
    let n = (m / 1024.0) as f32; // exact: |m| < 2^17
    let m = m as i64;
    let t = if x == 0.0 {
        1.0
    } else {
        f32::from_bits(TH[((m >> 5) & 31) as usize]) * f32::from_bits(TL[(m & 31) as usize])
    };
    let r = (-n).mul_add(LN2_HI, x);
    let r = (-n).mul_add(LN2_LO, r);
    let y = r.mul_add(t, t);
    // 2^⌊N⌋ · y: exact, the result is a normal float32 below the callout bound
    (f64::from(y) * crate::kernel::libm::pow2(n.floor() as i32)) as f32
}

/// SVML's scalar path for `|x| ≥ CALLOUT` and infinities.
#[cold]
#[inline(never)]
fn rare(x: f32) -> f32 {
    if x == f32::NEG_INFINITY {
        0.0
    } else if x.is_infinite() {
        x
    } else {
        x.exp()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_near_powers_of_two_and_edges_behave() {
        for j in 0..32 {
            let th = f64::from(f32::from_bits(TH[j]));
            assert!((th / 2f64.powf(j as f64 / 32.0) - 1.0).abs() < 1e-7);
            let tl = f64::from(f32::from_bits(TL[j]));
            assert!((tl / 2f64.powf(j as f64 / 1024.0) - 1.0).abs() < 3e-7);
        }
        assert_eq!(expf(0.0), 1.0);
        assert_eq!(expf(-0.0), 1.0);
        assert_eq!(expf(f32::INFINITY), f32::INFINITY);
        assert_eq!(expf(f32::NEG_INFINITY), 0.0);
        assert!(expf(f32::NAN).is_nan());
        assert_eq!(expf(200.0), f32::INFINITY);
        assert_eq!(expf(-200.0), 0.0);
        for i in -2000..2000 {
            let x = i as f32 / 23.0;
            let (got, want) = (f64::from(expf(x)), f64::from(x).exp());
            // SVML's "LA" accuracy: within 4 float32 ulps
            assert!((got / want - 1.0).abs() < 4.8e-7, "{x}: {got} vs {want}");
        }
    }
}
