//! `var` and `std`: NumPy's two passes in the compute dtype (`numpy/_core/_methods.py`,
//! `_var`), or PyTorch's double-precision passes (`std_var_all_cpu` for a whole float32/float64
//! array; Welford's update in double precision otherwise).

use super::reduce::{sum_lane, Lanes};
use super::unary::{Unary, UnaryElem};
use super::{with_slice, Args, OpSemantics, Summation};
use crate::kernel::array::{Array, Element, View};
use crate::kernel::cast::{cast, cast_array, Num};
use crate::kernel::compute::Arith;
use crate::kernel::exec::Work;
use crate::{with_dtype, DType};

/// `var` (`std` when `take_sqrt`) of each lane; `None` unless the compute dtype is inexact.
pub(crate) fn run(
    take_sqrt: bool,
    s: &OpSemantics,
    args: &Args<'_>,
    lanes: Lanes,
) -> Option<Array> {
    if args.compute.is_integer() && s.int_stats_f32 {
        return Some(with_dtype!(args.compute, T => paddle_int::<T>(take_sqrt, s, args, lanes)));
    }
    if s.summation == Summation::EigenTree {
        match args.compute {
            DType::Float32 => return Some(paddle_float::<f32>(take_sqrt, s, args, lanes)),
            DType::Float64 => return Some(paddle_float::<f64>(take_sqrt, s, args, lanes)),
            _ => {}
        }
    }
    if args.compute.is_integer() && s.summation == Summation::XlaTree {
        // `jnp.std` refuses an integer `dtype=`
        return (!take_sqrt).then(|| with_dtype!(args.compute, T => xla_int::<T>(s, args, lanes)));
    }
    let int_ok = args.compute.is_integer() && s.summation == Summation::Pairwise;
    if !args.compute.is_inexact() && !int_ok {
        return None;
    }
    Some(match s.summation {
        Summation::Pairwise | Summation::Eigen | Summation::EigenTree => {
            numpy(take_sqrt, s, args, lanes)
        }
        Summation::Cascade => torch(take_sqrt, s, args, lanes),
        Summation::XlaTree => {
            let x = cast_array(args.inputs[0], args.compute);
            with_dtype!(args.compute, T => xla::<T>(take_sqrt, s, x.view(), lanes))
        }
    })
}

/// `jnp.var` (`_var`) and `jnp.std` (its `sqrt`): in the working type (half types in `f32`),
/// the mean as `jnp.mean` takes it (XLA's sum times the reciprocal of the count:
/// [`xla_mean`](super::reduce::xla_mean)), the squared deviations (a complex one as XLA's
/// `real(d · conj(d))`), their sum in XLA's order divided by `n − ddof` in the working type's
/// real precision, rounded to the dtype's; `std` is the square root of that, in the dtype.
/// That last quotient is a division: `_var` is jitted with `correction` traced (jax 0.10.2's
/// `reductions.py`: only `axis`, `dtype`, `keepdims` are static), so `n − ddof` is no
/// constant for XLA's simplifier to invert (`jax.jit(jnp.var)` with a constant `ddof` would
/// multiply by its reciprocal instead; the recordings call `jnp.var` eagerly).
fn xla<T: Work>(take_sqrt: bool, s: &OpSemantics, x: View<'_>, lanes: Lanes) -> Array
where
    T::W: UnaryElem,
{
    use super::order::xla_tree;
    let x = T::slice(x).expect("cast");
    let div = lanes.len.saturating_sub(s.var_correction) as f64;
    let vars: Vec<f64> = (0..lanes.count())
        .map(|l| {
            let vals: Vec<T::W> = lanes.lane(l).map(|i| x[i].widen()).collect();
            let mean =
                super::reduce::xla_mean(xla_tree(&vals, T::W::zero(), T::W::add), lanes.len, s);
            let squares: Vec<T::W> = vals
                .iter()
                .map(|&v| {
                    let d = T::W::sub(v, mean);
                    let conj = T::W::same(Unary::Conj, d, s).unwrap_or(d);
                    // the real part alone goes on (its sum does not see the imaginary one)
                    let sq = <T::W as crate::kernel::compute::FusedMulMaybe>::mul_xla(d, conj);
                    T::W::from_num(sq.re_f64())
                })
                .collect();
            // a quotient of two values of the working precision, rounded once to it below
            xla_square_sum::<T>(&vals, &squares, mean).re_f64() / div
        })
        .collect();
    let working = cast_array(Array::from(vars).view(), part_dtype(T::W::DTYPE));
    let var = cast_array(working.view(), part_dtype(T::DTYPE));
    if !take_sqrt {
        return var;
    }
    let wide = cast_array(var.view(), DType::Float64);
    let roots: Vec<f64> = f64::slice(wide.view())
        .expect("f64")
        .iter()
        .map(|v| v.sqrt())
        .collect();
    cast_array(Array::from(roots).view(), part_dtype(T::DTYPE))
}

/// `jnp.var(x, dtype=D)` with an integer `D` (`_var` in jax 0.10.2's reductions.py): every
/// step is an HLO op in `D` — the sum and the count (converted to `D`), their quotient by
/// XLA's integer division, the deviations and their squares (wrapping), their sum, and the
/// quotient by `count − ddof`; where that divisor is not positive the answer is NaN
/// (`_where(normalizer > 0, result, nan)`). Integer sums wrap whatever their order.
fn xla_int<T: Work>(s: &OpSemantics, args: &Args<'_>, lanes: Lanes) -> Array {
    let x = cast_array(args.inputs[0], T::DTYPE);
    let x = T::slice(x.view()).expect("cast");
    // the count and `ddof` converted into the dtype (a C cast: wrapping)
    let to_t = |v: usize| cast::<i64, T>(v as i64).widen();
    let count = to_t(lanes.len);
    let divisor = T::W::sub(count, to_t(s.var_correction));
    if divisor.re_f64() <= 0.0 {
        return Array::from(vec![f64::NAN; lanes.count()]);
    }
    // the dtype's own arithmetic: wrapping, and XLA's division (`Arith::div_xla`)
    let sum = |l: usize, f: &dyn Fn(T::W) -> T::W| {
        lanes
            .lane(l)
            .fold(T::W::zero(), |acc, i| T::W::add(acc, f(x[i].widen())))
    };
    T::array(
        (0..lanes.count())
            .map(|l| {
                let mean = T::W::div_xla(sum(l, &|v| v), count);
                let square = |v| {
                    let d = T::W::sub(v, mean);
                    T::W::mul(d, d)
                };
                T::narrow(T::W::div_xla(sum(l, &square), divisor))
            })
            .collect(),
    )
}

/// Paddle's integer mean ([`OpSemantics::int_stats_f32`]): the values as float32, summed in
/// order, divided by the count, converted back as C converts.
pub(crate) fn f32_mean<T: Work>(lane: impl Iterator<Item = T>, len: usize) -> T {
    let sum = lane.fold(0.0f32, |a, v| a + cast::<T, f32>(v));
    cast::<f32, T>(sum / len as f32)
}

/// Paddle's integer `var` (and `std`, its float32 root): see [`OpSemantics::int_stats_f32`].
fn paddle_int<T: Work>(take_sqrt: bool, s: &OpSemantics, args: &Args<'_>, lanes: Lanes) -> Array {
    let x = cast_array(args.inputs[0], T::DTYPE);
    let x = T::slice(x.view()).expect("cast");
    let div = lanes.len.saturating_sub(1) as f32;
    let vars = (0..lanes.count()).map(|l| {
        let mean = f32_mean(lanes.lane(l).map(|i| x[i]), lanes.len).widen();
        let total = lanes.lane(l).fold(T::W::zero(), |acc, i| {
            let d = T::W::sub(x[i].widen(), mean);
            T::W::add(acc, T::W::mul(d, d))
        });
        cast::<f32, T>(cast::<T, f32>(T::narrow(total)) / div)
    });
    if take_sqrt {
        let vars = vars.map(|v| cast::<T, f32>(v)).collect();
        Array::from(paddle_roots(vars, DType::Float32, s))
    } else {
        T::array(vars.collect())
    }
}

/// Paddle's float32/float64 `var` (`python/paddle/tensor/stat.py`: `u = mean(x, axis,
/// keepdim=True)`, `sum(pow(x − u, 2), axis) / (n − 1)`; `std` is `sqrt` of it), each step
/// a kernel of its own: the means by Eigen's `MeanReducer`, the squares by Paddle's `pow`
/// (Eigen's packet `pow` over the whole array's packets, the C library's `pow` — the exact
/// square — on the tail: `eigen_pow::packet_pow`), their sums by
/// Eigen's `SumReducer` ([`Summation::EigenTree`]), the quotient by `n − 1` (at least 0) in
/// the dtype, and the roots by Paddle's `sqrt` (Eigen's fast packet root on float32's
/// packets of the output, [`OpSemantics::packet`]).
fn paddle_float<F>(take_sqrt: bool, s: &OpSemantics, args: &Args<'_>, lanes: Lanes) -> Array
where
    F: Work<W = F> + crate::kernel::libm::eigen_pow::EigenPow,
{
    use super::reduce::eigen_tree_lane;
    let x = cast_array(args.inputs[0], F::DTYPE);
    let x = F::slice(x.view()).expect("cast");
    let add: fn(F, F) -> F = |a, b| a + b;
    let n = F::from(lanes.len).expect("count");
    let packets = |len: usize, width: usize| len - len % width;
    let width = crate::kernel::libm::eigen::avx_packet_width(F::DTYPE).expect("float");
    let mut squares = vec![F::zero(); x.len()];
    for l in 0..lanes.count() {
        let mean = eigen_tree_lane::<F>(x, lanes, l, (F::zero(), add), false) / n;
        for i in lanes.lane(l) {
            let d = x[i] - mean;
            let two = F::one() + F::one();
            squares[i] = if i < packets(x.len(), width) {
                crate::kernel::libm::eigen_pow::packet_pow(d, two)
            } else {
                d * d
            };
        }
    }
    let corrected = (n - F::from(s.var_correction).expect("ddof")).max(F::zero());
    let vars: Vec<F> = (0..lanes.count())
        .map(|l| eigen_tree_lane::<F>(&squares, lanes, l, (F::zero(), add), true) / corrected)
        .collect();
    if !take_sqrt {
        return F::array(vars);
    }
    F::array(paddle_roots(vars, F::DTYPE, s))
}

/// `std`'s roots of the variances as Paddle's `sqrt` takes them: Eigen's fast packet root on
/// the whole packets of a float32 output ([`OpSemantics::packet`]), the exact root elsewhere.
fn paddle_roots<F: num_traits::Float>(vars: Vec<F>, dtype: DType, s: &OpSemantics) -> Vec<F> {
    let root = s.packet(super::OpClass::Unary(Unary::Sqrt), dtype);
    let packets = root.map_or(0, |(w, _)| vars.len() - vars.len() % w);
    let roots = vars.iter().enumerate().map(|(k, &v)| match root {
        Some((_, f)) if k < packets => F::from(f(v.to_f32().expect("f32"))).expect("f32"),
        _ => v.sqrt(),
    });
    roots.collect()
}

/// The sum of the squared deviations as XLA computes it: a reduction it rewrites into windows
/// adds the squares ([`xla_tree`](super::order::xla_tree)); one it keeps (at most 32 values)
/// runs fused with the squaring, its loop unrolled, and LLVM drops the reduction's `0 +` and
/// contracts (XLA allows FMA fusion; the adds are `fadd reassoc`) the rest. Real: `acc = d₁²`
/// rounded, then `acc = fma(d₀, d₀, acc)`, then `acc = fma(dᵢ, dᵢ, acc)` for `i ≥ 2`.
/// Complex: `acc = fma(a₀, a₀, b₀²)` (`b₀²` rounded: the first square as XLA's complex
/// product gives it), then `acc = fma(bᵢ, bᵢ, acc)`, `acc = fma(aᵢ, aᵢ, acc)` for `i ≥ 1`
/// (`dᵢ = aᵢ + bᵢ·i`). Read in the object code of `jnp.var`'s `divide_select_fusion` (11
/// float32, 5 complex64 values; `XLA_FLAGS=--xla_dump_to`); these orders matched jax 0.10.2
/// on 390 float32 arrays of 1 to 39 values, 1,460 float32 lanes along axis 0, 246 float64
/// arrays, 192 complex64 arrays of 1 to 32 values and 250 complex64 lanes of 8.
fn xla_square_sum<T: Work>(vals: &[T::W], squares: &[T::W], mean: T::W) -> T::W {
    if squares.len() > 32 {
        return super::order::xla_tree(squares, T::W::zero(), T::W::add);
    }
    let d = |k: usize| T::W::sub(vals[k], mean);
    // one rounding, to the working precision (float32 for the half types and complex64)
    let wide = matches!(part_dtype(T::W::DTYPE), DType::Float64);
    let fma = |a: f64, acc: f64| match wide {
        true => a.mul_add(a, acc),
        false => f64::from((a as f32).mul_add(a as f32, acc as f32)),
    };
    if T::DTYPE.is_complex() {
        let Some(&first) = squares.first() else {
            return T::W::zero();
        };
        let total = (1..vals.len()).fold(first.re_f64(), |acc, k| {
            fma(d(k).re_f64(), fma(d(k).im_f64(), acc))
        });
        return T::W::from_num(total);
    }
    let first = match vals.len() {
        0 => return T::W::zero(),
        1 => fma(d(0).re_f64(), 0.0),
        _ => fma(d(0).re_f64(), squares[1].re_f64()),
    };
    T::W::from_num((2..vals.len()).fold(first, |acc, k| fma(d(k).re_f64(), acc)))
}

/// The real dtype of a complex one (the dtype itself otherwise).
fn part_dtype(d: DType) -> DType {
    match d {
        DType::Complex64 => DType::Float32,
        DType::Complex128 => DType::Float64,
        d => d,
    }
}

fn numpy(take_sqrt: bool, s: &OpSemantics, args: &Args<'_>, lanes: Lanes) -> Array {
    let c = args.compute;
    if c.is_integer() {
        return with_dtype!(c, T => numpy_int::<T>(take_sqrt, s, args, lanes));
    }
    let x = cast_array(args.inputs[0], c);
    // the mean of each lane, in the compute dtype
    let means = with_dtype!(c, T => lane_means::<T>(x.view(), lanes, s));
    // the squared deviations, real
    let sq = with_dtype!(c, T => squared_deviations::<T>(x.view(), means.view(), lanes));
    let p = part_dtype(c);
    let per_lane = sq.view();
    let ddof = s.var_correction;
    with_dtype!(p, T => finish::<T>(per_lane, lanes, s, ddof, take_sqrt))
}

/// NumPy's `var(dtype=int)`: the mean, each quotient and the root in double, converted back to
/// the integer dtype as C converts; deviations, squares and sums wrap in the dtype.
fn numpy_int<T: Work>(take_sqrt: bool, s: &OpSemantics, args: &Args<'_>, lanes: Lanes) -> Array {
    let x = cast_array(args.inputs[0], T::DTYPE);
    let x = T::slice(x.view()).expect("cast");
    let to_t = |v: f64| crate::kernel::cast::cast::<f64, T>(v).widen();
    let div = lanes.len.saturating_sub(s.var_correction) as f64;
    T::array(
        (0..lanes.count())
            .map(|l| {
                let mean =
                    to_t(T::narrow(sum_lane::<T>(x, lanes, l, s)).re_f64() / lanes.len as f64);
                let total = lanes.lane(l).fold(T::W::zero(), |acc, i| {
                    let d = T::W::sub(x[i].widen(), mean);
                    T::W::add(acc, T::W::mul(d, d))
                });
                let var = to_t(T::narrow(total).re_f64() / div);
                T::narrow(if take_sqrt {
                    to_t(T::narrow(var).re_f64().sqrt())
                } else {
                    var
                })
            })
            .collect(),
    )
}

fn lane_means<T: Work>(x: crate::kernel::array::View<'_>, lanes: Lanes, s: &OpSemantics) -> Array {
    let x = T::slice(x).expect("cast");
    let n = T::W::from_num(lanes.len as f64);
    T::array(
        (0..lanes.count())
            .map(|l| {
                T::narrow(T::W::div(
                    T::narrow(sum_lane::<T>(x, lanes, l, s)).widen(),
                    n,
                ))
            })
            .collect(),
    )
}

fn squared_deviations<T: Work>(
    x: crate::kernel::array::View<'_>,
    means: crate::kernel::array::View<'_>,
    lanes: Lanes,
) -> Array
where
    T::W: UnaryElem,
{
    let (x, m) = (T::slice(x).expect("cast"), T::slice(means).expect("cast"));
    let mut lane_of = vec![0; x.len()];
    for l in 0..lanes.count() {
        for i in lanes.lane(l) {
            lane_of[i] = l;
        }
    }
    let dev = |i: usize| T::narrow(T::W::sub(x[i].widen(), m[lane_of[i]].widen())).widen();
    if T::DTYPE.is_complex() {
        type P<T> = <<T as Work>::W as UnaryElem>::Part;
        let sq = (0..x.len()).map(|i| {
            let d = dev(i);
            let re = T::W::part(Unary::Real, d).expect("complex");
            let im = T::W::part(Unary::Imag, d).expect("complex");
            P::<T>::add(P::<T>::mul(re, re), P::<T>::mul(im, im))
        });
        <P<T> as Element>::array(sq.collect())
    } else {
        T::array(
            (0..x.len())
                .map(|i| T::narrow(T::W::mul(dev(i), dev(i))))
                .collect(),
        )
    }
}

fn finish<T: Work>(
    sq: crate::kernel::array::View<'_>,
    lanes: Lanes,
    s: &OpSemantics,
    ddof: usize,
    take_sqrt: bool,
) -> Array
where
    T::W: UnaryElem,
{
    with_slice!(sq, T::DTYPE, T, x => {
        let div = T::W::from_num(lanes.len.saturating_sub(ddof) as f64);
        T::array((0..lanes.count()).map(|l| {
            let v = T::narrow(T::W::div(T::narrow(sum_lane::<T>(x, lanes, l, s)).widen(), div));
            if take_sqrt { T::narrow(T::W::same(Unary::Sqrt, v.widen(), s).unwrap_or(v.widen())) } else { v }
        }).collect())
    })
}

fn torch(take_sqrt: bool, s: &OpSemantics, args: &Args<'_>, lanes: Lanes) -> Array {
    let c = args.compute;
    let root = |v: f64| if take_sqrt { v.sqrt() } else { v };
    if !c.is_complex() {
        return Array::from(
            torch_real(s, args, lanes)
                .into_iter()
                .map(root)
                .collect::<Vec<_>>(),
        );
    }
    // `std_var_out` of a complex input: the parts' variances, each computed as a real input's
    // and stored in the part dtype, added there, the root taken there
    let p = part_dtype(c);
    let z = cast_array(cast_array(args.inputs[0], c).view(), DType::Complex128);
    let z = crate::kernel::array::C64::slice(z.view()).expect("cast");
    let var_of = |part: fn(&crate::kernel::array::C64) -> f64| {
        let values = Array::from(z.iter().map(part).collect::<Vec<_>>());
        let values = cast_array(values.view(), p);
        let inputs = [values.view()];
        torch_real(
            s,
            &Args {
                inputs: &inputs,
                compute: p,
                ..*args
            },
            lanes,
        )
    };
    // a float32 result of float64 arithmetic on float32 values: rounded once, as in float32
    let store = |v: f64| {
        if p == DType::Float32 {
            f64::from(v as f32)
        } else {
            v
        }
    };
    // the root is `at::sqrt_out` on the part dtype: MKL's `vmsSqrt`/`vmdSqrt` where the policy's
    // `sqrt` is MKL's (observed: torch.std of a complex64 [8, 25] along axis 0, 5 of 25 lanes
    // 1 ulp below the correctly rounded root on the recording AMD CPU)
    let part_root = |v: f64| match (take_sqrt, s.sqrt_mkl, p) {
        (false, _, _) => v,
        (true, true, DType::Float32) => f64::from(crate::kernel::libm::mkl::sqrt_f32(v as f32)),
        (true, true, _) => crate::kernel::libm::mkl::sqrt_f64(v),
        (true, false, _) => store(v.sqrt()),
    };
    let (re, im) = (var_of(|v| v.re), var_of(|v| v.im));
    let out = re
        .iter()
        .zip(&im)
        .map(|(&a, &b)| part_root(store(store(a) + store(b))));
    Array::from(out.collect::<Vec<_>>())
}

/// The variance of each lane of a real input as PyTorch computes it, in double precision:
/// a whole float32/float64 array by `std_var_all_cpu` (the mean as `torch.mean` gives it, then
/// `Σ(x − mean)²` in order), anything else by Welford's update.
fn torch_real(s: &OpSemantics, args: &Args<'_>, lanes: Lanes) -> Vec<f64> {
    let c = args.compute;
    let whole = lanes.count() == 1 && lanes.stride == 1;
    let var = |m2: f64| m2 / (lanes.len as f64 - s.var_correction as f64).max(0.0);
    let x = cast_array(args.inputs[0], c);
    if whole && matches!(c, DType::Float32 | DType::Float64) {
        let mean = with_dtype!(c, T => torch_mean::<T>(x.view(), s));
        let xs = cast_array(x.view(), DType::Float64);
        let xs = f64::slice(xs.view()).expect("cast");
        return vec![var(xs
            .iter()
            .fold(0.0, |acc, &v| acc + (v - mean) * (v - mean)))];
    }
    let xs = cast_array(x.view(), DType::Float64);
    let xs = f64::slice(xs.view()).expect("f64");
    (0..lanes.count())
        .map(|l| var(welford(lanes.lane(l).map(|i| xs[i]))))
        .collect()
}

fn torch_mean<T: Work>(x: crate::kernel::array::View<'_>, s: &OpSemantics) -> f64 {
    let x = T::slice(x).expect("cast");
    let n = T::W::from_num(x.len() as f64);
    let m = T::narrow(T::W::div(
        T::narrow(super::reduce::lane_sum::<T>(x, s)).widen(),
        n,
    ));
    m.re_f64()
}

/// Welford's running M2 (the sum of squared deviations) in double precision.
fn welford(it: impl Iterator<Item = f64>) -> f64 {
    let (mut mean, mut m2, mut n) = (0.0f64, 0.0f64, 0.0f64);
    for v in it {
        n += 1.0;
        let delta = v - mean;
        mean += delta / n;
        m2 += delta * (v - mean);
    }
    m2
}
