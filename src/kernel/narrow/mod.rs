//! The narrow dtypes of ML (float8, float6, float4, int4, int2, complex32): their description
//! as data and exact casts to and from float32 and float64.
//!
//! * [`format`](mod@format): one table, [`format::FORMATS`], describes every narrow dtype (bits, exponent,
//!   mantissa, bias, NaN/inf codes, unsigned zero, kind, every framework's spellings);
//! * [`rules`]: what ml_dtypes' `astype` and PyTorch's `.to()` do at the edges (NaN, inf,
//!   overflow, zero, negatives, float64 sources), recorded from the libraries;
//! * [`codec`]: the one generic encoder/decoder, driven by a format and its rules;
//! * [`arith`]: arithmetic on narrow operands (decoded into a wider carrier, computed there,
//!   rounded once);
//! * [`accumulate`]: reductions and scans that round every partial result into the narrow
//!   dtype (NumPy over ml_dtypes' loops);
//! * [`xla`](mod@xla): XLA's CPU backend where it rounds every HLO op to the narrow dtype;
//! * [`fast`]: the branch-free float32 encoder and decoder the vectorised loops use;
//! * [`Codec`]: a (format, rules) pair with its decode tables, over slices.
//!
//! Storage: one element per byte, the code in the low [`format::Format::bits`] bits, as
//! ml_dtypes stores float6, float4, int4 and int2 (PyTorch's `float4_e2m1fn_x2` packs two per
//! byte and has no casts). Decoding masks the high bits off.
//!
//! ```
//! use promote::kernel::narrow::{Codec, rules::Library};
//! let c = Codec::for_library("torch.float8_e4m3fn", Library::Torch).unwrap();
//! let mut codes = [0u8; 4];
//! c.encode_f32_slice(&[1.0, -0.3, 500.0, f32::NAN], &mut codes).unwrap();
//! assert_eq!(codes, [0x38, 0xaa, 0x7e, 0x7f]);
//! let mut back = [0f32; 4];
//! c.decode_f32_slice(&codes, &mut back).unwrap();
//! assert_eq!(&back[..3], &[1.0, -0.3125, 448.0]);
//! assert!(Codec::for_library("int4", Library::Torch).is_err()); // torch cannot cast int4
//! ```

pub mod accumulate;
pub mod arith;
pub mod codec;
pub mod fast;
pub mod format;
pub mod rules;
pub mod xla;

use crate::kernel::simd::map1;
use format::{Format, Kind};
use rules::{CastRules, Library};

/// Why a narrow cast cannot be made.
///
/// ```
/// use promote::kernel::narrow::{rules::Library, Codec, NarrowError};
/// let e = Codec::for_library("float9", Library::MlDtypes).unwrap_err();
/// assert_eq!(e, NarrowError::Unknown { name: "float9".into() });
/// assert!(e.to_string().contains("float8_e4m3fn"));
/// let e = Codec::for_library("int4", Library::Torch).unwrap_err();
/// assert_eq!(e, NarrowError::NoCast { library: Library::Torch, dtype: "int4" });
/// assert!(e.to_string().starts_with("torch cannot cast to int4"));
/// let c = Codec::for_library("float8_e5m2", Library::Torch).unwrap();
/// let e = c.encode_f32_slice(&[1.0, 2.0], &mut [0u8; 1]).unwrap_err();
/// assert_eq!(e, NarrowError::Length { src: 2, dst: 1 });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NarrowError {
    /// The name is not a narrow dtype.
    #[error("`{name}` is not a narrow dtype; use one of {}", format::names().join(", "))]
    Unknown {
        /// The name asked for.
        name: String,
    },
    /// The library has the dtype but no cast to it (or not the dtype at all).
    #[error("{} cannot cast to {dtype}; its casts: {}", .library.name(), casts_of(*.library))]
    NoCast {
        /// The library.
        library: Library,
        /// The dtype.
        dtype: &'static str,
    },
    /// Source and destination slices differ in length.
    #[error("{src} elements cannot be cast into {dst}; give slices of the same length")]
    Length {
        /// Source length.
        src: usize,
        /// Destination length.
        dst: usize,
    },
}

fn casts_of(library: Library) -> String {
    let names: Vec<&str> = format::FORMATS
        .iter()
        .filter(|f| CastRules::of(library, f).is_some())
        .map(|f| f.name)
        .collect();
    names.join(", ")
}

/// Outputs at least this large are written with streaming stores by the fast encoder and the
/// decoders.
pub const STREAM_MIN_BYTES: usize = 1 << 20;

/// `dst[i] = f(src[i])`, streamed for large outputs: computed into a small buffer that stays
/// in the first-level cache, then written out with streaming stores (no read-for-ownership of
/// the output's lines).
fn map_streamed<S: Copy, T: Copy + Default>(f: impl Fn(S) -> T + Copy, src: &[S], dst: &mut [T]) {
    const PIECE_BYTES: usize = 8192;
    let piece = PIECE_BYTES / std::mem::size_of::<T>().max(1);
    if std::mem::size_of_val(dst) < STREAM_MIN_BYTES {
        map1(src, dst, f);
        return;
    }
    let mut buf = vec![T::default(); piece];
    for (d, s) in dst.chunks_mut(piece).zip(src.chunks(piece)) {
        let b = &mut buf[..d.len()];
        map1(s, b, f);
        crate::kernel::arch::stream_copy(d, b);
    }
    crate::kernel::arch::store_fence();
}

/// A narrow format with one library's rules, and its decode tables.
///
/// ```
/// use promote::kernel::narrow::{rules::Library, Codec};
/// let c = Codec::for_library("float8_e4m3fn", Library::MlDtypes).unwrap();
/// assert_eq!((c.format.name, c.rules.library), ("float8_e4m3fn", Library::MlDtypes));
/// let mut code = [0u8];
/// c.encode_f32_slice(&[448.0], &mut code).unwrap();
/// assert_eq!(code[0], c.format.max_code);
/// assert_eq!(c.decode_f32(code[0]), 448.0);
/// ```
#[derive(Clone, Debug)]
pub struct Codec {
    /// The format.
    pub format: &'static Format,
    /// The rules at the edges.
    pub rules: CastRules,
    fast: Option<fast::FastF32>,
    fast_decode: Option<fast::FastDecodeF32>,
    to_f32: [f32; 256],
    to_f32_planes: [[u8; 256]; 4],
    to_f64: [f64; 256],
}

impl Codec {
    /// The codec of `format` under `rules`.
    ///
    /// ```
    /// use promote::kernel::narrow::{format::lookup, rules::CastRules, Codec};
    /// let f = lookup("float8_e4m3fn").unwrap();
    /// let c = Codec::new(f, CastRules::ml_dtypes(f).correctly_rounded());
    /// let mut code = [0u8];
    /// c.encode_f64_slice(&[1.0625 + 2f64.powi(-40)], &mut code).unwrap();
    /// assert_eq!(code[0], 0x39); // 1.125: rounded once, not through float32
    /// ```
    pub fn new(format: &'static Format, rules: CastRules) -> Codec {
        let mut to_f32 = [0f32; 256];
        let mut to_f64 = [0f64; 256];
        for code in 0..=255u8 {
            to_f32[code as usize] = codec::decode_f32(format, &rules, code);
            to_f64[code as usize] = codec::decode_f64(format, &rules, code);
        }
        Codec {
            format,
            rules,
            fast: fast::FastF32::new(format, &rules),
            fast_decode: fast::FastDecodeF32::new(format, &rules),
            to_f32_planes: crate::kernel::arch::byte_planes(&to_f32.map(f32::to_bits)),
            to_f32,
            to_f64,
        }
    }

    /// The codec of the dtype spelled `name` with `library`'s semantics.
    ///
    /// ```
    /// use promote::kernel::narrow::{rules::Library, Codec};
    /// let c = Codec::for_library("jnp.float6_e3m2fn", Library::MlDtypes).unwrap();
    /// assert_eq!(c.format.name, "float6_e3m2fn");
    /// assert!(Codec::for_library("float6_e3m2fn", Library::Torch).is_err()); // no float6
    /// assert!(Codec::for_library("bfloat16", Library::MlDtypes).is_err()); // not narrow
    /// ```
    pub fn for_library(name: &str, library: Library) -> Result<Codec, NarrowError> {
        let format = format::lookup(name).ok_or_else(|| NarrowError::Unknown {
            name: name.to_string(),
        })?;
        let rules = CastRules::of(library, format).ok_or(NarrowError::NoCast {
            library,
            dtype: format.name,
        })?;
        Ok(Codec::new(format, rules))
    }

    fn check(src: usize, dst: usize) -> Result<(), NarrowError> {
        if src == dst {
            Ok(())
        } else {
            Err(NarrowError::Length { src, dst })
        }
    }

    /// Encode float32 values (vectorised where the format allows).
    ///
    /// ```
    /// use promote::kernel::narrow::{rules::Library, Codec};
    /// let c = Codec::for_library("float8_e5m2", Library::MlDtypes).unwrap();
    /// let mut codes = [0u8; 5];
    /// c.encode_f32_slice(&[1.0, -2.0, 1e6, f32::NEG_INFINITY, f32::NAN], &mut codes).unwrap();
    /// assert_eq!(codes, [0x3c, 0xc0, 0x7c, 0xfc, 0x7e]); // overflow is inf in e5m2
    /// ```
    pub fn encode_f32_slice(&self, src: &[f32], dst: &mut [u8]) -> Result<(), NarrowError> {
        Codec::check(src.len(), dst.len())?;
        match self.fast {
            Some(k) => {
                let stream = dst.len() >= STREAM_MIN_BYTES;
                let prefetch = stream && crate::kernel::exec::tuning().prefetch;
                if crate::kernel::arch::encode_narrow_f32(&k, src, dst, stream, prefetch) {
                    if stream {
                        crate::kernel::arch::store_fence();
                    }
                } else {
                    map_streamed(move |x: f32| k.encode(x), src, dst)
                }
            }
            None => {
                let (f, r) = (self.format, self.rules);
                map1(src, dst, move |x: f32| codec::encode_f32(f, &r, x))
            }
        }
        Ok(())
    }

    /// Encode float64 values (through float32 or rounded once, as the rules say).
    ///
    /// ```
    /// use promote::kernel::narrow::{rules::Library, Codec};
    /// let c = Codec::for_library("float8_e4m3fnuz", Library::Torch).unwrap();
    /// let mut codes = [0u8; 4];
    /// c.encode_f64_slice(&[240.0, -0.0, 1e300, f64::NAN], &mut codes).unwrap();
    /// assert_eq!(codes, [0x7f, 0x00, 0x80, 0x80]); // one zero; overflow and NaN are 0x80
    /// let c = Codec::for_library("int4", Library::MlDtypes).unwrap();
    /// c.encode_f64_slice(&[-8.0, 7.5, 8.0], &mut codes[..3]).unwrap();
    /// assert_eq!(codes[..3], [0x8, 0x7, 0x8]); // truncated; 8 wraps to -8
    /// ```
    pub fn encode_f64_slice(&self, src: &[f64], dst: &mut [u8]) -> Result<(), NarrowError> {
        Codec::check(src.len(), dst.len())?;
        let (f, r) = (self.format, self.rules);
        match (self.fast, r.f64_path, f.kind) {
            (Some(k), rules::F64Path::ThroughF32, _) => {
                map1(src, dst, move |x: f64| k.encode(x as f32))
            }
            (_, _, Kind::Float | Kind::SignedInt | Kind::UnsignedInt) => {
                map1(src, dst, move |x: f64| codec::encode_f64(f, &r, x))
            }
            (_, _, Kind::Complex) => {
                return Err(NarrowError::NoCast {
                    library: r.library,
                    dtype: f.name,
                })
            }
        }
        Ok(())
    }

    /// Decode codes to float32 (a table lookup: in SIMD registers where the CPU has AVX-512
    /// VBMI, else branch-free arithmetic or the table). Outputs of [`STREAM_MIN_BYTES`] or more
    /// are written with streaming stores (the output is not read first, which saves a fifth of
    /// the traffic).
    ///
    /// ```
    /// use promote::kernel::narrow::{rules::Library, Codec};
    /// let c = Codec::for_library("float4_e2m1fn", Library::MlDtypes).unwrap();
    /// let mut values = [0f32; 4];
    /// c.decode_f32_slice(&[0x1, 0x7, 0xf, 0xf2], &mut values).unwrap();
    /// assert_eq!(values, [0.5, 6.0, -6.0, 1.0]); // the high bits are ignored
    /// ```
    pub fn decode_f32_slice(&self, src: &[u8], dst: &mut [f32]) -> Result<(), NarrowError> {
        Codec::check(src.len(), dst.len())?;
        let stream = std::mem::size_of_val(dst) >= STREAM_MIN_BYTES;
        let bits: &mut [u32] = bytemuck::cast_slice_mut(dst);
        if crate::kernel::arch::lookup_bytes_x4(&self.to_f32_planes, src, bits, stream) {
            if stream {
                crate::kernel::arch::store_fence();
            }
            return Ok(());
        }
        let dst: &mut [f32] = bytemuck::cast_slice_mut(bits);
        match self.fast_decode {
            Some(k) => map_streamed(move |c| k.decode(c), src, dst),
            None => map_streamed(|c| self.to_f32[c as usize], src, dst),
        }
        Ok(())
    }

    /// Decode codes to float64 (a table lookup; streamed as [`Codec::decode_f32_slice`]).
    ///
    /// ```
    /// use promote::kernel::narrow::{rules::Library, Codec};
    /// let c = Codec::for_library("float8_e8m0fnu", Library::MlDtypes).unwrap();
    /// let mut values = [0f64; 3];
    /// c.decode_f64_slice(&[0x00, 0x7f, 0xfe], &mut values).unwrap();
    /// assert_eq!(values, [2f64.powi(-127), 1.0, 2f64.powi(127)]);
    /// ```
    pub fn decode_f64_slice(&self, src: &[u8], dst: &mut [f64]) -> Result<(), NarrowError> {
        Codec::check(src.len(), dst.len())?;
        map_streamed(|c| self.to_f64[c as usize], src, dst);
        Ok(())
    }

    /// The float32 of one code.
    ///
    /// ```
    /// use promote::kernel::narrow::{rules::Library, Codec};
    /// let c = Codec::for_library("float8_e4m3fn", Library::Torch).unwrap();
    /// assert_eq!(c.decode_f32(0x7e), 448.0);
    /// assert_eq!(c.decode_f32(0x7f).to_bits(), 0x7ff0_0000); // PyTorch's NaN payload
    /// ```
    pub fn decode_f32(&self, code: u8) -> f32 {
        self.to_f32[code as usize]
    }

    /// The float64 of one code.
    ///
    /// ```
    /// use promote::kernel::narrow::{rules::Library, Codec};
    /// let c = Codec::for_library("uint2", Library::MlDtypes).unwrap();
    /// assert_eq!((c.decode_f64(0x3), c.decode_f64(0x7)), (3.0, 3.0)); // masked to 2 bits
    /// let c = Codec::for_library("float8_e3m4", Library::MlDtypes).unwrap();
    /// assert_eq!(c.decode_f64(0x30), 1.0);
    /// assert_eq!(c.decode_f64(0x70), f64::INFINITY);
    /// ```
    pub fn decode_f64(&self, code: u8) -> f64 {
        self.to_f64[code as usize]
    }

    /// Whether float32 takes the branch-free paths ([`fast`]) both ways.
    ///
    /// ```
    /// use promote::kernel::narrow::{rules::Library, Codec};
    /// let vectorised = |name| Codec::for_library(name, Library::MlDtypes).unwrap().is_vectorised();
    /// assert!(vectorised("float8_e4m3fn") && vectorised("float4_e2m1fn"));
    /// assert!(!vectorised("float8_e8m0fnu")); // the generic codec and its table
    /// assert!(!vectorised("int4"));
    /// ```
    pub fn is_vectorised(&self) -> bool {
        self.fast.is_some() && self.fast_decode.is_some()
    }
}
