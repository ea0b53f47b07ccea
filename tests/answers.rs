//! Policy-level answers that used to be wrong while looking right (issue 8, "wrong answers given
//! silently"): value errors reported as dtype refusals, overflow messages blaming the wrong
//! literal, untrue complex32 messages, a table of `?` for a policy without weak operands.

mod common;
use common::promote;

use promote::Policy as _;
use promote::{builtin, query, ErrorKind, PromoteError};

/// The answer of a one-line query, as JSON.
fn answer(policy: &str, call: &str) -> serde_json::Value {
    let p = builtin(policy).expect("builtin policy");
    let call: promote::Call = call.parse().expect("call parses");
    let q = query::call_json(&call).to_string();
    serde_json::from_str(&query::answer_line(&*p, &q)).expect("answer is JSON")
}

fn error_of(policy: &str, call: &str) -> (String, String) {
    let a = answer(policy, call);
    (
        a["error"].as_str().unwrap_or("").to_string(),
        a["message"].as_str().unwrap_or("").to_string(),
    )
}

#[test]
fn value_is_an_error_kind_of_its_own() {
    assert_eq!(ErrorKind::parse("value"), Some(ErrorKind::Value));
    assert_eq!(ErrorKind::Value.name(), "value");
    let e = PromoteError::Value {
        policy: "torch".into(),
        op: "floor_divide".into(),
        operands: "int32 and 0".into(),
        rule: "ZeroDivisionError".into(),
    };
    assert_eq!(e.kind(), ErrorKind::Value);
}

#[test]
fn integer_division_by_zero_and_negative_powers_are_value_errors() {
    // each recorded from the real framework (tests/fixtures/resolve/*.txt.gz)
    for (policy, call) in [
        ("torch", "floor_divide int32 0"),
        ("torch", "remainder int8 256"),
        ("torch", "floor_divide uint8 bool(False)"),
        ("torch", "power int16 -1"),
        ("numpy", "power int8 -1"),
        ("numpy", "power uint8 int8(-1)"),
        ("numpy1", "power bool int8(-1)"),
        ("array-api", "power int8 -1"),
        ("jax", "power int8 -1"),
        ("jax-x64", "power int32 int64(-1)"),
    ] {
        let (kind, message) = error_of(policy, call);
        assert_eq!(kind, "value", "{policy} {call}: {message}");
        assert!(message.contains("values"), "{policy} {call}: {message}");
    }
    // the same dtypes with other values promote
    assert_eq!(answer("torch", "floor_divide int32 2")["dtype"], "int32");
    assert_eq!(answer("numpy", "power int8 2")["dtype"], "int8");
}

#[test]
fn overflow_blames_the_literal_that_does_not_fit() {
    for call in [
        "subtract 1e+300 18446744073709551616",
        "minimum -1 18446744073709551616",
        "add 18446744073709551616 1",
    ] {
        let (kind, message) = error_of("numpy1", call);
        assert_eq!(kind, "overflow", "{call}: {message}");
        assert!(
            message.contains("Python int 18446744073709551616 does not fit"),
            "{call}: {message}"
        );
    }
}

#[test]
fn torch_half_with_a_complex_scalar_says_what_pytorch_does() {
    // float16 + 1j is complex32 (ComplexHalf), recorded since complex32 has a name
    let torch = promote::builtin("torch").unwrap();
    let plan = torch.resolve(&"add float16 1j".parse().unwrap()).unwrap();
    assert_eq!(plan.result, promote::DType::COMPLEX32);
    let (_, m) = error_of("torch", "add bfloat16 1j");
    assert!(m.contains("BComplex32") && !m.contains("complex32,"), "{m}");
    let (kind, m) = error_of("torch", "add bfloat16 1j out=bfloat16");
    assert_eq!(kind, "no_promotion");
    assert!(m.contains("BComplex32"), "{m}");
}

#[test]
fn a_table_of_weak_operands_needs_a_policy_that_has_them() {
    let (code, out, err) = promote(&["table", "--policy", "torch", "--with", "weak"]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("no weakly typed"), "{err}");
    assert!(!out.contains("| ? |"), "{out}");
    let (code, out, _) = promote(&["table", "--policy", "jax", "--with", "weak"]);
    assert_eq!(code, 0);
    assert!(!out.contains("| ? |"), "{out}");
}
