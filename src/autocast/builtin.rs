//! The built-in autocasts (the files of `policies/autocast/`, embedded and compiled once) and
//! loading a user's autocast file.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::{spec, Autocast};
use crate::error::{suggest, PromoteError};

macro_rules! autocasts {
    ($($name:literal,)*) => {
        /// The names of the built-in autocasts (`promote autocasts` lists them).
        pub const AUTOCASTS: &[&str] = &[$($name),*];
        fn source(name: &str) -> Option<&'static str> {
            match name {
                $($name => Some(include_str!(concat!("../../policies/autocast/", $name, ".toml"))),)*
                _ => None,
            }
        }
    };
}

autocasts! {
    "torch-cpu-bf16",
    "torch-cpu-f16",
    "torch-cuda-f16",
    "torch-cuda-bf16",
    "paddle-o1-f16",
    "paddle-o1-bf16",
    "paddle-o2-f16",
    "paddle-o2-bf16",
    "genesis-f32",
    "genesis-f16",
}

/// A built-in autocast by name, compiled once and shared.
///
/// ```
/// let a = promote::autocast::builtin_autocast("torch-cpu-bf16").unwrap();
/// assert_eq!(a.dtype, promote::DType::BFloat16);
/// let e = promote::autocast::builtin_autocast("torch-cpu-bf61").unwrap_err().to_string();
/// assert!(e.contains("torch-cpu-bf16"));
/// ```
pub fn builtin_autocast(name: &str) -> Result<Arc<Autocast>, PromoteError> {
    static CACHE: OnceLock<Mutex<BTreeMap<String, Arc<Autocast>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let poisoned = |_| PromoteError::invalid("autocast cache poisoned");
    if let Some(a) = cache.lock().map_err(poisoned)?.get(name) {
        return Ok(a.clone());
    }
    let text = source(name).ok_or_else(|| {
        let hint = suggest(name, AUTOCASTS.iter().copied())
            .map(|s| format!("did you mean `{s}`? "))
            .unwrap_or_default();
        PromoteError::invalid(format!(
            "unknown autocast `{}`; {hint}the autocasts are {} (`promote autocasts`), or give a file with --autocast-file",
            crate::error::clip(name),
            AUTOCASTS.join(", ")
        ))
    })?;
    let a = Arc::new(spec::compile(
        text,
        &format!("policies/autocast/{name}.toml"),
    )?);
    cache
        .lock()
        .map_err(poisoned)?
        .insert(name.into(), a.clone());
    Ok(a)
}

/// Load an autocast from a user's file (the format of `policies/README.md`).
///
/// ```
/// use promote::autocast::load_autocast_file;
/// let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/autocast/torch-cpu-bf16.toml"));
/// assert_eq!(load_autocast_file(path).unwrap().name, "torch-cpu-bf16");
/// assert!(load_autocast_file(std::path::Path::new("/no/such/autocast.toml")).is_err());
/// ```
pub fn load_autocast_file(path: &std::path::Path) -> Result<Autocast, PromoteError> {
    let file = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|e| PromoteError::PolicyFile {
        file: file.clone(),
        line: 0,
        column: 0,
        message: format!("cannot read the autocast file: {e}"),
    })?;
    spec::compile(&text, &file)
}
