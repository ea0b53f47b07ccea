//! `promote diff`: parse the arguments, compare with the library's [`diff()`] (and
//! [`value_diff()`] for `--values`), render Markdown or JSON.

use clap::{Args, ValueEnum};

use super::render::{aligned, emit};
use crate::analysis::{
    diff, load_policy, parse_ops, value_diff, Diff, DiffGroup, DiffOptions, Outcome, ValueDiff,
};
use crate::error::{ErrorKind, PromoteError};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum DiffFormat {
    /// Markdown: a summary, then one aligned table per group.
    Md,
    /// One JSON object.
    Json,
}

#[derive(Args)]
pub(crate) struct DiffArgs {
    /// The first policy: a built-in name or a policy file (`.toml`).
    a: String,
    /// The second policy.
    b: String,
    /// The op, several separated by commas, or `all`.
    #[arg(long, default_value = "add")]
    op: String,
    /// The entry point of both policies (`function`, `operator`, `tnp`); a side written
    /// `NAME:FORM` (`promote diff tf:function tf:operator`) names its own.
    #[arg(long)]
    form: Option<String>,
    #[arg(long, value_enum, default_value = "md")]
    format: DiffFormat,
    /// Count a result that only one policy marks weak as the same answer.
    #[arg(long)]
    ignore_weak: bool,
    /// Only the counts per group, not the cells.
    #[arg(long)]
    summary: bool,
    /// Show at most this many cells per group (0: all).
    #[arg(long, default_value_t = 0)]
    limit: usize,
    /// Compare element values instead of dtypes: every tensor · tensor cell where both policies
    /// give the same result dtype, on a fixed sample of edge values per dtype, computed with each
    /// policy's own kernel semantics.
    #[arg(long)]
    values: bool,
}

/// The Markdown report: a summary table, then one table per group that differs.
pub(crate) fn markdown(d: &Diff, summary: bool, limit: usize) -> String {
    let mut ops: Vec<&str> = d.groups.iter().map(|g| g.op.name()).collect();
    ops.dedup();
    let mut s = format!("# {} vs {}: {}\n\n", d.a, d.b, ops.join(", "));
    if d.differ() == 0 {
        s.push_str(&format!("They agree on all {} cells.\n", d.cells()));
    } else {
        s.push_str(&format!("{} of {} cells differ.\n", d.differ(), d.cells()));
    }
    for (x, only) in [(&d.a, &d.only_a), (&d.b, &d.only_b)] {
        if !only.is_empty() {
            let names: Vec<&str> = only.iter().map(|t| t.name()).collect();
            s.push_str(&format!("Only {x} has {} (left out).\n", names.join(", ")));
        }
    }
    let mut rows = vec![vec![
        "op".to_string(),
        "operands".into(),
        "cells".into(),
        "differ".into(),
    ]];
    for g in &d.groups {
        rows.push(vec![
            g.op.name().into(),
            g.kinds.into(),
            g.cells.to_string(),
            g.diffs.len().to_string(),
        ]);
    }
    s.push('\n');
    s.push_str(&aligned(&rows));
    if summary {
        return s;
    }
    for g in d.groups.iter().filter(|g| !g.diffs.is_empty()) {
        s.push_str(&group_markdown(d, g, limit));
    }
    s.push_str("\n`~` a weakly typed result; `!kind` an error (no_promotion, unsupported, overflow, invalid). `promote explain --policy P CALL` says why.\n");
    s
}

/// One group that differs: its most common changes and its calls.
fn group_markdown(d: &Diff, g: &DiffGroup, limit: usize) -> String {
    let mut s = format!(
        "\n## {}: {} ({} of {} cells differ)\n\n",
        g.op,
        g.kinds,
        g.diffs.len(),
        g.cells
    );
    // a policy that has no such operands at all refuses every call as invalid: say so once
    let invalid = |side: usize| {
        g.cells == g.diffs.len()
            && g.diffs.iter().all(|x| {
                let o = if side == 0 { &x.a } else { &x.b };
                *o == Outcome::Error(ErrorKind::Invalid)
            })
    };
    if let Some(side) = [0, 1].into_iter().find(|&s| invalid(s)) {
        let (none, other) = if side == 0 {
            (&d.a, &d.b)
        } else {
            (&d.b, &d.a)
        };
        let with = if g.kinds.contains("weak") {
            "weak"
        } else {
            "zero-dim"
        };
        s.push_str(&format!(
            "{none} has no such operands: every call is invalid there. `promote table --policy {other} --with {with}` shows {other}'s answers.\n"
        ));
        return s;
    }
    let mut patterns: Vec<((String, String), usize)> = Vec::new();
    for x in &g.diffs {
        let k = (x.a.to_string(), x.b.to_string());
        match patterns.iter_mut().find(|p| p.0 == k) {
            Some(p) => p.1 += 1,
            None => patterns.push((k, 1)),
        }
    }
    patterns.sort_by_key(|p| std::cmp::Reverse(p.1));
    if g.diffs.len() > 8 && patterns[0].1 > 1 {
        let top: Vec<String> = patterns
            .iter()
            .take(5)
            .map(|((x, y), n)| format!("{x} → {y} ({n})"))
            .collect();
        s.push_str(&format!("Most common changes: {}.\n\n", top.join(", ")));
    }
    let mut rows = vec![vec!["call".to_string(), d.a.clone(), d.b.clone()]];
    let shown = if limit == 0 {
        g.diffs.len()
    } else {
        limit.min(g.diffs.len())
    };
    for x in &g.diffs[..shown] {
        rows.push(vec![
            format!("`{}`", x.call),
            x.a.to_string(),
            x.b.to_string(),
        ]);
    }
    s.push_str(&aligned(&rows));
    if shown < g.diffs.len() {
        s.push_str(&format!(
            "\n… and {} more (--limit 0 shows all).\n",
            g.diffs.len() - shown
        ));
    }
    s
}

/// The Markdown report of `--values`: the counts, then one row per cell whose values differ.
pub(crate) fn values_markdown(d: &ValueDiff, summary: bool, limit: usize) -> String {
    let mut s = format!(
        "# {} vs {}: element values ({} vs {} kernel semantics)\n\n",
        d.a, d.b, d.semantics.0, d.semantics.1
    );
    s.push_str(&format!(
        "{} of {} tensor · tensor cells compute different values on the sample (left out: {} with different dtypes, {} refused by either policy; plain `promote diff` shows those).\n",
        d.cells.len(),
        d.compared,
        d.other_dtype,
        d.refused
    ));
    if summary || d.cells.is_empty() {
        return s;
    }
    let mut rows = vec![vec![
        "call".to_string(),
        "dtype".into(),
        "elements differ".into(),
        "first: inputs".into(),
        d.a.clone(),
        d.b.clone(),
    ]];
    let shown = if limit == 0 {
        d.cells.len()
    } else {
        limit.min(d.cells.len())
    };
    for c in &d.cells[..shown] {
        rows.push(vec![
            format!("`{}`", c.call),
            c.dtype.name().into(),
            format!("{} of {}", c.differ, c.elements),
            c.first.inputs.join(", "),
            c.first.a.clone(),
            c.first.b.clone(),
        ]);
    }
    s.push('\n');
    s.push_str(&aligned(&rows));
    if shown < d.cells.len() {
        s.push_str(&format!(
            "\n… and {} more (--limit 0 shows all).\n",
            d.cells.len() - shown
        ));
    }
    s
}

pub(crate) fn run(args: DiffArgs) -> Result<i32, PromoteError> {
    let side = |name: &String| match &args.form {
        Some(f) if !name.contains(':') => load_policy(&format!("{name}:{f}")),
        _ => load_policy(name),
    };
    let a = side(&args.a)?;
    let b = side(&args.b)?;
    let options = DiffOptions {
        ops: parse_ops(&args.op)?,
        ignore_weak: args.ignore_weak,
    };
    if args.values {
        let d = value_diff(&*a, &*b, &options.ops);
        emit(&match args.format {
            DiffFormat::Md => values_markdown(&d, args.summary, args.limit),
            DiffFormat::Json => format!("{}\n", d.to_json()),
        });
        return Ok(if d.cells.is_empty() { 0 } else { 1 });
    }
    let d = diff(&a, &b, &options);
    emit(&match args.format {
        DiffFormat::Md => markdown(&d, args.summary, args.limit),
        DiffFormat::Json => format!("{}\n", d.to_json()),
    });
    Ok(if d.differ() > 0 { 1 } else { 0 })
}
