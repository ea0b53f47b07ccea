//! Stage 1, the arguments: the call's arity, the dtypes the framework has, and every operand
//! entered as a node of the promotion graph — a Python literal at the first of its kind's nodes
//! its value fits, a weak tensor at its weak node, a dtype the framework replaces by its
//! canonical one. Corner rules `at = "arguments"` (an API refusing a Python scalar) run here.

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{Literal, Operand};
use crate::plan::Step;

use super::super::compiled::OpRule;
use super::super::corner::{value_fits, CornerRule, Stage, Then};
use super::super::RulePolicy;
use super::{Entered, Flow, Input, LiteralNodes, Resolution, Trace};

impl RulePolicy {
    /// Stage 1: check the call and enter its operands as nodes.
    pub(crate) fn arguments<'a>(
        &'a self,
        call: &'a Call,
        steps: &'a mut Trace,
        literal: Option<&'a LiteralNodes>,
    ) -> Result<Flow<Entered<'a>>, PromoteError> {
        if !call.op.accepts(call.operands.len()) {
            return Err(crate::op::arity_error(call.op, call.operands.len()));
        }
        for d in call
            .operands
            .iter()
            .filter_map(|o| o.dtype())
            .chain(call.out)
            .chain(call.dtype)
        {
            self.check_available(d)?;
        }
        let rule = self.rule_of(call.op)?;
        self.check_counts(call, rule)?;
        if let ([Operand::Literal(l)], true) = (call.operands.as_slice(), rule.literal_component) {
            return Ok(Flow::Decided(self.literal_component(call, l, rule, steps)));
        }
        let ins = call
            .operands
            .iter()
            .map(|o| self.input(o, rule, literal, steps))
            .collect();
        let mut r = Resolution {
            call: std::borrow::Cow::Borrowed(call),
            rule,
            ins,
            steps,
        };
        if let Some(c) = self.corner(&r, Stage::Arguments, None, None, false) {
            if let Some(converted) = self.converted_call(call, c, r.steps)? {
                return self
                    .resolve_entering(&converted, r.steps, Some(&c.literal))
                    .map(Flow::Decided);
            }
            if let Some(decided) = self.outcome(&mut r, c, None) {
                return decided.map(Flow::Decided);
            }
        }
        Ok(Flow::Next(Entered(r)))
    }

    /// `then = "convert_first"` / `"convert_second"`: the call with its operand `at`, a Python
    /// literal, converted alone into a 0-d tensor of the first of the rule's `convert` dtypes
    /// for its kind that holds its value (none holds it: an overflow; with `saturate`, a float
    /// becomes ±inf of the last).
    fn convert_literal(
        &self,
        call: &Call,
        c: &CornerRule,
        at: usize,
        steps: &mut Trace,
    ) -> Result<Call, PromoteError> {
        let Some(l) = call.operands.get(at).and_then(|o| o.literal()).cloned() else {
            return Err(PromoteError::invalid(format!(
                "{}: a conversion rule matched a call whose operand {} is not a Python literal; give the rule `{} = {{ class = [\"literal\"] }}`",
                self.name,
                at + 1,
                if at == 0 { "first" } else { "second" }
            )));
        };
        let mut operands = call.operands.clone();
        operands[at] = self.converted(call, c, l, at, steps)?;
        Ok(Call {
            operands,
            ..call.clone()
        })
    }

    /// A Python literal converted alone into a 0-d tensor of the first of the rule's `convert`
    /// dtypes for its kind that holds its value (none holds it: an overflow; with `saturate`, a
    /// float becomes ±inf of the last).
    fn converted(
        &self,
        call: &Call,
        c: &CornerRule,
        l: Literal,
        at: usize,
        steps: &mut Trace,
    ) -> Result<Operand, PromoteError> {
        let dtypes = &c.convert[l.kind() as usize];
        let fitting = dtypes.iter().find(|&&d| value_fits(&l, d));
        let (dtype, value) = match (fitting, dtypes.last()) {
            (Some(&d), _) => (d, l.clone()),
            (None, Some(&d)) if c.saturate && matches!(l, Literal::Float(_)) => {
                (d, Literal::Float(l.to_complex().0.signum() * f64::INFINITY))
            }
            _ => {
                return Err(PromoteError::Overflow {
                    policy: self.name.clone(),
                    op: call.op.name().into(),
                    literal_kind: l.kind().name().into(),
                    value: l.to_string(),
                    dtype: format!("{} ({})", dtypes.last().map_or("", |d| d.name()), c.source),
                })
            }
        };
        steps.note(|| Step::Corner {
            detail: format!(
                "{}: the Python scalar {l} (operand {}) is converted alone, to a 0-d {dtype} tensor holding {value}",
                call.op,
                at + 1
            ),
            source: c.source.clone(),
        });
        Ok(Operand::Tensor {
            dtype,
            weak: false,
            zero_dim: true,
            value: Some(value),
        })
    }

    /// The call a converting rule (`convert_first`, `convert_second`, `convert_literals`,
    /// `zero_dim_as_literals`) makes, to be resolved again; `None` for any other rule.
    fn converted_call(
        &self,
        call: &Call,
        c: &CornerRule,
        steps: &mut Trace,
    ) -> Result<Option<Call>, PromoteError> {
        let converted = match c.then {
            Then::ConvertFirst => self.convert_literal(call, c, 0, steps)?,
            Then::ConvertSecond => self.convert_literal(call, c, 1, steps)?,
            Then::ConvertLiterals => {
                let mut call = call.clone();
                for at in 0..call.operands.len() {
                    if let Some(l) = call.operands[at].literal().cloned() {
                        call.operands[at] = self.converted(&call, c, l, at, steps)?;
                    }
                }
                call
            }
            Then::ZeroDimAsLiterals => {
                let mut call = call.clone();
                for o in call.operands.iter_mut().skip(1) {
                    if let (true, Some(v)) = (o.is_zero_dim(), o.value()) {
                        steps.note(|| Step::Corner {
                            detail: format!("the 0-d tensor {o} is read as the Python scalar {v}"),
                            source: c.source.clone(),
                        });
                        *o = Operand::Literal(v);
                    }
                }
                call
            }
            _ => return Ok(None),
        };
        if converted == *call {
            return Err(PromoteError::invalid(format!(
                "{}: the rule `{}` converts nothing in this call; give it a condition that the converted call no longer meets",
                self.name, c.source
            )));
        }
        Ok(Some(converted))
    }

    /// The numbers of operands the framework's op takes, where the policy names them.
    fn check_counts(&self, call: &Call, rule: &OpRule) -> Result<(), PromoteError> {
        match rule.operand_counts.as_ref() {
            Some(counts) if !counts.contains(&call.operands.len()) => {
                Err(PromoteError::Unsupported {
                    policy: self.name.clone(),
                    op: call.op.name().into(),
                    dtype: format!("{} operands", call.operands.len()),
                    rule: format!(
                        "the framework's {} takes {:?} operands ({}); call it on pairs",
                        call.op,
                        counts,
                        rule.sources.join("; ")
                    ),
                })
            }
            _ => Ok(()),
        }
    }

    fn check_available(&self, d: DType) -> Result<(), PromoteError> {
        if self.has(d) {
            Ok(())
        } else {
            Err(PromoteError::DTypeMissing {
                policy: self.name.clone(),
                dtype: d.name().into(),
                available: self
                    .dtypes
                    .iter()
                    .map(|d| d.name())
                    .collect::<Vec<_>>()
                    .join(", "),
            })
        }
    }

    /// An operand entered as a node.
    fn input<'a>(
        &self,
        o: &'a Operand,
        rule: &OpRule,
        literal: Option<&LiteralNodes>,
        steps: &mut Trace,
    ) -> Input<'a> {
        match o {
            Operand::Literal(l) => {
                let k = l.kind() as usize;
                let cands = literal
                    .and_then(|n| n[k].as_ref())
                    .or(rule.literal[k].as_ref())
                    .unwrap_or(&self.literal_node[k]);
                let node = cands
                    .iter()
                    .copied()
                    .find(|&c| value_fits(l, self.nodes[c].dtype))
                    .unwrap_or(cands[cands.len() - 1]);
                let n = &self.nodes[node];
                steps.note(|| Step::Literal {
                    literal: l.clone(),
                    node: n.name.clone(),
                    weak: n.weak,
                });
                self.entered(o, node, self.canonical(n.dtype), n.weak)
            }
            Operand::Tensor { dtype, weak, .. } => {
                let d = self.canonical(*dtype);
                if d != *dtype {
                    steps.note(|| Step::Canonical {
                        from: *dtype,
                        to: d,
                    });
                }
                if *weak {
                    let node = self.weak_node[d.index()];
                    let n = &self.nodes[node];
                    steps.note(|| Step::Weak(format!("weakly typed {} enters as {}", d, n.name)));
                    self.entered(o, node, d, true)
                } else {
                    self.entered(o, d.index(), d, false)
                }
            }
        }
    }

    fn entered<'a>(&self, o: &'a Operand, node: usize, dtype: DType, weak: bool) -> Input<'a> {
        Input {
            class: o.class(),
            node,
            dtype,
            weak,
            operand: o,
        }
    }

    /// A Python literal's component as a plain Python number (`np.real(1)` is `1`): an int
    /// for a bool or int, a float for a float or complex.
    fn literal_component(
        &self,
        call: &Call,
        l: &crate::Literal,
        rule: &OpRule,
        steps: &mut Trace,
    ) -> crate::Plan {
        use crate::operand::LiteralKind;
        let (kind, d) = match l.kind() {
            LiteralKind::Bool | LiteralKind::Int => (LiteralKind::Int, self.default_int),
            LiteralKind::Float | LiteralKind::Complex => (LiteralKind::Float, self.default_float),
        };
        steps.note(|| Step::OpRule {
            detail: format!(
                "{} of the Python {} {l} is a Python {}",
                call.op,
                l.kind().name(),
                kind.name()
            ),
            sources: rule.sources.clone(),
        });
        crate::Plan {
            op: call.op,
            operands: Vec::new(), // set by `resolve_call`
            inputs: vec![d],
            compute: d,
            result: d,
            weak: false,
            promoted: d,
            steps: std::mem::take(&mut steps.steps),
            parts: Vec::new(),
            scalar: Some(kind),
            verdict: None,
        }
    }
}
