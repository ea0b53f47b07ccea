//! NumPy's `casting=` argument: which casts a ufunc may make on the way into its loop and out
//! into `out`.

use std::fmt;

use crate::error::{suggest, PromoteError};

/// A ufunc's `casting=` (`np.add(a, b, out=c, casting="safe")`), as `np.can_cast` names its
/// rules. A policy whose functions take the argument maps each to one of its `[out]` rules
/// (`casting_arg` in the policy file); the others refuse it.
///
/// ```
/// use promote::{Call, Casting};
/// let c: Call = "add int8 int16 casting=no out=int16".parse().unwrap();
/// assert_eq!(c.casting, Some(Casting::No));
/// assert_eq!(c.to_string(), "add int8 int16 casting=no out=int16");
/// assert!(Casting::parse("same-kind").unwrap_err().to_string().contains("same_kind"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Casting {
    /// No cast at all.
    No,
    /// Only byte-order changes (the same dtype here).
    Equiv,
    /// Only casts that keep every value.
    Safe,
    /// Safe casts, or casts within a kind (`float64` to `float32`): NumPy's default.
    SameKind,
    /// Any cast.
    Unsafe,
}

impl Casting {
    /// Every casting, strictest first.
    pub const ALL: [Casting; 5] = [
        Casting::No,
        Casting::Equiv,
        Casting::Safe,
        Casting::SameKind,
        Casting::Unsafe,
    ];

    /// NumPy's name (`no`, `equiv`, `safe`, `same_kind`, `unsafe`).
    ///
    /// ```
    /// assert_eq!(promote::Casting::SameKind.name(), "same_kind");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Casting::No => "no",
            Casting::Equiv => "equiv",
            Casting::Safe => "safe",
            Casting::SameKind => "same_kind",
            Casting::Unsafe => "unsafe",
        }
    }

    /// Parse NumPy's name, or fail naming the five.
    ///
    /// ```
    /// use promote::Casting;
    /// assert_eq!(Casting::parse("unsafe").unwrap(), Casting::Unsafe);
    /// assert!(Casting::parse("safer").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Casting, PromoteError> {
        Casting::ALL
            .into_iter()
            .find(|c| c.name() == s)
            .ok_or_else(|| {
                let hint = suggest(s, Casting::ALL.iter().map(|c| c.name()))
                    .map(|h| format!("did you mean `{h}`? "))
                    .unwrap_or_default();
                PromoteError::invalid(format!(
                    "unknown casting `{}`; {hint}casting is no, equiv, safe, same_kind or unsafe",
                    crate::error::clip(s)
                ))
            })
    }
}

impl fmt::Display for Casting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
