//! `promote explain`: the chain of rules behind one call.

use clap::Args;

use super::PolicyArg;
use crate::error::PromoteError;
use crate::op::Call;
use crate::Policy;

#[derive(Args)]
pub(crate) struct ExplainArgs {
    #[command(flatten)]
    policy: PolicyArg,
    /// The op (default add).
    #[arg(long, default_value = "add")]
    op: String,
    /// Operands in the compact syntax (`int8 1.0`), then optionally `out=DTYPE`.
    operands: Vec<String>,
}

/// The explanation text of one call.
pub(crate) fn explain(policy: &dyn Policy, call: &Call) -> String {
    let mut s = format!("{} under {} ({}):\n", call, policy.name(), policy.framework());
    match policy.resolve(call) {
        Ok(p) => {
            s.push_str(&p.explain());
            s.push_str(&format!("=> {}{} ({})\n", if p.weak { "~" } else { "" }, p.result, p));
        }
        Err(e) => s.push_str(&format!("=> error {}: {}\n", e.kind().name(), e)),
    }
    s
}

pub(crate) fn run(a: ExplainArgs) -> Result<i32, PromoteError> {
    let policy = a.policy.load()?;
    let call: Call = format!("{} {}", a.op, a.operands.join(" ")).parse()?;
    print!("{}", explain(&*policy, &call));
    Ok(0)
}
