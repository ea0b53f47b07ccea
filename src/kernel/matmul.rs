//! `matmul` of n-d operands, NumPy's shape rules, each framework's order of summation.
//!
//! Shapes: a 1-d left operand is a row (its added axis dropped from the result), a 1-d right
//! operand a column; operands of 3 or more dimensions are stacks of matrices whose leading
//! (batch) dimensions broadcast. Each output element sums its `k` products in order, `k = 0, 1,
//! …`, the way the framework's CPU kernel does ([`MatmulSum`], the policy's semantics):
//! recorded by `tools/oracle/record_values_matmul.py`, replayed by `tests/matmul_values.rs`.
//! float16/bfloat16 sum in float32 and round once; integers wrap; bool is "any `a & b`".
//!
//! ```
//! use promote::kernel::{matmul, Array, Semantics};
//! use promote::{builtin, Call, Policy};
//! let plan = builtin("numpy").unwrap().resolve(&"matmul int32 int32".parse::<Call>().unwrap()).unwrap();
//! let a = Array::from(vec![1i32, 2, 3, 4, 5, 6]); // 2 x 3
//! let b = Array::from(vec![1i32, 0, 1]); // 3
//! let (r, shape) = matmul(&plan, a.view(), &[2, 3], b.view(), &[3], &Semantics::NUMPY).unwrap();
//! assert_eq!((r, shape), (Array::from(vec![4i32, 10]), vec![2]));
//! ```

use super::array::{Array, View, ViewMut};
use super::cast::{cast_array, cast_view};
use super::compute::{Arith, KernelError, Semantics};
use super::exec::Work;
use crate::dtype::DType;
use crate::plan::Plan;
use crate::with_dtype;

/// How one output element of a matmul sums its products (over `k`, in order, from `+0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatmulSum {
    /// The compute dtypes whose products are fused into the running sum
    /// (`fma(a_k, b_k, acc)`, as OpenBLAS's GEMM kernels do), not rounded on their own first.
    pub fused: &'static [DType],
    /// The compute dtypes where one product (`k = 1`) is the result as it is (`-0.0` kept), not
    /// `+0 + a·b` (PyTorch's MKL GEMM; XLA rewrites such a dot into a multiply).
    pub lone_product: &'static [DType],
    /// Complex: the four real products `ar·br`, `ai·bi`, `ar·bi`, `ai·br` are summed apart over
    /// `k` and combined at the end (`re = Σar·br − Σai·bi`), then (for `k ≥ 2`) multiplied by
    /// `alpha = 1+0j` as a complex product, as OpenBLAS's ZGEMM kernels do (so an `inf·0` NaN
    /// in one part reaches both); otherwise each complex product is added to the complex sum.
    pub complex_parts_apart: bool,
    /// The integer compute dtypes summed in float32 (each operand rounded to float32, the sum
    /// as float32's) and converted back as x86 does (out of range: the dtype's minimum): Paddle's
    /// CPU int32/int64 matmul.
    pub int_via_float32: &'static [DType],
}

/// The sizes of a matmul: `batch` stacked `m × k` by `k × n` products, the offsets of each
/// stack's left and right matrix, and the result's shape.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Dims {
    m: usize,
    k: usize,
    n: usize,
    /// (left offset, right offset) of each matrix pair, in result order.
    pairs: Vec<(usize, usize)>,
    shape: Vec<usize>,
}

fn shape_error(msg: String) -> KernelError {
    KernelError::Shape(msg)
}

/// The strides (in matrices) of a batch shape broadcast to `out` (0 where it broadcasts).
fn batch_offsets(batch: &[usize], out: &[usize], size: usize) -> Vec<usize> {
    let lead = out.len() - batch.len();
    let mut strides = vec![0; out.len()];
    let mut s = size;
    for (i, &d) in batch.iter().enumerate().rev() {
        strides[lead + i] = if d == 1 { 0 } else { s };
        s *= d;
    }
    let total: usize = out.iter().product();
    (0..total)
        .map(|mut flat| {
            let mut off = 0;
            for (d, st) in out.iter().zip(&strides).rev() {
                off += (flat % d) * st;
                flat /= d;
            }
            off
        })
        .collect()
}

/// NumPy's matmul shape rules.
fn dims(a: &[usize], b: &[usize]) -> Result<Dims, KernelError> {
    if a.is_empty() || b.is_empty() {
        return Err(shape_error(
            "matmul: an operand is 0-d; matmul takes arrays of one or more dimensions (use multiply for scalars)".into(),
        ));
    }
    let (m, ka) = if a.len() == 1 {
        (1, a[0])
    } else {
        (a[a.len() - 2], a[a.len() - 1])
    };
    let (kb, n) = if b.len() == 1 {
        (b[0], 1)
    } else {
        (b[b.len() - 2], b[b.len() - 1])
    };
    if ka != kb {
        return Err(shape_error(format!(
            "matmul: shapes {a:?} and {b:?}: the core dimensions {ka} and {kb} must match"
        )));
    }
    let ba = &a[..a.len().saturating_sub(2)];
    let bb = &b[..b.len().saturating_sub(2)];
    let mut batch = vec![1; ba.len().max(bb.len())];
    for (side, other) in [(ba, bb), (bb, ba)] {
        for (i, &d) in side.iter().rev().enumerate() {
            let slot = batch.len() - 1 - i;
            let o = other.len().checked_sub(i + 1).map_or(1, |j| other[j]);
            if d != 1 && o != 1 && d != o {
                return Err(shape_error(format!(
                    "matmul: shapes {a:?} and {b:?}: the batch dimensions do not broadcast"
                )));
            }
            batch[slot] = batch[slot].max(d);
        }
    }
    let offs_a = batch_offsets(ba, &batch, m * ka);
    let offs_b = batch_offsets(bb, &batch, ka * n);
    let mut shape = batch;
    if a.len() > 1 {
        shape.push(m);
    }
    if b.len() > 1 {
        shape.push(n);
    }
    Ok(Dims {
        m,
        k: ka,
        n,
        pairs: offs_a.into_iter().zip(offs_b).collect(),
        shape,
    })
}

/// [`MatmulSum`] for one compute dtype.
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    fused: bool,
    lone_product: bool,
    parts_apart: bool,
}

impl MatmulSum {
    fn steps(&self, compute: DType) -> Steps {
        Steps {
            fused: self.fused.contains(&compute),
            lone_product: self.lone_product.contains(&compute),
            parts_apart: self.complex_parts_apart,
        }
    }
}

/// `acc + a·b` in a working type, the way [`MatmulSum`] says.
pub trait MulAcc: Arith {
    /// One step of the sum.
    fn mul_acc(acc: Self, a: Self, b: Self, _fused: bool) -> Self {
        if Self::DTYPE == DType::Bool {
            return Self::bor(acc, Self::band(a, b));
        }
        Self::add(acc, Self::mul(a, b))
    }
    /// The whole sum of `k` products `a[i·sa]·b[i·sb]`.
    fn dot(a: &[Self], sa: usize, b: &[Self], sb: usize, k: usize, how: Steps) -> Self {
        let mut acc = Self::zero();
        if k == 1 && how.lone_product && Self::DTYPE != DType::Bool {
            return Self::mul(a[0], b[0]);
        }
        for i in 0..k {
            acc = Self::mul_acc(acc, a[i * sa], b[i * sb], how.fused);
        }
        acc
    }
}

macro_rules! mul_acc_plain {
    ($($t:ty),*) => {$( impl MulAcc for $t {} )*};
}
mul_acc_plain!(bool, u8, u16, u32, u64, i8, i16, i32, i64);

macro_rules! mul_acc_float {
    ($($t:ty),*) => {$(
        impl MulAcc for $t {
            #[inline(always)]
            fn mul_acc(acc: $t, a: $t, b: $t, fused: bool) -> $t {
                if fused { a.mul_add(b, acc) } else { acc + a * b }
            }
        }
    )*};
}
mul_acc_float!(f32, f64);

macro_rules! mul_acc_complex {
    ($($c:ty, $r:ty);*) => {$(
        impl MulAcc for $c {
            #[inline(always)]
            fn mul_acc(acc: $c, a: $c, b: $c, fused: bool) -> $c {
                if fused {
                    let re = a.re.mul_add(b.re, (-a.im).mul_add(b.im, acc.re));
                    let im = a.re.mul_add(b.im, a.im.mul_add(b.re, acc.im));
                    <$c>::new(re, im)
                } else {
                    acc + a * b
                }
            }
            fn dot(a: &[$c], sa: usize, b: &[$c], sb: usize, k: usize, how: Steps) -> $c {
                if k == 1 && how.lone_product {
                    return a[0] * b[0];
                }
                if !how.parts_apart {
                    let mut acc = <$c>::new(0.0, 0.0);
                    for i in 0..k {
                        acc = Self::mul_acc(acc, a[i * sa], b[i * sb], how.fused);
                    }
                    return acc;
                }
                let f = |acc: $r, x: $r, y: $r| if how.fused { x.mul_add(y, acc) } else { acc + x * y };
                let (mut rr, mut ii, mut ri, mut ir) = (0.0 as $r, 0.0 as $r, 0.0 as $r, 0.0 as $r);
                for i in 0..k {
                    let (x, y) = (a[i * sa], b[i * sb]);
                    rr = f(rr, x.re, y.re);
                    ii = f(ii, x.im, y.im);
                    ri = f(ri, x.re, y.im);
                    ir = f(ir, x.im, y.re);
                }
                let sum = <$c>::new(rr - ii, ri + ir);
                if k < 2 {
                    return sum;
                }
                // the store's `alpha · sum` with alpha = 1+0j, a complex product: an inf·0 NaN
                // in one part reaches both
                <$c>::new(1.0 * sum.re - 0.0 * sum.im, 1.0 * sum.im + 0.0 * sum.re)
            }
        }
    )*};
}
mul_acc_complex!(super::array::C32, f32; super::array::C64, f64);

/// An operand in the compute dtype's working type (cast through the plan's input dtype).
fn working<T: Work>(v: View<'_>, via: crate::DType, flush: bool) -> Vec<T::W>
where
    T::W: MulAcc,
{
    let mut a = if v.dtype() == via {
        v.to_array()
    } else {
        cast_array(v, via)
    };
    if via != T::DTYPE {
        a = cast_array(a.view(), T::DTYPE);
    }
    let s = T::slice(a.view()).expect("cast to the compute dtype");
    s.iter()
        .map(|&x| if flush { x.widen().flush() } else { x.widen() })
        .collect()
}

fn run<T: Work>(plan: &Plan, a: View<'_>, b: View<'_>, d: &Dims, sem: &Semantics) -> Array
where
    T::W: MulAcc,
{
    let flush = sem.flushes(plan.op);
    let wa = working::<T>(a, plan.inputs[0], flush);
    let wb = working::<T>(b, plan.inputs[1], flush);
    let how = sem.matmul.steps(T::DTYPE);
    let mut out: Vec<T> = Vec::with_capacity(d.pairs.len() * d.m * d.n);
    for &(oa, ob) in &d.pairs {
        for i in 0..d.m {
            for j in 0..d.n {
                // k = 0: no products (and no elements to slice from)
                let (ra, cb) = (wa.get(oa + i * d.k..), wb.get(ob + j..));
                let r = T::W::dot(ra.unwrap_or(&[]), 1, cb.unwrap_or(&[]), d.n, d.k, how);
                out.push(T::narrow(if flush { r.flush() } else { r }));
            }
        }
    }
    T::array(out)
}

/// `a @ b` for operands of these shapes (row-major data): the values in the plan's result
/// dtype, and the result's shape. Shapes that do not multiply are a [`KernelError::Shape`].
///
/// ```
/// use promote::kernel::{matmul, Array, Semantics};
/// use promote::{builtin, Call, Policy};
/// let plan = builtin("numpy").unwrap().resolve(&"matmul int8 int8".parse::<Call>().unwrap()).unwrap();
/// let (a, b) = (Array::from(vec![1i8, 2, 3, 4]), Array::from(vec![1i8, 1]));
/// let (out, shape) = matmul(&plan, a.view(), &[2, 2], b.view(), &[2], &Semantics::NUMPY).unwrap();
/// assert_eq!((out, shape), (Array::from(vec![3i8, 7]), vec![2]));
/// ```
pub fn matmul(
    plan: &Plan,
    a: View<'_>,
    a_shape: &[usize],
    b: View<'_>,
    b_shape: &[usize],
    sem: &Semantics,
) -> Result<(Array, Vec<usize>), KernelError> {
    for (v, s) in [(a, a_shape), (b, b_shape)] {
        let n = s.iter().try_fold(1usize, |n, &d| n.checked_mul(d));
        if n != Some(v.len()) {
            return Err(shape_error(format!(
                "matmul: {} values for the shape {s:?}",
                v.len()
            )));
        }
    }
    if plan.inputs.len() != 2 {
        return Err(shape_error("matmul takes two operands".into()));
    }
    let d = dims(a_shape, b_shape)?;
    if sem.matmul.int_via_float32.contains(&plan.compute) {
        let f32_plan = Plan {
            inputs: vec![DType::Float32, DType::Float32],
            compute: DType::Float32,
            ..plan.clone()
        };
        let [a, b] = [(a, plan.inputs[0]), (b, plan.inputs[1])]
            .map(|(v, via)| cast_array(cast_array(v, via).view(), DType::Float32));
        let out = run::<f32>(&f32_plan, a.view(), b.view(), &d, sem);
        return Ok((cast_array(out.view(), plan.result), d.shape));
    }
    let out = with_dtype!(plan.compute, T => run::<T>(plan, a, b, &d, sem));
    let out = if out.dtype() == plan.result {
        out
    } else {
        cast_array(out.view(), plan.result)
    };
    Ok((out, d.shape))
}

/// The kernel of `matmul` in `eval` (the dispatch table's): two vectors, the dot product.
pub(crate) fn run_dot(
    plan: &Plan,
    inputs: &[View<'_>],
    out: ViewMut<'_>,
    sem: &Semantics,
) -> Result<(), KernelError> {
    let (a, b) = (inputs[0], inputs[1]);
    let (r, _) = matmul(plan, a, &[a.len()], b, &[b.len()], sem)?;
    cast_view(r.view(), out);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_follow_numpy() {
        let d = dims(&[2, 3, 4], &[4, 5]).unwrap();
        assert_eq!(
            (d.shape.clone(), d.pairs.clone()),
            (vec![2, 3, 5], vec![(0, 0), (12, 0)])
        );
        assert_eq!(dims(&[4], &[4]).unwrap().shape, Vec::<usize>::new());
        assert_eq!(dims(&[4], &[4, 3]).unwrap().shape, vec![3]);
        assert_eq!(dims(&[1, 2, 3], &[4, 3, 2]).unwrap().shape, vec![4, 2, 2]);
        assert!(dims(&[2, 3], &[4, 2]).is_err());
        assert!(dims(&[2, 2, 3], &[3, 3, 2]).is_err());
        assert!(dims(&[], &[3]).is_err());
    }

    #[test]
    fn empty_and_oversized_shapes_are_answers_not_panics() {
        use crate::{builtin, Call, Policy};
        let numpy = builtin("numpy").unwrap();
        let plan = numpy
            .resolve(&"matmul float32 float32".parse::<Call>().unwrap())
            .unwrap();
        let none = Array::from(Vec::<f32>::new());
        let (r, shape) = matmul(
            &plan,
            none.view(),
            &[2, 0],
            none.view(),
            &[0, 3],
            &Semantics::NUMPY,
        )
        .unwrap();
        assert_eq!((r, shape), (Array::from(vec![0.0f32; 6]), vec![2, 3]));
        let one = Array::from(vec![1.0f32]);
        let huge = [usize::MAX, 2];
        assert!(matmul(
            &plan,
            one.view(),
            &huge,
            one.view(),
            &[1],
            &Semantics::NUMPY
        )
        .is_err());
    }
}
