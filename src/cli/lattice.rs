//! `promote lattice`: parse the arguments, take the library's promotion [`Graph`]
//! ([`lattice()`]) and draw it as SVG (laid out by [`svg`]), Graphviz dot, or text edges.

use clap::{Args, ValueEnum};

use super::render::emit;
use super::svg::{self, Direction};
use super::PolicyArg;
use crate::analysis::{lattice, Graph, Style};
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
    let g = lattice(&p, a.style);
    let dir = if a.direction == Dir::Lr {
        Direction::LeftRight
    } else {
        Direction::BottomTop
    };
    emit(&match a.format {
        LatticeFormat::Svg => svg::render(&g, dir),
        LatticeFormat::Dot => dot(&g, dir),
        LatticeFormat::Edges => edges_text(&g),
    });
    if let Some(c) = g.caption.iter().find(|c| c.starts_with("The table is not")) {
        eprintln!("promote: {}: {c}", p.name);
    }
    Ok(0)
}
