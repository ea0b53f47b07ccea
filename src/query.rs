//! The JSONL machine interface of `../shared/spec/query-format.md`: queries in, answers out.
//!
//! ```
//! use promote::{builtin, query};
//! let torch = builtin("torch").unwrap();
//! let line = r#"{"op": "add", "operands": [{"dtype": "int8"}, {"scalar": "float", "value": "1.0"}]}"#;
//! assert_eq!(query::answer_line(&*torch, line), r#"{"dtype":"float32","weak":false}"#);
//! let bad = query::answer_line(&*torch, "{");
//! assert!(bad.starts_with(r#"{"error":"invalid""#));
//! ```

use serde_json::{json, Map, Value};

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::{Call, Op};
use crate::operand::{Literal, Operand};
use crate::plan::Plan;
use crate::policy::Policy;

fn field<'a>(o: &'a Map<String, Value>, k: &str) -> Option<&'a Value> {
    o.get(k).filter(|v| !v.is_null())
}

fn text(v: &Value, what: &str) -> Result<String, PromoteError> {
    match v {
        Value::String(s) => Ok(s.clone()),
        Value::Number(n) => Ok(n.to_string()),
        Value::Bool(b) => Ok(if *b { "True" } else { "False" }.into()),
        _ => Err(PromoteError::invalid(format!(
            "{what} must be text, as Python's repr writes it"
        ))),
    }
}

/// Parse one operand object of the spec.
pub fn parse_operand(v: &Value) -> Result<Operand, PromoteError> {
    let o = v.as_object().ok_or_else(|| PromoteError::invalid("an operand is an object: {\"dtype\": \"int8\"} or {\"scalar\": \"int\", \"value\": \"300\"}"))?;
    if let Some(kind) = field(o, "scalar") {
        let kind = kind.as_str().ok_or_else(|| {
            PromoteError::invalid("\"scalar\" is one of bool, int, float, complex")
        })?;
        let value = field(o, "value")
            .ok_or_else(|| PromoteError::invalid(format!("a {kind} scalar needs a \"value\"")))?;
        let value = text(value, "a scalar's value")?;
        let lit = Literal::parse(&value)
            .ok_or_else(|| PromoteError::invalid(format!("`{value}` is not a Python literal")))?;
        let expected = match kind {
            "bool" | "int" | "float" | "complex" => kind,
            _ => {
                return Err(PromoteError::invalid(format!(
                    "\"scalar\": \"{kind}\" is not one of bool, int, float, complex"
                )))
            }
        };
        // a float written like an int ("1") is still a float; an int written "1.0" is not an int
        let lit = match (expected, lit) {
            ("float", Literal::Int(i)) => Literal::Float(i.to_f64()),
            ("complex", Literal::Int(i)) => Literal::Complex(i.to_f64(), 0.0),
            ("complex", Literal::Float(f)) => Literal::Complex(f, 0.0),
            (k, l) if l.kind().name() == k => l,
            (k, l) => {
                return Err(PromoteError::invalid(format!(
                    "`{value}` is a Python {}, not a {k}",
                    l.kind().name()
                )))
            }
        };
        return Ok(Operand::Literal(lit));
    }
    let dtype = field(o, "dtype").ok_or_else(|| {
        PromoteError::invalid(
            "an operand needs \"dtype\" (a tensor) or \"scalar\" (a Python literal)",
        )
    })?;
    let dtype = DType::parse(
        dtype
            .as_str()
            .ok_or_else(|| PromoteError::invalid("\"dtype\" is a name such as \"int8\""))?,
    )?;
    let weak = match field(o, "weak") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(PromoteError::invalid("\"weak\" is true or false")),
    };
    let ndim = match field(o, "ndim") {
        None => 1,
        Some(v) => v
            .as_u64()
            .ok_or_else(|| PromoteError::invalid("\"ndim\" is a whole number"))?,
    };
    let value = match field(o, "value") {
        None => None,
        Some(v) => {
            let t = text(v, "a 0-d tensor's value")?;
            Some(
                Literal::parse(&t)
                    .ok_or_else(|| PromoteError::invalid(format!("`{t}` is not a value")))?,
            )
        }
    };
    Ok(Operand::Tensor {
        dtype,
        weak,
        zero_dim: ndim == 0,
        value,
    })
}

/// Parse one query line into a call.
pub fn parse_query(v: &Value) -> Result<Call, PromoteError> {
    let o = v.as_object().ok_or_else(|| {
        PromoteError::invalid("a query is a JSON object with \"op\" and \"operands\"")
    })?;
    let op = field(o, "op")
        .and_then(|v| v.as_str())
        .ok_or_else(|| PromoteError::invalid("a query needs \"op\" (add, subtract, ...)"))?;
    let op = Op::parse(op)?;
    let operands = field(o, "operands")
        .and_then(|v| v.as_array())
        .ok_or_else(|| PromoteError::invalid("a query needs \"operands\": [...]"))?;
    let operands = operands
        .iter()
        .map(parse_operand)
        .collect::<Result<Vec<_>, _>>()?;
    let out = match field(o, "out") {
        None => None,
        Some(v) => {
            Some(DType::parse(v.as_str().ok_or_else(|| {
                PromoteError::invalid("\"out\" is a dtype name")
            })?)?)
        }
    };
    Call::new(op, operands, out)
}

/// The answer object for a resolved plan or an error.
pub fn answer_value(r: &Result<Plan, PromoteError>) -> Value {
    answer_of(
        &r.as_ref()
            .map(|p| (p.result, p.weak))
            .map_err(|e| e.clone()),
    )
}

/// The answer object for a result dtype and weak flag, or an error.
pub fn answer_of(r: &Result<(DType, bool), PromoteError>) -> Value {
    match r {
        Ok((d, w)) => json!({"dtype": d.name(), "weak": w}),
        Err(e) => json!({"error": e.kind().name(), "message": e.to_string()}),
    }
}

/// Resolve one JSON line into one JSON answer line (never fails, never panics).
pub fn answer_line(policy: &dyn Policy, line: &str) -> String {
    let r = serde_json::from_str::<Value>(line)
        .map_err(|e| PromoteError::invalid(format!("not JSON: {e}")))
        .and_then(|v| parse_query(&v))
        .and_then(|c| policy.result(&c));
    answer_of(&r).to_string()
}

/// The spec's JSON form of an operand.
pub fn operand_json(o: &Operand) -> Value {
    match o {
        Operand::Literal(l) => json!({"scalar": l.kind().name(), "value": l.to_string()}),
        Operand::Tensor {
            dtype,
            weak,
            zero_dim,
            value,
        } => {
            let mut m = Map::new();
            m.insert("dtype".into(), json!(dtype.name()));
            if *weak {
                m.insert("weak".into(), json!(true));
            }
            if *zero_dim {
                m.insert("ndim".into(), json!(0));
                if let Some(v) = value {
                    m.insert("value".into(), json!(v.to_string()));
                }
            }
            Value::Object(m)
        }
    }
}

/// The spec's JSON query of a call.
///
/// ```
/// let c: promote::Call = "add int8(5) 1j out=complex64".parse().unwrap();
/// let q = promote::query::call_json(&c).to_string();
/// assert_eq!(q, r#"{"op":"add","operands":[{"dtype":"int8","ndim":0,"value":"5"},{"scalar":"complex","value":"1j"}],"out":"complex64"}"#);
/// assert_eq!(promote::query::parse_query(&serde_json::from_str(&q).unwrap()).unwrap(), c);
/// ```
pub fn call_json(c: &Call) -> Value {
    let mut m = Map::new();
    m.insert("op".into(), json!(c.op.name()));
    m.insert(
        "operands".into(),
        Value::Array(c.operands.iter().map(operand_json).collect()),
    );
    if let Some(o) = c.out {
        m.insert("out".into(), json!(o.name()));
    }
    Value::Object(m)
}

/// The compact answer token of a JSON answer: `int16`, `~float32`, `!overflow`.
pub fn answer_token(answer: &Value) -> String {
    if let Some(e) = answer.get("error").and_then(|e| e.as_str()) {
        return format!("!{e}");
    }
    let weak = answer
        .get("weak")
        .and_then(|w| w.as_bool())
        .unwrap_or(false);
    format!(
        "{}{}",
        if weak { "~" } else { "" },
        answer.get("dtype").and_then(|d| d.as_str()).unwrap_or("?")
    )
}
