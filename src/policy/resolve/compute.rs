//! Stage 4, the op's own rule: corner rules `at = "promoted"` (one may accept a promoted dtype
//! the op's kernel lacks), the compute and result dtype the op's rule gives the promoted dtype,
//! its refusals, the literals' range in those dtypes, corner rules `at = "computed"` (value
//! errors of the kernel), and whether a weak result stays weak.

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::plan::Step;

use super::super::compiled::Action;
use super::super::corner::{Stage, Then};
use super::super::RulePolicy;
use super::{op_step, Computed, Flow, Promoted, Resolution};

impl RulePolicy {
    /// Stage 4: the compute and result dtypes.
    pub(crate) fn compute<'a>(
        &'a self,
        Promoted {
            mut r,
            promoted,
            mut weak,
        }: Promoted<'a>,
    ) -> Result<Flow<Computed<'a>>, PromoteError> {
        let accepted = match self.corner(&r, Stage::Promoted, Some(promoted), None, weak) {
            Some(c) => {
                if let Some(decided) = self.outcome(&mut r, c, None) {
                    return decided.map(Flow::Decided);
                }
                let accepted = c.then == Then::Accept;
                if accepted {
                    let op = r.call.op;
                    r.steps.note(|| Step::Corner {
                        detail: format!("{op} of {promoted} is computed without the op's kernel"),
                        source: c.source.clone(),
                    });
                }
                accepted
            }
            None => false,
        };
        let (compute, result) = self.op_action(&mut r, promoted, weak, accepted)?;
        if let Some(c) = self.corner(&r, Stage::Computed, Some(promoted), Some(compute), weak) {
            if let Some(decided) = self.outcome(&mut r, c, Some(compute)) {
                return decided.map(Flow::Decided);
            }
        }
        let rule = r.rule;
        // a weak bool stays weak only where it is not converted: no lattice has a weak bool node
        if !rule.keep_weak
            || (promoted == DType::Bool && compute != DType::Bool)
            || (rule.weak_only_scalars
                && !r
                    .ins
                    .iter()
                    .all(|i| i.operand.is_zero_dim() || i.operand.literal().is_some()))
        {
            weak = false;
        }
        Ok(Flow::Next(Computed {
            r,
            promoted,
            compute,
            result,
            weak,
        }))
    }

    /// The op's rule applied to the promoted dtype: (compute, result), or its refusal.
    fn op_action(
        &self,
        r: &mut Resolution,
        promoted: DType,
        weak: bool,
        accepted: bool,
    ) -> Result<(DType, DType), PromoteError> {
        let (call, rule) = (&*r.call, r.rule);
        if let Some(d) = call.dtype {
            return self.dtype_arg(r, d, promoted, weak);
        }
        let action = if accepted {
            Action::Compute(promoted)
        } else {
            rule.action[promoted.index()]
        };
        let compute = match action {
            Action::Compute(c) => self.canonical(c),
            Action::Unsupported => promoted,
        };
        let result = if accepted {
            promoted
        } else {
            rule.result
                .or(rule.returns[compute.index()])
                .unwrap_or(compute)
        };
        if self.out_first {
            self.out_check(call, result, weak, r.steps)?;
        }
        self.check_ranges(
            call,
            &r.ins,
            self.ranges(rule),
            promoted,
            compute,
            Some(false),
        )?;
        if action == Action::Unsupported {
            return Err(PromoteError::Unsupported {
                policy: self.name.clone(),
                op: call.op.name().into(),
                dtype: promoted.name().into(),
                rule: if rule.sources.is_empty() {
                    "op rule".into()
                } else {
                    rule.sources.join("; ")
                },
            });
        }
        if compute != promoted {
            r.steps.note(|| {
                op_step(rule, {
                    format!("{} computes {} in {}", call.op, promoted, compute)
                })
            });
        }
        if (rule.result.is_some() || rule.returns[compute.index()].is_some()) && !accepted {
            r.steps
                .note(|| op_step(rule, format!("{} returns {}", call.op, result)));
        }
        Ok((compute, result))
    }

    /// The op's rule for a `dtype=D` argument: it computes and returns in D, or refuses D.
    fn dtype_arg(
        &self,
        r: &mut Resolution,
        d: DType,
        promoted: DType,
        weak: bool,
    ) -> Result<(DType, DType), PromoteError> {
        let (call, rule) = (&*r.call, r.rule);
        if !rule.dtype_arg {
            return Err(PromoteError::invalid(format!(
                "{}: {} takes no dtype= argument (drop it, or cast the result)",
                self.name, call.op
            )));
        }
        let d = self.canonical(d);
        if rule.dtype_unsupported[d.index()] {
            return Err(PromoteError::Unsupported {
                policy: self.name.clone(),
                op: format!("{} with dtype={d}", call.op),
                dtype: promoted.name().into(),
                rule: rule.sources.join("; "),
            });
        }
        if self.out_first {
            self.out_check(call, d, weak, r.steps)?;
        }
        self.check_ranges(call, &r.ins, self.ranges(rule), promoted, d, Some(false))?;
        r.steps.note(|| {
            op_step(
                rule,
                format!("{} computes and returns in dtype={d}", call.op),
            )
        });
        Ok((d, d))
    }
}
