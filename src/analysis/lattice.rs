//! A policy's promotion graph (`promote lattice`) as a value: the Hasse diagram of the order
//! `a ≤ b iff join(a, b) = b` of its join table, with labels and a caption. For a lattice policy
//! that is its lattice (JAX's and TensorFlow's diagrams); for a table policy it is the order the
//! table induces, where it is one, and the caption says how far the table is from a lattice.
//! Drawing it (SVG, dot) is the command line's.
//!
//! ```
//! use promote::analysis::{lattice, Style};
//! let g = lattice(&promote::builtin("jax").unwrap(), Style::Auto);
//! let label = |i: usize| g.nodes[i].label.as_str();
//! assert!(g.edges.iter().any(|&(a, b)| label(a) == "b1" && label(b) == "i*"));
//! ```

use crate::dtype::{DType, Kind};
use crate::policy::RulePolicy;

use super::{JoinAlgebra, Style, Verdict};

/// A node to draw.
///
/// ```
/// use promote::{analysis::{lattice, Style}, builtin};
/// let g = lattice(&builtin("jax").unwrap(), Style::Auto);
/// assert!(g.nodes.iter().any(|n| n.weak));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GraphNode {
    /// Its name in the style (`i8`, `i*`, `f32*`).
    pub label: String,
    /// `bool`, `unsigned`, `signed`, `float`, `complex`.
    pub kind: &'static str,
    /// A weak type (drawn dashed).
    pub weak: bool,
    /// What it is, in words (hover text).
    pub tooltip: String,
}

/// A promotion graph: edges go from the lower node to the upper one.
///
/// ```
/// use promote::{analysis::{lattice, Style}, builtin};
/// let g = lattice(&builtin("jax").unwrap(), Style::Auto);
/// assert!(g.edges.iter().all(|&(a, b)| a < g.nodes.len() && b < g.nodes.len()));
/// ```
#[derive(Clone, Debug)]
pub struct Graph {
    /// `jax (JAX 0.x): type promotion lattice`.
    pub title: String,
    /// What the arrows mean and what the table is, one sentence each.
    pub caption: Vec<String>,
    /// The nodes.
    pub nodes: Vec<GraphNode>,
    /// The covering pairs `(lower, upper)`, as indices into [`Graph::nodes`].
    pub edges: Vec<(usize, usize)>,
}

/// The promotion graph of a policy, labelled in a [`Style`].
///
/// ```
/// use promote::{analysis::{lattice, Style}, builtin};
/// let g = lattice(&builtin("numpy").unwrap(), Style::Plain);
/// assert!(!g.title.is_empty() && !g.edges.is_empty());
/// ```
pub fn lattice(p: &RulePolicy, style: Style) -> Graph {
    let style = style.resolve(&p.name);
    let alg = JoinAlgebra::of(p);
    let verdict = alg.verdict();
    let labels: Vec<String> = (0..alg.len()).map(|i| label(p, &alg, style, i)).collect();
    let mut caption = Vec::new();
    let edges = if alg.order.is_partial_order() {
        alg.order.covers()
    } else {
        closure_covers(&alg, &labels, &mut caption)
    };
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
    if let Some(&(a, b)) = alg.missing.first() {
        caption.push(format!(
            "{} pairs do not promote at all, such as {} and {}.",
            alg.missing.len(),
            labels[a],
            labels[b]
        ));
    }
    let shape = match verdict {
        Verdict::Lattice | Verdict::JoinSemilattice => "lattice",
        Verdict::PartialLattice => "lattice (partial)",
        Verdict::NotALattice(_) => "order",
    };
    Graph {
        title: format!("{} ({}): type promotion {shape}", p.name, p.framework),
        caption,
        nodes: (0..alg.len())
            .map(|i| node(p, &alg, labels[i].clone(), i))
            .collect(),
        edges,
    }
}

/// A node's label: a dtype in the style, a weak type as the policy names it (`i*`), or as
/// TensorFlow's guide does (`i32*`).
fn label(p: &RulePolicy, alg: &JoinAlgebra, style: Style, i: usize) -> String {
    if !alg.weak[i] && DType::parse(&alg.names[i]).ok() == Some(alg.dtypes[i]) {
        style.dtype(alg.dtypes[i])
    } else if style == Style::Tf && alg.weak[i] {
        format!("{}*", style.dtype(p.canonical(alg.dtypes[i])))
    } else {
        alg.names[i].clone()
    }
}

fn node(p: &RulePolicy, alg: &JoinAlgebra, label: String, i: usize) -> GraphNode {
    let d = p.canonical(alg.dtypes[i]);
    let name = &alg.names[i];
    let tooltip = if alg.weak[i] {
        format!("{name}: weakly typed {d} (a Python scalar or weak tensor)")
    } else if d != alg.dtypes[i] {
        format!("{name}: becomes {d} in this mode")
    } else {
        name.clone()
    };
    let kind = match alg.dtypes[i].kind() {
        Kind::Bool => "bool",
        Kind::Unsigned => "unsigned",
        Kind::Signed => "signed",
        Kind::Float => "float",
        Kind::Complex => "complex",
    };
    GraphNode {
        label,
        kind,
        weak: alg.weak[i],
        tooltip,
    }
}

/// A table that is no partial order: the covering relation of its transitive closure, and a
/// caption naming the chains the table breaks.
fn closure_covers(
    alg: &JoinAlgebra,
    labels: &[String],
    caption: &mut Vec<String>,
) -> Vec<(usize, usize)> {
    let n = alg.len();
    let o = &alg.order;
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
    let name = |j: usize| {
        if j < n {
            labels[j].clone()
        } else {
            alg.name(Some(j)).to_string()
        }
    };
    let broken: Vec<String> = (0..n)
        .flat_map(|a| (0..n).map(move |c| (a, c)))
        .filter(|&(a, c)| a != c && leq[a][c] && !o.leq[a][c])
        .map(|(a, c)| {
            let j = alg.join(a, c).map_or("-".to_string(), name);
            format!("{} ∘ {} = {j}", labels[a], labels[c])
        })
        .collect();
    if !broken.is_empty() {
        let shown = broken[..broken.len().min(6)].join(", ");
        let more = if broken.len() > 6 {
            format!(" and {} more", broken.len() - 6)
        } else {
            String::new()
        };
        caption.push(format!(
            "The table is no partial order: arrows chain where it does not, as {shown}{more}."
        ));
    }
    let lt = |a: usize, b: usize| a != b && leq[a][b] && !leq[b][a];
    (0..n)
        .flat_map(|a| (0..n).map(move |b| (a, b)))
        .filter(|&(a, b)| lt(a, b) && !(0..n).any(|c| lt(a, c) && lt(c, b)))
        .collect()
}
