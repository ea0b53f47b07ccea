//! Resolving a call into a [`Plan`]: the stages, in order.
//!
//! [`RulePolicy::resolve_call`] below is the one place that says the order. Each stage is a
//! function from a typed state to the next, in a file of its own:
//!
//! 1. [`arguments`]: arity, the dtypes the framework has, every operand entered as a node
//!    (literals, weak tensors, canonical dtypes), corner rules `at = "arguments"` → [`Entered`];
//! 2. [`operands`]: ops without an in-place form drop `out`, literals checked against their
//!    nodes, corner rules `at = "operands"` → [`Operands`];
//! 3. [`promotion`]: the promoted dtype by the policy's scheme — a join ([`promotion`]), PyTorch /
//!    NumPy-style [`categories`], NumPy 1's value-based casting and loop search ([`value_based`])
//!    → [`Promoted`];
//! 4. [`compute`]: corner rules `at = "promoted"`, the op's own rule (compute and result dtype,
//!    refusals), the literals' ranges, corner rules `at = "computed"` → [`Computed`];
//! 5. [`out`]: the cast into `out`, the last range checks → the [`Plan`].
//!
//! An op of several results resolves each of its parts in turn ([`parts`]).
//!
//! A corner rule may decide the answer at any stage ([`corner`]); the stage then hands back
//! [`Flow::Decided`] and the later stages do not run.

mod arguments;
mod casting;
mod categories;
mod common_dtype;
mod compute;
mod convert;
mod corner;
mod dtype_arg;
mod operands;
mod out;
mod parts;
mod promotion;
mod ranges;
pub(crate) mod value_based;
mod verdict;

use std::borrow::Cow;

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{Operand, OperandClass};
use crate::plan::{JoinSource, Plan, Step};

use super::compiled::{OpRule, Range};
use super::RulePolicy;

/// Per literal kind (bool, int, float, complex), the nodes a Python literal enters at, the
/// first whose dtype holds its value (`None`: the op's or the policy's).
pub(crate) type LiteralNodes = [Option<Vec<usize>>; 4];

/// An operand as the resolver sees it: the node it entered the promotion at.
#[derive(Clone, Debug)]
pub(crate) struct Input<'a> {
    pub(crate) class: OperandClass,
    /// Node it enters the promotion at.
    pub(crate) node: usize,
    /// The dtype that node stands for.
    pub(crate) dtype: DType,
    pub(crate) weak: bool,
    pub(crate) operand: &'a Operand,
}

/// The steps of a resolution, recorded only when someone will read them.
pub(crate) struct Trace {
    pub(crate) on: bool,
    pub(crate) steps: Vec<Step>,
}

impl Trace {
    pub(crate) fn new(on: bool) -> Trace {
        Trace {
            on,
            steps: Vec::new(),
        }
    }
    /// Record a step, made only when the trace is on.
    #[inline]
    pub(crate) fn note(&mut self, step: impl FnOnce() -> Step) {
        if self.on {
            self.steps.push(step());
        }
    }
}

/// A step of the op's own rule, with where the rule comes from.
pub(crate) fn op_step(rule: &OpRule, detail: String) -> Step {
    Step::OpRule {
        detail,
        sources: rule.sources.clone(),
    }
}

/// What a stage hands on: the next state, or the plan a corner rule decided.
pub(crate) enum Flow<T> {
    /// Resolution goes on with this state.
    Next(T),
    /// A rule decided the answer; the later stages do not run.
    Decided(Plan),
}

/// What every state carries: the call (without `out` when the op ignores it), the op's rule,
/// the operands as nodes, and the trace the steps go to (owned by the caller, so that the
/// steps are there on the error path too).
pub(crate) struct Resolution<'a> {
    pub(crate) call: Cow<'a, Call>,
    pub(crate) rule: &'a OpRule,
    pub(crate) ins: Vec<Input<'a>>,
    pub(crate) steps: &'a mut Trace,
}

/// After [`arguments`]: every operand entered as a node.
pub(crate) struct Entered<'a>(pub(crate) Resolution<'a>);

/// After [`operands`]: the operands checked; `forced` is set when a corner rule makes them
/// promote through the table alone.
pub(crate) struct Operands<'a> {
    pub(crate) r: Resolution<'a>,
    pub(crate) forced: Option<DType>,
}

/// After [`promotion`]: the promoted dtype and whether it is weak.
pub(crate) struct Promoted<'a> {
    pub(crate) r: Resolution<'a>,
    pub(crate) promoted: DType,
    pub(crate) weak: bool,
}

/// After [`compute`]: the dtype the op computes in and the result dtype before `out`.
pub(crate) struct Computed<'a> {
    pub(crate) r: Resolution<'a>,
    pub(crate) promoted: DType,
    pub(crate) compute: DType,
    pub(crate) result: DType,
    pub(crate) weak: bool,
}

/// Unwrap a stage's [`Flow`]: go on with the next state, or return the decided plan.
macro_rules! next {
    ($flow:expr) => {
        match $flow {
            Flow::Next(state) => state,
            Flow::Decided(plan) => return Ok(plan),
        }
    };
}

impl RulePolicy {
    /// Resolve a call, the stages in order; the steps go to `trace` when it is on.
    pub(crate) fn resolve_call<'a>(
        &'a self,
        call: &'a Call,
        trace: &'a mut Trace,
    ) -> Result<Plan, PromoteError> {
        if call.form != self.form {
            let p = self.for_form(call.form)?;
            if !std::ptr::eq(p, self) {
                trace.note(|| Step::Corner {
                    detail: format!(
                        "{} is called through the `{}` entry point: its [forms.{}] rules come first",
                        call.op, call.form, call.form
                    ),
                    source: self.form_source(call.form).unwrap_or_default().to_string(),
                });
                return p.resolve_call(call, trace);
            }
        }
        let written = self.ops.get(call.op.index());
        if let (Some(p), Some(r)) = (&self.as_written, written) {
            if r.dtypes_as_written && r.can_cast.is_none() {
                return p.resolve_call(call, trace); // the dtypes as written (no canonical mapping)
            }
        }
        self.casting_taken(call)?;
        self.dtype_taken(call)?;
        if !call.op.info().parts.is_empty() {
            return self.resolve_parts(call, trace);
        }
        self.resolve_entering(call, trace, None)
    }

    /// An op whose `[[ops]]` entry says `like = "POLICY[:FORM]"`: once this policy's own
    /// argument checks and `at = "arguments"` rules have passed, the call resolved by that
    /// built-in policy through that entry point (`None`: the op is this policy's own, or the
    /// entry names this very policy and form).
    fn answered_like(&self, call: &Call, trace: &mut Trace) -> Option<Result<Plan, PromoteError>> {
        let (name, form) = self.op_rule(call.op)?.like.as_ref()?;
        let form = form.unwrap_or(call.form);
        if *name == self.name && form == self.form {
            return None;
        }
        trace.note(|| Step::Corner {
            detail: format!(
                "{} is answered as the `{name}` policy's `{form}` entry point answers it",
                call.op
            ),
            source: self
                .op_rule(call.op)
                .map(|r| r.sources.join("; "))
                .unwrap_or_default(),
        });
        let other = match super::builtin(name) {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        };
        let mut redirected = call.clone();
        redirected.form = form;
        Some(other.resolve_call(&redirected, trace))
    }

    /// [`Self::resolve_call`] of a one-result op, its literals entered at `literal`'s nodes
    /// where given (a `convert_first` rule's), else at the op's.
    pub(crate) fn resolve_entering<'a>(
        &'a self,
        call: &'a Call,
        trace: &'a mut Trace,
        literal: Option<&'a LiteralNodes>,
    ) -> Result<Plan, PromoteError> {
        let entered = next!(self.arguments(call, trace, literal)?);
        if let Some(answer) = self.answered_like(call, entered.0.steps) {
            return answer;
        }
        if let Some(levels) = &entered.0.rule.can_cast {
            return self.verdict(entered, levels);
        }
        if let Some(refused) = &entered.0.rule.astype {
            return self.convert(entered, refused);
        }
        if Self::picks_loop(call, entered.0.rule) {
            return self.loop_at_dtype(entered);
        }
        let operands = next!(self.operands(entered)?);
        let promoted = next!(self.promotion(operands)?);
        let computed = next!(self.compute(promoted)?);
        self.out(computed)
    }

    /// The step of a join of two nodes in the lattice or table.
    pub(crate) fn join_step(&self, a: usize, b: usize, join: usize) -> Step {
        Step::Join {
            source: if self.join_source == "lattice" {
                JoinSource::Lattice
            } else {
                JoinSource::Table
            },
            a: self.node_name(a).into(),
            b: self.node_name(b).into(),
            join: self.node_name(join).into(),
        }
    }

    /// The literal range checks of an op: its own, or the policy's.
    pub(crate) fn ranges<'a>(&'a self, rule: &'a OpRule) -> &'a Range {
        rule.range.as_ref().unwrap_or(&self.range)
    }

    /// The error of two operands that do not promote, with advice.
    pub(crate) fn no_promotion(&self, call: &Call, a: &str, b: &str, why: String) -> PromoteError {
        let ops: Vec<String> = call.operands.iter().map(|o| o.to_string()).collect();
        PromoteError::NoPromotion {
            policy: self.name.clone(),
            op: call.op.name().into(),
            operands: ops.join(" and "),
            rule: why,
            advice: format!("cast one operand explicitly so both share a dtype (e.g. the {a} operand with `.astype({b})` / `.to({b})`), or pick a policy mode that promotes"),
        }
    }
}
