//! Entry points (issue 10) through the command line: the compact syntax's `OP:FORM`, the
//! query's `"form"`, `--form` on `resolve`, `table`, `explain` and `diff`, `NAME:FORM` policies,
//! what a policy without a form answers, and the examples of docs/cli.md's "Entry points"
//! section, run as written.

mod common;
use common::promote;

use std::io::Write;
use std::process::{Command, Stdio};

/// `promote ARGS` with `input` on standard input: (exit status, stdout).
fn promote_with_stdin(args: &[&str], input: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_promote"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("promote runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write stdin");
    let out = child.wait_with_output().expect("promote ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("utf-8"),
    )
}

#[test]
fn the_compact_syntax_and_form_flag_name_tensorflows_function() {
    // `1 + t`: the scalar takes the tensor's dtype
    let (code, out, _) = promote(&["resolve", "--policy", "tf", "add", "1", "uint8"]);
    assert_eq!((code, out.trim()), (0, r#"{"dtype":"uint8","weak":false}"#));
    // tf.math.add(1, t): the 1 becomes an int32 tensor on its own, and AddV2 wants equal dtypes
    let (code, out, _) = promote(&["resolve", "--policy", "tf", "add:function", "1", "uint8"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains(r#""error":"no_promotion""#), "{out}");
    assert!(out.contains("int32"), "the message says why: {out}");
    // --form and NAME:FORM say the same for every call
    for args in [
        [
            "resolve", "--policy", "tf", "--form", "function", "add", "1", "uint8",
        ],
        [
            "resolve",
            "--policy",
            "tf:function",
            "add",
            "1",
            "uint8",
            "",
            "",
        ],
    ] {
        let args: Vec<&str> = args.into_iter().filter(|a| !a.is_empty()).collect();
        let (c, o, _) = promote(&args);
        // the same answer; the policy is named by its form (`tf:function`)
        let o = o.replace("\"tf:function: ", "\"tf: ");
        assert_eq!((c, o.as_str()), (code, out.as_str()), "{args:?}");
    }
    // the other way round is the tensor's dtype in both forms
    let (code, out, _) = promote(&["resolve", "--policy", "tf", "add:function", "uint8", "1"]);
    assert_eq!((code, out.trim()), (0, r#"{"dtype":"uint8","weak":false}"#));
}

#[test]
fn a_query_names_its_form_and_a_missing_form_is_an_answer() {
    let queries = [
        r#"{"op":"add","form":"function","operands":[{"scalar":"int","value":"1"},{"dtype":"uint8"}]}"#,
        r#"{"op":"add","form":"operator","operands":[{"scalar":"int","value":"1"},{"dtype":"uint8"}]}"#,
        r#"{"op":"add","form":"tnp","operands":[{"dtype":"int8"},{"scalar":"int","value":"1"}]}"#,
        r#"{"op":"add","form":"fuction","operands":[{"dtype":"int8"},{"dtype":"int8"}]}"#,
        r#"{"op":"add","form":7,"operands":[{"dtype":"int8"},{"dtype":"int8"}]}"#,
    ];
    let (code, out) = promote_with_stdin(&["resolve", "--policy", "tf"], &queries.join("\n"));
    assert_eq!(code, 0, "a stream answers errors as lines");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(
        lines[0].contains(r#""error":"no_promotion""#),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1], r#"{"dtype":"uint8","weak":false}"#);
    // tf.experimental.numpy.add(int8_t, 1): recorded int8 (tests/fixtures/resolve-forms/tf.txt.gz)
    assert_eq!(lines[2], r#"{"dtype":"int8","weak":false}"#);
    // JAX has no tf.experimental.numpy: the policy says so, naming the forms it has
    let (_, jax) = promote_with_stdin(&["resolve", "--policy", "jax"], queries[2]);
    assert!(jax.contains(r#""error":"unsupported""#), "{jax}");
    assert!(
        jax.contains("tnp") && jax.contains("operator, function"),
        "names the forms it has: {jax}"
    );
    assert!(lines[3].contains(r#""error":"invalid""#), "{}", lines[3]);
    assert!(lines[3].contains("did you mean `function`"), "{}", lines[3]);
    assert!(lines[4].contains(r#""error":"invalid""#), "{}", lines[4]);
    // numpy has no [forms.function]: its two faces agree
    let (_, a, _) = promote(&["resolve", "--policy", "numpy", "add:function", "int8", "1"]);
    let (_, b, _) = promote(&["resolve", "--policy", "numpy", "add", "int8", "1"]);
    assert_eq!(a, b);
    // --form with a form the policy lacks is a usage error that names the forms it has
    let (code, _, err) = promote(&[
        "resolve", "--policy", "numpy", "--form", "tnp", "add", "int8", "1",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("operator, function"), "{err}");
}

#[test]
fn diff_shows_tensorflows_two_faces() {
    let (code, out, _) = promote(&["diff", "tf:function", "tf:operator", "--op", "add,multiply"]);
    assert_eq!(code, 1, "the two faces differ: {out}");
    assert!(out.starts_with("# tf:function vs tf:operator"), "{out}");
    // tf.math.add(1, t) refuses what `1 + t` answers
    let line = out
        .lines()
        .find(|l| l.starts_with("| `add 1 uint8`"))
        .unwrap_or_else(|| panic!("add 1 uint8 differs:\n{out}"));
    assert!(
        line.contains("!no_promotion") && line.contains("uint8"),
        "{line}"
    );
    // tf.math.multiply(b, b) has no bool kernel; `b * b` is a logical and
    let line = out
        .lines()
        .find(|l| l.starts_with("| `multiply bool bool`"))
        .unwrap_or_else(|| panic!("multiply bool bool differs:\n{out}"));
    assert!(
        line.contains("!unsupported") && line.contains("bool"),
        "{line}"
    );
    // --form F applies to both sides; a side's own NAME:FORM wins
    let (code2, out2, _) = promote(&[
        "diff",
        "tf",
        "tf:operator",
        "--form",
        "function",
        "--op",
        "add,multiply",
    ]);
    assert_eq!((code2, out2), (code, out));
    // NumPy 2's function is its operator, but for `round(a)` (no __round__: unsupported);
    // legacy mode's tf.math is mode off's
    let (code, out, _) = promote(&["diff", "numpy:function", "numpy", "--op", "all"]);
    assert_eq!(code, 1, "{out}");
    let summary = out.split("\n## ").next().unwrap_or("");
    let differing: Vec<&str> = summary
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| op") && !l.starts_with("|--"))
        .filter(|l| {
            l.trim_end_matches('|')
                .trim()
                .rsplit('|')
                .next()
                .map(str::trim)
                != Some("0")
        })
        .filter_map(|l| l.split('|').nth(1).map(str::trim))
        .collect();
    assert!(
        !differing.is_empty() && differing.iter().all(|op| *op == "round"),
        "only round differs: {differing:?}\n{out}"
    );
    let (code, out, _) = promote(&["diff", "tf-legacy:function", "tf:function", "--op", "all"]);
    assert_eq!(code, 0, "{out}");
    let (code, out, _) = promote(&["diff", "tf-legacy:function", "tf-legacy", "--op", "all"]);
    assert_eq!(code, 1, "legacy mode patches the operators only: {out}");
}

#[test]
fn table_and_explain_take_the_form() {
    // tf.math.multiply has no bool kernel; `*` makes bool * bool a logical and
    let bool_row = |args: &[&str]| {
        let (code, out, _) = promote(args);
        assert_eq!(code, 0, "{out}");
        let row = out
            .lines()
            .find(|l| l.starts_with("| b "))
            .unwrap_or_else(|| panic!("no bool row:\n{out}"))
            .to_string();
        (out.lines().next().unwrap_or("").to_string(), row)
    };
    let (title, row) = bool_row(&[
        "table", "--policy", "tf", "--form", "function", "--op", "multiply",
    ]);
    assert!(title.starts_with("tf:function "), "{title}");
    assert!(row.split('|').nth(2).unwrap().trim() == "!", "{row}");
    let (title, row) = bool_row(&["table", "--policy", "tf", "--op", "multiply"]);
    assert!(title.starts_with("tf "), "{title}");
    assert!(row.split('|').nth(2).unwrap().trim() == "b", "{row}");
    let by_name = bool_row(&["table", "--policy", "tf:function", "--op", "multiply"]);
    assert_eq!(by_name.1.split('|').nth(2).unwrap().trim(), "!");
    // numpy's table is the same in both forms
    let (_, a, _) = promote(&["table", "--policy", "numpy", "--with", "scalars"]);
    let (_, b, _) = promote(&[
        "table", "--policy", "numpy", "--form", "function", "--with", "scalars",
    ]);
    let body = |t: &str| t.lines().skip(1).collect::<Vec<_>>().join("\n");
    assert_eq!(body(&a), body(&b));

    let (code, out, _) = promote(&[
        "explain", "--policy", "tf", "--form", "function", "add", "1", "uint8",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("convert_to_tensor") || out.contains("int32 alone"),
        "the rule's source: {out}"
    );
    let (code2, out2, _) = promote(&["explain", "--policy", "tf", "add:function", "1", "uint8"]);
    assert_eq!((code2, out2), (code, out.clone()));
    let (code, plain, _) = promote(&["explain", "--policy", "tf", "add", "1", "uint8"]);
    assert_eq!(code, 0);
    assert_ne!(plain, out);
    // --all with --form: every policy's function form, a summary row each
    let (code, out, _) = promote(&[
        "explain", "--all", "--form", "function", "add", "1", "uint8",
    ]);
    assert_eq!(code, 0, "{out}");
    let row = |name: &str| {
        out.lines()
            .find(|l| l.split('|').nth(1).map(str::trim) == Some(name))
            .unwrap_or_else(|| panic!("no {name} row:\n{out}"))
            .to_string()
    };
    assert!(row("tf").contains("!no_promotion"), "{}", row("tf"));
    assert!(row("paddle").contains("!unsupported"), "{}", row("paddle"));
    assert!(row("numpy").contains("uint8"), "{}", row("numpy"));
}

/// Split a console line into words: blanks separate, single quotes group (as the docs write).
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut cur, mut quoted, mut any) = (String::new(), false, false);
    for ch in line.chars() {
        match ch {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            c => {
                cur.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(cur);
    }
    out
}

#[test]
fn the_docs_entry_point_examples_are_what_promote_answers() {
    docs_examples_answer("Entry points");
}

#[test]
fn the_docs_nary_examples_are_what_promote_answers() {
    docs_examples_answer("Op-less questions and n-ary ops");
}

/// Whether `got` is `want` with each `...` of it standing for any text.
fn elided_match(want: &str, got: &str) -> bool {
    let pieces: Vec<&str> = want.split("...").collect();
    let (first, last) = (pieces[0], pieces[pieces.len() - 1]);
    if pieces.len() == 1 {
        return got == want;
    }
    let mut rest = match got.strip_prefix(first) {
        Some(r) => r,
        None => return false,
    };
    for mid in &pieces[1..pieces.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    rest.ends_with(last)
}

/// Every `$ promote ...` line of a docs/cli.md section's console blocks answers as the next
/// line says (`...`: its start); a piped `| tail` (a report) is left to its own tests.
fn docs_examples_answer(heading: &str) {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/cli.md")).unwrap();
    let section: String = doc
        .split("\n### ")
        .find(|s| s.starts_with(heading))
        .unwrap_or_else(|| panic!("docs/cli.md has an `### {heading}` section"))
        .to_string();
    let blocks: Vec<&str> = section
        .split("```console\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .collect();
    assert!(!blocks.is_empty(), "the section has a console block");
    let lines: Vec<&str> = blocks.iter().flat_map(|b| b.lines()).collect();
    let mut checked = 0;
    for (i, line) in lines.iter().enumerate() {
        let Some(cmd) = line.strip_prefix("$ ") else {
            continue;
        };
        let cmd = cmd.split(" #").next().unwrap_or(cmd).trim();
        if cmd.contains("| tail") {
            continue;
        }
        let Some(want) = lines.get(i + 1).filter(|l| !l.starts_with("$ ")) else {
            continue;
        };
        let want = want.split(" #").next().unwrap_or(want).trim();
        let got = match cmd.split_once(" | ") {
            Some((echo, promote_cmd)) => {
                let input = words(echo).get(1).cloned().expect("echo 'QUERY'");
                let args = words(promote_cmd);
                assert_eq!(args[0], "promote", "{cmd}");
                let a: Vec<&str> = args[1..].iter().map(String::as_str).collect();
                promote_with_stdin(&a, &input).1
            }
            None => {
                let args = words(cmd);
                assert_eq!(args[0], "promote", "{cmd}");
                let a: Vec<&str> = args[1..].iter().map(String::as_str).collect();
                promote(&a).1
            }
        };
        let got = got.lines().next().unwrap_or("").trim().to_string();
        assert!(elided_match(want, &got), "{cmd}\nwant {want}\ngot  {got}");
        checked += 1;
    }
    assert!(
        checked >= 6,
        "the block shows at least six answers, found {checked}"
    );
}
