//! Autocast layers (`src/autocast/`, `policies/autocast/`):
//!
//! - the recordings of `tests/fixtures/autocast/*.txt.gz` replay 100 % through the JSONL path
//!   (`"autocast"` on the query), for every op the engine can name (the others are counted apart);
//! - Paddle AMP on CPU is recorded to change nothing: its cells replay against `paddle` alone;
//! - the lists of the files derived from source equal the committed extract of those sources
//!   (`tests/fixtures/autocast/source-lists.txt`, `tools/oracle/extract_autocast_lists.py`);
//! - the plan's autocast step, the CLI flag, the error paths.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::Path;

use promote::autocast::{self, builtin_autocast, Class, AUTOCASTS};
use promote::{builtin, query, Call, DType, Op, Policy, Step};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/autocast");

fn gunzip(path: &Path) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("fixture opens"))
        .read_to_string(&mut text)
        .expect("fixture is gzip text");
    text
}

fn header_field<'a>(header: &'a str, key: &str) -> &'a str {
    header
        .split_whitespace()
        .find_map(|w| w.strip_prefix(key).and_then(|w| w.strip_prefix('=')))
        .unwrap_or_else(|| panic!("fixture header {header:?} has no {key}="))
}

#[derive(Default, Debug)]
struct Replay {
    cells: usize,
    matched: usize,
    unnamed: BTreeMap<String, usize>,
    unrecordable: usize,
    misses: Vec<String>,
}

/// Replay one fixture: `autocast` is the query's `"autocast"` (None: the base policy alone).
fn replay(path: &Path, autocast: Option<&str>) -> Replay {
    let text = gunzip(path);
    let header = text.lines().next().expect("a header line");
    let base = builtin(header_field(header, "base")).expect("the base policy exists");
    let mut r = Replay::default();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (cell, want) = line.rsplit_once(" : ").expect("CELL : ANSWER");
        r.cells += 1;
        let op = cell.split_whitespace().next().unwrap_or_default();
        if Op::parse(op).is_err() {
            *r.unnamed.entry(op.to_string()).or_default() += 1;
            continue;
        }
        if want == "X" {
            r.unrecordable += 1;
            continue;
        }
        let call: Call = cell
            .parse()
            .unwrap_or_else(|e| panic!("cell {cell:?} does not parse: {e}"));
        let mut q = query::call_json(&call);
        if let Some(name) = autocast {
            q["autocast"] = serde_json::json!(name);
        }
        let answer = query::answer_line(&*base, &q.to_string());
        let got = query::answer_token(&serde_json::from_str(&answer).expect("JSON answer"));
        if got == want {
            r.matched += 1;
        } else {
            r.misses.push(format!("{cell} : want {want}, got {got}"));
        }
    }
    r
}

fn check(name: &str, r: &Replay) {
    let replayed = r.cells - r.unrecordable - r.unnamed.values().sum::<usize>();
    eprintln!(
        "{name}: {}/{replayed} replayed cells match; {} not recordable; not nameable yet: {:?}",
        r.matched, r.unrecordable, r.unnamed
    );
    assert!(replayed > 1000, "{name}: only {replayed} cells replayed");
    assert!(
        r.misses.is_empty(),
        "{name}: {} of {replayed} cells differ, first: {:#?}",
        r.misses.len(),
        &r.misses[..r.misses.len().min(20)]
    );
}

#[test]
fn torch_cpu_recordings_replay_100_percent() {
    for name in ["torch-cpu-bf16", "torch-cpu-f16"] {
        let path = Path::new(FIXTURES).join(format!("{name}.txt.gz"));
        let r = replay(&path, Some(name));
        check(name, &r);
        // the recordings hold the list ops too (mm, conv1d, softmax, ...): replayed once the
        // engine names them
        assert!(r.unnamed.len() + Op::all().len() > 20);
    }
}

#[test]
fn paddle_amp_on_cpu_changes_nothing() {
    let mut seen = 0;
    for entry in std::fs::read_dir(FIXTURES).expect("fixtures dir") {
        let path = entry.expect("entry").path();
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        if !file.starts_with("paddle-cpu-") || !file.ends_with(".txt.gz") {
            continue;
        }
        seen += 1;
        check(&file, &replay(&path, None));
    }
    assert_eq!(
        seen, 4,
        "the four paddle-cpu-* recordings (O1/O2 x f16/bf16)"
    );
}

/// `SOURCE LIST` -> ops, from the committed extract.
fn source_lists() -> BTreeMap<(String, String), BTreeSet<String>> {
    let text = std::fs::read_to_string(Path::new(FIXTURES).join("source-lists.txt"))
        .expect("source-lists.txt");
    let mut m: BTreeMap<(String, String), BTreeSet<String>> = BTreeMap::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let w: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(w.len(), 3, "bad line {line:?}");
        m.entry((w[0].into(), w[1].into()))
            .or_default()
            .insert(w[2].into());
    }
    m
}

fn class_ops(name: &str, class: Class) -> BTreeSet<String> {
    let a = builtin_autocast(name).expect("builtin");
    a.lists
        .iter()
        .filter(|l| l.class == class)
        .flat_map(|l| l.ops.iter().cloned())
        .collect()
}

#[test]
fn derived_lists_equal_the_source_extract() {
    let src = source_lists();
    let get = |s: &str, l: &str| src.get(&(s.into(), l.into())).cloned().unwrap_or_default();
    for name in ["torch-cuda-f16", "torch-cuda-bf16"] {
        assert_eq!(
            class_ops(name, Class::LowerPrecision),
            get("torch-cuda", "lower_precision")
        );
        let fp32: BTreeSet<String> = ["fp32", "fp32_set_opt_dtype", "fp32_append_dtype"]
            .iter()
            .flat_map(|l| get("torch-cuda", l))
            .collect();
        assert_eq!(class_ops(name, Class::Fp32), fp32, "{name}");
        assert_eq!(
            class_ops(name, Class::Promote),
            get("torch-cuda", "promote")
        );
    }
    for level in ["O1", "O2"] {
        for (short, dtype) in [("f16", "float16"), ("bf16", "bfloat16")] {
            let name = format!("paddle-{}-{short}", level.to_lowercase());
            let key = format!("paddle-{dtype}-{level}");
            assert_eq!(class_ops(&name, Class::LowerPrecision), get(&key, "white"));
            assert_eq!(class_ops(&name, Class::Fp32), get(&key, "black"), "{name}");
            let a = builtin_autocast(&name).unwrap();
            assert_eq!(a.unlisted.class, Class::Promote);
            assert_eq!(a.dtype.name(), dtype);
        }
    }
    assert!(get("torch-cuda", "fp32_set_opt_dtype").contains("sum"));
}

#[test]
fn every_builtin_compiles_and_names_its_sources() {
    for name in AUTOCASTS {
        let a = builtin_autocast(name).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&a.name, name);
        assert!(!a.touches.source.is_empty() && !a.unlisted.source.is_empty());
        assert!(a
            .lists
            .iter()
            .all(|l| !l.source.is_empty() && !l.ops.is_empty()));
        assert!(builtin(&a.base).is_ok(), "{name}: base {}", a.base);
    }
}

#[test]
fn the_plan_starts_with_the_autocast_step() {
    let torch = builtin("torch").unwrap();
    let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
    let plan =
        autocast::resolve(&*torch, &bf16, &"matmul float32 float16".parse().unwrap()).unwrap();
    assert_eq!(plan.result, DType::BFloat16);
    match &plan.steps[0] {
        Step::Autocast {
            layer,
            list,
            detail,
            source,
        } => {
            assert_eq!(
                (layer.as_str(), list.as_str()),
                ("torch-cpu-bf16", "lower_precision")
            );
            assert!(detail.contains("operand 1 float32 -> bfloat16"), "{detail}");
            assert!(detail.contains("operand 2 float16 -> bfloat16"), "{detail}");
            assert!(source.contains("autocast_mode.cpp"), "{source}");
        }
        s => panic!("first step {s:?}"),
    }
    let add = autocast::resolve(&*torch, &bf16, &"add float32 float16".parse().unwrap()).unwrap();
    assert_eq!(add.result, DType::Float32);
    assert!(add
        .explain()
        .contains("add is on no list of torch-cpu-bf16"));
}

#[test]
fn genesis_casts_every_floating_tensor_and_nothing_else() {
    let torch = builtin("torch").unwrap();
    let f16 = builtin_autocast("genesis-f16").unwrap();
    let f32 = builtin_autocast("genesis-f32").unwrap();
    let r = |a: &autocast::Autocast, c: &str| {
        autocast::resolve(&*torch, a, &c.parse().unwrap())
            .map(|p| p.result)
            .ok()
    };
    assert_eq!(r(&f16, "add float64 float32"), Some(DType::Float16));
    assert_eq!(r(&f32, "add float64 bfloat16"), Some(DType::Float32));
    // integers and Python scalars are left alone: PyTorch then promotes as usual
    assert_eq!(r(&f16, "add int32 int64"), Some(DType::Int64));
    assert_eq!(r(&f16, "add int32 1.0"), Some(DType::Float32));
    assert_eq!(r(&f16, "add float32(1.0) 1.0"), Some(DType::Float16));
}

#[test]
fn cuda_lists_reach_the_engine_ops() {
    let torch = builtin("torch").unwrap();
    let cuda = builtin_autocast("torch-cuda-f16").unwrap();
    let r = |c: &str| {
        autocast::resolve(&*torch, &cuda, &c.parse().unwrap())
            .map(|p| p.result)
            .ok()
    };
    assert_eq!(r("sum float16"), Some(DType::Float32)); // fp32_set_opt_dtype
    assert_eq!(r("power float16 float16"), Some(DType::Float32)); // fp32 (pow)
    assert_eq!(r("matmul float32 float32"), Some(DType::Float16));
    assert_eq!(r("sum float64"), Some(DType::Float64)); // double is never cast
    assert_eq!(r("sum int8"), Some(DType::Int64));
}

#[test]
fn bad_names_and_keys_are_invalid_with_a_hint() {
    let torch = builtin("torch").unwrap();
    let q = r#"{"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8"}], "autocast": "torch-cpu-bf61"}"#;
    let a = query::answer_line(&*torch, q);
    assert!(
        a.contains("\"invalid\"") && a.contains("torch-cpu-bf16"),
        "{a}"
    );
    let q = r#"{"op": "add", "operands": [{"dtype": "int8"}, {"dtype": "int8"}], "autocast": 3}"#;
    assert!(query::answer_line(&*torch, q).contains("\"invalid\""));
    assert!(promote::kernel::eval::answer_line(&*torch, q).contains("\"invalid\""));
    // the plain parser never ignores the key: it says which functions read it
    let q = serde_json::json!({"op": "matmul", "operands": [{"dtype": "float32"}, {"dtype": "float32"}], "autocast": "torch-cpu-bf16"});
    let e = query::parse_query(&q).unwrap_err().to_string();
    assert!(e.contains("answer_line"), "{e}");
}

/// Every JSONL path honours a query's `"autocast"` (one entry point: `take_autocast`, then
/// `resolve_under`/`evaluate_under`): the plain library functions, the data-checked resolve,
/// eval, and `promote resolve`/`promote eval` without `--autocast`; the key overrides the flag.
#[test]
fn every_jsonl_path_honours_the_autocast_key() {
    use promote::kernel::eval;
    let torch = builtin("torch").unwrap();
    let f16 = builtin_autocast("torch-cpu-f16").unwrap();
    let plain = r#"{"op": "matmul", "operands": [{"dtype": "float32"}, {"dtype": "float32"}]}"#;
    let keyed = plain.replacen('{', r#"{"autocast": "torch-cpu-bf16", "#, 1);
    let with_data = r#"{"autocast": "torch-cpu-bf16", "op": "matmul", "operands": [{"dtype": "float32", "data": ["1.00390625", "3"]}, {"dtype": "float32", "data": ["1", "1"]}]}"#;
    let bf16 = r#"{"dtype":"bfloat16","weak":false}"#;
    assert_eq!(
        query::answer_line(&*torch, plain),
        r#"{"dtype":"float32","weak":false}"#
    );
    assert_eq!(query::answer_line(&*torch, &keyed), bf16);
    // the query's key overrides the layer given by the caller (the command line's --autocast)
    assert_eq!(query::answer_line_under(&*torch, Some(&f16), &keyed), bf16);
    assert_eq!(
        query::answer_line_under(&*torch, Some(&f16), plain),
        r#"{"dtype":"float16","weak":false}"#
    );
    // resolve with data: the data checked, the dtype under the layer
    assert_eq!(query::answer_line(&*torch, with_data), bf16);
    let plan = eval::resolve_line(&*torch, with_data).unwrap();
    assert!(matches!(plan.steps[0], Step::Autocast { .. }));
    // eval: the data rounded to bfloat16 before the matmul (1.00390625 -> 1)
    assert_eq!(
        eval::answer_line(&*torch, with_data),
        r#"{"dtype":"bfloat16","weak":false,"data":["4.0"]}"#
    );
    let r = eval::eval_line(&*torch, with_data).unwrap();
    assert_eq!(r.plan.steps[0].rule(), "autocast");
    // the CLI without --autocast: the key alone decides, in resolve and eval
    let (_, out) = promote(
        &["resolve", "--policy", "torch"],
        &format!("{keyed}\n{plain}\n"),
    );
    assert_eq!(
        out,
        format!("{bf16}\n{{\"dtype\":\"float32\",\"weak\":false}}\n")
    );
    let (_, out) = promote(&["eval", "--policy", "torch"], &format!("{with_data}\n"));
    assert!(out.starts_with(r#"{"dtype":"bfloat16""#), "{out}");
    let (_, out) = promote(
        &[
            "resolve",
            "--policy",
            "torch",
            "--autocast",
            "torch-cpu-f16",
        ],
        &format!("{keyed}\n"),
    );
    assert_eq!(out, format!("{bf16}\n"));
}

#[test]
fn a_user_file_with_a_bad_class_points_at_it() {
    let dir = std::env::temp_dir().join(format!("promote-autocast-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("mine.toml");
    let good = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("policies/autocast/genesis-f16.toml"),
    )
    .unwrap();
    std::fs::write(&path, good.replace("\"lower_precision\"", "\"lower\"")).unwrap();
    let e = autocast::load_autocast_file(&path).unwrap_err().to_string();
    assert!(
        e.contains("lower_precision, fp32, promote, fallthrough"),
        "{e}"
    );
    std::fs::write(&path, good.replace("zero_dim = true", "zero_dims = true")).unwrap();
    let e = autocast::load_autocast_file(&path).unwrap_err().to_string();
    assert!(e.contains("mine.toml:") && e.contains("zero_dims"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_autocasted_policy_is_a_policy() {
    let p = autocast::Autocasted::new(
        builtin("torch").unwrap(),
        builtin_autocast("torch-cpu-bf16").unwrap(),
    );
    let t = p.resolve_traced(&"matmul float32 float64".parse().unwrap());
    assert!(t.outcome.is_err());
    assert!(t
        .explain()
        .starts_with("1. [autocast] matmul is on the lower_precision list"));
}

/// The distance in units in the last place between two values of a float dtype, as text.
fn ulps(dtype: &str, want: &str, got: &str) -> u64 {
    let bits = |s: &str| -> i64 {
        let x: f64 = s.parse().expect("a float");
        let b = match dtype {
            "bfloat16" => half::bf16::from_f64(x).to_bits() as i16 as i64,
            "float16" => half::f16::from_f64(x).to_bits() as i16 as i64,
            "float32" => (x as f32).to_bits() as i32 as i64,
            _ => x.to_bits() as i64,
        };
        // sign-magnitude to a monotonic integer line
        if b < 0 {
            i64::MIN - b
        } else {
            b
        }
    };
    bits(want).abs_diff(bits(got))
}

/// matmul under CPU autocast (`tools/oracle/record_values_autocast.py`): the dtype always; every
/// bfloat16/float16 value bit for bit, and the float32 `out=` ones (computed without autocast). The float64 controls (float64 is left alone by autocast)
/// differ by a few ulps where PyTorch's float64 dot (BLAS `ddot`, several partial sums) and the
/// engine's in-order sum part ways: counted and bounded, as docs/cli.md ("`--autocast`") says.
#[test]
fn matmul_values_under_cpu_autocast() {
    let text = gunzip(&Path::new(FIXTURES).join("values-torch-cpu.jsonl.gz"));
    let torch = builtin("torch").unwrap();
    let mut low = (0, 0); // (values, bit for bit) in bfloat16/float16/float32
    let mut f64_off = BTreeMap::<u64, usize>::new();
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let r = promote::kernel::eval::eval_line(&*torch, &v["q"].to_string())
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        let want = &v["a"];
        let dtype = r.plan.result.name();
        assert_eq!(dtype, want["dtype"], "{line}");
        let got = promote::kernel::value::format_array(r.data.view());
        for (w, g) in want["data"].as_array().unwrap().iter().zip(&got) {
            let off = ulps(dtype, w.as_str().unwrap(), g);
            match dtype {
                "float64" => *f64_off.entry(off).or_default() += 1,
                _ => {
                    low.0 += 1;
                    low.1 += usize::from(off == 0);
                }
            }
        }
    }
    eprintln!(
        "matmul under autocast: {}/{} bfloat16/float16/float32 values bit for bit; float64 controls by ulps off: {f64_off:?}",
        low.1, low.0
    );
    assert_eq!(
        low,
        (30, 30),
        "every bfloat16/float16 value (and float32 out=) bit for bit"
    );
    assert_eq!(f64_off.values().sum::<usize>(), 24);
    assert!(f64_off.keys().all(|&n| n <= 64), "{f64_off:?}");
}

fn promote(args: &[&str], stdin: &str) -> (i32, String) {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_promote"))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn the_command_line_takes_autocast_flags_and_keys() {
    let (code, out) = promote(
        &[
            "resolve",
            "-p",
            "torch",
            "matmul",
            "float32",
            "float32",
            "--autocast",
            "torch-cpu-f16",
        ],
        "",
    );
    assert_eq!(
        (code, out.trim()),
        (0, r#"{"dtype":"float16","weak":false}"#)
    );
    // the query's key overrides the flag; a query without it takes the flag
    let lines = concat!(
        r#"{"op":"sum","operands":[{"dtype":"float16"}],"autocast":"torch-cuda-f16"}"#,
        "\n",
        r#"{"op":"matmul","operands":[{"dtype":"float32"},{"dtype":"float32"}]}"#,
        "\n"
    );
    let (_, out) = promote(
        &["resolve", "-p", "torch", "--autocast", "torch-cpu-bf16"],
        lines,
    );
    assert_eq!(
        out,
        "{\"dtype\":\"float32\",\"weak\":false}\n{\"dtype\":\"bfloat16\",\"weak\":false}\n"
    );
    let q = r#"{"op":"matmul","operands":[{"dtype":"float32","data":["1.00390625","3"]},{"dtype":"float32","data":["1","1"]}],"autocast":"torch-cpu-bf16"}"#;
    let (_, out) = promote(&["eval", "-p", "torch"], &format!("{q}\n"));
    assert_eq!(
        out,
        "{\"dtype\":\"bfloat16\",\"weak\":false,\"data\":[\"4.0\"]}\n"
    );
    let (_, out) = promote(&["autocasts"], "");
    assert_eq!(out.lines().count(), AUTOCASTS.len(), "{out}");
    let (code, _) = promote(
        &["resolve", "--autocast", "nope", "add", "int8", "int8"],
        "",
    );
    assert_eq!(code, 2);
}

/// `explain` under an autocast (library and CLI): the autocast's step comes first, names the list
/// the op is on (the one `list_of` finds) and that list's source line from the autocast file.
#[test]
fn explain_shows_the_autocast_step_first_with_its_list_and_source() {
    use promote::analysis::explain_under;
    let calls = [
        "matmul float32 float32",
        "sum float16",
        "power float16 float16",
        "add float16 int8",
        "matmul float32 float32 out=float32",
    ];
    let mut classes = BTreeSet::new();
    for name in AUTOCASTS {
        let layer = builtin_autocast(name).unwrap();
        let base = builtin(&layer.base).unwrap();
        for text in calls {
            let call: Call = text.parse().unwrap();
            let e = explain_under(&base, Some(&layer), &call);
            let list = match (&layer.out_falls_through, call.out) {
                (Some(rule), Some(_)) => rule,
                _ => layer.list_of(call.op),
            };
            let first = e
                .steps
                .first()
                .unwrap_or_else(|| panic!("{name} {text}: no steps"));
            match &first.step {
                Step::Autocast {
                    layer: l,
                    list: class,
                    source,
                    ..
                } => {
                    assert_eq!((l.as_str(), class.as_str()), (*name, list.class.name()));
                    assert_eq!(source, &list.source, "{name} {text}");
                }
                other => panic!("{name} {text}: first step {other:?}"),
            }
            assert!(first.words.starts_with("Autocast, before the promotion: "));
            assert!(first.words.contains(&format!("Source: {}", list.source)));
            assert!(e.to_string().contains(&format!(", autocast {name} (")));
            classes.insert(list.class.name());
        }
    }
    assert_eq!(classes.len(), 4, "every class explained: {classes:?}");
    // without a layer, no autocast step
    let torch = builtin("torch").unwrap();
    let plain = promote::analysis::explain(&torch, &"matmul float32 float32".parse().unwrap());
    assert!(plain.steps.iter().all(|s| s.step.rule() != "autocast"));
    // the CLI prints it, refusals included; --all puts the layer over every policy
    let (code, out) = promote(
        &[
            "explain",
            "-p",
            "torch",
            "--autocast",
            "torch-cpu-bf16",
            "matmul",
            "float32",
            "float32",
        ],
        "",
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("matmul float32 float32 gives bfloat16 under torch"),
        "{out}"
    );
    assert!(out.contains("Why:\n  1. Autocast, before the promotion: matmul is on the lower_precision list of torch-cpu-bf16: operand 1 float32 -> bfloat16, operand 2 float32 -> bfloat16. Source: aten/src/ATen/autocast_mode.cpp"), "{out}");
    let (code, out) = promote(
        &[
            "explain",
            "-p",
            "torch",
            "--autocast",
            "torch-cpu-bf16",
            "matmul",
            "float32",
            "float64",
        ],
        "",
    );
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("Steps before the refusal:\n  1. Autocast"),
        "{out}"
    );
    let (_, out) = promote(
        &[
            "explain",
            "--all",
            "--autocast",
            "torch-cpu-f16",
            "matmul",
            "float32",
            "float32",
        ],
        "",
    );
    assert!(
        out.contains("## numpy\n\nmatmul float32 float32 gives float16 under numpy"),
        "{out}"
    );
    let (code, out) = promote(
        &[
            "explain",
            "--autocast",
            "torch-cpu-bf61",
            "add",
            "int8",
            "int8",
        ],
        "",
    );
    assert_ne!(code, 0, "{out}");
}
