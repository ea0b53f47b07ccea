//! The table of a policy (`promote table`) as a value: rows and columns of operands, every
//! cell's [`Outcome`] and its text in a docs [`Style`], a legend, and optionally the cells where
//! another policy answers differently.
//!
//! ```
//! use promote::analysis::{table, TableOptions, With};
//! let torch = promote::builtin("torch").unwrap();
//! let t = table(&torch, &TableOptions { with: With::Scalars, ..TableOptions::default() }).unwrap();
//! assert_eq!(t.cols, ["True", "1", "1.0", "1j"]);
//! assert_eq!(t.cell("i8", "1.0").unwrap().text, "f32"); // int8 + 1.0 is float32
//! ```

use serde_json::{json, Value};

use crate::dtype::DType;
use crate::error::{ErrorKind, PromoteError};
use crate::op::{Call, Op};
use crate::operand::{Literal, Operand};
use crate::policy::{Policy, RulePolicy};

use super::style::{Style, TableOp, With};
use super::table_text;
use super::Outcome;

/// What to tabulate.
///
/// ```
/// use promote::analysis::{table, TableOptions, With};
/// let o = TableOptions { with: With::ZeroDim, ..TableOptions::default() };
/// assert!(table(&promote::builtin("numpy").unwrap(), &o).is_ok());
/// ```
#[derive(Clone, Debug)]
pub struct TableOptions {
    /// The op, or the promotion alone.
    pub op: TableOp,
    /// What the columns are.
    pub with: With,
    /// How dtypes are named and ordered.
    pub style: Style,
    /// The Python scalars of [`With::Scalars`].
    pub literals: Vec<Literal>,
}

impl Default for TableOptions {
    /// `add`, tensor with tensor, the policy's docs style, the scalars `True, 1, 1.0, 1j`.
    fn default() -> Self {
        TableOptions {
            op: TableOp::Call(Op::parse("add").expect("add is an op")),
            with: With::Tensors,
            style: Style::Auto,
            literals: ["True", "1", "1.0", "1j"]
                .iter()
                .map(|s| Literal::parse(s).expect("a literal"))
                .collect(),
        }
    }
}

/// One cell: what the policy answers, and how the style writes it.
///
/// ```
/// use promote::{analysis::{table, Outcome, TableOptions}, builtin, DType};
/// let t = table(&builtin("numpy").unwrap(), &TableOptions::default()).unwrap();
/// let c = t.cell("u8", "i8").unwrap();
/// assert_eq!((c.text.as_str(), &c.outcome), ("i16", &Outcome::Value(DType::Int16, false)));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// The answer.
    pub outcome: Outcome,
    /// Where the op refuses the promoted dtype (`unsupported`): that dtype.
    pub promoted: Option<DType>,
    /// The answer in the table's style (`i16`, `i32*`, `-`, `f16†`).
    pub text: String,
}

impl Cell {
    fn new(p: &RulePolicy, style: Style, (outcome, promoted): (Outcome, Option<DType>)) -> Cell {
        let text = match (&outcome, promoted) {
            (Outcome::Error(ErrorKind::Unsupported), Some(d)) => format!("{}†", style.dtype(d)),
            _ => style.outcome(p, &outcome),
        };
        Cell {
            outcome,
            promoted,
            text,
        }
    }
}

/// The cells where another policy answers differently ([`Table::mark`]).
///
/// ```
/// use promote::{analysis::{table, TableOptions}, builtin};
/// let mut t = table(&builtin("tf-all").unwrap(), &TableOptions::default()).unwrap();
/// t.mark(&builtin("tf-safe").unwrap());
/// assert_eq!(t.mark.as_ref().unwrap().policy, "tf-safe");
/// ```
#[derive(Clone, Debug)]
pub struct Marks {
    /// The other policy's name.
    pub policy: String,
    /// Per cell, the other policy's answer where it differs.
    pub cells: Vec<Vec<Option<Cell>>>,
}

/// A policy's table: rows are the first operand, columns the second.
///
/// ```
/// use promote::{analysis::{table, TableOptions}, builtin, Policy};
/// let numpy = builtin("numpy").unwrap();
/// let t = table(&numpy, &TableOptions::default()).unwrap();
/// assert_eq!(t.rows.len(), numpy.dtypes().len());
/// ```
#[derive(Clone, Debug)]
pub struct Table {
    /// The policy's name.
    pub policy: String,
    /// Its framework.
    pub framework: String,
    /// What the cells answer.
    pub op: TableOp,
    /// What the columns are.
    pub with: With,
    /// One line saying what the table shows.
    pub title: String,
    /// The style the labels and cells are written in (never [`Style::Auto`]).
    pub style: Style,
    /// The top-left cell (the op, or Paddle's `+/-/*`).
    pub corner: String,
    /// Row labels in the style.
    pub rows: Vec<String>,
    /// Column labels in the style.
    pub cols: Vec<String>,
    /// The operand of each row.
    pub row_operands: Vec<Operand>,
    /// The operand of each column.
    pub col_operands: Vec<Operand>,
    /// `cells[row][col]`.
    pub cells: Vec<Vec<Cell>>,
    /// The cells where another policy answers differently, after [`Table::mark`].
    pub mark: Option<Marks>,
    /// What the table's marks mean, one sentence each (Markdown backticks and bold).
    pub legend: Vec<String>,
}

/// The table of a policy. Refused as `invalid`: `TableOp::Promote` with Python scalars or 0-d
/// tensors (the join table has only dtypes and weak types), [`With::Weak`] for a policy with no
/// weak types.
///
/// ```
/// use promote::{analysis::{table, TableOp, TableOptions, With}, builtin};
/// let numpy = builtin("numpy").unwrap();
/// let weak = TableOptions { with: With::Weak, ..TableOptions::default() };
/// assert!(table(&numpy, &weak).is_err());
/// let promote_only = TableOptions { op: TableOp::Promote, ..TableOptions::default() };
/// assert!(table(&numpy, &promote_only).is_ok());
/// ```
pub fn table(p: &RulePolicy, o: &TableOptions) -> Result<Table, PromoteError> {
    if o.op == TableOp::Promote && !matches!(o.with, With::Tensors | With::Nodes | With::Weak) {
        return Err(PromoteError::Invalid {
            message: "--op promote is the join table of dtypes and weak types: use it --with tensors, weak or nodes".into(),
        });
    }
    if o.with == With::DTypeArg && o.op.arity() != 1 {
        return Err(PromoteError::Invalid {
            message: format!("--with dtype-arg gives a one-operand op (a reduction such as sum or mean) each dtype as its dtype= argument; {} takes two operands: use --with tensors, zero-dim, weak or scalars", o.op.name()),
        });
    }
    if o.with == With::Weak && weak_dtypes(p).is_empty() {
        return Err(PromoteError::Invalid {
            message: format!("{} has no weakly typed tensors (no weak nodes), so --with weak has nothing to show; use --with tensors, zero-dim or scalars", p.name),
        });
    }
    Ok(build(p, o))
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

/// Operands with their labels.
pub(super) type Labeled = Vec<(String, Operand)>;

fn build(p: &RulePolicy, o: &TableOptions) -> Table {
    let style = o.style.resolve(&p.name);
    let dtypes: Vec<DType> = style
        .order(o.with)
        .into_iter()
        .filter(|d| p.has(*d))
        .collect();
    let (rows, cols) = operands(p, o, style, &dtypes);
    let cells: Vec<Vec<Cell>> = rows
        .iter()
        .map(|(_, r)| {
            cols.iter()
                .map(|(_, c)| Cell::new(p, style, answer(p, o.op, o.with, r, c)))
                .collect()
        })
        .collect();
    let legend = table_text::legend(p, o.op, style, &cells, &dtypes);
    Table {
        policy: p.name.clone(),
        framework: p.framework.clone(),
        op: o.op,
        with: o.with,
        style,
        title: table_text::title(p, o.op, o.with),
        corner: match style {
            Style::Paddle if matches!(o.op.name(), "add" | "subtract" | "multiply") => {
                "+/-/*".to_string()
            }
            _ => o.op.name().to_string(),
        },
        rows: rows.iter().map(|r| r.0.clone()).collect(),
        cols: cols.iter().map(|c| c.0.clone()).collect(),
        row_operands: rows.into_iter().map(|r| r.1).collect(),
        col_operands: cols.into_iter().map(|c| c.1).collect(),
        cells,
        mark: None,
        legend,
    }
}

/// The labelled operands of the rows and the columns.
fn operands(
    p: &RulePolicy,
    o: &TableOptions,
    style: Style,
    dtypes: &[DType],
) -> (Labeled, Labeled) {
    let tensors: Labeled = dtypes
        .iter()
        .map(|d| (style.dtype(*d), Operand::tensor(*d)))
        .collect();
    let (rows, cols): (Labeled, Labeled) = match o.with {
        With::Tensors => (tensors.clone(), tensors),
        With::ZeroDim => {
            let zero = |d: &DType| {
                (
                    format!("{}()", style.dtype(*d)),
                    Operand::zero_dim(*d, None),
                )
            };
            (tensors, dtypes.iter().map(zero).collect())
        }
        With::Weak => {
            let weak = |d: &DType| (style.weak(p, *d), Operand::weak(*d));
            (tensors, dtypes.iter().map(weak).collect())
        }
        With::Scalars => {
            let label = |l: &Literal| (style.literal(l, &o.literals), Operand::Literal(l.clone()));
            (tensors, o.literals.iter().map(label).collect())
        }
        With::Nodes => {
            let mut all = tensors;
            all.extend(table_text::weak_nodes(p, style));
            (all.clone(), all)
        }
        With::DTypeArg => {
            let arg = |(l, o): &(String, Operand)| (format!("dtype={l}"), o.clone());
            let cols = tensors.iter().map(arg).collect();
            (tensors, cols)
        }
    };
    // a one-operand op (sum) has one column: its result
    if o.op.arity() == 1 && o.with != With::DTypeArg {
        return (
            rows,
            vec![("result".to_string(), Operand::tensor(DType::Bool))],
        );
    }
    (rows, cols)
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
            None => Outcome::Error(ErrorKind::NoPromotion),
            Some(k) if p.nodes[k].outside => Outcome::Error(ErrorKind::Unsupported),
            Some(k) => Outcome::Value(p.canonical(p.nodes[k].dtype), p.nodes[k].weak),
        },
        _ => Outcome::Error(ErrorKind::Invalid),
    }
}

/// One cell's answer: the op over row and column (the row alone for a one-operand op, with the
/// column's dtype as its `dtype=` argument for [`With::DTypeArg`]), and where the op refuses a
/// promoted dtype, that dtype.
fn answer(
    p: &RulePolicy,
    op: TableOp,
    with: With,
    r: &Operand,
    c: &Operand,
) -> (Outcome, Option<DType>) {
    let op = match op {
        TableOp::Promote => return (promotion(p, r, c), None),
        TableOp::Call(op) => op,
    };
    let ops = if op.arity() == 1 {
        vec![r.clone()]
    } else {
        vec![r.clone(), c.clone()]
    };
    let Ok(mut call) = Call::new(op, ops, None) else {
        return (Outcome::Error(ErrorKind::Invalid), None);
    };
    if with == With::DTypeArg {
        call.dtype = c.dtype();
    }
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

impl Table {
    /// The cell of a row and a column, by their labels.
    ///
    /// ```
    /// use promote::{analysis::{table, TableOptions}, builtin};
    /// let t = table(&builtin("numpy").unwrap(), &TableOptions::default()).unwrap();
    /// assert_eq!(t.cell("u8", "i8").unwrap().text, "i16");
    /// assert!(t.cell("u8", "nothing").is_none());
    /// ```
    pub fn cell(&self, row: &str, col: &str) -> Option<&Cell> {
        let r = self.rows.iter().position(|x| x == row)?;
        let c = self.cols.iter().position(|x| x == col)?;
        Some(&self.cells[r][c])
    }

    /// Mark the cells where `other` answers differently (TensorFlow's guide marks the cells of its
    /// ALL table that SAFE forbids), in the style the table was built with.
    ///
    /// ```
    /// use promote::analysis::{table, TableOptions};
    /// let all = promote::builtin("tf-all").unwrap();
    /// let mut t = table(&all, &TableOptions::default()).unwrap();
    /// t.mark(&promote::builtin("tf-safe").unwrap());
    /// let (u8, i8) = (t.rows.iter().position(|r| r == "u8").unwrap(), t.cols.iter().position(|c| c == "i8").unwrap());
    /// assert!(t.marked(u8, i8).is_some()); // tf-safe refuses uint8 + int8
    /// ```
    pub fn mark(&mut self, other: &RulePolicy) {
        let style = self.style;
        let cells: Vec<Vec<Option<Cell>>> = self
            .row_operands
            .iter()
            .zip(&self.cells)
            .map(|(r, row)| {
                self.col_operands
                    .iter()
                    .zip(row)
                    .map(|(c, mine)| {
                        let o = answer(other, self.op, self.with, r, c);
                        (o.0 != mine.outcome).then(|| Cell::new(other, style, o))
                    })
                    .collect()
            })
            .collect();
        let refusals = cells
            .iter()
            .flatten()
            .flatten()
            .all(|c| matches!(c.outcome, Outcome::Error(_)));
        self.legend.push(if refusals {
            format!("**bold**: {} refuses this cell", other.name)
        } else {
            format!("**bold**: {} answers differently", other.name)
        });
        self.mark = Some(Marks {
            policy: other.name.clone(),
            cells,
        });
    }

    /// The other policy's different answer at a cell, after [`Table::mark`].
    ///
    /// ```
    /// use promote::{analysis::{table, TableOptions}, builtin};
    /// let t = table(&builtin("numpy").unwrap(), &TableOptions::default()).unwrap();
    /// assert!(t.marked(0, 0).is_none());
    /// ```
    pub fn marked(&self, row: usize, col: usize) -> Option<&Cell> {
        self.mark.as_ref().and_then(|m| m.cells[row][col].as_ref())
    }

    /// Stable JSON: labels, operands, and every cell's text with its dtype and weakness, or its
    /// error (and promoted dtype), or the Python kind; `mark` the other policy's cells.
    ///
    /// ```
    /// use promote::{analysis::{table, TableOptions}, builtin};
    /// let t = table(&builtin("numpy").unwrap(), &TableOptions::default()).unwrap();
    /// assert!(t.to_json().is_object());
    /// ```
    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "policy": self.policy,
            "framework": self.framework,
            "op": self.op.name(),
            "corner": self.corner,
            "rows": self.rows,
            "cols": self.cols,
            "row_operands": self.row_operands.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
            "col_operands": self.col_operands.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
            "cells": self.cells.iter().map(|r| r.iter().map(cell_json).collect::<Vec<_>>()).collect::<Vec<_>>(),
        });
        if let Some(m) = &self.mark {
            v["mark"] = json!({
                "policy": m.policy,
                "cells": m.cells.iter().map(|r| r.iter().map(|c| c.as_ref().map_or(Value::Null, cell_json)).collect::<Vec<_>>()).collect::<Vec<_>>(),
            });
        }
        v
    }
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
