//! `[kernel]`: the named element semantics the policy's kernels compute with.

use crate::error::{suggest, PromoteError};
use crate::kernel::compute::{NarrowAccumulation, Semantics};

use super::super::spec::KernelSpec;
use super::Ctx;

/// What a policy without a `[kernel]` table says of its semantics.
pub(crate) const DEFAULT_SOURCE: &str = "NumPy's semantics by default (no [kernel] table)";

/// `[kernel]`: the semantics and where they come from; NumPy's when the table is absent.
pub(crate) fn kernel(
    ctx: &Ctx,
    k: Option<&KernelSpec>,
) -> Result<(Semantics, String), PromoteError> {
    let Some(k) = k else {
        return Ok((Semantics::NUMPY, DEFAULT_SOURCE.into()));
    };
    let name = k.semantics.get_ref();
    let sem = Semantics::named(name).ok_or_else(|| {
        let names = Semantics::ALL.iter().map(|s| s.name);
        let hint = match suggest(name, names.clone()) {
            Some(s) => format!("; did you mean `{s}`?"),
            None => String::new(),
        };
        let all: Vec<&str> = names.collect();
        ctx.err(
            k.semantics.span(),
            format!(
                "unknown semantics `{}`{hint} (the named semantics are: {})",
                crate::error::clip(name),
                all.join(", ")
            ),
        )
    })?;
    let Some(acc) = &k.narrow_accumulation else {
        return Ok((sem, k.source.clone()));
    };
    let narrow_accumulation = NarrowAccumulation::named(acc.get_ref()).ok_or_else(|| {
        ctx.err(
            acc.span(),
            format!(
                "unknown narrow_accumulation `{}` (one of: {})",
                crate::error::clip(acc.get_ref()),
                NarrowAccumulation::NAMES.join(", ")
            ),
        )
    })?;
    let sem = Semantics {
        narrow_accumulation,
        ..sem
    };
    Ok((sem, k.source.clone()))
}
