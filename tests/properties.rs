//! What the policies promise, stated as properties (proptest), and fuzzing of everything that
//! parses input: the JSONL query parser, the compact call syntax and the policy-file loader.

use promote::policy::{compile, BUILTIN};
use promote::{builtin, query, Call, DType, Op, Policy};
use proptest::prelude::*;

fn dtype() -> impl Strategy<Value = DType> {
    (0..promote::dtype::CLASSIC.len()).prop_map(|i| DType::ALL[i])
}

fn lit() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("True".to_string()),
        any::<i64>().prop_map(|v| v.to_string()),
        any::<u64>().prop_map(|v| v.to_string()),
        "-?[0-9]{1,40}",
        any::<f64>().prop_map(|v| format!("{v:e}")),
        Just("inf".into()),
        Just("nan".into()),
        Just("1j".into()),
        Just("(1e+300+0j)".into()),
    ]
}

/// A random operand in the compact syntax.
fn operand() -> impl Strategy<Value = String> {
    prop_oneof![
        dtype().prop_map(|d| d.name().to_string()),
        dtype().prop_map(|d| format!("~{d}")),
        (dtype(), "-?[0-9]{1,5}").prop_map(|(d, v)| format!("{d}({v})")),
        lit(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, .. ProptestConfig::default() })]

    /// Tensor with tensor: `a op b` and `b op a` agree for the symmetric ops in the frameworks
    /// that promise it. Not in OneFlow (its table is read [second][first]), TensorFlow (the first
    /// tensor's dtype picks the kernel) or Paddle (bitwise ops pick it by the second): for those
    /// the asymmetry is stated as a concrete counterexample below.
    #[test]
    fn tensor_promotion_commutes(a in dtype(), b in dtype(), op in prop::sample::select(vec![Op::Add, Op::Multiply, Op::Maximum, Op::Equal, Op::BitwiseAnd])) {
        for name in BUILTIN.iter().filter(|n| !["oneflow", "paddle", "tf", "tf-legacy", "tf-all", "tf-safe"].contains(n)) {
            let p = builtin(name).unwrap();
            let ab = p.result(&Call::new(op, vec![promote::Operand::tensor(a), promote::Operand::tensor(b)], None).unwrap());
            let ba = p.result(&Call::new(op, vec![promote::Operand::tensor(b), promote::Operand::tensor(a)], None).unwrap());
            prop_assert_eq!(ab.map_err(|e| e.kind()), ba.map_err(|e| e.kind()), "{} {} {} {}", name, op, a, b);
        }
    }

    /// The lattice policies (JAX) are associative over every node, weak ones included:
    /// (a ⊔ b) ⊔ c = a ⊔ (b ⊔ c), so the order in which operands are combined never matters.
    #[test]
    fn lattices_are_associative(x in 0usize..64, y in 0usize..64, z in 0usize..64) {
        for name in BUILTIN {
            let p = builtin(name).unwrap();
            if p.join_source != "lattice" { continue }
            let n = p.join.len();
            let (a, b, c) = (x % n, y % n, z % n);
            let j = |u: usize, v: usize| p.join.join(u, v);
            let left = j(a, b).and_then(|ab| j(ab, c));
            let right = j(b, c).and_then(|bc| j(a, bc));
            prop_assert_eq!(left, right, "{}: ({}, {}, {})", name, a, b, c);
        }
    }

    /// No query line, however malformed, panics or stops the stream: it gets one JSON answer.
    #[test]
    fn query_parser_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let p = builtin("torch").unwrap();
        let line = String::from_utf8_lossy(&bytes);
        let a: serde_json::Value = serde_json::from_str(&query::answer_line(&*p, &line)).unwrap();
        prop_assert!(a.get("error").is_some() || a.get("dtype").is_some());
    }

    /// Random but well-formed JSON queries: every answer is a dtype or one of the four errors.
    #[test]
    fn random_queries_answer(op in "[a-z_]{2,14}", a in operand(), b in operand(), out in prop::option::of(dtype()), policy in prop::sample::select(BUILTIN.to_vec())) {
        let p = builtin(policy).unwrap();
        let call = format!("{op} {a} {b}{}", out.map(|d| format!(" out={d}")).unwrap_or_default());
        let line = match call.parse::<Call>() {
            Ok(c) => query::call_json(&c).to_string(),
            Err(_) => format!(r#"{{"op": "{op}", "operands": [{{"dtype": "{a}"}}, {{"scalar": "int", "value": "{b}"}}]}}"#),
        };
        let ans: serde_json::Value = serde_json::from_str(&query::answer_line(&*p, &line)).unwrap();
        if let Some(e) = ans.get("error") {
            prop_assert!(["no_promotion", "overflow", "unsupported", "invalid"].contains(&e.as_str().unwrap()));
        } else {
            prop_assert!(DType::parse(ans["dtype"].as_str().unwrap()).is_ok());
        }
    }

    /// The compact syntax round-trips through its own printer.
    #[test]
    fn compact_syntax_round_trips(a in operand(), b in operand()) {
        if let Ok(c) = format!("add {a} {b}").parse::<Call>() {
            let again: Call = c.to_string().parse().unwrap();
            prop_assert_eq!(c.to_string(), again.to_string()); // NaN != NaN, so compare the printed forms
        }
    }

    /// The policy loader never panics on a mangled policy file, and every error has a position.
    #[test]
    fn policy_loader_never_panics(cut in 0usize..4000, junk in "[ -~\n]{0,40}", which in 0usize..3) {
        let file = ["torch.toml", "numpy1.toml", "oneflow.toml"][which];
        let src = std::fs::read_to_string(format!("{}/policies/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let cut = cut.min(src.len());
        let cut = (0..=cut).rev().find(|i| src.is_char_boundary(*i)).unwrap();
        let mangled = format!("{}{}{}", &src[..cut], junk, &src[cut..]);
        if let Err(e) = compile(&mangled, "mangled.toml") {
            let s = e.to_string();
            prop_assert!(s.starts_with("mangled.toml:"), "{}", s);
        }
    }
}

/// Where a framework does not promise associativity, the counterexample is concrete. NumPy:
/// uint8 and int8 go to int16 (not float16), so the order of three operands matters.
#[test]
fn numpy_is_not_associative() {
    let p = builtin("numpy").unwrap();
    let j = |a, b| p.promote_types(a, b).unwrap();
    assert_eq!(
        j(j(DType::Int8, DType::UInt8), DType::Float16),
        DType::Float32
    );
    assert_eq!(
        j(DType::Int8, j(DType::UInt8, DType::Float16)),
        DType::Float16
    );
}

/// PyTorch's table is associative wherever it is defined, but it has holes: uint16/32/64 promote
/// only with floats, so it is not transitive as an order (u16 ≤ bf16 ≤ c64, yet u16 + c64 refuses).
#[test]
fn torch_table_is_associative_but_has_holes() {
    let p = builtin("torch").unwrap();
    let j = |a, b| p.promote_types(a, b).unwrap();
    assert_eq!(
        j(j(DType::BFloat16, DType::Float16), DType::Int8),
        j(DType::BFloat16, j(DType::Float16, DType::Int8))
    );
    assert_eq!(
        j(j(DType::UInt8, DType::Int8), DType::Float16),
        j(DType::UInt8, j(DType::Int8, DType::Float16))
    );
    assert_eq!(j(DType::UInt16, DType::BFloat16), DType::BFloat16);
    assert_eq!(j(DType::BFloat16, DType::Complex64), DType::Complex64);
    assert_eq!(p.promote_types(DType::UInt16, DType::Complex64), None);
    assert_eq!(p.promote_types(DType::UInt16, DType::Int8), None);
}

/// OneFlow's table (dtype.cpp @ 25c8978c) gives complex64 with a real dtype complex64 in either
/// order (an older dtype.cpp gave complex32 one way), and uint64 with a signed int int128, a dtype
/// outside the 15, in either order.
#[test]
fn oneflow_complex64_and_uint64_in_either_order() {
    let p = builtin("oneflow").unwrap();
    let add = |s: &str| p.result(&s.parse::<Call>().unwrap()).map_err(|e| e.kind());
    assert_eq!(add("add float32 complex64"), Ok((DType::Complex64, false)));
    assert_eq!(add("add complex64 float32"), Ok((DType::Complex64, false)));
    for call in ["add uint64 int8", "add int8 uint64"] {
        assert_eq!(add(call), Err(promote::ErrorKind::Unsupported), "{call}");
    }
}

/// TensorFlow: the first tensor's dtype picks the kernel, so a refusal depends on the order.
#[test]
fn tensorflow_is_not_commutative_in_its_refusals() {
    let p = builtin("tf").unwrap();
    let kind = |s: &str| p.result(&s.parse::<Call>().unwrap()).map_err(|e| e.kind());
    assert_eq!(
        kind("maximum uint8 complex64"),
        Err(promote::ErrorKind::NoPromotion)
    );
    assert_eq!(
        kind("maximum complex64 uint8"),
        Err(promote::ErrorKind::Unsupported)
    );
}

/// Paddle: bitwise ops pick their kernel by the second operand.
#[test]
fn paddle_bitwise_is_not_commutative() {
    let p = builtin("paddle").unwrap();
    let kind = |s: &str| p.result(&s.parse::<Call>().unwrap()).map_err(|e| e.kind());
    assert_eq!(
        kind("bitwise_and bool bfloat16"),
        Err(promote::ErrorKind::Unsupported)
    );
    assert_eq!(
        kind("bitwise_and bfloat16 bool"),
        Err(promote::ErrorKind::NoPromotion)
    );
}
