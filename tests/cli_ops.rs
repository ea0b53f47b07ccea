//! `promote ops`, the op catalogue, `dtype=`, several results and policy-added ops, over the
//! real output.

mod common;
use common::promote;

#[test]
fn a_policy_lists_the_ops_it_has_with_class_arity_and_rule() {
    let (code, out, _) = promote(&["ops", "--policy", "torch"]);
    assert_eq!(code, 0, "{out}");
    let row = |op: &str| {
        out.lines()
            .find(|l| l.starts_with(&format!("| {op} ")))
            .unwrap_or_else(|| panic!("{op}:\n{out}"))
            .to_string()
    };
    assert!(row("sqrt").contains("unary_float") && row("sqrt").contains("int8→float32"));
    assert!(row("mean").contains("reduction") && row("mean").contains("dtype="));
    assert!(row("add").contains("binary"));
    assert!(!out.contains("| divmod "), "torch has no divmod:\n{out}");
}

#[test]
fn the_catalogue_says_which_policies_have_each_op() {
    let (code, out, _) = promote(&["ops"]);
    assert_eq!(code, 0, "{out}");
    let divmod = out.lines().find(|l| l.starts_with("| divmod ")).unwrap();
    assert!(
        divmod.contains("numpy") && !divmod.contains("torch"),
        "{divmod}"
    );
    let add = out.lines().find(|l| l.starts_with("| add ")).unwrap();
    assert!(add.contains("| all "), "{add}");
    let (code, _, err) = promote(&["ops", "--policy", "pytorch"]);
    assert_eq!(code, 2);
    assert!(err.contains("torch"), "{err}");
}

#[test]
fn dtype_arguments_and_two_results_resolve_from_the_command_line() {
    let (code, out, _) = promote(&["resolve", "--policy", "numpy", "sum", "int8", "dtype=int16"]);
    assert_eq!((code, out.trim()), (0, r#"{"dtype":"int16","weak":false}"#));
    let (code, out, _) = promote(&["resolve", "--policy", "numpy", "divmod", "int8", "uint8"]);
    assert_eq!(code, 0);
    assert!(
        out.contains(
            r#""results":[{"dtype":"int16","weak":false},{"dtype":"int16","weak":false}]"#
        ),
        "{out}"
    );
    let (code, out, _) = promote(&["resolve", "--policy", "torch", "sqrt", "int8"]);
    assert_eq!(
        (code, out.trim()),
        (0, r#"{"dtype":"float32","weak":false}"#)
    );
}

#[test]
fn eval_of_an_op_without_a_kernel_says_so() {
    use promote::kernel::{dispatch, eval};
    let numpy = promote::builtin("numpy").unwrap();
    let lacking = promote::Op::all()
        .into_iter()
        .find(|o| numpy.knows(*o) && o.arity() == 1 && dispatch::kernel(*o).is_err());
    // once every op has a kernel there is nothing to refuse
    if let Some(op) = lacking {
        let q = format!(r#"{{"op": "{op}", "operands": [{{"dtype": "float32", "data": ["4"]}}]}}"#);
        let a: serde_json::Value = serde_json::from_str(&eval::answer_line(&*numpy, &q)).unwrap();
        assert_eq!(a["error"], "unsupported", "{a}");
        let m = a["message"].as_str().unwrap();
        assert!(m.contains(&format!("no kernel for {op} yet")), "{m}");
    }
}

#[test]
fn a_policy_file_may_add_an_op() {
    let torch =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/torch.toml"))
            .unwrap();
    let src = format!(
        "{torch}\n[[op]]\nname = \"cube_root\"\naliases = [\"cbrt\"]\narity = \"unary\"\nclass = \"my_class\"\n\n[[ops]]\nops = [\"my_class\"]\nsource = \"test\"\ncompute = {{ int = \"float64\" }}\n"
    );
    let p = promote::compile(&src, "mine.toml").unwrap();
    use promote::Policy;
    let call: promote::Call = "cbrt int8".parse().unwrap();
    assert_eq!(call.op.name(), "cube_root");
    assert_eq!(p.resolve(&call).unwrap().result, promote::DType::Float64);
    // the built-in torch policy does not have it
    let e = promote::builtin("torch")
        .unwrap()
        .resolve(&call)
        .unwrap_err();
    assert!(e.to_string().contains("no `cube_root`"), "{e}");
    // a clash with a catalogue op is an error at the entry
    let bad = format!("{torch}\n[[op]]\nname = \"sqrt\"\narity = \"binary\"\nclass = \"x\"\n");
    let e = promote::compile(&bad, "bad.toml").unwrap_err().to_string();
    assert!(
        e.contains("bad.toml:") && e.contains("exists already"),
        "{e}"
    );
}

/// The `| row | ... |` line of a Markdown table whose first cell is `label`.
fn md_row<'a>(out: &'a str, label: &str) -> Vec<&'a str> {
    let line = out
        .lines()
        .find(|l| l.split('|').nth(1).map(str::trim) == Some(label))
        .unwrap_or_else(|| panic!("no row {label}:\n{out}"));
    line.split('|')
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

#[test]
fn a_unary_op_has_a_table_an_explanation_and_a_diff() {
    let (code, out, _) = promote(&["table", "--policy", "numpy", "--op", "sqrt"]);
    assert_eq!(code, 0, "{out}");
    assert_eq!(md_row(&out, "i8"), ["i8", "f16"], "{out}");
    assert_eq!(md_row(&out, "i32"), ["i32", "f64"], "{out}");
    let (code, out, _) = promote(&["explain", "--policy", "torch", "sqrt", "int8"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("sqrt int8 gives float32 under torch"), "{out}");
    let (code, out, _) = promote(&["diff", "numpy", "torch", "--op", "sqrt"]);
    assert_eq!(code, 1, "numpy and torch differ on sqrt:\n{out}");
    assert_eq!(
        md_row(&out, "`sqrt int8`"),
        ["`sqrt int8`", "float16", "float32"]
    );
}

#[test]
fn a_reduction_with_dtype_has_a_table_an_explanation_and_a_diff() {
    let (code, out, _) = promote(&[
        "table",
        "--policy",
        "torch",
        "--op",
        "mean",
        "--with",
        "dtype-arg",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("mean of a tensor (row) with the dtype= argument (column)"),
        "{out}"
    );
    let row = md_row(&out, "i64");
    let cols = md_row(&out, "mean");
    let at = |c: &str| row[cols.iter().position(|x| *x == c).unwrap()];
    assert_eq!((at("dtype=f32"), at("dtype=f64")), ("f32", "f64"), "{out}");
    let (code, _, err) = promote(&["table", "--op", "add", "--with", "dtype-arg"]);
    assert_eq!(code, 2);
    assert!(err.contains("one-operand op"), "{err}");
    let (code, out, _) = promote(&[
        "explain",
        "--policy",
        "numpy",
        "mean",
        "int8",
        "dtype=float32",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("mean computes and returns in dtype=float32"),
        "{out}"
    );
    let (code, out, _) = promote(&["diff", "numpy", "jax", "--op", "mean"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("| mean | tensor, dtype= |"), "{out}");
    assert_eq!(
        md_row(&out, "`mean int8 dtype=float64`"),
        ["`mean int8 dtype=float64`", "float64", "float32"],
        "jax without x64 has no float64:\n{out}"
    );
}

#[test]
fn divmod_has_a_table_an_explanation_and_a_diff() {
    let (code, out, _) = promote(&["table", "--policy", "numpy", "--op", "divmod"]);
    assert_eq!(code, 0, "{out}");
    let cols = md_row(&out, "divmod");
    let row = md_row(&out, "i8");
    assert_eq!(row[cols.iter().position(|x| *x == "u8").unwrap()], "i16");
    let (code, out, _) = promote(&["explain", "--policy", "numpy", "divmod", "int8", "uint8"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("as floor_divide does") && out.contains("as remainder does"),
        "both results explained:\n{out}"
    );
    let (code, out, _) = promote(&["diff", "numpy", "torch", "--op", "divmod"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("| divmod | tensor · tensor "), "{out}");
}

/// Every op of every built-in policy tabulates (with `dtype=` for reductions), explains and
/// diffs without a panic; the table's cells are the answers `resolve` gives.
#[test]
fn every_op_of_every_policy_tabulates_explains_and_diffs() {
    use promote::analysis::{diff, explain, table, DiffOptions, TableOp, TableOptions, With};
    use promote::{builtin, Call, OpForm, Operand};
    for name in promote::policy::BUILTIN {
        let p = builtin(name).unwrap();
        let ops: Vec<_> = p.op_listing().into_iter().map(|o| o.op).collect();
        assert!(ops.len() > 25, "{name}: {} ops", ops.len());
        for &op in &ops {
            let mut withs = vec![With::Tensors];
            if op.info().form == OpForm::Reduction {
                withs.push(With::DTypeArg);
            }
            for with in withs {
                let o = TableOptions {
                    op: TableOp::Call(op),
                    with,
                    ..TableOptions::default()
                };
                let t = table(&p, &o).unwrap_or_else(|e| panic!("{name} {op}: {e}"));
                assert!(!t.cells.is_empty(), "{name} {op}");
            }
            let operands = vec![Operand::tensor(promote::DType::Int32); op.arity()];
            let e = explain(&p, &Call::new(op, operands, None).unwrap());
            assert!(!e.steps.is_empty() || e.outcome.is_err(), "{name} {op}");
        }
        let d = diff(
            &p,
            &p,
            &DiffOptions {
                ops,
                ignore_weak: false,
            },
        );
        assert_eq!(d.differ(), 0, "{name} differs from itself");
    }
}
