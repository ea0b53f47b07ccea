//! The `promote` command line: one file per subcommand.

mod bench;
mod check;
mod diff;
mod dtypes;
mod eval;
mod explain;
mod lattice;
mod resolve;
mod svg;
mod table;

use std::sync::Arc;

use clap::{Args, Parser, Subcommand};

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
A call is `OP OPERAND [OPERAND] [out=DTYPE]`, operands in the compact syntax:
  int8            a tensor with one or more dimensions (any dtype spelling: i8, torch.int8, np.int8)
  int8(5)         a 0-d tensor holding 5; int8() when the value does not matter
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
}

impl PolicyArg {
    pub(crate) fn load(&self) -> Result<Arc<RulePolicy>, PromoteError> {
        match &self.policy_file {
            Some(p) => policy::load_file(p).map(Arc::new),
            None => policy::builtin(&self.policy),
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

/// Run the CLI; returns the exit status.
pub fn main() -> i32 {
    let cli = Cli::parse();
    let r = match cli.command {
        Command::Resolve(a) => resolve::run(a),
        Command::Table(a) => table::run(a),
        Command::Explain(a) => explain::run(a),
        Command::Dtypes(a) => dtypes::run(a),
        Command::Policies => dtypes::policies(),
        Command::Diff(a) => diff::run(a),
        Command::Check(a) => check::run(a),
        Command::Lattice(a) => lattice::run(a),
        Command::Eval(a) => eval::run(a),
        Command::Bench(a) => bench::run(a),
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("promote: {e}");
            2
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
    explain::explain(p, call)
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
    let ops: Vec<crate::Op> = if ops == "all" {
        crate::Op::ALL.to_vec()
    } else {
        ops.split(',')
            .map(|o| crate::Op::parse(o.trim()))
            .collect::<Result<_, _>>()?
    };
    let mut groups = Vec::new();
    for op in ops {
        groups.extend(diff::compare(a, b, op, ignore_weak));
    }
    Ok(diff::to_json(a, b, &groups))
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
    use clap::ValueEnum;
    let bad = |what: &str, v: &str, all: String| PromoteError::Invalid {
        message: format!("{what} `{v}` is not one of {all}"),
    };
    let names = |vs: &[String]| vs.join(", ");
    let withs: Vec<String> = table::With::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
        .collect();
    let styles: Vec<String> = table::Style::value_variants()
        .iter()
        .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
        .collect();
    let w = table::With::from_str(with, true).map_err(|_| bad("with", with, names(&withs)))?;
    let s = table::Style::from_str(style, true).map_err(|_| bad("style", style, names(&styles)))?;
    let op = table::TableOp::parse(op)?;
    let default = ["True", "1", "1.0", "1j"];
    let texts: &[&str] = if literals.is_empty() {
        &default
    } else {
        literals
    };
    let lits = texts
        .iter()
        .map(|t| {
            crate::Literal::parse(t).ok_or_else(|| PromoteError::Invalid {
                message: format!("`{t}` is not a Python literal (write it as repr does)"),
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut g = table::grid(p, op, w, s, &lits);
    if let Some(m) = mark {
        table::mark(&mut g, m, s);
    }
    Ok(table::to_json(&g))
}
