//! `promote autocasts`: the built-in autocast layers, one a line.

use crate::autocast::{builtin_autocast, AUTOCASTS};
use crate::error::PromoteError;

pub(crate) fn run() -> Result<i32, PromoteError> {
    let mut s = String::new();
    for name in AUTOCASTS {
        let a = builtin_autocast(name)?;
        s.push_str(&format!(
            "{:<16} {:<9} over {:<7} {:<9} {}\n",
            a.name,
            a.dtype.name(),
            a.base,
            a.derived,
            a.description
        ));
    }
    super::write_stdout(&s)?;
    Ok(super::EXIT_ANSWERED)
}
