//! Replays NumPy's and PyTorch's values for the ops of issue 12
//! (tests/fixtures/eval-ops/{numpy,torch}.jsonl.gz, written by
//! tools/oracle/record_values_ops.py) through `promote eval`'s entry point
//! (`promote::kernel::eval::answer_line` under the `numpy` and `torch` policies: the policy
//! resolves the plan, the one dispatch table runs the kernel, the answer is the JSON line a user
//! reads). A record along an axis (eval reduces whole tensors only) replays through
//! `promote::kernel::ops::kernel` with the recorded input, compute and result dtypes. A record
//! the framework refuses must be refused by eval too.
//!
//! Every value must match bit for bit (every NaN equals every NaN; -0.0 and 0.0 differ), except
//! where [`ALLOWED`] lists a deviation for (framework, op, result dtype): at most `max_values`
//! elements, each at most `max_ulps` units in the last place from the recorded value (complex:
//! per part). The allowances are the frameworks' own vectorized math (NumPy's SVML/AVX-512
//! loops, PyTorch's SLEEF), which is not correctly rounded, against the C library's functions
//! the kernels call; and PyTorch's reductions where its order is not reproduced. Each is
//! counted: an allowance that is no longer needed fails the test too (tighten it).

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use promote::kernel::array::Array;
use promote::kernel::eval::answer_line;
use promote::kernel::ops::{kernel, Args};
use promote::kernel::value::{format_array, parse_array};
use promote::kernel::Semantics;
use promote::{builtin, DType, Policy};
use serde_json::{json, Value};

/// An allowed deviation: (framework, op, result dtype, max_values, max_ulps, why).
type Allowance = (
    &'static str,
    &'static str,
    &'static str,
    usize,
    u64,
    &'static str,
);

/// An allowance for values that are not within any ulp bound (a NaN or an infinity on one side).
const ANY: u64 = u64::MAX;

const ALLOWED: &[Allowance] = &[
    ("numpy", "absolute", "float32", 20, 1, "NumPy's AVX-512 complex absolute (its own scaled square root in loops_unary_complex) against the C library's hypot"),
    ("numpy", "absolute", "float64", 22, 1, "NumPy's AVX-512 complex absolute (its own scaled square root in loops_unary_complex) against the C library's hypot"),
    ("numpy", "angle", "float32", 23, 1, "NumPy's angle is arctan2(imag, real) through its SIMD arctan2 (SVML on AVX-512), not the C library's atan2"),
    ("numpy", "angle", "float64", 4, 1, "NumPy's angle is arctan2(imag, real) through its SIMD arctan2 (SVML on AVX-512), not the C library's atan2"),
    ("numpy", "arcsin", "float32", 3, 1, "NumPy's AVX-512 arcsin for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "arcsin", "float64", 2, 1, "NumPy's AVX-512 arcsin for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "arctan", "float32", 17, 1, "NumPy's AVX-512 arctan for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "arctan2", "float32", 339, 2, "NumPy's AVX-512 arctan2 for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "arctan2", "float64", 24, 1, "NumPy's AVX-512 arctan2 for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "cos", "float32", 8, 1, "NumPy's AVX-512 cos for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "exp", "float32", 38, 2, "NumPy's AVX-512 exp for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "exp", "float64", 2, 1, "NumPy's AVX-512 exp for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "expm1", "float32", 16, 1, "NumPy's AVX-512 expm1 for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "expm1", "float64", 10, 1, "NumPy's AVX-512 expm1 for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "log", "float32", 8, 1, "NumPy's AVX-512 log for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "log10", "float32", 36, 2, "NumPy's AVX-512 log10 for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "log10", "float64", 10, 1, "NumPy's AVX-512 log10 for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "log1p", "float32", 6, 1, "NumPy's AVX-512 log1p for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "log1p", "float64", 7, 1, "NumPy's AVX-512 log1p for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "log2", "float32", 4, 1, "NumPy's AVX-512 log2 for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "prod", "complex128", 2, 26, "NumPy's complex multiply reduction contracts its products into fused multiply-adds in an order not reproduced here"),
    ("numpy", "sin", "float32", 12, 1, "NumPy's AVX-512 sin for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "sinh", "float32", 17, 1, "NumPy's AVX-512 sinh for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "sinh", "float64", 20, 1, "NumPy's AVX-512 sinh for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "tan", "float32", 22, 2, "NumPy's AVX-512 tan for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "tan", "float64", 2, 1, "NumPy's AVX-512 tan for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "tanh", "float32", 23, 2, "NumPy's AVX-512 tanh for float32 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("numpy", "tanh", "float64", 14, 2, "NumPy's AVX-512 tanh for float64 (SVML or its own SIMD loop) is not correctly rounded; the kernels call the C library's"),
    ("torch", "absolute", "float64", 1, 1, "PyTorch's vectorized absolute for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "angle", "float32", 6, 1, "PyTorch's vectorized angle for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "angle", "float64", 1, 1, "PyTorch's vectorized angle for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "arcsin", "float32", 1, 1, "PyTorch's vectorized arcsin for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "arcsin", "float64", 2, 1, "PyTorch's vectorized arcsin for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "arctan", "float32", 3, 1, "PyTorch's vectorized arctan for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "arctan", "float64", 1, 1, "PyTorch's vectorized arctan for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "arctan2", "float32", 396, 1, "PyTorch's vectorized arctan2 for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "arctan2", "float64", 10, 1, "PyTorch's vectorized arctan2 for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "cos", "float32", 18, 1, "PyTorch's vectorized cos for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "cos", "float64", 1, 1, "PyTorch's vectorized cos for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "expm1", "complex128", 8, 2, "PyTorch's vectorized complex expm1 (SLEEF parts) against the kernels' scalar formula"),
    ("torch", "expm1", "complex64", 6, 1, "PyTorch's vectorized complex expm1 (SLEEF parts) against the kernels' scalar formula"),
    ("torch", "expm1", "float32", 15, 1, "PyTorch's vectorized expm1 for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "expm1", "float64", 6, 1, "PyTorch's vectorized expm1 for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "float_power", "float64", 28, 1, "PyTorch's vectorized float_power for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "fmod", "bfloat16", 25, ANY, "PyTorch's vectorized fmod (SLEEF) gives NaN where the quotient overflows (a subnormal divisor); the C library's fmod is exact"),
    ("torch", "fmod", "float32", 32, ANY, "PyTorch's vectorized fmod (SLEEF) gives NaN where the quotient overflows (a subnormal divisor); the C library's fmod is exact"),
    ("torch", "fmod", "float64", 40, ANY, "PyTorch's vectorized fmod (SLEEF) gives NaN where the quotient overflows (a subnormal divisor); the C library's fmod is exact"),
    ("torch", "log", "float32", 12, 1, "PyTorch's vectorized log for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "log10", "float32", 8, 1, "PyTorch's vectorized log10 for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "log10", "float64", 10, 1, "PyTorch's vectorized log10 for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "log1p", "complex128", 12, ANY, "PyTorch's vectorized complex log1p differs in the last bits and gives (nan+nanj) for (inf+nanj); the kernels run its scalar formula"),
    ("torch", "log1p", "complex64", 11, ANY, "PyTorch's vectorized complex log1p differs in the last bits and gives (nan+nanj) for (inf+nanj); the kernels run its scalar formula"),
    ("torch", "log1p", "float32", 3, 1, "PyTorch's vectorized log1p for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "log1p", "float64", 4, 1, "PyTorch's vectorized log1p for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "logaddexp", "float32", 4, 1, "PyTorch's vectorized logaddexp for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "logaddexp", "float64", 2, 2, "PyTorch's vectorized logaddexp for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "prod", "bfloat16", 1, 7, "PyTorch's vectorized product reduction multiplies in SIMD lanes; the kernels multiply in order"),
    ("torch", "prod", "complex128", 3, 29, "PyTorch's vectorized product reduction multiplies in SIMD lanes; the kernels multiply in order"),
    ("torch", "prod", "complex64", 7, 4, "PyTorch's vectorized product reduction multiplies in SIMD lanes; the kernels multiply in order"),
    ("torch", "prod", "float32", 3, ANY, "PyTorch's vectorized product reduction multiplies in SIMD lanes (order not reproduced; a lane that overflows to inf meets a 0 in another: NaN)"),
    ("torch", "prod", "float64", 2, 17, "PyTorch's vectorized product reduction multiplies in SIMD lanes; the kernels multiply in order"),
    ("torch", "reciprocal", "complex64", 1, 1, "PyTorch's AVX-512 complex reciprocal (vectorized arithmetic) against its scalar formula"),
    ("torch", "sin", "float32", 2, 1, "PyTorch's vectorized sin for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "sinh", "bfloat16", 1, ANY, "PyTorch's vectorized sinh (SLEEF) overflows to inf above |x| of about 709 (float64; bfloat16 through float32 near 89) where the C library's sinh is finite"),
    ("torch", "sinh", "float64", 11, ANY, "PyTorch's vectorized sinh (SLEEF) overflows to inf above |x| of about 709 (float64; bfloat16 through float32 near 89) where the C library's sinh is finite"),
    ("torch", "sqrt", "float32", 7, 1, "PyTorch's vectorized sqrt for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "sqrt", "float64", 4, 1, "PyTorch's vectorized sqrt for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "square", "complex64", 1, 1, "PyTorch's AVX-512 complex square (vectorized arithmetic) against its scalar formula"),
    ("torch", "std", "float32", 5, 1, "PyTorch adds the parts' variances of a complex input in float32 (real_out + imag_out); the kernels add them in double"),
    ("torch", "tan", "float32", 10, 1, "PyTorch's vectorized tan for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "tan", "float64", 1, 1, "PyTorch's vectorized tan for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "tanh", "float32", 11, 2, "PyTorch's vectorized tanh for float32 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "tanh", "float64", 9, 1, "PyTorch's vectorized tanh for float64 (SLEEF, 1-ulp variants) is not the C library's"),
    ("torch", "var", "float32", 7, 1, "PyTorch adds the parts' variances of a complex input in float32 (real_out + imag_out); the kernels add them in double"),
];

/// (framework, op, compute dtype, why): ops a framework computes for a dtype that the kernels
/// refuse (`unsupported`), each with the reason.
const UNSUPPORTED: &[(&str, &str, &str, &str)] = &[(
    "torch",
    "logaddexp",
    "complex64|complex128",
    "PyTorch's complex logaddexp (its own case analysis of infinities in _log_add_exp_helper) has no kernel here",
)];

/// Units in the last place between two values of a float dtype (complex: the larger of the
/// parts); `None` if either is not finite or the dtype is not inexact.
fn ulps(dtype: DType, want: &str, got: &str) -> Option<u64> {
    let w = parse_array(dtype, &[want]).ok()?;
    let g = parse_array(dtype, &[got]).ok()?;
    let key = |bits: u64, width: u32| -> i128 {
        let sign = bits >> (width - 1) & 1 == 1;
        let mag = (bits & ((1u64 << (width - 1)) - 1)) as i128;
        if sign {
            -mag
        } else {
            mag
        }
    };
    let d = |a: u64, b: u64, width: u32| -> u64 { key(a, width).abs_diff(key(b, width)) as u64 };
    Some(match (w, g) {
        (Array::Float64(w), Array::Float64(g)) if w[0].is_finite() && g[0].is_finite() => {
            d(w[0].to_bits(), g[0].to_bits(), 64)
        }
        (Array::Float32(w), Array::Float32(g)) if w[0].is_finite() && g[0].is_finite() => {
            d(w[0].to_bits() as u64, g[0].to_bits() as u64, 32)
        }
        (Array::Float16(w), Array::Float16(g)) if w[0].is_finite() && g[0].is_finite() => {
            d(w[0].to_bits() as u64, g[0].to_bits() as u64, 16)
        }
        (Array::BFloat16(w), Array::BFloat16(g)) if w[0].is_finite() && g[0].is_finite() => {
            d(w[0].to_bits() as u64, g[0].to_bits() as u64, 16)
        }
        (Array::Complex64(w), Array::Complex64(g)) => {
            let (w, g) = (w[0], g[0]);
            let part = |a: f32, b: f32| {
                if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
                    Some(0)
                } else if a.is_finite() && b.is_finite() {
                    Some(d(a.to_bits() as u64, b.to_bits() as u64, 32))
                } else {
                    None
                }
            };
            part(w.re, g.re)?.max(part(w.im, g.im)?)
        }
        (Array::Complex128(w), Array::Complex128(g)) => {
            let (w, g) = (w[0], g[0]);
            let part = |a: f64, b: f64| {
                if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) {
                    Some(0)
                } else if a.is_finite() && b.is_finite() {
                    Some(d(a.to_bits(), b.to_bits(), 64))
                } else {
                    None
                }
            };
            part(w.re, g.re)?.max(part(w.im, g.im)?)
        }
        _ => return None,
    })
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// What one fixture's replay found for one (op, result dtype).
#[derive(Default, Debug)]
struct Found {
    deviating: usize,
    max_ulps: u64,
    examples: Vec<String>,
}

/// What a record's call answered: the results as (dtype, values), or the refusal.
type Answer = Result<Vec<(DType, Vec<String>)>, String>;

/// A record along an axis, through the op kernel with the recorded dtypes.
fn direct(rec: &Value, ins: &[Array], sem: &Semantics) -> Answer {
    let op = rec["op"].as_str().unwrap();
    let views: Vec<_> = ins.iter().map(|a| a.view()).collect();
    let result = DType::parse(rec["a"]["dtype"].as_str().unwrap()).unwrap();
    let compute = DType::parse(rec["compute"].as_str().unwrap()).unwrap();
    let shape: Vec<usize> = rec["shape"].as_array().map_or(vec![], |s| {
        s.iter().map(|x| x.as_u64().unwrap() as usize).collect()
    });
    let args = Args {
        inputs: &views,
        compute,
        result,
        shape: &shape,
        axis: rec["axis"].as_u64().map(|x| x as usize),
    };
    let kern = kernel(op, sem).ok_or_else(|| "no kernel".to_string())?;
    let got = kern.run(&args).map_err(|e| e.to_string())?;
    Ok(got
        .iter()
        .map(|g| (g.dtype(), format_array(g.view())))
        .collect())
}

/// A whole-tensor record, as a `promote eval` query line answered by the policy, through the
/// namespace function (`np.round(a)`, not `round(a)`: the recordings call the functions).
fn through_eval(rec: &Value, policy: &dyn Policy) -> Answer {
    let mut q = json!({"op": rec["op"], "form": "function", "operands": rec["in"]});
    if !rec["dtype"].is_null() {
        q["dtype"] = rec["dtype"].clone();
    }
    let answer: Value = serde_json::from_str(&answer_line(policy, &q.to_string())).unwrap();
    if let Some(kind) = answer.get("error") {
        return Err(format!("{kind}: {}", answer["message"]));
    }
    let one = |r: &Value| {
        (
            DType::parse(r["dtype"].as_str().unwrap()).unwrap(),
            texts(&r["data"]),
        )
    };
    Ok(match answer.get("results") {
        Some(rs) => rs.as_array().unwrap().iter().map(one).collect(),
        None => vec![one(&answer)],
    })
}

/// Replays a fixture; the deviations per (op, result dtype), and failures that no ulp can
/// excuse (unsupported, wrong dtype, non-finite mismatch, a refusal not refused).
fn replay(file: &str, sem: &Semantics) -> (usize, BTreeMap<(String, String), Found>, Vec<String>) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eval-ops")
        .join(file);
    let f = std::fs::File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let lines = std::io::BufReader::new(flate2::read::GzDecoder::new(f)).lines();
    let policy = builtin(sem.name).unwrap();
    let (mut checked, mut found, mut hard) =
        (0, BTreeMap::<(String, String), Found>::new(), vec![]);
    for (k, line) in lines.enumerate() {
        let rec: Value = serde_json::from_str(&line.unwrap()).unwrap();
        let (a, op) = (&rec["a"], rec["op"].as_str().unwrap());
        let ins: Vec<Array> = rec["in"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| {
                parse_array(
                    DType::parse(o["dtype"].as_str().unwrap()).unwrap(),
                    &texts(&o["data"]),
                )
                .unwrap()
            })
            .collect();
        let what = format!(
            "line {} {op} {} (compute {})",
            k + 1,
            ins[0].dtype(),
            rec["compute"]
        );
        let along_axis = !rec["axis"].is_null();
        if along_axis && a.get("error").is_some() {
            continue;
        }
        let got = match along_axis {
            true => direct(&rec, &ins, sem),
            false => through_eval(&rec, &*policy),
        };
        let got = match (a.get("error"), got) {
            (Some(_), Err(_)) => continue,
            (Some(e), Ok(_)) => {
                hard.push(format!(
                    "{what}: the framework refuses ({e}), eval computes"
                ));
                continue;
            }
            (None, Ok(g)) => g,
            (None, Err(e)) => {
                let excused = UNSUPPORTED.iter().any(|u| {
                    file.starts_with(u.0)
                        && u.1 == op
                        && u.2
                            .split('|')
                            .any(|d| d == rec["compute"].as_str().unwrap_or(""))
                });
                if !excused {
                    hard.push(format!("{what}: {e}"));
                }
                continue;
            }
        };
        let mut wants = vec![(
            DType::parse(a["dtype"].as_str().unwrap()).unwrap(),
            texts(&a["data"]),
        )];
        if let Some(d2) = a.get("dtype2") {
            wants.push((
                DType::parse(d2.as_str().unwrap()).unwrap(),
                texts(&a["data2"]),
            ));
        }
        if got.len() != wants.len() {
            hard.push(format!(
                "{what}: {} results, want {}",
                got.len(),
                wants.len()
            ));
            continue;
        }
        for ((dt, want), (got_dt, got_t)) in wants.iter().zip(&got) {
            checked += 1;
            if got_dt != dt || got_t.len() != want.len() {
                hard.push(format!(
                    "{what}: got {got_dt} x{} want {dt} x{}",
                    got_t.len(),
                    want.len()
                ));
                continue;
            }
            let entry = found
                .entry((op.to_string(), dt.name().to_string()))
                .or_default();
            compare(op, *dt, want, got_t, &ins, entry);
        }
    }
    found.retain(|_, f| f.deviating > 0);
    (checked, found, hard)
}

/// Counts the values of one result that differ from the recorded ones.
fn compare(op: &str, dt: DType, want: &[String], got: &[String], ins: &[Array], entry: &mut Found) {
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        let same = parse_array(dt, &[w]).unwrap() == parse_array(dt, &[g]).unwrap() || w == g;
        if same {
            continue;
        }
        let input = ins
            .iter()
            .map(|a| format_array(a.view()).get(i).cloned().unwrap_or_default())
            .collect::<Vec<_>>();
        entry.deviating += 1;
        match ulps(dt, w, g) {
            Some(u) => {
                entry.max_ulps = entry.max_ulps.max(u);
                if entry.examples.len() < 3 {
                    entry
                        .examples
                        .push(format!("{op}{input:?}: want {w} got {g} ({u} ulp)"));
                }
            }
            // a non-finite mismatch: only an allowance of ANY ulps covers it
            None => {
                entry.max_ulps = ANY;
                entry
                    .examples
                    .insert(0, format!("{op}{input:?}: want {w} got {g} (not finite)"));
            }
        }
    }
}

fn check(framework: &str, sem: &Semantics) {
    let (checked, found, mut hard) = replay(&format!("{framework}.jsonl.gz"), sem);
    assert!(
        checked > 500,
        "{framework}: only {checked} answers replayed"
    );
    for ((op, dt), f) in &found {
        let allowance = ALLOWED
            .iter()
            .find(|a| a.0 == framework && a.1 == op && a.2 == dt);
        match allowance {
            Some(&(_, _, _, max_values, max_ulps, _)) if f.deviating <= max_values && f.max_ulps <= max_ulps => {}
            _ => hard.push(format!(
                "ROW (\"{framework}\", \"{op}\", \"{dt}\", {}, {}, \"\"),\n{framework} {op} {dt}: {} values differ, up to {} ulp (allowed: {:?}); e.g. {:?}",
                f.deviating,
                if f.max_ulps == ANY { "ANY".to_string() } else { f.max_ulps.to_string() },
                f.deviating,
                f.max_ulps,
                allowance.map(|a| (a.3, a.4)),
                f.examples
            )),
        }
    }
    for a in ALLOWED.iter().filter(|a| a.0 == framework) {
        if !found.contains_key(&(a.1.to_string(), a.2.to_string())) {
            hard.push(format!(
                "{framework} {} {}: allowance no longer needed ({})",
                a.1, a.2, a.5
            ));
        }
    }
    assert!(
        hard.is_empty(),
        "{} failures:\n{}",
        hard.len(),
        hard.join("\n")
    );
}

#[test]
fn numpy_values_replay() {
    check("numpy", &Semantics::NUMPY);
}

#[test]
fn torch_values_replay() {
    check("torch", &Semantics::TORCH);
}

/// NumPy 1.26 (`numpy1`) runs the same kernels: no query of the NumPy fixture answers "no kernel".
#[test]
fn numpy1_computes_every_op() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval-ops/numpy.jsonl.gz");
    let f = std::fs::File::open(path).unwrap();
    let policy = builtin("numpy1").unwrap();
    let (mut computed, mut ops) = (0, std::collections::BTreeSet::new());
    for line in std::io::BufReader::new(flate2::read::GzDecoder::new(f)).lines() {
        let rec: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if !rec["axis"].is_null() {
            continue;
        }
        match through_eval(&rec, &*policy) {
            Ok(_) => {
                computed += 1;
                ops.insert(rec["op"].as_str().unwrap().to_string());
            }
            Err(e) => assert!(!e.contains("no kernel"), "numpy1 {}: {e}", rec["op"]),
        }
    }
    assert!(
        computed > 500 && ops.len() == 59,
        "{computed} computed, {} ops",
        ops.len()
    );
}
