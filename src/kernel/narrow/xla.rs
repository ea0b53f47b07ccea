//! XLA's CPU backend (JAX) on the narrow dtypes where it does not "upcast, compute, round
//! once" ([`NarrowSteps::XlaEachOp`]).
//!
//! XLA's float normalization gives every HLO op on a float8/float4 value an upcast type and
//! converts the op's result back to the narrow dtype (`jax.jit(f).lower(x).compile()
//! .as_text()` shows a `convert` after each op). The upcast type is float16 where float16
//! holds every value of the format, float32 otherwise (float8_e8m0fnu, whose 2^127 float16
//! cannot hold). So:
//!
//! - a reduction (`jnp.sum`, `prod`, `max`, `min`: `lax.reduce` in the input's dtype) starts
//!   from its identity converted into the dtype and rounds every partial result, in XLA's
//!   order (`kernel::ops::order`'s `xla_tree`); e8m0 has no zero (a sum is NaN) and XLA folds its
//!   max/min identities (`finfo.min`, `finfo.max`) to NaN (`f32[] constant(nan)`);
//! - `jnp.mean` sums in its result dtype (`_upcast_f16` widens only float16/bfloat16), then
//!   divides by the count converted into the dtype, which XLA's simplifier turns into a
//!   multiply by that count's reciprocal in the upcast type;
//! - `floor_divide` (jnp's `_float_divmod`) and `arcsin` (CHLO's `2·atan2(x, 1 + sqrt((1 −
//!   x)(1 + x)))`) round each op of their composites;
//! - int2/uint2 stay integers where jnp makes other integers float (`to_inexact_dtype` keeps
//!   them): `mean` sums wrapping, converts the count into the dtype (4 wraps to 0 in int2)
//!   and divides as XLA's integer division does (truncating; `x / 0` has every bit set);
//!   `reciprocal`, `lax.integer_pow(x, -1)`, raises.
//!
//! ```
//! use promote::builtin;
//! use promote::kernel::{eval::eval_value, value::format_array};
//! let jax = builtin("jax").unwrap();
//! let mean = |dtype: &str, data: &[&str]| {
//!     let q = serde_json::json!({"op": "mean", "operands": [{"dtype": dtype, "data": data}]});
//!     format_array(eval_value(&*jax, &q).unwrap().data.view())
//! };
//! // 448 + 448 overflows float8_e4m3fn (NaN) before -448 comes
//! assert_eq!(mean("float8_e4m3fn", &["448", "448", "-448"]), ["nan"]);
//! assert_eq!(mean("int2", &["-2", "-1", "0", "1"]), ["-1"]); // -2 / wrap(4) = -2 / 0
//! ```
//!
//! Recorded by tools/oracle/record_values_narrow.py (tests/fixtures/eval-narrow/jax*.jsonl.gz),
//! replayed by tests/narrow_values.rs.

use half::f16;

use super::format::Kind as NarrowKind;
use super::rules::Library;
use super::{codec, Codec};
use crate::kernel::array::{Array, Element, View};
use crate::kernel::cast::cast_array;
use crate::kernel::compute::{Arith, KernelError, Semantics};
use crate::kernel::ops::{order, NarrowSteps, OpSemantics};
use crate::kernel::xla::XlaOps;
use crate::plan::Plan;
use crate::DType;

/// How XLA stores the result of one HLO op on a narrow float: flushed where the CPU flushes
/// (float32 upcasts only: float16 values of a narrow format are never float32 subnormals),
/// rounded to the upcast type, converted to the narrow dtype.
struct Steps {
    codec: Codec,
    via_f16: bool,
    ftz: bool,
}

impl Steps {
    /// The steps of the narrow float `d` (`None` for another dtype).
    fn of(d: DType, ftz: bool) -> Option<Steps> {
        let format = d.format().filter(|f| f.kind == NarrowKind::Float)?;
        let codec = Codec::for_library(format.name, Library::MlDtypes).ok()?;
        let via_f16 = (0..=255u8)
            .map(|c| codec.decode_f64(c))
            .all(|v| v.is_nan() || f16::from_f64(v).to_f64() == v);
        Some(Steps {
            codec,
            via_f16,
            ftz,
        })
    }

    /// An operand as the op reads it (the CPU's DAZ mode, float32 upcasts).
    fn read(&self, x: f32) -> f32 {
        if self.ftz && !self.via_f16 {
            x.flush()
        } else {
            x
        }
    }

    /// One op's result stored: flushed, rounded to the upcast type, converted to the dtype.
    fn store(&self, x: f32) -> f32 {
        let x = match self.via_f16 {
            true => f16::from_f32(x).to_f32(),
            false => self.read(x),
        };
        let code = codec::encode_f32(self.codec.format, &self.codec.rules, x);
        self.codec.decode_f32(code)
    }
}

/// Runs `plan` as XLA does on a narrow dtype where the semantics say so
/// ([`NarrowSteps::XlaEachOp`]) and the op differs from "upcast, compute, round once";
/// `None` otherwise. `views` hold the operands' values in their carriers; the answer is in
/// the result's carrier.
pub(crate) fn run(
    sem: &Semantics,
    plan: &Plan,
    views: &[View<'_>],
) -> Option<Result<Array, KernelError>> {
    if OpSemantics::of(sem).narrow_steps != NarrowSteps::XlaEachOp
        || plan.inputs != plan.operands
        || plan.compute != plan.result
    {
        return None;
    }
    let name = plan.op.info().kernel;
    let d = plan.compute;
    let int = d
        .format()
        .is_some_and(|f| matches!(f.kind, NarrowKind::SignedInt | NarrowKind::UnsignedInt));
    if int {
        return match name {
            "reciprocal" => Some(Err(KernelError::NegativePower)),
            "mean" => Some(int_mean(plan.op, d, *views.first()?)),
            _ => None,
        };
    }
    let steps = Steps::of(d, sem.flush_subnormals)?;
    let x = f32::slice(views[0])?;
    let done = match (name, views) {
        ("sum" | "prod" | "max" | "min", [_]) => Array::from(vec![reduce(&steps, name, x)?]),
        ("mean", [_]) => Array::from(vec![mean(&steps, x)]),
        ("arcsin", [_]) => Array::from(x.iter().map(|&v| arcsin(&steps, v)).collect::<Vec<_>>()),
        ("floor_divide", [_, b]) => {
            let y = f32::slice(*b).filter(|y| y.len() == x.len())?;
            let store = |v: f32| steps.store(v);
            let q = x.iter().zip(y).map(|(&a, &b)| {
                store(<f32 as XlaOps>::xla_floor_div(
                    steps.read(a),
                    steps.read(b),
                    store,
                ))
            });
            Array::from(q.collect::<Vec<_>>())
        }
        _ => return None,
    };
    Some(Ok(done))
}

/// A whole-array `sum`, `prod`, `max` or `min` in XLA's order, every partial result stored.
fn reduce(steps: &Steps, name: &str, x: &[f32]) -> Option<f32> {
    let format = steps.codec.format;
    let (identity, f): (f32, fn(f32, f32) -> f32) = match name {
        "sum" => (0.0, |a, b| a + b),
        "prod" => (1.0, |a, b| a * b),
        // XLA folds e8m0's finfo.min/finfo.max identity constants to NaN
        _ if !format.signed => (f32::NAN, <f32 as XlaOps>::xla_max),
        "max" if format.has_inf() => (f32::NEG_INFINITY, <f32 as XlaOps>::xla_max),
        "max" => (-format.max_value() as f32, <f32 as XlaOps>::xla_max),
        _ if format.has_inf() => (f32::INFINITY, <f32 as XlaOps>::xla_min),
        _ => (format.max_value() as f32, <f32 as XlaOps>::xla_min),
    };
    let step = |a: f32, b: f32| steps.store(f(steps.read(a), steps.read(b)));
    let init = if identity.is_nan() {
        identity
    } else {
        steps.store(identity)
    };
    Some(order::xla_tree(x, init, step))
}

/// `jnp.mean` of a whole narrow float array: the stored sum times the reciprocal (in the
/// upcast type) of the count converted into the dtype.
fn mean(steps: &Steps, x: &[f32]) -> f32 {
    let sum = reduce(steps, "sum", x).unwrap_or(f32::NAN);
    let count = steps.store(x.len() as f32);
    let up = |v: f32| match steps.via_f16 {
        true => f16::from_f32(v).to_f32(),
        false => v,
    };
    steps.store(steps.read(sum) * up(1.0 / count))
}

/// CHLO's `asin`, `t + t` with `t = atan2(x, 1 + sqrt((1 − x)(1 + x)))`, every op stored.
fn arcsin(steps: &Steps, x: f32) -> f32 {
    let s = |v: f32| steps.store(v);
    let r = |v: f32| steps.read(v);
    let x = r(x);
    let p = s(r(s(1.0 - x)) * r(s(1.0 + x)));
    let t = s(x.atan2(r(s(r(s(r(p).sqrt())) + 1.0))));
    s(r(t) + r(t))
}

/// `jnp.mean` of a whole int2/uint2 array: the wrapping sum divided, as XLA divides integers,
/// by the count converted into the dtype.
fn int_mean(op: crate::Op, d: DType, x: View<'_>) -> Result<Array, KernelError> {
    let Some(format) = d.format() else {
        return Err(KernelError::NoKernel { op });
    };
    // a C cast to the low bits, as `round_into` wraps
    let wrap = |v: i64| format.wrap(v);
    let wide = cast_array(x, DType::Int64);
    let vals = i64::slice(wide.view()).unwrap_or(&[]);
    let sum = wrap(vals.iter().fold(0i64, |a, &v| a.wrapping_add(v)));
    let count = wrap(vals.len() as i64);
    // every bit set for a zero divisor: -1, which wraps to the unsigned maximum
    let q = wrap(<i64 as Arith>::div_xla(sum, count));
    Ok(cast_array(
        Array::from(vec![q]).view(),
        super::arith::carrier(d),
    ))
}

/// The semantics a plan on narrow dtypes runs its carrier computation with: the element
/// functions of [`OpSemantics::narrow_ops`], the CPU's flush to zero off for the ops of
/// [`OpSemantics::narrow_flush_exempt`] and [`OpSemantics::narrow_reads_raw`] (whose carrier
/// result [`flushes_result`] then flushes).
pub(crate) fn semantics_for(sem: Semantics, plan: &Plan) -> Semantics {
    let os = OpSemantics::of(&sem);
    let name = plan.op.info().kernel;
    let raw = os.narrow_flush_exempt.contains(&name) || os.narrow_reads_raw.contains(&name);
    Semantics {
        flush_subnormals: sem.flush_subnormals && !raw,
        // the element functions of the framework's narrow dtypes (ml_dtypes' for NumPy)
        name: match os.narrow_ops {
            "" => sem.name,
            ops => ops,
        },
        ..sem
    }
}

/// Whether the carrier result of a plan on narrow dtypes is written with the CPU's flush to
/// zero though its inputs were read as they are ([`OpSemantics::narrow_reads_raw`]).
pub(crate) fn flushes_result(sem: &Semantics, plan: &Plan) -> bool {
    sem.flush_subnormals
        && OpSemantics::of(sem)
            .narrow_reads_raw
            .contains(&plan.op.info().kernel)
}
