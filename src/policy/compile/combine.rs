//! `[combine]`: the scheme that finds the promoted node — a `join` of every operand's node, or
//! `categories` of operand classes with how each merges into the higher ones.

use crate::dtype::DType;
use crate::error::PromoteError;

use crate::operand::LiteralKind;

use super::super::compiled::{Categories, Legacy, Meet, Merge, Scheme};
use super::super::spec::{self, CombineSpec};
use super::{kind_levels, Ctx};

/// `[combine]`.
pub(crate) fn scheme(ctx: &Ctx, c: &CombineSpec) -> Result<Scheme, PromoteError> {
    match c.scheme.get_ref().as_str() {
        "join" => Ok(Scheme::Join {
            all_weak_join_dtypes: c.all_weak_join_dtypes,
        }),
        "categories" => Ok(Scheme::Categories(Categories {
            category: category_of_class(ctx, c)?,
            count: c.categories.len(),
            lower_by_value: lower_by_value(ctx, c)?,
            float_meets_complex: float_meets_complex(ctx, c)?,
            int_meets_complex_lower: int_meets_complex_lower(ctx, c)?,
            rank: match &c.kinds {
                Some(k) => kind_levels(ctx, k)?,
                None => [0, 1, 1, 2, 3],
            },
            merge: merge(ctx, c)?,
            legacy: c
                .legacy
                .as_ref()
                .map(|l| legacy(ctx, l).map(Box::new))
                .transpose()?,
        })),
        x => Err(ctx.err(
            c.scheme.span(),
            format!("scheme is `join` or `categories`, not `{x}`"),
        )),
    }
}

/// The category of each operand class (tensor, zero_dim, weak, literal).
fn category_of_class(ctx: &Ctx, c: &CombineSpec) -> Result<[Option<usize>; 4], PromoteError> {
    let mut category = [None; 4];
    for (ci, cat) in c.categories.iter().enumerate() {
        for t in cat {
            let idx = ["tensor", "zero_dim", "weak", "literal"]
                .iter()
                .position(|x| x == t.get_ref())
                .ok_or_else(|| {
                    ctx.err(
                        t.span(),
                        format!(
                            "operand classes are tensor, zero_dim, weak, literal; not `{}`",
                            t.get_ref()
                        ),
                    )
                })?;
            if category[idx].is_some() {
                return Err(ctx.err(t.span(), format!("`{}` is in two categories", t.get_ref())));
            }
            category[idx] = Some(ci);
        }
    }
    if category[0].is_none() {
        return Err(ctx.err(c.scheme.span(), "categories must place `tensor`"));
    }
    Ok(category)
}

/// `lower_same_kind`: `value` is NumPy 1's value-based casting.
fn lower_by_value(ctx: &Ctx, c: &CombineSpec) -> Result<bool, PromoteError> {
    match c.lower_same_kind.as_ref() {
        None => Ok(false),
        Some(t) => match t.get_ref().as_str() {
            "nothing" => Ok(false),
            "value" => Ok(true),
            x => Err(ctx.err(
                t.span(),
                format!("lower_same_kind is `nothing` or `value`, not `{x}`"),
            )),
        },
    }
}

fn float_meets_complex(
    ctx: &Ctx,
    c: &CombineSpec,
) -> Result<[Option<Meet>; DType::COUNT], PromoteError> {
    let mut fmc = [None; DType::COUNT];
    for (k, v) in &c.float_meets_complex {
        let f = DType::parse(k).map_err(|e| ctx.err(v.span(), e.to_string()))?;
        fmc[f.index()] = Some(if v.get_ref() == "outside" {
            Meet::Outside
        } else {
            Meet::DType(ctx.dtype(v)?)
        });
    }
    Ok(fmc)
}

fn int_meets_complex_lower(ctx: &Ctx, c: &CombineSpec) -> Result<bool, PromoteError> {
    match c.int_meets_complex.as_ref() {
        None => Ok(false),
        Some(t) => match t.get_ref().as_str() {
            "join" => Ok(false),
            "lower" => Ok(true),
            x => Err(ctx.err(
                t.span(),
                format!("int_meets_complex is `lower` or `join`, not `{x}`"),
            )),
        },
    }
}

/// `[combine.legacy]`: every literal kind must be given.
fn legacy(ctx: &Ctx, l: &spec::LegacySpec) -> Result<Legacy, PromoteError> {
    let mut dtypes = [false; DType::COUNT];
    for sel in &l.dtypes {
        let (_, ds) = ctx.selector(sel.get_ref(), sel.span())?;
        for d in ds {
            dtypes[d.index()] = true;
        }
    }
    let loops = l
        .loops
        .iter()
        .map(|t| ctx.dtype(t))
        .collect::<Result<Vec<_>, _>>()?;
    if loops.is_empty() == l.literal.is_empty() {
        let first = l.dtypes.first().map(|t| t.span()).unwrap_or(0..0);
        return Err(ctx.err(
            first,
            "legacy takes either `literal` (one dtype per literal kind) or `loops`",
        ));
    }
    let literal = if loops.is_empty() {
        let mut literal = [DType::Bool; 4];
        for (i, kind) in LiteralKind::ALL.iter().enumerate() {
            let t = l.literal.get(kind.name()).ok_or_else(|| {
                let first = l.dtypes.first().map(|t| t.span()).unwrap_or(0..0);
                ctx.err(
                    first,
                    format!("legacy.literal has no `{}` entry", kind.name()),
                )
            })?;
            literal[i] = ctx.dtype(t)?;
        }
        Some(literal)
    } else {
        None
    };
    let mut own_loops = vec![Vec::new(); DType::COUNT];
    for entry in &l.own_loops {
        let ops = super::ops::op_targets(ctx, &entry.ops)?;
        for sel in &entry.dtypes {
            let (_, ds) = ctx.selector(sel.get_ref(), sel.span())?;
            for d in ds {
                own_loops[d.index()].extend(ops.iter().copied());
            }
        }
    }
    let builtin_loops = l
        .builtin_loops
        .iter()
        .map(|entry| {
            let ops = super::ops::op_targets(ctx, &entry.ops)?;
            let loops = entry
                .loops
                .iter()
                .map(|t| ctx.dtype(t))
                .collect::<Result<Vec<_>, _>>()?;
            Ok((ops, loops))
        })
        .collect::<Result<Vec<_>, PromoteError>>()?;
    Ok(Legacy {
        dtypes,
        literal,
        loops,
        own_loops,
        builtin_loops,
    })
}

fn merge(ctx: &Ctx, c: &CombineSpec) -> Result<Vec<Merge>, PromoteError> {
    let mut merge = vec![Merge::Kind; c.categories.len()];
    for (i, m) in c.merge.iter().enumerate() {
        if i >= merge.len() {
            return Err(ctx.err(m.span(), "merge has more entries than there are categories"));
        }
        merge[i] = parse_merge(ctx, m)?;
    }
    Ok(merge)
}

fn parse_merge(ctx: &Ctx, m: &spec::Text) -> Result<Merge, PromoteError> {
    Ok(match m.get_ref().as_str() {
        "kind" => Merge::Kind,
        "nothing" => Merge::Nothing,
        "join" => Merge::Join,
        "differ" => Merge::Differ,
        x => {
            return Err(ctx.err(
                m.span(),
                format!("merge is kind, nothing, join or differ; not `{x}`"),
            ))
        }
    })
}
