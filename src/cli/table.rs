//! `promote table`: a policy's result table, laid out and named as the frameworks' docs print it.

use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use super::PolicyArg;
use crate::analysis::Outcome;
use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::{Call, Op};
use crate::operand::{Literal, Operand};
use crate::policy::RulePolicy;
use crate::Policy as _;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum With {
    /// Tensor with tensor.
    Tensors,
    /// Tensor with Python scalars (True, 1, 1.0, 1j; or --literals).
    Scalars,
    /// Tensor with 0-d tensors.
    ZeroDim,
    /// Tensor with weakly typed tensors.
    Weak,
    /// Every node of the policy, rows and columns: the dtypes and the weak types (JAX's i*,
    /// TensorFlow's i32*), as the JAX and TensorFlow docs print their tables.
    Nodes,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Format {
    /// An aligned Markdown table.
    Md,
    Csv,
    /// Stable JSON: labels, and every cell's dtype, weakness or error.
    Json,
    /// A standalone HTML page.
    Html,
}

/// How dtypes are named and ordered.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum, Debug)]
pub(crate) enum Style {
    /// The style of the policy's framework docs: paddle for paddle, tf for tf-*, jax for jax*, else plain.
    Auto,
    /// Short names (b1, u8, i32, bf16, c64) in the spec's order; weak results as ~i32.
    Plain,
    /// Paddle's guide: bool, floats first in the tensor table, `+/-/*` in the corner.
    Paddle,
    /// TensorFlow's guide: b, u8 ..., weak types as i32*, f32*, c128*.
    Tf,
    /// JAX's docs: b1, u8 ..., weak types as i*, f*, c*.
    Jax,
    /// Full names (int8, float32), weak results as ~int32.
    Full,
}

#[derive(Args)]
pub(crate) struct TableArgs {
    #[command(flatten)]
    policy: PolicyArg,
    /// The op, or `promote`: the promotion alone, before any op rule (the join table, as the
    /// lattice tables of JAX's and TensorFlow's docs show it).
    #[arg(long, default_value = "add")]
    op: String,
    /// What the columns are (the rows are always tensors of each dtype, or every node with `nodes`).
    #[arg(long, value_enum, default_value = "tensors")]
    with: With,
    #[arg(long, value_enum, default_value = "md")]
    format: Format,
    /// Naming and order of the dtypes.
    #[arg(long, value_enum, default_value = "auto")]
    style: Style,
    /// Mark the cells where another policy answers differently (TensorFlow's guide marks the
    /// cells of its ALL table that SAFE forbids: `--policy tf-all --mark tf-safe`); a built-in
    /// name or a policy file.
    #[arg(long, value_name = "POLICY")]
    mark: Option<String>,
    /// The Python scalars of `--with scalars`, comma-separated as repr writes them.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "True,1,1.0,1j",
        allow_hyphen_values = true
    )]
    literals: Vec<String>,
}

/// One cell: what the policy answers, and how the style writes it.
#[derive(Clone, Debug)]
pub(crate) struct Cell {
    pub outcome: Outcome,
    /// Where the op refuses the promoted dtype (`unsupported`): that dtype.
    pub promoted: Option<DType>,
    pub text: String,
}

impl Cell {
    fn new(p: &RulePolicy, style: Style, (outcome, promoted): (Outcome, Option<DType>)) -> Cell {
        let text = match (&outcome, promoted) {
            (Outcome::Error(crate::ErrorKind::Unsupported), Some(d)) => {
                format!("{}†", style.dtype(d))
            }
            _ => style.outcome(p, &outcome),
        };
        Cell {
            outcome,
            promoted,
            text,
        }
    }
}

/// A computed table.
pub(crate) struct Grid {
    pub policy: String,
    pub framework: String,
    pub op: TableOp,
    pub title: String,
    pub corner: String,
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    pub row_operands: Vec<Operand>,
    pub col_operands: Vec<Operand>,
    pub cells: Vec<Vec<Cell>>,
    /// The other policy and, per cell, its different answer.
    pub mark: Option<(String, Vec<Vec<Option<Cell>>>)>,
    pub legend: Vec<String>,
}

impl Style {
    /// The style `auto` stands for with this policy.
    pub(crate) fn resolve(self, policy: &str) -> Style {
        match self {
            Style::Auto if policy.starts_with("paddle") => Style::Paddle,
            Style::Auto if policy.starts_with("tf") => Style::Tf,
            Style::Auto if policy.starts_with("jax") => Style::Jax,
            Style::Auto => Style::Plain,
            s => s,
        }
    }

    /// A dtype's name in this style.
    pub(crate) fn dtype(self, d: DType) -> String {
        match (self, d) {
            (Style::Full, _) => d.name().into(),
            (Style::Paddle, DType::Bool) => "bool".into(),
            (Style::Tf, DType::Bool) => "b".into(),
            _ => d.short_name().into(),
        }
    }

    /// A weakly typed dtype's name in this style (`policy` names its weak nodes).
    pub(crate) fn weak(self, p: &RulePolicy, d: DType) -> String {
        match self {
            Style::Tf => format!("{}*", self.dtype(d)),
            Style::Full | Style::Paddle => format!("~{}", self.dtype(d)),
            _ => p
                .nodes
                .iter()
                .skip(DType::COUNT)
                .find(|n| n.weak && p.canonical(n.dtype) == d)
                .map_or_else(|| format!("~{}", self.dtype(d)), |n| n.name.clone()),
        }
    }

    /// An answer in this style: `i16`, `i32*`, `-` (no promotion), `!` (unsupported), `OF` (overflow),
    /// `V` (refused for these values).
    pub(crate) fn outcome(self, p: &RulePolicy, o: &Outcome) -> String {
        match o {
            Outcome::Value(d, false) => self.dtype(*d),
            Outcome::Value(d, true) => self.weak(p, *d),
            Outcome::Error(k) => match k {
                crate::ErrorKind::NoPromotion => "-".into(),
                crate::ErrorKind::Unsupported => "!".into(),
                crate::ErrorKind::Overflow => "OF".into(),
                crate::ErrorKind::Value => "V".into(),
                crate::ErrorKind::Invalid => "?".into(),
            },
            Outcome::Python(k) => k.name().into(),
        }
    }

    /// The dtypes as rows, in this style's order.
    fn order(self, with: With) -> Vec<DType> {
        use DType::*;
        match (self, with) {
            (Style::Paddle, With::Tensors) => vec![
                BFloat16, Float16, Float32, Float64, Bool, UInt8, UInt16, UInt32, UInt64, Int8,
                Int16, Int32, Int64, Complex64, Complex128,
            ],
            (Style::Paddle, _) => vec![
                Bool, UInt8, UInt16, UInt32, UInt64, Int8, Int16, Int32, Int64, BFloat16, Float16,
                Float32, Float64, Complex64, Complex128,
            ],
            _ => DType::ALL.to_vec(),
        }
    }
}

/// The dtypes of a policy's weak nodes (JAX's i*, f*, c*), canonical, in dtype order.
pub(crate) fn weak_dtypes(p: &RulePolicy) -> Vec<DType> {
    let mut ds: Vec<DType> = p
        .nodes
        .iter()
        .skip(DType::COUNT)
        .filter(|n| n.weak)
        .map(|n| p.canonical(n.dtype))
        .collect();
    ds.sort();
    ds.dedup();
    ds
}

/// Write to standard output; a closed pipe (`| head`) ends the output quietly.
pub(crate) fn emit(text: &str) {
    super::emit(text)
}

fn literal_label(style: Style, l: &Literal, all: &[Literal]) -> String {
    // Paddle's guide heads its columns by kind; that works while each kind appears once
    let unique = all.iter().filter(|m| m.kind() == l.kind()).count() == 1;
    if style == Style::Paddle && unique {
        l.kind().name().into()
    } else {
        l.to_string()
    }
}

/// What a table's cells answer: an op's result, or the promotion alone (`--op promote`: the
/// policy's join table, before any op rule, as the lattice tables of JAX's and TensorFlow's docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TableOp {
    Call(Op),
    Promote,
}

impl TableOp {
    pub(crate) fn parse(s: &str) -> Result<TableOp, PromoteError> {
        if s == "promote" {
            Ok(TableOp::Promote)
        } else {
            Op::parse(s).map(TableOp::Call)
        }
    }
    pub(crate) fn name(self) -> &'static str {
        match self {
            TableOp::Call(op) => op.name(),
            TableOp::Promote => "promote",
        }
    }
    fn arity(self) -> usize {
        match self {
            TableOp::Call(op) => op.arity(),
            TableOp::Promote => 2,
        }
    }
}

impl std::fmt::Display for TableOp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The promotion alone of two tensors (strong or weak), through the policy's join table.
fn promotion(p: &RulePolicy, a: &Operand, b: &Operand) -> Outcome {
    let node = |o: &Operand| -> Option<usize> {
        match o {
            Operand::Tensor {
                dtype, weak: false, ..
            } => Some(p.canonical(*dtype).index()),
            Operand::Tensor {
                dtype, weak: true, ..
            } => p
                .nodes
                .iter()
                .position(|n| n.weak && !n.outside && p.canonical(n.dtype) == *dtype),
            Operand::Literal(_) => None,
        }
    };
    match (node(a), node(b)) {
        (Some(x), Some(y)) => match p.join.join(x, y) {
            None => Outcome::Error(crate::ErrorKind::NoPromotion),
            Some(k) if p.nodes[k].outside => Outcome::Error(crate::ErrorKind::Unsupported),
            Some(k) => Outcome::Value(p.canonical(p.nodes[k].dtype), p.nodes[k].weak),
        },
        _ => Outcome::Error(crate::ErrorKind::Invalid),
    }
}

/// One cell's answer: the op over row and column (the row alone for a one-operand op).
/// One cell's answer: the op over row and column (the row alone for a one-operand op), and
/// where the op refuses a promoted dtype, that dtype.
fn answer(p: &RulePolicy, op: TableOp, r: &Operand, c: &Operand) -> (Outcome, Option<DType>) {
    match op {
        TableOp::Promote => (promotion(p, r, c), None),
        TableOp::Call(op) => {
            let ops = if op.arity() == 1 {
                vec![r.clone()]
            } else {
                vec![r.clone(), c.clone()]
            };
            let Ok(call) = Call::new(op, ops, None) else {
                return (Outcome::Error(crate::ErrorKind::Invalid), None);
            };
            match p.result(&call) {
                Ok((d, weak)) => (Outcome::Value(d, weak), None),
                Err(e) => {
                    let promoted = match &e {
                        PromoteError::Unsupported { dtype, .. } => DType::parse(dtype).ok(),
                        _ => None,
                    };
                    (Outcome::Error(e.kind()), promoted)
                }
            }
        }
    }
}

/// Operands with their labels.
type Labeled = Vec<(String, Operand)>;

/// Compute the table of a policy.
pub(crate) fn grid(
    p: &RulePolicy,
    op: TableOp,
    with: With,
    style: Style,
    literals: &[Literal],
) -> Grid {
    let style = style.resolve(&p.name);
    let dtypes: Vec<DType> = style
        .order(with)
        .into_iter()
        .filter(|d| p.has(*d))
        .collect();
    let tensors: Vec<(String, Operand)> = dtypes
        .iter()
        .map(|d| (style.dtype(*d), Operand::tensor(*d)))
        .collect();
    let weak_nodes: Vec<(String, Operand)> = weak_dtypes(p)
        .into_iter()
        .map(|d| (style.weak(p, d), Operand::weak(d)))
        .collect();
    let (rows, cols): (Labeled, Labeled) = match with {
        With::Tensors => (tensors.clone(), tensors),
        With::ZeroDim => (
            tensors,
            dtypes
                .iter()
                .map(|d| {
                    (
                        format!("{}()", style.dtype(*d)),
                        Operand::zero_dim(*d, None),
                    )
                })
                .collect(),
        ),
        With::Weak => (
            tensors,
            dtypes
                .iter()
                .map(|d| (style.weak(p, *d), Operand::weak(*d)))
                .collect(),
        ),
        With::Scalars => (
            tensors,
            literals
                .iter()
                .map(|l| {
                    (
                        literal_label(style, l, literals),
                        Operand::Literal(l.clone()),
                    )
                })
                .collect(),
        ),
        With::Nodes => {
            let mut all = tensors;
            all.extend(weak_nodes.iter().cloned());
            (all.clone(), all)
        }
    };
    // a one-operand op (sum) has one column: its result
    let cols: Labeled = if op.arity() == 1 {
        vec![("result".to_string(), Operand::tensor(DType::Bool))]
    } else {
        cols
    };
    let cells: Vec<Vec<Cell>> = rows
        .iter()
        .map(|(_, r)| {
            cols.iter()
                .map(|(_, c)| Cell::new(p, style, answer(p, op, r, c)))
                .collect()
        })
        .collect();
    let what = match with {
        _ if op.arity() == 1 => "the result (column)",
        With::Tensors => "a tensor (column)",
        With::Scalars => "a Python scalar (column)",
        With::ZeroDim => "a 0-d tensor (column)",
        With::Weak => "a weakly typed tensor (column)",
        With::Nodes => "each dtype and weak type (column)",
    };
    let corner = match style {
        Style::Paddle if matches!(op, TableOp::Call(Op::Add | Op::Subtract | Op::Multiply)) => {
            "+/-/*".to_string()
        }
        _ => op.name().to_string(),
    };
    let shown = |t: &str| cells.iter().flatten().any(|c| c.text == t);
    let mut legend: Vec<String> = [
        ("-", "`-` no implicit promotion (an error)"),
        (
            "!",
            if op == TableOp::Promote {
                "`!` a dtype outside the 15 (such as PyTorch's complex32)"
            } else {
                "`!` the op does not support the dtype"
            },
        ),
        ("OF", "`OF` the scalar overflows"),
    ]
    .into_iter()
    .filter(|(t, _)| shown(t))
    .map(|(_, l)| l.to_string())
    .collect();
    if cells.iter().flatten().any(|c| c.promoted.is_some()) {
        legend.push("`†` after a dtype: the operands promote to it, but the op has no kernel for it (an `unsupported` error)".into());
    }
    if cells
        .iter()
        .flatten()
        .any(|c: &Cell| c.outcome == Outcome::Error(crate::ErrorKind::Invalid))
    {
        legend.push("`?` not a valid call (such as matmul of a scalar, or an operand kind the framework does not have)".into());
    }
    let aliases: Vec<String> = dtypes
        .iter()
        .filter(|d| p.canonical(**d) != **d)
        .map(|d| format!("{} is {}", style.dtype(*d), style.dtype(p.canonical(*d))))
        .collect();
    if !aliases.is_empty() {
        legend.push(format!("in this mode {}", aliases.join(", ")));
    }
    let any_weak = cells
        .iter()
        .flatten()
        .any(|c| matches!(c.outcome, Outcome::Value(_, true)));
    if style == Style::Tf && any_weak {
        legend.insert(
            0,
            "`*` a weakly typed result (i32* is a Python int or weak int32)".into(),
        );
    } else if any_weak {
        legend.insert(
            0,
            format!(
                "{} a weakly typed result",
                weak_nodes
                    .iter()
                    .map(|(l, _)| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        );
    }
    Grid {
        policy: p.name.clone(),
        framework: p.framework.clone(),
        op,
        title: format!(
            "{} ({}): {} of a {} (row) with {}",
            p.name,
            p.framework,
            if op == TableOp::Promote {
                "the promotion"
            } else {
                op.name()
            },
            if with == With::Nodes {
                "dtype or weak type"
            } else {
                "tensor"
            },
            what
        )
        .replace(" with the result (column)", ""),
        corner,
        rows: rows.iter().map(|r| r.0.clone()).collect(),
        cols: cols.iter().map(|c| c.0.clone()).collect(),
        row_operands: rows.into_iter().map(|r| r.1).collect(),
        col_operands: cols.into_iter().map(|c| c.1).collect(),
        cells,
        mark: None,
        legend,
    }
}

/// Mark the cells where `other` answers differently.
pub(crate) fn mark(g: &mut Grid, other: &RulePolicy, style: Style) {
    let style = style.resolve(&g.policy);
    let marks: Vec<Vec<Option<Cell>>> = g
        .row_operands
        .iter()
        .zip(&g.cells)
        .map(|(r, row)| {
            g.col_operands
                .iter()
                .zip(row)
                .map(|(c, mine)| {
                    let o = answer(other, g.op, r, c);
                    (o.0 != mine.outcome).then(|| Cell::new(other, style, o))
                })
                .collect()
        })
        .collect();
    let refusals = marks
        .iter()
        .flatten()
        .flatten()
        .all(|c| matches!(c.outcome, Outcome::Error(_)));
    g.legend.push(if refusals {
        format!("**bold**: {} refuses this cell", other.name)
    } else {
        format!("**bold**: {} answers differently", other.name)
    });
    g.mark = Some((other.name.clone(), marks));
}

fn marked(g: &Grid, r: usize, c: usize) -> Option<&Cell> {
    g.mark.as_ref().and_then(|(_, m)| m[r][c].as_ref())
}

/// An aligned Markdown table of rows of text, the first row the header.
pub(crate) fn aligned<R: AsRef<[String]>>(rows: &[R]) -> String {
    aligned_with(rows, false)
}

fn aligned_with<R: AsRef<[String]>>(rows: &[R], centered: bool) -> String {
    let ncol = rows.iter().map(|r| r.as_ref().len()).max().unwrap_or(0);
    let width: Vec<usize> = (0..ncol)
        .map(|i| {
            rows.iter()
                .filter_map(|r| r.as_ref().get(i))
                .map(|s| s.chars().count())
                .max()
                .unwrap_or(0)
                .max(3)
        })
        .collect();
    let pad = |s: &str, w: usize| format!("{s}{}", " ".repeat(w - s.chars().count()));
    let mut out = String::new();
    for (k, r) in rows.iter().enumerate() {
        let cells: Vec<String> = (0..ncol)
            .map(|i| pad(r.as_ref().get(i).map_or("", |s| s.as_str()), width[i]))
            .collect();
        out.push_str(&format!("| {} |\n", cells.join(" | ")));
        if k == 0 {
            let rule: Vec<String> = width
                .iter()
                .map(|&w| {
                    if centered {
                        format!(":{}:", "-".repeat(w))
                    } else {
                        "-".repeat(w + 2)
                    }
                })
                .collect();
            out.push_str(&format!("|{}|\n", rule.join("|")));
        }
    }
    out
}

pub(crate) fn markdown(g: &Grid) -> String {
    let mut rows = vec![std::iter::once(g.corner.clone())
        .chain(g.cols.iter().cloned())
        .collect::<Vec<_>>()];
    for (i, (r, row)) in g.rows.iter().zip(&g.cells).enumerate() {
        let mut line = vec![r.clone()];
        for (j, c) in row.iter().enumerate() {
            line.push(if marked(g, i, j).is_some() {
                format!("**{}**", c.text)
            } else {
                c.text.clone()
            });
        }
        rows.push(line);
    }
    let legend = if g.legend.is_empty() {
        String::new()
    } else {
        format!("\n{}.\n", g.legend.join(", "))
    };
    format!("{}\n\n{}{legend}", g.title, aligned_with(&rows, true))
}

pub(crate) fn csv(g: &Grid) -> String {
    let esc = |s: &str| {
        if s.contains([',', '"']) {
            format!("\"{}\"", s.replace('"', "\"\""))
        } else {
            s.to_string()
        }
    };
    let mut s = format!(
        "{},{}\n",
        esc(&g.corner),
        g.cols.iter().map(|c| esc(c)).collect::<Vec<_>>().join(",")
    );
    for (i, (r, row)) in g.rows.iter().zip(&g.cells).enumerate() {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(j, c)| {
                esc(&format!(
                    "{}{}",
                    c.text,
                    if marked(g, i, j).is_some() { "†" } else { "" }
                ))
            })
            .collect();
        s.push_str(&format!("{},{}\n", esc(r), cells.join(",")));
    }
    s
}

fn cell_json(c: &Cell) -> Value {
    match &c.outcome {
        Outcome::Value(d, w) => json!({"text": c.text, "dtype": d.name(), "weak": w}),
        Outcome::Error(k) => match c.promoted {
            Some(d) => json!({"text": c.text, "error": k.name(), "promoted": d.name()}),
            None => json!({"text": c.text, "error": k.name()}),
        },
        Outcome::Python(k) => json!({"text": c.text, "python": k.name()}),
    }
}

pub(crate) fn to_json(g: &Grid) -> Value {
    let mut v = json!({
        "policy": g.policy,
        "framework": g.framework,
        "op": g.op.name(),
        "corner": g.corner,
        "rows": g.rows,
        "cols": g.cols,
        "row_operands": g.row_operands.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
        "col_operands": g.col_operands.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
        "cells": g.cells.iter().map(|r| r.iter().map(cell_json).collect::<Vec<_>>()).collect::<Vec<_>>(),
    });
    if let Some((name, m)) = &g.mark {
        v["mark"] = json!({
            "policy": name,
            "cells": m.iter().map(|r| r.iter().map(|c| c.as_ref().map_or(Value::Null, cell_json)).collect::<Vec<_>>()).collect::<Vec<_>>(),
        });
    }
    v
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn kind_class(o: &Outcome) -> &'static str {
    match o {
        Outcome::Value(d, _) => match d.kind() {
            crate::Kind::Bool => "k-bool",
            crate::Kind::Unsigned => "k-uint",
            crate::Kind::Signed => "k-int",
            crate::Kind::Float => "k-float",
            crate::Kind::Complex => "k-complex",
        },
        Outcome::Error(_) => "k-err",
        Outcome::Python(_) => "k-py",
    }
}

/// Markdown's backticks and bold in a legend line, as HTML.
fn legend_html(s: &str) -> String {
    let mut out = String::new();
    let e = html_escape(s);
    let mut code = false;
    for (i, part) in e.split('`').enumerate() {
        if i > 0 {
            out.push_str(if code { "</code>" } else { "<code>" });
            code = !code;
        }
        out.push_str(part);
    }
    let mut res = String::new();
    for (i, part) in out.split("**").enumerate() {
        if i % 2 == 1 {
            res.push_str(&format!("<span class=\"mark swatch\">{part}</span>"));
        } else {
            res.push_str(part);
        }
    }
    res
}

pub(crate) fn html(g: &Grid) -> String {
    let mut s = String::new();
    s.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    s.push_str(&format!("<title>{}</title>\n", html_escape(&g.title)));
    s.push_str(
        r#"<style>
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem; color: #1f2328; background: #fff; }
h1 { font-size: 1.25rem; font-weight: 600; margin: 0 0 .25rem; }
p.sub { margin: 0 0 1rem; color: #59636e; }
table { border-collapse: collapse; font: 13px/1.4 ui-monospace, "SF Mono", Menlo, Consolas, monospace; }
th, td { border: 1px solid #d1d9e0; padding: .3rem .55rem; text-align: center; min-width: 2.6rem; }
thead th { background: #f6f8fa; position: sticky; top: 0; }
tbody th { background: #f6f8fa; text-align: right; }
th.corner { background: #eaeef2; color: #59636e; font-weight: 500; }
td.k-bool { background: #f6f8fa; }
td.k-uint { background: #eef6ff; }
td.k-int { background: #ddf4ff; }
td.k-float { background: #e6f7ed; }
td.k-complex { background: #fbefff; }
td.k-err, td.k-py { color: #8c959f; background: #fff; }
td.weak { font-style: italic; }
.mark { background: #ffb86b !important; color: #3d1d00; font-weight: 700; box-shadow: inset 0 0 0 2px #e8590c; }
.swatch { display: inline-block; padding: 0 .4rem; border-radius: 3px; }
tr:hover th, tr:hover td { filter: brightness(.96); }
ul.legend { color: #59636e; font-size: .9rem; padding-left: 1.2rem; }
code { font-family: ui-monospace, Menlo, Consolas, monospace; background: #f6f8fa; padding: 0 .25rem; border-radius: 3px; }
</style>
</head>
<body>
"#,
    );
    s.push_str(&format!(
        "<h1>{}</h1>\n",
        html_escape(&format!("{}: {}", g.policy, g.op))
    ));
    s.push_str(&format!("<p class=\"sub\">{}</p>\n", html_escape(&g.title)));
    s.push_str("<table>\n<thead>\n<tr>");
    s.push_str(&format!(
        "<th class=\"corner\" scope=\"col\">{}</th>",
        html_escape(&g.corner)
    ));
    for c in &g.cols {
        s.push_str(&format!("<th scope=\"col\">{}</th>", html_escape(c)));
    }
    s.push_str("</tr>\n</thead>\n<tbody>\n");
    for (i, (r, row)) in g.rows.iter().zip(&g.cells).enumerate() {
        s.push_str(&format!("<tr><th scope=\"row\">{}</th>", html_escape(r)));
        for (j, c) in row.iter().enumerate() {
            let mut class = vec![kind_class(&c.outcome)];
            if matches!(c.outcome, Outcome::Value(_, true)) {
                class.push("weak");
            }
            let mut title = format!(
                "{} {} {}: {}",
                g.row_operands[i], g.op, g.col_operands[j], c.outcome
            );
            if let (Some(m), Some((other, _))) = (marked(g, i, j), &g.mark) {
                class.push("mark");
                title.push_str(&format!("; {other}: {}", m.outcome));
            }
            s.push_str(&format!(
                "<td class=\"{}\" title=\"{}\">{}</td>",
                class.join(" "),
                html_escape(&title),
                html_escape(&c.text)
            ));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody>\n</table>\n<ul class=\"legend\">\n");
    s.push_str("<li>Rows are the first operand, columns the second. Hover a cell for the call and the full answer.</li>\n");
    for l in &g.legend {
        s.push_str(&format!(
            "<li>{}</li>\n",
            legend_html(&l.replace("**bold**", "**highlighted**"))
        ));
    }
    s.push_str("</ul>\n</body>\n</html>\n");
    s
}

pub(crate) fn run(a: TableArgs) -> Result<i32, PromoteError> {
    let p = a.policy.load()?;
    let op = TableOp::parse(&a.op)?;
    if op == TableOp::Promote && !matches!(a.with, With::Tensors | With::Nodes | With::Weak) {
        return Err(PromoteError::Invalid {
            message: "--op promote is the join table of dtypes and weak types: use it --with tensors, weak or nodes".into(),
        });
    }
    if matches!(a.with, With::Weak) && weak_dtypes(&p).is_empty() {
        return Err(PromoteError::Invalid {
            message: format!("{} has no weakly typed tensors (no weak nodes), so --with weak has nothing to show; use --with tensors, zero-dim or scalars", p.name),
        });
    }
    let literals = a
        .literals
        .iter()
        .map(|t| {
            Literal::parse(t).ok_or_else(|| PromoteError::Invalid {
                message: format!(
                    "`{t}` is not a Python literal (write it as repr does: True, 1, 1.0, 1j)"
                ),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut g = grid(&p, op, a.with, a.style, &literals);
    if let Some(m) = &a.mark {
        let other = super::diff::load(m)?;
        mark(&mut g, &other, a.style);
    }
    emit(&match a.format {
        Format::Md => markdown(&g),
        Format::Csv => csv(&g),
        Format::Json => format!("{}\n", to_json(&g)),
        Format::Html => html(&g),
    });
    Ok(0)
}
