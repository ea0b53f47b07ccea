//! A small layered-DAG layout (Sugiyama style) rendered straight to SVG, so that `promote lattice`
//! needs no Graphviz: layers by longest path, dummy nodes on long edges, barycentre sweeps against
//! crossings, neighbour-averaged coordinates, smooth edges with arrowheads.

use std::fmt::Write as _;

/// A node to draw.
#[derive(Clone, Debug)]
pub(crate) struct GNode {
    pub label: String,
    /// `bool`, `unsigned`, `signed`, `float`, `complex`: picks the colour.
    pub kind: &'static str,
    /// Drawn dashed.
    pub weak: bool,
    /// Hover text.
    pub tooltip: String,
}

/// A graph: edges go from the lower node to the upper one.
#[derive(Clone, Debug)]
pub(crate) struct Graph {
    pub title: String,
    pub caption: Vec<String>,
    pub nodes: Vec<GNode>,
    pub edges: Vec<(usize, usize)>,
}

/// Which way the edges point.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Lower nodes on the left (as JAX's docs draw the lattice).
    LeftRight,
    /// Lower nodes at the bottom (a Hasse diagram as textbooks draw it).
    BottomTop,
}

const FONT: f64 = 14.0;
const CHAR_W: f64 = 8.2;
const NODE_H: f64 = 30.0;
const PAD_X: f64 = 14.0;
const LAYER_GAP: f64 = 64.0;
const ORDER_GAP: f64 = 18.0;
const MARGIN: f64 = 24.0;

fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * CHAR_W
}

/// The layout of a graph in rank (along the edges) and order (across them) coordinates.
pub(crate) struct Layout {
    /// Per layer, the vertices (real nodes first numbered as in the graph, then dummies) in order.
    pub layers: Vec<Vec<usize>>,
    pub layer_of: Vec<usize>,
    /// Centre of each vertex along the order axis.
    pub order_pos: Vec<f64>,
    /// Each original edge as its chain of vertices, lower end first.
    pub chains: Vec<Vec<usize>>,
    /// Edges dropped to break cycles.
    pub reversed: usize,
}

/// Break cycles: drop edges that close one (DFS back edges).
fn acyclic(n: usize, edges: &[(usize, usize)]) -> (Vec<(usize, usize)>, usize) {
    let mut adj = vec![Vec::new(); n];
    for (i, &(a, b)) in edges.iter().enumerate() {
        adj[a].push((b, i));
    }
    let mut state = vec![0u8; n];
    let mut back = vec![false; edges.len()];
    for s in 0..n {
        if state[s] != 0 {
            continue;
        }
        let mut stack = vec![(s, 0usize)];
        state[s] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if *k < adj[v].len() {
                let (w, ei) = adj[v][*k];
                *k += 1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => back[ei] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    let kept: Vec<(usize, usize)> = edges
        .iter()
        .zip(&back)
        .filter(|(_, b)| !**b)
        .map(|(e, _)| *e)
        .collect();
    let dropped = back.iter().filter(|b| **b).count();
    (kept, dropped)
}

fn crossings(layers: &[Vec<usize>], down: &[Vec<usize>], pos: &[usize]) -> usize {
    let mut total = 0;
    for layer in layers.iter().skip(1) {
        let es: Vec<(usize, usize)> = layer
            .iter()
            .flat_map(|&v| down[v].iter().map(move |&u| (pos[u], pos[v])))
            .collect();
        for i in 0..es.len() {
            for j in i + 1..es.len() {
                let (a, b) = (es[i], es[j]);
                if (a.0 < b.0 && a.1 > b.1) || (a.0 > b.0 && a.1 < b.1) {
                    total += 1;
                }
            }
        }
    }
    total
}

/// Lay a graph out; `size_order[v]` is each real node's extent across the edges.
pub(crate) fn layout(n: usize, edges: &[(usize, usize)], size_order: &[f64]) -> Layout {
    let (edges, reversed) = acyclic(n, edges);
    let mut preds = vec![Vec::new(); n];
    let mut succs = vec![Vec::new(); n];
    for &(a, b) in &edges {
        preds[b].push(a);
        succs[a].push(b);
    }
    // longest path from the sources, in topological order
    let mut indeg: Vec<usize> = preds.iter().map(|p| p.len()).collect();
    let mut queue: Vec<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    let mut topo = Vec::new();
    while let Some(v) = queue.pop() {
        topo.push(v);
        for &w in &succs[v] {
            indeg[w] -= 1;
            if indeg[w] == 0 {
                queue.push(w);
            }
        }
    }
    let mut layer = vec![0usize; n];
    for &v in &topo {
        for &w in &succs[v] {
            layer[w] = layer[w].max(layer[v] + 1);
        }
    }
    // pull each node up towards its successors where it has room (shorter edges)
    for &v in topo.iter().rev() {
        if let Some(m) = succs[v].iter().map(|&w| layer[w]).min() {
            if m > layer[v] + 1 {
                layer[v] = m - 1;
            }
        }
    }
    // dummies on long edges
    let mut layer_of = layer.clone();
    let mut down: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut chains = Vec::new();
    for &(a, b) in &edges {
        let mut chain = vec![a];
        let mut prev = a;
        for l in layer[a] + 1..layer[b] {
            let d = layer_of.len();
            layer_of.push(l);
            down.push(Vec::new());
            up.push(Vec::new());
            down[d].push(prev);
            up[prev].push(d);
            chain.push(d);
            prev = d;
        }
        down[b].push(prev);
        up[prev].push(b);
        chain.push(b);
        chains.push(chain);
    }
    let nv = layer_of.len();
    let nl = layer_of.iter().max().map_or(0, |m| m + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); nl];
    for v in 0..nv {
        layers[layer_of[v]].push(v);
    }
    // dummies start next to where their chain comes from
    let mut pos = vec![0usize; nv];
    let mut key: Vec<f64> = (0..nv).map(|v| v as f64).collect();
    for vs in &layers {
        for &v in vs {
            if v >= n {
                key[v] = down[v].iter().map(|&u| key[u]).sum::<f64>() + 0.5;
            }
        }
    }
    for vs in layers.iter_mut() {
        vs.sort_by(|a, b| key[*a].total_cmp(&key[*b]));
        for (i, &v) in vs.iter().enumerate() {
            pos[v] = i;
        }
    }
    let mut best = (crossings(&layers, &down, &pos), layers.clone());
    for iter in 0..24 {
        let sweep_down = iter % 2 == 0;
        let order: Vec<usize> = if sweep_down {
            (1..nl).collect()
        } else {
            (0..nl.saturating_sub(1)).rev().collect()
        };
        for l in order {
            let nb = |v: usize| if sweep_down { &down[v] } else { &up[v] };
            let mut keyed: Vec<(f64, usize)> = layers[l]
                .iter()
                .map(|&v| {
                    let ns = nb(v);
                    let bc = if ns.is_empty() {
                        pos[v] as f64
                    } else {
                        ns.iter().map(|&u| pos[u] as f64).sum::<f64>() / ns.len() as f64
                    };
                    (bc, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(pos[a.1].cmp(&pos[b.1])));
            layers[l] = keyed.into_iter().map(|x| x.1).collect();
            for (i, &v) in layers[l].iter().enumerate() {
                pos[v] = i;
            }
        }
        let c = crossings(&layers, &down, &pos);
        if c < best.0 {
            best = (c, layers.clone());
        }
    }
    layers = best.1;
    // coordinates across the edges: start packed, then pull towards neighbours
    let size = |v: usize| if v < n { size_order[v] } else { 0.0 };
    let mut opos = vec![0f64; nv];
    for vs in &layers {
        let total: f64 = vs.iter().map(|&v| size(v)).sum::<f64>()
            + ORDER_GAP * (vs.len().saturating_sub(1)) as f64;
        let mut at = -total / 2.0;
        for &v in vs {
            opos[v] = at + size(v) / 2.0;
            at += size(v) + ORDER_GAP;
        }
    }
    for _ in 0..40 {
        for vs in &layers {
            let want: Vec<f64> = vs
                .iter()
                .map(|&v| {
                    let ns: Vec<usize> = down[v].iter().chain(&up[v]).copied().collect();
                    if ns.is_empty() {
                        opos[v]
                    } else {
                        ns.iter().map(|&u| opos[u]).sum::<f64>() / ns.len() as f64
                    }
                })
                .collect();
            // keep the order and the gaps: forward pass pushes right, backward pass pushes left
            let k = vs.len();
            let mut fwd = want.clone();
            for i in 1..k {
                let min = fwd[i - 1] + (size(vs[i - 1]) + size(vs[i])) / 2.0 + ORDER_GAP;
                fwd[i] = fwd[i].max(min);
            }
            let mut bwd = want.clone();
            for i in (0..k.saturating_sub(1)).rev() {
                let max = bwd[i + 1] - (size(vs[i + 1]) + size(vs[i])) / 2.0 - ORDER_GAP;
                bwd[i] = bwd[i].min(max);
            }
            let mut merged: Vec<f64> = (0..k).map(|i| (fwd[i] + bwd[i]) / 2.0).collect();
            for i in 1..k {
                let min = merged[i - 1] + (size(vs[i - 1]) + size(vs[i])) / 2.0 + ORDER_GAP;
                merged[i] = merged[i].max(min);
            }
            for (i, &v) in vs.iter().enumerate() {
                opos[v] = merged[i];
            }
        }
    }
    Layout {
        layers,
        layer_of,
        order_pos: opos,
        chains,
        reversed,
    }
}

fn kind_colors(kind: &str) -> (&'static str, &'static str) {
    match kind {
        "bool" => ("#eaeef2", "#57606a"),
        "unsigned" => ("#dbeafe", "#1d4ed8"),
        "signed" => ("#cffafe", "#0e7490"),
        "float" => ("#dcfce7", "#15803d"),
        "complex" => ("#f3e8ff", "#7e22ce"),
        _ => ("#ffffff", "#57606a"),
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Render a graph as a standalone SVG document.
pub(crate) fn render(g: &Graph, dir: Direction) -> String {
    let n = g.nodes.len();
    let w: Vec<f64> = g
        .nodes
        .iter()
        .map(|v| text_width(&v.label) + 2.0 * PAD_X)
        .map(|x| x.max(44.0))
        .collect();
    let lr = dir == Direction::LeftRight;
    let size_order: Vec<f64> = (0..n).map(|v| if lr { NODE_H } else { w[v] }).collect();
    let lay = layout(n, &g.edges, &size_order);
    let nl = lay.layers.len();
    // rank axis: each layer as deep as its widest node (LR) or a node's height (BT)
    let depth: Vec<f64> = lay
        .layers
        .iter()
        .map(|vs| {
            vs.iter()
                .filter(|&&v| v < n)
                .map(|&v| if lr { w[v] } else { NODE_H })
                .fold(if lr { 20.0 } else { NODE_H }, f64::max)
        })
        .collect();
    let mut rank_at = vec![0f64; nl];
    let mut acc = 0.0;
    for l in 0..nl {
        rank_at[l] = acc + depth[l] / 2.0;
        acc += depth[l] + LAYER_GAP;
    }
    let rank_len = (acc - LAYER_GAP).max(0.0);
    let omin = (0..lay.order_pos.len())
        .map(|v| lay.order_pos[v] - if v < n { size_order[v] / 2.0 } else { 0.0 })
        .fold(f64::INFINITY, f64::min);
    let omax = (0..lay.order_pos.len())
        .map(|v| lay.order_pos[v] + if v < n { size_order[v] / 2.0 } else { 0.0 })
        .fold(f64::NEG_INFINITY, f64::max);
    let (omin, omax) = if omin.is_finite() {
        (omin, omax)
    } else {
        (0.0, 0.0)
    };
    let title_h = 34.0;
    let caption_h = 20.0 * g.caption.len() as f64 + 34.0;
    let legend_w = 520.0;
    let (gw, gh) = if lr {
        (rank_len, omax - omin)
    } else {
        (omax - omin, rank_len)
    };
    let width = (gw + 2.0 * MARGIN)
        .max(legend_w + 2.0 * MARGIN)
        .max(text_width(&g.title) * 1.1 + 2.0 * MARGIN)
        .max(
            g.caption
                .iter()
                .map(|c| text_width(c) * 0.9)
                .fold(0.0, f64::max)
                + 2.0 * MARGIN,
        );
    let height = gh + 2.0 * MARGIN + title_h + caption_h;
    let x0 = (width - gw) / 2.0;
    let y0 = MARGIN + title_h;
    let xy = |v: usize| -> (f64, f64) {
        let r = rank_at[lay.layer_of[v]];
        let o = lay.order_pos[v] - omin;
        if lr {
            (x0 + r, y0 + o)
        } else {
            (x0 + o, y0 + rank_len - r)
        }
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0}" height="{height:.0}" viewBox="0 0 {width:.0} {height:.0}" font-family="Helvetica, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", esc(&g.title));
    if lay.reversed > 0 {
        let _ = writeln!(
            s,
            "<!-- {} edges closing a cycle are not drawn -->",
            lay.reversed
        );
    }
    s.push_str(
        r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#6e7781"/></marker></defs>
<rect width="100%" height="100%" fill="#ffffff"/>
"##,
    );
    let _ = writeln!(
        s,
        r##"<text x="{:.1}" y="{:.1}" font-size="17" font-weight="bold" fill="#1f2328">{}</text>"##,
        MARGIN,
        MARGIN + 8.0,
        esc(&g.title)
    );
    // edges
    s.push_str("<g fill=\"none\" stroke=\"#8c959f\" stroke-width=\"1.4\">\n");
    for chain in &lay.chains {
        let pts: Vec<(f64, f64)> = chain.iter().map(|&v| xy(v)).collect();
        let (a, b) = (chain[0], chain[chain.len() - 1]);
        // leave the lower node and enter the upper one at their borders
        let mut pts = pts;
        let k = pts.len();
        if lr {
            pts[0].0 += w[a] / 2.0;
            pts[k - 1].0 -= w[b] / 2.0 + 1.5;
        } else {
            pts[0].1 -= NODE_H / 2.0;
            pts[k - 1].1 += NODE_H / 2.0 + 1.5;
        }
        let mut d = format!("M{:.1},{:.1}", pts[0].0, pts[0].1);
        for i in 1..k {
            let (p, q) = (pts[i - 1], pts[i]);
            if lr {
                let mx = (p.0 + q.0) / 2.0;
                let _ = write!(
                    d,
                    " C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
                    mx, p.1, mx, q.1, q.0, q.1
                );
            } else {
                let my = (p.1 + q.1) / 2.0;
                let _ = write!(
                    d,
                    " C{:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
                    p.0, my, q.0, my, q.0, q.1
                );
            }
        }
        let _ = writeln!(
            s,
            r#"<path d="{d}" marker-end="url(#arrow)"><title>{} → {}</title></path>"#,
            esc(&g.nodes[a].label),
            esc(&g.nodes[b].label)
        );
    }
    s.push_str("</g>\n");
    // nodes
    for (v, node) in g.nodes.iter().enumerate() {
        let (cx, cy) = xy(v);
        let (fill, stroke) = kind_colors(node.kind);
        let dash = if node.weak {
            r#" stroke-dasharray="5 3""#
        } else {
            ""
        };
        let _ = writeln!(
            s,
            r##"<g><title>{}</title><rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}" rx="7" fill="{fill}" stroke="{stroke}" stroke-width="1.6"{dash}/><text x="{:.1}" y="{:.1}" font-size="{FONT}" text-anchor="middle" fill="#1f2328"{}>{}</text></g>"##,
            esc(&node.tooltip),
            cx - w[v] / 2.0,
            cy - NODE_H / 2.0,
            w[v],
            NODE_H,
            cx,
            cy + FONT * 0.35,
            if node.weak {
                r#" font-style="italic""#
            } else {
                ""
            },
            esc(&node.label)
        );
    }
    // legend and caption
    let ly = height - caption_h + 12.0;
    let mut lx = MARGIN;
    for (kind, name) in [
        ("bool", "bool"),
        ("unsigned", "unsigned"),
        ("signed", "signed"),
        ("float", "float"),
        ("complex", "complex"),
    ] {
        let (fill, stroke) = kind_colors(kind);
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="{:.1}" width="14" height="14" rx="3" fill="{fill}" stroke="{stroke}"/><text x="{:.1}" y="{:.1}" font-size="12" fill="#59636e">{name}</text>"##,
            ly,
            lx + 19.0,
            ly + 11.5
        );
        lx += 19.0 + name.len() as f64 * 7.0 + 16.0;
    }
    if g.nodes.iter().any(|v| v.weak) {
        let _ = writeln!(
            s,
            r##"<rect x="{lx:.1}" y="{:.1}" width="14" height="14" rx="3" fill="#fff" stroke="#57606a" stroke-dasharray="3 2"/><text x="{:.1}" y="{:.1}" font-size="12" fill="#59636e">weak type</text>"##,
            ly,
            lx + 19.0,
            ly + 11.5
        );
    }
    for (i, c) in g.caption.iter().enumerate() {
        let _ = writeln!(
            s,
            r##"<text x="{:.1}" y="{:.1}" font-size="12.5" fill="#59636e">{}</text>"##,
            MARGIN,
            ly + 34.0 + 20.0 * i as f64,
            esc(c)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_edges_get_dummies_and_cycles_are_broken() {
        // 0 -> 1 -> 2, 0 -> 2: the long edge passes a dummy in layer 1
        let l = layout(3, &[(0, 1), (1, 2), (0, 2)], &[30.0; 3]);
        assert_eq!(l.layers.len(), 3);
        assert_eq!(l.chains[2].len(), 3);
        assert_eq!(l.reversed, 0);
        let c = layout(2, &[(0, 1), (1, 0)], &[30.0; 2]);
        assert_eq!(c.reversed, 1);
    }

    #[test]
    fn nodes_in_a_layer_do_not_overlap() {
        let l = layout(4, &[(0, 1), (0, 2), (0, 3)], &[30.0; 4]);
        let mut ys: Vec<f64> = [1, 2, 3].iter().map(|&v| l.order_pos[v]).collect();
        ys.sort_by(f64::total_cmp);
        assert!(
            ys.windows(2)
                .all(|p| p[1] - p[0] >= 30.0 + ORDER_GAP - 1e-9),
            "{ys:?}"
        );
    }
}
