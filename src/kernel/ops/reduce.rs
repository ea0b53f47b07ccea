//! Reductions and cumulative ops over the whole array or one axis, in the framework's order.
//!
//! A reduction runs on *lanes*: the whole (flattened) array is one lane; along an axis, each
//! position of the other axes is one. Sums over a contiguous lane follow the framework
//! ([`Summation`]): NumPy's pairwise sum, or PyTorch's cascade sum (four interleaved
//! accumulators of SIMD vectors, each a cascade of four levels, [`cascade_sum`]); sums across
//! rows (a lane with a stride) add in order, as both frameworks do. `mean` divides the sum by
//! the count in the compute dtype; `var`/`std` are NumPy's two passes (mean, then the sum of
//! squared deviations), or PyTorch's: a whole float32/float64 array in double precision around
//! the mean, along an axis by Welford's update in double precision.
//!
//! ```
//! use promote::kernel::ops::{kernel, Args};
//! use promote::kernel::{Array, Semantics};
//! use promote::DType;
//! let cumsum = kernel("cumsum", &Semantics::NUMPY).unwrap();
//! let x = Array::from(vec![1i8, 2, 3, 4, 5, 6]);
//! let args = Args { inputs: &[x.view()], compute: DType::Int64, result: DType::Int64,
//!                   shape: &[2, 3], axis: Some(0) };
//! assert_eq!(cumsum.run(&args).unwrap()[0], Array::from(vec![1i64, 2, 3, 5, 7, 9]));
//! ```

use super::{order, with_slice, Args, OpError, OpSemantics, Scan, Summation};
use crate::kernel::array::Array;
use crate::kernel::cast::Num;
use crate::kernel::compute::{Arith, KernelError, Sum};
use crate::kernel::exec::Work;
use crate::{with_dtype, DType};

/// A reduction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Reduce {
    Sum,
    Prod,
    Mean,
    Max,
    Min,
    Argmax,
    Cumsum,
    Cumprod,
    Any,
    All,
    Var,
    Std,
}

impl Reduce {
    /// A scan (`cumsum`, `cumprod`): one result per element, not one per lane.
    pub fn is_cumulative(self) -> bool {
        matches!(self, Reduce::Cumsum | Reduce::Cumprod)
    }
}

/// The reductions by NumPy name.
pub const NAMES: &[(&str, Reduce)] = &[
    ("sum", Reduce::Sum),
    ("prod", Reduce::Prod),
    ("mean", Reduce::Mean),
    ("max", Reduce::Max),
    ("min", Reduce::Min),
    ("argmax", Reduce::Argmax),
    ("cumsum", Reduce::Cumsum),
    ("cumprod", Reduce::Cumprod),
    ("any", Reduce::Any),
    ("all", Reduce::All),
    ("var", Reduce::Var),
    ("std", Reduce::Std),
];

/// The reduction of a NumPy name.
pub fn lookup(name: &str) -> Option<(&'static str, Reduce)> {
    NAMES.iter().find(|(n, _)| *n == name).copied()
}

/// The lanes of a reduction: `outer` groups of `len` elements `stride` apart, `stride` lanes per
/// group (row-major: element `i` of lane `(o, j)` is at `o·len·stride + i·stride + j`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lanes {
    pub(crate) outer: usize,
    pub(crate) len: usize,
    pub(crate) stride: usize,
}

impl Lanes {
    fn of(args: &Args<'_>, n: usize) -> Result<Lanes, KernelError> {
        let shape: Vec<usize> = if args.shape.is_empty() {
            vec![n]
        } else {
            args.shape.to_vec()
        };
        if shape.iter().product::<usize>() != n {
            return Err(KernelError::Shape(format!(
                "shape {shape:?} does not hold {n} elements"
            )));
        }
        match args.axis {
            None => Ok(Lanes {
                outer: 1,
                len: n,
                stride: 1,
            }),
            Some(k) if k < shape.len() => Ok(Lanes {
                outer: shape[..k].iter().product(),
                len: shape[k],
                stride: shape[k + 1..].iter().product(),
            }),
            Some(k) => Err(KernelError::Shape(format!(
                "axis {k} is out of range for shape {shape:?}"
            ))),
        }
    }
    pub(crate) fn count(&self) -> usize {
        self.outer * self.stride
    }
    /// The element indices of lane `l`.
    pub(crate) fn lane(&self, l: usize) -> impl Iterator<Item = usize> {
        let (o, j) = (l / self.stride, l % self.stride);
        let (base, stride) = (o * self.len * self.stride + j, self.stride);
        (0..self.len).map(move |i| base + i * stride)
    }
}

/// Runs a reduction: the operand cast to `args.compute`, reduced lane by lane, the values cast
/// to `args.result`; `Ok(None)` when the compute dtype has no such reduction.
pub fn run(op: Reduce, s: &OpSemantics, args: &Args<'_>) -> Result<Option<Array>, OpError> {
    let lanes = Lanes::of(args, args.inputs[0].len())?;
    let double = match args.compute {
        DType::Float32 => DType::Float64,
        DType::Complex64 => DType::Complex128,
        d => d,
    };
    let out = match op {
        Reduce::Var | Reduce::Std => super::var::run(op == Reduce::Std, s, args, lanes),
        // PyTorch accumulates float32/complex64 cumulative ops in double precision
        Reduce::Cumsum | Reduce::Cumprod if s.cumulative_in_double && double != args.compute => {
            // the operand in the compute dtype first, then widened
            let narrow = crate::kernel::cast::cast_array(args.inputs[0], args.compute);
            let inputs = [narrow.view()];
            let wide = Args {
                compute: double,
                inputs: &inputs,
                ..*args
            };
            with_dtype!(double, T => typed::<T>(op, s, &wide, lanes))
                .map(|a| super::into_dtype(a, args.compute))
        }
        _ => with_dtype!(args.compute, T => typed::<T>(op, s, args, lanes)),
    };
    Ok(out.map(|a| super::into_dtype(a, args.result)))
}

fn typed<T: Work>(op: Reduce, s: &OpSemantics, args: &Args<'_>, lanes: Lanes) -> Option<Array> {
    with_slice!(args.inputs[0], T::DTYPE, T, x => {
        let lane = |l: usize| lanes.lane(l).map(|i| x[i]);
        let n = lanes.count();
        let each = |f: &dyn Fn(usize) -> T| T::array((0..n).map(f).collect());
        Some(match op {
            Reduce::Sum => each(&|l| {
                T::narrow(sum_lane::<T>(x, lanes, l, s))
            }),
            Reduce::Prod => each(&|l| prod_lane::<T>(x, lanes, l, s)),
            // a mean computed in bool (Paddle's `mean` of a bool tensor answers a bool): the
            // mean cast to bool, nonzero where any element is (or the lane is empty: 0/0)
            Reduce::Mean if T::DTYPE.is_bool() => Array::from(
                (0..n).map(|l| lanes.len == 0 || lane(l).any(|v| v.nonzero())).collect::<Vec<_>>(),
            ),
            Reduce::Mean => each(&|l| mean_lane::<T>(x, lanes, l, s)),
            Reduce::Max | Reduce::Min if ordered::<T>(s) && s.selects_compare_flushed && T::DTYPE.is_complex() => {
                each(&|l| T::narrow(xla_complex_extremum::<T>(op == Reduce::Max, lane(l))))
            }
            Reduce::Max => each(&|l| T::narrow(fold(lane(l), T::W::maximum))),
            Reduce::Min => each(&|l| T::narrow(fold(lane(l), T::W::minimum))),
            Reduce::Argmax => Array::from((0..n).map(|l| argmax::<T>(lane(l), s.argmax_skips_nan) as i64).collect::<Vec<_>>()),
            Reduce::Any => Array::from((0..n).map(|l| lane(l).any(|v| v.nonzero())).collect::<Vec<_>>()),
            Reduce::All => Array::from((0..n).map(|l| lane(l).all(|v| v.nonzero())).collect::<Vec<_>>()),
            Reduce::Cumsum | Reduce::Cumprod if s.scan == Scan::XlaWindows => {
                xla_scans::<T>(op, s, x, lanes)
            }
            Reduce::Cumsum | Reduce::Cumprod => running_scans::<T>(op, s, x, lanes),
            Reduce::Var | Reduce::Std => return None,
        })
    })
}

/// The product of lane `l` in the framework's order: XLA's windows, PyTorch's SIMD lanes
/// (a contiguous lane, every step in the dtype), or in order (each partial product rounded
/// to the dtype where the framework stores it).
fn prod_lane<T: Work>(x: &[T], lanes: Lanes, l: usize, s: &OpSemantics) -> T {
    let vals = || lanes.lane(l).map(|i| x[i].widen()).collect::<Vec<T::W>>();
    if ordered::<T>(s) {
        return T::narrow(order::xla_tree(&vals(), one::<T>(), reduce_mul::<T>(s)));
    }
    if s.summation == Summation::EigenTree && T::DTYPE.is_inexact() {
        return T::narrow(eigen_tree_lane::<T>(
            x,
            lanes,
            l,
            (one::<T>(), T::W::mul),
            false,
        ));
    }
    let m = mul::<T>(s.complex_mul_fma && !(lanes.stride == 1 && s.prod_contiguous_plain));
    if s.summation == Summation::Eigen && lanes.stride == 1 && T::DTYPE.is_inexact() {
        return T::narrow(eigen_lane::<T>(
            lanes.lane(l).map(|i| x[i]),
            one::<T>(),
            m,
            false,
        ));
    }
    if s.summation == Summation::Cascade && T::DTYPE.is_inexact() {
        return T::narrow(torch_prod::<T>(&vals(), lanes, l));
    }
    let round = s.prod_rounds_each_step || (lanes.stride > 1 && s.cumulative_rounds);
    let step = |a: T::W, v: T::W| {
        let p = m(a, v);
        if round {
            T::narrow(p).widen()
        } else {
            p
        }
    };
    T::narrow(vals().into_iter().fold(one::<T>(), step))
}

/// PyTorch's `prod` of lane `l` (`binary_kernel_reduce_vec` in `aten/src/ATen/native/cpu/
/// Reduce.h`, its AVX2 kernel: `prod_stub` has no AVX-512 one, so vectors of 32 bytes), every
/// step in the dtype. `Vectorized<complex>`'s `operator*` multiplies plainly; the scalar
/// `c10::complex` `operator*=` compiles to fused multiply-adds (the recordings show it). A
/// contiguous lane is [`order::torch_inner`]; across rows (`vectorized_outer_reduction`) the
/// first `stride − stride mod 4·width` columns run in vectors (in order, then times the
/// identity), the rest through the scalar loop.
fn torch_prod<T: Work>(vals: &[T::W], lanes: Lanes, l: usize) -> T::W {
    let width = 32 / std::mem::size_of::<T>();
    let vector = |a: T::W, b: T::W| T::narrow(T::W::mul(a, b)).widen();
    let scalar = |a: T::W, b: T::W| {
        T::narrow(<T::W as crate::kernel::compute::FusedMulMaybe>::mul_maybe_fused(a, b)).widen()
    };
    if lanes.stride == 1 {
        return order::torch_inner(vals, one::<T>(), (vector, scalar), width);
    }
    match vals.split_first() {
        Some((&first, rest)) if l % lanes.stride < lanes.stride - lanes.stride % (4 * width) => {
            vector(rest.iter().fold(first, |a, &v| vector(a, v)), one::<T>())
        }
        _ => vals.iter().fold(one::<T>(), |a, &v| scalar(a, v)),
    }
}

/// The mean of lane `l`: the sum in the framework's order divided by the count.
fn mean_lane<T: Work>(x: &[T], lanes: Lanes, l: usize, s: &OpSemantics) -> T {
    let lane = || lanes.lane(l).map(|i| x[i]);
    let count = T::W::from_num(lanes.len as f64);
    if T::DTYPE.is_integer() {
        return if s.int_stats_f32 {
            super::var::f32_mean(lane(), lanes.len)
        } else if s.int_mean_wide {
            wide_int_mean::<T>(lane(), lanes.len)
        } else {
            // NumPy's `dtype=int`: the integer sum divided in double, converted back by C
            let sum = T::narrow(sum_lane::<T>(x, lanes, l, s)).re_f64();
            crate::kernel::cast::cast::<f64, T>(sum / lanes.len as f64)
        };
    }
    if s.summation == Summation::EigenTree && T::DTYPE.is_inexact() {
        // Eigen's `MeanReducer` is stateful: one packet accumulator, no tree; a complex mean
        // is the sum times `1 / n` (Paddle's recordings: not the sum divided by `n`)
        let sum = eigen_tree_lane::<T>(x, lanes, l, (T::W::zero(), T::W::add), false);
        return T::narrow(if T::DTYPE.is_complex() {
            T::W::mul(sum, T::W::div(T::W::from_num(true), count))
        } else {
            T::W::div(sum, count)
        });
    }
    if ordered::<T>(s) {
        return T::narrow(xla_mean(sum_lane::<T>(x, lanes, l, s), lanes.len, s));
    }
    let sum = T::narrow(sum_lane::<T>(x, lanes, l, s)).widen();
    if T::DTYPE.is_complex() {
        // the sum divided by `n + 0i` as the framework divides complex numbers (TensorFlow:
        // `sum / Scalar(n)` by Eigen's `pdiv_complex`, each part divided by `n`; NumPy's and
        // PyTorch's Smith multiplies each part by `1 / n`)
        return T::narrow(super::unary::complex_divide(sum, count, s));
    }
    T::narrow(T::W::div(sum, count))
}

/// `jnp.mean`'s quotient of a lane's `sum` (in the working type: half types in `f32`) by its
/// `len` as XLA computes it: `_mean` (jax 0.10.2's `jax/_src/numpy/reductions.py`) divides by
/// the count converted into the working type, a constant, which XLA's `AlgebraicSimplifier`
/// turns into a product by its reciprocal (`sum * rn(1/n)`; `constant(0.333333343)` in the
/// optimized HLO of a mean of 3 float32 values, `(0.33333333333333331, 0)` for complex128, whose
/// product is XLA's complex multiply).
///
/// ```
/// let q = r#"{"op": "mean", "operands": [{"dtype": "float32", "data": ["1", "2", "2"]}]}"#;
/// let a = promote::kernel::eval::answer_line(&*promote::builtin("jax").unwrap(), q);
/// assert!(a.contains("\"1.6666667\""), "{a}"); // 5 * 0.333333343, not 5 / 3 (1.6666666)
/// ```
pub(crate) fn xla_mean<W: crate::kernel::compute::FusedMulMaybe>(
    sum: W,
    len: usize,
    s: &OpSemantics,
) -> W {
    let recip = W::div(W::from_num(true), W::from_num(len as f64));
    if s.xla_complex_mul {
        W::mul_xla(sum, recip)
    } else {
        W::mul(sum, recip)
    }
}

/// `cumsum`/`cumprod` of every lane as a running value: NumPy rounds each partial result to
/// the dtype, PyTorch keeps the working type's (float16, bfloat16: f32) running value.
fn running_scans<T: Work>(op: Reduce, s: &OpSemantics, x: &[T], lanes: Lanes) -> Array {
    let f = match op {
        Reduce::Cumsum => T::W::add,
        _ if s.cumprod_c99 => <T::W as crate::kernel::compute::FusedMulMaybe>::mul_c99,
        _ => mul::<T>(s.cumprod_fma),
    };
    let mut out = vec![T::narrow(T::W::zero()); x.len()];
    for l in 0..lanes.count() {
        let mut acc: Option<T::W> = None;
        for i in lanes.lane(l) {
            let v = x[i].widen();
            let next = acc.map_or(v, |a| f(a, v));
            acc = Some(if s.cumulative_rounds {
                T::narrow(next).widen()
            } else {
                next
            });
            out[i] = T::narrow(acc.expect("set"));
        }
    }
    T::array(out)
}

/// A contiguous lane reduced in Eigen's order ([`order::eigen_inner`], see
/// [`Summation::Eigen`]): packets of 32 bytes, a half type's of 8 values rounded every step
/// unless `bf16_in_f32` and the dtype is bfloat16 (then all in float32).
fn eigen_lane<T: Work>(
    lane: impl Iterator<Item = T>,
    init: T::W,
    f: fn(T::W, T::W) -> T::W,
    bf16_in_f32: bool,
) -> T::W {
    let vals: Vec<T::W> = lane.map(|v| v.widen()).collect();
    let size = std::mem::size_of::<T>();
    let half = size == 2 && !(bf16_in_f32 && T::DTYPE == crate::DType::BFloat16);
    let width = if size == 2 { 8 } else { 32 / size };
    let round = move |v: T::W| if half { T::narrow(v).widen() } else { v };
    order::eigen_inner(&vals, init, width, move |a, b| round(f(a, b)), (f, round))
}

/// A reduction's step: the running value and the next element to the new running value.
type Step<W> = fn(W, W) -> W;

/// Lane `l` reduced as Paddle's pinned Eigen reduces it ([`Summation::EigenTree`]): a
/// contiguous lane of float32/float64 (float16/bfloat16 in float32: Paddle's `sum` casts them
/// first) by packets ([`order::eigen_packets`], `tree` for a sum), of complex numbers (no
/// packets) by [`order::eigen_scalar`]; a lane across rows in order from the identity
/// (`GenericDimReducer`, `InnerMostDimPreserver`).
pub(crate) fn eigen_tree_lane<T: Work>(
    x: &[T],
    lanes: Lanes,
    l: usize,
    (init, f): (T::W, Step<T::W>),
    tree: bool,
) -> T::W {
    let vals: Vec<T::W> = lanes.lane(l).map(|i| x[i].widen()).collect();
    if lanes.stride > 1 {
        return vals.iter().fold(init, |a, &v| f(a, v));
    }
    match crate::kernel::libm::eigen::avx_packet_width(T::DTYPE) {
        Some(width) => order::eigen_packets(&vals, init, (width, l * lanes.len), tree, f),
        None => order::eigen_scalar(&vals, init, tree, f),
    }
}

/// Whether the framework orders a reduction of `T` its own way ([`order`]), not NumPy's or
/// PyTorch's.
fn ordered<T: Work>(s: &OpSemantics) -> bool {
    s.summation == Summation::XlaTree && T::DTYPE.is_inexact()
}

/// `jnp.max` (`max`) or `jnp.min` of complex numbers as XLA reduces them: from `∓inf + 0j`
/// (JAX's `_get_max_identity`/`_get_min_identity`), each step JAX's
/// `_minmax_complex_lowering`, a select on the parts without NaN rule
/// ([`XlaOps::xla_max`](crate::kernel::xla::XlaOps::xla_max): the maximum of `[nan+0j, nanj,
/// inf+nanj]` is `inf+nanj`), in XLA's order ([`order::xla_tree`]).
fn xla_complex_extremum<T: Work>(max: bool, lane: impl Iterator<Item = T>) -> T::W {
    use crate::kernel::xla::XlaOps;
    let vals: Vec<T::W> = lane.map(|v| v.widen()).collect();
    if max {
        order::xla_tree(&vals, T::W::from_num(f64::NEG_INFINITY), T::W::xla_max)
    } else {
        order::xla_tree(&vals, T::W::from_num(f64::INFINITY), T::W::xla_min)
    }
}

/// The multiply of a reduction or a scan (XLA's complex product where the semantics say so).
fn reduce_mul<T: Work>(s: &OpSemantics) -> fn(T::W, T::W) -> T::W {
    if s.xla_complex_mul {
        <T::W as crate::kernel::compute::FusedMulMaybe>::mul_xla
    } else {
        mul::<T>(s.complex_mul_fma)
    }
}

/// `cumsum`/`cumprod` of every lane in XLA's order ([`order::xla_scan`]), each step computed
/// in the dtype (XLA's scans do not widen: a half type rounds every partial result).
fn xla_scans<T: Work>(op: Reduce, s: &OpSemantics, x: &[T], lanes: Lanes) -> Array {
    let (init, f) = if op == Reduce::Cumsum {
        (T::W::zero(), T::W::add as fn(T::W, T::W) -> T::W)
    } else {
        (one::<T>(), reduce_mul::<T>(s))
    };
    let step = |a: T::W, b: T::W| T::narrow(f(a, b)).widen();
    let mut out = vec![T::narrow(T::W::zero()); x.len()];
    for l in 0..lanes.count() {
        let vals: Vec<T::W> = lanes.lane(l).map(|i| x[i].widen()).collect();
        for (i, v) in lanes.lane(l).zip(order::xla_scan(&vals, init, step)) {
            out[i] = T::narrow(v);
        }
    }
    T::array(out)
}

/// The multiply (complex: with fused multiply-adds when `fused`).
fn mul<T: Work>(fused: bool) -> fn(T::W, T::W) -> T::W {
    if fused {
        <T::W as crate::kernel::compute::FusedMulMaybe>::mul_maybe_fused
    } else {
        T::W::mul
    }
}

fn one<T: Work>() -> T::W {
    T::W::from_num(true)
}

/// Folds in order onto the first element (zero for an empty lane).
fn fold<T: Work>(mut it: impl Iterator<Item = T>, f: fn(T::W, T::W) -> T::W) -> T::W {
    let first = it.next().map_or(T::W::zero(), |v| v.widen());
    it.fold(first, |a, v| f(a, v.widen()))
}

/// The sum of lane `l`: a contiguous lane in the framework's order ([`lane_sum`]), a strided
/// one in order, each partial sum rounded to the dtype where the framework stores it (NumPy).
pub(crate) fn sum_lane<T: Work>(x: &[T], lanes: Lanes, l: usize, s: &OpSemantics) -> T::W {
    if ordered::<T>(s) {
        let vals: Vec<T::W> = lanes.lane(l).map(|i| x[i].widen()).collect();
        return order::xla_tree(&vals, T::W::zero(), T::W::add);
    }
    if s.summation == Summation::EigenTree && T::DTYPE.is_inexact() {
        return eigen_tree_lane::<T>(x, lanes, l, (T::W::zero(), T::W::add), true);
    }
    if lanes.stride == 1 {
        return lane_sum::<T>(&x[l * lanes.len..(l + 1) * lanes.len], s);
    }
    if s.summation == Summation::Cascade && T::DTYPE.is_inexact() {
        return cascade_outer_sum(x, lanes, l);
    }
    // TensorFlow sums bfloat16 in float32 along any axis
    let bf16_wide = s.summation == Summation::Eigen && T::DTYPE == crate::DType::BFloat16;
    let mut it = lanes.lane(l).map(|i| x[i].widen());
    let first = it.next().unwrap_or(T::W::zero());
    it.fold(first, |a, v| {
        let next = T::W::add(a, v);
        if s.cumulative_rounds && !bf16_wide {
            T::narrow(next).widen()
        } else {
            next
        }
    })
}

/// The sum of a contiguous lane in the framework's order.
pub(crate) fn lane_sum<T: Work>(x: &[T], s: &OpSemantics) -> T::W {
    match s.summation {
        Summation::Cascade if T::DTYPE.is_inexact() => cascade_sum(x),
        Summation::XlaTree if T::DTYPE.is_inexact() => {
            let vals: Vec<T::W> = x.iter().map(|v| v.widen()).collect();
            order::xla_tree(&vals, T::W::zero(), T::W::add)
        }
        Summation::Eigen if T::DTYPE.is_inexact() => {
            eigen_lane::<T>(x.iter().copied(), T::W::zero(), T::W::add, true)
        }
        _ => T::W::add(T::W::zero(), T::W::pairwise(x, &|v: T| v.widen())),
    }
}

/// An integer mean as TensorFlow computes it ([`OpSemantics::int_mean_wide`]): the sum in
/// the 64-bit integer of the dtype's signedness, wrapping there, divided truncating.
fn wide_int_mean<T: Work>(lane: impl Iterator<Item = T>, len: usize) -> T {
    let total = lane.fold(0u64, |a, v| a.wrapping_add(v.bits64()));
    let n = len.max(1) as u64;
    if T::DTYPE.is_signed() {
        T::from_num((total as i64) / n as i64)
    } else {
        T::from_num(total / n)
    }
}

/// The index of the first maximum (of the first NaN, if any; with `skip_nan`, a NaN wins only
/// in first place: nothing compares greater than it, and it compares greater than nothing).
fn argmax<T: Work>(it: impl Iterator<Item = T>, skip_nan: bool) -> usize {
    let mut best: Option<(usize, T::W)> = None;
    for (i, v) in it.enumerate() {
        let v = v.widen();
        match best {
            None => best = Some((i, v)),
            Some((_, b)) if skip_nan && T::W::clt(b, v) => best = Some((i, v)),
            Some(_) if skip_nan => {}
            Some((_, b)) if b.isnan() => return best.map_or(0, |(k, _)| k),
            Some(_) if v.isnan() => return i,
            Some((_, b)) if T::W::clt(b, v) => best = Some((i, v)),
            _ => {}
        }
    }
    best.map_or(0, |(k, _)| k)
}

/// PyTorch's `cascade_sum` of a contiguous float or complex lane (`SumKernel.cpp`; its sum
/// kernel runs the AVX2 build even on AVX-512 CPUs, as observed): the lane is read as SIMD
/// vectors of 32 bytes of the accumulator type (`f32`: 8 lanes; float16/bfloat16 load 16
/// values and add their two halves; float64: 4; complex64: 4; complex128: 2); `row_sum` keeps four interleaved vector accumulators,
/// each a cascade of four levels (`multi_row_sum`); the vectors' lanes are then added in order
/// onto the sum of the scalar tail (`vectorized_inner_sum`). A lane shorter than one vector is
/// summed by the same cascade on single values (`scalar_inner_sum`).
pub fn cascade_sum<T: Work>(x: &[T]) -> T::W {
    let mut sum = T::W::zero();
    compiled::cascade(x, &mut sum);
    sum
}

mod compiled {
    //! [`cascade_sum`](super::cascade_sum) compiled for each SIMD path: its accumulators are
    //! arrays of the vector's lanes, which the path's registers hold.
    use super::{cascade_lanes, Work};
    use crate::kernel::arch::dispatch;
    dispatch!(
        /// `*sum` = PyTorch's cascade sum of `x`.
        cascade, <T>, (x: &[T], sum: &mut T::W),
        where { T: Work },
        {
            *sum = match 32 / std::mem::size_of::<T::W>() {
                8 => cascade_lanes::<T, 8>(x),
                4 => cascade_lanes::<T, 4>(x),
                _ => cascade_lanes::<T, 2>(x),
            };
        }
    );
}

/// [`cascade_sum`] with vectors of `N` lanes of the accumulator type.
#[inline(always)]
fn cascade_lanes<T: Work, const N: usize>(x: &[T]) -> T::W {
    // values read per vector load: a half type packs two f32 vectors' worth
    let load = if std::mem::size_of::<T>() < std::mem::size_of::<T::W>() {
        2 * N
    } else {
        N
    };
    let nvec = x.len() / load;
    let vector = |i: usize| -> [T::W; N] {
        debug_assert!(i < nvec);
        // SAFETY: every caller passes i < nvec = x.len() / load, so the range lies in x (no
        // bounds check in the loop of additions)
        let v = unsafe { x.get_unchecked(i * load..(i + 1) * load) };
        std::array::from_fn(|k| {
            if load == N {
                v[k].widen()
            } else {
                T::W::add(v[k].widen(), v[k + N].widen())
            }
        })
    };
    if nvec == 0 {
        // shorter than one vector: `scalar_inner_sum`, the same cascade on single values
        return row_sum(x.len(), &|i| [x[i].widen()])[0];
    }
    let vacc = row_sum(nvec, &vector);
    // the scalar tail in order from 0, then the vector's lanes in order
    let tail = x[nvec * load..]
        .iter()
        .fold(T::W::zero(), |a, v| T::W::add(a, v.widen()));
    vacc.into_iter().fold(tail, T::W::add)
}

/// PyTorch's `cascade_sum` of lane `l` across rows (`vectorized_outer_sum` when there are at
/// least a vector's worth of columns, else `scalar_outer_sum`): columns in the leading groups of
/// four vectors (four columns in the scalar case) add their rows by `multi_row_sum`'s cascade;
/// the other columns by `row_sum`.
fn cascade_outer_sum<T: Work>(x: &[T], lanes: Lanes, l: usize) -> T::W {
    let (cols, j) = (lanes.stride, l % lanes.stride);
    let per_vec = 32 / std::mem::size_of::<T::W>();
    let group = if cols >= 32 / std::mem::size_of::<T>() {
        4 * per_vec
    } else {
        4
    };
    let rows: Vec<T::W> = lanes.lane(l).map(|i| x[i].widen()).collect();
    if j < cols - cols % group {
        let only = |i: usize, k: usize| [if k == 0 { rows[i] } else { T::W::zero() }];
        multi_row_sum(rows.len(), &only)[0][0]
    } else {
        row_sum(rows.len(), &|i| [rows[i]])[0]
    }
}

/// PyTorch's `row_sum`: `size` items (vectors of `N` lanes) summed with four interleaved
/// accumulators (`multi_row_sum`), the leftover items onto the first, then the four added.
#[inline(always)]
fn row_sum<W: Arith, const N: usize>(size: usize, item: &impl Fn(usize) -> [W; N]) -> [W; N] {
    const ILP: usize = 4;
    let size_ilp = size / ILP;
    let mut partial = multi_row_sum(size_ilp, &|i, k| item(i * ILP + k));
    for i in size_ilp * ILP..size {
        add_into(&mut partial[0], &item(i));
    }
    let mut first = partial[0];
    for p in &partial[1..] {
        add_into(&mut first, p);
    }
    first
}

#[inline(always)]
fn add_into<W: Arith, const N: usize>(acc: &mut [W; N], v: &[W; N]) {
    for (a, &b) in acc.iter_mut().zip(v) {
        *a = W::add(*a, b);
    }
}

/// PyTorch's `multi_row_sum` with four rows (the interleaved accumulators) and four levels,
/// each item a vector of `N` lanes.
#[inline(always)]
fn multi_row_sum<W: Arith, const N: usize>(
    size: usize,
    item: &impl Fn(usize, usize) -> [W; N],
) -> [[W; N]; 4] {
    const LEVELS: usize = 4;
    const ROWS: usize = 4;
    let ceil_log2 = if size <= 1 {
        0
    } else {
        (usize::BITS - (size - 1).leading_zeros()) as usize
    };
    let level_power = (ceil_log2 / LEVELS).max(4);
    let level_step = 1usize << level_power;
    let level_mask = level_step - 1;
    let mut acc = [[[W::zero(); N]; ROWS]; LEVELS];
    let mut i = 0;
    while i + level_step <= size {
        for _ in 0..level_step {
            for (k, a) in acc[0].iter_mut().enumerate() {
                add_into(a, &item(i, k));
            }
            i += 1;
        }
        for j in 1..LEVELS {
            let (below, above) = acc.split_at_mut(j);
            for (lower, upper) in below[j - 1].iter_mut().zip(above[0].iter_mut()) {
                add_into(upper, lower);
                *lower = [W::zero(); N];
            }
            if i & (level_mask << (j * level_power)) != 0 {
                break;
            }
        }
    }
    while i < size {
        for (k, a) in acc[0].iter_mut().enumerate() {
            add_into(a, &item(i, k));
        }
        i += 1;
    }
    let (first, rest) = acc.split_at_mut(1);
    for level in rest.iter() {
        for k in 0..ROWS {
            add_into(&mut first[0][k], &level[k]);
        }
    }
    acc[0]
}
