//! The first sections of a policy file: `dtypes`, `defaults`, `canonical`, `[nodes]`, and the
//! promotion graph — `[lattice]` edges or a `[table]` — compiled into the dense join table.

use std::collections::BTreeMap;

use crate::dtype::{DType, Kind};
use crate::error::{suggest, PromoteError};

use super::super::join::{JoinTable, Node};
use super::super::{lattice, spec, table};
use super::Ctx;

/// The dtypes of a policy: which the framework has, which it replaces, its defaults.
pub(crate) struct Dtypes {
    pub(crate) dtypes: Vec<DType>,
    pub(crate) available: [bool; DType::COUNT],
    pub(crate) canonical: [DType; DType::COUNT],
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
        .filter(|k| *k != "!")
        .chain(DType::ALL.iter().flat_map(|d| d.aliases().iter().copied()))
        .collect();
    match suggest(s, cands.into_iter()) {
        Some(x) => format!("unknown node `{s}`; did you mean `{x}`?"),
        None => format!("unknown node `{s}`"),
    }
}

/// `dtypes`, `canonical` and `defaults`.
pub(crate) fn dtypes(ctx: &Ctx, spec: &spec::PolicySpec) -> Result<Dtypes, PromoteError> {
    // without a `dtypes` list, a policy has the classic dtypes (narrow ones are listed)
    let mut available: [bool; DType::COUNT] =
        std::array::from_fn(|i| spec.dtypes.is_none() && DType::ALL[i].is_classic());
    for t in spec.dtypes.iter().flatten() {
        let d = ctx.dtype(t)?;
        if std::mem::replace(&mut available[d.index()], true) {
            return Err(ctx.err(t.span(), format!("`{d}` is listed twice in dtypes")));
        }
    }
    let dtypes = DType::ALL
        .iter()
        .copied()
        .filter(|d| available[d.index()])
        .collect();
    let canonical = canonical(ctx, spec)?;
    let default = |t: &spec::Text, kind: &str, ok: fn(DType) -> bool| {
        let d = canonical[ctx.dtype(t)?.index()];
        if !ok(d) {
            return Err(ctx.err(t.span(), format!("defaults: {d} is not {kind} dtype")));
        }
        // a policy without any dtype of the kind still names a default for it
        let has_kind = DType::ALL.iter().any(|x| available[x.index()] && ok(*x));
        if has_kind && !available[d.index()] {
            return Err(ctx.err(t.span(), format!("defaults: {d} is not in this policy's dtypes: add it there, or pick one of them")));
        }
        Ok(d)
    };
    let d = &spec.defaults;
    Ok(Dtypes {
        dtypes,
        available,
        canonical,
        default_int: default(&d.int, "an integer", |d| d.is_integer())?,
        default_float: default(&d.float, "a floating", |d| d.kind() == Kind::Float)?,
        default_complex: default(&d.complex, "a complex", |d| d.is_complex())?,
    })
}

/// `canonical`: each dtype replaced by one that stays itself (no chains, no swaps).
fn canonical(ctx: &Ctx, spec: &spec::PolicySpec) -> Result<[DType; DType::COUNT], PromoteError> {
    let mut canonical = DType::ALL;
    for (k, v) in &spec.canonical {
        let from = DType::parse(k).map_err(|e| ctx.err(v.span(), format!("canonical: {e}")))?;
        canonical[from.index()] = ctx.dtype(v)?;
    }
    for (k, v) in &spec.canonical {
        let to = canonical[ctx.dtype(v)?.index()];
        if to != ctx.dtype(v)? {
            return Err(ctx.err(v.span(), format!("canonical: `{k}` becomes {}, which is itself replaced by {to}; a canonical dtype must stay itself", v.get_ref())));
        }
    }
    Ok(canonical)
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
        .skip(DType::COUNT)
        .map(|(i, n)| (n.name.clone(), i))
        .collect();
    let (join, join_source) = match (&spec.lattice, &spec.table) {
        (Some(l), None) => (lattice_join(ctx, l, dt, &nodes, &names)?, "lattice"),
        (None, Some(t)) => {
            let jt = table::build(t.cells.get_ref(), nodes.len(), &|s| {
                lookup(&names, s).ok_or_else(|| node_err(&names, s))
            })
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

/// Every dtype of the registry, then the policy's own nodes, then (for a table) the `!` node of
/// a dtype the interface does not name.
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
                "{} nodes: a policy has at most 250 (the dtypes and its weak nodes)",
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

/// The lattice's edges, parsed line by line, and its join table over the policy's own dtypes
/// and nodes; its errors point at the edge line that causes them.
fn lattice_join(
    ctx: &Ctx,
    l: &spec::LatticeSpec,
    dt: &Dtypes,
    nodes: &[Node],
    names: &BTreeMap<String, usize>,
) -> Result<JoinTable, PromoteError> {
    // (lower, upper) and the (line, column) of the upper's name
    let mut edges = Vec::new();
    let mut at = Vec::new();
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
        let col_of = |w: &str| line.find(w).map_or(1, |p| line[..p].chars().count() + 1);
        let lo = lo.trim();
        let a = lookup(names, lo)
            .ok_or_else(|| ctx.err_in(&l.edges, ln, col_of(lo), node_err(names, lo)))?;
        for hi in his.split_whitespace() {
            let b = lookup(names, hi)
                .ok_or_else(|| ctx.err_in(&l.edges, ln, col_of(hi), node_err(names, hi)))?;
            edges.push((a, b));
            at.push((ln, col_of(lo)));
        }
    }
    let inside: Vec<bool> = (0..nodes.len())
        .map(|i| i >= DType::COUNT || dt.available[i])
        .collect();
    let name = |i: usize| nodes[i].name.as_str();
    let list = |v: &[usize]| v.iter().map(|&i| name(i)).collect::<Vec<_>>().join(", ");
    // the first edge line whose nodes are all in `set`, or whose lower node is
    let edge_at = |set: &[usize], both: bool| {
        edges
            .iter()
            .position(|(a, b)| set.contains(a) && (!both || set.contains(b)))
            .map(|k| at[k])
    };
    lattice::build_over(nodes.len(), &edges, l.partial, &inside).map_err(|e| {
        let (pos, msg) = match e {
            lattice::LatticeError::Cycle(c) => (edge_at(&c, true), format!("the lattice has a cycle through {}", list(&c))),
            lattice::LatticeError::NoJoin(a, b) => (edge_at(&[a, b], false), format!("{} and {} have no upper bound: add an edge, or declare `partial = true` if they must not promote", name(a), name(b))),
            lattice::LatticeError::Ambiguous(a, b, m) => (edge_at(&[a, b], false), format!("{} and {} have no least upper bound: {} are all minimal; add an edge to order them", name(a), name(b), list(&m))),
            lattice::LatticeError::NoNode(i) => (None, format!("node {i} does not exist")),
            lattice::LatticeError::TooMany(n) => (None, format!("{n} nodes: a lattice holds at most 254")),
        };
        match pos {
            Some((ln, col)) => ctx.err_in(&l.edges, ln, col, msg),
            None => ctx.err(l.edges.span(), msg),
        }
    })
}
