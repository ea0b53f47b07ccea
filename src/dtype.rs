//! The 15 dtypes every policy speaks about, their kinds, sizes and names.
//!
//! ```
//! use promote::DType;
//! let d: DType = "torch.half".parse().unwrap();
//! assert_eq!(d, DType::Float16);
//! assert_eq!(d.name(), "float16");
//! assert!(d.is_floating_point() && d.bits() == 16);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::error::{suggest, PromoteError};

/// A dtype: the element type of a tensor, named as NumPy names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum DType {
    /// `bool`.
    Bool,
    /// `uint8`.
    UInt8,
    /// `uint16`.
    UInt16,
    /// `uint32`.
    UInt32,
    /// `uint64`.
    UInt64,
    /// `int8`.
    Int8,
    /// `int16`.
    Int16,
    /// `int32`.
    Int32,
    /// `int64`.
    Int64,
    /// `bfloat16`.
    BFloat16,
    /// `float16`.
    Float16,
    /// `float32`.
    Float32,
    /// `float64`.
    Float64,
    /// `complex64`.
    Complex64,
    /// `complex128`.
    Complex128,
}

/// The kind of a dtype, in the order most frameworks rank them (bool < ints < floats < complex).
///
/// ```
/// use promote::{DType, Kind};
/// assert_eq!(DType::UInt8.kind(), Kind::Unsigned);
/// assert!(Kind::Float.rank() > Kind::Signed.rank());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `bool`.
    Bool,
    /// Unsigned integers.
    Unsigned,
    /// Signed integers.
    Signed,
    /// Real floating point.
    Float,
    /// Complex floating point.
    Complex,
}

impl Kind {
    /// 0 for bool, 1 for integers (signed or not), 2 for floats, 3 for complex: the
    /// "category" ranking that PyTorch, NumPy and NEP 50 compare.
    ///
    /// ```
    /// use promote::Kind;
    /// assert_eq!(Kind::Unsigned.rank(), Kind::Signed.rank());
    /// ```
    pub fn rank(self) -> u8 {
        match self {
            Kind::Bool => 0,
            Kind::Unsigned | Kind::Signed => 1,
            Kind::Float => 2,
            Kind::Complex => 3,
        }
    }

    /// The kind's name as policy files write it.
    ///
    /// ```
    /// assert_eq!(promote::Kind::Signed.name(), "signed");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bool => "bool",
            Kind::Unsigned => "unsigned",
            Kind::Signed => "signed",
            Kind::Float => "float",
            Kind::Complex => "complex",
        }
    }
}

impl DType {
    /// All 15 dtypes, in the order the spec lists them.
    pub const ALL: [DType; 15] = [
        DType::Bool,
        DType::UInt8,
        DType::UInt16,
        DType::UInt32,
        DType::UInt64,
        DType::Int8,
        DType::Int16,
        DType::Int32,
        DType::Int64,
        DType::BFloat16,
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
    ];

    /// Number of dtypes.
    pub const COUNT: usize = 15;

    /// Position in [`DType::ALL`], for dense tables.
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::ALL[DType::Int8.index()], DType::Int8);
    /// ```
    pub fn index(self) -> usize {
        self as usize
    }

    /// NumPy's canonical name.
    pub fn name(self) -> &'static str {
        match self {
            DType::Bool => "bool",
            DType::UInt8 => "uint8",
            DType::UInt16 => "uint16",
            DType::UInt32 => "uint32",
            DType::UInt64 => "uint64",
            DType::Int8 => "int8",
            DType::Int16 => "int16",
            DType::Int32 => "int32",
            DType::Int64 => "int64",
            DType::BFloat16 => "bfloat16",
            DType::Float16 => "float16",
            DType::Float32 => "float32",
            DType::Float64 => "float64",
            DType::Complex64 => "complex64",
            DType::Complex128 => "complex128",
        }
    }

    /// The short name of the frameworks' docs (`i8`, `bf16`, `c64`, `b1`).
    ///
    /// ```
    /// assert_eq!(promote::DType::BFloat16.short_name(), "bf16");
    /// ```
    pub fn short_name(self) -> &'static str {
        match self {
            DType::Bool => "b1",
            DType::UInt8 => "u8",
            DType::UInt16 => "u16",
            DType::UInt32 => "u32",
            DType::UInt64 => "u64",
            DType::Int8 => "i8",
            DType::Int16 => "i16",
            DType::Int32 => "i32",
            DType::Int64 => "i64",
            DType::BFloat16 => "bf16",
            DType::Float16 => "f16",
            DType::Float32 => "f32",
            DType::Float64 => "f64",
            DType::Complex64 => "c64",
            DType::Complex128 => "c128",
        }
    }

    /// The kind: bool, unsigned, signed, float or complex.
    pub fn kind(self) -> Kind {
        match self {
            DType::Bool => Kind::Bool,
            DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => Kind::Unsigned,
            DType::Int8 | DType::Int16 | DType::Int32 | DType::Int64 => Kind::Signed,
            DType::BFloat16 | DType::Float16 | DType::Float32 | DType::Float64 => Kind::Float,
            DType::Complex64 | DType::Complex128 => Kind::Complex,
        }
    }

    /// Size of one element in bits (bool counts as 8, as it is stored).
    pub fn bits(self) -> u32 {
        match self {
            DType::Bool | DType::UInt8 | DType::Int8 => 8,
            DType::UInt16 | DType::Int16 | DType::BFloat16 | DType::Float16 => 16,
            DType::UInt32 | DType::Int32 | DType::Float32 => 32,
            DType::UInt64 | DType::Int64 | DType::Float64 | DType::Complex64 => 64,
            DType::Complex128 => 128,
        }
    }

    /// Size of one element in bytes.
    ///
    /// ```
    /// assert_eq!(promote::DType::Complex128.itemsize(), 16);
    /// ```
    pub fn itemsize(self) -> usize {
        self.bits() as usize / 8
    }

    /// bool.
    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }
    /// Signed or unsigned integer (not bool).
    pub fn is_integer(self) -> bool {
        matches!(self.kind(), Kind::Signed | Kind::Unsigned)
    }
    /// A signed integer, float or complex: a dtype that can hold -1.
    pub fn is_signed(self) -> bool {
        matches!(self.kind(), Kind::Signed | Kind::Float | Kind::Complex)
    }
    /// A real floating-point dtype.
    pub fn is_floating_point(self) -> bool {
        self.kind() == Kind::Float
    }
    /// A complex dtype.
    pub fn is_complex(self) -> bool {
        self.kind() == Kind::Complex
    }
    /// A floating-point or complex dtype.
    pub fn is_inexact(self) -> bool {
        matches!(self.kind(), Kind::Float | Kind::Complex)
    }

    /// The inclusive integer range of a bool or integer dtype.
    ///
    /// ```
    /// assert_eq!(promote::DType::Int8.int_range(), Some((-128, 127)));
    /// ```
    pub fn int_range(self) -> Option<(i128, i128)> {
        Some(match self {
            DType::Bool => (0, 1),
            DType::UInt8 => (0, u8::MAX as i128),
            DType::UInt16 => (0, u16::MAX as i128),
            DType::UInt32 => (0, u32::MAX as i128),
            DType::UInt64 => (0, u64::MAX as i128),
            DType::Int8 => (i8::MIN as i128, i8::MAX as i128),
            DType::Int16 => (i16::MIN as i128, i16::MAX as i128),
            DType::Int32 => (i32::MIN as i128, i32::MAX as i128),
            DType::Int64 => (i64::MIN as i128, i64::MAX as i128),
            _ => return None,
        })
    }

    /// The largest finite value of a float dtype (of the real part, for complex).
    pub fn float_max(self) -> Option<f64> {
        Some(match self {
            DType::BFloat16 => half::bf16::MAX.to_f64(),
            DType::Float16 => half::f16::MAX.to_f64(),
            DType::Float32 | DType::Complex64 => f32::MAX as f64,
            DType::Float64 | DType::Complex128 => f64::MAX,
            _ => return None,
        })
    }

    /// The complex dtype with this float's precision, where one exists.
    pub fn to_complex(self) -> Option<DType> {
        match self {
            DType::Float32 => Some(DType::Complex64),
            DType::Float64 => Some(DType::Complex128),
            DType::Complex64 | DType::Complex128 => Some(self),
            _ => None,
        }
    }

    /// Every spelling [`FromStr`] accepts for this dtype, canonical name first.
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            DType::Bool => &["bool", "b1", "?", "bool_", "boolean"],
            DType::UInt8 => &["uint8", "u8", "u1", "B", "ubyte"],
            DType::UInt16 => &["uint16", "u16", "u2", "H", "ushort"],
            DType::UInt32 => &["uint32", "u32", "u4", "I"],
            DType::UInt64 => &["uint64", "u64", "Q"],
            DType::Int8 => &["int8", "i8", "i1", "b", "byte"],
            DType::Int16 => &["int16", "i16", "i2", "h", "short"],
            DType::Int32 => &["int32", "i32", "i4", "int", "intc"],
            DType::Int64 => &["int64", "i64", "q", "long", "longlong", "int_", "intp"],
            DType::BFloat16 => &["bfloat16", "bf16", "bfloat"],
            DType::Float16 => &["float16", "f16", "f2", "e", "half"],
            DType::Float32 => &["float32", "f32", "f4", "f", "float", "single"],
            DType::Float64 => &["float64", "f64", "f8", "d", "double", "float_"],
            DType::Complex64 => &["complex64", "c64", "c8", "F", "cfloat", "csingle"],
            DType::Complex128 => &["complex128", "c128", "c16", "D", "cdouble", "complex_"],
        }
    }

    /// Parse any spelling, or fail with the nearest valid name.
    ///
    /// Framework prefixes (`np.`, `numpy.`, `torch.`, `jnp.`, `tf.`, `paddle.`, `oneflow.`,
    /// `flow.`) are dropped first. Note the one clash: NumPy's `i8` means int64 (8 bytes),
    /// but the frameworks' docs write `i8` for int8; this parser follows the docs, and
    /// accepts NumPy's byte codes with an explicit `<`/`=` byte order (`<i8` is int64).
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::parse("paddle.float32").unwrap(), DType::Float32);
    /// assert_eq!(DType::parse("<i8").unwrap(), DType::Int64);
    /// assert_eq!(DType::parse("long").unwrap(), DType::Int64);
    /// let err = DType::parse("flaot32").unwrap_err();
    /// assert!(err.to_string().contains("did you mean `float32`"));
    /// ```
    pub fn parse(s: &str) -> Result<DType, PromoteError> {
        let t = s.trim();
        let t = [
            "numpy.",
            "np.",
            "torch.",
            "jnp.",
            "jax.numpy.",
            "tf.",
            "paddle.",
            "oneflow.",
            "flow.",
        ]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(t);
        let t = t
            .strip_prefix("dtype('")
            .and_then(|r| r.strip_suffix("')"))
            .unwrap_or(t);
        // NumPy type strings with a byte order use byte sizes: <i8 is int64, <f2 float16.
        if let Some(code) = t.strip_prefix(['<', '=', '|', '>']) {
            let by_bytes = match code {
                "b1" => Some(DType::Bool),
                "u1" => Some(DType::UInt8),
                "u2" => Some(DType::UInt16),
                "u4" => Some(DType::UInt32),
                "u8" => Some(DType::UInt64),
                "i1" => Some(DType::Int8),
                "i2" => Some(DType::Int16),
                "i4" => Some(DType::Int32),
                "i8" => Some(DType::Int64),
                "f2" => Some(DType::Float16),
                "f4" => Some(DType::Float32),
                "f8" => Some(DType::Float64),
                "c8" => Some(DType::Complex64),
                "c16" => Some(DType::Complex128),
                _ => None,
            };
            if let Some(d) = by_bytes {
                return Ok(d);
            }
        }
        for d in DType::ALL {
            if d.aliases().contains(&t) {
                return Ok(d);
            }
        }
        let lower = t.to_ascii_lowercase();
        for d in DType::ALL {
            if d.aliases().iter().any(|a| a.len() > 2 && *a == lower) {
                return Ok(d);
            }
        }
        Err(PromoteError::UnknownDType {
            name: s.to_string(),
            suggestion: suggest(
                &lower,
                DType::ALL.iter().flat_map(|d| d.aliases().iter().copied()),
            )
            .map(|a| DType::parse(&a).map(|d| d.name().to_string()).unwrap_or(a)),
        })
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for DType {
    type Err = PromoteError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DType::parse(s)
    }
}

impl serde::Serialize for DType {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_alias_parses_back_to_its_dtype() {
        for d in DType::ALL {
            for a in d.aliases() {
                assert_eq!(DType::parse(a).unwrap(), d, "alias {a}");
            }
            assert_eq!(DType::parse(&format!("torch.{}", d.name())).unwrap(), d);
            assert_eq!(DType::ALL[d.index()], d);
        }
    }

    #[test]
    fn aliases_are_unique() {
        let mut seen = std::collections::HashMap::new();
        for d in DType::ALL {
            for a in d.aliases() {
                assert!(seen.insert(*a, d).is_none(), "alias {a} used twice");
            }
        }
    }

    #[test]
    fn unknown_names_suggest_the_nearest() {
        let e = DType::parse("unit8").unwrap_err();
        assert!(e.to_string().contains("uint8"), "{e}");
        let e = DType::parse("complex256").unwrap_err();
        assert!(e.to_string().contains("complex"), "{e}");
    }

    #[test]
    fn kinds_and_sizes() {
        assert_eq!(DType::ALL.iter().filter(|d| d.is_integer()).count(), 8);
        assert_eq!(DType::Int64.int_range().unwrap().0, i64::MIN as i128);
        assert_eq!(DType::Float16.float_max(), Some(65504.0));
        assert!(DType::Bool.kind().rank() < DType::UInt8.kind().rank());
    }
}
