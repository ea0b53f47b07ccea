//! The diff of two policies' element values (`promote diff --values`): for every tensor · tensor
//! cell where both policies give the same result dtype, the op is computed on a fixed sample of
//! edge values per dtype ([`sample`]) with each policy's own kernel semantics
//! ([`Policy::semantics`]), and the cells whose values differ are reported with their first
//! differing element.
//!
//! ```
//! use promote::analysis::value_diff;
//! let (numpy, torch) = (promote::builtin("numpy").unwrap(), promote::builtin("torch").unwrap());
//! let ops = promote::analysis::parse_ops("floor_divide").unwrap();
//! let d = value_diff(&*numpy, &*torch, &ops);
//! // NumPy gives 0 for an integer floor division by zero; PyTorch refuses it
//! let cell = d.cells.iter().find(|c| c.call.to_string() == "floor_divide int8 int8").unwrap();
//! assert_eq!((cell.first.a.as_str(), cell.first.b.as_str()), ("0", "!value"));
//! ```

use serde_json::{json, Value};

use crate::dtype::{DType, Kind};
use crate::kernel::value::{format_array, parse_array};
use crate::kernel::{eval, exec, Array, View};
use crate::op::{Call, Op};
use crate::operand::Operand;
use crate::policy::Policy;

/// One element where two policies compute different values.
///
/// ```
/// use promote::{analysis::value_diff, builtin, Op};
/// let d = value_diff(&*builtin("numpy").unwrap(), &*builtin("torch").unwrap(), &[Op::Multiply]);
/// assert!(d.cells.iter().all(|c| c.first.a != c.first.b));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ElementDifference {
    /// The input elements, one per operand, as Python writes them.
    pub inputs: Vec<String>,
    /// The first policy's result element (`!value` where it refuses the element, as PyTorch an
    /// integer division by zero).
    pub a: String,
    /// The second policy's.
    pub b: String,
}

/// A cell whose values differ.
///
/// ```
/// use promote::{analysis::value_diff, builtin, Op};
/// let d = value_diff(&*builtin("numpy").unwrap(), &*builtin("torch").unwrap(), &[Op::Multiply]);
/// assert!(d.cells.iter().all(|c| c.differ > 0 && c.differ <= c.elements));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ValueCell {
    /// The call of the cell (`add int8 float16`).
    pub call: Call,
    /// The result dtype both policies give.
    pub dtype: DType,
    /// Elements computed.
    pub elements: usize,
    /// Elements whose values differ.
    pub differ: usize,
    /// The first of them, in sample order.
    pub first: ElementDifference,
}

/// Two policies' element values compared.
///
/// ```
/// use promote::{analysis::value_diff, builtin, Op};
/// let numpy = builtin("numpy").unwrap();
/// let d = value_diff(&*numpy, &*numpy, &[Op::Add]);
/// assert!(d.cells.is_empty() && d.compared > 0);
/// ```
#[derive(Clone, Debug)]
pub struct ValueDiff {
    /// The first policy's name.
    pub a: String,
    /// The second policy's name.
    pub b: String,
    /// The kernel semantics of each (`numpy`, `torch`, `xla-cpu`, ...).
    pub semantics: (&'static str, &'static str),
    /// Cells whose values were compared (both resolve, to the same result dtype).
    pub compared: usize,
    /// Cells left out because the policies give different result dtypes (`promote diff` shows them).
    pub other_dtype: usize,
    /// Cells left out because either policy refuses the call.
    pub refused: usize,
    /// The cells whose values differ, in op and dtype order.
    pub cells: Vec<ValueCell>,
}

/// The fixed sample of element values of a dtype: zero and its negative, ±1, small values,
/// halfway values (`0.5`, `2.5`, `2049`, 2^24 + 1, 2^53 + 1: where rounding rules differ), the
/// extremes, the smallest normal and subnormal floats, infinities and NaN.
///
/// ```
/// let s = promote::analysis::sample(promote::DType::Int8);
/// assert_eq!(promote::kernel::value::format_array(s.view())[..4], ["0", "1", "-1", "2"]);
/// ```
pub fn sample(d: DType) -> Array {
    parse_array(d, &sample_texts(d)).expect("every sample value is a value of its dtype")
}

fn sample_texts(d: DType) -> Vec<String> {
    match d.kind() {
        Kind::Bool => vec!["False".to_string(), "True".to_string()],
        Kind::Unsigned | Kind::Signed => int_sample(d),
        Kind::Float => float_texts(d),
        Kind::Complex => complex_sample(d),
    }
}

fn int_sample(d: DType) -> Vec<String> {
    let (min, max) = d.int_range().expect("an integer dtype");
    let mut v: Vec<i128> = vec![0, 1, -1, 2, -2, 3, 7, -7, 100, max, max - 1, min, min + 1];
    v.extend([2049, 16_777_217, 9_007_199_254_740_993]);
    let mut seen = Vec::new();
    v.retain(|x| {
        (min..=max).contains(x) && !seen.contains(x) && {
            seen.push(*x);
            true
        }
    });
    v.iter().map(|x| x.to_string()).collect()
}

/// (the smallest normal, the smallest subnormal) of a float dtype or a complex one's parts.
fn tiny(d: DType) -> (f64, f64) {
    match d {
        DType::BFloat16 => (2f64.powi(-126), 2f64.powi(-133)),
        DType::Float16 => (2f64.powi(-14), 2f64.powi(-24)),
        DType::Float32 | DType::Complex64 => (2f64.powi(-126), 2f64.powi(-149)),
        _ => (f64::MIN_POSITIVE, 2f64.powi(-1074)),
    }
}

fn float_texts(d: DType) -> Vec<String> {
    let max = d.float_max().expect("a float dtype");
    let (normal, sub) = tiny(d);
    let mut v: Vec<String> = [
        "0.0", "-0.0", "1.0", "-1.0", "0.5", "-0.5", "1.5", "2.5", "-2.5",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    v.extend(["3.0", "0.1", "inf", "-inf", "nan"].map(String::from));
    v.extend([max, -max, normal, sub, -sub].map(|x| format!("{x:e}")));
    v
}

fn complex_sample(d: DType) -> Vec<String> {
    let parts = float_texts(d);
    // each part with 0, with 1 and with -2.5, both ways round, and a few whole pairs
    let mut v = Vec::new();
    for p in &parts {
        let p = p.trim_start_matches('+');
        let sign = |x: &str| if x.starts_with('-') { "" } else { "+" }.to_string();
        v.push(format!("({p}+0j)"));
        v.push(format!("(1{}{p}j)", sign(p)));
        v.push(format!("(-2.5{}{p}j)", sign(p)));
    }
    v.extend(["(3+4j)", "(-0-0j)", "(0.5-0.5j)"].map(String::from));
    v
}

/// Compare two policies' element values on every tensor · tensor cell of these ops, over the
/// dtypes both have that the typed kernels hold (the classic ones: `eval` refuses narrow plans).
///
/// ```
/// use promote::{analysis::value_diff, builtin, Op};
/// let d = value_diff(&*builtin("numpy").unwrap(), &*builtin("jax").unwrap(), &[Op::Add]);
/// assert_eq!(d.semantics, ("numpy", "xla-cpu"));
/// ```
pub fn value_diff(a: &dyn Policy, b: &dyn Policy, ops: &[Op]) -> ValueDiff {
    let both: Vec<DType> = a
        .dtypes()
        .iter()
        .copied()
        .filter(|d| d.is_classic() && b.dtypes().contains(d))
        .collect();
    let (sa, sb) = (a.semantics(), b.semantics());
    let mut r = ValueDiff {
        a: a.name().to_string(),
        b: b.name().to_string(),
        semantics: (sa.name, sb.name),
        compared: 0,
        other_dtype: 0,
        refused: 0,
        cells: Vec::new(),
    };
    for &op in ops {
        for call in tensor_calls(op, &both) {
            let (pa, pb) = match (a.resolve(&call), b.resolve(&call)) {
                (Ok(pa), Ok(pb)) => (pa, pb),
                _ => {
                    r.refused += 1;
                    continue;
                }
            };
            if pa.result != pb.result {
                r.other_dtype += 1;
                continue;
            }
            r.compared += 1;
            r.cells.extend(compare_cell(&call, pa.result, a, b));
        }
    }
    r
}

/// Every call of an op over strong tensors of these dtypes.
fn tensor_calls(op: Op, dtypes: &[DType]) -> Vec<Call> {
    let ops: Vec<Vec<Operand>> = if op.arity() == 1 {
        dtypes.iter().map(|&d| vec![Operand::tensor(d)]).collect()
    } else {
        let pair = |x: DType| {
            dtypes
                .iter()
                .map(move |&y| vec![Operand::tensor(x), Operand::tensor(y)])
        };
        dtypes.iter().flat_map(|&x| pair(x)).collect()
    };
    ops.into_iter()
        .filter_map(|o| Call::new(op, o, None).ok())
        .collect()
}

/// The input elements of a cell: every combination of the operands' samples.
fn inputs(call: &Call) -> Vec<Array> {
    let texts: Vec<(DType, Vec<String>)> = call
        .operands
        .iter()
        .map(|o| o.dtype().expect("a tensor operand"))
        .map(|d| (d, sample_texts(d)))
        .collect();
    let parse = |d: DType, t: Vec<&String>| parse_array(d, &t).expect("a sample value");
    match texts.as_slice() {
        [(d, x), (e, y)] => vec![
            parse(
                *d,
                x.iter().flat_map(|v| y.iter().map(move |_| v)).collect(),
            ),
            parse(*e, x.iter().flat_map(|_| y.iter()).collect()),
        ],
        _ => texts
            .iter()
            .map(|(d, x)| parse(*d, x.iter().collect()))
            .collect(),
    }
}

/// Each element's result as text (`!kind` where the policy refuses it), computed as `promote
/// eval` does ([`crate::kernel::eval::evaluate`]: the policy's plan and kernel semantics, its
/// inputs prepared as its framework reads them): the whole arrays at once where the op is
/// elementwise and nothing is refused, else element by element.
fn evaluate(p: &dyn Policy, call: &Call, xs: &[Array]) -> Vec<String> {
    let len = xs[0].len();
    let views: Vec<Option<View<'_>>> = xs.iter().map(|x| Some(x.view())).collect();
    if exec::result_len(call.op, &vec![len; xs.len()]).ok() == Some(len) {
        if let Ok(e) = eval::evaluate(p, call, &views) {
            return format_array(e.data.view());
        }
    }
    (0..len)
        .map(|i| {
            let one: Vec<_> = xs.iter().map(|x| Some(x.view().slice(i, i + 1))).collect();
            match eval::evaluate(p, call, &one) {
                Ok(e) => format_array(e.data.view()).swap_remove(0),
                Err(e) => format!("!{}", e.kind().name()),
            }
        })
        .collect()
}

/// The cell's values under both policies; `None` where every element agrees.
fn compare_cell(call: &Call, dtype: DType, a: &dyn Policy, b: &dyn Policy) -> Option<ValueCell> {
    let xs = inputs(call);
    let (va, vb) = (evaluate(a, call, &xs), evaluate(b, call, &xs));
    let differ: Vec<usize> = (0..va.len()).filter(|&i| va[i] != vb[i]).collect();
    let &i = differ.first()?;
    let texts: Vec<Vec<String>> = xs.iter().map(|x| format_array(x.view())).collect();
    Some(ValueCell {
        call: call.clone(),
        dtype,
        elements: va.len(),
        differ: differ.len(),
        first: ElementDifference {
            inputs: texts.iter().map(|t| t[i].clone()).collect(),
            a: va[i].clone(),
            b: vb[i].clone(),
        },
    })
}
impl ValueDiff {
    /// The report of `promote diff --values --format json`.
    ///
    /// ```
    /// use promote::{analysis::value_diff, builtin, Op};
    /// let numpy = builtin("numpy").unwrap();
    /// assert!(value_diff(&*numpy, &*numpy, &[Op::Add]).to_json().is_object());
    /// ```
    pub fn to_json(&self) -> Value {
        json!({
            "a": self.a,
            "b": self.b,
            "semantics": [self.semantics.0, self.semantics.1],
            "compared": self.compared,
            "other_dtype": self.other_dtype,
            "refused": self.refused,
            "differ": self.cells.len(),
            "cells": self.cells.iter().map(|c| json!({
                "call": c.call.to_string(),
                "dtype": c.dtype.name(),
                "elements": c.elements,
                "differ": c.differ,
                "first": {"inputs": c.first.inputs, "a": c.first.a, "b": c.first.b},
            })).collect::<Vec<_>>(),
        })
    }
}
