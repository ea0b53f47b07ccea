//! `[forms.NAME]`: another entry point's differences from the operator form. Each form
//! compiles into a whole policy of its own (the form's corner rules first, then the policy's
//! own, less those `without_rules` names), so resolving a call of that form is resolving it
//! with that policy: the resolver has no per-form code.

use std::sync::Arc;

use crate::error::PromoteError;
use crate::op::Form;

use super::super::corner::CornerRule;
use super::super::rule_policy::FormVariant;
use super::super::spec;
use super::super::RulePolicy;
use super::nodes::{Dtypes, Graph};
use super::{fast, rules, Ctx};

/// A `[forms.NAME]` section, its rules compiled.
pub(crate) struct FormRules<'s> {
    form: Form,
    spec: &'s spec::FormSpec,
    rules: Vec<CornerRule>,
}

/// The `[forms.NAME]` sections, checked, their rules compiled (before the policy is built:
/// the rules need the policy's dtypes).
pub(crate) fn form_rules<'s>(
    ctx: &Ctx,
    forms: &'s std::collections::BTreeMap<String, spec::FormSpec>,
    dt: &Dtypes,
    g: &Graph,
) -> Result<Vec<FormRules<'s>>, PromoteError> {
    let mut out = Vec::new();
    for (name, f) in forms {
        let at = ctx.src.find(&format!("forms.{name}")).unwrap_or(0);
        let span = at..at + name.len();
        let form = Form::parse(name).map_err(|e| ctx.err(span.clone(), e.to_string()))?;
        if form == Form::Operator {
            return Err(ctx.err(
                span,
                "the operator form is what the rest of the file says; write its rules in [[rules]]",
            ));
        }
        if f.like.is_some() && (!f.rules.is_empty() || !f.without_rules.is_empty()) {
            return Err(ctx.err(
                span,
                format!(
                    "[forms.{name}] with `like` takes no rules: the other policy's form answers"
                ),
            ));
        }
        let rules = f
            .rules
            .iter()
            .map(|r| rules::rule(ctx, r, dt, g))
            .collect::<Result<Vec<_>, _>>()?;
        out.push(FormRules {
            form,
            spec: f,
            rules,
        });
    }
    Ok(out)
}

/// Each form as a policy: `like` another built-in policy's form, or the base policy with the
/// form's rules in front and the rules it does not have left out.
pub(crate) fn variants(
    ctx: &Ctx,
    base: &RulePolicy,
    forms: Vec<FormRules>,
) -> Result<Vec<FormVariant>, PromoteError> {
    let mut out = Vec::new();
    for f in forms {
        let policy = match &f.spec.like {
            Some(like) => {
                let other = super::super::builtin(like.get_ref())
                    .map_err(|e| ctx.err(like.span(), e.to_string()))?;
                let mut p = other
                    .for_form(f.form)
                    .map_err(|e| ctx.err(like.span(), e.to_string()))?
                    .clone();
                p.name.clone_from(&base.name);
                p
            }
            None => own_variant(ctx, base, &f)?,
        };
        out.push(FormVariant {
            form: f.form,
            source: f.spec.source.clone(),
            policy: Arc::new(policy),
        });
    }
    Ok(out)
}

fn own_variant(ctx: &Ctx, base: &RulePolicy, f: &FormRules) -> Result<RulePolicy, PromoteError> {
    for w in &f.spec.without_rules {
        if !base.rules.iter().any(|r| r.source.starts_with(w.get_ref())) {
            return Err(ctx.err(
                w.span(),
                format!(
                    "no [[rules]] entry has a source starting with {:?}",
                    w.get_ref()
                ),
            ));
        }
    }
    let kept = base.rules.iter().filter(|r| {
        !f.spec
            .without_rules
            .iter()
            .any(|w| r.source.starts_with(w.get_ref()))
    });
    let mut p = base.clone();
    p.rules = f.rules.iter().chain(kept).cloned().collect();
    p.form = f.form;
    p.forms = Vec::new();
    p.fast = fast::table(&p);
    Ok(p)
}
