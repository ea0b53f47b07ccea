//! NumPy's float16 unary ops on all 65,536 float16 bit patterns
//! (tests/fixtures/eval-f16/numpy.txt.gz, recorded by tools/oracle/record_f16_unary.py),
//! replayed bit for bit under the `numpy` policy, on every SIMD path this CPU has, both
//! element by element and through the table / SIMD loop a long array takes
//! (`kernel::ops::lookup`).
//!
//! `exp` and `log10` (SVML's, `kernel::libm::svml::exp`, `kernel::libm::svml::log10`) and most others match
//! on every pattern. NumPy computes the rest through SVML's float32 functions, which the
//! kernels do not port yet; the exact miss count of every op is pinned in [`KNOWN_MISSES`], so
//! that any change (better or worse) shows.

use std::io::{BufRead, BufReader};

use half::f16;
use promote::kernel::{arch, execute, Array, Semantics};
use promote::{builtin, Call, Policy};

/// (op, patterns where the kernels differ from NumPy 2.4.6 on AVX512_ICL): the float16 ops
/// NumPy sends through SVML and the kernels compute with the C library's float32 functions
/// (an out-of-domain operand gives `-nan` as NumPy's does: `OpSemantics::domain_nan_negative`).
const KNOWN_MISSES: &[(&str, usize)] = &[
    ("exp", 0),
    ("expm1", 0),
    ("log", 0),
    ("log1p", 0),
    ("log2", 0),
    ("log10", 0),
    ("sin", 2),
    ("cos", 2),
    ("tan", 0),
    ("arcsin", 0),
    ("arctan", 0),
    ("sinh", 0),
    ("tanh", 0),
    ("sqrt", 0),
];

struct Fixture {
    ops: Vec<String>,
    /// Per op, the result bits of every pattern (index = input bits).
    results: Vec<Vec<u16>>,
}

fn fixture() -> Fixture {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/eval-f16/numpy.txt.gz"
    );
    let file = std::fs::File::open(path).expect("fixture opens");
    let mut lines = BufReader::new(flate2::read::GzDecoder::new(file)).lines();
    let header = lines.next().expect("a header").expect("text");
    let ops: Vec<String> = header
        .split(" ops: ")
        .nth(1)
        .expect("the header names the ops")
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let mut results = vec![vec![0u16; 65536]; ops.len()];
    let mut seen = 0usize;
    for line in lines {
        let line = line.expect("text");
        let cells: Vec<u16> = line
            .split(' ')
            .map(|c| u16::from_str_radix(c, 16).expect("hex bits"))
            .collect();
        assert_eq!(cells.len(), ops.len() + 1, "{line}");
        for (k, &bits) in cells[1..].iter().enumerate() {
            results[k][usize::from(cells[0])] = bits;
        }
        seen += 1;
    }
    assert_eq!(seen, 65536, "a line per pattern");
    Fixture { ops, results }
}

/// promote's `op` of `x` under the `numpy` policy, as bits.
fn run(op: &str, x: &[f16]) -> Vec<u16> {
    let numpy = builtin("numpy").unwrap();
    let call: Call = format!("{op} float16").parse().unwrap();
    let plan = numpy.resolve(&call).unwrap();
    let y = execute(&plan, &[Array::from(x.to_vec()).view()], &Semantics::NUMPY).unwrap();
    let Array::Float16(y) = y else {
        panic!("{op} float16 is float16 under numpy")
    };
    y.iter().map(|v| v.to_bits()).collect()
}

fn misses(want: &[u16], got: &[u16]) -> Vec<usize> {
    (0..got.len())
        .filter(|&i| want[i % 65536] != got[i])
        .collect()
}

#[test]
fn numpy_float16_unary_ops_on_every_pattern() {
    let fx = fixture();
    let all: Vec<f16> = (0..=u16::MAX).map(f16::from_bits).collect();
    // four times over: long enough for the table (and exp's SIMD loop)
    let long: Vec<f16> = all
        .iter()
        .cycle()
        .take(4 * all.len() + 5)
        .copied()
        .collect();
    let mut report = Vec::new();
    for (op, want) in fx.ops.iter().zip(&fx.results) {
        let Some(&(_, known)) = KNOWN_MISSES.iter().find(|(o, _)| o == op) else {
            let n = misses(want, &run(op, &all)).len();
            report.push(format!("{op}: {n} misses, not listed in KNOWN_MISSES"));
            continue;
        };
        for path in arch::supported() {
            arch::set_path(path).unwrap();
            let short = misses(want, &run(op, &all));
            let first: Vec<String> = short.iter().take(4).map(|i| format!("{i:#06x}")).collect();
            if short.len() != known {
                report.push(format!(
                    "{op} ({path:?}): {} misses, not {known}: {first:?}",
                    short.len()
                ));
            }
            let long_misses = misses(want, &run(op, &long)).len();
            if long_misses != 4 * short.len() {
                report.push(format!(
                    "{op} ({path:?}): {long_misses} misses on the long array"
                ));
            }
        }
        arch::set_path(arch::detected()).unwrap();
    }
    assert!(report.is_empty(), "{}", report.join("\n"));
}
