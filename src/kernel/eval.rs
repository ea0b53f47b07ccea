//! `promote eval`: the spec's queries with data, resolved by a policy and executed.
//!
//! ```
//! use promote::{builtin, kernel::eval::answer_line};
//! let torch = builtin("torch").unwrap();
//! let q = r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["127", "-128"]}, {"dtype": "uint8", "data": ["1", "255"]}]}"#;
//! assert_eq!(answer_line(&*torch, q), r#"{"dtype":"int16","weak":false,"data":["128","127"]}"#);
//! let bad = answer_line(&*torch, r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["1", "2"]}, {"dtype": "int8", "data": ["1", "2", "3"]}]}"#);
//! assert!(bad.starts_with(r#"{"error":"invalid""#));
//! ```

use serde_json::{json, Value};

use super::array::{Array, C64};
use super::cast::cast_array;
use super::compute::{self, KernelError, Semantics};
use super::exec::{execute, result_len};
use super::value::{format_array, parse_array};
use crate::dtype::{DType, Kind};
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{Literal, Operand, PyInt};
use crate::plan::Plan;
use crate::policy::Policy;
use crate::query;

/// The result of one eval query.
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluated {
    /// The plan the policy chose.
    pub plan: Plan,
    /// The values, in `plan.result`.
    pub data: Array,
}

fn invalid(m: impl Into<String>) -> PromoteError {
    PromoteError::Invalid { message: m.into() }
}

/// Turn a kernel's refusal into the interface's error.
pub fn kernel_error(policy: &dyn Policy, plan: &Plan, e: KernelError) -> PromoteError {
    match e {
        KernelError::NegativePower => PromoteError::Value {
            policy: policy.name().to_string(),
            op: plan.op.name().to_string(),
            dtype: plan.compute.name().to_string(),
            rule: "Integers to negative integer powers are not allowed".into(),
        },
        KernelError::DivisionByZero => PromoteError::Value {
            policy: policy.name().to_string(),
            op: plan.op.name().to_string(),
            dtype: plan.compute.name().to_string(),
            rule: "ZeroDivisionError: an integer divisor is 0".into(),
        },
        KernelError::Unsupported { op, dtype } => PromoteError::Unsupported {
            policy: policy.name().to_string(),
            op: op.name().to_string(),
            dtype: dtype.name().to_string(),
            rule: "no kernel".into(),
        },
        KernelError::Shape(m) => invalid(m),
    }
}

/// A Python literal as one value of a dtype (the plan's input dtype for it).
pub fn literal_array(l: &Literal, d: DType) -> Result<Array, PromoteError> {
    let one = match l {
        Literal::Bool(b) => Array::from(vec![*b]),
        Literal::Int(i) => match (i.exact(), d.kind()) {
            (_, Kind::Float | Kind::Complex) => Array::from(vec![i.to_f64()]),
            (_, Kind::Bool) => Array::from(vec![i.to_f64() != 0.0]),
            // wrap into the dtype, as a C cast of the low 64 bits would
            (Some(v), _) => Array::from(vec![v as u64]),
            (None, _) => return Err(invalid(format!("the Python int {i} fits no integer dtype"))),
        },
        Literal::Float(f) => Array::from(vec![*f]),
        Literal::Complex(re, im) => Array::from(vec![C64::new(*re, *im)]),
    };
    Ok(cast_array(one.view(), d))
}

/// The literal a 0-d tensor's one value is, for value-based policies.
fn value_literal(text: &str, d: DType) -> Option<Literal> {
    let a = parse_array(d, &[text]).ok()?;
    let t = &format_array(a.view())[0];
    Some(match d.kind() {
        Kind::Bool => Literal::Bool(t == "True"),
        Kind::Unsigned | Kind::Signed => Literal::Int(PyInt::parse(t)?),
        _ => Literal::parse(t)?,
    })
}

fn texts(v: &Value) -> Result<Vec<String>, PromoteError> {
    let arr = v
        .as_array()
        .ok_or_else(|| invalid("\"data\" is a list of values as text"))?;
    arr.iter()
        .map(|x| match x {
            Value::String(s) => Ok(s.clone()),
            Value::Number(n) => Ok(n.to_string()),
            Value::Bool(b) => Ok(if *b { "True" } else { "False" }.to_string()),
            _ => Err(invalid(
                "a data value is text (\"1.5\", \"nan\", \"(1+2j)\")",
            )),
        })
        .collect()
}

/// Evaluate one parsed query.
pub fn eval_value(policy: &dyn Policy, v: &Value) -> Result<Evaluated, PromoteError> {
    let mut call: Call = query::parse_query(v)?;
    let ops = v
        .get("operands")
        .and_then(|o| o.as_array())
        .ok_or_else(|| invalid("a query needs \"operands\""))?;
    // the data of each tensor operand, in its own dtype
    let mut data: Vec<Option<Array>> = Vec::with_capacity(ops.len());
    for (i, (o, operand)) in ops.iter().zip(call.operands.iter_mut()).enumerate() {
        match operand {
            Operand::Literal(_) => data.push(None),
            Operand::Tensor {
                dtype,
                zero_dim,
                value,
                ..
            } => {
                let t = match o.get("data").filter(|d| !d.is_null()) {
                    Some(d) => texts(d)?,
                    None => match value {
                        Some(l) if *zero_dim => vec![l.to_string()],
                        _ => {
                            return Err(invalid(format!(
                                "operand {} is a tensor without \"data\"",
                                i + 1
                            )))
                        }
                    },
                };
                if *zero_dim && t.len() != 1 {
                    return Err(invalid(format!(
                        "operand {} is 0-d but has {} values",
                        i + 1,
                        t.len()
                    )));
                }
                let a = parse_array(*dtype, &t)
                    .map_err(|e| invalid(format!("operand {}: {e}", i + 1)))?;
                if *zero_dim && value.is_none() {
                    *value = value_literal(&t[0], *dtype);
                }
                data.push(Some(a));
            }
        }
    }
    let lens: Vec<usize> = data
        .iter()
        .map(|d| d.as_ref().map_or(1, |a| a.len()))
        .collect();
    result_len(call.op, &lens).map_err(|e| invalid(e.to_string()))?;
    let plan = policy.resolve(&call)?;
    let arrays: Vec<Array> = data
        .into_iter()
        .zip(&call.operands)
        .zip(&plan.inputs)
        .map(|((d, o), &to)| match (d, o) {
            (Some(a), _) => Ok(a),
            (None, Operand::Literal(l)) => literal_array(l, to),
            (None, _) => Err(invalid("a tensor without data")),
        })
        .collect::<Result<_, _>>()?;
    let sem = Semantics::for_policy(policy.name());
    let arrays = compute::prepare_inputs(
        &sem,
        &plan,
        &arrays.iter().map(|a| a.view()).collect::<Vec<_>>(),
    )
    .unwrap_or(arrays);
    let views: Vec<_> = arrays.iter().map(|a| a.view()).collect();
    let out = execute(&plan, &views, &sem).map_err(|e| kernel_error(policy, &plan, e))?;
    Ok(Evaluated { plan, data: out })
}

/// The answer object of an evaluation.
pub fn answer_value(r: &Result<Evaluated, PromoteError>) -> String {
    match r {
        Ok(e) => {
            let data = Value::Array(
                format_array(e.data.view())
                    .into_iter()
                    .map(Value::String)
                    .collect(),
            );
            format!(
                "{{\"dtype\":{},\"weak\":{},\"data\":{}}}",
                json!(e.plan.result.name()),
                e.plan.weak,
                data
            )
        }
        Err(e) => json!({"error": e.kind().name(), "message": e.to_string()}).to_string(),
    }
}

/// Evaluate one JSON line into one JSON answer line (never fails, never panics).
pub fn answer_line(policy: &dyn Policy, line: &str) -> String {
    let r = serde_json::from_str::<Value>(line)
        .map_err(|e| invalid(format!("not JSON: {e}")))
        .and_then(|v| eval_value(policy, &v));
    answer_value(&r)
}
