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
use crate::op::{Call, Form, Op};
use crate::operand::{held_value, Literal, Operand};
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

/// Which interface reads a query: `resolve` (dtypes only) or `eval` (operands carry `data`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interface {
    /// `promote resolve`.
    Resolve,
    /// `promote eval`: tensor operands may carry `"data"`.
    Eval,
}

/// The keys a query object has.
pub const QUERY_KEYS: &[&str] = &["op", "operands", "out", "dtype", "casting", "form"];
/// Keys the spec adds in version 2 that this engine does not implement yet: a query that
/// carries one is answered `invalid`, never silently as if the key were absent.
pub const VERSION_2_KEYS: &[&str] = &[];
/// The keys of a Python-scalar operand.
pub const SCALAR_KEYS: &[&str] = &["scalar", "value"];
/// The keys of a tensor operand (`data` is read by `eval`, and checked then ignored by
/// `resolve`).
pub const TENSOR_KEYS: &[&str] = &["dtype", "weak", "ndim", "value", "data"];

/// Refuse any key outside `known`, naming it and the keys that exist.
fn check_keys(
    o: &Map<String, Value>,
    known: &[&str],
    what: &str,
    version_2: &[&str],
) -> Result<(), PromoteError> {
    for k in o.keys() {
        if known.contains(&k.as_str()) {
            continue;
        }
        if version_2.contains(&k.as_str()) {
            return Err(PromoteError::invalid(format!(
                "\"{k}\" is a version-2 key of the spec that this engine does not implement yet; \
                 the answer would ignore it, so drop it (a query has {})",
                quoted(known)
            )));
        }
        let hint = crate::error::suggest(k, known.iter().copied())
            .map(|s| format!("did you mean \"{s}\"? "))
            .unwrap_or_default();
        return Err(PromoteError::invalid(format!(
            "unknown key \"{}\" in {what}; {hint}{what} has {}",
            crate::error::clip(k),
            quoted(known)
        )));
    }
    Ok(())
}

fn quoted(keys: &[&str]) -> String {
    keys.iter()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Parse one operand object of the spec, as `resolve` reads it.
///
/// ```
/// use serde_json::json;
/// use promote::query::parse_operand;
/// assert!(parse_operand(&json!({"dtype": "int8", "ndim": 0, "value": "5"})).is_ok());
/// assert!(parse_operand(&json!({"dtype": "int8", "ndim": 0, "value": "300"})).is_err());
/// assert!(parse_operand(&json!({"dtype": "int8", "wek": true})).is_err());
/// ```
pub fn parse_operand(v: &Value) -> Result<Operand, PromoteError> {
    parse_operand_for(v, Interface::Resolve)
}

/// Parse one operand object of the spec for an interface (`eval` accepts `"data"`).
pub(crate) fn parse_operand_for(v: &Value, interface: Interface) -> Result<Operand, PromoteError> {
    let o = v.as_object().ok_or_else(|| PromoteError::invalid("an operand is an object: {\"dtype\": \"int8\"} or {\"scalar\": \"int\", \"value\": \"300\"}"))?;
    if let Some(kind) = field(o, "scalar") {
        check_keys(o, SCALAR_KEYS, "a scalar operand", &[])?;
        return parse_scalar(o, kind);
    }
    match interface {
        // `data` is read (and checked) by kernel::eval::resolve_line, never here
        Interface::Resolve if field(o, "data").is_some() => {
            return Err(PromoteError::invalid(
                "this operand's \"data\" is not read here: pass the query to \
                 promote::kernel::eval::resolve_line (as `promote resolve` does), or drop it",
            ))
        }
        Interface::Resolve | Interface::Eval => {
            check_keys(o, TENSOR_KEYS, "a tensor operand", &[])?
        }
    }
    parse_tensor(o)
}

fn parse_scalar(o: &Map<String, Value>, kind: &Value) -> Result<Operand, PromoteError> {
    let kind = kind
        .as_str()
        .ok_or_else(|| PromoteError::invalid("\"scalar\" is one of bool, int, float, complex"))?;
    let value = field(o, "value")
        .ok_or_else(|| PromoteError::invalid(format!("a {kind} scalar needs a \"value\"")))?;
    let value = text(value, "a scalar's value")?;
    let lit = Literal::parse(&value).ok_or_else(|| {
        PromoteError::invalid(format!(
            "`{}` is not a Python literal (write it as repr does: True, -1, 1.0, 1e+300, inf, nan, 1j, (1+2j))",
            crate::error::clip(&value)
        ))
    })?;
    let expected = match kind {
        "bool" | "int" | "float" | "complex" => kind,
        _ => {
            return Err(PromoteError::invalid(format!(
                "\"scalar\": \"{}\" is not one of bool, int, float, complex",
                crate::error::clip(kind)
            )))
        }
    };
    // a float written like an int ("1", "-0") is still a float, read as float(text) reads it;
    // an int written "1.0" is not an int
    let as_float = || crate::operand::float_from_text(&value);
    let lit = match (expected, lit) {
        ("float", Literal::Int(_)) => Literal::Float(as_float().unwrap_or(f64::NAN)),
        ("complex", Literal::Int(_) | Literal::Float(_)) => {
            Literal::Complex(as_float().unwrap_or(f64::NAN), 0.0)
        }
        (k, l) if l.kind().name() == k => l,
        (k, l) => {
            return Err(PromoteError::invalid(format!(
                "`{value}` is a Python {}, not a {k}",
                l.kind().name()
            )))
        }
    };
    Ok(Operand::Literal(lit))
}

fn parse_tensor(o: &Map<String, Value>) -> Result<Operand, PromoteError> {
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
        Some(_) if ndim != 0 => {
            return Err(PromoteError::invalid(format!(
                "\"value\" belongs to a 0-d tensor: add \"ndim\": 0 to the {dtype} operand, or drop \"value\""
            )))
        }
        Some(v) => Some(held_value(dtype, &text(v, "a 0-d tensor's value")?)?),
    };
    Ok(Operand::Tensor {
        dtype,
        weak,
        zero_dim: ndim == 0,
        value,
    })
}

/// Parse one query line into a call, as `resolve` reads it.
///
/// ```
/// use promote::query::parse_query;
/// let v = serde_json::json!({"op": "add", "operands": [{"dtype": "int8"}, {"scalar": "float", "value": "1.0"}]});
/// assert_eq!(parse_query(&v).unwrap().to_string(), "add int8 1.0");
/// assert!(parse_query(&serde_json::json!({"op": "add", "extra": 1})).is_err());
/// ```
pub fn parse_query(v: &Value) -> Result<Call, PromoteError> {
    parse_query_for(v, Interface::Resolve)
}

/// Parse one query into a call for an interface: unknown keys, at the top or in an operand,
/// are `invalid` (naming the key and the keys that exist), and so are the spec's version-2
/// keys this engine does not implement yet (here through [`parse_query`], for `resolve`).
///
/// ```
/// use serde_json::json;
/// use promote::query::parse_query;
/// let q = json!({"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8"}], "outt": "int8"});
/// let e = parse_query(&q).unwrap_err().to_string();
/// assert!(e.contains("outt") && e.contains("\"out\""));
/// // "autocast" is read by the answering functions (`query::answer_line`), never ignored here
/// let q = json!({"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8"}], "autocast": "torch-cpu-bf16"});
/// assert!(parse_query(&q).unwrap_err().to_string().contains("answer_line"));
/// ```
pub(crate) fn parse_query_for(v: &Value, interface: Interface) -> Result<Call, PromoteError> {
    let o = v.as_object().ok_or_else(|| {
        PromoteError::invalid("a query is a JSON object with \"op\" and \"operands\"")
    })?;
    if field(o, "autocast").is_some() {
        return Err(PromoteError::invalid(
            "this query's \"autocast\" is not read here: pass the line to promote::query::answer_line \
             or promote::kernel::eval::answer_line (they honour it), or take it out with \
             promote::autocast::take_autocast and resolve with promote::autocast::resolve",
        ));
    }
    if field(o, "set").is_some() {
        return Err(PromoteError::invalid(
            "this query's \"set\" is not read here: pass the line to promote::query::answer_line \
             or promote::kernel::eval::answer_line (they honour it), or take it out with \
             promote::query::take_settings and resolve with Policy::set",
        ));
    }
    check_keys(o, QUERY_KEYS, "a query", VERSION_2_KEYS)?;
    let op = field(o, "op")
        .and_then(|v| v.as_str())
        .ok_or_else(|| PromoteError::invalid("a query needs \"op\" (add, subtract, ...)"))?;
    let op = Op::parse(op)?;
    let operands = field(o, "operands")
        .and_then(|v| v.as_array())
        .ok_or_else(|| PromoteError::invalid("a query needs \"operands\": [...]"))?;
    let operands = operands
        .iter()
        .map(|o| parse_operand_for(o, interface))
        .collect::<Result<Vec<_>, _>>()?;
    let out = match field(o, "out") {
        None => None,
        Some(v) => {
            Some(DType::parse(v.as_str().ok_or_else(|| {
                PromoteError::invalid("\"out\" is a dtype name")
            })?)?)
        }
    };
    let dtype = match field(o, "dtype") {
        None => None,
        Some(v) => Some(DType::parse(v.as_str().ok_or_else(|| {
            PromoteError::invalid("\"dtype\" is a dtype name (the op's dtype= argument)")
        })?)?),
    };
    let casting = match field(o, "casting") {
        None => None,
        Some(v) => Some(crate::op::Casting::parse(v.as_str().ok_or_else(|| {
            PromoteError::invalid("\"casting\" is no, equiv, safe, same_kind or unsafe")
        })?)?),
    };
    let form = match field(o, "form") {
        None => Form::Operator,
        Some(v) => Form::parse(v.as_str().ok_or_else(|| {
            PromoteError::invalid("\"form\" is \"operator\" (the default) or \"function\"")
        })?)?,
    };
    Ok(Call::new(op, operands, out)?
        .with_dtype(dtype)
        .with_casting(casting)
        .with_form(form))
}

/// The answer object for a resolved plan or an error; an op of several results (`divmod`)
/// adds `"results"`, one `{"dtype", "weak"}` per result (the first is also the answer's own);
/// a result that is a plain Python number adds `"scalar": "int"` (or `"float"`).
///
/// ```
/// use promote::{builtin, query::answer_value, Call, Policy};
/// let plan = builtin("jax").unwrap().resolve(&"add int8 1.0".parse::<Call>().unwrap());
/// assert_eq!(answer_value(&plan), serde_json::json!({"dtype": "float32", "weak": true}));
/// ```
pub fn answer_value(r: &Result<Plan, PromoteError>) -> Value {
    let mut v = answer_of(
        &r.as_ref()
            .map(|p| (p.result, p.weak))
            .map_err(|e| e.clone()),
    );
    if let (Ok(p), Value::Object(m)) = (r, &mut v) {
        if let Some(k) = p.scalar {
            m.insert("scalar".into(), json!(k.name()));
        }
        if let Some(v) = p.verdict {
            m.insert("value".into(), json!(if v { "True" } else { "False" }));
        }
        if !p.parts.is_empty() {
            let results = p.results().into_iter();
            let results = results.map(|(d, w)| json!({"dtype": d.name(), "weak": w}));
            m.insert("results".into(), Value::Array(results.collect()));
        }
    }
    v
}

/// The answer object for a result dtype and weak flag, or an error.
///
/// ```
/// use promote::{query::answer_of, DType};
/// assert_eq!(answer_of(&Ok((DType::Int16, false))), serde_json::json!({"dtype": "int16", "weak": false}));
/// ```
pub fn answer_of(r: &Result<(DType, bool), PromoteError>) -> Value {
    match r {
        Ok((d, w)) => json!({"dtype": d.name(), "weak": w}),
        Err(e) => json!({"error": e.kind().name(), "message": e.to_string()}),
    }
}

/// Resolve one JSON line into one JSON answer line (never fails, never panics).
///
/// Tensor operands may carry `data` (the same query a harness sends to `eval`): it is checked
/// as `eval` checks it ([`crate::kernel::eval::resolve_line`]), and the answer comes from the
/// dtypes alone. A query's `"autocast"` key resolves it under that autocast layer
/// ([`crate::autocast`]).
///
/// ```
/// use promote::{builtin, query};
/// let torch = builtin("torch").unwrap();
/// let q = r#"{"op": "matmul", "operands": [{"dtype": "float32"}, {"dtype": "float32"}], "autocast": "torch-cpu-bf16"}"#;
/// assert_eq!(query::answer_line(&*torch, q), r#"{"dtype":"bfloat16","weak":false}"#);
/// ```
pub fn answer_line(policy: &dyn Policy, line: &str) -> String {
    answer_line_under(policy, None, line)
}

/// [`answer_line`] under an autocast layer (`promote resolve --autocast`); a query's own
/// `"autocast"` key overrides `autocast`. The one function that answers a `resolve` line.
///
/// ```
/// use promote::{autocast::builtin_autocast, builtin, query};
/// let torch = builtin("torch").unwrap();
/// let f16 = builtin_autocast("torch-cpu-f16").unwrap();
/// let q = r#"{"op": "matmul", "operands": [{"dtype": "float32"}, {"dtype": "float32"}]}"#;
/// assert_eq!(query::answer_line_under(&*torch, Some(&f16), q), r#"{"dtype":"float16","weak":false}"#);
/// ```
pub fn answer_line_under(
    policy: &dyn Policy,
    autocast: Option<&crate::autocast::Autocast>,
    line: &str,
) -> String {
    let r = serde_json::from_str::<Value>(line)
        .map_err(|e| PromoteError::invalid(format!("not JSON: {e}")))
        .and_then(|mut v| {
            let own = crate::autocast::take_autocast(&mut v)?;
            let layer = own.as_deref().or(autocast);
            match carries_data(&v) {
                // the data checked, then the plan from the dtypes
                // (the line read again, its data into typed buffers; it names its own autocast
                // and settings)
                true => Ok(answer_value(&crate::kernel::eval::resolve_line_under(
                    policy, autocast, line,
                ))),
                false => {
                    let set = settled(policy, take_settings(&mut v)?)?;
                    let policy = set.as_deref().unwrap_or(policy);
                    parse_query(&v).map(|c| answer_call(policy, layer, &c))
                }
            }
        });
    match r {
        Ok(answer) => answer.to_string(),
        Err(e) => answer_of(&Err(e)).to_string(),
    }
}

/// Take a query's `"set"` out of it: the framework settings it asks for, as (key, value)
/// pairs (`None` without the key). Values are text; a JSON number or boolean is read as its text.
///
/// ```
/// let mut q = serde_json::json!({"op": "add", "set": {"default_float": "float64"}});
/// let set = promote::query::take_settings(&mut q).unwrap().unwrap();
/// assert_eq!(set, [("default_float".to_string(), "float64".to_string())]);
/// assert!(q.get("set").is_none());
/// let mut bad = serde_json::json!({"set": ["default_float"]});
/// assert!(promote::query::take_settings(&mut bad).is_err());
/// ```
pub fn take_settings(query: &mut Value) -> Result<Option<Vec<(String, String)>>, PromoteError> {
    let Some(o) = query.as_object_mut() else {
        return Ok(None);
    };
    match o.remove("set") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Object(m)) => m
            .iter()
            .map(|(k, v)| Ok((k.clone(), text(v, "a setting's value")?)))
            .collect::<Result<Vec<_>, _>>()
            .map(Some),
        Some(_) => Err(PromoteError::invalid(
            "\"set\" is an object of framework settings, such as {\"default_float\": \"float64\"} \
             (`promote policies` lists each policy's)",
        )),
    }
}

/// The policy under a query's settings (`None`: no settings, the policy itself answers).
pub(crate) fn settled(
    policy: &dyn Policy,
    set: Option<Vec<(String, String)>>,
) -> Result<Option<std::sync::Arc<dyn Policy>>, PromoteError> {
    match set {
        Some(s) if !s.is_empty() => policy.set(&s).map(Some),
        _ => Ok(None),
    }
}

/// The answer to a call: `(dtype, weak)` from the policy's fastest path, the whole plan where
/// it says more (several results, a Python number as the result, an autocast's steps).
fn answer_call(policy: &dyn Policy, layer: Option<&crate::autocast::Autocast>, c: &Call) -> Value {
    let more = !c.op.info().parts.is_empty()
        || c.op.info().verdict
        || c.op.arity() == 1 && c.operands[0].literal().is_some();
    match layer {
        None if !more => answer_of(&policy.result(c)),
        _ => answer_value(&crate::autocast::resolve_under(policy, layer, c)),
    }
}

/// Whether an operand of a query carries `data` (not `null`).
fn carries_data(v: &Value) -> bool {
    v.get("operands")
        .and_then(Value::as_array)
        .is_some_and(|ops| {
            ops.iter()
                .any(|o| o.get("data").is_some_and(|d| !d.is_null()))
        })
}

/// The spec's JSON form of an operand.
pub(crate) fn operand_json(o: &Operand) -> Value {
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
    if let Some(d) = c.dtype {
        m.insert("dtype".into(), json!(d.name()));
    }
    if let Some(o) = c.out {
        m.insert("out".into(), json!(o.name()));
    }
    if let Some(k) = c.casting {
        m.insert("casting".into(), json!(k.name()));
    }
    if c.form != Form::Operator {
        m.insert("form".into(), json!(c.form.name()));
    }
    Value::Object(m)
}

/// The compact answer token of a JSON answer: `int16`, `~float32`, `!overflow`; several
/// results joined by `,` (`int8,int8`); a plain Python number `=int` / `=float`.
///
/// ```
/// use promote::query::answer_token;
/// assert_eq!(answer_token(&serde_json::json!({"dtype": "float32", "weak": true})), "~float32");
/// assert_eq!(answer_token(&serde_json::json!({"error": "overflow", "message": "m"})), "!overflow");
/// ```
pub fn answer_token(answer: &Value) -> String {
    if let Some(e) = answer.get("error").and_then(|e| e.as_str()) {
        return format!("!{e}");
    }
    if let Some(k) = answer.get("scalar").and_then(|k| k.as_str()) {
        return format!("={k}");
    }
    if let Some(rs) = answer.get("results").and_then(|r| r.as_array()) {
        return rs.iter().map(answer_token).collect::<Vec<_>>().join(",");
    }
    if let Some(v) = answer.get("value").and_then(|v| v.as_str()) {
        return v.to_string(); // a yes/no answer (`can_cast`): `True` / `False`
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
