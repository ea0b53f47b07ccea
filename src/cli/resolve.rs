//! `promote resolve`: the JSONL interface, or a one-shot call.

use std::io::{BufReader, BufWriter, Write};

use clap::Args;

use super::{AutocastArg, PolicyArg};
use crate::error::PromoteError;
use crate::jsonl::{self, Framing};
use crate::op::Call;
use crate::query;

/// The stream options `resolve` and `eval` share.
#[derive(Args, Clone, Copy)]
pub(crate) struct StreamArgs {
    /// Lines longer than this many bytes get an `invalid` answer (the stream goes on).
    #[arg(long, default_value_t = jsonl::DEFAULT_MAX_LINE_BYTES)]
    pub(crate) max_line_bytes: usize,
}

#[derive(Args)]
pub(crate) struct ResolveArgs {
    #[command(flatten)]
    policy: PolicyArg,
    #[command(flatten)]
    stream: StreamArgs,
    #[command(flatten)]
    autocast: AutocastArg,
    /// A one-shot call instead of stdin: `add int8 300`, `add uint8 -1` (compact operand
    /// syntax, `out=DTYPE` last). Exit status 1 when the answer is an error.
    #[arg(allow_hyphen_values = true)]
    call: Vec<String>,
}

pub(crate) fn run(a: ResolveArgs) -> Result<i32, PromoteError> {
    let policy = a.policy.load()?;
    let layer = a.autocast.load()?;
    if !a.call.is_empty() {
        let r = a
            .call
            .join(" ")
            .parse::<Call>()
            .and_then(|c| crate::autocast::resolve_under(&*policy, layer.as_deref(), &c));
        super::write_stdout(&format!("{}\n", query::answer_value(&r)))?;
        return Ok(super::answer_status(r.is_ok()));
    }
    serve_stdin(a.stream, |line, out| {
        out.write_all(query::answer_line_under(&*policy, layer.as_deref(), line).as_bytes())
    })?;
    Ok(super::EXIT_ANSWERED)
}

/// Answer standard input line by line (the framing of [`crate::jsonl`]).
pub(crate) fn serve_stdin(
    stream: StreamArgs,
    answer: impl FnMut(&str, &mut BufWriter<std::io::StdoutLock<'static>>) -> std::io::Result<()>,
) -> Result<(), PromoteError> {
    let input = BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    jsonl::serve(
        input,
        &mut out,
        Framing::for_stdin(stream.max_line_bytes),
        answer,
        |e| query::answer_of(&Err(e.clone())).to_string(),
    )
}
