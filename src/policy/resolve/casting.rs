//! A call's `casting=` argument (NumPy's ufuncs): the policy must take it, and every cast of the
//! call obeys its rule — each operand into the op's loop, and the result into `out`.

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::plan::Step;

use super::super::compiled::OutRule;
use super::super::RulePolicy;
use super::{Input, Trace};

impl RulePolicy {
    /// Refuse a `casting=` the policy's functions do not take.
    pub(crate) fn casting_taken(&self, call: &Call) -> Result<(), PromoteError> {
        // a yes/no op (`can_cast`) reads its casting= as its question, whatever the ufuncs take
        let verdict = self.rule_of(call.op).is_ok_and(|r| r.can_cast.is_some());
        match call.casting {
            Some(c) if !verdict && self.casting_arg[c as usize].is_none() => {
                Err(PromoteError::Unsupported {
                    policy: self.name.clone(),
                    op: format!("{} with casting={c}", call.op),
                    dtype: "any dtype".into(),
                    rule: format!(
                        "{} has no casting= argument; cast the operands or the result explicitly",
                        self.framework
                    ),
                })
            }
            _ => Ok(()),
        }
    }

    /// The rule a cast into `out` obeys: the call's `casting=`'s, else the policy's `[out]`.
    pub(crate) fn out_rule(&self, call: &Call) -> &OutRule {
        call.casting
            .and_then(|c| self.casting_arg[c as usize].as_ref())
            .unwrap_or(&self.out)
    }

    /// Whether `rule` lets a `from` value (weak or not) be cast to `to`.
    pub(crate) fn allows(&self, rule: &OutRule, from: DType, to: DType, weak: bool) -> bool {
        match rule {
            OutRule::Any | OutRule::Rebind => true,
            OutRule::Equal => from == to,
            // a weak result promotes from its weak node (JAX strict: a weak int goes into any int)
            OutRule::Safe if weak => {
                self.join.join(self.weak_node[from.index()], to.index()) == Some(to.index())
            }
            OutRule::Safe => self.promote_types(from, to) == Some(to),
            OutRule::Kinds(level, _) => level[from.index()] <= level[to.index()],
        }
    }

    /// With `casting=`: every tensor operand may be cast into the dtype the op's loop takes
    /// (`np.add(int8, int16, casting="no")` refuses: int8 would be cast to int16). Python
    /// scalars are not checked.
    pub(crate) fn check_input_casts(
        &self,
        call: &Call,
        ins: &[Input],
        inputs: &[DType],
        steps: &mut Trace,
    ) -> Result<(), PromoteError> {
        let Some(c) = call.casting else {
            return Ok(());
        };
        let rule = self.out_rule(call);
        let dtypes: Vec<DType> = ins.iter().map(|i| i.dtype).collect();
        if self.rule_of(call.op)?.exact_loops.contains(&dtypes) {
            return Ok(());
        }
        for (i, &to) in ins.iter().zip(inputs) {
            if i.operand.literal().is_some() || self.allows(rule, i.dtype, to, i.weak) {
                continue;
            }
            return Err(self.no_promotion(
                call,
                i.dtype.name(),
                to.name(),
                format!(
                    "casting={c}: {} cannot be cast to {to} on the way into {}'s loop ({}; {})",
                    i.dtype,
                    call.op,
                    rule_text(rule),
                    self.casting_source
                ),
            ));
        }
        steps.note(|| Step::Out(format!("every cast into the loop obeys casting={c}")));
        Ok(())
    }

    /// `dtype=D` picking the op's loop at D: every operand must cast into D under the call's
    /// casting (`[out]`'s by default). A Python scalar counts by its kind alone (weak, NEP 50):
    /// as the smallest dtype of its kind.
    pub(crate) fn check_dtype_arg_inputs(
        &self,
        call: &Call,
        ins: &[Input],
        d: DType,
    ) -> Result<(), PromoteError> {
        let rule = self.out_rule(call);
        for i in ins {
            let (from, weak) = match i.operand.literal() {
                Some(l) => (smallest_of(l.kind()), true),
                None => (i.dtype, i.weak),
            };
            if !self.allows(rule, from, d, weak) {
                return Err(self.no_promotion(
                    call,
                    &i.operand.to_string(),
                    d.name(),
                    format!(
                        "dtype={d}: {} cannot be cast to {d} ({})",
                        i.operand,
                        rule_text(rule)
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The smallest dtype of a Python scalar's kind (bool, uint8, float16, complex64).
fn smallest_of(k: crate::operand::LiteralKind) -> DType {
    use crate::operand::LiteralKind;
    match k {
        LiteralKind::Bool => DType::Bool,
        LiteralKind::Int => DType::UInt8,
        LiteralKind::Float => DType::Float16,
        LiteralKind::Complex => DType::Complex64,
    }
}

/// What a rule of casting says, for people.
pub(crate) fn rule_text(rule: &OutRule) -> String {
    match rule {
        OutRule::Rebind => "the destination takes the result's dtype: nothing is cast".to_string(),
        OutRule::Kinds(_, text) => format!("casting into out follows kinds {text}"),
        OutRule::Any => "any cast into out is allowed".into(),
        OutRule::Equal => "out must have the result's dtype".into(),
        OutRule::Safe => "the result must promote safely to out".into(),
    }
}
