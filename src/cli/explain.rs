//! `promote explain`: the chain of rules behind one call, in plain words.

use clap::Args;

use super::{AutocastArg, PolicyArg};
use crate::error::PromoteError;
use crate::op::{Call, Op};
use crate::operand::Operand;
use crate::plan::{JoinSource, Plan, Step};
use crate::policy::{self, RulePolicy, Scheme};
use crate::Policy;

#[derive(Args)]
pub(crate) struct ExplainArgs {
    #[command(flatten)]
    policy: PolicyArg,
    #[command(flatten)]
    autocast: AutocastArg,
    /// Explain under every built-in policy, after a one-line-per-policy summary.
    #[arg(long)]
    all: bool,
    /// The op (default add; the first word may name it instead: `explain divide int8 3`).
    #[arg(long)]
    op: Option<String>,
    /// Operands in the compact syntax (`int8 1.0`, `uint8(3)`, `~int32`), then optionally `out=DTYPE`.
    #[arg(required = true, allow_hyphen_values = true)]
    operands: Vec<String>,
}

/// `a` or `an` before a dtype's name.
fn a(d: crate::DType) -> &'static str {
    if d.name().starts_with("int") {
        "an"
    } else {
        "a"
    }
}

/// An operand in words.
pub(crate) fn describe(o: &Operand) -> String {
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
            format!("{} {dtype} tensor with one or more dimensions", a(*dtype))
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

/// One step in plain words.
fn step_text(p: &RulePolicy, s: &Step) -> String {
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
        Step::Autocast { .. } => format!("Mixed precision: {d}."),
        _ => format!("{} ({}).", capitalize(&d), s.rule()),
    }
}

/// The explanation of one call under one policy.
pub(crate) fn explain(p: &RulePolicy, call: &Call) -> String {
    explain_under(p, None, call)
}

/// The explanation of one call under one policy, with an autocast layer over it.
pub(crate) fn explain_under(
    p: &RulePolicy,
    layer: Option<&crate::autocast::Autocast>,
    call: &Call,
) -> String {
    let mut s = String::new();
    let traced = match layer {
        Some(l) => crate::autocast::resolve_traced(p, l, call),
        None => p.resolve_traced(call),
    };
    let r = traced.outcome;
    let head = match &r {
        Ok(plan) => format!(
            "{} gives {}{}",
            call,
            plan.result,
            if plan.weak { ", weakly typed" } else { "" }
        ),
        Err(e) => format!("{} is refused ({})", call, e.kind().name()),
    };
    let with = layer
        .map(|l| format!(", autocast {} ({})", l.name, l.description))
        .unwrap_or_default();
    s.push_str(&format!(
        "{head} under {} ({}){with}.\n\n",
        p.name, p.framework
    ));
    let w = call
        .operands
        .iter()
        .map(|o| o.to_string().chars().count())
        .max()
        .unwrap_or(0);
    for o in &call.operands {
        s.push_str(&format!("  {:<w$}  {}\n", o.to_string(), describe(o)));
    }
    if let Some(out) = call.out {
        s.push_str(&format!(
            "  {:<w$}  the result is written into an existing {out} tensor (in place)\n",
            format!("out={out}")
        ));
    }
    s.push('\n');
    match r {
        Ok(plan) => {
            s.push_str("Why:\n");
            let uses_categories = plan
                .steps
                .iter()
                .any(|st| matches!(st, Step::Category(_) | Step::Value(_)));
            if uses_categories {
                if let Some(t) = categories_text(p) {
                    s.push_str(&format!("  {t}\n"));
                }
            }
            for (i, st) in plan.steps.iter().enumerate() {
                s.push_str(&format!("  {}. {}\n", i + 1, step_text(p, st)));
            }
            s.push_str(&format!("\nResult: {}\n", result_text(&plan)));
            let weak_nodes: Vec<String> = p
                .nodes
                .iter()
                .filter(|n| {
                    n.weak
                        && plan
                            .steps
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
                .collect();
            if !weak_nodes.is_empty() {
                s.push_str(&format!(
                    "\nWeak types: {}. A weak type gives way to the other operand's dtype where it can (`int8 + 1` stays int8, `float16 + 1.0` stays float16); a weakly typed result keeps giving way in the next operation.\n",
                    weak_nodes.join("; ")
                ));
            }
        }
        Err(e) => {
            if !traced.steps.is_empty() {
                s.push_str("Steps before the refusal:\n");
                for (i, st) in traced.steps.iter().enumerate() {
                    s.push_str(&format!("  {}. {}\n", i + 1, step_text(p, st)));
                }
                s.push('\n');
            }
            s.push_str(&format!("Why: {e}\n"));
        }
    }
    s
}

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

fn call_of(a: &ExplainArgs) -> Result<Call, PromoteError> {
    let mut words = a.operands.clone();
    let op = match (&a.op, words.first().map(|w| Op::parse(w))) {
        (Some(op), _) => op.clone(),
        (None, Some(Ok(op))) => {
            words.remove(0);
            op.name().to_string()
        }
        (None, _) => "add".to_string(),
    };
    format!("{op} {}", words.join(" ")).parse()
}

pub(crate) fn run(a: ExplainArgs) -> Result<i32, PromoteError> {
    let call = call_of(&a)?;
    let layer = a.autocast.load()?;
    let resolve = |p: &RulePolicy| match &layer {
        Some(l) => crate::autocast::resolve(p, l, &call),
        None => p.resolve(&call),
    };
    if !a.all {
        let p = a.policy.load()?;
        super::table::emit(&explain_under(&p, layer.as_deref(), &call));
        return Ok(super::answer_status(resolve(&p).is_ok()));
    }
    let mut rows = vec![vec!["policy".to_string(), format!("{call}")]];
    let mut details = String::new();
    for name in policy::BUILTIN {
        let p = policy::builtin(name)?;
        let answer = match resolve(&p) {
            Ok(plan) => format!("{}{}", if plan.weak { "~" } else { "" }, plan.result),
            Err(e) => format!("!{}", e.kind().name()),
        };
        rows.push(vec![name.to_string(), answer]);
        details.push_str(&format!(
            "\n## {name}\n\n{}",
            explain_under(&p, layer.as_deref(), &call)
        ));
    }
    super::table::emit(&format!("{}{details}", super::table::aligned(&rows)));
    Ok(0)
}
