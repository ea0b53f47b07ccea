//! The narrow dtypes of ML (float8, float6, float4, int4, int2, complex32): their description
//! as data and exact casts to and from float32 and float64.
//!
//! * [`format`](mod@format): one table, [`format::FORMATS`], describes every narrow dtype (bits, exponent,
//!   mantissa, bias, NaN/inf codes, unsigned zero, kind, every framework's spellings);
//! * [`rules`]: what ml_dtypes' `astype` and PyTorch's `.to()` do at the edges (NaN, inf,
//!   overflow, zero, negatives, float64 sources), recorded from the libraries;
//! * [`codec`]: the one generic encoder/decoder, driven by a format and its rules;
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

pub mod codec;
pub mod fast;
pub mod format;
pub mod rules;

use crate::kernel::simd::map1;
use format::{Format, Kind};
use rules::{CastRules, Library};

/// Why a narrow cast cannot be made.
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

/// Outputs at least this large are written with streaming stores by the decoders.
pub const STREAM_MIN_BYTES: usize = 1 << 20;

/// `dst[i] = decode(src[i])`, streamed for large outputs.
fn decode_with<T: Copy + Default>(decode: impl Fn(u8) -> T + Copy, src: &[u8], dst: &mut [T]) {
    const PIECE: usize = 2048;
    if std::mem::size_of_val(dst) < STREAM_MIN_BYTES {
        map1(src, dst, decode);
        return;
    }
    let mut buf = [T::default(); PIECE];
    for (d, s) in dst.chunks_mut(PIECE).zip(src.chunks(PIECE)) {
        let b = &mut buf[..d.len()];
        map1(s, b, decode);
        crate::kernel::arch::stream_copy(d, b);
    }
    crate::kernel::arch::store_fence();
}

/// A narrow format with one library's rules, and its decode tables.
#[derive(Clone, Debug)]
pub struct Codec {
    /// The format.
    pub format: &'static Format,
    /// The rules at the edges.
    pub rules: CastRules,
    fast: Option<fast::FastF32>,
    fast_decode: Option<fast::FastDecodeF32>,
    to_f32: [f32; 256],
    to_f64: [f64; 256],
}

impl Codec {
    /// The codec of `format` under `rules`.
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
            to_f32,
            to_f64,
        }
    }

    /// The codec of the dtype spelled `name` with `library`'s semantics.
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
    pub fn encode_f32_slice(&self, src: &[f32], dst: &mut [u8]) -> Result<(), NarrowError> {
        Codec::check(src.len(), dst.len())?;
        match self.fast {
            Some(k) => map1(src, dst, move |x: f32| k.encode(x)),
            None => {
                let (f, r) = (self.format, self.rules);
                map1(src, dst, move |x: f32| codec::encode_f32(f, &r, x))
            }
        }
        Ok(())
    }

    /// Encode float64 values (through float32 or rounded once, as the rules say).
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

    /// Decode codes to float32 (a table lookup). Outputs of [`STREAM_MIN_BYTES`] or more are
    /// decoded a piece at a time into a buffer in the L1 cache and written with streaming
    /// stores (the output is not read first, which saves a fifth of the traffic).
    pub fn decode_f32_slice(&self, src: &[u8], dst: &mut [f32]) -> Result<(), NarrowError> {
        Codec::check(src.len(), dst.len())?;
        match self.fast_decode {
            Some(k) => decode_with(move |c| k.decode(c), src, dst),
            None => decode_with(|c| self.to_f32[c as usize], src, dst),
        }
        Ok(())
    }

    /// Decode codes to float64 (a table lookup; streamed as [`Codec::decode_f32_slice`]).
    pub fn decode_f64_slice(&self, src: &[u8], dst: &mut [f64]) -> Result<(), NarrowError> {
        Codec::check(src.len(), dst.len())?;
        decode_with(|c| self.to_f64[c as usize], src, dst);
        Ok(())
    }

    /// The float32 of one code.
    pub fn decode_f32(&self, code: u8) -> f32 {
        self.to_f32[code as usize]
    }

    /// The float64 of one code.
    pub fn decode_f64(&self, code: u8) -> f64 {
        self.to_f64[code as usize]
    }

    /// Whether float32 takes the branch-free paths ([`fast`]) both ways.
    pub fn is_vectorised(&self) -> bool {
        self.fast.is_some() && self.fast_decode.is_some()
    }
}
