//! `promote ops [--policy P]`: the ops a policy has, with class, arity and rule
//! ([`RulePolicy::op_listing`](crate::RulePolicy::op_listing) renders; this only prints).
//! Without `--policy`/`--policy-file`: the op catalogue, and which built-in policies have each op.

use clap::Args;

use super::render::aligned;
use super::{emit, EXIT_ANSWERED};
use crate::error::PromoteError;
use crate::op::Op;
use crate::policy::{self, BUILTIN};

#[derive(Args)]
pub(crate) struct OpsArgs {
    /// A built-in policy; without it (and without --policy-file), the whole catalogue.
    #[arg(long, short = 'p')]
    policy: Option<String>,
    /// A policy file of your own (TOML, see policies/README.md).
    #[arg(long)]
    policy_file: Option<std::path::PathBuf>,
}

pub(crate) fn run(a: OpsArgs) -> Result<i32, PromoteError> {
    let p = match (&a.policy_file, &a.policy) {
        (Some(f), _) => Some(std::sync::Arc::new(policy::load_file(f)?)),
        (None, Some(name)) => Some(policy::builtin(name)?),
        (None, None) => None,
    };
    let text = match p {
        Some(p) => {
            let mut rows = vec![vec![
                "op".to_string(),
                "class".into(),
                "arity".into(),
                "rule".into(),
            ]];
            for o in p.op_listing() {
                let arity = match o.results {
                    1 => o.form.name().to_string(),
                    n => format!("{}, {n} results", o.form.name()),
                };
                rows.push(vec![o.op.name().into(), o.class.into(), arity, o.rule]);
            }
            format!("{}: {} ops\n\n{}", p.name, rows.len() - 1, aligned(&rows))
        }
        None => catalogue()?,
    };
    emit(&text);
    Ok(EXIT_ANSWERED)
}

/// Every op of the catalogue, with the built-in policies that have it.
fn catalogue() -> Result<String, PromoteError> {
    let policies = BUILTIN
        .iter()
        .map(|n| policy::builtin(n))
        .collect::<Result<Vec<_>, _>>()?;
    let mut rows = vec![vec![
        "op".to_string(),
        "class".into(),
        "arity".into(),
        "spellings".into(),
        "policies".into(),
    ]];
    for op in Op::all() {
        let info = op.info();
        let has: Vec<&str> = policies
            .iter()
            .filter(|p| p.knows(op))
            .map(|p| p.name.as_str())
            .collect();
        rows.push(vec![
            op.name().into(),
            op.class().into(),
            op.form().name().into(),
            info.aliases.join(" "),
            if has.len() == policies.len() {
                "all".into()
            } else {
                has.join(" ")
            },
        ]);
    }
    Ok(aligned(&rows))
}
