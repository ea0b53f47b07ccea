//! The policy loader refuses wrong policies with a `file:line:column` error (issue 8).

use promote::policy::compile;

/// A minimal complete policy: three dtypes, a table, the categories scheme.
const MINI: &str = r#"name = "mini"
framework = "test"
dtypes = ["bool", "int16", "float32"]
defaults = { int = "int16", float = "float32", complex = "complex64" }

[table]
cells = """
      bool   int16  float32
bool  bool   .      .
int16 int16  int16  .
float32 float32 float32 float32
"""

[combine]
scheme = "categories"
categories = [["tensor", "zero_dim"], ["literal"]]

[out]
casting = "kinds"
kinds = "bool < unsigned = signed < float < complex"
"#;

fn err(src: &str) -> String {
    compile(src, "p.toml").unwrap_err().to_string()
}

#[test]
fn the_mini_policy_compiles() {
    compile(MINI, "p.toml").unwrap();
}

#[test]
fn duplicate_columns_and_rows() {
    let e = err(&MINI.replace("bool   int16  float32\n", "bool   int16  bool\n"));
    assert!(
        e.starts_with("p.toml:8:21:") && e.contains("column `bool` appears twice"),
        "{e}"
    );
    let e = err(&MINI.replace(
        "float32 float32 float32 float32\n",
        "float32 float32 float32 float32\nbool bool bool bool\n",
    ));
    assert!(
        e.starts_with("p.toml:12:1:") && e.contains("row `bool` appears twice"),
        "{e}"
    );
}

#[test]
fn mirrors_that_read_nothing() {
    let e = err(&MINI.replace("int16 int16  int16  .", "int16 int16  .  ."));
    assert!(
        e.starts_with("p.toml:10:14:") && e.contains("diagonal"),
        "{e}"
    );
    let e = err(&MINI.replace("int16 int16  int16  .", "int16 .  int16  ."));
    assert!(
        e.starts_with("p.toml:9:14:") && e.contains("mirrors a cell that is `.` too"),
        "{e}"
    );
}

#[test]
fn defaults_must_be_of_their_kind_and_in_dtypes() {
    let e = err(&MINI.replace(r#"int = "int16""#, r#"int = "int8""#));
    assert!(
        e.starts_with("p.toml:4:20:") && e.contains("int8 is not in this policy's dtypes"),
        "{e}"
    );
    let e = err(&MINI.replace(r#"int = "int16""#, r#"int = "float16""#));
    assert!(
        e.starts_with("p.toml:4:20:") && e.contains("float16 is not an integer dtype"),
        "{e}"
    );
}

#[test]
fn canonical_swaps_and_duplicate_dtypes() {
    let e = err(&MINI.replace(
        "[table]",
        "[canonical]\nint64 = \"int32\"\nint32 = \"int64\"\n\n[table]",
    ));
    assert!(e.contains("a canonical dtype must stay itself"), "{e}");
    assert!(
        e.starts_with("p.toml:7:") || e.starts_with("p.toml:8:"),
        "{e}"
    );
    let e = err(&MINI.replace(r#""bool", "int16""#, r#""bool", "int16", "bool""#));
    assert!(
        e.starts_with("p.toml:3:28:") && e.contains("`bool` is listed twice"),
        "{e}"
    );
}

#[test]
fn columns_count_characters() {
    // "é" is two bytes: the caret must land on `x`, column 16 in characters
    let src = MINI
        .replace("name = \"mini\"", "name = \"mini\"\ndescription = \"é\"")
        .replace("int16 int16  int16  .", "int16 int16  x  .");
    let e = err(&src);
    assert!(e.starts_with("p.toml:11:14:"), "{e}");
    let src = MINI.replace("int16 int16  int16  .", "int16 int16\u{a0} x  .");
    let e = err(&src);
    assert!(e.starts_with("p.toml:10:14:"), "{e}");
}

#[test]
fn a_table_typo_gets_a_suggestion() {
    let e = err(&MINI.replace("int16 int16  int16  .", "int16 int16  int61  ."));
    assert!(
        e.contains("unknown node `int61` in row `int16`; did you mean `int"),
        "{e}"
    );
}

const LATTICE: &str = r#"name = "lat"
framework = "test"
dtypes = ["bool", "int8", "int16", "float32"]
defaults = { int = "int16", float = "float32", complex = "complex64" }

[lattice]
edges = """
bool -> int8
int8 -> int16
int16 -> float32
"""

[combine]
scheme = "join"

[out]
casting = "safe"
"#;

#[test]
fn a_lattice_covers_its_own_dtypes() {
    let p = compile(LATTICE, "lat.toml").unwrap();
    assert_eq!(
        p.promote_types(promote::DType::Int8, promote::DType::Float32),
        Some(promote::DType::Float32)
    );
    // a genuinely missing join among its own dtypes is still an error
    let e = err(&LATTICE.replace("int16 -> float32\n", ""));
    assert!(e.contains("have no upper bound"), "{e}");
}

#[test]
fn cycles_point_at_the_edge_line() {
    let e = compile(
        &LATTICE.replace("int16 -> float32\n", "int16 -> float32\nfloat32 -> int8\n"),
        "lat.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("cycle"), "{e}");
    assert!(
        !e.starts_with("lat.toml:7:"),
        "points at `edges = \"\"\"`: {e}"
    );
    assert!(
        e.starts_with("lat.toml:9:")
            || e.starts_with("lat.toml:10:")
            || e.starts_with("lat.toml:11:"),
        "{e}"
    );
}

#[test]
fn ambiguous_joins_point_at_the_edge_line() {
    // bool and int8 are both below int16 and float32, which are unordered
    let src = LATTICE
        .replace(
            "bool -> int8\nint8 -> int16\nint16 -> float32\n",
            "bool -> int16 float32\nint8 -> int16 float32\n",
        )
        .replace("[lattice]\n", "[lattice]\npartial = true\n");
    let e = compile(&src, "lat.toml").unwrap_err().to_string();
    assert!(e.contains("no least upper bound"), "{e}");
    assert!(
        e.starts_with("lat.toml:9:") || e.starts_with("lat.toml:10:"),
        "not at an edge line (9 or 10): {e}"
    );
}

#[test]
fn a_non_utf8_file_points_at_the_first_bad_byte() {
    let dir = std::env::temp_dir().join(format!("promote-utf8-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.toml");
    let mut bytes = MINI
        .replace("framework = \"test\"", "framework = \"tést\"")
        .into_bytes();
    // line 2 is `framework = "tést"`: replace the two bytes of é by one Latin-1 byte
    let at = bytes.windows(2).position(|w| w == "é".as_bytes()).unwrap();
    bytes.splice(at..at + 2, [0xe9]);
    std::fs::write(&path, &bytes).unwrap();
    let e = promote::load_file(&path).unwrap_err().to_string();
    std::fs::remove_dir_all(&dir).ok();
    assert!(e.contains("bad.toml:2:15:"), "{e}");
    assert!(e.contains("must be UTF-8"), "{e}");
}

#[test]
fn every_missing_required_field_in_one_error() {
    let src = MINI
        .replace("name = \"mini\"\n", "")
        .replace("framework = \"test\"\n", "")
        .replace("scheme = \"categories\"\n", "")
        .replace(
            "casting = \"kinds\"\n",
            "casting = \"kinds\"\n[nodes]\n\"i*\" = { weak = true }\n",
        );
    let e = err(&src);
    assert!(e.starts_with("p.toml:1:1: missing required fields:"), "{e}");
    for part in [
        "`name` (1:1)",
        "`framework` (1:1)",
        "`scheme` in [combine] (",
        "`dtype` in node `i*` (",
    ] {
        assert!(e.contains(part), "{part} not in {e}");
    }
    let e = err(&MINI.replace(", complex = \"complex64\"", ""));
    assert!(
        e.starts_with("p.toml:2:") || e.starts_with("p.toml:3:") || e.starts_with("p.toml:4:"),
        "{e}"
    );
    assert!(
        e.contains("missing required field: `complex` in [defaults]"),
        "{e}"
    );
}

#[test]
fn out_kinds_lists_the_kinds_it_misses() {
    let e = err(&MINI.replace(
        "kinds = \"bool < unsigned = signed < float < complex\"",
        "kinds = \"bool < signed < float\"",
    ));
    assert!(e.contains("missing: unsigned, complex"), "{e}");
    let e = err(&MINI.replace(
        "kinds = \"bool < unsigned = signed < float < complex\"\n",
        "",
    ));
    assert!(e.contains("needs kinds = "), "{e}");
}

#[test]
fn the_readme_example_policy_compiles() {
    let readme = include_str!("../policies/README.md");
    let start = readme
        .find("<!-- example-policy:start -->")
        .expect("start marker");
    let end = readme
        .find("<!-- example-policy:end -->")
        .expect("end marker");
    let block = &readme[start..end];
    let body = block
        .split_once("```toml\n")
        .and_then(|(_, rest)| rest.rsplit_once("```"))
        .map(|(body, _)| body)
        .expect("a ```toml fence between the markers");
    let p = compile(body, "README.md").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        p.promote_types(promote::DType::Int16, promote::DType::Float32),
        Some(promote::DType::Float32)
    );
}

#[test]
fn the_kernel_semantics_are_named_and_default_to_numpy() {
    use promote::kernel::Semantics;
    use promote::Policy;
    assert_eq!(
        compile(MINI, "p.toml").unwrap().semantics(),
        Semantics::NUMPY
    );
    let with = |sem: &str| {
        MINI.replace(
            "[out]",
            &format!("[kernel]\nsemantics = \"{sem}\"\nsource = \"a test\"\n\n[out]"),
        )
    };
    let p = compile(&with("paddle"), "p.toml").unwrap();
    assert_eq!(p.semantics(), Semantics::PADDLE);
    assert_eq!(p.semantics_source(), "a test");
    // line 19 is `semantics = "xla_cpu"`; column 13 is its opening quote
    let e = err(&with("xla_cpu"));
    assert!(
        e.starts_with("p.toml:19:13: unknown semantics `xla_cpu`; did you mean `xla-cpu`?"),
        "{e}"
    );
    assert!(e.contains("numpy, torch, xla-cpu, tf, paddle"), "{e}");
    let e = err(&with(&"q".repeat(100_000)));
    assert!(e.len() < 300 && !e.contains("did you mean"), "{e}");
    let e = err(&MINI.replace("[out]", "[kernel]\nsemantic = \"tf\"\n\n[out]"));
    assert!(
        e.starts_with("p.toml:19:1:") && e.contains("semantic"),
        "{e}"
    );
}

#[test]
fn the_narrow_accumulation_is_named() {
    use promote::kernel::compute::NarrowAccumulation;
    use promote::Policy;
    let with = |acc: &str| {
        MINI.replace(
            "[out]",
            &format!("[kernel]\nsemantics = \"numpy\"\nnarrow_accumulation = \"{acc}\"\n\n[out]"),
        )
    };
    let p = compile(&with("each_step"), "p.toml").unwrap();
    assert_eq!(
        p.semantics().narrow_accumulation,
        NarrowAccumulation::EachStep
    );
    assert_eq!(p.semantics().name, "numpy");
    let p = compile(&with("carrier"), "p.toml").unwrap();
    assert_eq!(
        p.semantics().narrow_accumulation,
        NarrowAccumulation::Carrier
    );
    // line 20 is `narrow_accumulation = "in_order"`; column 23 is its opening quote
    let e = err(&with("in_order"));
    assert!(
        e.starts_with("p.toml:20:23: unknown narrow_accumulation `in_order`"),
        "{e}"
    );
    assert!(e.contains("carrier, each_step"), "{e}");
}

#[test]
fn convert_first_rules_say_what_they_need() {
    let with = |rule: &str| format!("{MINI}\n[[rules]]\nops = [\"add\"]\n{rule}\n");
    let ok = with(
        "at = \"arguments\"\nfirst = { class = [\"literal\"] }\nsecond = { class = [\"literal\"] }\nthen = \"convert_first\"\nconvert = { int = \"int16\", float = \"float32\" }",
    );
    let p = compile(&ok, "p.toml").unwrap();
    // the first literal is converted alone: an int16 0-d tensor, which the float literal joins
    let c: promote::Call = "add 1 2.5".parse().unwrap();
    assert_eq!(
        promote::Policy::resolve(&p, &c).unwrap().result,
        promote::DType::Float32
    );
    let c: promote::Call = "add 40000 1".parse().unwrap();
    let e = promote::Policy::resolve(&p, &c).unwrap_err();
    assert_eq!(e.kind(), promote::ErrorKind::Overflow, "{e}");
    assert!(e.to_string().contains("40000"), "{e}");
    for (rule, says) in [
        (
            "at = \"operands\"\nfirst = { class = [\"literal\"] }\nthen = \"convert_first\"\nconvert = { int = \"int16\" }",
            "use it at arguments",
        ),
        (
            "at = \"arguments\"\nthen = \"convert_first\"\nconvert = { int = \"int16\" }",
            "first = { class = [\"literal\"] }",
        ),
        (
            "at = \"arguments\"\nfirst = { class = [\"literal\"] }\nthen = \"convert_first\"",
            "go together",
        ),
        (
            "at = \"arguments\"\nfirst = { class = [\"literal\"] }\nthen = \"unsupported\"\nconvert = { int = \"int16\" }",
            "go together",
        ),
        (
            "at = \"arguments\"\nfirst = { class = [\"literal\"] }\nthen = \"convert_first\"\nconvert = { integer = \"int16\" }",
            "convert's keys are bool, int, float, complex",
        ),
        (
            "at = \"arguments\"\nfirst = { class = [\"literal\"] }\nthen = \"convert_first\"\nconvert = { int = \"int16\" }\nliteral = { int = \"i9\" }",
            "i9",
        ),
    ] {
        let e = err(&with(rule));
        assert!(e.contains(says), "{rule}: {e}");
        assert!(e.starts_with("p.toml:"), "{e}");
    }
}

#[test]
fn a_chain_is_binary_calls_of_the_policy_and_says_what_it_needs() {
    use promote::{Call, DType, ErrorKind, Policy};
    let with = |entry: &str| format!("{MINI}\n[[ops]]\nops = [\"clip\"]\n{entry}\n");
    // clip(t, lo, hi) as minimum(t, hi) then maximum(_, lo), the shape kept
    let p = compile(
        &with("chain = [\"minimum 1 3\", \"maximum _ 2\"]\nchain_keeps_shape = true"),
        "p.toml",
    )
    .unwrap();
    let clip = |c: &str| {
        p.resolve(&c.parse::<Call>().unwrap())
            .map_err(|e| (e.kind(), e.to_string()))
    };
    assert_eq!(
        clip("clip int16 bool float32").unwrap().result,
        DType::Float32
    );
    let plan = clip("clip bool bool int16").unwrap();
    assert_eq!((plan.result, plan.inputs.len()), (DType::Int16, 3));
    // a 0-d first operand with an n-d bound: refused after the step that broadcasts
    let (kind, message) = clip("clip int16(1) int16 int16").unwrap_err();
    assert_eq!(kind, ErrorKind::Unsupported, "{message}");
    assert!(message.contains("shape"), "{message}");
    assert!(clip("clip int16(1) 1 int16(2)").is_ok());
    for (entry, says) in [
        ("chain = [\"minimum 1\"]", "a chain step is `OP[:FORM] A B`"),
        (
            "chain = [\"minimum _ 2\"]",
            "the first chain step has no result so far",
        ),
        ("chain = [\"minimum 1 0\"]", "an operand's number from 1"),
        ("chain = [\"sqrt 1 2\"]", "does not take two operands"),
        ("chain = [\"minimun 1 2\"]", "minimum"),
        ("chain = [\"minimum:fuction 1 2\"]", "function"),
        (
            "chain = [\"minimum 1 2\"]\nchain_weak = \"last\"",
            "chain_weak is `first`",
        ),
        ("chain_weak = \"first\"", "chain_weak goes with a `chain`"),
    ] {
        let e = err(&with(entry));
        assert!(e.starts_with("p.toml:"), "{entry}: {e}");
        assert!(e.contains(says), "{entry}: {e}");
    }
    // a step naming an operand the call lacks: typed, not a panic
    let p = compile(&with("chain = [\"minimum 1 5\"]"), "p.toml").unwrap();
    let e = p
        .resolve(&"clip int16 int16 int16".parse().unwrap())
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Invalid, "{e}");
    assert!(e.to_string().contains("name operands the call has"), "{e}");
}

#[test]
fn an_unknown_selector_names_the_words_and_the_nearest() {
    let with = |rule: &str| format!("{MINI}\n[[rules]]\nops = [\"add\"]\n{rule}\n");
    let e = err(&with(
        "at = \"computed\"\ncompute = [\"unsigend\"]\nthen = \"float32\"",
    ));
    assert!(e.starts_with("p.toml:"), "{e}");
    assert!(
        e.contains("unknown selector `unsigend` (a dtype or one of *, int, inexact, bool, unsigned, signed, float, complex); did you mean `unsigned`?"),
        "{e}"
    );
    let e = err(&with(
        "at = \"computed\"\ncompute = [\"int61\"]\nthen = \"float32\"",
    ));
    assert!(
        e.contains("did you mean `int16`?") || e.contains("did you mean `int"),
        "{e}"
    );
}

#[test]
fn keep_compute_decides_the_result_only() {
    use promote::{Call, DType, Policy};
    let with = |rule: &str| format!("{MINI}\n[[rules]]\nops = [\"add\"]\n{rule}\n");
    let p = compile(
        &with("at = \"computed\"\ncompute = [\"int\"]\nthen = \"float32\"\nkeep_compute = true"),
        "p.toml",
    )
    .unwrap();
    let plan = Policy::resolve(&p, &"add int16 int16".parse::<Call>().unwrap()).unwrap();
    assert_eq!((plan.compute, plan.result), (DType::Int16, DType::Float32));
    assert_eq!(plan.inputs, vec![DType::Int16, DType::Int16]);
    // without it the rule's dtype is the compute dtype too
    let p = compile(
        &with("at = \"computed\"\ncompute = [\"int\"]\nthen = \"float32\""),
        "p.toml",
    )
    .unwrap();
    let plan = Policy::resolve(&p, &"add int16 int16".parse::<Call>().unwrap()).unwrap();
    assert_eq!(
        (plan.compute, plan.result),
        (DType::Float32, DType::Float32)
    );
    // it needs the computed stage and a dtype
    let e = err(&with(
        "at = \"promoted\"\nthen = \"float32\"\nkeep_compute = true",
    ));
    assert!(e.contains("`keep_compute` goes with"), "{e}");
    let e = err(&with(
        "at = \"computed\"\nthen = \"first\"\nkeep_compute = true",
    ));
    assert!(e.contains("`keep_compute` goes with"), "{e}");
}
