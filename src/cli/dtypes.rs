//! `promote dtypes` and `promote policies`.

use clap::Args;

use super::PolicyArg;
use crate::dtype::DType;
use crate::error::PromoteError;
use crate::policy;

#[derive(Args)]
pub(crate) struct DtypesArgs {
    #[command(flatten)]
    policy: PolicyArg,
}

pub(crate) fn run(a: DtypesArgs) -> Result<i32, PromoteError> {
    let p = a.policy.load()?;
    println!("{} ({}): {} dtypes", p.name, p.framework, p.dtypes().len());
    println!("| dtype | kind | bits | aliases | note |");
    println!("| --- | --- | --- | --- | --- |");
    for d in DType::ALL {
        let note = if !p.has(d) {
            "not in this framework (queries get `unsupported`)".to_string()
        } else if p.canonical(d) != d {
            format!("becomes {} in this mode", p.canonical(d))
        } else {
            let mut v = Vec::new();
            if d == p.default_int {
                v.push("default int");
            }
            if d == p.default_float {
                v.push("default float");
            }
            if d == p.default_complex {
                v.push("default complex");
            }
            v.join(", ")
        };
        println!("| {} | {} | {} | {} | {} |", d, d.kind().name(), d.bits(), d.aliases()[1..].join(" "), note);
    }
    Ok(0)
}

pub(crate) fn policies() -> Result<i32, PromoteError> {
    for name in policy::BUILTIN {
        let p = policy::builtin(name)?;
        println!("{:<11} {} ({})", name, p.framework, p.provenance);
    }
    Ok(0)
}

use crate::Policy as _;
