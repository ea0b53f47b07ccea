//! Yes/no ops (`can_cast(from, to, casting)`): after the arguments stage, the relation the
//! op's `can_cast` table gives the call's casting level decides; nothing is promoted.

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::{Call, Casting};
use crate::operand::{Literal, Operand};
use crate::plan::Plan;

use super::super::compiled::{OpRule, OutRule};
use super::super::RulePolicy;
use super::value_based::min_scalar_type_of;
use super::{op_step, Entered};

impl RulePolicy {
    /// Whether `from` (the first operand, entered as `from`) casts to `to` under `rel`; by value
    /// where the op says so (NumPy 1). Safe is the op's `cast_order` where it has one, else
    /// "promotes to `to`"; a kind order allows every safe cast too.
    fn holds(
        &self,
        rel: &OutRule,
        (from, to): (DType, DType),
        operand: &Operand,
        rule: &OpRule,
    ) -> bool {
        let safe = |from: DType| match &rule.cast_order {
            Some(order) => order[from.index()][to.index()],
            None => self.promote_types(from, to) == Some(to),
        };
        let holds = |from: DType| match rel {
            OutRule::Any | OutRule::Rebind => true,
            OutRule::Equal => from == to,
            OutRule::Safe => safe(from),
            OutRule::Kinds(l, _) => l[from.index()] <= l[to.index()] || safe(from),
        };
        match (rule.can_cast_by_value, operand.value()) {
            (true, Some(Literal::Int(i))) if !i.fits(DType::Int64) && !i.fits(DType::UInt64) => {
                // an int beyond every integer dtype is an object array: only an unsafe cast
                matches!(rel, OutRule::Any)
            }
            (true, Some(_)) if !operand.is_weak() => {
                // NumPy 1: the dtype, its min_scalar_type, or (a small unsigned value) the
                // signed type of that size
                let (min, small) = min_scalar_type_of(operand);
                let signed = super::value_based::signed_of(min);
                [min, if small { signed } else { min }]
                    .into_iter()
                    .chain(matches!(rel, OutRule::Equal).then_some(from))
                    .any(holds)
            }
            _ => holds(from),
        }
    }

    /// The relation of the call's casting level, or the error naming the levels the op takes.
    fn relation<'l>(
        &self,
        call: &Call,
        levels: &'l [Option<OutRule>; 6],
    ) -> Result<&'l OutRule, PromoteError> {
        let level = call.casting.map_or(5, |c| c as usize);
        levels[level].as_ref().ok_or_else(|| {
            let takes: Vec<&str> = Casting::ALL
                .iter()
                .map(|c| c.name())
                .chain(["no casting argument"])
                .zip(levels)
                .filter_map(|(n, l)| l.as_ref().map(|_| n))
                .collect();
            PromoteError::invalid(format!(
                "{}'s {} takes {}: {}",
                self.name,
                call.op,
                match call.casting {
                    Some(c) => format!("no casting={c}"),
                    None => "a casting= argument".into(),
                },
                takes.join(", ")
            ))
        })
    }

    /// The answer of a yes/no op: `from` (the first operand, as the arguments stage entered it)
    /// against the dtype `to` under the relation of the call's casting level.
    pub(crate) fn verdict(
        &self,
        Entered(r): Entered,
        levels: &[Option<OutRule>; 6],
    ) -> Result<Plan, PromoteError> {
        let call = &*r.call;
        let rel = self.relation(call, levels)?;
        let as_written = r.rule.dtypes_as_written;
        let (from, to) = match (&r.ins[..], call.operands.get(1)) {
            (
                [f, t],
                Some(Operand::Tensor {
                    dtype: written,
                    zero_dim: false,
                    weak: false,
                    ..
                }),
            ) => match (as_written, f.operand) {
                // a dtype, not an array: as written
                (
                    true,
                    Operand::Tensor {
                        dtype,
                        zero_dim: false,
                        weak: false,
                        ..
                    },
                ) => (*dtype, *written),
                (true, _) => (f.dtype, *written),
                (false, _) => (f.dtype, self.canonical(t.dtype)),
            },
            _ => {
                return Err(PromoteError::invalid(format!(
                    "{} takes two operands, [from, to]; `to` is a dtype ({{\"dtype\": \"int8\"}})",
                    call.op
                )))
            }
        };
        let yes = self.holds(rel, (from, to), &call.operands[0], r.rule);
        let rule = r.rule;
        r.steps.note(|| {
            op_step(rule, {
                let how = match rel {
                    OutRule::Any | OutRule::Rebind => "any cast is allowed".to_string(),
                    OutRule::Equal => "only the same dtype".into(),
                    OutRule::Safe => "from must promote to to".into(),
                    OutRule::Kinds(_, k) => format!("kinds {k}"),
                };
                format!(
                    "{} {from} to {to}: {how}: {}",
                    call.op,
                    if yes { "True" } else { "False" }
                )
            })
        });
        Ok(Plan {
            operands: Vec::new(), // set by `resolve_call`
            op: call.op,
            inputs: vec![from, to],
            compute: DType::Bool,
            result: DType::Bool,
            weak: false,
            promoted: from,
            steps: std::mem::take(&mut r.steps.steps),
            parts: Vec::new(),
            scalar: None,
            verdict: Some(yes),
        })
    }
}
