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
