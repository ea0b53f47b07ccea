//! NumPy 1's value-based casting: a Python scalar or 0-d array of no higher kind than the
//! arrays counts by its value (`min_scalar_type`), both when categories merge and in NumPy 1's
//! default type resolver, which searches an op's loops for the first that every operand casts
//! to safely.

use crate::dtype::{DType, Kind};
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{Literal, Operand};
use crate::plan::Step;

use super::super::compiled::Categories;
use super::super::RulePolicy;
use super::{Input, Trace};

impl RulePolicy {
    /// NumPy 1's `should_use_min_scalar`: some operand of the top category, and no lower
    /// operand of a higher kind rank.
    /// A `[combine.legacy]` dtype ranks above every kind (its NumPy kind is `V`).
    fn use_min_scalar(&self, cs: &Categories, cats: &[Vec<&Input>]) -> bool {
        let rank = |d: DType| match &cs.legacy {
            Some(l) if l.has(d) => u8::MAX,
            _ => cs.rank(d),
        };
        let top = cats[0].iter().map(|i| rank(i.dtype)).max();
        let low = cats[1..].iter().flatten().map(|i| rank(i.dtype)).max();
        matches!((top, low), (Some(t), Some(l)) if l <= t)
    }

    /// A lower category of no higher kind merged by its members' values: each counts as its
    /// `min_scalar_type` (a "small unsigned" one as the signed type of its size next to a signed,
    /// float or complex dtype), promoted with the higher category's dtype `hd`.
    pub(crate) fn by_value(
        &self,
        call: &Call,
        hd: DType,
        lower_members: &[&Input],
        steps: &mut Trace,
    ) -> Result<DType, PromoteError> {
        let mut r = hd;
        for m in lower_members {
            let (ms, small) = min_scalar_type_of(m.operand);
            let ms = match (small, r.kind()) {
                (true, Kind::Signed | Kind::Float | Kind::Complex) => signed_of(ms),
                _ => ms,
            };
            let nr = self.promote_types(r, ms).ok_or_else(|| {
                self.no_promotion(
                    call,
                    r.name(),
                    ms.name(),
                    format!("no promotion of {r} and {ms}"),
                )
            })?;
            steps.note(|| {
                Step::Value({
                    format!(
                        "{} counts by its value as {} (no higher kind than {}): {}",
                        m.operand, ms, hd, nr
                    )
                })
            });
            r = nr;
        }
        Ok(r)
    }

    /// NumPy 1's default type resolver: the first of the op's loops every operand casts to
    /// safely (a lower-category operand by its value, where values count).
    /// NumPy 1's value-based `result_type` of any number of operands (where value-based casting
    /// applies): every operand's dtype — a scalar's `min_scalar_type` — promoted in call order,
    /// a "small unsigned" scalar counting as the signed type of its size next to a signed or
    /// inexact dtype (two small unsigned stay small). Without value-based casting, the dtype every
    /// other one promotes to, else the fold in call order (`PyArray_PromoteDTypeSequence`).
    /// `None`: the policy has no value-based casting.
    pub(crate) fn value_in_order(
        &self,
        call: &Call,
        ins: &[Input],
        cs: &Categories,
        steps: &mut Trace,
    ) -> Result<Option<DType>, PromoteError> {
        let cats = self.group(cs, ins)?;
        if !cs.lower_by_value {
            return Ok(None);
        }
        if !self.use_min_scalar(cs, &cats) {
            // no value-based casting: every operand's dtype as one sequence, each promoted with
            // the first of the highest kind and those joined (PyArray_PromoteDTypeSequence)
            let rank = |d: DType| cs.rank(d);
            let top = ins.iter().map(|i| rank(i.dtype)).max().unwrap_or(0);
            let main = ins.iter().map(|i| i.dtype).find(|&d| rank(d) == top);
            let seq = main.and_then(|m| {
                ins.iter().try_fold(m, |acc, i| {
                    self.promote_types(acc, self.promote_types(m, i.dtype)?)
                })
            });
            return match seq {
                Some(d) => Ok(Some(d)),
                None => self.join_dtypes(call, ins).map(Some),
            };
        }
        let item = |i: &Input| match cs.category[super::super::compiled::class_index(i.class)] {
            Some(0) => (i.dtype, false),
            _ => min_scalar_type_of(i.operand),
        };
        let wide = |d: DType| !matches!(d.kind(), Kind::Bool | Kind::Unsigned);
        let (mut r, mut small) = item(&ins[0]);
        for i in &ins[1..] {
            let (d, d_small) = item(i);
            let (a, b) = match (small && wide(d), d_small && wide(r)) {
                (true, _) => (signed_of(r), d),
                (_, true) => (r, signed_of(d)),
                _ => (r, d),
            };
            let nr = self.promote_types(a, b).ok_or_else(|| {
                self.no_promotion(
                    call,
                    a.name(),
                    b.name(),
                    format!("no promotion of {a} and {b}"),
                )
            })?;
            steps.note(|| {
                Step::Value(format!(
                    "value-based, in call order: {r} with {} (as {b}) is {nr}",
                    i.operand
                ))
            });
            (r, small) = (nr, small && d_small);
        }
        Ok(Some(r))
    }

    pub(crate) fn linear_search(
        &self,
        call: &Call,
        ins: &[Input],
        cs: &Categories,
        loops: &[DType],
        steps: &mut Trace,
    ) -> Result<DType, PromoteError> {
        let cats = self.group(cs, ins)?;
        let by_value = cs.lower_by_value && self.use_min_scalar(cs, &cats);
        // d casts to l safely when their promotion is l; a table that is not symmetric (NumPy's
        // legacy user dtypes, whose first operand's loop comes first) gives it in one order
        let safe = |d: DType, l: DType| {
            self.promote_types(d, l) == Some(l) || self.promote_types(l, d) == Some(l)
        };
        // NumPy 2 (NEP 50): a Python scalar counts as the dtype the promotion gives it
        let weak_as = if cs.lower_by_value || ins.iter().all(|i| i.operand.literal().is_none()) {
            None
        } else {
            self.categorize(call, ins, cs, &mut Trace::new(false))?
        };
        for &l in loops {
            let ok = cats.iter().enumerate().all(|(ci, members)| {
                members.iter().all(|m| {
                    if let (Some(w), Some(_)) = (weak_as, m.operand.literal()) {
                        safe(w, l)
                    } else if ci == 0 || !by_value {
                        safe(m.dtype, l)
                    } else {
                        let (ms, small) = min_scalar_type_of(m.operand);
                        safe(ms, l) || (small && safe(signed_of(ms), l))
                    }
                })
            });
            if ok {
                steps.note(|| {
                    Step::Loop({
                        format!(
                            "{} takes the first of its loops every operand casts to safely{}: {}",
                            call.op,
                            if by_value { " (scalars by value)" } else { "" },
                            l
                        )
                    })
                });
                return Ok(l);
            }
        }
        Err(PromoteError::Unsupported {
            policy: self.name.clone(),
            op: call.op.name().into(),
            dtype: call
                .operands
                .iter()
                .map(|o| o.to_string())
                .collect::<Vec<_>>()
                .join(" and "),
            rule: format!(
                "no loop of {} takes these operands safely (loops: {})",
                call.op,
                loops
                    .iter()
                    .map(|d| d.name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
    }
}

/// NumPy 1.26's `min_scalar_type` of an operand's value (`min_scalar_type_num`), with its
/// "small unsigned" flag (a non-negative int that also fits the signed type of the same size).
/// The thresholds are NumPy's: float16 below 65000 in magnitude (and every non-finite value),
/// float32 below 3.4e38; a 0-d float16 stays float16, a 0-d complex64 complex64.
///
/// ```
/// use promote::{policy::min_scalar_type_of, DType, Operand};
/// assert_eq!(min_scalar_type_of(&"256".parse().unwrap()), (DType::UInt16, true));
/// assert_eq!(min_scalar_type_of(&"65504.0".parse().unwrap()), (DType::Float32, false));
/// assert_eq!(min_scalar_type_of(&"float32(inf)".parse().unwrap()), (DType::Float16, false));
/// assert_eq!(min_scalar_type_of(&"(inf+0j)".parse().unwrap()), (DType::Complex128, false));
/// ```
pub fn min_scalar_type_of(o: &Operand) -> (DType, bool) {
    let dtype = o.dtype();
    let Some(v) = o.value() else {
        return (dtype.unwrap_or(DType::Bool), false);
    };
    match (&v, dtype) {
        // a narrow dtype (ml_dtypes' user dtypes) is its own min_scalar_type
        (_, Some(d)) if !d.is_classic() => (d, false),
        (_, Some(DType::Float16)) => (DType::Float16, false),
        (_, Some(DType::Complex64)) => (DType::Complex64, false),
        (Literal::Bool(_), _) => (DType::Bool, false),
        (Literal::Int(i), _) if dtype.is_none_or(|d| d.is_integer() || d.is_bool()) => {
            let order: &[DType] = if i.is_negative() {
                &[DType::Int8, DType::Int16, DType::Int32, DType::Int64]
            } else {
                &[DType::UInt8, DType::UInt16, DType::UInt32, DType::UInt64]
            };
            match order.iter().copied().find(|d| i.fits(*d)) {
                Some(d) => (d, !i.is_negative() && i.fits(signed_of(d))),
                None => (DType::Float64, false),
            }
        }
        _ => {
            let (re, im) = v.to_complex();
            let complex =
                matches!(v, Literal::Complex(..)) || dtype.is_some_and(|d| d.is_complex());
            if complex {
                let small = [re, im].iter().all(|x| -3.4e38 < *x && *x < 3.4e38);
                (
                    if small {
                        DType::Complex64
                    } else {
                        DType::Complex128
                    },
                    false,
                )
            } else if !re.is_finite() || (-65000.0 < re && re < 65000.0) {
                (DType::Float16, false)
            } else if dtype == Some(DType::Float32) || (-3.4e38 < re && re < 3.4e38) {
                (DType::Float32, false)
            } else {
                (DType::Float64, false)
            }
        }
    }
}

/// The signed integer of the same size as an unsigned one (others unchanged).
pub(crate) fn signed_of(d: DType) -> DType {
    match d {
        DType::UInt8 => DType::Int8,
        DType::UInt16 => DType::Int16,
        DType::UInt32 => DType::Int32,
        DType::UInt64 => DType::Int64,
        x => x,
    }
}

// ---------------------------------------------------------------------------------------------
// Compiling a policy file.
