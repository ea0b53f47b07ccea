//! `promote diff`: every cell where two policies disagree, grouped by operand kinds.

use std::sync::Arc;

use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use crate::analysis::{outcome, Outcome};
use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::{Call, Op};
use crate::operand::{Literal, Operand};
use crate::policy::{self, RulePolicy};

/// The Python scalars every diff tries: small and large ints of both signs (the edges of the
/// integer dtypes, where value-based rules and overflow checks differ), floats beyond float16 and
/// float32, and a complex.
pub(crate) const LITERALS: &[&str] = &[
    "True",
    "1",
    "-1",
    "200",
    "300",
    "-300",
    "70000",
    "2147483648",
    "9223372036854775808",
    "18446744073709551616",
    "1.0",
    "1e+39",
    "1j",
];

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
}

/// One group of cells: operand kinds and an op.
pub(crate) struct Group {
    pub kinds: &'static str,
    pub op: Op,
    pub cells: usize,
    /// (call, answer of a, answer of b)
    pub diffs: Vec<(Call, Outcome, Outcome)>,
}

/// A built-in policy by name, or a policy file (a path ending in `.toml`, or any existing file).
pub(crate) fn load(name: &str) -> Result<Arc<RulePolicy>, PromoteError> {
    if name.ends_with(".toml") || std::path::Path::new(name).is_file() {
        policy::load_file(std::path::Path::new(name)).map(Arc::new)
    } else {
        policy::builtin(name)
    }
}

fn has_weak(p: &RulePolicy) -> bool {
    p.nodes.iter().any(|n| n.weak)
}

/// The groups of calls compared for one op.
pub(crate) fn calls(a: &RulePolicy, b: &RulePolicy, op: Op) -> Vec<(&'static str, Vec<Call>)> {
    let ds: Vec<DType> = DType::ALL
        .iter()
        .copied()
        .filter(|d| a.has(*d) && b.has(*d))
        .collect();
    let lits: Vec<Literal> = LITERALS
        .iter()
        .map(|s| Literal::parse(s).expect("literal"))
        .collect();
    let t = |d: DType| Operand::tensor(d);
    let z = |d: DType| Operand::zero_dim(d, None);
    let w = |d: DType| Operand::weak(d);
    let l = |x: &Literal| Operand::Literal(x.clone());
    let pairs = |f: &dyn Fn(DType) -> Operand, g: &dyn Fn(DType) -> Operand| -> Vec<Vec<Operand>> {
        ds.iter()
            .flat_map(|&x| ds.iter().map(move |&y| vec![f(x), g(y)]))
            .collect()
    };
    let with_lits = |f: &dyn Fn(DType) -> Operand, first: bool| -> Vec<Vec<Operand>> {
        ds.iter()
            .flat_map(|&x| {
                lits.iter().map(move |y| {
                    if first {
                        vec![f(x), l(y)]
                    } else {
                        vec![l(y), f(x)]
                    }
                })
            })
            .collect()
    };
    let mut groups: Vec<(&'static str, Vec<Vec<Operand>>)> = Vec::new();
    if op.arity() == 1 {
        groups.push(("tensor", ds.iter().map(|&d| vec![t(d)]).collect()));
    } else if op == Op::Matmul {
        groups.push(("tensor · tensor", pairs(&t, &t)));
    } else {
        groups.push(("tensor · tensor", pairs(&t, &t)));
        groups.push(("tensor · 0-d tensor", pairs(&t, &z)));
        groups.push(("0-d tensor · tensor", pairs(&z, &t)));
        groups.push(("0-d tensor · 0-d tensor", pairs(&z, &z)));
        groups.push(("tensor · Python scalar", with_lits(&t, true)));
        groups.push(("Python scalar · tensor", with_lits(&t, false)));
        if has_weak(a) || has_weak(b) {
            groups.push(("tensor · weak tensor", pairs(&t, &w)));
            groups.push(("weak tensor · tensor", pairs(&w, &t)));
            groups.push(("weak tensor · weak tensor", pairs(&w, &w)));
            groups.push(("weak tensor · Python scalar", with_lits(&w, true)));
        }
    }
    groups
        .into_iter()
        .map(|(k, v)| {
            (
                k,
                v.into_iter()
                    .filter_map(|ops| Call::new(op, ops, None).ok())
                    .collect(),
            )
        })
        .collect()
}

/// Compare two policies on one op.
pub(crate) fn compare(a: &RulePolicy, b: &RulePolicy, op: Op, ignore_weak: bool) -> Vec<Group> {
    let norm = |o: Outcome| match o {
        Outcome::Value(d, _) if ignore_weak => Outcome::Value(d, false),
        o => o,
    };
    calls(a, b, op)
        .into_iter()
        .map(|(kinds, cs)| {
            let cells = cs.len();
            let diffs = cs
                .into_iter()
                .filter_map(|c| {
                    let (x, y) = (outcome(a, &c), outcome(b, &c));
                    (norm(x.clone()) != norm(y.clone())).then_some((c, x, y))
                })
                .collect();
            Group {
                kinds,
                op,
                cells,
                diffs,
            }
        })
        .collect()
}

fn ops_of(s: &str) -> Result<Vec<Op>, PromoteError> {
    if s == "all" {
        return Ok(Op::all());
    }
    s.split(',').map(|o| Op::parse(o.trim())).collect()
}

/// The Markdown report.
pub(crate) fn markdown(
    a: &RulePolicy,
    b: &RulePolicy,
    groups: &[Group],
    summary: bool,
    limit: usize,
) -> String {
    let total: usize = groups.iter().map(|g| g.cells).sum();
    let differ: usize = groups.iter().map(|g| g.diffs.len()).sum();
    let ops: Vec<&str> = {
        let mut v: Vec<&str> = groups.iter().map(|g| g.op.name()).collect();
        v.dedup();
        v
    };
    let mut s = format!("# {} vs {}: {}\n\n", a.name, b.name, ops.join(", "));
    if differ == 0 {
        s.push_str(&format!("They agree on all {total} cells.\n"));
    } else {
        s.push_str(&format!("{differ} of {total} cells differ.\n"));
    }
    let only = |x: &RulePolicy, y: &RulePolicy| {
        DType::ALL
            .iter()
            .filter(|d| x.has(**d) && !y.has(**d))
            .map(|d| d.name())
            .collect::<Vec<_>>()
    };
    for (x, y) in [(a, b), (b, a)] {
        let o = only(x, y);
        if !o.is_empty() {
            s.push_str(&format!(
                "Only {} has {} (left out).\n",
                x.name,
                o.join(", ")
            ));
        }
    }
    let mut rows = vec![vec![
        "op".to_string(),
        "operands".into(),
        "cells".into(),
        "differ".into(),
    ]];
    for g in groups {
        rows.push(vec![
            g.op.name().into(),
            g.kinds.into(),
            g.cells.to_string(),
            g.diffs.len().to_string(),
        ]);
    }
    s.push('\n');
    s.push_str(&super::table::aligned(&rows));
    if summary {
        return s;
    }
    for g in groups.iter().filter(|g| !g.diffs.is_empty()) {
        s.push_str(&format!(
            "\n## {}: {} ({} of {} cells differ)\n\n",
            g.op,
            g.kinds,
            g.diffs.len(),
            g.cells
        ));
        // a policy that has no such operands at all refuses every call as invalid: say so once
        let invalid = |side: usize| {
            g.cells == g.diffs.len()
                && g.diffs.iter().all(|d| {
                    let o = if side == 0 { &d.1 } else { &d.2 };
                    *o == Outcome::Error(crate::ErrorKind::Invalid)
                })
        };
        if let Some(side) = [0, 1].into_iter().find(|&s| invalid(s)) {
            let (none, other) = if side == 0 { (a, b) } else { (b, a) };
            let with = if g.kinds.contains("weak") {
                "weak"
            } else {
                "zero-dim"
            };
            s.push_str(&format!(
                "{} has no such operands: every call is invalid there. `promote table --policy {} --with {with}` shows {}'s answers.\n",
                none.name, other.name, other.name
            ));
            continue;
        }
        let mut patterns: Vec<((String, String), usize)> = Vec::new();
        for (_, x, y) in &g.diffs {
            let k = (x.to_string(), y.to_string());
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
        let mut rows = vec![vec!["call".to_string(), a.name.clone(), b.name.clone()]];
        let shown = if limit == 0 {
            g.diffs.len()
        } else {
            limit.min(g.diffs.len())
        };
        for (c, x, y) in &g.diffs[..shown] {
            rows.push(vec![format!("`{c}`"), x.to_string(), y.to_string()]);
        }
        s.push_str(&super::table::aligned(&rows));
        if shown < g.diffs.len() {
            s.push_str(&format!(
                "\n… and {} more (--limit 0 shows all).\n",
                g.diffs.len() - shown
            ));
        }
    }
    s.push_str("\n`~` a weakly typed result; `!kind` an error (no_promotion, unsupported, overflow, invalid). `promote explain --policy P CALL` says why.\n");
    s
}

/// The JSON report.
pub(crate) fn to_json(a: &RulePolicy, b: &RulePolicy, groups: &[Group]) -> Value {
    json!({
        "a": a.name,
        "b": b.name,
        "cells": groups.iter().map(|g| g.cells).sum::<usize>(),
        "differ": groups.iter().map(|g| g.diffs.len()).sum::<usize>(),
        "groups": groups.iter().map(|g| json!({
            "op": g.op.name(),
            "operands": g.kinds,
            "cells": g.cells,
            "differ": g.diffs.len(),
            "diffs": g.diffs.iter().map(|(c, x, y)| json!({"call": c.to_string(), "a": x.to_string(), "b": y.to_string()})).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
    })
}

pub(crate) fn run(args: DiffArgs) -> Result<i32, PromoteError> {
    let a = load(&args.a)?;
    let b = load(&args.b)?;
    let mut groups = Vec::new();
    for op in ops_of(&args.op)? {
        groups.extend(compare(&a, &b, op, args.ignore_weak));
    }
    super::table::emit(&match args.format {
        DiffFormat::Md => markdown(&a, &b, &groups, args.summary, args.limit),
        DiffFormat::Json => format!("{}\n", to_json(&a, &b, &groups)),
    });
    Ok(if groups.iter().any(|g| !g.diffs.is_empty()) {
        1
    } else {
        0
    })
}
