//! `promote bench`: time the kernel cases on this machine.

use std::time::Duration;

use clap::Args;

use super::PolicyArg;
use crate::error::PromoteError;
use crate::kernel::bench::{cases, measure};
use crate::Policy;

#[derive(Args)]
pub(crate) struct BenchArgs {
    #[command(flatten)]
    policy: PolicyArg,
    /// Elements per operand.
    #[arg(long, short = 'n', default_value_t = 16 * 1024 * 1024)]
    elements: usize,
    /// At least this many timed runs per case (after one warm-up run).
    #[arg(long, default_value_t = 7)]
    runs: usize,
    /// Keep timing a case for up to this many seconds (for a steadier median).
    #[arg(long, default_value_t = 1.0)]
    seconds: f64,
    /// Only the cases whose call contains this text (`int8`, `divide`).
    #[arg(long)]
    only: Option<String>,
    /// One JSON object per case instead of a table.
    #[arg(long)]
    json: bool,
}

pub(crate) fn run(a: BenchArgs) -> Result<i32, PromoteError> {
    let policy = a.policy.load()?;
    let budget = Duration::from_secs_f64(a.seconds.max(0.0));
    // every line through the shared output helper: a closed pipe or a full disk is exit 3
    let line = |text: String| super::write_stdout(&(text + "\n"));
    if !a.json {
        line(format!(
            "policy {} ({}), {} elements, {} threads\n",
            policy.name(),
            policy.framework(),
            a.elements,
            rayon::current_num_threads()
        ))?;
        line(format!(
            "{:<22} {:<58} {:>10} {:>11} {:>8} {:>11} {:>8} {:>7}",
            "case", "plan", "elements", "median s", "GB/s", "copy s", "copy GB/s", "x copy"
        ))?;
    }
    for case in cases() {
        if let Some(o) = &a.only {
            if !case.call.contains(o.as_str()) {
                continue;
            }
        }
        let row = match measure(&*policy, case, a.elements, a.runs.max(1), budget) {
            Ok(r) => r,
            Err(e) => {
                if a.json {
                    line(
                        serde_json::json!({"case": case.call, "error": e.to_string()}).to_string(),
                    )?;
                } else {
                    line(format!("{:<22} {}", case.label, e))?;
                }
                continue;
            }
        };
        if a.json {
            line(
                serde_json::json!({
                    "case": case.call, "label": case.label, "plan": row.plan, "elements": row.elements,
                    "bytes": row.bytes, "seconds": row.seconds, "gbps": row.gbps(),
                    "copy_seconds": row.copy_seconds, "copy_gbps": row.copy_gbps(),
                })
                .to_string(),
            )?;
        } else {
            line(format!(
                "{:<22} {:<58} {:>10} {:>11.6} {:>8.2} {:>11.6} {:>8.2} {:>7.2}",
                case.label,
                row.plan,
                row.elements,
                row.seconds,
                row.gbps(),
                row.copy_seconds,
                row.copy_gbps(),
                row.seconds / row.copy_seconds
            ))?;
        }
    }
    Ok(0)
}
