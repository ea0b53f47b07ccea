//! Stage 3, promotion: the dtype the operands promote to, by the policy's scheme — the join of
//! every operand's node (JAX, TensorFlow, the Array API), or [`super::categories`] (PyTorch,
//! NumPy), or NumPy 1's loop search ([`super::value_based`]); ops that take one dtype skip it.
//! Where the framework promotes to a dtype outside the 15 (PyTorch's complex32), the op's
//! `outside` rule decides here.

use crate::dtype::{DType, Kind};
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::OperandClass;
use crate::plan::{Plan, Step};

use super::super::compiled::{Categories, JoinOrder, OpRule, Scheme};
use super::super::join::Joined;
use super::super::RulePolicy;
use super::{op_step, Flow, Input, Operands, Promoted, Resolution, Trace};

impl RulePolicy {
    /// Stage 3: the promoted dtype and whether it is weak.
    pub(crate) fn promotion<'a>(
        &'a self,
        Operands { mut r, forced }: Operands<'a>,
    ) -> Result<Flow<Promoted<'a>>, PromoteError> {
        // a condition (`where`'s first operand) is not promoted with the others
        let condition = (r.rule.condition_first && r.ins.len() > 1).then(|| r.ins.remove(0));
        let promoted = match forced {
            Some(d) => Ok((Some(d), false)),
            None => self.promoted_dtype(&mut r),
        };
        if let Some(c) = condition {
            r.ins.insert(0, c);
        }
        let (promoted, weak) = promoted?;
        let Some(promoted) = promoted.map(|p| self.canonical(p)) else {
            return self.outside(&mut r, weak).map(Flow::Decided);
        };
        let promoted = if r.rule.weak_default && weak {
            self.weak_default(&mut r, promoted)
        } else {
            promoted
        };
        Ok(Flow::Next(Promoted { r, promoted, weak }))
    }

    /// The promoted dtype by the op's one-dtype rule or the policy's scheme (`None`: outside
    /// the 15).
    fn promoted_dtype(&self, r: &mut Resolution) -> Result<(Option<DType>, bool), PromoteError> {
        let (call, ins, rule) = (&*r.call, &r.ins, r.rule);
        if rule.same_dtype {
            let d = ins[0].dtype;
            if let Some(other) = ins.iter().find(|i| i.dtype != d) {
                return Err(self.no_promotion(
                    call,
                    d.name(),
                    other.dtype.name(),
                    format!(
                        "{} needs both operands of one dtype ({})",
                        call.op,
                        rule.sources.join("; ")
                    ),
                ));
            }
            r.steps.note(|| {
                op_step(rule, {
                    format!("{} takes operands of one dtype: {}", call.op, d)
                })
            });
            return Ok((Some(d), false));
        }
        Ok(match &self.scheme {
            Scheme::Join {
                all_weak_join_dtypes,
            } => match rule.join_order {
                JoinOrder::All => self.join_inputs(call, ins, *all_weak_join_dtypes, r.steps)?,
                JoinOrder::Pairwise => {
                    self.join_pairwise(call, ins, *all_weak_join_dtypes, r.steps)?
                }
                JoinOrder::ArraysFirst => self.join_arrays_first(call, ins, rule, r.steps)?,
            },
            Scheme::Categories(cs) => match own_loop(cs, ins, call.op)
                .or_else(|| legacy_loops(cs, ins))
                .or_else(|| rule.loops.clone())
            {
                Some(loops) => (
                    Some(self.linear_search(call, ins, cs, &loops, r.steps)?),
                    false,
                ),
                None => {
                    let joined = self.categorize(call, ins, cs, r.steps)?;
                    let dtypes = || ins.iter().map(|i| i.dtype);
                    let legacy = cs.legacy.as_ref();
                    match joined.and_then(|d| legacy?.builtin_loops_past(d, dtypes(), call.op)) {
                        Some(loops) => (
                            Some(self.linear_search(call, ins, cs, loops, r.steps)?),
                            false,
                        ),
                        None => (joined, false),
                    }
                }
            },
        })
    }

    /// The framework computes in a dtype outside the 15 (PyTorch's complex32): the op's
    /// `outside` rule gives the result, or the op is refused.
    fn outside(&self, r: &mut Resolution, weak: bool) -> Result<Plan, PromoteError> {
        let (call, rule) = (&*r.call, r.rule);
        // float16 meets a lower complex as complex32 (ComplexHalf), bfloat16 as BComplex32
        let half = if r.ins.iter().any(|i| i.dtype == DType::BFloat16) {
            ("bfloat16", "BComplex32")
        } else {
            ("float16", "complex32")
        };
        if let (Some(out), true, None) = (call.out, self.out_first, rule.result) {
            if out.kind() != Kind::Complex {
                return Err(PromoteError::OutCast {
                    policy: self.name.clone(),
                    op: call.op.name().into(),
                    result: half.1.into(),
                    out: out.name().into(),
                    rule: "a complex result cannot be cast into a real out".into(),
                });
            }
        }
        match rule.outside {
            Some(d) => {
                self.out_check(call, d, weak, r.steps)?;
                Ok(Plan {
                    op: call.op,
                    operands: Vec::new(), // set by `resolve_call`
                    inputs: r.ins.iter().map(|i| i.dtype).collect(),
                    compute: d,
                    result: call.out.unwrap_or(d),
                    weak: false,
                    promoted: d,
                    steps: std::mem::take(&mut r.steps.steps),
                    parts: Vec::new(),
            scalar: None,
            verdict: None,
                })
            }
            None if !r.ins.iter().any(|i| i.dtype.kind() == Kind::Complex) => {
                Err(PromoteError::Unsupported {
                    policy: self.name.clone(),
                    op: call.op.name().into(),
                    dtype: "the 15 dtypes of this interface".into(),
                    rule: "the framework promotes these operands to a dtype none of the 15 names (OneFlow: uint64 with a signed integer is int128), which it has no cast kernel for".into(),
                })
            }
            None => Err(PromoteError::Unsupported {
                    policy: self.name.clone(),
                    op: call.op.name().into(),
                    dtype: "the 15 dtypes of this interface".into(),
                    rule: format!("the framework promotes {} with this complex operand to {}, which this interface has no name for yet; where the framework has a {} kernel for the op it computes and returns a {} tensor, elsewhere it raises", half.0, half.1, half.1, half.1),
            }),
        }
    }

    /// A weak result takes the default dtype of its kind (JAX's matmul).
    fn weak_default(&self, r: &mut Resolution, promoted: DType) -> DType {
        let d = match promoted.kind() {
            Kind::Bool => DType::Bool,
            // the unsigned dtype of the default int's width (JAX: uint32 without x64)
            Kind::Unsigned => DType::ALL
                .into_iter()
                .find(|d| d.kind() == Kind::Unsigned && d.bits() == self.default_int.bits())
                .unwrap_or(self.canonical(DType::UInt64)),
            Kind::Signed => self.default_int,
            Kind::Float => self.default_float,
            Kind::Complex => self.default_complex,
        };
        let op = r.call.op;
        r.steps.note(|| {
            Step::Weak(format!(
                "{op} gives a weak result the default dtype of its kind: {d}"
            ))
        });
        d
    }

    /// The join scheme taken pairwise (`sequence = "pairwise"`): the first two operands, then
    /// the result so far, as a tensor of its dtype (weak or not), with each next one.
    fn join_pairwise(
        &self,
        call: &Call,
        ins: &[Input],
        all_weak_join_dtypes: bool,
        steps: &mut Trace,
    ) -> Result<(Option<DType>, bool), PromoteError> {
        let (first, rest) = ins.split_at(ins.len().min(2));
        let mut acc = self.join_inputs(call, first, all_weak_join_dtypes, steps)?;
        for i in rest {
            let (Some(d), weak) = acc else {
                return Ok(acc);
            };
            let node = if weak {
                self.weak_node[d.index()]
            } else {
                d.index()
            };
            let so_far = Input {
                node,
                dtype: d,
                weak,
                ..i.clone()
            };
            acc = self.join_inputs(call, &[so_far, i.clone()], all_weak_join_dtypes, steps)?;
        }
        Ok(acc)
    }

    /// The join scheme, arrays first (`sequence = "arrays_first"`): the arrays' join, then each
    /// Python scalar in call order joined with it and range-checked at once; the result is the
    /// join of those.
    fn join_arrays_first(
        &self,
        call: &Call,
        ins: &[Input],
        rule: &OpRule,
        steps: &mut Trace,
    ) -> Result<(Option<DType>, bool), PromoteError> {
        let (scalars, arrays): (Vec<Input>, Vec<Input>) = ins
            .iter()
            .cloned()
            .partition(|i| i.class == OperandClass::Literal);
        if arrays.is_empty() || scalars.is_empty() {
            return self.join_inputs(call, ins, false, steps);
        }
        let (Some(d), weak) = self.join_inputs(call, &arrays, false, steps)? else {
            return Ok((None, false));
        };
        let range = rule.range.as_ref().unwrap_or(&self.range);
        let so_far = Input {
            node: d.index(),
            dtype: d,
            weak,
            ..arrays[0].clone()
        };
        let mut acc = (Some(d), weak);
        for s in scalars {
            let (Some(j), _) =
                self.join_inputs(call, &[so_far.clone(), s.clone()], false, steps)?
            else {
                return Ok((None, false));
            };
            self.check_ranges(call, std::slice::from_ref(&s), range, j, j, Some(false))?;
            let (Some(a), _) = acc else {
                return Ok(acc);
            };
            acc = (self.promote_types(a, j), false);
        }
        Ok(acc)
    }

    /// The join over inputs for the `join` scheme: (dtype, weak).
    fn join_inputs(
        &self,
        call: &Call,
        ins: &[Input],
        all_weak_join_dtypes: bool,
        steps: &mut Trace,
    ) -> Result<(Option<DType>, bool), PromoteError> {
        if let [only] = ins {
            steps.note(|| {
                Step::Weak(format!(
                    "one operand is not promoted: it stays {}{}",
                    if only.weak { "weakly typed " } else { "" },
                    only.dtype
                ))
            });
            return Ok((Some(only.dtype), only.weak));
        }
        if all_weak_join_dtypes && ins.iter().all(|i| i.weak) {
            let mut acc = ins[0].dtype.index();
            for i in &ins[1..] {
                acc = self.join.join(acc, i.dtype.index()).ok_or_else(|| {
                    self.no_promotion(
                        call,
                        ins[0].dtype.name(),
                        i.dtype.name(),
                        format!(
                            "no {} join of {} and {}",
                            self.join_source, ins[0].dtype, i.dtype
                        ),
                    )
                })?;
            }
            let d = self.canonical(self.nodes[acc].dtype);
            steps.note(|| Step::Weak(format!("every operand is weak: their dtypes join as strong ones to {d}, and the result stays weak (a bool never is)")));
            return Ok((Some(d), d != DType::Bool));
        }
        let mut acc = ins[0].node;
        for i in &ins[1..] {
            let j = match self.join_nodes(acc, i.node) {
                Joined::Node(j) => j,
                Joined::Outside => return Ok((None, false)),
                Joined::Never => {
                    return Err(self.no_promotion(
                        call,
                        self.node_name(acc),
                        self.node_name(i.node),
                        format!(
                            "the {} has no join of {} and {}",
                            self.join_source,
                            self.node_name(acc),
                            self.node_name(i.node)
                        ),
                    ))
                }
            };
            if ins.len() > 1 {
                steps.note(|| self.join_step(acc, i.node, j));
            }
            acc = j;
        }
        let n = &self.nodes[acc];
        let d = self.canonical(n.dtype);
        if n.weak {
            steps.note(|| {
                Step::Weak({
                    format!(
                        "{} is a weak node: the result is {} and weakly typed",
                        n.name, d
                    )
                })
            });
        }
        Ok((Some(d), n.weak))
    }

    /// The operands' dtypes promoted through the table alone.
    pub(crate) fn join_dtypes(&self, call: &Call, ins: &[Input]) -> Result<DType, PromoteError> {
        let mut d = ins[0].dtype;
        for i in &ins[1..] {
            d = self.promote_types(d, i.dtype).ok_or_else(|| {
                self.no_promotion(
                    call,
                    d.name(),
                    i.dtype.name(),
                    format!(
                        "the {} has no promotion of {} and {}",
                        self.join_source, d, i.dtype
                    ),
                )
            })?;
        }
        Ok(d)
    }
}

/// Operands all of one legacy dtype that has a loop of its own for the op (ml_dtypes'
/// registered loops): that loop, ahead of every builtin one.
fn own_loop(cs: &Categories, ins: &[Input], op: crate::op::Op) -> Option<Vec<DType>> {
    let legacy = cs.legacy.as_ref()?;
    let d = ins.first()?.dtype;
    let all_d = ins.iter().all(|i| i.dtype == d);
    (all_d && legacy.has_own_loop(d, op)).then(|| vec![d])
}

/// NumPy 1 with a `[combine.legacy]` dtype among the operands: the operands' own loops (their
/// legacy dtypes, in call order), then the policy's builtin loops.
fn legacy_loops(cs: &Categories, ins: &[Input]) -> Option<Vec<DType>> {
    let legacy = cs.legacy.as_ref().filter(|l| !l.loops.is_empty())?;
    let own: Vec<DType> = ins
        .iter()
        .map(|i| i.dtype)
        .filter(|d| legacy.has(*d))
        .collect();
    if own.is_empty() {
        return None;
    }
    Some(
        own.into_iter()
            .chain(legacy.loops.iter().copied())
            .collect(),
    )
}
