//! The `categories` scheme (PyTorch, NumPy, Paddle, OneFlow): operands grouped by class into
//! prioritised categories (tensors, 0-d tensors, Python scalars, ...); within a category they
//! join, and a lower category counts only as its `merge` says — by kind, never, always, or when
//! the kinds differ. NumPy 1's by-value merge is in [`super::value_based`].

use crate::dtype::{DType, Kind};
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::{LiteralKind, OperandClass};
use crate::plan::Step;

use super::super::compiled::{class_index, Categories, Meet, Merge};
use super::super::join::Joined;
use super::super::RulePolicy;
use super::{Input, Trace};

/// The categories merged so far: the node, the category it last came from, its members.
struct Merged<'i, 'a> {
    node: usize,
    cat: usize,
    members: Vec<&'i Input<'a>>,
}

/// A higher category meeting the merged lower ones.
struct Meeting<'c, 'i, 'a> {
    call: &'c Call,
    cs: &'c Categories,
    /// The higher category and its joined node.
    cat: usize,
    node: usize,
    lower: &'c Merged<'i, 'a>,
}

impl RulePolicy {
    /// The operands grouped into the scheme's categories, highest first.
    pub(crate) fn group<'i, 'a>(
        &self,
        cs: &Categories,
        ins: &'i [Input<'a>],
    ) -> Result<Vec<Vec<&'i Input<'a>>>, PromoteError> {
        let mut cats: Vec<Vec<&Input>> = vec![Vec::new(); cs.count];
        for i in ins {
            let c = cs.category[class_index(i.class)].ok_or_else(|| {
                PromoteError::invalid(format!(
                    "{} has no {} operands ({}); pass a plain tensor",
                    self.name,
                    i.class.name(),
                    i.operand
                ))
            })?;
            cats[c].push(i);
        }
        Ok(cats)
    }

    /// The promoted dtype by categories, from the lowest category up (`None`: outside the 15).
    pub(crate) fn categorize(
        &self,
        call: &Call,
        ins: &[Input],
        cs: &Categories,
        steps: &mut Trace,
    ) -> Result<Option<DType>, PromoteError> {
        if self.rule_of(call.op).is_ok_and(|r| r.common_dtype) {
            return self.common_dtype_sequence(call, ins, steps).map(Some);
        }
        if self.rule_of(call.op).is_ok_and(|r| r.value_in_order) {
            if let Some(d) = self.value_in_order(call, ins, cs, steps)? {
                return Ok(Some(d));
            }
        }
        let cats = self.group(cs, ins)?;
        let mut acc: Option<Merged> = None;
        for (ci, members) in cats.iter().enumerate().rev() {
            if members.is_empty() {
                continue;
            }
            if let Some(lower) = &acc {
                if self.meets_outside(cs, lower.node, members, steps) {
                    return Ok(None);
                }
            }
            let top = match self.rule_of(call.op) {
                Ok(r) if r.by_highest_kind => self.by_highest_kind(cs, members),
                _ => None,
            };
            if let Some(t) = top {
                steps.note(|| {
                    Step::Category(format!(
                        "each operand of its category joined with the first of the highest kind, then those joins: {} (NumPy's PyArray_PromoteDTypeSequence)",
                        self.node_name(t)
                    ))
                });
            }
            let mut d = top.unwrap_or(members[0].node);
            for m in members.iter().skip(1).filter(|_| top.is_none()) {
                let Some(j) = self.join_or_refuse(call, d, m.node)? else {
                    return Ok(None);
                };
                steps.note(|| self.join_step(d, m.node, j));
                d = j;
            }
            acc = Some(match acc.take() {
                None => Merged {
                    node: d,
                    cat: ci,
                    members: members.clone(),
                },
                Some(lower) => {
                    let meeting = Meeting {
                        call,
                        cs,
                        cat: ci,
                        node: d,
                        lower: &lower,
                    };
                    let Some(node) = self.merge(&meeting, steps)? else {
                        return Ok(None);
                    };
                    let mut all = members.clone();
                    all.extend(lower.members);
                    Merged {
                        node,
                        cat: ci,
                        members: all,
                    }
                }
            });
        }
        let n = acc.expect("at least one operand").node;
        Ok(Some(self.canonical(self.nodes[n].dtype)))
    }

    /// NumPy's `PyArray_PromoteDTypeSequence` over a category's nodes: each joined with the
    /// first node of the highest kind, and those joins joined (the operands' order does not
    /// matter); `None` where a join is refused (the plain fold then says which).
    fn by_highest_kind(&self, cs: &Categories, members: &[&Input]) -> Option<usize> {
        let rank = |n: usize| cs.rank(self.nodes[n].dtype);
        let main = members.iter().map(|m| m.node).max_by_key(|&n| rank(n))?;
        let main = members
            .iter()
            .map(|m| m.node)
            .find(|&n| rank(n) == rank(main))?;
        let mut acc = main;
        for m in members {
            let Joined::Node(j) = self.join_nodes(main, m.node) else {
                return None;
            };
            let Joined::Node(a) = self.join_nodes(acc, j) else {
                return None;
            };
            acc = a;
        }
        Some(acc)
    }

    /// PyTorch: a lone float meeting a lower complex becomes its complex counterpart; when that
    /// is none of the 15 (complex32), the promotion leaves them.
    fn meets_outside(
        &self,
        cs: &Categories,
        lower: usize,
        members: &[&Input],
        steps: &mut Trace,
    ) -> bool {
        let top = members
            .iter()
            .map(|m| m.dtype)
            .max_by_key(|d| cs.rank(*d))
            .expect("non-empty");
        let outside = self.nodes[lower].dtype.kind() == Kind::Complex
            && top.kind() == Kind::Float
            && members.len() == 1
            && cs.float_meets_complex[top.index()] == Some(Meet::Outside);
        if outside {
            steps.note(|| Step::Category(format!("{top} meeting a lower complex becomes its complex counterpart, which is none of the 15 dtypes")));
        }
        outside
    }

    /// The join of two nodes; `None` when it lies outside the 15, an error when there is none.
    fn join_or_refuse(
        &self,
        call: &Call,
        a: usize,
        b: usize,
    ) -> Result<Option<usize>, PromoteError> {
        match self.join_nodes(a, b) {
            Joined::Node(n) => Ok(Some(n)),
            Joined::Outside => Ok(None),
            Joined::Never => Err(self.no_promotion(
                call,
                self.node_name(a),
                self.node_name(b),
                format!(
                    "the {} has no promotion of {} and {}",
                    self.join_source,
                    self.node_name(a),
                    self.node_name(b)
                ),
            )),
        }
    }

    /// Python scalars meeting a `[combine.legacy]` dtype: the dtype they enter as.
    fn legacy_entry(&self, m: &Meeting) -> Option<DType> {
        let legacy = m.cs.legacy.as_ref()?;
        let literal = legacy.literal?;
        let hd = self.nodes[m.node].dtype;
        let scalars = m
            .lower
            .members
            .iter()
            .all(|i| i.class == OperandClass::Literal);
        if !(legacy.has(hd) && scalars) {
            return None;
        }
        let kind = match self.nodes[m.lower.node].dtype.kind() {
            Kind::Bool => LiteralKind::Bool,
            Kind::Signed | Kind::Unsigned => LiteralKind::Int,
            Kind::Float => LiteralKind::Float,
            Kind::Complex => LiteralKind::Complex,
        };
        let at = LiteralKind::ALL.iter().position(|k| *k == kind)?;
        Some(literal[at])
    }

    /// A higher category merged with the lower ones, as the lower category's `merge` says.
    fn merge(&self, m: &Meeting, steps: &mut Trace) -> Result<Option<usize>, PromoteError> {
        let (cs, d, lower, lower_cat, ci) = (m.cs, m.node, m.lower.node, m.lower.cat, m.cat);
        let (ld, hd) = (self.nodes[lower].dtype, self.nodes[d].dtype);
        let (hc, lc) = (ci + 1, lower_cat + 1);
        if let Some(entry) = self.legacy_entry(m) {
            let Some(j) = self.join_or_refuse(m.call, d, entry.index())? else {
                return Ok(None);
            };
            steps.note(|| {
                Step::Category(format!(
                    "category {lc} meets {hd}, a legacy dtype, as {entry}: {}",
                    self.node_name(j)
                ))
            });
            return Ok(Some(j));
        }
        Ok(Some(match cs.merge[lower_cat] {
            Merge::Nothing => {
                steps.note(|| {
                    Step::Category(format!("category {hc} ({hd}) ignores category {lc} ({ld})"))
                });
                d
            }
            Merge::Differ if cs.rank(ld) == cs.rank(hd) => {
                steps.note(|| {
                    Step::Category({
                        format!(
                            "category {hc} ({hd}) ignores category {lc} ({ld}) of the same kind"
                        )
                    })
                });
                d
            }
            Merge::Join | Merge::Differ => {
                let Some(j) = self.join_or_refuse(m.call, d, lower)? else {
                    return Ok(None);
                };
                steps.note(|| {
                    Step::Category({
                        let (dn, ln, jn) =
                            (self.node_name(d), self.node_name(lower), self.node_name(j));
                        format!("category {hc} ({dn}) joins category {lc} ({ln}): {jn}")
                    })
                });
                j
            }
            Merge::Kind if cs.rank(ld) > cs.rank(hd) => {
                return self.lower_of_higher_kind(m, steps);
            }
            Merge::Kind if cs.lower_by_value => {
                self.by_value(m.call, hd, &m.lower.members, steps)?.index()
            }
            Merge::Kind => {
                steps.note(|| Step::Category(format!("category {hc} ({hd}) outranks category {lc} ({ld}) of no higher kind: {hd}")));
                d
            }
        }))
    }

    /// A lower category of a higher kind than the higher one: PyTorch's float meeting a complex
    /// takes its complex counterpart, an int a complex as it is; otherwise the two join.
    fn lower_of_higher_kind(
        &self,
        m: &Meeting,
        steps: &mut Trace,
    ) -> Result<Option<usize>, PromoteError> {
        let (cs, d, lower) = (m.cs, m.node, m.lower.node);
        let (ld, hd) = (self.nodes[lower].dtype, self.nodes[d].dtype);
        let r = match (ld.kind(), hd.kind(), cs.float_meets_complex[hd.index()]) {
            (Kind::Complex, Kind::Float, Some(Meet::DType(c))) => c.index(),
            (Kind::Complex, Kind::Bool | Kind::Signed | Kind::Unsigned, _)
                if cs.int_meets_complex_lower =>
            {
                lower
            }
            _ => match self.join_or_refuse(m.call, d, lower)? {
                Some(j) => j,
                None => return Ok(None),
            },
        };
        let rd = self.nodes[r].dtype;
        steps.note(|| {
            Step::Category({
                format!(
                    "category {} ({}) is of a higher kind than category {} ({}): {}",
                    m.lower.cat + 1,
                    ld,
                    m.cat + 1,
                    hd,
                    rd
                )
            })
        });
        Ok(Some(r))
    }
}
