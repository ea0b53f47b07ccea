//! The narrow dtypes as data: one [`Format`] per dtype, in one table ([`FORMATS`]).
//!
//! Everything the codec needs (bits, exponent and mantissa widths, bias, which encodings are
//! NaN and infinity, whether zero is signed) and everything a user asks (`is it finite-only?`,
//! the names each framework gives it) is a field here. Adding a narrow dtype is one entry.
//!
//! The values are those of ml_dtypes 0.6.0 (`ml_dtypes.finfo`/`iinfo`, and the decode of every
//! bit pattern, recorded in `tests/fixtures/narrow/ml_dtypes-decode.txt.gz`); `tests/narrow_casts.rs`
//! checks the table against that recording, pattern by pattern.
//!
//! ```
//! use promote::kernel::narrow::format::{lookup, Kind};
//! let f = lookup("torch.float8_e4m3fn").unwrap();
//! assert_eq!((f.name, f.exponent_bits, f.mantissa_bits, f.bias), ("float8_e4m3fn", 4, 3, 7));
//! assert!(f.finite_only() && f.has_nan() && !f.unsigned_zero);
//! assert_eq!(f.max_value(), 448.0);
//! assert_eq!(lookup("chalf").unwrap().kind, Kind::Complex);
//! ```

/// What a narrow dtype holds.
///
/// ```
/// use promote::kernel::narrow::format::{lookup, Kind};
/// assert_eq!(lookup("float8_e5m2").unwrap().kind, Kind::Float);
/// assert_eq!(lookup("int4").unwrap().kind, Kind::SignedInt);
/// assert_eq!(lookup("uint2").unwrap().kind, Kind::UnsignedInt);
/// assert_eq!(lookup("torch.complex32").unwrap().kind, Kind::Complex);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A binary floating-point format (sign, exponent, mantissa; `e8m0` has no sign and no
    /// mantissa).
    Float,
    /// A two's-complement integer.
    SignedInt,
    /// An unsigned integer.
    UnsignedInt,
    /// A complex number: two components of the dtype named in [`Format::component`].
    Complex,
}

/// One name a framework gives a dtype, as its users write it.
///
/// ```
/// use promote::kernel::narrow::format::lookup;
/// let int4 = lookup("jnp.int4").unwrap();
/// let xla = int4.spellings.iter().find(|s| s.framework == "xla").unwrap();
/// assert_eq!(xla.name, "s4");
/// assert!(int4.spellings.iter().any(|s| s.name == "torch.int4"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spelling {
    /// `ml_dtypes`, `jax`, `torch`, `tensorflow`, `paddle`, `xla`, `mlir`, `numpy`.
    pub framework: &'static str,
    /// The spelling, e.g. `torch.float8_e4m3fn`, `jnp.int4`, `f8e4m3fn`.
    pub name: &'static str,
}

const fn s(framework: &'static str, name: &'static str) -> Spelling {
    Spelling { framework, name }
}

/// A narrow dtype: its encoding and its names.
///
/// ```
/// use promote::kernel::narrow::{codec::decode_exact, format::lookup};
/// // fnuz: one unsigned zero; the code of -0 (0x80) is the NaN
/// let f = lookup("float8_e4m3fnuz").unwrap();
/// assert!(f.unsigned_zero && f.signed);
/// assert_eq!(f.nan_code, Some(0x80));
/// assert!(decode_exact(f, 0x80).is_nan());
/// assert_eq!(decode_exact(f, 0x00), 0.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Format {
    /// The canonical name (ml_dtypes' and JAX's).
    pub name: &'static str,
    /// Float, signed or unsigned integer, or complex.
    pub kind: Kind,
    /// Bits of information per element (a stored element takes one byte; complex32 four).
    pub bits: u32,
    /// Exponent bits (0 for integers; for complex, those of a component).
    pub exponent_bits: u32,
    /// Explicit mantissa bits (0 for integers and `e8m0`; for complex, those of a component).
    pub mantissa_bits: u32,
    /// Exponent bias: a normal value is `2^(field - bias) * 1.mantissa`.
    pub bias: i32,
    /// Whether the top bit is a sign (false for `e8m0` and the unsigned integers).
    pub signed: bool,
    /// Whether exponent field 0 holds zero and subnormals (false for `e8m0`, whose code 0 is
    /// `2^-127`).
    pub has_zero: bool,
    /// The code of `+inf`, if the format has infinities.
    pub inf_code: Option<u8>,
    /// The code ml_dtypes produces for a NaN (its `quiet_NaN`), if the format has NaNs.
    pub nan_code: Option<u8>,
    /// The code of the largest finite value.
    pub max_code: u8,
    /// `fnuz`: a single unsigned zero, and the code of `-0` (`0x80`) is the only NaN.
    pub unsigned_zero: bool,
    /// The components' dtype of a complex format (`float16` for complex32).
    pub component: Option<&'static str>,
    /// Every spelling the frameworks use.
    pub spellings: &'static [Spelling],
}

impl Format {
    /// An integer wrapped into this integer format's bits as a C cast does (two's complement
    /// for the signed ones), as an `i64`.
    ///
    /// ```
    /// use promote::kernel::narrow::format::lookup;
    /// assert_eq!(lookup("int2").unwrap().wrap(2), -2);
    /// assert_eq!(lookup("uint4").unwrap().wrap(-1), 15);
    /// ```
    pub fn wrap(&self, v: i64) -> i64 {
        let shift = 64 - self.bits;
        match self.kind == Kind::SignedInt {
            true => (v << shift) >> shift,
            false => ((v << shift) as u64 >> shift) as i64,
        }
    }

    /// No infinities (the `fn`, `fnuz` and `e8m0fnu` formats, float6, float4).
    ///
    /// ```
    /// use promote::kernel::narrow::format::lookup;
    /// assert!(lookup("float8_e4m3fn").unwrap().finite_only());
    /// assert!(lookup("float4_e2m1fn").unwrap().finite_only());
    /// assert!(!lookup("float8_e5m2").unwrap().finite_only()); // has infinities
    /// assert!(!lookup("int4").unwrap().finite_only()); // not a float
    /// ```
    pub fn finite_only(&self) -> bool {
        self.kind == Kind::Float && self.inf_code.is_none()
    }

    /// Whether some code is NaN (float6 and float4 have none).
    ///
    /// ```
    /// use promote::kernel::narrow::format::lookup;
    /// assert!(lookup("float8_e4m3fn").unwrap().has_nan());
    /// assert!(!lookup("float6_e2m3fn").unwrap().has_nan());
    /// assert!(!lookup("float4_e2m1fn").unwrap().has_nan());
    /// ```
    pub fn has_nan(&self) -> bool {
        self.nan_code.is_some()
    }

    /// Whether some code is an infinity.
    ///
    /// ```
    /// use promote::kernel::narrow::format::lookup;
    /// assert!(!lookup("float8_e4m3fn").unwrap().has_inf());
    /// assert!(!lookup("float8_e5m2fnuz").unwrap().has_inf());
    /// let e5m2 = lookup("float8_e5m2").unwrap();
    /// assert!(e5m2.has_inf());
    /// assert_eq!(e5m2.inf_code, Some(0x7c));
    /// ```
    pub fn has_inf(&self) -> bool {
        self.inf_code.is_some()
    }

    /// The sign bit of a code (0 when the format is unsigned).
    ///
    /// ```
    /// use promote::kernel::narrow::format::lookup;
    /// assert_eq!(lookup("float8_e4m3fn").unwrap().sign_bit(), 0x80);
    /// assert_eq!(lookup("float4_e2m1fn").unwrap().sign_bit(), 0x08);
    /// assert_eq!(lookup("int2").unwrap().sign_bit(), 0x02);
    /// assert_eq!(lookup("float8_e8m0fnu").unwrap().sign_bit(), 0); // unsigned
    /// assert_eq!(lookup("uint4").unwrap().sign_bit(), 0);
    /// ```
    pub fn sign_bit(&self) -> u8 {
        if self.signed && self.kind != Kind::Complex {
            1 << (self.bits - 1)
        } else {
            0
        }
    }

    /// The codes an element can hold (`2^bits`; 256 at most, as elements are bytes).
    ///
    /// ```
    /// use promote::kernel::narrow::format::lookup;
    /// assert_eq!(lookup("float8_e5m2").unwrap().code_count(), 256);
    /// assert_eq!(lookup("float6_e3m2fn").unwrap().code_count(), 64);
    /// assert_eq!(lookup("int4").unwrap().code_count(), 16);
    /// assert_eq!(lookup("complex32").unwrap().code_count(), 256); // capped at a byte
    /// ```
    pub fn code_count(&self) -> usize {
        1usize << self.bits.min(8)
    }

    /// The largest finite value.
    ///
    /// ```
    /// use promote::kernel::narrow::format::lookup;
    /// assert_eq!(lookup("float8_e4m3fn").unwrap().max_value(), 448.0);
    /// assert_eq!(lookup("float8_e4m3fnuz").unwrap().max_value(), 240.0);
    /// assert_eq!(lookup("float8_e5m2").unwrap().max_value(), 57344.0);
    /// assert_eq!(lookup("float4_e2m1fn").unwrap().max_value(), 6.0);
    /// assert_eq!(lookup("int4").unwrap().max_value(), 7.0);
    /// ```
    pub fn max_value(&self) -> f64 {
        super::codec::decode_exact(self, self.max_code)
    }

    /// Whether `code` is a NaN of this format.
    ///
    /// ```
    /// use promote::kernel::narrow::format::lookup;
    /// let e4m3fn = lookup("float8_e4m3fn").unwrap();
    /// assert!(e4m3fn.is_nan_code(0x7f) && e4m3fn.is_nan_code(0xff));
    /// assert!(!e4m3fn.is_nan_code(0x7e)); // 448
    /// let e5m2 = lookup("float8_e5m2").unwrap();
    /// assert!(e5m2.is_nan_code(0x7d) && e5m2.is_nan_code(0xfe));
    /// assert!(!e5m2.is_nan_code(0x7c)); // +inf
    /// let fnuz = lookup("float8_e5m2fnuz").unwrap();
    /// assert!(fnuz.is_nan_code(0x80) && !fnuz.is_nan_code(0x00));
    /// assert!(!lookup("float4_e2m1fn").unwrap().is_nan_code(0x08));
    /// ```
    pub fn is_nan_code(&self, code: u8) -> bool {
        let Some(nan) = self.nan_code else {
            return false;
        };
        if self.unsigned_zero || !self.signed {
            return code == nan; // fnuz: 0x80 only; e8m0: 0xff only
        }
        let magnitude = code & !self.sign_bit();
        match self.inf_code {
            Some(inf) => magnitude > inf, // IEEE-like: above infinity, mantissa non-zero
            None => magnitude == nan,     // `fn`: the all-ones code of either sign
        }
    }
}

const FLOAT: Format = Format {
    name: "",
    kind: Kind::Float,
    bits: 8,
    exponent_bits: 0,
    mantissa_bits: 0,
    bias: 0,
    signed: true,
    has_zero: true,
    inf_code: None,
    nan_code: None,
    max_code: 0,
    unsigned_zero: false,
    component: None,
    spellings: &[],
};

const fn float(
    name: &'static str,
    bits: u32,
    (exponent_bits, mantissa_bits, bias): (u32, u32, i32),
    (inf_code, nan_code, max_code): (Option<u8>, Option<u8>, u8),
    spellings: &'static [Spelling],
) -> Format {
    Format {
        name,
        bits,
        exponent_bits,
        mantissa_bits,
        bias,
        inf_code,
        nan_code,
        max_code,
        spellings,
        ..FLOAT
    }
}

const fn fnuz(mut f: Format) -> Format {
    f.unsigned_zero = true;
    f
}

const fn integer(
    name: &'static str,
    bits: u32,
    signed: bool,
    spellings: &'static [Spelling],
) -> Format {
    Format {
        name,
        kind: if signed {
            Kind::SignedInt
        } else {
            Kind::UnsignedInt
        },
        bits,
        signed,
        max_code: if signed {
            (1 << (bits - 1)) - 1
        } else {
            (1 << bits) - 1
        },
        spellings,
        ..FLOAT
    }
}

/// Every narrow dtype. Spellings: ml_dtypes 0.6.0 and JAX 0.10.2 (`jnp.*`) have all the
/// floats and integers; PyTorch 2.15 has the five float8s below it lists (and `int4`, `uint4`,
/// `int2`, `uint2` as dtypes without casts, and float4 only packed in pairs, as
/// `float4_e2m1fn_x2`); TensorFlow 2.21 (`tf.dtypes.experimental`) and Paddle 3.3.1 the ones they
/// list; `xla` is the HLO primitive type (`jax._src.lib.xla_client.PrimitiveType`).
pub const FORMATS: &[Format] = &[
    float(
        "float8_e4m3fn",
        8,
        (4, 3, 7),
        (None, Some(0x7f), 0x7e),
        &[
            s("ml_dtypes", "ml_dtypes.float8_e4m3fn"),
            s("jax", "jnp.float8_e4m3fn"),
            s("torch", "torch.float8_e4m3fn"),
            s("tensorflow", "tf.dtypes.experimental.float8_e4m3fn"),
            s("paddle", "paddle.float8_e4m3fn"),
            s("xla", "f8e4m3fn"),
            s("mlir", "f8E4M3FN"),
        ],
    ),
    float(
        "float8_e5m2",
        8,
        (5, 2, 15),
        (Some(0x7c), Some(0x7e), 0x7b),
        &[
            s("ml_dtypes", "ml_dtypes.float8_e5m2"),
            s("jax", "jnp.float8_e5m2"),
            s("torch", "torch.float8_e5m2"),
            s("tensorflow", "tf.dtypes.experimental.float8_e5m2"),
            s("paddle", "paddle.float8_e5m2"),
            s("xla", "f8e5m2"),
            s("mlir", "f8E5M2"),
        ],
    ),
    fnuz(float(
        "float8_e4m3fnuz",
        8,
        (4, 3, 8),
        (None, Some(0x80), 0x7f),
        &[
            s("ml_dtypes", "ml_dtypes.float8_e4m3fnuz"),
            s("jax", "jnp.float8_e4m3fnuz"),
            s("torch", "torch.float8_e4m3fnuz"),
            s("tensorflow", "tf.dtypes.experimental.float8_e4m3fnuz"),
            s("xla", "f8e4m3fnuz"),
            s("mlir", "f8E4M3FNUZ"),
        ],
    )),
    fnuz(float(
        "float8_e5m2fnuz",
        8,
        (5, 2, 16),
        (None, Some(0x80), 0x7f),
        &[
            s("ml_dtypes", "ml_dtypes.float8_e5m2fnuz"),
            s("jax", "jnp.float8_e5m2fnuz"),
            s("torch", "torch.float8_e5m2fnuz"),
            s("tensorflow", "tf.dtypes.experimental.float8_e5m2fnuz"),
            s("xla", "f8e5m2fnuz"),
            s("mlir", "f8E5M2FNUZ"),
        ],
    )),
    fnuz(float(
        "float8_e4m3b11fnuz",
        8,
        (4, 3, 11),
        (None, Some(0x80), 0x7f),
        &[
            s("ml_dtypes", "ml_dtypes.float8_e4m3b11fnuz"),
            s("jax", "jnp.float8_e4m3b11fnuz"),
            s("tensorflow", "tf.dtypes.experimental.float8_e4m3b11fnuz"),
            s("xla", "f8e4m3b11fnuz"),
            s("mlir", "f8E4M3B11FNUZ"),
        ],
    )),
    float(
        "float8_e3m4",
        8,
        (3, 4, 3),
        (Some(0x70), Some(0x78), 0x6f),
        &[
            s("ml_dtypes", "ml_dtypes.float8_e3m4"),
            s("jax", "jnp.float8_e3m4"),
            s("xla", "f8e3m4"),
            s("mlir", "f8E3M4"),
        ],
    ),
    float(
        "float8_e4m3",
        8,
        (4, 3, 7),
        (Some(0x78), Some(0x7c), 0x77),
        &[
            s("ml_dtypes", "ml_dtypes.float8_e4m3"),
            s("jax", "jnp.float8_e4m3"),
            s("xla", "f8e4m3"),
            s("mlir", "f8E4M3"),
        ],
    ),
    Format {
        signed: false,
        has_zero: false,
        ..float(
            "float8_e8m0fnu",
            8,
            (8, 0, 127),
            (None, Some(0xff), 0xfe),
            &[
                s("ml_dtypes", "ml_dtypes.float8_e8m0fnu"),
                s("jax", "jnp.float8_e8m0fnu"),
                s("torch", "torch.float8_e8m0fnu"),
                s("xla", "f8e8m0fnu"),
                s("mlir", "f8E8M0FNU"),
            ],
        )
    },
    float(
        "float6_e2m3fn",
        6,
        (2, 3, 1),
        (None, None, 0x1f),
        &[
            s("ml_dtypes", "ml_dtypes.float6_e2m3fn"),
            s("jax", "jnp.float6_e2m3fn"),
            s("mlir", "f6E2M3FN"),
        ],
    ),
    float(
        "float6_e3m2fn",
        6,
        (3, 2, 3),
        (None, None, 0x1f),
        &[
            s("ml_dtypes", "ml_dtypes.float6_e3m2fn"),
            s("jax", "jnp.float6_e3m2fn"),
            s("mlir", "f6E3M2FN"),
        ],
    ),
    float(
        "float4_e2m1fn",
        4,
        (2, 1, 1),
        (None, None, 0x7),
        &[
            s("ml_dtypes", "ml_dtypes.float4_e2m1fn"),
            s("jax", "jnp.float4_e2m1fn"),
            s("torch", "torch.float4_e2m1fn_x2"),
            s("tensorflow", "tf.dtypes.experimental.float4_e2m1fn"),
            s("xla", "f4e2m1fn"),
            s("mlir", "f4E2M1FN"),
        ],
    ),
    integer(
        "int2",
        2,
        true,
        &[
            s("ml_dtypes", "ml_dtypes.int2"),
            s("jax", "jnp.int2"),
            s("torch", "torch.int2"),
            s("tensorflow", "tf.dtypes.experimental.int2"),
            s("mlir", "i2"),
        ],
    ),
    integer(
        "uint2",
        2,
        false,
        &[
            s("ml_dtypes", "ml_dtypes.uint2"),
            s("jax", "jnp.uint2"),
            s("torch", "torch.uint2"),
            s("tensorflow", "tf.dtypes.experimental.uint2"),
            s("mlir", "ui2"),
        ],
    ),
    integer(
        "int4",
        4,
        true,
        &[
            s("ml_dtypes", "ml_dtypes.int4"),
            s("jax", "jnp.int4"),
            s("torch", "torch.int4"),
            s("tensorflow", "tf.dtypes.experimental.int4"),
            s("xla", "s4"),
            s("mlir", "i4"),
        ],
    ),
    integer(
        "uint4",
        4,
        false,
        &[
            s("ml_dtypes", "ml_dtypes.uint4"),
            s("jax", "jnp.uint4"),
            s("torch", "torch.uint4"),
            s("tensorflow", "tf.dtypes.experimental.uint4"),
            s("xla", "u4"),
            s("mlir", "ui4"),
        ],
    ),
    Format {
        name: "complex32",
        kind: Kind::Complex,
        bits: 32,
        exponent_bits: 5,
        mantissa_bits: 10,
        bias: 15,
        inf_code: None,
        nan_code: None,
        max_code: 0,
        component: Some("float16"),
        spellings: &[
            s("torch", "torch.complex32"),
            s("torch", "torch.chalf"),
            s("ml_dtypes", "ml_dtypes.complex32"),
        ],
        ..FLOAT
    },
];

/// The format named `name`: its canonical name or any framework spelling, with or without the
/// module prefix (`float8_e4m3fn`, `torch.float8_e4m3fn`, `f8e4m3fn`, `chalf`).
///
/// ```
/// use promote::kernel::narrow::format::lookup;
/// assert_eq!(lookup("float8_e5m2").unwrap().name, "float8_e5m2");
/// assert_eq!(lookup("torch.float8_e5m2").unwrap().name, "float8_e5m2");
/// assert_eq!(lookup("f8E5M2").unwrap().name, "float8_e5m2"); // MLIR
/// assert_eq!(lookup(" s4 ").unwrap().name, "int4"); // XLA, trimmed
/// assert_eq!(lookup("chalf").unwrap().name, "complex32");
/// assert!(lookup("float8").is_none() && lookup("float16").is_none());
/// ```
pub fn lookup(name: &str) -> Option<&'static Format> {
    let name = name.trim();
    FORMATS.iter().find(|f| {
        f.name == name
            || f.spellings
                .iter()
                .any(|sp| sp.name == name || sp.name.rsplit('.').next() == Some(name))
    })
}

/// The canonical names, in table order (for error messages: "the narrow dtypes are ...").
///
/// ```
/// use promote::kernel::narrow::format::{names, FORMATS};
/// let n = names();
/// assert_eq!(n.len(), FORMATS.len());
/// assert_eq!(n[0], "float8_e4m3fn");
/// assert!(n.contains(&"int2") && n.contains(&"complex32"));
/// ```
pub fn names() -> Vec<&'static str> {
    FORMATS.iter().map(|f| f.name).collect()
}
