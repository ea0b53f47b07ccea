//! Corner rules at work: finding the first rule of a stage whose conditions hold, and what it
//! decides on its own (an error, or a result dtype that ends resolution).

use crate::dtype::DType;
use crate::error::{ErrorKind, PromoteError};
use crate::op::Call;
use crate::plan::{Plan, Step};

use super::super::corner::{CornerRule, Stage, Then};
use super::super::RulePolicy;
use super::{Input, Resolution, Trace};

impl RulePolicy {
    /// The first corner rule of stage `at` that applies.
    pub(crate) fn corner(
        &self,
        r: &Resolution,
        at: Stage,
        promoted: Option<DType>,
        compute: Option<DType>,
        weak: bool,
    ) -> Option<&CornerRule> {
        self.rules
            .iter()
            .find(|c| c.at == at && c.applies(&r.call, &r.ins, promoted, compute, weak))
    }

    /// What a corner rule decides on its own (`None`: it lets resolution go on).
    pub(crate) fn outcome(
        &self,
        r: &mut Resolution,
        c: &CornerRule,
        compute: Option<DType>,
    ) -> Option<Result<Plan, PromoteError>> {
        let (call, ins) = (&*r.call, &r.ins);
        let (d, w) = match c.then {
            Then::Error(k) => {
                let culprit = c.culprit(ins, compute.unwrap_or(ins[0].dtype));
                return Some(Err(self.corner_error(call, c, k, culprit)));
            }
            Then::DType(d) => (d, false),
            Then::First => (ins[0].dtype, ins[0].weak && ins[0].dtype != DType::Bool),
            // the n-th operand, or the last where the call has fewer
            Then::Second => (ins[1.min(ins.len() - 1)].dtype, false),
            Then::Third => (ins[2.min(ins.len() - 1)].dtype, false),
            Then::Out => (call.out.unwrap_or(ins[0].dtype), false),
            Then::Compute => (compute.unwrap_or(ins[0].dtype), false),
            Then::Accept
            | Then::Join
            | Then::ConvertFirst
            | Then::ConvertSecond
            | Then::ConvertLiterals
            | Then::ZeroDimAsLiterals => return None,
            Then::Swapped => {
                let mut swapped = call.clone();
                swapped.operands.reverse();
                r.steps.note(|| Step::Corner {
                    detail: format!("{} answers as {swapped}", call.op),
                    source: c.source.clone(),
                });
                return Some(self.resolve_call(&swapped, r.steps));
            }
        };
        let weak = c.weak_result.unwrap_or(w);
        // `keep_compute`: the rule decides the result; the computation stage's dtype stays
        let compute = compute.filter(|_| c.keep_compute).unwrap_or(d);
        Some(self.decided(call, ins, c, (d, compute), weak, r.steps))
    }

    /// The plan of a result `d` a rule decided, computed in `compute` (`d` unless the rule
    /// keeps the computation stage's dtype).
    fn decided(
        &self,
        call: &Call,
        ins: &[Input],
        r: &CornerRule,
        (d, compute): (DType, DType),
        weak: bool,
        steps: &mut Trace,
    ) -> Result<Plan, PromoteError> {
        steps.note(|| Step::Corner {
            detail: if compute == d {
                format!("{} gives {}", call.op, d)
            } else {
                format!("{} computes in {compute} and gives {d}", call.op)
            },
            source: r.source.clone(),
        });
        self.out_check(call, d, weak, steps)?;
        let rule = self.rule_of(call.op)?;
        self.check_ranges(call, ins, self.ranges(rule), compute, compute, None)?;
        let result = call.out.map_or(d, |o| self.canonical(o));
        Ok(Plan {
            op: call.op,
            operands: Vec::new(), // set by `resolve_call`
            inputs: ins.iter().map(|_| compute).collect(),
            compute,
            result,
            weak: weak && call.out.is_none(),
            promoted: compute,
            steps: std::mem::take(&mut steps.steps),
            parts: Vec::new(),
            scalar: None,
            verdict: None,
        })
    }

    fn corner_error(
        &self,
        call: &Call,
        r: &CornerRule,
        kind: ErrorKind,
        culprit: Option<usize>,
    ) -> PromoteError {
        let ops: Vec<String> = call.operands.iter().map(|o| o.to_string()).collect();
        let rule = if r.source.is_empty() {
            "a rule of this framework".to_string()
        } else {
            r.source.clone()
        };
        match kind {
            ErrorKind::NoPromotion => PromoteError::NoPromotion {
                policy: self.name.clone(),
                op: call.op.name().into(),
                operands: ops.join(" and "),
                rule,
                advice: "cast the operands explicitly so both share a dtype".into(),
            },
            ErrorKind::Overflow => {
                let blamed = culprit.and_then(|k| call.operands.get(k)?.literal());
                let lit = blamed
                    .or_else(|| call.operands.iter().find_map(|o| o.literal()))
                    .map(|l| (l.kind().name().to_string(), l.to_string()));
                let (k, v) = lit.unwrap_or(("value".into(), ops.join(", ")));
                PromoteError::Overflow {
                    policy: self.name.clone(),
                    op: call.op.name().into(),
                    literal_kind: k,
                    value: v,
                    dtype: format!("its dtype ({rule})"),
                }
            }
            ErrorKind::Value => PromoteError::Value {
                policy: self.name.clone(),
                op: call.op.name().into(),
                operands: ops.join(" and "),
                rule,
            },
            _ => PromoteError::Unsupported {
                policy: self.name.clone(),
                op: call.op.name().into(),
                dtype: ops.join(" and "),
                rule,
            },
        }
    }
}
