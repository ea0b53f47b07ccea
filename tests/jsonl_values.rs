//! Wrong answers that used to be given silently: `-0`, 0-d values a dtype cannot hold,
//! unknown keys, `value` and `data` that disagree, literals outside Python's grammar, and
//! literals echoed other than as Python's `repr`.

use promote::kernel::eval;
use promote::{builtin, query, Call, Operand};
use serde_json::Value;

fn resolve(policy: &str, line: &str) -> Value {
    serde_json::from_str(&query::answer_line(&*builtin(policy).unwrap(), line)).unwrap()
}

fn evaluate(policy: &str, line: &str) -> Value {
    serde_json::from_str(&eval::answer_line(&*builtin(policy).unwrap(), line)).unwrap()
}

fn one_shot(policy: &str, call: &str) -> Value {
    let p = builtin(policy).unwrap();
    let r = match call.parse::<Call>() {
        Ok(c) => promote::Policy::resolve(&*p, &c),
        Err(e) => Err(e),
    };
    query::answer_value(&r)
}

#[test]
fn minus_zero_is_a_negative_zero() {
    for policy in ["numpy", "torch"] {
        let a = evaluate(
            policy,
            r#"{"op": "divide", "operands": [{"dtype": "float64", "data": ["1", "1"]}, {"dtype": "float64", "data": ["-0", "-0.0"]}]}"#,
        );
        assert_eq!(a["data"], serde_json::json!(["-inf", "-inf"]), "{policy}");
        let a = evaluate(
            policy,
            r#"{"op": "multiply", "operands": [{"dtype": "float32", "data": ["-0"]}, {"dtype": "float32", "data": ["1"]}]}"#,
        );
        assert_eq!(a["data"], serde_json::json!(["-0.0"]), "{policy}");
        let a = evaluate(
            policy,
            r#"{"op": "divide", "operands": [{"dtype": "float64", "data": ["1"]}, {"scalar": "float", "value": "-0"}]}"#,
        );
        assert_eq!(a["data"], serde_json::json!(["-inf"]), "{policy}");
        let a = evaluate(
            policy,
            r#"{"op": "divide", "operands": [{"dtype": "complex128", "data": ["(1+0j)"]}, {"scalar": "complex", "value": "-0"}]}"#,
        );
        assert!(
            a["data"][0].as_str().unwrap().contains("inf"),
            "{policy}: {a}"
        );
    }
}

#[test]
fn zero_dim_values_are_checked_against_their_dtype() {
    for (call, holds) in [
        ("add uint8 int16(1.5)", false),
        ("add uint8 int8(300)", false),
        ("add uint8 int8(-1e400)", false),
        ("add uint8 int8(1j)", false),
        ("maximum bool(1) bool", true),
        ("maximum bool(True) bool", true),
        ("maximum bool(2) bool", false),
        ("maximum bool(true) bool", false),
        ("add uint8 int8(-128)", true),
        ("add uint8 float16(1e5)", true),
    ] {
        let a = one_shot("numpy1", call);
        assert_eq!(a.get("error").is_none(), holds, "{call}: {a}");
        if !holds {
            assert_eq!(a["error"], "invalid", "{call}");
            assert!(
                a["message"].as_str().unwrap().contains("cannot hold"),
                "{call}: {a}"
            );
        }
    }
    // bool(1) is the bool True, which keeps maximum in bool (real NumPy 1.26.4: bool)
    assert_eq!(one_shot("numpy1", "maximum bool(1) bool")["dtype"], "bool");
    // the JSON form follows the same rule, in resolve and in eval
    let q = r#"{"op": "add", "operands": [{"dtype": "uint8"}, {"dtype": "int16", "ndim": 0, "value": "1.5"}]}"#;
    assert_eq!(resolve("numpy1", q)["error"], "invalid");
    let q = r#"{"op": "add", "operands": [{"dtype": "uint8", "data": ["1"]}, {"dtype": "int16", "ndim": 0, "value": "1.5"}]}"#;
    assert_eq!(evaluate("numpy1", q)["error"], "invalid");
    // a value on a tensor that is not 0-d is a mistake, not ignored
    let q = r#"{"op": "add", "operands": [{"dtype": "uint8"}, {"dtype": "int16", "value": "5"}]}"#;
    assert!(resolve("numpy1", q)["message"]
        .as_str()
        .unwrap()
        .contains("ndim"));
}

#[test]
fn unknown_keys_are_invalid_and_named() {
    let base = r#""op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8"}]"#;
    for (extra, names) in [
        (r#""outt": "int8""#, "outt"),
        // "autocast" is read (tests/autocast.rs): a name that is no autocast is invalid
        (r#""autocast": "x""#, "unknown autocast"),
        // "form" is read (tests/cli_forms.rs): a name that is no form is invalid, with a suggestion
        (r#""form": "fuction""#, "did you mean `function`"),
        (r#""set": {"default_float": "float64"}"#, "version-2"),
        (r#""casting": "same_kind""#, "version-2"),
        // `add` takes no dtype= argument in any policy: invalid, saying so
        (r#""dtype": "float64""#, "dtype="),
    ] {
        let a = resolve("torch", &format!("{{{base}, {extra}}}"));
        assert_eq!(a["error"], "invalid", "{extra}");
        assert!(
            a["message"].as_str().unwrap().contains(names),
            "{extra}: {a}"
        );
    }
    for operand in [
        r#"{"dtype": "int8", "wek": true}"#,
        r#"{"scalar": "int", "value": "1", "dtype": "int8"}"#,
        r#"{"dtype": "int8", "data": ["1"], "dat": 1}"#,
    ] {
        let q = format!(r#"{{"op": "add", "operands": [{{"dtype": "int8"}}, {operand}]}}"#);
        assert_eq!(resolve("torch", &q)["error"], "invalid", "{operand}");
    }
    // `data` is a key `resolve` reads too (checked as `eval` checks it, then ignored)
    let q = r#"{"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8", "data": ["1"]}]}"#;
    assert_eq!(resolve("torch", q)["dtype"], "int8");
    let q = r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["1"], "weak": false, "ndim": 1}, {"dtype": "int8", "data": ["1"], "dat": 1}]}"#;
    assert!(evaluate("torch", q)["message"]
        .as_str()
        .unwrap()
        .contains("\"dat\""));
}

#[test]
fn value_and_data_must_agree() {
    let q = |value: &str, data: &str| {
        format!(
            r#"{{"op": "add", "operands": [{{"dtype": "float32", "ndim": 0, "value": "{value}", "data": ["{data}"]}}, {{"dtype": "float32", "data": ["1"]}}]}}"#
        )
    };
    assert_eq!(evaluate("numpy", &q("1", "2"))["error"], "invalid");
    assert_eq!(evaluate("numpy", &q("0.0", "-0.0"))["error"], "invalid");
    assert_eq!(evaluate("numpy", &q("2", "2.0"))["data"][0], "3.0");
    assert_eq!(evaluate("numpy", &q("nan", "nan"))["data"][0], "nan");
}

#[test]
fn literals_follow_python_grammar() {
    for bad in [
        "1__0_", "1__0", "_1", "1_", "007", "1e", "1.e_5", "1_.5", "--1", "(1+2j", "1+2j", "infj_",
        "0x10",
    ] {
        assert!(bad.parse::<Operand>().is_err(), "{bad} was accepted");
    }
    for good in [
        "1_000",
        "0",
        "00",
        "1_0.5",
        "1e1_0",
        ".5",
        "5.",
        "007.5",
        "007j",
        "1E5",
        "(1+2j)",
        "-1j",
        "(nan+infj)",
    ] {
        assert!(good.parse::<Operand>().is_ok(), "{good} was refused");
    }
}

#[test]
fn literals_echo_as_python_repr() {
    for (written, repr) in [
        ("0.00001", "1e-05"),
        ("1e300", "1e+300"),
        ("1E16", "1e+16"),
        ("100.0", "100.0"),
        ("(1e300+0j)", "(1e+300+0j)"),
        ("1_0", "10"),
    ] {
        let c: Call = format!("add float32 {written}").parse().unwrap();
        assert_eq!(c.operands[1].to_string(), repr);
        let j = query::call_json(&c);
        assert_eq!(j["operands"][1]["value"], repr);
    }
    let a = one_shot("numpy", "add uint8 0.00001");
    assert!(a.get("error").is_none());
    let a = one_shot("numpy1", "subtract 1e300 18446744073709551616");
    if let Some(m) = a["message"].as_str() {
        assert!(!m.contains("0.000"), "{m}");
    }
}

#[test]
fn dtype_argument_and_several_results() {
    let q = r#"{"op": "sum", "operands": [{"dtype": "int8"}], "dtype": "int16"}"#;
    assert_eq!(resolve("numpy", q)["dtype"], "int16");
    let q = r#"{"op": "mean", "operands": [{"dtype": "int8"}], "dtype": "int16"}"#;
    assert_eq!(resolve("torch", q)["error"], "unsupported");
    let q = r#"{"op": "sum", "operands": [{"dtype": "int8"}], "dtype": "int17"}"#;
    assert_eq!(resolve("numpy", q)["error"], "invalid");
    let q = r#"{"op": "divmod", "operands": [{"dtype": "int8"}, {"dtype": "uint8"}]}"#;
    let a = resolve("numpy", q);
    assert_eq!(a["dtype"], "int16");
    assert_eq!(a["results"][1]["dtype"], "int16");
    assert_eq!(resolve("torch", q)["error"], "unsupported");
    assert!(resolve("torch", q)["message"]
        .as_str()
        .unwrap()
        .contains("no `divmod`"));
    let q = r#"{"op": "real", "operands": [{"scalar": "int", "value": "1"}]}"#;
    assert_eq!(resolve("numpy", q)["scalar"], "int");
}
