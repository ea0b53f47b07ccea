//! The engine's shape, held by a test: every room readable in one sitting.
//!
//! - no function or method in `src/` longer than [`MAX_FN_LINES`] lines (test code aside:
//!   `#[test]` functions and `#[cfg(test)]` modules are not counted);
//! - no file in `src/policy/` longer than [`MAX_POLICY_FILE_LINES`] lines;
//! - every public item of `src/` (a `pub` function or method, struct, enum, trait, exported
//!   macro) has a doc example that runs (a fenced block rustdoc compiles and runs: not
//!   `ignore`, `no_run` or `text`). Internals are `pub(crate)`: `pub` is the API a user meets.
//!
//! The limits are those of issue #9 ("no file there over ~600 lines; no function anywhere in
//! `src/` over ~80 lines"). A function that outgrows them is split by stage, not exempted.

use std::collections::HashSet;
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

/// `#[doc(hidden)]`: public for technical reasons (the doctests of its own room), not the API.
fn is_hidden(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("doc") && meta_text(&a.meta) == "hidden")
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

/// Whether doc attributes hold an example rustdoc runs: a fence whose info string is empty,
/// `rust`, or names only running flavours (`should_panic`, `edition…`).
fn has_running_example(attrs: &[syn::Attribute]) -> bool {
    let mut docs = String::new();
    for a in attrs {
        if let syn::Meta::NameValue(nv) = &a.meta {
            if nv.path.is_ident("doc") {
                if let syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(s),
                    ..
                }) = &nv.value
                {
                    docs.push_str(&s.value());
                    docs.push('\n');
                }
            }
        }
    }
    let mut open = false;
    for line in docs.lines() {
        let line = line.trim();
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        if open {
            open = false;
            continue;
        }
        open = true;
        let runs = info.split(',').map(str::trim).all(|flag| {
            flag.is_empty()
                || flag == "rust"
                || flag == "should_panic"
                || flag.starts_with("edition")
        });
        if runs {
            return true;
        }
    }
    false
}

/// Collects every public item of a file without a running doc example. An item is public when
/// it is `pub` in a public module, or `pub` and named by a `pub use` of a public module.
struct Undocumented<'a> {
    file: &'a str,
    /// Whether the module being walked is public (a stack: inline modules push).
    public: Vec<bool>,
    reexported: &'a HashSet<String>,
    found: Vec<String>,
}

impl Undocumented<'_> {
    fn counts(&self, vis: &syn::Visibility, name: &str) -> bool {
        matches!(vis, syn::Visibility::Public(_))
            && (*self.public.last().unwrap() || self.reexported.contains(name))
    }
    fn check(&mut self, counts: bool, attrs: &[syn::Attribute], what: &str, at: proc_macro2::Span) {
        if counts && !has_running_example(attrs) {
            self.found
                .push(format!("{}:{}: {what}", self.file, at.start().line));
        }
    }
    fn item(
        &mut self,
        vis: &syn::Visibility,
        ident: &syn::Ident,
        attrs: &[syn::Attribute],
        kind: &str,
    ) {
        let counts = self.counts(vis, &ident.to_string()) && !is_hidden(attrs);
        self.check(counts, attrs, &format!("{kind} {ident}"), ident.span());
    }
}

impl<'ast> Visit<'ast> for Undocumented<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test_attr(&m.attrs) && m.content.is_some() {
            let public =
                *self.public.last().unwrap() && matches!(m.vis, syn::Visibility::Public(_));
            self.public.push(public);
            syn::visit::visit_item_mod(self, m);
            self.public.pop();
        }
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_test_attr(&f.attrs) {
            self.item(&f.vis, &f.sig.ident, &f.attrs, "fn");
        }
    }
    fn visit_item_struct(&mut self, s: &'ast syn::ItemStruct) {
        self.item(&s.vis, &s.ident, &s.attrs, "struct");
    }
    fn visit_item_enum(&mut self, e: &'ast syn::ItemEnum) {
        self.item(&e.vis, &e.ident, &e.attrs, "enum");
    }
    fn visit_item_trait(&mut self, t: &'ast syn::ItemTrait) {
        self.item(&t.vis, &t.ident, &t.attrs, "trait");
        let counts = self.counts(&t.vis, &t.ident.to_string()) && !is_hidden(&t.attrs);
        for item in &t.items {
            if let syn::TraitItem::Fn(f) = item {
                let what = format!("fn {}::{}", t.ident, f.sig.ident);
                self.check(counts, &f.attrs, &what, f.sig.ident.span());
            }
        }
    }
    fn visit_item_macro(&mut self, m: &'ast syn::ItemMacro) {
        let exported =
            m.attrs.iter().any(|a| a.path().is_ident("macro_export")) && !is_hidden(&m.attrs);
        if let (true, Some(name)) = (exported, &m.ident) {
            self.check(true, &m.attrs, &format!("macro {name}!"), name.span());
        }
    }
    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        if i.trait_.is_some() || is_test_attr(&i.attrs) {
            return;
        }
        let syn::Type::Path(ty) = &*i.self_ty else {
            return;
        };
        let ty = ty.path.segments.last().unwrap().ident.to_string();
        let public_type = *self.public.last().unwrap() || self.reexported.contains(&ty);
        for item in &i.items {
            if let syn::ImplItem::Fn(f) = item {
                if !is_test_attr(&f.attrs) {
                    let counts = public_type
                        && matches!(f.vis, syn::Visibility::Public(_))
                        && !is_hidden(&f.attrs);
                    let what = format!("fn {ty}::{}", f.sig.ident);
                    self.check(counts, &f.attrs, &what, f.sig.ident.span());
                }
            }
        }
    }
}

fn undocumented_in(
    rel: &str,
    text: &str,
    public: bool,
    reexported: &HashSet<String>,
) -> Vec<String> {
    let ast = syn::parse_file(text).unwrap_or_else(|e| panic!("{rel}: {e}"));
    let mut v = Undocumented {
        file: rel,
        public: vec![public],
        reexported,
        found: Vec::new(),
    };
    v.visit_file(&ast);
    v.found
}

/// The files of the module tree from `src/lib.rs`, each with whether its module is public
/// (declared `pub` in a public parent; `#[cfg(test)]` modules left out).
fn module_files() -> Vec<(String, String, bool)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    let mut todo = vec![(root.join("src/lib.rs"), true)];
    while let Some((path, public)) = todo.pop() {
        let text = std::fs::read_to_string(&path).expect("read a module file");
        let ast = syn::parse_file(&text).unwrap();
        let name = path.file_stem().unwrap().to_str().unwrap();
        let dir = if matches!(name, "lib" | "mod") {
            path.parent().unwrap().to_path_buf()
        } else {
            path.parent().unwrap().join(name)
        };
        for item in &ast.items {
            let syn::Item::Mod(m) = item else { continue };
            if m.content.is_some() || is_test_attr(&m.attrs) {
                continue;
            }
            let child = m.ident.to_string();
            let file = dir.join(format!("{child}.rs"));
            let file = if file.exists() {
                file
            } else {
                dir.join(child).join("mod.rs")
            };
            let pub_child =
                public && matches!(m.vis, syn::Visibility::Public(_)) && !is_hidden(&m.attrs);
            todo.push((file, pub_child));
        }
        let rel = path.strip_prefix(root).unwrap().display().to_string();
        out.push((rel, text, public));
    }
    out.sort();
    out
}

/// The names `pub use` makes public in public modules.
fn reexported_names(files: &[(String, String, bool)]) -> HashSet<String> {
    fn leaves(tree: &syn::UseTree, out: &mut HashSet<String>) {
        match tree {
            syn::UseTree::Path(p) => leaves(&p.tree, out),
            syn::UseTree::Name(n) => drop(out.insert(n.ident.to_string())),
            syn::UseTree::Rename(r) => drop(out.insert(r.rename.to_string())),
            syn::UseTree::Group(g) => g.items.iter().for_each(|t| leaves(t, out)),
            syn::UseTree::Glob(_) => {}
        }
    }
    let mut names = HashSet::new();
    for (_, text, public) in files.iter().filter(|f| f.2) {
        let _ = public;
        for item in syn::parse_file(text).unwrap().items {
            if let syn::Item::Use(u) = item {
                if matches!(u.vis, syn::Visibility::Public(_)) {
                    leaves(&u.tree, &mut names);
                }
            }
        }
    }
    names
}

/// The public items that still lack an example, one `file: kind name` a line: the list may only
/// shrink. An item not in it must have an example; an item in it that has one (or is gone) must
/// leave it.
const STILL_WITHOUT_EXAMPLE: &str = include_str!("still_without_example.txt");

#[test]
fn every_public_item_has_an_example_that_runs() {
    let files = module_files();
    assert!(files.len() > 20, "the module tree was not found");
    let reexported = reexported_names(&files);
    // without the line number: the list names items, not places
    let found: Vec<String> = files
        .iter()
        .flat_map(|(rel, text, public)| undocumented_in(rel, text, *public, &reexported))
        .map(|f| {
            let (file, rest) = f.split_once(':').unwrap();
            format!("{file}:{}", rest.split_once(':').unwrap().1)
        })
        .collect();
    let listed: HashSet<&str> = STILL_WITHOUT_EXAMPLE
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let new: Vec<&String> = found
        .iter()
        .filter(|f| !listed.contains(f.as_str()))
        .collect();
    assert!(
        new.is_empty(),
        "{} public items without a doc example that runs (add one, or make the item pub(crate)):\n{}",
        new.len(),
        new.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    let stale: Vec<&&str> = listed
        .iter()
        .filter(|l| !found.iter().any(|f| f == **l))
        .collect();
    assert!(
        stale.is_empty(),
        "tests/still_without_example.txt names items that have an example now, or are gone; remove them:\n{}",
        stale.iter().map(|s| **s).collect::<Vec<_>>().join("\n")
    );
}

#[test]
fn the_checker_sees_a_public_item_without_an_example() {
    let text = r#"
/// Has one.
///
/// ```
/// assert_eq!(1, 1);
/// ```
pub fn shown() {}
/// Only a block that does not run.
///
/// ```no_run
/// loop {}
/// ```
pub fn not_run() {}
/// None.
pub struct Bare;
impl Bare {
    /// None.
    pub fn method(&self) {}
    /// Internal.
    pub(crate) fn internal(&self) {}
}
/// Internal.
pub(crate) fn hidden() {}
#[cfg(test)]
mod tests { pub fn in_tests() {} }
"#;
    let none = HashSet::new();
    assert!(undocumented_in("x.rs", text, false, &none).is_empty());
    assert_eq!(
        undocumented_in("x.rs", text, true, &none),
        [
            "x.rs:13: fn not_run",
            "x.rs:15: struct Bare",
            "x.rs:18: fn Bare::method"
        ]
    );
}
