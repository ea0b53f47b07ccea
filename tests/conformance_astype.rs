//! Issue 11's `astype` (the explicit conversion: `a.astype(d)`, `t.to(d)`, `tf.cast(t, d)`,
//! `xp.astype(a, d)`) between every pair of each policy's dtypes, classic and narrow, replayed
//! against the recordings of the real frameworks (`tests/fixtures/resolve-astype/POLICY.txt.gz`,
//! `tools/oracle/record_astype.py`) through the JSONL path of `promote resolve`
//! (`query::answer_line`). Every cell must match.

use std::io::Read;
use std::path::Path;

use promote::{builtin, query, Call};

const POLICIES: [&str; 12] = [
    "numpy",
    "numpy1",
    "torch",
    "jax",
    "jax-x64",
    "jax-strict",
    "tf",
    "tf-legacy",
    "tf-all",
    "tf-safe",
    "paddle",
    "array-api",
];

fn fixture(policy: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/resolve-astype")
        .join(format!("{policy}.txt.gz"));
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).expect("fixture opens"))
        .read_to_string(&mut text)
        .expect("fixture is gzip text");
    text
}

#[test]
fn every_recorded_astype_cell_matches() {
    let mut failed = Vec::new();
    for policy in POLICIES {
        let p = builtin(policy).unwrap();
        let text = fixture(policy);
        let (mut cells, mut misses) = (0, Vec::new());
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let (cell, want) = line.rsplit_once(" : ").expect("cell : answer");
            assert_ne!(want, "X", "{policy}: {cell} was not recordable");
            cells += 1;
            let call: Call = cell.parse().unwrap_or_else(|e| panic!("{cell}: {e}"));
            let q = query::call_json(&call);
            let got: serde_json::Value =
                serde_json::from_str(&query::answer_line(&*p, &q.to_string())).unwrap();
            let got = query::answer_token(&got);
            if got != want {
                misses.push(format!("{policy}: {cell} : want {want}, got {got}"));
            }
        }
        println!("{policy}: {cells} astype cells, {} misses", misses.len());
        assert!(cells >= 100, "{policy}: only {cells} cells");
        failed.extend(misses);
    }
    assert!(
        failed.is_empty(),
        "{} misses, e.g.\n{}",
        failed.len(),
        failed[..failed.len().min(20)].join("\n")
    );
}

#[test]
fn astype_needs_a_target_and_a_tensor() {
    let numpy = builtin("numpy").unwrap();
    let no_target = r#"{"op": "astype", "operands": [{"dtype": "int8"}]}"#;
    let a: serde_json::Value =
        serde_json::from_str(&query::answer_line(&*numpy, no_target)).unwrap();
    assert_eq!(a["error"], "invalid", "{a}");
    assert!(a["message"].as_str().unwrap().contains("\"dtype\""), "{a}");
    let scalar =
        r#"{"op": "astype", "operands": [{"scalar": "int", "value": "1"}], "dtype": "int8"}"#;
    let a: serde_json::Value = serde_json::from_str(&query::answer_line(&*numpy, scalar)).unwrap();
    assert_eq!(a["error"], "invalid", "{a}");
    let refused = r#"{"op": "astype", "operands": [{"dtype": "int4"}], "dtype": "uint4"}"#;
    let a: serde_json::Value = serde_json::from_str(&query::answer_line(&*numpy, refused)).unwrap();
    assert_eq!(a["error"], "unsupported", "{a}");
    assert!(a["message"].as_str().unwrap().contains("float32"), "{a}");
}
