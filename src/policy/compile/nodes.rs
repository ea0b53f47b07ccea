//! The first sections of a policy file: `dtypes`, `defaults`, `canonical`, `[nodes]`, and the
//! promotion graph — `[lattice]` edges or a `[table]` — compiled into the dense join table.

use std::collections::BTreeMap;

use crate::dtype::DType;
use crate::error::{suggest, PromoteError};

use super::super::join::{JoinTable, Node};
use super::super::{lattice, spec, table};
use super::Ctx;

/// The dtypes of a policy: which the framework has, which it replaces, its defaults.
pub(crate) struct Dtypes {
    pub(crate) dtypes: Vec<DType>,
    pub(crate) available: [bool; 15],
    pub(crate) canonical: [DType; 15],
    pub(crate) default_int: DType,
    pub(crate) default_float: DType,
    pub(crate) default_complex: DType,
}

impl Dtypes {
    /// A dtype named in the file, where `default_int` / `default_float` / `default_complex`
    /// stand for the policy's defaults.
    pub(crate) fn target(&self, ctx: &Ctx, t: &spec::Text) -> Result<DType, PromoteError> {
        match t.get_ref().as_str() {
            "default_int" => Ok(self.default_int),
            "default_float" => Ok(self.default_float),
            "default_complex" => Ok(self.default_complex),
            _ => ctx.dtype(t),
        }
    }
}

/// The nodes of the promotion graph, their names, and the join table.
pub(crate) struct Graph {
    pub(crate) nodes: Vec<Node>,
    pub(crate) join: JoinTable,
    pub(crate) join_source: &'static str,
    /// The nodes beyond the 15 dtypes, by name.
    names: BTreeMap<String, usize>,
}

impl Graph {
    /// The node of a name: a dtype or one of the policy's own nodes.
    pub(crate) fn lookup(&self, s: &str) -> Option<usize> {
        lookup(&self.names, s)
    }

    /// The error message of an unknown node name, with a suggestion.
    pub(crate) fn node_err(&self, s: &str) -> String {
        node_err(&self.names, s)
    }
}

fn lookup(names: &BTreeMap<String, usize>, s: &str) -> Option<usize> {
    names
        .get(s)
        .copied()
        .or_else(|| DType::parse(s).ok().map(|d| d.index()))
}

fn node_err(names: &BTreeMap<String, usize>, s: &str) -> String {
    let cands: Vec<&str> = names
        .keys()
        .map(|k| k.as_str())
        .chain(DType::ALL.iter().map(|d| d.name()))
        .collect();
    match suggest(s, cands.into_iter()) {
        Some(x) => format!("unknown node `{s}`; did you mean `{x}`?"),
        None => format!("unknown node `{s}`"),
    }
}

/// `dtypes`, `canonical` and `defaults`.
pub(crate) fn dtypes(ctx: &Ctx, spec: &spec::PolicySpec) -> Result<Dtypes, PromoteError> {
    let mut available = [spec.dtypes.is_none(); 15];
    for t in spec.dtypes.iter().flatten() {
        let d = ctx.dtype(t)?;
        available[d.index()] = true;
    }
    let dtypes = DType::ALL
        .iter()
        .copied()
        .filter(|d| available[d.index()])
        .collect();
    let mut canonical = DType::ALL;
    for (k, v) in &spec.canonical {
        let from = DType::parse(k).map_err(|e| ctx.err(v.span(), format!("canonical: {e}")))?;
        canonical[from.index()] = ctx.dtype(v)?;
    }
    let default_int = canonical[ctx.dtype(&spec.defaults.int)?.index()];
    let default_float = canonical[ctx.dtype(&spec.defaults.float)?.index()];
    let default_complex = canonical[ctx.dtype(&spec.defaults.complex)?.index()];
    Ok(Dtypes {
        dtypes,
        available,
        canonical,
        default_int,
        default_float,
        default_complex,
    })
}

/// `[nodes]` and `[lattice]` or `[table]`: the promotion graph.
pub(crate) fn graph(
    ctx: &Ctx,
    spec: &spec::PolicySpec,
    dt: &Dtypes,
) -> Result<Graph, PromoteError> {
    let nodes = nodes(ctx, spec, dt)?;
    let names: BTreeMap<String, usize> = nodes
        .iter()
        .enumerate()
        .skip(15)
        .map(|(i, n)| (n.name.clone(), i))
        .collect();
    let (join, join_source) = match (&spec.lattice, &spec.table) {
        (Some(l), None) => (lattice_join(ctx, l, &nodes, &names)?, "lattice"),
        (None, Some(t)) => {
            let jt = table::build(t.cells.get_ref(), nodes.len(), &|s| lookup(&names, s))
                .map_err(|(l, c, m)| ctx.err_in(&t.cells, l, c, m))?;
            (jt, "table")
        }
        _ => return Err(ctx.err(0..0, "a policy needs exactly one of [lattice] and [table]")),
    };
    Ok(Graph {
        nodes,
        join,
        join_source,
        names,
    })
}

/// The 15 dtypes, then the policy's own nodes, then (for a table) the `!` node of a dtype
/// outside the 15.
fn nodes(ctx: &Ctx, spec: &spec::PolicySpec, dt: &Dtypes) -> Result<Vec<Node>, PromoteError> {
    let mut nodes: Vec<Node> = DType::ALL
        .iter()
        .map(|d| Node {
            name: d.name().into(),
            dtype: *d,
            weak: false,
            outside: false,
        })
        .collect();
    for (name, ns) in &spec.nodes {
        if DType::parse(name).is_ok() {
            return Err(ctx.err(ns.dtype.span(), format!("node `{name}` has a dtype's name; weak nodes need names of their own, such as `i*`")));
        }
        nodes.push(Node {
            name: name.clone(),
            dtype: dt.target(ctx, &ns.dtype)?,
            weak: ns.weak,
            outside: false,
        });
    }
    if nodes.len() > 250 {
        return Err(ctx.err(
            0..0,
            format!(
                "{} nodes: a policy has at most 250 (the 15 dtypes and its weak nodes)",
                nodes.len()
            ),
        ));
    }
    if spec.table.is_some() {
        nodes.push(Node {
            name: "!".into(),
            dtype: DType::Bool,
            weak: false,
            outside: true,
        });
    }
    Ok(nodes)
}

/// The lattice's edges, parsed line by line, and its join table.
fn lattice_join(
    ctx: &Ctx,
    l: &spec::LatticeSpec,
    nodes: &[Node],
    names: &BTreeMap<String, usize>,
) -> Result<JoinTable, PromoteError> {
    let mut edges = Vec::new();
    for (ln, line) in l.edges.get_ref().lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        if line.trim().is_empty() {
            continue;
        }
        let (lo, his) = line.split_once("->").ok_or_else(|| {
            ctx.err_in(
                &l.edges,
                ln,
                1,
                "an edge line is `LOWER -> UPPER [UPPER ...]`",
            )
        })?;
        let col_of = |w: &str| line.find(w).map_or(1, |p| p + 1);
        let lo = lo.trim();
        let a = lookup(names, lo)
            .ok_or_else(|| ctx.err_in(&l.edges, ln, col_of(lo), node_err(names, lo)))?;
        for hi in his.split_whitespace() {
            let b = lookup(names, hi)
                .ok_or_else(|| ctx.err_in(&l.edges, ln, col_of(hi), node_err(names, hi)))?;
            edges.push((a, b));
        }
    }
    let name = |i: usize| nodes[i].name.as_str();
    let list = |v: &[usize]| v.iter().map(|&i| name(i)).collect::<Vec<_>>().join(", ");
    lattice::build(nodes.len(), &edges, l.partial).map_err(|e| {
        let msg = match e {
            lattice::LatticeError::Cycle(c) => format!("the lattice has a cycle through {}", list(&c)),
            lattice::LatticeError::NoJoin(a, b) => format!("{} and {} have no upper bound: add an edge, or declare `partial = true` if they must not promote", name(a), name(b)),
            lattice::LatticeError::Ambiguous(a, b, m) => format!("{} and {} have no least upper bound: {} are all minimal; add an edge to order them", name(a), name(b), list(&m)),
        };
        ctx.err(l.edges.span(), msg)
    })
}
