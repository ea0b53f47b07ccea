//! Values as text, both ways: parsing the `data` of an `eval` query and writing the answer's.
//!
//! Parsing follows Python's literal grammar (`1_000` yes, `1__0` and `10_` no): `True`/`False`
//! for bool (also `1`, `0`; JSON `true`/`false` arrive as `True`/`False`); integers in full,
//! which must fit the dtype; floats as `float(text)` would read them (`nan`, `inf`, `-inf`,
//! `1e+300`, integers too, and `-0` is -0.0), rounded once to the dtype; complex as
//! `complex(text)` (`(1+2j)`, `1j`, or a real).
//!
//! Writing follows Python's `repr` at the dtype's precision: the shortest text that parses
//! back to the same value (`0.1` for float32's 0.1, not `0.10000000149011612`), scientific
//! below 1e-4 and from 1e16 (`1e-05`, `1e+16`), complex as `(1+2j)`.
//!
//! ```
//! use promote::kernel::value::{parse_array, format_array};
//! use promote::DType;
//! let a = parse_array(DType::Float32, &["0.1", "-inf", "nan", "1e-7"]).unwrap();
//! assert_eq!(format_array(a.view()), ["0.1", "-inf", "nan", "1e-07"]);
//! let h = parse_array(DType::Float16, &["0.1", "65504", "70000"]).unwrap();
//! assert_eq!(format_array(h.view()), ["0.1", "65500.0", "inf"]);
//! assert!(parse_array(DType::Int8, &["128"]).is_err());
//! ```

use half::{bf16, f16};

use super::array::{Array, Element, View, C32, C64};
use super::cast::{f64_to_bf16, f64_to_f16, Num};
use super::narrow::{self, format::Format, rules::CastRules};
use crate::dtype::DType;
use crate::operand::{complex_from_text, float_from_text, PyInt};

/// Text conversions of an element.
pub(crate) trait Text: Num {
    /// Parse one value, or say why not.
    fn parse_text(s: &str) -> Result<Self, String>;
    /// Write one value.
    fn write_text(self, out: &mut String);
}

fn bad(s: &str, d: DType) -> String {
    format!("`{s}` is not a value of {d}")
}

impl Text for bool {
    fn parse_text(s: &str) -> Result<bool, String> {
        match s.trim() {
            "True" | "1" => Ok(true),
            "False" | "0" => Ok(false),
            _ => Err(bad(s, DType::Bool)),
        }
    }
    fn write_text(self, out: &mut String) {
        out.push_str(if self { "True" } else { "False" });
    }
}

macro_rules! text_int {
    ($($t:ty),*) => {$(
        impl Text for $t {
            fn parse_text(s: &str) -> Result<$t, String> {
                let i = PyInt::parse(s).ok_or_else(|| bad(s, <$t>::DTYPE))?;
                i.exact()
                    .and_then(|v| <$t>::try_from(v).ok())
                    .ok_or_else(|| format!("`{s}` does not fit {}", <$t>::DTYPE))
            }
            fn write_text(self, out: &mut String) {
                use std::fmt::Write;
                let _ = write!(out, "{self}");
            }
        }
    )*};
}
text_int!(u8, u16, u32, u64, i8, i16, i32, i64);

/// A real value as Python's `float(text)` reads it.
fn parse_real(s: &str, d: DType) -> Result<f64, String> {
    float_from_text(s).ok_or_else(|| bad(s, d))
}

/// Python's float repr layout of shortest digits: `digits` without a point, value
/// `0.d1d2… × 10^(exp+1)` written as `d1.d2… e exp`.
fn layout(neg: bool, digits: &str, exp: i32, out: &mut String) {
    if neg {
        out.push('-');
    }
    if (-4..16).contains(&exp) {
        if exp < 0 {
            out.push_str("0.");
            for _ in 0..(-exp - 1) {
                out.push('0');
            }
            out.push_str(digits);
        } else {
            let int_len = exp as usize + 1;
            if digits.len() <= int_len {
                out.push_str(digits);
                for _ in digits.len()..int_len {
                    out.push('0');
                }
                out.push_str(".0");
            } else {
                out.push_str(&digits[..int_len]);
                out.push('.');
                out.push_str(&digits[int_len..]);
            }
        }
    } else {
        out.push_str(&digits[..1]);
        if digits.len() > 1 {
            out.push('.');
            out.push_str(&digits[1..]);
        }
        out.push_str(&format!(
            "e{}{:02}",
            if exp < 0 { '-' } else { '+' },
            exp.abs()
        ));
    }
}

/// Split Rust's `{:e}` text (`-1.25e-7`) into sign, digits and exponent.
fn split_sci(s: &str) -> (bool, String, i32) {
    let (neg, s) = match s.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, s),
    };
    let (m, e) = s.split_once('e').unwrap_or((s, "0"));
    let digits: String = m.chars().filter(|c| *c != '.').collect();
    let digits = digits.trim_end_matches('0');
    let digits = if digits.is_empty() { "0" } else { digits };
    (neg, digits.to_string(), e.parse().unwrap_or(0))
}

fn special(x: f64, out: &mut String) -> bool {
    if x.is_nan() {
        out.push_str("nan");
    } else if x.is_infinite() {
        out.push_str(if x > 0.0 { "inf" } else { "-inf" });
    } else if x == 0.0 {
        out.push_str(if x.is_sign_negative() { "-0.0" } else { "0.0" });
    } else {
        return false;
    }
    true
}

/// Python's `repr` of a float at a precision: `sci` gives the shortest round-trip digits.
fn write_float(x: f64, sci: impl Fn() -> String, out: &mut String) {
    if special(x, out) {
        return;
    }
    let (neg, digits, exp) = split_sci(&sci());
    layout(neg, &digits, exp, out);
}

/// Shortest digits that round back to the same half-precision value.
fn short_small(x: f64, round: impl Fn(f64) -> u16) -> String {
    let want = round(x);
    for p in 0..17 {
        let s = format!("{:.*e}", p, x);
        if let Ok(v) = s.parse::<f64>() {
            if round(v) == want {
                return s;
            }
        }
    }
    format!("{x:e}")
}

/// A narrow float's value (held exactly in a float32) in the shortest text that reads back to
/// the same code under `rules` (the spec's "shortest text that round-trips at the result's
/// precision": `0.3125` in float8_e4m3fn is `0.3`, as NumPy writes float16's 65504 as 65500).
pub(crate) fn write_narrow_float(x: f32, format: &Format, rules: &CastRules, out: &mut String) {
    let x = x as f64;
    let round = |v: f64| u16::from(narrow::codec::encode_f64(format, rules, v));
    write_float(x, || short_small(x, round), out)
}

/// A complex32 value (held in a complex64) with each part at float16 precision.
pub(crate) fn write_complex32(z: C32, out: &mut String) {
    let part = |x: f64, o: &mut String| f16::from_f64(x).write_text(o);
    out.push_str(&write_complex(z.re as f64, z.im as f64, part));
}

impl Text for f64 {
    fn parse_text(s: &str) -> Result<f64, String> {
        parse_real(s, DType::Float64)
    }
    fn write_text(self, out: &mut String) {
        write_float(self, || format!("{self:e}"), out)
    }
}

impl Text for f32 {
    fn parse_text(s: &str) -> Result<f32, String> {
        parse_real(s, DType::Float32).map(|x| x as f32)
    }
    fn write_text(self, out: &mut String) {
        write_float(self as f64, || format!("{self:e}"), out)
    }
}

impl Text for f16 {
    fn parse_text(s: &str) -> Result<f16, String> {
        parse_real(s, DType::Float16).map(f64_to_f16)
    }
    fn write_text(self, out: &mut String) {
        let x = self.re_f64();
        write_float(x, || short_small(x, |v| f64_to_f16(v).to_bits()), out)
    }
}

impl Text for bf16 {
    fn parse_text(s: &str) -> Result<bf16, String> {
        parse_real(s, DType::BFloat16).map(f64_to_bf16)
    }
    fn write_text(self, out: &mut String) {
        let x = self.re_f64();
        write_float(x, || short_small(x, |v| f64_to_bf16(v).to_bits()), out)
    }
}

fn parse_complex(s: &str, d: DType) -> Result<(f64, f64), String> {
    complex_from_text(s).ok_or_else(|| bad(s, d))
}

/// Python's complex repr from the two components' float reprs.
fn write_complex(re: f64, im: f64, fmt: impl Fn(f64, &mut String)) -> String {
    let part = |x: f64| {
        let mut s = String::new();
        fmt(x, &mut s);
        match s.strip_suffix(".0") {
            Some(t) => t.to_string(),
            None => s,
        }
    };
    let ims = part(im);
    if re == 0.0 && re.is_sign_positive() {
        return format!("{ims}j");
    }
    let sign = if ims.starts_with('-') { "" } else { "+" };
    format!("({}{sign}{ims}j)", part(re))
}

impl Text for C32 {
    fn parse_text(s: &str) -> Result<C32, String> {
        parse_complex(s, DType::Complex64).map(|(r, i)| C32::new(r as f32, i as f32))
    }
    fn write_text(self, out: &mut String) {
        out.push_str(&write_complex(self.re as f64, self.im as f64, |x, o| {
            (x as f32).write_text(o)
        }));
    }
}

impl Text for C64 {
    fn parse_text(s: &str) -> Result<C64, String> {
        parse_complex(s, DType::Complex128).map(|(r, i)| C64::new(r, i))
    }
    fn write_text(self, out: &mut String) {
        out.push_str(&write_complex(self.re, self.im, |x, o| x.write_text(o)));
    }
}

/// Parse texts into an array of a dtype (a narrow dtype's values held in its carrier, as
/// [`crate::kernel::narrow::arith::parse`] reads them).
///
/// ```
/// use promote::{kernel::{value::parse_array, Array}, DType};
/// assert_eq!(parse_array(DType::Int8, &["1", "-128"]).unwrap(), Array::from(vec![1i8, -128]));
/// assert!(parse_array(DType::Int8, &["128"]).is_err());
/// ```
pub fn parse_array<S: AsRef<str>>(d: DType, texts: &[S]) -> Result<Array, String> {
    if !d.is_classic() {
        return super::narrow::arith::parse(d, texts);
    }
    crate::with_dtype!(d, T => {
        let v = texts.iter().map(|s| T::parse_text(s.as_ref())).collect::<Result<Vec<T>, String>>()?;
        Ok(Array::from(v))
    })
}

/// Write every element of a view.
///
/// ```
/// use promote::kernel::{value::format_array, Array};
/// assert_eq!(format_array(Array::from(vec![1.5f32, f32::INFINITY]).view()), ["1.5", "inf"]);
/// ```
pub fn format_array(v: View<'_>) -> Vec<String> {
    crate::each_dtype!(View, v, s, T => s.iter().map(|&x| { let mut o = String::new(); x.write_text(&mut o); o }).collect())
}

/// One element as text.
pub(crate) fn format_one<T: Text>(x: T) -> String {
    let mut o = String::new();
    x.write_text(&mut o);
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(d: DType, texts: &[&str]) {
        let a = parse_array(d, texts).unwrap();
        let t = format_array(a.view());
        let b = parse_array(d, &t).unwrap();
        assert_eq!(a, b, "{d}: {texts:?} -> {t:?}");
    }

    #[test]
    fn floats_print_like_python_repr() {
        let f = |x: f64| format_one(x);
        assert_eq!(f(1.0), "1.0");
        assert_eq!(f(0.1), "0.1");
        assert_eq!(f(1e16), "1e+16");
        assert_eq!(f(1e15), "1000000000000000.0");
        assert_eq!(f(123.456), "123.456");
        assert_eq!(f(1e-5), "1e-05");
        assert_eq!(f(0.0001), "0.0001");
        assert_eq!(f(-2.5e-300), "-2.5e-300");
        assert_eq!(f(f64::MAX), "1.7976931348623157e+308");
        assert_eq!(f(5e-324), "5e-324");
        assert_eq!(f(-0.0), "-0.0");
        assert_eq!(format_one(0.1f32), "0.1");
        assert_eq!(format_one(f32::MAX), "3.4028235e+38");
        assert_eq!(format_one(f16::from_f32(0.1)), "0.1");
        assert_eq!(format_one(f16::MAX), "65500.0");
        assert_eq!(format_one(f16::from_bits(1)), "6e-08");
        assert_eq!(format_one(bf16::from_f32(3.0)), "3.0");
        assert_eq!(format_one(C64::new(1.0, 2.0)), "(1+2j)");
        assert_eq!(format_one(C64::new(0.0, 1.0)), "1j");
        assert_eq!(format_one(C64::new(-0.0, 1.0)), "(-0+1j)");
        assert_eq!(format_one(C64::new(1.5, -0.0)), "(1.5-0j)");
        assert_eq!(format_one(C32::new(f32::NAN, f32::INFINITY)), "(nan+infj)");
        assert_eq!(format_one(C32::new(0.1, 1e20)), "(0.1+1e+20j)");
    }

    #[test]
    fn every_dtype_round_trips() {
        let edge = ["0", "1", "-1", "127", "-128", "255"];
        for d in DType::classic() {
            if d.is_integer() {
                let (lo, hi) = d.int_range().unwrap();
                round_trip(d, &[&lo.to_string(), &hi.to_string(), "0", "1"]);
            } else if d.is_bool() {
                round_trip(d, &["True", "False"]);
            } else {
                round_trip(d, &edge);
                round_trip(
                    d,
                    &[
                        "nan", "inf", "-inf", "-0.0", "1e-300", "1e300", "0.1", "3.14159", "6e-08",
                        "65519", "1e-40",
                    ],
                );
            }
        }
        round_trip(
            DType::Complex128,
            &["(1+2j)", "1j", "(nan+nanj)", "(-0-0j)", "(1e+300-1e-300j)"],
        );
        round_trip(DType::Complex64, &["(1+2j)", "(0.1-0.2j)"]);
    }

    #[test]
    fn every_half_value_round_trips() {
        for b in 0..=u16::MAX {
            for d in [DType::Float16, DType::BFloat16] {
                let a = match d {
                    DType::Float16 => Array::from(vec![f16::from_bits(b)]),
                    _ => Array::from(vec![bf16::from_bits(b)]),
                };
                let t = format_array(a.view());
                assert_eq!(parse_array(d, &t).unwrap(), a, "{d} {b:#x} {t:?}");
            }
        }
    }

    #[test]
    fn bad_values_are_errors() {
        assert!(parse_array(DType::Int8, &["1.5"]).is_err());
        assert!(parse_array(DType::UInt8, &["-1"]).is_err());
        assert!(parse_array(DType::Bool, &["2"]).is_err());
        assert!(parse_array(DType::Float32, &["abc"]).is_err());
        assert!(parse_array(DType::Float32, &["1j"]).is_err());
        assert!(parse_array(DType::Complex64, &["(1+"]).is_err());
        assert!(parse_array(DType::Int64, &["99999999999999999999999999999999999999999"]).is_err());
    }
}
