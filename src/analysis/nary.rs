//! Whole calls of an op of any number of operands (`result_type`, `concatenate`, `stack`) over
//! three representative operands: whether the call is what folding it pairwise gives
//! (`op(op(a, b), c)`), and whether the operands' order matters. NumPy promises the order does
//! not matter for `np.result_type` under NEP 50 (`test_permutations_do_not_influence_result`);
//! NumPy 1's value-based `result_type` folds in call order, and its order does matter.
//!
//! ```
//! use promote::{analysis::nary_laws, builtin, Op};
//! let numpy = builtin("numpy").unwrap();
//! let laws = nary_laws(&numpy, Op::parse("result_type").unwrap()).unwrap();
//! assert!(laws.not_a_fold.count > 0); // result_type(uint8, int8, float16) is float16
//! // with ml_dtypes' float8s the order can matter: float8_e4m3fn with float8_e4m3fnuz takes
//! // whichever comes first (recorded, tests/fixtures/resolve-narrow/numpy.txt.gz)
//! assert!(laws.order_matters.count > 0);
//! let numpy1 = builtin("numpy1").unwrap();
//! let laws = nary_laws(&numpy1, Op::parse("result_type").unwrap()).unwrap();
//! assert!(laws.order_matters.count > 0); // result_type(bool, 300, int8) is not (int8, bool, 300)
//! ```

use crate::error::ErrorKind;
use crate::op::{Call, Op, OpForm};
use crate::operand::Operand;
use crate::policy::RulePolicy;

use super::{outcome, representatives, Found, Outcome};

/// One whole call and another call that answers differently.
///
/// ```
/// use promote::{analysis::nary_laws, builtin, Op};
/// let laws = nary_laws(&builtin("numpy1").unwrap(), Op::parse("result_type").unwrap()).unwrap();
/// let case = &laws.order_matters.examples[0];
/// assert_ne!(case.answer, case.other_answer);
/// ```
#[derive(Clone, Debug)]
pub struct NaryCase {
    /// The whole call over three operands.
    pub call: Call,
    /// Its answer.
    pub answer: Outcome,
    /// The other call: the pairwise fold (`op(op(a, b), c)`, its inner result fed back in as
    /// an operand) or the operands in another order.
    pub other: String,
    /// The other call's answer.
    pub other_answer: Outcome,
}

/// The laws of one n-ary op over whole calls of three operands.
///
/// ```
/// use promote::{analysis::nary_laws, builtin, Op};
/// let laws = nary_laws(&builtin("torch").unwrap(), Op::parse("concatenate").unwrap()).unwrap();
/// assert!(laws.calls > 0 && laws.op == Op::parse("cat").unwrap());
/// ```
#[derive(Clone, Debug)]
pub struct NaryLaws {
    /// The op.
    pub op: Op,
    /// Calls checked: each multiset of three representatives once.
    pub calls: usize,
    /// The whole call differs from folding it pairwise in call order.
    pub not_a_fold: Found<NaryCase>,
    /// Another order of the same operands answers differently.
    pub order_matters: Found<NaryCase>,
}

const ORDERS: [[usize; 3]; 5] = [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]];

/// The n-ary laws of `op` under a policy; `None` for an op of a fixed number of operands.
///
/// ```
/// use promote::{analysis::nary_laws, builtin, Op};
/// let numpy = builtin("numpy").unwrap();
/// assert!(nary_laws(&numpy, Op::Add).is_none());
/// assert!(nary_laws(&numpy, Op::parse("stack").unwrap()).is_some());
/// ```
pub fn nary_laws(p: &RulePolicy, op: Op) -> Option<NaryLaws> {
    if op.form() != OpForm::Variadic {
        return None;
    }
    let reps = representatives(p);
    let answer = |v: Vec<Operand>| {
        Call::new(op, v, None).map_or(Outcome::Error(ErrorKind::Invalid), |c| outcome(p, &c))
    };
    let mut laws = NaryLaws {
        op,
        calls: 0,
        not_a_fold: Found::default(),
        order_matters: Found::default(),
    };
    let n = reps.len();
    for i in 0..n {
        for j in i..n {
            for k in j..n {
                let ops = [reps[i].clone(), reps[j].clone(), reps[k].clone()];
                let whole = answer(ops.to_vec());
                laws.calls += 1;
                let case = |other: String, other_answer: Outcome| NaryCase {
                    call: Call {
                        op,
                        operands: ops.to_vec(),
                        out: None,
                        dtype: None,
                        form: Default::default(),
                        casting: None,
                    },
                    answer: whole.clone(),
                    other,
                    other_answer,
                };
                if let Some((text, got)) = ORDERS.iter().find_map(|o| {
                    let v: Vec<Operand> = o.iter().map(|&x| ops[x].clone()).collect();
                    let text = call_text(op, &v);
                    let got = answer(v);
                    (got != whole).then_some((text, got))
                }) {
                    laws.order_matters.push(case(text, got));
                }
                if let Some((text, got, refused)) = fold(p, op, &ops) {
                    // a refused first step differs from a whole call that answers; two
                    // refusals are not told apart
                    let answered = matches!(whole, Outcome::Value(..));
                    if got != whole && (answered || !refused) {
                        laws.not_a_fold.push(case(text, got));
                    }
                }
            }
        }
    }
    Some(laws)
}

/// `op(op(a, b), c)`: the inner result fed back in as a tensor of its dtype (0-d when neither
/// `a` nor `b` has dimensions); where the inner call is refused, that call and its refusal
/// (OneFlow's `cat(uint64, int8, float32)` is float32, `cat(uint64, int8)` is refused).
fn fold(p: &RulePolicy, op: Op, [a, b, c]: &[Operand; 3]) -> Option<(String, Outcome, bool)> {
    let inner = Call::new(op, vec![a.clone(), b.clone()], None).ok()?;
    let (dtype, weak) = match outcome(p, &inner) {
        Outcome::Value(dtype, weak) => (dtype, weak),
        Outcome::Error(e) => {
            return Some((call_text(op, &inner.operands), Outcome::Error(e), true));
        }
        Outcome::Python(_) => return None,
    };
    let nd = [a, b].iter().any(|o| {
        matches!(
            o,
            Operand::Tensor {
                zero_dim: false,
                ..
            }
        )
    });
    let fed = Operand::Tensor {
        dtype,
        weak,
        zero_dim: !nd,
        value: None,
    };
    let outer = Call::new(op, vec![fed, c.clone()], None).ok()?;
    let inner = call_text(op, &inner.operands);
    Some((format!("{op}({inner}, {c})"), outcome(p, &outer), false))
}

/// `op(a, b, c)`, as the reports write a call.
///
/// ```
/// use promote::{analysis::call_text, DType, Op, Operand};
/// let ops = [Operand::tensor(DType::Int8), Operand::tensor(DType::UInt8)];
/// assert_eq!(call_text(Op::parse("stack").unwrap(), &ops), "stack(int8, uint8)");
/// ```
pub fn call_text(op: Op, operands: &[Operand]) -> String {
    let args: Vec<String> = operands.iter().map(|o| o.to_string()).collect();
    format!("{op}({})", args.join(", "))
}
