//! NumPy 2.4.6's own AVX-512 loops for float32 `exp`, `log`, `sin`, `cos` and float32/float64
//! `tanh`,
//! element by element and bit for bit (our code; the constants and tables are NumPy's, copied
//! as data).
//!
//! On an AVX-512 CPU NumPy does not call the C library for these:
//! - float32 `exp` is `simd_exp_FLOAT` (numpy/_core/src/umath/loops_exponent_log.dispatch.c.src,
//!   constants in npy_simd_data.h): Cody-Waite reduction by `ln 2` and a 5/2 rational
//!   minimax polynomial, up to 2.52 ulps from `exp` ([`exp_f32`]);
//! - float32 `log` is `simd_log_FLOAT` (the same file): a 5/5 rational polynomial of the
//!   significand ([`log_f32`]);
//! - float32 `sin` and `cos` are `simd_sincos_f32` (loops_trigonometric.dispatch.cpp):
//!   Cody-Waite reduction by `π/2` and two polynomials, the C library's beyond its range
//!   ([`sin_f32`], [`cos_f32`]);
//! - float32 and float64 `tanh` are `simd_tanh_f32`/`simd_tanh_f64`
//!   (loops_hyperbolic.dispatch.cpp.src, converted from SVML's `svml_z0_tanh_{s,d}_la.s`):
//!   a polynomial per interval of `|x|` ([`tanh_f32`], [`tanh_f64`]).
//!
//! Both loops are used for every element (strided and 1-element arrays included), so a value
//! depends on the element alone. A NaN operand gives NumPy's `NPY_NAN`, `+NaN`.
//!
//! ```
//! use promote::kernel::libm::numpy_simd::{exp_f32, tanh_f32, tanh_f64};
//! assert_eq!(exp_f32(0.0), 1.0);
//! assert_eq!(tanh_f32(-0.0).to_bits(), (-0.0f32).to_bits());
//! assert_eq!(tanh_f64(f64::NEG_INFINITY), -1.0);
//! ```

/// `exp` overflows to `inf` from here up (`xmax`).
const EXP_MAX: f32 = 88.722_84;
/// `exp` underflows to `0` from here down (`xmin`).
const EXP_MIN: f32 = -103.972_084;
/// `-ln 2`, high part (`NPY_CODY_WAITE_LOGE_2_HIGHf`).
const LN2_HI: f32 = -6.931_457_5e-1;
/// `-ln 2`, low part (`NPY_CODY_WAITE_LOGE_2_LOWf`).
const LN2_LO: f32 = -1.428_606_8e-6;
/// The numerator's coefficients `P0..=P5` (`NPY_COEFF_P*_EXPf`, NumPy's decimals rounded to
/// float32 as its C compiler does).
const EXP_P: [f32; 6] = [
    f32::from_bits(0x3f80_0000), // 9.999999999980870924916e-1
    f32::from_bits(0x3f39_cbd5), // 7.257664613233124478488e-1
    f32::from_bits(0x3e7d_4c58), // 2.473615434895520810817e-1
    f32::from_bits(0x3d51_7d8c), // 5.114512081637298353406e-2
    f32::from_bits(0x3bdd_7159), // 6.757896990527504603057e-3
    f32::from_bits(0x3a05_3dd8), // 5.082762527590693718096e-4
];
/// The denominator's coefficients `Q0..=Q2` (`NPY_COEFF_Q*_EXPf`).
const EXP_Q: [f32; 3] = [
    f32::from_bits(0x3f80_0000), // 1.0
    f32::from_bits(0xbe8c_6857), // -2.742335390411667452936e-1
    f32::from_bits(0x3cb0_e832), // 2.159509375685829852307e-2
];
/// `1.5 · 2^23`: adding and subtracting it rounds to an integer (`NPY_RINT_CVT_MAGICf`).
const RINT_MAGIC: f32 = 12_582_912.0;

/// `e^x` in float32 as NumPy's AVX-512 `simd_exp_FLOAT` computes it (see the module notes).
///
/// ```
/// use promote::kernel::libm::numpy_simd::exp_f32;
/// assert_eq!(exp_f32(88.8), f32::INFINITY);
/// assert_eq!(exp_f32(-104.0), 0.0);
/// assert!(exp_f32(f32::NAN).is_sign_positive());
/// ```
pub fn exp_f32(x: f32) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    if x >= EXP_MAX {
        return f32::INFINITY;
    }
    if x <= EXP_MIN {
        return 0.0;
    }
    let k = (x * std::f32::consts::LOG2_E + RINT_MAGIC) - RINT_MAGIC;
    let r = k.mul_add(LN2_HI, x);
    let r = k.mul_add(LN2_LO, r);
    let num = EXP_P[..5]
        .iter()
        .rev()
        .fold(EXP_P[5], |acc, &p| acc.mul_add(r, p));
    let den = EXP_Q[2].mul_add(r, EXP_Q[1]).mul_add(r, EXP_Q[0]);
    let poly = num / den;
    // `scalef(poly, k)`: poly · 2^k rounded once (exact in f64, then one rounding to f32)
    (f64::from(poly) * super::pow2(k as i32)) as f32
}

/// `log`'s numerator coefficients `P0..=P5` (`NPY_COEFF_P*_LOGf`, npy_simd_data.h, NumPy's
/// decimals rounded to float32 as its C compiler does).
const LOG_P: [u32; 6] = [
    0x0000_0000, // 0.0
    0x3f80_0000, // 9.999999999999998702752e-01
    0x4007_361c, // 2.112677543073053063722e+00
    0x3fbd_70a9, // 1.480000633576506585156e+00
    0x3ec3_0333, // 3.808837741388407920751e-01
    0x3cd4_2bcd, // 2.589979117907922693523e-02
];
/// `log`'s denominator coefficients `Q0..=Q5` (`NPY_COEFF_Q*_LOGf`).
const LOG_Q: [u32; 6] = [
    0x3f80_0000, // 1.0
    0x4027_361c, // 2.612677543073109236779e+00
    0x401c_fe0d, // 2.453006071784736363091e+00
    0x3f7c_8ae4, // 9.864942958519418960339e-01
    0x3e1e_5bf3, // 1.546476374983906719538e-01
    0x3bc0_83df, // 5.875095403124574342950e-03
];

/// `ln x` in float32 as NumPy's AVX-512 `simd_log_FLOAT` computes it
/// (loops_exponent_log.dispatch.c.src): `x = m · 2^e` with `m` in `[0.5, 1)` (`vgetmantps`,
/// `vgetexpps` + 1), doubled below `√½` (`e` one less), `ln x ≈ e·ln2 + P(m−1)/Q(m−1)`
/// (two degree-5 polynomials, one division). A negative operand gives `-NaN`, `0` gives
/// `-inf`, a NaN `+NaN`.
///
/// ```
/// use promote::kernel::libm::numpy_simd::log_f32;
/// assert_eq!(log_f32(1.0), 0.0);
/// assert_eq!(log_f32(-1.0).to_bits(), 0xffc0_0000);
/// assert!((log_f32(3.0) - 3f32.ln()).abs() <= 2.0 * f32::EPSILON);
/// ```
pub fn log_f32(x: f32) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    if x < 0.0 {
        return f32::from_bits(0xffc0_0000);
    }
    if x == 0.0 {
        return f32::NEG_INFINITY;
    }
    if x == f32::INFINITY {
        return x;
    }
    // a subnormal scaled up first (exact), its exponent corrected
    let (v, bias) = if x < f32::MIN_POSITIVE {
        (x * f32::from_bits(0x4f80_0000), 32) // 2^32
    } else {
        (x, 0)
    };
    let mut e = ((v.to_bits() >> 23) as i32 - 127 - bias) as f32 + 1.0;
    let mut m = f32::from_bits((v.to_bits() & 0x007f_ffff) | 0x3f00_0000);
    if m <= std::f32::consts::FRAC_1_SQRT_2 {
        m += m;
        e -= 1.0;
    }
    let m = m - 1.0;
    let horner = |c: &[u32; 6]| {
        (0..5).rev().fold(f32::from_bits(c[5]), |acc, i| {
            acc.mul_add(m, f32::from_bits(c[i]))
        })
    };
    e.mul_add(std::f32::consts::LN_2, horner(&LOG_P) / horner(&LOG_Q))
}

/// `tanh` in float32 as NumPy's AVX-512 `simd_tanh_f32` computes it (see the module notes).
///
/// ```
/// use promote::kernel::libm::numpy_simd::tanh_f32;
/// assert_eq!(tanh_f32(10.0), 1.0);
/// assert_eq!(tanh_f32(f32::NEG_INFINITY), -1.0);
/// assert!((tanh_f32(0.5) - 0.5f32.tanh()).abs() <= f32::EPSILON);
/// ```
pub fn tanh_f32(x: f32) -> f32 {
    if x.is_nan() {
        return f32::NAN;
    }
    let top = (x.to_bits() & 0x7fe0_0000) as i32;
    let sign = x.to_bits() & 0x8000_0000;
    // ±1 from |x| = 0x7f20_0000 (2.1e38, NumPy's HUGE_THRESHOLD) and for infinities
    if top > 0x7f00_0000 {
        return f32::from_bits(1f32.to_bits() | sign);
    }
    let idx = ((top - 0x3d40_0000).clamp(0, 0x03e0_0000) >> 21) as usize;
    let c = |row: usize| f32::from_bits(TANH_F32[row][idx]);
    let y = x.abs() - c(0);
    let r = (1..7).rev().fold(c(7), |acc, row| acc.mul_add(y, c(row)));
    f32::from_bits(r.to_bits() | sign)
}

/// `tanh` in float64 as NumPy's AVX-512 `simd_tanh_f64` computes it (see the module notes).
///
/// ```
/// use promote::kernel::libm::numpy_simd::tanh_f64;
/// assert_eq!(tanh_f64(40.0), 1.0);
/// assert!((tanh_f64(0.5) - 0.5f64.tanh()).abs() <= f64::EPSILON);
/// ```
pub fn tanh_f64(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let top = (x.to_bits() & 0x7ff8_0000_0000_0000) as i64;
    let sign = x.to_bits() & 0x8000_0000_0000_0000;
    // ±1 from |x| = 0x7fe8_0000_0000_0000 (1.3e308) and for infinities
    if top > 0x7fe0_0000_0000_0000 {
        return f64::from_bits(1f64.to_bits() | sign);
    }
    // NumPy clamps the high 32 bits (the low ones are 0 after the mask)
    let idx = ((top - 0x3fc0_0000_0000_0000).clamp(0, 0x0078_0000 << 32) >> 51) as usize;
    let c = |row: usize| f64::from_bits(TANH_F64[row][idx]);
    let y = x.abs() - c(0);
    let r = (1..17).rev().fold(c(17), |acc, row| acc.mul_add(y, c(row)));
    f64::from_bits(r.to_bits() | sign)
}

/// Which of `sin` and `cos` [`sin_cos_f32`] computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Trig {
    Sin,
    Cos,
}

/// `sin` in float32 as NumPy's AVX-512 `simd_sincos_f32` computes it (the C library's `sinf`
/// beyond `|x| = 117435.992`; a NaN is `+NaN`).
///
/// ```
/// use promote::kernel::libm::numpy_simd::sin_f32;
/// assert_eq!(sin_f32(-0.0).to_bits(), (-0.0f32).to_bits());
/// assert_eq!(sin_f32(1.0), 0.841471); // the C library's sinf(1) is 0.84147096
/// assert!(sin_f32(f32::NAN).is_nan());
/// ```
pub fn sin_f32(x: f32) -> f32 {
    sin_cos_f32(x, Trig::Sin)
}

/// `cos` in float32 as NumPy's AVX-512 `simd_sincos_f32` computes it (the C library's `cosf`
/// beyond `|x| = 71476.0625`; a NaN is `+NaN`).
///
/// ```
/// use promote::kernel::libm::numpy_simd::cos_f32;
/// assert_eq!(cos_f32(0.0), 1.0);
/// assert_eq!(cos_f32(1e6), 1e6f32.cos()); // beyond 71476.0625: the C library's cosf
/// ```
pub fn cos_f32(x: f32) -> f32 {
    sin_cos_f32(x, Trig::Cos)
}

/// The C library's `sinf`/`cosf`, NumPy's callout beyond its reduction's range: kept out of
/// line, so that a loop of [`sin_f32`] does not evaluate it for every element to select later.
#[cold]
#[inline(never)]
fn libm_sin_cos(x: f32, op: Trig) -> f32 {
    if op == Trig::Cos {
        x.cos()
    } else {
        x.sin()
    }
}

/// NumPy 2.4.6's float32 `sin`/`cos` (`simd_sincos_f32`, loops_trigonometric.dispatch.cpp,
/// taken on an FMA CPU for every element: contiguous, strided and 1-element arrays): a NaN is
/// `NPY_NANF` (+NaN); beyond Cody-Waite's range (`|x| > 117435.992` for `sin`,
/// `> 71476.0625` for `cos`, infinities included) the C library's `sinf`/`cosf`; otherwise
/// `x` reduced by `q·π/2` (`q = rint(x·2/π)`, three fused steps), a degree-9 odd polynomial
/// for `sin` and degree-8 even one for `cos` of the remainder (fused, NumPy's coefficients),
/// chosen and negated by the quadrant (`0 − v`: a negated zero is `+0`).
fn sin_cos_f32(x: f32, op: Trig) -> f32 {
    if x.is_nan() {
        return f32::from_bits(0x7fc0_0000);
    }
    // NumPy's `71476.0625f` and `117435.992f` (117435.9921875 as a float)
    let max = f32::from_bits(if op == Trig::Cos {
        0x478b_9a08
    } else {
        0x47e5_5dff
    });
    if x.abs() > max {
        return libm_sin_cos(x, op);
    }
    let magic = f32::from_bits(0x4b40_0000); // 0x1.8p+23: adding it rounds to an integer
    let q = (x * f32::from_bits(0x3f22_f983) + magic) - magic; // 2/π
    let r = q.mul_add(f32::from_bits(0xbfc9_0fd8), x); // −π/2, high
    let r = q.mul_add(f32::from_bits(0xb4a8_885a), r); // medium
    let r = q.mul_add(f32::from_bits(0xa7c2_34c4), r); // low
    let r2 = r * r;
    let cos = [0xbab6_036eu32, 0x3d2a_aa9e, 0xbf00_0000, 0x3f80_0000]
        .iter()
        .fold(f32::from_bits(0x37cc_730b), |p, &c| {
            p.mul_add(r2, f32::from_bits(c))
        });
    let sin = [0xb950_35ddu32, 0x3c08_88cd, 0xbe2a_aaab]
        .iter()
        .fold(f32::from_bits(0x363e_9dde), |p, &c| {
            p.mul_add(r2, f32::from_bits(c))
        });
    let sin = sin.mul_add(r2, 0.0).mul_add(r, r);
    let quadrant = q as i32 + i32::from(op == Trig::Cos);
    let v = if quadrant & 1 == 0 { sin } else { cos };
    if quadrant & 2 == 2 {
        0.0 - v
    } else {
        v
    }
}

/// NumPy's float64 `tanh` table (`lut16x18`): row 0 is each interval's `b`, rows 1..=17 its
/// `c0..=c16`.
#[rustfmt::skip]
const TANH_F64: [[u64; 16]; 18] = [
    [
        0x0000000000000000, 0x3fcc000000000000, 0x3fd4000000000000, 0x3fdc000000000000,
        0x3fe4000000000000, 0x3fec000000000000, 0x3ff4000000000000, 0x3ffc000000000000,
        0x4004000000000000, 0x400c000000000000, 0x4014000000000000, 0x401c000000000000,
        0x4024000000000000, 0x402c000000000000, 0x4034000000000000, 0x0000000000000000,
    ],
    [
        0x0000000000000000, 0x3fcb8fd0416a7c92, 0x3fd35f98a0ea650e, 0x3fda5729ee488037,
        0x3fe1bf47eabb8f95, 0x3fe686650b8c2015, 0x3feb2523bb6b2dee, 0x3fee1fbf97e33527,
        0x3fef9258260a71c2, 0x3feff112c63a9077, 0x3fefff419668df11, 0x3feffffc832750f2,
        0x3feffffffdc96f35, 0x3fefffffffffcf58, 0x3ff0000000000000, 0x3ff0000000000000,
    ],
    [
        0x3ff0000000000000, 0x3fee842ca3f08532, 0x3fed11574af58f1b, 0x3fea945b9c24e4f9,
        0x3fe6284c3374f815, 0x3fe02500a09f8d6e, 0x3fd1f25131e3a8c0, 0x3fbd22ca1c24a139,
        0x3f9b3afe1fba5c76, 0x3f6dd37d19b22b21, 0x3f27ccec13a9ef96, 0x3ecbe6c3f33250ae,
        0x3e41b4865394f75f, 0x3d8853f01bda5f28, 0x3c73953c0197ef58, 0x0000000000000000,
    ],
    [
        0xbbf0b3ea3fdfaa19, 0xbfca48aaeb53bc21, 0xbfd19921f4329916, 0xbfd5e0f09bef8011,
        0xbfd893b59c35c882, 0xbfd6ba7cb7576538, 0xbfce7291743d7555, 0xbfbb6d85a01efb80,
        0xbf9addae58c7141a, 0xbf6dc59376c7aa19, 0xbf27cc5e74677410, 0xbecbe6c0e8b4cc87,
        0xbe41b486526b0565, 0xbd8853f01bef63a4, 0xbc73955be519be31, 0x0000000000000000,
    ],
    [
        0xbfd5555555555555, 0xbfd183afc292ba11, 0xbfcc1a4b039c9bfa, 0xbfc16e1e6d8d0be6,
        0xbf92426c751e48a2, 0x3fb4f152b2bad124, 0x3fbbba40cbef72be, 0x3fb01ba038be6a3d,
        0x3f916df44871efc8, 0x3f63c6869dfc8870, 0x3f1fb9aef915d828, 0x3ec299d1e27c6e11,
        0x3e379b5ddcca334c, 0x3d8037f57bc62c9a, 0x3c6a2d4b50a2cff7, 0x0000000000000000,
    ],
    [
        0xbce6863ee44ed636, 0x3fc04dcd0476c75e, 0x3fc43d3449a80f08, 0x3fc5c26f3699b7e7,
        0x3fc1a686f6ab2533, 0x3faf203c316ce730, 0xbf89c7a02788557c, 0xbf98157e26e0d541,
        0xbf807b55c1c7d278, 0xbf53a18d5843190f, 0xbf0fb6bbc89b1a5b, 0xbeb299c9c684a963,
        0xbe279b5dd4fb3d01, 0xbd7037f57ae72aa6, 0xbc5a2ca2bba78e86, 0x0000000000000000,
    ],
    [
        0x3fc1111111112ab5, 0x3fb5c19efdfc08ad, 0x3fa74c98dc34fbac, 0xbf790d6a8eff0a77,
        0xbfac3c021789a786, 0xbfae2196b7326859, 0xbf93a7a011ff8c2a, 0x3f6e4709c7e8430e,
        0x3f67682afa611151, 0x3f3ef2ee77717cbf, 0x3ef95a4482f180b7, 0x3e9dc2c27da3b603,
        0x3e12e2afd9f7433e, 0x3d59f320348679ba, 0x3c44b61d9bbcc940, 0x0000000000000000,
    ],
    [
        0xbda1ea19ddddb3b4, 0xbfb0b8df995ce4df, 0xbfb2955cf41e8164, 0xbfaf9d05c309f7c6,
        0xbf987d27ccff4291, 0x3f8b2ca62572b098, 0x3f8f1cf6c7f5b00a, 0x3f60379811e43dd5,
        0xbf4793826f78537e, 0xbf2405695e36240f, 0xbee0e08de39ce756, 0xbe83d709ba5f714e,
        0xbdf92e3fc5ee63e0, 0xbd414cc030f2110e, 0xbc2ba022e8d82a87, 0x0000000000000000,
    ],
    [
        0xbfaba1ba1990520b, 0xbf96e37bba52f6fc, 0x3ecff7df18455399, 0x3f97362834d33a4e,
        0x3f9e7f8380184b45, 0x3f869543e7c420d4, 0xbf7326bd4914222a, 0xbf5fc15b0a9d98fa,
        0x3f14cffcfa69fbb6, 0x3f057e48e5b79d10, 0x3ec33b66d7d77264, 0x3e66ac4e578b9b10,
        0x3ddcc74b8d3d5c42, 0x3d23c589137f92b4, 0x3c107f8e2c8707a1, 0x0000000000000000,
    ],
    [
        0xbe351ca7f096011f, 0x3f9eaaf3320c3851, 0x3f9cf823fe761fc1, 0x3f9022271754ff1f,
        0xbf731fe77c9c60af, 0xbf84a6046865ec7d, 0xbf4ca3f1f2b9192b, 0x3f4c77dee0afd227,
        0x3f04055bce68597a, 0xbee2bf0cb4a71647, 0xbea31eaafe73efd5, 0xbe46abb02c4368ed,
        0xbdbcc749ca8079dd, 0xbd03c5883836b9d2, 0xbbf07a5416264aec, 0x0000000000000000,
    ],
    [
        0x3f9664f94e6ac14e, 0xbf94d3343bae39dd, 0xbf7bc748e60df843, 0xbf8c89372b43ba85,
        0xbf8129a092de747a, 0x3f60c85b4d538746, 0x3f5be9392199ec18, 0xbf2a0c68a4489f10,
        0xbf00462601dc2faa, 0x3eb7b6a219dea9f4, 0x3e80cbcc8d4c5c8a, 0x3e2425bb231a5e29,
        0x3d9992a4beac8662, 0x3ce191ba5ed3fb67, 0x3bc892450bad44c4, 0x0000000000000000,
    ],
    [
        0xbea8c4c1fd7852fe, 0xbfccce16b1046f13, 0xbf81a16f224bb7b6, 0xbf62cbf00406bc09,
        0x3f75b29bb02cf69b, 0x3f607df0f9f90c17, 0xbf4b852a6e0758d5, 0xbf0078c63d1b8445,
        0x3eec12eadd55be7a, 0xbe6fa600f593181b, 0xbe5a3c935dce3f7d, 0xbe001c6d95e3ae96,
        0xbd74755a00ea1fd3, 0xbcbc1c6c063bb7ac, 0xbba3be9a4460fe00, 0x0000000000000000,
    ],
    [
        0xbf822404577aa9dd, 0x403d8b07f7a82aa3, 0xbf9f44ab92fbab0a, 0x3fb2eac604473d6a,
        0x3f45f87d903aaac8, 0xbf5e104671036300, 0x3f19bc98ddf0f340, 0x3f0d4304bc9246e8,
        0xbed13c415f7b9d41, 0xbe722b8d9720cdb0, 0x3e322666d739bec0, 0x3dd76a553d7e7918,
        0x3d4de0fa59416a39, 0x3c948716cf3681b4, 0x3b873f9f2d2fda99, 0x0000000000000000,
    ],
    [
        0xbefdd99a221ed573, 0x4070593a3735bab4, 0xbfccab654e44835e, 0x3fd13ed80037dbac,
        0xbf6045b9076cc487, 0x3f2085ee7e8ac170, 0x3f23524622610430, 0xbeff12a6626911b4,
        0x3eab9008bca408af, 0x3e634df71865f620, 0xbe05bb1bcf83ca73, 0xbdaf2ac143fb6762,
        0xbd23eae52a3dbf57, 0xbc6b5e3e9ca0955e, 0xbb5eca68e2c1ba2e, 0x0000000000000000,
    ],
    [
        0x3f6e3be689423841, 0xc0d263511f5baac1, 0x40169f73b15ebe5c, 0xc025c1dd41cd6cb5,
        0xbf58fd89fe05e0d1, 0x3f73f7af01d5af7a, 0xbf1e40bdead17e6b, 0x3ee224cd6c4513e5,
        0xbe24b645e68eeaa3, 0xbe4abfebfb72bc83, 0x3dd51c38f8695ed3, 0x3d8313ac38c6832b,
        0x3cf7787935626685, 0x3c401ffc49c6bc29, 0xbabf0b21acfa52ab, 0x0000000000000000,
    ],
    [
        0xbf2a1306713a4f3a, 0xc1045e509116b066, 0x4041fab9250984ce, 0xc0458d090ec3de95,
        0xbf74949d60113d63, 0x3f7c9fd6200d0ade, 0x3f02cd40e0ad0a9f, 0xbe858ab8e019f311,
        0xbe792fa6323b7cf8, 0x3e2df04d67876402, 0xbd95c72be95e4d2c, 0xbd55a89c30203106,
        0xbccad6b3bb9eff65, 0xbc12705ccd3dd884, 0xba8e0a4c47ae75f5, 0x0000000000000000,
    ],
    [
        0xbf55d7e76dc56871, 0x41528c38809c90c7, 0xc076d57fb5190b02, 0x4085f09f888f8ada,
        0x3fa246332a2fcba5, 0xbfb29d851a896fcd, 0x3ed9065ae369b212, 0xbeb8e1ba4c98a030,
        0x3e6ffd0766ad4016, 0xbe0c63c29f505f5b, 0xbd7fab216b9e0e49, 0x3d2826b62056aa27,
        0x3ca313e31762f523, 0x3bea37aa21895319, 0x3ae5c7f1fd871496, 0x0000000000000000,
    ],
    [
        0x3f35e67ab76a26e7, 0x41848ee0627d8206, 0xc0a216d618b489ec, 0x40a5b89107c8af4f,
        0x3fb69d8374520eda, 0xbfbded519f981716, 0xbef02d288b5b3371, 0x3eb290981209c1a6,
        0xbe567e924bf5ff6e, 0x3de3f7f7de6b0eb6, 0x3d69ed18bae3ebbc, 0xbcf7534c4f3dfa71,
        0xbc730b73f1eaff20, 0xbbba2cff8135d462, 0xbab5a71b5f7d9035, 0x0000000000000000,
    ],
];

/// NumPy's float32 `tanh` table (`lut32x8`): row 0 is each interval's `b`, rows 1..=7 its
/// `c0..=c6`.
#[rustfmt::skip]
const TANH_F32: [[u32; 32]; 8] = [
    [
        0x00000000, 0x3d700000, 0x3d900000, 0x3db00000, 0x3dd00000, 0x3df00000, 0x3e100000, 0x3e300000,
        0x3e500000, 0x3e700000, 0x3e900000, 0x3eb00000, 0x3ed00000, 0x3ef00000, 0x3f100000, 0x3f300000,
        0x3f500000, 0x3f700000, 0x3f900000, 0x3fb00000, 0x3fd00000, 0x3ff00000, 0x40100000, 0x40300000,
        0x40500000, 0x40700000, 0x40900000, 0x40b00000, 0x40d00000, 0x40f00000, 0x41100000, 0x00000000,
    ],
    [
        0x00000000, 0x3d6fb9c9, 0x3d8fc35f, 0x3daf9169, 0x3dcf49ab, 0x3deee849, 0x3e0f0ee8, 0x3e2e4984,
        0x3e4d2f8e, 0x3e6bb32e, 0x3e8c51cd, 0x3ea96163, 0x3ec543f1, 0x3edfd735, 0x3f028438, 0x3f18abf0,
        0x3f2bc480, 0x3f3bec1c, 0x3f4f2e5b, 0x3f613c53, 0x3f6ce37d, 0x3f743c4f, 0x3f7a5feb, 0x3f7dea85,
        0x3f7f3b3d, 0x3f7fb78c, 0x3f7fefd4, 0x3f7ffdd0, 0x3f7fffb4, 0x3f7ffff6, 0x3f7fffff, 0x3f800000,
    ],
    [
        0x3f800000, 0x3f7f1f84, 0x3f7ebd11, 0x3f7e1e5f, 0x3f7d609f, 0x3f7c842d, 0x3f7b00e5, 0x3f789580,
        0x3f75b8ad, 0x3f726fd9, 0x3f6cc59b, 0x3f63fb92, 0x3f59ff97, 0x3f4f11d7, 0x3f3d7573, 0x3f24f360,
        0x3f0cbfe7, 0x3eec1a69, 0x3eb0a801, 0x3e6753a2, 0x3e132f1a, 0x3db7e7d3, 0x3d320845, 0x3c84d3d4,
        0x3bc477b7, 0x3b10d3da, 0x3a01601e, 0x388c1a3b, 0x3717b0da, 0x35a43bce, 0x338306c6, 0x00000000,
    ],
    [
        0xb0343c7b, 0xbd6ee69d, 0xbd8f0da7, 0xbdae477d, 0xbdcd2a1f, 0xbdeba80d, 0xbe0c443b, 0xbe293cf3,
        0xbe44f282, 0xbe5f3651, 0xbe81c7c0, 0xbe96d7ca, 0xbea7fb8e, 0xbeb50e9e, 0xbec12efe, 0xbec4be92,
        0xbebce070, 0xbead510e, 0xbe8ef7d6, 0xbe4b8704, 0xbe083237, 0xbdaf7449, 0xbd2e1ec4, 0xbc83bf06,
        0xbbc3e0b5, 0xbb10aadc, 0xba0157db, 0xb88c18f2, 0xb717b096, 0xb5a43bae, 0xb383012c, 0x00000000,
    ],
    [
        0xbeaaaaa5, 0xbeab0612, 0xbea7f01f, 0xbea4e120, 0xbea387b7, 0xbea15962, 0xbe9d57f7, 0xbe976b5a,
        0xbe90230d, 0xbe880dff, 0xbe7479b3, 0xbe4c3d88, 0xbe212482, 0xbdeb8cba, 0xbd5e78ad, 0x3c6b5e6e,
        0x3d839143, 0x3dc21ee1, 0x3de347af, 0x3dcbec96, 0x3d99ef2d, 0x3d542ea1, 0x3cdde701, 0x3c2cca67,
        0x3b81cb27, 0x3ac073a1, 0x39ac3032, 0x383a94d9, 0x36ca081d, 0x355abd4c, 0x332b3cb6, 0x00000000,
    ],
    [
        0xb76dd6b9, 0xbe1c276d, 0x3c1dcf2f, 0x3dc1a78d, 0x3d96f985, 0x3da2b61b, 0x3dc13397, 0x3dd2f670,
        0x3df48a0a, 0x3e06c5a8, 0x3e1a3aba, 0x3e27c405, 0x3e2e78d0, 0x3e2c3e44, 0x3e1d3097, 0x3df4a8f4,
        0x3da38508, 0x3d31416a, 0x3b562657, 0xbcaeeac9, 0xbcce9419, 0xbcaaeac4, 0xbc49e7d0, 0xbba71ddd,
        0xbb003b0e, 0xba3f9a05, 0xb92c08a7, 0xb7ba9232, 0xb64a0b0f, 0xb4dac169, 0xb2ab78ac, 0x00000000,
    ],
    [
        0x3e0910e9, 0x43761143, 0x4165ecdc, 0xc190f756, 0xc08c097d, 0xc02ba813, 0xbf7f6bda, 0x3f2b1dc0,
        0x3ece105d, 0x3f426a94, 0xbadb0dc4, 0x3da43b17, 0xbd51ab88, 0xbcaea23d, 0xbd3b6d8d, 0xbd6caaad,
        0xbd795bed, 0xbd5fddda, 0xbd038f3b, 0xbc1cad63, 0x3abb4766, 0x3b95f10b, 0x3b825873, 0x3afaea66,
        0x3a49f878, 0x39996bf3, 0x388f3e6c, 0x371bb0e3, 0x35a8a5e6, 0x34369b17, 0x322487b0, 0x00000000,
    ],
    [
        0xbc0e2f66, 0x460bda12, 0x43d638ef, 0xc3e11c3e, 0xc2baa4e9, 0xc249da2d, 0xc1859b82, 0x40dd5b57,
        0x40494640, 0x40c730a8, 0xbf0f160e, 0x3e30e76f, 0xbea81387, 0xbdb26a1c, 0xbd351e57, 0xbb4c01a0,
        0x3c1d7bfb, 0x3c722cd1, 0x3c973f1c, 0x3c33a31b, 0x3b862ef4, 0x3a27b3d0, 0xba3b5907, 0xba0efc22,
        0xb97f9f0f, 0xb8c8af50, 0xb7bdddfb, 0xb64f2950, 0xb4e085b1, 0xb3731dfa, 0xb15a1f04, 0x00000000,
    ],
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Bits NumPy 2.4.6 gives on an AVX-512 CPU (both sides of the Cody-Waite limits).
    #[test]
    fn sin_and_cos_are_numpys() {
        let xs = [1.0f32, 2.5, -3.7, 100.0, 71476.0, 80000.0, 117435.99, 2e5];
        let sin = [
            0x3f576aa5u32,
            0x3f193579,
            0x3f07a358,
            0xbf01a12e,
            0xbf7f9dd4,
            0x3f1c55c4,
            0xbdef7be3,
            0xbd92555f,
        ];
        let cos = [
            0x3f0a5140u32,
            0xbf4d17bf,
            0xbf591d15,
            0x3f5cc0ee,
            0x3d601c54,
            0xbf4ab84c,
            0xbf7e3e64,
            0x3f7f587e,
        ];
        for ((&x, &s), &c) in xs.iter().zip(&sin).zip(&cos) {
            assert_eq!(sin_f32(x).to_bits(), s, "sin {x}");
            assert_eq!(cos_f32(x).to_bits(), c, "cos {x}");
        }
    }

    #[test]
    fn close_to_the_c_library_and_edges_behave() {
        for i in -4000..4000 {
            let x = i as f32 / 37.0;
            // the exact value rounded to float32 (inf past float32's largest)
            let (e, want) = (f64::from(exp_f32(x)), f64::from(f64::from(x).exp() as f32));
            assert!(
                want < 1e-37 || e == want || (e / want - 1.0).abs() < 2.6e-7,
                "exp {x}: {e} vs {want}"
            );
            let t = tanh_f32(x);
            assert!(
                (t - x.tanh()).abs() <= 2.0 * f32::EPSILON * x.tanh().abs().max(1e-30),
                "tanh {x}"
            );
            let t = tanh_f64(f64::from(x));
            let want = f64::from(x).tanh();
            assert!(
                (t - want).abs() <= 2.0 * f64::EPSILON * want.abs(),
                "tanh {x}"
            );
        }
        assert_eq!(exp_f32(f32::INFINITY), f32::INFINITY);
        assert_eq!(exp_f32(f32::NEG_INFINITY), 0.0);
        assert_eq!(tanh_f32(f32::INFINITY), 1.0);
        assert_eq!(tanh_f64(-0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(tanh_f64(1e-300), 1e-300);
        assert!(tanh_f64(-f64::NAN).is_sign_positive());
    }
}
