//! `promote eval` never panics: random bytes, random JSON and random well-formed queries with
//! hostile data all get one JSON answer line, `invalid` where the input is bad.

use promote::builtin;
use promote::kernel::eval::answer_line;
use proptest::prelude::*;
use serde_json::Value;

const OPS: &[&str] = &[
    "add",
    "subtract",
    "multiply",
    "divide",
    "floor_divide",
    "remainder",
    "power",
    "maximum",
    "minimum",
    "equal",
    "less",
    "greater_equal",
    "logical_xor",
    "bitwise_and",
    "bitwise_or",
    "matmul",
    "sum",
    "frobnicate",
];
const DTYPES: &[&str] = &[
    "bool",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "int8",
    "int16",
    "int32",
    "int64",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "float128",
    "",
];
const VALUES: &[&str] = &[
    "0",
    "1",
    "-1",
    "True",
    "False",
    "127",
    "-128",
    "255",
    "256",
    "65504",
    "65520",
    "2147483648",
    "-9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "1e308",
    "1e-320",
    "-0.0",
    "0.5",
    "nan",
    "-inf",
    "inf",
    "1j",
    "(1+2j)",
    "(nan+nanj)",
    "(1e+300-1e+300j)",
    "",
    " ",
    "1.5.5",
    "0x10",
    "1_000",
    "+7",
    "--1",
    "(1+",
    "j",
    "é",
    "1e",
    "99999999999999999999999999999999999999999999",
];

fn check(policy: &str, line: &str) {
    let p = builtin(policy).unwrap();
    let out = answer_line(&*p, line);
    let v: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}"));
    if let Some(e) = v.get("error") {
        assert!(
            ["invalid", "no_promotion", "overflow", "unsupported"].contains(&e.as_str().unwrap()),
            "{out}"
        );
    } else {
        assert!(
            v["dtype"].is_string() && v["weak"].is_boolean() && v["data"].is_array(),
            "{out}"
        );
    }
}

fn operand() -> impl Strategy<Value = String> {
    let tensor = (
        0..DTYPES.len(),
        proptest::collection::vec(0..VALUES.len(), 0..5),
        prop_oneof![Just(""), Just(",\"ndim\":0"), Just(",\"weak\":true")],
    )
        .prop_map(|(d, vs, extra)| {
            let data: Vec<String> = vs
                .iter()
                .map(|&i| serde_json::to_string(VALUES[i]).unwrap())
                .collect();
            format!(
                "{{\"dtype\":\"{}\",\"data\":[{}]{extra}}}",
                DTYPES[d],
                data.join(",")
            )
        });
    let scalar = (
        prop_oneof![
            Just("bool"),
            Just("int"),
            Just("float"),
            Just("complex"),
            Just("str")
        ],
        0..VALUES.len(),
    )
        .prop_map(|(k, v)| {
            format!(
                "{{\"scalar\":\"{k}\",\"value\":{}}}",
                serde_json::to_string(VALUES[v]).unwrap()
            )
        });
    prop_oneof![4 => tensor, 1 => scalar, 1 => Just("{}".to_string()), 1 => Just("[1,2]".to_string()), 1 => Just("{\"dtype\":\"int8\"}".to_string())]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        check("numpy", &String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn random_queries_never_panic(op in 0..OPS.len(), ops in proptest::collection::vec(operand(), 0..4), out in prop_oneof![Just(""), Just(",\"out\":\"int8\""), Just(",\"out\":\"bool\""), Just(",\"out\":7")], policy in prop_oneof![Just("numpy"), Just("torch")]) {
        let line = format!("{{\"op\":\"{}\",\"operands\":[{}]{out}}}", OPS[op], ops.join(","));
        check(policy, &line);
    }

    #[test]
    fn truncated_queries_never_panic(cut in 0usize..200) {
        let q = r#"{"op": "power", "operands": [{"dtype": "int8", "data": ["2", "-128", "127"]}, {"dtype": "uint8", "data": ["7"]}], "out": "float16"}"#;
        check("numpy", &q[..cut.min(q.len())]);
    }
}

#[test]
fn ragged_and_unparsable_data_are_invalid() {
    let p = builtin("numpy").unwrap();
    for q in [
        r#"{"op":"add","operands":[{"dtype":"int8","data":["1","2"]},{"dtype":"int8","data":["1","2","3"]}]}"#,
        r#"{"op":"add","operands":[{"dtype":"int8","data":["128"]},{"dtype":"int8","data":["1"]}]}"#,
        r#"{"op":"add","operands":[{"dtype":"int8","data":["1.5"]},{"dtype":"int8","data":["1"]}]}"#,
        r#"{"op":"add","operands":[{"dtype":"float32","data":["abc"]},{"dtype":"int8","data":["1"]}]}"#,
        r#"{"op":"add","operands":[{"dtype":"int8"},{"dtype":"int8","data":["1"]}]}"#,
        r#"{"op":"matmul","operands":[{"dtype":"int8","data":["1","2"]},{"dtype":"int8","data":["1"]}]}"#,
        r#"{"op":"add","operands":[{"dtype":"int8","ndim":0,"data":["1","2"]},{"dtype":"int8","data":["1"]}]}"#,
        r#"{"op":"add","operands":[{"dtype":"int8","data":[["1"]]},{"dtype":"int8","data":["1"]}]}"#,
    ] {
        let a = answer_line(&*p, q);
        assert!(a.starts_with(r#"{"error":"invalid""#), "{q} -> {a}");
    }
}

#[test]
fn answers_carry_the_values() {
    let p = builtin("numpy").unwrap();
    let a = answer_line(
        &*p,
        r#"{"op":"add","operands":[{"dtype":"int8","data":["127","-128"]},{"dtype":"uint8","data":["1","255"]}]}"#,
    );
    assert_eq!(a, r#"{"dtype":"int16","weak":false,"data":["128","127"]}"#);
    let a = answer_line(
        &*p,
        r#"{"op":"power","operands":[{"dtype":"int8","data":["2"]},{"scalar":"int","value":"-1"}]}"#,
    );
    assert!(a.starts_with(r#"{"error":"value""#), "{a}");
    let a = answer_line(
        &*p,
        r#"{"op":"sum","operands":[{"dtype":"float16","data":["65504","65504","-65504"]}]}"#,
    );
    assert_eq!(a, r#"{"dtype":"float16","weak":false,"data":["65500.0"]}"#);
    let a = answer_line(
        &*p,
        r#"{"op":"divide","operands":[{"dtype":"int64","data":["1","-1","0"]},{"scalar":"int","value":"0"}]}"#,
    );
    assert_eq!(
        a,
        r#"{"dtype":"float64","weak":false,"data":["inf","-inf","nan"]}"#
    );
    let a = answer_line(
        &*p,
        r#"{"op":"floor_divide","operands":[{"dtype":"int8","data":["-7","7","-128","5"]},{"dtype":"int8","data":["2","-2","-1","0"]}]}"#,
    );
    assert_eq!(
        a,
        r#"{"dtype":"int8","weak":false,"data":["-4","-4","-128","0"]}"#
    );
    let a = answer_line(
        &*p,
        r#"{"op":"matmul","operands":[{"dtype":"int8","data":["100","100"]},{"dtype":"int8","data":["2","1"]}]}"#,
    );
    assert_eq!(a, r#"{"dtype":"int8","weak":false,"data":["44"]}"#);
    // a 0-d operand with data, broadcast
    let a = answer_line(
        &*p,
        r#"{"op":"multiply","operands":[{"dtype":"float32","data":["1.5","nan"]},{"dtype":"float64","ndim":0,"data":["2"]}]}"#,
    );
    assert_eq!(
        a,
        r#"{"dtype":"float64","weak":false,"data":["3.0","nan"]}"#
    );
}
