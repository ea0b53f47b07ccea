//! One codec for every narrow format, driven by its [`Format`] and a library's [`CastRules`].
//!
//! Encoding is ml_dtypes' algorithm (`ConvertImpl`), written once for any source width: the
//! source is split into sign, unbiased exponent and a mantissa with its leading 1, the
//! mantissa is rounded to nearest-even at the target's precision (more bits off where the
//! target is subnormal), and the exponent is added back, so that a carry from rounding flows
//! into the exponent. A result above the largest code is an overflow. The edges (NaN,
//! infinity, overflow, zero, negative values of an unsigned format) are the rules' codes.
//!
//! ```
//! use promote::kernel::narrow::{codec, format::lookup, rules::CastRules};
//! let f = lookup("float8_e4m3fn").unwrap();
//! let ml = CastRules::ml_dtypes(f);
//! assert_eq!(codec::encode_f32(f, &ml, 1.0), 0x38);
//! assert_eq!(codec::encode_f32(f, &ml, 1000.0), 0x7f); // overflow: NaN in ml_dtypes
//! let torch = CastRules::torch(f).unwrap();
//! assert_eq!(codec::encode_f32(f, &torch, 1000.0), 0x7e); // saturates to 448 in torch
//! // float64 through float32 (both libraries) or rounded once
//! let x = 1.0625 + 2f64.powi(-40);
//! assert_eq!(codec::encode_f64(f, &ml, x), 0x38);
//! assert_eq!(codec::encode_f64(f, &ml.correctly_rounded(), x), 0x39);
//! assert_eq!(codec::decode_f64(f, &ml, 0x39), 1.125);
//! ```

use super::format::{Format, Kind};
use super::rules::{CastRules, DecodeNan, F64Path, Negative};

/// The layout of a binary source float.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Source {
    exponent_bits: u32,
    mantissa_bits: u32,
}

const F32: Source = Source {
    exponent_bits: 8,
    mantissa_bits: 23,
};
const F64: Source = Source {
    exponent_bits: 11,
    mantissa_bits: 52,
};

impl Source {
    fn bias(self) -> i32 {
        (1 << (self.exponent_bits - 1)) - 1
    }
}

/// `code` negated as the format negates: the sign bit flips, except that `fnuz` zero and NaN
/// stay (they are one code each), and an unsigned format has no sign.
///
/// ```
/// use promote::kernel::narrow::{codec::negate, format::lookup};
/// let e4m3fn = lookup("float8_e4m3fn").unwrap();
/// assert_eq!(negate(e4m3fn, 0x38), 0xb8); // 1.0 -> -1.0
/// assert_eq!(negate(e4m3fn, 0x00), 0x80); // +0 -> -0
/// let fnuz = lookup("float8_e4m3fnuz").unwrap();
/// assert_eq!(negate(fnuz, 0x40), 0xc0);
/// assert_eq!(negate(fnuz, 0x00), 0x00); // no negative zero
/// assert_eq!(negate(fnuz, 0x80), 0x80); // the NaN stays
/// assert_eq!(negate(lookup("float8_e8m0fnu").unwrap(), 0x80), 0x80); // no sign
/// ```
pub fn negate(f: &Format, code: u8) -> u8 {
    let sign = f.sign_bit();
    if f.unsigned_zero && code & !sign == 0 {
        code
    } else {
        code ^ sign
    }
}

/// Round to nearest, ties to even, dropping the low `shift` bits (`shift >= 1`).
fn round_nearest_even(bits: u64, shift: u32) -> u64 {
    let bias = ((bits >> shift) & 1) + (1u64 << (shift - 1)) - 1;
    (bits + bias) >> shift
}

/// The code of a finite, non-zero magnitude (`field`, `fraction` of the source), or `None`
/// if it rounds above the largest finite code.
fn round_magnitude(f: &Format, src: Source, field: u64, fraction: u64) -> Option<u8> {
    let m = src.mantissa_bits;
    let (exponent, mantissa) = if field != 0 {
        (field as i32 - src.bias(), (1u64 << m) | fraction)
    } else {
        // a subnormal source: normalise so that the leading 1 sits at bit m
        let shift = fraction.leading_zeros() - (63 - m);
        (1 - src.bias() - shift as i32, fraction << shift)
    };
    let base = exponent + f.bias - 1; // the biased exponent minus one (the leading 1 adds it)
    let denormal = (-base).max(0) as u32;
    let shift = ((m - f.mantissa_bits) + denormal).min(m + 2);
    let aligned = round_nearest_even(mantissa, shift);
    let code = aligned + ((base.max(0) as u64) << f.mantissa_bits);
    (code <= u64::from(f.max_code)).then_some(code as u8)
}

/// Encode the bits of a source float.
fn encode_bits(f: &Format, r: &CastRules, src: Source, bits: u64) -> u8 {
    let width = 1 + src.exponent_bits + src.mantissa_bits;
    let mut negative = bits >> (width - 1) != 0;
    let magnitude = bits & ((1u64 << (width - 1)) - 1);
    let field = magnitude >> src.mantissa_bits;
    let fraction = magnitude & ((1u64 << src.mantissa_bits) - 1);
    let sign = |code: u8, negative: bool| if negative { negate(f, code) } else { code };
    if field == (1u64 << src.exponent_bits) - 1 {
        return sign(if fraction == 0 { r.inf } else { r.nan }, negative);
    }
    if magnitude == 0 && f.has_zero {
        return sign(r.zero, negative);
    }
    if negative && !f.signed {
        match r.negative {
            Negative::Nan => return r.nan,
            Negative::Magnitude => negative = false,
        }
    }
    if magnitude == 0 {
        return r.zero; // a format without zero (e8m0)
    }
    sign(
        round_magnitude(f, src, field, fraction).unwrap_or(r.overflow),
        negative,
    )
}

/// An integer format: truncate toward zero through a 32-bit integer, keep the low bits
/// (wrap). NaN, infinities and values beyond `i32`'s range give `i32::MIN` (whose low bits are
/// 0); ml_dtypes' range test is on the value before truncation (`2147483647.5` is out).
fn encode_int(f: &Format, x: f64) -> u8 {
    let i = if x >= f64::from(i32::MIN) && x <= f64::from(i32::MAX) {
        x as i32
    } else {
        i32::MIN
    };
    (i as u8) & (((1u16 << f.bits) - 1) as u8)
}

/// `x` as a code of `f` under `rules` (the stored byte: the code in the low `f.bits` bits).
///
/// ```
/// use promote::kernel::narrow::{codec::encode_f32, format::lookup, rules::CastRules};
/// let f = lookup("float8_e4m3fn").unwrap();
/// let ml = CastRules::ml_dtypes(f);
/// assert_eq!(encode_f32(f, &ml, 448.0), f.max_code); // the largest value
/// assert_eq!(encode_f32(f, &ml, -448.0), 0xfe);
/// assert_eq!(encode_f32(f, &ml, 2f32.powi(-9)), 0x01); // the smallest subnormal
/// assert_eq!(encode_f32(f, &ml, 2f32.powi(-10)), 0x00); // a tie, to even (0)
/// assert_eq!(encode_f32(f, &ml, 1.0625), 0x38); // a tie, to even (1.0)
/// assert_eq!(encode_f32(f, &ml, 1.1875), 0x3a); // a tie, to even (1.25)
/// // integers truncate toward zero and wrap
/// let int4 = lookup("int4").unwrap();
/// let r = CastRules::ml_dtypes(int4);
/// assert_eq!((encode_f32(int4, &r, 7.9), encode_f32(int4, &r, -1.5)), (0x7, 0xf));
/// assert_eq!(encode_f32(int4, &r, 17.0), 0x1); // 17 mod 16
/// ```
pub fn encode_f32(f: &Format, rules: &CastRules, x: f32) -> u8 {
    match f.kind {
        Kind::Float => encode_bits(f, rules, F32, u64::from(x.to_bits())),
        Kind::SignedInt | Kind::UnsignedInt => encode_int(f, f64::from(x)),
        Kind::Complex => 0,
    }
}

/// `x` as a code of `f` under `rules`; through float32 or rounded once, as
/// [`CastRules::f64_path`] says.
///
/// ```
/// use promote::kernel::narrow::{codec::encode_f64, format::lookup, rules::CastRules};
/// let f = lookup("float8_e4m3fn").unwrap();
/// let ml = CastRules::ml_dtypes(f);
/// assert_eq!(encode_f64(f, &ml, 448.0), 0x7e);
/// assert_eq!(encode_f64(f, &ml, f64::INFINITY), 0x7f); // NaN: e4m3fn has no inf
/// // a value between two float32 ties: through float32 (as the libraries) or rounded once
/// let x = 1.0625 + 2f64.powi(-40);
/// assert_eq!(encode_f64(f, &ml, x), 0x38); // 1.0
/// assert_eq!(encode_f64(f, &ml.correctly_rounded(), x), 0x39); // 1.125
/// ```
pub fn encode_f64(f: &Format, rules: &CastRules, x: f64) -> u8 {
    match (f.kind, rules.f64_path) {
        (Kind::Float, F64Path::ThroughF32) => encode_f32(f, rules, x as f32),
        (Kind::Float, F64Path::Direct) => encode_bits(f, rules, F64, x.to_bits()),
        (Kind::SignedInt | Kind::UnsignedInt, _) => encode_int(f, x),
        (Kind::Complex, _) => 0,
    }
}

/// The value of a code, exactly (NaN for NaN codes; the code is masked to `f.bits`).
///
/// ```
/// use promote::kernel::narrow::{codec::decode_exact, format::lookup};
/// let f = lookup("float8_e4m3fn").unwrap();
/// assert_eq!(decode_exact(f, 0x7e), 448.0);
/// assert_eq!(decode_exact(f, 0x01), 2f64.powi(-9)); // subnormal
/// assert!(decode_exact(f, 0x7f).is_nan());
/// assert_eq!(decode_exact(lookup("float8_e5m2").unwrap(), 0xfc), f64::NEG_INFINITY);
/// assert_eq!(decode_exact(lookup("float8_e8m0fnu").unwrap(), 0), 2f64.powi(-127));
/// let f4 = lookup("float4_e2m1fn").unwrap();
/// assert_eq!(decode_exact(f4, 0xf7), 6.0); // the high bits are masked off
/// assert_eq!(decode_exact(lookup("int4").unwrap(), 0xf), -1.0);
/// ```
pub fn decode_exact(f: &Format, code: u8) -> f64 {
    let code = (u16::from(code) & ((1u16 << f.bits.min(8)) - 1)) as u8;
    match f.kind {
        Kind::SignedInt => {
            let shift = 8 - f.bits;
            f64::from(((code << shift) as i8) >> shift)
        }
        Kind::UnsignedInt => f64::from(code),
        Kind::Complex => f64::NAN,
        Kind::Float => {
            let negative = code & f.sign_bit() != 0;
            let magnitude = code & !f.sign_bit();
            let value = if f.is_nan_code(code) {
                f64::NAN
            } else if Some(magnitude) == f.inf_code {
                f64::INFINITY
            } else {
                let field = i32::from(magnitude >> f.mantissa_bits);
                let mantissa = f64::from(magnitude & ((1u8 << f.mantissa_bits) - 1));
                let scale = 2f64.powi(-(f.mantissa_bits as i32));
                if field == 0 && f.has_zero {
                    mantissa * scale * 2f64.powi(1 - f.bias)
                } else {
                    (1.0 + mantissa * scale) * 2f64.powi(field - f.bias)
                }
            };
            if negative {
                -value
            } else {
                value
            }
        }
    }
}

/// The float32 a code decodes to in `rules.library`, NaN bits included.
///
/// ```
/// use promote::kernel::narrow::{codec::decode_f32, format::lookup, rules::CastRules};
/// let f = lookup("float8_e4m3fn").unwrap();
/// let (ml, torch) = (CastRules::ml_dtypes(f), CastRules::torch(f).unwrap());
/// assert_eq!(decode_f32(f, &ml, 0x7e), 448.0);
/// assert_eq!(decode_f32(f, &ml, 0xb8), -1.0);
/// // NaN bits differ by library: ml_dtypes' quiet NaN, PyTorch's payload
/// assert_eq!(decode_f32(f, &ml, 0x7f).to_bits(), 0x7fc0_0000);
/// assert_eq!(decode_f32(f, &torch, 0x7f).to_bits(), 0x7ff0_0000);
/// ```
pub fn decode_f32(f: &Format, rules: &CastRules, code: u8) -> f32 {
    let v = decode_exact(f, code);
    if !v.is_nan() {
        return v as f32; // every narrow value is a float32
    }
    let code = (u16::from(code) & ((1u16 << f.bits.min(8)) - 1)) as u8;
    let sign = if code & f.sign_bit() != 0 {
        0x8000_0000
    } else {
        0
    };
    f32::from_bits(match rules.decode_nan {
        DecodeNan::Quiet => sign | 0x7fc0_0000,
        DecodeNan::Payload => {
            let mantissa = u32::from(code & ((1u8 << f.mantissa_bits) - 1));
            sign | 0x7fc0_0000 | (mantissa << (23 - f.mantissa_bits))
        }
        DecodeNan::Fixed(bits) => bits,
    })
}

/// The float64 a code decodes to in `rules.library`: ml_dtypes decodes to float64 directly
/// (a NaN is `0x7ff8..` with its sign), PyTorch through float32 (its NaN bits widened as
/// x86's `cvtss2sd` widens them: quietened, payload kept).
///
/// ```
/// use promote::kernel::narrow::{codec::decode_f64, format::lookup, rules::CastRules};
/// let f = lookup("float8_e4m3fn").unwrap();
/// let (ml, torch) = (CastRules::ml_dtypes(f), CastRules::torch(f).unwrap());
/// assert_eq!(decode_f64(f, &ml, 0x7e), 448.0);
/// assert_eq!(decode_f64(f, &ml, 0x7f).to_bits(), 0x7ff8_0000_0000_0000);
/// assert_eq!(decode_f64(f, &torch, 0x7f).to_bits(), 0x7ffe_0000_0000_0000);
/// assert_eq!(decode_f64(f, &ml, 0xff).to_bits(), 0xfff8_0000_0000_0000);
/// ```
pub fn decode_f64(f: &Format, rules: &CastRules, code: u8) -> f64 {
    let v = decode_exact(f, code);
    if !v.is_nan() {
        return v;
    }
    let narrow = decode_f32(f, rules, code).to_bits();
    let sign = u64::from(narrow >> 31) << 63;
    let payload = match rules.decode_nan {
        DecodeNan::Quiet => 0,
        _ => u64::from(narrow & 0x3f_ffff) << 29,
    };
    f64::from_bits(sign | 0x7ff8_0000_0000_0000 | payload)
}
