//! `promote check`: validate a policy file, and say what algebra its promotion has.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use serde_json::{json, Value};

use crate::analysis::{class_words, JoinAlgebra, OperandAlgebra, TensorLaws, Verdict};
use crate::error::PromoteError;
use crate::op::Op;
use crate::policy::{self, RulePolicy};

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CheckFormat {
    /// A report for people.
    Text,
    /// The same as Markdown (headings and lists), for a README.
    Md,
    /// One JSON object per policy, one per line.
    Json,
}

#[derive(Args)]
pub(crate) struct CheckArgs {
    /// A policy file (TOML, see policies/README.md).
    #[arg(conflicts_with_all = ["builtin", "all"], required_unless_present_any = ["builtin", "all"])]
    file: Option<PathBuf>,
    /// Check a built-in policy instead (`promote policies` lists them).
    #[arg(long, short = 'p', visible_alias = "policy", conflicts_with = "all")]
    builtin: Option<String>,
    /// Check every built-in policy, and end with a summary table.
    #[arg(long)]
    all: bool,
    /// The op whose calls are checked over tensors, 0-d tensors, weak tensors and Python scalars.
    #[arg(long, default_value = "add")]
    op: String,
    #[arg(long, value_enum, default_value = "text")]
    format: CheckFormat,
    /// Exit with status 1 unless the promotion table is a lattice and the op is associative
    /// and commutative over operands too.
    #[arg(long)]
    strict: bool,
}

/// Everything `check` finds out about one policy.
pub(crate) struct Findings {
    pub name: String,
    pub framework: String,
    pub join: JoinAlgebra,
    /// The op over tensors alone.
    pub tensors: TensorLaws,
    pub calls: OperandAlgebra,
}

impl Findings {
    pub(crate) fn of(p: &RulePolicy, op: Op) -> Findings {
        let calls = OperandAlgebra::of(p, op);
        Findings {
            tensors: calls.tensor_laws(),
            name: p.name.clone(),
            framework: p.framework.clone(),
            join: JoinAlgebra::of(p),
            calls,
        }
    }

    /// The table is a lattice and the op behaves over operands.
    pub(crate) fn clean(&self) -> bool {
        self.join.verdict().is_lattice()
            && self.calls.not_commutative.is_empty()
            && self.calls.assoc_differ.is_empty()
            && self.calls.assoc_one_sided.is_empty()
    }
}

fn yes_no(ok: bool) -> &'static str {
    if ok {
        "yes"
    } else {
        "no"
    }
}

/// The report of one policy, as text or Markdown.
pub(crate) fn report(f: &Findings, md: bool) -> String {
    let j = &f.join;
    let c = &f.calls;
    let mut s = String::new();
    let (h, item, code) = if md {
        ("### ", "- ", "`")
    } else {
        ("", "  ", "")
    };
    let (item2, item3) = if md {
        ("  - ", "    - ")
    } else {
        ("    ", "      ")
    };
    let q = |t: &str| format!("{code}{t}{code}");
    s.push_str(&format!("{h}{} ({}): compiles\n\n", f.name, f.framework));
    let kind = if j.source == "lattice" {
        "lattice"
    } else {
        "table"
    };
    let bold = |t: String| {
        if md {
            format!("**{t}**\n\n")
        } else {
            format!("{t}\n")
        }
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

    // calls over operands
    let base = &c.operands[..c.base];
    let count = |cl: crate::operand::OperandClass| base.iter().filter(|o| o.class() == cl).count();
    let mut kinds = Vec::new();
    for cl in [
        crate::operand::OperandClass::Tensor,
        crate::operand::OperandClass::ZeroDim,
        crate::operand::OperandClass::Weak,
        crate::operand::OperandClass::Literal,
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
        s.push_str(&format!(
            "{item}{} takes one operand: nothing to check\n\n",
            c.op
        ));
        return s;
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

/// The JSON object of one policy's findings.
pub(crate) fn json_of(f: &Findings) -> Value {
    let j = &f.join;
    let c = &f.calls;
    let names = |v: &[usize]| v.iter().map(|&i| j.names[i].clone()).collect::<Vec<_>>();
    let jt = |t: &crate::analysis::Triple<usize>| json!({"a": j.names[t.a], "b": j.names[t.b], "c": j.names[t.c], "ab": j.name(t.ab), "left": j.name(t.left), "bc": j.name(t.bc), "right": j.name(t.right)});
    let ct = |t: &crate::analysis::Triple<usize>| json!({"a": c.text(Some(t.a)), "b": c.text(Some(t.b)), "c": c.text(Some(t.c)), "ab": c.ab_text(t.a, t.b), "left": t.ab.map(|x| c.ab_text(x, t.c)), "bc": c.ab_text(t.b, t.c), "right": t.bc.map(|y| c.ab_text(t.a, y))});
    let verdict = j.verdict();
    json!({
        "policy": f.name,
        "framework": f.framework,
        "nodes": j.names,
        "verdict": short_verdict(&verdict),
        "verdict_text": verdict.to_string(),
        "join": {
            "missing": j.missing.iter().map(|&(a, b)| [j.names[a].clone(), j.names[b].clone()]).collect::<Vec<_>>(),
            "not_commutative": j.not_commutative.count,
            "not_associative": j.assoc_differ.count,
            "not_associative_examples": j.assoc_differ.examples.iter().map(jt).collect::<Vec<_>>(),
            "grouping_decides_refusal": j.assoc_one_sided.count,
            "grouping_decides_refusal_examples": j.assoc_one_sided.examples.iter().map(jt).collect::<Vec<_>>(),
            "partial_order": j.order.is_partial_order(),
            "bottom": j.order.bottom.map(|b| j.names[b].clone()),
            "top": j.order.top.map(|b| j.names[b].clone()),
            "hasse": j.order.covers().iter().map(|&(a, b)| names(&[a, b])).collect::<Vec<_>>(),
        },
        "tensors": {
            "pairs": f.tensors.pairs,
            "refused": f.tensors.refused,
            "not_commutative": f.tensors.not_commutative,
            "not_associative": f.tensors.assoc_differ,
            "grouping_decides_refusal": f.tensors.assoc_one_sided,
        },
        "calls": {
            "op": c.op.name(),
            "operands": c.operands[..c.base].iter().map(|o| o.to_string()).collect::<Vec<_>>(),
            "triples": c.triples,
            "not_commutative": c.not_commutative.count,
            "not_associative": c.assoc_differ.count,
            "not_associative_examples": c.assoc_differ.examples.iter().map(ct).collect::<Vec<_>>(),
            "grouping_decides_refusal": c.assoc_one_sided.count,
            "grouping_decides_refusal_examples": c.assoc_one_sided.examples.iter().map(ct).collect::<Vec<_>>(),
            "python_folds": c.assoc_python.count,
            "kernel_or_overflow": c.assoc_kernel.count,
        },
    })
}

/// A policy file error with the offending line and a caret under the column.
fn file_error(e: &PromoteError) -> String {
    match e {
        PromoteError::PolicyFile {
            file,
            line: 0,
            message,
            ..
        } => format!("{file}: error: {message}\n"),
        PromoteError::PolicyFile {
            file,
            line,
            column,
            message,
        } => {
            let mut s = format!("{file}:{line}:{column}: error: {message}\n");
            if let Some(text) = std::fs::read_to_string(file)
                .ok()
                .and_then(|t| t.lines().nth(line.saturating_sub(1)).map(str::to_string))
            {
                let pad = text
                    .chars()
                    .take(column.saturating_sub(1))
                    .map(|c| if c == '\t' { '\t' } else { ' ' })
                    .collect::<String>();
                s.push_str(&format!("{line:>5} | {text}\n      | {pad}^\n"));
            }
            s
        }
        e => format!("error: {e}\n"),
    }
}

/// The verdict as one word for machines.
fn short_verdict(v: &Verdict) -> &'static str {
    match v {
        Verdict::Lattice => "lattice",
        Verdict::JoinSemilattice => "join-semilattice",
        Verdict::PartialLattice => "partial-lattice",
        Verdict::NotALattice(_) => "not-a-lattice",
    }
}

/// The summary table of several policies.
pub(crate) fn summary(all: &[Findings]) -> String {
    let word = |v: Verdict| -> String {
        match v {
            Verdict::Lattice => "yes".into(),
            Verdict::JoinSemilattice => "join-semilattice".into(),
            Verdict::PartialLattice => "partial".into(),
            Verdict::NotALattice(_) => "no".into(),
        }
    };
    let mut rows = vec![[
        "policy".to_string(),
        "nodes".into(),
        "every pair joins".into(),
        "commutative".into(),
        "associative".into(),
        "lattice".into(),
        format!(
            "{}: tensor · tensor · tensor associative",
            all.first().map_or("add", |f| f.calls.op.name())
        ),
        format!(
            "{} over operands: non-associative triples",
            all.first().map_or("add", |f| f.calls.op.name())
        ),
        "grouping decides refusal".into(),
    ]];
    for f in all {
        let j = &f.join;
        let v = j.verdict();
        rows.push([
            f.name.clone(),
            j.len().to_string(),
            if j.missing.is_empty() {
                "yes".into()
            } else {
                format!("no ({} pairs)", j.missing.len())
            },
            yes_no(j.not_commutative.is_empty()).into(),
            if j.assoc_differ.is_empty() {
                "yes".into()
            } else {
                format!("no ({} triples)", j.assoc_differ.count)
            },
            word(v),
            format!(
                "{}{}",
                if f.tensors.assoc_differ == 0 {
                    "yes".to_string()
                } else {
                    format!("no ({} triples)", f.tensors.assoc_differ)
                },
                if f.tensors.refused == 0 {
                    String::new()
                } else {
                    format!(", {} pairs refused", f.tensors.refused)
                }
            ),
            format!("{} of {}", f.calls.assoc_differ.count, f.calls.triples),
            f.calls.assoc_one_sided.count.to_string(),
        ]);
    }
    super::table::aligned(&rows)
}

pub(crate) fn run(a: CheckArgs) -> Result<i32, PromoteError> {
    let op = Op::parse(&a.op)?;
    let mut policies: Vec<std::sync::Arc<RulePolicy>> = Vec::new();
    if a.all {
        for name in policy::BUILTIN {
            match policy::builtin(name) {
                Ok(p) => policies.push(p),
                Err(e) => {
                    eprint!("{}", file_error(&e));
                    return Ok(1);
                }
            }
        }
    } else if let Some(name) = &a.builtin {
        policies.push(policy::builtin(name)?);
    } else if let Some(file) = &a.file {
        match policy::load_file(file) {
            Ok(p) => policies.push(std::sync::Arc::new(p)),
            Err(e @ PromoteError::PolicyFile { .. }) => {
                eprint!("{}", file_error(&e));
                return Ok(1);
            }
            Err(e) => return Err(e),
        }
    }
    let findings: Vec<Findings> = policies.iter().map(|p| Findings::of(p, op)).collect();
    match a.format {
        CheckFormat::Json => {
            super::table::emit(
                &findings
                    .iter()
                    .map(|f| format!("{}\n", json_of(f)))
                    .collect::<String>(),
            );
        }
        CheckFormat::Text | CheckFormat::Md => {
            let md = a.format == CheckFormat::Md;
            let mut s: String = findings.iter().map(|f| report(f, md)).collect();
            if findings.len() > 1 {
                s.push_str(&summary(&findings));
            }
            super::table::emit(&s);
        }
    }
    Ok(if a.strict && !findings.iter().all(Findings::clean) {
        1
    } else {
        0
    })
}
