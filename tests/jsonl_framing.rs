//! The JSONL contract of `resolve` and `eval`: every line gets exactly one answer, in order,
//! flushed before the next line is read — checked with a coprocess client that sends one
//! line and waits for its answer (blank, `\r`, vertical tab, NBSP, invalid UTF-8, huge lines).

#[path = "common/coprocess.rs"]
mod coprocess;

use std::io::Write;
use std::process::{Command, Stdio};

use coprocess::Coprocess;

const RESOLVE_Q: &str = r#"{"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "uint8"}]}"#;
const EVAL_Q: &str = r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["1"]}, {"dtype": "uint8", "data": ["255"]}]}"#;

/// Lines a client may send that are not queries, each to be answered `invalid`.
fn refused_lines() -> Vec<Vec<u8>> {
    vec![
        b"".to_vec(),
        b"\r".to_vec(),
        b"   ".to_vec(),
        b"\x0b".to_vec(),
        "\u{a0}".as_bytes().to_vec(),
        b" \t\r".to_vec(),
        b"\xff\xfe".to_vec(),
        b"{\"op\": \"add\xff\"}".to_vec(),
        vec![b'x'; 5000],
        b"not json".to_vec(),
    ]
}

fn conversation(interface: &str, query: &str, expected: &str) {
    let mut c = Coprocess::start(&[interface, "--policy", "torch", "--max-line-bytes", "1000"]);
    for line in refused_lines() {
        let a = c.ask(&line);
        assert_eq!(a["error"], "invalid", "{interface} {line:?}: {a}");
        // and the next line is still answered, as itself
        let a = c.ask(query.as_bytes());
        assert_eq!(a["dtype"], expected, "{interface} after {line:?}: {a}");
    }
    let mut crlf = query.as_bytes().to_vec();
    crlf.push(b'\r');
    assert_eq!(c.ask(&crlf)["dtype"], expected);
    let huge = format!("{}{}", query, " ".repeat(10_000));
    let a = c.ask(huge.as_bytes());
    assert!(
        a["message"].as_str().unwrap().contains("--max-line-bytes"),
        "{a}"
    );
    assert_eq!(c.finish(), 0);
}

#[test]
fn resolve_answers_every_line_as_a_coprocess() {
    conversation("resolve", RESOLVE_Q, "int16");
}

#[test]
fn eval_answers_every_line_as_a_coprocess() {
    conversation("eval", EVAL_Q, "int16");
}

/// The batch form of the bug: a line that is not UTF-8 swallowed the next one.
#[test]
fn four_lines_in_four_answers_out() {
    for interface in ["resolve", "eval"] {
        let q = if interface == "resolve" {
            RESOLVE_Q
        } else {
            EVAL_Q
        };
        let mut input = Vec::new();
        for line in [
            q.as_bytes(),
            b"\xff\xfe",
            q.as_bytes(),
            b"",
            b"\r",
            q.as_bytes(),
        ] {
            input.extend_from_slice(line);
            input.push(b'\n');
        }
        input.extend_from_slice(q.as_bytes()); // a last line without `\n`
        let mut child = Command::new(env!("CARGO_BIN_EXE_promote"))
            .args([interface, "-p", "torch"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        std::thread::spawn(move || stdin.write_all(&input));
        let out = child.wait_with_output().unwrap();
        let answers: Vec<serde_json::Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let tokens: Vec<&str> = answers
            .iter()
            .map(|a| a["dtype"].as_str().or(a["error"].as_str()).unwrap())
            .collect();
        assert_eq!(
            tokens,
            ["int16", "invalid", "int16", "invalid", "invalid", "int16", "int16"],
            "{interface}"
        );
        assert_eq!(out.status.code(), Some(0));
    }
}

/// A line longer than the cap is skipped without being held: a 64 MB line under a 1 KB cap.
#[test]
fn a_huge_line_is_refused_and_the_stream_goes_on() {
    let mut c = Coprocess::start(&["eval", "-p", "numpy", "--max-line-bytes", "1024"]);
    let mut huge = br#"{"op": "add", "operands": [{"dtype": "int8", "data": ["#.to_vec();
    huge.extend(std::iter::repeat_n(b"\"1\",".as_slice(), 16 << 20).flatten());
    let a = c.ask(&huge);
    assert!(
        a["message"]
            .as_str()
            .unwrap()
            .contains("more than the limit of 1024"),
        "{a}"
    );
    assert_eq!(c.ask(EVAL_Q.as_bytes())["dtype"], "int16");
    assert_eq!(c.finish(), 0);
}

/// A query line of `n` int8 values per operand (about 4n bytes per operand).
fn big_eval_line(n: usize, first: &str, tail: &[u8]) -> Vec<u8> {
    let data = |v: &str| {
        let mut d = vec![format!("\"{v}\"")];
        d.extend(std::iter::repeat_n("\"1\"".to_string(), n - 1));
        d.join(",")
    };
    let mut line = format!(
        r#"{{"op": "add", "operands": [{{"dtype": "int8", "data": [{}]}}, {{"dtype": "int8", "data": [{}]}}]}}"#,
        data(first),
        data("2")
    )
    .into_bytes();
    line.extend_from_slice(tail);
    line
}

/// Lines over 1 MiB are parsed as they are read (never held whole), with the same answers and
/// the same framing as lines held whole: a good one computes, a bad element, invalid UTF-8 at
/// the end, trailing text and a blank 2 MB line are each one `invalid` answer, and the next
/// line is answered as itself.
#[test]
fn long_lines_are_streamed_and_framed_as_held_lines() {
    let mut c = Coprocess::start(&["eval", "-p", "numpy"]);
    let n = 400_000;
    let a = c.ask(&big_eval_line(n, "5", b""));
    assert_eq!(a["dtype"], "int8", "{}", &a.to_string()[..200]);
    let data = a["data"].as_array().unwrap();
    assert_eq!(
        (data.len(), data[0].as_str(), data[n - 1].as_str()),
        (n, Some("7"), Some("2"))
    );
    let cases: [(&[u8], &str, &str); 4] = [
        (b"", "300", "element 1"),
        (b" \xff", "5", "not UTF-8"),
        (b" x", "5", "trailing characters"),
        (b"\r", "1.5", "element 1"),
    ];
    for (tail, first, says) in cases {
        let a = c.ask(&big_eval_line(n, first, tail));
        assert_eq!(a["error"], "invalid", "{says}: {a}");
        assert!(a["message"].as_str().unwrap().contains(says), "{says}: {a}");
        assert_eq!(c.ask(EVAL_Q.as_bytes())["dtype"], "int16");
    }
    let a = c.ask(&vec![b' '; 2 << 20]);
    assert!(a["message"].as_str().unwrap().contains("blank"), "{a}");
    assert_eq!(c.ask(EVAL_Q.as_bytes())["dtype"], "int16");
    assert_eq!(c.finish(), 0);
}

/// `resolve` takes the query a harness sends to `eval`: the data is checked as `eval` checks
/// it, and the answer comes from the dtypes.
#[test]
fn resolve_reads_queries_with_data() {
    let mut c = Coprocess::start(&["resolve", "-p", "numpy"]);
    let a = c.ask(EVAL_Q.as_bytes());
    assert_eq!(
        (a["dtype"].as_str(), a["weak"].as_bool()),
        (Some("int16"), Some(false)),
        "{a}"
    );
    let bad: [(&str, &str); 4] = [
        (
            r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["300"]}, {"dtype": "uint8"}]}"#,
            "300",
        ),
        (
            r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["1", "2"]}, {"dtype": "uint8", "data": ["1", "2", "3"]}]}"#,
            "3",
        ),
        (
            r#"{"op": "add", "operands": [{"dtype": "int8", "ndim": 0, "value": "1", "data": ["2"]}, {"dtype": "uint8"}]}"#,
            "agree",
        ),
        (
            r#"{"op": "add", "operands": [{"scalar": "int", "value": "1", "data": ["2"]}, {"dtype": "uint8"}]}"#,
            "data",
        ),
    ];
    for (q, says) in bad {
        let a = c.ask(q.as_bytes());
        assert_eq!(a["error"], "invalid", "{q}: {a}");
        assert!(a["message"].as_str().unwrap().contains(says), "{q}: {a}");
    }
    // a tensor without data is fine in resolve (it is not in eval), and `"data": null` is absent
    let q = r#"{"op": "add", "operands": [{"dtype": "int8", "data": ["1"]}, {"dtype": "uint8", "data": null}]}"#;
    assert_eq!(c.ask(q.as_bytes())["dtype"], "int16");
    assert_eq!(c.finish(), 0);
}
