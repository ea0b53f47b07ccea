//! `[out]`: whether and how a result may be cast into an `out` dtype, and the rules of a
//! `casting=` argument.

use crate::error::PromoteError;
use crate::op::Casting;

use super::super::compiled::OutRule;
use super::super::spec::{OutSpec, Text};
use super::{cast_levels, Ctx};

/// `[out]`.
pub(crate) fn out(ctx: &Ctx, o: &OutSpec) -> Result<OutRule, PromoteError> {
    rule_named(ctx, &o.casting, o)
}

/// `[out] casting_arg`: the rule of each `casting=` value, `None` where the file gives none.
pub(crate) fn casting_arg(ctx: &Ctx, o: &OutSpec) -> Result<Vec<Option<OutRule>>, PromoteError> {
    let mut rules = vec![None; Casting::ALL.len()];
    for (name, rule) in &o.casting_arg {
        let at = ctx.src.find(&format!("{name} =")).unwrap_or(0);
        let c = Casting::parse(name).map_err(|e| ctx.err(at..at + name.len(), e.to_string()))?;
        rules[c as usize] = Some(rule_named(ctx, rule, o)?);
    }
    Ok(rules)
}

fn rule_named(ctx: &Ctx, name: &Text, o: &OutSpec) -> Result<OutRule, PromoteError> {
    Ok(match name.get_ref().as_str() {
        "any" => OutRule::Any,
        "equal" => OutRule::Equal,
        "safe" => OutRule::Safe,
        "rebind" => OutRule::Rebind,
        "kinds" => {
            let k = o.kinds.as_ref().ok_or_else(|| ctx.err(name.span(), "casting = \"kinds\" needs kinds = \"bool < unsigned < signed < float < complex\""))?;
            let level = cast_levels(ctx, k)?;
            OutRule::Kinds(level, k.get_ref().clone())
        }
        x => {
            return Err(ctx.err(
                name.span(),
                format!("casting is kinds, any, equal, safe or rebind; not `{x}`"),
            ))
        }
    })
}
