//! An op of several results (`divmod`): each result is the plan of another op (its parts in
//! the op catalogue) over the same operands; the first refusal refuses the whole call.

use crate::error::PromoteError;
use crate::op::Call;
use crate::plan::{Plan, Step};

use super::super::RulePolicy;
use super::Trace;

impl RulePolicy {
    /// Resolve every part of an op of several results.
    pub(crate) fn resolve_parts(
        &self,
        call: &Call,
        trace: &mut Trace,
    ) -> Result<Plan, PromoteError> {
        let rule = self.rule_of(call.op)?;
        let mut parts = Vec::new();
        for &part in &call.op.info().parts {
            let mut sub = Trace::new(trace.on);
            let c = Call {
                op: part,
                ..call.clone()
            };
            let plan = self.resolve_call(&c, &mut sub);
            trace.note(|| Step::OpRule {
                detail: format!("{} gives one result as {part} does", call.op),
                sources: rule.sources.clone(),
            });
            // a plan carries its steps; a refusal leaves them in the sub-trace
            match &plan {
                Ok(p) => trace.steps.extend(p.steps.iter().cloned()),
                Err(_) => trace.steps.append(&mut sub.steps),
            }
            parts.push(plan?);
        }
        let first = parts.first().cloned().ok_or_else(|| {
            PromoteError::invalid(format!("{} names no parts in the op catalogue", call.op))
        })?;
        Ok(Plan {
            op: call.op,
            steps: std::mem::take(&mut trace.steps),
            parts,
            ..first
        })
    }
}
