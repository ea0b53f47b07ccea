//! `var` and `std`: NumPy's two passes in the compute dtype (`numpy/_core/_methods.py`,
//! `_var`), or PyTorch's double-precision passes (`std_var_all_cpu` for a whole float32/float64
//! array; Welford's update in double precision otherwise).

use super::reduce::{sum_lane, Lanes};
use super::unary::{Unary, UnaryElem};
use super::{with_slice, Args, OpSemantics, Summation};
use crate::kernel::array::{Array, Element};
use crate::kernel::cast::{cast_array, Num};
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
    let int_ok = args.compute.is_integer() && s.summation == Summation::Pairwise;
    if !args.compute.is_inexact() && !int_ok {
        return None;
    }
    Some(match s.summation {
        Summation::Pairwise => numpy(take_sqrt, s, args, lanes),
        Summation::Cascade => torch(take_sqrt, s, args, lanes),
    })
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
    let whole = lanes.count() == 1 && lanes.stride == 1;
    let corr = s.var_correction as f64;
    let project = |m2: f64, n: usize| {
        let var = m2 / (n as f64 - corr).max(0.0);
        if take_sqrt {
            var.sqrt()
        } else {
            var
        }
    };
    let x = cast_array(args.inputs[0], c);
    let out: Vec<f64> = if whole && matches!(c, DType::Float32 | DType::Float64) {
        // std_var_all_cpu: the mean as torch.mean gives it, then Σ(x − mean)² in double
        let mean = with_dtype!(c, T => torch_mean::<T>(x.view(), s));
        let xs = cast_array(x.view(), DType::Float64);
        let xs = f64::slice(xs.view()).expect("cast");
        let m2 = xs.iter().fold(0.0, |acc, &v| acc + (v - mean) * (v - mean));
        vec![project(m2, lanes.len)]
    } else {
        let parts: Vec<Array> = if c.is_complex() {
            let z = cast_array(x.view(), DType::Complex128);
            let z = crate::kernel::array::C64::slice(z.view()).expect("cast");
            vec![
                Array::from(z.iter().map(|v| v.re).collect::<Vec<_>>()),
                Array::from(z.iter().map(|v| v.im).collect::<Vec<_>>()),
            ]
        } else {
            vec![cast_array(x.view(), DType::Float64)]
        };
        let var = |m2: f64| m2 / (lanes.len as f64 - corr).max(0.0);
        (0..lanes.count())
            .map(|l| {
                // complex: the variances of the parts added, then the root
                let v: f64 = parts
                    .iter()
                    .map(|p| {
                        let p = f64::slice(p.view()).expect("f64");
                        var(welford(lanes.lane(l).map(|i| p[i])))
                    })
                    .sum();
                if take_sqrt {
                    v.sqrt()
                } else {
                    v
                }
            })
            .collect()
    };
    Array::from(out)
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
