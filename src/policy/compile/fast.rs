//! The fast path of [`crate::Policy::result`]: every op over two strong tensors (unary ops:
//! one) resolved once at compile time, so that answering such a call is one table load.

use crate::dtype::DType;
use crate::op::{Call, Op};
use crate::operand::Operand;

use super::super::resolve::Trace;
use super::super::rule_policy::FAST_SLOW;
use super::super::RulePolicy;

/// The fast table of a compiled policy: dtype index | 0x80 if weak, or [`FAST_SLOW`] where the
/// full resolver must answer (an error, with its message).
pub(crate) fn table(p: &RulePolicy) -> Vec<u8> {
    const {
        assert!(
            DType::COUNT < 0x7f,
            "a fast cell holds a dtype index in 7 bits"
        )
    };
    let n = DType::ALL.len();
    let mut fast = vec![FAST_SLOW; p.ops.len() * n * n];
    for op in Op::all().into_iter().take(p.ops.len()) {
        if p.ops[op.index()].like.is_some() {
            continue; // answered by another policy, compiled when a call needs it
        }
        for a in DType::ALL {
            for b in DType::ALL {
                let operands = if op.arity() == 1 {
                    if b != DType::Bool {
                        continue;
                    }
                    vec![Operand::tensor(a)]
                } else {
                    vec![Operand::tensor(a), Operand::tensor(b)]
                };
                let call = Call {
                    op,
                    operands,
                    out: None,
                    dtype: None,
                    casting: None,
                    form: p.form,
                };
                if let Ok(plan) = p.resolve_call(&call, &mut Trace::new(false)) {
                    fast[(op.index() * n + a.index()) * n + b.index()] =
                        plan.result.index() as u8 | if plan.weak { 0x80 } else { 0 };
                }
            }
        }
    }
    fast
}
