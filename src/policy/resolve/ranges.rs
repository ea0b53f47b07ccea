//! The literal range checks: whether a Python literal's value fits the dtype the policy checks
//! it against — its own node's (stage 2), the promoted or compute dtype (stage 4), or, last,
//! a deferred check of its node's (stage 5).

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{Literal, Operand};

use super::super::compiled::{Range, RangeTarget};
use super::super::RulePolicy;
use super::Input;

impl RulePolicy {
    /// `node_only`: `Some(true)` the node checks, `Some(false)` the promoted/compute ones, `None` the deferred ones.
    pub(crate) fn check_ranges(
        &self,
        call: &Call,
        ins: &[Input],
        range: &Range,
        promoted: DType,
        compute: DType,
        node_only: Option<bool>,
    ) -> Result<(), PromoteError> {
        for i in ins {
            let Operand::Literal(l) = i.operand else {
                continue;
            };
            let targets = match l {
                Literal::Int(_) => &range.int,
                Literal::Float(_) | Literal::Complex(..) => &range.float,
                Literal::Bool(_) => continue,
            };
            for t in targets {
                let stage = match t {
                    RangeTarget::Node => Some(true),
                    RangeTarget::Deferred => None,
                    _ => Some(false),
                };
                if stage != node_only {
                    continue;
                }
                let d = match t {
                    RangeTarget::Node | RangeTarget::Deferred => i.dtype,
                    RangeTarget::Promoted => promoted,
                    RangeTarget::Compute => compute,
                };
                let fits = match l {
                    Literal::Int(v) if d.int_range().is_some() => v.fits(d),
                    Literal::Int(v) => v.to_f64().is_finite(),
                    Literal::Float(f) => {
                        d.float_max().is_none_or(|m| !f.is_finite() || f.abs() <= m)
                    }
                    Literal::Complex(re, im) => d
                        .float_max()
                        .is_none_or(|m| [re, im].iter().all(|x| !x.is_finite() || x.abs() <= m)),
                    Literal::Bool(_) => true,
                };
                if !fits {
                    return Err(PromoteError::Overflow {
                        policy: self.name.clone(),
                        op: call.op.name().into(),
                        literal_kind: l.kind().name().into(),
                        value: l.to_string(),
                        dtype: d.name().into(),
                    });
                }
            }
        }
        Ok(())
    }
}
