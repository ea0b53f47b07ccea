//! `promote lattice`: a policy's promotion graph as a picture.
//!
//! The graph is the Hasse diagram of the order `a ≤ b iff join(a, b) = b` of the policy's join
//! table: for a lattice policy that is its lattice (JAX's and TensorFlow's diagrams); for a table
//! policy it is the order the table induces, where it is one, and the caption says how far the
//! table is from a lattice.

use clap::{Args, ValueEnum};

use super::svg::{self, Direction, GNode, Graph};
use super::table::Style;
use super::PolicyArg;
use crate::analysis::{JoinAlgebra, Verdict};
use crate::dtype::{DType, Kind};
use crate::error::PromoteError;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum LatticeFormat {
    /// A standalone SVG picture, laid out by promote itself.
    Svg,
    /// Graphviz dot, for `dot -Tpng`.
    Dot,
    /// The covering edges as text, one `LOWER -> UPPER ...` line per node (the lattice syntax of
    /// policy files).
    Edges,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Dir {
    /// Lower types on the left, as JAX's docs draw it.
    Lr,
    /// Lower types at the bottom, as a textbook Hasse diagram.
    Bt,
}

#[derive(Args)]
pub(crate) struct LatticeArgs {
    #[command(flatten)]
    policy: PolicyArg,
    #[arg(long, value_enum, default_value = "svg")]
    format: LatticeFormat,
    /// Which way the arrows point.
    #[arg(long, value_enum, default_value = "lr")]
    direction: Dir,
    /// Naming of the dtypes (as `promote table`).
    #[arg(long, value_enum, default_value = "auto")]
    style: Style,
}

/// The picture's graph: nodes, covering edges, and what to say about the table.
pub(crate) fn graph(p: &crate::policy::RulePolicy, style: Style) -> Graph {
    let style = style.resolve(&p.name);
    let alg = JoinAlgebra::of(p);
    let n = alg.len();
    let o = &alg.order;
    let mut caption = Vec::new();
    let verdict = alg.verdict();
    let label = |i: usize| -> String {
        if !alg.weak[i] && DType::parse(&alg.names[i]).ok() == Some(alg.dtypes[i]) {
            style.dtype(alg.dtypes[i])
        } else if style == Style::Tf && alg.weak[i] {
            format!("{}*", style.dtype(p.canonical(alg.dtypes[i])))
        } else {
            alg.names[i].clone()
        }
    };
    let edges: Vec<(usize, usize)> = if o.is_partial_order() {
        o.covers()
    } else {
        // draw the covering relation of the transitive closure, and name the chains the table breaks
        let mut leq = o.leq.clone();
        for k in 0..n {
            for i in 0..n {
                for j in 0..n {
                    if leq[i][k] && leq[k][j] {
                        leq[i][j] = true;
                    }
                }
            }
        }
        let lt = |a: usize, b: usize| a != b && leq[a][b] && !leq[b][a];
        let broken: Vec<String> = (0..n)
            .flat_map(|a| (0..n).map(move |c| (a, c)))
            .filter(|&(a, c)| a != c && leq[a][c] && !o.leq[a][c])
            .map(|(a, c)| {
                format!(
                    "{} ∘ {} = {}",
                    label(a),
                    label(c),
                    alg.join(a, c).map_or("-".to_string(), |j| if j < n {
                        label(j)
                    } else {
                        alg.name(Some(j)).to_string()
                    })
                )
            })
            .collect();
        let shown = broken
            .iter()
            .take(6)
            .cloned()
            .collect::<Vec<_>>()
            .join(", ");
        let more = if broken.len() > 6 {
            format!(" and {} more", broken.len() - 6)
        } else {
            String::new()
        };
        if !broken.is_empty() {
            caption.push(format!(
                "The table is no partial order: arrows chain where it does not, as {shown}{more}."
            ));
        }
        (0..n)
            .flat_map(|a| (0..n).map(move |b| (a, b)))
            .filter(|&(a, b)| lt(a, b) && !(0..n).any(|c| lt(a, c) && lt(c, b)))
            .collect()
    };
    let kind = |d: DType| match d.kind() {
        Kind::Bool => "bool",
        Kind::Unsigned => "unsigned",
        Kind::Signed => "signed",
        Kind::Float => "float",
        Kind::Complex => "complex",
    };
    let nodes = (0..n)
        .map(|i| {
            let d = p.canonical(alg.dtypes[i]);
            let tooltip = if alg.weak[i] {
                format!(
                    "{}: weakly typed {} (a Python scalar or weak tensor)",
                    alg.names[i], d
                )
            } else if d != alg.dtypes[i] {
                format!("{}: becomes {} in this mode", alg.names[i], d)
            } else {
                alg.names[i].clone()
            };
            GNode {
                label: label(i),
                kind: kind(alg.dtypes[i]),
                weak: alg.weak[i],
                tooltip,
            }
        })
        .collect();
    let how = if alg.source == "lattice" {
        "its lattice"
    } else {
        "the order its table induces"
    };
    caption.insert(0, format!("An arrow a → b: b is the least type above a ({how}); the promotion of two types is where their arrows first meet."));
    caption.push(match &verdict {
        Verdict::NotALattice(why) => format!(
            "The table is not a lattice: {}.",
            why.first().map_or("", |s| s.as_str())
        ),
        v => format!("The promotion is {v}."),
    });
    if !alg.missing.is_empty() {
        caption.push(format!(
            "{} pairs do not promote at all, such as {} and {}.",
            alg.missing.len(),
            label(alg.missing[0].0),
            label(alg.missing[0].1)
        ));
    }
    Graph {
        title: format!(
            "{} ({}): type promotion {}",
            p.name,
            p.framework,
            match verdict {
                Verdict::Lattice | Verdict::JoinSemilattice => "lattice",
                Verdict::PartialLattice => "lattice (partial)",
                Verdict::NotALattice(_) => "order",
            }
        ),
        caption,
        nodes,
        edges,
    }
}

/// Graphviz dot.
pub(crate) fn dot(g: &Graph, dir: Direction) -> String {
    let mut s = format!("digraph promote {{\n  label=\"{}\";\n  labelloc=t;\n  rankdir={};\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n", g.title.replace('"', "\\\""), if dir == Direction::LeftRight { "LR" } else { "BT" });
    for (i, v) in g.nodes.iter().enumerate() {
        let fill = match v.kind {
            "bool" => "#eaeef2",
            "unsigned" => "#dbeafe",
            "signed" => "#cffafe",
            "float" => "#dcfce7",
            "complex" => "#f3e8ff",
            _ => "#ffffff",
        };
        let style = if v.weak {
            "rounded,filled,dashed"
        } else {
            "rounded,filled"
        };
        s.push_str(&format!(
            "  n{i} [label=\"{}\", fillcolor=\"{fill}\", style=\"{style}\", tooltip=\"{}\"];\n",
            v.label.replace('"', "\\\""),
            v.tooltip.replace('"', "\\\"")
        ));
    }
    for (a, b) in &g.edges {
        s.push_str(&format!("  n{a} -> n{b};\n"));
    }
    s.push_str("}\n");
    s
}

/// `LOWER -> UPPER ...` lines.
pub(crate) fn edges_text(g: &Graph) -> String {
    let mut s = String::new();
    for (i, v) in g.nodes.iter().enumerate() {
        let ups: Vec<&str> = g
            .edges
            .iter()
            .filter(|e| e.0 == i)
            .map(|e| g.nodes[e.1].label.as_str())
            .collect();
        if !ups.is_empty() {
            s.push_str(&format!("{:<5} -> {}\n", v.label, ups.join(" ")));
        }
    }
    s
}

pub(crate) fn run(a: LatticeArgs) -> Result<i32, PromoteError> {
    let p = a.policy.load()?;
    let g = graph(&p, a.style);
    let dir = if a.direction == Dir::Lr {
        Direction::LeftRight
    } else {
        Direction::BottomTop
    };
    super::table::emit(&match a.format {
        LatticeFormat::Svg => svg::render(&g, dir),
        LatticeFormat::Dot => dot(&g, dir),
        LatticeFormat::Edges => edges_text(&g),
    });
    if let Some(c) = g.caption.iter().find(|c| c.starts_with("The table is not")) {
        eprintln!("promote: {}: {c}", p.name);
    }
    Ok(0)
}
