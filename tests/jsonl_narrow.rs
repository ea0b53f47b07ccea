//! Narrow-dtype `data` through `eval`'s JSONL path (docs/cli.md, "What `data` holds"): one text
//! per element (never packed), narrow floats rounded to nearest even on the way in, integers
//! checked against their range, and answers written at the result's precision — the shortest
//! text that reads back to the same value, so every answer parses back to itself.

use std::io::Write;
use std::process::{Command, Stdio};

use promote::builtin;
use promote::kernel::eval;
use promote::kernel::narrow::{codec::encode_f64, rules::Library, Codec};
use serde_json::{json, Value};

fn evaluate(policy: &str, q: &Value) -> Value {
    serde_json::from_str(&eval::answer_line(
        &*builtin(policy).unwrap(),
        &q.to_string(),
    ))
    .unwrap()
}

fn unary(op: &str, dtype: &str, data: &[&str]) -> Value {
    json!({"op": op, "form": "function", "operands": [{"dtype": dtype, "data": data}]})
}

/// The significant digits of a decimal text (`"-0.0625"` and `"6.25e-2"` both 3).
fn digits(text: &str) -> usize {
    let mantissa = text.split(['e', 'E']).next().unwrap_or("");
    let d: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    d.trim_start_matches('0').trim_end_matches('0').len()
}

const NARROW_FLOATS: [&str; 11] = [
    "float8_e4m3fn",
    "float8_e5m2",
    "float8_e4m3fnuz",
    "float8_e5m2fnuz",
    "float8_e4m3b11fnuz",
    "float8_e3m4",
    "float8_e4m3",
    "float8_e8m0fnu",
    "float6_e2m3fn",
    "float6_e3m2fn",
    "float4_e2m1fn",
];

#[test]
fn every_narrow_float_value_is_written_shortest_and_reads_back_to_itself() {
    for name in NARROW_FLOATS {
        let c = Codec::for_library(name, Library::MlDtypes).unwrap();
        let codes: Vec<u8> = (0..1u16 << c.format.bits).map(|k| k as u8).collect();
        let exact: Vec<String> = codes
            .iter()
            .map(|&k| match c.decode_f64(k) {
                x if x.is_nan() => "nan".to_string(),
                x if x.is_infinite() => format!("{}inf", if x < 0.0 { "-" } else { "" }),
                x => format!("{x:e}"),
            })
            .collect();
        let texts: Vec<&str> = exact.iter().map(String::as_str).collect();
        // astype to the same dtype is a copy: the answer is the values as written
        let mut q = unary("astype", name, &texts);
        q["dtype"] = json!(name);
        let a = evaluate("numpy", &q);
        assert_eq!(a["dtype"], json!(name), "{a}");
        let written: Vec<&str> = a["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        assert_eq!(written.len(), codes.len());
        for ((&k, w), x) in codes.iter().zip(&written).zip(&exact) {
            let read = w.parse::<f64>().unwrap_or(f64::NAN);
            let back = c.decode_f64(encode_f64(c.format, &c.rules, read));
            let want = c.decode_f64(k);
            assert!(
                back == want || (back.is_nan() && want.is_nan()),
                "{name}: {x} written as {w} reads back as {back}"
            );
            assert!(
                digits(w) <= digits(x).max(1),
                "{name}: {w} has more digits than {x}"
            );
        }
    }
}

#[test]
fn narrow_floats_in_data_round_to_nearest_even_with_ml_dtypes_rules() {
    let a = evaluate(
        "numpy",
        &unary(
            "positive",
            "float8_e4m3fn",
            &["0.3", "1.0625", "500", "-inf", "nan"],
        ),
    );
    assert_eq!(a["dtype"], json!("float8_e4m3fn"));
    // 0.3 -> 0.3125 (written "0.3"); 1.0625 is a tie -> 1.0; 500 and -inf are NaN in e4m3fn
    assert_eq!(a["data"], json!(["0.3", "1.0", "nan", "nan", "nan"]));
    let a = evaluate(
        "numpy",
        &unary("positive", "float8_e5m2", &["1e9", "-1e9", "57344"]),
    );
    assert_eq!(a["data"], json!(["inf", "-inf", "60000.0"]));
}

#[test]
fn sub_byte_integers_are_one_text_per_element_and_checked_against_their_range() {
    let q = json!({"op": "add", "form": "function", "operands": [
        {"dtype": "int4", "data": ["7", "-8", "3", "0", "-1"]},
        {"dtype": "int4", "data": ["1"]}]});
    let a = evaluate("numpy", &q);
    assert_eq!(a["dtype"], json!("int4"));
    assert_eq!(a["data"], json!(["-8", "-7", "4", "1", "0"])); // 7 + 1 wraps
    let a = evaluate("numpy", &unary("positive", "uint2", &["0", "1", "2", "3"]));
    assert_eq!(a["data"].as_array().map(Vec::len), Some(4), "{a}");
    let a = evaluate("numpy", &unary("positive", "uint4", &["-1"]));
    assert_eq!(a["error"], json!("invalid"), "{a}");
    for (dtype, bad, range) in [
        ("int4", "8", "-8..=7"),
        ("uint2", "4", "0..=3"),
        ("uint4", "16", "0..=15"),
    ] {
        let a = evaluate("numpy", &unary("positive", dtype, &["1", bad]));
        assert_eq!(a["error"], json!("invalid"), "{dtype} {bad}: {a}");
        assert!(a["message"].as_str().unwrap().contains(range), "{a}");
    }
}

#[test]
fn casts_into_narrow_dtypes_answer_each_frameworks_values() {
    let q = |to: &str| json!({"op": "astype", "dtype": to, "operands": [{"dtype": "float32", "data": ["500", "0.3", "nan"]}]});
    // PyTorch saturates e4m3fn, ml_dtypes makes NaN
    assert_eq!(
        evaluate("torch", &q("float8_e4m3fn"))["data"],
        json!(["450.0", "0.3", "nan"])
    );
    assert_eq!(
        evaluate("numpy", &q("float8_e4m3fn"))["data"],
        json!(["nan", "0.3", "nan"])
    );
}

#[test]
fn complex32_parts_are_written_at_float16_precision() {
    let q = json!({"op": "add", "form": "function", "operands": [
        {"dtype": "complex32", "data": ["(0.1+2j)", "(1-0.5j)"]},
        {"dtype": "complex32", "data": ["(0+0j)"]}]});
    let a = evaluate("torch", &q);
    assert_eq!(a["dtype"], json!("complex32"), "{a}");
    assert_eq!(a["data"], json!(["(0.1+2j)", "(1-0.5j)"]));
}

#[test]
fn the_promote_eval_stream_reads_and_writes_narrow_data() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_promote"))
        .args(["eval", "--policy", "numpy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = [
        r#"{"op": "multiply", "operands": [{"dtype": "float8_e4m3fn", "data": ["3", "448"]}, {"dtype": "float8_e4m3fn", "data": ["3", "2"]}]}"#,
        r#"{"op": "add", "operands": [{"dtype": "int4", "data": ["7", "-8", "3"]}, {"dtype": "int4", "data": ["1"]}]}"#,
        r#"{"op": "add", "operands": [{"dtype": "int4", "data": ["16"]}, {"dtype": "int4", "data": ["1"]}]}"#,
    ];
    let mut stdin = child.stdin.take().unwrap();
    for l in lines {
        writeln!(stdin, "{l}").unwrap();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let answers: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        answers[0],
        json!({"dtype": "float8_e4m3fn", "weak": false, "data": ["9.0", "nan"]})
    );
    assert_eq!(
        answers[1],
        json!({"dtype": "int4", "weak": false, "data": ["-8", "-7", "4"]})
    );
    assert_eq!(answers[2]["error"], json!("invalid"));
}
