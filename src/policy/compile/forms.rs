//! `[forms.NAME]`: another entry point's differences from the operator form. Each form
//! compiles into a whole policy of its own (the form's corner rules first, then the policy's
//! own, less those `without_rules` names; with a `patch`, the file with the patch merged in;
//! with `like`, another built-in policy's form), so resolving a call of that form is resolving
//! it with that policy: the resolver has no per-form code.

use std::sync::Arc;

use crate::error::PromoteError;
use crate::op::Form;

use super::super::corner::CornerRule;
use super::super::rule_policy::FormVariant;
use super::super::spec;
use super::super::RulePolicy;
use super::nodes::{Dtypes, Graph};
use super::{rules, Ctx};

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
        if f.like.is_some() && f.patch.is_some() {
            return Err(ctx.err(
                span,
                format!(
                    "[forms.{name}] with `like` takes no patch: the other policy's form answers (its rules may go in front)"
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
                if !f.rules.is_empty() || !f.spec.without_rules.is_empty() {
                    let base_rules = std::mem::take(&mut p.rules);
                    p.rules = kept_rules(ctx, &base_rules, &f)?;
                    p.fast = Default::default(); // rebuilt from the new rules when first asked
                }
                p
            }
            None if f.spec.patch.is_some() => patched_variant(ctx, base, &f)?,
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

/// The form's rules, then `rules` less those whose source starts with a `without_rules` entry.
fn kept_rules(
    ctx: &Ctx,
    rules: &[CornerRule],
    f: &FormRules,
) -> Result<Vec<CornerRule>, PromoteError> {
    for w in &f.spec.without_rules {
        if !rules.iter().any(|r| r.source.starts_with(w.get_ref())) {
            return Err(ctx.err(
                w.span(),
                format!(
                    "no [[rules]] entry has a source starting with {:?}",
                    w.get_ref()
                ),
            ));
        }
    }
    let kept = rules.iter().filter(|r| {
        !f.spec
            .without_rules
            .iter()
            .any(|w| r.source.starts_with(w.get_ref()))
    });
    Ok(f.rules.iter().chain(kept).cloned().collect())
}

fn own_variant(ctx: &Ctx, base: &RulePolicy, f: &FormRules) -> Result<RulePolicy, PromoteError> {
    let mut p = base.clone();
    p.rules = kept_rules(ctx, &base.rules, f)?;
    p.form = f.form;
    p.forms = Vec::new();
    p.fast = Default::default(); // rebuilt from the new rules when first asked
    Ok(p)
}

/// A form with `[forms.NAME.patch]`: the file without its forms and settings, the patch
/// merged in (its `ops` entries after the file's own), compiled; then the form's rules.
fn patched_variant(
    ctx: &Ctx,
    base: &RulePolicy,
    f: &FormRules,
) -> Result<RulePolicy, PromoteError> {
    let name = f.form.name();
    let file_err = |e: String| ctx.err(0..0, format!("[forms.{name}.patch]: {e}"));
    let mut doc: toml::Table = toml::from_str(ctx.src).map_err(|e| file_err(e.to_string()))?;
    doc.remove("forms");
    doc.remove("settings");
    let mut patch = f.spec.patch.clone().unwrap_or_default();
    let ops = patch.remove("ops");
    super::super::settings::merge(&mut doc, &patch);
    if let Some(toml::Value::Array(more)) = ops {
        match doc.get_mut("ops") {
            Some(toml::Value::Array(own)) => own.extend(more),
            _ => {
                doc.insert("ops".into(), toml::Value::Array(more));
            }
        }
    }
    let text = toml::to_string(&doc).map_err(|e| file_err(e.to_string()))?;
    let mut p = super::compile(&text, &format!("{} [forms.{name}.patch]", ctx.file))?;
    p.rules = kept_rules(ctx, &p.rules, f)?;
    p.name.clone_from(&base.name);
    p.settings = base.settings.clone();
    p.form = f.form;
    p.fast = Default::default(); // rebuilt from the new rules when first asked
    Ok(p)
}
