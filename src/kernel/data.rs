//! The `data` arrays of `eval` queries, read straight from JSON into typed buffers and
//! written straight from them: no `serde_json::Value` or `String` per element, so a query
//! costs its line plus its arrays.
//!
//! Elements are text as [`value`](super::value) reads it (`"1.5"`, `"-0"`, `"nan"`, `"(1+2j)"`);
//! JSON numbers and `true`/`false` are accepted too. [`read_query`] reads a whole `eval` query
//! the same way from a line held in memory or from a stream of it (a line too big to hold twice).
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

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

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
    array
}

/// Deserializes a JSON array into an [`Array`] of its dtype: `Ok(Err(reason))` when the JSON
/// is well formed but an element is no value of the dtype (the rest of the array is skipped
/// without being held), so the caller decides when to report it.
pub struct DataSeed(pub DType);

impl<'de> DeserializeSeed<'de> for DataSeed {
    type Value = Result<Array, String>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        if !self.0.is_classic() {
            // a narrow dtype's values, read into its carrier and held as values of it
            let narrow = self.0;
            let read = DataSeed(super::narrow::arith::carrier(narrow)).deserialize(d)?;
            return Ok(read.and_then(|a| super::narrow::arith::hold(narrow, a)));
        }
        crate::with_dtype!(self.0, T => d
            .deserialize_any(Elements::<T>(PhantomData))
            .map(|r| r.map(Array::from)))
    }
}

struct Elements<T>(PhantomData<T>);

impl<'de, T: Text> Visitor<'de> for Elements<T> {
    type Value = Result<Vec<T>, String>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of values as text (\"1.5\", \"nan\", \"(1+2j)\")")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(x) = seq.next_element_seed(One::<T>(PhantomData))? {
            match x {
                Ok(x) => v.push(x),
                Err(m) => {
                    let at = v.len() + 1;
                    drop(v);
                    while seq.next_element::<de::IgnoredAny>()?.is_some() {}
                    return Ok(Err(format!("element {at}: {m}")));
                }
            }
        }
        v.shrink_to_fit();
        Ok(Ok(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map
            .next_entry::<de::IgnoredAny, de::IgnoredAny>()?
            .is_some()
        {}
        Ok(Err(not_a_list("an object")))
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
        Ok(Err(not_a_list(&format!(
            "the string {:?}",
            crate::error::clip(s)
        ))))
    }
    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Self::Value, E> {
        Ok(Err(not_a_list(&format!("the boolean {b}"))))
    }
    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Self::Value, E> {
        Ok(Err(not_a_list(&format!("the number {n}"))))
    }
    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Self::Value, E> {
        Ok(Err(not_a_list(&format!("the number {n}"))))
    }
    fn visit_f64<E: de::Error>(self, x: f64) -> Result<Self::Value, E> {
        Ok(Err(not_a_list(&format!("the number {x}"))))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Err(not_a_list("null")))
    }
}

fn not_a_list(got: &str) -> String {
    format!("\"data\" is a list of values as text ([\"1.5\", \"nan\", \"(1+2j)\"]), not {got}")
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

/// [`write_data`] for values of `d`: a narrow dtype's values (held in its carrier) at its own
/// precision — a narrow float in the shortest text that reads back to it, complex32's parts at
/// float16's, the narrow integers in full.
///
/// ```
/// use promote::kernel::data::write_data_as;
/// use promote::kernel::Array;
/// use promote::DType;
/// let mut out = Vec::new();
/// write_data_as(Array::from(vec![0.3125f32, -448.0, f32::NAN]).view(), DType::FLOAT8_E4M3FN, &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), r#"["0.3","-450.0","nan"]"#);
/// ```
pub fn write_data_as(v: View<'_>, d: DType, out: &mut impl Write) -> std::io::Result<()> {
    let codec =
        super::narrow::Codec::for_library(d.name(), super::narrow::rules::Library::MlDtypes);
    let texts: Vec<String> = match (v, &codec) {
        (View::Complex64(s), _) if d == DType::COMPLEX32 => s
            .iter()
            .map(|&z| {
                let mut t = String::new();
                super::value::write_complex32(z, &mut t);
                t
            })
            .collect(),
        (View::Float32(s), Ok(c)) => s
            .iter()
            .map(|&x| {
                let mut t = String::new();
                super::value::write_narrow_float(x, c.format, &c.rules, &mut t);
                t
            })
            .collect(),
        _ => return write_data(v, out),
    };
    out.write_all(b"[")?;
    for (i, t) in texts.iter().enumerate() {
        let sep: &[u8] = if i == 0 { b"\"" } else { b",\"" };
        out.write_all(sep)?;
        out.write_all(t.as_bytes())?;
        out.write_all(b"\"")?;
    }
    out.write_all(b"]")
}

/// An `eval` query read from JSON: the query without its `data` arrays (small: a JSON value for
/// `crate::query::parse_query_for`) and each operand's data, in operand order.
///
/// ```
/// use promote::kernel::data::read_query;
/// let line = r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["1", "2"]}, {"scalar": "int", "value": "1"}]}"#;
/// let q = read_query(&mut serde_json::Deserializer::from_str(line)).unwrap();
/// assert_eq!(q.query["operands"][0], serde_json::json!({"dtype": "int8"}));
/// assert!(q.data[0].is_some() && q.data[1].is_none());
/// ```
#[derive(Debug)]
pub struct DataQuery {
    /// The query without the operands' `data`.
    pub query: Value,
    /// Each operand's `data`, `None` where it has none (or `null`).
    pub data: Vec<Option<Data>>,
}

/// One operand's `data`.
#[derive(Debug)]
pub enum Data {
    /// Read straight into the dtype named before it, or why an element is no value of it.
    Read(Result<Array, String>),
    /// Came before the operand's `dtype`, or beside a dtype name this engine does not know:
    /// held as text until the dtype is known.
    Text(Box<RawValue>),
}

impl Data {
    /// The values as an array of `dtype` (the operand's dtype as the query names it).
    pub fn into_array(self, dtype: DType) -> Result<Array, String> {
        match self {
            Data::Read(Ok(a)) if a.dtype() != super::narrow::arith::carrier(dtype) => Err(format!(
                "\"dtype\" is given twice ({} before \"data\", {dtype} after it); give it once",
                a.dtype()
            )),
            Data::Read(r) => r,
            Data::Text(t) => parse_data(dtype, t.get()),
        }
    }
}

/// Read an `eval` query from JSON (a line held whole, or a stream of it): every operand's
/// `data` goes straight into a typed buffer when its `dtype` came first, as it does in every
/// query this engine writes; the rest of the query becomes a (small) JSON value.
pub fn read_query<'de, D: de::Deserializer<'de>>(d: D) -> Result<DataQuery, D::Error> {
    let mut data = Vec::new();
    let query = d.deserialize_any(Query(&mut data))?;
    Ok(DataQuery { query, data })
}

/// The visits of JSON values other than the one a visitor reads its own way: they become plain
/// JSON values (`$wrap` turns one into the visitor's value).
macro_rules! plain_values {
    ($out:ty, $wrap:expr) => {
        fn visit_bool<E: de::Error>(self, b: bool) -> Result<$out, E> {
            Ok($wrap(Value::Bool(b)))
        }
        fn visit_i64<E: de::Error>(self, n: i64) -> Result<$out, E> {
            Ok($wrap(Value::from(n)))
        }
        fn visit_u64<E: de::Error>(self, n: u64) -> Result<$out, E> {
            Ok($wrap(Value::from(n)))
        }
        fn visit_f64<E: de::Error>(self, x: f64) -> Result<$out, E> {
            Ok($wrap(Value::from(x)))
        }
        fn visit_str<E: de::Error>(self, s: &str) -> Result<$out, E> {
            Ok($wrap(Value::from(s)))
        }
        fn visit_unit<E: de::Error>(self) -> Result<$out, E> {
            Ok($wrap(Value::Null))
        }
    };
}

fn plain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Value, A::Error> {
    let mut v = Vec::new();
    while let Some(x) = seq.next_element::<Value>()? {
        v.push(x);
    }
    Ok(Value::Array(v))
}

/// The top of a query: `operands` is read by [`Operands`], every other key as a JSON value.
struct Query<'v>(&'v mut Vec<Option<Data>>);

impl<'de> Visitor<'de> for Query<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a query object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut o = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let v = match key.as_str() {
                "operands" => map.next_value_seed(Operands(&mut *self.0))?,
                _ => map.next_value::<Value>()?,
            };
            o.insert(key, v);
        }
        Ok(Value::Object(o))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Value, A::Error> {
        plain_seq(seq)
    }
    plain_values!(Value, |v| v);
}

/// The `operands` list: each operand read by [`OneOperand`].
struct Operands<'v>(&'v mut Vec<Option<Data>>);

impl<'de> DeserializeSeed<'de> for Operands<'_> {
    type Value = Value;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        self.0.clear();
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Operands<'_> {
    type Value = Value;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of operands")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some((operand, data)) = seq.next_element_seed(OneOperand)? {
            v.push(operand);
            self.0.push(data);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        Value::deserialize(de::value::MapAccessDeserializer::new(map))
    }
    plain_values!(Value, |v| v);
}

/// One operand: its `data` read by [`DataSeed`] once `dtype` is known, the rest as JSON.
struct OneOperand;

impl<'de> DeserializeSeed<'de> for OneOperand {
    type Value = (Value, Option<Data>);
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for OneOperand {
    type Value = (Value, Option<Data>);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an operand object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut o = Map::new();
        let mut dtype = None;
        let mut data = None;
        while let Some(key) = map.next_key::<String>()? {
            if key != "data" {
                let v = map.next_value::<Value>()?;
                if key == "dtype" {
                    dtype = v.as_str().and_then(|s| DType::parse(s).ok());
                }
                o.insert(key, v);
                continue;
            }
            data = match dtype {
                Some(d) => map.next_value_seed(Optional(DataSeed(d)))?.map(Data::Read),
                None => map.next_value::<Option<Box<RawValue>>>()?.map(Data::Text),
            };
            if data.is_none() {
                o.insert(key, Value::Null); // `"data": null` is absent data
            }
        }
        Ok((Value::Object(o), data))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Ok((plain_seq(seq)?, None))
    }
    plain_values!((Value, Option<Data>), |v| (v, None));
}

/// A seed that reads `null` as `None`.
struct Optional<S>(S);

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Optional<S> {
    type Value = Option<S::Value>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_option(self)
    }
}

impl<'de, S: DeserializeSeed<'de>> Visitor<'de> for Optional<S> {
    type Value = Option<S::Value>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of values or null")
    }
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: de::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        self.0.deserialize(d).map(Some)
    }
}
