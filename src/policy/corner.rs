//! Corner rules: framework behaviour beyond the tables, as ordered rules, each with the stage
//! it is checked at, conditions on the call and its operands, and an outcome.

use crate::dtype::DType;
use crate::op::Call;
use crate::operand::{Literal, Operand};

use super::compiled::class_index;
use super::resolve::Input;

/// When a corner rule is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Before the literals are converted (an API refusing a Python scalar).
    Arguments,
    /// Before promotion, after the literals are converted.
    Operands,
    /// After promotion, before the op's own dtype rule.
    Promoted,
    /// After the op's dtype rule.
    Computed,
}

/// What a corner rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Then {
    /// This error.
    Error(crate::ErrorKind),
    /// At `promoted` or `computed`: the promoted dtype, skipping the op's refusals. At
    /// `arguments` or `operands`: the call goes on as it is, the stage's later rules unchecked
    /// (a form whose entry point has none of the operator's corners: TensorFlow's `tnp`).
    Accept,
    /// This result dtype.
    DType(DType),
    /// The first operand's dtype.
    First,
    /// The second operand's dtype.
    Second,
    /// The third operand's dtype (OneFlow's `where(c, x, 1)`: the scalar takes x's dtype).
    Third,
    /// Promote the operands' dtypes through the table (no categories) and go on.
    Join,
    /// The `out` dtype.
    Out,
    /// The dtype the op computes in.
    Compute,
    /// The answer of the same call with its two operands in the other order (a function that
    /// takes `f(1, t)` as `f(t, 1)`).
    Swapped,
    /// Convert the first operand, a Python literal, alone into a 0-d tensor (the rule's
    /// `convert` dtypes) and resolve the call again with it.
    ConvertFirst,
    /// The same for the second operand (Paddle: `paddle.floor_divide(t, 1)` makes 1 a 0-d
    /// int64 tensor alone).
    ConvertSecond,
    /// Convert every Python literal operand into a 0-d tensor (the rule's `convert` dtypes) and
    /// resolve the call again with them (`np.stack` makes every operand an array first).
    ConvertLiterals,
    /// Read every 0-d tensor after the first operand as a Python literal of its value and
    /// resolve the call again (`torch.clamp(t, Scalar, Scalar)` takes a 0-d bound as a scalar).
    ZeroDimAsLiterals,
}

/// A target dtype of a fits / not_fits condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FitTarget {
    /// This dtype.
    DType(DType),
    /// The dtype the op computes in.
    Compute,
}

/// Conditions on one operand.
#[derive(Clone, Debug, Default)]
pub struct Matcher {
    pub(crate) class: Option<[bool; 4]>,
    pub(crate) dtype: Option<[bool; DType::COUNT]>,
    /// A tensor's dtype as written (before `canonical`).
    pub(crate) written_dtype: Option<[bool; DType::COUNT]>,
    pub(crate) literal: Option<[bool; 4]>,
    pub(crate) values: Vec<(f64, f64)>,
    pub(crate) negative: Option<bool>,
    pub(crate) not_fits: Vec<FitTarget>,
    pub(crate) fits: Option<FitTarget>,
    pub(crate) wraps_to_zero: Option<bool>,
    pub(crate) wraps_negative: Option<bool>,
}

/// A compiled corner rule.
#[derive(Clone, Debug)]
pub struct CornerRule {
    /// The ops it applies to, by op index.
    pub(crate) ops: Vec<bool>,
    /// The stage the rule is checked at.
    pub at: Stage,
    pub(crate) any: Option<Matcher>,
    pub(crate) all: Option<Matcher>,
    pub(crate) first: Option<Matcher>,
    pub(crate) second: Option<Matcher>,
    pub(crate) third: Option<Matcher>,
    pub(crate) other: Option<Matcher>,
    pub(crate) out: Option<bool>,
    pub(crate) out_is_first: Option<bool>,
    pub(crate) promoted_is_first: Option<bool>,
    pub(crate) same_dtypes: Option<bool>,
    /// The second operand's value is above the third's (an operand without one holds ones).
    pub(crate) second_above_third: Option<bool>,
    pub(crate) out_dtype: Option<[bool; DType::COUNT]>,
    pub(crate) weak: Option<bool>,
    /// The weak flag of a decided result (default: the first operand's for `first`, else false).
    pub weak_result: Option<bool>,
    pub(crate) promoted: Option<[bool; DType::COUNT]>,
    pub(crate) compute: Option<[bool; DType::COUNT]>,
    /// What the rule decides.
    pub then: Then,
    /// For [`Then::ConvertFirst`]: per literal kind (bool, int, float, complex), the dtypes a
    /// literal is converted to alone, the first that holds its value.
    pub(crate) convert: [Vec<DType>; 4],
    /// For [`Then::ConvertFirst`]: per literal kind, the nodes the other literals enter at
    /// (`None`: the op's).
    pub(crate) literal: [Option<Vec<usize>>; 4],
    /// For a conversion: a float beyond the dtype's range becomes ±inf (the framework casts
    /// it) instead of overflowing.
    pub(crate) saturate: bool,
    /// The rule decides the result dtype only: the plan keeps the compute dtype (and the input
    /// casts) of the computation stage (stage `computed`).
    pub(crate) keep_compute: bool,
    /// Where the rule comes from (`source` in the policy file).
    pub source: String,
}

/// Whether a value fits a dtype: ints by range, floats by magnitude (inf and nan fit).
pub(crate) fn value_fits(v: &Literal, d: DType) -> bool {
    match (v, d.int_range()) {
        (Literal::Int(i), Some(_)) => i.fits(d),
        (Literal::Bool(_), Some(_)) => true,
        (_, Some(_)) => false,
        _ => {
            let m = d.float_max().unwrap_or(f64::MAX);
            let (re, im) = v.to_complex();
            [re, im].iter().all(|x| !x.is_finite() || x.abs() <= m)
        }
    }
}

impl Matcher {
    /// Whether a condition reads the operand's value (not only its class and dtype).
    fn looks_at_value(&self) -> bool {
        !self.values.is_empty()
            || self.negative.is_some()
            || !self.not_fits.is_empty()
            || self.fits.is_some()
            || self.wraps_to_zero.is_some()
            || self.wraps_negative.is_some()
    }

    pub(crate) fn matches(&self, i: &Input, compute: DType) -> bool {
        if let Some(c) = &self.class {
            if !c[class_index(i.class)] {
                return false;
            }
        }
        if let Some(d) = &self.dtype {
            if !d[i.dtype.index()] {
                return false;
            }
        }
        if let Some(d) = &self.written_dtype {
            match i.operand {
                Operand::Tensor { dtype, .. } if d[dtype.index()] => {}
                _ => return false,
            }
        }
        let lit = i.operand.literal();
        if let Some(k) = &self.literal {
            match lit {
                Some(l) if k[l.kind() as usize] => {}
                _ => return false,
            }
        }
        if !self.looks_at_value() {
            return true;
        }
        let Some(v) = i.operand.value() else {
            return false;
        };
        let (re, im) = v.to_complex();
        if !self.values.is_empty() && !self.values.iter().any(|&(a, b)| a == re && b == im) {
            return false;
        }
        if let Some(n) = self.negative {
            let neg = match &v {
                Literal::Int(x) => x.is_negative(),
                _ => re < 0.0,
            };
            if neg != n {
                return false;
            }
        }
        let target = |t: FitTarget| match t {
            FitTarget::DType(d) => d,
            FitTarget::Compute => compute,
        };
        if self.not_fits.iter().any(|t| value_fits(&v, target(*t))) {
            return false;
        }
        if let Some(t) = self.fits {
            if !value_fits(&v, target(t)) {
                return false;
            }
        }
        if let Some(w) = self.wraps_to_zero {
            let zero = match (&v, compute.int_range()) {
                (Literal::Bool(b), Some(_)) => !b,
                (Literal::Int(x), Some(_)) if compute == DType::Bool => x.exact() == Some(0),
                (Literal::Int(x), Some(_)) => {
                    let bits = compute.bits();
                    match x.exact() {
                        Some(e) => e.rem_euclid(1i128 << bits) == 0,
                        // beyond i128: only exact multiples matter; treat as nonzero unless its text ends in enough zeros
                        None => false,
                    }
                }
                _ => false,
            };
            if zero != w {
                return false;
            }
        }
        if let Some(w) = self.wraps_negative {
            if wraps_negative(&v, compute) != w {
                return false;
            }
        }
        true
    }
}

/// Whether an integer value, wrapped (two's complement) into a signed integral dtype, is
/// negative: `128` in int8 is -128. False for unsigned, bool and non-integral dtypes, for
/// non-integer values and for ints beyond i128.
fn wraps_negative(v: &Literal, d: DType) -> bool {
    let (Literal::Int(x), Some((min, _))) = (v, d.int_range()) else {
        return false;
    };
    match x.exact() {
        Some(e) if min < 0 => {
            let bits = d.bits();
            e.rem_euclid(1i128 << bits) >= 1i128 << (bits - 1)
        }
        _ => false,
    }
}

/// Whether the second operand's value is above the third's (their real parts; an operand
/// without a value, an n-d tensor, holds ones); false without a third operand.
fn second_above_third(ins: &[Input]) -> bool {
    let value = |i: &Input| match i.operand.value() {
        Some(v) => v.to_complex().0,
        None => 1.0,
    };
    match ins {
        [_, lo, hi, ..] => value(lo) > value(hi),
        _ => false,
    }
}

impl CornerRule {
    /// The operand this rule's conditions single out (its `first`, `second` or `any` matcher,
    /// in that order, when that matcher has value conditions): the literal an `overflow` rule
    /// blames. `None` when no matcher looks at values.
    pub(crate) fn culprit(&self, ins: &[Input], compute: DType) -> Option<usize> {
        fn by_value(m: &Option<Matcher>) -> Option<&Matcher> {
            m.as_ref().filter(|m| m.looks_at_value())
        }
        if let Some(m) = by_value(&self.first) {
            return ins.first().filter(|i| m.matches(i, compute)).map(|_| 0);
        }
        if let Some(m) = by_value(&self.second) {
            return ins.get(1).filter(|i| m.matches(i, compute)).map(|_| 1);
        }
        if let Some(m) = by_value(&self.third) {
            return ins.get(2).filter(|i| m.matches(i, compute)).map(|_| 2);
        }
        let m = by_value(&self.any)?;
        ins.iter().position(|i| m.matches(i, compute))
    }

    pub(crate) fn applies(
        &self,
        call: &Call,
        ins: &[Input],
        promoted: Option<DType>,
        compute: Option<DType>,
        weak: bool,
    ) -> bool {
        if !self.ops.get(call.op.index()).copied().unwrap_or(false) {
            return false;
        }
        if self.weak.is_some_and(|w| w != weak || promoted.is_none()) {
            return false;
        }
        if self.out.is_some_and(|o| o != call.out.is_some()) {
            return false;
        }
        if let Some(want) = self.out_is_first {
            let Some(out) = call.out else { return false };
            if (call.operands.first().and_then(|o| o.dtype()) == Some(out)) != want {
                return false;
            }
        }
        let c = compute.or(promoted).unwrap_or(DType::Bool);
        if let Some(want) = self.same_dtypes {
            if ins.iter().all(|i| i.dtype == ins[0].dtype) != want {
                return false;
            }
        }
        if let Some(want) = self.second_above_third {
            if second_above_third(ins) != want {
                return false;
            }
        }
        if let Some(sel) = &self.out_dtype {
            if !call.out.is_some_and(|o| sel[o.index()]) {
                return false;
            }
        }
        if let Some(want) = self.promoted_is_first {
            let first = ins.first().map(|i| i.dtype);
            if promoted.is_none() || (promoted == first) != want {
                return false;
            }
        }
        if let (Some(sel), Some(p)) = (&self.promoted, promoted) {
            if !sel[p.index()] {
                return false;
            }
        }
        if let (Some(sel), Some(cd)) = (&self.compute, compute) {
            if !sel[cd.index()] {
                return false;
            }
        }
        self.operands_match(ins, c)
    }

    /// The conditions on the operands: `any` (with `other`), `all`, `first`, `second`, `third`,
    /// read against the compute dtype `c`.
    fn operands_match(&self, ins: &[Input], c: DType) -> bool {
        if let Some(m) = &self.any {
            let hit = ins.iter().enumerate().any(|(k, i)| {
                m.matches(i, c)
                    && self.other.as_ref().is_none_or(|o| {
                        ins.iter()
                            .enumerate()
                            .any(|(j, x)| j != k && o.matches(x, c))
                    })
            });
            if !hit {
                return false;
            }
        }
        if self
            .all
            .as_ref()
            .is_some_and(|m| !ins.iter().all(|i| m.matches(i, c)))
        {
            return false;
        }
        [&self.first, &self.second, &self.third]
            .into_iter()
            .enumerate()
            .all(|(k, m)| {
                m.as_ref()
                    .is_none_or(|m| ins.get(k).is_some_and(|i| m.matches(i, c)))
            })
    }
}
