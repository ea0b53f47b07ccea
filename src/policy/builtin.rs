//! The registry of built-in policies: the files of `policies/`, embedded in the binary and
//! compiled once on first use; and loading a user's policy file.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use crate::error::{suggest, PromoteError};

use super::compile::compile;
use super::RulePolicy;

macro_rules! builtins {
    ($($name:literal => $file:literal,)*) => {
        /// The names of the built-in policies, as the spec lists them.
        pub const BUILTIN: &[&str] = &[$($name),*];
        fn builtin_source(name: &str) -> Option<(&'static str, &'static str)> {
            match name {
                $($name => Some((include_str!(concat!("../../policies/", $file)), $file)),)*
                _ => None,
            }
        }
    };
}

builtins! {
    "torch" => "torch.toml",
    "jax" => "jax.toml",
    "jax-x64" => "jax-x64.toml",
    "jax-strict" => "jax-strict.toml",
    "numpy" => "numpy.toml",
    "numpy1" => "numpy1.toml",
    "array-api" => "array-api.toml",
    "oneflow" => "oneflow.toml",
    "paddle" => "paddle.toml",
    "tf" => "tf.toml",
    "tf-legacy" => "tf-legacy.toml",
    "tf-all" => "tf-all.toml",
    "tf-safe" => "tf-safe.toml",
}

/// A built-in policy by name, compiled once and shared.
///
/// ```
/// let p = promote::builtin("torch").unwrap();
/// assert_eq!(promote::Policy::name(&*p), "torch");
/// assert!(promote::builtin("pytorch").unwrap_err().to_string().contains("did you mean `torch`"));
/// ```
pub fn builtin(name: &str) -> Result<Arc<RulePolicy>, PromoteError> {
    static CACHE: OnceLock<std::sync::Mutex<BTreeMap<String, Arc<RulePolicy>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    if let Some(p) = cache
        .lock()
        .map_err(|_| PromoteError::invalid("policy cache poisoned"))?
        .get(name)
    {
        return Ok(p.clone());
    }
    let (src, file) = builtin_source(name).ok_or_else(|| PromoteError::UnknownPolicy {
        name: name.into(),
        suggestion: suggest(name, BUILTIN.iter().copied()).or_else(|| {
            BUILTIN
                .iter()
                .find(|b| name.contains(*b) || b.contains(name))
                .map(|s| s.to_string())
        }),
    })?;
    let p = Arc::new(compile(src, &format!("policies/{file}"))?);
    cache
        .lock()
        .map_err(|_| PromoteError::invalid("policy cache poisoned"))?
        .insert(name.into(), p.clone());
    Ok(p)
}

/// Load a policy from a user's file.
///
/// ```
/// use promote::{load_file, Policy};
/// let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/jax.toml");
/// assert_eq!(load_file(&path).unwrap().name(), "jax");
/// assert!(load_file(std::path::Path::new("/no/such/policy.toml")).is_err());
/// ```
pub fn load_file(path: &std::path::Path) -> Result<RulePolicy, PromoteError> {
    let file = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|e| PromoteError::PolicyFile {
        file: file.clone(),
        line: 0,
        column: 0,
        message: format!("cannot read: {e}"),
    })?;
    let src = std::str::from_utf8(&bytes).map_err(|e| {
        let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default();
        let line = valid.matches('\n').count() + 1;
        let column = valid.rsplit('\n').next().unwrap_or("").chars().count() + 1;
        PromoteError::PolicyFile {
            file: file.clone(),
            line,
            column,
            message: format!(
                "invalid UTF-8 (byte 0x{:02x}): a policy file must be UTF-8; re-save it as UTF-8",
                bytes[e.valid_up_to()]
            ),
        }
    })?;
    compile(src, &file)
}
