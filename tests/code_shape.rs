//! The engine's shape, held by a test: every room readable in one sitting.
//!
//! - no function or method in `src/` longer than [`MAX_FN_LINES`] lines (test code aside:
//!   `#[test]` functions and `#[cfg(test)]` modules are not counted);
//! - no file in `src/policy/` longer than [`MAX_POLICY_FILE_LINES`] lines.
//!
//! The limits are those of issue #9 ("no file there over ~600 lines; no function anywhere in
//! `src/` over ~80 lines"). A function that outgrows them is split by stage, not exempted.

use std::path::{Path, PathBuf};

use syn::visit::Visit;

const MAX_FN_LINES: usize = 80;
const MAX_POLICY_FILE_LINES: usize = 600;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src/") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn is_test_attr(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let p = a.path();
        if p.is_ident("test") {
            return true;
        }
        if p.is_ident("cfg") {
            let text = meta_text(&a.meta);
            return text.contains("test") && !text.contains("not");
        }
        false
    })
}

/// The tokens of an attribute's meta as text, without the `quote` crate.
fn meta_text(meta: &syn::Meta) -> String {
    match meta {
        syn::Meta::List(list) => list.tokens.to_string(),
        syn::Meta::Path(p) => p.segments.iter().map(|s| s.ident.to_string()).collect(),
        syn::Meta::NameValue(_) => String::new(),
    }
}

/// Collects every function longer than the limit, with its file, name and line span.
struct LongFunctions<'a> {
    file: &'a str,
    found: Vec<String>,
}

impl LongFunctions<'_> {
    fn check(&mut self, sig: &syn::Signature, body: &syn::Block) {
        let name = &sig.ident;
        let (start, end) = (
            sig.fn_token.span.start().line,
            body.brace_token.span.close().end().line,
        );
        let lines = end + 1 - start;
        if lines > MAX_FN_LINES {
            self.found
                .push(format!("{}:{start}: fn {name} is {lines} lines", self.file));
        }
    }
}

impl<'ast> Visit<'ast> for LongFunctions<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test_attr(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if is_test_attr(&f.attrs) {
            return;
        }
        self.check(&f.sig, &f.block);
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        self.check(&f.sig, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            self.check(&f.sig, body);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
}

fn sources() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    files.sort();
    files
        .into_iter()
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("read a source file");
            let rel = p.strip_prefix(root).unwrap().display().to_string();
            (rel, text)
        })
        .collect()
}

#[test]
fn no_function_in_src_is_longer_than_the_limit() {
    let mut found = Vec::new();
    let files = sources();
    assert!(files.len() > 20, "src/ was not found");
    for (rel, text) in &files {
        let ast = syn::parse_file(text).unwrap_or_else(|e| panic!("{rel}: {e}"));
        let mut v = LongFunctions {
            file: rel,
            found: Vec::new(),
        };
        v.visit_file(&ast);
        found.extend(v.found);
    }
    assert!(
        found.is_empty(),
        "functions over {MAX_FN_LINES} lines (split them by stage):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_policy_file_is_longer_than_the_limit() {
    let long: Vec<String> = sources()
        .into_iter()
        .filter(|(rel, _)| rel.starts_with("src/policy/"))
        .filter_map(|(rel, text)| {
            let n = text.lines().count();
            (n > MAX_POLICY_FILE_LINES).then(|| format!("{rel}: {n} lines"))
        })
        .collect();
    assert!(
        long.is_empty(),
        "policy files over {MAX_POLICY_FILE_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_checker_sees_a_long_function() {
    let body = "let x = 1;\n".repeat(MAX_FN_LINES);
    let text =
        format!("fn long() {{\n{body}}}\n#[cfg(test)]\nmod tests {{ fn t() {{\n{body}}} }}\n");
    let ast = syn::parse_file(&text).unwrap();
    let mut v = LongFunctions {
        file: "x.rs",
        found: Vec::new(),
    };
    v.visit_file(&ast);
    assert_eq!(
        v.found,
        vec![format!("x.rs:1: fn long is {} lines", MAX_FN_LINES + 2)]
    );
}
