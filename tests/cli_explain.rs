//! `promote explain` over its real output.

mod common;
use common::promote;

#[test]
fn torch_int8_plus_float_names_the_categories() {
    let (code, out, _) = promote(&["explain", "--policy", "torch", "int8", "1.0"]);
    assert_eq!(code, 0);
    assert!(
        out.starts_with("add int8 1.0 gives float32 under torch"),
        "{out}"
    );
    assert!(
        out.contains("an int8 tensor with one or more dimensions"),
        "{out}"
    );
    assert!(out.contains("1.0   a Python float"), "{out}");
    assert!(out.contains("priority categories: first tensors with dimensions, then 0-d tensors, then Python scalars"), "{out}");
    assert!(
        out.contains("The Python float 1.0 enters the promotion as float32."),
        "{out}"
    );
    assert!(out.contains("The Python scalars (float32) are of a higher kind than the tensors with dimensions (int8): float32."), "{out}");
    assert!(
        out.contains("Result: float32 — both inputs are cast to float32"),
        "{out}"
    );
}

#[test]
fn jax_walks_the_lattice_and_explains_weak_types() {
    let (_, out, _) = promote(&["explain", "-p", "jax", "int8", "1.0"]);
    assert!(
        out.starts_with("add int8 1.0 gives float32, weakly typed under jax"),
        "{out}"
    );
    assert!(
        out.contains("In the promotion lattice, the least type above both int8 and f* is f*."),
        "{out}"
    );
    assert!(
        out.contains("Weak types: f* (results there are float32, weakly typed)"),
        "{out}"
    );
    assert!(out.contains("Result: ~float32"), "{out}");
}

#[test]
fn op_first_word_out_and_values() {
    let (_, out, _) = promote(&["explain", "-p", "torch", "divide", "int8", "3"]);
    assert!(out.starts_with("divide int8 3 gives float32"), "{out}");
    assert!(
        out.contains("The op's own rule: divide computes int8 in float32."),
        "{out}"
    );
    let (_, out, _) = promote(&["explain", "-p", "numpy1", "int8", "300"]);
    assert!(
        out.contains("Value-based casting: 300 counts by its value as int16"),
        "{out}"
    );
    let (_, out, _) = promote(&[
        "explain", "-p", "jax", "--op", "add", "int8", "uint8(3)", "out=int8",
    ]);
    assert!(
        out.contains("out=int8  the result is written into an existing int8 tensor"),
        "{out}"
    );
    assert!(
        out.contains("Writing into out: int16 is written into int8"),
        "{out}"
    );
}

#[test]
fn refusals_say_why_and_what_to_do() {
    let (code, out, _) = promote(&["explain", "-p", "torch", "uint16", "int8"]);
    assert_eq!(code, 1, "a refusal is exit status 1");
    assert!(
        out.starts_with("add uint16 int8 is refused (no_promotion) under torch"),
        "{out}"
    );
    assert!(out.contains("cast one operand explicitly"), "{out}");
    let (_, out, _) = promote(&["explain", "-p", "numpy", "uint8", "300"]);
    assert!(out.contains("is refused (overflow)"), "{out}");
}

#[test]
fn every_policy_at_once() {
    let (code, out, _) = promote(&["explain", "--all", "int8", "1.0"]);
    assert_eq!(code, 0);
    let (_, policies, _) = promote(&["policies"]);
    let names: Vec<&str> = policies
        .lines()
        .skip(2)
        .filter_map(|l| l.trim_start_matches('|').split_whitespace().next())
        .collect();
    assert!(names.len() >= 4);
    for n in names {
        assert!(out.contains(&format!("\n## {n}\n")), "{n} missing");
        assert!(
            out.lines().any(|l| l.starts_with(&format!("| {n} "))),
            "{n} not in the summary"
        );
    }
    assert!(out
        .lines()
        .any(|l| l.starts_with("| torch ") && l.contains("float32")));
    assert!(out
        .lines()
        .any(|l| l.starts_with("| jax ") && l.contains("~float32")));
}

#[test]
fn bad_operands_are_explained() {
    // a call that does not parse is an answer: an invalid call, exit status 1 (2 is usage)
    let (code, out, err) = promote(&["explain", "-p", "torch", "int7", "1"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("unknown dtype `int7`") && err.contains("did you mean"),
        "{err}"
    );
}

#[test]
fn usage_errors_stay_status_2() {
    let (code, _, err) = promote(&["explain", "-p", "torch"]);
    assert_eq!(code, 2, "a call is required: {err}");
    let (code, _, err) = promote(&["explain", "-p", "pytorch", "int8", "int8"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = promote(&["explain", "--op", "ad", "int8", "int8"]);
    assert_eq!(code, 1, "an unknown op is an invalid call: {err}");
    assert!(err.contains("did you mean `add`"), "{err}");
}

#[test]
fn two_tensors_show_the_promotion_table_step() {
    for (p, call, cell) in [
        ("numpy", ["add", "uint8", "int8"], "uint8 and int8 is int16"),
        (
            "torch",
            ["multiply", "complex64", "float64"],
            "complex64 and float64 is complex128",
        ),
        (
            "paddle",
            ["add", "float16", "float32"],
            "float16 and float32 is float32",
        ),
    ] {
        let mut args = vec!["explain", "-p", p];
        args.extend(call);
        let (_, out, _) = promote(&args);
        assert!(
            out.contains(&format!("The promotion table's cell for {cell}.")),
            "{p}: {out}"
        );
        assert!(out.contains("The op's own rule:"), "{p}: {out}");
    }
}

#[test]
fn a_refusal_shows_the_steps_before_it() {
    let (_, out, _) = promote(&["explain", "-p", "numpy", "add", "uint8", "300"]);
    assert!(out.contains("Steps before the refusal:"), "{out}");
    assert!(
        out.contains("The Python int 300 enters the promotion as int64."),
        "{out}"
    );
    assert!(
        out.contains("Why: numpy: Python int 300 does not fit uint8"),
        "{out}"
    );
}
