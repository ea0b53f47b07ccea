//! What `docs/cli.md` tells a user is whole and true (issue 8): every subcommand has its
//! section, every link leads somewhere, `eval`'s element semantics are written down for every
//! policy, and what it says of `int8()` is what the engine does.

mod common;
use common::promote;

use std::path::{Component, Path, PathBuf};

use promote::Policy;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn cli_md() -> String {
    std::fs::read_to_string(repo().join("docs/cli.md")).unwrap()
}

/// The subcommands `promote --help` lists.
fn subcommands() -> Vec<String> {
    let (code, out, _) = promote(&["--help"]);
    assert_eq!(code, 0);
    out.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

#[test]
fn every_subcommand_has_a_section() {
    let doc = cli_md();
    let subs = subcommands();
    assert!(subs.len() >= 12, "{subs:?}");
    for s in ["eval", "bench", "policies"] {
        assert!(subs.iter().any(|x| x == s), "{s} not in {subs:?}");
    }
    for s in &subs {
        let named = format!("`promote {s}`");
        assert!(
            doc.lines()
                .any(|l| l.starts_with("### ") && l.contains(&named)),
            "docs/cli.md has no `### ... {named}` section"
        );
    }
}

/// `path` with `.` and `..` folded away (the file need not exist).
fn fold(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

/// The relative link targets of a markdown text (`[text](target)`, anchors dropped).
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("](") {
        let rest = &text[i + 2..];
        let Some(end) = rest.find(')') else { continue };
        let target = rest[..end].split('#').next().unwrap_or("");
        if !target.is_empty() && !target.contains("://") && !target.contains(' ') {
            out.push(target.to_string());
        }
    }
    out
}

/// Links inside the repository lead to a file; a link out of it leads into `shared/` beside
/// the repository, where the spec lives (the old link to the spec pointed nowhere).
#[test]
fn every_link_of_the_docs_leads_somewhere() {
    let root = fold(repo());
    let parent = root.parent().unwrap().to_path_buf();
    let mut checked = 0;
    for doc in [
        "README.md",
        "docs/cli.md",
        "docs/architecture.md",
        "policies/README.md",
    ] {
        let path = repo().join(doc);
        let text = std::fs::read_to_string(&path).unwrap();
        for l in links(&text) {
            let target = fold(&path.parent().unwrap().join(&l));
            if target.starts_with(&root) {
                assert!(target.exists(), "{doc}: link {l} leads nowhere");
            } else {
                assert!(
                    target.starts_with(parent.join("shared")),
                    "{doc}: link {l} leaves the repository but not into shared/"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 5, "only {checked} links found");
    assert!(cli_md().contains("shared/spec/query-format.md"));
}

/// Every builtin policy's `[kernel] semantics` has its row in the table of element semantics,
/// and the row names the policy.
#[test]
fn eval_semantics_are_written_down_for_every_policy() {
    let doc = cli_md();
    let section = doc
        .split("### `promote eval`: element semantics per framework")
        .nth(1)
        .expect("the element semantics section");
    let rows: Vec<&str> = section.lines().filter(|l| l.starts_with("| `")).collect();
    for name in promote::policy::BUILTIN {
        let sem = promote::builtin(name).unwrap().semantics().name;
        let row = rows
            .iter()
            .find(|r| r.starts_with(&format!("| `{sem}`")))
            .unwrap_or_else(|| panic!("no row for {sem} ({name})"));
        let policies = row.split('|').nth(2).unwrap_or("");
        assert!(
            policies.split(',').any(|p| p.trim() == *name),
            "the {sem} row does not name {name}: {row}"
        );
    }
}

/// `int8()` is a 0-d tensor whose value is not given; the docs say NumPy 1 assumes 1: so it
/// answers as `int8(1)` does, where a large value answers otherwise.
#[test]
fn a_0d_tensor_without_a_value_is_what_the_docs_say() {
    let doc = cli_md();
    let row = doc
        .lines()
        .find(|l| l.starts_with("| `int8()`"))
        .expect("the int8() row");
    assert!(row.contains("assume 1"), "{row}");
    let dtype = |call: &str| {
        let mut args = vec!["resolve", "-p", "numpy1"];
        args.extend(call.split(' '));
        let (_, out, _) = promote(&args);
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        v["dtype"].as_str().unwrap().to_string()
    };
    assert_eq!(dtype("add uint8 int16()"), dtype("add uint8 int16(1)"));
    assert_ne!(dtype("add uint8 int16()"), dtype("add uint8 int16(1000)"));
}
