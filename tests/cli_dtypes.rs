//! `promote dtypes` and `promote policies` over their real output.

mod common;
use common::promote;

#[test]
fn jax_without_x64_folds_64_bit_types_and_has_weak_nodes() {
    let (code, out, _) = promote(&["dtypes", "--policy", "jax"]);
    assert_eq!(code, 0);
    let row = |d: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("| {d} ")))
            .unwrap_or_else(|| panic!("{d}:\n{out}"))
            .to_string()
    };
    assert!(row("int64").contains("becomes int32 in this mode"));
    assert!(row("int32").contains("default int"));
    assert!(row("float16").contains("half"), "aliases are listed");
    assert!(out.contains("| i*   | int32"), "{out}");
    assert!(out.contains("| int (1)      | i* (weak)"), "{out}");
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("bits") || l.starts_with("| bool "))
        .collect();
    assert_eq!(
        lines[0].chars().count(),
        lines[1].chars().count(),
        "aligned"
    );
}

#[test]
fn json_has_every_dtype() {
    let (_, out, _) = promote(&["dtypes", "--policy", "torch", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["dtypes"].as_array().unwrap().len(), promote::DType::COUNT);
    assert_eq!(v["defaults"]["int"], "int64");
    assert_eq!(v["literals"]["float"], "float32");
}

#[test]
fn policies_lists_the_builtins() {
    let (code, out, _) = promote(&["policies"]);
    assert_eq!(code, 0);
    for n in ["torch", "jax", "jax-x64", "jax-strict"] {
        assert!(
            out.lines().any(|l| l.starts_with(&format!("| {n} "))),
            "{n}:\n{out}"
        );
    }
    // each policy's settings, its own value first
    let row = |n: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("| {n} ")))
            .unwrap()
    };
    assert!(
        row("torch").contains("default_float=float32|float64"),
        "{out}"
    );
    assert!(row("jax-x64").contains("enable_x64=true|false"), "{out}");
    assert!(
        row("tf-all").contains("dtype_conversion_mode=all|"),
        "{out}"
    );
}
