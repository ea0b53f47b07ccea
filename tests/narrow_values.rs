//! Replays the values the frameworks compute on the narrow dtypes
//! (tests/fixtures/eval-narrow/*.jsonl.gz, written by tools/oracle/record_values_narrow.py)
//! through `promote eval`'s code path, bit for bit: the answer's dtype and weak flag, then every
//! value (every NaN equals every NaN; -0.0 and 0.0 differ), or the same error kind.
//!
//! Layout: a header line with `edges` (dtype -> value texts), then `{"op", "grid": [A, B], "a"}`
//! lines (the operands are the cross product of the edges of A and B) and `{"q", "a"}` lines.
//! Answers `{"x": ...}` (the framework crashed, hung or raised something unclassified) are
//! counted apart.

use std::collections::BTreeMap;
use std::io::BufRead;
use std::path::Path;

use promote::kernel::eval::eval_value;
use promote::kernel::value::{format_array, parse_array};
use promote::{builtin, DType};
use serde_json::{json, Value};

fn texts(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// The queries of a fixture with their answers, and the count of unrecordable ones.
fn queries(path: &Path) -> (Vec<(usize, Value, Value)>, usize) {
    let f = std::fs::File::open(path).unwrap();
    let reader = std::io::BufReader::new(flate2::read::GzDecoder::new(f));
    let (mut edges, mut out, mut x) = (Value::Null, Vec::new(), 0);
    for (i, line) in reader.lines().enumerate() {
        let rec: Value = serde_json::from_str(&line.unwrap()).unwrap();
        if rec.get("edges").is_some() {
            edges = rec["edges"].clone();
            continue;
        }
        if rec["a"].get("x").is_some() {
            x += 1;
            continue;
        }
        let q = match rec.get("grid") {
            None => rec["q"].clone(),
            Some(grid) => {
                let (a, b) = (grid[0].as_str().unwrap(), grid[1].as_str().unwrap());
                let (ea, eb) = (texts(&edges[a]), texts(&edges[b]));
                let xa: Vec<&String> = ea.iter().flat_map(|v| eb.iter().map(move |_| v)).collect();
                let xb: Vec<&String> = ea.iter().flat_map(|_| eb.iter()).collect();
                json!({"op": rec["op"], "operands": [{"dtype": a, "data": xa}, {"dtype": b, "data": xb}]})
            }
        };
        out.push((i + 1, q, rec["a"].clone()));
    }
    (out, x)
}

/// What differs between a recorded answer and the engine's, if anything.
fn mismatch(policy: &dyn promote::Policy, q: &Value, a: &Value) -> Option<String> {
    let got = eval_value(policy, q);
    match (a.get("error").and_then(Value::as_str), got) {
        (Some(k), Err(e)) if e.kind().name() == k => None,
        (Some(k), Err(e)) => Some(format!("want error {k}, got {}: {e}", e.kind().name())),
        (Some(k), Ok(r)) => Some(format!("want error {k}, got {}", r.plan.result)),
        (None, Err(e)) => Some(format!(
            "want {}, got error {}: {e}",
            a["dtype"],
            e.kind().name()
        )),
        (None, Ok(r)) => {
            let dtype = DType::parse(a["dtype"].as_str().unwrap()).unwrap();
            if r.plan.result != dtype || r.plan.weak != a["weak"].as_bool().unwrap() {
                return Some(format!(
                    "want {dtype} weak={}, got {} weak={}",
                    a["weak"], r.plan.result, r.plan.weak
                ));
            }
            let want = parse_array(dtype, &texts(&a["data"])).unwrap();
            if want == r.data {
                return None;
            }
            let (w, g) = (format_array(want.view()), format_array(r.data.view()));
            let bad: Vec<String> = (0..w.len().min(g.len()))
                .filter(|&i| w[i] != g[i])
                .map(|i| format!("[{i}] want {} got {}", w[i], g[i]))
                .collect();
            Some(format!(
                "{} of {} differ: {}",
                bad.len(),
                w.len(),
                bad[..bad.len().min(4)].join("; ")
            ))
        }
    }
}

fn replay(name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/eval-narrow")
        .join(format!("{name}.jsonl.gz"));
    assert!(
        path.exists(),
        "{} is missing (tools/oracle/record_values_narrow.py)",
        path.display()
    );
    let policy = builtin(name).unwrap();
    let (records, x) = queries(&path);
    let mut bad: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (line, q, a) in &records {
        if let Some(what) = mismatch(&*policy, q, a) {
            let dts: Vec<&str> = q["operands"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["dtype"].as_str().unwrap())
                .collect();
            bad.entry(format!("{} {}", q["op"].as_str().unwrap(), dts.join(" ")))
                .or_default()
                .push(format!("line {line}: {what}"));
        }
    }
    let differ: usize = bad.values().map(Vec::len).sum();
    println!(
        "{name}: {} of {} recorded queries match ({x} not recordable)",
        records.len() - differ,
        records.len()
    );
    for (group, whats) in &bad {
        println!("  {group} ({} queries): {}", whats.len(), whats[0]);
    }
    assert_eq!(differ, 0, "{name}: {differ} queries differ");
}

#[test]
fn numpy_with_ml_dtypes_values_replay() {
    replay("numpy");
}

#[test]
fn jax_values_replay() {
    replay("jax");
}

#[test]
fn jax_x64_values_replay() {
    replay("jax-x64");
}

#[test]
fn torch_values_replay() {
    replay("torch");
}
