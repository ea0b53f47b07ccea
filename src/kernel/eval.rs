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

use std::io::Write;

use serde_json::{json, Value};

use super::array::{Array, View, ViewMut, C64};
use super::cast::cast_array;
use super::compute::{self, KernelError};
use super::data::{read_query, write_data_as, Data, DataQuery};
use super::exec::{execute, execute_into, result_len};
use super::narrow::arith::{carrier, library_of, round_into, run_narrow, touches_narrow};
use super::narrow::rules::Library;
use super::value::{format_array, parse_array};
use crate::dtype::{DType, Kind};
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{held_value, Literal, Operand};
use crate::plan::Plan;
use crate::policy::Policy;
use crate::query::{self, Interface};

/// The result of one eval query.
///
/// ```
/// use promote::kernel::{eval::eval_line, value::format_array};
/// use promote::{builtin, DType};
/// let q = r#"{"op": "divmod", "operands": [{"dtype": "int8", "data": ["7"]}, {"dtype": "int8", "data": ["2"]}]}"#;
/// let r = eval_line(&*builtin("numpy").unwrap(), q).unwrap();
/// assert_eq!(r.plan.result, DType::Int8);
/// assert_eq!((format_array(r.data.view()), format_array(r.more[0].view())), (vec!["3".to_string()], vec!["1".to_string()]));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Evaluated {
    /// The plan the policy chose.
    pub plan: Plan,
    /// The values, in `plan.result`.
    pub data: Array,
    /// The values of the further results of an op of several results (`divmod`'s remainder),
    /// each in its part's result dtype (`plan.parts[1..]`); empty for an op of one result.
    pub more: Vec<Array>,
}

fn invalid(m: impl Into<String>) -> PromoteError {
    PromoteError::Invalid { message: m.into() }
}

/// Turn a kernel's refusal into the interface's error.
///
/// ```
/// use promote::kernel::{eval::kernel_error, KernelError};
/// use promote::{builtin, Call, ErrorKind, Policy};
/// let torch = builtin("torch").unwrap();
/// let plan = torch.resolve(&"floor_divide int8 int8".parse::<Call>().unwrap()).unwrap();
/// let e = kernel_error(&*torch, &plan, KernelError::DivisionByZero);
/// assert_eq!(e.kind(), ErrorKind::Value);
/// ```
pub fn kernel_error<P: Policy + ?Sized>(policy: &P, plan: &Plan, e: KernelError) -> PromoteError {
    match e {
        KernelError::NegativePower => PromoteError::Value {
            policy: policy.name().to_string(),
            op: plan.op.name().to_string(),
            operands: format!("{} operands", plan.compute.name()),
            rule: "Integers to negative integer powers are not allowed".into(),
        },
        KernelError::DivisionByZero => PromoteError::Value {
            policy: policy.name().to_string(),
            op: plan.op.name().to_string(),
            operands: format!("{} operands", plan.compute.name()),
            rule: "ZeroDivisionError: an integer divisor is 0".into(),
        },
        KernelError::Unsupported { op, dtype } => PromoteError::Unsupported {
            policy: policy.name().to_string(),
            op: op.name().to_string(),
            dtype: dtype.name().to_string(),
            rule: "no kernel".into(),
        },
        KernelError::Shape(m) => invalid(m),
        e @ KernelError::DataDType { .. } => invalid(e.to_string()),
        KernelError::NoKernel { op } => PromoteError::NoKernel {
            op: op.name().to_string(),
        },
    }
}

/// A Python literal as one value of a dtype (the plan's input dtype for it).
///
/// ```
/// use promote::kernel::{eval::literal_array, Array};
/// use promote::{DType, Literal};
/// let l = Literal::parse("300").unwrap();
/// assert_eq!(literal_array(&l, DType::Float32).unwrap(), Array::from(vec![300.0f32]));
/// assert_eq!(literal_array(&l, DType::Int16).unwrap(), Array::from(vec![300i16]));
/// ```
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

/// The data of one tensor operand in its own dtype; a 0-d operand's value and data agree.
fn operand_data(
    i: usize,
    operand: &mut Operand,
    raw: Option<Data>,
) -> Result<Option<Array>, PromoteError> {
    let Operand::Tensor {
        dtype,
        zero_dim,
        value,
        ..
    } = operand
    else {
        return match raw {
            Some(_) => Err(invalid(format!(
                "operand {} is a Python scalar: it takes \"value\", not \"data\"",
                i + 1
            ))),
            None => Ok(None),
        };
    };
    let has_data = raw.is_some();
    if !has_data && !*zero_dim {
        return Err(invalid(format!(
            "operand {} is a tensor without \"data\"",
            i + 1
        )));
    }
    let a = match raw {
        Some(raw) => raw
            .into_array(*dtype)
            .map_err(|e| invalid(format!("operand {}: {e}", i + 1)))?,
        None => match value {
            Some(l) => parse_array(*dtype, &[l.to_string()]).map_err(invalid)?,
            None => {
                return Err(invalid(format!(
                    "operand {} is a tensor without \"data\"",
                    i + 1
                )))
            }
        },
    };
    if *zero_dim {
        if a.len() != 1 {
            return Err(invalid(format!(
                "operand {} is 0-d but has {} values",
                i + 1,
                a.len()
            )));
        }
        let text = format_array(a.view()).pop().unwrap_or_default();
        let held = held_value(*dtype, &text)?;
        match value {
            // compared as repr: -0.0 is not 0.0, and nan is nan
            Some(v) if v.to_string() != held.to_string() => {
                return Err(invalid(format!(
                    "operand {} has \"value\": \"{v}\" but \"data\": [\"{text}\"]; give one, or make them agree",
                    i + 1
                )))
            }
            _ => *value = Some(held),
        }
    }
    Ok(Some(a))
}

fn not_json(e: serde_json::Error) -> PromoteError {
    invalid(format!("not JSON: {e}"))
}

/// Read one query with data from a line held whole.
fn read_line(line: &str) -> Result<DataQuery, PromoteError> {
    let mut de = serde_json::Deserializer::from_str(line);
    let q = read_query(&mut de).map_err(not_json)?;
    de.end().map_err(not_json)?;
    Ok(q)
}

/// The call of a query and its operands' data checked against their dtypes (`None` for Python
/// scalars, and for tensors without data where `required` is false: `resolve` reads data but
/// does not need it).
fn checked_call(q: DataQuery, required: bool) -> Result<(Call, Vec<Option<Array>>), PromoteError> {
    let mut call: Call = query::parse_query_for(&q.query, Interface::Eval)?;
    let mut arrays: Vec<Option<Array>> = Vec::with_capacity(q.data.len());
    for (i, (operand, raw)) in call.operands.iter_mut().zip(q.data).enumerate() {
        let needed = required || raw.is_some();
        arrays.push(match needed {
            true => operand_data(i, operand, raw)?,
            false => None,
        });
    }
    let lens: Vec<usize> = arrays
        .iter()
        .map(|a| a.as_ref().map_or(1, Array::len))
        .collect();
    match result_len(call.op, &lens) {
        // resolve reads data but computes nothing: an op without a kernel still resolves
        Err(KernelError::NoKernel { .. }) if !required => {}
        r => {
            r.map_err(length_error)?;
        }
    }
    Ok((call, arrays))
}

/// Evaluate one query line (its `"autocast"` key honoured, as everywhere).
///
/// Read through the same reader as a streamed line ([`eval_reader_under`]), so that a line held
/// whole and a line read as a stream get the same answer to the byte (serde_json places some
/// syntax errors a column apart when it reads a slice).
///
/// ```
/// use promote::kernel::{eval::eval_line, Array};
/// use promote::builtin;
/// let q = r#"{"op": "add", "operands": [{"dtype": "uint8", "data": ["255"]}, {"scalar": "int", "value": "1"}]}"#;
/// let r = eval_line(&*builtin("numpy").unwrap(), q).unwrap();
/// assert_eq!(r.data, Array::from(vec![0u8]));
/// ```
pub fn eval_line(policy: &dyn Policy, line: &str) -> Result<Evaluated, PromoteError> {
    eval_reader_under(policy, None, line.as_bytes())
}

/// Evaluate one query read from a stream (the bytes of one line, up to its end) under an
/// autocast layer: the `data` arrays go straight into typed buffers, and the line itself is
/// never held, so a query costs about its arrays (`promote eval` reads lines over 1 MiB this
/// way). Under an autocast layer (`promote eval --autocast`); a query's own
/// `"autocast"` key overrides `autocast`. The one function that evaluates an `eval` line.
///
/// ```
/// use promote::{autocast::builtin_autocast, builtin, kernel::eval::eval_reader_under, DType};
/// let torch = builtin("torch").unwrap();
/// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
/// let q = r#"{"op": "matmul", "operands": [{"dtype": "float32", "data": ["1.00390625"]}, {"dtype": "float32", "data": ["1"]}]}"#;
/// let r = eval_reader_under(&*torch, Some(&bf16), q.as_bytes()).unwrap();
/// assert_eq!(r.plan.result, DType::BFloat16);
/// assert_eq!(promote::kernel::value::format_array(r.data.view()), ["1.0"]);
/// ```
pub fn eval_reader_under(
    policy: &dyn Policy,
    autocast: Option<&crate::autocast::Autocast>,
    line: impl std::io::Read,
) -> Result<Evaluated, PromoteError> {
    let mut de =
        serde_json::Deserializer::from_reader(std::io::BufReader::with_capacity(1 << 16, line));
    let mut q = read_query(&mut de).map_err(not_json)?;
    de.end().map_err(not_json)?;
    let own = crate::autocast::take_autocast(&mut q.query)?;
    let set = crate::query::settled(policy, crate::query::take_settings(&mut q.query)?)?;
    let policy = set.as_deref().unwrap_or(policy);
    let (call, arrays) = checked_call(q, true)?;
    let views: Vec<Option<View<'_>>> = arrays
        .iter()
        .map(|a| a.as_ref().map(|a| a.view()))
        .collect();
    crate::autocast::evaluate_under(policy, own.as_deref().or(autocast), &call, &views)
}

/// Resolve a query whose tensor operands may carry `data`, as `promote resolve` reads one:
/// the data is checked as `eval` checks it (every element a value of its operand's dtype, a 0-d
/// operand's `data` one value agreeing with its `value`, lengths equal or 1, no `data` on a
/// Python scalar), then the plan comes from the dtypes alone; nothing is computed.
///
/// ```
/// use promote::{builtin, kernel::eval::resolve_line};
/// let numpy = builtin("numpy").unwrap();
/// let q = r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["1"]}, {"dtype": "uint8"}]}"#;
/// assert_eq!(resolve_line(&*numpy, q).unwrap().result, promote::DType::Int16);
/// let bad = r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["300"]}, {"dtype": "uint8"}]}"#;
/// assert!(resolve_line(&*numpy, bad).unwrap_err().to_string().contains("300"));
/// ```
pub fn resolve_line(policy: &dyn Policy, line: &str) -> Result<Plan, PromoteError> {
    resolve_line_under(policy, None, line)
}

/// [`resolve_line`] under an autocast layer; a query's own `"autocast"` key overrides
/// `autocast`.
pub(crate) fn resolve_line_under(
    policy: &dyn Policy,
    autocast: Option<&crate::autocast::Autocast>,
    line: &str,
) -> Result<Plan, PromoteError> {
    let mut q = read_line(line)?;
    let own = crate::autocast::take_autocast(&mut q.query)?;
    let set = crate::query::settled(policy, crate::query::take_settings(&mut q.query)?)?;
    let policy = set.as_deref().unwrap_or(policy);
    let (call, _) = checked_call(q, false)?;
    crate::autocast::resolve_under(policy, own.as_deref().or(autocast), &call)
}

/// The error of [`result_len`]: an op without a kernel keeps its kind (`unsupported`); lengths
/// that do not match are an invalid query.
fn length_error(e: KernelError) -> PromoteError {
    match e {
        KernelError::NoKernel { op } => PromoteError::NoKernel {
            op: op.name().to_string(),
        },
        e => invalid(e.to_string()),
    }
}

/// Evaluate a call whose tensor operands come with data (`None` for Python scalars): the one
/// call a Rust user makes (the policy's own element semantics, Python scalars made arrays of the
/// plan's dtype for them). Data whose dtype is not its operand's is refused, never reinterpreted.
///
/// ```
/// use promote::kernel::{eval::evaluate, Array};
/// use promote::{builtin, Call, DType};
/// let torch = builtin("torch").unwrap();
/// let call: Call = "add int8 uint8".parse().unwrap();
/// let (a, b) = (Array::from(vec![127i8]), Array::from(vec![1u8]));
/// let r = evaluate(&*torch, &call, &[Some(a.view()), Some(b.view())]).unwrap();
/// assert_eq!(r.plan.result, DType::Int16);
/// let wrong = Array::from(vec![1i16]);
/// assert!(evaluate(&*torch, &call, &[Some(wrong.view()), Some(b.view())]).is_err());
/// ```
pub fn evaluate<P: Policy + ?Sized>(
    policy: &P,
    call: &Call,
    data: &[Option<View<'_>>],
) -> Result<Evaluated, PromoteError> {
    check_data(call, data)?;
    let plan = policy.resolve(call)?;
    let library = library_of(policy.semantics().name);
    let scalars = scalar_arrays(call, &plan, data, library)?;
    let views: Vec<View<'_>> = data
        .iter()
        .zip(&scalars)
        .filter_map(|(d, s)| d.or_else(|| s.as_ref().map(|a| a.view())))
        .collect();
    if plan.parts.is_empty() {
        let data = run_plan(policy, &plan, &views)?;
        return Ok(Evaluated {
            plan,
            data,
            more: vec![],
        });
    }
    // an op of several results (`divmod`): each part's plan on the same operands
    let mut parts = plan
        .parts
        .iter()
        .map(|p| run_plan(policy, p, &views))
        .collect::<Result<Vec<Array>, _>>()?
        .into_iter();
    let data = parts.next().expect("an op of several results has parts");
    Ok(Evaluated {
        plan,
        data,
        more: parts.collect(),
    })
}

/// The plan of a call on its data and the length of its result, checked as [`evaluate`]
/// checks them: what to make the output of before [`evaluate_into`]. A call of several
/// results (`divmod`) is refused here: [`evaluate`] returns those.
///
/// ```
/// use promote::kernel::eval::plan_and_len;
/// use promote::kernel::Array;
/// use promote::{builtin, Call, DType};
/// let (a, b) = (Array::from(vec![1i8, 2, 3]), Array::from(vec![1u8, 2, 3]));
/// let call: Call = "add int8 uint8".parse().unwrap();
/// let (plan, len) = plan_and_len(&*builtin("numpy").unwrap(), &call, &[Some(a.view()), Some(b.view())]).unwrap();
/// assert_eq!((plan.result, len), (DType::Int16, 3));
/// ```
pub fn plan_and_len<P: Policy + ?Sized>(
    policy: &P,
    call: &Call,
    data: &[Option<View<'_>>],
) -> Result<(Plan, usize), PromoteError> {
    check_data(call, data)?;
    let plan = policy.resolve(call)?;
    refuse_narrow(policy, call, &plan)?;
    if !plan.parts.is_empty() {
        return Err(invalid(format!(
            "{} has {} results: evaluate it whole (`eval` without -o answers with each)",
            call.op,
            plan.parts.len()
        )));
    }
    let lens: Vec<usize> = data.iter().map(|d| d.map_or(1, |v| v.len())).collect();
    let len = result_len(plan.op, &lens).map_err(|e| kernel_error(policy, &plan, e))?;
    Ok((plan, len))
}

/// [`evaluate`] into an output of the plan's result dtype and length (from
/// [`plan_and_len`]), such as a file mapped for writing ([`super::npy::create`]): the
/// kernel writes its result there directly.
///
/// ```
/// use promote::kernel::eval::{evaluate_into, plan_and_len};
/// use promote::kernel::Array;
/// use promote::{builtin, Call};
/// let numpy = builtin("numpy").unwrap();
/// let (a, b) = (Array::from(vec![127i8, -128]), Array::from(vec![1u8, 255]));
/// let data = [Some(a.view()), Some(b.view())];
/// let call: Call = "add int8 uint8".parse().unwrap();
/// let (plan, len) = plan_and_len(&*numpy, &call, &data).unwrap();
/// let mut out = Array::zeros(plan.result, len);
/// evaluate_into(&*numpy, &call, &plan, &data, out.view_mut()).unwrap();
/// assert_eq!(out, Array::from(vec![128i16, 127]));
/// ```
pub fn evaluate_into<P: Policy + ?Sized>(
    policy: &P,
    call: &Call,
    plan: &Plan,
    data: &[Option<View<'_>>],
    out: ViewMut<'_>,
) -> Result<(), PromoteError> {
    let scalars = scalar_arrays(call, plan, data, library_of(policy.semantics().name))?;
    let views: Vec<View<'_>> = data
        .iter()
        .zip(&scalars)
        .filter_map(|(d, s)| d.or_else(|| s.as_ref().map(|a| a.view())))
        .collect();
    let sem = policy.semantics();
    let fail = |plan: &Plan, e| kernel_error(policy, plan, e);
    if let Some(data) = compute::computed_otherwise(&sem, plan, &views) {
        if data.dtype() != out.dtype() || data.len() != out.len() {
            return Err(invalid(format!(
                "an output of {} {} for a result of {} {}",
                out.len(),
                out.dtype(),
                data.len(),
                data.dtype()
            )));
        }
        super::cast::cast_view(data.view(), out);
        return Ok(());
    }
    let Some(prepared) = compute::prepare_inputs(&sem, plan, &views) else {
        return execute_into(plan, &views, out, &sem).map_err(|e| fail(plan, e));
    };
    // as in `run_plan`: the inputs as the framework reads them
    let views: Vec<View<'_>> = prepared.iter().map(|a| a.view()).collect();
    let plan = Plan {
        operands: views.iter().map(|v| v.dtype()).collect(),
        ..plan.clone()
    };
    execute_into(&plan, &views, out, &sem).map_err(|e| fail(&plan, e))
}

/// [`evaluate_into`] writes classic dtypes only: a plan that casts to, computes in or returns a
/// narrow dtype (computed through its carrier by [`evaluate`]) is refused as unsupported here;
/// `evaluate` answers it.
fn refuse_narrow<P: Policy + ?Sized>(
    policy: &P,
    call: &Call,
    plan: &Plan,
) -> Result<(), PromoteError> {
    let typed = [plan.compute, plan.result]
        .into_iter()
        .chain(plan.inputs.iter().copied());
    match typed.into_iter().find(|d| !d.is_classic()) {
        Some(dtype) => {
            let e = KernelError::Unsupported { op: call.op, dtype };
            Err(kernel_error(policy, plan, e))
        }
        None => Ok(()),
    }
}

/// One data slot per operand, each of its operand's dtype, lengths that the op takes.
fn check_data(call: &Call, data: &[Option<View<'_>>]) -> Result<(), PromoteError> {
    if data.len() != call.operands.len() {
        return Err(invalid(format!(
            "{} operands but {} data slots; give one per operand (None for a Python scalar)",
            call.operands.len(),
            data.len()
        )));
    }
    for (i, (d, o)) in data.iter().zip(&call.operands).enumerate() {
        if let (Some(v), Some(want)) = (d, o.dtype()) {
            if v.dtype() != carrier(want) {
                return Err(invalid(format!(
                    "operand {} is {want} but its data is {}; cast the data, or name its dtype in the call",
                    i + 1,
                    v.dtype()
                )));
            }
        }
    }
    let lens: Vec<usize> = data
        .iter()
        .map(|d| d.as_ref().map_or(1, |a| a.len()))
        .collect();
    result_len(call.op, &lens).map_err(length_error)?;
    Ok(())
}

/// The arrays of the operands without data: a Python scalar as one value of the plan's input
/// dtype for it, a 0-d tensor's `value` in its dtype (`None` for operands with data).
fn scalar_arrays(
    call: &Call,
    plan: &Plan,
    data: &[Option<View<'_>>],
    library: Library,
) -> Result<Vec<Option<Array>>, PromoteError> {
    data.iter()
        .zip(&call.operands)
        .zip(&plan.inputs)
        .map(|((d, o), &to)| match (d, o) {
            (None, Operand::Literal(l)) => literal_array(l, carrier(to))
                .and_then(|a| round_into(a.view(), to, library).map_err(|e| invalid(e.to_string())))
                .map(Some),
            (
                None,
                Operand::Tensor {
                    dtype,
                    value: Some(l),
                    zero_dim: true,
                    ..
                },
            ) => parse_array(*dtype, &[l.to_string()])
                .map(Some)
                .map_err(invalid),
            (None, _) => Err(invalid("a tensor without data")),
            (Some(_), _) => Ok(None),
        })
        .collect()
}

/// Executes one plan on its operands with the policy's element semantics.
fn run_plan<P: Policy + ?Sized>(
    policy: &P,
    plan: &Plan,
    views: &[View<'_>],
) -> Result<Array, PromoteError> {
    run_plan_in(policy, policy.semantics(), plan, views)
}

/// [`run_plan`] with the element semantics given.
fn run_plan_in<P: Policy + ?Sized>(
    policy: &P,
    sem: compute::Semantics,
    plan: &Plan,
    views: &[View<'_>],
) -> Result<Array, PromoteError> {
    if touches_narrow(plan) {
        if let Some(done) = super::narrow::xla::run(&sem, plan, views) {
            return done.map_err(|e| kernel_error(policy, plan, e));
        }
        let flush_result = super::narrow::xla::flushes_result(&sem, plan);
        let sem = super::narrow::xla::semantics_for(sem, plan);
        // decoded into wider carriers, computed there, a narrow result rounded once
        let unsupported = |e: super::narrow::NarrowError| PromoteError::Unsupported {
            policy: policy.name().to_string(),
            op: plan.op.name().to_string(),
            dtype: plan.result.name().to_string(),
            rule: e.to_string(),
        };
        if let Some(r) = super::narrow::accumulate::in_dtype(&sem, plan, views) {
            // a reduction that rounds every partial result into the dtype
            return r.map_err(unsupported);
        }
        let exec = |p: &Plan, v: &[View<'_>]| {
            let mut r = run_plan_in(policy, sem, p, v)?;
            if flush_result {
                compute::flush_in_place(r.view_mut());
            }
            Ok(r)
        };
        return run_narrow(plan, views, library_of(sem.name), exec, unsupported);
    }
    if let Some(data) = compute::computed_otherwise(&sem, plan, views) {
        return Ok(data);
    }
    let Some(prepared) = compute::prepare_inputs(&sem, plan, views) else {
        return execute(plan, views, &sem).map_err(|e| kernel_error(policy, plan, e));
    };
    // the inputs as the framework reads them (TensorFlow reads a bool `multiply`'s other
    // operand as bool): the plan runs on that data, of those dtypes
    let views: Vec<View<'_>> = prepared.iter().map(|a| a.view()).collect();
    let plan = Plan {
        operands: views.iter().map(|v| v.dtype()).collect(),
        ..plan.clone()
    };
    execute(&plan, &views, &sem).map_err(|e| kernel_error(policy, &plan, e))
}

/// Evaluate one parsed query (a JSON value with `data` arrays).
///
/// ```
/// use promote::kernel::{eval::eval_value, Array};
/// use promote::builtin;
/// let q = serde_json::json!({"op": "negative", "operands": [{"dtype": "int8", "data": ["-128"]}]});
/// let r = eval_value(&*builtin("torch").unwrap(), &q).unwrap();
/// assert_eq!(r.data, Array::from(vec![-128i8]));
/// ```
pub fn eval_value(policy: &dyn Policy, v: &Value) -> Result<Evaluated, PromoteError> {
    eval_line(policy, &v.to_string())
}

/// Write the answer to an evaluation (one JSON object, no line end), data element by element.
///
/// ```
/// use promote::kernel::eval::{eval_line, write_answer};
/// let q = r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["1"]}, {"dtype": "int8", "data": ["2"]}]}"#;
/// let mut out = Vec::new();
/// write_answer(&eval_line(&*promote::builtin("torch").unwrap(), q), &mut out).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), r#"{"dtype":"int8","weak":false,"data":["3"]}"#);
/// ```
pub fn write_answer(
    r: &Result<Evaluated, PromoteError>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    match r {
        Ok(e) => {
            write!(
                out,
                "{{\"dtype\":{},\"weak\":{},\"data\":",
                json!(e.plan.result.name()),
                e.plan.weak
            )?;
            write_data_as(e.data.view(), e.plan.result, out)?;
            write_more_results(e, out)?;
            out.write_all(b"}")
        }
        Err(e) => write!(
            out,
            "{}",
            json!({"error": e.kind().name(), "message": e.to_string()})
        ),
    }
}

/// `"results"` of an op of several results: `{"dtype", "weak", "data"}` per result, the first
/// being the answer's own (as `resolve` answers `"results"` without the data).
fn write_more_results(e: &Evaluated, out: &mut impl Write) -> std::io::Result<()> {
    if e.plan.parts.is_empty() {
        return Ok(());
    }
    out.write_all(b",\"results\":[")?;
    let datas = std::iter::once(&e.data).chain(&e.more);
    for (i, (p, d)) in e.plan.parts.iter().zip(datas).enumerate() {
        if i > 0 {
            out.write_all(b",")?;
        }
        write!(
            out,
            "{{\"dtype\":{},\"weak\":{},\"data\":",
            json!(p.result.name()),
            p.weak
        )?;
        write_data_as(d.view(), p.result, out)?;
        out.write_all(b"}")?;
    }
    out.write_all(b"]")
}

/// The answer object of an evaluation.
///
/// ```
/// use promote::kernel::eval::{answer_value, eval_line};
/// let r = eval_line(&*promote::builtin("torch").unwrap(), r#"{"op": "add"}"#);
/// assert!(answer_value(&r).starts_with(r#"{"error":"invalid""#));
/// ```
pub fn answer_value(r: &Result<Evaluated, PromoteError>) -> String {
    let mut out = Vec::new();
    let _ = write_answer(r, &mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Evaluate one JSON line into one JSON answer line (never fails, never panics).
///
/// ```
/// use promote::kernel::eval::answer_line;
/// let q = r#"{"op": "add", "operands": [{"dtype": "bool", "data": ["True"]}, {"dtype": "bool", "data": ["True"]}]}"#;
/// assert_eq!(answer_line(&*promote::builtin("numpy").unwrap(), q), r#"{"dtype":"bool","weak":false,"data":["True"]}"#);
/// ```
pub fn answer_line(policy: &dyn Policy, line: &str) -> String {
    answer_value(&eval_line(policy, line))
}
