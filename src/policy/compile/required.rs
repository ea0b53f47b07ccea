//! Every missing required field of a policy file at once: serde stops at the first, so when it
//! reports one, this reads the file loosely and lists them all, each with where it belongs.

use toml::{Spanned, Table, Value};

use super::{line_col, Ctx};
use crate::error::PromoteError;

/// Required top-level fields (see [`super::super::spec::PolicySpec`]).
const TOP: [&str; 5] = ["name", "framework", "defaults", "combine", "out"];

/// Required fields of each table, by the table's name.
const IN_TABLE: [(&str, &[&str]); 5] = [
    ("defaults", &["int", "float", "complex"]),
    ("combine", &["scheme"]),
    ("out", &["casting"]),
    ("lattice", &["edges"]),
    ("table", &["cells"]),
];

/// Required fields of each entry of an array of tables (`[[ops]]`, `[[rules]]`).
const IN_ENTRY: [(&str, &[&str]); 2] = [("ops", &["ops"]), ("rules", &["ops", "at", "then"])];

/// When the file has missing required fields, one error listing them all; else `None`.
pub(crate) fn missing(ctx: &Ctx) -> Option<PromoteError> {
    let doc: Table = toml::from_str(ctx.src).ok()?;
    let spans: std::collections::BTreeMap<String, Spanned<Value>> = toml::from_str(ctx.src).ok()?;
    let mut found: Vec<(usize, String)> = TOP
        .iter()
        .filter(|k| !doc.contains_key(**k))
        .map(|k| (0, format!("`{k}` (1:1)")))
        .collect();
    let mut absent_in = |table: &Table, at: usize, fields: &[&str], label: &str| {
        let (l, c) = line_col(ctx.src, at);
        for f in fields.iter().filter(|f| !table.contains_key(**f)) {
            found.push((at, format!("`{f}` in {label} ({l}:{c})")));
        }
    };
    for (name, fields) in IN_TABLE {
        if let (Some(Value::Table(t)), Some(s)) = (doc.get(name), spans.get(name)) {
            absent_in(t, s.span().start, fields, &format!("[{name}]"));
        }
    }
    for (name, fields) in IN_ENTRY {
        if let Some(Value::Array(entries)) = doc.get(name) {
            let starts = entry_starts(ctx.src, name);
            for (i, e) in entries.iter().enumerate() {
                if let Value::Table(t) = e {
                    let at = starts.get(i).copied().unwrap_or(0);
                    absent_in(t, at, fields, &format!("[[{name}]] #{}", i + 1));
                }
            }
        }
    }
    if let (Some(Value::Table(nodes)), Some(s)) = (doc.get("nodes"), spans.get("nodes")) {
        for (node, v) in nodes {
            if let Value::Table(t) = v {
                absent_in(t, s.span().start, &["dtype"], &format!("node `{node}`"));
            }
        }
    }
    let (first, _) = found.first()?;
    let list: Vec<String> = found.iter().map(|(_, m)| m.clone()).collect();
    Some(ctx.err(
        *first..*first,
        format!(
            "missing required field{}: {}; add {} (see policies/README.md)",
            if list.len() == 1 { "" } else { "s" },
            list.join(", "),
            if list.len() == 1 { "it" } else { "them" },
        ),
    ))
}

/// Byte offsets of each `[[name]]` header, in order.
fn entry_starts(src: &str, name: &str) -> Vec<usize> {
    let header = format!("[[{name}]]");
    let mut at = 0;
    src.split_inclusive('\n')
        .filter_map(|line| {
            let start = at;
            at += line.len();
            (line.trim() == header).then_some(start)
        })
        .collect()
}
