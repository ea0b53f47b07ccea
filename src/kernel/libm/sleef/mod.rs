//! SLEEF's vectorized functions as PyTorch's and Paddle's CPU kernels run them
//! (`Vectorized<float>::fmod` is `Sleef_fmodf16`, `Vectorized<double>::atan2`
//! `Sleef_atan2d8_u10`, on PyTorch's AVX-512 build with FMA; Paddle's `sin`/`cos` call
//! `Sleef_sinf8_u35`, `Sleef_sind4_u10` of its AVX2 build), each written after the SLEEF source
//! it reproduces (`src/libm/sleefsimdsp.c`, `src/libm/sleefsimddp.c`, SLEEF 3.6 to 3.9, where
//! these functions are unchanged) and checked bit for bit against the frameworks' own SLEEF
//! symbols (called through ctypes on `libtorch_cpu.so`, `libphi_core.so`) and
//! `tests/fixtures/eval-ops/`: `fmod`, `exp`/`log1p`/`logaddexp` here, the double-float
//! arithmetic in `df`, `sin`/`cos` in `trig` (with `rempitab`), `atan2`, float64 `pow`,
//! `expm1` and `sinh`.
//!
//! ```
//! use promote::kernel::libm::sleef::{fmod_f32, fmod_f64};
//! // SLEEF's quotient overflows the float: fmod(1, 2^-133) is NaN, the C library's is 0
//! assert!(fmod_f32(1.0, 9.0e-41).is_nan());
//! assert_eq!(fmod_f32(100.0, 0.1), 100.0f32 % 0.1);
//! assert_eq!(fmod_f64(-7.5, 2.0), -1.5);
//! ```

mod atan2;
mod df;
mod exp;
mod pow;
mod rempitab;
mod trig;

pub use atan2::{atan2_f32, atan2_f64};
pub use exp::{expm1_f64, sinh_f64};
pub use pow::pow_f64;
pub use trig::{packets_f32, packets_f64, Trig};

/// A float type SLEEF's `fmod` runs on (its double-float arithmetic, `df.h`/`dd.h`).
trait SleefFloat: num_traits::Float {
    /// `DBL_MIN`/`FLT_MIN`.
    const MIN_NORMAL: Self;
    /// The scale a subnormal divisor is multiplied by: `2^54` for double, `2^25` for float.
    const SCALE: Self;
    /// The loop's iteration bound: `ceil(log2(MAX) / 52)` for double, `/ 22 + 1` for float.
    const ROUNDS: usize;
    /// The next float toward zero (`vtoward0`: the bits minus one; zero stays zero).
    fn toward0(self) -> Self;
}

impl SleefFloat for f32 {
    const MIN_NORMAL: f32 = f32::MIN_POSITIVE;
    const SCALE: f32 = (1u64 << 25) as f32;
    const ROUNDS: usize = 8;
    fn toward0(self) -> f32 {
        if self == 0.0 {
            0.0
        } else {
            f32::from_bits(self.to_bits().wrapping_sub(1))
        }
    }
}

impl SleefFloat for f64 {
    const MIN_NORMAL: f64 = f64::MIN_POSITIVE;
    const SCALE: f64 = (1u64 << 54) as f64;
    const ROUNDS: usize = 21;
    fn toward0(self) -> f64 {
        if self == 0.0 {
            0.0
        } else {
            f64::from_bits(self.to_bits().wrapping_sub(1))
        }
    }
}

/// `r + x·y` in double-float arithmetic: `dfnormalize(dfadd2(r, dfmul(x, y)))`, the product
/// split exactly by a fused multiply-add (SLEEF's FMA build).
fn add_product<F: SleefFloat>((rx, ry): (F, F), x: F, y: F) -> (F, F) {
    let (px, py) = (x * y, x.mul_add(y, -(x * y)));
    // dfadd2_vf2_vf2_vf2
    let s = rx + px;
    let v = s - rx;
    let t = (rx - (s - v)) + (px - v);
    let (sx, sy) = (s, t + (ry + py));
    // dfnormalize_vf2_vf2
    let n = sx + sy;
    (n, (sx - n) + sy)
}

/// SLEEF's `xfmodf`/`xfmod` loop: the remainder of `|x| / |y|` as a double-float, after
/// scaling both by [`SleefFloat::SCALE`] when `|y|` is subnormal; returns the remainder and
/// the scale to undo, or `None` for SLEEF's early answers (`|x| < |y|`: `x`; `y == 0`: NaN).
fn remainder<F: SleefFloat>(x: F, y: F) -> Result<((F, F), F, F), F> {
    let (mut nu, mut de, mut s) = (x.abs(), y.abs(), F::one());
    if de < F::MIN_NORMAL {
        (nu, de, s) = (nu * F::SCALE, de * F::SCALE, s / F::SCALE);
    }
    if de == F::zero() {
        return Err(F::nan());
    }
    if nu < de {
        return Err(x);
    }
    let rde = (F::one() / de).toward0();
    let (two, three) = (F::one() + F::one(), F::one() + F::one() + F::one());
    let mut r = (nu, F::zero());
    for _ in 0..F::ROUNDS {
        let small = r.0 >= de;
        let q = if two * de > r.0 && small {
            F::one()
        } else if three * de > r.0 && small {
            two
        } else {
            (r.0.toward0() * rde).trunc()
        };
        r = add_product(r, q.trunc(), -de);
        // the vector loop stops once every lane is below `de`; a finished lane's further
        // rounds add `0 · de` and leave it as it is
        if r.0 < de {
            break;
        }
    }
    Ok((r, s, de))
}

/// The NaN bits SLEEF's `fmod` loop leaves of NaN bits `m`: each of its `rounds` takes
/// `vtoward0` (the bits minus one) of the NaN and the next AVX-512 operation quiets it.
fn toward0_rounds(mut m: u64, rounds: u32, quiet: u64) -> u64 {
    for _ in 0..rounds {
        m = (m - 1) | quiet;
    }
    m
}

/// `fmod` of two floats as SLEEF's `xfmodf` (`Sleef_fmodf16`) computes it: exact but where the
/// quotient `|x| / |y|` (both scaled by `2^25` for a subnormal `y`) overflows the float, which
/// gives NaN (`fmod(1, 2^-133)`; the C library's is 0). Its NaNs are the bits `libtorch_cpu.so`'s
/// `Sleef_fmodf16` returns (probed on 35,000 random operands, every one reproduced): `+nan` for
/// a zero `y`; a NaN `x` one round of the loop's `vtoward0` below itself (`0x7fc00000` →
/// `0x7fffffff`), `x`'s sign kept; a NaN `y` two rounds below itself, `x`'s sign applied; an
/// infinite `x` or an overflowing quotient the default NaN one round below (all ones), `x`'s
/// sign applied.
pub fn fmod_f32(x: f32, y: f32) -> f32 {
    const SIGN: u32 = 0x8000_0000;
    const QUIET: u64 = 0x40_0000;
    let sign = x.to_bits() & SIGN;
    let (ax, ay) = (x.to_bits() & !SIGN, y.to_bits() & !SIGN);
    let bits = |m: u64| f32::from_bits(m as u32);
    if ay == 0 {
        return f32::NAN;
    }
    if x.is_nan() {
        return bits(toward0_rounds(ax as u64, 1, QUIET) | sign as u64);
    }
    if y.is_nan() {
        return bits(toward0_rounds(ay as u64, 2, QUIET) ^ sign as u64);
    }
    let r = match remainder(x, y) {
        Err(early) => early,
        Ok(((rx, ry), s, de)) => {
            let sum = rx + ry;
            let ret = if sum == de { 0.0 } else { sum * s };
            mul_sign(ret, x)
        }
    };
    if x.is_infinite() || r.is_nan() {
        return bits(toward0_rounds(0xffc0_0000, 1, QUIET) ^ sign as u64);
    }
    r
}

/// `fmod` of two doubles as SLEEF's `xfmod` (`Sleef_fmodd8`) computes it: exact but where the
/// quotient (both scaled by `2^54` for a subnormal `y`) overflows, which gives NaN; the
/// result is the head of the double-double remainder. Its NaNs, as `libtorch_cpu.so`'s
/// `Sleef_fmodd8` returns them (probed on 35,000 random operands): `+nan` for a zero `y`; a
/// NaN `y` (before a NaN `x`) quieted with the sign bit set, then `x`'s sign applied; a NaN `x`
/// 21 rounds of `vtoward0` below itself, its sign kept; an infinite `x` or an overflowing
/// quotient the default NaN 20 rounds below (`0xffffffffffffffec`), `x`'s sign applied.
pub fn fmod_f64(x: f64, y: f64) -> f64 {
    const SIGN: u64 = 1 << 63;
    const QUIET: u64 = 1 << 51;
    let sign = x.to_bits() & SIGN;
    let (ax, ay) = (x.to_bits() & !SIGN, y.to_bits() & !SIGN);
    if ay == 0 {
        return f64::NAN;
    }
    if y.is_nan() {
        return f64::from_bits((ay | QUIET | SIGN) ^ sign);
    }
    if x.is_nan() {
        return f64::from_bits(toward0_rounds(ax, 21, QUIET) | sign);
    }
    let r = match remainder(x, y) {
        Err(early) => early,
        Ok(((rx, ry), s, de)) => {
            let ret = if rx + ry == de { 0.0 } else { rx * s };
            mul_sign(ret, x)
        }
    };
    if x.is_infinite() || r.is_nan() {
        return f64::from_bits(toward0_rounds(0xfff8_0000_0000_0000, 20, QUIET) ^ sign);
    }
    r
}

/// `x` with its sign flipped where `y` is negative (`vmulsign`: a sign-bit XOR).
fn mul_sign<F: SleefFloat>(x: F, y: F) -> F {
    if y.is_sign_negative() {
        -x
    } else {
        x
    }
}

/// The float32 `|x|` above which SLEEF's `xsinhf` (`Sleef_sinhf16_u10`) answers `±inf`: it
/// computes `exp` as a double-float, so it stays finite up to 89 where the float `exp`
/// overflows at about 88.72 (`sinh(89.0)` is `2.2448064e38`).
pub const SINH_F32_LIMIT: u32 = 89;

/// `vpow2i_vd_vi`: `2^q` from the exponent field, the low 12 bits of `q + 0x3ff` shifted in.
fn pow2i(q: i32) -> f64 {
    f64::from_bits((i64::from(q.wrapping_add(0x3ff)) as u64) << 52)
}

/// `vldexp2_vd_vd_vi`: `d · 2^q` in two halves.
fn ldexp2(d: f64, q: i32) -> f64 {
    d * pow2i(q >> 1) * pow2i(q - (q >> 1))
}

/// `exp` of a double as SLEEF's `xexp` (`Sleef_expd8_u10`, FMA build) computes it:
/// `q = rint(d / ln 2)`, `s = d − q·ln 2` in two fused steps, a degree-10 polynomial in
/// Estrin's scheme (`POLY10`), three fused steps, times `2^q` in two halves (`vldexp2`); inf
/// above `ln(DBL_MAX)`, 0 below −1000.
#[allow(clippy::excessive_precision)]
pub fn exp_f64(d: f64) -> f64 {
    if d.is_nan() {
        return d;
    }
    if d > 709.782_712_893_384 {
        return f64::INFINITY;
    }
    if d < -1000.0 {
        return 0.0;
    }
    let u = (d * std::f64::consts::LOG2_E).round_ties_even();
    let q = u as i32;
    let s = u.mul_add(-0.693_147_180_559_662_956_511_601_805_686_950_683_593_75, d);
    let s = u.mul_add(
        -0.282_352_905_630_315_771_225_884_481_750_134_360_255_254_120_68e-12,
        s,
    );
    let s2 = s * s;
    let (s4, poly4) = (s2 * s2, |c: [f64; 4]| {
        s2.mul_add(s.mul_add(c[0], c[1]), s.mul_add(c[2], c[3]))
    });
    let p8 = s4.mul_add(
        poly4([
            0.2755762628169491192e-6,
            0.2755723402025388239e-5,
            0.2480158687479686264e-4,
            0.1984126989855865850e-3,
        ]),
        poly4([
            0.1388888888914497797e-2,
            0.8333333333314938210e-2,
            0.4166666666666602598e-1,
            0.1666666666666669072e+0,
        ]),
    );
    let u = (s4 * s4).mul_add(
        s.mul_add(0.2081276378237164457e-8, 0.2511210703042288022e-7),
        p8,
    );
    let u = u.mul_add(s, 0.5).mul_add(s, 1.0).mul_add(s, 1.0);
    ldexp2(u, q)
}

/// `floor(log2(|y|))` of a finite nonzero double, subnormals included (`vgetexp`).
fn get_exp(y: f64) -> i32 {
    let bits = y.abs().to_bits();
    match (bits >> 52) as i32 {
        0 => 63 - bits.leading_zeros() as i32 - 1074,
        e => e - 1023,
    }
}

/// `log1p` of a double as SLEEF's `xlog1p` (`Sleef_log1pd8_u10`, its AVX-512 branch with FMA)
/// computes it: `1 + d = 2^e · (1 + m)` with `e` from `getexp((1 + d) / 0.75)`, then
/// `e·ln 2 + 2·atanh(m / (2 + m))` in double-double arithmetic with a degree-7 polynomial.
/// Above `1e307` SLEEF switches to its `log_u1`; the C library's `log1p` stands in there.
#[allow(clippy::excessive_precision)]
pub fn log1p_f64(d: f64) -> f64 {
    if d.is_nan() || d < -1.0 {
        return f64::NAN;
    }
    if d == -1.0 {
        return f64::NEG_INFINITY;
    }
    if d == 0.0 {
        return d;
    }
    if d > 1e307 {
        return d.ln_1p();
    }
    let e = get_exp((d + 1.0) * (1.0 / 0.75));
    let t = pow2i(-e);
    let m = d.mul_add(t, t - 1.0);
    let e = f64::from(e);
    // s = (ln 2 as a double-double) · e
    let (l2h, l2l): (f64, f64) = (
        std::f64::consts::LN_2,
        2.319_046_813_846_299_558_417_771e-17,
    );
    let sx = l2h * e;
    let sy = l2l.mul_add(e, l2h.mul_add(e, -sx));
    // x = m / (2 + m), a double-double quotient (dddiv of (m, 0) by ddadd(2, m))
    let dx = 2.0 + m;
    let dy = (2.0 - dx) + m;
    let r = 1.0 / dx;
    let q = m * r;
    let u = r.mul_add(m, -q);
    let v = (-dy).mul_add(r, (-dx).mul_add(r, 1.0));
    let (xx, xy) = (q, q.mul_add(v, 0.0f64.mul_add(r, u)));
    let x2 = xx * xx;
    let (x4, x8) = (x2 * x2, x2 * x2 * (x2 * x2));
    let p3 = x4.mul_add(
        0.1532076988502701353e+0,
        x2.mul_add(0.1525629051003428716e+0, 0.1818605932937785996e+0),
    );
    let p4 = x4.mul_add(
        x2.mul_add(0.2222214519839380009e+0, 0.2857142932794299317e+0),
        x2.mul_add(0.3999999999635251990e+0, 0.6666666666667333541e+0),
    );
    let poly = x8.mul_add(p3, p4);
    // s + 2x (ddadd of double-doubles), then + x³·poly (ddadd of a double)
    let (yx, yy) = (xx * 2.0, xy * 2.0);
    let h = sx + yx;
    let (sx, sy) = (h, (((sx - h) + yx) + sy) + yy);
    let w = x2 * xx * poly;
    let h = sx + w;
    h + (((sx - h) + w) + sy)
}

/// `logaddexp` of doubles as PyTorch's vectorized kernel computes it
/// (`aten/src/ATen/native/cpu/BinaryOpsKernel.cpp`: `m + log1p(exp(−|a − b|))` with SLEEF's
/// `exp` and `log1p`, `a` where both are the same infinity; `m` the maximum, NaN if either is).
pub fn logaddexp_f64(a: f64, b: f64) -> f64 {
    if a.is_infinite() && a == b {
        return a;
    }
    let m = if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    };
    m + log1p_f64(exp_f64(-(a - b).abs()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fmod_matches_c_where_the_quotient_fits() {
        for (x, y) in [
            (5.5f64, 2.0),
            (-5.5, 2.0),
            (1e300, 3.0),
            (1e-300, 1e-310),
            (0.0, 1.0),
        ] {
            assert_eq!(fmod_f64(x, y).to_bits(), (x % y).to_bits(), "{x} {y}");
            let (a, b) = (x as f32, y as f32);
            if b != 0.0 && (a / b).is_finite() {
                assert_eq!(fmod_f32(a, b).to_bits(), (a % b).to_bits(), "{a} {b}");
            }
        }
        assert_eq!(fmod_f32(3.0, f32::INFINITY), 3.0);
        assert!(fmod_f32(f32::INFINITY, 3.0).is_nan());
        assert!(fmod_f32(3.0, 0.0).is_nan());
        assert!(fmod_f32(1.0, 1e-45).is_nan());
        // the scaled quotient 7·2^54 / (1e-310·2^54) overflows: SLEEF's NaN, the C library's is exact
        assert!(fmod_f64(7.0, 1e-310).is_nan());
    }

    /// The NaNs `libtorch_cpu.so`'s `Sleef_fmodf16` and `Sleef_fmodd8` return (probed through
    /// `torch.fmod` on vector elements of float32/float64 arrays).
    #[test]
    fn fmod_nans_are_sleefs() {
        let f32s = |x: u32, y: u32| fmod_f32(f32::from_bits(x), f32::from_bits(y)).to_bits();
        for (x, y, want) in [
            (0x7fc0_0000, 0x3f80_0000, 0x7fff_ffff), // nan, 1
            (0xffc0_0000, 0x3f80_0000, 0xffff_ffff), // -nan, 1
            (0x7fc0_1234, 0xc020_0000, 0x7fc0_1233), // a payload, -2.5
            (0x7f80_0001, 0x3f80_0000, 0x7fc0_0000), // a signalling NaN, 1
            (0xffc0_0000, 0x0000_0000, 0x7fc0_0000), // -nan, 0: SLEEF_NANf
            (0x3f80_0000, 0x7fc0_0000, 0x7fff_fffe), // 1, nan
            (0xc020_0000, 0x7fc0_1234, 0xffc0_1232), // -2.5, a payload
            (0x7f80_0000, 0x3f80_0000, 0xffff_ffff), // inf, 1
            (0xff80_0000, 0xc020_0000, 0x7fff_ffff), // -inf, -2.5
            (0x3f80_0000, 0x0000_0003, 0xffff_ffff), // 1, 4e-45: the quotient overflows
            (0xc020_0000, 0x0000_0003, 0x7fff_ffff), // -2.5, 4e-45
        ] {
            assert_eq!(f32s(x, y), want, "{x:#x} {y:#x}");
        }
        let f64s = |x: u64, y: u64| fmod_f64(f64::from_bits(x), f64::from_bits(y)).to_bits();
        for (x, y, want) in [
            (
                0x7ff0_0000_0000_0000,
                0x3ff0_0000_0000_0000,
                0xffff_ffff_ffff_ffec,
            ), // inf, 1
            (
                0xfff0_0000_0000_0000,
                0x0007_6f90_0fae_eb92,
                0x7fff_ffff_ffff_ffec,
            ), // -inf, subnormal
            (
                0x7ff7_14c2_4ac2_a4e1,
                0x781e_c92e_9ac4_9e73,
                0x7fff_14c2_4ac2_a4cc,
            ), // a NaN x
            (
                0x737b_9b6b_b522_c329,
                0x7fff_87cb_f7fc_44fb,
                0xffff_87cb_f7fc_44fb,
            ), // a NaN y
            (
                0x7ff6_a823_1448_df98,
                0x7ff5_2e29_3439_4cf9,
                0xfffd_2e29_3439_4cf9,
            ), // both: y's
            (
                0x8000_0000_0000_0001,
                0x0000_0000_0000_0000,
                0x7ff8_0000_0000_0000,
            ), // by zero
        ] {
            assert_eq!(f64s(x, y), want, "{x:#x} {y:#x}");
        }
    }

    /// Values SLEEF gives that the C library does not (probed on `libtorch_cpu.so`'s
    /// `Sleef_atan2f16_u10`, `Sleef_atan2d8_u10`, `Sleef_powd8_u10`, `Sleef_expm1d8_u10`,
    /// `Sleef_sinhd8_u10`).
    #[test]
    fn probed_values() {
        let f = f32::from_bits;
        assert_eq!(
            atan2_f32(f(0x40a8dac1), f(0x40eb7d38)).to_bits(),
            0x3f1f3fed
        );
        assert_eq!(
            atan2_f32(f(0xc0f4bebd), f(0x40bf5a5f)).to_bits(),
            0xbf683fc8
        );
        let d = f64::from_bits;
        let (y, x) = (d(0xc0229c76188b6a45), d(0xc011c1f92d62c15a));
        assert_eq!(atan2_f64(y, x).to_bits(), 0xc00020a18aba2d47);
        let (a, b) = (d(0x40180f57dac799ef), d(0xc00688f3bb1e5b3c));
        assert_eq!(pow_f64(a, b).to_bits(), 0x3f7a24a19c0fa8f4);
        let (a, b) = (d(0x4022f77111ff16b8), d(0x40137280f4cc61ae));
        assert_eq!(pow_f64(a, b).to_bits(), 0x40eb71fe99667569);
        assert_eq!(
            expm1_f64(d(0x4076d7cfcef6af8e)).to_bits(),
            0x60e3893778096e27
        );
        assert_eq!(
            sinh_f64(d(0x4083de89714b0982)).to_bits(),
            0x7933909a3dbd6b51
        );
        // NaN operands give the NaN with every bit set
        assert_eq!(atan2_f32(f32::NAN, 0.0).to_bits(), u32::MAX);
        assert_eq!(pow_f64(f64::NAN, 2.0).to_bits(), u64::MAX);
    }

    #[test]
    fn exp_and_log1p_within_an_ulp_of_c() {
        let ulps = |a: f64, b: f64| (a.to_bits() as i64 - b.to_bits() as i64).unsigned_abs();
        for d in [
            -745.0, -20.5, -1.0, -1e-7, 0.0, 1e-300, 0.5, 1.0, 2.5, 700.0,
        ] {
            assert!(ulps(exp_f64(d), d.exp()) <= 1, "exp {d}");
        }
        for d in [
            -0.999, -0.5, -1e-9, 1e-300, 1e-7, 0.3, 1.0, 7.0, 1e10, 1e300,
        ] {
            assert!(ulps(log1p_f64(d), d.ln_1p()) <= 1, "log1p {d}");
        }
        assert_eq!(exp_f64(-1001.0), 0.0);
        assert_eq!(log1p_f64(-1.0), f64::NEG_INFINITY);
        assert_eq!(log1p_f64(-0.0).to_bits(), (-0.0f64).to_bits());
        assert_eq!(
            logaddexp_f64(f64::NEG_INFINITY, f64::NEG_INFINITY),
            f64::NEG_INFINITY
        );
    }
}
