//! `promote check` over its real output: a user's file, its errors, and the built-in policies.

mod common;
use common::promote;

use std::path::PathBuf;

/// A small table policy with NumPy's famous non-associativity.
const MINI: &str = r#"name = "mini"
framework = "a test policy"
dtypes = ["uint8", "int8", "int16", "float16", "float32"]
defaults = { int = "int16", float = "float32", complex = "complex64" }

[table]
cells = """
      u8   i8   i16  f16  f32
u8    u8   i16  i16  f16  f32
i8    .    i8   i16  f16  f32
i16   .    .    i16  f32  f32
f16   .    .    .    f16  f32
f32   .    .    .    .    f32
"""

[combine]
scheme = "join"

[out]
casting = "any"
"#;

fn write(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("promote-cli-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_users_table_gets_a_counterexample_triple() {
    let f = write("mini.toml", MINI);
    let (code, out, err) = promote(&["check", f.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("mini (a test policy): compiles"), "{out}");
    assert!(out.contains("joins: every pair of nodes has one"));
    assert!(out.contains("commutative: yes"));
    assert!(out.contains("(uint8 ∘ int8) ∘ float16 = int16 ∘ float16 = float32, but uint8 ∘ (int8 ∘ float16) = uint8 ∘ float16 = float16"), "{out}");
    assert!(out.contains("verdict: not a lattice"), "{out}");
    assert!(
        out.contains("uint8 ∘ int8 = int16 is not their least upper bound (int16, float16)"),
        "{out}"
    );
    let (code, _, _) = promote(&["check", "--strict", f.to_str().unwrap()]);
    assert_eq!(code, 1, "--strict fails a policy that is not a lattice");
    let (_, json, _) = promote(&["check", "--format", "json", f.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["verdict"], "not-a-lattice");
    let t = &v["join"]["not_associative_examples"][0];
    assert_eq!(
        (
            t["a"].as_str(),
            t["b"].as_str(),
            t["c"].as_str(),
            t["left"].as_str(),
            t["right"].as_str()
        ),
        (
            Some("uint8"),
            Some("int8"),
            Some("float16"),
            Some("float32"),
            Some("float16")
        )
    );
}

#[test]
fn errors_point_at_line_and_column() {
    let bad = MINI.replace("i16  f32  f32\n", "i16  f32  f3\n");
    let f = write("bad.toml", &bad);
    let (code, out, err) = promote(&["check", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.is_empty());
    let first = err.lines().next().unwrap();
    assert!(
        first.contains(":11:27: error: unknown node `f3` in row `i16`; did you mean `f"),
        "{err}"
    );
    assert!(
        err.contains("   11 | i16   .    .    i16  f32  f3\n      |                           ^"),
        "{err}"
    );
    let f = write(
        "typo.toml",
        &MINI.replace("[combine]\nscheme", "[combine]\nschem"),
    );
    let (code, _, err) = promote(&["check", f.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(
        err.contains(":17:1: error:") && err.contains("schem"),
        "{err}"
    );
}

#[test]
fn builtin_jax_is_a_lattice_numpy_is_not() {
    let (code, out, _) = promote(&["check", "--builtin", "jax-x64"]);
    assert_eq!(code, 0);
    // JAX's classic dtypes form a lattice; float8, float4, int2 and int4 sit above `f*` or
    // `i*` with nothing above them, so the whole is a partial lattice with no greatest node
    assert!(out.contains("verdict: a partial lattice"), "{out}");
    assert!(out.contains("least node bool, greatest node none"), "{out}");
    assert!(out.contains("such as uint8 ∘ int2"), "{out}");
    assert!(
        out.contains("associative: yes, wherever both groupings give a result"),
        "{out}"
    );
    let (code, _, _) = promote(&["check", "--builtin", "jax-x64", "--strict"]);
    assert_eq!(code, 1, "--strict asks for a lattice; JAX's is partial");
    let (_, out, _) = promote(&["check", "--builtin", "numpy"]);
    assert!(
        out.contains("(uint8 ∘ int8) ∘ float16 = int16 ∘ float16 = float32"),
        "{out}"
    );
    let (_, out, _) = promote(&["check", "--builtin", "torch"]);
    assert!(
        out.contains("tensor · 0-d tensor · tensor"),
        "torch's 0-d rule breaks associativity:\n{out}"
    );
}

#[test]
fn all_builtins_end_with_a_summary() {
    let (code, out, _) = promote(&["check", "--all"]);
    assert_eq!(code, 0);
    let (_, policies, _) = promote(&["policies"]);
    for n in policies
        .lines()
        .skip(2)
        .filter_map(|l| l.trim_start_matches('|').split_whitespace().next())
    {
        assert!(
            out.contains(&format!("\n{n} (")) || out.starts_with(&format!("{n} (")),
            "{n} has no report"
        );
        assert!(
            out.lines().any(|l| l.starts_with(&format!("| {n} "))),
            "{n} not in the summary"
        );
    }
    let (_, md, _) = promote(&["check", "--all", "--format", "md"]);
    assert!(md.contains("### torch ("), "{md}");
    let (_, json, _) = promote(&["check", "--all", "--format", "json"]);
    assert!(json
        .lines()
        .all(|l| serde_json::from_str::<serde_json::Value>(l).is_ok()));
}

#[test]
fn unknown_builtin_and_missing_file() {
    let (code, _, err) = promote(&["check", "--builtin", "nump"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `numpy`"), "{err}");
    let (code, _, err) = promote(&["check", "/nonexistent/p.toml"]);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("/nonexistent/p.toml: error: cannot read"),
        "{err}"
    );
}
