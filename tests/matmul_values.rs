//! Replays the recorded values of `a @ b` (tests/fixtures/eval-matmul/*.jsonl.gz, written by
//! tools/oracle/record_values_matmul.py) through `promote::kernel::matmul`, bit for bit
//! (every NaN equals every NaN; -0.0 and 0.0 differ): the result dtype, shape and values.
//!
//! Calls the framework refused (its `unsupported` answer, with its message in the fixture) must be
//! refused by the policy's plan too. What the kernels do not reproduce is listed in [`KNOWN`],
//! each entry counted and bounded.
//!
//! A missing fixture file skips its test with a notice; a missing policy fails it.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use promote::kernel::matmul;
use promote::kernel::value::{format_array, parse_array};
use promote::{builtin, Call, DType, Policy};
use serde_json::Value;

/// Where a framework's matmul does what the kernels do not reproduce: (policies, what, why, at
/// most this many cases per policy). Every other case must match bit for bit; each of these is
/// counted and printed by the replay.
struct Known {
    policies: &'static [&'static str],
    applies: fn(dtype: DType, a: &[usize], b: &[usize]) -> bool,
    why: &'static str,
    at_most: usize,
}

fn vector_operand(_: DType, a: &[usize], b: &[usize]) -> bool {
    a.len() == 1 || b.len() == 1
}

const KNOWN: &[Known] = &[
    Known {
        policies: &["numpy", "torch", "jax", "jax-x64", "tf", "paddle"],
        applies: |d, _, _| d.is_complex(),
        why: "complex matmul: the frameworks' complex GEMM/GEMV/dot kernels order the four real products (and so round, and propagate inf and nan) each its own way; the kernels reproduce OpenBLAS's ZGEMM (NumPy's 2-d and batched cases), not the others",
        at_most: 21,
    },
    Known {
        policies: &["numpy", "jax", "jax-x64"],
        applies: vector_operand,
        why: "a matrix times a vector is a GEMV (OpenBLAS, Eigen), which sums k in blocks, not in order as the GEMM does",
        at_most: 2,
    },
    Known {
        policies: &["jax", "jax-x64"],
        applies: |d, _, _| matches!(d, DType::Float32 | DType::Float64),
        why: "XLA:CPU's float32 (and some float64) dots run Eigen's tensor contraction, which sums k in blocks with several accumulators; not reproduced",
        at_most: 7,
    },
    Known {
        policies: &["tf"],
        applies: |d, a, _| d == DType::Float64 && a.last() == Some(&8),
        why: "TensorFlow's float64 MatMul (Eigen) blocks k = 8 into two accumulators; not reproduced",
        at_most: 1,
    },
    Known {
        policies: &["tf"],
        applies: vector_operand,
        why: "TensorFlow's `@` (MatMul) refuses 1-d operands (`ndims must be >= 2`); the kernels follow NumPy's 1-d rules",
        at_most: 18,
    },
    Known {
        policies: &["tf"],
        applies: |d, a, _| d == DType::Int16 && a.len() == 3,
        why: "TensorFlow's BatchMatMulV2 has an int16 kernel where MatMul has none: 3-d int16 operands compute, 2-d ones are refused (the tf policy refuses matmul of int16)",
        at_most: 2,
    },
];

fn known(policy: &str, dtype: DType, a: &[usize], b: &[usize]) -> Option<&'static Known> {
    KNOWN
        .iter()
        .find(|k| k.policies.contains(&policy) && (k.applies)(dtype, a, b))
}

fn texts(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

fn shape(v: &Value) -> Vec<usize> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_u64().unwrap() as usize)
        .collect()
}

/// One recorded case against the kernel: `None` when it matches.
fn check(policy: &dyn Policy, rec: &Value) -> Option<String> {
    let dtype = DType::parse(rec["dtype"].as_str().unwrap()).unwrap();
    let call: Call = format!("matmul {dtype} {dtype}").parse().unwrap();
    let r = &rec["r"];
    let plan = match (policy.resolve(&call), r.get("error")) {
        (Err(_), Some(_)) => return None,
        (Err(e), None) => {
            return Some(format!(
                "the framework computes it; the policy refuses: {e}"
            ))
        }
        (Ok(p), Some(_)) => {
            return Some(format!(
                "the framework refuses it ({}); the policy resolves it to {}",
                r["message"], p.result
            ))
        }
        (Ok(p), None) => p,
    };
    let a = parse_array(dtype, &texts(&rec["a"]["data"])).unwrap();
    let b = parse_array(dtype, &texts(&rec["b"]["data"])).unwrap();
    let (sa, sb) = (shape(&rec["a"]["shape"]), shape(&rec["b"]["shape"]));
    let sem = policy.semantics();
    let (got, got_shape) = match matmul(&plan, a.view(), &sa, b.view(), &sb, &sem) {
        Ok(x) => x,
        Err(e) => return Some(format!("the kernel refuses it: {e}")),
    };
    let want_dtype = DType::parse(r["dtype"].as_str().unwrap()).unwrap();
    if plan.result != want_dtype || got_shape != shape(&r["shape"]) {
        return Some(format!(
            "want {want_dtype} {:?}, got {} {got_shape:?}",
            shape(&r["shape"]),
            plan.result
        ));
    }
    let want = parse_array(want_dtype, &texts(&r["data"])).unwrap();
    if want == got {
        return None;
    }
    let (w, g) = (format_array(want.view()), format_array(got.view()));
    let diffs: Vec<String> = w
        .iter()
        .zip(&g)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| format!("[{i}] want {x} got {y}"))
        .collect();
    Some(format!(
        "{} of {} differ: {}",
        diffs.len(),
        w.len(),
        diffs[..diffs.len().min(4)].join("; ")
    ))
}

fn replay(policy_name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eval-matmul")
        .join(format!("{policy_name}.jsonl.gz"));
    if !path.exists() {
        println!(
            "NOTICE: {} is absent: skipping the {policy_name} matmul replay (record it with tools/oracle/record_values_matmul.py)",
            path.display()
        );
        return;
    }
    let policy = builtin(policy_name).unwrap();
    let f = std::fs::File::open(&path).unwrap();
    let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(f));
    let (mut total, mut refused, mut bad) = (0, 0, Vec::new());
    let mut counted: BTreeMap<&'static str, usize> = BTreeMap::new();
    for (i, line) in reader.lines().enumerate().skip(1) {
        let rec: Value = serde_json::from_str(&line.unwrap()).unwrap();
        total += 1;
        refused += usize::from(rec["r"].get("error").is_some());
        if let Some(what) = check(&*policy, &rec) {
            let dtype = DType::parse(rec["dtype"].as_str().unwrap()).unwrap();
            let (sa, sb) = (shape(&rec["a"]["shape"]), shape(&rec["b"]["shape"]));
            if let Some(k) = known(policy_name, dtype, &sa, &sb) {
                *counted.entry(k.why).or_default() += 1;
                continue;
            }
            bad.push(format!(
                "  line {}: {} {} {} @ {}: {what}",
                i + 1,
                rec["case"].as_str().unwrap(),
                rec["dtype"].as_str().unwrap(),
                rec["a"]["shape"],
                rec["b"]["shape"]
            ));
        }
    }
    assert!(total > 0, "{} holds no cases", path.display());
    println!("{policy_name}: {total} matmul cases, {refused} refused by the framework");
    for k in KNOWN {
        if let Some(&n) = counted.get(k.why) {
            println!(
                "NOTICE: {n} {policy_name} matmul cases differ as listed: {}",
                k.why
            );
            assert!(
                n <= k.at_most,
                "{n} {policy_name} cases fall under a listed difference (at most {}): {}",
                k.at_most,
                k.why
            );
        }
    }
    assert!(
        bad.is_empty(),
        "{} of {total} {policy_name} matmul cases differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn numpy_matmul_values_replay_bit_for_bit() {
    replay("numpy");
}

#[test]
fn torch_matmul_values_replay_bit_for_bit() {
    replay("torch");
}

#[test]
fn jax_matmul_values_replay_bit_for_bit() {
    replay("jax");
}

#[test]
fn jax_x64_matmul_values_replay_bit_for_bit() {
    replay("jax-x64");
}

#[test]
fn tf_matmul_values_replay_bit_for_bit() {
    replay("tf");
}

#[test]
fn paddle_matmul_values_replay_bit_for_bit() {
    replay("paddle");
}
