//! `promote table` over its real output: Paddle's tables as its guide prints them, TensorFlow's
//! ALL table with the SAFE-forbidden cells marked, and every format.

mod common;
use common::promote;

use std::path::Path;

/// How many dtypes a built-in policy's framework has: the rows (and columns) of its tables.
fn dtypes_of(policy: &str) -> usize {
    let p = promote::builtin(policy).unwrap();
    promote::DType::ALL
        .into_iter()
        .filter(|&d| p.has(d))
        .count()
}

fn builtin(name: &str) -> bool {
    let (_, out, _) = promote(&["policies"]);
    out.lines()
        .any(|l| l.trim_start_matches('|').split_whitespace().next() == Some(name))
}

/// The Markdown tables of a text: each as rows of trimmed cells (the alignment row left out).
fn md_tables(text: &str) -> Vec<Vec<Vec<String>>> {
    let mut tables = Vec::new();
    let mut cur: Vec<Vec<String>> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.contains('|') && !line.starts_with("```") {
            let cells: Vec<String> = line
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().to_string())
                .collect();
            if cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == ':' || ch == '-') && !c.is_empty())
            {
                continue;
            }
            cur.push(cells);
        } else if !cur.is_empty() {
            tables.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        tables.push(cur);
    }
    tables
}

fn seed(name: &str) -> Option<String> {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../shared/seeds")
            .join(name),
    )
    .ok()
}

/// Cells where a table of ours and a table of the docs disagree: (row, column, docs, ours).
fn disagreements(
    docs: &[Vec<String>],
    ours: &[Vec<String>],
) -> Vec<(String, String, String, String)> {
    assert_eq!(docs[0], ours[0], "the header row, as the docs print it");
    let rows: Vec<&String> = docs.iter().map(|r| &r[0]).collect();
    assert_eq!(
        rows,
        ours.iter().map(|r| &r[0]).collect::<Vec<_>>(),
        "the row labels, in the docs' order"
    );
    let mut out = Vec::new();
    for (d, o) in docs.iter().zip(ours).skip(1) {
        for (j, (x, y)) in d.iter().zip(o).enumerate().skip(1) {
            if x != y {
                out.push((d[0].clone(), docs[0][j].clone(), x.clone(), y.clone()));
            }
        }
    }
    out
}

/// Where Paddle's guide and Paddle 3.3.1 disagree (see ../shared/README.md: the framework
/// wins), as recorded in tests/fixtures/resolve/paddle.txt.gz: (row, column, the guide, Paddle).
/// The guide writes `-` on the integer diagonal, where no promotion is needed but the op runs;
/// and two cells of its complex64 row are wrong (its own float64 row has c128 for f64 + c64).
const PADDLE_GUIDE_ERRATA: &[(&str, &str, &str, &str)] = &[
    ("bool", "bool", "-", "bool"),
    ("u8", "u8", "-", "u8"),
    ("i8", "i8", "-", "i8"),
    ("i16", "i16", "-", "i16"),
    ("i32", "i32", "-", "i32"),
    ("i64", "i64", "-", "i64"),
    ("c64", "f64", "c64", "c128"),
    ("c64", "i64", "c128", "c64"),
];

#[test]
fn paddle_tables_as_the_guide_prints_them() {
    if !builtin("paddle") {
        eprintln!("skipped: no built-in paddle policy yet");
        return;
    }
    let Some(guide) = seed("paddle-implicit-type-promotion.md") else {
        eprintln!("skipped: ../shared/seeds is not beside the project");
        return;
    };
    let docs = md_tables(&guide);
    let (code, tensors, _) = promote(&["table", "--policy", "paddle"]);
    assert_eq!(code, 0);
    let (code, scalars, _) = promote(&["table", "--policy", "paddle", "--with", "scalars"]);
    assert_eq!(code, 0);
    // a `†` marks a promotion Paddle's CPU build has no kernel for (bf16 + bf16): the guide
    // shows the promotion
    let unmarked = |t: Vec<Vec<String>>| -> Vec<Vec<String>> {
        t.into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|c| c.trim_end_matches('†').to_string())
                    .collect()
            })
            .collect()
    };
    assert!(
        tensors.contains("bf16†"),
        "bf16 + bf16 has no CPU kernel in Paddle 3.3.1"
    );
    let ours = [
        unmarked(md_tables(&tensors).remove(0)),
        unmarked(md_tables(&scalars).remove(0)),
    ];
    let mut all = Vec::new();
    for (d, o) in [&docs[0], &docs[1]].into_iter().zip(&ours) {
        all.extend(disagreements(d, o));
    }
    let unexplained: Vec<_> = all
        .iter()
        .filter(|(r, c, d, o)| {
            !PADDLE_GUIDE_ERRATA.contains(&(r.as_str(), c.as_str(), d.as_str(), o.as_str()))
        })
        .collect();
    for (r, c, d, o) in PADDLE_GUIDE_ERRATA {
        assert!(
            all.iter()
                .any(|x| (x.0.as_str(), x.1.as_str(), x.2.as_str(), x.3.as_str())
                    == (*r, *c, *d, *o)),
            "erratum ({r}, {c}) no longer differs: update PADDLE_GUIDE_ERRATA and docs/cli.md"
        );
    }
    assert!(
        unexplained.is_empty(),
        "cells where our paddle table and the guide disagree, not in the errata: {unexplained:?}"
    );
}

#[test]
fn paddle_style_names_and_orders_like_the_guide() {
    // the style works for any policy: the layout of Paddle's guide, torch's answers
    let (code, out, _) = promote(&["table", "--policy", "torch", "--style", "paddle"]);
    assert_eq!(code, 0);
    let t = &md_tables(&out)[0];
    assert_eq!(
        t[0][..5],
        ["+/-/*", "bf16", "f16", "f32", "f64"].map(String::from)
    );
    assert_eq!(t[0][5], "bool");
    assert_eq!(t[5][0], "bool");
    let (_, out, _) = promote(&[
        "table", "--policy", "torch", "--style", "paddle", "--with", "scalars",
    ]);
    let t = &md_tables(&out)[0];
    assert_eq!(
        t[0],
        ["+/-/*", "bool", "int", "float", "complex"].map(String::from)
    );
    // Paddle's guide: int -> int64, so a bool tensor with an int gives i64; torch agrees
    assert_eq!(
        t[1],
        ["bool", "bool", "i64", "f32", "c64"].map(String::from)
    );
    let (_, out, _) = promote(&[
        "table", "--policy", "torch", "--style", "paddle", "--op", "divide",
    ]);
    assert_eq!(md_tables(&out)[0][0][0], "divide");
}

#[test]
fn tf_all_marks_what_safe_forbids() {
    if !builtin("tf-all") || !builtin("tf-safe") {
        eprintln!("skipped: no built-in tf-all / tf-safe policies yet");
        return;
    }
    let (code, out, _) = promote(&[
        "table", "--policy", "tf-all", "--with", "nodes", "--mark", "tf-safe", "--format", "json",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let cols: Vec<&str> = v["cols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(&cols[..2], ["b", "u8"], "TensorFlow's guide names bool `b`");
    assert!(
        cols.contains(&"i32*") && cols.contains(&"f32*") && cols.contains(&"c128*"),
        "{cols:?}"
    );
    let at = |r: &str, c: &str| {
        let i = v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .position(|x| x == r)
            .unwrap();
        let j = cols.iter().position(|x| *x == c).unwrap();
        (
            v["cells"][i][j]["text"].as_str().unwrap().to_string(),
            !v["mark"]["cells"][i][j].is_null(),
        )
    };
    // the guide's examples: i32 + f32 and i8 + u32 are allowed in ALL, forbidden in SAFE
    assert_eq!(at("i32", "f32"), ("f32".to_string(), true));
    assert_eq!(at("i8", "u32"), ("i64".to_string(), true));
    assert_eq!(at("i64", "f16"), ("f16".to_string(), true));
    assert_eq!(at("i8", "i32"), ("i32".to_string(), false));
    assert_eq!(at("f16", "f32*").0, "f16");
    // the promotion alone, as the guide's table (add has no bool kernel: b + b is `b†` there)
    assert_eq!(at("b", "b").0, "b†");
    let (_, promo, _) = promote(&[
        "table", "--policy", "tf-all", "--op", "promote", "--with", "nodes", "--mark", "tf-safe",
    ]);
    let t = &md_tables(&promo)[0];
    assert_eq!(t[1][1], "b");
    let marked_md =
        |t: &Vec<Vec<String>>| t.iter().flatten().filter(|c| c.starts_with("**")).count();
    let json_marked_add = v["mark"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .filter(|c| !c.is_null())
        .count();
    assert_eq!(
        marked_md(t),
        json_marked_add,
        "the same cells are SAFE-forbidden in the promotion as in add"
    );
    // the HTML highlights the same cells
    let (_, html, _) = promote(&[
        "table", "--policy", "tf-all", "--with", "nodes", "--mark", "tf-safe", "--format", "html",
    ]);
    let marked = html.matches(" mark\"").count();
    let json_marked = v["mark"]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .filter(|c| !c.is_null())
        .count();
    assert_eq!(marked, json_marked);
    assert!(html.contains("tf-safe refuses this cell"));
}

#[test]
fn markdown_is_aligned_and_answers_are_the_engines() {
    let (code, out, _) = promote(&["table", "--policy", "torch"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with('|')).collect();
    assert_eq!(
        lines.len(),
        2 + dtypes_of("torch"),
        "header, rule, a row per dtype"
    );
    assert!(
        lines
            .iter()
            .all(|l| l.chars().count() == lines[0].chars().count()),
        "aligned:\n{out}"
    );
    let t = &md_tables(&out)[0];
    let col = |name: &str| t[0].iter().position(|c| c == name).unwrap();
    let row = |name: &str| t.iter().position(|r| r[0] == name).unwrap();
    assert_eq!(t[row("u8")][col("i8")], "i16");
    assert_eq!(
        t[row("u16")][col("i8")],
        "-",
        "torch does not promote uint16 with int8"
    );
    assert_eq!(
        t[row("u16")][col("u16")],
        "u16†",
        "uint16 promotes with itself, but torch has no add kernel for uint16"
    );
    assert!(out.contains("`-` no implicit promotion"));
}

#[test]
fn weak_types_join_the_table_as_the_jax_docs_show() {
    let (_, out, _) = promote(&["table", "--policy", "jax-x64", "--with", "nodes"]);
    let t = &md_tables(&out)[0];
    // the weak types' columns follow the row label and one column per dtype
    let w = 1 + dtypes_of("jax-x64");
    assert_eq!(t[0][w..], ["i*", "f*", "c*"].map(String::from));
    let row = |name: &str| t.iter().position(|r| r[0] == name).unwrap();
    assert_eq!(t[row("b1")][w], "i*");
    assert_eq!(t[row("i8")][w + 1], "f*");
    assert_eq!(t[row("f16")][w + 1], "f16");
    assert_eq!(t[row("i*")][w + 2], "c*");
    assert_eq!(
        t[row("f8e4m3fn")][w + 1],
        "f8e4m3fn",
        "f* is below every float8"
    );
}

#[test]
fn scalars_columns_and_custom_literals() {
    let (_, out, _) = promote(&[
        "table",
        "--policy",
        "numpy",
        "--with",
        "scalars",
        "--literals",
        "1,300,-1,1.0",
        "--format",
        "csv",
    ]);
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split(',').collect()).collect();
    assert_eq!(rows[0], ["add", "1", "300", "-1", "1.0"]);
    let u8_row = rows.iter().find(|r| r[0] == "u8").unwrap();
    assert_eq!(
        u8_row[1..],
        ["u8", "OF", "OF", "f64"],
        "NEP 50: uint8 + 300 overflows"
    );
}

#[test]
fn json_and_html_are_complete() {
    let (_, out, _) = promote(&[
        "table", "--policy", "jax", "--with", "weak", "--format", "json", "--mark", "jax-x64",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["policy"], "jax");
    let n = v["rows"].as_array().unwrap().len();
    assert_eq!(v["cells"].as_array().unwrap().len(), n);
    assert!(v["cells"][0][0]["dtype"].is_string());
    assert_eq!(v["mark"]["policy"], "jax-x64");
    let (_, html, _) = promote(&["table", "--policy", "torch", "--format", "html"]);
    assert!(html.starts_with("<!DOCTYPE html>"));
    let n = dtypes_of("torch");
    assert_eq!(html.matches("<tr>").count(), 1 + n);
    assert_eq!(html.matches("<td ").count(), n * n);
    assert!(html.trim_end().ends_with("</html>"));
}

#[test]
fn unknown_names_suggest_the_nearest() {
    let (code, _, err) = promote(&["table", "--policy", "pytorch"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `torch`"), "{err}");
    // the op and the literals are the cells' call: a bad one is an invalid call (status 1)
    let (code, _, err) = promote(&["table", "--policy", "torch", "--op", "substract"]);
    assert_eq!(code, 1);
    assert!(err.contains("did you mean `subtract`"), "{err}");
    let (code, _, err) = promote(&["table", "--policy", "torch", "--mark", "jax-x46"]);
    assert_eq!(code, 2);
    assert!(err.contains("jax-x64"), "{err}");
    let (code, out, err) = promote(&["table", "--with", "scalars", "--literals", "1,xx"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.is_empty() && err.contains("`xx` is not a Python literal"),
        "{err}"
    );
}

#[test]
fn promote_is_the_join_table_before_any_op_rule() {
    // JAX's docs: u64 and i64 meet at the weak float f*
    let (code, out, _) = promote(&[
        "table", "--policy", "jax-x64", "--op", "promote", "--with", "nodes",
    ]);
    assert_eq!(code, 0);
    let t = &md_tables(&out)[0];
    let col = |name: &str| t[0].iter().position(|c| c == name).unwrap();
    let row = |name: &str| t.iter().position(|r| r[0] == name).unwrap();
    assert_eq!(t[row("u64")][col("i64")], "f*");
    assert_eq!(t[row("b1")][col("i*")], "i*");
    // torch: add has no uint16 kernel, but the promotion of uint16 with itself is uint16
    let (_, out, _) = promote(&["table", "--policy", "torch", "--op", "promote"]);
    let t = &md_tables(&out)[0];
    assert_eq!(t[3][0], "u16");
    assert_eq!(t[3][3], "u16");
    assert_eq!(t[3][6], "-");
    let (code, _, err) = promote(&[
        "table", "--policy", "torch", "--op", "promote", "--with", "scalars",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("--op promote"), "{err}");
}
