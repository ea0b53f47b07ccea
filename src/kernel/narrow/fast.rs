//! float32 → narrow float without branches, for the vectorised loops.
//!
//! The same rounding as [`super::codec`], written as selects over integer and float
//! arithmetic that LLVM turns into SIMD (the loops run on every [`crate::kernel::arch::Path`]
//! through [`crate::kernel::simd::map1`]):
//!
//! * normal results: subtract the difference of the biases from the float32 bits and round
//!   the low `23 - m` bits off to nearest-even with an integer add (a carry moves into the
//!   exponent, as it should);
//! * subnormal results: add a power of two whose last mantissa bit weighs one target
//!   subnormal step; the FPU rounds to nearest-even, the low bits are the code;
//! * the rules' codes for NaN, infinity and overflow, and the format's negation.
//!
//! It covers the formats with a zero and a bias below 127 (all but e8m0). `tests/narrow_casts.rs`
//! checks it against the codec on every float32 of each format's range.

use super::format::{Format, Kind};
use super::rules::{CastRules, DecodeNan};

/// The constants of one (format, rules) pair.
///
/// ```
/// use promote::kernel::narrow::{codec, fast::FastF32, format::lookup, rules::CastRules};
/// let f = lookup("float8_e5m2").unwrap();
/// let r = CastRules::ml_dtypes(f);
/// let k = FastF32::new(f, &r).unwrap();
/// for x in [0.0f32, -0.0, 1.0, 1e-6, 3.3, -57344.0, 1e9, f32::INFINITY, f32::NAN] {
///     assert_eq!(k.encode(x), codec::encode_f32(f, &r, x));
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastF32 {
    pub(crate) rebias: u32,
    pub(crate) shift: u32,
    pub(crate) half: u32,
    pub(crate) min_normal: u32,
    pub(crate) magic: f32,
    pub(crate) max_code: u32,
    pub(crate) overflow: u32,
    pub(crate) inf: u32,
    pub(crate) nan: u32,
    pub(crate) sign_bit: u32,
    pub(crate) unsigned_zero: bool,
}

impl FastF32 {
    /// The constants for `f` under `r`, or `None` if `f` is not a float with a zero and a bias
    /// below 127.
    ///
    /// ```
    /// use promote::kernel::narrow::{fast::FastF32, format::lookup, rules::CastRules};
    /// let some = |name| {
    ///     let f = lookup(name).unwrap();
    ///     FastF32::new(f, &CastRules::ml_dtypes(f)).is_some()
    /// };
    /// assert!(some("float8_e4m3fn") && some("float6_e3m2fn") && some("float4_e2m1fn"));
    /// assert!(!some("float8_e8m0fnu")); // no zero, bias 127
    /// assert!(!some("int4")); // not a float
    /// ```
    pub fn new(f: &Format, r: &CastRules) -> Option<FastF32> {
        if f.kind != Kind::Float || !f.has_zero || f.bias >= 127 || f.bias < 1 {
            return None;
        }
        let emin = 1 - f.bias; // the exponent of the smallest normal
        let magic_exp = emin - f.mantissa_bits as i32 + 23; // its last bit weighs 2^(emin - m)
        let shift = 23 - f.mantissa_bits;
        Some(FastF32 {
            rebias: ((127 - f.bias) as u32) << 23,
            shift,
            half: (1 << (shift - 1)) - 1,
            min_normal: ((emin + 127) as u32) << 23,
            magic: f32::from_bits(((magic_exp + 127) as u32) << 23),
            max_code: u32::from(f.max_code),
            overflow: u32::from(r.overflow),
            inf: u32::from(r.inf),
            nan: u32::from(r.nan),
            sign_bit: u32::from(f.sign_bit()),
            unsigned_zero: f.unsigned_zero,
        })
    }

    /// The code of `x`.
    ///
    /// ```
    /// use promote::kernel::narrow::{fast::FastF32, format::lookup, rules::CastRules};
    /// let f = lookup("float8_e4m3fn").unwrap();
    /// let ml = FastF32::new(f, &CastRules::ml_dtypes(f)).unwrap();
    /// let torch = FastF32::new(f, &CastRules::torch(f).unwrap()).unwrap();
    /// assert_eq!(ml.encode(448.0), 0x7e);
    /// assert_eq!(ml.encode(-1.0), 0xb8);
    /// assert_eq!(ml.encode(2f32.powi(-9)), 0x01); // subnormal
    /// assert_eq!((ml.encode(1e4), torch.encode(1e4)), (0x7f, 0x7e)); // NaN, or saturated
    /// ```
    #[inline(always)]
    pub fn encode(&self, x: f32) -> u8 {
        let u = x.to_bits();
        let a = u & 0x7fff_ffff;
        let r = a.wrapping_sub(self.rebias);
        let lsb = (r >> self.shift) & 1;
        let normal = r.wrapping_add(lsb).wrapping_add(self.half) >> self.shift;
        let sub = (f32::from_bits(a) + self.magic)
            .to_bits()
            .wrapping_sub(self.magic.to_bits());
        let mut code = if a < self.min_normal { sub } else { normal };
        code = if code > self.max_code {
            self.overflow
        } else {
            code
        };
        code = if a == 0x7f80_0000 { self.inf } else { code };
        code = if a > 0x7f80_0000 { self.nan } else { code };
        let flip = u >> 31 != 0 && (!self.unsigned_zero || code & !self.sign_bit != 0);
        (code ^ if flip { self.sign_bit } else { 0 }) as u8
    }
}

/// Narrow float → float32 without branches or table: the inverse of [`FastF32`], for the
/// same formats. Gives the bits [`super::codec::decode_f32`] gives, NaN payloads included
/// (`tests/narrow_casts.rs` checks every code of every format).
///
/// ```
/// use promote::kernel::narrow::{codec, fast::FastDecodeF32, format::lookup, rules::CastRules};
/// let f = lookup("float8_e4m3fnuz").unwrap();
/// let r = CastRules::torch(f).unwrap();
/// let k = FastDecodeF32::new(f, &r).unwrap();
/// for code in 0..=255u8 {
///     assert_eq!(k.decode(code).to_bits(), codec::decode_f32(f, &r, code).to_bits());
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FastDecodeF32 {
    shift: u32,
    rebias: u32,
    subnormal_scale: f32,
    code_mask: u32,
    sign_bit: u32,
    sign_shift: u32,
    mantissa_limit: u32,
    max_code: u32,
    inf_code: u32,
    unsigned_zero: bool,
    nan_bits: u32,
    nan_payload_mask: u32,
    nan_signed: bool,
}

impl FastDecodeF32 {
    /// The constants for `f` under `r` (`None` where [`FastF32::new`] is `None`).
    ///
    /// ```
    /// use promote::kernel::narrow::{fast::FastDecodeF32, format::lookup, rules::CastRules};
    /// let f = lookup("float6_e2m3fn").unwrap();
    /// assert!(FastDecodeF32::new(f, &CastRules::ml_dtypes(f)).is_some());
    /// let e8m0 = lookup("float8_e8m0fnu").unwrap();
    /// assert!(FastDecodeF32::new(e8m0, &CastRules::ml_dtypes(e8m0)).is_none());
    /// ```
    pub fn new(f: &Format, r: &CastRules) -> Option<FastDecodeF32> {
        FastF32::new(f, r)?;
        let m = f.mantissa_bits;
        let (nan_bits, nan_payload_mask, nan_signed) = match r.decode_nan {
            DecodeNan::Quiet => (0x7fc0_0000, 0, true),
            DecodeNan::Payload => (0x7fc0_0000, ((1u32 << m) - 1) << (23 - m), true),
            DecodeNan::Fixed(bits) => (bits, 0, false),
        };
        Some(FastDecodeF32 {
            shift: 23 - m,
            rebias: ((127 - f.bias) as u32) << 23,
            subnormal_scale: 2f32.powi(1 - f.bias - m as i32),
            code_mask: (1u32 << f.bits) - 1,
            sign_bit: u32::from(f.sign_bit()),
            sign_shift: 32 - f.bits,
            mantissa_limit: 1 << m,
            max_code: u32::from(f.max_code),
            inf_code: f.inf_code.map_or(u32::MAX, u32::from),
            unsigned_zero: f.unsigned_zero,
            nan_bits,
            nan_payload_mask,
            nan_signed,
        })
    }

    /// The float32 of `code`.
    ///
    /// ```
    /// use promote::kernel::narrow::{fast::FastDecodeF32, format::lookup, rules::CastRules};
    /// let f = lookup("float8_e5m2").unwrap();
    /// let k = FastDecodeF32::new(f, &CastRules::ml_dtypes(f)).unwrap();
    /// assert_eq!(k.decode(0x3c), 1.0);
    /// assert_eq!(k.decode(0x7b), 57344.0);
    /// assert_eq!(k.decode(0xfc), f32::NEG_INFINITY);
    /// assert_eq!(k.decode(0x01), 2f32.powi(-16)); // the smallest subnormal
    /// assert!(k.decode(0x7e).is_nan());
    /// ```
    #[inline(always)]
    pub fn decode(&self, code: u8) -> f32 {
        let c = u32::from(code) & self.code_mask;
        let sign = (c & self.sign_bit) << self.sign_shift;
        let mag = c & !self.sign_bit;
        let subnormal = (mag as f32 * self.subnormal_scale).to_bits();
        let normal = (mag << self.shift).wrapping_add(self.rebias);
        let mut bits = if mag < self.mantissa_limit {
            subnormal
        } else {
            normal
        };
        bits = if mag == self.inf_code {
            0x7f80_0000
        } else {
            bits
        };
        bits |= sign;
        let nan = self.nan_bits
            | ((mag << self.shift) & self.nan_payload_mask)
            | if self.nan_signed { sign } else { 0 };
        let is_nan = (mag > self.max_code && mag != self.inf_code)
            || (self.unsigned_zero && c == self.sign_bit);
        f32::from_bits(if is_nan { nan } else { bits })
    }
}
