//! The `promote` command line: one file per subcommand.

mod autocasts;
mod bench;
mod check;
mod check_report;
mod diff;
mod dtypes;
mod eval;
mod explain;
mod lattice;
mod ops;
mod render;
mod resolve;
mod svg;
mod table;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use std::ffi::OsString;

use clap::{Args, CommandFactory, Parser, Subcommand};

use crate::error::PromoteError;
use crate::policy::{self, RulePolicy};

/// Know how every tensor framework promotes dtypes, and why.
#[derive(Parser)]
#[command(name = "promote", version, about, long_about = None, after_help = OPERAND_HELP)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

pub(crate) const OPERAND_HELP: &str = "\
A call is `[OP] OPERAND [OPERAND] [out=DTYPE]` (no OP: add), operands in the compact syntax:
  int8            a tensor with one or more dimensions (any dtype spelling: i8, torch.int8, np.int8)
  int8(5)         a 0-d tensor holding 5 (a value int8 can hold); int8() leaves the value out
                  (value-based policies such as numpy1 then assume 1)
  ~int32          a weakly typed tensor (JAX weak_type, TF WeakTensor); ~int32(5) is a 0-d one
  True 300 -1     Python literals, as repr writes them: True, 300, -1, 1.0, 1e+300, inf, nan,
  1.0 1j (1+2j)   1j, (1+2j); ints of any size (18446744073709551616)
  out=int8        write the result into an existing int8 tensor (in-place ops, out=)
Examples:
  promote resolve --policy numpy add uint8 300          one call, answered as JSON
  promote explain --policy torch int8 1.0               why, in plain words (--all: every policy)
  promote table --policy paddle --with scalars          a promotion table as the docs print it
  promote diff torch jax                                every cell where two policies differ
  promote check my-policy.toml                          validate a policy: lattice? associative?
  promote lattice --policy jax > jax.svg                the promotion lattice as a picture
  promote eval --policy numpy add a.npy b.npy -o c.npy  execute a call on .npy files
Exit status: 0 answered, 1 the answer is an error (a refused promotion, an invalid call),
2 invalid usage, 3 reading or writing failed. JSONL streams exit 0 with errors as answers.
Policies: numpy numpy1 torch oneflow jax jax-x64 jax-strict tf tf-legacy tf-all tf-safe paddle array-api";

/// Which policy: a built-in name or a file.
#[derive(Args, Clone)]
pub(crate) struct PolicyArg {
    /// A built-in policy (`promote policies` lists them).
    #[arg(long, short = 'p', default_value = "torch")]
    policy: String,
    /// A policy file of your own (TOML, see policies/README.md); overrides --policy.
    #[arg(long)]
    policy_file: Option<std::path::PathBuf>,
    /// The entry point every call goes through: `operator` (`a + b`, the default), `function`
    /// (`np.add`, `tf.math.add`, ...), or a named variant (`tnp`); `--policy tf:function` is
    /// the same.
    #[arg(long)]
    form: Option<String>,
    /// A framework setting, KEY=VALUE (repeatable): `--set default_float=float64` (torch),
    /// `--set enable_x64=true` (jax); `promote policies` lists each policy's settings.
    #[arg(long = "set", value_name = "KEY=VALUE", value_parser = parse_setting)]
    set: Vec<(String, String)>,
}

/// `KEY=VALUE` of `--set`.
fn parse_setting(s: &str) -> Result<(String, String), String> {
    match s.split_once('=') {
        Some((k, v)) if !k.is_empty() && !v.is_empty() => Ok((k.trim().into(), v.trim().into())),
        _ => Err(format!(
            "`{s}` is not KEY=VALUE; write e.g. --set default_float=float64"
        )),
    }
}

impl PolicyArg {
    /// The policy (`--policy` or `--policy-file`, under `--set`), every entry point of it.
    pub(crate) fn load_all_forms(&self) -> Result<Arc<RulePolicy>, PromoteError> {
        let p = match &self.policy_file {
            Some(p) => policy::load_file(p).map(Arc::new),
            None => crate::analysis::load_policy(&self.policy),
        }?;
        match self.set.is_empty() {
            true => Ok(p),
            false => p.with_settings(&self.set),
        }
    }

    /// The policy, as the `--form` entry point when one is given.
    pub(crate) fn load(&self) -> Result<Arc<RulePolicy>, PromoteError> {
        let p = self.load_all_forms()?;
        match &self.form {
            Some(f) => p.as_form(crate::op::Form::parse(f)?).map(Arc::new),
            None => Ok(p),
        }
    }
}

/// A mixed-precision autocast layer over the policy (`promote autocasts` lists them).
#[derive(Args, Clone, Default)]
pub(crate) struct AutocastArg {
    /// Resolve under a built-in autocast (`torch-cpu-bf16`, ...; `promote autocasts`). A query's
    /// own `"autocast"` key overrides it.
    #[arg(long)]
    autocast: Option<String>,
    /// An autocast file of your own (TOML, see policies/README.md); overrides --autocast.
    #[arg(long)]
    autocast_file: Option<std::path::PathBuf>,
}

impl AutocastArg {
    pub(crate) fn load(&self) -> Result<Option<Arc<crate::autocast::Autocast>>, PromoteError> {
        match (&self.autocast_file, &self.autocast) {
            (Some(p), _) => crate::autocast::load_autocast_file(p).map(|a| Some(Arc::new(a))),
            (None, Some(n)) => crate::autocast::builtin_autocast(n).map(Some),
            (None, None) => Ok(None),
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Answer JSONL queries on stdin (the spec's machine interface), or one call given as arguments.
    Resolve(resolve::ResolveArgs),
    /// Print a policy's promotion table, rows the first operand.
    Table(table::TableArgs),
    /// Say which rules decide a call, step by step.
    Explain(explain::ExplainArgs),
    /// List the dtypes a policy's framework has, with aliases and sizes.
    Dtypes(dtypes::DtypesArgs),
    /// List the built-in policies.
    Policies,
    /// List the ops a policy has (class, arity, rule), or the whole op catalogue.
    Ops(ops::OpsArgs),
    /// List the built-in autocast layers (mixed precision): name, dtype, framework, how known.
    Autocasts,
    /// Every cell where two policies disagree, grouped by operand kinds; exit status 1 when they differ.
    Diff(diff::DiffArgs),
    /// Validate a policy file: errors with line and column, joins, commutativity, associativity.
    Check(check::CheckArgs),
    /// Draw a policy's promotion lattice (its Hasse diagram) as SVG or Graphviz dot.
    Lattice(lattice::LatticeArgs),
    /// Execute JSONL queries with data on stdin (`promote eval --policy numpy`): the spec's `eval`.
    Eval(eval::EvalArgs),
    /// Time the kernel cases on generated data: median seconds, GB/s, and a plain copy as the floor.
    Bench(bench::BenchArgs),
}

/// Exit status: the call was answered.
pub const EXIT_ANSWERED: i32 = 0;
/// Exit status: the one-shot answer is an error (a refused promotion, an invalid call).
pub const EXIT_REFUSED: i32 = 1;
/// Exit status: invalid usage (bad arguments, an unknown policy, a malformed policy file).
pub const EXIT_USAGE: i32 = 2;
/// Exit status: reading input or writing output failed (a closed pipe, a full disk).
pub const EXIT_IO: i32 = 3;

static WRITE_FAILED: AtomicBool = AtomicBool::new(false);

/// The exit status of a one-shot answer.
pub(crate) fn answer_status(answered: bool) -> i32 {
    if answered {
        EXIT_ANSWERED
    } else {
        EXIT_REFUSED
    }
}

/// Write `text` to standard output and flush it: the one output path of the one-shot
/// subcommands. A failure is an I/O error (exit status 3), never an "invalid query".
pub(crate) fn write_stdout(text: &str) -> Result<(), PromoteError> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|_| out.flush())
        .map_err(|e| PromoteError::io("stdout", &e))
}

/// [`write_stdout`] for subcommands that do not return its error: a failure is reported
/// once on stderr and makes the exit status 3.
pub(crate) fn emit(text: &str) {
    if let Err(e) = write_stdout(text) {
        if !WRITE_FAILED.swap(true, Ordering::Relaxed) {
            eprintln!("promote: {e}");
        }
    }
}

/// Options written after a call's words move before them, so that a call may hold negative
/// literals (`add uint8 -1`, `-inf`, `-1j`: its positional arguments accept hyphens) while
/// options still go anywhere (`eval add a.npy b.npy -o c.npy`, `resolve add int8 1 -p numpy`).
/// Only the subcommand's own option names move; everything else keeps its order.
fn options_first(args: Vec<OsString>) -> Vec<OsString> {
    let cli = Cli::command();
    let Some(sub) = args
        .get(1)
        .and_then(|a| a.to_str())
        .and_then(|name| cli.find_subcommand(name))
    else {
        return args;
    };
    // each option spelling, and whether it takes a value
    let mut options: Vec<(String, bool)> = Vec::new();
    for a in sub.get_arguments().filter(|a| !a.is_positional()) {
        let takes_value = a.get_action().takes_values();
        options.extend(a.get_long().map(|l| (format!("--{l}"), takes_value)));
        options.extend(a.get_short().map(|c| (format!("-{c}"), takes_value)));
    }
    let (head, rest) = args.split_at(2);
    let (mut moved, mut kept) = (head.to_vec(), Vec::new());
    let mut i = 0;
    while i < rest.len() {
        let word = rest[i].to_string_lossy();
        if word == "--" {
            kept.extend_from_slice(&rest[i..]);
            break;
        }
        let option = options.iter().find(|(o, _)| {
            *word == **o || (o.starts_with("--") && word.starts_with(&format!("{o}=")))
        });
        match option {
            Some((o, true)) if *word == **o && i + 1 < rest.len() => {
                moved.extend_from_slice(&rest[i..i + 2]);
                i += 2;
                continue;
            }
            Some(_) => moved.push(rest[i].clone()),
            None => kept.push(rest[i].clone()),
        }
        i += 1;
    }
    moved.extend(kept);
    moved
}

/// Run the CLI on these arguments (the first is the program's name, as `std::env::args_os`
/// gives them); returns the exit status. Arguments clap refuses print its usage and end the
/// process with status 2, as the `promote` binary does.
///
/// ```
/// assert_eq!(promote::cli::run(["promote", "policies"]), 0);
/// assert_eq!(promote::cli::run(["promote", "resolve", "-p", "torch", "add", "int8", "1.0"]), 0);
/// assert_eq!(promote::cli::run(["promote", "resolve", "-p", "torch", "add", "int9", "1.0"]), 1);
/// ```
pub fn run<I, T>(args: I) -> i32
where
    I: IntoIterator<Item = T>,
    T: Into<OsString>,
{
    let args = args.into_iter().map(Into::into).collect();
    let cli = Cli::parse_from(options_first(args));
    let r = match cli.command {
        Command::Resolve(a) => resolve::run(a),
        Command::Table(a) => table::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Dtypes(a) => dtypes::run(a),
        Command::Policies => dtypes::policies(),
        Command::Ops(a) => ops::run(a),
        Command::Autocasts => autocasts::run(),
        Command::Diff(a) => diff::run(a),
        Command::Check(a) => check::run(a),
        Command::Lattice(a) => lattice::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Bench(a) => bench::run(a),
    };
    match r {
        Ok(_) if WRITE_FAILED.load(Ordering::Relaxed) => EXIT_IO,
        Ok(code) => code,
        Err(e @ PromoteError::Io { .. }) => {
            eprintln!("promote: {e}");
            EXIT_IO
        }
        Err(e) => {
            eprintln!("promote: {e}");
            EXIT_USAGE
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The CLI's reports as values, for bindings (the Python package) that show the same text and data.

/// The text `promote explain` prints for one call under one policy.
///
/// ```
/// let torch = promote::builtin("torch").unwrap();
/// let text = promote::cli::explain_text(&torch, &"add int8 1.0".parse().unwrap());
/// assert!(text.starts_with("add int8 1.0 gives float32 under torch"));
/// ```
pub fn explain_text(p: &RulePolicy, call: &crate::Call) -> String {
    crate::analysis::explain(p, call).to_string()
}

/// The report of `promote diff A B --op OPS --format json`: every cell where two policies
/// disagree. `ops` is an op, several separated by commas, or `all`.
///
/// ```
/// let (t, j) = (promote::builtin("torch").unwrap(), promote::builtin("jax").unwrap());
/// let d = promote::cli::diff_json(&t, &j, "add", false).unwrap();
/// assert!(d["differ"].as_u64().unwrap() > 0);
/// ```
pub fn diff_json(
    a: &RulePolicy,
    b: &RulePolicy,
    ops: &str,
    ignore_weak: bool,
) -> Result<serde_json::Value, PromoteError> {
    let options = crate::analysis::DiffOptions {
        ops: crate::analysis::parse_ops(ops)?,
        ignore_weak,
    };
    Ok(crate::analysis::diff(a, b, &options).to_json())
}

/// The table of `promote table --format json`: `op` an op or `promote`, `with` one of
/// `tensors`, `scalars`, `zero-dim`, `weak`, `nodes`, `style` one of `auto`, `plain`, `full`,
/// `jax`, `tf`, `paddle`; `literals` the Python scalars of `scalars`; `mark` another policy whose
/// differing cells are marked.
///
/// ```
/// let t = promote::builtin("torch").unwrap();
/// let g = promote::cli::table_json(&t, "add", "tensors", "full", &[], None).unwrap();
/// assert_eq!(g["rows"][1], "uint8");
/// ```
pub fn table_json(
    p: &RulePolicy,
    op: &str,
    with: &str,
    style: &str,
    literals: &[&str],
    mark: Option<&RulePolicy>,
) -> Result<serde_json::Value, PromoteError> {
    use crate::analysis::{Style, TableOp, TableOptions, With};
    let mut options = TableOptions {
        op: TableOp::parse(op)?,
        with: With::parse(with)?,
        style: Style::parse(style)?,
        ..TableOptions::default()
    };
    if !literals.is_empty() {
        let texts: Vec<String> = literals.iter().map(|t| t.to_string()).collect();
        options.literals = table::literals(&texts)?;
    }
    let mut g = crate::analysis::table(p, &options)?;
    if let Some(m) = mark {
        g.mark(m);
    }
    Ok(g.to_json())
}
