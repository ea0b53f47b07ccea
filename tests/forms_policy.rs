//! `[forms.NAME]` sections of a policy file (issue 10): a form's rules answer the calls of that
//! entry point only, a wrong section is a `file:line:column` error that says what to write, and
//! the conversion rules (`convert_second`, `saturate`) do what policies/README.md says.

use promote::policy::compile;
use promote::{Call, DType, ErrorKind, Form, Policy};

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

fn with(extra: &str) -> String {
    format!("{MINI}\n{extra}\n")
}

fn err(src: &str) -> String {
    compile(src, "p.toml").unwrap_err().to_string()
}

fn answer(p: &dyn Policy, call: &str) -> Result<DType, ErrorKind> {
    let c: Call = call.parse().unwrap();
    p.resolve(&c).map(|plan| plan.result).map_err(|e| e.kind())
}

#[test]
fn a_forms_rules_answer_its_calls_only() {
    let p = compile(
        &with(
            "[forms.function]\nsource = \"test\"\n\n[[forms.function.rules]]\nops = [\"add\"]\nat = \"arguments\"\nfirst = { class = [\"literal\"] }\nthen = \"unsupported\"\nsource = \"f(1, t) takes tensors only\"",
        ),
        "p.toml",
    )
    .unwrap();
    assert_eq!(answer(&p, "add 1 int16"), Ok(DType::Int16));
    assert_eq!(
        answer(&p, "add:function 1 int16"),
        Err(ErrorKind::Unsupported)
    );
    assert_eq!(answer(&p, "add:function int16 1"), Ok(DType::Int16));
    // the form as a policy of its own answers every call through that entry point
    let f = p.as_form(Form::Function).unwrap();
    assert_eq!(f.name, "mini:function");
    assert_eq!(answer(&f, "add 1 int16"), Err(ErrorKind::Unsupported));
    // a named variant the file does not describe: unsupported, naming the forms it has
    let c: Call = "add:tnp 1 int16".parse().unwrap();
    let e = p.resolve(&c).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Unsupported);
    assert!(e.to_string().contains("operator, function"), "{e}");
    assert!(p.as_form(Form::Tnp).is_err());
}

#[test]
fn a_policy_without_the_section_answers_the_function_as_the_operator() {
    let p = compile(MINI, "p.toml").unwrap();
    for call in ["add 1 int16", "add int16 float32", "add bool 1.0"] {
        let f = call.replacen("add", "add:function", 1);
        assert_eq!(answer(&p, call), answer(&p, &f), "{call}");
    }
}

#[test]
fn wrong_sections_say_what_to_write() {
    for (extra, says) in [
        (
            "[forms.operator]\nsource = \"x\"",
            "write its rules in [[rules]]",
        ),
        ("[forms.fuction]\nsource = \"x\"", "did you mean `function`"),
        (
            "[forms.function]\nsource = \"x\"\nlike = \"numpy\"\n\n[forms.function.patch.combine]\nscheme = \"join\"",
            "with `like` takes no patch",
        ),
        (
            "[[ops]]\nops = [\"result_type\"]\nlike = \"numpie\"",
            "did you mean `numpy`",
        ),
        (
            "[forms.function]\nsource = \"x\"\nwithout_rules = [\"no such rule\"]",
            "no [[rules]] entry has a source starting with",
        ),
        (
            "[forms.function]\nsource = \"x\"\nlike = \"numpie\"",
            "numpie",
        ),
    ] {
        let e = err(&with(extra));
        assert!(e.contains(says), "{extra}: {e}");
        assert!(e.starts_with("p.toml:"), "{e}");
    }
}

/// `like` with rules: the other policy's form, this form's rules in front (`tf`'s `flexible` is
/// `tf-all`'s with every promotion step refused).
#[test]
fn a_like_form_takes_rules_in_front() {
    let p = compile(
        &with("[forms.function]\nsource = \"x\"\nlike = \"numpy\"\n\n[[forms.function.rules]]\nops = [\"add\"]\nat = \"arguments\"\nfirst = { class = [\"literal\"] }\nthen = \"unsupported\"\nsource = \"f(1, t) takes tensors only\""),
        "p.toml",
    )
    .unwrap();
    assert_eq!(
        answer(&p, "add:function 1 int16"),
        Err(ErrorKind::Unsupported)
    );
    // otherwise NumPy's np.add answers: int16 with a Python float is float64
    assert_eq!(answer(&p, "add:function int16 1.0"), Ok(DType::Float64));
    assert_eq!(answer(&p, "add int16 1.0"), Ok(DType::Float32));
}

#[test]
fn convert_second_makes_the_scalar_a_0d_tensor_alone() {
    let rule = |extra: &str| {
        with(&format!(
            "[[rules]]\nops = [\"add\"]\nat = \"arguments\"\nsecond = {{ class = [\"literal\"] }}\nthen = \"convert_second\"\nconvert = {{ int = \"int16\", float = \"float32\" }}\n{extra}"
        ))
    };
    let p = compile(&rule(""), "p.toml").unwrap();
    // bool + 1: the 1 is a 0-d int16 tensor, which a bool tensor joins at int16
    assert_eq!(answer(&p, "add bool 1"), Ok(DType::Int16));
    // beyond int16 the conversion fails; so does a float beyond float32 without `saturate`
    assert_eq!(answer(&p, "add bool 40000"), Err(ErrorKind::Overflow));
    assert_eq!(answer(&p, "add bool 1e+300"), Err(ErrorKind::Overflow));
    // with `saturate` the float becomes inf (as paddle.full casts it)
    let p = compile(&rule("saturate = true"), "p.toml").unwrap();
    assert_eq!(answer(&p, "add bool 1e+300"), Ok(DType::Float32));
    assert_eq!(answer(&p, "add bool 40000"), Err(ErrorKind::Overflow));
    let c: Call = "add bool 1e+300".parse().unwrap();
    let steps = p.resolve(&c).unwrap().steps;
    assert!(
        steps.iter().any(|s| s.to_string().contains("holding inf")),
        "{steps:?}"
    );
    // what a conversion rule needs
    for (bad, says) in [
        (
            "[[rules]]\nops = [\"add\"]\nat = \"arguments\"\nthen = \"convert_second\"\nconvert = { int = \"int16\" }",
            "second = { class = [\"literal\"] }",
        ),
        (
            "[[rules]]\nops = [\"add\"]\nat = \"arguments\"\nsecond = { class = [\"literal\"] }\nthen = \"unsupported\"\nsaturate = true",
            "`saturate` goes with",
        ),
    ] {
        let e = err(&with(bad));
        assert!(e.contains(says), "{bad}: {e}");
    }
}
