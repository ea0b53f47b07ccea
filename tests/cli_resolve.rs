//! The one-shot form of `promote resolve` with the compact operand syntax, and `--help`.

mod common;
use common::promote;

fn answer(policy: &str, call: &str) -> serde_json::Value {
    let mut args = vec!["resolve", "--policy", policy];
    args.extend(call.split_whitespace());
    let (code, out, _) = promote(&args);
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    // exit status 1 exactly when the answer is an error
    assert_eq!(code, i32::from(answer.get("error").is_some()), "{out}");
    answer
}

#[test]
fn compact_operands_one_shot() {
    assert_eq!(
        answer("torch", "add int8 300"),
        serde_json::json!({"dtype": "int8", "weak": false})
    );
    assert_eq!(answer("numpy", "add uint8 300")["error"], "overflow");
    assert_eq!(answer("numpy1", "add uint8 300")["dtype"], "uint16");
    assert_eq!(
        answer("jax", "add ~int32 1.0"),
        serde_json::json!({"dtype": "float32", "weak": true})
    );
    assert_eq!(answer("torch", "add int8 int16(5)")["dtype"], "int8");
    assert_eq!(answer("torch", "add int8 1j")["dtype"], "complex64");
    assert_eq!(answer("torch", "add int8 int8 out=uint8")["dtype"], "uint8");
    assert_eq!(
        answer("torch", "add int8 18446744073709551616")["error"],
        "overflow"
    );
    assert_eq!(answer("torch", "add int7 1")["error"], "invalid");
}

#[test]
fn help_documents_the_operand_syntax() {
    let (code, out, _) = promote(&["--help"]);
    assert_eq!(code, 0);
    for s in [
        "int8(5)", "~int32", "1j", "out=", "table", "diff", "explain", "check", "lattice", "dtypes",
    ] {
        assert!(out.contains(s), "--help lacks {s}:\n{out}");
    }
}
