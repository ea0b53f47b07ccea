//! Exit statuses and output failures: 0 answered, 1 an error answer, 2 invalid usage,
//! 3 reading or writing failed; never a panic (101).

mod common;
use common::promote;

use std::process::{Command, Stdio};

fn status_with_stdout(args: &[&str], stdout: Stdio) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_promote"))
        .args(args)
        .stdout(stdout)
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_full_disk_is_exit_3_for_every_subcommand() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    for args in [
        &["resolve", "add", "int8", "int8"][..],
        &["eval", "add", "int8(1)", "2"],
        &["policies"],
        &["dtypes", "-p", "numpy"],
        &["table", "-p", "numpy"],
        &["explain", "-p", "numpy", "add", "int8", "int8"],
        &["lattice", "-p", "jax"],
        &["check", "--builtin", "numpy"],
        &["diff", "numpy", "torch"],
        &["ops", "-p", "numpy"],
        &["autocasts"],
        &[
            "bench",
            "-n",
            "16",
            "--runs",
            "1",
            "--seconds",
            "0",
            "--only",
            "int8",
        ],
    ] {
        let (code, err) = status_with_stdout(args, Stdio::from(full()));
        assert_eq!(code, 3, "{args:?}: {err}");
        assert!(
            err.contains("stdout") && !err.contains("invalid query"),
            "{args:?}: {err}"
        );
    }
}

/// The write end of a pipe whose read end is already closed: `cat` reads it, then is killed.
fn broken_pipe() -> Stdio {
    let mut reader = Command::new("cat")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let write_end = reader.stdin.take().unwrap();
    reader.kill().unwrap();
    reader.wait().unwrap();
    Stdio::from(write_end)
}

#[test]
fn a_closed_pipe_is_exit_3_not_a_panic() {
    for args in [
        &["resolve", "add", "int8", "int8"][..],
        &["eval", "add", "int8(1)", "2"],
        &["policies"],
        &["dtypes", "-p", "numpy"],
        &["table", "-p", "numpy"],
        &["explain", "-p", "numpy", "add", "int8", "int8"],
        &["lattice", "-p", "jax"],
        &["check", "--builtin", "numpy"],
        &[
            "bench",
            "-n",
            "16",
            "--runs",
            "1",
            "--seconds",
            "0",
            "--only",
            "int8",
        ],
    ] {
        let (code, err) = status_with_stdout(args, broken_pipe());
        assert_eq!(code, 3, "{args:?}: {err}");
    }
}

#[test]
fn one_shot_answers_set_the_exit_status() {
    assert_eq!(promote(&["resolve", "add", "int8", "int8"]).0, 0);
    let (code, out, _) = promote(&["resolve", "add", "int9", "1.0"]);
    assert_eq!(code, 1);
    assert!(out.contains("\"invalid\""));
    assert_eq!(
        promote(&["resolve", "-p", "numpy", "add", "uint8", "300"]).0,
        1
    );
    assert_eq!(
        promote(&["explain", "-p", "numpy", "add", "uint8", "300"]).0,
        1
    );
    assert_eq!(
        promote(&["explain", "-p", "numpy", "add", "uint8", "3"]).0,
        0
    );
    assert_eq!(
        promote(&["resolve", "--policy", "nope", "add", "int8", "int8"]).0,
        2
    );
    assert_eq!(promote(&["table", "--no-such-flag"]).0, 2);
    // options may follow the call
    let (code, out, _) = promote(&["resolve", "add", "uint8", "-1", "-p", "torch"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn calls_without_operands_are_errors_not_panics() {
    for call in ["out=int8", "add out=int8", "add"] {
        let mut args = vec!["resolve", "-p", "torch"];
        args.extend(call.split(' '));
        let (code, out, err) = promote(&args);
        assert_eq!(code, 1, "{call}: {err}");
        assert!(out.contains("\"invalid\""), "{call}: {out}");
    }
}

#[test]
fn negative_literals_need_no_double_dash() {
    for lit in ["-1", "-inf", "-1j", "-1.5", "-0"] {
        let (code, out, err) = promote(&["resolve", "-p", "torch", "add", "uint8", lit]);
        assert!(
            code <= 1 && out.contains("\"dtype\"") || out.contains("\"error\""),
            "{lit}: {err}"
        );
        assert!(!err.contains("unexpected argument"), "{lit}: {err}");
        let (_, _, err) = promote(&["explain", "-p", "torch", "add", "uint8", lit]);
        assert!(!err.contains("unexpected argument"), "{lit}: {err}");
    }
    let (code, out, err) = promote(&[
        "table",
        "-p",
        "numpy",
        "--with",
        "scalars",
        "--literals",
        "-1,1",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("-1"));
    let (code, out, _) = promote(&["eval", "-p", "numpy", "add", "int8(5)", "-1"]);
    assert_eq!(code, 0);
    assert!(out.contains("\"4\""), "{out}");
}

#[test]
fn one_call_grammar_everywhere() {
    // no op word: add, in resolve as in explain
    let (code, out, _) = promote(&["resolve", "-p", "torch", "int8", "1.0"]);
    assert_eq!(code, 0);
    assert!(out.contains("float32"));
    let (code, out, _) = promote(&["explain", "-p", "torch", "int8", "1.0"]);
    assert_eq!(code, 0);
    assert!(out.contains("float32"));
    // a misspelt op is named as one
    let (_, out, _) = promote(&["resolve", "substract", "int8", "int8"]);
    assert!(out.contains("did you mean `subtract`"), "{out}");
}

#[test]
fn a_huge_unknown_name_costs_nothing_and_is_clipped() {
    let name = "x".repeat(100_000);
    let (code, out, _) = promote(&["resolve", "add", "int8", &name]);
    assert_eq!(code, 1);
    assert!(out.len() < 500, "the message echoes {} bytes", out.len());
}
