//! A call's `dtype=` argument where it picks the op's loop (a ufunc's `np.add(a, b, dtype=D)`):
//! no promotion at all — the loop D,D->D if the op has one, every operand cast into D under the
//! call's casting, the result D (then `out`). A reduction's `dtype=` (the accumulator) and a
//! comparison's (its result) go through the usual stages ([`super::compute`]).

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::plan::{Plan, Step};

use super::super::compiled::{Action, OpRule};
use super::super::RulePolicy;
use super::Entered;

impl RulePolicy {
    /// Refuse `dtype=` on an op that takes none, before any promotion (`torch.add(a, b,
    /// dtype=)` is a TypeError whatever the operands).
    pub(crate) fn dtype_taken(&self, call: &Call) -> Result<(), PromoteError> {
        let Some(d) = call.dtype else {
            return Ok(());
        };
        let rule = self.rule_of(call.op)?;
        match rule.result {
            // dtype= names the result (a comparison's dtype=bool): any other D has no loop
            Some(r) if rule.dtype_arg && rule.dtype_result && self.canonical(d) != r => {
                return Err(PromoteError::Unsupported {
                    policy: self.name.clone(),
                    op: format!("{} with dtype={d}", call.op),
                    dtype: d.name().into(),
                    rule: format!(
                        "{}'s dtype= names its result, {r} ({})",
                        call.op, rule.dtype_source
                    ),
                });
            }
            _ if rule.dtype_arg => return Ok(()),
            _ => {}
        }
        Err(PromoteError::Unsupported {
            policy: self.name.clone(),
            op: format!("{} with dtype={d}", call.op),
            dtype: "any dtype".into(),
            rule: format!(
                "{}'s {} takes no dtype= argument; cast the operands or the result",
                self.framework, call.op
            ),
        })
    }

    /// Whether `dtype=` on this call picks the op's loop (the rule's `dtype_loop`).
    pub(crate) fn picks_loop(call: &Call, rule: &OpRule) -> bool {
        call.dtype.is_some() && rule.dtype_loop
    }

    /// The plan of a call whose `dtype=D` picks the loop D,D->D.
    pub(crate) fn loop_at_dtype(&self, Entered(r): Entered) -> Result<Plan, PromoteError> {
        let (call, rule) = (&*r.call, r.rule);
        let d = self.canonical(call.dtype.unwrap_or(DType::Bool));
        // the op's loop at D: one of its listed loops (NumPy 1's), else D computing as itself
        let has_loop = match &rule.loops {
            Some(loops) => loops.contains(&d),
            None => rule.action[d.index()] == Action::Compute(d),
        };
        if !has_loop
            || rule
                .result
                .or(rule.returns[d.index()])
                .is_some_and(|x| x != d)
        {
            return Err(PromoteError::Unsupported {
                policy: self.name.clone(),
                op: format!("{} with dtype={d}", call.op),
                dtype: d.name().into(),
                rule: format!("{} has no {d} loop ({})", call.op, rule.dtype_source),
            });
        }
        self.check_dtype_arg_inputs(call, &r.ins, d)?;
        r.steps.note(|| Step::OpRule {
            detail: format!("dtype={d} picks {}'s {d} loop", call.op),
            sources: vec![rule.dtype_source.clone()],
        });
        self.out_check(call, d, false, r.steps)?;
        Ok(Plan {
            op: call.op,
            inputs: vec![d; r.ins.len()],
            compute: d,
            result: call.out.map(|o| self.canonical(o)).unwrap_or(d),
            weak: false,
            promoted: d,
            steps: std::mem::take(&mut r.steps.steps),
            parts: Vec::new(),
            scalar: None,
            verdict: None,
            operands: Vec::new(), // set by `resolve_call`
        })
    }
}
