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
