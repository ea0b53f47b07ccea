//! The dtypes every policy speaks about: an open registry of the classic dtypes (bool, the
//! integers, bfloat16 to float64, complex64 and complex128) and the narrow dtypes of ML
//! (float8, float6, float4, int4, int2, complex32; [`crate::kernel::narrow::format::FORMATS`]),
//! with their kinds, sizes, predicates and every framework's names.
//!
//! A [`DType`] is a small id into that registry. The classic dtypes keep associated constants
//! (`DType::Int8`, `DType::Float16`, ...), usable in `match` patterns; the narrow ones are
//! found by name ([`DType::parse`]) or by constant (`DType::FLOAT8_E4M3FN`, ...). Adding a
//! dtype is one entry in the registry: one line of [`CLASSIC`] or one [`Format`] of the narrow
//! table.
//!
//! ```
//! use promote::DType;
//! let d: DType = "torch.half".parse().unwrap();
//! assert_eq!(d, DType::Float16);
//! assert_eq!(d.name(), "float16");
//! assert!(d.is_floating_point() && d.bits() == 16);
//! let f8: DType = "torch.float8_e4m3fn".parse().unwrap();
//! assert_eq!(f8, DType::FLOAT8_E4M3FN);
//! assert!(f8.is_floating_point() && f8.finite_only() && f8.has_nan() && f8.bits() == 8);
//! assert_eq!((f8.exponent_bits(), f8.mantissa_bits()), (4, 3));
//! assert_eq!("chalf".parse::<DType>().unwrap().name(), "complex32");
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::LazyLock;

use crate::error::{suggest, PromoteError};
use crate::kernel::narrow::format::{self as narrow, Format, FORMATS};

/// A dtype: the element type of a tensor, named as NumPy (or ml_dtypes) names it. A small id
/// into the registry ([`DType::ALL`]).
///
/// ```
/// use promote::DType;
/// let d: DType = "float8_e4m3fn".parse().unwrap();
/// assert_eq!(d, DType::FLOAT8_E4M3FN);
/// assert!(!d.is_classic() && DType::Float32.is_classic());
/// assert_eq!(DType::Int16.to_string(), "int16");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DType(u8);

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

/// One classic dtype of the registry: everything [`DType`] answers about it.
///
/// ```
/// use promote::dtype::CLASSIC;
/// assert_eq!(CLASSIC.len(), promote::DType::classic().count());
/// assert!(CLASSIC.iter().any(|c| c.name == "bfloat16" && c.short_name == "bf16"));
/// ```
#[derive(Debug)]
pub struct Classic {
    /// NumPy's canonical name.
    pub name: &'static str,
    /// The short name of the frameworks' docs (`i8`, `bf16`).
    pub short_name: &'static str,
    /// Bool, unsigned, signed, float or complex.
    pub kind: Kind,
    /// Bits per element (bool: 8, as stored).
    pub bits: u32,
    /// Exponent and explicit mantissa bits of a float (of a component, for complex).
    pub exponent_mantissa: (u32, u32),
    /// Every spelling [`DType::parse`] accepts, canonical name first.
    pub aliases: &'static [&'static str],
}

const fn classic(
    name: &'static str,
    short_name: &'static str,
    kind: Kind,
    bits: u32,
    exponent_mantissa: (u32, u32),
    aliases: &'static [&'static str],
) -> Classic {
    Classic {
        name,
        short_name,
        kind,
        bits,
        exponent_mantissa,
        aliases,
    }
}

/// The classic dtypes, in the order the spec lists them; the registry's first ids.
pub const CLASSIC: &[Classic] = &[
    classic(
        "bool",
        "b1",
        Kind::Bool,
        8,
        (0, 0),
        &["bool", "b1", "?", "bool_", "boolean"],
    ),
    classic(
        "uint8",
        "u8",
        Kind::Unsigned,
        8,
        (0, 0),
        &["uint8", "u8", "u1", "B", "ubyte"],
    ),
    classic(
        "uint16",
        "u16",
        Kind::Unsigned,
        16,
        (0, 0),
        &["uint16", "u16", "u2", "H", "ushort"],
    ),
    classic(
        "uint32",
        "u32",
        Kind::Unsigned,
        32,
        (0, 0),
        &["uint32", "u32", "u4", "I"],
    ),
    classic(
        "uint64",
        "u64",
        Kind::Unsigned,
        64,
        (0, 0),
        &["uint64", "u64", "Q"],
    ),
    classic(
        "int8",
        "i8",
        Kind::Signed,
        8,
        (0, 0),
        &["int8", "i8", "i1", "b", "byte"],
    ),
    classic(
        "int16",
        "i16",
        Kind::Signed,
        16,
        (0, 0),
        &["int16", "i16", "i2", "h", "short"],
    ),
    classic(
        "int32",
        "i32",
        Kind::Signed,
        32,
        (0, 0),
        &["int32", "i32", "i4", "int", "intc"],
    ),
    classic(
        "int64",
        "i64",
        Kind::Signed,
        64,
        (0, 0),
        &["int64", "i64", "q", "long", "longlong", "int_", "intp"],
    ),
    classic(
        "bfloat16",
        "bf16",
        Kind::Float,
        16,
        (8, 7),
        &["bfloat16", "bf16", "bfloat"],
    ),
    classic(
        "float16",
        "f16",
        Kind::Float,
        16,
        (5, 10),
        &["float16", "f16", "f2", "e", "half"],
    ),
    classic(
        "float32",
        "f32",
        Kind::Float,
        32,
        (8, 23),
        &["float32", "f32", "f4", "f", "float", "single"],
    ),
    classic(
        "float64",
        "f64",
        Kind::Float,
        64,
        (11, 52),
        &["float64", "f64", "f8", "d", "double", "float_"],
    ),
    classic(
        "complex64",
        "c64",
        Kind::Complex,
        64,
        (8, 23),
        &["complex64", "c64", "c8", "F", "cfloat", "csingle"],
    ),
    classic(
        "complex128",
        "c128",
        Kind::Complex,
        128,
        (11, 52),
        &["complex128", "c128", "c16", "D", "cdouble", "complex_"],
    ),
];

/// The id of the classic dtype named `name` (compile-time; an unknown name fails the build).
const fn classic_id(name: &str) -> DType {
    let mut i = 0;
    while i < CLASSIC.len() {
        if str_eq(CLASSIC[i].name, name) {
            return DType(i as u8);
        }
        i += 1;
    }
    panic!("not a classic dtype")
}

/// The id of the narrow dtype named `name` (compile-time; an unknown name fails the build).
const fn narrow_id(name: &str) -> DType {
    let mut i = 0;
    while i < FORMATS.len() {
        if str_eq(FORMATS[i].name, name) {
            return DType((CLASSIC.len() + i) as u8);
        }
        i += 1;
    }
    panic!("not a narrow dtype")
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

const fn all() -> [DType; DType::COUNT] {
    let mut all = [DType(0); DType::COUNT];
    let mut i = 0;
    while i < DType::COUNT {
        all[i] = DType(i as u8);
        i += 1;
    }
    all
}

/// The spellings of each narrow dtype [`DType::parse`] accepts: the canonical name, then each
/// framework's spelling without its module prefix, less those a classic dtype already owns
/// (MLIR's `i4` is int4, but NumPy's `i4` is int32 and wins).
static NARROW_ALIASES: LazyLock<Vec<Vec<&'static str>>> = LazyLock::new(|| {
    let classic: Vec<&str> = CLASSIC
        .iter()
        .flat_map(|c| c.aliases.iter().copied())
        .collect();
    FORMATS
        .iter()
        .map(|f| {
            let mut names = vec![f.name];
            for sp in f.spellings {
                let bare = sp.name.rsplit('.').next().unwrap_or(sp.name);
                if !names.contains(&bare) && !classic.contains(&bare) {
                    names.push(bare);
                }
            }
            names
        })
        .collect()
});

#[allow(non_upper_case_globals)]
impl DType {
    /// bool.
    pub const Bool: DType = classic_id("bool");
    /// uint8.
    pub const UInt8: DType = classic_id("uint8");
    /// uint16.
    pub const UInt16: DType = classic_id("uint16");
    /// uint32.
    pub const UInt32: DType = classic_id("uint32");
    /// uint64.
    pub const UInt64: DType = classic_id("uint64");
    /// int8.
    pub const Int8: DType = classic_id("int8");
    /// int16.
    pub const Int16: DType = classic_id("int16");
    /// int32.
    pub const Int32: DType = classic_id("int32");
    /// int64.
    pub const Int64: DType = classic_id("int64");
    /// bfloat16.
    pub const BFloat16: DType = classic_id("bfloat16");
    /// float16.
    pub const Float16: DType = classic_id("float16");
    /// float32.
    pub const Float32: DType = classic_id("float32");
    /// float64.
    pub const Float64: DType = classic_id("float64");
    /// complex64.
    pub const Complex64: DType = classic_id("complex64");
    /// complex128.
    pub const Complex128: DType = classic_id("complex128");
}

impl DType {
    /// float8_e4m3fn (OCP FP8 E4M3: finite-only, NaN `0x7f`/`0xff`).
    pub const FLOAT8_E4M3FN: DType = narrow_id("float8_e4m3fn");
    /// float8_e5m2 (OCP FP8 E5M2, IEEE-like).
    pub const FLOAT8_E5M2: DType = narrow_id("float8_e5m2");
    /// float8_e4m3fnuz (finite-only, unsigned zero, NaN `0x80`).
    pub const FLOAT8_E4M3FNUZ: DType = narrow_id("float8_e4m3fnuz");
    /// float8_e5m2fnuz (finite-only, unsigned zero, NaN `0x80`).
    pub const FLOAT8_E5M2FNUZ: DType = narrow_id("float8_e5m2fnuz");
    /// float8_e4m3b11fnuz (bias 11, finite-only, unsigned zero).
    pub const FLOAT8_E4M3B11FNUZ: DType = narrow_id("float8_e4m3b11fnuz");
    /// float8_e3m4 (IEEE-like).
    pub const FLOAT8_E3M4: DType = narrow_id("float8_e3m4");
    /// float8_e4m3 (IEEE-like).
    pub const FLOAT8_E4M3: DType = narrow_id("float8_e4m3");
    /// float8_e8m0fnu (exponent only: powers of two, unsigned, NaN `0xff`).
    pub const FLOAT8_E8M0FNU: DType = narrow_id("float8_e8m0fnu");
    /// float6_e2m3fn (finite-only, no NaN).
    pub const FLOAT6_E2M3FN: DType = narrow_id("float6_e2m3fn");
    /// float6_e3m2fn (finite-only, no NaN).
    pub const FLOAT6_E3M2FN: DType = narrow_id("float6_e3m2fn");
    /// float4_e2m1fn (finite-only, no NaN).
    pub const FLOAT4_E2M1FN: DType = narrow_id("float4_e2m1fn");
    /// int2.
    pub const INT2: DType = narrow_id("int2");
    /// uint2.
    pub const UINT2: DType = narrow_id("uint2");
    /// int4.
    pub const INT4: DType = narrow_id("int4");
    /// uint4.
    pub const UINT4: DType = narrow_id("uint4");
    /// complex32 (two float16s; PyTorch's `chalf`).
    pub const COMPLEX32: DType = narrow_id("complex32");

    /// Number of dtypes in the registry.
    pub const COUNT: usize = CLASSIC.len() + FORMATS.len();

    /// Every dtype, by id: the classic ones in the order the spec lists them, then the narrow
    /// ones in the order of [`FORMATS`].
    pub const ALL: [DType; DType::COUNT] = all();

    /// Position in [`DType::ALL`], for dense tables.
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::ALL[DType::Int8.index()], DType::Int8);
    /// ```
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The dtype at position `index` of [`DType::ALL`], if there is one.
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::from_index(DType::Int8.index()), Some(DType::Int8));
    /// assert_eq!(DType::from_index(DType::COUNT), None);
    /// ```
    pub fn from_index(index: usize) -> Option<DType> {
        (index < DType::COUNT).then_some(DType(index as u8))
    }

    /// The classic dtypes (bool, the integers, bfloat16 to float64, complex64, complex128).
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::classic().count(), 15);
    /// assert!(DType::classic().all(|d| d.is_classic()));
    /// ```
    pub fn classic() -> impl Iterator<Item = DType> {
        DType::ALL.into_iter().filter(|d| d.is_classic())
    }

    /// One of the classic dtypes (not a narrow one).
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::Complex128.is_classic() && !DType::INT4.is_classic());
    /// ```
    pub const fn is_classic(self) -> bool {
        self.index() < CLASSIC.len()
    }

    /// The narrow format of a narrow dtype (float8, float6, float4, int4, int2, complex32).
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::INT4.format().unwrap().bits, 4);
    /// assert!(DType::Int8.format().is_none());
    /// ```
    pub fn format(self) -> Option<&'static Format> {
        FORMATS.get(self.index().checked_sub(CLASSIC.len())?)
    }

    fn entry(self) -> Result<&'static Classic, &'static Format> {
        CLASSIC
            .get(self.index())
            .ok_or_else(|| &FORMATS[self.index() - CLASSIC.len()])
    }

    /// The canonical name (NumPy's, or ml_dtypes' for the narrow dtypes).
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::BFloat16.name(), "bfloat16");
    /// assert_eq!(DType::FLOAT8_E5M2.name(), "float8_e5m2");
    /// ```
    pub fn name(self) -> &'static str {
        match self.entry() {
            Ok(c) => c.name,
            Err(f) => f.name,
        }
    }

    /// The short name of the frameworks' docs (`i8`, `bf16`, `c64`, `b1`; `f8e4m3fn`, `s4`,
    /// `c32` for the narrow ones).
    ///
    /// ```
    /// assert_eq!(promote::DType::BFloat16.short_name(), "bf16");
    /// assert_eq!(promote::DType::FLOAT8_E5M2.short_name(), "f8e5m2");
    /// ```
    ///
    /// A short name that [`DType::parse`] would read as another dtype (XLA's `u4` for uint4,
    /// which the docs' `u4` for uint32 takes) gives way to the full name.
    pub fn short_name(self) -> &'static str {
        let short = match self.entry() {
            Ok(c) => c.short_name,
            Err(f) => f.spellings.iter().find(|s| s.framework == "xla").map_or(
                match self {
                    DType::COMPLEX32 => "c32",
                    _ => f.name,
                },
                |s| s.name,
            ),
        };
        if DType::parse(short).is_ok_and(|d| d == self) {
            short
        } else {
            self.name()
        }
    }

    /// The kind: bool, unsigned, signed, float or complex.
    ///
    /// ```
    /// use promote::{DType, Kind};
    /// assert_eq!(DType::Float16.kind(), Kind::Float);
    /// assert_eq!(DType::INT4.kind(), Kind::Signed);
    /// ```
    pub fn kind(self) -> Kind {
        match self.entry() {
            Ok(c) => c.kind,
            Err(f) => match f.kind {
                narrow::Kind::Float => Kind::Float,
                narrow::Kind::SignedInt => Kind::Signed,
                narrow::Kind::UnsignedInt => Kind::Unsigned,
                narrow::Kind::Complex => Kind::Complex,
            },
        }
    }

    /// Size of one element in bits of information (bool counts as 8, as it is stored; int4
    /// is 4 though ml_dtypes stores it in a byte, see [`DType::itemsize`]).
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!((DType::BFloat16.bits(), DType::Bool.bits(), DType::INT4.bits()), (16, 8, 4));
    /// ```
    pub fn bits(self) -> u32 {
        match self.entry() {
            Ok(c) => c.bits,
            Err(f) => f.bits,
        }
    }

    /// Size of one stored element in bytes (the narrow dtypes below 8 bits take one byte each,
    /// as ml_dtypes stores them).
    ///
    /// ```
    /// assert_eq!(promote::DType::Complex128.itemsize(), 16);
    /// assert_eq!(promote::DType::FLOAT4_E2M1FN.itemsize(), 1);
    /// ```
    pub fn itemsize(self) -> usize {
        (self.bits() as usize).div_ceil(8)
    }

    /// Exponent bits of a float (of a component, for complex; 0 for bool and integers).
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!((DType::Float32.exponent_bits(), DType::BFloat16.exponent_bits()), (8, 8));
    /// assert_eq!(DType::Int32.exponent_bits(), 0);
    /// ```
    pub fn exponent_bits(self) -> u32 {
        match self.entry() {
            Ok(c) => c.exponent_mantissa.0,
            Err(f) => f.exponent_bits,
        }
    }

    /// Explicit mantissa bits of a float (of a component, for complex; 0 for bool, integers
    /// and float8_e8m0fnu).
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!((DType::Float16.mantissa_bits(), DType::Float64.mantissa_bits()), (10, 52));
    /// ```
    pub fn mantissa_bits(self) -> u32 {
        match self.entry() {
            Ok(c) => c.exponent_mantissa.1,
            Err(f) => f.mantissa_bits,
        }
    }

    /// A float or complex dtype without infinities (the `fn`, `fnuz` and `e8m0fnu` formats,
    /// float6, float4).
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::FLOAT8_E4M3FN.finite_only() && !DType::FLOAT8_E5M2.finite_only());
    /// ```
    pub fn finite_only(self) -> bool {
        self.is_inexact() && !self.has_inf()
    }

    /// Whether some value of the dtype is NaN (false for integers, float6 and float4).
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::Float32.has_nan() && !DType::Int8.has_nan());
    /// ```
    pub fn has_nan(self) -> bool {
        match self.entry() {
            Ok(c) => c.exponent_mantissa.0 > 0,
            Err(f) => f.has_nan() || f.kind == narrow::Kind::Complex,
        }
    }

    /// Whether some value of the dtype is an infinity.
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::FLOAT8_E5M2.has_inf() && !DType::FLOAT8_E4M3FN.has_inf());
    /// ```
    pub fn has_inf(self) -> bool {
        match self.entry() {
            Ok(c) => c.exponent_mantissa.0 > 0,
            Err(f) => f.has_inf() || f.kind == narrow::Kind::Complex,
        }
    }

    /// Whether zero is unsigned (the `fnuz` formats, and float8_e8m0fnu, which has no zero).
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::FLOAT8_E4M3FNUZ.unsigned_zero() && !DType::Float32.unsigned_zero());
    /// ```
    pub fn unsigned_zero(self) -> bool {
        self.format()
            .is_some_and(|f| f.unsigned_zero || (f.kind == narrow::Kind::Float && !f.signed))
    }

    /// bool.
    ///
    /// ```
    /// assert!(promote::DType::Bool.is_bool());
    /// ```
    pub fn is_bool(self) -> bool {
        self == DType::Bool
    }
    /// Signed or unsigned integer (not bool).
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::UInt64.is_integer() && !DType::Bool.is_integer());
    /// ```
    pub fn is_integer(self) -> bool {
        matches!(self.kind(), Kind::Signed | Kind::Unsigned)
    }
    /// A signed integer, float or complex: a dtype that can hold -1 (float8_e8m0fnu, which
    /// cannot, counts as a float).
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::Int8.is_signed() && DType::Float16.is_signed() && !DType::UInt8.is_signed());
    /// ```
    pub fn is_signed(self) -> bool {
        matches!(self.kind(), Kind::Signed | Kind::Float | Kind::Complex)
    }
    /// A real floating-point dtype.
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::BFloat16.is_floating_point() && !DType::Complex64.is_floating_point());
    /// ```
    pub fn is_floating_point(self) -> bool {
        self.kind() == Kind::Float
    }
    /// A complex dtype.
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::Complex64.is_complex() && !DType::Float64.is_complex());
    /// ```
    pub fn is_complex(self) -> bool {
        self.kind() == Kind::Complex
    }
    /// A floating-point or complex dtype.
    ///
    /// ```
    /// use promote::DType;
    /// assert!(DType::Complex128.is_inexact() && DType::Float16.is_inexact() && !DType::Int64.is_inexact());
    /// ```
    pub fn is_inexact(self) -> bool {
        matches!(self.kind(), Kind::Float | Kind::Complex)
    }

    /// The inclusive integer range of a bool or integer dtype.
    ///
    /// ```
    /// assert_eq!(promote::DType::Int8.int_range(), Some((-128, 127)));
    /// assert_eq!(promote::DType::INT4.int_range(), Some((-8, 7)));
    /// ```
    pub fn int_range(self) -> Option<(i128, i128)> {
        match self.kind() {
            Kind::Bool => Some((0, 1)),
            Kind::Unsigned => Some((0, (1i128 << self.bits()) - 1)),
            Kind::Signed => {
                let half = 1i128 << (self.bits() - 1);
                Some((-half, half - 1))
            }
            Kind::Float | Kind::Complex => None,
        }
    }

    /// The largest finite value of a float dtype (of the real part, for complex).
    ///
    /// ```
    /// assert_eq!(promote::DType::FLOAT8_E4M3FN.float_max(), Some(448.0));
    /// ```
    pub fn float_max(self) -> Option<f64> {
        match self.entry() {
            Ok(_) => Some(match self {
                DType::BFloat16 => half::bf16::MAX.to_f64(),
                DType::Float16 => half::f16::MAX.to_f64(),
                DType::Float32 | DType::Complex64 => f32::MAX as f64,
                DType::Float64 | DType::Complex128 => f64::MAX,
                _ => return None,
            }),
            Err(f) => match f.kind {
                narrow::Kind::Float => Some(f.max_value()),
                narrow::Kind::Complex => DType::parse(f.component?).ok()?.float_max(),
                narrow::Kind::SignedInt | narrow::Kind::UnsignedInt => None,
            },
        }
    }

    /// The complex dtype with this float's precision, where one of the classic dtypes is.
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::Float32.to_complex(), Some(DType::Complex64));
    /// assert_eq!(DType::Float64.to_complex(), Some(DType::Complex128));
    /// ```
    pub fn to_complex(self) -> Option<DType> {
        match self {
            DType::Float32 => Some(DType::Complex64),
            DType::Float64 => Some(DType::Complex128),
            DType::Complex64 | DType::Complex128 => Some(self),
            _ => None,
        }
    }

    /// Every spelling [`FromStr`] accepts for this dtype, canonical name first (for the
    /// narrow dtypes, each framework's spelling without its module prefix).
    ///
    /// ```
    /// use promote::DType;
    /// for d in DType::ALL {
    ///     assert!(d.aliases().iter().all(|a| DType::parse(a) == Ok(d)), "{d}");
    /// }
    /// ```
    pub fn aliases(self) -> &'static [&'static str] {
        match self.entry() {
            Ok(c) => c.aliases,
            Err(_) => &NARROW_ALIASES[self.index() - CLASSIC.len()],
        }
    }

    /// Parse any spelling, or fail with the nearest valid name.
    ///
    /// Framework prefixes (`np.`, `numpy.`, `torch.`, `jnp.`, `tf.`, `tf.dtypes.experimental.`,
    /// `ml_dtypes.`, `paddle.`, `oneflow.`, `flow.`) are dropped first. Note the one clash:
    /// NumPy's `i8` means int64 (8 bytes), but the frameworks' docs write `i8` for int8; this
    /// parser follows the docs, and accepts NumPy's byte codes with an explicit `<`/`=` byte
    /// order (`<i8` is int64).
    ///
    /// ```
    /// use promote::DType;
    /// assert_eq!(DType::parse("paddle.float32").unwrap(), DType::Float32);
    /// assert_eq!(DType::parse("<i8").unwrap(), DType::Int64);
    /// assert_eq!(DType::parse("long").unwrap(), DType::Int64);
    /// assert_eq!(DType::parse("tf.dtypes.experimental.int4").unwrap(), DType::INT4);
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
            "ml_dtypes.",
            "tf.dtypes.experimental.",
            "tf.experimental.",
            "tf.dtypes.",
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
        if let Some(d) = by_byte_size(t) {
            return Ok(d);
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

/// NumPy type strings with a byte order use byte sizes: `<i8` is int64, `<f2` float16.
fn by_byte_size(t: &str) -> Option<DType> {
    let code = t.strip_prefix(['<', '=', '|', '>'])?;
    let (kind, bytes) = match code.split_at_checked(1)? {
        ("b", "1") => return Some(DType::Bool),
        ("u", n) => (Kind::Unsigned, n),
        ("i", n) => (Kind::Signed, n),
        ("f", n) => (Kind::Float, n),
        ("c", n) => (Kind::Complex, n),
        _ => return None,
    };
    let bytes: usize = bytes.parse().ok()?;
    // The IEEE / NumPy dtype of that kind and size (never bfloat16 or a narrow one).
    DType::classic().find(|d| d.kind() == kind && d.itemsize() == bytes && *d != DType::BFloat16)
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for DType {
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
    fn every_short_name_parses_back_to_its_dtype() {
        for d in DType::ALL {
            assert_eq!(
                DType::parse(d.short_name()).unwrap(),
                d,
                "{}",
                d.short_name()
            );
        }
        assert_eq!(DType::UINT4.short_name(), "uint4"); // XLA's `u4` reads as uint32
        assert_eq!(DType::UInt32.short_name(), "u32");
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
        assert_eq!(DType::classic().filter(|d| d.is_integer()).count(), 8);
        assert_eq!(DType::ALL.iter().filter(|d| d.is_integer()).count(), 12);
        assert_eq!(DType::INT4.int_range(), Some((-8, 7)));
        assert_eq!(DType::UINT2.int_range(), Some((0, 3)));
        assert!(DType::FLOAT8_E4M3FNUZ.unsigned_zero() && !DType::FLOAT8_E4M3FN.unsigned_zero());
        assert!(DType::FLOAT8_E5M2.has_inf() && !DType::FLOAT4_E2M1FN.has_nan());
        assert_eq!(DType::COMPLEX32.itemsize(), 4);
        assert_eq!(DType::Int64.int_range().unwrap().0, i64::MIN as i128);
        assert_eq!(DType::Float16.float_max(), Some(65504.0));
        assert!(DType::Bool.kind().rank() < DType::UInt8.kind().rank());
    }
}
