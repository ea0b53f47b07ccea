//! Reductions and scans that accumulate in the narrow dtype itself
//! ([`NarrowAccumulation::EachStep`]): NumPy reduces an ml_dtypes array by calling the dtype's
//! own binary loop once per element with the accumulator as an operand, so every partial sum
//! or product is rounded (a float: `float(a) + float(b)` in float32, rounded with ml_dtypes'
//! rules) or wrapped (an int2/int4) into the dtype; a reduction starts from the identity
//! converted to the dtype (float8_e8m0fnu has no zero: its `0` is NaN, and so is every sum), a
//! scan from the first element. `mean` is NumPy's `_mean`: that sum divided by the count in
//! float64, converted back (`uint2`: `0+1+2+3` wraps to 2, `2 / 4` is 0).
//!
//! The order is `each_step` of `src/kernel/ops/order.rs`; which policy takes it is data
//! (`[kernel] narrow_accumulation` in `policies/*.toml`). Recorded:
//! `tests/fixtures/eval-narrow/numpy.jsonl.gz`, replayed by `tests/narrow_values.rs`.

use super::arith::{carrier, library_of, round_into};
use super::codec;
use super::format::{Format, Kind as NarrowKind};
use super::{Codec, NarrowError};
use crate::kernel::array::{Array, Element, View};
use crate::kernel::cast::cast_array;
use crate::kernel::compute::{NarrowAccumulation, Semantics};
use crate::kernel::ops::order::{each_step, each_step_scan};
use crate::kernel::ops::reduce::{lookup, Reduce};
use crate::plan::Plan;
use crate::DType;

/// The result of a reduction or scan of one narrow operand accumulated in its compute dtype,
/// held in the result's [`carrier`]; `None` when the semantics accumulate in the carrier or
/// the plan is not a `sum`, `prod`, `mean`, `cumsum` or `cumprod` computed in a narrow float
/// or integer dtype (those run through [`super::arith::run_narrow`]).
///
/// ```
/// use promote::kernel::narrow::accumulate::in_dtype;
/// use promote::kernel::{Array, compute::Semantics};
/// use promote::{builtin, Call, Policy};
/// let numpy = builtin("numpy").unwrap();
/// let plan = numpy.resolve(&"sum float4_e2m1fn".parse::<Call>().unwrap()).unwrap();
/// let x = Array::from(vec![6.0f32, 0.5, 0.5, 0.5, 0.5]);
/// let got = in_dtype(&numpy.semantics(), &plan, &[x.view()]).unwrap().unwrap();
/// assert_eq!(got, Array::from(vec![6.0f32])); // 6 + 0.5 rounds back to 6, four times
/// // semantics that accumulate in the carrier leave the plan to the carrier's kernels
/// assert!(in_dtype(&Semantics::NUMPY, &plan, &[x.view()]).is_none());
/// ```
pub fn in_dtype(
    sem: &Semantics,
    plan: &Plan,
    views: &[View<'_>],
) -> Option<Result<Array, NarrowError>> {
    let op = lookup(plan.op.info().kernel).map(|(_, r)| r)?;
    let format = plan.compute.format()?;
    let kind = format.kind;
    let accumulates = matches!(
        op,
        Reduce::Sum | Reduce::Prod | Reduce::Mean | Reduce::Cumsum | Reduce::Cumprod
    );
    if sem.narrow_accumulation != NarrowAccumulation::EachStep
        || !accumulates
        || kind == NarrowKind::Complex
        || views.len() != 1
    {
        return None;
    }
    let library = library_of(sem.name);
    let run = || -> Result<Array, NarrowError> {
        let operand = match plan.operands.first() {
            Some(&from) if from != plan.compute => round_into(views[0], plan.compute, library)?,
            _ => views[0].to_array(),
        };
        let codec = Codec::for_library(plan.compute.name(), library)?;
        let data = match kind {
            NarrowKind::Float => floats(op, &operand, &codec),
            _ => ints(op, &operand, format, plan.compute),
        };
        match plan.result == plan.compute {
            true => Ok(data),
            false => round_into(data.view(), plan.result, library),
        }
    };
    Some(run())
}

/// `op` of narrow float values held in float32: each step in float32, rounded into the
/// codec's dtype.
fn floats(op: Reduce, x: &Array, codec: &Codec) -> Array {
    let x = cast_array(x.view(), DType::Float32);
    let x = f32::slice(x.view()).unwrap_or(&[]);
    let store = |v: f32| codec.decode_f32(codec::encode_f32(codec.format, &codec.rules, v));
    let product = matches!(op, Reduce::Prod | Reduce::Cumprod);
    let f: fn(f32, f32) -> f32 = match product {
        true => |a, b| a * b,
        false => |a, b| a + b,
    };
    if op.is_cumulative() {
        return Array::from(each_step_scan(x, f, store));
    }
    let identity = store(if product { 1.0 } else { 0.0 });
    let total = each_step(x, identity, f, store);
    if op != Reduce::Mean {
        return Array::from(vec![total]);
    }
    let quotient = f64::from(total) / x.len() as f64;
    let mean = codec.decode_f32(codec::encode_f64(codec.format, &codec.rules, quotient));
    Array::from(vec![mean])
}

/// `op` of narrow integer values (of `d`): each step exact in i64, wrapped into `d`; `mean`
/// truncates the float64 quotient toward zero (a C conversion), then wraps.
fn ints(op: Reduce, x: &Array, format: &Format, d: DType) -> Array {
    let store = |v: i64| format.wrap(v);
    let wide = cast_array(x.view(), DType::Int64);
    let x = i64::slice(wide.view()).unwrap_or(&[]);
    let product = matches!(op, Reduce::Prod | Reduce::Cumprod);
    let f: fn(i64, i64) -> i64 = match product {
        true => i64::wrapping_mul,
        false => i64::wrapping_add,
    };
    let values = if op.is_cumulative() {
        each_step_scan(x, f, store)
    } else {
        let total = each_step(x, store(i64::from(product)), f, store);
        match op {
            Reduce::Mean => vec![store((total as f64 / x.len() as f64) as i64)],
            _ => vec![total],
        }
    };
    cast_array(Array::from(values).view(), carrier(d))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{builtin, Call, Policy};

    fn numpy_run(call: &str, x: Array) -> Array {
        let numpy = builtin("numpy").unwrap();
        let plan = numpy.resolve(&call.parse::<Call>().unwrap()).unwrap();
        in_dtype(&numpy.semantics(), &plan, &[x.view()])
            .expect("accumulated in the dtype")
            .unwrap()
    }

    #[test]
    fn narrow_ints_wrap_before_the_mean_divides() {
        // 0+1+2+3 wraps to 2 in uint2; 2 / 4 truncates to 0 (recorded: numpy.jsonl.gz)
        let x = Array::from(vec![0u8, 1, 2, 3]);
        assert_eq!(numpy_run("sum uint2", x.clone()), Array::from(vec![2u8]));
        assert_eq!(numpy_run("mean uint2", x.clone()), Array::from(vec![0u8]));
        assert_eq!(
            numpy_run("cumsum uint2", x),
            Array::from(vec![0u8, 1, 3, 2])
        );
        let y = Array::from(vec![-8i8, 7, 7]);
        assert_eq!(numpy_run("sum int4", y.clone()), Array::from(vec![6i8]));
        // -8·7 is -56, which wraps to -8, twice
        assert_eq!(numpy_run("prod int4", y), Array::from(vec![-8i8]));
    }

    #[test]
    fn narrow_floats_round_every_partial() {
        // e4m3fn overflows to NaN on the way even where the total would fit
        let x = Array::from(vec![448.0f32, 448.0, -448.0]);
        let got = numpy_run("sum float8_e4m3fn", x);
        assert!(f32::slice(got.view()).unwrap()[0].is_nan());
        // a scan keeps -0.0 first; e8m0's identity is NaN, its scan has none
        let z = Array::from(vec![-0.0f32, 1.0]);
        let s = numpy_run("cumsum float8_e5m2", z);
        assert_eq!(
            f32::slice(s.view()).unwrap()[0].to_bits(),
            (-0.0f32).to_bits()
        );
        let e = Array::from(vec![2.0f32, 4.0]);
        assert!(f32::slice(numpy_run("sum float8_e8m0fnu", e.clone()).view()).unwrap()[0].is_nan());
        assert_eq!(
            numpy_run("cumsum float8_e8m0fnu", e),
            Array::from(vec![2.0f32, 8.0])
        );
    }
}
