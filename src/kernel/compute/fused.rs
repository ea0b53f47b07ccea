//! The fused cast-and-compute path: a binary op over two slices of other dtypes, each element
//! cast on the fly ([`binary_cast`]).

use crate::dtype::Kind;
use crate::kernel::cast::Num;
use crate::kernel::simd;
use crate::op::Op;

use super::chunk::{arithmetic, flushes};
use super::*;

/// The ops [`binary_cast`] runs.
pub fn fusable(op: Op) -> bool {
    matches!(
        op,
        Op::Add
            | Op::Subtract
            | Op::Multiply
            | Op::Divide
            | Op::Maximum
            | Op::Minimum
            | Op::Equal
            | Op::NotEqual
            | Op::Less
            | Op::LessEqual
            | Op::Greater
            | Op::GreaterEqual
    )
}

/// A binary op over two slices of other dtypes, each element cast to `W` on the fly: one
/// pass, no chunk buffers (the fast path for common mixed pairs; see `exec`). `op` must be
/// [`fusable`]; the results are the same as casting first and running [`binary`].
pub fn binary_cast<SA: Num, SB: Num, W: Arith + FusedMulMaybe>(
    op: Op,
    a: &[SA],
    b: &[SB],
    out: Dst<'_, W>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    match out {
        out if needs_plain_path::<W>(sem, op, &out) => {
            let ca: Vec<W> = a.iter().map(|&x| W::from_num(x)).collect();
            let cb: Vec<W> = b.iter().map(|&x| W::from_num(x)).collect();
            binary(op, Src::Slice(&ca), Src::Slice(&cb), out, sem, None)
        }
        out => binary_cast_exact(op, a, b, out, sem),
    }
}

/// Whether a fused pair must cast first and run [`binary`] (what the fused loops do not
/// reproduce: flushing, Eigen's tail, XLA's complex order).
fn needs_plain_path<W: Arith>(sem: &Semantics, op: Op, out: &Dst<'_, W>) -> bool {
    match out {
        Dst::Same(_) => flushes::<W>(sem, op) || sem.eigen_complex_tail,
        Dst::Bool(_) => sem.complex_order_select && W::KIND == Kind::Complex,
    }
}

fn binary_cast_exact<SA: Num, SB: Num, W: Arith + FusedMulMaybe>(
    op: Op,
    a: &[SA],
    b: &[SB],
    out: Dst<'_, W>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    let (ca, cb) = (W::from_num::<SA>, W::from_num::<SB>);
    match out {
        Dst::Same(out) => match op {
            Op::Add if sem.complex_add_alpha && W::KIND == Kind::Complex => {
                let one = W::from_num(1.0f64);
                simd::map2(a, b, out, |x, y| W::add(ca(x), W::mul(cb(y), one)))
            }
            Op::Subtract if sem.complex_add_alpha && W::KIND == Kind::Complex => {
                let m1 = W::from_num(-1.0f64);
                simd::map2(a, b, out, |x, y| W::add(ca(x), W::mul(cb(y), m1)))
            }
            Op::Add => simd::map2(a, b, out, |x, y| W::add(ca(x), cb(y))),
            Op::Subtract => simd::map2(a, b, out, |x, y| W::sub(ca(x), cb(y))),
            Op::Multiply if sem.complex_mul_fma && W::HAS_FUSED => {
                simd::map2(a, b, out, |x, y| W::mul_maybe_fused(ca(x), cb(y)))
            }
            Op::Multiply => simd::map2(a, b, out, |x, y| W::mul(ca(x), cb(y))),
            Op::Divide if sem.complex_div == ComplexDiv::ScaledByMax => {
                let ftz = sem.flush_subnormals;
                simd::map2(a, b, out, |x, y| W::div_scaled(ca(x), cb(y), ftz))
            }
            Op::Divide if sem.complex_div == ComplexDiv::SmithPlain => {
                simd::map2(a, b, out, |x, y| W::div_smith_plain(ca(x), cb(y)))
            }
            Op::Divide if sem.complex_div == ComplexDiv::SmithFused => {
                let (x, y): (Vec<W>, Vec<W>) =
                    a.iter().zip(b).map(|(&x, &y)| (ca(x), cb(y))).unzip();
                return arithmetic(op, Src::Slice(&x), Src::Slice(&y), out, sem, None);
            }
            Op::Divide => simd::map2(a, b, out, |x, y| W::div(ca(x), cb(y))),
            Op::Maximum => simd::map2(a, b, out, |x, y| W::maximum(ca(x), cb(y))),
            Op::Minimum => simd::map2(a, b, out, |x, y| W::minimum(ca(x), cb(y))),
            _ => {
                return Err(KernelError::Unsupported {
                    op,
                    dtype: W::DTYPE,
                })
            }
        },
        Dst::Bool(out) => match op {
            Op::Equal if sem.float_equal_within_1e15 => {
                simd::map2(a, b, out, |x, y| W::ceq_within_1e15(ca(x), cb(y)))
            }
            Op::NotEqual if sem.float_equal_within_1e15 => {
                simd::map2(a, b, out, |x, y| !W::ceq_within_1e15(ca(x), cb(y)))
            }
            Op::Equal => simd::map2(a, b, out, |x, y| W::ceq(ca(x), cb(y))),
            Op::NotEqual => simd::map2(a, b, out, |x, y| W::cne(ca(x), cb(y))),
            Op::Less => simd::map2(a, b, out, |x, y| W::clt(ca(x), cb(y))),
            Op::LessEqual => simd::map2(a, b, out, |x, y| W::cle(ca(x), cb(y))),
            Op::Greater => simd::map2(a, b, out, |x, y| W::clt(cb(y), ca(x))),
            Op::GreaterEqual => simd::map2(a, b, out, |x, y| W::cle(cb(y), ca(x))),
            _ => {
                return Err(KernelError::Unsupported {
                    op,
                    dtype: W::DTYPE,
                })
            }
        },
    }
    Ok(())
}
