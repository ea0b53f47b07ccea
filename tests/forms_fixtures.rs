//! The recordings of issue 10 (`tests/fixtures/resolve-forms/*.txt.gz`, written by
//! `tools/oracle/record_forms.py`): every line must parse with the crate's grammar, and the
//! cells are counted per fixture and per op[:form].
//!
//! Not a replay yet: the library has no `form`, `result_type`/`promote_types`/`can_cast`, n-ary
//! ops, `dtype=` or `casting=` (issue 10), so no answer is compared here.  What is checked:
//! each operand parses as an [`Operand`] of the compact syntax, each `dtype=`/`out=` value and
//! each dtype answer as a [`DType`], each answer is a known token, and each cell that is a plain
//! call today (a known op without form, dtype= or casting=) parses as a [`Call`].

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use promote::{Call, DType, Operand};

const FORMS: &[&str] = &["function", "tnp", "flexible"];
const CASTINGS: &[&str] = &["no", "equiv", "safe", "same_kind", "unsafe"];
const ERRORS: &[&str] = &["!no_promotion", "!overflow", "!unsupported", "!value"];

fn read_gz(path: &Path) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).expect("fixture opens"))
        .read_to_string(&mut text)
        .expect("fixture is gzip text");
    text
}

/// Checks one `CELL : ANSWER` line; returns the cell's `op[:form]` word.
fn check_line(line: &str) -> Result<String, String> {
    let (cell, answer) = line
        .rsplit_once(" : ")
        .ok_or_else(|| "no ` : ` before the answer".to_string())?;
    check_answer(answer)?;
    let mut words: Vec<&str> = cell.split_whitespace().collect();
    let mut plain = true;
    while let Some((key, value)) = words.last().and_then(|w| w.split_once('=')) {
        match key {
            "out" | "dtype" => {
                DType::parse(value).map_err(|e| format!("{key}={value}: {e}"))?;
            }
            "casting" if CASTINGS.contains(&value) => {}
            _ => return Err(format!("unknown key {key}={value}")),
        }
        plain &= key == "out";
        words.pop();
    }
    let (head, operands) = words
        .split_first()
        .ok_or_else(|| "a cell needs an op".to_string())?;
    let (op, form) = head.split_once(':').unwrap_or((head, ""));
    if !form.is_empty() && !FORMS.contains(&form) {
        return Err(format!("unknown form {form:?}"));
    }
    if operands.is_empty() || operands.len() > 3 {
        return Err(format!("{} operands", operands.len()));
    }
    for o in operands {
        o.parse::<Operand>()
            .map_err(|e| format!("operand {o:?}: {e}"))?;
    }
    if plain && form.is_empty() && promote::Op::parse(op).is_ok() {
        cell.parse::<Call>().map_err(|e| format!("call: {e}"))?;
    }
    Ok(head.to_string())
}

fn check_answer(answer: &str) -> Result<(), String> {
    if answer == "X" || answer == "True" || answer == "False" || ERRORS.contains(&answer) {
        return Ok(());
    }
    DType::parse(answer.strip_prefix('~').unwrap_or(answer))
        .map(|_| ())
        .map_err(|e| format!("answer {answer:?}: {e}"))
}

#[test]
fn every_forms_fixture_line_parses() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/resolve-forms");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/resolve-forms exists")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.to_string_lossy().ends_with(".txt.gz"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no fixtures in {}", dir.display());
    let mut bad = Vec::new();
    println!("{:<40} {:>8}  cells per op[:form]", "fixture", "cells");
    for path in &paths {
        let name = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".txt.gz", "");
        let text = read_gz(path);
        let mut per_op: BTreeMap<String, usize> = BTreeMap::new();
        let mut cells = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            cells += 1;
            match check_line(line) {
                Ok(op) => *per_op.entry(op).or_default() += 1,
                Err(e) => bad.push(format!("{name}: {line:?}: {e}")),
            }
        }
        assert!(cells > 0, "{name} has no cells");
        let summary: Vec<String> = per_op.iter().map(|(k, v)| format!("{k} {v}")).collect();
        println!("{name:<40} {cells:>8}  {}", summary.join(", "));
    }
    assert!(
        bad.is_empty(),
        "{} lines do not parse, e.g.\n{}",
        bad.len(),
        bad[..bad.len().min(20)].join("\n")
    );
}

#[test]
fn a_bad_line_is_reported() {
    assert!(check_line("add:function int8 1 : int8").is_ok());
    assert!(check_line("can_cast 300 int8 casting=safe : False").is_ok());
    assert!(check_line("add:sideways int8 1 : int8").is_err());
    assert!(check_line("add int8 1 : int99").is_err());
    assert!(check_line("add int8 1 casting=maybe out=int8 : int8").is_err());
    assert!(check_line("add int8 int8 int8 int8 : int8").is_err());
}
