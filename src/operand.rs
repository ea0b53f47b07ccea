//! Operands: a tensor (n-d or 0-d, strong or weak) or a Python literal of any size.
//!
//! The compact syntax, shared by the CLI and the fixtures:
//!
//! | text | operand |
//! | --- | --- |
//! | `int8` | a tensor with one or more dimensions |
//! | `int8(5)`, `int8()` | a 0-d tensor holding 5 / a 0-d tensor |
//! | `~int32`, `~int32(5)` | a weakly typed tensor (JAX `weak_type`, TF `WeakTensor`) |
//! | `True`, `300`, `-1`, `1.0`, `1e+300`, `inf`, `nan`, `1j`, `(1e+300+0j)` | a Python literal, as `repr` writes it |
//!
//! ```
//! use promote::{Operand, DType};
//! let a: Operand = "int8(5)".parse().unwrap();
//! assert_eq!(a.dtype(), Some(DType::Int8));
//! assert!(a.is_zero_dim());
//! let b: Operand = "18446744073709551616".parse().unwrap();
//! assert!(b.literal().unwrap().as_int().unwrap().fits(DType::UInt64) == false);
//! ```

use std::fmt;
use std::str::FromStr;

use crate::dtype::DType;
use crate::error::PromoteError;

/// A Python int of any size: exact within ±2^127, and beyond that its sign and an
/// approximate magnitude (enough to decide "fits or overflows" for every dtype).
///
/// ```
/// use promote::operand::PyInt;
/// let big = PyInt::parse("340282366920938463463374607431768211456").unwrap();
/// assert_eq!(big.exact(), None);
/// assert!(big.to_f64() > 3.4e38);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct PyInt {
    exact: Option<i128>,
    negative: bool,
    approx: f64,
    text: String,
}

impl PyInt {
    /// Parse a Python int literal with an optional sign: `-129`, `1_000`, `0`; not `1__0`,
    /// `10_`, `007` (Python's `decinteger` grammar; only decimal, as `repr` writes ints).
    ///
    /// ```
    /// use promote::operand::PyInt;
    /// assert_eq!(PyInt::parse("-129").unwrap().exact(), Some(-129));
    /// assert_eq!(PyInt::parse("1_000").unwrap().exact(), Some(1000));
    /// assert!(PyInt::parse("1__0").is_none() && PyInt::parse("10_").is_none());
    /// assert!(PyInt::parse("007").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<PyInt> {
        let t = text.trim();
        let (negative, literal) = split_sign(t);
        if !grammar::is_decinteger(literal) {
            return None;
        }
        let digits = literal.replace('_', "");
        let exact = digits
            .parse::<i128>()
            .ok()
            .map(|v| if negative { -v } else { v });
        let magnitude: f64 = digits.parse().ok()?;
        let canon = digits.trim_start_matches('0');
        let canon = if canon.is_empty() { "0" } else { canon };
        let negative = negative && canon != "0";
        Some(PyInt {
            exact,
            negative,
            approx: if negative { -magnitude } else { magnitude },
            text: format!("{}{}", if negative { "-" } else { "" }, canon),
        })
    }

    /// The value, where it fits an `i128`.
    ///
    /// ```
    /// assert_eq!(promote::operand::PyInt::parse("-7").unwrap().exact(), Some(-7));
    /// ```
    pub fn exact(&self) -> Option<i128> {
        self.exact
    }
    /// Below zero.
    ///
    /// ```
    /// assert!(promote::operand::PyInt::parse("-7").unwrap().is_negative());
    /// ```
    pub fn is_negative(&self) -> bool {
        self.negative
    }
    /// The nearest `f64` (may be infinite for ints beyond 1e308, as Python's `float(i)` overflows).
    ///
    /// ```
    /// assert_eq!(promote::operand::PyInt::parse("1_000").unwrap().to_f64(), 1000.0);
    /// ```
    pub fn to_f64(&self) -> f64 {
        self.approx
    }
    /// Whether the value lies in the range of an integer or bool dtype.
    ///
    /// ```
    /// use promote::{operand::PyInt, DType};
    /// assert!(PyInt::parse("255").unwrap().fits(DType::UInt8));
    /// assert!(!PyInt::parse("-1").unwrap().fits(DType::UInt8));
    /// ```
    pub fn fits(&self, d: DType) -> bool {
        match (self.exact, d.int_range()) {
            (Some(v), Some((lo, hi))) => lo <= v && v <= hi,
            (None, Some(_)) => false,
            (_, None) => true,
        }
    }
}

impl fmt::Display for PyInt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// A Python literal: `bool`, `int`, `float` or `complex`.
///
/// ```
/// use promote::Literal;
/// assert_eq!(Literal::parse("True"), Some(Literal::Bool(true)));
/// assert_eq!(Literal::parse("(1+2j)"), Some(Literal::Complex(1.0, 2.0)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// `True` or `False`.
    Bool(bool),
    /// An integer of any size.
    Int(PyInt),
    /// A float (IEEE double, as Python's).
    Float(f64),
    /// A complex: real and imaginary parts.
    Complex(f64, f64),
}

/// The four kinds of Python literal.
///
/// ```
/// use promote::{operand::LiteralKind, Literal};
/// assert_eq!(Literal::parse("1.5").unwrap().kind(), LiteralKind::Float);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LiteralKind {
    /// `bool`.
    Bool,
    /// `int`.
    Int,
    /// `float`.
    Float,
    /// `complex`.
    Complex,
}

impl LiteralKind {
    /// `bool`, `int`, `float`, `complex`.
    ///
    /// ```
    /// assert_eq!(promote::operand::LiteralKind::Float.name(), "float");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            LiteralKind::Bool => "bool",
            LiteralKind::Int => "int",
            LiteralKind::Float => "float",
            LiteralKind::Complex => "complex",
        }
    }
    /// The dtype kind rank this literal kind compares as (bool 0, int 1, float 2, complex 3).
    ///
    /// ```
    /// use promote::operand::LiteralKind;
    /// assert!(LiteralKind::Int.rank() < LiteralKind::Float.rank());
    /// ```
    pub fn rank(self) -> u8 {
        self as u8
    }
    /// All four, in rank order.
    pub const ALL: [LiteralKind; 4] = [
        LiteralKind::Bool,
        LiteralKind::Int,
        LiteralKind::Float,
        LiteralKind::Complex,
    ];
}

/// A leading `-` or `+`, and the rest.
fn split_sign(t: &str) -> (bool, &str) {
    match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    }
}

/// Python's numeric literal grammar (the tokenizer's `decinteger`, `floatnumber`, `imagnumber`).
mod grammar {
    /// `digit (["_"] digit)*`: underscores only single and between digits.
    pub(super) fn is_digitpart(s: &str) -> bool {
        let b = s.as_bytes();
        !b.is_empty()
            && b[0].is_ascii_digit()
            && b[b.len() - 1].is_ascii_digit()
            && b.iter().all(|c| c.is_ascii_digit() || *c == b'_')
            && !s.contains("__")
    }

    /// `nonzerodigit (["_"] digit)* | "0"+ (["_"] "0")*`: no leading zeros.
    pub(super) fn is_decinteger(s: &str) -> bool {
        is_digitpart(s) && (!s.starts_with('0') || s.bytes().all(|c| c == b'0' || c == b'_'))
    }

    /// `pointfloat | exponentfloat`.
    pub(super) fn is_floatnumber(s: &str) -> bool {
        let (mantissa, exponent) = match s.find(['e', 'E']) {
            Some(i) => (&s[..i], Some(&s[i + 1..])),
            None => (s, None),
        };
        if let Some(e) = exponent {
            if !is_digitpart(e.strip_prefix(['+', '-']).unwrap_or(e)) {
                return false;
            }
        }
        match mantissa.split_once('.') {
            Some((int, frac)) => {
                (int.is_empty() || is_digitpart(int))
                    && (frac.is_empty() || is_digitpart(frac))
                    && !(int.is_empty() && frac.is_empty())
            }
            None => exponent.is_some() && is_digitpart(mantissa),
        }
    }

    /// What `float(text)` reads without a sign: a float literal, digits, `inf`, `nan`.
    pub(super) fn is_unsigned_real(s: &str) -> bool {
        matches!(s, "inf" | "nan") || is_floatnumber(s) || is_digitpart(s)
    }
}

/// Python's `float(text)` over the literal grammar: `-0` is -0.0, `1e400` is inf, `1_0.5` is 10.5.
fn parse_py_float(t: &str) -> Option<f64> {
    let (negative, rest) = split_sign(t);
    if !grammar::is_unsigned_real(rest) {
        return None;
    }
    let magnitude: f64 = match rest {
        "inf" => f64::INFINITY,
        "nan" => f64::NAN,
        _ => rest.replace('_', "").parse().ok()?,
    };
    Some(if negative { -magnitude } else { magnitude })
}

/// Python's `float(text)` for a value written as a literal or `repr` would: the sign of a
/// zero is kept (`-0` is -0.0), ints are read as floats, `inf`/`nan` are accepted.
///
/// ```
/// let z = promote::operand::float_from_text("-0").unwrap();
/// assert!(z == 0.0 && z.is_sign_negative());
/// assert_eq!(promote::operand::float_from_text("1e400"), Some(f64::INFINITY));
/// assert_eq!(promote::operand::float_from_text("1__0"), None);
/// ```
pub fn float_from_text(text: &str) -> Option<f64> {
    parse_py_float(text.trim())
}

/// Python's `complex(text)` for a value written as `repr` would: `1j`, `(1+2j)`, `(-0-0j)`,
/// `(nan+infj)`, or a real (`1.5`, `-0`).
///
/// ```
/// assert_eq!(promote::operand::complex_from_text("(1+2j)"), Some((1.0, 2.0)));
/// assert_eq!(promote::operand::complex_from_text("2"), Some((2.0, 0.0)));
/// assert_eq!(promote::operand::complex_from_text("(1+2j"), None);
/// ```
pub fn complex_from_text(text: &str) -> Option<(f64, f64)> {
    let t = text.trim();
    if let Some(re) = parse_py_float(t) {
        return Some((re, 0.0));
    }
    parse_imaginary(t)
}

/// `1j`, `-2.5j`, `(1+2j)`, `(1e+300+0j)`, `(nan+nanj)`, `(-0-1j)`.
fn parse_imaginary(t: &str) -> Option<(f64, f64)> {
    let (inner, parenthesized) = match t.strip_prefix('(').and_then(|r| r.strip_suffix(')')) {
        Some(i) => (i, true),
        None => (t, false),
    };
    let body = inner
        .strip_suffix('j')
        .or_else(|| inner.strip_suffix('J'))?;
    if let Some(im) = parse_py_float(body) {
        return Some((0.0, im));
    }
    if !parenthesized {
        return None;
    }
    // split at the last sign that is not part of an exponent and not the first character
    let bytes = body.as_bytes();
    let split = (1..bytes.len()).rev().find(|&i| {
        (bytes[i] == b'+' || bytes[i] == b'-') && !matches!(bytes[i - 1], b'e' | b'E')
    })?;
    let re = parse_py_float(&body[..split])?;
    let im = parse_py_float(&body[split..])?;
    // the imaginary part needs its sign: `(1+2j)`, never `(12j)`
    Some((re, im))
}

impl Literal {
    /// Parse Python's `repr` of a literal: `True`, `-1`, `1.0`, `1e+300`, `inf`, `nan`, `1j`, `(1+2j)`.
    ///
    /// ```
    /// use promote::operand::{Literal, LiteralKind};
    /// assert_eq!(Literal::parse("(1e+300+0j)").unwrap().kind(), LiteralKind::Complex);
    /// assert_eq!(Literal::parse("1e300").unwrap().kind(), LiteralKind::Float);
    /// assert_eq!(Literal::parse("300").unwrap().kind(), LiteralKind::Int);
    /// assert!(Literal::parse("1__0_").is_none() && Literal::parse("1e").is_none());
    /// ```
    pub fn parse(text: &str) -> Option<Literal> {
        let t = text.trim();
        match t {
            "True" => return Some(Literal::Bool(true)),
            "False" => return Some(Literal::Bool(false)),
            _ => {}
        }
        if let Some(i) = PyInt::parse(t) {
            return Some(Literal::Int(i));
        }
        // a float literal needs a point or an exponent (`007` is no literal; `007.` is)
        let (_, unsigned) = split_sign(t);
        if grammar::is_floatnumber(unsigned) || matches!(unsigned, "inf" | "nan") {
            return parse_py_float(t).map(Literal::Float);
        }
        parse_imaginary(t).map(|(re, im)| Literal::Complex(re, im))
    }

    /// Which of the four Python kinds this is.
    ///
    /// ```
    /// use promote::{operand::LiteralKind, Literal};
    /// assert_eq!(Literal::parse("1j").unwrap().kind(), LiteralKind::Complex);
    /// ```
    pub fn kind(&self) -> LiteralKind {
        match self {
            Literal::Bool(_) => LiteralKind::Bool,
            Literal::Int(_) => LiteralKind::Int,
            Literal::Float(_) => LiteralKind::Float,
            Literal::Complex(..) => LiteralKind::Complex,
        }
    }

    /// The int value, for int literals.
    ///
    /// ```
    /// use promote::Literal;
    /// assert_eq!(Literal::parse("300").unwrap().as_int().unwrap().exact(), Some(300));
    /// assert!(Literal::parse("3.0").unwrap().as_int().is_none());
    /// ```
    pub fn as_int(&self) -> Option<&PyInt> {
        match self {
            Literal::Int(i) => Some(i),
            _ => None,
        }
    }

    /// The value as a complex pair (bool as 0/1).
    ///
    /// ```
    /// use promote::Literal;
    /// assert_eq!(Literal::parse("True").unwrap().to_complex(), (1.0, 0.0));
    /// assert_eq!(Literal::parse("(1-2j)").unwrap().to_complex(), (1.0, -2.0));
    /// ```
    pub fn to_complex(&self) -> (f64, f64) {
        match self {
            Literal::Bool(b) => (f64::from(u8::from(*b)), 0.0),
            Literal::Int(i) => (i.to_f64(), 0.0),
            Literal::Float(f) => (*f, 0.0),
            Literal::Complex(r, i) => (*r, *i),
        }
    }
}

/// Python's `repr` of a float: `1.0`, `1e-05`, `1e+300`, `inf`, `-0.0`.
fn py_float_repr(f: f64) -> String {
    crate::kernel::value::format_one(f)
}

impl fmt::Display for Literal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Literal::Bool(b) => f.write_str(if *b { "True" } else { "False" }),
            Literal::Int(i) => write!(f, "{i}"),
            Literal::Float(x) => f.write_str(&py_float_repr(*x)),
            Literal::Complex(re, im) => {
                let ims = py_float_repr(*im);
                let ims = ims.strip_suffix(".0").unwrap_or(&ims);
                if *re == 0.0 && re.is_sign_positive() {
                    write!(f, "{ims}j")
                } else {
                    let res = py_float_repr(*re);
                    let res = res.strip_suffix(".0").unwrap_or(&res);
                    let sign = if ims.starts_with('-') { "" } else { "+" };
                    write!(f, "({res}{sign}{ims}j)")
                }
            }
        }
    }
}

/// An operand of an op: a tensor, or a Python literal.
///
/// ```
/// use promote::{DType, Operand};
/// let o: Operand = "~float32".parse().unwrap();
/// assert!(o.is_weak());
/// assert_eq!(o.dtype(), Some(DType::Float32));
/// let lit: Operand = "1.0".parse().unwrap();
/// assert!(lit.literal().is_some());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// An array/tensor.
    Tensor {
        /// The element dtype.
        dtype: DType,
        /// Weakly typed (JAX `weak_type`, TensorFlow `WeakTensor`).
        weak: bool,
        /// 0-dimensional.
        zero_dim: bool,
        /// The value of a 0-d tensor, where known (value-based policies read it).
        value: Option<Literal>,
    },
    /// A Python literal.
    Literal(Literal),
}

impl Operand {
    /// A strongly typed tensor with one or more dimensions.
    ///
    /// ```
    /// let t = promote::Operand::tensor(promote::DType::Int8);
    /// assert_eq!(t.to_string(), "int8");
    /// ```
    pub fn tensor(dtype: DType) -> Operand {
        Operand::Tensor {
            dtype,
            weak: false,
            zero_dim: false,
            value: None,
        }
    }
    /// A weakly typed tensor.
    ///
    /// ```
    /// use promote::{DType, Operand};
    /// assert!(Operand::weak(DType::Float32).is_weak());
    /// ```
    pub fn weak(dtype: DType) -> Operand {
        Operand::Tensor {
            dtype,
            weak: true,
            zero_dim: false,
            value: None,
        }
    }
    /// A 0-d tensor, with its value if known.
    ///
    /// ```
    /// use promote::{DType, Literal, Operand};
    /// let o = Operand::zero_dim(DType::Int16, Literal::parse("3"));
    /// assert_eq!(o.to_string(), "int16(3)");
    /// ```
    pub fn zero_dim(dtype: DType, value: Option<Literal>) -> Operand {
        Operand::Tensor {
            dtype,
            weak: false,
            zero_dim: true,
            value,
        }
    }
    /// A Python literal from its repr (`"300"`, `"1.0"`, `"1j"`, `"True"`).
    ///
    /// ```
    /// use promote::Operand;
    /// assert!(Operand::parse_literal("300").is_ok());
    /// assert!(Operand::parse_literal("int8").is_err());
    /// ```
    pub fn parse_literal(text: &str) -> Result<Operand, PromoteError> {
        Literal::parse(text)
            .map(Operand::Literal)
            .ok_or_else(|| PromoteError::invalid(format!("`{text}` is not a Python literal (write it as repr does: True, -1, 1.0, 1e+300, inf, nan, 1j, (1+2j))")))
    }

    /// The tensor's dtype (`None` for literals).
    ///
    /// ```
    /// use promote::{DType, Operand};
    /// assert_eq!("int16(3)".parse::<Operand>().unwrap().dtype(), Some(DType::Int16));
    /// assert_eq!("3".parse::<Operand>().unwrap().dtype(), None);
    /// ```
    pub fn dtype(&self) -> Option<DType> {
        match self {
            Operand::Tensor { dtype, .. } => Some(*dtype),
            Operand::Literal(_) => None,
        }
    }
    /// The literal, if this is one.
    ///
    /// ```
    /// use promote::{Literal, Operand};
    /// assert_eq!("2.5".parse::<Operand>().unwrap().literal(), Some(&Literal::Float(2.5)));
    /// ```
    pub fn literal(&self) -> Option<&Literal> {
        match self {
            Operand::Literal(l) => Some(l),
            _ => None,
        }
    }
    /// A 0-d tensor.
    ///
    /// ```
    /// assert!("int16(3)".parse::<promote::Operand>().unwrap().is_zero_dim());
    /// ```
    pub fn is_zero_dim(&self) -> bool {
        matches!(self, Operand::Tensor { zero_dim: true, .. })
    }
    /// A weakly typed tensor.
    ///
    /// ```
    /// use promote::{DType, Operand};
    /// assert!(!Operand::tensor(DType::Float32).is_weak());
    /// ```
    pub fn is_weak(&self) -> bool {
        matches!(self, Operand::Tensor { weak: true, .. })
    }
    /// The operand's class, which policies map to promotion categories.
    ///
    /// ```
    /// use promote::{operand::OperandClass, Operand};
    /// assert_eq!("3".parse::<Operand>().unwrap().class(), OperandClass::Literal);
    /// assert_eq!("int16(3)".parse::<Operand>().unwrap().class(), OperandClass::ZeroDim);
    /// ```
    pub fn class(&self) -> OperandClass {
        match self {
            Operand::Tensor { weak: true, .. } => OperandClass::Weak,
            Operand::Tensor { zero_dim: true, .. } => OperandClass::ZeroDim,
            Operand::Tensor { .. } => OperandClass::Tensor,
            Operand::Literal(_) => OperandClass::Literal,
        }
    }
    /// The value a 0-d tensor holds, or a literal's value; 0-d tensors of unknown value count as 1.
    ///
    /// ```
    /// use promote::{Literal, Operand};
    /// assert_eq!("int16(3)".parse::<Operand>().unwrap().value(), Literal::parse("3"));
    /// assert_eq!("int16".parse::<Operand>().unwrap().value(), None);
    /// ```
    pub fn value(&self) -> Option<Literal> {
        match self {
            Operand::Tensor {
                zero_dim: true,
                value,
                dtype,
                ..
            } => Some(value.clone().unwrap_or_else(|| one_of(*dtype))),
            Operand::Tensor { .. } => None,
            Operand::Literal(l) => Some(l.clone()),
        }
    }
}

/// The value a 0-d tensor of `dtype` holds when written as `text`: the one rule `resolve`,
/// `eval` and the compact syntax share. The text is read as the dtype reads data (integers
/// must fit, a bool is `True`, `False`, `1` or `0`, floats round once to the dtype) and the
/// value comes back in the dtype's own kind; a value the dtype cannot hold is an `invalid`
/// error naming both.
///
/// ```
/// use promote::{operand::held_value, DType, Literal};
/// assert_eq!(held_value(DType::Bool, "1").unwrap(), Literal::Bool(true));
/// assert!(held_value(DType::Int16, "1.5").is_err());
/// assert!(held_value(DType::Int8, "300").is_err());
/// assert_eq!(held_value(DType::Float32, "1").unwrap(), Literal::Float(1.0));
/// // the narrow dtypes, through their codec: float8_e4m3fn rounds 0.3 to 0.3125
/// assert_eq!(held_value(DType::FLOAT8_E4M3FN, "0.3").unwrap(), Literal::Float(0.3125));
/// assert!(held_value(DType::INT4, "7").is_ok() && held_value(DType::INT4, "8").is_err());
/// assert!(held_value(DType::UINT2, "-1").is_err());
/// ```
pub fn held_value(dtype: DType, text: &str) -> Result<Literal, PromoteError> {
    use crate::kernel::array::Element;
    use crate::kernel::cast::cast_array;
    use crate::kernel::value::{format_array, parse_array};
    let refuse = |why: String| {
        PromoteError::invalid(format!(
            "a 0-d {dtype} tensor cannot hold `{text}` ({why}); write a value of {dtype}, such as {dtype}({})",
            example_value(dtype)
        ))
    };
    if let Some(format) = dtype.format() {
        return narrow_held_value(format, text).map_err(refuse);
    }
    let a = parse_array(dtype, &[text]).map_err(refuse)?;
    // the value exactly as the dtype holds it (float16's 65504 stays 65504, not its repr 65500)
    let lit = match dtype.kind() {
        crate::Kind::Bool => bool::slice(a.view()).map(|v| Literal::Bool(v[0])),
        crate::Kind::Unsigned | crate::Kind::Signed => {
            PyInt::parse(&format_array(a.view()).pop().unwrap_or_default()).map(Literal::Int)
        }
        crate::Kind::Float => {
            let wide = cast_array(a.view(), DType::Float64);
            f64::slice(wide.view()).map(|v| Literal::Float(v[0]))
        }
        crate::Kind::Complex => {
            let wide = cast_array(a.view(), DType::Complex128);
            crate::kernel::array::C64::slice(wide.view())
                .map(|v| Literal::Complex(v[0].re, v[0].im))
        }
    };
    lit.ok_or_else(|| refuse("it has no value".into()))
}

/// The value a 0-d tensor of a narrow dtype holds when written as `text`, through the narrow
/// codec: a float rounds once to the format as ml_dtypes casts a Python float (so it may
/// overflow to inf or NaN, as the classic floats overflow to inf); an int must fit the format's
/// bits; complex32's components round to float16.
fn narrow_held_value(
    f: &crate::kernel::narrow::format::Format,
    text: &str,
) -> Result<Literal, String> {
    use crate::kernel::array::{Element, C64};
    use crate::kernel::narrow::codec::{decode_exact, encode_f64};
    use crate::kernel::narrow::format::Kind as NarrowKind;
    use crate::kernel::narrow::rules::CastRules;
    use crate::kernel::value::parse_array;
    let real = |t: &str| -> Result<f64, String> {
        let a = parse_array(DType::Float64, &[t])?;
        Ok(f64::slice(a.view()).map_or(f64::NAN, |v| v[0]))
    };
    match f.kind {
        NarrowKind::Float => {
            let x = real(text)?;
            Ok(Literal::Float(decode_exact(
                f,
                encode_f64(f, &CastRules::ml_dtypes(f), x),
            )))
        }
        NarrowKind::SignedInt | NarrowKind::UnsignedInt => {
            let bad = || format!("`{text}` is not an int of {} bits", f.bits);
            let i = PyInt::parse(text).ok_or_else(bad)?;
            let (lo, hi) = match f.kind {
                NarrowKind::SignedInt => (-(1i128 << (f.bits - 1)), (1i128 << (f.bits - 1)) - 1),
                _ => (0, (1i128 << f.bits) - 1),
            };
            match i.exact() {
                Some(v) if (lo..=hi).contains(&v) => Ok(Literal::Int(i)),
                _ => Err(format!(
                    "`{text}` does not fit {}, whose range is {lo}..={hi}",
                    f.name
                )),
            }
        }
        NarrowKind::Complex => {
            let a = parse_array(DType::Complex128, &[text])?;
            let z = C64::slice(a.view())
                .map(|v| v[0])
                .ok_or("it has no value")?;
            let half = |x: f64| half::f16::from_f64(x).to_f64();
            Ok(Literal::Complex(half(z.re), half(z.im)))
        }
    }
}

fn example_value(d: DType) -> &'static str {
    match d.kind() {
        crate::Kind::Bool => "True",
        crate::Kind::Unsigned | crate::Kind::Signed if d.format().is_some() => "1",
        crate::Kind::Unsigned | crate::Kind::Signed => "5",
        crate::Kind::Float => "1.5",
        crate::Kind::Complex => "(1+2j)",
    }
}

/// The value 1 in a dtype's natural literal kind.
fn one_of(d: DType) -> Literal {
    match d.kind() {
        crate::Kind::Bool => Literal::Bool(true),
        crate::Kind::Unsigned | crate::Kind::Signed => {
            Literal::Int(PyInt::parse("1").expect("1 parses"))
        }
        crate::Kind::Float => Literal::Float(1.0),
        crate::Kind::Complex => Literal::Complex(1.0, 0.0),
    }
}

/// What an operand is, as far as promotion cares.
///
/// ```
/// use promote::{DType, operand::OperandClass, Operand};
/// assert_eq!(Operand::weak(DType::Int32).class(), OperandClass::Weak);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OperandClass {
    /// A strongly typed tensor with one or more dimensions.
    Tensor,
    /// A strongly typed 0-d tensor.
    ZeroDim,
    /// A weakly typed tensor.
    Weak,
    /// A Python literal.
    Literal,
}

impl OperandClass {
    /// `tensor`, `zero_dim`, `weak`, `literal` — as policy files name them.
    ///
    /// ```
    /// assert_eq!(promote::operand::OperandClass::ZeroDim.name(), "zero_dim");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            OperandClass::Tensor => "tensor",
            OperandClass::ZeroDim => "zero_dim",
            OperandClass::Weak => "weak",
            OperandClass::Literal => "literal",
        }
    }
}

impl FromStr for Operand {
    type Err = PromoteError;
    /// Parse the compact syntax (see the module docs).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if let Some(l) = Literal::parse(t) {
            return Ok(Operand::Literal(l));
        }
        let (weak, rest) = match t.strip_prefix('~') {
            Some(r) => (true, r),
            None => (false, t),
        };
        let (name, value) = match rest.split_once('(') {
            Some((n, v)) => {
                let v = v.strip_suffix(')').ok_or_else(|| {
                    PromoteError::invalid(format!(
                        "`{s}`: a 0-d tensor is written `int8(5)`, with a closing parenthesis"
                    ))
                })?;
                (n, Some(v))
            }
            None => (rest, None),
        };
        let dtype = DType::parse(name)?;
        let value = match value {
            None => None,
            Some("") => Some(None),
            Some(v) => Some(Some(held_value(dtype, v)?)),
        };
        Ok(match value {
            None => Operand::Tensor {
                dtype,
                weak,
                zero_dim: false,
                value: None,
            },
            Some(value) => Operand::Tensor {
                dtype,
                weak,
                zero_dim: true,
                value,
            },
        })
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Literal(l) => write!(f, "{l}"),
            Operand::Tensor {
                dtype,
                weak,
                zero_dim,
                value,
            } => {
                if *weak {
                    f.write_str("~")?;
                }
                f.write_str(dtype.name())?;
                if *zero_dim {
                    match value {
                        Some(v) => write!(f, "({v})")?,
                        None => f.write_str("()")?,
                    }
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literals_round_trip_through_python_repr() {
        for s in [
            "True",
            "False",
            "0",
            "-1",
            "300",
            "18446744073709551616",
            "-18446744073709551616",
            "1.0",
            "-0.0",
            "0.5",
            "1e+300",
            "10000000000.0",
            "3.4e+38",
            "inf",
            "-inf",
            "nan",
            "1j",
            "(1+2j)",
            "(1e+300+0j)",
            "(inf+0j)",
            "65504.0",
        ] {
            let l = Literal::parse(s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(l.to_string(), s, "{s}");
        }
    }

    #[test]
    fn huge_ints_are_decidable() {
        let big = PyInt::parse("340282366920938463463374607431768211456000").unwrap();
        assert!(big.exact().is_none() && !big.fits(DType::UInt64) && big.fits(DType::Float32));
        let m = PyInt::parse("-9223372036854775809").unwrap();
        assert!(!m.fits(DType::Int64) && m.is_negative());
        assert!(PyInt::parse("-9223372036854775808")
            .unwrap()
            .fits(DType::Int64));
    }

    #[test]
    fn compact_operands_parse() {
        for s in [
            "int8",
            "~int32",
            "float16(65504.0)",
            "~int8(5)",
            "bool(True)",
            "300",
            "(1+2j)",
            "uint64()",
        ] {
            let o: Operand = s.parse().unwrap();
            assert_eq!(o.to_string(), s);
        }
        assert!("int7".parse::<Operand>().is_err());
        assert!("int8(5".parse::<Operand>().is_err());
    }
}
