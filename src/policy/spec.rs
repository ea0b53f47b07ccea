//! The TOML schema of a policy file, as written. [`super::compile`] turns it into a
//! [`super::RulePolicy`]. Every field is documented in `policies/README.md`.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// A text field with its byte span in the file, so that errors can point at it.
pub type Text = Spanned<String>;

/// A whole policy file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PolicySpec {
    /// The policy's name (`torch`, `jax-x64`, ...).
    pub name: String,
    /// The framework and version it reproduces.
    pub framework: String,
    /// One paragraph for people.
    #[serde(default)]
    pub description: String,
    /// How the rules were obtained: `recorded` or `derived from source`.
    #[serde(default = "recorded")]
    pub provenance: String,
    /// The dtypes the framework has (all 15 when absent).
    pub dtypes: Option<Vec<Text>>,
    /// Default dtypes of each kind.
    pub defaults: Defaults,
    /// Dtypes the framework silently replaces (JAX without x64: int64 is int32).
    #[serde(default)]
    pub canonical: BTreeMap<String, Text>,
    /// Nodes beyond the dtypes: weak types (`i*`, `f*`, ...).
    #[serde(default)]
    pub nodes: BTreeMap<String, NodeSpec>,
    /// The promotion between nodes as a lattice ...
    pub lattice: Option<LatticeSpec>,
    /// ... or as a table.
    pub table: Option<TableSpec>,
    /// How operands become nodes.
    #[serde(default)]
    pub operands: OperandSpec,
    /// How the operands' nodes combine.
    pub combine: CombineSpec,
    /// Which dtypes a Python literal's value must fit.
    #[serde(default)]
    pub literal_range: RangeSpec,
    /// Per-op rules, applied in order (later entries refine earlier ones).
    #[serde(default)]
    pub ops: Vec<OpRuleSpec>,
    /// Writing into `out` / in place.
    pub out: OutSpec,
}

fn recorded() -> String {
    "recorded".into()
}

/// Default dtypes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defaults {
    pub int: Text,
    pub float: Text,
    pub complex: Text,
}

/// A node that is not a plain dtype.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// The dtype a result at this node gets (a dtype name or `default_int`/`default_float`/`default_complex`).
    pub dtype: Text,
    /// Whether a result at this node is weakly typed.
    #[serde(default)]
    pub weak: bool,
}

/// A lattice: `A -> B C` lines, A directly below B and C.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LatticeSpec {
    pub edges: Text,
    /// When true, pairs without an upper bound are allowed: they do not promote (JAX strict).
    #[serde(default)]
    pub partial: bool,
}

/// A table: a header row of column nodes, then one row per node; `-` is "no promotion".
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    pub cells: Text,
}

/// How operands become nodes.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperandSpec {
    /// Literal kind (`bool`, `int`, `float`, `complex`) to node.
    #[serde(default)]
    pub literal: BTreeMap<String, Text>,
    /// Weak tensors: selector (dtype, kind, `int`, `*`) to node; a weak tensor not listed is its dtype, weak.
    #[serde(default)]
    pub weak: BTreeMap<String, Text>,
}

/// How the operands' nodes combine into the promoted node.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombineSpec {
    /// `join` (the least upper bound of every operand's node) or `categories`.
    pub scheme: Text,
    /// For `categories`: operand classes (`tensor`, `zero_dim`, `weak`, `literal`) grouped by priority, highest first.
    #[serde(default)]
    pub categories: Vec<Vec<Text>>,
    /// For `categories`: what a lower category whose kind does not outrank contributes:
    /// `nothing` (PyTorch), or `value` — the smallest dtype holding its value (NumPy 1's `min_scalar_type`).
    #[serde(default)]
    pub lower_same_kind: Option<Text>,
    /// For `categories`: when a lower category is complex and the higher one a float, the float's
    /// complex counterpart instead of the join (PyTorch's `toComplexType`). Float dtype to complex dtype.
    #[serde(default)]
    pub float_meets_complex: BTreeMap<String, Text>,
    /// For `join`: when every operand is weak, join their dtypes as strong ones and mark the result weak (JAX).
    #[serde(default)]
    pub all_weak_join_dtypes: bool,
}

/// Which dtypes a literal's value must fit: a list of `node` (the dtype the literal's node stands for),
/// `promoted` (the operands' promoted dtype) and `compute` (the dtype the op computes in).
/// Only integer and bool targets bound an int literal; any float target bounds it by float64's range.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeSpec {
    #[serde(default)]
    pub int: Vec<Text>,
    /// Float literals: listed targets that are floats must hold the value's magnitude (TF: 1e300 into float32).
    #[serde(default)]
    pub float: Vec<Text>,
}

/// A rule for some ops.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OpRuleSpec {
    /// Op names, or groups: `arithmetic`, `division`, `comparison`, `logical`, `bitwise`, `matmul`, `reduction`, `all`.
    pub ops: Vec<Text>,
    /// Where the rule comes from (source file, doc, observed case).
    #[serde(default)]
    pub source: String,
    /// Selector (on the promoted dtype) to the dtype the op computes in.
    #[serde(default)]
    pub compute: BTreeMap<String, Text>,
    /// Selectors of promoted dtypes the op refuses.
    #[serde(default)]
    pub unsupported: Vec<Text>,
    /// The result dtype: `bool`, or absent for the compute dtype.
    pub result: Option<Text>,
    /// Tensors must share one dtype: no promotion at all (`torch.dot`).
    pub same_dtype: Option<bool>,
    /// Whether a weak promoted dtype stays weak through this op (default true).
    pub keep_weak: Option<bool>,
    /// Overrides the policy's literal range checks for these ops.
    pub literal_range: Option<RangeSpec>,
}

/// Writing into an existing tensor.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutSpec {
    /// `kinds` (a result may go to a dtype of the same or a later kind in `kinds`), `any`, `equal`, or `safe`
    /// (the result must promote to `out` itself).
    pub casting: Text,
    /// For `kinds`: e.g. `"bool < unsigned < signed < float < complex"`; `=` puts kinds on one level.
    #[serde(default)]
    pub kinds: Option<Text>,
    #[serde(default)]
    pub source: String,
}
