//! `promote resolve`: the JSONL interface, or a one-shot call.

use std::io::{BufRead, BufReader, BufWriter, Write};

use clap::Args;

use super::PolicyArg;
use crate::error::PromoteError;
use crate::op::Call;
use crate::query;

#[derive(Args)]
pub(crate) struct ResolveArgs {
    #[command(flatten)]
    policy: PolicyArg,
    /// A one-shot call instead of stdin: `add int8 300` (compact operand syntax, `out=DTYPE` last).
    call: Vec<String>,
}

pub(crate) fn run(a: ResolveArgs) -> Result<i32, PromoteError> {
    let policy = a.policy.load()?;
    if !a.call.is_empty() {
        let r = a
            .call
            .join(" ")
            .parse::<Call>()
            .and_then(|c| crate::Policy::resolve(&*policy, &c));
        println!("{}", query::answer_value(&r));
        return Ok(0);
    }
    let mut input = BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    loop {
        line.clear();
        match input.read_line(&mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                // not UTF-8: answer `invalid` and skip to the next line
                let mut skip = Vec::new();
                let _ = input.read_until(b'\n', &mut skip);
                writeln!(
                    out,
                    "{}",
                    query::answer_value(&Err(PromoteError::invalid("the line is not UTF-8")))
                )
                .map_err(|e| PromoteError::invalid(format!("stdout: {e}")))?;
                continue;
            }
            Err(e) => return Err(PromoteError::invalid(format!("stdin: {e}"))),
        }
        let l = line.trim_end_matches(['\n', '\r']);
        if l.trim().is_empty() {
            continue;
        }
        writeln!(out, "{}", query::answer_line(&*policy, l))
            .map_err(|e| PromoteError::invalid(format!("stdout: {e}")))?;
        // answer interactive callers at once; batch when more input is already waiting
        if input.buffer().is_empty() {
            out.flush()
                .map_err(|e| PromoteError::invalid(format!("stdout: {e}")))?;
        }
    }
    out.flush()
        .map_err(|e| PromoteError::invalid(format!("stdout: {e}")))?;
    Ok(0)
}
