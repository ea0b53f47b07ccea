//! SLEEF's vectorized functions as PyTorch's CPU kernels run them (`Vectorized<float>::fmod`
//! is `Sleef_fmodf16`, `Vectorized<double>::fmod` is `Sleef_fmodd8`, on its AVX-512 build with
//! FMA), each written after the SLEEF source it reproduces (`src/libm/sleefsimdsp.c`,
//! `src/libm/sleefsimddp.c`, SLEEF 3.6 to 3.9, where these functions are unchanged) and
//! checked bit for bit against `tests/fixtures/eval-ops/torch.jsonl.gz`.
//!
//! ```
//! use promote::kernel::sleef::{fmod_f32, fmod_f64};
//! // SLEEF's quotient overflows the float: fmod(1, 2^-133) is NaN, the C library's is 0
//! assert!(fmod_f32(1.0, 9.0e-41).is_nan());
//! assert_eq!(fmod_f32(100.0, 0.1), 100.0f32 % 0.1);
//! assert_eq!(fmod_f64(-7.5, 2.0), -1.5);
//! ```

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

/// `fmod` of two floats as SLEEF's `xfmodf` (`Sleef_fmodf16`) computes it: exact but where the
/// quotient `|x| / |y|` (both scaled by `2^25` for a subnormal `y`) overflows the float, which
/// gives NaN (`fmod(1, 2^-133)`; the C library's is 0).
pub fn fmod_f32(x: f32, y: f32) -> f32 {
    match remainder(x, y) {
        Err(early) => early,
        Ok(((rx, ry), s, de)) => {
            let sum = rx + ry;
            let ret = if sum == de { 0.0 } else { sum * s };
            mul_sign(ret, x)
        }
    }
}

/// `fmod` of two doubles as SLEEF's `xfmod` (`Sleef_fmodd8`) computes it: exact but where the
/// quotient (both scaled by `2^54` for a subnormal `y`) overflows, which gives NaN; the
/// result is the head of the double-double remainder.
pub fn fmod_f64(x: f64, y: f64) -> f64 {
    match remainder(x, y) {
        Err(early) => early,
        Ok(((rx, ry), s, de)) => {
            let ret = if rx + ry == de { 0.0 } else { rx * s };
            mul_sign(ret, x)
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fmod_matches_c_where_the_quotient_fits() {
        for (x, y) in [(5.5f64, 2.0), (-5.5, 2.0), (1e300, 3.0), (7.0, 1e-310), (0.0, 1.0)] {
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
    }
}
