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
