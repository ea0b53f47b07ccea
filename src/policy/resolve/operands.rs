//! Stage 2, the operands: an op without an in-place form drops `out`, every literal is checked
//! against the dtype of the node it entered at, and corner rules `at = "operands"` run (one of
//! them may make the operands promote through the table alone).

use std::borrow::Cow;

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::plan::Step;

use super::super::corner::{Stage, Then};
use super::super::RulePolicy;
use super::{Entered, Flow, Operands};

impl RulePolicy {
    /// Stage 2: check the operands as entered.
    pub(crate) fn operands<'a>(
        &'a self,
        Entered(mut r): Entered<'a>,
    ) -> Result<Flow<Operands<'a>>, PromoteError> {
        if r.rule.ignore_out && r.call.out.is_some() {
            let op = r.call.op;
            r.steps.note(|| {
                Step::Out({
                    format!(
                    "{op} has no in-place form: the result is a new tensor, not written into out"
                )
                })
            });
            r.call = Cow::Owned(Call {
                op,
                operands: r.call.operands.clone(),
                out: None,
                dtype: r.call.dtype,
                form: r.call.form,
            });
        }
        self.check_ranges(
            &r.call,
            &r.ins,
            self.ranges(r.rule),
            DType::Bool,
            DType::Bool,
            Some(true),
        )?;
        let mut forced = None;
        if let Some(c) = self.corner(&r, Stage::Operands, None, None, false) {
            if let Some(decided) = self.outcome(&mut r, c, None) {
                return decided.map(Flow::Decided);
            }
            if c.then == Then::Join {
                forced = Some(self.join_dtypes(&r.call, &r.ins)?);
                let op = r.call.op;
                r.steps.note(|| Step::Corner {
                    detail: format!("{op}: the operands promote by the table"),
                    source: c.source.clone(),
                });
            }
        }
        Ok(Flow::Next(Operands { r, forced }))
    }
}
