//! The report of `promote check` for people: one policy's [`Findings`] as text or Markdown.

use crate::analysis::{class_words, Findings};
use crate::op::OpForm;
use crate::operand::OperandClass;

/// How a report writes its headings, items and code: as text or as Markdown.
struct Layout {
    md: bool,
    item: &'static str,
    item2: &'static str,
    item3: &'static str,
    code: &'static str,
}

impl Layout {
    fn new(md: bool) -> Layout {
        if md {
            Layout {
                md,
                item: "- ",
                item2: "  - ",
                item3: "    - ",
                code: "`",
            }
        } else {
            Layout {
                md,
                item: "  ",
                item2: "    ",
                item3: "      ",
                code: "",
            }
        }
    }
    fn q(&self, t: &str) -> String {
        format!("{}{t}{}", self.code, self.code)
    }
    fn bold(&self, t: String) -> String {
        if self.md {
            format!("**{t}**\n\n")
        } else {
            format!("{t}\n")
        }
    }
}

/// The report of one policy, as text or Markdown.
pub(crate) fn report(f: &Findings, md: bool) -> String {
    let l = Layout::new(md);
    let h = if md { "### " } else { "" };
    let mut s = format!("{h}{} ({}): compiles\n\n", f.name, f.framework);
    s.push_str(&join_laws(f, &l));
    s.push_str(&join_order(f, &l));
    let (head, go_on) = calls_head(f, &l);
    s.push_str(&head);
    if go_on {
        s.push_str(&calls_laws(f, &l));
    }
    if let Some(n) = &f.nary {
        s.push_str(&nary_laws(n, &l));
    }
    s
}

/// Whole calls of an n-ary op: against their pairwise fold, and in other orders.
fn nary_laws(n: &crate::analysis::NaryLaws, l: &Layout) -> String {
    let item = l.item;
    let shown = |c: &crate::analysis::NaryCase| {
        let call = crate::analysis::call_text(c.call.op, &c.call.operands);
        format!(
            "{} but {}",
            l.q(&format!("{call} = {}", c.answer)),
            l.q(&format!("{} = {}", c.other, c.other_answer))
        )
    };
    let mut s = l.bold(format!(
        "whole calls of {} over three operands ({} calls)",
        n.op, n.calls
    ));
    s.push_str(&match n.not_a_fold.examples.first() {
        None => format!("{item}the whole call is its pairwise fold: yes\n"),
        Some(c) => format!(
            "{item}the whole call is its pairwise fold: no, {} calls differ (such as {})\n",
            n.not_a_fold.count,
            shown(c)
        ),
    });
    s.push_str(&match n.order_matters.examples.first() {
        None => format!("{item}the operands' order matters: no\n"),
        Some(c) => format!(
            "{item}the operands' order matters: yes, in {} calls (such as {})\n",
            n.order_matters.count,
            shown(c)
        ),
    });
    s.push('\n');
    s
}

/// The join table: its nodes, joins, commutativity, idempotence.
fn join_laws(f: &Findings, l: &Layout) -> String {
    let (j, item) = (&f.join, l.item);
    let q = |t: &str| l.q(t);
    let bold = |t: String| l.bold(t);
    let mut s = String::new();
    let kind = if j.source == "lattice" {
        "lattice"
    } else {
        "table"
    };
    s.push_str(&bold(format!(
        "The promotion {kind}, over {} nodes ({}):",
        j.len(),
        j.names.join(" ")
    )));
    let pairs = j.len() * (j.len() - 1) / 2;
    if j.missing.is_empty() {
        s.push_str(&format!("{item}joins: every pair of nodes has one\n"));
    } else {
        let ex: Vec<String> = j
            .missing
            .iter()
            .take(4)
            .map(|&(a, b)| q(&format!("{} ∘ {}", j.names[a], j.names[b])))
            .collect();
        s.push_str(&format!(
            "{item}joins: {} of {pairs} pairs have none (such as {})\n",
            j.missing.len(),
            ex.join(", ")
        ));
    }
    if j.not_commutative.is_empty() {
        s.push_str(&format!("{item}commutative: yes\n"));
    } else {
        let w = &j.not_commutative.examples[0];
        s.push_str(&format!(
            "{item}commutative: no, {} pairs differ (such as {} but {})\n",
            j.not_commutative.count,
            q(&format!(
                "{} ∘ {} = {}",
                j.names[w.a],
                j.names[w.b],
                j.name(w.ab)
            )),
            q(&format!(
                "{} ∘ {} = {}",
                j.names[w.b],
                j.names[w.a],
                j.name(w.ba)
            ))
        ));
    }
    if !j.not_idempotent.is_empty() {
        let (a, r) = j.not_idempotent[0];
        s.push_str(&format!(
            "{item}idempotent: no ({})\n",
            q(&format!("{} ∘ {} = {}", j.names[a], j.names[a], j.name(r)))
        ));
    }
    s
}

/// The join table: associativity, the order, the verdict.
fn join_order(f: &Findings, l: &Layout) -> String {
    let (j, item, item2) = (&f.join, l.item, l.item2);
    let q = |t: &str| l.q(t);
    let mut s = String::new();
    let triples = j.len().pow(3);
    if j.assoc_differ.is_empty() {
        s.push_str(&format!(
            "{item}associative: yes, wherever both groupings promote\n"
        ));
    } else {
        s.push_str(&format!(
            "{item}associative: no, {} of {triples} triples promote to different nodes, such as\n",
            j.assoc_differ.count
        ));
        for t in j.assoc_differ.examples.iter().take(3) {
            s.push_str(&format!("{item2}{}\n", q(&j.triple_text(t))));
        }
    }
    if !j.assoc_one_sided.is_empty() {
        s.push_str(&format!(
            "{item}grouping decides whether {} of {triples} triples promote at all, such as\n",
            j.assoc_one_sided.count
        ));
        for t in j.assoc_one_sided.examples.iter().take(2) {
            s.push_str(&format!("{item2}{}\n", q(&j.triple_text(t))));
        }
    }
    let o = &j.order;
    if o.is_partial_order() {
        let bt = |x: Option<usize>| x.map_or("none".to_string(), |i| j.names[i].clone());
        s.push_str(&format!("{item}order (a ≤ b when a ∘ b = b): a partial order, least node {}, greatest node {}\n", bt(o.bottom), bt(o.top)));
    } else {
        s.push_str(&format!(
            "{item}order (a ≤ b when a ∘ b = b): not a partial order\n"
        ));
    }
    s.push_str(&format!("{item}verdict: {}\n", j.verdict()));
    s.push('\n');

    s
}

/// The op over operands: which operands, and tensor with tensor; `false` for a one-operand op.
fn calls_head(f: &Findings, l: &Layout) -> (String, bool) {
    let (c, item) = (&f.calls, l.item);
    let q = |t: &str| l.q(t);
    let bold = |t: String| l.bold(t);
    let mut s = String::new();
    let base = &c.operands[..c.base];
    let count = |cl: OperandClass| base.iter().filter(|o| o.class() == cl).count();
    let mut kinds = Vec::new();
    for cl in [
        OperandClass::Tensor,
        OperandClass::ZeroDim,
        OperandClass::Weak,
        OperandClass::Literal,
    ] {
        let n = count(cl);
        if n > 0 {
            kinds.push(format!("{n} {}s", class_words(cl)));
        }
    }
    s.push_str(&bold(format!(
        "{} over {} operands ({}):",
        c.op,
        c.base,
        kinds.join(", ")
    )));
    if c.op.arity() != 2 {
        let why = match c.op.form() {
            OpForm::Ternary => "three operands in fixed roles (condition, x, y or a, lo, hi): no pairwise law applies",
            OpForm::Variadic => "any number of operands: see its whole calls below",
            _ => "one operand: nothing to check",
        };
        s.push_str(&format!("{item}{} takes {why}\n\n", c.op));
        return (s, false);
    }
    let t = &f.tensors;
    let tassoc = if t.assoc_differ == 0 {
        "associative".to_string()
    } else {
        format!(
            "not associative ({} triples, such as {})",
            t.assoc_differ,
            t.example
                .as_ref()
                .map_or(String::new(), |x| q(&c.triple_text(x)))
        )
    };
    s.push_str(&format!(
        "{item}tensor with tensor: {}, {}, {tassoc}\n",
        if t.refused == 0 {
            "every pair promotes".to_string()
        } else {
            format!("{} of {} pairs refused", t.refused, t.pairs)
        },
        if t.not_commutative == 0 {
            "commutative"
        } else {
            "not commutative"
        },
    ));
    (s, true)
}

/// The op over operands: commutativity and associativity.
fn calls_laws(f: &Findings, l: &Layout) -> String {
    let (c, item, item2) = (&f.calls, l.item, l.item2);
    let q = |t: &str| l.q(t);
    let mut s = String::new();
    if c.not_commutative.is_empty() {
        s.push_str(&format!("{item}commutative: yes\n"));
    } else {
        let w = &c.not_commutative.examples[0];
        let (a, b) = (c.text(Some(w.a)), c.text(Some(w.b)));
        let show = |x: usize, y: usize| c.outcome(x, y).map_or("refused".into(), |o| o.to_string());
        s.push_str(&format!(
            "{item}commutative: no, {} pairs differ (such as {} but {})\n",
            c.not_commutative.count,
            q(&format!("{op}({a}, {b}) = {}", show(w.a, w.b), op = c.op)),
            q(&format!("{op}({b}, {a}) = {}", show(w.b, w.a), op = c.op))
        ));
    }
    if c.assoc_differ.is_empty() {
        s.push_str(&format!(
            "{item}associative: yes, wherever both groupings give a result ({} triples)\n",
            c.triples
        ));
    } else {
        s.push_str(&by_classes(f, l));
    }
    if !c.assoc_one_sided.is_empty() {
        s.push_str(&format!(
            "{item}grouping decides whether {} triples are refused, such as\n",
            c.assoc_one_sided.count
        ));
        for t in c.assoc_one_sided.examples.iter().take(2) {
            s.push_str(&format!("{item2}{}\n", q(&c.triple_text(t))));
        }
    }
    if !c.assoc_kernel.is_empty() {
        s.push_str(&format!(
            "{item}and in {} triples one grouping meets an op with no kernel for its dtype, or an overflow, such as\n{item2}{}\n",
            c.assoc_kernel.count,
            q(&c.triple_text(&c.assoc_kernel.examples[0]))
        ));
    }
    if !c.assoc_python.is_empty() {
        s.push_str(&format!(
            "{item}and {} triples differ only because Python adds two scalars itself first, such as\n{item2}{}\n",
            c.assoc_python.count,
            q(&c.triple_text(&c.assoc_python.examples[0]))
        ));
    }
    s.push('\n');
    s
}

/// The op is not associative over operands: the triples by operand kinds, with an example each.
fn by_classes(f: &Findings, l: &Layout) -> String {
    let (c, item, item2, item3) = (&f.calls, l.item, l.item2, l.item3);
    let q = |t: &str| l.q(t);
    let md = l.md;
    let mut s = String::new();
    s.push_str(&format!("{item}associative: no, {} of {} triples give different results; by operand kinds (a · b · c):\n", c.assoc_differ.count, c.triples));
    for k in c
        .by_classes
        .iter()
        .filter(|x| x.differ > 0)
        .take(if md { 4 } else { 3 })
    {
        s.push_str(&format!(
            "{item2}{} ({}), such as\n",
            k.classes
                .iter()
                .map(|x| class_words(*x))
                .collect::<Vec<_>>()
                .join(" · "),
            k.differ
        ));
        if let Some(t) = &k.example {
            s.push_str(&format!("{item3}{}\n", q(&c.triple_text(t))));
        }
    }
    let rest: usize = c
        .by_classes
        .iter()
        .filter(|x| x.differ > 0)
        .skip(if md { 4 } else { 3 })
        .map(|x| x.differ)
        .sum();
    if rest > 0 {
        s.push_str(&format!("{item2}and {rest} more of other kinds\n"));
    }
    s
}
