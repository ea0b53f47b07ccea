//! Every execution strategy gives the same bits: the fused kernels, the chunked cast path,
//! small chunks, rayon blocks and streaming stores, on every SIMD path this CPU supports
//! (baseline, AVX2, AVX-512), are checked against a plain serial run of the same plan on the
//! baseline path, for every dtype pair, under the numpy and torch policies.
//!
//! One test function: it changes the process-wide [`Tuning`] and SIMD [`Path`].

use promote::kernel::arch::{set_path, supported, Path};
use promote::kernel::array::{Array, View};
use promote::kernel::compute::Semantics;
use promote::kernel::exec::{execute, set_tuning, Tuning};
use promote::kernel::value::parse_array;
use promote::{builtin, Call, DType, Op, Policy};

/// Edge values per dtype, as text.
fn pool(d: DType) -> Vec<&'static str> {
    match d {
        DType::Bool => vec!["True", "False"],
        DType::UInt8 => vec!["0", "1", "2", "7", "127", "128", "255"],
        DType::UInt16 => vec!["0", "1", "3", "255", "256", "32768", "65535"],
        DType::UInt32 => vec![
            "0",
            "1",
            "7",
            "65536",
            "16777217",
            "2147483648",
            "4294967295",
        ],
        DType::UInt64 => vec![
            "0",
            "1",
            "7",
            "4294967296",
            "9007199254740993",
            "9223372036854775808",
            "18446744073709551615",
        ],
        DType::Int8 => vec!["-128", "-7", "-1", "0", "1", "3", "127"],
        DType::Int16 => vec!["-32768", "-129", "-1", "0", "2", "255", "32767"],
        DType::Int32 => vec![
            "-2147483648",
            "-32769",
            "-2",
            "0",
            "7",
            "16777217",
            "2147483647",
        ],
        DType::Int64 => vec![
            "-9223372036854775808",
            "-7",
            "-1",
            "0",
            "2",
            "9007199254740993",
            "9223372036854775807",
        ],
        DType::BFloat16 | DType::Float16 | DType::Float32 | DType::Float64 => {
            vec![
                "0.0", "-0.0", "1.0", "-2.5", "0.1", "3.0", "1e-300", "65520", "1e10", "inf",
                "-inf", "nan", "7.0",
            ]
        }
        DType::Complex64 | DType::Complex128 => vec![
            "0j",
            "(-0-0j)",
            "(1+0j)",
            "1j",
            "(-1+2j)",
            "(0.5-2.5j)",
            "(inf+0j)",
            "(nan+0j)",
            "(1e+300+1e+300j)",
        ],
        _ => vec![], // the narrow dtypes have no typed kernel (the tests iterate the classic)
    }
}

fn array(d: DType, n: usize, seed: usize) -> Array {
    let p = pool(d);
    let texts: Vec<&str> = (0..n)
        .map(|i| p[(i * 7 + seed * 13 + i / 5) % p.len()])
        .collect();
    parse_array(d, &texts).unwrap()
}

const FAST: Tuning = Tuning {
    chunk_bytes: 256,
    parallel_min: 512,
    stream_min_bytes: 0,
    fused: true,
    prefetch: true,
};
const PLAIN: Tuning = Tuning {
    chunk_bytes: 1 << 20,
    parallel_min: usize::MAX,
    stream_min_bytes: usize::MAX,
    fused: false,
    prefetch: false,
};

/// The plain serial baseline run, then the fast strategies on every SIMD path.
fn agree(plan: &promote::Plan, ins: &[View<'_>], sem: &Semantics, what: &str) {
    set_path(Path::Baseline).unwrap();
    set_tuning(PLAIN);
    let want = execute(plan, ins, sem);
    for path in supported() {
        set_path(path).unwrap();
        set_tuning(FAST);
        let got = execute(plan, ins, sem);
        assert_eq!(got, want, "{what} on {path:?}");
    }
}

#[test]
fn every_path_agrees_with_the_plain_serial_run() {
    assert!(supported().contains(&Path::Baseline));
    let n = 3001;
    let ops = [
        Op::Add,
        Op::Subtract,
        Op::Multiply,
        Op::Divide,
        Op::Maximum,
        Op::Less,
        Op::Equal,
        Op::FloorDivide,
        Op::BitwiseXor,
        Op::LogicalAnd,
    ];
    let mut checked = 0;
    for policy in ["numpy", "torch"] {
        let p = builtin(policy).unwrap();
        let sem = p.semantics();
        for a in DType::classic() {
            for b in DType::classic() {
                let (x, y) = (array(a, n, 1), array(b, n, 2));
                let (x1, y1) = (array(a, 1, 3), array(b, 1, 4));
                for op in ops {
                    let call: Call = format!("{} {a} {b}", op.name()).parse().unwrap();
                    let Ok(plan) = p.resolve(&call) else { continue };
                    for (l, r) in [
                        (x.view(), y.view()),
                        (x1.view(), y.view()),
                        (x.view(), y1.view()),
                    ] {
                        let what =
                            format!("{policy}: {call} (lengths {} and {})", l.len(), r.len());
                        agree(&plan, &[l, r], &sem, &what);
                        checked += 1;
                    }
                }
                // a cast into `out`
                let call: Call = format!("add {a} {b} out=float32").parse().unwrap();
                if let Ok(plan) = p.resolve(&call) {
                    agree(
                        &plan,
                        &[x.view(), y.view()],
                        &sem,
                        &format!("{policy}: {call}"),
                    );
                }
            }
        }
        // reductions: the parallel pairwise tree is the serial one, and NumPy's buffered
        // float64 sum of `mean` (exact integer chunk sums) the same on every path
        for d in DType::classic() {
            let big = array(d, 200_003, 5);
            for op in ["sum", "mean"] {
                let call: Call = format!("{op} {d}").parse().unwrap();
                if let Ok(plan) = p.resolve(&call) {
                    agree(&plan, &[big.view()], &sem, &format!("{policy}: {call}"));
                }
            }
        }
    }
    set_tuning(Tuning::default());
    set_path(promote::kernel::arch::detected()).unwrap();
    assert!(checked > 5000, "only {checked} cases ran");
}
