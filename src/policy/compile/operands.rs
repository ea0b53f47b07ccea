//! `[operands]` — the node a Python literal of each kind enters at (one, or a list tried in
//! order by value), the weak node of each dtype — and `[literal_range]`.

use toml::Spanned;

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::operand::LiteralKind;

use super::super::compiled::{Range, RangeTarget};
use super::super::spec;
use super::nodes::{Dtypes, Graph};
use super::Ctx;

/// The literal nodes of each literal kind and the weak node of each dtype.
pub(crate) type OperandNodes = ([Vec<usize>; 4], [usize; DType::COUNT]);

/// `[operands]`.
pub(crate) fn operands(
    ctx: &Ctx,
    spec: &spec::PolicySpec,
    dt: &Dtypes,
    g: &Graph,
) -> Result<OperandNodes, PromoteError> {
    let mut literal_node = [
        vec![DType::Bool.index()],
        vec![dt.default_int.index()],
        vec![dt.default_float.index()],
        vec![dt.default_complex.index()],
    ];
    for (k, v) in &spec.operands.literal {
        let (kind, nodes) = literal_entry(ctx, g, k, v)?;
        literal_node[kind] = nodes;
    }
    let mut weak_node: [usize; DType::COUNT] = std::array::from_fn(|i| i);
    let mut weak_rank = [0u8; DType::COUNT];
    for (sel, v) in &spec.operands.weak {
        let (rank, ds) = ctx.selector(sel, v.span())?;
        let n = g
            .lookup(v.get_ref())
            .ok_or_else(|| ctx.err(v.span(), g.node_err(v.get_ref())))?;
        for d in ds {
            if rank >= weak_rank[d.index()] {
                weak_rank[d.index()] = rank;
                weak_node[d.index()] = n;
            }
        }
    }
    Ok((literal_node, weak_node))
}

/// A literal kind and its node names (one, or a list tried in order) as node indices; shared
/// by `[operands]` and `[[ops]]`.
pub(crate) fn literal_entry(
    ctx: &Ctx,
    g: &Graph,
    k: &str,
    v: &Spanned<spec::OneOrMany>,
) -> Result<(usize, Vec<usize>), PromoteError> {
    let items = v.get_ref().items();
    if items.is_empty() {
        return Err(ctx.err(v.span(), format!("literal.{k} is an empty list")));
    }
    let kind = LiteralKind::ALL
        .iter()
        .position(|x| x.name() == k)
        .ok_or_else(|| {
            ctx.err(
                v.span(),
                format!("literal kinds are bool, int, float, complex; not `{k}`"),
            )
        })?;
    let nodes = items
        .iter()
        .map(|t| g.lookup(t).ok_or_else(|| ctx.err(v.span(), g.node_err(t))))
        .collect::<Result<Vec<_>, _>>()?;
    Ok((kind, nodes))
}

/// `[literal_range]` (also an op's own).
pub(crate) fn range(ctx: &Ctx, r: &spec::RangeSpec) -> Result<Range, PromoteError> {
    let conv = |v: &Vec<spec::Text>| {
        v.iter()
            .map(|t| match t.get_ref().as_str() {
                "node" => Ok(RangeTarget::Node),
                "promoted" => Ok(RangeTarget::Promoted),
                "compute" => Ok(RangeTarget::Compute),
                "deferred" => Ok(RangeTarget::Deferred),
                x => Err(ctx.err(
                    t.span(),
                    format!("range targets are node, promoted, compute, deferred; not `{x}`"),
                )),
            })
            .collect::<Result<Vec<_>, _>>()
    };
    Ok(Range {
        int: conv(&r.int)?,
        float: conv(&r.float)?,
    })
}
