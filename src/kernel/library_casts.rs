//! Where a library's `astype` between classic dtypes (and into complex32) is not the NumPy cast
//! layer's ([`super::cast`]): one table, [`QUIRKS`], each row a library, the sources and target
//! it covers, the rule, and where it comes from. [`super::astype::convert`] asks it first.
//!
//! ml_dtypes registers one cast function per pair of its dtypes and NumPy's
//! (`NPyCast<From, To>` in `ml_dtypes/_src/custom_float.h`): `static_cast<To>(CastToFloat(x))`,
//! the real part **through float32**, then Eigen's conversion, which squashes every NaN to one
//! quiet NaN of the same sign (`float_to_bfloat16_rtne`, `float_to_half_rtne`). PyTorch's
//! `copy_` (`aten/src/ATen/native/cpu/CopyKernel.cpp`, `c10::BFloat16(float)`) rounds through
//! float32 as well, and makes every NaN `0x7fc0` (its float32 loop `0xffff`). Each rule was
//! fitted to every recorded cell of its pairs (`tests/fixtures/astype/`, replayed by
//! `tests/astype_values.rs`).
//!
//! ```
//! use promote::kernel::library_casts::quirk;
//! use promote::kernel::narrow::rules::Library;
//! use promote::DType;
//! // ml_dtypes casts float64 to bfloat16 through float32; its float64 -> float16 is NumPy's own
//! let q = quirk(Library::MlDtypes, DType::Float64, DType::BFloat16).unwrap();
//! assert!(q.source.contains("CastToFloat"));
//! assert!(quirk(Library::MlDtypes, DType::Float64, DType::Float16).is_some());
//! ```

use half::{bf16, f16};

use super::array::{Array, Element, View};
use super::astype::Values;
use super::cast::cast_array;
use super::narrow::rules::Library;
use crate::dtype::DType;

/// Which source dtypes a row covers.
///
/// ```
/// use promote::kernel::library_casts::{quirk, Sources};
/// use promote::kernel::narrow::rules::Library;
/// use promote::DType;
/// let q = quirk(Library::MlDtypes, DType::Float32, DType::BFloat16).unwrap();
/// assert!(matches!(q.to, Sources::Only(ds) if ds == [DType::BFloat16]));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Sources {
    /// Every classic dtype and complex32.
    Any,
    /// Every one but these.
    AllBut(&'static [DType]),
    /// Only these.
    Only(&'static [DType]),
}

impl Sources {
    fn covers(self, d: DType) -> bool {
        match self {
            Sources::Any => true,
            Sources::AllBut(ds) => !ds.contains(&d),
            Sources::Only(ds) => ds.contains(&d),
        }
    }
}

/// What a row does.
///
/// ```
/// use promote::kernel::library_casts::{quirk, Rule};
/// use promote::kernel::narrow::rules::Library;
/// use promote::DType;
/// let q = quirk(Library::MlDtypes, DType::Float32, DType::BFloat16).unwrap();
/// assert!(matches!(q.rule, Rule::ThroughF32 { nan: 0x7fc0, keep_sign: true }));
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// The real part rounded to float32 (nearest even), then to the target (bfloat16 or
    /// float16, nearest even); a NaN becomes the code `nan`, with the source's sign when
    /// `keep_sign`. complex32 as the target: each part so.
    ThroughF32 {
        /// The code of a positive NaN in the target.
        nan: u16,
        /// A negative NaN keeps its sign.
        keep_sign: bool,
    },
    /// NumPy's float64 → float16 (`npy_doublebits_to_halfbits`): correctly rounded; a NaN keeps
    /// the top ten bits of its payload as they are (not made quiet; an all-zero payload becomes 1).
    HalfFromDoubleBits,
    /// complex32's real part as stored (PyTorch's `c10::complex<Half>::real()`).
    RealPart,
    /// A NaN becomes 0, anything else as the cast layer casts it.
    NanIsZero,
    /// A float through a 64-bit integer (`cvttsd2si`: out of range and NaN give `i64::MIN`), its
    /// low bits kept (a NaN is 0).
    ThroughInt64,
    /// A float to bool through a 64-bit integer's low byte (ml_dtypes' complex32 → bool writes
    /// that byte into the bool array: NumPy reads it as `True` when nonzero, so 0.25, 256.0
    /// and inf read `False`); held as a bool: the byte's truth.
    LowByte,
    /// float → uint32 by position: the array converts in SIMD blocks of `width` elements
    /// ([`simd_u32`]: out of range and NaN follow the vector instruction), and its last
    /// elements — `n mod width` of them, or with `full_tail` `(n - 1) mod width + 1` (a full
    /// last block too) — by the scalar C cast, as [`Rule::ThroughInt64`].
    SimdBlocks {
        /// Elements per SIMD block.
        width: usize,
        /// The last block goes scalar even when full.
        full_tail: bool,
    },
}

/// One element of a SIMD float → uint32 block (x86's emulation of an unsigned conversion):
/// `x >= 2^31` converts as `cvtt(x - 2^31) ^ 0x80000000`, anything else as `cvtt(x)`, where
/// `cvtt` truncates to int32 and gives `0x80000000` for NaN and out of range. So NaN, -inf and
/// values below -2^31 give `0x80000000`, +inf and values from 2^32 give 0.
///
/// ```
/// use promote::kernel::library_casts::simd_u32;
/// assert_eq!(simd_u32(f64::NAN), 0x8000_0000);
/// assert_eq!(simd_u32(4294967296.0), 0);
/// assert_eq!(simd_u32(-2.5), 0xffff_fffe);
/// assert_eq!(simd_u32(3e9), 3_000_000_000);
/// ```
pub fn simd_u32(x: f64) -> u32 {
    const HALF: f64 = 2_147_483_648.0;
    let cvtt = |y: f64| match y > -HALF - 1.0 && y < HALF {
        true => y.trunc() as i32 as u32,
        false => 0x8000_0000, // also NaN: every comparison is false
    };
    match x >= HALF {
        true => cvtt(x - HALF) ^ 0x8000_0000,
        false => cvtt(x),
    }
}

/// How many of `n` elements take the scalar tail of [`Rule::SimdBlocks`].
fn tail_length(n: usize, width: usize, full_tail: bool) -> usize {
    match (n, full_tail) {
        (0, _) => 0,
        (_, true) => (n - 1) % width + 1,
        (_, false) => n % width,
    }
}

/// One row of [`QUIRKS`].
///
/// ```
/// use promote::kernel::library_casts::{Quirk, QUIRKS};
/// let q: &Quirk = &QUIRKS[0];
/// assert!(!q.source.is_empty());
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Quirk {
    /// Whose `astype`.
    pub library: Library,
    /// The sources it covers.
    pub from: Sources,
    /// The targets it covers.
    pub to: Sources,
    /// The rule.
    pub rule: Rule,
    /// Where it comes from.
    pub source: &'static str,
}

const FLOATS: &[DType] = &[
    DType::BFloat16,
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];

const POSITIONS: &str = "probed with tools/oracle/probe_uint32_blocks.py (n copies of -inf, n = 1..39; a misaligned view alike) and fitted to every recorded cell (tests/fixtures/astype/)";

/// The rows, first match wins.
pub const QUIRKS: &[Quirk] = &[
    Quirk {
        library: Library::MlDtypes,
        from: Sources::Only(&[DType::Float32, DType::Float64]),
        to: Sources::Only(&[DType::UInt32]),
        rule: Rule::SimdBlocks { width: 4, full_tail: false },
        source: POSITIONS,
    },
    Quirk {
        library: Library::MlDtypes,
        from: Sources::Only(&[DType::BFloat16]),
        to: Sources::Only(&[DType::UInt32]),
        rule: Rule::SimdBlocks { width: 8, full_tail: false },
        source: POSITIONS,
    },
    Quirk {
        library: Library::MlDtypes,
        from: Sources::Only(&[DType::Complex64, DType::Complex128]),
        to: Sources::Only(&[DType::UInt32]),
        // complex128 with n = 5 and 6 has tails of 5 and 2: not this rule (left alone)
        rule: Rule::SimdBlocks { width: 4, full_tail: true },
        source: POSITIONS,
    },
    Quirk {
        library: Library::MlDtypes,
        from: Sources::Only(&[DType::COMPLEX32]),
        to: Sources::Only(&[DType::Bool]),
        rule: Rule::LowByte,
        source: "ml_dtypes 0.6.0 complex32 -> bool: the real part's C conversion through int64, its low byte stored (1.5 -> 1, 448.0 -> 192, 0.25, 256.0, inf -> 0); NumPy reads a nonzero byte as True. Fitted to every recorded cell (tests/fixtures/astype/), compared by truth",
    },
    Quirk {
        library: Library::Torch,
        from: Sources::Only(&[DType::Float32, DType::Float64, DType::Complex128]),
        to: Sources::Only(&[DType::UInt32]),
        rule: Rule::SimdBlocks { width: 4, full_tail: false },
        source: POSITIONS,
    },
    Quirk {
        library: Library::Torch,
        from: Sources::Only(&[DType::BFloat16]),
        to: Sources::Only(&[DType::UInt32]),
        rule: Rule::SimdBlocks { width: 8, full_tail: false },
        source: POSITIONS,
    },
    Quirk {
        library: Library::Torch,
        from: Sources::Only(&[DType::Complex64]),
        to: Sources::Only(&[DType::UInt32]),
        rule: Rule::SimdBlocks { width: 4, full_tail: true },
        source: POSITIONS,
    },
    Quirk {
        library: Library::MlDtypes,
        from: Sources::AllBut(&[DType::BFloat16]),
        to: Sources::Only(&[DType::BFloat16]),
        rule: Rule::ThroughF32 { nan: 0x7fc0, keep_sign: true },
        source: "ml_dtypes custom_float.h NPyCast: static_cast<bfloat16>(CastToFloat(x)); Eigen float_to_bfloat16_rtne: NaN is 0x7fc0 | sign",
    },
    Quirk {
        library: Library::MlDtypes,
        from: Sources::Only(&[DType::BFloat16, DType::COMPLEX32]),
        to: Sources::Only(&[DType::Float16]),
        rule: Rule::ThroughF32 { nan: 0x7e00, keep_sign: true },
        source: "ml_dtypes NPyCast<bfloat16, half> / complex32's real(): Eigen float_to_half_rtne: NaN is 0x7e00 | sign",
    },
    Quirk {
        library: Library::MlDtypes,
        from: Sources::Only(&[DType::Float64, DType::Complex128]),
        to: Sources::Only(&[DType::Float16]),
        rule: Rule::HalfFromDoubleBits,
        source: "NumPy's own double -> half cast (numpy/_core/src/common/half_private.hpp FromDoubleBits)",
    },
    Quirk {
        library: Library::MlDtypes,
        from: Sources::Any,
        to: Sources::Only(&[DType::COMPLEX32]),
        rule: Rule::ThroughF32 { nan: 0x7e00, keep_sign: true },
        source: "ml_dtypes complex_types.h complex32(std::complex<T>): half{z.real()}, half{z.imag()} through float (Eigen)",
    },
    Quirk {
        library: Library::Torch,
        from: Sources::Only(&[DType::Float32]),
        to: Sources::Only(&[DType::BFloat16]),
        rule: Rule::ThroughF32 { nan: 0xffff, keep_sign: false },
        source: "PyTorch 2.15 float32 -> bfloat16 (vectorized cvtfp32_bf16): every NaN is 0xffff",
    },
    Quirk {
        library: Library::Torch,
        from: Sources::Any,
        to: Sources::Only(&[DType::BFloat16]),
        rule: Rule::ThroughF32 { nan: 0x7fc0, keep_sign: false },
        source: "PyTorch 2.15 c10::BFloat16(float): round_to_nearest_even, every NaN is 0x7fc0; a double through float",
    },
    Quirk {
        library: Library::Torch,
        from: Sources::Only(&[DType::COMPLEX32]),
        to: Sources::Only(&[DType::Float16]),
        rule: Rule::RealPart,
        source: "PyTorch 2.15 complex32 -> float16 keeps the real part's bits",
    },
    Quirk {
        library: Library::Torch,
        from: Sources::Only(FLOATS),
        to: Sources::Only(&[DType::UInt8]),
        rule: Rule::ThroughInt64,
        source: "PyTorch 2.15 float -> uint8: static_cast<uint8_t> compiled through a 64-bit integer",
    },
    Quirk {
        library: Library::Torch,
        from: Sources::Only(&[DType::FLOAT8_E4M3FNUZ, DType::FLOAT8_E5M2FNUZ, DType::FLOAT8_E8M0FNU]),
        to: Sources::Only(&[DType::Int32, DType::Int64, DType::UInt64]),
        rule: Rule::NanIsZero,
        source: "PyTorch 2.15 float8_e4m3fnuz / e5m2fnuz / e8m0fnu -> int32, int64, uint64: NaN is 0 (e4m3fn and e5m2 give the C cast's minimum)",
    },
];

/// The row of [`QUIRKS`] for a cast, if any.
///
/// ```
/// use promote::kernel::library_casts::quirk;
/// use promote::kernel::narrow::rules::Library;
/// use promote::DType;
/// assert!(quirk(Library::MlDtypes, DType::Float32, DType::BFloat16).is_some());
/// assert!(quirk(Library::MlDtypes, DType::Float32, DType::Float16).is_none());
/// ```
pub fn quirk(library: Library, from: DType, to: DType) -> Option<&'static Quirk> {
    QUIRKS
        .iter()
        .find(|q| q.library == library && q.to.covers(to) && q.from.covers(from) && from != to)
}

/// Values of `from` (held in `v`: a narrow float's decoded into float32) cast to `to` by
/// the library's row, if it has one.
///
/// ```
/// use promote::kernel::library_casts::classic_quirk;
/// use promote::kernel::narrow::rules::Library;
/// use promote::kernel::Array;
/// use promote::DType;
/// let x = Array::from(vec![1.5f32, -2.0]);
/// assert!(classic_quirk(DType::Float32, x.view(), DType::BFloat16, Library::MlDtypes).is_some());
/// assert!(classic_quirk(DType::Float32, x.view(), DType::Float16, Library::MlDtypes).is_none());
/// ```
pub fn classic_quirk(from: DType, v: View<'_>, to: DType, library: Library) -> Option<Values> {
    let q = quirk(library, from, to)?;
    Some(apply(q.rule, v, to))
}

/// complex32 values cast by the library's row, if it has one (the real part read as stored).
///
/// ```
/// use half::f16;
/// use promote::kernel::library_casts::complex32_quirk;
/// use promote::kernel::narrow::rules::Library;
/// use promote::DType;
/// let z = [[f16::from_f32(1.5), f16::from_f32(-2.0)]];
/// assert!(complex32_quirk(&z, DType::Float16, Library::MlDtypes).is_some());
/// ```
pub fn complex32_quirk(v: &[[f16; 2]], to: DType, library: Library) -> Option<Values> {
    let q = quirk(library, DType::COMPLEX32, to)?;
    if let Rule::RealPart = q.rule {
        let re: Vec<f16> = v.iter().map(|z| z[0]).collect();
        return Some(Values::Classic(Array::from(re)));
    }
    let wide: Vec<super::array::C32> = v
        .iter()
        .map(|[re, im]| super::array::C32::new(re.to_f32(), im.to_f32()))
        .collect();
    Some(apply(q.rule, Array::from(wide).view(), to))
}

fn apply(rule: Rule, v: View<'_>, to: DType) -> Values {
    match rule {
        Rule::ThroughF32 { nan, keep_sign } => {
            let part = |x: f32| round_f32(x, to, nan, keep_sign);
            if to == DType::COMPLEX32 {
                let z = cast_array(v, DType::Complex64);
                let z = super::array::C32::slice(z.view()).unwrap_or(&[]);
                let parts = z.iter().map(|z| [part(z.re), part(z.im)]);
                let parts = parts.map(|[re, im]| [f16::from_bits(re), f16::from_bits(im)]);
                return Values::Complex32(parts.collect());
            }
            let x = cast_array(v, DType::Float32);
            let codes: Vec<u16> = f32::slice(x.view())
                .unwrap_or(&[])
                .iter()
                .map(|&x| part(x))
                .collect();
            Values::Classic(match to {
                DType::BFloat16 => {
                    Array::from(codes.into_iter().map(bf16::from_bits).collect::<Vec<_>>())
                }
                _ => Array::from(codes.into_iter().map(f16::from_bits).collect::<Vec<_>>()),
            })
        }
        Rule::HalfFromDoubleBits => {
            let x = cast_array(v, DType::Float64);
            let h: Vec<f16> = f64::slice(x.view())
                .unwrap_or(&[])
                .iter()
                .map(|&x| half_from_double_bits(x))
                .collect();
            Values::Classic(Array::from(h))
        }
        Rule::ThroughInt64 => {
            let x = cast_array(v, DType::Float64);
            let ints: Vec<i64> = f64::slice(x.view())
                .unwrap_or(&[])
                .iter()
                .map(|&x| match x.is_nan() {
                    true => 0,
                    false => <i64 as super::cast::FromFloat>::from_float(x),
                })
                .collect();
            Values::Classic(cast_array(Array::from(ints).view(), to))
        }
        Rule::NanIsZero => {
            let x = cast_array(v, DType::Float64);
            let x: Vec<f64> = f64::slice(x.view())
                .unwrap_or(&[])
                .iter()
                .map(|&x| if x.is_nan() { 0.0 } else { x })
                .collect();
            Values::Classic(cast_array(Array::from(x).view(), to))
        }
        Rule::RealPart => Values::Classic(cast_array(v, to)),
        Rule::LowByte => low_byte(v),
        Rule::SimdBlocks { width, full_tail } => simd_blocks(v, width, full_tail),
    }
}

/// [`Rule::LowByte`]: the truth of a float's int64 low byte.
fn low_byte(v: View<'_>) -> Values {
    let x = cast_array(v, DType::Float64);
    let truth: Vec<bool> = f64::slice(x.view())
        .unwrap_or(&[])
        .iter()
        .map(|&x| <i64 as super::cast::FromFloat>::from_float(x) & 0xff != 0)
        .collect();
    Values::Classic(Array::from(truth))
}

/// [`Rule::SimdBlocks`]: float → uint32, SIMD blocks then the scalar tail.
fn simd_blocks(v: View<'_>, width: usize, full_tail: bool) -> Values {
    let x = cast_array(v, DType::Float64);
    let x = f64::slice(x.view()).unwrap_or(&[]);
    let scalar_from = x.len() - tail_length(x.len(), width, full_tail);
    let through_int64 = |x: f64| match x.is_nan() {
        true => 0,
        false => <i64 as super::cast::FromFloat>::from_float(x) as u32,
    };
    let out: Vec<u32> = x
        .iter()
        .enumerate()
        .map(|(i, &x)| match i < scalar_from {
            true => simd_u32(x),
            false => through_int64(x),
        })
        .collect();
    Values::Classic(Array::from(out))
}

/// `x` rounded to nearest even into bfloat16 or float16 (`to`), as bits; NaN as the row says.
fn round_f32(x: f32, to: DType, nan: u16, keep_sign: bool) -> u16 {
    if x.is_nan() {
        let sign = if keep_sign && x.is_sign_negative() {
            0x8000
        } else {
            0
        };
        return nan | sign;
    }
    match to {
        DType::BFloat16 => super::cast::f32_to_bf16(x).to_bits(),
        _ => super::cast::f32_to_f16(x).to_bits(),
    }
}

/// NumPy's `npy_doublebits_to_halfbits` on a NaN; every other value correctly rounded.
fn half_from_double_bits(x: f64) -> f16 {
    if !x.is_nan() {
        return super::cast::cast::<f64, f16>(x);
    }
    let b = x.to_bits();
    let sign = ((b >> 48) & 0x8000) as u16;
    let payload = ((b & ((1u64 << 52) - 1)) >> 42) as u16;
    f16::from_bits(sign | 0x7c00 | payload.max(1))
}
