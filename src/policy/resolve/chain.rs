//! An op declared as a chain of binary calls (`chain`): each step is a binary op of this
//! policy, through its entry point, on two of the call's operands or the result so far, and is
//! answered as that call alone would be; the first refusal refuses the whole call.
//! TensorFlow's `clip_by_value(t, lo, hi)` is `minimum(t, hi)`, a shape check, then
//! `maximum(_, lo)` and a shape check (`tensorflow/python/ops/clip_ops.py`).

use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::Operand;
use crate::plan::{Plan, Step};

use super::super::compiled::{Chain, ChainArg};
use super::super::RulePolicy;
use super::{op_step, Entered, Input, Trace};

/// Whether an operand is 0-d or a Python scalar (a shape of its own: none).
fn no_dims(o: &Operand) -> bool {
    !matches!(
        o,
        Operand::Tensor {
            zero_dim: false,
            ..
        }
    )
}

impl RulePolicy {
    /// Resolve a call of a chained op, step by step.
    pub(crate) fn resolve_chain(
        &self,
        Entered(r): Entered,
        chain: &Chain,
    ) -> Result<Plan, PromoteError> {
        let call: &Call = &r.call;
        let weak = chain.weak_of_first && r.ins[0].weak;
        let mut operands = call.operands.clone();
        if chain.weak_of_first {
            operands[0] = strong(&r.ins[0]);
        }
        r.steps.note(|| {
            op_step(r.rule, {
                let first = &operands[0];
                format!("{} is a chain of binary calls from {first}", call.op)
            })
        });
        let mut inputs: Vec<_> = r.ins.iter().map(|i| i.dtype).collect();
        let mut so_far: Option<Operand> = None;
        let mut last: Option<Plan> = None;
        for (n, step) in chain.steps.iter().enumerate() {
            let args: Vec<Operand> = step
                .args
                .iter()
                .map(|a| match a {
                    ChainArg::Operand(i) => operands.get(*i).cloned(),
                    ChainArg::SoFar => so_far.clone(),
                })
                .collect::<Option<_>>()
                .ok_or_else(|| self.chain_misfit(call))?;
            let sub = Call {
                op: step.op,
                operands: args.clone(),
                out: (n + 1 == chain.steps.len()).then_some(call.out).flatten(),
                dtype: None,
                casting: None,
                form: step.form.unwrap_or(call.form),
            };
            if sub.op == call.op {
                return Err(self.chain_misfit(call));
            }
            let plan = self.chain_step(&sub, r.steps)?;
            if chain.keeps_shape && no_dims(&operands[0]) && !args.iter().all(no_dims) {
                return Err(self.shape_refused(call, &sub, r.rule.sources.join("; ")));
            }
            for (k, a) in step.args.iter().enumerate() {
                if let (ChainArg::Operand(i), Some(d)) = (a, plan.inputs.get(k)) {
                    inputs[*i] = *d;
                }
            }
            so_far = Some(Operand::Tensor {
                dtype: plan.result,
                weak: plan.weak,
                zero_dim: args.iter().all(no_dims),
                value: None,
            });
            last = Some(plan);
        }
        let last = last.ok_or_else(|| self.chain_misfit(call))?;
        let weak = if chain.weak_of_first { weak } else { last.weak };
        if weak && !self.weak_node(last.result).weak {
            return Err(self.no_weak(call, last.result, r.rule.sources.join("; ")));
        }
        Ok(Plan {
            op: call.op,
            operands: Vec::new(), // set by `resolve_call`
            inputs,
            weak,
            steps: std::mem::take(&mut r.steps.steps),
            parts: Vec::new(),
            ..last
        })
    }

    /// One step, its own steps added to the trace (on the error path too).
    fn chain_step(&self, sub: &Call, trace: &mut Trace) -> Result<Plan, PromoteError> {
        let mut own = Trace::new(trace.on);
        trace.note(|| Step::OpRule {
            detail: format!("then {sub}"),
            sources: Vec::new(),
        });
        let plan = self.resolve_call(sub, &mut own);
        match &plan {
            Ok(p) => trace.steps.extend(p.steps.iter().cloned()),
            Err(_) => trace.steps.append(&mut own.steps),
        }
        plan
    }

    /// The result is weak as the first operand is, but the policy has no weak tensor of its
    /// dtype (TensorFlow: `WeakTensor.from_tensor` of a dtype outside `_ALLOWED_WEAK_DTYPES`).
    fn no_weak(&self, call: &Call, d: crate::DType, source: String) -> PromoteError {
        PromoteError::Unsupported {
            policy: self.name.clone(),
            op: call.op.name().into(),
            dtype: format!("a weak {d}"),
            rule: format!("the result is weak as the first operand is, and {} has no weak tensor of {d} ({source}); pass a strong first operand", self.name),
        }
    }

    /// A 0-d first operand met an n-d one: the result would not keep its shape.
    fn shape_refused(&self, call: &Call, step: &Call, source: String) -> PromoteError {
        PromoteError::Unsupported {
            policy: self.name.clone(),
            op: call.op.name().into(),
            dtype: "a 0-d first operand with n-d others".into(),
            rule: format!("{step} takes the n-d operand's shape, and {} keeps its first operand's ({source}); give the first operand the others' shape", call.op),
        }
    }

    /// A chain that does not fit the call (an operand it names is missing, or a step calls
    /// the chained op itself).
    fn chain_misfit(&self, call: &Call) -> PromoteError {
        PromoteError::invalid(format!(
            "{}: the chain of {} does not fit a call of {} operands; name operands the call has, and other ops than {} in its steps",
            self.name,
            call.op,
            call.operands.len(),
            call.op
        ))
    }
}

/// The first operand as the chain takes it: a strong tensor of the dtype it entered at (a
/// Python scalar a 0-d one holding its value).
fn strong(i: &Input) -> Operand {
    Operand::Tensor {
        dtype: i.dtype,
        weak: false,
        zero_dim: !matches!(
            i.operand,
            Operand::Tensor {
                zero_dim: false,
                ..
            }
        ),
        value: i.operand.value().or_else(|| i.operand.literal().cloned()),
    }
}
