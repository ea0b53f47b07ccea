//! The words around a table: its title and its legend (only the marks it shows).

use crate::dtype::DType;
use crate::error::ErrorKind;
use crate::operand::Operand;
use crate::policy::RulePolicy;

use super::style::TableOp;
use super::style::{Style, With};
use super::table::{weak_dtypes, Cell, Labeled};
use super::Outcome;

/// The policy's weak types as labelled operands (JAX's `i*`, TensorFlow's `i32*`).
pub(super) fn weak_nodes(p: &RulePolicy, style: Style) -> Labeled {
    weak_dtypes(p)
        .into_iter()
        .map(|d| (style.weak(p, d), Operand::weak(d)))
        .collect()
}

/// `torch (PyTorch 2.x): add of a tensor (row) with a tensor (column)`.
pub(super) fn title(p: &RulePolicy, op: TableOp, with: With) -> String {
    let what = match with {
        With::DTypeArg => "the dtype= argument (column)",
        _ if op.arity() == 1 => "the result (column)",
        With::Tensors => "a tensor (column)",
        With::Scalars => "a Python scalar (column)",
        With::ZeroDim => "a 0-d tensor (column)",
        With::Weak => "a weakly typed tensor (column)",
        With::Nodes => "each dtype and weak type (column)",
    };
    format!(
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
    .replace(" with the result (column)", "")
}

/// The legend: one sentence for each mark the cells show, the aliases of the mode, weak results.
pub(super) fn legend(
    p: &RulePolicy,
    op: TableOp,
    style: Style,
    cells: &[Vec<Cell>],
    dtypes: &[DType],
) -> Vec<String> {
    let shown = |t: &str| cells.iter().flatten().any(|c| c.text == t);
    let unsupported = if op == TableOp::Promote {
        "`!` a dtype outside the 15 (such as PyTorch's complex32)"
    } else {
        "`!` the op does not support the dtype"
    };
    let mut legend: Vec<String> = [
        ("-", "`-` no implicit promotion (an error)"),
        ("!", unsupported),
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
        .any(|c| c.outcome == Outcome::Error(ErrorKind::Invalid))
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
        let names: Vec<String> = weak_nodes(p, style)
            .iter()
            .map(|(l, _)| format!("`{l}`"))
            .collect();
        legend.insert(0, format!("{} a weakly typed result", names.join(" ")));
    }
    legend
}
