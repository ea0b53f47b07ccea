//! The explanation of one call (`promote explain`) as a value: the answer, each operand in
//! words, and the steps that decided it — each a structured [`Step`] (the corner rule's
//! `source` included) with its sentence — on the error path too. Its `Display` is the text
//! `promote explain` prints.
//!
//! ```
//! use promote::{analysis::explain, Step};
//! let torch = promote::builtin("torch").unwrap();
//! let e = explain(&torch, &"add int8 1.0".parse().unwrap());
//! assert_eq!(e.outcome.as_ref().unwrap().result, promote::DType::Float32);
//! assert!(matches!(e.steps[0].step, Step::Literal { .. }));
//! assert!(e.to_string().starts_with("add int8 1.0 gives float32 under torch"));
//! let refused = explain(&torch, &"add uint16 int8".parse().unwrap());
//! assert!(refused.outcome.is_err() && refused.to_string().contains("Why: "));
//! ```

use std::fmt;

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::Operand;
use crate::plan::{JoinSource, Plan, Step};
use crate::policy::{Policy, RulePolicy, Scheme};

/// One step and its sentence.
///
/// ```
/// use promote::{analysis::explain, builtin, Call};
/// let e = explain(&builtin("torch").unwrap(), &"add int8 1.0".parse::<Call>().unwrap());
/// assert!(e.steps.iter().all(|s| !s.words.is_empty()));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ExplainedStep {
    /// The step, as the resolver took it.
    pub step: Step,
    /// It in plain words (`In the promotion lattice, the least type above both i8 and f* is f*.`).
    pub words: String,
}

/// Why a policy answers a call as it does.
///
/// ```
/// use promote::{analysis::explain, builtin, Call};
/// let e = explain(&builtin("torch").unwrap(), &"add uint16 int8".parse::<Call>().unwrap());
/// assert!(e.outcome.is_err() && e.result.is_none());
/// assert!(e.to_string().contains("Why: "));
/// ```
#[derive(Clone, Debug)]
pub struct Explanation {
    /// The policy's name.
    pub policy: String,
    /// Its framework.
    pub framework: String,
    /// The autocast layer over the policy, if any (`torch-cpu-bf16 (torch.autocast(...))`).
    pub autocast: Option<String>,
    /// The call.
    pub call: Call,
    /// The plan, or the refusal.
    pub outcome: Result<Plan, PromoteError>,
    /// Each operand in the compact syntax and in words.
    pub operands: Vec<(String, String)>,
    /// The policy's priority categories in words, where the steps use them.
    pub categories: Option<String>,
    /// The steps, up to the plan or the refusal.
    pub steps: Vec<ExplainedStep>,
    /// The plan in words: the result, the casts and the compute dtype.
    pub result: Option<String>,
    /// The weak types the steps met, each with the dtype its results have.
    pub weak_types: Vec<String>,
}

/// Explain one call under one policy.
///
/// ```
/// use promote::{analysis::explain, builtin, Call, DType};
/// let e = explain(&builtin("torch").unwrap(), &"add int8 1.0".parse::<Call>().unwrap());
/// assert_eq!(e.outcome.as_ref().unwrap().result, DType::Float32);
/// assert_eq!(e.operands[1].1, "a Python float");
/// ```
pub fn explain(p: &RulePolicy, call: &Call) -> Explanation {
    explain_under(p, None, call)
}

/// Explain one call under one policy with an autocast layer over it (`promote explain
/// --autocast`): the autocast's step comes first, saying which list the op is on and where
/// that list comes from (its `source` in the autocast file), then the policy's steps.
///
/// ```
/// use promote::{analysis::explain_under, autocast::builtin_autocast, Step};
/// let torch = promote::builtin("torch").unwrap();
/// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
/// let e = explain_under(&torch, Some(&bf16), &"matmul float32 float32".parse().unwrap());
/// assert!(matches!(&e.steps[0].step, Step::Autocast { list, .. } if list == "lower_precision"));
/// assert!(e.steps[0].words.contains("aten/src/ATen/autocast_mode.cpp"));
/// assert!(e.to_string().starts_with("matmul float32 float32 gives bfloat16 under torch"));
/// ```
pub fn explain_under(
    p: &RulePolicy,
    layer: Option<&crate::autocast::Autocast>,
    call: &Call,
) -> Explanation {
    let traced = match layer {
        Some(l) => crate::autocast::resolve_traced(p, l, call),
        None => p.resolve_traced(call),
    };
    let steps: Vec<ExplainedStep> = traced
        .steps
        .iter()
        .map(|s| ExplainedStep {
            step: s.clone(),
            words: step_text(p, s),
        })
        .collect();
    let uses_categories = steps
        .iter()
        .any(|s| matches!(s.step, Step::Category(_) | Step::Value(_)));
    let ok = traced.outcome.is_ok();
    Explanation {
        policy: p.name.clone(),
        framework: p.framework.clone(),
        autocast: layer.map(|l| format!("{} ({})", l.name, l.description)),
        call: call.clone(),
        operands: call
            .operands
            .iter()
            .map(|o| (o.to_string(), describe(o)))
            .collect(),
        categories: categories_text(p).filter(|_| ok && uses_categories),
        result: traced.outcome.as_ref().ok().map(result_text),
        weak_types: if ok {
            weak_types(p, &traced.steps)
        } else {
            Vec::new()
        },
        steps,
        outcome: traced.outcome,
    }
}

/// The weak nodes the steps name, with the dtype their results have.
fn weak_types(p: &RulePolicy, steps: &[Step]) -> Vec<String> {
    p.nodes
        .iter()
        .filter(|n| {
            n.weak
                && steps
                    .iter()
                    .any(|st| st.to_string().contains(n.name.as_str()))
        })
        .map(|n| {
            format!(
                "{} (results there are {}, weakly typed)",
                n.name,
                p.canonical(n.dtype)
            )
        })
        .collect()
}

impl fmt::Display for Explanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = match &self.outcome {
            Ok(plan) => format!(
                "{} gives {}{}",
                self.call,
                plan.result,
                if plan.weak { ", weakly typed" } else { "" }
            ),
            Err(e) => format!("{} is refused ({})", self.call, e.kind().name()),
        };
        let with = match &self.autocast {
            Some(a) => format!(", autocast {a}"),
            None => String::new(),
        };
        writeln!(
            f,
            "{head} under {} ({}){with}.\n",
            self.policy, self.framework
        )?;
        let w = self.operands.iter().map(|o| o.0.chars().count()).max();
        let w = w.unwrap_or(0);
        for (text, words) in &self.operands {
            writeln!(f, "  {text:<w$}  {words}")?;
        }
        if let Some(out) = self.call.out {
            let o = format!("out={out}");
            writeln!(
                f,
                "  {o:<w$}  the result is written into an existing {out} tensor (in place)"
            )?;
        }
        writeln!(f)?;
        let numbered = |f: &mut fmt::Formatter<'_>| -> fmt::Result {
            for (i, st) in self.steps.iter().enumerate() {
                writeln!(f, "  {}. {}", i + 1, st.words)?;
            }
            Ok(())
        };
        match &self.outcome {
            Ok(_) => {
                writeln!(f, "Why:")?;
                if let Some(t) = &self.categories {
                    writeln!(f, "  {t}")?;
                }
                numbered(f)?;
                writeln!(f, "\nResult: {}", self.result.as_deref().unwrap_or(""))?;
                if !self.weak_types.is_empty() {
                    writeln!(f, "\nWeak types: {}. A weak type gives way to the other operand's dtype where it can (`int8 + 1` stays int8, `float16 + 1.0` stays float16); a weakly typed result keeps giving way in the next operation.", self.weak_types.join("; "))?;
                }
            }
            Err(e) => {
                if !self.steps.is_empty() {
                    writeln!(f, "Steps before the refusal:")?;
                    numbered(f)?;
                    writeln!(f)?;
                }
                writeln!(f, "Why: {e}")?;
            }
        }
        Ok(())
    }
}

/// `a` or `an` before a dtype's name.
fn article(d: DType) -> &'static str {
    if d.name().starts_with("int") {
        "an"
    } else {
        "a"
    }
}

/// An operand in words.
///
/// ```
/// use promote::{analysis::describe, Operand};
/// assert_eq!(describe(&"int8(5)".parse::<Operand>().unwrap()), "a 0-d int8 tensor holding 5");
/// ```
pub fn describe(o: &Operand) -> String {
    match o {
        Operand::Literal(l) => format!("a Python {}", l.kind().name()),
        Operand::Tensor {
            dtype,
            weak: true,
            zero_dim,
            ..
        } => format!(
            "a weakly typed {dtype} {}(JAX weak_type, TensorFlow WeakTensor)",
            if *zero_dim { "0-d tensor " } else { "tensor " }
        ),
        Operand::Tensor {
            dtype,
            zero_dim: true,
            value: Some(v),
            ..
        } => format!("a 0-d {dtype} tensor holding {v}"),
        Operand::Tensor {
            dtype,
            zero_dim: true,
            ..
        } => format!("a 0-d {dtype} tensor"),
        Operand::Tensor { dtype, .. } => {
            format!(
                "{} {dtype} tensor with one or more dimensions",
                article(*dtype)
            )
        }
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

/// The names of the policy's categories, highest first (`tensors with dimensions`, ...).
fn category_names(p: &RulePolicy) -> Vec<String> {
    let Scheme::Categories(c) = &p.scheme else {
        return Vec::new();
    };
    let names = [
        "tensors with dimensions",
        "0-d tensors",
        "weak tensors",
        "Python scalars",
    ];
    let mut cats: Vec<Vec<&str>> = vec![Vec::new(); c.count];
    for (class, cat) in c.category.iter().enumerate() {
        if let Some(k) = cat {
            cats[*k].push(names[class]);
        }
    }
    cats.iter().map(|v| v.join(" and ")).collect()
}

/// What the policy's categories are, for people.
fn categories_text(p: &RulePolicy) -> Option<String> {
    let Scheme::Categories(c) = &p.scheme else {
        return None;
    };
    let list = category_names(p);
    let lower = if c.lower_by_value {
        "a lower category of no higher kind still counts, by its value (the smallest dtype that holds it)"
    } else {
        "a lower category only matters when its kind is higher (bool < integer < float < complex)"
    };
    Some(format!(
        "{} sorts operands into priority categories: first {}; {lower}.",
        p.name,
        list.join(", then ")
    ))
}

/// One step in plain words, with the policy's names for its categories and framework.
pub(crate) fn step_text(p: &RulePolicy, s: &Step) -> String {
    let d = s.to_string();
    match s {
        Step::Literal { .. } => format!(
            "{}.",
            capitalize(
                &d.replace(" enters as ", " enters the promotion as ")
                    .replace("Python", "the Python")
            )
        ),
        Step::Canonical { .. } => format!("This mode has no such dtype: {d}."),
        Step::Weak(_) => format!("Weak typing: {d}."),
        Step::Join {
            source: JoinSource::Lattice,
            a,
            b,
            join,
        } => format!("In the promotion lattice, the least type above both {a} and {b} is {join}."),
        Step::Join { a, b, join, .. } => {
            format!("The promotion table's cell for {a} and {b} is {join}.")
        }
        Step::Category(_) => {
            let mut t = d;
            for (i, name) in category_names(p).iter().enumerate() {
                t = t.replace(&format!("category {} (", i + 1), &format!("the {name} ("));
            }
            // the category names are plural
            if t.starts_with("the ") {
                t = t
                    .replacen(") is of a higher kind", ") are of a higher kind", 1)
                    .replacen(") outranks ", ") outrank ", 1);
            }
            format!("{}.", capitalize(&t))
        }
        Step::Value(_) => format!("Value-based casting: {d}."),
        Step::OpRule { .. } => format!("The op's own rule: {d}."),
        Step::Out(_) => format!("Writing into out: {d}."),
        Step::Corner { .. } => format!("A special case of {}: {d}.", p.framework),
        Step::Autocast { detail, source, .. } => {
            format!("Autocast, before the promotion: {detail}. Source: {source}.")
        }
        _ => format!("{} ({}).", capitalize(&d), s.rule()),
    }
}

/// The plan in words: the result, the casts, the compute dtype.
fn result_text(plan: &Plan) -> String {
    let ins: Vec<&str> = plan.inputs.iter().map(|d| d.name()).collect();
    let same = plan.inputs.iter().all(|d| *d == plan.compute);
    let casts = if same {
        format!("both inputs are cast to {}", plan.compute)
    } else {
        format!("the inputs are cast to {}", ins.join(" and "))
    };
    let casts = if plan.inputs.len() == 1 {
        format!("the input is cast to {}", plan.inputs[0])
    } else {
        casts
    };
    format!(
        "{}{} — {}, the kernel computes in {}{}.",
        if plan.weak { "~" } else { "" },
        plan.result,
        casts,
        plan.compute,
        if plan.weak {
            "; the result is weakly typed"
        } else {
            ""
        }
    )
}
