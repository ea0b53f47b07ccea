//! The `promote` command line: one file per subcommand.

mod dtypes;
mod explain;
mod resolve;
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
Operands, in the compact syntax:
  int8            a tensor with one or more dimensions
  int8(5)         a 0-d tensor holding 5 (int8() when the value does not matter)
  ~int32          a weakly typed tensor (JAX weak_type, TF WeakTensor); ~int32(5) for a 0-d one
  300 -1 1.0      Python literals, as repr writes them: True, 300, 1.0, 1e+300, inf, nan, 1j, (1+2j)
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
    };
    match r {
        Ok(code) => code,
        Err(e) => {
            eprintln!("promote: {e}");
            2
        }
    }
}
