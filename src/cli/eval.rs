//! `promote eval`: JSONL queries with data in, answers with data out (the spec's `eval`).

use std::io::{BufRead, BufReader, BufWriter, Write};

use clap::Args;

use super::PolicyArg;
use crate::error::PromoteError;
use crate::kernel::eval;

#[derive(Args)]
pub(crate) struct EvalArgs {
    #[command(flatten)]
    policy: PolicyArg,
}

fn io(e: std::io::Error, what: &str) -> PromoteError {
    PromoteError::Invalid {
        message: format!("{what}: {e}"),
    }
}

pub(crate) fn run(a: EvalArgs) -> Result<i32, PromoteError> {
    let policy = a.policy.load()?;
    let mut input = BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input
            .read_until(b'\n', &mut line)
            .map_err(|e| io(e, "stdin"))?
            == 0
        {
            break;
        }
        let answer = match std::str::from_utf8(&line) {
            Ok(l) => {
                let l = l.trim_end_matches(['\n', '\r']);
                if l.trim().is_empty() {
                    continue;
                }
                eval::answer_line(&*policy, l)
            }
            Err(_) => eval::answer_value(&Err(PromoteError::Invalid {
                message: "the line is not UTF-8".into(),
            })),
        };
        writeln!(out, "{answer}").map_err(|e| io(e, "stdout"))?;
        // answer interactive callers at once; batch when more input is already waiting
        if input.buffer().is_empty() {
            out.flush().map_err(|e| io(e, "stdout"))?;
        }
    }
    out.flush().map_err(|e| io(e, "stdout"))?;
    Ok(0)
}
