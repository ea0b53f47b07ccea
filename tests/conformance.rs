//! Replays every recorded cell of `tests/fixtures/resolve/*.txt.gz` through the same code path as
//! `promote resolve` (JSON query in, JSON answer out) and demands 100% per policy.
//! Cells the framework itself could not answer (it crashed or hung: `X`) are counted apart.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use promote::{builtin, query, Call};

struct Report {
    cells: usize,
    matched: usize,
    unrecordable: usize,
    header: String,
    misses: Vec<String>,
}

fn replay(policy_name: &str, path: &Path) -> Report {
    let mut text = String::new();
    let file = std::fs::File::open(path).expect("fixture opens");
    if path.extension().is_some_and(|e| e == "gz") {
        flate2::read::GzDecoder::new(file)
            .read_to_string(&mut text)
            .expect("fixture is gzip text");
    } else {
        std::io::BufReader::new(file)
            .read_to_string(&mut text)
            .expect("fixture is text");
    }
    // PROMOTE_POLICY_DIR=policies: read the policy files from disk instead of the embedded ones
    // (iterate on a policy's TOML without rebuilding the library)
    let policy: std::sync::Arc<dyn promote::Policy> = match std::env::var("PROMOTE_POLICY_DIR") {
        Ok(dir) => std::sync::Arc::new(
            promote::load_file(&Path::new(&dir).join(format!("{policy_name}.toml")))
                .unwrap_or_else(|e| panic!("{e}")),
        ),
        Err(_) => builtin(policy_name)
            .unwrap_or_else(|e| panic!("fixture {} has no policy: {e}", path.display())),
    };
    let mut r = Report {
        cells: 0,
        matched: 0,
        unrecordable: 0,
        header: String::new(),
        misses: Vec::new(),
    };
    for line in text.lines() {
        if let Some(h) = line.strip_prefix('#') {
            r.header = h.trim().to_string();
            continue;
        }
        let (cell, want) = line
            .rsplit_once(" : ")
            .unwrap_or_else(|| panic!("bad fixture line {line:?}"));
        r.cells += 1;
        if want == "X" {
            r.unrecordable += 1;
            continue;
        }
        let call: Call = cell
            .parse()
            .unwrap_or_else(|e| panic!("fixture cell {cell:?} does not parse: {e}"));
        let q = query::call_json(&call).to_string();
        let got: serde_json::Value =
            serde_json::from_str(&query::answer_line(&*policy, &q)).expect("answers are JSON");
        let got = query::answer_token(&got);
        if got == want {
            r.matched += 1;
        } else {
            r.misses.push(format!("{cell} : want {want}, got {got}"));
        }
    }
    r
}

#[test]
fn every_recorded_cell_matches() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/resolve");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .collect();
    files.sort();
    let only = std::env::var("PROMOTE_POLICY").ok();
    // PROMOTE_FIXTURE=path (with PROMOTE_POLICY=name): replay one file, e.g. a recording in progress.
    if let (Some(name), Ok(path)) = (&only, std::env::var("PROMOTE_FIXTURE")) {
        files = vec![std::path::PathBuf::from(path)];
        let r = replay(name, &files[0]);
        println!(
            "{name}: {} of {} cells match ({} X)",
            r.matched, r.cells, r.unrecordable
        );
        let _ = std::fs::write(
            Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("misses-{name}.txt")),
            r.misses.join("\n"),
        );
        assert!(r.misses.is_empty(), "{} mismatches", r.misses.len());
        return;
    }
    let mut reports = BTreeMap::new();
    for f in files {
        let Some(name) = f
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".txt.gz"))
        else {
            continue;
        };
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        if builtin(name).is_err() && std::env::var("PROMOTE_SKIP_MISSING").is_ok() {
            continue;
        }
        reports.insert(name.to_string(), replay(name, &f));
    }
    println!("\n| policy | cells | matched | not recordable (X) | conformance | recorded from |");
    println!("| --- | ---: | ---: | ---: | ---: | --- |");
    let mut failed = false;
    for (name, r) in &reports {
        let answerable = r.cells - r.unrecordable;
        println!(
            "| {name} | {} | {} | {} | {:.3}% | {} |",
            r.cells,
            r.matched,
            r.unrecordable,
            100.0 * r.matched as f64 / answerable.max(1) as f64,
            r.header
                .split_whitespace()
                .find_map(|w| w.strip_prefix("framework="))
                .unwrap_or("?")
        );
        failed |= !r.misses.is_empty();
    }
    let dump = Path::new(env!("CARGO_TARGET_TMPDIR"));
    for (name, r) in &reports {
        let _ = std::fs::write(dump.join(format!("misses-{name}.txt")), r.misses.join("\n"));
        if !r.misses.is_empty() {
            println!(
                "\n{name}: {} mismatches (all in {}), first 40:",
                r.misses.len(),
                dump.join(format!("misses-{name}.txt")).display()
            );
            for m in r.misses.iter().take(40) {
                println!("  {m}");
            }
        }
    }
    assert!(
        !failed,
        "some recorded cells do not match (see the table above)"
    );
}

/// The fixtures of a folder under `tests/fixtures/` (`NAME.txt.gz`, sorted; only
/// `PROMOTE_POLICY`'s when it is set), as (policy name, path).
fn fixtures(folder: &str) -> Vec<(String, std::path::PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(folder);
    let only = std::env::var("PROMOTE_POLICY").ok();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures dir")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter_map(|p| {
            let name = p
                .file_name()?
                .to_str()?
                .strip_suffix(".txt.gz")?
                .to_string();
            Some((name, p))
        })
        .filter(|(name, _)| only.as_deref().is_none_or(|o| o == name))
        .collect();
    files.sort();
    assert!(
        !files.is_empty() || only.is_some(),
        "no fixtures in {}",
        dir.display()
    );
    files
}

/// Replay the fixtures of `folder` and print one table row per policy; the misses of each are
/// written to `CARGO_TARGET_TMPDIR/{folder}-misses-NAME.txt`. Returns the misses of the
/// policies `complete` says must match (all of them when `PROMOTE_POLICY` is set), except the
/// `known` misses `(policy, miss)`, which are counted and printed; a known miss that no longer
/// misses is returned too, so the list stays exact.
fn replay_table(
    folder: &str,
    what: &str,
    complete: impl Fn(&str) -> bool,
    known: &[(&str, &str)],
) -> Vec<String> {
    println!("\n| policy | {what} | matched | not recordable (X) | conformance |");
    println!("| --- | ---: | ---: | ---: | ---: |");
    let dump = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let forced = std::env::var("PROMOTE_POLICY").is_ok();
    let mut failed = Vec::new();
    for (name, f) in fixtures(folder) {
        let r = replay(&name, &f);
        let answerable = r.cells - r.unrecordable;
        println!(
            "| {name} | {} | {} | {} | {:.3}% |",
            r.cells,
            r.matched,
            r.unrecordable,
            100.0 * r.matched as f64 / answerable.max(1) as f64
        );
        let _ = std::fs::write(
            dump.join(format!("{folder}-misses-{name}.txt")),
            r.misses.join("\n"),
        );
        let is_known = |m: &str| known.contains(&(name.as_str(), m));
        let listed: Vec<&str> = known.iter().filter(|k| k.0 == name).map(|k| k.1).collect();
        if !listed.is_empty() {
            println!("{name}: {} known misses, listed in the test", listed.len());
        }
        for gone in listed.iter().filter(|m| !r.misses.iter().any(|x| x == *m)) {
            failed.push(format!(
                "{name}: listed as a known miss, but matches now: {gone}"
            ));
        }
        let misses: Vec<&String> = r.misses.iter().filter(|m| !is_known(m)).collect();
        if !misses.is_empty() && (complete(&name) || forced) {
            let first = misses.iter().take(20).collect::<Vec<_>>();
            failed.push(format!(
                "{name}: {} mismatches, first: {first:#?}",
                misses.len()
            ));
        }
    }
    failed
}

/// The policies whose ops recordings (`tests/fixtures/resolve-ops/`) must replay at 100%: every
/// recorded one (OneFlow has no recording: no runnable OneFlow, see policies/oneflow.toml).
const OPS_COMPLETE: &[&str] = &[
    "array-api",
    "jax",
    "jax-strict",
    "jax-x64",
    "numpy",
    "numpy1",
    "paddle",
    "tf",
    "tf-all",
    "tf-legacy",
    "tf-safe",
    "torch",
];

/// Replays `tests/fixtures/resolve-ops/*.txt.gz` (issue 12: unary ops, more binary ops,
/// reductions with `dtype=`, `divmod`'s two results) the same way.
#[test]
fn every_recorded_op_cell_matches() {
    let failed = replay_table(
        "resolve-ops",
        "op cells",
        |n| OPS_COMPLETE.contains(&n),
        &[],
    );
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The Python operators of the issue-12 ops that have one (`-a`, `+a`, `abs(a)`, `~a`,
/// `a << b`, `a >> b`, `divmod(a, b)`, `round(a)`), recorded by `tools/oracle/record_ops.py
/// --operator` into `tests/fixtures/resolve-ops-operator/` and replayed in the default form
/// (`resolve-ops/` holds the same cells through the namespace function, `OP:function`).
/// 100% for every recorded policy.
#[test]
fn every_recorded_operator_cell_matches() {
    let failed = replay_table("resolve-ops-operator", "operator cells", |_| true, &[]);
    assert!(failed.is_empty(), "{failed:#?}");
}

/// Scalar with scalar (`tests/fixtures/resolve-scalars/*.txt.gz`): the framework's namespace
/// function on two Python scalars (`np.add(1, 1)`, `torch.add`, `tf.math.add`, ...; an operator
/// on two Python scalars never reaches a framework), the 21 element-wise ops over every pair of
/// the 46 literals of `tools/oracle/cases.py`, recorded by `tools/oracle/record_scalars.py`.
/// A second table, 100% per policy.
#[test]
fn every_recorded_scalar_pair_matches() {
    let failed = replay_table("resolve-scalars", "scalar x scalar cells", |_| true, &[]);
    assert!(failed.is_empty(), "{failed:#?}");
}

/// The policies whose narrow recordings must replay at 100%: every recording in
/// `tests/fixtures/resolve-narrow/` (every policy whose framework has a narrow dtype).
const NARROW_COMPLETE: &[&str] = &[
    "jax",
    "jax-x64",
    "jax-strict",
    "numpy",
    "numpy1",
    "paddle",
    "tf",
    "tf-all",
    "tf-legacy",
    "tf-safe",
    "torch",
];

/// The narrow dtypes (issue 11: float8, float6, float4, int4, int2, complex32): `add` of each
/// with every dtype, with literals, as 0-d and weak tensors (`tests/fixtures/resolve-narrow/`,
/// recorded by `tools/oracle/record_narrow.py`). 100% for the policies of [`NARROW_COMPLETE`].
#[test]
fn every_recorded_narrow_cell_matches() {
    let failed = replay_table(
        "resolve-narrow",
        "narrow dtype cells",
        |n| NARROW_COMPLETE.contains(&n),
        &[],
    );
    assert!(failed.is_empty(), "{failed:#?}");
}
