//! Structure-aware fuzzing of everything the JSONL interfaces and the compact syntax read:
//! calls (with and without an op, `out=`, negative and malformed literals), query streams at
//! the byte level (blank, `\r`, vertical tab, NBSP, invalid UTF-8, lines over the cap) and
//! `eval` data. The properties: nothing panics, every line gets exactly one answer, every
//! answer is one JSON object with a dtype or an error kind of the spec.
//!
//! `cargo test` runs a CI-sized sample; before a release, run the long form for ten minutes:
//! `FUZZ_SECONDS=600 cargo test --release --test jsonl_fuzz -- --ignored fuzz --nocapture`
//! (each of the three long tests runs fresh random batches until the time is spent and prints
//! how many cases it ran), or a fixed number of cases: `FUZZ_CASES=1000000 ...`.

use promote::jsonl::{serve, serve_streaming, Framing};
use promote::kernel::eval;
use promote::{builtin, query, Call, DType, Op, Policy};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

const CAP: usize = 512;

fn dtype() -> impl Strategy<Value = DType> {
    (0..promote::dtype::CLASSIC.len()).prop_map(|i| DType::ALL[i])
}

/// Text that is nearly a Python literal: valid ones, and the near misses of the grammar.
fn literal() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("True".to_string()),
        Just("False".to_string()),
        any::<i64>().prop_map(|v| v.to_string()),
        "-?[0-9_]{1,25}",
        any::<f64>().prop_map(|v| format!("{v:e}")),
        any::<f64>().prop_map(|v| format!("{v}")),
        "-?(inf|nan|[0-9]{0,3}\\.?[0-9_]{0,3}([eE][-+]?[0-9_]{0,3})?)j?",
        "\\(-?[0-9.e+]{1,6}[-+][0-9.e]{1,6}j\\)?",
    ]
}

/// An operand in the compact syntax, or something close to one.
fn operand() -> impl Strategy<Value = String> {
    prop_oneof![
        dtype().prop_map(|d| d.name().to_string()),
        dtype().prop_map(|d| format!("~{d}")),
        (dtype(), literal()).prop_map(|(d, v)| format!("{d}({v})")),
        dtype().prop_map(|d| format!("{d}()")),
        literal(),
        "[a-z0-9~()_.]{1,12}",
    ]
}

/// A call: an optional op word (or a misspelt one), operands, an optional `out=`.
fn call() -> impl Strategy<Value = String> {
    let op = prop_oneof![
        (0..Op::all().len()).prop_map(|i| Op::all()[i].name().to_string()),
        Just(String::new()),
        "[a-z_]{1,14}",
    ];
    let out = prop_oneof![
        Just(String::new()),
        dtype().prop_map(|d| format!("out={d}")),
        Just("out=".to_string()),
        "out=[a-z0-9]{1,8}",
    ];
    (op, prop::collection::vec(operand(), 0..4), out)
        .prop_map(|(op, ops, out)| format!("{op} {} {out}", ops.join(" ")))
}

/// One line of a query stream, as bytes.
fn line() -> impl Strategy<Value = Vec<u8>> {
    // a call as its JSON query where it parses, else its text (an invalid line)
    let valid = call().prop_map(|c| match c.parse::<Call>() {
        Ok(parsed) => query::call_json(&parsed).to_string().into_bytes(),
        Err(_) => c.into_bytes(),
    });
    prop_oneof![
        4 => valid,
        1 => prop_oneof![Just(b"".to_vec()), Just(b"\r".to_vec()), Just(b" \x0b\t".to_vec()),
                         Just("\u{a0}\u{2003}".as_bytes().to_vec())],
        1 => prop::collection::vec(any::<u8>(), 0..40)
            .prop_map(|mut v| { v.retain(|b| *b != b'\n'); v }),
        1 => (CAP - 2..CAP + 40).prop_map(|n| vec![b' '; n]),
        1 => Just(br#"{"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8"}], "x": 1}"#.to_vec()),
    ]
}

/// A query stream: lines joined by `\n` or `\r\n`, with or without a final line end.
fn stream() -> impl Strategy<Value = (Vec<Vec<u8>>, bool, bool)> {
    (
        prop::collection::vec(line(), 0..12),
        any::<bool>(),
        any::<bool>(),
    )
}

fn lines_in(lines: &[Vec<u8>], crlf: bool, final_newline: bool) -> (Vec<u8>, usize) {
    let mut input = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        input.extend_from_slice(l);
        if i + 1 < lines.len() || final_newline {
            input.extend_from_slice(if crlf { b"\r\n" } else { b"\n" });
        }
    }
    let expected = match lines.last() {
        Some(l) if l.is_empty() && !final_newline => lines.len() - 1,
        _ => lines.len(),
    };
    (input, expected)
}

/// Every answer line is one JSON object: a dtype and weak flag, or an error of the spec.
fn check_answer(a: &str) -> Result<(), TestCaseError> {
    let v: serde_json::Value =
        serde_json::from_str(a).map_err(|e| TestCaseError::fail(format!("{a}: {e}")))?;
    let kind = v.get("error").and_then(|e| e.as_str());
    match kind {
        Some(k) => prop_assert!(promote::ErrorKind::parse(k).is_some(), "{a}"),
        None => prop_assert!(v["dtype"].is_string() && v["weak"].is_boolean(), "{a}"),
    }
    Ok(())
}

fn lines_of(out: Vec<u8>) -> Vec<String> {
    String::from_utf8(out)
        .expect("answers are UTF-8")
        .lines()
        .map(String::from)
        .collect()
}

/// `eval` over a stream with every line longer than `stream_above` bytes parsed as a stream.
fn serve_streamed(policy: &dyn Policy, input: &[u8], stream_above: usize) -> Vec<String> {
    let mut out = Vec::new();
    let framing = Framing {
        max_line_bytes: CAP,
        flush_each: true,
    };
    serve_streaming(
        std::io::BufReader::with_capacity(7, input),
        &mut out,
        framing,
        stream_above,
        |l| eval::answer_value(&eval::eval_line(policy, l)),
        |r| eval::answer_value(&eval::eval_reader_under(policy, None, r)),
        |a: &String, w| std::io::Write::write_all(w, a.as_bytes()),
        |e| query::answer_of(&Err(e.clone())).to_string(),
    )
    .expect("in-memory I/O cannot fail");
    lines_of(out)
}

fn serve_all(policy: &dyn Policy, input: &[u8], eval_mode: bool) -> Vec<String> {
    let mut out = Vec::new();
    let framing = Framing {
        max_line_bytes: CAP,
        flush_each: true,
    };
    serve(
        input,
        &mut out,
        framing,
        |l, w| {
            use std::io::Write;
            if eval_mode {
                eval::write_answer(&eval::eval_line(policy, l), w)
            } else {
                w.write_all(query::answer_line(policy, l).as_bytes())
            }
        },
        |e| query::answer_of(&Err(e.clone())).to_string(),
    )
    .expect("in-memory I/O cannot fail");
    lines_of(out)
}

/// A value as `eval` data: valid texts of the dtype, near misses, JSON numbers and bools.
fn datum() -> impl Strategy<Value = String> {
    prop_oneof![
        literal().prop_map(|l| serde_json::json!(l).to_string()),
        any::<i32>().prop_map(|v| v.to_string()),
        any::<f64>()
            .prop_filter("finite", |v| v.is_finite())
            .prop_map(|v| format!("{v:?}")),
        Just("true".to_string()),
        Just("null".to_string()),
        Just("\"-0\"".to_string()),
    ]
}

fn eval_query() -> impl Strategy<Value = String> {
    let tensor = (dtype(), prop::collection::vec(datum(), 0..6), any::<bool>()).prop_map(
        |(d, data, zero)| {
            let nd = if zero { r#", "ndim": 0"# } else { "" };
            format!(r#"{{"dtype": "{d}"{nd}, "data": [{}]}}"#, data.join(", "))
        },
    );
    let scalar = literal().prop_map(|l| {
        let kind = match promote::Literal::parse(&l).map(|x| x.kind()) {
            Some(k) => k.name(),
            None => "int",
        };
        format!(
            r#"{{"scalar": "{kind}", "value": {}}}"#,
            serde_json::json!(l)
        )
    });
    let operand = prop_oneof![3 => tensor, 1 => scalar];
    ((0..Op::all().len()), prop::collection::vec(operand, 1..3)).prop_map(|(op, ops)| {
        format!(
            r#"{{"op": "{}", "operands": [{}]}}"#,
            Op::all()[op].name(),
            ops.join(", ")
        )
    })
}

fn run(cases: u32, name: &str, test: impl Fn(&mut TestRunner) -> Result<(), String>) {
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    if let Err(e) = test(&mut runner) {
        panic!("{name}: {e}");
    }
}

fn calls(cases: u32) {
    let policies: Vec<_> = promote::policy::BUILTIN
        .iter()
        .map(|n| builtin(n).unwrap())
        .collect();
    run(cases, "calls", |r| {
        r.run(&call(), |c| {
            if let Ok(parsed) = c.parse::<Call>() {
                let again: Call = parsed
                    .to_string()
                    .parse()
                    .map_err(|e| TestCaseError::fail(format!("{c}: {e}")))?;
                // compared as text: a nan value is not equal to itself
                prop_assert_eq!(again.to_string(), parsed.to_string());
                for p in &policies {
                    check_answer(&query::answer_value(&p.resolve(&parsed)).to_string())?;
                }
            }
            Ok(())
        })
        .map_err(|e| e.to_string())
    });
}

fn streams(cases: u32) {
    let numpy1 = builtin("numpy1").unwrap();
    run(cases, "streams", |r| {
        r.run(&stream(), |(lines, crlf, final_newline)| {
            let (input, expected) = lines_in(&lines, crlf, final_newline);
            for eval_mode in [false, true] {
                let answers = serve_all(&*numpy1, &input, eval_mode);
                prop_assert_eq!(
                    answers.len(),
                    expected,
                    "{:?}",
                    String::from_utf8_lossy(&input)
                );
                for a in &answers {
                    check_answer(a)?;
                }
            }
            // every line parsed from a stream answers as the line held whole
            let held = serve_all(&*numpy1, &input, true);
            for above in [1, 9, 40] {
                prop_assert_eq!(&serve_streamed(&*numpy1, &input, above), &held);
            }
            Ok(())
        })
        .map_err(|e| e.to_string())
    });
}

fn eval_data(cases: u32) {
    let policies: Vec<_> = ["numpy", "torch", "jax"]
        .iter()
        .map(|n| builtin(n).unwrap())
        .collect();
    run(cases, "eval data", |r| {
        r.run(&eval_query(), |q| {
            for p in &policies {
                let a = eval::answer_line(&**p, &q);
                check_answer(&a)?;
                // read from a stream: the same answer
                let streamed =
                    eval::answer_value(&eval::eval_reader_under(&**p, None, q.as_bytes()));
                prop_assert_eq!(&streamed, &a);
                // resolve reads the same query: the same dtype, or `invalid` only where eval
                // is invalid too
                let r: serde_json::Value =
                    serde_json::from_str(&query::answer_line(&**p, &q)).unwrap();
                let e: serde_json::Value = serde_json::from_str(&a).unwrap();
                if e.get("dtype").is_some() {
                    prop_assert_eq!(
                        (&r["dtype"], &r["weak"]),
                        (&e["dtype"], &e["weak"]),
                        "{}",
                        q
                    );
                }
                if r["error"] == "invalid" {
                    prop_assert_eq!(&e["error"], "invalid", "{} -> {}", q, r);
                }
                let v: serde_json::Value = serde_json::from_str(&a).unwrap();
                if let Some(data) = v.get("data") {
                    prop_assert!(
                        data.as_array()
                            .is_some_and(|d| !d.is_empty() || q.contains("[]")),
                        "{q} -> {a}"
                    );
                }
            }
            Ok(())
        })
        .map_err(|e| e.to_string())
    });
}

/// The long runs' budget, from the environment: `FUZZ_SECONDS` (fresh random batches until the
/// time is spent) or `FUZZ_CASES` (that many cases; 200,000 when neither is set). `share`
/// divides the cases for a generator whose cases cost more. Prints what was run.
fn long_run(name: &str, share: u32, test: impl Fn(u32)) {
    let env = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<u64>().ok());
    let start = std::time::Instant::now();
    let mut cases = 0u64;
    match env("FUZZ_SECONDS") {
        Some(secs) => {
            let batch = 20_000 / share;
            while start.elapsed().as_secs() < secs {
                test(batch);
                cases += u64::from(batch);
            }
        }
        None => {
            let n = env("FUZZ_CASES").unwrap_or(200_000) as u32 / share;
            test(n);
            cases = u64::from(n);
        }
    }
    println!(
        "fuzz {name}: {cases} cases in {:.1} s, nothing found",
        start.elapsed().as_secs_f64()
    );
}

#[test]
fn calls_never_panic_and_round_trip() {
    calls(1500);
}

#[test]
fn every_line_of_a_stream_gets_one_answer() {
    streams(500);
}

#[test]
fn eval_data_never_panics() {
    eval_data(1500);
}

#[test]
#[ignore = "the long fuzz run: cargo test --release -- --ignored fuzz"]
fn fuzz_calls_long() {
    long_run("calls", 1, calls);
}

#[test]
#[ignore = "the long fuzz run: cargo test --release -- --ignored fuzz"]
fn fuzz_streams_long() {
    long_run("streams", 4, streams);
}

#[test]
#[ignore = "the long fuzz run: cargo test --release -- --ignored fuzz"]
fn fuzz_eval_data_long() {
    long_run("eval data", 1, eval_data);
}

/// Found by the long fuzz (`FUZZ_CASES=1500000`): serde_json placed "number out of range" a
/// column apart for a line held whole (` 1e310 `: column 6) and the same line read as a stream
/// (column 7). Both now go through one reader, so every answer is the same to the byte.
#[test]
fn a_streamed_line_answers_as_the_held_line() {
    let numpy1 = builtin("numpy1").unwrap();
    for line in [
        &b" 1e310 "[..],
        b"{\"op\": 1e999}",
        b"[1, 2,",
        b"{\"op\": \"add\", \"operands\": [{\"dtype\": \"int8\", \"data\": [\"1\", 1e400]}, 2]}",
    ] {
        let held = serve_all(&*numpy1, line, true);
        for above in [1, 3, 9] {
            assert_eq!(serve_streamed(&*numpy1, line, above), held, "{line:?}");
        }
    }
}
