//! What a policy file compiles into, besides the join table: the combine scheme, the literal
//! range checks, the per-op rules and the `out` rule.

use crate::dtype::DType;
use crate::operand::OperandClass;

/// How the promoted node is found.
#[derive(Clone, Debug)]
pub enum Scheme {
    /// The join of every operand's node.
    Join {
        /// JAX: when all operands are weak, join their dtypes as strong ones, result weak.
        all_weak_join_dtypes: bool,
    },
    /// Operands grouped by class into prioritised categories (PyTorch, NumPy).
    Categories(Categories),
}

/// The parameters of the `categories` scheme.
#[derive(Clone, Debug)]
pub struct Categories {
    /// Category of each class (tensor, zero_dim, weak, literal); `None`: the class is not accepted.
    pub category: [Option<usize>; 4],
    /// Number of categories.
    pub count: usize,
    /// What a lower category of no higher kind contributes: its value's smallest dtype (NumPy 1).
    pub lower_by_value: bool,
    /// A float meeting a lower complex: its complex counterpart (PyTorch); `Outside` where
    /// that counterpart is none of the 15 (complex32).
    pub float_meets_complex: [Option<Meet>; DType::COUNT],
    /// A bool or int meeting a lower complex takes the complex as it is (PyTorch).
    pub int_meets_complex_lower: bool,
    /// The rank of each kind (bool, unsigned, signed, float, complex) when categories compare.
    pub rank: [u8; 5],
    /// How each category merges into the higher ones.
    pub merge: Vec<Merge>,
    /// A Python scalar meeting a dtype marked here enters as the dtype of its kind (bool, int,
    /// float, complex) and joins by the table (NumPy's legacy loop search, ml_dtypes).
    pub legacy: Option<Box<Legacy>>,
}

/// `[combine.legacy]`, compiled.
#[derive(Clone, Debug)]
pub struct Legacy {
    /// The dtypes it applies to, by dtype index.
    pub dtypes: [bool; DType::COUNT],
    /// The dtype a literal of each kind (bool, int, float, complex) enters as (NumPy 2).
    pub literal: Option<[DType; 4]>,
    /// The builtin loops searched after the operands' own (NumPy 1); empty: by `literal`.
    pub loops: Vec<DType>,
    /// Which ops each legacy dtype has a loop of its own for (by dtype index): a call whose
    /// operands are all of that dtype computes in it.
    pub own_loops: Vec<Vec<crate::op::Op>>,
    /// The builtin loops searched, per op, when the table joins the operands to a legacy dtype
    /// without a loop of its own for the op.
    pub builtin_loops: Vec<(Vec<crate::op::Op>, Vec<DType>)>,
}

impl Legacy {
    /// Whether `d` is one of the legacy dtypes.
    pub fn has(&self, d: DType) -> bool {
        self.dtypes[d.index()]
    }

    /// Whether `d` has a loop of its own for `op`.
    pub fn has_own_loop(&self, d: DType, op: crate::op::Op) -> bool {
        self.own_loops
            .get(d.index())
            .is_some_and(|ops| ops.contains(&op))
    }

    /// The builtin loops `op` searches when the operands (`dtypes`) join to `d` and one of
    /// them is a legacy dtype, unless `d` is a legacy dtype with a loop of its own for `op`
    /// (`None`: the join stands). The table's join is the first loop both cast to among the
    /// user `T, T -> T` loops and the builtin ones in table order; an op whose builtin loops
    /// differ (true_divide's are e f d) or that the dtype has no loop for searches its own.
    pub fn builtin_loops_past(
        &self,
        d: DType,
        mut dtypes: impl Iterator<Item = DType>,
        op: crate::op::Op,
    ) -> Option<&[DType]> {
        if (self.has(d) && self.has_own_loop(d, op)) || !dtypes.any(|x| self.has(x)) {
            return None;
        }
        self.builtin_loops
            .iter()
            .find(|(ops, _)| ops.contains(&op))
            .map(|(_, loops)| loops.as_slice())
    }
}

/// How a lower category merges into a higher one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Merge {
    /// By kind: it matters only when of a higher kind (PyTorch, NumPy).
    Kind,
    /// Never: it contributes nothing (OneFlow's 0-d tensors).
    Nothing,
    /// Always: the join of the two (OneFlow's Python scalars, through the table's scalar rows).
    Join,
    /// The join when the kinds differ, nothing when they are the same (Paddle's 0-d tensors).
    Differ,
}

impl Categories {
    pub(crate) fn rank(&self, d: DType) -> u8 {
        self.rank[d.kind() as usize]
    }
}

/// The index of an operand class in the per-class arrays (tensor, zero_dim, weak, literal).
pub(crate) fn class_index(c: OperandClass) -> usize {
    match c {
        OperandClass::Tensor => 0,
        OperandClass::ZeroDim => 1,
        OperandClass::Weak => 2,
        OperandClass::Literal => 3,
    }
}

/// A float meeting a lower complex category.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Meet {
    /// Its complex counterpart, this dtype.
    DType(DType),
    /// Its complex counterpart is none of the 15 (complex32).
    Outside,
}

/// Where a literal's value is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RangeTarget {
    /// The dtype of the literal's own node.
    Node,
    /// The promoted dtype.
    Promoted,
    /// The dtype the op computes in.
    Compute,
    /// The dtype of the literal's own node, checked last: the framework reports the overflow only
    /// when nothing else failed (OneFlow leaves Python's OverflowError pending).
    Deferred,
}

/// Literal range checks.
#[derive(Clone, Debug, Default)]
pub struct Range {
    /// Where a Python int is checked, in order.
    pub int: Vec<RangeTarget>,
    /// Where a Python float or complex is checked, in order.
    pub float: Vec<RangeTarget>,
}

/// What an op does with a promoted dtype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Compute in this dtype.
    Compute(DType),
    /// Refuse.
    Unsupported,
}

/// An op's compiled rule.
#[derive(Clone, Debug)]
pub struct OpRule {
    /// The framework has the op (a core op, or one its policy file names).
    pub known: bool,
    /// The op takes a `dtype=` argument: it computes and returns in that dtype.
    pub dtype_arg: bool,
    /// Compute dtype → result dtype, where they differ (`absolute` of complex: its real part).
    pub returns: [Option<DType>; DType::COUNT],
    /// A Python literal operand gives a plain Python number, its component (`np.real(1)`).
    pub literal_component: bool,
    /// The `dtype=` arguments it refuses.
    pub dtype_unsupported: [bool; DType::COUNT],
    /// `dtype=D` picks the op's own loop at D; the operands must cast into it.
    pub dtype_loop: bool,
    /// `dtype=D` names the result only.
    pub dtype_result: bool,
    /// Operand dtypes with a loop of their own (no cast into the loop).
    pub exact_loops: Vec<Vec<DType>>,
    /// Where the `dtype=` rules come from.
    pub dtype_source: String,
    /// Promoted dtype → action.
    pub action: [Action; DType::COUNT],
    /// Result dtype (comparisons: bool); `None`: the compute dtype.
    pub result: Option<DType>,
    /// Tensors must share one dtype.
    pub same_dtype: bool,
    /// The kernel reads the operands in the promoted dtype (not cast to the compute dtype).
    pub promoted_inputs: bool,
    /// Weak stays weak.
    pub keep_weak: bool,
    /// Literal range override.
    pub range: Option<Range>,
    /// Where the rules come from.
    pub sources: Vec<String>,
    /// Result where the promoted dtype lies outside the 15 (`None`: unsupported).
    pub outside: Option<DType>,
    /// The op's loops, searched in order instead of promoting (NumPy 1's default resolver).
    pub loops: Option<Vec<DType>>,
    /// How this op takes Python literals, where it differs from the policy's `[operands]`.
    pub literal: [Option<Vec<usize>>; 4],
    /// The op ignores `out`: the framework rebinds instead of writing in place (OneFlow's `//=`).
    pub ignore_out: bool,
    /// A weak result stays weak only when every operand is 0-d or a literal (JAX's logical ops).
    pub weak_only_scalars: bool,
    /// A weak result takes the default dtype of its kind (JAX's matmul: `dtypes.result_type`).
    pub weak_default: bool,
    /// The numbers of operands the op takes in this framework (`None`: the catalogue's).
    pub operand_counts: Option<Vec<usize>>,
    /// The first operand is a condition, not promoted (`where`).
    pub condition_first: bool,
    /// `can_cast`: a 0-d or Python scalar `from` counts by its value (NumPy 1).
    pub can_cast_by_value: bool,
    /// NumPy 1's value-based `result_type`: every operand promoted in call order.
    pub value_in_order: bool,
    /// Within a category, each dtype is promoted with the first of the highest kind and those
    /// results joined (NumPy's `PyArray_PromoteDTypeSequence`), not folded pairwise.
    pub by_highest_kind: bool,
    /// NumPy's `PyArray_PromoteDTypeSequence` at the level of DType classes: tensors' dtypes
    /// first, then the Python scalars' abstract DTypes (`sequence = "common_dtype"`).
    pub common_dtype: bool,
    /// A yes/no op: the relation per `casting=` level ([`crate::Casting::ALL`]'s order, then
    /// a call without `casting=`); `None` where the op does not take that level.
    pub can_cast: Option<[Option<OutRule>; 6]>,
    /// An explicit conversion (`astype`): per source dtype, the targets the framework refuses.
    pub astype: Option<Vec<[bool; DType::COUNT]>>,
    /// Answered as another built-in policy answers it: (policy, entry point; `None`: the
    /// call's own).
    pub like: Option<(String, Option<crate::op::Form>)>,
    /// How the join scheme takes the operands (`sequence`).
    pub join_order: JoinOrder,
    /// `can_cast`'s own safe-cast order (`cast_order`): `[from][to]`, reflexive and transitive.
    pub cast_order: Option<std::sync::Arc<[[bool; DType::COUNT]; DType::COUNT]>>,
    /// The op takes dtypes as written, not canonical (`dtypes_as_written`).
    pub dtypes_as_written: bool,
    /// The op as a chain of binary calls (`chain`).
    pub chain: Option<std::sync::Arc<Chain>>,
}

/// An op declared as a chain of binary calls of its policy (`chain`, `chain_keeps_shape`,
/// `chain_weak`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    /// The calls in order.
    pub steps: Vec<ChainStep>,
    /// Each step's result keeps the first operand's shape, or the call is refused.
    pub keeps_shape: bool,
    /// The first operand enters as a strong tensor and gives the result its weak flag.
    pub weak_of_first: bool,
}

/// One call of a [`Chain`]: an op through an entry point, on two arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainStep {
    /// The op.
    pub op: crate::op::Op,
    /// Its entry point (`None`: the call's own).
    pub form: Option<crate::op::Form>,
    /// Its two arguments.
    pub args: [ChainArg; 2],
}

/// An argument of a [`ChainStep`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChainArg {
    /// The call's operand at this index (from 0).
    Operand(usize),
    /// The result of the steps so far, as a tensor of its dtype.
    SoFar,
}

/// How the join scheme takes an op's operands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JoinOrder {
    /// One join of all of them (JAX's `lattice_result_type`).
    #[default]
    All,
    /// Pairwise, as the binary op would take them: each with the result so far, which
    /// re-enters as a tensor of its dtype, weak or not (`jnp.clip` is
    /// `minimum(max, maximum(min, arr))`).
    Pairwise,
    /// The arrays first, then each Python scalar in call order with the arrays' dtype, its
    /// range checked at once (array-api-strict's `result_type`: `_promote_scalar` per scalar).
    ArraysFirst,
}

/// The `out` casting rule.
#[derive(Clone, Debug)]
pub enum OutRule {
    /// Any cast.
    Any,
    /// Only the same dtype.
    Equal,
    /// The result must promote to `out` itself.
    Safe,
    /// A result may be cast to a dtype of the same or a later level: each dtype's level (its
    /// kind's, or its own where the order names it), and the order as written.
    Kinds([u8; DType::COUNT], String),
    /// Nothing is cast: the destination takes the result's dtype (Paddle rebinds it).
    Rebind,
}
