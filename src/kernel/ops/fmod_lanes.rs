//! PyTorch's float `fmod`, `remainder` and `floor_divide` on the elements its vectorized loop
//! covers ([`OpSemantics::fmod_lane_bytes`](super::OpSemantics::fmod_lane_bytes)): the kernels
//! of `aten/src/ATen/native/cpu/BinaryOpsKernel.cpp` at torch 2.15 (`fmod_kernel`,
//! `remainder_kernel`, `div_floor_floating_vec`) compute there with `Vectorized<T>`, whose
//! `fmod` is SLEEF's (`Sleef_fmodf16`, `Sleef_fmodd8`, [`crate::kernel::libm::sleef::fmod_f32`]) and
//! whose arithmetic is AVX-512's: a NaN operand comes out quieted (the first one where both
//! are), an invalid operation gives the default NaN (negative), and a float16/bfloat16 step
//! converts to float32 and back after every operation (`vcvtps2ph`; bfloat16's
//! `cvtfp32_bf16`, whose NaN is `0xffff`). The other elements (the scalar tail, `c10`'s
//! `div_floor_floating` and `std::fmod`) are the kernel's own; `apply` recomputes the vector
//! ones after it.
//!
//! ```
//! use promote::kernel::ops::fmod_lanes::{vector_lane, LaneOp};
//! // floor_divide(inf, 1): SLEEF's fmod of inf is its all-ones NaN, which the quotient keeps
//! assert_eq!(vector_lane(LaneOp::FloorDivide, f32::INFINITY, 1.0, &|x| x).to_bits(), 0xffff_ffff);
//! // where SLEEF's quotient overflows, `div_floor_floating_vec` divides `a` itself
//! assert_eq!(vector_lane(LaneOp::FloorDivide, 1.0f32, 1e-45, &|x| x), f32::INFINITY);
//! ```

use crate::kernel::array::{Element, View, ViewMut};
use crate::DType;
use half::{bf16, f16};
use num_traits::Float;

/// The op of a vector lane.
///
/// ```
/// use promote::kernel::ops::fmod_lanes::LaneOp;
/// assert_eq!(LaneOp::named("remainder"), Some(LaneOp::Remainder));
/// assert_eq!(LaneOp::named("add"), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneOp {
    /// `a.fmod(b)`.
    Fmod,
    /// `remainder_kernel`'s vector lambda: `fmod`, plus `b` where the signs differ.
    Remainder,
    /// `div_floor_floating_vec`.
    FloorDivide,
}

impl LaneOp {
    /// The lane op of a kernel name.
    ///
    /// ```
    /// use promote::kernel::ops::fmod_lanes::LaneOp;
    /// assert_eq!(LaneOp::named("floor_divide"), Some(LaneOp::FloorDivide));
    /// ```
    pub fn named(kernel: &str) -> Option<LaneOp> {
        match kernel {
            "fmod" => Some(LaneOp::Fmod),
            "remainder" => Some(LaneOp::Remainder),
            "floor_divide" => Some(LaneOp::FloorDivide),
            _ => None,
        }
    }
}

/// A float type the vector lanes compute in (float32 for the half types), with AVX-512's
/// NaN rules.
///
/// ```
/// use promote::kernel::ops::fmod_lanes::LaneFloat;
/// assert_eq!(<f32 as LaneFloat>::DEFAULT_NAN.to_bits(), 0xffc0_0000);
/// assert_eq!(f32::from_bits(0x7f80_0001).quiet().to_bits(), 0x7fc0_0001);
/// assert_eq!(<f64 as LaneFloat>::sleef_fmod(7.5, 2.0), 1.5);
/// ```
pub trait LaneFloat: num_traits::Float {
    /// x86's default NaN (the negative quiet NaN) an invalid operation gives.
    const DEFAULT_NAN: Self;
    /// Where `|a / b|` is below this, SLEEF's `fmod` is exact and the vector formulas give the
    /// scalar tail's values.
    const EXACT_QUOTIENT: Self;
    /// The NaN with its quiet bit set.
    fn quiet(self) -> Self;
    /// SLEEF's `fmod` as `Vectorized<T>::fmod` runs it, NaNs included.
    fn sleef_fmod(a: Self, b: Self) -> Self;
}

impl LaneFloat for f32 {
    const DEFAULT_NAN: f32 = f32::from_bits(0xffc0_0000);
    const EXACT_QUOTIENT: f32 = 1.0e30;
    fn quiet(self) -> f32 {
        f32::from_bits(self.to_bits() | 0x0040_0000)
    }
    fn sleef_fmod(a: f32, b: f32) -> f32 {
        crate::kernel::libm::sleef::fmod_f32(a, b)
    }
}

impl LaneFloat for f64 {
    const DEFAULT_NAN: f64 = f64::from_bits(0xfff8_0000_0000_0000);
    const EXACT_QUOTIENT: f64 = 1.0e300;
    fn quiet(self) -> f64 {
        f64::from_bits(self.to_bits() | 0x0008_0000_0000_0000)
    }
    fn sleef_fmod(a: f64, b: f64) -> f64 {
        crate::kernel::libm::sleef::fmod_f64(a, b)
    }
}

/// `f(a, b)` as an AVX-512 instruction computes it: a NaN operand quieted (the first where both
/// are), the default NaN for an invalid operation.
fn x86<W: LaneFloat>(a: W, b: W, f: impl Fn(W, W) -> W) -> W {
    if a.is_nan() {
        a.quiet()
    } else if b.is_nan() {
        b.quiet()
    } else {
        let r = f(a, b);
        if r.is_nan() {
            W::DEFAULT_NAN
        } else {
            r
        }
    }
}

/// One vector lane of `op` on `a` and `b` (widened), `round` applied after every step (a
/// float16/bfloat16 `Vectorized` rounds each operation's float32 result to its type; the
/// identity for float32, float64 and the steps computed in float32 lanes).
///
/// ```
/// use promote::kernel::ops::fmod_lanes::{vector_lane, LaneOp};
/// // a NaN remainder of a negative divisor: `mod + b` keeps the NaN
/// let r = vector_lane(LaneOp::Remainder, f64::NAN, -2.0, &|x| x);
/// assert!(r.is_nan());
/// ```
pub fn vector_lane<W: LaneFloat>(op: LaneOp, a: W, b: W, round: &impl Fn(W) -> W) -> W {
    let zero = W::zero();
    let add = |x: W, y: W| round(x86(x, y, |p, q| p + q));
    let fmod = round(W::sleef_fmod(a, b));
    // `(mod != zero) & ((b < zero) ^ (mod < zero))`: `!=` is unordered, `<` ordered
    let differ = !(fmod == zero) && ((b < zero) != (fmod < zero));
    match op {
        LaneOp::Fmod => fmod,
        LaneOp::Remainder if differ => add(fmod, b),
        LaneOp::Remainder => fmod,
        LaneOp::FloorDivide => floor_divide_steps(a, b, fmod, true, round),
    }
}

/// `div_floor_floating_vec` (`fix`: with its fix-up for an infinite `a / b` of a finite `a`)
/// or `c10::div_floor_floating` (without), given the `fmod` of `a` and `b`, `round` after
/// every step.
fn floor_divide_steps<W: LaneFloat>(a: W, b: W, fmod: W, fix: bool, round: &impl Fn(W) -> W) -> W {
    let (zero, one) = (W::zero(), W::one());
    let add = |x: W, y: W| round(x86(x, y, |p, q| p + q));
    let sub = |x: W, y: W| round(x86(x, y, |p, q| p - q));
    let div = |x: W, y: W| round(x86(x, y, |p, q| p / q));
    let differ = !(fmod == zero) && ((b < zero) != (fmod < zero));
    let basic = div(a, b);
    // "Fixup for a case that isn't properly handled by Sleef_fmod"
    let fixed = fix && basic.abs() == W::infinity() && a.abs() != W::infinity();
    let mut quotient = div(if fixed { a } else { sub(a, fmod) }, b);
    if differ {
        quotient = sub(quotient, one);
    }
    let floored = if quotient.is_nan() {
        quotient.quiet()
    } else {
        round(quotient.floor())
    };
    let mut result = floored;
    if sub(quotient, floored) > one / (one + one) {
        result = add(floored, one);
    }
    if quotient == zero {
        result = zero.copysign(basic);
    }
    if b == zero {
        result = basic;
    }
    result
}

/// An element type of the vector lanes: widened to the lanes' float type and back as
/// `Vectorized<T>` converts it.
trait Lane: Element + Copy {
    /// The float type the lanes compute in.
    type W: LaneFloat;
    /// A float32/float64 lane: SLEEF is exact and the formulas are the scalar tail's where the
    /// quotient is small ([`LaneFloat::EXACT_QUOTIENT`]), so those lanes keep the kernel's value.
    const PLAIN: bool;
    /// `remainder` computes in float32 lanes, rounded once (`remainder_kernel`'s bfloat16
    /// branch), not step by step.
    const REMAINDER_WIDE: bool;
    fn widen(self) -> Self::W;
    fn narrow(w: Self::W) -> Self;
}

impl Lane for f32 {
    type W = f32;
    const PLAIN: bool = true;
    const REMAINDER_WIDE: bool = false;
    fn widen(self) -> f32 {
        self
    }
    fn narrow(w: f32) -> f32 {
        w
    }
}

impl Lane for f64 {
    type W = f64;
    const PLAIN: bool = true;
    const REMAINDER_WIDE: bool = false;
    fn widen(self) -> f64 {
        self
    }
    fn narrow(w: f64) -> f64 {
        w
    }
}

impl Lane for f16 {
    type W = f32;
    const PLAIN: bool = false;
    const REMAINDER_WIDE: bool = false;
    /// `vcvtph2ps`: exact; a NaN's payload moves up, its quiet bit set.
    fn widen(self) -> f32 {
        self.to_f32()
    }
    /// `vcvtps2ph` (round to nearest even): a NaN keeps its sign and the payload's top bits.
    fn narrow(w: f32) -> f16 {
        if w.is_nan() {
            let b = w.to_bits();
            f16::from_bits(((b >> 16) & 0x8000) as u16 | 0x7e00 | ((b >> 13) & 0x3ff) as u16)
        } else {
            f16::from_f32(w)
        }
    }
}

impl Lane for bf16 {
    type W = f32;
    const PLAIN: bool = false;
    const REMAINDER_WIDE: bool = true;
    fn widen(self) -> f32 {
        f32::from_bits((self.to_bits() as u32) << 16)
    }
    /// `cvtfp32_bf16` (aten/src/ATen/cpu/vec/vec512/vec512_bfloat16.h): round to nearest
    /// even by an integer add, `0xffff` for every NaN.
    fn narrow(w: f32) -> bf16 {
        if w.is_nan() {
            return bf16::from_bits(0xffff);
        }
        let b = w.to_bits();
        bf16::from_bits((b.wrapping_add(0x7fff + ((b >> 16) & 1)) >> 16) as u16)
    }
}

/// Recompute the elements of `out` (the result of kernel `op` in `compute` from `inputs`) that
/// PyTorch's vectorized loop covers, `bytes` of the compute dtype a step: the first
/// `n − n mod (bytes / size)`. Nothing for other ops, a result not of the compute dtype, or
/// `bytes == 0`.
pub(crate) fn apply(bytes: usize, op: &str, compute: DType, inputs: &[View<'_>], out: ViewMut<'_>) {
    let Some(op) = LaneOp::named(op) else {
        return;
    };
    if bytes == 0 || out.dtype() != compute || inputs.len() != 2 {
        return;
    }
    match out {
        ViewMut::Float16(o) => lanes(op, bytes, inputs, o),
        ViewMut::BFloat16(o) => lanes(op, bytes, inputs, o),
        ViewMut::Float32(o) => lanes(op, bytes, inputs, o),
        ViewMut::Float64(o) => lanes(op, bytes, inputs, o),
        _ => {}
    }
}

fn lanes<T: Lane>(op: LaneOp, bytes: usize, inputs: &[View<'_>], out: &mut [T]) {
    let n = out.len();
    let step = (bytes / T::DTYPE.itemsize()).max(1);
    let body = n - n % step;
    let half_tail = op == LaneOp::FloorDivide && !T::PLAIN;
    if body == 0 && !half_tail {
        return;
    }
    // the operands in the compute dtype
    let cast: Vec<Option<crate::kernel::array::Array>> = inputs
        .iter()
        .map(|v| (v.dtype() != T::DTYPE).then(|| crate::kernel::cast::cast_array(*v, T::DTYPE)))
        .collect();
    let operand = |k: usize| -> &[T] {
        let v = cast[k].as_ref().map_or(inputs[k], |a| a.view());
        T::slice(v).expect("an operand in the compute dtype")
    };
    let (x, y) = (operand(0), operand(1));
    let at = |s: &[T], i: usize| if s.len() == 1 { s[0] } else { s[i] };
    // `div_floor_kernel` of a float16/bfloat16 `a` by a broadcast `b` (`iter.is_scalar(2)`)
    // runs `div_floor_floating_vec` on float32 lanes (`binary_op_scalar`), rounded once
    let wide = match op {
        LaneOp::Fmod => true,
        LaneOp::Remainder => T::REMAINDER_WIDE || T::PLAIN,
        LaneOp::FloorDivide => T::PLAIN || (y.len() == 1 && n > 1),
    };
    let step_round = |w: T::W| T::narrow(w).widen();
    for (i, o) in out[..body].iter_mut().enumerate() {
        let (a, b) = (at(x, i).widen(), at(y, i).widen());
        let small = a.is_finite() && b.is_finite() && b != <T::W as num_traits::Zero>::zero();
        if T::PLAIN && small && (a / b).abs() < T::W::EXACT_QUOTIENT {
            continue;
        }
        let w = if wide {
            vector_lane(op, a, b, &|w| w)
        } else {
            vector_lane(op, a, b, &step_round)
        };
        *o = T::narrow(w);
    }
    // the scalar tail of a float16/bfloat16 `floor_divide` by an array: `c10::div_floor_floating`
    // on `c10::Half`/`c10::BFloat16`, every step rounded to the type (a broadcast divisor and a
    // one-element call take `iter.is_scalar(2)`'s float32 path: the kernel's values); probed
    // (float16 6.074 // -0.0013: -4668 in a 31-element array, -4672 alone)
    if half_tail && n > 1 && y.len() == n {
        for i in body..n {
            let (a, b) = (at(x, i).widen(), y[i].widen());
            if a.is_finite() && b.is_finite() && b != <T::W as num_traits::Zero>::zero() {
                let fmod = step_round(a % b);
                out[i] = T::narrow(floor_divide_steps(a, b, fmod, false, &step_round));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `op` of `n` copies of `(a, b)` over a kernel's result `tail` (the scalar code's value):
    /// the lanes as [`apply`] leaves them.
    fn run<T: Element>(op: &str, a: T, b: T, tail: T, n: usize) -> Vec<T> {
        let (x, y) = (T::array(vec![a; n]), T::array(vec![b; n]));
        let mut out = T::array(vec![tail; n]);
        apply(64, op, T::DTYPE, &[x.view(), y.view()], out.view_mut());
        T::slice(out.view()).unwrap().to_vec()
    }

    #[test]
    fn the_vector_lanes_are_one_register_a_step() {
        // torch.floor_divide(inf, 1) of 17 float32: 16 vector lanes (SLEEF's all-ones NaN), the
        // last the scalar code's -nan
        let got = run(
            "floor_divide",
            f32::INFINITY,
            1.0,
            f32::from_bits(0xffc0_0000),
            17,
        );
        let bits: Vec<u32> = got.iter().map(|v| v.to_bits()).collect();
        assert_eq!(bits[..16], [0xffff_ffff; 16]);
        assert_eq!(bits[16], 0xffc0_0000);
        // float64: 8 a step
        let got = run("remainder", 1.0f64, 0.0, 0.5, 9);
        assert!(got[..8]
            .iter()
            .all(|v| v.to_bits() == 0x7ff8_0000_0000_0000));
        assert_eq!(got[8], 0.5);
        // no lane below one register
        assert_eq!(
            run("fmod", f16::INFINITY, f16::ONE, f16::ZERO, 31),
            vec![f16::ZERO; 31]
        );
    }

    #[test]
    fn probed_half_lanes() {
        // torch 2.15, vector elements of float16 arrays (tools: torch.fmod/remainder)
        let h = f16::from_bits;
        let fmod = run("fmod", h(0xffca), h(0x2ded), h(0), 32);
        assert_eq!(fmod[0].to_bits(), 0xffc9);
        let rem = run("remainder", h(0xcdfa), h(0x7dad), h(0), 32);
        assert_eq!(rem[0].to_bits(), 0xffac);
        // bfloat16: every NaN of a lane is 0xffff
        let b = bf16::from_bits;
        let rem = run("remainder", b(0x3f80), b(0x0000), b(0x7fc0), 32);
        assert_eq!(rem[0].to_bits(), 0xffff);
    }

    #[test]
    fn a_half_tail_divides_step_by_step() {
        // torch.floor_divide of float16 6.074 by -0.0013: -4668 in a 31-element array (every
        // step rounded to float16), -4672 alone (float32, rounded once: the kernel's)
        let (a, b) = (f16::from_bits(0x4613), f16::from_bits(0x9554));
        let got = run("floor_divide", a, b, f16::from_bits(0xec90), 31);
        assert!(got.iter().all(|v| v.to_bits() == 0xec8f));
        assert_eq!(
            run("floor_divide", a, b, f16::from_bits(0xec90), 1)[0].to_bits(),
            0xec90
        );
    }

    #[test]
    fn finite_lanes_with_a_small_quotient_keep_the_kernel_value() {
        // the kernel's value stands (here a marker): SLEEF and the formulas agree with it
        assert_eq!(run("floor_divide", 7.0f32, 2.0, 42.0, 16), vec![42.0; 16]);
        // an overflowing quotient does not: floor_divide divides `a` itself
        assert_eq!(
            run("floor_divide", 1e30f32, 1e-10, 0.0, 16),
            vec![f32::INFINITY; 16]
        );
    }
}
