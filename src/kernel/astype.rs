//! The values of the explicit conversion `astype` (`a.astype(d)`, `t.to(d)`) between any two
//! dtypes, classic or narrow, with a library's cast semantics.
//!
//! * classic → classic: the cast layer ([`super::cast`], NumPy's semantics on x86-64);
//! * narrow → anything: the narrow value decoded exactly (a float8/6/4 into float32, an
//!   int4/int2 into int8/uint8, complex32 into complex64), then as from that classic dtype;
//! * classic → a narrow float: float64 (and complex128's real part) through the library's
//!   float64 path ([`super::narrow::rules::F64Path`]), every other dtype through float32
//!   first, then the library's float32 encoder;
//! * classic → a narrow integer: an integer as int64, a float through float32 and int32 (C's
//!   conversion: out of range is int32's minimum), wrapped into the format's bits;
//! * ml_dtypes' narrow float → an integer: NaN is 0, ±inf the target's extremes (int64's for a
//!   narrow integer, wrapped), a finite value truncated to int64 and wrapped;
//! * → complex32: each part rounded to float16 from the complex64 value.
//!
//! Bit for bit against NumPy 2.4.6 with ml_dtypes 0.6.0 and PyTorch 2.15 on every pair of
//! their dtypes: every bit pattern of each 8-bit-or-narrower source, edge values of the wider
//! ones (`tests/astype_values.rs`, `tests/fixtures/astype/`).
//!
//! ```
//! use promote::kernel::astype::{convert, Values};
//! use promote::kernel::narrow::rules::Library;
//! use promote::kernel::Array;
//! use promote::DType;
//! let x = Values::Classic(Array::from(vec![1.0f32, 500.0, f32::NAN]));
//! let torch = convert(&x, DType::FLOAT8_E4M3FN, Library::Torch).unwrap();
//! assert_eq!(torch, Values::Codes(DType::FLOAT8_E4M3FN, vec![0x38, 0x7e, 0x7f]));
//! let ml = convert(&x, DType::FLOAT8_E4M3FN, Library::MlDtypes).unwrap();
//! assert_eq!(ml, Values::Codes(DType::FLOAT8_E4M3FN, vec![0x38, 0x7f, 0x7f]));
//! let back = convert(&torch, DType::Float32, Library::Torch).unwrap();
//! assert_eq!(back.widened(Library::Torch).unwrap().dtype(), DType::Float32);
//! ```

use half::f16;

use super::array::{Array, Element, View, ViewMut, C32};
use super::cast::{cast_array, f32_to_f16};
use super::library_casts::{classic_quirk, complex32_quirk};
use super::narrow::format::Kind;
use super::narrow::{rules::Library, Codec, NarrowError};
use crate::dtype::DType;

/// The elements of one tensor of any dtype.
///
/// ```
/// use promote::kernel::astype::Values;
/// use promote::kernel::Array;
/// use promote::DType;
/// assert_eq!(Values::Classic(Array::from(vec![1i8])).dtype(), DType::Int8);
/// assert_eq!(Values::Codes(DType::FLOAT8_E5M2, vec![0x3c]).len(), 1);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    /// The elements of a classic dtype.
    Classic(Array),
    /// A narrow float or integer dtype's stored codes: one per byte, the code in the low bits
    /// (as ml_dtypes stores float6, float4, int4 and int2).
    Codes(DType, Vec<u8>),
    /// complex32's elements: (real, imaginary) float16 pairs.
    Complex32(Vec<[f16; 2]>),
}

impl Values {
    /// The dtype.
    ///
    /// ```
    /// use promote::kernel::astype::Values;
    /// use promote::DType;
    /// assert_eq!(Values::Codes(DType::INT4, vec![1]).dtype(), DType::INT4);
    /// ```
    pub fn dtype(&self) -> DType {
        match self {
            Values::Classic(a) => a.dtype(),
            Values::Codes(d, _) => *d,
            Values::Complex32(_) => DType::COMPLEX32,
        }
    }

    /// The number of elements.
    ///
    /// ```
    /// use promote::kernel::astype::Values;
    /// use promote::DType;
    /// assert_eq!(Values::Codes(DType::INT4, vec![1, 2]).len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        match self {
            Values::Classic(a) => a.len(),
            Values::Codes(_, c) => c.len(),
            Values::Complex32(v) => v.len(),
        }
    }

    /// No elements.
    ///
    /// ```
    /// use promote::kernel::astype::Values;
    /// assert!(Values::Complex32(vec![]).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Elements from their stored little-endian bytes (`itemsize` bytes each; a narrow dtype
    /// one byte, complex32 two float16s); `None` when the length does not divide, or a bool
    /// byte is not 0 or 1.
    ///
    /// ```
    /// use promote::kernel::astype::Values;
    /// use promote::kernel::Array;
    /// use promote::DType;
    /// let v = Values::from_le_bytes(DType::Int16, &[1, 0, 255, 255]).unwrap();
    /// assert_eq!(v, Values::Classic(Array::from(vec![1i16, -1])));
    /// assert_eq!(v.to_le_bytes(), vec![1, 0, 255, 255]);
    /// ```
    pub fn from_le_bytes(d: DType, bytes: &[u8]) -> Option<Values> {
        if d == DType::COMPLEX32 {
            let parts: Vec<[f16; 2]> = bytes
                .chunks_exact(4)
                .map(|c| {
                    let h = |i: usize| f16::from_le_bytes([c[i], c[i + 1]]);
                    [h(0), h(2)]
                })
                .collect();
            return bytes
                .len()
                .is_multiple_of(4)
                .then_some(Values::Complex32(parts));
        }
        if !d.is_classic() {
            return Some(Values::Codes(d, bytes.to_vec()));
        }
        if !bytes.len().is_multiple_of(d.itemsize())
            || (d == DType::Bool && bytes.iter().any(|&b| b > 1))
        {
            return None;
        }
        let mut a = Array::zeros(d, bytes.len() / d.itemsize());
        crate::each_dtype!(ViewMut, a.view_mut(), s, T => {
            for (x, c) in s.iter_mut().zip(bytes.chunks_exact(d.itemsize())) {
                *x = <T as LeBytes>::read(c);
            }
        });
        Some(Values::Classic(a))
    }

    /// The stored little-endian bytes (the inverse of [`Values::from_le_bytes`]).
    ///
    /// ```
    /// use promote::kernel::astype::Values;
    /// use promote::DType;
    /// assert_eq!(Values::Codes(DType::UINT4, vec![15]).to_le_bytes(), vec![15]);
    /// ```
    pub fn to_le_bytes(&self) -> Vec<u8> {
        match self {
            Values::Codes(_, c) => c.clone(),
            Values::Complex32(v) => v
                .iter()
                .flat_map(|[re, im]| [re.to_le_bytes(), im.to_le_bytes()].concat())
                .collect(),
            Values::Classic(a) => {
                let mut out = Vec::with_capacity(a.nbytes());
                crate::each_dtype!(View, a.view(), s, T => {
                    for x in s {
                        <T as LeBytes>::write(*x, &mut out);
                    }
                });
                out
            }
        }
    }

    /// The values exactly, in the classic dtype that holds every value of the dtype: a narrow
    /// float in float32, int4/int2 in int8, uint4/uint2 in uint8, complex32 in complex64 (NaN
    /// codes as the library decodes them).
    ///
    /// ```
    /// use promote::kernel::astype::Values;
    /// use promote::kernel::{narrow::rules::Library, Array};
    /// use promote::DType;
    /// let v = Values::Codes(DType::INT4, vec![0x0f, 0x07]);
    /// assert_eq!(v.widened(Library::MlDtypes).unwrap(), Array::from(vec![-1i8, 7]));
    /// ```
    pub fn widened(&self, library: Library) -> Result<Array, NarrowError> {
        match self {
            Values::Classic(a) => Ok(a.clone()),
            Values::Complex32(v) => Ok(Array::from(
                v.iter()
                    .map(|[re, im]| C32::new(re.to_f32(), im.to_f32()))
                    .collect::<Vec<C32>>(),
            )),
            Values::Codes(d, codes) => {
                let c = Codec::for_library(d.name(), library)?;
                let mut wide = vec![0f32; codes.len()];
                c.decode_f32_slice(codes, &mut wide)?;
                let wide = Array::from(wide);
                Ok(match c.format.kind {
                    Kind::SignedInt => cast_array(wide.view(), DType::Int8),
                    Kind::UnsignedInt => cast_array(wide.view(), DType::UInt8),
                    _ => wide,
                })
            }
        }
    }
}

/// Convert values to `to` with `library`'s cast semantics (see the module's table).
///
/// ```
/// use promote::kernel::astype::{convert, Values};
/// use promote::kernel::{narrow::rules::Library, Array};
/// use promote::DType;
/// let x = Values::Classic(Array::from(vec![-1i32, 8, 300]));
/// let y = convert(&x, DType::INT4, Library::MlDtypes).unwrap();
/// assert_eq!(y, Values::Codes(DType::INT4, vec![0x0f, 0x08, 0x0c]));
/// ```
pub fn convert(src: &Values, to: DType, library: Library) -> Result<Values, NarrowError> {
    if src.dtype() == to {
        return Ok(src.clone()); // the same dtype: a copy (NaN payloads kept)
    }
    if let Values::Complex32(v) = src {
        if let Some(v) = complex32_quirk(v, to, library) {
            return Ok(v);
        }
    }
    if let (Values::Codes(d, codes), Library::MlDtypes) = (src, library) {
        if to.is_integer() && !d.is_integer() && *d != DType::COMPLEX32 {
            return ml_dtypes_float_to_int(*d, codes, to);
        }
    }
    let wide;
    let from = match src {
        Values::Classic(a) => a.view(),
        _ => {
            wide = src.widened(library)?;
            wide.view()
        }
    };
    if let Some(v) = classic_quirk(src.dtype(), from, to, library) {
        return Ok(v);
    }
    if to.is_classic() {
        return Ok(Values::Classic(cast_array(from, to)));
    }
    if to == DType::COMPLEX32 {
        let c = cast_array(from, DType::Complex64);
        let c = C32::slice(c.view()).expect("complex64");
        return Ok(Values::Complex32(
            c.iter()
                .map(|z| [f32_to_f16(z.re), f32_to_f16(z.im)])
                .collect(),
        ));
    }
    let codec = Codec::for_library(to.name(), library)?;
    let mut codes = vec![0u8; from.len()];
    match codec.format.kind {
        Kind::SignedInt | Kind::UnsignedInt => {
            let mask = ((1u16 << codec.format.bits) - 1) as u8;
            // from a float: ml_dtypes' `CastToInt` on the (real part's) value
            let ints = match from.dtype().is_integer() || from.dtype() == DType::Bool {
                true => cast_array(from, DType::Int64),
                false => cast_to_int(from),
            };
            let ints = i64::slice(ints.view()).expect("int64");
            for (c, &v) in codes.iter_mut().zip(ints) {
                *c = (v as u8) & mask;
            }
        }
        _ => match from.dtype() {
            DType::Float64 | DType::Complex128 => {
                let x = cast_array(from, DType::Float64);
                codec.encode_f64_slice(f64::slice(x.view()).expect("float64"), &mut codes)?;
            }
            _ => {
                let x = cast_array(from, DType::Float32);
                codec.encode_f32_slice(f32::slice(x.view()).expect("float32"), &mut codes)?;
            }
        },
    }
    Ok(Values::Codes(to, codes))
}

/// ml_dtypes' `CastToInt` (`intn_numpy.h`), a float's (real part's) value as an `int`: NaN, ±inf
/// and values outside `int`'s range are 0, the rest truncated toward zero; as int64.
fn cast_to_int(from: View<'_>) -> Array {
    let x = cast_array(from, DType::Float64);
    let ints: Vec<i64> = f64::slice(x.view())
        .unwrap_or(&[])
        .iter()
        .map(
            |&x| match (-2_147_483_648.0..=2_147_483_647.0).contains(&x) {
                true => x as i64,
                false => 0,
            },
        )
        .collect();
    Array::from(ints)
}

/// ml_dtypes' narrow float → integer (its `ConvertImpl` through int64): NaN is 0, ±inf the
/// target's largest / smallest value (a narrow integer: int64's, wrapped), a finite value
/// truncated to int64 and wrapped into the target.
fn ml_dtypes_float_to_int(from: DType, codes: &[u8], to: DType) -> Result<Values, NarrowError> {
    let c = Codec::for_library(from.name(), Library::MlDtypes)?;
    let (lo, hi) = match to.is_classic() {
        true => to.int_range().unwrap_or((0, 1)),
        false => (i64::MIN as i128, i64::MAX as i128),
    };
    let ints: Vec<i64> = codes
        .iter()
        .map(|&k| {
            let x = c.decode_f64(k);
            match x {
                x if x.is_nan() => 0,
                f64::INFINITY => hi as i64,
                f64::NEG_INFINITY => lo as i64,
                x => x as i64,
            }
        })
        .collect();
    if to.is_classic() {
        // a finite value as the cast layer casts a float32 (e8m0's 2^127 to int32 is i32::MIN)
        let finite: Vec<f32> = codes.iter().map(|&k| c.decode_f32(k)).collect();
        let mut out = cast_array(Array::from(finite).view(), to);
        let special = Array::from(ints);
        let special = cast_array(special.view(), to);
        crate::each_dtype!(ViewMut, out.view_mut(), o, T => {
            let s = T::slice(special.view()).expect("the same dtype");
            for ((o, s), &k) in o.iter_mut().zip(s).zip(codes) {
                if !c.decode_f32(k).is_finite() {
                    *o = *s;
                }
            }
        });
        return Ok(Values::Classic(out));
    }
    convert(&Values::Classic(Array::from(ints)), to, Library::MlDtypes)
}

/// Little-endian bytes of one element.
trait LeBytes: Sized {
    fn read(b: &[u8]) -> Self;
    fn write(self, out: &mut Vec<u8>);
}

macro_rules! le_bytes {
    ($($t:ty),*) => {$(
        impl LeBytes for $t {
            fn read(b: &[u8]) -> Self {
                <$t>::from_le_bytes(b.try_into().expect("itemsize bytes"))
            }
            fn write(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
le_bytes!(
    u8,
    u16,
    u32,
    u64,
    i8,
    i16,
    i32,
    i64,
    f32,
    f64,
    half::bf16,
    f16
);

impl LeBytes for bool {
    fn read(b: &[u8]) -> Self {
        b[0] == 1
    }
    fn write(self, out: &mut Vec<u8>) {
        out.push(self as u8);
    }
}

impl<T: LeBytes + Copy> LeBytes for num_complex::Complex<T> {
    fn read(b: &[u8]) -> Self {
        let h = b.len() / 2;
        num_complex::Complex::new(T::read(&b[..h]), T::read(&b[h..]))
    }
    fn write(self, out: &mut Vec<u8>) {
        self.re.write(out);
        self.im.write(out);
    }
}
