//! Typed errors. Every message says what to do instead.

use thiserror::Error;

/// The five error kinds of the machine interface (`error` field of an answer).
///
/// ```
/// use promote::{builtin, Call, ErrorKind, Policy};
/// let torch = builtin("torch").unwrap();
/// let e = torch.resolve(&"add uint16 int8".parse::<Call>().unwrap()).unwrap_err();
/// assert_eq!(e.kind(), ErrorKind::NoPromotion);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// The policy forbids implicit promotion between these operands.
    NoPromotion,
    /// A Python scalar's value does not fit the dtype the policy gives it.
    Overflow,
    /// The op is not defined for the promoted dtype (or the framework lacks the dtype).
    Unsupported,
    /// The dtypes promote, but the framework refuses these values at run time (integer
    /// division by zero, an integer raised to a negative integer power).
    Value,
    /// The query itself is malformed.
    Invalid,
}

impl ErrorKind {
    /// The name used in answers: `no_promotion`, `overflow`, `unsupported`, `value`, `invalid`.
    ///
    /// ```
    /// assert_eq!(promote::ErrorKind::NoPromotion.name(), "no_promotion");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::NoPromotion => "no_promotion",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Value => "value",
            ErrorKind::Invalid => "invalid",
        }
    }

    /// Parse an answer's error name.
    ///
    /// ```
    /// use promote::ErrorKind;
    /// assert_eq!(ErrorKind::parse("overflow"), Some(ErrorKind::Overflow));
    /// assert_eq!(ErrorKind::parse("no such kind"), None);
    /// ```
    pub fn parse(s: &str) -> Option<ErrorKind> {
        Some(match s {
            "no_promotion" => ErrorKind::NoPromotion,
            "overflow" => ErrorKind::Overflow,
            "unsupported" => ErrorKind::Unsupported,
            "value" => ErrorKind::Value,
            "invalid" => ErrorKind::Invalid,
            _ => return None,
        })
    }
}

fn did_you_mean(s: &Option<String>) -> String {
    match s {
        Some(x) => format!("; did you mean `{x}`?"),
        None => String::new(),
    }
}

/// Everything that can go wrong, with the fields a caller needs to act on it.
///
/// ```
/// use promote::{Call, PromoteError};
/// let e = "add int8 int9".parse::<Call>().unwrap_err();
/// assert!(matches!(e, PromoteError::UnknownDType { .. }));
/// assert!(e.to_string().contains("int8"), "{e}");
/// ```
#[derive(Clone, Debug, Error, PartialEq)]
pub enum PromoteError {
    /// A dtype name no framework uses.
    #[error("unknown dtype `{}`{}", clip(name), did_you_mean(suggestion))]
    UnknownDType {
        /// The name as given.
        name: String,
        /// The nearest known name, when one is near enough.
        suggestion: Option<String>,
    },

    /// An op name outside the spec.
    #[error("unknown op `{}`{}", clip(name), did_you_mean(suggestion))]
    UnknownOp {
        /// The name as given.
        name: String,
        /// The nearest known name, when one is near enough.
        suggestion: Option<String>,
    },

    /// A policy name that is not built in.
    #[error(
        "unknown policy `{}`{} (`promote policies` lists them, or pass --policy-file PATH.toml)",
        clip(name),
        did_you_mean(suggestion)
    )]
    UnknownPolicy {
        /// The name as given.
        name: String,
        /// The nearest known name, when one is near enough.
        suggestion: Option<String>,
    },

    /// The framework has no such dtype.
    #[error("{policy} has no dtype {dtype}; it has: {available}")]
    DTypeMissing {
        /// The policy that answered.
        policy: String,
        /// The dtype concerned.
        dtype: String,
        /// The dtypes the policy has, comma-separated.
        available: String,
    },

    /// The policy refuses to promote these operands implicitly.
    #[error("{policy}: {op} refuses to promote {operands} implicitly ({rule}); {advice}")]
    NoPromotion {
        /// The policy that answered.
        policy: String,
        /// The op of the call.
        op: String,
        /// The operands as the call wrote them.
        operands: String,
        /// The rule that decided, with its source.
        rule: String,
        /// What to do instead.
        advice: String,
    },

    /// The result cannot be written into `out`.
    #[error("{policy}: the result of {op} is {result}, which cannot be cast into an out/in-place tensor of {out} ({rule}); write into a {result} tensor or cast the operands explicitly")]
    OutCast {
        /// The policy that answered.
        policy: String,
        /// The op of the call.
        op: String,
        /// The dtype the op would return.
        result: String,
        /// The dtype of the `out=` tensor.
        out: String,
        /// The rule that decided, with its source.
        rule: String,
    },

    /// A Python scalar does not fit its dtype.
    #[error("{policy}: Python {literal_kind} {value} does not fit {dtype} in {op}; pass it as an array with an explicit dtype, or cast the other operand to a wider dtype")]
    Overflow {
        /// The policy that answered.
        policy: String,
        /// The op of the call.
        op: String,
        /// `int`, `float`, `complex` or `bool`.
        literal_kind: String,
        /// The literal as Python writes it.
        value: String,
        /// The dtype concerned.
        dtype: String,
    },

    /// The op is not defined for the dtype.
    #[error("{policy}: {op} is not defined for {dtype} ({rule}); cast the operands to a dtype it supports")]
    Unsupported {
        /// The policy that answered.
        policy: String,
        /// The op of the call.
        op: String,
        /// The dtype concerned.
        dtype: String,
        /// The rule that decided, with its source.
        rule: String,
    },

    /// A call through an entry point the policy does not describe (`add:tnp` under `numpy`).
    #[error("{policy}: the `{form}` entry point is not described for {framework}; this policy answers {has}: ask through one of those (`OP:function`, `\"form\": \"function\"`)")]
    FormMissing {
        /// The policy that answered.
        policy: String,
        /// The form asked for.
        form: String,
        /// The framework the policy reproduces.
        framework: String,
        /// The forms the policy answers, comma-separated.
        has: String,
    },

    /// `eval` of an op no kernel computes yet (its dtypes resolve).
    #[error("no kernel for {op} yet: `promote resolve` answers its dtypes, but eval cannot compute its values")]
    NoKernel {
        /// The op of the call.
        op: String,
    },

    /// The dtypes promote, but the framework refuses these values at run time.
    #[error("{policy}: {op} of {operands} is refused for these values at run time ({rule}); the dtypes promote, so change the values (a nonzero integer divisor, a non-negative integer exponent) or cast the operands to a float dtype")]
    Value {
        /// The policy that answered.
        policy: String,
        /// The op of the call.
        op: String,
        /// The operands as the call wrote them.
        operands: String,
        /// The rule that decided, with its source.
        rule: String,
    },

    /// A framework setting the policy does not take (`--set KEY=VALUE`, a query's `"set"`), or
    /// a value the setting does not have.
    ///
    /// ```
    /// let torch = promote::builtin("torch").unwrap();
    /// let e = torch.with_settings(&[("default_flaot", "float64")]).unwrap_err().to_string();
    /// assert!(e.contains("did you mean `default_float`"), "{e}");
    /// let e = torch.with_settings(&[("default_float", "float16")]).unwrap_err().to_string();
    /// assert!(e.contains("float32, float64"), "{e}");
    /// ```
    #[error("{policy} has no {what}; {}{valid}", suggestion.as_ref().map(|s| format!("did you mean `{s}`? ")).unwrap_or_default())]
    UnknownSetting {
        /// The policy that was asked.
        policy: String,
        /// `setting `KEY`` or `value `VALUE` for the setting KEY`.
        what: String,
        /// The nearest valid key or value, when one is near enough.
        suggestion: Option<String>,
        /// The settings (or values) the policy takes, and where they come from.
        valid: String,
    },

    /// A malformed query.
    #[error("invalid query: {message}")]
    Invalid {
        /// What is wrong and what to do instead.
        message: String,
    },

    /// Reading input or writing output failed (a closed pipe, a full disk, a missing file).
    /// Not an answer: the CLI exits with status 3.
    #[error("{what}: {message}")]
    Io {
        /// What was being read or written.
        what: String,
        /// The system's message.
        message: String,
    },

    /// A malformed policy file, with its position.
    #[error("{file}:{line}:{column}: {message}")]
    PolicyFile {
        /// The policy file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column, in characters.
        column: usize,
        /// What is wrong and what to do instead.
        message: String,
    },
}

impl PromoteError {
    /// The machine-interface kind of this error.
    ///
    /// ```
    /// use promote::{ErrorKind, PromoteError};
    /// let e = PromoteError::Invalid { message: "x".into() };
    /// assert_eq!(e.kind(), ErrorKind::Invalid);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self {
            PromoteError::NoPromotion { .. } | PromoteError::OutCast { .. } => {
                ErrorKind::NoPromotion
            }
            PromoteError::Overflow { .. } => ErrorKind::Overflow,
            PromoteError::Value { .. } => ErrorKind::Value,
            PromoteError::Unsupported { .. }
            | PromoteError::DTypeMissing { .. }
            | PromoteError::FormMissing { .. }
            | PromoteError::NoKernel { .. } => ErrorKind::Unsupported,
            _ => ErrorKind::Invalid,
        }
    }

    /// An I/O failure on `what` (`stdout`, a file's path).
    ///
    /// ```
    /// use promote::{ErrorKind, PromoteError};
    /// let e = std::fs::read("/no/such/file").unwrap_err();
    /// let e = PromoteError::io("/no/such/file", &e);
    /// assert!(e.to_string().contains("/no/such/file"));
    /// ```
    pub fn io(what: impl Into<String>, e: &std::io::Error) -> Self {
        PromoteError::Io {
            what: what.into(),
            message: e.to_string(),
        }
    }

    pub(crate) fn invalid(message: impl Into<String>) -> Self {
        PromoteError::Invalid {
            message: message.into(),
        }
    }
}

/// Levenshtein distance, for "did you mean".
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// A name as messages echo it: in full up to 60 characters, else its start and its length
/// (a 10 MB name must not make a 10 MB message).
///
/// ```
/// assert_eq!(promote::error::clip("int9"), "int9");
/// assert!(promote::error::clip(&"x".repeat(1000)).len() < 100);
/// ```
pub fn clip(name: &str) -> String {
    const KEEP: usize = 60;
    match name.char_indices().nth(KEEP) {
        None => name.to_string(),
        Some((i, _)) => format!("{}… ({} bytes)", &name[..i], name.len()),
    }
}

/// How many characters longer than the longest candidate a name may be and still get a
/// suggestion: the work is bounded by the candidates' lengths, never by the name's.
const SUGGEST_SLACK: usize = 4;

/// The candidate nearest to `name`, if any is reasonably near. Names longer than the longest
/// candidate by more than a few characters get none (and cost nothing).
///
/// ```
/// let s = promote::error::suggest("substract", ["add", "subtract"].into_iter());
/// assert_eq!(s.as_deref(), Some("subtract"));
/// assert_eq!(promote::error::suggest(&"a".repeat(10_000_000), ["add"].into_iter()), None);
/// ```
pub fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let candidates: Vec<&str> = candidates.collect();
    let longest = candidates.iter().map(|c| c.len()).max().unwrap_or(0);
    if name.len() > 4 * (longest + SUGGEST_SLACK) || name.chars().count() > longest + SUGGEST_SLACK
    {
        return None;
    }
    let name = name.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (distance(&name, &c.to_ascii_lowercase()), c))
        .filter(|(d, c)| *d <= (c.len().max(name.len()) / 2).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c.to_string())
}
