//! The explicit conversion `astype` (`a.astype(d)`, `t.to(d)`, `tf.cast(t, d)`): after the
//! arguments stage, the query's `dtype` is the answer — as the framework canonicalises it (JAX
//! without x64 gives int32 for int64) — unless the policy's `astype` entry lists the pair as
//! one the framework refuses. Nothing is promoted.

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::operand::Operand;
use crate::plan::Plan;

use super::super::RulePolicy;
use super::{op_step, Entered};

impl RulePolicy {
    /// The plan of an explicit conversion: the operand cast to the target, nothing computed.
    pub(crate) fn convert(
        &self,
        Entered(r): Entered,
        refused: &[[bool; DType::COUNT]],
    ) -> Result<Plan, PromoteError> {
        let call = &*r.call;
        let Some(target) = call.dtype else {
            return Err(PromoteError::invalid(format!(
                "{} takes its target as the query's \"dtype\": {{\"op\": \"astype\", \"operands\": [...], \"dtype\": \"float32\"}}",
                call.op
            )));
        };
        let from = match (&r.ins[..], &call.operands[0]) {
            ([f], Operand::Tensor { .. }) => f.dtype,
            _ => {
                return Err(PromoteError::invalid(format!(
                    "{} converts a tensor; make the Python scalar a tensor first ({{\"dtype\": \"int64\", \"ndim\": 0, \"value\": \"1\"}})",
                    call.op
                )))
            }
        };
        let to = self.canonical(target);
        if refused[from.index()][to.index()] {
            return Err(PromoteError::Unsupported {
                policy: self.name.clone(),
                op: format!("{} from {from} to {to}", call.op),
                dtype: to.name().into(),
                rule: format!(
                    "{} has no cast from {from} to {to} ({}); convert through float32",
                    self.framework,
                    r.rule.sources.join("; ")
                ),
            });
        }
        let rule = r.rule;
        r.steps.note(|| {
            op_step(
                rule,
                format!("{} converts {from} to {to} (asked: {target})", call.op),
            )
        });
        Ok(Plan {
            operands: Vec::new(), // set by `resolve_call`
            op: call.op,
            inputs: vec![to],
            compute: to,
            result: to,
            weak: false,
            promoted: from,
            steps: std::mem::take(&mut r.steps.steps),
            parts: Vec::new(),
            scalar: None,
            verdict: None,
        })
    }
}
