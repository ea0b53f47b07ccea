//! All 15×15 casts, with NumPy's semantics on x86-64.
//!
//! | from → to | result |
//! | --- | --- |
//! | anything → bool | nonzero (NaN is nonzero; a complex is nonzero when either part is) |
//! | bool → anything | 0 or 1 |
//! | int → int | two's complement wrap (`int16(300) → int8` is 44, `-1 → uint8` is 255) |
//! | int → float32/float64 | correctly rounded (round to nearest even) |
//! | int → float16 | through float32, as NumPy does (exact or infinite either way) |
//! | int → bfloat16 | correctly rounded from the exact integer |
//! | float → narrower float | correctly rounded **once** from the exact source value, float64 → float16/bfloat16 included |
//! | float → int | truncated toward zero; see below for NaN, ±inf and out-of-range values |
//! | complex → real | the real part, then as above |
//! | real → complex | `(x, 0)` |
//!
//! **NaN, ±inf and out-of-range floats cast to ints** give what the C cast NumPy compiles
//! gives on x86-64 (the `cvttsd2si` instruction, which answers "integer indefinite", the
//! minimum of its width, for anything it cannot represent):
//!
//! | target | rule | NaN, ±inf |
//! | --- | --- | --- |
//! | int64 | in range: truncate; else `i64::MIN` | `i64::MIN` |
//! | int32 | in range: truncate; else `i32::MIN` | `i32::MIN` |
//! | int8, int16, uint8, uint16 | the int32 rule, then wrapped (`300.0 → int8` is 44) | 0 |
//! | uint32 | the int64 rule, then wrapped (`-1.0 → uint32` is 4294967295) | 0 |
//! | uint64 | below 2^63: the int64 rule, reinterpreted (`-1.0` → `u64::MAX`); from 2^63: `(x − 2^63)` by the int64 rule, top bit flipped (`2^64` and `inf` → 0) | NaN, −inf: 2^63; +inf: 0 |
//!
//! ```
//! use promote::kernel::cast::{cast, Num};
//! use half::f16;
//! assert_eq!(cast::<i16, i8>(300), 44);
//! assert_eq!(cast::<f64, i64>(f64::NAN), i64::MIN);
//! assert_eq!(cast::<f64, u8>(-1.7), 255);
//! // 1 + 2^-11 + 2^-40 lies just above the halfway point between two float16s: rounds up
//! let x = 1.0 + 2f64.powi(-11) + 2f64.powi(-40);
//! assert_eq!(cast::<f64, f16>(x).to_bits(), 0x3c01);
//! assert!(cast::<f64, bool>(f64::NAN));
//! ```

use half::{bf16, f16, slice::HalfFloatSliceExt};

use super::array::{Element, View, ViewMut, C32, C64};
use super::simd;
use crate::dtype::{DType, Kind};

/// An element with the conversions every cast is built from.
pub trait Num: Element {
    /// Its kind.
    const KIND: Kind;
    /// Not zero (NaN counts as nonzero).
    fn nonzero(self) -> bool;
    /// bool and ints: the value sign-extended to 64 bits (two's complement); 0 otherwise.
    fn bits64(self) -> u64;
    /// The real part as `f64`: exact for floats, correctly rounded for ints.
    fn re_f64(self) -> f64;
    /// The imaginary part as `f64` (0 for reals).
    fn im_f64(self) -> f64;
    /// The real part correctly rounded to `f32`.
    fn re_f32(self) -> f32;
    /// The imaginary part correctly rounded to `f32`.
    fn im_f32(self) -> f32;
    /// The real part as float16 (see the module table).
    fn to_f16(self) -> f16;
    /// The real part correctly rounded to bfloat16.
    fn to_bf16(self) -> bf16;
    /// This dtype from any other, by the module's rules.
    fn from_num<S: Num>(s: S) -> Self;
}

/// Cast one value.
#[inline(always)]
pub fn cast<S: Num, D: Num>(s: S) -> D {
    D::from_num(s)
}

// ---------- float → int, as C compiles it on x86-64 ----------

const TWO63: f64 = 9_223_372_036_854_775_808.0;

/// `cvttsd2si` with a 64-bit destination.
#[inline(always)]
fn cvt64(x: f64) -> i64 {
    if (-TWO63..TWO63).contains(&x) {
        x as i64
    } else {
        i64::MIN
    }
}

/// `cvttsd2si` with a 32-bit destination.
#[inline(always)]
fn cvt32(x: f64) -> i32 {
    if x > -2_147_483_649.0 && x < 2_147_483_648.0 {
        x as i32
    } else {
        i32::MIN
    }
}

/// A bool or integer destination of a float cast.
pub trait FromFloat {
    /// The C cast of the module table.
    fn from_float(x: f64) -> Self;
}

impl FromFloat for i64 {
    #[inline(always)]
    fn from_float(x: f64) -> i64 {
        cvt64(x)
    }
}
impl FromFloat for i32 {
    #[inline(always)]
    fn from_float(x: f64) -> i32 {
        cvt32(x)
    }
}
impl FromFloat for i16 {
    #[inline(always)]
    fn from_float(x: f64) -> i16 {
        cvt32(x) as i16
    }
}
impl FromFloat for i8 {
    #[inline(always)]
    fn from_float(x: f64) -> i8 {
        cvt32(x) as i8
    }
}
impl FromFloat for u8 {
    #[inline(always)]
    fn from_float(x: f64) -> u8 {
        cvt32(x) as u8
    }
}
impl FromFloat for u16 {
    #[inline(always)]
    fn from_float(x: f64) -> u16 {
        cvt32(x) as u16
    }
}
impl FromFloat for u32 {
    #[inline(always)]
    fn from_float(x: f64) -> u32 {
        cvt64(x) as u32
    }
}
impl FromFloat for u64 {
    #[inline(always)]
    fn from_float(x: f64) -> u64 {
        if x >= TWO63 {
            (cvt64(x - TWO63) as u64) ^ (1 << 63)
        } else {
            cvt64(x) as u64
        }
    }
}

// ---------- correctly rounded narrowing of floats ----------

/// Round an `f64` to nearest even in a binary format with `E` exponent bits and `M` stored
/// mantissa bits (float16: 5, 10; bfloat16: 8, 7), returning its bits. NaN stays NaN (quiet,
/// sign and top payload bits kept).
#[inline]
pub fn round_f64<const E: u32, const M: u32>(x: f64) -> u16 {
    let b = x.to_bits();
    let sign = ((b >> 63) as u32) << (E + M);
    let exp = ((b >> 52) & 0x7ff) as i32;
    let frac = b & ((1u64 << 52) - 1);
    let inf = ((1u32 << E) - 1) << M;
    if exp == 0x7ff {
        if frac == 0 {
            return (sign | inf) as u16;
        }
        let payload = (frac >> (52 - M)) as u32 | (1 << (M - 1));
        return (sign | inf | payload) as u16;
    }
    if exp == 0 {
        // zero or an f64 subnormal: far below half the smallest subnormal of either target
        return sign as u16;
    }
    let bias = (1i32 << (E - 1)) - 1;
    let unbiased = exp - 1023;
    let emin = 1 - bias;
    let mant = frac | (1u64 << 52);
    let (shift, texp) = if unbiased >= emin {
        (52 - M, unbiased + bias)
    } else {
        (52 - M + (emin - unbiased) as u32, 0)
    };
    if shift >= 64 {
        return sign as u16;
    }
    let q = mant >> shift;
    let rem = mant & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let q = if rem > half || (rem == half && q & 1 == 1) {
        q + 1
    } else {
        q
    };
    // normal: (texp - 1) << M plus q (which carries its implicit bit); subnormal: q itself
    let bits = if texp > 0 {
        (((texp - 1) as u64) << M) + q
    } else {
        q
    };
    let bits = bits.min(inf as u64) as u32;
    (sign | bits) as u16
}

/// `f64` → float16, correctly rounded (half's `from_f64` rounds through f32 where F16C is used).
#[inline]
pub fn f64_to_f16(x: f64) -> f16 {
    f16::from_bits(round_f64::<5, 10>(x))
}

/// `f64` → bfloat16, correctly rounded.
#[inline]
pub fn f64_to_bf16(x: f64) -> bf16 {
    bf16::from_bits(round_f64::<8, 7>(x))
}

/// `f32` → bfloat16, round to nearest even (NaN stays a quiet NaN).
#[inline(always)]
pub fn f32_to_bf16(x: f32) -> bf16 {
    let b = x.to_bits();
    let r = if x.is_nan() {
        (b >> 16) | 0x40
    } else {
        (b + 0x7fff + ((b >> 16) & 1)) >> 16
    };
    bf16::from_bits(r as u16)
}

/// bfloat16 → `f32` (exact).
#[inline(always)]
pub fn bf16_to_f32(x: bf16) -> f32 {
    f32::from_bits((x.to_bits() as u32) << 16)
}

/// float16 → `f32` (exact), branch-free so that loops vectorize.
#[inline(always)]
pub fn f16_to_f32(x: f16) -> f32 {
    let h = x.to_bits() as u32;
    let sign = (h & 0x8000) << 16;
    let em = h & 0x7fff;
    // shift exponent+mantissa into place and rebias by multiplying with 2^112
    let v = f32::from_bits(em << 13) * f32::from_bits(0x7780_0000);
    let v = if em >= 0x7c00 {
        f32::from_bits((em << 13) | 0x7f80_0000)
    } else {
        v
    };
    f32::from_bits(v.to_bits() | sign)
}

/// `f32` → float16, round to nearest even.
#[inline(always)]
pub fn f32_to_f16(x: f32) -> f16 {
    f16::from_f32(x)
}

/// A magnitude correctly rounded to bfloat16: round to odd at 24 bits, then to nearest even.
#[inline]
fn u64_to_bf16(m: u64) -> f32 {
    if m < (1 << 24) {
        return m as f32;
    }
    let shift = 40 - m.leading_zeros();
    let kept = m >> shift;
    let sticky = u64::from(m & ((1u64 << shift) - 1) != 0);
    ((kept | sticky) as f32) * f32::from_bits((127 + shift) << 23)
}

// ---------- the Num impls ----------

macro_rules! num_bool {
    () => {
        impl Num for bool {
            const KIND: Kind = Kind::Bool;
            #[inline(always)]
            fn nonzero(self) -> bool {
                self
            }
            #[inline(always)]
            fn bits64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn re_f64(self) -> f64 {
                f64::from(u8::from(self))
            }
            #[inline(always)]
            fn im_f64(self) -> f64 {
                0.0
            }
            #[inline(always)]
            fn re_f32(self) -> f32 {
                f32::from(u8::from(self))
            }
            #[inline(always)]
            fn im_f32(self) -> f32 {
                0.0
            }
            #[inline(always)]
            fn to_f16(self) -> f16 {
                if self {
                    f16::ONE
                } else {
                    f16::ZERO
                }
            }
            #[inline(always)]
            fn to_bf16(self) -> bf16 {
                if self {
                    bf16::ONE
                } else {
                    bf16::ZERO
                }
            }
            #[inline(always)]
            fn from_num<S: Num>(s: S) -> bool {
                s.nonzero()
            }
        }
    };
}
num_bool!();

macro_rules! num_int {
    ($($t:ty, $kind:ident, $signed:literal);*) => {$(
        impl Num for $t {
            const KIND: Kind = Kind::$kind;
            #[inline(always)]
            fn nonzero(self) -> bool {
                self != 0
            }
            #[inline(always)]
            fn bits64(self) -> u64 {
                if $signed { self as i64 as u64 } else { self as u64 }
            }
            #[inline(always)]
            fn re_f64(self) -> f64 {
                self as f64
            }
            #[inline(always)]
            fn im_f64(self) -> f64 {
                0.0
            }
            #[inline(always)]
            fn re_f32(self) -> f32 {
                self as f32
            }
            #[inline(always)]
            fn im_f32(self) -> f32 {
                0.0
            }
            #[inline(always)]
            fn to_f16(self) -> f16 {
                f32_to_f16(self as f32)
            }
            #[inline(always)]
            #[allow(unused_comparisons)]
            fn to_bf16(self) -> bf16 {
                let neg = self < 0;
                let m = if neg { (self as i64).unsigned_abs() } else { self as u64 };
                let v = u64_to_bf16(m);
                f32_to_bf16(if neg { -v } else { v })
            }
            #[inline(always)]
            fn from_num<S: Num>(s: S) -> $t {
                match S::KIND {
                    Kind::Bool | Kind::Unsigned | Kind::Signed => s.bits64() as $t,
                    Kind::Float | Kind::Complex => <$t as FromFloat>::from_float(s.re_f64()),
                }
            }
        }
    )*};
}
num_int!(u8, Unsigned, false; u16, Unsigned, false; u32, Unsigned, false; u64, Unsigned, false;
         i8, Signed, true; i16, Signed, true; i32, Signed, true; i64, Signed, true);

impl Num for f16 {
    const KIND: Kind = Kind::Float;
    #[inline(always)]
    fn nonzero(self) -> bool {
        self.to_bits() & 0x7fff != 0
    }
    #[inline(always)]
    fn bits64(self) -> u64 {
        0
    }
    #[inline(always)]
    fn re_f64(self) -> f64 {
        f16_to_f32(self) as f64
    }
    #[inline(always)]
    fn im_f64(self) -> f64 {
        0.0
    }
    #[inline(always)]
    fn re_f32(self) -> f32 {
        f16_to_f32(self)
    }
    #[inline(always)]
    fn im_f32(self) -> f32 {
        0.0
    }
    #[inline(always)]
    fn to_f16(self) -> f16 {
        self
    }
    #[inline(always)]
    fn to_bf16(self) -> bf16 {
        f32_to_bf16(f16_to_f32(self))
    }
    #[inline(always)]
    fn from_num<S: Num>(s: S) -> f16 {
        s.to_f16()
    }
}

impl Num for bf16 {
    const KIND: Kind = Kind::Float;
    #[inline(always)]
    fn nonzero(self) -> bool {
        self.to_bits() & 0x7fff != 0
    }
    #[inline(always)]
    fn bits64(self) -> u64 {
        0
    }
    #[inline(always)]
    fn re_f64(self) -> f64 {
        bf16_to_f32(self) as f64
    }
    #[inline(always)]
    fn im_f64(self) -> f64 {
        0.0
    }
    #[inline(always)]
    fn re_f32(self) -> f32 {
        bf16_to_f32(self)
    }
    #[inline(always)]
    fn im_f32(self) -> f32 {
        0.0
    }
    #[inline(always)]
    fn to_f16(self) -> f16 {
        f32_to_f16(bf16_to_f32(self))
    }
    #[inline(always)]
    fn to_bf16(self) -> bf16 {
        self
    }
    #[inline(always)]
    fn from_num<S: Num>(s: S) -> bf16 {
        s.to_bf16()
    }
}

impl Num for f32 {
    const KIND: Kind = Kind::Float;
    #[inline(always)]
    fn nonzero(self) -> bool {
        self != 0.0
    }
    #[inline(always)]
    fn bits64(self) -> u64 {
        0
    }
    #[inline(always)]
    fn re_f64(self) -> f64 {
        self as f64
    }
    #[inline(always)]
    fn im_f64(self) -> f64 {
        0.0
    }
    #[inline(always)]
    fn re_f32(self) -> f32 {
        self
    }
    #[inline(always)]
    fn im_f32(self) -> f32 {
        0.0
    }
    #[inline(always)]
    fn to_f16(self) -> f16 {
        f32_to_f16(self)
    }
    #[inline(always)]
    fn to_bf16(self) -> bf16 {
        f32_to_bf16(self)
    }
    #[inline(always)]
    fn from_num<S: Num>(s: S) -> f32 {
        s.re_f32()
    }
}

impl Num for f64 {
    const KIND: Kind = Kind::Float;
    #[inline(always)]
    fn nonzero(self) -> bool {
        self != 0.0
    }
    #[inline(always)]
    fn bits64(self) -> u64 {
        0
    }
    #[inline(always)]
    fn re_f64(self) -> f64 {
        self
    }
    #[inline(always)]
    fn im_f64(self) -> f64 {
        0.0
    }
    #[inline(always)]
    fn re_f32(self) -> f32 {
        self as f32
    }
    #[inline(always)]
    fn im_f32(self) -> f32 {
        0.0
    }
    #[inline(always)]
    fn to_f16(self) -> f16 {
        f64_to_f16(self)
    }
    #[inline(always)]
    fn to_bf16(self) -> bf16 {
        f64_to_bf16(self)
    }
    #[inline(always)]
    fn from_num<S: Num>(s: S) -> f64 {
        s.re_f64()
    }
}

impl Num for C32 {
    const KIND: Kind = Kind::Complex;
    #[inline(always)]
    fn nonzero(self) -> bool {
        self.re != 0.0 || self.im != 0.0
    }
    #[inline(always)]
    fn bits64(self) -> u64 {
        0
    }
    #[inline(always)]
    fn re_f64(self) -> f64 {
        self.re as f64
    }
    #[inline(always)]
    fn im_f64(self) -> f64 {
        self.im as f64
    }
    #[inline(always)]
    fn re_f32(self) -> f32 {
        self.re
    }
    #[inline(always)]
    fn im_f32(self) -> f32 {
        self.im
    }
    #[inline(always)]
    fn to_f16(self) -> f16 {
        f32_to_f16(self.re)
    }
    #[inline(always)]
    fn to_bf16(self) -> bf16 {
        f32_to_bf16(self.re)
    }
    #[inline(always)]
    fn from_num<S: Num>(s: S) -> C32 {
        C32::new(s.re_f32(), s.im_f32())
    }
}

impl Num for C64 {
    const KIND: Kind = Kind::Complex;
    #[inline(always)]
    fn nonzero(self) -> bool {
        self.re != 0.0 || self.im != 0.0
    }
    #[inline(always)]
    fn bits64(self) -> u64 {
        0
    }
    #[inline(always)]
    fn re_f64(self) -> f64 {
        self.re
    }
    #[inline(always)]
    fn im_f64(self) -> f64 {
        self.im
    }
    #[inline(always)]
    fn re_f32(self) -> f32 {
        self.re as f32
    }
    #[inline(always)]
    fn im_f32(self) -> f32 {
        self.im as f32
    }
    #[inline(always)]
    fn to_f16(self) -> f16 {
        f64_to_f16(self.re)
    }
    #[inline(always)]
    fn to_bf16(self) -> bf16 {
        f64_to_bf16(self.re)
    }
    #[inline(always)]
    fn from_num<S: Num>(s: S) -> C64 {
        C64::new(s.re_f64(), s.im_f64())
    }
}

// ---------- slices ----------

/// Reinterpret a slice of `S` as `D` where both are the same type.
#[inline(always)]
pub(crate) fn same<S: Element, D: Element>(s: &[S]) -> Option<&[D]> {
    if S::DTYPE == D::DTYPE {
        // SAFETY: each dtype has exactly one element type, so S and D are the same type.
        Some(unsafe { std::slice::from_raw_parts(s.as_ptr() as *const D, s.len()) })
    } else {
        None
    }
}

/// Mutable version of [`same`].
#[inline(always)]
pub(crate) fn same_mut<S: Element, D: Element>(s: &mut [S]) -> Option<&mut [D]> {
    if S::DTYPE == D::DTYPE {
        // SAFETY: as in `same`.
        Some(unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr() as *mut D, s.len()) })
    } else {
        None
    }
}

/// Cast a slice element by element into another of the same length (F16C for float16 ↔ float32).
///
/// ```
/// let mut out = [0u8; 3];
/// promote::kernel::cast::cast_slice(&[-1i32, 256, 300], &mut out);
/// assert_eq!(out, [255, 0, 44]);
/// ```
pub fn cast_slice<S: Num, D: Num>(src: &[S], dst: &mut [D]) {
    assert_eq!(src.len(), dst.len(), "cast_slice: lengths differ");
    if let Some(s) = same::<S, D>(src) {
        dst.copy_from_slice(s);
        return;
    }
    if let (Some(s), Some(d)) = (same::<S, f16>(src), same_mut::<D, f32>(dst)) {
        s.convert_to_f32_slice(d);
        return;
    }
    if let (Some(s), Some(d)) = (same::<S, f32>(src), same_mut::<D, f16>(dst)) {
        d.convert_from_f32_slice(s);
        return;
    }
    simd::map1(src, dst, D::from_num::<S>);
}

/// Cast a view into a mutable view of the same length, any dtypes.
pub fn cast_view(src: View<'_>, dst: ViewMut<'_>) {
    crate::each_dtype!(View, src, s, S => {
        crate::each_dtype!(ViewMut, dst, d, D => cast_slice::<S, D>(s, d))
    })
}

/// An owned copy of a view in another dtype.
///
/// ```
/// use promote::kernel::{array::Array, cast::cast_array};
/// use promote::DType;
/// let a = cast_array(Array::from(vec![1.5f64, -2.5]).view(), DType::Int8);
/// assert_eq!(a, Array::from(vec![1i8, -2]));
/// ```
pub fn cast_array(src: View<'_>, to: DType) -> super::array::Array {
    let mut out = super::array::Array::zeros(to, src.len());
    cast_view(src, out.view_mut());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn f64_to_f16_agrees_with_half_on_every_f32() {
        // every f32 is exact in f64, and half's f32 → f16 is correctly rounded
        let mut i: u32 = 0;
        loop {
            let x = f32::from_bits(i);
            let want = f16::from_f32(x);
            let got = f64_to_f16(x as f64);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{x:e}: {:#x} vs {:#x}",
                got.to_bits(),
                want.to_bits()
            );
            let want = f32_to_bf16(x);
            let got = f64_to_bf16(x as f64);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "bf16 {x:e}"
            );
            assert_eq!(
                f16_to_f32(want.to_f16()).to_bits(),
                want.to_f16().to_f32().to_bits()
            );
            match i.checked_add(4099) {
                Some(n) => i = n,
                None => break,
            }
        }
    }

    #[test]
    fn f16_to_f32_is_exact_for_every_f16() {
        for b in 0..=u16::MAX {
            let h = f16::from_bits(b);
            let (a, w) = (f16_to_f32(h), h.to_f32());
            assert!(
                a.to_bits() == w.to_bits() || (a.is_nan() && w.is_nan()),
                "{b:#x}"
            );
            assert!(f32_to_f16(a).to_bits() & 0x7fff == b & 0x7fff || a.is_nan());
        }
    }

    #[test]
    fn halfway_cases_round_once() {
        let h = |x: f64| f64_to_f16(x).to_bits();
        // 1 + 2^-11 is exactly halfway between 1 and 1 + 2^-10: ties to even (1)
        assert_eq!(h(1.0 + 2f64.powi(-11)), 0x3c00);
        // a hair above: up. Through f32 this would first round to the halfway point, then down.
        assert_eq!(h(1.0 + 2f64.powi(-11) + 2f64.powi(-40)), 0x3c01);
        assert_eq!(h(1.0 + 2f64.powi(-11) - 2f64.powi(-40)), 0x3c00);
        // 1 + 3·2^-11 is halfway between odd 1+2^-10 and even 1+2^-9: up
        assert_eq!(h(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        // overflow threshold 65520 rounds to inf, just below to max
        assert_eq!(h(65520.0), 0x7c00);
        assert_eq!(h(65519.99), 0x7bff);
        assert_eq!(h(-65520.0), 0xfc00);
        // smallest subnormal 2^-24; half of it ties to 0, a hair more rounds up
        assert_eq!(h(2f64.powi(-24)), 0x0001);
        assert_eq!(h(2f64.powi(-25)), 0x0000);
        assert_eq!(h(2f64.powi(-25) + 2f64.powi(-60)), 0x0001);
        assert_eq!(h(3.0 * 2f64.powi(-25)), 0x0002);
        assert_eq!(h(-0.0), 0x8000);
        assert_eq!(h(1e-300), 0);
        assert_eq!(h(f64::INFINITY), 0x7c00);
        assert!(f64_to_f16(f64::NAN).is_nan());
        // largest subnormal rounding up into the smallest normal
        assert_eq!(h(2f64.powi(-14) - 2f64.powi(-26)), 0x0400);

        let b = |x: f64| f64_to_bf16(x).to_bits();
        assert_eq!(b(1.0 + 2f64.powi(-8)), 0x3f80);
        assert_eq!(b(1.0 + 2f64.powi(-8) + 2f64.powi(-40)), 0x3f81);
        assert_eq!(b(1.0 + 3.0 * 2f64.powi(-8)), 0x3f82);
        assert_eq!(b(f64::MAX), 0x7f80);
        assert_eq!(b(1e-300), 0);
        assert_eq!(b(-1e-300), 0x8000);
        // via f32 this would double-round: 1 + 2^-8 + 2^-30 is exactly representable in f64 only
        assert_eq!(b(1.0 + 2f64.powi(-8) + 2f64.powi(-30)), 0x3f81);
    }

    #[test]
    fn ints_to_bf16_round_once() {
        // 2^60 + 2^52 + 1: above the halfway point between 2^60 and 2^60 + 2^53
        let x: i64 = (1 << 60) + (1 << 52) + 1;
        assert_eq!(
            cast::<i64, bf16>(x).to_bits(),
            f64_to_bf16((1u64 << 60) as f64 + 2f64.powi(53)).to_bits()
        );
        assert_eq!(
            cast::<i64, bf16>(-x).to_bits() & 0x7fff,
            cast::<i64, bf16>(x).to_bits()
        );
        assert_eq!(cast::<u64, bf16>(u64::MAX).to_f32(), 2f32.powi(64));
        assert_eq!(cast::<i64, bf16>(i64::MIN).to_f32(), -(2f32.powi(63)));
        for v in -70000i64..70000 {
            assert_eq!(
                cast::<i64, bf16>(v).to_bits(),
                f64_to_bf16(v as f64).to_bits()
            );
            assert_eq!(
                cast::<i64, f16>(v).to_bits(),
                f64_to_f16(v as f64).to_bits()
            );
        }
    }

    #[test]
    fn ints_wrap() {
        assert_eq!(cast::<i16, i8>(300), 44);
        assert_eq!(cast::<i8, u8>(-1), 255);
        assert_eq!(cast::<u64, i8>(u64::MAX), -1);
        assert_eq!(cast::<i8, u64>(-1), u64::MAX);
        assert_eq!(cast::<u8, i64>(255), 255);
        assert_eq!(cast::<bool, i32>(true), 1);
        assert!(!cast::<i64, bool>(0));
        assert!(cast::<u8, bool>(2));
    }

    #[test]
    fn floats_to_ints_truncate_and_saturate_like_x86() {
        assert_eq!(cast::<f64, i8>(-1.9), -1);
        assert_eq!(cast::<f64, i8>(300.0), 44);
        assert_eq!(cast::<f64, u8>(-1.0), 255);
        assert_eq!(cast::<f64, i32>(3e9), i32::MIN);
        assert_eq!(cast::<f64, u32>(3e9), 3_000_000_000);
        assert_eq!(cast::<f64, u32>(-1.0), u32::MAX);
        assert_eq!(cast::<f64, i64>(f64::INFINITY), i64::MIN);
        assert_eq!(cast::<f64, i64>(-TWO63), i64::MIN);
        assert_eq!(cast::<f64, i64>(TWO63), i64::MIN);
        assert_eq!(cast::<f64, u64>(1.8446744073709552e19), 0);
        assert_eq!(cast::<f64, u64>(1e19), 10_000_000_000_000_000_000);
        assert_eq!(cast::<f64, u64>(-1.0), u64::MAX);
        assert_eq!(cast::<f64, u64>(f64::NAN), 1 << 63);
        assert_eq!(cast::<f64, i16>(f64::NAN), 0);
        assert_eq!(cast::<f32, i32>(f32::NAN), i32::MIN);
        assert_eq!(cast::<f16, i64>(f16::INFINITY), i64::MIN);
        assert_eq!(cast::<C64, i32>(C64::new(2.5, 9.0)), 2);
    }

    #[test]
    fn complex_and_bool() {
        assert_eq!(cast::<C64, f32>(C64::new(1.5, 2.0)), 1.5);
        assert_eq!(cast::<f32, C64>(1.5), C64::new(1.5, 0.0));
        assert_eq!(
            cast::<C64, C32>(C64::new(1e300, -1.0)),
            C32::new(f32::INFINITY, -1.0)
        );
        assert!(cast::<C32, bool>(C32::new(0.0, 1.0)));
        assert!(!cast::<C32, bool>(C32::new(-0.0, 0.0)));
        assert!(cast::<f16, bool>(f16::NAN));
        assert!(!cast::<f16, bool>(f16::NEG_ZERO));
        assert_eq!(cast::<bool, C32>(true), C32::new(1.0, 0.0));
    }

    #[test]
    fn every_pair_casts_slices() {
        for s in DType::classic() {
            let src = cast_array(
                super::super::array::Array::from(vec![0i64, 1, -1, 127, 300]).view(),
                s,
            );
            for d in DType::classic() {
                let out = cast_array(src.view(), d);
                assert_eq!(out.len(), 5);
                assert_eq!(out.dtype(), d);
                // 0 and 1 survive every cast
                let back = cast_array(out.view(), DType::Int64);
                let b = i64::slice(back.view()).unwrap();
                assert_eq!(&b[..2], &[0, 1], "{s} -> {d}");
            }
        }
    }
}
