//! Issue 10's arguments that steer promotion, replayed against the recordings of the real
//! frameworks through the JSONL path of `promote resolve` (`query::answer_line`):
//!
//! - `dtype=` and `casting=` (with `out=`): every such cell of `tests/fixtures/resolve-forms/`
//!   (`tools/oracle/record_forms.py`, families `dtype` and `casting`), for every policy;
//! - framework settings: each recording made under a setting, replayed through the policy the
//!   setting starts from with the query's `"set"` key — `torch@default_float=float64`, JAX's
//!   strict promotion with x64 off, JAX's `explicit_x64_dtypes` (`allow`, `error`), and the recordings of the other modes (`tf-all`, `jax-x64`,
//!   `jax-strict`, ...) reached from another mode's policy, so that each shorthand name and its
//!   settings are checked to be the same thing.
//!
//! Cells of the op-less and n-ary families (`result_type`, `can_cast`, `concatenate`, ...) in
//! the settings fixtures are left to their own replay; every other cell must match.

use std::io::Read;
use std::path::Path;

use promote::{builtin, query, Call};

fn fixture(rel: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(rel);
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).expect("fixture opens"))
        .read_to_string(&mut text)
        .expect("fixture is gzip text");
    text
}

/// The ops of the operator and function grids (the binary ops, matmul, sum).
fn is_op_cell(cell: &str) -> bool {
    let head = cell.split_whitespace().next().unwrap_or("");
    let op = head.split(':').next().unwrap_or("");
    !matches!(
        op,
        "result_type" | "promote_types" | "can_cast" | "concatenate" | "stack" | "where" | "clip"
    )
}

/// Replay the cells `keep` selects under `policy` with `set` as the query's `"set"`: (cells,
/// misses), the unrecordable `X` cells skipped.
fn replay(
    policy: &str,
    set: &[(&str, &str)],
    text: &str,
    keep: impl Fn(&str) -> bool,
) -> (usize, Vec<String>) {
    let p = builtin(policy).unwrap();
    let set: serde_json::Map<String, serde_json::Value> = set
        .iter()
        .map(|(k, v)| (k.to_string(), serde_json::Value::from(*v)))
        .collect();
    let (mut cells, mut misses) = (0, Vec::new());
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (cell, want) = line.rsplit_once(" : ").expect("cell : answer");
        if want == "X" || !keep(cell) {
            continue;
        }
        cells += 1;
        let call: Call = cell.parse().unwrap_or_else(|e| panic!("{cell}: {e}"));
        let mut q = query::call_json(&call);
        if !set.is_empty() {
            q["set"] = serde_json::Value::Object(set.clone());
        }
        let got: serde_json::Value =
            serde_json::from_str(&query::answer_line(&*p, &q.to_string())).unwrap();
        let got = query::answer_token(&got);
        if got != want {
            misses.push(format!("{cell} : want {want}, got {got}"));
        }
    }
    (cells, misses)
}

fn assert_all(what: &str, (cells, misses): (usize, Vec<String>)) {
    println!("{what}: {cells} cells, {} misses", misses.len());
    assert!(cells > 0, "{what}: no cells");
    assert!(
        misses.is_empty(),
        "{what}: {} of {cells} differ, first: {:#?}",
        misses.len(),
        &misses[..misses.len().min(20)]
    );
}

#[test]
fn every_recorded_dtype_and_casting_cell_matches() {
    for name in promote::policy::BUILTIN {
        let path = format!("resolve-forms/{name}.txt.gz");
        if !Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(&path)
            .exists()
        {
            continue;
        }
        let text = fixture(&path);
        let keep = |c: &str| {
            !c.starts_with("can_cast") && (c.contains(" dtype=") || c.contains(" casting="))
        };
        assert_all(
            &format!("{name} dtype=/casting="),
            replay(name, &[], &text, keep),
        );
    }
}

#[test]
fn torch_default_float64_replays_its_recording() {
    let text = fixture("resolve-forms/torch@default_float=float64.txt.gz");
    let set = [("default_float", "float64")];
    assert_all(
        "torch@default_float=float64",
        replay("torch", &set, &text, is_op_cell),
    );
}

#[test]
fn jax_strict_without_x64_replays_its_recording() {
    let text = fixture("resolve-forms/jax@numpy_dtype_promotion=strict.txt.gz");
    let set = [("numpy_dtype_promotion", "strict")];
    assert_all(
        "jax@numpy_dtype_promotion=strict",
        replay("jax", &set, &text, is_op_cell),
    );
}

/// `jax_explicit_x64_dtypes` with x64 off: `allow` keeps an explicitly asked 64-bit dtype,
/// `error` refuses it; each recording (every 10th cell of the reduced operator grid) replayed
/// through `jax` with the setting.
#[test]
fn jax_explicit_x64_dtypes_replays_its_recordings() {
    for value in ["allow", "error"] {
        let name = format!("jax@explicit_x64_dtypes={value}");
        let text = fixture(&format!("resolve-forms/{name}.txt.gz"));
        let set = [("explicit_x64_dtypes", value)];
        assert_all(&name, replay("jax", &set, &text, is_op_cell));
    }
}

/// Settings as KEY=VALUE pairs.
type Settings<'a> = &'a [(&'a str, &'a str)];

/// Each mode's recording, reached by a setting from another mode's policy.
#[test]
fn each_mode_is_its_setting() {
    let cases: &[(&str, Settings, &str)] = &[
        ("tf", &[("dtype_conversion_mode", "all")], "tf-all"),
        ("tf", &[("dtype_conversion_mode", "safe")], "tf-safe"),
        (
            "tf-safe",
            &[("dtype_conversion_mode", "legacy")],
            "tf-legacy",
        ),
        ("tf-all", &[("dtype_conversion_mode", "off")], "tf"),
        ("jax", &[("enable_x64", "true")], "jax-x64"),
        (
            "jax",
            &[("enable_x64", "true"), ("numpy_dtype_promotion", "strict")],
            "jax-strict",
        ),
        (
            "jax-strict",
            &[
                ("numpy_dtype_promotion", "standard"),
                ("enable_x64", "false"),
            ],
            "jax",
        ),
    ];
    for (from, set, recording) in cases {
        let text = fixture(&format!("resolve/{recording}.txt.gz"));
        assert_all(
            &format!("{from} with {set:?} against resolve/{recording}"),
            replay(from, set, &text, |_| true),
        );
    }
}

#[test]
fn unknown_settings_are_typed_errors_naming_the_valid_ones() {
    let torch = builtin("torch").unwrap();
    let q = r#"{"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8"}], "set": {"default_dtype": "float64"}}"#;
    let a: serde_json::Value = serde_json::from_str(&query::answer_line(&*torch, q)).unwrap();
    assert_eq!(a["error"], "invalid");
    let m = a["message"].as_str().unwrap();
    assert!(
        m.contains("did you mean `default_float`") && m.contains("float32, float64"),
        "{m}"
    );
    let e = builtin("jax")
        .unwrap()
        .with_settings(&[("enable_x64", "yes")])
        .unwrap_err();
    assert!(matches!(e, promote::PromoteError::UnknownSetting { .. }));
    assert!(e.to_string().contains("false, true"), "{e}");
    let e = builtin("numpy")
        .unwrap()
        .with_settings(&[("enable_x64", "true")])
        .unwrap_err();
    assert!(e.to_string().contains("takes no settings"), "{e}");
}
