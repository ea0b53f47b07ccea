//! What each library does at the edges of a narrow format: NaN, infinity, overflow, zero,
//! negative values of an unsigned format, float64 sources, and the NaN bits it decodes to.
//!
//! The rounding itself is the same everywhere (round to nearest, ties to even, subnormals
//! included; [`super::codec`]); the libraries differ only in these codes, which were recorded
//! by `tools/oracle/record_narrow_casts.py` and are replayed by `tests/narrow_casts.rs`:
//!
//! | format | ml_dtypes `astype`: NaN / inf / overflow | torch `.to()`: NaN / inf / overflow |
//! | --- | --- | --- |
//! | e4m3fn | NaN / NaN / NaN | NaN / **max** / **max** (saturates) |
//! | e5m2 | `0x7e` / inf / inf | `0x7f` / inf / inf |
//! | e4m3fnuz, e5m2fnuz | `0x80` / `0x80` / `0x80` | the same |
//! | e8m0fnu | `0xff` everywhere; ±0 and negatives are NaN | `0xff`; ±0 → code 0, negatives → their magnitude |
//! | float6, float4 | "NaN" is `-0` (`+0` for `-NaN`); inf and overflow saturate | no such dtype |
//!
//! The sign of a NaN, an infinity or an overflow carries into the code where the format has
//! a sign (`fnuz` formats keep `0x80`). Both libraries convert float64 through float32
//! (double rounding: `1.0625 + 2^-40` becomes `1.0` in e4m3fn, not `1.125`); [`F64Path::Direct`]
//! rounds once. Integers (ml_dtypes): truncate toward zero through a 32-bit integer
//! (NaN, ±inf and values out of `i32` give `i32::MIN`), then keep the low bits (wrap).
//! PyTorch 2.15 has `int4`/`uint4`/`int2`/`uint2` but no cast to them (`copy_` is not
//! implemented), which [`CastRules::torch`] answers with `None`.

use super::format::{Format, Kind};

/// The libraries whose cast semantics are recorded.
///
/// ```
/// use promote::kernel::narrow::{format::lookup, rules::{CastRules, Library}};
/// let f = lookup("float8_e4m3fn").unwrap();
/// assert_eq!(CastRules::of(Library::MlDtypes, f).unwrap().library, Library::MlDtypes);
/// assert_eq!(CastRules::of(Library::Torch, f).unwrap().library, Library::Torch);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Library {
    /// NumPy `astype` on ml_dtypes 0.6.0 dtypes (also JAX's host-side casts).
    MlDtypes,
    /// PyTorch 2.15 `Tensor.to`.
    Torch,
}

impl Library {
    /// `ml_dtypes` or `torch`.
    ///
    /// ```
    /// use promote::kernel::narrow::rules::Library;
    /// assert_eq!(Library::MlDtypes.name(), "ml_dtypes");
    /// assert_eq!(Library::Torch.name(), "torch");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Library::MlDtypes => "ml_dtypes",
            Library::Torch => "torch",
        }
    }
}

/// How a float64 source is rounded.
///
/// ```
/// use promote::kernel::narrow::{codec, format::lookup, rules::{CastRules, F64Path}};
/// let f = lookup("float8_e4m3fn").unwrap();
/// let ml = CastRules::ml_dtypes(f);
/// assert_eq!(ml.f64_path, F64Path::ThroughF32);
/// // 1.0625 + 2^-40 rounds to 1.0625 in float32, a tie that goes to even (1.0)
/// let x = 1.0625 + 2f64.powi(-40);
/// assert_eq!(codec::encode_f64(f, &ml, x), 0x38); // 1.0
/// let direct = ml.correctly_rounded();
/// assert_eq!(direct.f64_path, F64Path::Direct);
/// assert_eq!(codec::encode_f64(f, &direct, x), 0x39); // 1.125, the nearest
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum F64Path {
    /// Round to float32 first, then to the narrow format (what both libraries do).
    ThroughF32,
    /// Round once, from the float64 value (correct rounding).
    Direct,
}

/// What a negative value becomes in an unsigned format (e8m0).
///
/// ```
/// use promote::kernel::narrow::{codec, format::lookup, rules::{CastRules, Negative}};
/// let e8m0 = lookup("float8_e8m0fnu").unwrap();
/// let ml = CastRules::ml_dtypes(e8m0);
/// let torch = CastRules::torch(e8m0).unwrap();
/// assert_eq!((ml.negative, torch.negative), (Negative::Nan, Negative::Magnitude));
/// assert_eq!(codec::encode_f32(e8m0, &ml, -2.0), 0xff); // NaN
/// assert_eq!(codec::encode_f32(e8m0, &torch, -2.0), 0x80); // 2.0
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Negative {
    /// NaN (ml_dtypes).
    Nan,
    /// Its magnitude is encoded: the sign is dropped (PyTorch).
    Magnitude,
}

/// The float32 bits a NaN code decodes to.
///
/// ```
/// use promote::kernel::narrow::{codec, format::lookup, rules::{CastRules, DecodeNan}};
/// let f = lookup("float8_e4m3fn").unwrap();
/// let ml = CastRules::ml_dtypes(f);
/// let torch = CastRules::torch(f).unwrap();
/// assert_eq!((ml.decode_nan, torch.decode_nan), (DecodeNan::Quiet, DecodeNan::Payload));
/// assert_eq!(codec::decode_f32(f, &ml, 0xff).to_bits(), 0xffc0_0000);
/// assert_eq!(codec::decode_f32(f, &torch, 0xff).to_bits(), 0xfff0_0000); // mantissa 0b111
/// let fnuz = lookup("float8_e4m3fnuz").unwrap();
/// let torch = CastRules::torch(fnuz).unwrap();
/// assert_eq!(torch.decode_nan, DecodeNan::Fixed(0x7f80_0001));
/// assert_eq!(codec::decode_f32(fnuz, &torch, 0x80).to_bits(), 0x7f80_0001);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DecodeNan {
    /// `0x7fc00000` with the code's sign (ml_dtypes).
    Quiet,
    /// The code's mantissa at the top of float32's, quietened, with its sign (PyTorch e4m3fn,
    /// e5m2: its bit arithmetic).
    Payload,
    /// These bits, whatever the code (PyTorch's fnuz and e8m0: `0x7f800001`).
    Fixed(u32),
}

/// One library's edge cases for one format (the codes are those of positive values; a
/// negative source negates them as the format negates).
///
/// ```
/// use promote::kernel::narrow::{format::lookup, rules::CastRules};
/// let e5m2 = lookup("float8_e5m2").unwrap();
/// let ml = CastRules::ml_dtypes(e5m2);
/// assert_eq!((ml.nan, ml.inf, ml.overflow, ml.zero), (0x7e, 0x7c, 0x7c, 0x00));
/// let torch = CastRules::torch(e5m2).unwrap();
/// assert_eq!((torch.nan, torch.inf, torch.overflow), (0x7f, 0x7c, 0x7c));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CastRules {
    /// Whose semantics these are.
    pub library: Library,
    /// The code of a NaN.
    pub nan: u8,
    /// The code of `+inf`.
    pub inf: u8,
    /// The code of a finite value that rounds above the largest.
    pub overflow: u8,
    /// The code of `+0`.
    pub zero: u8,
    /// Negative values of an unsigned format.
    pub negative: Negative,
    /// Float64 sources.
    pub f64_path: F64Path,
    /// What NaN codes decode to.
    pub decode_nan: DecodeNan,
}

impl CastRules {
    /// NumPy `astype` with ml_dtypes 0.6.0 (its `ConvertImpl`, non-saturating): NaN is the
    /// format's `quiet_NaN` (`-0` where there is none), infinity and overflow its `infinity()`
    /// (the NaN code where there is no infinity, the largest value where there is no NaN).
    ///
    /// ```
    /// use promote::kernel::narrow::{format::lookup, rules::CastRules};
    /// // e4m3fn has no infinity: infinity and overflow are NaN
    /// let r = CastRules::ml_dtypes(lookup("float8_e4m3fn").unwrap());
    /// assert_eq!((r.nan, r.inf, r.overflow), (0x7f, 0x7f, 0x7f));
    /// // float4 has no NaN: NaN is -0, infinity and overflow the largest value
    /// let r = CastRules::ml_dtypes(lookup("float4_e2m1fn").unwrap());
    /// assert_eq!((r.nan, r.inf, r.overflow), (0x08, 0x07, 0x07));
    /// // e8m0 has no zero: zero is NaN
    /// let r = CastRules::ml_dtypes(lookup("float8_e8m0fnu").unwrap());
    /// assert_eq!((r.nan, r.zero), (0xff, 0xff));
    /// ```
    pub fn ml_dtypes(f: &Format) -> CastRules {
        let nan = f.nan_code.unwrap_or(f.sign_bit());
        let inf = f.inf_code.or(f.nan_code).unwrap_or(f.max_code);
        CastRules {
            library: Library::MlDtypes,
            nan,
            inf,
            overflow: inf,
            zero: if f.has_zero { 0 } else { nan },
            negative: Negative::Nan,
            f64_path: F64Path::ThroughF32,
            decode_nan: DecodeNan::Quiet,
        }
    }

    /// PyTorch 2.15 `Tensor.to` for the five float8 formats it can cast; `None` for the rest
    /// (it has no float6, float4 only packed, and no casts to its int4/int2 dtypes).
    ///
    /// ```
    /// use promote::kernel::narrow::{format::lookup, rules::CastRules};
    /// // e4m3fn saturates: infinity and overflow are the largest value, 448
    /// let r = CastRules::torch(lookup("float8_e4m3fn").unwrap()).unwrap();
    /// assert_eq!((r.nan, r.inf, r.overflow), (0x7f, 0x7e, 0x7e));
    /// assert_eq!(CastRules::torch(lookup("float8_e8m0fnu").unwrap()).unwrap().zero, 0);
    /// assert!(CastRules::torch(lookup("float6_e2m3fn").unwrap()).is_none());
    /// assert!(CastRules::torch(lookup("int4").unwrap()).is_none());
    /// ```
    pub fn torch(f: &Format) -> Option<CastRules> {
        let base = CastRules {
            library: Library::Torch,
            negative: Negative::Magnitude,
            f64_path: F64Path::ThroughF32,
            zero: 0,
            ..CastRules::ml_dtypes(f)
        };
        let fixed = DecodeNan::Fixed(0x7f80_0001);
        Some(match f.name {
            "float8_e4m3fn" => CastRules {
                nan: 0x7f,
                inf: 0x7e,
                overflow: 0x7e,
                decode_nan: DecodeNan::Payload,
                ..base
            },
            "float8_e5m2" => CastRules {
                nan: 0x7f,
                inf: 0x7c,
                overflow: 0x7c,
                decode_nan: DecodeNan::Payload,
                ..base
            },
            "float8_e4m3fnuz" | "float8_e5m2fnuz" | "float8_e8m0fnu" => CastRules {
                decode_nan: fixed,
                ..base
            },
            _ => return None,
        })
    }

    /// The rules of `library` for `f` (`None` where the library has no such cast).
    ///
    /// ```
    /// use promote::kernel::narrow::{format::lookup, rules::{CastRules, Library}};
    /// let int4 = lookup("int4").unwrap();
    /// assert!(CastRules::of(Library::MlDtypes, int4).is_some());
    /// assert!(CastRules::of(Library::Torch, int4).is_none());
    /// assert!(CastRules::of(Library::MlDtypes, lookup("complex32").unwrap()).is_none());
    /// ```
    pub fn of(library: Library, f: &Format) -> Option<CastRules> {
        match (library, f.kind) {
            (_, Kind::Complex) => None,
            (Library::MlDtypes, _) => Some(CastRules::ml_dtypes(f)),
            (Library::Torch, _) => CastRules::torch(f),
        }
    }

    /// The same rules, rounding float64 sources once ([`F64Path::Direct`]).
    ///
    /// ```
    /// use promote::kernel::narrow::{codec, format::lookup, rules::{CastRules, F64Path}};
    /// let f = lookup("float8_e5m2").unwrap();
    /// let ml = CastRules::ml_dtypes(f);
    /// let direct = ml.correctly_rounded();
    /// assert_eq!(direct.f64_path, F64Path::Direct);
    /// assert_eq!((direct.nan, direct.inf, direct.library), (ml.nan, ml.inf, ml.library));
    /// // 1.125 + 2^-40: float32 rounds it to 1.125, a tie that goes to even (1.0) in e5m2
    /// let x = 1.125 + 2f64.powi(-40);
    /// assert_eq!(codec::encode_f64(f, &ml, x), 0x3c); // 1.0
    /// assert_eq!(codec::encode_f64(f, &direct, x), 0x3d); // 1.25
    /// ```
    pub fn correctly_rounded(self) -> CastRules {
        CastRules {
            f64_path: F64Path::Direct,
            ..self
        }
    }
}
