//! Arithmetic on the narrow dtypes, as the frameworks compute it: every narrow value is read
//! exactly into a wider classic dtype (its [`carrier`]: float32 for the narrow floats, int8 or
//! uint8 for the narrow integers, complex64 for complex32), the plan runs there with the
//! existing kernels, and a narrow result is rounded **once** into its dtype with the
//! framework's cast rules ([`round_into`]).
//!
//! That is what the frameworks do (recorded in `tests/fixtures/eval-narrow/`):
//! ml_dtypes' ufunc loops (NumPy) convert each operand to `float`, compute, and convert the
//! result back; XLA's CPU backend (JAX) upcasts float8/int4 ops to float32/int8 the same way;
//! PyTorch's few float8 kernels (`mul`, `neg`, `abs`, comparisons) and its complex32 ones
//! compute in float32/complex64 too. Which ops a framework lacks for a narrow dtype is policy
//! data (`unsupported` in `policies/*.toml`), answered before anything runs.
//!
//! Values of a narrow dtype travel in its carrier everywhere in the kernels (data read by
//! `eval`, [`crate::kernel::eval::Evaluated::data`] of a narrow result): each is exactly a
//! value of the narrow dtype.
//!
//! ```
//! use promote::kernel::narrow::{arith::{carrier, round_into}, rules::Library};
//! use promote::kernel::Array;
//! use promote::DType;
//! assert_eq!(carrier(DType::FLOAT8_E4M3FN), DType::Float32);
//! let sum = Array::from(vec![1.0f32 + 0.0625, 500.0]);
//! let r = round_into(sum.view(), DType::FLOAT8_E4M3FN, Library::MlDtypes).unwrap();
//! assert_eq!(r.dtype(), DType::Float32); // held in the carrier
//! let v = promote::kernel::value::format_array(r.view());
//! assert_eq!(v, ["1.0", "nan"]); // 1.0625 is a tie (to even); 500 overflows to NaN in ml_dtypes
//! ```

use half::f16;

use super::format::Kind as NarrowKind;
use super::rules::Library;
use super::{Codec, NarrowError};
use crate::dtype::{DType, Kind};
use crate::kernel::array::{Array, Element, View, C32};
use crate::kernel::cast::cast_array;
use crate::plan::Plan;

/// The classic dtype that holds every value of `d` exactly (`d` itself when it is classic).
///
/// ```
/// use promote::kernel::narrow::arith::carrier;
/// use promote::DType;
/// assert_eq!(carrier(DType::FLOAT8_E8M0FNU), DType::Float32);
/// assert_eq!(carrier("int4".parse().unwrap()), DType::Int8);
/// assert_eq!(carrier("uint2".parse().unwrap()), DType::UInt8);
/// assert_eq!(carrier("complex32".parse().unwrap()), DType::Complex64);
/// assert_eq!(carrier(DType::Int16), DType::Int16);
/// ```
pub fn carrier(d: DType) -> DType {
    match d.format().map(|f| f.kind) {
        None => d,
        Some(NarrowKind::Float) => DType::Float32,
        Some(NarrowKind::SignedInt) => DType::Int8,
        Some(NarrowKind::UnsignedInt) => DType::UInt8,
        Some(NarrowKind::Complex) => DType::Complex64,
    }
}

/// Whose cast rules round a result into a narrow dtype under a policy's element semantics
/// ([`crate::kernel::Semantics::name`]): PyTorch's `.to()` for `torch`, ml_dtypes' for the
/// others (NumPy's ufunc loops are ml_dtypes'; XLA converts as ml_dtypes does).
///
/// ```
/// use promote::kernel::narrow::{arith::library_of, rules::Library};
/// assert_eq!(library_of("torch"), Library::Torch);
/// assert_eq!(library_of("xla-cpu"), Library::MlDtypes);
/// ```
pub fn library_of(semantics: &str) -> Library {
    match semantics {
        "torch" => Library::Torch,
        _ => Library::MlDtypes,
    }
}

/// Whether a plan reads, computes in or returns a narrow dtype.
///
/// ```
/// use promote::kernel::narrow::arith::touches_narrow;
/// use promote::{builtin, Call, Policy};
/// let numpy = builtin("numpy").unwrap();
/// let plan = numpy.resolve(&"add float8_e4m3fn float8_e4m3fn".parse::<Call>().unwrap()).unwrap();
/// assert!(touches_narrow(&plan));
/// let plan = numpy.resolve(&"add int8 int8".parse::<Call>().unwrap()).unwrap();
/// assert!(!touches_narrow(&plan));
/// ```
pub fn touches_narrow(plan: &Plan) -> bool {
    [plan.compute, plan.result]
        .iter()
        .chain(&plan.inputs)
        .chain(&plan.operands)
        .any(|d| !d.is_classic())
}

/// Values of any classic dtype cast to the narrow dtype `to` with `library`'s rules (rounded
/// to nearest even once; NaN, infinity and overflow as the library maps them; integers wrap),
/// held in `to`'s [`carrier`]. complex32 rounds each part to float16.
///
/// ```
/// use promote::kernel::narrow::{arith::round_into, rules::Library};
/// use promote::kernel::Array;
/// use promote::DType;
/// let int4: DType = "int4".parse().unwrap();
/// let r = round_into(Array::from(vec![7i8, 8, -9]).view(), int4, Library::MlDtypes).unwrap();
/// assert_eq!(r, Array::from(vec![7i8, -8, 7])); // wraps
/// let e4m3 = DType::FLOAT8_E4M3FN;
/// let r = round_into(Array::from(vec![500.0f32]).view(), e4m3, Library::Torch).unwrap();
/// assert_eq!(r, Array::from(vec![448.0f32])); // PyTorch saturates
/// ```
pub fn round_into(v: View<'_>, to: DType, library: Library) -> Result<Array, NarrowError> {
    let Some(format) = to.format() else {
        return Ok(cast_array(v, to));
    };
    let from = v.dtype();
    match format.kind {
        NarrowKind::Complex => {
            let wide = cast_array(v, DType::Complex64);
            let parts = C32::slice(wide.view()).unwrap_or(&[]);
            let half = |x: f32| f16::from_f32(x).to_f32();
            Ok(Array::from(
                parts
                    .iter()
                    .map(|z| C32::new(half(z.re), half(z.im)))
                    .collect::<Vec<_>>(),
            ))
        }
        NarrowKind::SignedInt | NarrowKind::UnsignedInt
            if matches!(from.kind(), Kind::Bool | Kind::Signed | Kind::Unsigned) =>
        {
            // integers wrap to the low bits (a C cast), exactly, whatever their width
            let wide = cast_array(v, DType::Int64);
            let wrapped: Vec<i64> = i64::slice(wide.view())
                .unwrap_or(&[])
                .iter()
                .map(|&x| format.wrap(x))
                .collect();
            Ok(cast_array(Array::from(wrapped).view(), carrier(to)))
        }
        _ => {
            let codec = Codec::for_library(format.name, library)?;
            let mut codes = vec![0u8; v.len()];
            if from == DType::Float64 {
                codec.encode_f64_slice(f64::slice(v).unwrap_or(&[]), &mut codes)?;
            } else {
                let wide = cast_array(v, DType::Float32);
                codec.encode_f32_slice(f32::slice(wide.view()).unwrap_or(&[]), &mut codes)?;
            }
            let mut values = vec![0f32; codes.len()];
            codec.decode_f32_slice(&codes, &mut values)?;
            Ok(cast_array(Array::from(values).view(), carrier(to)))
        }
    }
}

/// Texts as values of the narrow dtype `d`, held in its [`carrier`]: each is read as the
/// carrier reads it and rounded into `d` as a 0-d tensor's `value` is (ml_dtypes' rules).
///
/// ```
/// use promote::kernel::narrow::arith::parse;
/// use promote::kernel::Array;
/// use promote::DType;
/// assert_eq!(parse(DType::FLOAT8_E4M3FN, &["0.3", "-448"]).unwrap(), Array::from(vec![0.3125f32, -448.0]));
/// assert!(parse("int4".parse().unwrap(), &["8"]).is_err());
/// ```
pub fn parse<S: AsRef<str>>(d: DType, texts: &[S]) -> Result<Array, String> {
    let read = super::super::value::parse_array(carrier(d), texts)?;
    hold(d, read)
}

/// An array of `d`'s [`carrier`] made a value of `d`: floats rounded with ml_dtypes' rules (as
/// a 0-d `value` is read), integers checked to fit.
///
/// ```
/// use promote::kernel::narrow::arith::hold;
/// use promote::kernel::Array;
/// let uint2 = "uint2".parse().unwrap();
/// assert!(hold(uint2, Array::from(vec![3u8])).is_ok());
/// let e = hold(uint2, Array::from(vec![4u8])).unwrap_err();
/// assert!(e.contains("0..=3"));
/// ```
pub fn hold(d: DType, a: Array) -> Result<Array, String> {
    let Some(format) = d.format() else {
        return Ok(a);
    };
    let held = round_into(a.view(), d, Library::MlDtypes).map_err(|e| e.to_string())?;
    if matches!(format.kind, NarrowKind::SignedInt | NarrowKind::UnsignedInt) && held != a {
        let (lo, hi) = match format.kind {
            NarrowKind::SignedInt => (
                -(1i64 << (format.bits - 1)),
                (1i64 << (format.bits - 1)) - 1,
            ),
            _ => (0, (1i64 << format.bits) - 1),
        };
        return Err(format!(
            "a value does not fit {d}, whose range is {lo}..={hi}"
        ));
    }
    Ok(held)
}

/// Run a plan that touches a narrow dtype: operands cast to a narrow input dtype are rounded
/// into it, the plan runs on the carriers through `exec` (the one classic execution path),
/// and a narrow result is rounded once into its dtype.
///
/// `views` hold the operands' values in their carriers.
///
/// ```
/// use promote::kernel::narrow::{arith::run_narrow, rules::Library};
/// use promote::kernel::{execute, Array, Semantics};
/// use promote::{builtin, Call, Policy};
/// let plan = builtin("numpy").unwrap().resolve(&"multiply float8_e5m2 float8_e5m2".parse::<Call>().unwrap()).unwrap();
/// let x = Array::from(vec![3.0f32, 57344.0]);
/// let exec = |p: &promote::Plan, v: &[promote::kernel::View<'_>]| execute(p, v, &Semantics::NUMPY).map_err(|e| e.to_string());
/// let r = run_narrow(&plan, &[x.view(), x.view()], Library::MlDtypes, exec, |e| e.to_string()).unwrap();
/// assert_eq!(r, Array::from(vec![8.0f32, f32::INFINITY])); // 9 rounds to 8 (ties to even); e5m2 overflows to inf
/// ```
pub fn run_narrow<E>(
    plan: &Plan,
    views: &[View<'_>],
    library: Library,
    exec: impl Fn(&Plan, &[View<'_>]) -> Result<Array, E>,
    narrow_error: impl Fn(NarrowError) -> E,
) -> Result<Array, E> {
    let rounded = views
        .iter()
        .zip(&plan.operands)
        .zip(&plan.inputs)
        .map(
            |((v, &from), &to)| match (from != to, plan.op.class() == "conversion") {
                (true, true) => convert_carrier(*v, from, to, library).map(Some),
                (true, false) if !to.is_classic() => round_into(*v, to, library).map(Some),
                _ => Ok(None),
            },
        )
        .collect::<Result<Vec<Option<Array>>, NarrowError>>()
        .map_err(&narrow_error)?;
    let views: Vec<View<'_>> = views
        .iter()
        .zip(&rounded)
        .map(|(v, r)| r.as_ref().map_or(*v, Array::view))
        .collect();
    let wide = Plan {
        operands: views.iter().map(|v| v.dtype()).collect(),
        inputs: plan.inputs.iter().map(|&d| carrier(d)).collect(),
        compute: carrier(plan.compute),
        result: carrier(plan.result),
        promoted: carrier(plan.promoted),
        ..plan.clone()
    };
    let data = exec(&wide, &views)?;
    match plan.result.is_classic() {
        true => Ok(data),
        false => round_into(data.view(), plan.result, library).map_err(narrow_error),
    }
}

/// The explicit conversion (`astype`) of values of `from`, held in its [`carrier`], to `to`
/// with the library's cast semantics ([`crate::kernel::astype::convert`]: ml_dtypes' NaN and
/// overflow rules, PyTorch's saturation, ...), held in `to`'s carrier.
fn convert_carrier(
    v: View<'_>,
    from: DType,
    to: DType,
    library: Library,
) -> Result<Array, NarrowError> {
    use crate::kernel::astype::{convert, Values};
    let values = match from.format().map(|f| (f.kind, f.bits)) {
        None => Values::Classic(v.to_array()),
        Some((NarrowKind::Complex, _)) => {
            let z = C32::slice(v).unwrap_or(&[]);
            let parts = z.iter().map(|z| [f16::from_f32(z.re), f16::from_f32(z.im)]);
            Values::Complex32(parts.collect())
        }
        Some((NarrowKind::Float, _)) => {
            let codec = Codec::for_library(from.name(), library)?;
            let mut codes = vec![0u8; v.len()];
            codec.encode_f32_slice(f32::slice(v).unwrap_or(&[]), &mut codes)?;
            Values::Codes(from, codes)
        }
        Some((_, bits)) => {
            let wide = cast_array(v, DType::Int64);
            let mask = ((1u16 << bits) - 1) as i64;
            let ints = i64::slice(wide.view()).unwrap_or(&[]);
            Values::Codes(from, ints.iter().map(|&x| (x & mask) as u8).collect())
        }
    };
    convert(&values, to, library)?.widened(library)
}
