//! Eigen's packet math functions, as Paddle's and TensorFlow's CPU kernels run them (their Eigen
//! expressions, vectorized for AVX without FMA): each is written after the Eigen source it
//! reproduces and checked bit for bit against `tests/fixtures/eval-ops/paddle.jsonl.gz` and
//! `tf.jsonl.gz` (those that start from the CPU's estimates on the recording CPU's vendor:
//! [`cpu_vendor`]).
//!
//! ```
//! use promote::kernel::eigen::{exp_f32, exp_f64};
//! // Eigen clamps the argument: exp(-inf) is 2^-128 · (a polynomial near 1), not 0
//! assert_eq!(exp_f32(f32::NEG_INFINITY), 2.938265e-39);
//! assert_eq!(exp_f64(0.0), 1.0);
//! ```

/// `exp` of a float32 as Eigen's `pexp_float` computes it
/// (`Eigen/src/Core/arch/Default/GenericPacketMathFunctions.h`, Eigen 3.4): `x` clamped to
/// `[-88.723, 88.723]`, `m = floor(x · log2(e) + ½)`, `r = x − m·ln 2` in two steps, Cephes'
/// degree-5 polynomial (each multiply-add rounded twice: no FMA), times `2^m` (one rounding),
/// then the larger of that and `x` (`exp(inf)` is inf). The constants are Eigen's, as written.
#[allow(clippy::excessive_precision)]
pub fn exp_f32(x0: f32) -> f32 {
    if x0.is_nan() {
        return x0;
    }
    let madd = |a: f32, b: f32, c: f32| a * b + c;
    let x = x0.clamp(-88.723, 88.723);
    let m = madd(x, std::f32::consts::LOG2_E, 0.5).floor();
    let r = madd(m, -0.693_359_375, x);
    let r = madd(m, 2.121_944_40e-4, r);
    let (r2, r3) = (r * r, r * r * r);
    let y = madd(1.987_569_150_0e-4, r, 1.398_199_950_7e-3);
    let y1 = madd(4.166_579_589_4e-2, r, 1.666_666_545_9e-1);
    let y2 = r + 1.0;
    let y = madd(y, r, 8.333_451_907_3e-3);
    let y1 = madd(y1, r, 5.000_000_120_1e-1);
    let y = madd(y, r3, y1);
    let y = madd(y, r2, y2);
    let scaled = (f64::from(y) * 2f64.powi(m as i32)) as f32;
    scaled.max(x0)
}

/// `exp` of a float64 as Eigen's `pexp_double` computes it (Eigen 3.4): `x` clamped to
/// `[-709.784, 709.784]`, `n = floor(log2(e) · x + ½)`, `g = x − n·ln 2` in two steps, Cephes'
/// rational approximation `1 + 2·p(g) / (q(g) − p(g))`, times `2^n`, then the larger of that
/// and `x`. The constants are Eigen's, as written.
#[allow(clippy::excessive_precision)]
pub fn exp_f64(x0: f64) -> f64 {
    if x0.is_nan() {
        return x0;
    }
    let madd = |a: f64, b: f64, c: f64| a * b + c;
    let x = x0.clamp(-709.784, 709.784);
    let n = madd(std::f64::consts::LOG2_E, x, 0.5).floor();
    let g = x - n * 0.693_145_751_953_125;
    let g = g - n * 1.428_606_820_309_417_232_12e-6;
    let g2 = g * g;
    let p = madd(
        1.261_771_930_748_105_908_78e-4,
        g2,
        3.029_944_077_074_419_613_00e-2,
    );
    let p = madd(p, g2, 9.999_999_999_999_999_999_10e-1) * g;
    let q = madd(
        3.001_985_051_386_644_550_42e-6,
        g2,
        2.524_483_403_496_841_041_92e-3,
    );
    let q = madd(q, g2, 2.272_655_482_081_550_287_66e-1);
    let q = madd(q, g2, 2.000_000_000_000_000_000_09);
    let e = madd(2.0, p / (q - p), 1.0);
    ldexp(e, n as i32).max(x0)
}

/// `x · 2^n` rounded once (Eigen's `pldexp` multiplies by four powers of two, exact until the
/// last).
fn ldexp(x: f64, n: i32) -> f64 {
    let quarter = n / 4;
    let step = 2f64.powi(quarter);
    x * step * step * step * 2f64.powi(n - 3 * quarter)
}

/// Eigen 3.3's fast float32 packet square root (`psqrt<Packet8f>` under `EIGEN_FAST_MATH`,
/// `Eigen/src/Core/arch/AVX/MathFunctions.h`): the CPU's approximate reciprocal square root
/// (`rsqrtps`) refined by one Newton step, `r · (1.5 − (x / 2) · r²)`, times `x`; an `x` in
/// `[0, f32::MIN_POSITIVE)` gives `+0.0` (`sqrt(-0.0)` and the subnormals), `sqrt(inf)` is NaN
/// (`inf · 0`). The approximation is the CPU's own: the values are this machine's.
///
/// ```
/// use promote::kernel::eigen::packet_sqrt;
/// assert!(packet_sqrt(f32::INFINITY).is_nan());
/// assert_eq!(packet_sqrt(1e-45).to_bits(), 0);
/// assert!((packet_sqrt(2.0) - 2f32.sqrt()).abs() < 1e-6);
/// ```
pub fn packet_sqrt(x: f32) -> f32 {
    if (0.0..f32::MIN_POSITIVE).contains(&x) {
        return 0.0;
    }
    let r = approximate_rsqrt(x);
    let r = r * (1.5 - (x * 0.5) * (r * r));
    x * r
}

/// The vendor of this CPU (`"AuthenticAMD"`, `"GenuineIntel"`, ...; `""` off x86-64), whose
/// 12-bit estimates `rcpss` and `rsqrtss` start Eigen's packet reciprocal and square root
/// ([`packet_reciprocal`], [`packet_sqrt`]) and MKL's square root ([`crate::kernel::mkl`]).
/// Each vendor defines the estimates' bits its own way, so those kernels give this machine's
/// values, as the frameworks do on it: the recordings under `tests/fixtures/` come from an AMD
/// EPYC, and on an Intel CPU a few of these values land an ulp or two apart.
///
/// ```
/// use promote::kernel::eigen::cpu_vendor;
/// let v = cpu_vendor();
/// assert!(v.is_empty() || v.len() == 12);
/// ```
pub fn cpu_vendor() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        // leaf 0 names the vendor (`cpuid` exists on every x86-64 CPU)
        let r = std::arch::x86_64::__cpuid(0);
        let bytes: Vec<u8> = [r.ebx, r.edx, r.ecx]
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        String::new()
    }
}

/// The CPU's `rsqrtss` (x86-64; elsewhere the exact value).
pub(crate) fn approximate_rsqrt(x: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cvtss_f32, _mm_rsqrt_ss, _mm_set_ss};
        // SAFETY: SSE is part of the x86-64 baseline; the intrinsics work on plain values.
        unsafe { _mm_cvtss_f32(_mm_rsqrt_ss(_mm_set_ss(x))) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        1.0 / x.sqrt()
    }
}

/// [`exp_f32`] and [`exp_f64`] by type.
pub trait EigenExp: Copy {
    /// Eigen's packet `exp`.
    fn eigen_exp(self) -> Self;
}

impl EigenExp for f32 {
    fn eigen_exp(self) -> f32 {
        exp_f32(self)
    }
}

impl EigenExp for f64 {
    fn eigen_exp(self) -> f64 {
        exp_f64(self)
    }
}

/// Eigen's fast float32 packet reciprocal (`preciprocal<Packet8f>` under `EIGEN_FAST_MATH`,
/// `generic_reciprocal_newton_step<Packet8f, 1>` in Eigen's `AVX/MathFunctions.h`, as
/// TensorFlow 2.21's `Reciprocal` kernel runs it): the CPU's approximate reciprocal (`rcpps`)
/// `r`, refined once to `r·t + r`, `t = 1 − x·r` (each product rounded: TensorFlow's AVX
/// build has no FMA) unless `t` is NaN (`x` zero or infinite); a
/// subnormal `x` reads as zero (DAZ). The approximation is the CPU's own: the values are this
/// machine's.
///
/// ```
/// use promote::kernel::eigen::packet_reciprocal;
/// assert!((packet_reciprocal(3.0) - 1.0 / 3.0).abs() < 1e-6);
/// assert_eq!(packet_reciprocal(0.0), f32::INFINITY);
/// ```
pub fn packet_reciprocal(x: f32) -> f32 {
    // TensorFlow's threads run with DAZ: a subnormal reads as zero
    let x = if x.abs() < f32::MIN_POSITIVE {
        0.0f32.copysign(x)
    } else {
        x
    };
    let r = approximate_reciprocal(x);
    // `pnmadd(x, r, 1)` and `pmadd(r, t, r)`: each product rounded (TensorFlow's AVX build has
    // no FMA)
    let t = 1.0 - x * r;
    if t.is_nan() {
        r
    } else {
        r * t + r
    }
}

/// The CPU's `rcpss` (x86-64; elsewhere the exact value).
fn approximate_reciprocal(x: f32) -> f32 {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cvtss_f32, _mm_rcp_ss, _mm_set_ss};
        // SAFETY: SSE is part of the x86-64 baseline; the intrinsics work on plain values.
        unsafe { _mm_cvtss_f32(_mm_rcp_ss(_mm_set_ss(x))) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        1.0 / x
    }
}

/// The square root of `x + y·i` as Eigen's `psqrt_complex` computes it
/// (`GenericPacketMathFunctions.h`, as TensorFlow 2.21's `Sqrt` of a complex tensor runs it):
/// `l = max · sqrt(1 + (min / max)²)` (`max` where `min` is 0), `ρ = sqrt((|x| + l) / 2)`,
/// `η = (y / ρ) / 2` (0 where `max` is 0); `(ρ, η)` for `x ≥ 0`, `(|η|, ±ρ)` with `y`'s sign
/// for `x < 0`; `(inf, y)` where `|y|` is inf, `(inf, 0·|y|)` or `(0·|y|, inf)` where `x` is
/// ±inf. A NaN part stays NaN. `sqrt(f32::MAX)` is inf (`|x| + l` overflows).
///
/// ```
/// use promote::kernel::eigen::complex_sqrt;
/// assert_eq!(complex_sqrt(-4.0f64, 0.0), (0.0, 2.0));
/// assert_eq!(complex_sqrt(f32::MAX, 0.0), (f32::INFINITY, 0.0));
/// ```
pub fn complex_sqrt<F: num_traits::Float>(x: F, y: F) -> (F, F) {
    let (zero, one, inf) = (F::zero(), F::one(), F::infinity());
    let half = one / (one + one);
    let (ax, ay) = (x.abs(), y.abs());
    let (max, min) = (ax.max(ay), ax.min(ay));
    let r = min / max;
    let l = if min == zero {
        max
    } else {
        max * (one + r * r).sqrt()
    };
    let rho = (half * (ax + l)).sqrt();
    let eta = if max == zero { zero } else { half * (y / rho) };
    let (re, im) = if x < zero {
        (eta.abs(), rho.abs().copysign(y))
    } else {
        (rho, eta)
    };
    if ay == inf {
        (inf, y)
    } else if ax == inf && x < zero {
        (zero * ay, inf)
    } else if ax == inf {
        (inf, zero * ay)
    } else {
        (re, im)
    }
}

/// The AVX packet width of Eigen's packets of `dtype` as TensorFlow 2.21's CPU build runs
/// them (256-bit registers, no AVX-512: probed, `sign` of a subnormal float32 changes at the
/// ninth element): 8 float32, 4 float64, 8 float16/bfloat16 (`Packet8h`, `Packet8bf`); `None`
/// for another dtype.
///
/// ```
/// use promote::kernel::eigen::avx_packet_width;
/// use promote::DType;
/// assert_eq!(avx_packet_width(DType::Float64), Some(4));
/// assert_eq!(avx_packet_width(DType::Int8), None);
/// ```
pub fn avx_packet_width(dtype: crate::DType) -> Option<usize> {
    use crate::DType;
    match dtype {
        DType::Float32 | DType::Float16 | DType::BFloat16 => Some(8),
        DType::Float64 => Some(4),
        _ => None,
    }
}

/// `sign` of a real as Eigen's packet `psign` computes it
/// (`GenericPacketMathFunctions.h`): `±1` where `0 < |x|`, else `|x|` (a bit operation), the
/// comparison under the CPU's DAZ mode: `sign(-0.0)` is `0.0`, `sign(1e-45)` is `1e-45`,
/// `sign(nan)` a NaN.
///
/// ```
/// use promote::kernel::eigen::packet_sign;
/// assert_eq!(packet_sign(-1e-45f32), 1e-45);
/// assert_eq!(packet_sign(-2.0f64), -1.0);
/// assert_eq!(packet_sign(-0.0f32).to_bits(), 0);
/// ```
pub fn packet_sign<F: num_traits::Float + Flush>(x: F) -> F {
    if F::zero() < x.abs().flush() {
        F::one().copysign(x)
    } else {
        x.abs()
    }
}

/// `sign` of a real as Eigen's scalar `numext::sign` computes it on the elements after the
/// last whole packet: `x` if NaN, else `(x > 0) − (x < 0)` converted, the comparisons under
/// DAZ (`sign(1e-45)` is `0.0`).
///
/// ```
/// use promote::kernel::eigen::scalar_sign;
/// assert_eq!(scalar_sign(1e-45f32), 0.0);
/// assert_eq!(scalar_sign(-3.0f64), -1.0);
/// ```
pub fn scalar_sign<F: num_traits::Float + Flush>(x: F) -> F {
    let v = x.flush();
    if x.is_nan() {
        x
    } else if v > F::zero() {
        F::one()
    } else if v < F::zero() {
        -F::one()
    } else {
        F::zero()
    }
}

/// A subnormal read as zero of its sign (the CPU's DAZ mode on an operand).
pub trait Flush: Copy {
    /// `self`, or a zero of its sign where subnormal.
    fn flush(self) -> Self;
}

impl Flush for f32 {
    fn flush(self) -> f32 {
        if self != 0.0 && self.abs() < f32::MIN_POSITIVE {
            0.0f32.copysign(self)
        } else {
            self
        }
    }
}

impl Flush for f64 {
    fn flush(self) -> f64 {
        if self != 0.0 && self.abs() < f64::MIN_POSITIVE {
            0.0f64.copysign(self)
        } else {
            self
        }
    }
}

/// Eigen's `patan2` of float32 or float64 packets (`GenericPacketMath.h`, as TensorFlow 2.21's
/// `Atan2` runs it on whole AVX packets): `y / x` (`±1` where `|x| == |y|`, `±0` where the
/// bits of `x | y` read as zero), Eigen's `patan` of that, plus `±π` or `±0` (`π` where `x`
/// has its sign bit, the sign of `y`). Every floating-point step runs under the CPU's DAZ/FTZ
/// modes, as TensorFlow's threads do.
///
/// ```
/// use promote::kernel::eigen::EigenAtan;
/// assert_eq!(f64::eigen_atan2(0.0, -1.0), std::f64::consts::PI);
/// assert!((f32::eigen_atan2(1.0, 2.0) - 0.4636476).abs() < 1e-6);
/// ```
pub trait EigenAtan: num_traits::Float + Flush {
    /// `patan_reduced`: Eigen's rational approximation of `atan(x)` for `x` in `[0, 1]`.
    fn atan_reduced(x: Self) -> Self;
    /// `preciprocal` (float32: the fast approximation with a Newton step; float64: `1 / x`).
    fn reciprocal(x: Self) -> Self;
    /// The bits of `a | b`, as a value.
    fn or_bits(a: Self, b: Self) -> Self;
    /// `generic_atan`: `atan(x)` by [`EigenAtan::atan_reduced`] of `|x|` or of its reciprocal.
    fn eigen_atan(x: Self) -> Self {
        let pi_2 = Self::from(std::f64::consts::FRAC_PI_2).expect("a constant");
        let ax = x.abs();
        let large = Self::one() < ax;
        let r = if large { Self::reciprocal(ax) } else { ax };
        let p = Self::atan_reduced(r);
        let p = if large { pi_2 - p } else { p };
        // pxor with the sign of x
        if x.is_sign_negative() {
            -p
        } else {
            p
        }
    }
    /// `patan2(y, x)`, under DAZ/FTZ.
    fn eigen_atan2(y: Self, x: Self) -> Self {
        crate::kernel::xla::under_daz_ftz(|| {
            let pi = Self::from(std::f64::consts::PI).expect("a constant");
            let y_neg = y.is_sign_negative();
            let result_neg = y_neg != x.is_sign_negative();
            let shift = match (x.is_sign_negative(), y_neg) {
                (true, false) => pi,
                (true, true) => -pi,
                (false, false) => Self::zero(),
                (false, true) => -Self::zero(),
            };
            let signed = |v: Self| if result_neg { -v } else { v };
            let arg = if Self::or_bits(x, y) == Self::zero() {
                signed(Self::zero())
            } else if x.abs() == y.abs() {
                signed(Self::one())
            } else {
                y / x
            };
            Self::eigen_atan(arg) + shift
        })
    }
}

impl EigenAtan for f32 {
    #[allow(clippy::excessive_precision)]
    fn atan_reduced(x: f32) -> f32 {
        let alpha = [
            1.120_269_820_094_108_581_542_968_75e-1f32,
            7.296_695_709_228_515_625e-1,
            8.109_951_019_287_109_375e-1,
        ];
        let beta = [
            1.009_171_083_569_526_672_363_281_25e-2f32,
            2.831_856_012_344_360_351_562_5e-1,
            1.0,
            8.109_951_019_287_109_375e-1,
        ];
        let x2 = x * x;
        x * (polevl(x2, &alpha) / polevl(x2, &beta))
    }
    fn reciprocal(x: f32) -> f32 {
        packet_reciprocal(x)
    }
    fn or_bits(a: f32, b: f32) -> f32 {
        f32::from_bits(a.to_bits() | b.to_bits())
    }
}

impl EigenAtan for f64 {
    #[allow(clippy::excessive_precision)]
    fn atan_reduced(x: f64) -> f64 {
        let alpha = [
            2.666_715_386_646_220_8e-5,
            3.091_751_311_246_278_1e-3,
            5.257_429_678_100_860_4e-2,
            3.040_931_847_344_442_4e-1,
            7.536_570_253_498_702_2e-1,
            8.270_405_540_549_461_4e-1,
            3.300_436_128_927_992_0e-1,
        ];
        let beta = [
            2.731_120_246_243_666_7e-4,
            1.089_915_092_896_270_8e-2,
            1.154_893_264_642_035_3e-1,
            4.971_645_872_846_557_3e-1,
            1.0,
            9.370_550_916_858_785_2e-1,
            3.300_436_128_927_992_0e-1,
        ];
        let x2 = x * x;
        x * (polevl(x2, &alpha) / polevl(x2, &beta))
    }
    fn reciprocal(x: f64) -> f64 {
        1.0 / x
    }
    fn or_bits(a: f64, b: f64) -> f64 {
        f64::from_bits(a.to_bits() | b.to_bits())
    }
}

/// Eigen's `ppolevl`: Horner's rule from the highest coefficient, each step a product and a
/// sum rounded apart (no FMA).
fn polevl<F: num_traits::Float>(x: F, coeff: &[F]) -> F {
    coeff[1..].iter().fold(coeff[0], |acc, &c| acc * x + c)
}

/// `exp` of a float32 as the Eigen TensorFlow 2.21 pins computes it in a packet
/// (`pexp_float`, `GenericPacketMathFunctions.h`; AVX without FMA, every step rounded):
/// `x` capped at 88.723, `m = floor(x · log2(e) + ½)`, `r = x − m·ln 2` in two steps, a
/// degree-6 polynomial in even and odd halves, times `2^m`; 0 below −104, then the larger of
/// that and `x` (`exp(inf)` is inf). A subnormal result is flushed to zero by the caller (FTZ).
///
/// ```
/// use promote::kernel::eigen::exp_f32_deg6;
/// assert_eq!(exp_f32_deg6(0.0), 1.0);
/// assert_eq!(exp_f32_deg6(-105.0), 0.0);
/// assert_eq!(exp_f32_deg6(f32::INFINITY), f32::INFINITY);
/// ```
#[allow(clippy::excessive_precision)]
pub fn exp_f32_deg6(x0: f32) -> f32 {
    if x0.is_nan() {
        return x0;
    }
    let madd = |a: f32, b: f32, c: f32| a * b + c;
    let x = x0.min(88.723);
    let m = madd(x, std::f32::consts::LOG2_E, 0.5).floor();
    let r = madd(m, -0.693_359_375, x);
    let r = madd(m, 2.121_944_40e-4, r);
    let r2 = r * r;
    let p_even = madd(
        r2,
        1.374_496_379_867_196_083_068_847_656_25e-3,
        4.166_965_186_595_916_748_046_875e-2,
    );
    let p_odd = madd(
        r2,
        8.368_944_749_236_106_872_558_593_75e-3,
        1.666_651_815_176_010_131_835_937_5e-1,
    );
    let p_even = madd(r2, p_even, 4.999_998_807_907_104_492_187_5e-1);
    let p_low = r + 1.0;
    let y = madd(r, p_odd, p_even);
    let y = madd(r2, y, p_low);
    if x0 < -104.0 {
        return 0.0;
    }
    ((f64::from(y) * 2f64.powi(m as i32)) as f32).max(x0)
}

/// `tanh` of a float32 as Eigen's `generic_fast_tanh_float` computes it
/// (`Eigen/src/Core/MathFunctionsImpl.h` at commit f612df27, Paddle's pinned Eigen), which is
/// also Eigen's scalar `numext::tanh<float>` under `EIGEN_FAST_MATH`: Paddle's float32 `tanh`,
/// packets and tail alike. `x` clamped to ±7.90531 (the bound without FMA), a `|x|` below
/// 0.0004 returned as it is, else an odd degree-13 numerator over an even degree-6
/// denominator, each multiply-add rounded twice. Recorded: 4009 values of `paddle.tanh`, none
/// differs.
///
/// ```
/// use promote::kernel::eigen::fast_tanh_f32;
/// assert_eq!(fast_tanh_f32(1e-5), 1e-5);
/// assert_eq!(fast_tanh_f32(f32::INFINITY), 1.0);
/// assert!(fast_tanh_f32(f32::NAN).is_nan());
/// assert_eq!(fast_tanh_f32(1.732355), 0.9393337); // the C library's is 0.9393336
/// ```
#[allow(clippy::excessive_precision)]
pub fn fast_tanh_f32(a: f32) -> f32 {
    if a.is_nan() {
        return a;
    }
    let x = a.clamp(-7.905_311_107_635_498_05, 7.905_311_107_635_498_05);
    if a.abs() < 0.0004 {
        return x;
    }
    let x2 = x * x;
    let mut p = x2 * -2.760_768_477_423_55e-16 + 2.000_187_904_824_77e-13;
    for c in [
        -8.604_671_522_137_35e-11,
        5.122_297_090_371_14e-8,
        1.485_722_357_179_79e-5,
        6.372_619_288_754_36e-4,
        4.893_524_558_917_86e-3,
    ] {
        p = x2 * p + c;
    }
    let p = x * p;
    let mut q = x2 * 1.198_258_394_667_02e-6 + 1.185_347_056_866_54e-4;
    for c in [2.268_434_632_439_00e-3, 4.893_525_185_543_85e-3] {
        q = x2 * q + c;
    }
    p / q
}

/// `log` of a float32 as Eigen's `plog_float` computes it (`GenericPacketMathFunctions.h`
/// at commit f612df27): `x` raised to the smallest normal, split by `frexp`, the mantissa
/// moved to `[√½, √2)` and less 1, Cephes' degree-8 polynomial in three parts, `− x²/2`,
/// plus `e · ln 2`, each multiply-add rounded twice; 0 gives −inf, inf gives inf, a negative
/// `x` or NaN gives NaN.
///
/// ```
/// use promote::kernel::eigen::log_f32;
/// assert_eq!(log_f32(1.0), 0.0);
/// assert_eq!(log_f32(0.0), f32::NEG_INFINITY);
/// assert!(log_f32(-1.0).is_nan());
/// ```
#[allow(clippy::excessive_precision)]
pub fn log_f32(x0: f32) -> f32 {
    if x0.is_nan() || x0 < 0.0 {
        return f32::NAN;
    }
    if x0 == 0.0 || x0 == f32::INFINITY {
        return if x0 == 0.0 { f32::NEG_INFINITY } else { x0 };
    }
    let madd = |a: f32, b: f32, c: f32| a * b + c;
    let v = x0.max(f32::MIN_POSITIVE);
    // frexp of a normal float: the mantissa in [0.5, 1)
    let e = ((v.to_bits() >> 23) & 0xff) as f32 - 126.0;
    let m = f32::from_bits((v.to_bits() & !0x7f80_0000) | 0.5f32.to_bits());
    let (x, e) = if m < 0.707_106_781_186_547_524 {
        ((m - 1.0) + m, e - 1.0)
    } else {
        (m - 1.0, e)
    };
    let (x2, x3) = (x * x, x * x * x);
    let y = madd(7.037_683_629_2e-2, x, -1.151_461_031_0e-1);
    let y1 = madd(-1.242_014_084_6e-1, x, 1.424_932_278_7e-1);
    let y2 = madd(2.000_071_476_5e-1, x, -2.499_999_399_3e-1);
    let y = madd(y, x, 1.167_699_874_0e-1);
    let y1 = madd(y1, x, -1.666_805_766_5e-1);
    let y2 = madd(y2, x, 3.333_333_117_4e-1);
    let y = madd(y, x3, y1);
    let y = madd(y, x3, y2) * x3;
    let y = madd(-0.5, x2, y);
    madd(e, std::f32::consts::LN_2, x + y)
}

/// `expm1` of a float32 as Eigen's `generic_expm1` computes it on a packet (Paddle's
/// `Expm1Functor`, `x.expm1()`; the elements past the last packet take the C library's):
/// `u = exp(x)` ([`exp_f32`]), `x` where `u` is 1, −1 where `u − 1` is, `u` where `log(u)`
/// is `u` (infinite), else `(u − 1) · (x / log(u))` ([`log_f32`]). Recorded: 4000 values of
/// `paddle.expm1`, none differs.
///
/// ```
/// use promote::kernel::eigen::expm1_f32;
/// assert_eq!(expm1_f32(1e-10), 1e-10);
/// assert_eq!(expm1_f32(-100.0), -1.0);
/// assert_eq!(expm1_f32(f32::INFINITY), f32::INFINITY);
/// ```
pub fn expm1_f32(x: f32) -> f32 {
    let u = exp_f32(x);
    if u == 1.0 {
        return x;
    }
    let um1 = u - 1.0;
    if um1 == -1.0 {
        return -1.0;
    }
    let logu = log_f32(u);
    if logu == u {
        return u;
    }
    um1 * (x / logu)
}
