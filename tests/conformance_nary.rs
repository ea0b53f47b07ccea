//! The op-less questions and the n-ary ops of issue 10, replayed from the recordings of the real
//! frameworks (`tests/fixtures/resolve-forms/*.txt.gz`, `tools/oracle/record_forms.py`) through
//! the same path as `promote resolve` (JSON query in, JSON answer out):
//!
//! * `result_type` (any number of operands; `result_type:flexible` is TensorFlow's
//!   `flexible_dtypes.result_type`), `promote_types` (two dtypes), `can_cast` (`[from, to]` and
//!   `casting=`; the answer `True`/`False`);
//! * the n-ary ops `concatenate`, `stack`, `where` (condition first), `clip` (`:tnp`: TensorFlow's
//!   `tf.experimental.numpy` entry point).
//!
//! One table row per policy and question; the pairs in [`COMPLETE`] must match 100 %, the others
//! print their figures and write their misses to `CARGO_TARGET_TMPDIR/nary-misses-NAME-Q.txt`.
//! `PROMOTE_POLICY=NAME` replays one fixture, `PROMOTE_QUESTION=Q` one question.
//!
//! The second half states NumPy's order promises as properties: `np.result_type` under NEP 50
//! does not depend on the operands' order (`test_permutations_do_not_influence_result`); NumPy
//! 1's value-based `result_type` does, and the recorded counterexamples say where.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use promote::{builtin, query, Call, Policy};
use proptest::prelude::*;

/// The questions of this file (`order`: `tests/fixtures/resolve-nary/`, `np.result_type` over
/// every ordered triple of NumPy's dtypes, `tools/oracle/record_nary_order.py`).
const QUESTIONS: &[&str] = &["result_type", "promote_types", "can_cast", "nary", "order"];

/// (policy, question) pairs that replay 100 %.
const COMPLETE: &[(&str, &str)] = &[
    ("array-api", "can_cast"),
    ("array-api", "nary"),
    ("array-api", "promote_types"),
    ("array-api", "result_type"),
    ("jax", "can_cast"),
    ("jax", "nary"),
    ("jax", "promote_types"),
    ("jax", "result_type"),
    ("jax-strict", "can_cast"),
    ("jax-strict", "nary"),
    ("jax-strict", "promote_types"),
    ("jax-strict", "result_type"),
    ("jax-x64", "can_cast"),
    ("jax-x64", "nary"),
    ("jax-x64", "promote_types"),
    ("jax-x64", "result_type"),
    ("numpy", "can_cast"),
    ("numpy", "nary"),
    ("numpy", "order"),
    ("numpy", "promote_types"),
    ("numpy", "result_type"),
    ("numpy1", "can_cast"),
    ("numpy1", "nary"),
    ("numpy1", "order"),
    ("numpy1", "promote_types"),
    ("numpy1", "result_type"),
    ("oneflow", "can_cast"),
    ("oneflow", "nary"),
    ("oneflow", "promote_types"),
    ("oneflow", "result_type"),
    ("paddle", "can_cast"),
    ("paddle", "nary"),
    ("paddle", "promote_types"),
    ("paddle", "result_type"),
    ("tf", "can_cast"),
    ("tf", "nary"),
    ("tf", "promote_types"),
    ("tf", "result_type"),
    ("tf-all", "can_cast"),
    ("tf-all", "nary"),
    ("tf-all", "promote_types"),
    ("tf-all", "result_type"),
    ("tf-legacy", "can_cast"),
    ("tf-legacy", "nary"),
    ("tf-legacy", "promote_types"),
    ("tf-legacy", "result_type"),
    ("tf-safe", "can_cast"),
    ("tf-safe", "nary"),
    ("tf-safe", "promote_types"),
    ("tf-safe", "result_type"),
    ("torch", "can_cast"),
    ("torch", "nary"),
    ("torch", "promote_types"),
    ("torch", "result_type"),
];

fn read_gz(path: &Path) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("fixture opens"))
        .read_to_string(&mut text)
        .expect("fixture is gzip text");
    text
}

/// The question a fixture line asks, if it is one of [`QUESTIONS`] (a `dtype=`/`casting=`
/// argument of an ordinary op belongs to issue 10's other half).
fn question(cell: &str) -> Option<&'static str> {
    let head = cell.split_whitespace().next().unwrap_or("");
    match head.split(':').next().unwrap_or("") {
        "result_type" => Some("result_type"),
        "promote_types" => Some("promote_types"),
        "can_cast" => Some("can_cast"),
        "concatenate" | "stack" | "where" | "clip" => Some("nary"),
        _ => None,
    }
}

/// The answer the engine gives a cell, as a compact token.
fn answer(policy: &dyn Policy, cell: &str) -> String {
    let call: Call = match cell.parse() {
        Ok(c) => c,
        Err(e) => return format!("(does not parse: {e})"),
    };
    let q = query::call_json(&call).to_string();
    let got: serde_json::Value =
        serde_json::from_str(&query::answer_line(policy, &q)).expect("answers are JSON");
    query::answer_token(&got)
}

/// Every recorded cell of a policy: (question, cell, recorded answer), from `resolve-forms`
/// and, where there is one, `resolve-nary` (question `order`).
fn cells(name: &str) -> Vec<(&'static str, String, String)> {
    let mut all = Vec::new();
    for (dir, order) in [("resolve-forms", false), ("resolve-nary", true)] {
        let path = fixture(dir, name);
        if !path.exists() {
            continue;
        }
        for line in read_gz(&path).lines().filter(|l| !l.starts_with('#')) {
            let Some((cell, want)) = line.rsplit_once(" : ") else {
                panic!("bad fixture line {line:?}");
            };
            let q = if order { Some("order") } else { question(cell) };
            if let Some(q) = q {
                all.push((q, cell.to_string(), want.to_string()));
            }
        }
    }
    all
}

fn fixture(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir)
        .join(format!("{name}.txt.gz"))
}

/// The fixtures whose name is a built-in policy (a setting such as
/// `torch@default_float=float64` is another helper's), sorted.
fn policies() -> Vec<String> {
    let dir = fixture("resolve-forms", "x")
        .parent()
        .expect("dir")
        .to_path_buf();
    let only = std::env::var("PROMOTE_POLICY").ok();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("fixtures dir")
        .filter_map(|e| {
            let p = e.ok()?.path();
            Some(
                p.file_name()?
                    .to_str()?
                    .strip_suffix(".txt.gz")?
                    .to_string(),
            )
        })
        .filter(|n| builtin(n).is_ok())
        .filter(|n| only.as_deref().is_none_or(|o| o == n))
        .collect();
    names.sort();
    names
}

#[derive(Default)]
struct Tally {
    cells: usize,
    matched: usize,
    unrecordable: usize,
    misses: Vec<String>,
}

#[test]
fn every_recorded_question_and_nary_cell_matches() {
    let forced = std::env::var("PROMOTE_POLICY").is_ok();
    let only = std::env::var("PROMOTE_QUESTION").ok();
    let dump = Path::new(env!("CARGO_TARGET_TMPDIR"));
    println!("\n| policy | question | cells | matched | not recordable (X) | conformance |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    let mut failed = Vec::new();
    let mut seen = 0;
    for name in policies() {
        let policy = builtin(&name).expect("a built-in policy");
        let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
        for (q, cell, want) in cells(&name) {
            if only.as_deref().is_some_and(|o| o != q) {
                continue;
            }
            let t = tallies.entry(q).or_default();
            t.cells += 1;
            if want == "X" {
                t.unrecordable += 1;
                continue;
            }
            let got = answer(&*policy, &cell);
            if got == want {
                t.matched += 1;
            } else {
                t.misses.push(format!("{cell} : want {want}, got {got}"));
            }
        }
        for (q, t) in tallies {
            seen += t.cells;
            let answerable = (t.cells - t.unrecordable).max(1);
            println!(
                "| {name} | {q} | {} | {} | {} | {:.3}% |",
                t.cells,
                t.matched,
                t.unrecordable,
                100.0 * t.matched as f64 / answerable as f64
            );
            let _ = std::fs::write(
                dump.join(format!("nary-misses-{name}-{q}.txt")),
                t.misses.join("\n"),
            );
            if !t.misses.is_empty() && (forced || COMPLETE.contains(&(name.as_str(), q))) {
                let first: Vec<_> = t.misses.iter().take(20).collect();
                failed.push(format!(
                    "{name} {q}: {} mismatches, first: {first:#?}",
                    t.misses.len()
                ));
            }
        }
    }
    assert!(seen > 0, "no recorded cells of {QUESTIONS:?} were found");
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The recorded `result_type` cells of a policy grouped by their operands as a multiset: for
/// each group, every recorded (order, answer).
fn orders(name: &str) -> BTreeMap<Vec<String>, Vec<(String, String)>> {
    let mut groups: BTreeMap<Vec<String>, Vec<(String, String)>> = BTreeMap::new();
    for (q, cell, want) in cells(name) {
        if !(q == "order" || q == "result_type") || cell.contains(':') || want == "X" {
            continue;
        }
        let mut key: Vec<String> = cell.split_whitespace().skip(1).map(String::from).collect();
        key.sort();
        groups.entry(key).or_default().push((cell, want));
    }
    groups
}

/// NumPy 2 promises that `np.result_type`'s answer does not depend on the operands' order
/// (numpy/_core/tests/test_dtype.py `test_permutations_do_not_influence_result`): in every
/// recording each set of operands has one answer, whatever its order, and the engine gives it
/// for each order.
#[test]
fn numpy_result_type_does_not_depend_on_operand_order_where_recorded() {
    let numpy = builtin("numpy").expect("numpy");
    let groups = orders("numpy");
    assert!(
        groups.values().filter(|g| g.len() >= 6).count() > 500,
        "the permutation grid is recorded"
    );
    for (key, cells) in &groups {
        let first = &cells[0].1;
        assert!(
            cells.iter().all(|(_, a)| a == first),
            "NumPy 2 recorded {key:?} in orders with different answers: {cells:?}"
        );
        for (cell, want) in cells {
            assert_eq!(&answer(&*numpy, cell), want, "{cell}");
        }
    }
}

/// NumPy 1's value-based `result_type` folds in call order: where the recordings hold one set
/// of operands in two orders with two answers (`result_type(bool, 300, int8)` is int32,
/// `(int8, bool, 300)` int16), the engine gives each order its own answer.
#[test]
fn numpy1_result_type_depends_on_operand_order_where_recorded() {
    let numpy1 = builtin("numpy1").expect("numpy1");
    let mut counterexamples = 0;
    for cells in orders("numpy1").values() {
        if cells.iter().all(|(_, a)| *a == cells[0].1) {
            continue;
        }
        counterexamples += 1;
        for (cell, want) in cells {
            assert_eq!(&answer(&*numpy1, cell), want, "{cell}");
        }
    }
    assert!(
        counterexamples >= 10,
        "only {counterexamples} order-dependent sets recorded"
    );
}

/// The operands the order property draws from: arrays of every NumPy dtype, 0-d arrays holding
/// edge values, and Python scalars (the kinds of the recordings).
fn numpy_operand() -> impl Strategy<Value = String> {
    let dtypes = [
        "bool",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "int8",
        "int16",
        "int32",
        "int64",
        "float16",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ];
    prop_oneof![
        proptest::sample::select(dtypes.to_vec()).prop_map(String::from),
        proptest::sample::select(vec![
            "uint8(255)",
            "int8(-1)",
            "int16(1)",
            "uint64(1)",
            "float16(1.0)",
            "float64(1.0)",
            "complex64(1j)",
            "bool(True)",
        ])
        .prop_map(String::from),
        proptest::sample::select(vec!["True", "1", "-1", "300", "1.0", "1e+300", "1j"])
            .prop_map(String::from),
    ]
}

proptest! {
    /// `test_permutations_do_not_influence_result`, as a property of the engine's `numpy`
    /// policy: any 1 to 5 operands give the same `result_type` (and `stack`) in any order.
    #[test]
    fn numpy_result_type_is_order_free(
        (ops, shuffled) in proptest::collection::vec(numpy_operand(), 1..=5)
            .prop_flat_map(|v| (Just(v.clone()), Just(v).prop_shuffle()))
    ) {
        let numpy = builtin("numpy").expect("numpy");
        for op in ["result_type", "stack"] {
            let a = answer(&*numpy, &format!("{op} {}", ops.join(" ")));
            let b = answer(&*numpy, &format!("{op} {}", shuffled.join(" ")));
            prop_assert_eq!(a, b, "{} {:?} vs {:?}", op, ops, shuffled);
        }
    }
}
