//! `[[rules]]`: the corner rules, each with its stage (`at`), its conditions on the call and
//! its operands, and its outcome (`then`).

use crate::error::{ErrorKind, PromoteError};
use crate::operand::LiteralKind;

use super::super::corner::{CornerRule, FitTarget, Matcher, Stage, Then};
use super::super::spec::{self, OperandMatch, RuleSpec};
use super::nodes::Dtypes;
use super::ops::op_targets;
use super::{selector_dtypes, Ctx, SELECTOR_WORDS};

/// `[[rules]]`, in order.
pub(crate) fn rules(
    ctx: &Ctx,
    spec: &spec::PolicySpec,
    dt: &Dtypes,
) -> Result<Vec<CornerRule>, PromoteError> {
    spec.rules.iter().map(|r| rule(ctx, r, dt)).collect()
}

pub(crate) fn rule(ctx: &Ctx, r: &RuleSpec, dt: &Dtypes) -> Result<CornerRule, PromoteError> {
    let mut ops = vec![false; crate::Op::all().len()];
    for op in op_targets(ctx, &r.ops)? {
        ops[op.index()] = true;
    }
    let at = match r.at.get_ref().as_str() {
        "arguments" => Stage::Arguments,
        "operands" => Stage::Operands,
        "promoted" => Stage::Promoted,
        "computed" => Stage::Computed,
        x => {
            return Err(ctx.err(
                r.at.span(),
                format!("at is arguments, operands, promoted or computed; not `{x}`"),
            ))
        }
    };
    let then = match r.then.get_ref().as_str() {
        "accept" => Then::Accept,
        "first" => Then::First,
        "second" => Then::Second,
        "join" => Then::Join,
        "out" => Then::Out,
        "compute" => Then::Compute,
        "swapped" => Then::Swapped,
        x => match ErrorKind::parse(x) {
            Some(k) => Then::Error(k),
            None => Then::DType(dt.target(ctx, &r.then)?),
        },
    };
    if matches!(at, Stage::Arguments | Stage::Operands) && then == Then::Accept {
        return Err(ctx.err(
            r.then.span(),
            "`accept` needs a promoted dtype: use it at promoted or computed",
        ));
    }
    Ok(CornerRule {
        ops,
        at,
        any: matcher(ctx, &r.any)?,
        first: matcher(ctx, &r.first)?,
        second: matcher(ctx, &r.second)?,
        other: matcher(ctx, &r.other)?,
        out: r.out,
        out_is_first: r.out_is_first,
        promoted_is_first: r.promoted_is_first,
        same_dtypes: r.same_dtypes,
        weak: r.weak,
        weak_result: r.weak_result,
        out_dtype: selector_mask(ctx, &r.out_dtype)?,
        promoted: selector_mask(ctx, &r.promoted)?,
        compute: selector_mask(ctx, &r.compute)?,
        then,
        source: r.source.clone(),
    })
}

/// The dtypes a list of selectors covers (`None`: the list is empty, any dtype).
fn selector_mask(ctx: &Ctx, v: &[spec::Text]) -> Result<Option<[bool; 15]>, PromoteError> {
    if v.is_empty() {
        return Ok(None);
    }
    let mut m = [false; 15];
    for t in v {
        let (_, ds) = selector_dtypes(t.get_ref()).ok_or_else(|| {
            ctx.err(
                t.span(),
                format!(
                    "unknown selector `{}` (a dtype or one of {})",
                    t.get_ref(),
                    SELECTOR_WORDS.join(", ")
                ),
            )
        })?;
        for d in ds {
            m[d.index()] = true;
        }
    }
    Ok(Some(m))
}

fn fit_target(ctx: &Ctx, t: &spec::Text) -> Result<FitTarget, PromoteError> {
    if t.get_ref() == "compute" {
        Ok(FitTarget::Compute)
    } else {
        ctx.dtype(t).map(FitTarget::DType)
    }
}

/// Which of `names` a list picks, as flags (`None`: the list is empty, any).
fn flags<const N: usize>(
    ctx: &Ctx,
    v: &[spec::Text],
    names: [&str; N],
    what: &str,
) -> Result<Option<[bool; N]>, PromoteError> {
    if v.is_empty() {
        return Ok(None);
    }
    let mut c = [false; N];
    for t in v {
        let i = names
            .iter()
            .position(|x| x == t.get_ref())
            .ok_or_else(|| ctx.err(t.span(), format!("{what} are {}", names.join(", "))))?;
        c[i] = true;
    }
    Ok(Some(c))
}

/// The conditions on one operand.
fn matcher(ctx: &Ctx, m: &Option<OperandMatch>) -> Result<Option<Matcher>, PromoteError> {
    let Some(m) = m else { return Ok(None) };
    let kinds = LiteralKind::ALL.map(|k| k.name());
    Ok(Some(Matcher {
        class: flags(
            ctx,
            &m.class,
            ["tensor", "zero_dim", "weak", "literal"],
            "classes",
        )?,
        dtype: selector_mask(ctx, &m.dtype)?,
        literal: flags(ctx, &m.literal, kinds, "literal kinds")?,
        values: m.values_parsed(ctx)?,
        negative: m.negative,
        not_fits: m
            .not_fits
            .iter()
            .map(|t| fit_target(ctx, t))
            .collect::<Result<Vec<_>, _>>()?,
        fits: m.fits.as_ref().map(|t| fit_target(ctx, t)).transpose()?,
        wraps_to_zero: m.wraps_to_zero,
        wraps_negative: m.wraps_negative,
    }))
}
