//! Replays the recordings of issue 10 (`tests/fixtures/resolve-forms/*.txt.gz`, written by
//! `tools/oracle/record_forms.py`) through the same code path as `promote resolve` (JSON query
//! in, JSON answer out), the same way `tests/conformance.rs` replays the operators.
//!
//! Each cell belongs to a family: `function` (`add:function int8 1`), `tnp`
//! (`tf.experimental.numpy`), `result_type`, `promote_types`, `can_cast`, `nary`
//! (concatenate/stack/where/clip), `dtype` (`dtype=`), `casting` (`casting=` with `out=`),
//! `operator` (the operators under a framework setting). One table row per fixture and family;
//! every family of every fixture must match 100%; misses are written to
//! `CARGO_TARGET_TMPDIR/forms-misses-NAME-FAMILY.txt`.
//!
//! `PROMOTE_POLICY=NAME` replays one fixture;
//! `PROMOTE_FAMILY=F` one family.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use promote::{builtin, query, Call};

#[derive(Default)]
struct Tally {
    cells: usize,
    matched: usize,
    unrecordable: usize,
    misses: Vec<String>,
}

fn read_gz(path: &Path) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("fixture opens"))
        .read_to_string(&mut text)
        .expect("fixture is gzip text");
    text
}

/// The family of a cell (see the module's documentation).
fn family(cell: &str) -> &'static str {
    let head = cell.split_whitespace().next().unwrap_or("");
    let (op, form) = head.split_once(':').unwrap_or((head, ""));
    if cell.contains(" dtype=") && op != "can_cast" {
        return "dtype";
    }
    if cell.contains(" casting=") && op != "can_cast" {
        return "casting";
    }
    match (op, form) {
        ("result_type", _) => "result_type",
        ("promote_types", _) => "promote_types",
        ("can_cast", _) => "can_cast",
        ("concatenate" | "stack" | "where" | "clip", _) => "nary",
        (_, "function") => "function",
        (_, "tnp") => "tnp",
        _ => "operator",
    }
}

/// The answer the engine gives a cell, as a compact token.
fn answer(policy: &dyn promote::Policy, cell: &str) -> String {
    let call: Call = match cell.parse() {
        Ok(c) => c,
        Err(e) => return format!("(does not parse: {e})"),
    };
    let q = query::call_json(&call).to_string();
    let got: serde_json::Value =
        serde_json::from_str(&query::answer_line(policy, &q)).expect("answers are JSON");
    query::answer_token(&got)
}

fn replay(name: &str, path: &Path, only: Option<&str>) -> BTreeMap<&'static str, Tally> {
    // PROMOTE_POLICY_DIR=policies: the policy files from disk (iterate without rebuilding)
    let policy: std::sync::Arc<dyn promote::Policy> = match std::env::var("PROMOTE_POLICY_DIR") {
        Ok(dir) => std::sync::Arc::new(
            promote::load_file(&Path::new(&dir).join(format!("{name}.toml")))
                .unwrap_or_else(|e| panic!("{e}")),
        ),
        Err(_) => builtin(name).unwrap_or_else(|e| panic!("fixture {name} has no policy: {e}")),
    };
    let mut tallies: BTreeMap<&'static str, Tally> = BTreeMap::new();
    for line in read_gz(path).lines().filter(|l| !l.starts_with('#')) {
        let (cell, want) = line
            .rsplit_once(" : ")
            .unwrap_or_else(|| panic!("bad fixture line {line:?}"));
        let fam = family(cell);
        if only.is_some_and(|o| o != fam) {
            continue;
        }
        let t = tallies.entry(fam).or_default();
        t.cells += 1;
        if want == "X" {
            t.unrecordable += 1;
            continue;
        }
        let got = answer(&*policy, cell);
        if got == want {
            t.matched += 1;
        } else {
            t.misses.push(format!("{cell} : want {want}, got {got}"));
        }
    }
    tallies
}

/// The fixtures of `resolve-forms` whose name is a built-in policy (settings such as
/// `torch@default_float=float64` wait for `--set`), sorted.
fn fixtures() -> Vec<(String, std::path::PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/resolve-forms");
    let only = std::env::var("PROMOTE_POLICY").ok();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures dir")
        .filter_map(|e| Some(e.ok()?.path()))
        .filter_map(|p| {
            let name = p
                .file_name()?
                .to_str()?
                .strip_suffix(".txt.gz")?
                .to_string();
            Some((name, p))
        })
        .filter(|(name, _)| builtin(name).is_ok())
        .filter(|(name, _)| only.as_deref().is_none_or(|o| o == name))
        .collect();
    files.sort();
    files
}

#[test]
fn every_recorded_form_cell_matches() {
    let family_only = std::env::var("PROMOTE_FAMILY").ok();
    let dump = Path::new(env!("CARGO_TARGET_TMPDIR"));
    println!("\n| policy | family | cells | matched | not recordable (X) | conformance |");
    println!("| --- | --- | ---: | ---: | ---: | ---: |");
    let mut failed = Vec::new();
    for (name, path) in fixtures() {
        for (fam, t) in replay(&name, &path, family_only.as_deref()) {
            let answerable = t.cells - t.unrecordable;
            println!(
                "| {name} | {fam} | {} | {} | {} | {:.3}% |",
                t.cells,
                t.matched,
                t.unrecordable,
                100.0 * t.matched as f64 / answerable.max(1) as f64
            );
            let _ = std::fs::write(
                dump.join(format!("forms-misses-{name}-{fam}.txt")),
                t.misses.join("\n"),
            );
            if !t.misses.is_empty() {
                let first: Vec<_> = t.misses.iter().take(20).collect();
                failed.push(format!(
                    "{name} {fam}: {} mismatches, first: {first:#?}",
                    t.misses.len()
                ));
            }
        }
    }
    assert!(failed.is_empty(), "{failed:#?}");
}
