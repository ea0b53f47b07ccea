//! The entry point a call goes through: the Python operator, the framework's namespace
//! function, or a framework's named third entry point.

use std::fmt;

use crate::error::{suggest, PromoteError};

/// How the user called the op (the query's `"form"`, the compact syntax's `OP:FORM`).
///
/// A framework's promotion can depend on the entry point: `tf.math.add(1, t)` converts the
/// literal on its own and refuses a `uint8` tensor, where `1 + t` gives `uint8`. A policy states
/// the differences of a form as data (its `[forms.NAME]` section); a policy without that section
/// answers the same for `function` as for `operator` (its two faces agree), and refuses a named
/// variant it does not have.
///
/// ```
/// use promote::{Call, Form};
/// let c: Call = "add:function int8 1".parse().unwrap();
/// assert_eq!(c.form, Form::Function);
/// assert_eq!(c.to_string(), "add:function int8 1");
/// assert_eq!("add int8 1".parse::<Call>().unwrap().form, Form::Operator);
/// assert!(Form::parse("fuction").unwrap_err().to_string().contains("function"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Form {
    /// The Python operator (`a + b`, `a @ b`); ops without one use the function. The default.
    #[default]
    Operator,
    /// The framework's namespace function: `np.add`, `torch.add`, `jnp.add`, `tf.math.add`,
    /// `paddle.add`, `xp.add`.
    Function,
    /// TensorFlow's third entry point, `tf.experimental.numpy.add` (a named variant).
    Tnp,
    /// TensorFlow's `flexible_dtypes.result_type` (a named variant of `result_type`).
    Flexible,
}

impl Form {
    /// Every form, the default first.
    pub const ALL: [Form; 4] = [Form::Operator, Form::Function, Form::Tnp, Form::Flexible];

    /// The form's name in queries and the compact syntax.
    ///
    /// ```
    /// assert_eq!(promote::Form::Function.name(), "function");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Form::Operator => "operator",
            Form::Function => "function",
            Form::Tnp => "tnp",
            Form::Flexible => "flexible",
        }
    }

    /// Parse a form's name, or fail naming the forms that exist.
    ///
    /// ```
    /// use promote::Form;
    /// assert_eq!(Form::parse("tnp").unwrap(), Form::Tnp);
    /// assert!(Form::parse("method").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Form, PromoteError> {
        Form::ALL.into_iter().find(|f| f.name() == s).ok_or_else(|| {
            let hint = suggest(s, Form::ALL.iter().map(|f| f.name()))
                .map(|h| format!("did you mean `{h}`? "))
                .unwrap_or_default();
            PromoteError::invalid(format!(
                "unknown form `{}`; {hint}a form is operator (the default), function, tnp or flexible",
                crate::error::clip(s)
            ))
        })
    }
}

impl fmt::Display for Form {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
