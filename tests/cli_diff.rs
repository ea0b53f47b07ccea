//! `promote diff` over its real output and exit status.

use std::process::Command;

fn promote(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_promote"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("promote runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

#[test]
fn a_policy_agrees_with_itself_and_its_own_file() {
    let (code, out, _) = promote(&["diff", "torch", "torch"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("They agree on all"), "{out}");
    let (code, _, err) = promote(&["diff", "torch", "policies/torch.toml", "--op", "all"]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn torch_to_jax_lists_every_changed_cell_by_operand_kinds() {
    let (code, out, _) = promote(&["diff", "torch", "jax"]);
    assert_eq!(code, 1, "policies that differ exit with 1");
    assert!(out.starts_with("# torch vs jax: add"));
    for group in [
        "tensor · tensor",
        "tensor · 0-d tensor",
        "tensor · Python scalar",
        "weak tensor · tensor",
    ] {
        assert!(
            out.contains(&format!("| add | {group}"))
                || out.contains(&format!("| add {group}"))
                || out.contains(group),
            "group {group} missing:\n{out}"
        );
    }
    // the cell of the README: int8 + 1.0 is float32 in torch, a weak float32 in JAX
    let line = out
        .lines()
        .find(|l| l.starts_with("| `add int8 1.0`"))
        .expect("int8 + 1.0 differs");
    assert!(
        line.contains("float32") && line.contains("~float32"),
        "{line}"
    );
    // int64 + int64: JAX without x64 has no int64
    let line = out
        .lines()
        .find(|l| l.starts_with("| `add int64 int64`"))
        .expect("int64 + int64 differs");
    assert!(line.contains("int32"), "{line}");
}

#[test]
fn counts_add_up_and_json_matches() {
    let (code, out, _) = promote(&["diff", "numpy", "numpy1", "--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let groups = v["groups"].as_array().unwrap();
    let differ: u64 = groups.iter().map(|g| g["differ"].as_u64().unwrap()).sum();
    assert_eq!(v["differ"].as_u64().unwrap(), differ);
    assert!(groups
        .iter()
        .all(|g| g["diffs"].as_array().unwrap().len() as u64 == g["differ"].as_u64().unwrap()));
    // NEP 50 vs value-based casting: uint8 + 300
    let all: Vec<&serde_json::Value> = groups
        .iter()
        .flat_map(|g| g["diffs"].as_array().unwrap())
        .collect();
    let cell = all
        .iter()
        .find(|d| d["call"] == "add uint8 300")
        .expect("uint8 + 300 differs");
    assert_eq!(cell["a"], "!overflow");
    assert_eq!(cell["b"], "uint16");
    // the Markdown summary has the same counts
    let (_, md, _) = promote(&["diff", "numpy", "numpy1", "--summary"]);
    assert!(
        md.contains(&format!("{differ} of {} cells differ", v["cells"])),
        "{md}"
    );
    assert!(!md.contains("## "), "--summary shows no cells");
}

#[test]
fn ignore_weak_and_limit() {
    let (_, all, _) = promote(&["diff", "jax", "jax-x64", "--format", "json"]);
    let (_, strong, _) = promote(&[
        "diff",
        "jax",
        "jax-x64",
        "--format",
        "json",
        "--ignore-weak",
    ]);
    let n = |s: &str| {
        serde_json::from_str::<serde_json::Value>(s).unwrap()["differ"]
            .as_u64()
            .unwrap()
    };
    assert!(n(&strong) <= n(&all));
    let (_, out, _) = promote(&["diff", "torch", "jax", "--limit", "2"]);
    assert!(out.contains("more (--limit 0 shows all)"));
}

#[test]
fn several_ops_and_bad_names() {
    let (code, out, _) = promote(&["diff", "torch", "numpy", "--op", "divide,less", "--summary"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("| divide ") && out.contains("| less "),
        "{out}"
    );
    let (code, _, err) = promote(&["diff", "torch", "jaxx"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `jax`"), "{err}");
}

#[test]
fn values_compare_each_policy_s_own_kernels() {
    let (code, out, _) = promote(&[
        "diff",
        "numpy",
        "numpy",
        "--values",
        "--op",
        "add,floor_divide",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("\n0 of "), "{out}");
    let (code, out, _) = promote(&[
        "diff",
        "numpy",
        "torch",
        "--values",
        "--op",
        "floor_divide",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "values differ: exit status 1");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["semantics"][1], "torch");
    let cell = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["call"] == "floor_divide int8 int8")
        .expect("numpy gives 0 for x // 0, torch refuses it");
    assert_eq!(cell["first"]["inputs"][1], "0");
    assert_eq!(cell["first"]["b"], "!value");
    let (_, md, _) = promote(&["diff", "numpy", "jax", "--values", "--limit", "2"]);
    assert!(
        md.contains("| `add float32 float32`") || md.contains("more (--limit 0"),
        "{md}"
    );
    assert!(md.contains("xla-cpu kernel semantics"), "{md}");
}
