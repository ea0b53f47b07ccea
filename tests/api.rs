//! The Rust API as a user meets it: structured steps, steps on the error path, the
//! promotion-only call, the accessors of literal and weak nodes.

use promote::operand::LiteralKind;
use promote::{builtin, load_file, Call, DType, JoinSource, Policy, Step};

fn call(s: &str) -> Call {
    s.parse().unwrap()
}

#[test]
fn steps_are_structured() {
    let numpy = builtin("numpy").unwrap();
    let plan = numpy.resolve(&call("add uint8 int8")).unwrap();
    assert_eq!(
        plan.steps[0],
        Step::Join {
            source: JoinSource::Table,
            a: "uint8".into(),
            b: "int8".into(),
            join: "int16".into()
        }
    );
    assert!(matches!(plan.steps.last(), Some(Step::OpRule { .. })));
    assert!(plan
        .explain()
        .starts_with("1. [table] join(uint8, int8) = int16\n"));

    let jax = builtin("jax").unwrap();
    let plan = jax.resolve(&call("add int8 1.0")).unwrap();
    assert!(matches!(&plan.steps[0], Step::Literal { node, weak: true, .. } if node == "f*"));
    assert!(plan.steps.iter().any(|s| matches!(
        s,
        Step::Join {
            source: JoinSource::Lattice,
            ..
        }
    )));
}

#[test]
fn corner_rules_carry_their_source() {
    // every built-in policy: a corner-rule step names where the rule comes from
    let mut seen = 0;
    for name in promote::policy::BUILTIN {
        let p = builtin(name).unwrap();
        for c in [
            "add uint8 -1",
            "floor_divide int8 0",
            "add bool bool",
            "maximum bool True",
        ] {
            let t = p.resolve_traced(&call(c));
            for s in &t.steps {
                if let Step::Corner { source, .. } = s {
                    assert!(!source.is_empty(), "{name} {c}: {s}");
                    assert_eq!(s.source(), Some(source.as_str()));
                    seen += 1;
                }
            }
        }
    }
    assert!(seen > 0);
}

#[test]
fn refusals_keep_their_steps() {
    let numpy = builtin("numpy").unwrap();
    let t = numpy.resolve_traced(&call("add uint8 300"));
    assert_eq!(t.outcome.as_ref().unwrap_err().kind().name(), "overflow");
    assert!(matches!(&t.steps[0], Step::Literal { node, .. } if node == "int64"));
    assert!(t.explain().contains("refused: "));
    let ok = numpy.resolve_traced(&call("add int8 int8"));
    assert_eq!(ok.steps, ok.outcome.unwrap().steps);
}

#[test]
fn promote_types_is_on_the_trait() {
    let policies: Vec<std::sync::Arc<dyn Policy>> =
        vec![builtin("torch").unwrap(), builtin("jax").unwrap()];
    for p in &policies {
        assert_eq!(
            p.promote_types(DType::UInt8, DType::Int8),
            Some(DType::Int16)
        );
    }
    assert_eq!(policies[0].promote_types(DType::UInt16, DType::Int8), None);
}

#[test]
fn literal_and_weak_nodes() {
    let jax = builtin("jax").unwrap();
    assert_eq!(
        jax.literal_nodes(LiteralKind::Int)
            .map(|n| n.name.as_str())
            .collect::<Vec<_>>(),
        ["i*"]
    );
    assert!(jax.weak_node(DType::Float16).weak);
    let torch = builtin("torch").unwrap();
    assert_eq!(torch.weak_node(DType::Int8).name, "int8");
}

#[test]
fn load_file_is_at_the_root() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/torch.toml");
    assert_eq!(load_file(&path).unwrap().name, "torch");
}

/// Issue #9: int8 data through a plan resolved for int16 operands is refused with a typed error
/// that says what to do, never reinterpreted (it used to give `Int16([2, 200, -256])`).
#[test]
fn execute_refuses_data_of_another_dtype_than_the_plan() {
    use promote::kernel::{execute, Array, KernelError, Semantics};
    let torch = builtin("torch").unwrap();
    let plan = torch
        .resolve(&"add int16 int16".parse::<Call>().unwrap())
        .unwrap();
    assert_eq!(plan.operands, [DType::Int16, DType::Int16]);
    let a = Array::from(vec![1i8, 100, -128]);
    let b = Array::from(vec![1i16, 100, -128]);
    let e = execute(&plan, &[a.view(), b.view()], &Semantics::NUMPY).unwrap_err();
    assert_eq!(
        e,
        KernelError::DataDType {
            operand: 1,
            data: DType::Int8,
            plan: DType::Int16
        }
    );
    assert!(e.to_string().contains("cast the data to int16"), "{e}");
    // the data of the plan's dtypes runs
    let a16 = Array::from(vec![1i16, 100, -128]);
    let out = execute(&plan, &[a16.view(), b.view()], &Semantics::NUMPY).unwrap();
    assert_eq!(out, Array::from(vec![2i16, 200, -256]));
    // a Python literal's data is one value of its input dtype; the Policy's one call builds it
    let plan = torch
        .resolve(&"add int8 1.5".parse::<Call>().unwrap())
        .unwrap();
    assert_eq!(plan.operands, [DType::Int8, DType::Float32]);
    let r = torch.eval(
        &"add int8 1.5".parse::<Call>().unwrap(),
        &[Some(a.view()), None],
    );
    assert_eq!(r.unwrap().data, Array::from(vec![2.5f32, 101.5, -126.5]));
    let e = torch
        .eval(
            &"add int8 1.5".parse::<Call>().unwrap(),
            &[Some(b.view()), None],
        )
        .unwrap_err();
    assert_eq!(e.kind(), promote::ErrorKind::Invalid, "{e}");
}
