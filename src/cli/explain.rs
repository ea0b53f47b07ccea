//! `promote explain`: parse the call, print the library's [`Explanation`] of it (under one
//! policy, or under every built-in one after a summary table; `--autocast` puts a layer over
//! each, its step first).
//!
//! [`Explanation`]: crate::analysis::Explanation

use clap::Args;

use super::render::{aligned, emit, refuse};
use super::{AutocastArg, PolicyArg};
use crate::analysis::explain_under;
use crate::error::PromoteError;
use crate::op::{Call, Op};
use crate::policy;

#[derive(Args)]
pub(crate) struct ExplainArgs {
    #[command(flatten)]
    policy: PolicyArg,
    #[command(flatten)]
    autocast: AutocastArg,
    /// Explain under every built-in policy, after a one-line-per-policy summary.
    #[arg(long)]
    all: bool,
    /// The op (default add; the first word may name it instead: `explain divide int8 3`).
    #[arg(long)]
    op: Option<String>,
    /// Operands in the compact syntax (`int8 1.0`, `uint8(3)`, `~int32`), then optionally `out=DTYPE`.
    #[arg(required = true, allow_hyphen_values = true)]
    operands: Vec<String>,
}

fn call_of(a: &ExplainArgs) -> Result<Call, PromoteError> {
    let mut words = a.operands.clone();
    // the first word may be `OP` or `OP:FORM` (`add:function`)
    let op_word = |w: &String| Op::parse(w.split_once(':').map_or(w.as_str(), |(op, _)| op));
    let op = match (&a.op, words.first().map(op_word)) {
        (Some(op), _) => op.clone(),
        (None, Some(Ok(_))) => words.remove(0),
        (None, _) => "add".to_string(),
    };
    let call: Call = format!("{op} {}", words.join(" ")).parse()?;
    // `--form F`: the call goes through that entry point under every policy (`--all` too)
    match &a.policy.form {
        Some(f) => Ok(call.with_form(crate::op::Form::parse(f)?)),
        None => Ok(call),
    }
}

pub(crate) fn run(a: ExplainArgs) -> Result<i32, PromoteError> {
    // a call that does not parse is an answer too: an invalid call (exit status 1)
    let call = match call_of(&a) {
        Ok(call) => call,
        Err(e) => return refuse(&e),
    };
    let layer = a.autocast.load()?;
    let layer = layer.as_deref();
    if !a.all {
        // the call carries `--form`: a form the policy lacks is its answer, not a usage error
        let p = a.policy.load_all_forms()?;
        let e = explain_under(&p, layer, &call);
        emit(&e.to_string());
        return Ok(super::answer_status(e.outcome.is_ok()));
    }
    let mut rows = vec![vec!["policy".to_string(), format!("{call}")]];
    let mut details = String::new();
    for name in policy::BUILTIN {
        let p = policy::builtin(name)?;
        let answer = match crate::autocast::resolve_under(&*p, layer, &call) {
            Ok(plan) => format!("{}{}", if plan.weak { "~" } else { "" }, plan.result),
            Err(e) => format!("!{}", e.kind().name()),
        };
        rows.push(vec![name.to_string(), answer]);
        details.push_str(&format!(
            "\n## {name}\n\n{}",
            explain_under(&p, layer, &call)
        ));
    }
    emit(&format!("{}{details}", aligned(&rows)));
    Ok(0)
}
