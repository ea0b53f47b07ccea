//! The TOML schema of a policy file, as written. [`super::compile()`] turns it into a
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
    /// `[[op]]`: ops this file adds to the op catalogue (the same form as `policies/ops.toml`).
    #[serde(default)]
    pub op: Vec<crate::op::OpEntry>,
    /// Writing into `out` / in place.
    pub out: OutSpec,
    /// Framework corners beyond the tables: ordered rules, each with a condition and an outcome.
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
    /// `[kernel]`: the element semantics `eval` computes with (NumPy's when absent).
    pub kernel: Option<KernelSpec>,
    /// `[settings.KEY]`: the framework settings this policy takes (`--set KEY=VALUE`).
    #[serde(default)]
    pub settings: BTreeMap<String, SettingSpec>,
    /// `[forms.NAME]`: how another entry point (`function`, `tnp`, `flexible`) differs from the
    /// operator the rest of the file describes.
    #[serde(default)]
    pub forms: BTreeMap<String, FormSpec>,
}

/// `[settings.KEY]`: one framework setting (`torch.set_default_dtype`, `jax_enable_x64`, ...)
/// and the policy that answers under each of its values.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingSpec {
    /// How the setting is made in the framework, and the recordings that check each value.
    pub source: String,
    /// The value this file reproduces.
    pub default: String,
    /// Every other value: which policy answers under it.
    pub values: BTreeMap<String, SettingValueSpec>,
}

/// One value of a setting: another built-in policy (`policy`), or this file with `patch`
/// merged into it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SettingValueSpec {
    /// A built-in policy that reproduces the framework under this value.
    pub policy: Option<String>,
    /// Tables merged into this file (a table into a table, key by key; `rules` entries go in
    /// front of the file's own; any other value replaces the file's).
    pub patch: Option<toml::Table>,
}

/// `[forms.NAME]`: an entry point's differences from the operator form, as data.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormSpec {
    /// Where the differences come from (recordings, the framework's source).
    pub source: String,
    /// Answer as this built-in policy's same form (TensorFlow's legacy mode leaves `tf.math`
    /// as mode off has it); nothing else may be given then.
    pub like: Option<Text>,
    /// The policy's own corner rules this form does not have, by the start of their `source`.
    #[serde(default)]
    pub without_rules: Vec<Text>,
    /// `[[forms.NAME.rules]]`: corner rules of this form, checked before the policy's own.
    #[serde(default)]
    pub rules: Vec<RuleSpec>,
    /// `[forms.NAME.patch]`: tables merged into this file for this form (a table into a table
    /// key by key; `ops` entries after the file's own, `rules` entries in front; any other
    /// value replaced): an entry point with promotion rules of its own (TensorFlow's `tnp`
    /// promotes with NumPy's table).
    pub patch: Option<toml::Table>,
}

/// `[kernel]`: which named element semantics the framework's kernels have.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelSpec {
    /// A named semantics: `numpy`, `torch`, `xla-cpu`, `tf` or `paddle`.
    pub semantics: Text,
    /// Where the semantics come from (the recordings that replay them, or why none).
    #[serde(default)]
    pub source: String,
    /// How reductions computed in a narrow dtype accumulate (`carrier`, `each_step`); the
    /// semantics' own when absent.
    #[serde(default)]
    pub narrow_accumulation: Option<Text>,
}

/// One corner rule: at a stage of resolution, when its conditions hold, it decides.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleSpec {
    /// Op names or groups.
    pub ops: Vec<Text>,
    /// `operands` (before promotion), `promoted` (before the op's dtype rule), `computed` (after it).
    pub at: Text,
    /// Some operand matches.
    pub any: Option<OperandMatch>,
    /// Every operand matches.
    pub all: Option<OperandMatch>,
    /// The first operand matches.
    pub first: Option<OperandMatch>,
    /// The second operand matches.
    pub second: Option<OperandMatch>,
    /// The third operand matches (`where`, `clip`).
    pub third: Option<OperandMatch>,
    /// With `any`: another operand (not the one `any` matched) matches this.
    pub other: Option<OperandMatch>,
    /// The call writes into `out` (true) or not (false).
    pub out: Option<bool>,
    /// The `out` dtype is (true) or is not (false) the first operand's dtype (an in-place `a op= b`).
    pub out_is_first: Option<bool>,
    /// The promoted dtype is (true) or is not (false) the first operand's dtype.
    pub promoted_is_first: Option<bool>,
    /// The operands all have one dtype (true) or not (false).
    pub same_dtypes: Option<bool>,
    /// The second operand's value is above the third's (true) or not (false): `clip`'s min
    /// above its max. An operand written without a value (an n-d tensor, `int8()`) holds ones,
    /// as the recordings make them (`ones(2, D)`; the compact syntax's `int8()` is 1).
    pub second_above_third: Option<bool>,
    /// The promoted result is weakly typed (true) or not (false).
    pub weak: Option<bool>,
    /// The weak flag of the result this rule decides (default: the first operand's for
    /// `then = "first"`, else false).
    pub weak_result: Option<bool>,
    /// The `out` dtype matches one of these selectors.
    #[serde(default)]
    pub out_dtype: Vec<Text>,
    /// The promoted dtype matches one of these selectors.
    #[serde(default)]
    pub promoted: Vec<Text>,
    /// The compute dtype matches one of these selectors (stage `computed`).
    #[serde(default)]
    pub compute: Vec<Text>,
    /// `unsupported`, `no_promotion`, `overflow`, `accept` (the promoted dtype, skipping the
    /// op's refusals), `first` (the first operand's dtype), `convert_first` (see `convert`), or
    /// a dtype (the result).
    pub then: Text,
    /// With `then = "convert_first"`: literal kind to the dtype (or dtypes, tried in order) the
    /// first operand, a Python literal, is converted to on its own; the call then resolves with
    /// it as a 0-d tensor of that dtype (TensorFlow: `tf.math.add(1, 2.0)` converts 1 alone).
    #[serde(default)]
    pub convert: BTreeMap<String, Spanned<OneOrMany>>,
    /// With `then = "convert_first"`: literal kind to the node (or nodes) the other Python
    /// literals then enter at, where it differs from the op's (`[operands] literal`, `[[ops]]
    /// literal`): TensorFlow's legacy mode converts them strictly to the first's dtype, `i.`.
    #[serde(default)]
    pub literal: BTreeMap<String, Spanned<OneOrMany>>,
    /// With a conversion: a float literal beyond the dtype's range becomes ±inf (the framework
    /// casts it, as `paddle.full` does) instead of overflowing.
    #[serde(default)]
    pub saturate: bool,
    /// At stage `computed` with a dtype (or `first`, ...) as `then`: the rule decides the
    /// result dtype only; the inputs are still cast to, and the op computes in, the dtype the
    /// computation stage chose (`jnp.var(int8_array, dtype=int16)` computes in int16 and
    /// answers the weak default float).
    #[serde(default)]
    pub keep_compute: bool,
    /// Where the rule comes from.
    #[serde(default)]
    pub source: String,
}

/// Conditions on one operand; every field given must hold.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperandMatch {
    /// `tensor`, `zero_dim`, `weak`, `literal`.
    #[serde(default)]
    pub class: Vec<Text>,
    /// Selectors on the operand's dtype (a literal: the dtype of the node it enters at).
    #[serde(default)]
    pub dtype: Vec<Text>,
    /// Selectors on a tensor's dtype as the call writes it, before the policy's `canonical`
    /// mapping (JAX's `explicit_x64_dtypes="error"` refuses an int64 it would truncate).
    #[serde(default)]
    pub written_dtype: Vec<Text>,
    /// Literal kinds: `bool`, `int`, `float`, `complex`.
    #[serde(default)]
    pub literal: Vec<Text>,
    /// The value (of a literal or 0-d tensor) equals one of these numbers.
    #[serde(default)]
    pub value: Vec<Text>,
    /// The value is below zero.
    pub negative: Option<bool>,
    /// The value fits none of these dtypes (or `compute`: the op's compute dtype; floats by magnitude).
    #[serde(default)]
    pub not_fits: Vec<Text>,
    /// The value fits this dtype (or `compute`).
    pub fits: Option<Text>,
    /// The value, wrapped into the integral compute dtype, is zero.
    pub wraps_to_zero: Option<bool>,
    /// The value, wrapped into the integral compute dtype, is below zero.
    pub wraps_negative: Option<bool>,
}

fn recorded() -> String {
    "recorded".into()
}

/// Default dtypes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Defaults {
    /// The default integer dtype.
    pub int: Text,
    /// The default floating dtype.
    pub float: Text,
    /// The default complex dtype.
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
    /// The edges, one line each: `LOWER -> UPPER [UPPER ...]`.
    pub edges: Text,
    /// When true, pairs without an upper bound are allowed: they do not promote (JAX strict).
    #[serde(default)]
    pub partial: bool,
}

/// A table: a header row of column nodes, then one row per node; `-` is "no promotion".
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// The table: a header of column names, then one row per node.
    pub cells: Text,
}

/// How operands become nodes.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperandSpec {
    /// Literal kind (`bool`, `int`, `float`, `complex`) to node, or to a list of nodes: the first
    /// whose dtype holds the value (PyTorch: `["int64", "uint64"]`).
    #[serde(default)]
    pub literal: BTreeMap<String, Spanned<OneOrMany>>,
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
    /// For `categories`: a bool or integer meeting a lower complex gives that complex dtype as it is
    /// (`lower`, PyTorch's combine_categories) instead of the table's join (`join`, the default).
    #[serde(default)]
    pub int_meets_complex: Option<Text>,
    /// For `categories`: how kinds rank when categories compare, e.g. NumPy 1's
    /// `"bool < unsigned = signed < float = complex"`; default `bool < unsigned = signed < float < complex`.
    #[serde(default)]
    pub kinds: Option<Text>,
    /// For `categories`: how each category merges into the higher ones, aligned with `categories`:
    /// `kind` (the default: only when of a higher kind), `nothing`, or `join` (always the join).
    #[serde(default)]
    pub merge: Vec<Text>,
    /// For `join`: when every operand is weak, join their dtypes as strong ones and mark the result weak (JAX).
    #[serde(default)]
    pub all_weak_join_dtypes: bool,
    /// For `categories`: the dtypes a Python scalar meets as a strong dtype of its kind (NumPy's
    /// legacy loop search for ml_dtypes' user dtypes).
    pub legacy: Option<LegacySpec>,
}

/// `[combine.legacy]`: a Python scalar meeting one of `dtypes` enters at the dtype `literal`
/// gives for its kind and joins by the table, instead of merging by kind (NumPy 2); or, with
/// `loops`, the call takes the first loop every operand casts to safely (NumPy 1).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LegacySpec {
    /// The dtypes (names or selectors).
    pub dtypes: Vec<Text>,
    /// Literal kind (`bool`, `int`, `float`, `complex`) to the dtype it enters as.
    #[serde(default)]
    pub literal: BTreeMap<String, Text>,
    /// Instead of `literal`: a call with one of `dtypes` takes the first loop every operand
    /// casts to safely, scalars by value (NumPy 1's linear search): the operands' own
    /// `T, T -> T` loops, then these builtin loops in order.
    #[serde(default)]
    pub loops: Vec<Text>,
    /// The ops each legacy dtype has a `T -> T` / `T, T -> T` loop of its own for (the loops
    /// ml_dtypes registers): a call whose operands are all of one such dtype computes in it.
    #[serde(default)]
    pub own_loops: Vec<OwnLoopsSpec>,
    /// The builtin loops NumPy's legacy search goes on to, per op, when the dtype the table
    /// joins the operands to is a legacy dtype without a loop of its own for the op (ml_dtypes'
    /// int4 has no `maximum` loop: np.maximum of two int4 arrays takes the int8 loop).
    #[serde(default)]
    pub builtin_loops: Vec<BuiltinLoopsSpec>,
    /// Where the rule comes from.
    #[serde(default)]
    #[allow(dead_code)]
    pub source: String,
}

/// One entry of `[combine.legacy] builtin_loops`: these ops' builtin loops, in NumPy's order.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BuiltinLoopsSpec {
    /// The ops (names or op classes).
    pub ops: Vec<Text>,
    /// Their builtin loops, in the order the ufunc lists them (`np.maximum.types`).
    pub loops: Vec<Text>,
}

/// One entry of `[combine.legacy] own_loops`: these dtypes have their own loop for these ops.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OwnLoopsSpec {
    /// The dtypes (names or selectors).
    pub dtypes: Vec<Text>,
    /// The ops (names or op classes).
    pub ops: Vec<Text>,
}

/// Which dtypes a literal's value must fit: a list of `node` (the dtype the literal's node stands for),
/// `promoted` (the operands' promoted dtype), `compute` (the dtype the op computes in) and `deferred`
/// (the node's dtype, checked after everything else).
/// Only integer and bool targets bound an int literal; any float target bounds it by float64's range.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RangeSpec {
    #[serde(default)]
    /// Where a Python int is checked (node, promoted, compute, deferred).
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
    /// The kernel reads the operands in the promoted dtype and converts them itself, instead
    /// of receiving them cast to the compute dtype (Paddle's `atan2` of integer tensors, the
    /// integer `pow` inside its `hypot`).
    pub promoted_inputs: Option<bool>,
    /// Whether a weak promoted dtype stays weak through this op (default true).
    pub keep_weak: Option<bool>,
    /// Overrides the policy's literal range checks for these ops.
    pub literal_range: Option<RangeSpec>,
    /// Where the promoted dtype is outside the 15 (PyTorch's complex32): the result, e.g. `bool`
    /// for `equal`; absent: `unsupported`.
    pub outside: Option<Text>,
    /// How this op takes Python literals (kind to node or list of nodes), where it differs from `[operands]`.
    #[serde(default)]
    pub literal: BTreeMap<String, Spanned<OneOrMany>>,
    /// The op ignores `out` (the framework rebinds `a = a op b` instead of writing in place).
    pub ignore_out: Option<bool>,
    /// A weak result stays weak only when every operand is 0-d or a literal.
    pub weak_only_scalars: Option<bool>,
    /// A weak result takes the default dtype of its kind.
    pub weak_default: Option<bool>,
    /// The op's loops in order: the first every operand casts to safely is used (NumPy 1's
    /// linear-search resolver), instead of promoting.
    pub loops: Option<Vec<Text>>,
    /// The op takes a `dtype=` argument (a reduction's accumulator, `np.sum(a, dtype=D)`): it
    /// computes and returns in that dtype.
    pub dtype_arg: Option<bool>,
    /// Selector (on the compute dtype) to the result dtype, where the result is not the compute
    /// dtype (`absolute` of complex64 returns float32).
    #[serde(default)]
    pub returns: BTreeMap<String, Text>,
    /// A Python literal operand gives a plain Python number, its component (`x.real`,
    /// `x.imag`): an int for a bool or int, a float for a float or complex.
    pub literal_component: Option<bool>,
    /// Selectors of `dtype=` arguments the op refuses.
    #[serde(default)]
    pub dtype_unsupported: Vec<Text>,
    /// `dtype=D` picks the op's own loop at D (a ufunc's `np.add(a, b, dtype=D)`): D must be a
    /// dtype the op computes in as it is (else `unsupported`), and every operand must cast into
    /// D under the call's casting (`[out]`'s by default; a Python scalar by its kind alone),
    /// else `no_promotion`.
    pub dtype_loop: Option<bool>,
    /// `dtype=D` names the result only (a comparison's `dtype=bool`): the op resolves as without
    /// it, and a D other than its `result` is `unsupported`.
    pub dtype_result: Option<bool>,
    /// Operand dtypes the op has a loop of its own for, no cast needed (NumPy's comparisons of
    /// uint64 with int64: `casting="no"` allows them), each as `"uint64 int64"`.
    #[serde(default)]
    pub exact_loops: Vec<Text>,
    /// Where the `dtype=` rules of this entry come from (kept apart from `source`, which the
    /// op's every other step cites).
    pub dtype_source: Option<String>,
    /// The numbers of operands the framework's op takes where it takes fewer than the
    /// catalogue's (`torch.result_type` takes two); another count is `unsupported`.
    pub operand_counts: Option<Vec<usize>>,
    /// The first operand is a condition (`where(cond, x, y)`): not promoted with the others.
    pub condition_first: Option<bool>,
    /// How the strong dtypes of one category combine: `fold` (pairwise, in call order; the
    /// default) or `highest_kind` (each promoted with the first dtype of the highest kind, then
    /// those results joined: NumPy's `PyArray_PromoteDTypeSequence`, whose answer does not
    /// depend on the order); for the join scheme, `pairwise`: each operand in turn with the
    /// result so far, as the binary op would take them (the result so far re-enters as a tensor
    /// of its dtype, weak or not), instead of one join of all of them.
    pub sequence: Option<Text>,
    /// NumPy 1's value-based `result_type`: where value-based casting applies, every operand
    /// (a scalar as its `min_scalar_type`) is promoted in call order, so the order matters.
    pub value_in_order: Option<bool>,
    /// `can_cast`: a 0-d or Python scalar `from` counts by its value (NumPy 1: its
    /// `min_scalar_type`, a small unsigned value also as the signed type of its size).
    pub can_cast_by_value: Option<bool>,
    /// `POLICY` or `POLICY:FORM`: the op is answered as that built-in policy answers it
    /// through that entry point (the call's own when no form is given). TensorFlow has no
    /// `result_type` of its own: the one users call is `tf.experimental.numpy.result_type`
    /// (`like = "tf:tnp"`), and it does not change with the conversion mode.
    pub like: Option<Text>,
    /// A yes/no op (`can_cast(from, to)`): per `casting=` level (`no`, `equiv`, `safe`,
    /// `same_kind`, `unsafe`, and `none` for a call without one), the relation `from` must have
    /// to `to`: `equal`, `safe` (they promote to `to`), `any`, or a kind order
    /// (`"bool < unsigned < signed < float < complex"`: `from`'s kind not after `to`'s, or
    /// `from` casts safely; a dtype named in the order is a level of its own, apart from its
    /// kind: `"... < complex < bfloat16"`).
    #[serde(default)]
    pub can_cast: BTreeMap<String, Text>,
    /// An explicit conversion (`astype`, `t.to(d)`, `tf.cast`): the query's `dtype` is the
    /// target and the answer (as the framework canonicalises it), except for the pairs listed
    /// here: a FROM selector → the TO selectors the framework refuses (`{}`: none refused).
    pub astype: Option<BTreeMap<String, Vec<Text>>>,
    /// `can_cast`'s own safe-cast order, as `[lattice]` edges (`LOWER -> UPPER ...`, dtypes
    /// only): `from` casts safely to `to` where `to` is reachable from it (NumPy's cast table,
    /// which a framework's promotion need not follow). Absent: safe is "promotes to `to`".
    pub cast_order: Option<Text>,
    /// The op takes dtypes as they are written, not as the policy's `canonical` maps them:
    /// `promote_types` joins the dtypes themselves (`jnp.promote_types(int16, float64)` is
    /// float64 with x64 off), `can_cast` takes its `to` and an n-d `from` (a dtype) as written
    /// and a 0-d `from` (an array) canonical.
    pub dtypes_as_written: Option<bool>,
    /// The op as a chain of binary calls of this policy, each on two of the call's operands
    /// (`1`, `2`, ... in call order) or the result so far (`_`), each answered as that call
    /// alone is (its form's rules, its refusals): TensorFlow's `clip_by_value(t, lo, hi)` is
    /// `["minimum:function 1 3", "maximum:function _ 2"]`. `[]`: none (a form's patch).
    pub chain: Option<Vec<Text>>,
    /// With `chain`: each step's result keeps the first operand's shape, or the call is
    /// refused after that step's own checks (a 0-d first operand meeting an n-d one:
    /// TensorFlow's `values.shape.assert_is_compatible_with(t_min.shape)`).
    pub chain_keeps_shape: Option<bool>,
    /// With `chain`: `first` — the first operand enters the chain as a strong tensor of the
    /// dtype it enters at, and the result is weak exactly when it is, refused where the policy
    /// has no weak node of the result's dtype (TensorFlow's `weak_tensor_unary_op_wrapper`).
    pub chain_weak: Option<Text>,
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
    /// Where the rule comes from.
    pub source: String,
    /// Check the cast into `out` before the op refuses a dtype (PyTorch: the cast check comes first).
    #[serde(default)]
    pub before_op_refusals: bool,
    /// The functions' `casting=` argument (NumPy's ufuncs): each casting name (`no`, `equiv`,
    /// `safe`, `same_kind`, `unsafe`) to the rule (as `casting` above) every cast of the call
    /// obeys, into the op's loop and into `out`. Absent: a call with `casting=` is refused.
    #[serde(default)]
    pub casting_arg: BTreeMap<String, Text>,
    /// Where `casting_arg` comes from.
    #[serde(default)]
    pub casting_arg_source: String,
}

/// A node name or a list of them.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub enum OneOrMany {
    /// One node name.
    One(String),
    /// Node names, tried in order.
    Many(Vec<String>),
}

impl OneOrMany {
    /// The names, in order.
    pub fn items(&self) -> Vec<&str> {
        match self {
            OneOrMany::One(t) => vec![t.as_str()],
            OneOrMany::Many(v) => v.iter().map(|s| s.as_str()).collect(),
        }
    }
}

impl OperandMatch {
    /// The `value` list as (real, imaginary) pairs.
    pub(crate) fn values_parsed(
        &self,
        ctx: &super::compile::Ctx,
    ) -> Result<Vec<(f64, f64)>, crate::PromoteError> {
        self.value
            .iter()
            .map(|t| {
                crate::Literal::parse(t.get_ref())
                    .map(|l| l.to_complex())
                    .ok_or_else(|| ctx.err(t.span(), format!("`{}` is not a number", t.get_ref())))
            })
            .collect()
    }
}
