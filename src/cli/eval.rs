//! `promote eval`: JSONL queries with data in, answers with data out (the spec's `eval`), or
//! one call on `.npy` files (`promote eval --policy numpy add a.npy b.npy -o c.npy`).

use std::io::{BufReader, BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use serde_json::json;

use super::resolve::StreamArgs;
use super::{AutocastArg, PolicyArg};
use crate::error::PromoteError;
use crate::jsonl::{self, Framing};
use crate::kernel::array::View;
use crate::kernel::eval::{self, Evaluated};
use crate::kernel::npy::{self, Npy};
use crate::op::{Call, Op};
use crate::operand::{held_value, Operand};
use crate::policy::RulePolicy;
use crate::query;

#[derive(Args)]
pub(crate) struct EvalArgs {
    #[command(flatten)]
    policy: PolicyArg,
    #[command(flatten)]
    stream: StreamArgs,
    #[command(flatten)]
    autocast: AutocastArg,
    /// A one-shot call instead of stdin: `add a.npy b.npy` (operands: `.npy` files, 0-d
    /// tensors such as `int8(5)`, Python literals such as `-1` or `2.5`; `out=DTYPE` last).
    /// Exit status 1 when the answer is an error.
    #[arg(allow_hyphen_values = true)]
    call: Vec<String>,
    /// Write the one-shot result to this `.npy` file (stdout then gets the answer without data).
    #[arg(long, short = 'o')]
    output: Option<PathBuf>,
}

pub(crate) fn run(a: EvalArgs) -> Result<i32, PromoteError> {
    let policy = a.policy.load()?;
    let layer = a.autocast.load()?;
    if !a.call.is_empty() {
        return one_shot(&policy, layer.as_deref(), &a.call, a.output.as_deref());
    }
    if a.output.is_some() {
        return Err(PromoteError::invalid(
            "-o writes the result of a one-shot call: `promote eval add a.npy b.npy -o c.npy`",
        ));
    }
    // lines over 1 MiB are parsed as they are read, never held whole: a query costs its arrays
    let input = BufReader::with_capacity(1 << 16, std::io::stdin().lock());
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    jsonl::serve_streaming(
        input,
        &mut out,
        Framing::for_stdin(a.stream.max_line_bytes),
        jsonl::STREAM_ABOVE_BYTES,
        |line| eval::eval_reader_under(&*policy, layer.as_deref(), line.as_bytes()),
        |stream| eval::eval_reader_under(&*policy, layer.as_deref(), stream),
        eval::write_answer,
        |e| query::answer_of(&Err(e.clone())).to_string(),
    )?;
    Ok(super::EXIT_ANSWERED)
}

/// A call's operand words: `.npy` files become tensors with data.
struct Operands {
    files: Vec<Option<Npy>>,
    call: Call,
}

fn operands(words: &[String]) -> Result<Operands, PromoteError> {
    let mut words: Vec<&str> = words.iter().map(String::as_str).collect();
    let out = match words.last().and_then(|w| w.strip_prefix("out=")) {
        Some(d) => {
            let d = crate::DType::parse(d)?;
            words.pop();
            Some(d)
        }
        None => None,
    };
    let op = match words.first().map(|w| Op::parse(w)) {
        Some(Ok(op)) => {
            words.remove(0);
            op
        }
        _ => Op::Add,
    };
    let mut files = Vec::new();
    let mut ops = Vec::new();
    for w in words {
        if w.ends_with(".npy") {
            let f = npy::read(std::path::Path::new(w))?;
            let zero_dim = f.shape.is_empty();
            let value = match zero_dim {
                true => Some(held_value(
                    f.dtype,
                    &crate::kernel::value::format_array(f.view())
                        .pop()
                        .unwrap_or_default(),
                )?),
                false => None,
            };
            ops.push(Operand::Tensor {
                dtype: f.dtype,
                weak: false,
                zero_dim,
                value,
            });
            files.push(Some(f));
        } else {
            let o: Operand = w.parse()?;
            if matches!(o, Operand::Tensor { value: None, .. }) {
                return Err(PromoteError::invalid(format!(
                    "`{w}` is a tensor without data: pass it as a .npy file, or a 0-d value such as int8(5)"
                )));
            }
            ops.push(o);
            files.push(None);
        }
    }
    Ok(Operands {
        files,
        call: Call::new(op, ops, out)?,
    })
}

/// The result's shape: the shape of the largest operand (`()` for reductions and matmul).
fn result_shape(call: &Call, files: &[Option<Npy>], len: usize) -> Vec<usize> {
    if matches!(call.op, Op::Sum | Op::Matmul) {
        return Vec::new();
    }
    files
        .iter()
        .flatten()
        .filter(|f| f.shape.iter().product::<usize>() == len)
        .map(|f| f.shape.clone())
        .max_by_key(|s| s.len())
        .unwrap_or_else(|| vec![len])
}

fn check_shapes(files: &[Option<Npy>]) -> Result<(), PromoteError> {
    let big: Vec<&Npy> = files
        .iter()
        .flatten()
        .filter(|f| f.shape.iter().product::<usize>() != 1)
        .collect();
    if let Some(f) = big.iter().find(|f| f.fortran_order && f.shape.len() > 1) {
        return Err(PromoteError::invalid(format!(
            "a {:?} array in Fortran order: save it C-ordered (np.save(path, np.ascontiguousarray(a)))",
            f.shape
        )));
    }
    match big.windows(2).find(|w| w[0].shape != w[1].shape) {
        Some(w) => Err(PromoteError::invalid(format!(
            "shapes {:?} and {:?} differ: eval computes element by element on equal shapes (or one element)",
            w[0].shape, w[1].shape
        ))),
        None => Ok(()),
    }
}

fn one_shot(
    policy: &RulePolicy,
    layer: Option<&crate::autocast::Autocast>,
    words: &[String],
    output: Option<&std::path::Path>,
) -> Result<i32, PromoteError> {
    let answer = operands(words).and_then(|o| {
        check_shapes(&o.files)?;
        let views: Vec<Option<View<'_>>> =
            o.files.iter().map(|f| f.as_ref().map(Npy::view)).collect();
        match output {
            // one result, no autocast layer: computed straight into the file
            Some(path) if layer.is_none() && o.call.op.info().parts.is_empty() => {
                let (plan, shape) = into_file(policy, &o, &views, path)?;
                Ok(Done::Written(written(&plan, &shape, path)))
            }
            _ => {
                let r = crate::autocast::evaluate_under(policy, layer, &o.call, &views)?;
                let shape = result_shape(&o.call, &o.files, r.data.len());
                Ok(Done::Computed(r, shape))
            }
        }
    });
    let (text, status) = match answer {
        Err(e @ PromoteError::Io { .. }) => return Err(e),
        Err(e) => (answer_text(&Err(e)), super::EXIT_REFUSED),
        Ok(Done::Computed(r, shape)) => match output {
            Some(path) => {
                npy::write(path, r.data.view(), &shape)?;
                (written(&r.plan, &shape, path), super::EXIT_ANSWERED)
            }
            None => (answer_text(&Ok(r)), super::EXIT_ANSWERED),
        },
        Ok(Done::Written(text)) => (text, super::EXIT_ANSWERED),
    };
    super::write_stdout(&text)?;
    Ok(status)
}

/// A one-shot call's result: in memory (and its shape), or already in its `.npy` file (and
/// the answer line saying so).
enum Done {
    Computed(Evaluated, Vec<usize>),
    Written(String),
}

/// The kernel writes into the `.npy` file mapped for writing (no result buffer, no copy
/// into the page cache); the file appears at `path` once complete.
fn into_file(
    policy: &RulePolicy,
    o: &Operands,
    views: &[Option<View<'_>>],
    path: &std::path::Path,
) -> Result<(crate::Plan, Vec<usize>), PromoteError> {
    let (plan, len) = eval::plan_and_len(policy, &o.call, views)?;
    let shape = result_shape(&o.call, &o.files, len);
    let mut out = npy::create(path, plan.result, &shape)?;
    eval::evaluate_into(policy, &o.call, &plan, views, out.view_mut())?;
    out.finish()?;
    Ok((plan, shape))
}

/// The answer line of a result written to a file.
fn written(plan: &crate::Plan, shape: &[usize], path: &std::path::Path) -> String {
    let summary = json!({"dtype": plan.result.name(), "weak": plan.weak,
        "shape": shape, "file": path.display().to_string()});
    format!("{summary}\n")
}

fn answer_text(r: &Result<Evaluated, PromoteError>) -> String {
    let mut v = Vec::new();
    let _ = eval::write_answer(r, &mut v).and_then(|_| v.write_all(b"\n"));
    String::from_utf8_lossy(&v).into_owned()
}
