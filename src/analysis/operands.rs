//! Whole calls of one op over representative operands ([`OperandAlgebra`]): tensors, 0-d
//! tensors, weak tensors and Python literals, resolved as `promote resolve` does, with the
//! commutativity and associativity of the op over them.

use std::collections::HashMap;

use crate::dtype::DType;
use crate::error::ErrorKind;
use crate::op::{Call, Op};
use crate::operand::{Literal, Operand, OperandClass};
use crate::policy::RulePolicy;

use super::outcome::{class_order, python};
use super::{outcome, representatives, Found, Outcome, Swap, Triple};

/// The laws of an op over tensors with dimensions alone.
///
/// ```
/// use promote::{analysis::check, builtin, Op};
/// let f = check(&builtin("torch").unwrap(), Op::Add);
/// assert!(f.tensors.refused > 0 && f.tensors.refused <= f.tensors.pairs);
/// ```
#[derive(Clone, Debug, Default)]
pub struct TensorLaws {
    /// Ordered pairs of tensors.
    pub pairs: usize,
    /// Pairs the framework refuses to promote (`no_promotion`).
    pub refused: usize,
    /// Unordered pairs whose two orders give different results.
    pub not_commutative: usize,
    /// Triples whose groupings give different results.
    pub assoc_differ: usize,
    /// Triples where one grouping is refused.
    pub assoc_one_sided: usize,
    /// An example of different results.
    pub example: Option<Triple<usize>>,
}

/// Associativity failures of one pattern of operand classes.
///
/// ```
/// use promote::{analysis::OperandAlgebra, builtin, Op};
/// let a = OperandAlgebra::of(&builtin("numpy").unwrap(), Op::Add);
/// assert!(a.by_classes.iter().all(|c| c.one_sided <= a.triples));
/// ```
#[derive(Clone, Debug)]
pub struct ClassCount {
    /// The classes of `a`, `b`, `c`.
    pub classes: [OperandClass; 3],
    /// Triples whose groupings give different results.
    pub differ: usize,
    /// Triples where one grouping is refused.
    pub one_sided: usize,
    /// A telling example of a different result (one without bool operands where there is one).
    pub example: Option<Triple<usize>>,
}

/// The answer to `a∘b`: its outcome and the operand it becomes when fed back in (`None` where
/// Python itself refuses two literals).
type Answer = Option<(Outcome, Option<usize>)>;

/// One op over representative operands, with its commutativity and associativity.
///
/// ```
/// use promote::{analysis::OperandAlgebra, builtin, Op};
/// let a = OperandAlgebra::of(&builtin("jax").unwrap(), Op::Add);
/// assert_eq!(a.op, Op::Add);
/// assert!(a.base <= a.operands.len());
/// ```
#[derive(Clone, Debug)]
pub struct OperandAlgebra {
    /// The op.
    pub op: Op,
    /// Every operand met: the representatives first, then results fed back in.
    pub operands: Vec<Operand>,
    /// How many of [`Self::operands`] are representatives.
    pub base: usize,
    /// `a∘b ≠ b∘a` (any two refusals count as equal).
    pub not_commutative: Found<Swap<usize>>,
    /// Both groupings give a result, and the results differ.
    pub assoc_differ: Found<Triple<usize>>,
    /// One grouping gives a result, the other is refused: it meets a pair the policy does not
    /// promote (`no_promotion`).
    pub assoc_one_sided: Found<Triple<usize>>,
    /// One grouping gives a result, the other meets an op with no kernel for its dtype (or an
    /// overflow): not a matter of promotion.
    pub assoc_kernel: Found<Triple<usize>>,
    /// The groupings differ only because Python folds two literals first (`True + True` is the
    /// int 2); counted apart from [`Self::assoc_differ`] and [`Self::assoc_one_sided`].
    pub assoc_python: Found<Triple<usize>>,
    /// Triples checked.
    pub triples: usize,
    /// Associativity failures by the operand classes of the triple, most first.
    pub by_classes: Vec<ClassCount>,
    answers: HashMap<(usize, usize), Answer>,
}

impl OperandAlgebra {
    /// Check one op over the policy's `representatives`.
    ///
    /// ```
    /// use promote::{analysis::OperandAlgebra, builtin, Op};
    /// let a = OperandAlgebra::of(&builtin("torch").unwrap(), Op::Add);
    /// assert!(!a.operands.is_empty());
    /// ```
    pub fn of(p: &RulePolicy, op: Op) -> OperandAlgebra {
        let operands = representatives(p);
        let base = operands.len();
        let mut alg = OperandAlgebra {
            op,
            operands,
            base,
            not_commutative: Found::default(),
            assoc_differ: Found::default(),
            assoc_one_sided: Found::default(),
            assoc_python: Found::default(),
            assoc_kernel: Found::default(),
            triples: 0,
            by_classes: Vec::new(),
            answers: HashMap::new(),
        };
        if op.arity() == 2 {
            alg.analyse(p);
        }
        alg
    }

    fn intern(&mut self, o: Operand) -> usize {
        match self.operands.iter().position(|x| *x == o) {
            Some(i) => i,
            None => {
                self.operands.push(o);
                self.operands.len() - 1
            }
        }
    }

    /// `a∘b`: the outcome, and the operand it becomes when fed back in.
    fn apply(&mut self, p: &RulePolicy, a: usize, b: usize) -> Answer {
        if let Some(r) = self.answers.get(&(a, b)) {
            return r.clone();
        }
        let (x, y) = (self.operands[a].clone(), self.operands[b].clone());
        let r = match (&x, &y) {
            (Operand::Literal(l), Operand::Literal(m)) => python(self.op, l, m).map(|lit| {
                let kind = lit.kind();
                (
                    Outcome::Python(kind),
                    Some(self.intern(Operand::Literal(lit))),
                )
            }),
            _ => {
                let out = Call::new(self.op, vec![x.clone(), y.clone()], None)
                    .map_or(Outcome::Error(ErrorKind::Invalid), |c| outcome(p, &c));
                let next = match out {
                    Outcome::Value(d, weak) => {
                        let nd = [&x, &y].iter().any(|o| {
                            matches!(
                                o,
                                Operand::Tensor {
                                    zero_dim: false,
                                    ..
                                }
                            )
                        });
                        Some(self.intern(Operand::Tensor {
                            dtype: d,
                            weak,
                            zero_dim: !nd,
                            value: None,
                        }))
                    }
                    _ => None,
                };
                Some((out, next))
            }
        };
        self.answers.insert((a, b), r.clone());
        r
    }

    fn analyse(&mut self, p: &RulePolicy) {
        let n = self.base;
        for a in 0..n {
            for b in a + 1..n {
                let (ab, ba) = (self.apply(p, a, b), self.apply(p, b, a));
                if !same(&ab, &ba) {
                    self.not_commutative.push(Swap {
                        a,
                        b,
                        ab: ab.and_then(|x| x.1),
                        ba: ba.and_then(|x| x.1),
                    });
                }
            }
        }
        let mut classes: HashMap<[OperandClass; 3], ClassCount> = HashMap::new();
        for a in 0..n {
            for b in 0..n {
                let ab = self.apply(p, a, b);
                for c in 0..n {
                    self.check_triple(p, (a, b, c), &ab, &mut classes);
                }
            }
        }
        let mut by: Vec<ClassCount> = classes.into_values().collect();
        by.sort_by_key(|c| {
            (
                std::cmp::Reverse(c.differ),
                std::cmp::Reverse(c.one_sided),
                c.classes.map(class_order),
            )
        });
        self.by_classes = by;
    }

    /// Both groupings of one triple; a disagreement is counted where it belongs.
    fn check_triple(
        &mut self,
        p: &RulePolicy,
        (a, b, c): (usize, usize, usize),
        ab: &Answer,
        classes: &mut HashMap<[OperandClass; 3], ClassCount>,
    ) {
        self.triples += 1;
        let bc = self.apply(p, b, c);
        let left = ab
            .as_ref()
            .and_then(|x| x.1)
            .and_then(|x| self.apply(p, x, c));
        let right = bc
            .as_ref()
            .and_then(|x| x.1)
            .and_then(|x| self.apply(p, a, x));
        if same(&left, &right) {
            return;
        }
        let t = Triple {
            a,
            b,
            c,
            ab: ab.as_ref().and_then(|x| x.1),
            left: left.as_ref().and_then(|x| x.1),
            bc: bc.as_ref().and_then(|x| x.1),
            right: right.as_ref().and_then(|x| x.1),
        };
        let folded = |i: Option<usize>| i.is_some_and(|i| self.operands[i].literal().is_some());
        if folded(t.ab) || folded(t.bc) {
            self.assoc_python.push(t);
            return;
        }
        let key = [a, b, c].map(|i| self.operands[i].class());
        let e = classes.entry(key).or_insert(ClassCount {
            classes: key,
            differ: 0,
            one_sided: 0,
            example: None,
        });
        if defined(&left) && defined(&right) {
            let better = e
                .example
                .as_ref()
                .is_none_or(|x| !self.has_bool(&[a, b, c]) && self.has_bool(&[x.a, x.b, x.c]));
            if better {
                e.example = Some(t.clone());
            }
            self.assoc_differ.push(t);
            e.differ += 1;
        } else if [fail(ab, &left), fail(&bc, &right)].contains(&Some(ErrorKind::NoPromotion)) {
            self.assoc_one_sided.push(t);
            e.one_sided += 1;
        } else {
            self.assoc_kernel.push(t);
        }
    }

    /// Whether any of these operands is a bool (tensor or literal): examples without one tell more.
    fn has_bool(&self, ids: &[usize]) -> bool {
        ids.iter().any(|&i| {
            self.operands[i].dtype() == Some(DType::Bool)
                || matches!(self.operands[i].literal(), Some(Literal::Bool(_)))
        })
    }

    /// The outcome of `a∘b` (after [`Self::of`] has met the pair).
    ///
    /// ```
    /// use promote::{analysis::{OperandAlgebra, Outcome}, builtin, DType, Op};
    /// let a = OperandAlgebra::of(&builtin("numpy").unwrap(), Op::Add);
    /// let at = |t: &str| a.operands.iter().position(|o| o.to_string() == t).unwrap();
    /// assert_eq!(a.outcome(at("int8"), at("uint8")), Some(Outcome::Value(DType::Int16, false)));
    /// ```
    pub fn outcome(&self, a: usize, b: usize) -> Option<Outcome> {
        self.answers.get(&(a, b)).cloned().flatten().map(|x| x.0)
    }

    /// Tensor with tensor alone (strong tensors with dimensions): what a user of the framework's
    /// tensor-tensor table sees.
    ///
    /// ```
    /// use promote::{analysis::OperandAlgebra, builtin, Op};
    /// let a = OperandAlgebra::of(&builtin("jax").unwrap(), Op::Add);
    /// assert_eq!(a.tensor_laws().not_commutative, 0);
    /// ```
    pub fn tensor_laws(&self) -> TensorLaws {
        let ts: Vec<usize> = (0..self.base)
            .filter(|&i| self.operands[i].class() == OperandClass::Tensor)
            .collect();
        let mut l = TensorLaws {
            pairs: ts.len() * ts.len(),
            ..TensorLaws::default()
        };
        let ok = |a: usize, b: usize| match self.outcome(a, b) {
            Some(Outcome::Value(d, w)) => Some((d, w)),
            _ => None,
        };
        for &a in &ts {
            for &b in &ts {
                if self.outcome(a, b) == Some(Outcome::Error(ErrorKind::NoPromotion)) {
                    l.refused += 1;
                }
                if a < b && ok(a, b) != ok(b, a) {
                    l.not_commutative += 1;
                }
            }
        }
        if let Some(k) = self
            .by_classes
            .iter()
            .find(|k| k.classes == [OperandClass::Tensor; 3])
        {
            l.assoc_differ = k.differ;
            l.assoc_one_sided = k.one_sided;
            l.example = k.example.clone();
        }
        l
    }

    /// An operand's text in the compact syntax.
    ///
    /// ```
    /// use promote::{analysis::OperandAlgebra, builtin, Op};
    /// let a = OperandAlgebra::of(&builtin("numpy").unwrap(), Op::Add);
    /// assert_eq!(a.text(Some(0)), a.operands[0].to_string());
    /// ```
    pub fn text(&self, i: Option<usize>) -> String {
        i.map_or_else(|| "refused".to_string(), |i| self.operands[i].to_string())
    }

    /// The outcome text of `x∘y`, `refused` or `!error` where it fails.
    ///
    /// ```
    /// use promote::{analysis::OperandAlgebra, builtin, Op};
    /// let a = OperandAlgebra::of(&builtin("numpy").unwrap(), Op::Add);
    /// assert!(a.ab_text(0, 1).contains(&a.operands[1].to_string()));
    /// ```
    pub fn ab_text(&self, x: usize, y: usize) -> String {
        match self.answers.get(&(x, y)).cloned().flatten() {
            Some((Outcome::Value(..), Some(i))) => self.text(Some(i)),
            Some((Outcome::Python(_), Some(i))) => format!("{} (Python)", self.text(Some(i))),
            Some((o, _)) => o.to_string(),
            None => "a TypeError in Python".into(),
        }
    }

    /// A triple in words, each grouping worked out:
    /// `add(add(a, b), c) = add(x, c) = r1, but add(a, add(b, c)) = add(a, y) = r2`.
    ///
    /// ```
    /// use promote::analysis::{OperandAlgebra, Triple};
    /// use promote::{builtin, Op};
    /// let a = OperandAlgebra::of(&builtin("numpy").unwrap(), Op::Add);
    /// let t = Triple { a: 0, b: 1, c: 2, ab: None, left: None, bc: None, right: None };
    /// assert!(a.triple_text(&t).contains(&a.operands[2].to_string()));
    /// ```
    pub fn triple_text(&self, t: &Triple<usize>) -> String {
        let (a, b, c) = (
            self.text(Some(t.a)),
            self.text(Some(t.b)),
            self.text(Some(t.c)),
        );
        let op = self.op.name();
        let left = match t.ab {
            Some(x) => format!(
                "{op}({op}({a}, {b}), {c}) = {op}({}, {c}) = {}",
                self.text(Some(x)),
                self.ab_text(x, t.c)
            ),
            None => format!(
                "{op}({op}({a}, {b}), {c}) fails: {op}({a}, {b}) is {}",
                self.ab_text(t.a, t.b)
            ),
        };
        let right = match t.bc {
            Some(y) => format!(
                "{op}({a}, {op}({b}, {c})) = {op}({a}, {}) = {}",
                self.text(Some(y)),
                self.ab_text(t.a, y)
            ),
            None => format!(
                "{op}({a}, {op}({b}, {c})) fails: {op}({b}, {c}) is {}",
                self.ab_text(t.b, t.c)
            ),
        };
        format!("{left}, but {right}")
    }
}

/// Two answers agree: the same outcome, or both refused (any two refusals count as the same).
fn same(x: &Answer, y: &Answer) -> bool {
    let ok = |r: &Answer| r.as_ref().and_then(|v| v.1.map(|_| v.0.clone()));
    ok(x) == ok(y)
}

/// The answer gives an operand to go on with.
fn defined(r: &Answer) -> bool {
    r.as_ref().is_some_and(|v| v.1.is_some())
}

/// Which error ends a failing grouping (`first`, then `second`): a promotion refusal, or an op
/// without a kernel for the dtype (an overflow, Python itself).
fn fail(first: &Answer, second: &Answer) -> Option<ErrorKind> {
    [first, second].into_iter().find_map(|r| match r {
        Some((Outcome::Error(k), _)) => Some(*k),
        None => Some(ErrorKind::Unsupported),
        _ => None,
    })
}
