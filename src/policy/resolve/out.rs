//! Stage 5, the cast into `out`: whether the result may be written into the `out` dtype by the
//! policy's `[out]` rule (checked before the op's refusals where the framework does so), then
//! the deferred literal range checks, and the plan.

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::plan::{Plan, Step};

use super::super::compiled::OutRule;
use super::super::RulePolicy;
use super::{op_step, Computed, Trace};

impl RulePolicy {
    /// Stage 5: the cast into `out`, and the plan.
    pub(crate) fn out(&self, c: Computed) -> Result<Plan, PromoteError> {
        let Computed {
            r,
            promoted,
            compute,
            result,
            mut weak,
        } = c;
        let (call, rule) = (&*r.call, r.rule);
        if !self.out_first {
            self.out_check(call, result, weak, r.steps)?;
        }
        let result = match call.out {
            Some(o) if !matches!(self.out, OutRule::Rebind) => {
                weak = false;
                self.canonical(o)
            }
            _ => result,
        };
        self.check_ranges(call, &r.ins, self.ranges(rule), promoted, compute, None)?;
        // the op's rule decided too, when no step of it (or of a corner rule) says so yet
        let decided_by_op =
            |s: &Step| matches!(s, Step::OpRule { .. } | Step::Corner { .. } | Step::Loop(_));
        if r.steps.on && !r.steps.steps.iter().any(decided_by_op) {
            r.steps.note(|| {
                op_step(
                    rule,
                    format!("{} of {} gives {}", call.op, promoted, result),
                )
            });
        }
        let inputs: Vec<DType> = r
            .ins
            .iter()
            .map(|i| match () {
                _ if rule.same_dtype => i.dtype,
                _ if rule.promoted_inputs => promoted,
                _ => compute,
            })
            .collect();
        self.check_input_casts(call, &r.ins, &inputs, r.steps)?;
        Ok(Plan {
            op: call.op,
            operands: Vec::new(), // set by `resolve_call`
            inputs,
            compute,
            result,
            weak,
            promoted,
            steps: std::mem::take(&mut r.steps.steps),
            parts: Vec::new(),
            scalar: None,
            verdict: None,
        })
    }

    pub(crate) fn out_check(
        &self,
        call: &Call,
        result: DType,
        weak: bool,
        steps: &mut Trace,
    ) -> Result<(), PromoteError> {
        let Some(out) = call.out.map(|o| self.canonical(o)) else {
            return Ok(());
        };
        let rule = self.out_rule(call);
        let ok = self.allows(rule, result, out, weak);
        let rule_text = super::casting::rule_text(rule);
        if !ok {
            return Err(PromoteError::OutCast {
                policy: self.name.clone(),
                op: call.op.name().into(),
                result: result.name().into(),
                out: out.name().into(),
                rule: rule_text,
            });
        }
        steps.note(|| Step::Out(format!("{result} is written into {out} ({rule_text})")));
        Ok(())
    }
}
