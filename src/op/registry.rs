//! The op registry: the catalogue of `policies/ops.toml`, built in, plus the ops policy files add
//! (`[[op]]`). An [`Op`] is an index into it; its name, spellings, form, class, kernel and parts
//! are data read from here.

use std::sync::{LazyLock, RwLock};

use serde::Deserialize;

use super::Op;

/// The built-in op catalogue (embedded).
pub const CATALOGUE: &str = include_str!("../../policies/ops.toml");

/// How an op takes its operands.
///
/// ```
/// use promote::{Op, OpForm};
/// assert_eq!(Op::parse("arctan2").unwrap().form(), OpForm::Binary);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OpForm {
    /// One operand, elementwise (`sqrt`).
    Unary,
    /// Two operands, elementwise or `matmul` (`arctan2`).
    Binary,
    /// One operand reduced over the whole tensor (`sum`, `cumsum`); may take `dtype=`.
    Reduction,
    /// Exactly three operands (`where(cond, x, y)`, `clip(a, lo, hi)`).
    Ternary,
    /// Any number of operands, at least one (`concatenate`, `stack`, `result_type`).
    Variadic,
}

impl OpForm {
    /// How many operands an op of this form takes; for a variadic op, the two of its
    /// representative call (the pairs that tables, diffs and checks show).
    ///
    /// ```
    /// assert_eq!(promote::OpForm::Reduction.operands(), 1);
    /// ```
    pub fn operands(self) -> usize {
        match self {
            OpForm::Binary | OpForm::Variadic => 2,
            OpForm::Unary | OpForm::Reduction => 1,
            OpForm::Ternary => 3,
        }
    }

    /// Whether an op of this form takes `n` operands.
    ///
    /// ```
    /// use promote::OpForm;
    /// assert!(OpForm::Variadic.accepts(4) && !OpForm::Variadic.accepts(0));
    /// assert!(OpForm::Ternary.accepts(3) && !OpForm::Binary.accepts(1));
    /// ```
    pub fn accepts(self, n: usize) -> bool {
        match self {
            OpForm::Variadic => n >= 1,
            _ => n == self.operands(),
        }
    }

    /// `unary`, `binary`, `reduction`, `ternary` or `variadic`, as the catalogue writes it.
    ///
    /// ```
    /// assert_eq!(promote::OpForm::Unary.name(), "unary");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            OpForm::Unary => "unary",
            OpForm::Binary => "binary",
            OpForm::Reduction => "reduction",
            OpForm::Ternary => "ternary",
            OpForm::Variadic => "variadic",
        }
    }

    fn parse(s: &str) -> Option<OpForm> {
        [
            OpForm::Unary,
            OpForm::Binary,
            OpForm::Reduction,
            OpForm::Ternary,
            OpForm::Variadic,
        ]
        .into_iter()
        .find(|f| f.name() == s)
    }
}

/// One op of the catalogue.
///
/// ```
/// let divmod = promote::Op::parse("divmod").unwrap().info();
/// let parts: Vec<&str> = divmod.parts.iter().map(|p| p.name()).collect();
/// assert_eq!(parts, ["floor_divide", "remainder"]);
/// ```
#[derive(Debug)]
pub struct OpInfo {
    /// The op's name (NumPy's ufunc or the Array API's function name).
    pub name: &'static str,
    /// Other spellings the parser accepts (`abs`, `bitwise_not`).
    pub aliases: Vec<&'static str>,
    /// Unary, binary or reduction.
    pub form: OpForm,
    /// The op class policies attach rules to by default.
    pub class: &'static str,
    /// The name of the kernel `eval` runs (the op's name unless the catalogue says otherwise).
    pub kernel: &'static str,
    /// One of the spec's version-1 ops, answered by every policy.
    pub core: bool,
    /// For an op of several results: the op giving each result (`divmod`: floor_divide, remainder).
    pub parts: Vec<Op>,
    /// The answer is a yes/no value (`can_cast`), not a dtype.
    pub verdict: bool,
    /// Named on its own: a policy's `ops = ["all"]` does not include it (the op-less questions
    /// and n-ary ops, whose rules are not those of the elementwise ops).
    pub apart: bool,
}

/// One `[[op]]` entry as written (the catalogue's or a policy file's).
///
/// ```
/// use promote::op::OpEntry;
/// let e: OpEntry = toml::from_str("name = \"cube\"\narity = \"unary\"\nclass = \"arithmetic\"").unwrap();
/// assert_eq!(e.arity, "unary");
/// ```
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpEntry {
    /// The op's name.
    pub name: String,
    /// Other spellings.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// `unary`, `binary` or `reduction`.
    pub arity: String,
    /// Its default op class.
    pub class: String,
    /// The kernel's name, when not the op's name.
    pub kernel: Option<String>,
    /// One of the spec's version-1 ops.
    #[serde(default)]
    pub core: bool,
    /// The ops giving each of its results, for an op of several results.
    #[serde(default)]
    pub parts: Vec<String>,
    /// The answer is a yes/no value (`can_cast`).
    #[serde(default)]
    pub verdict: bool,
    /// Not among the ops a policy's `ops = ["all"]` names.
    #[serde(default)]
    pub apart: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CatalogueFile {
    op: Vec<OpEntry>,
}

/// The built-in ops, in catalogue order.
static BUILTIN: LazyLock<Vec<&'static OpInfo>> = LazyLock::new(|| {
    let file: CatalogueFile =
        toml::from_str(CATALOGUE).expect("policies/ops.toml is valid (tested)");
    let mut ops: Vec<&'static OpInfo> = Vec::new();
    for e in &file.op {
        let info = build(e, |n| {
            ops.iter().position(|o| o.name == n).map(|i| Op(i as u16))
        })
        .expect("policies/ops.toml is valid (tested)");
        ops.push(Box::leak(Box::new(info)));
    }
    ops
});

/// Ops added by policy files, after the built-in ones.
static ADDED: RwLock<Vec<&'static OpInfo>> = RwLock::new(Vec::new());

fn leak(s: &str) -> &'static str {
    Box::leak(s.to_string().into_boxed_str())
}

/// An entry checked and made an [`OpInfo`]; `find` looks up the ops its parts name.
fn build(e: &OpEntry, find: impl Fn(&str) -> Option<Op>) -> Result<OpInfo, String> {
    let form = OpForm::parse(&e.arity).ok_or_else(|| {
        format!(
            "op `{}`: arity `{}` is not one of unary, binary, reduction, ternary, variadic",
            e.name, e.arity
        )
    })?;
    if e.name.is_empty()
        || !e
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
    {
        return Err(format!(
            "op name `{}`: use letters, digits and `_` only",
            e.name
        ));
    }
    let parts = e
        .parts
        .iter()
        .map(|p| {
            find(p).ok_or_else(|| {
                format!("op `{}`: part `{p}` is not an op defined before it", e.name)
            })
        })
        .collect::<Result<Vec<Op>, String>>()?;
    Ok(OpInfo {
        name: leak(&e.name),
        aliases: e.aliases.iter().map(|a| leak(a)).collect(),
        form,
        class: leak(&e.class),
        kernel: leak(e.kernel.as_deref().unwrap_or(&e.name)),
        core: e.core,
        parts,
        verdict: e.verdict,
        apart: e.apart,
    })
}

/// The number of built-in ops.
#[cfg(test)]
pub(crate) fn builtin_count() -> usize {
    BUILTIN.len()
}

/// The info of an op id.
pub(crate) fn info(op: Op) -> &'static OpInfo {
    let i = op.0 as usize;
    match BUILTIN.get(i) {
        Some(o) => o,
        None => ADDED.read().unwrap_or_else(|e| e.into_inner())[i - BUILTIN.len()],
    }
}

/// Every op, built-in first, then the added ones in the order they were added.
pub(crate) fn all() -> Vec<Op> {
    let n = BUILTIN.len() + ADDED.read().unwrap_or_else(|e| e.into_inner()).len();
    (0..n).map(|i| Op(i as u16)).collect()
}

/// The op of a name or spelling.
pub(crate) fn find(name: &str) -> Option<Op> {
    let hit = |o: &&OpInfo| o.name == name || o.aliases.contains(&name);
    if let Some(i) = BUILTIN.iter().position(hit) {
        return Some(Op(i as u16));
    }
    let added = ADDED.read().unwrap_or_else(|e| e.into_inner());
    added
        .iter()
        .position(hit)
        .map(|i| Op((BUILTIN.len() + i) as u16))
}

/// Add an op from a policy file's `[[op]]` entry, or find it if an op of that name and form
/// exists already. Errors say what clashes.
///
/// ```
/// use promote::op::{register, OpEntry};
/// let e = OpEntry { name: "my_cbrt".into(), aliases: vec![], arity: "unary".into(), class: "unary_float".into(), kernel: None, core: false, parts: vec![], verdict: false, apart: false };
/// let op = register(&e).unwrap();
/// assert_eq!(promote::Op::parse("my_cbrt").unwrap(), op);
/// assert_eq!(register(&e).unwrap(), op);
/// ```
pub fn register(e: &OpEntry) -> Result<Op, String> {
    if let Some(op) = find(&e.name) {
        let have = info(op);
        if have.name != e.name || have.form.name() != e.arity {
            return Err(format!(
                "op `{}` exists already as a {} op{}: use another name",
                e.name,
                have.form.name(),
                if have.name != e.name {
                    format!(" (a spelling of `{}`)", have.name)
                } else {
                    String::new()
                }
            ));
        }
        return Ok(op);
    }
    let info = build(e, find)?;
    for a in &info.aliases {
        if find(a).is_some() {
            return Err(format!("op `{}`: spelling `{a}` names another op", e.name));
        }
    }
    let mut added = ADDED.write().unwrap_or_else(|e| e.into_inner());
    if BUILTIN.len() + added.len() >= u16::MAX as usize {
        return Err("too many ops".into());
    }
    added.push(Box::leak(Box::new(info)));
    Ok(Op((BUILTIN.len() + added.len() - 1) as u16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalogue_loads_and_names_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for op in all() {
            let i = info(op);
            assert!(seen.insert(i.name), "{} twice", i.name);
            for a in &i.aliases {
                assert!(seen.insert(a), "spelling {a} twice");
            }
        }
        assert!(builtin_count() >= 25);
    }

    #[test]
    fn registering_a_clash_is_an_error() {
        let e = OpEntry {
            name: "sqrt".into(),
            aliases: vec![],
            arity: "binary".into(),
            class: "x".into(),
            kernel: None,
            core: false,
            parts: vec![],
            verdict: false,
            apart: false,
        };
        assert!(register(&e).unwrap_err().contains("exists already"));
    }
}
