//! The `data` arrays of `eval` queries, read straight from JSON into typed buffers and
//! written straight from them: no `serde_json::Value` or `String` per element, so a query
//! costs its line plus its arrays.
//!
//! Elements are text as [`value`](super::value) reads it (`"1.5"`, `"-0"`, `"nan"`, `"(1+2j)"`);
//! JSON numbers and `true`/`false` are accepted too.
//!
//! ```
//! use promote::kernel::data::{parse_data, write_data};
//! use promote::DType;
//! let a = parse_data(DType::Float32, r#"["1.5", 2, "-0", "inf"]"#).unwrap();
//! let mut out = Vec::new();
//! write_data(a.view(), &mut out).unwrap();
//! assert_eq!(String::from_utf8(out).unwrap(), r#"["1.5","2.0","-0.0","inf"]"#);
//! assert!(parse_data(DType::Int8, r#"["1", "300"]"#).unwrap_err().contains("element 2"));
//! ```

use std::fmt;
use std::io::Write;
use std::marker::PhantomData;

use serde::de::{self, DeserializeSeed, SeqAccess, Visitor};

use super::array::{Array, View};
use super::value::Text;
use crate::dtype::DType;

/// Parse a JSON array of values (the text of a `data` field) into an array of a dtype.
pub fn parse_data(dtype: DType, json: &str) -> Result<Array, String> {
    let mut de = serde_json::Deserializer::from_str(json);
    let array = DataSeed(dtype)
        .deserialize(&mut de)
        .and_then(|a| de.end().map(|_| a))
        .map_err(|e| {
            // the position is within the data array, not the line: leave it out
            let m = e.to_string();
            match m.rsplit_once(" at line ") {
                Some((msg, _)) => msg.to_string(),
                None => m,
            }
        })?;
    Ok(array)
}

/// Deserializes a JSON array into an [`Array`] of its dtype.
pub struct DataSeed(pub DType);

impl<'de> DeserializeSeed<'de> for DataSeed {
    type Value = Array;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Array, D::Error> {
        crate::with_dtype!(self.0, T => d.deserialize_seq(Elements::<T>(PhantomData)).map(Array::from))
    }
}

struct Elements<T>(PhantomData<T>);

impl<'de, T: Text> Visitor<'de> for Elements<T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of values as text (\"1.5\", \"nan\", \"(1+2j)\")")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(x) = seq.next_element_seed(One::<T>(PhantomData))? {
            let x = x.map_err(|m| de::Error::custom(format!("element {}: {m}", v.len() + 1)))?;
            v.push(x);
        }
        v.shrink_to_fit();
        Ok(v)
    }
}

/// One element: parsed, or the reason it is no value of the dtype.
struct One<T>(PhantomData<T>);

impl<'de, T: Text> DeserializeSeed<'de> for One<T> {
    type Value = Result<T, String>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, T: Text> Visitor<'de> for One<T> {
    type Value = Result<T, String>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a value as text (\"1.5\", \"nan\", \"(1+2j)\")")
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(T::parse_text(s))
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
        Ok(T::parse_text(if b { "True" } else { "False" }))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
        Ok(T::parse_text(&n.to_string()))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
        Ok(T::parse_text(&n.to_string()))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Self::Value, E> {
        // Rust's shortest text of the JSON number (`1.5`, `1e-7`) reads back to the same f64
        Ok(T::parse_text(&format!("{x:?}")))
    }
}

/// Write a view as a JSON array of texts (`["1.5","nan","(1+2j)"]`), element by element.
pub fn write_data(v: View<'_>, out: &mut impl Write) -> std::io::Result<()> {
    let mut text = String::with_capacity(48);
    out.write_all(b"[")?;
    crate::each_dtype!(View, v, s, T => {
        for (i, &x) in s.iter().enumerate() {
            text.clear();
            text.push_str(if i == 0 { "\"" } else { ",\"" });
            x.write_text(&mut text);
            text.push('"');
            out.write_all(text.as_bytes())?;
        }
    });
    out.write_all(b"]")
}
