//! The TOML schema of an autocast file, as written (documented in `policies/README.md`,
//! section "Autocast files"), and its compilation into an [`Autocast`].

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Autocast, Class, OpList, Touches};
use crate::dtype::DType;
use crate::error::PromoteError;

/// An autocast file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AutocastFile {
    name: String,
    framework: String,
    description: String,
    /// The lower-precision dtype (`bfloat16`, `float16`; `float32` for Genesis's default).
    dtype: String,
    /// The policy the autocast was recorded over.
    base: String,
    /// How its lists are known: `recorded` (fixtures under `tests/fixtures/autocast/`) or
    /// `source` (derived from the framework's source, named in each list's `source`).
    derived: String,
    touches: TouchesFile,
    /// The class of an op on no list, and where that rule comes from.
    unlisted: ListHead,
    /// `refuse` or `dtype`: what the promote class does with a floating dtype other than
    /// float32 and the autocast dtype.
    #[serde(default = "refuse")]
    promote_other_floats: String,
    /// The class of a call with `out`, whatever its op's list (PyTorch registers the
    /// out-of-place overloads only: `fallthrough`).
    #[serde(default)]
    out_falls_through: Option<ListHead>,
    /// Spec op name -> the framework's names for it (`power = ["pow"]`); other ops are
    /// looked up under their spec name.
    #[serde(default)]
    op_names: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    lists: Vec<ListFile>,
}

fn refuse() -> String {
    "refuse".into()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TouchesFile {
    dtypes: Vec<String>,
    zero_dim: bool,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListHead {
    class: String,
    source: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListFile {
    class: String,
    source: String,
    ops: Vec<String>,
}

fn file_error(file: &str, message: String) -> PromoteError {
    PromoteError::PolicyFile {
        file: file.to_string(),
        line: 0,
        column: 0,
        message,
    }
}

fn class(file: &str, name: &str) -> Result<Class, PromoteError> {
    Class::parse(name).ok_or_else(|| {
        file_error(
            file,
            format!("class `{name}` is not one of lower_precision, fp32, promote, fallthrough"),
        )
    })
}

/// Compile the text of an autocast file; `file` names it in errors.
pub(super) fn compile(text: &str, file: &str) -> Result<Autocast, PromoteError> {
    let f: AutocastFile = toml::from_str(text).map_err(|e| {
        let (line, column) = e
            .span()
            .map(|s| line_column(text, s.start))
            .unwrap_or((0, 0));
        PromoteError::PolicyFile {
            file: file.to_string(),
            line,
            column,
            message: e.message().to_string(),
        }
    })?;
    let dtype = DType::parse(&f.dtype).map_err(|e| file_error(file, e.to_string()))?;
    if dtype.kind() != crate::dtype::Kind::Float {
        return Err(file_error(
            file,
            format!("dtype = \"{dtype}\" is not a floating dtype"),
        ));
    }
    let dtypes = f
        .touches
        .dtypes
        .iter()
        .map(|d| DType::parse(d).map_err(|e| file_error(file, e.to_string())))
        .collect::<Result<Vec<_>, _>>()?;
    if !matches!(f.derived.as_str(), "recorded" | "source") {
        return Err(file_error(file, "derived is `recorded` or `source`".into()));
    }
    let promote_to_dtype = match f.promote_other_floats.as_str() {
        "refuse" => false,
        "dtype" => true,
        other => {
            return Err(file_error(
                file,
                format!("promote_other_floats = \"{other}\": write \"refuse\" or \"dtype\""),
            ))
        }
    };
    let mut lists = Vec::new();
    for l in &f.lists {
        lists.push(OpList {
            class: class(file, &l.class)?,
            source: l.source.clone(),
            ops: l.ops.clone(),
        });
    }
    Ok(Autocast {
        name: f.name,
        framework: f.framework,
        description: f.description,
        dtype,
        base: f.base,
        derived: f.derived,
        touches: Touches {
            dtypes,
            zero_dim: f.touches.zero_dim,
            source: f.touches.source,
        },
        unlisted: OpList {
            class: class(file, &f.unlisted.class)?,
            source: f.unlisted.source,
            ops: Vec::new(),
        },
        promote_to_dtype,
        out_falls_through: match f.out_falls_through {
            None => None,
            Some(h) => Some(OpList {
                class: class(file, &h.class)?,
                source: h.source,
                ops: Vec::new(),
            }),
        },
        op_names: f.op_names,
        lists,
    })
}

fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.len() - before.rfind('\n').map_or(0, |i| i + 1) + 1;
    (line, column)
}
