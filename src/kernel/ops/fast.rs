//! The paths of the op kernels that write straight into the output, chunk by chunk and on the
//! rayon pool where the framework's result does not depend on the order: unary ops through the
//! cast/compute layer's chunking ([`exec::map_unary`]) with the op's `match` hoisted out of the
//! loop; NumPy's `mean` through its buffered sum ([`exec::sum_total`]); a whole-array `cumsum`
//! in one pass. Each gives the same values as the general path of [`super::unary`] and
//! [`super::reduce`] (the same element functions, the same order of additions); a call these
//! paths do not take (`None`) runs there.

use super::reduce::Reduce;
use super::unary::{Unary, UnaryElem};
use super::{OpSemantics, Scan, Summation};
use crate::kernel::array::{Element, View, ViewMut};
use crate::kernel::cast::Num;
use crate::kernel::compute::{Arith, KernelError};
use crate::kernel::exec::{self, Work};
use crate::plan::Plan;
use crate::{with_dtype, DType};

/// A path's answer: `None` when it does not take the call.
pub(crate) type Taken = Option<Result<(), KernelError>>;

/// A unary op whose result has the compute dtype (not a predicate, not a complex → real op).
pub(crate) fn unary(
    op: Unary,
    s: &OpSemantics,
    plan: &Plan,
    x: View<'_>,
    out: ViewMut<'_>,
) -> Taken {
    if op.is_predicate() || (op.to_real() && plan.compute.is_complex()) {
        return None;
    }
    if s.packet(super::OpClass::Unary(op), plan.compute).is_some() {
        return None; // a packet function: the general path applies it
    }
    if s.xla_half_steps(op, plan.compute).is_some() {
        return None; // op by op in a half type: the general path rounds each step
    }
    with_dtype!(plan.compute, T => unary_typed::<T>(op, s, plan, x, out))
}

fn unary_typed<T: Work>(
    op: Unary,
    s: &OpSemantics,
    plan: &Plan,
    x: View<'_>,
    out: ViewMut<'_>,
) -> Taken
where
    T::W: UnaryElem,
{
    // whether the type has the function depends on the op alone, not on the value
    T::W::same(op, T::W::zero(), s)?;
    if let (Unary::Sinh, DType::Float32, Some(limit)) = (op, T::DTYPE, s.sinh_f32_limit) {
        // SLEEF's float32 limit (the element kernel's own branch in `unary::run`)
        let sinh = move |x: &[T::W], d: &mut [T::W]| {
            for (o, &v) in d.iter_mut().zip(x) {
                *o = T::W::sinh_below(v, limit as f32).unwrap_or(v);
            }
        };
        return Some(exec::map_unary::<T>(plan.op, x, plan.inputs[0], out, sinh));
    }
    let own_fn = s.own_fn(op, T::DTYPE);
    Some(exec::map_unary::<T>(
        plan.op,
        x,
        plan.inputs[0],
        out,
        |x, d| match own_fn {
            Some(f) => f.map(x, d),
            None => apply(op, s, x, d),
        },
    ))
}

/// `d[i] = op(x[i])`, one loop per op: the `match` runs once per chunk, and each arm's loop is
/// the element function with a constant op (inlined, vectorised where the function allows).
fn apply<W: UnaryElem>(op: Unary, s: &OpSemantics, x: &[W], d: &mut [W]) {
    macro_rules! hoisted {
        ($($v:ident)*) => {
            match op {
                $(Unary::$v => {
                    for (o, &v) in d.iter_mut().zip(x) {
                        *o = W::same(Unary::$v, v, s).unwrap_or(v);
                    }
                })*
            }
        };
    }
    hoisted!(Negative Positive Absolute Sign Square Sqrt Reciprocal Exp Expm1 Log Log1p Log2
             Log10 Sin Cos Tan Arcsin Arctan Sinh Tanh Floor Ceil Trunc Round IsNan IsInf
             IsFinite Signbit LogicalNot BitwiseInvert Real Imag Conj Angle);
}

/// `mean` under NumPy's summation: `add.reduce` in the compute dtype (buffered when the
/// operand is cast, as NumPy's `umr_sum(arr, dtype=...)`), divided by the count in it.
pub(crate) fn mean(s: &OpSemantics, plan: &Plan, x: View<'_>, out: ViewMut<'_>) -> Taken {
    if s.summation != Summation::Pairwise || !plan.compute.is_inexact() {
        return None;
    }
    with_dtype!(plan.compute, T => mean_typed::<T>(x, plan.inputs[0], out));
    Some(Ok(()))
}

fn mean_typed<T: Work>(x: View<'_>, via: DType, out: ViewMut<'_>) {
    let total: T = exec::sum_total::<T>(x, via);
    let count = T::W::from_num(x.len() as f64);
    let m = T::narrow(T::W::div(total.widen(), count));
    crate::kernel::cast::cast_view(T::view(&[m]), out);
}

/// A whole-array `cumsum` of a real dtype, read in place and written in place (operand, compute
/// and result of one dtype): each partial sum rounded to the dtype (NumPy), or the working
/// type's running value kept (PyTorch; float32 accumulated in double precision).
pub(crate) fn cumsum(
    op: Reduce,
    s: &OpSemantics,
    plan: &Plan,
    x: View<'_>,
    out: ViewMut<'_>,
) -> Taken {
    let d = plan.compute;
    let plain = x.dtype() == d && out.dtype() == d && plan.inputs[0] == d;
    if op != Reduce::Cumsum || !plain || d.is_complex() || d.is_bool() {
        return None;
    }
    if s.scan != Scan::Running && d.is_inexact() {
        return None; // the framework's own order (`order::xla_scan`)
    }
    if d == DType::Float32 && s.cumulative_in_double {
        let (x, o) = (f32::slice(x)?, f32::slice_mut(out)?);
        scan(x, o, |v| v as f64, |a, b| a + b, |a| a as f32, false);
        return Some(Ok(()));
    }
    with_dtype!(d, T => scan_typed::<T>(x, out, s.cumulative_rounds))
}

fn scan_typed<T: Work>(x: View<'_>, out: ViewMut<'_>, round: bool) -> Taken {
    let (x, o) = (T::slice(x)?, T::slice_mut(out)?);
    scan(x, o, T::widen, T::W::add, T::narrow, round);
    Some(Ok(()))
}

/// The running sum of `x` into `o`: the first value as it is, then `acc = add(acc, up(v))`,
/// rounded through `down` after each step when `round`.
fn scan<T: Copy, A: Copy>(
    x: &[T],
    o: &mut [T],
    up: impl Fn(T) -> A,
    add: impl Fn(A, A) -> A,
    down: impl Fn(A) -> T,
    round: bool,
) {
    let Some(&first) = x.first() else { return };
    let mut acc = up(first);
    o[0] = first;
    for (dst, &v) in o[1..].iter_mut().zip(&x[1..]) {
        let next = add(acc, up(v));
        let stored = down(next);
        acc = if round { up(stored) } else { next };
        *dst = stored;
    }
}
