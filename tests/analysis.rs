//! The reports of the command line as a Rust user calls them, without the CLI: `table`, `diff`,
//! `value_diff`, `explain`, `check`, `lattice` in `promote::analysis`.

use promote::analysis::{
    check, diff, explain, lattice, outcome, parse_ops, sample, table, value_diff, DiffOptions,
    Outcome, Style, TableOp, TableOptions, Verdict, With,
};
use promote::kernel::value::format_array;
use promote::{builtin, Call, DType, ErrorKind, Op, Policy, Step};

fn call(s: &str) -> Call {
    s.parse().unwrap()
}

fn op(s: &str) -> Op {
    Op::parse(s).unwrap()
}

#[test]
fn a_table_is_its_cells_answers() {
    let numpy = builtin("numpy").unwrap();
    let t = table(&numpy, &TableOptions::default()).unwrap();
    assert_eq!(t.rows.len(), numpy.dtypes().len());
    for (r, row) in t.row_operands.iter().zip(&t.cells) {
        for (c, cell) in t.col_operands.iter().zip(row) {
            let c = Call::new(op("add"), vec![r.clone(), c.clone()], None).unwrap();
            assert_eq!(cell.outcome, outcome(&*numpy, &c), "{c}");
        }
    }
    assert_eq!(t.cell("u8", "i8").unwrap().text, "i16");
    let full = TableOptions {
        style: Style::Full,
        with: With::ZeroDim,
        ..TableOptions::default()
    };
    let t = table(&numpy, &full).unwrap();
    // NumPy 2 (NEP 50): a 0-d int64 is as strong as a tensor
    assert_eq!(
        t.cell("int8", "int64()").unwrap().outcome,
        Outcome::Value(DType::Int64, false)
    );
}

#[test]
fn tables_refuse_what_they_cannot_show() {
    let numpy = builtin("numpy").unwrap();
    let weak = TableOptions {
        with: With::Weak,
        ..TableOptions::default()
    };
    let e = table(&numpy, &weak).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Invalid);
    let promote_scalars = TableOptions {
        op: TableOp::Promote,
        with: With::Scalars,
        ..TableOptions::default()
    };
    assert!(table(&numpy, &promote_scalars).is_err());
}

#[test]
fn marks_and_json_are_the_cli_s() {
    let (all, safe) = (builtin("tf-all").unwrap(), builtin("tf-safe").unwrap());
    let mut t = table(&all, &TableOptions::default()).unwrap();
    t.mark(&safe);
    let marked = t
        .mark
        .as_ref()
        .unwrap()
        .cells
        .iter()
        .flatten()
        .flatten()
        .count();
    assert!(marked > 0);
    assert!(t.legend.last().unwrap().contains("tf-safe"));
    let cli = promote::cli::table_json(&all, "add", "tensors", "auto", &[], Some(&safe)).unwrap();
    assert_eq!(t.to_json(), cli);
}

#[test]
fn a_diff_lists_each_call_where_the_answers_differ() {
    let (torch, jax) = (builtin("torch").unwrap(), builtin("jax").unwrap());
    assert_eq!(diff(&torch, &torch, &DiffOptions::default()).differ(), 0);
    let d = diff(&torch, &jax, &DiffOptions::default());
    assert!(d.differ() > 0);
    for x in d.differences() {
        assert_eq!(x.a, outcome(&*torch, &x.call), "{}", x.call);
        assert_eq!(x.b, outcome(&*jax, &x.call), "{}", x.call);
        assert_ne!(x.a, x.b);
    }
    // --ignore-weak drops the differences in weakness alone
    let weakless = DiffOptions {
        ignore_weak: true,
        ..DiffOptions::default()
    };
    assert!(diff(&torch, &jax, &weakless).differ() < d.differ());
    let json = promote::cli::diff_json(&torch, &jax, "add", false).unwrap();
    assert_eq!(d.to_json(), json);
}

#[test]
fn several_ops_by_name() {
    assert_eq!(parse_ops("all").unwrap().len(), Op::all().len());
    assert!(parse_ops("add,substract").is_err());
}

#[test]
fn an_explanation_carries_structured_steps_and_their_words() {
    let torch = builtin("torch").unwrap();
    let e = explain(&torch, &call("add int8 1.0"));
    let plan = e.outcome.as_ref().unwrap();
    assert_eq!(plan.result, DType::Float32);
    assert_eq!(e.steps.len(), plan.steps.len());
    for (s, p) in e.steps.iter().zip(&plan.steps) {
        assert_eq!(&s.step, p);
        assert!(!s.words.is_empty());
    }
    assert_eq!(e.operands[1].1, "a Python float");
    assert!(e.categories.is_some());
    assert_eq!(
        e.to_string(),
        promote::cli::explain_text(&torch, &call("add int8 1.0"))
    );
}

#[test]
fn a_refusal_is_explained_with_the_steps_before_it() {
    let torch = builtin("torch").unwrap();
    let c = call("add uint16 int8");
    let e = explain(&torch, &c);
    assert_eq!(
        e.outcome.as_ref().unwrap_err().kind(),
        ErrorKind::NoPromotion
    );
    assert_eq!(e.steps.len(), torch.resolve_traced(&c).steps.len());
    assert!(e.result.is_none());
    assert!(e.to_string().contains("\nWhy: "));
}

#[test]
fn corner_rules_name_their_source() {
    // torch.toml: `2**63 / bool` is float32 (a uint64 scalar never meets bool), by a corner rule
    let torch = builtin("torch").unwrap();
    let e = explain(&torch, &call("divide 9223372036854775808 bool"));
    assert_eq!(e.outcome.as_ref().unwrap().result, DType::Float32);
    let corner = e.steps.iter().find_map(|s| match &s.step {
        Step::Corner { source, .. } => Some((source, &s.words)),
        _ => None,
    });
    let (source, words) = corner.expect("the corner rule is a step");
    assert!(source.contains("reciprocal"), "{source}");
    assert!(words.starts_with("A special case of "), "{words}");
}

#[test]
fn check_finds_the_algebra() {
    let jax = builtin("jax").unwrap();
    let f = check(&jax, op("add"));
    // a lattice over the classic dtypes, but float8, float4, int2, int4 have nothing above them
    assert_eq!(f.join.verdict(), Verdict::PartialLattice);
    assert_eq!(f.to_json()["verdict"], "partial-lattice");
    let j = &f.join;
    let narrow = |i: usize| j.is_dtype[i] && !j.dtypes[i].is_classic();
    assert!(!j.missing.is_empty());
    assert!(j.missing.iter().all(|&(a, b)| narrow(a) || narrow(b)));
    let classic: Vec<usize> = (0..j.len()).filter(|&i| !narrow(i)).collect();
    let laws = j.laws(&classic);
    assert!(laws.missing.is_empty() && laws.assoc_differ.is_empty());
    let torch = builtin("torch").unwrap();
    let f = check(&torch, op("add"));
    assert!(!f.clean());
    assert!(f.tensors.refused > 0);
    assert_eq!(f.to_json()["policy"], "torch");
}

#[test]
fn lattice_graphs_are_hasse_diagrams() {
    let jax = builtin("jax-x64").unwrap();
    let g = lattice(&jax, Style::Auto);
    let label = |i: usize| g.nodes[i].label.as_str();
    let edge = |a: &str, b: &str| g.edges.iter().any(|&(x, y)| label(x) == a && label(y) == b);
    assert!(edge("b1", "i*") && edge("i*", "u8") && !edge("b1", "i8"));
    assert!(
        g.title.ends_with("type promotion lattice (partial)"),
        "{}",
        g.title
    );
    assert!(edge("f*", "f8e4m3fn") && !g.edges.iter().any(|&(x, _)| label(x) == "f8e4m3fn"));
    assert!(g.nodes.iter().any(|n| n.weak && n.label == "f*"));
    let torch = lattice(&builtin("torch").unwrap(), Style::Full);
    assert!(torch.nodes.iter().any(|n| n.label == "int8"));
    assert!(torch.caption.iter().any(|c| c.contains("do not promote")));
}

#[test]
fn every_dtype_has_a_sample_with_its_edges() {
    for d in DType::classic() {
        let s = sample(d);
        assert_eq!(s.dtype(), d);
        let texts = format_array(s.view());
        if let Some((min, max)) = d.int_range() {
            assert!(texts.contains(&min.to_string()) || d == DType::Bool, "{d}");
            assert!(texts.contains(&max.to_string()) || d == DType::Bool, "{d}");
        }
        if d.is_floating_point() {
            for edge in ["nan", "inf", "-inf", "-0.0"] {
                assert!(texts.iter().any(|t| t == edge), "{d}: {texts:?}");
            }
        }
    }
}

#[test]
fn a_policy_computes_the_same_values_as_itself() {
    let numpy = builtin("numpy").unwrap();
    let d = value_diff(
        &*numpy,
        &*numpy,
        &parse_ops("add,divide,floor_divide").unwrap(),
    );
    assert!(d.compared > 0);
    assert!(d.cells.is_empty());
}

#[test]
fn value_diffs_find_kernel_semantics() {
    let (numpy, torch) = (builtin("numpy").unwrap(), builtin("torch").unwrap());
    let d = value_diff(&*numpy, &*torch, &parse_ops("floor_divide").unwrap());
    let c = d
        .cells
        .iter()
        .find(|c| c.call.to_string() == "floor_divide int8 int8")
        .expect("numpy gives 0 for x // 0, torch refuses");
    assert_eq!(c.first.inputs[1], "0");
    assert_eq!(c.first.a, "0");
    assert_eq!(c.first.b, "!value", "{:?}", c.first);
    assert!(c.differ < c.elements);
    // XLA flushes subnormals: jax's float32 sums differ from numpy's there
    let jax = builtin("jax").unwrap();
    let d = value_diff(&*numpy, &*jax, &parse_ops("add").unwrap());
    let c = d
        .cells
        .iter()
        .find(|c| c.call.to_string() == "add float32 float32")
        .expect("a subnormal float32 sum");
    assert!(
        c.first.inputs.iter().any(|x| x.contains("e-")),
        "{:?}",
        c.first
    );
}
