//! `[[rules]]`: the corner rules, each with its stage (`at`), its conditions on the call and
//! its operands, and its outcome (`then`).

use crate::dtype::DType;
use crate::error::{ErrorKind, PromoteError};
use crate::operand::LiteralKind;

use super::super::corner::{CornerRule, FitTarget, Matcher, Stage, Then};
use super::super::spec::{self, OperandMatch, RuleSpec};
use super::nodes::{Dtypes, Graph};
use super::operands::literal_entry;
use super::ops::op_targets;
use super::Ctx;

/// `[[rules]]`, in order.
pub(crate) fn rules(
    ctx: &Ctx,
    spec: &spec::PolicySpec,
    dt: &Dtypes,
    g: &Graph,
) -> Result<Vec<CornerRule>, PromoteError> {
    spec.rules.iter().map(|r| rule(ctx, r, dt, g)).collect()
}

pub(crate) fn rule(
    ctx: &Ctx,
    r: &RuleSpec,
    dt: &Dtypes,
    g: &Graph,
) -> Result<CornerRule, PromoteError> {
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
        "third" => Then::Third,
        "join" => Then::Join,
        "out" => Then::Out,
        "compute" => Then::Compute,
        "swapped" => Then::Swapped,
        "convert_first" => Then::ConvertFirst,
        "convert_second" => Then::ConvertSecond,
        "convert_literals" => Then::ConvertLiterals,
        "zero_dim_as_literals" => Then::ZeroDimAsLiterals,
        x => match ErrorKind::parse(x) {
            Some(k) => Then::Error(k),
            None => Then::DType(dt.target(ctx, &r.then)?),
        },
    };
    let (convert, literal) = conversion(ctx, r, at, then, g)?;
    Ok(CornerRule {
        ops,
        at,
        any: matcher(ctx, &r.any)?,
        all: matcher(ctx, &r.all)?,
        first: matcher(ctx, &r.first)?,
        second: matcher(ctx, &r.second)?,
        third: matcher(ctx, &r.third)?,
        other: matcher(ctx, &r.other)?,
        out: r.out,
        out_is_first: r.out_is_first,
        promoted_is_first: r.promoted_is_first,
        same_dtypes: r.same_dtypes,
        second_above_third: r.second_above_third,
        weak: r.weak,
        weak_result: r.weak_result,
        out_dtype: selector_mask(ctx, &r.out_dtype)?,
        promoted: selector_mask(ctx, &r.promoted)?,
        compute: selector_mask(ctx, &r.compute)?,
        then,
        convert,
        literal,
        saturate: r.saturate,
        keep_compute: r.keep_compute,
        source: r.source.clone(),
    })
}

/// A conversion rule's parts (`convert`, `literal`), checked: at `arguments`, on an operand
/// that is a literal (the first for `convert_first`, the second for `convert_second`), and
/// only with one of those `then`s.
#[allow(clippy::type_complexity)]
fn conversion(
    ctx: &Ctx,
    r: &RuleSpec,
    at: Stage,
    then: Then,
    g: &Graph,
) -> Result<([Vec<DType>; 4], [Option<Vec<usize>>; 4]), PromoteError> {
    let (which, operand) = match then {
        Then::ConvertFirst => ("convert_first", Some(&r.first)),
        Then::ConvertSecond => ("convert_second", Some(&r.second)),
        Then::ConvertLiterals => ("convert_literals", None),
        _ => ("", None),
    };
    let converts = !which.is_empty();
    if at != Stage::Arguments && converts {
        return Err(ctx.err(
            r.then.span(),
            format!("`{which}` converts a literal before anything else: use it at arguments"),
        ));
    }
    let on_literal = operand.is_none_or(|m| {
        m.as_ref().is_some_and(|m| {
            !m.class.is_empty() && m.class.iter().all(|c| c.get_ref() == "literal")
        })
    });
    if converts && !on_literal {
        let side = if then == Then::ConvertFirst {
            "first"
        } else {
            "second"
        };
        return Err(ctx.err(
            r.then.span(),
            format!(
                "`{which}` converts a Python literal: add `{side} = {{ class = [\"literal\"] }}`"
            ),
        ));
    }
    let convert = convert(ctx, r)?;
    if converts != convert.iter().any(|c| !c.is_empty()) {
        return Err(ctx.err(
            r.then.span(),
            "`then = \"convert_first\"` (or `convert_second`, `convert_literals`) and `convert = { KIND = DTYPE, ... }` go together",
        ));
    }
    if r.saturate && !converts {
        return Err(ctx.err(
            r.then.span(),
            "`saturate` goes with `then = \"convert_first\"`, `convert_second` or `convert_literals`",
        ));
    }
    if r.keep_compute && (at != Stage::Computed || !matches!(then, Then::DType(_))) {
        return Err(ctx.err(
            r.then.span(),
            "`keep_compute` goes with `at = \"computed\"` and a dtype as `then` (the result dtype the rule decides)",
        ));
    }
    let mut literal: [Option<Vec<usize>>; 4] = Default::default();
    for (k, v) in &r.literal {
        if !converts {
            return Err(ctx.err(
                v.span(),
                "a rule's `literal` goes with `then = \"convert_first\"` or `convert_second`",
            ));
        }
        let (kind, nodes) = literal_entry(ctx, g, k, v)?;
        literal[kind] = Some(nodes);
    }
    Ok((convert, literal))
}

/// `convert`: literal kind to the dtypes a literal is converted to alone.
fn convert(ctx: &Ctx, r: &RuleSpec) -> Result<[Vec<DType>; 4], PromoteError> {
    let mut out: [Vec<DType>; 4] = Default::default();
    for (k, v) in &r.convert {
        let kind = LiteralKind::ALL
            .iter()
            .position(|x| x.name() == k)
            .ok_or_else(|| {
                ctx.err(
                    v.span(),
                    format!("convert's keys are bool, int, float, complex; not `{k}`"),
                )
            })?;
        out[kind] = v
            .get_ref()
            .items()
            .iter()
            .map(|d| DType::parse(d).map_err(|e| ctx.err(v.span(), e.to_string())))
            .collect::<Result<_, _>>()?;
        if out[kind].is_empty() {
            return Err(ctx.err(v.span(), format!("convert.{k} is an empty list")));
        }
    }
    Ok(out)
}

/// The dtypes a list of selectors covers (`None`: the list is empty, any dtype).
fn selector_mask(
    ctx: &Ctx,
    v: &[spec::Text],
) -> Result<Option<[bool; DType::COUNT]>, PromoteError> {
    if v.is_empty() {
        return Ok(None);
    }
    let mut m = [false; DType::COUNT];
    for t in v {
        let (_, ds) = ctx.selector(t.get_ref(), t.span())?;
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
        written_dtype: selector_mask(ctx, &m.written_dtype)?,
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
