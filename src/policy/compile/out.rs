//! `[out]`: whether and how a result may be cast into an `out` dtype.

use crate::error::PromoteError;

use super::super::compiled::OutRule;
use super::super::spec::OutSpec;
use super::{kind_levels, Ctx};

/// `[out]`.
pub(crate) fn out(ctx: &Ctx, o: &OutSpec) -> Result<OutRule, PromoteError> {
    Ok(match o.casting.get_ref().as_str() {
        "any" => OutRule::Any,
        "equal" => OutRule::Equal,
        "safe" => OutRule::Safe,
        "rebind" => OutRule::Rebind,
        "kinds" => {
            let k = o.kinds.as_ref().ok_or_else(|| ctx.err(o.casting.span(), "casting = \"kinds\" needs kinds = \"bool < unsigned < signed < float < complex\""))?;
            let level = kind_levels(ctx, k)?;
            OutRule::Kinds(level, k.get_ref().clone())
        }
        x => {
            return Err(ctx.err(
                o.casting.span(),
                format!("casting is kinds, any, equal, safe or rebind; not `{x}`"),
            ))
        }
    })
}
