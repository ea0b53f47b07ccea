//! Eigen's packet math functions, as Paddle's CPU kernels run them (its Eigen expressions,
//! vectorized for AVX without FMA): each is written after the Eigen source it reproduces and
//! checked bit for bit against `tests/fixtures/eval-ops/paddle.jsonl.gz`.
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
/// `r`, refined once to `r · fma(−x, r, 2)` unless that is NaN (`x` zero or infinite); a
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
    let t = (-x).mul_add(r, 2.0);
    if t.is_nan() {
        r
    } else {
        r * t
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
