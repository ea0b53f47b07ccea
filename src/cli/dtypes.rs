//! `promote dtypes` and `promote policies`.

use clap::{Args, ValueEnum};
use serde_json::json;

use super::table::{aligned, emit};
use super::PolicyArg;
use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{Literal, Operand};
use crate::policy::{self, Node, RulePolicy};
use crate::Policy as _;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DtypesFormat {
    Md,
    Json,
}

#[derive(Args)]
pub(crate) struct DtypesArgs {
    #[command(flatten)]
    policy: PolicyArg,
    #[arg(long, value_enum, default_value = "md")]
    format: DtypesFormat,
}

/// What a dtype is in this policy: missing, an alias, a default.
fn note(p: &RulePolicy, d: DType) -> String {
    if !p.has(d) {
        return "not in this framework (queries get `unsupported`)".to_string();
    }
    if p.canonical(d) != d {
        return format!("becomes {} in this mode", p.canonical(d));
    }
    let mut v = Vec::new();
    if d == p.default_int {
        v.push("default int");
    }
    if d == p.default_float {
        v.push("default float");
    }
    if d == p.default_complex {
        v.push("default complex");
    }
    v.join(", ")
}

/// A float's layout and special values: `e4m3 finite-only nan`, `e5m2 nan inf`, `e4m3 nan
/// unsigned-zero`; empty for bool and integers.
fn predicates(d: DType) -> String {
    if !d.is_inexact() {
        return String::new();
    }
    let mut v = vec![format!("e{}m{}", d.exponent_bits(), d.mantissa_bits())];
    if d.finite_only() {
        v.push("finite-only".into());
    }
    if d.has_nan() {
        v.push("nan".into());
    }
    if d.has_inf() {
        v.push("inf".into());
    }
    if d.unsigned_zero() {
        v.push("unsigned-zero".into());
    }
    v.join(" ")
}

/// Where a Python literal enters the promotion, as the policy's plan says (`int64`, `i* (weak)`).
fn literal_entry(p: &RulePolicy, lit: &str) -> Option<String> {
    let call = Call::new(
        crate::Op::Add,
        vec![
            Operand::tensor(DType::Bool),
            Operand::Literal(Literal::parse(lit)?),
        ],
        None,
    )
    .ok()?;
    let plan = p.resolve(&call).ok()?;
    plan.steps
        .iter()
        .find(|s| s.rule() == "literal")
        .and_then(|s| {
            s.to_string()
                .split_once(" enters as ")
                .map(|x| x.1.to_string())
        })
}

pub(crate) fn run(a: DtypesArgs) -> Result<i32, PromoteError> {
    let p = a.policy.load()?;
    let mut weak: Vec<_> = p
        .nodes
        .iter()
        .skip(DType::COUNT)
        .filter(|n| n.weak && !n.outside)
        .collect();
    weak.sort_by_key(|n| p.canonical(n.dtype));
    let literals: Vec<(&str, &str, Option<String>)> = [
        ("bool", "True"),
        ("int", "1"),
        ("float", "1.0"),
        ("complex", "1j"),
    ]
    .iter()
    .map(|(k, v)| (*k, *v, literal_entry(&p, v)))
    .collect();
    let report = match a.format {
        DtypesFormat::Json => json_report(&p, &weak, &literals),
        DtypesFormat::Md => text_report(&p, &weak, &literals),
    };
    emit(&report);
    Ok(0)
}

/// A Python literal kind, its example and what it enters the promotion as.
type LiteralRow<'a> = (&'a str, &'a str, Option<String>);

fn json_report(p: &RulePolicy, weak: &[&Node], literals: &[LiteralRow<'_>]) -> String {
    let v = json!({
        "policy": p.name,
        "framework": p.framework,
        "dtypes": DType::ALL.iter().map(|d| json!({
            "name": d.name(),
            "short": d.short_name(),
            "kind": d.kind().name(),
            "bits": d.bits(),
            "itemsize": d.itemsize(),
            "exponent_bits": d.exponent_bits(),
            "mantissa_bits": d.mantissa_bits(),
            "finite_only": d.finite_only(),
            "has_nan": d.has_nan(),
            "has_inf": d.has_inf(),
            "unsigned_zero": d.unsigned_zero(),
            "spellings": d.format().map_or(&[][..], |f| f.spellings).iter().map(|s| json!({"framework": s.framework, "name": s.name})).collect::<Vec<_>>(),
            "aliases": d.aliases()[1..].to_vec(),
            "available": p.has(*d),
            "canonical": p.canonical(*d).name(),
            "note": note(p, *d),
        })).collect::<Vec<_>>(),
        "defaults": {"int": p.default_int.name(), "float": p.default_float.name(), "complex": p.default_complex.name()},
        "weak_nodes": weak.iter().map(|n| json!({"name": n.name, "dtype": p.canonical(n.dtype).name()})).collect::<Vec<_>>(),
        "literals": literals.iter().map(|(k, _, e)| (k.to_string(), json!(e))).collect::<serde_json::Map<_, _>>(),
    });
    format!("{v}\n")
}

fn text_report(p: &RulePolicy, weak: &[&Node], literals: &[LiteralRow<'_>]) -> String {
    let mut s = format!(
        "{} ({}): {} of the {} dtypes\n\n",
        p.name,
        p.framework,
        p.dtypes().len(),
        DType::COUNT
    );
    let mut rows = vec![vec![
        "dtype".to_string(),
        "short".into(),
        "kind".into(),
        "bits".into(),
        "format".into(),
        "also written".into(),
        "in this policy".into(),
    ]];
    for d in DType::ALL {
        rows.push(vec![
            d.name().to_string(),
            d.short_name().into(),
            d.kind().name().into(),
            d.bits().to_string(),
            predicates(d),
            d.aliases()[1..].join(" "),
            note(p, d),
        ]);
    }
    s.push_str(&aligned(&rows));
    if !weak.is_empty() {
        s.push_str("\nWeak types (a Python scalar or weakly typed tensor; a result there is weakly typed):\n\n");
        let mut rows = vec![vec!["node".to_string(), "result dtype".into()]];
        for n in weak {
            rows.push(vec![n.name.clone(), p.canonical(n.dtype).name().into()]);
        }
        s.push_str(&aligned(&rows));
    }
    s.push_str("\nPython scalars enter the promotion as:\n\n");
    let mut rows = vec![vec!["literal".to_string(), "enters as".into()]];
    for (k, v, e) in literals {
        rows.push(vec![
            format!("{k} ({v})"),
            e.clone()
                .unwrap_or_else(|| "(refused with a bool tensor)".into()),
        ]);
    }
    s.push_str(&aligned(&rows));
    s.push_str("\nAny spelling above is accepted wherever a dtype is expected, with or without a framework prefix (`torch.half`, `np.float32`).\n");
    s
}

pub(crate) fn policies() -> Result<i32, PromoteError> {
    let mut rows = vec![vec![
        "policy".to_string(),
        "framework".into(),
        "rules".into(),
        "settings (--set KEY=VALUE; this policy's value first)".into(),
    ]];
    for name in policy::BUILTIN {
        let p = policy::builtin(name)?;
        let settings = p.settings().into_iter();
        let settings = settings.map(|s| format!("{}={}", s.key, s.values.join("|")));
        rows.push(vec![
            name.to_string(),
            p.framework.clone(),
            p.provenance.clone(),
            settings.collect::<Vec<_>>().join(" "),
        ]);
    }
    emit(&aligned(&rows));
    Ok(0)
}
