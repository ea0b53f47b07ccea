//! `promote bench`: time the kernel cases on this machine, next to the copy floor of the same
//! traffic (threads: `RAYON_NUM_THREADS`, default one per core).

use std::time::Duration;

use clap::Args;

use super::PolicyArg;
use crate::error::PromoteError;
use crate::kernel::bench::{cases, measure, Row, COPIES};
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
    if !a.json {
        line(format!(
            "policy {} ({}), {} elements, {} threads\n",
            policy.name(),
            policy.framework(),
            a.elements,
            rayon::current_num_threads()
        ))?;
        line(format!(
            "{:<22} {:>11} {:>23} {:>7} {:>11} {:>15} {:>7} {:>11}",
            "case",
            "median s",
            "fastest..slowest s",
            "GB/s",
            "floor s",
            "floor copy",
            "x floor",
            "alloc s"
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
        line(render_row(&row, a.json))?;
    }
    Ok(0)
}

/// Every line through the shared output helper: a closed pipe or a full disk is exit 3.
fn line(text: String) -> Result<(), PromoteError> {
    super::write_stdout(&(text + "\n"))
}

fn render_row(row: &Row, json: bool) -> String {
    let (floor, floor_name) = row.floor();
    let k = &row.kernel;
    if json {
        let copies: serde_json::Map<String, serde_json::Value> = COPIES
            .iter()
            .zip(&row.copies)
            .map(|((name, _), t)| (name.to_string(), serde_json::json!(t.median())))
            .collect();
        serde_json::json!({
                "case": row.case.call, "label": row.case.label, "plan": row.plan,
                "elements": row.elements, "bytes": row.bytes, "rounds": k.0.len(),
                "seconds": k.median(), "fastest": k.quantile(0.0), "slowest": k.quantile(1.0),
                "gbps": row.gbps(), "floor_seconds": floor, "floor_copy": floor_name,
                "copies": copies, "allocating_seconds": row.allocating.median(),
                "threads": rayon::current_num_threads(),
        })
        .to_string()
    } else {
        format!(
            "{:<22} {:>11.6} {:>11.6}..{:<11.6} {:>7.2} {:>11.6} {:>15} {:>7.2} {:>11.6}",
            row.case.label,
            k.median(),
            k.quantile(0.0),
            k.quantile(1.0),
            row.gbps(),
            floor,
            floor_name,
            k.median() / floor,
            row.allocating.median(),
        )
    }
}
