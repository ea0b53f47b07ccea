//! `promote check`: parse the arguments, load the policies (a policy file's error with its
//! line), take the library's [`Findings`] and render them as text, Markdown or JSON.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::check_report::report;
use super::render::{aligned, emit};
use crate::analysis::{check, Findings, Verdict};
use crate::error::PromoteError;
use crate::op::Op;
use crate::policy::{self, RulePolicy};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CheckFormat {
    /// A report for people.
    Text,
    /// The same as Markdown (headings and lists), for a README.
    Md,
    /// One JSON object per policy, one per line.
    Json,
}

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// A policy file (TOML, see policies/README.md).
    #[arg(conflicts_with_all = ["builtin", "all"], required_unless_present_any = ["builtin", "all"])]
    file: Option<PathBuf>,
    /// Check a built-in policy instead (`promote policies` lists them).
    #[arg(long, short = 'p', visible_alias = "policy", conflicts_with = "all")]
    builtin: Option<String>,
    /// Check every built-in policy, and end with a summary table.
    #[arg(long)]
    all: bool,
    /// The op whose calls are checked over tensors, 0-d tensors, weak tensors and Python scalars.
    #[arg(long, default_value = "add")]
    op: String,
    #[arg(long, value_enum, default_value = "text")]
    format: CheckFormat,
    /// Exit with status 1 unless the promotion table is a lattice and the op is associative
    /// and commutative over operands too.
    #[arg(long)]
    strict: bool,
}

fn yes_no(ok: bool) -> &'static str {
    if ok {
        "yes"
    } else {
        "no"
    }
}

/// A policy file error with the offending line and a caret under the column.
fn file_error(e: &PromoteError) -> String {
    match e {
        PromoteError::PolicyFile {
            file,
            line: 0,
            message,
            ..
        } => format!("{file}: error: {message}\n"),
        PromoteError::PolicyFile {
            file,
            line,
            column,
            message,
        } => {
            let mut s = format!("{file}:{line}:{column}: error: {message}\n");
            if let Some(text) = std::fs::read_to_string(file)
                .ok()
                .and_then(|t| t.lines().nth(line.saturating_sub(1)).map(str::to_string))
            {
                let pad = text
                    .chars()
                    .take(column.saturating_sub(1))
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect::<String>();
                s.push_str(&format!("{line:>5} | {text}\n      | {pad}^\n"));
            }
            s
        }
        e => format!("error: {e}\n"),
    }
}

/// The summary table of several policies.
pub(crate) fn summary(all: &[Findings]) -> String {
    let word = |v: Verdict| -> String {
        match v {
            Verdict::Lattice => "yes".into(),
            Verdict::JoinSemilattice => "join-semilattice".into(),
            Verdict::PartialLattice => "partial".into(),
            Verdict::NotALattice(_) => "no".into(),
        }
    };
    let mut rows = vec![[
        "policy".to_string(),
        "nodes".into(),
        "every pair joins".into(),
        "commutative".into(),
        "associative".into(),
        "lattice".into(),
        format!(
            "{}: tensor · tensor · tensor associative",
            all.first().map_or("add", |f| f.calls.op.name())
        ),
        format!(
            "{} over operands: non-associative triples",
            all.first().map_or("add", |f| f.calls.op.name())
        ),
        "grouping decides refusal".into(),
    ]];
    for f in all {
        let j = &f.join;
        let v = j.verdict();
        rows.push([
            f.name.clone(),
            j.len().to_string(),
            if j.missing.is_empty() {
                "yes".into()
            } else {
                format!("no ({} pairs)", j.missing.len())
            },
            yes_no(j.not_commutative.is_empty()).into(),
            if j.assoc_differ.is_empty() {
                "yes".into()
            } else {
                format!("no ({} triples)", j.assoc_differ.count)
            },
            word(v),
            format!(
                "{}{}",
                if f.tensors.assoc_differ == 0 {
                    "yes".to_string()
                } else {
                    format!("no ({} triples)", f.tensors.assoc_differ)
                },
                if f.tensors.refused == 0 {
                    String::new()
                } else {
                    format!(", {} pairs refused", f.tensors.refused)
                }
            ),
            format!("{} of {}", f.calls.assoc_differ.count, f.calls.triples),
            f.calls.assoc_one_sided.count.to_string(),
        ]);
    }
    aligned(&rows)
}

pub(crate) fn run(a: CheckArgs) -> Result<i32, PromoteError> {
    let op = Op::parse(&a.op)?;
    let mut policies: Vec<std::sync::Arc<RulePolicy>> = Vec::new();
    if a.all {
        for name in policy::BUILTIN {
            match policy::builtin(name) {
                Ok(p) => policies.push(p),
                Err(e) => {
                    eprint!("{}", file_error(&e));
                    return Ok(1);
                }
            }
        }
    } else if let Some(name) = &a.builtin {
        policies.push(policy::builtin(name)?);
    } else if let Some(file) = &a.file {
        match policy::load_file(file) {
            Ok(p) => policies.push(std::sync::Arc::new(p)),
            Err(e @ PromoteError::PolicyFile { .. }) => {
                eprint!("{}", file_error(&e));
                return Ok(1);
            }
            Err(e) => return Err(e),
        }
    }
    let findings: Vec<Findings> = policies.iter().map(|p| check(p, op)).collect();
    match a.format {
        CheckFormat::Json => {
            emit(
                &findings
                    .iter()
                    .map(|f| format!("{}\n", f.to_json()))
                    .collect::<String>(),
            );
        }
        CheckFormat::Text | CheckFormat::Md => {
            let md = a.format == CheckFormat::Md;
            let mut s: String = findings.iter().map(|f| report(f, md)).collect();
            if findings.len() > 1 {
                s.push_str(&summary(&findings));
            }
            emit(&s);
        }
    }
    Ok(if a.strict && !findings.iter().all(Findings::clean) {
        1
    } else {
        0
    })
}
