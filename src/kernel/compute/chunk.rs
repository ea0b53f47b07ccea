//! The binary kernels over one chunk: operands as slices or broadcast scalars ([`Src`]),
//! flushing of subnormals where the semantics ask, and each op class's loop.

use crate::dtype::Kind;
use crate::kernel::array::{Array, View};
use crate::kernel::simd;
use crate::op::Op;

use super::*;

/// One operand of a chunk: a slice of the chunk's length, or one value broadcast.
#[derive(Clone, Copy, Debug)]
pub enum Src<'a, W> {
    /// Elementwise.
    Slice(&'a [W]),
    /// Broadcast.
    Scalar(W),
}

/// Where a chunk's results go: the working type (arithmetic, bitwise) or bool (comparisons, logical).
pub enum Dst<'a, W> {
    /// Arithmetic results.
    Same(&'a mut [W]),
    /// Comparison and logical results.
    Bool(&'a mut [bool]),
}

/// Whether an op writes bool.
pub fn writes_bool(op: Op) -> bool {
    matches!(op.group(), "comparison" | "logical")
}

#[inline(always)]
fn apply<W: Copy, R>(a: Src<'_, W>, b: Src<'_, W>, out: &mut [R], f: impl Fn(W, W) -> R) {
    match (a, b) {
        (Src::Slice(x), Src::Slice(y)) => simd::map2(x, y, out, f),
        (Src::Slice(x), Src::Scalar(y)) => simd::map2_scalar(x, y, out, f),
        (Src::Scalar(x), Src::Slice(y)) => simd::scalar_map2(x, y, out, f),
        (Src::Scalar(x), Src::Scalar(y)) => {
            for o in out.iter_mut() {
                *o = f(x, y);
            }
        }
    }
}

/// Run a binary elementwise op over one chunk.
///
/// `half`: the compute dtype is float16/bfloat16 (working in f32), whose `maximum`/`minimum`
/// keep the first operand on ties (`0.0` vs `-0.0`), as NumPy's scalar half loops do; the
/// f32/f64 ones return the second, as its SIMD loops do. Formulas of several steps (JAX's
/// float `floor_divide`) round each step to it.
pub fn binary<W: Arith + FusedMulMaybe>(
    op: Op,
    a: Src<'_, W>,
    b: Src<'_, W>,
    out: Dst<'_, W>,
    sem: &Semantics,
    half: Option<Half>,
) -> Result<(), KernelError> {
    if sem.complex_order_select
        && W::KIND == Kind::Complex
        && matches!(op, Op::Maximum | Op::Minimum)
    {
        if let Dst::Same(out) = out {
            // a select of the operands as they are (compared with subnormals read as zero)
            let f = if op == Op::Maximum {
                W::xla_max
            } else {
                W::xla_min
            };
            apply(a, b, out, f);
            return Ok(());
        }
    }
    if sem.eigen_complex_tail && W::EIGEN_PACKET > 0 && matches!(op, Op::Multiply | Op::Divide) {
        if let Dst::Same(out) = out {
            binary_flushing(op, a, b, Dst::Same(&mut *out), sem, half)?;
            let g = if op == Op::Multiply {
                W::mul_annex_g
            } else {
                W::div_annex_g
            };
            let at = |s: Src<'_, W>, i: usize| match s {
                Src::Slice(x) => x[i],
                Src::Scalar(v) => v,
            };
            let fl = |v: W| if flushes::<W>(sem, op) { v.flush() } else { v };
            for i in out.len() - out.len() % W::EIGEN_PACKET..out.len() {
                out[i] = fl(g(fl(at(a, i)), fl(at(b, i))));
            }
            return Ok(());
        }
    }
    binary_flushing(op, a, b, out, sem, half)
}

/// [`binary`] without Eigen's scalar tail.
fn binary_flushing<W: Arith + FusedMulMaybe>(
    op: Op,
    a: Src<'_, W>,
    b: Src<'_, W>,
    out: Dst<'_, W>,
    sem: &Semantics,
    half: Option<Half>,
) -> Result<(), KernelError> {
    if !flushes::<W>(sem, op) {
        return binary_exact(op, a, b, out, sem, half);
    }
    // inputs read raw: every input was prepared (`prepare_inputs`) as the framework reads it
    let raw = (sem.float_pow_under_daz && op == Op::Power && W::KIND == Kind::Float)
        || (sem.logical_reads_bf16_raw && op.group() == "logical");
    if raw {
        return exact_then_flush(op, a, b, out, sem, half);
    }
    let (mut fa, mut fb) = (Vec::new(), Vec::new());
    let (a, b) = (flushed(a, &mut fa), flushed(b, &mut fb));
    exact_then_flush(op, a, b, out, sem, half)
}

/// [`binary_exact`], its results flushed (a bool result has nothing to flush).
fn exact_then_flush<W: Arith + FusedMulMaybe>(
    op: Op,
    a: Src<'_, W>,
    b: Src<'_, W>,
    out: Dst<'_, W>,
    sem: &Semantics,
    half: Option<Half>,
) -> Result<(), KernelError> {
    match out {
        Dst::Same(out) => {
            binary_exact(op, a, b, Dst::Same(&mut *out), sem, half)?;
            flush_slice(out);
            Ok(())
        }
        out => binary_exact(op, a, b, out, sem, half),
    }
}

/// An operand with its subnormals flushed (a slice's flushed copy is kept in `buf`).
fn flushed<'a, W: Arith>(x: Src<'a, W>, buf: &'a mut Vec<W>) -> Src<'a, W> {
    match x {
        Src::Scalar(v) => Src::Scalar(v.flush()),
        Src::Slice(x) => {
            *buf = x.iter().map(|v| v.flush()).collect();
            Src::Slice(buf)
        }
    }
}

/// Whether subnormals of the working type `W` are flushed for this op.
pub(super) fn flushes<W: Arith>(sem: &Semantics, op: Op) -> bool {
    matches!(W::KIND, Kind::Float | Kind::Complex) && sem.flushes(op)
}

fn flush_slice<W: Arith>(out: &mut [W]) {
    for o in out.iter_mut() {
        *o = o.flush();
    }
}

/// The inputs as the framework's kernels read them, where that differs from their values:
/// subnormals flushed to zero (float32, float64, bfloat16, complex; where the semantics flush
/// and the op is not exempt), and the non-bool operands of a bool `multiply` cast through
/// int32 (where `bool_multiply_via_int32`). `None` where nothing changes. `eval` runs this
/// before `execute`; the casts `execute` then does cannot create subnormals.
pub fn prepare_inputs(
    sem: &Semantics,
    plan: &crate::Plan,
    inputs: &[View<'_>],
) -> Option<Vec<Array>> {
    use crate::DType;
    // an op exempt from flushing still reads a float32 (or bfloat16, widened by a shift)
    // input converted to float64 through the CPU's conversion, which flushes
    let widened = |d: DType| {
        matches!(d, DType::Float32 | DType::BFloat16 | DType::Complex64)
            && matches!(plan.compute, DType::Float64 | DType::Complex128)
    };
    let flush = |d: DType| {
        sem.flush_subnormals
            && (widened(d)
                || (sem.flushes_in(plan.op, plan.compute)
                    && !sem.reads_raw(plan.op, plan.compute, d)))
    };
    let via_int32 =
        sem.bool_multiply_via_int32 && plan.op == Op::Multiply && plan.compute == DType::Bool;
    if !sem.flush_subnormals && !via_int32 {
        return None;
    }
    let prepare = |v: &View<'_>| -> Array {
        let v = if flush(v.dtype()) {
            flush_view(v)
        } else {
            v.to_array()
        };
        if via_int32 && v.dtype() != DType::Bool {
            let i = crate::kernel::cast::cast_array(v.view(), DType::Int32);
            return crate::kernel::cast::cast_array(i.view(), DType::Bool);
        }
        v
    };
    Some(inputs.iter().map(prepare).collect())
}

/// The whole result where the framework computes an op as something else
/// ([`Semantics::bool_multiply_selects`]: `bool ? other : 0`, the other operand cast to the
/// result dtype as it is); `None` where the kernels run. `eval` asks before `execute`.
pub fn computed_otherwise(
    sem: &Semantics,
    plan: &crate::Plan,
    inputs: &[View<'_>],
) -> Option<Array> {
    use crate::DType;
    // bfloat16 products are computed in f32 after a convert the rewrite does not see through
    let rewritten = !matches!(plan.result, DType::Bool | DType::BFloat16);
    if !sem.bool_multiply_selects || plan.op != Op::Multiply || !rewritten {
        return None;
    }
    let (p, x) = match inputs {
        [View::Bool(p), x] | [x, View::Bool(p)] if x.dtype() != DType::Bool => (*p, x),
        _ => return None,
    };
    let n = p.len().max(x.len());
    let broadcasts = |len: usize| len == n || len == 1;
    if n == 0 || !broadcasts(p.len()) || !broadcasts(x.len()) {
        return None;
    }
    let x = crate::kernel::cast::cast_array(*x, plan.result);
    fn select<T: crate::kernel::array::Element>(p: &[bool], x: &[T], n: usize) -> Array {
        let at = |i: usize, len: usize| if len == 1 { 0 } else { i };
        T::array(
            (0..n)
                .map(|i| {
                    if p[at(i, p.len())] {
                        x[at(i, x.len())]
                    } else {
                        T::default()
                    }
                })
                .collect(),
        )
    }
    Some(crate::each_dtype!(Array, &x, v, T => select::<T>(p, v, n)))
}

/// Subnormal float results written as zero, keeping the sign (the CPU's FTZ mode).
pub(crate) fn flush_in_place(v: crate::kernel::array::ViewMut<'_>) {
    use crate::kernel::array::ViewMut;
    fn each<T: Arith>(x: &mut [T]) {
        x.iter_mut().for_each(|v| *v = v.flush());
    }
    match v {
        ViewMut::Float32(x) => each(x),
        ViewMut::Float64(x) => each(x),
        ViewMut::Complex64(x) => each(x),
        ViewMut::Complex128(x) => each(x),
        ViewMut::BFloat16(x) => x
            .iter_mut()
            .for_each(|v| *v = half::bf16::from_f32(v.to_f32().flush())),
        _ => {}
    }
}

fn flush_view(v: &View<'_>) -> Array {
    fn each<T: Arith>(x: &[T]) -> Array {
        T::array(x.iter().map(|v| v.flush()).collect())
    }
    match v {
        View::Float32(x) => each(x),
        View::Float64(x) => each(x),
        View::Complex64(x) => each(x),
        View::Complex128(x) => each(x),
        View::BFloat16(x) => Array::from(
            x.iter()
                .map(|v| half::bf16::from_f32(v.to_f32().flush()))
                .collect::<Vec<_>>(),
        ),
        other => other.to_array(),
    }
}

fn binary_exact<W: Arith + FusedMulMaybe>(
    op: Op,
    a: Src<'_, W>,
    b: Src<'_, W>,
    out: Dst<'_, W>,
    sem: &Semantics,
    half: Option<Half>,
) -> Result<(), KernelError> {
    match out {
        Dst::Same(out) => arithmetic(op, a, b, out, sem, half),
        Dst::Bool(out) => comparison(op, a, b, out, sem),
    }
}

fn unsupported<W: Arith>(op: Op) -> KernelError {
    KernelError::Unsupported {
        op,
        dtype: W::DTYPE,
    }
}

/// PyTorch's complex division ([`ComplexDiv::SmithFused`]): contracted, but the odd last
/// element of a complex64 array (its loop's scalar remainder) plain.
fn torch_divide<W: Arith>(a: Src<'_, W>, b: Src<'_, W>, out: &mut [W]) {
    apply(a, b, out, W::div_smith_fused);
    if W::DTYPE == crate::DType::Complex64 && out.len() % 2 == 1 {
        let at = |s: Src<'_, W>, i: usize| match s {
            Src::Slice(x) => x[i],
            Src::Scalar(v) => v,
        };
        let last = out.len() - 1;
        out[last] = W::div(at(a, last), at(b, last));
    }
}

/// The ops whose result has the operands' dtype.
pub(super) fn arithmetic<W: Arith + FusedMulMaybe>(
    op: Op,
    a: Src<'_, W>,
    b: Src<'_, W>,
    out: &mut [W],
    sem: &Semantics,
    half: Option<Half>,
) -> Result<(), KernelError> {
    match op {
        Op::Add if sem.complex_add_alpha && W::KIND == Kind::Complex => {
            let one = W::from_num(1.0f64);
            apply(a, b, out, |x: W, y: W| W::add(x, W::mul(y, one)))
        }
        Op::Subtract if sem.complex_add_alpha && W::KIND == Kind::Complex => {
            let m1 = W::from_num(-1.0f64);
            apply(a, b, out, |x: W, y: W| W::add(x, W::mul(y, m1)))
        }
        Op::Add => apply(a, b, out, W::add),
        Op::Subtract => apply(a, b, out, W::sub),
        Op::Multiply => {
            if sem.complex_mul_fma && W::HAS_FUSED {
                apply(a, b, out, W::mul_maybe_fused)
            } else {
                apply(a, b, out, W::mul)
            }
        }
        Op::Divide if sem.complex_div == ComplexDiv::ScaledByMax => {
            let ftz = sem.flush_subnormals;
            apply(a, b, out, |x, y| W::div_scaled(x, y, ftz))
        }
        Op::Divide if W::INT && sem.int_div_zero == IntDivZero::Xla => apply(a, b, out, W::div_xla),
        Op::Divide
            if sem.int_div_zero == IntDivZero::Error
                && W::KIND == Kind::Bool
                && has(b, |x| x == W::zero()) =>
        {
            return Err(KernelError::DivisionByZero);
        }
        Op::Divide if sem.complex_div == ComplexDiv::SmithPlain => {
            apply(a, b, out, W::div_smith_plain)
        }
        Op::Divide if sem.complex_div == ComplexDiv::XlaSmith => apply(a, b, out, W::xla_div),
        Op::Divide if sem.complex_div == ComplexDiv::SmithFused => torch_divide(a, b, out),
        Op::Divide => apply(a, b, out, W::div),
        Op::FloorDivide | Op::Remainder => return floor_or_remainder(op, a, b, out, sem, half),
        Op::Power => return power(a, b, out, sem),
        Op::Maximum if half.is_some() && sem.half_minmax_first => {
            apply(
                a,
                b,
                out,
                |x: W, y: W| if W::cle(y, x) || x.isnan() { x } else { y },
            )
        }
        Op::Minimum if half.is_some() && sem.half_minmax_first => {
            apply(
                a,
                b,
                out,
                |x: W, y: W| if W::cle(x, y) || x.isnan() { x } else { y },
            )
        }
        Op::Maximum if sem.minmax_first_on_ties => apply(a, b, out, W::xla_max),
        Op::Minimum if sem.minmax_first_on_ties => apply(a, b, out, W::xla_min),
        Op::Maximum => apply(a, b, out, W::maximum),
        Op::Minimum => apply(a, b, out, W::minimum),
        Op::BitwiseAnd | Op::BitwiseOr | Op::BitwiseXor => {
            if !W::BITWISE {
                return Err(unsupported::<W>(op));
            }
            match op {
                Op::BitwiseAnd => apply(a, b, out, W::band),
                Op::BitwiseOr => apply(a, b, out, W::bor),
                _ => apply(a, b, out, W::bxor),
            }
        }
        _ => return Err(unsupported::<W>(op)),
    }
    Ok(())
}

/// `floor_divide` and `remainder`: division by zero and the float formulas per semantics.
fn floor_or_remainder<W: Arith + FusedMulMaybe>(
    op: Op,
    a: Src<'_, W>,
    b: Src<'_, W>,
    out: &mut [W],
    sem: &Semantics,
    half: Option<Half>,
) -> Result<(), KernelError> {
    if !W::FLOOR {
        return Err(unsupported::<W>(op));
    }
    let by_zero = W::INT && has(b, |x| x == W::zero());
    if by_zero && sem.int_div_zero == IntDivZero::Error {
        return Err(KernelError::DivisionByZero);
    }
    if by_zero && sem.int_div_zero == IntDivZero::Xla {
        let f = if op == Op::FloorDivide {
            W::floor_div_xla
        } else {
            W::rem_xla
        };
        apply(a, b, out, f)
    } else if op == Op::FloorDivide
        && W::KIND == Kind::Float
        && sem.float_floor_divide == FloatFloorDiv::JaxDivmod
    {
        let ftz = flushes::<W>(sem, op);
        let store = |x: W| {
            let x = half.map_or(x, |h| h.round(x));
            if ftz {
                x.flush()
            } else {
                x
            }
        };
        apply(a, b, out, |x, y| W::xla_floor_div(x, y, store))
    } else if op == Op::FloorDivide
        && W::KIND == Kind::Float
        && sem.float_floor_divide == FloatFloorDiv::FloorOfQuotient
    {
        let ftz = sem.flush_subnormals;
        apply(a, b, out, |x, y| W::floor_div_quotient(x, y, ftz))
    } else if op == Op::FloorDivide {
        apply(a, b, out, W::floor_div)
    } else if !sem.rem_zero_divisor_sign && W::KIND == Kind::Float && sem.flush_subnormals {
        apply(a, b, out, W::rem_fmod_zero_daz)
    } else if !sem.rem_zero_divisor_sign && W::KIND == Kind::Float {
        apply(a, b, out, W::rem_fmod_zero)
    } else {
        apply(a, b, out, W::rem)
    }
    Ok(())
}

/// `power`: XLA's, via float64, negative integer exponents, the C library's complex pow.
fn power<W: Arith + FusedMulMaybe>(
    a: Src<'_, W>,
    b: Src<'_, W>,
    out: &mut [W],
    sem: &Semantics,
) -> Result<(), KernelError> {
    if (W::INT && sem.int_pow_low_six_bits)
        || (W::KIND == Kind::Complex && sem.complex_pow_xla)
        || (W::KIND == Kind::Float && sem.float_pow_under_daz)
    {
        apply(a, b, out, W::xla_pow)
    } else if W::INT && sem.wide_int_pow_via_f64 {
        apply(a, b, out, W::pow_via_f64)
    } else if W::INT && sem.int_pow_negative_values {
        apply(a, b, out, W::pow_any)
    } else if W::INT && has(b, W::negative) {
        return Err(KernelError::NegativePower);
    } else if sem.complex_pow_libm && W::KIND == Kind::Complex {
        apply(a, b, out, W::pow_libm)
    } else {
        apply(a, b, out, W::pow)
    }
    Ok(())
}

/// Comparisons and logical ops: a bool result.
fn comparison<W: Arith + FusedMulMaybe>(
    op: Op,
    a: Src<'_, W>,
    b: Src<'_, W>,
    out: &mut [bool],
    sem: &Semantics,
) -> Result<(), KernelError> {
    match op {
        Op::Equal if sem.float_equal_within_1e15 => apply(a, b, out, W::ceq_within_1e15),
        Op::NotEqual if sem.float_equal_within_1e15 => {
            apply(a, b, out, |x, y| !W::ceq_within_1e15(x, y))
        }
        Op::Equal => apply(a, b, out, W::ceq),
        Op::NotEqual => apply(a, b, out, W::cne),
        Op::Less if sem.complex_order_select => apply(a, b, out, W::xla_lt),
        Op::LessEqual if sem.complex_order_select => apply(a, b, out, W::xla_le),
        Op::Greater if sem.complex_order_select => apply(b, a, out, W::xla_lt),
        Op::GreaterEqual if sem.complex_order_select => apply(b, a, out, W::xla_le),
        Op::Less => apply(a, b, out, W::clt),
        Op::LessEqual => apply(a, b, out, W::cle),
        Op::Greater => apply(b, a, out, W::clt),
        Op::GreaterEqual => apply(b, a, out, W::cle),
        Op::LogicalAnd => apply(a, b, out, |x: W, y: W| x.nonzero() & y.nonzero()),
        Op::LogicalOr => apply(a, b, out, |x: W, y: W| x.nonzero() | y.nonzero()),
        Op::LogicalXor => apply(a, b, out, |x: W, y: W| x.nonzero() ^ y.nonzero()),
        _ => return Err(unsupported::<W>(op)),
    }
    Ok(())
}

fn has<W: Copy>(s: Src<'_, W>, f: impl Fn(W) -> bool) -> bool {
    match s {
        Src::Slice(x) => x.iter().any(|&v| f(v)),
        Src::Scalar(v) => f(v),
    }
}
