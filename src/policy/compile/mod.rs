//! Compiling a policy file: [`compile`] checks the text section by section and builds a
//! [`RulePolicy`]. One file per section of the policy file:
//!
//! - [`nodes`]: `dtypes`, `defaults`, `canonical`, `[nodes]`, and `[lattice]` or `[table]` into
//!   the join table;
//! - [`operands`]: `[operands]` (literal and weak nodes) and `[literal_range]`;
//! - [`combine`]: `[combine]`, the scheme that finds the promoted node;
//! - [`ops`]: `[[ops]]`, each op's rule;
//! - [`rules`]: `[[rules]]`, the corner rules;
//! - [`out`]: `[out]`, casting into `out`;
//! - [`kernel`]: `[kernel]`, the named element semantics;
//! - [`forms`]: `[forms.NAME]`, each entry point as a policy of its own;
//! - [`fast`]: the dense table of every op over two strong tensors, resolved once (when first
//!   asked, see `RulePolicy::fast`).

mod combine;
mod fast;
pub(crate) use fast::table as fast_table;
mod forms;
mod kernel;
mod nodes;
mod operands;
mod ops;
mod out;
mod required;
mod rules;

use crate::dtype::{DType, Kind};
use crate::error::PromoteError;

use super::spec;
use super::RulePolicy;

/// Compile a policy file's text; `file` names it in errors.
///
/// ```
/// let src = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/torch.toml")).unwrap();
/// let p = promote::policy::compile(&src, "torch.toml").unwrap();
/// assert_eq!(p.name, "torch");
/// let bad = promote::policy::compile("name = 3", "bad.toml").unwrap_err();
/// assert!(bad.to_string().starts_with("bad.toml:1:8:"), "{bad}");
/// ```
pub fn compile(src: &str, file: &str) -> Result<RulePolicy, PromoteError> {
    let ctx = Ctx { file, src };
    let mut spec: spec::PolicySpec = toml::from_str(src).map_err(|e| {
        if e.message().starts_with("missing field") {
            if let Some(all) = required::missing(&ctx) {
                return all;
            }
        }
        let span = e.span().unwrap_or(0..0);
        ctx.err(span, e.message().to_string())
    })?;
    let dt = nodes::dtypes(&ctx, &spec)?;
    let graph = nodes::graph(&ctx, &spec, &dt)?;
    let (literal_node, weak_node) = operands::operands(&ctx, &spec, &dt, &graph)?;
    let scheme = combine::scheme(&ctx, &spec.combine)?;
    let range = operands::range(&ctx, &spec.literal_range)?;
    let ops = ops::ops(&ctx, &spec, &dt, &graph)?;
    let rules = rules::rules(&ctx, &spec, &dt, &graph)?;
    let form_specs = std::mem::take(&mut spec.forms);
    let form_rules = forms::form_rules(&ctx, &form_specs, &dt, &graph)?;
    let out = out::out(&ctx, &spec.out)?;
    let casting_arg = out::casting_arg(&ctx, &spec.out)?;
    let (semantics, semantics_source) = kernel::kernel(&ctx, spec.kernel.as_ref())?;
    let mut p = RulePolicy {
        name: spec.name,
        framework: spec.framework,
        description: spec.description,
        provenance: spec.provenance,
        dtypes: dt.dtypes,
        available: dt.available,
        default_int: dt.default_int,
        default_float: dt.default_float,
        default_complex: dt.default_complex,
        canonical: dt.canonical,
        nodes: graph.nodes,
        join: graph.join,
        join_source: graph.join_source,
        literal_node,
        weak_node,
        scheme,
        range,
        ops,
        out,
        out_source: spec.out.source,
        out_first: spec.out.before_op_refusals,
        rules,
        semantics,
        semantics_source,
        fast: Default::default(),
        casting_arg,
        casting_source: spec.out.casting_arg_source.clone(),
        settings: std::sync::Arc::new(super::settings::settings(src, file, &spec.settings)?),
        form: crate::op::Form::Operator,
        forms: Vec::new(),
        as_written: None,
    };
    p.as_written = as_written(&ctx, &p)?;
    p.forms = forms::variants(&ctx, &p, form_rules)?;
    Ok(p)
}

/// The policy with every dtype as written (the file without its `canonical` table: the weak
/// nodes keep the defaults as written too, `jnp.promote_types(uint64, int8)` is float64), where
/// some dtype is canonical and some op takes its dtypes as written; such a call resolves there.
fn as_written(
    ctx: &Ctx,
    p: &RulePolicy,
) -> Result<Option<std::sync::Arc<RulePolicy>>, PromoteError> {
    let mapped = DType::ALL.iter().any(|d| p.canonical[d.index()] != *d);
    if !(mapped && p.ops.iter().any(|r| r.dtypes_as_written)) {
        return Ok(None);
    }
    let err = |e: String| ctx.err(0..0, e);
    let mut doc: toml::Table = toml::from_str(ctx.src).map_err(|e| err(e.to_string()))?;
    doc.remove("canonical");
    let text = toml::to_string(&doc).map_err(|e| err(e.to_string()))?;
    let q = compile(&text, &format!("{} without its canonical table", ctx.file))?;
    Ok(Some(std::sync::Arc::new(q)))
}

/// Line and column (1-based, the column in characters) of a byte offset.
fn line_col(src: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(src.len());
    let before = &src[..offset];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (line, col)
}

/// Where a policy file's text is, for errors that point into it.
pub(crate) struct Ctx<'a> {
    pub(crate) file: &'a str,
    pub(crate) src: &'a str,
}

impl Ctx<'_> {
    /// An error at a byte span of the file.
    pub(crate) fn err(&self, span: std::ops::Range<usize>, msg: impl Into<String>) -> PromoteError {
        let (line, column) = line_col(self.src, span.start);
        PromoteError::PolicyFile {
            file: self.file.into(),
            line,
            column,
            message: msg.into(),
        }
    }
    /// An error at (line, column) inside a string field's text.
    pub(crate) fn err_in(
        &self,
        field: &spec::Text,
        line: usize,
        col: usize,
        msg: impl Into<String>,
    ) -> PromoteError {
        let start = field.span().start;
        let raw = &self.src[start..];
        let mut content = start;
        if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
            content += 3;
            if self.src[content..].starts_with("\r\n") {
                content += 2;
            } else if self.src[content..].starts_with('\n') {
                content += 1;
            }
        } else {
            content += 1;
        }
        let (l0, c0) = line_col(self.src, content);
        let (line, column) = if line == 0 {
            (l0, c0 + col.saturating_sub(1))
        } else {
            (l0 + line, col.max(1))
        };
        PromoteError::PolicyFile {
            file: self.file.into(),
            line,
            column,
            message: msg.into(),
        }
    }
    pub(crate) fn dtype(&self, t: &spec::Text) -> Result<DType, PromoteError> {
        DType::parse(t.get_ref()).map_err(|e| self.err(t.span(), e.to_string()))
    }
    /// The rank and dtypes of selector `sel` ([`selector_dtypes`]), or an error at `span`
    /// naming the words a selector may be and the nearest of them or of the dtype names.
    pub(crate) fn selector(
        &self,
        sel: &str,
        span: std::ops::Range<usize>,
    ) -> Result<(u8, Vec<DType>), PromoteError> {
        selector_dtypes(sel).ok_or_else(|| {
            let names = SELECTOR_WORDS
                .iter()
                .copied()
                .chain(DType::ALL.iter().map(|d| d.name()));
            let hint = crate::error::suggest(sel, names)
                .map_or(String::new(), |n| format!("; did you mean `{n}`?"));
            self.err(
                span,
                format!(
                    "unknown selector `{sel}` (a dtype or one of {}){hint}",
                    SELECTOR_WORDS.join(", ")
                ),
            )
        })
    }
}

/// Kinds and groups a selector may name, with the dtypes they cover.
pub(crate) fn selector_dtypes(sel: &str) -> Option<(u8, Vec<DType>)> {
    let of = |f: &dyn Fn(DType) -> bool| {
        DType::ALL
            .iter()
            .copied()
            .filter(|d| f(*d))
            .collect::<Vec<_>>()
    };
    Some(match sel {
        "*" => (0, DType::ALL.to_vec()),
        "int" => (1, of(&|d| d.is_integer())),
        "inexact" => (1, of(&|d| d.is_inexact())),
        "bool" => (3, vec![DType::Bool]),
        "unsigned" => (2, of(&|d| d.kind() == Kind::Unsigned)),
        "signed" => (2, of(&|d| d.kind() == Kind::Signed)),
        "float" => (2, of(&|d| d.kind() == Kind::Float)),
        "complex" => (2, of(&|d| d.kind() == Kind::Complex)),
        _ => (3, vec![DType::parse(sel).ok()?]),
    })
}

/// The words a selector may be, besides a dtype.
pub(crate) const SELECTOR_WORDS: [&str; 8] = [
    "*", "int", "inexact", "bool", "unsigned", "signed", "float", "complex",
];

/// Parse a kind order such as `"bool < unsigned = signed < float < complex"` into the level of
/// each kind (bool, unsigned, signed, float, complex); `=` puts kinds on one level.
pub(crate) fn kind_levels(ctx: &Ctx, k: &spec::Text) -> Result<[u8; 5], PromoteError> {
    let (level, own) = levels(ctx, k)?;
    match own.first() {
        Some((d, _)) => Err(ctx.err(
            k.span(),
            format!("this kind order names kinds only (bool, unsigned, signed, float, complex); not the dtype `{d}`"),
        )),
        None => Ok(level),
    }
}

/// A cast's kind order, where a dtype may also stand on a level of its own
/// (`"bool < unsigned < signed < float < complex < bfloat16"`): each dtype's level.
pub(crate) fn cast_levels(ctx: &Ctx, k: &spec::Text) -> Result<[u8; DType::COUNT], PromoteError> {
    let (kinds, own) = levels(ctx, k)?;
    let mut level: [u8; DType::COUNT] =
        std::array::from_fn(|i| kinds[DType::ALL[i].kind() as usize]);
    for (d, l) in own {
        level[d.index()] = l;
    }
    Ok(level)
}

/// The levels of a kind order: each kind's, and those of the dtypes it names apart.
type Levels = ([u8; 5], Vec<(DType, u8)>);

/// Parse a kind order into its [`Levels`].
fn levels(ctx: &Ctx, k: &spec::Text) -> Result<Levels, PromoteError> {
    const KINDS: [&str; 5] = ["bool", "unsigned", "signed", "float", "complex"];
    let mut level = [u8::MAX; 5];
    let mut own = Vec::new();
    for (li, lvl) in k.get_ref().split('<').enumerate() {
        for name in lvl.split('=') {
            let name = name.trim();
            match (KINDS.iter().position(|x| *x == name), DType::parse(name)) {
                (Some(idx), _) => level[idx] = li as u8,
                (None, Ok(d)) => own.push((d, li as u8)),
                (None, Err(_)) => {
                    return Err(ctx.err(
                        k.span(),
                        format!("unknown kind `{name}` (bool, unsigned, signed, float, complex)"),
                    ))
                }
            }
        }
    }
    let missing: Vec<&str> = KINDS
        .into_iter()
        .zip(level)
        .filter(|(_, l)| *l == u8::MAX)
        .map(|(name, _)| name)
        .collect();
    if !missing.is_empty() {
        return Err(ctx.err(
            k.span(),
            format!(
                "kinds must name all five kinds (bool, unsigned, signed, float, complex); missing: {}",
                missing.join(", ")
            ),
        ));
    }
    Ok((level, own))
}
