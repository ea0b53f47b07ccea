//! `promote table`: a policy's result table, as the frameworks' docs print it.

use clap::{Args, ValueEnum};

use super::PolicyArg;
use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::{Call, Op};
use crate::operand::{Literal, Operand};
use crate::policy::RulePolicy;
use crate::Policy;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum With {
    /// Tensor with tensor.
    Tensors,
    /// Tensor with Python scalars (True, 1, 1.0, 1j).
    Scalars,
    /// Tensor with 0-d tensors.
    ZeroDim,
    /// Tensor with weakly typed tensors.
    Weak,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum Format {
    Md,
    Csv,
    Json,
}

#[derive(Args)]
pub(crate) struct TableArgs {
    #[command(flatten)]
    policy: PolicyArg,
    /// The op (default add).
    #[arg(long, default_value = "add")]
    op: String,
    /// What the columns are.
    #[arg(long, value_enum, default_value = "tensors")]
    with: With,
    #[arg(long, value_enum, default_value = "md")]
    format: Format,
}

/// A computed table: row labels, column labels, cells.
pub(crate) struct Grid {
    pub title: String,
    pub rows: Vec<String>,
    pub cols: Vec<String>,
    pub cells: Vec<Vec<String>>,
}

/// The cell text of one answer: a dtype's short name, `~` before weak ones; `-` no promotion,
/// `!` unsupported, `OF` overflow, `?` invalid.
pub(crate) fn cell(policy: &RulePolicy, call: &Call) -> String {
    match policy.resolve(call) {
        Ok(p) => format!("{}{}", if p.weak { "~" } else { "" }, p.result.short_name()),
        Err(e) => match e.kind() {
            crate::ErrorKind::NoPromotion => "-".into(),
            crate::ErrorKind::Unsupported => "!".into(),
            crate::ErrorKind::Overflow => "OF".into(),
            crate::ErrorKind::Invalid => "?".into(),
        },
    }
}

pub(crate) fn grid(policy: &RulePolicy, op: Op, with: With) -> Grid {
    let rows: Vec<DType> = policy.dtypes().to_vec();
    let cols: Vec<(String, Operand)> = match with {
        With::Tensors => rows.iter().map(|d| (d.short_name().to_string(), Operand::tensor(*d))).collect(),
        With::ZeroDim => rows.iter().map(|d| (format!("{}()", d.short_name()), Operand::zero_dim(*d, None))).collect(),
        With::Weak => rows.iter().map(|d| (format!("~{}", d.short_name()), Operand::weak(*d))).collect(),
        With::Scalars => ["True", "1", "1.0", "1j"].iter().map(|s| (s.to_string(), Operand::Literal(Literal::parse(s).expect("literal")))).collect(),
    };
    let cells = rows
        .iter()
        .map(|r| {
            cols.iter()
                .map(|(_, c)| match Call::new(op, vec![Operand::tensor(*r), c.clone()], None) {
                    Ok(call) => cell(policy, &call),
                    Err(_) => "?".into(),
                })
                .collect()
        })
        .collect();
    Grid {
        title: format!("{} — {} of a tensor (row) with {}", policy.name, op, match with {
            With::Tensors => "a tensor (column)",
            With::Scalars => "a Python scalar (column)",
            With::ZeroDim => "a 0-d tensor (column)",
            With::Weak => "a weak tensor (column)",
        }),
        rows: rows.iter().map(|d| d.short_name().to_string()).collect(),
        cols: cols.into_iter().map(|c| c.0).collect(),
        cells,
    }
}

pub(crate) fn markdown(g: &Grid) -> String {
    let w = g.cells.iter().flatten().chain(&g.cols).chain(&g.rows).map(|s| s.chars().count()).max().unwrap_or(1);
    let mut s = format!("{}\n\n", g.title);
    s.push_str(&format!("| {:w$} |", ""));
    for c in &g.cols {
        s.push_str(&format!(" {c:w$} |"));
    }
    s.push('\n');
    s.push_str(&format!("|{}|", "-".repeat(w + 2)));
    for _ in &g.cols {
        s.push_str(&format!("{}|", "-".repeat(w + 2)));
    }
    s.push('\n');
    for (r, row) in g.rows.iter().zip(&g.cells) {
        s.push_str(&format!("| {r:w$} |"));
        for c in row {
            s.push_str(&format!(" {c:w$} |"));
        }
        s.push('\n');
    }
    s.push_str("\n`~` weakly typed result, `-` no implicit promotion, `!` unsupported, `OF` overflow.\n");
    s
}

pub(crate) fn run(a: TableArgs) -> Result<i32, PromoteError> {
    let policy = a.policy.load()?;
    let op = Op::parse(&a.op)?;
    let g = grid(&policy, op, a.with);
    match a.format {
        Format::Md => print!("{}", markdown(&g)),
        Format::Csv => {
            println!(",{}", g.cols.join(","));
            for (r, row) in g.rows.iter().zip(&g.cells) {
                println!("{r},{}", row.join(","));
            }
        }
        Format::Json => {
            let rows: serde_json::Map<String, serde_json::Value> = g
                .rows
                .iter()
                .zip(&g.cells)
                .map(|(r, row)| (r.clone(), serde_json::Value::Object(g.cols.iter().cloned().zip(row.iter().map(|c| serde_json::Value::String(c.clone()))).collect())))
                .collect();
            println!("{}", serde_json::json!({"policy": policy.name, "op": op.name(), "rows": rows}));
        }
    }
    Ok(0)
}
