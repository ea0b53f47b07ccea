//! The `casting=` argument: how far a cast may go (NumPy's five levels).

use std::fmt;

use crate::error::{suggest, PromoteError};

/// A casting level, as NumPy names them (`np.can_cast(a, b, casting=...)`, a ufunc's
/// `casting=`): each allows what the one before it does, and more.
///
/// ```
/// use promote::Casting;
/// assert_eq!(Casting::parse("same_kind").unwrap(), Casting::SameKind);
/// assert!(Casting::parse("safer").unwrap_err().to_string().contains("safe"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Casting {
    /// Only the same dtype.
    No,
    /// The same dtype, byte order aside.
    Equiv,
    /// Casts that keep every value.
    Safe,
    /// Safe casts, and casts within a kind or to a later kind (`float64` to `float32`).
    SameKind,
    /// Any cast.
    Unsafe,
}

impl Casting {
    /// Every level, strictest first.
    pub const ALL: [Casting; 5] = [
        Casting::No,
        Casting::Equiv,
        Casting::Safe,
        Casting::SameKind,
        Casting::Unsafe,
    ];

    /// The level's name (`same_kind`).
    pub fn name(self) -> &'static str {
        match self {
            Casting::No => "no",
            Casting::Equiv => "equiv",
            Casting::Safe => "safe",
            Casting::SameKind => "same_kind",
            Casting::Unsafe => "unsafe",
        }
    }

    /// Parse a level's name, or fail naming the levels.
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
