//! The layout of a layered DAG (Sugiyama style): cycles broken, layers by longest path, dummy
//! vertices on long edges, barycentre sweeps against crossings, neighbour-averaged coordinates.

/// The gap between two vertices of a layer.
pub(crate) const ORDER_GAP: f64 = 18.0;

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
    let layer = longest_path_layers(n, &edges);
    let g = with_dummies(&edges, layer);
    let layers = ordered_layers(n, &g);
    let size = |v: usize| if v < n { size_order[v] } else { 0.0 };
    let order_pos = coordinates(&layers, &g, size);
    Layout {
        layers,
        layer_of: g.layer_of,
        order_pos,
        chains: g.chains,
        reversed,
    }
}

/// Each node's layer: the longest path from the sources, then each node pulled up towards its
/// successors where it has room (shorter edges).
fn longest_path_layers(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut preds = vec![Vec::new(); n];
    let mut succs = vec![Vec::new(); n];
    for &(a, b) in edges {
        preds[b].push(a);
        succs[a].push(b);
    }
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
    for &v in topo.iter().rev() {
        if let Some(m) = succs[v].iter().map(|&w| layer[w]).min() {
            if m > layer[v] + 1 {
                layer[v] = m - 1;
            }
        }
    }
    layer
}

/// The graph with a dummy vertex wherever an edge crosses a layer.
struct Layered {
    layer_of: Vec<usize>,
    /// Each vertex's neighbours in the layer below, and above.
    down: Vec<Vec<usize>>,
    up: Vec<Vec<usize>>,
    chains: Vec<Vec<usize>>,
}

fn with_dummies(edges: &[(usize, usize)], layer: Vec<usize>) -> Layered {
    let n = layer.len();
    let mut g = Layered {
        layer_of: layer.clone(),
        down: vec![Vec::new(); n],
        up: vec![Vec::new(); n],
        chains: Vec::new(),
    };
    for &(a, b) in edges {
        let mut chain = vec![a];
        let mut prev = a;
        for l in layer[a] + 1..layer[b] {
            let d = g.layer_of.len();
            g.layer_of.push(l);
            g.down.push(vec![prev]);
            g.up.push(Vec::new());
            g.up[prev].push(d);
            chain.push(d);
            prev = d;
        }
        g.down[b].push(prev);
        g.up[prev].push(b);
        chain.push(b);
        g.chains.push(chain);
    }
    g
}

/// The vertices of each layer in order: dummies next to where their chain comes from, then
/// barycentre sweeps down and up, keeping the order with the fewest crossings.
fn ordered_layers(n: usize, g: &Layered) -> Vec<Vec<usize>> {
    let nv = g.layer_of.len();
    let nl = g.layer_of.iter().max().map_or(0, |m| m + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); nl];
    for v in 0..nv {
        layers[g.layer_of[v]].push(v);
    }
    let mut pos = vec![0usize; nv];
    let mut key: Vec<f64> = (0..nv).map(|v| v as f64).collect();
    for vs in &layers {
        for &v in vs {
            if v >= n {
                key[v] = g.down[v].iter().map(|&u| key[u]).sum::<f64>() + 0.5;
            }
        }
    }
    for vs in layers.iter_mut() {
        vs.sort_by(|a, b| key[*a].total_cmp(&key[*b]));
        for (i, &v) in vs.iter().enumerate() {
            pos[v] = i;
        }
    }
    let mut best = (crossings(&layers, &g.down, &pos), layers.clone());
    for iter in 0..24 {
        let sweep_down = iter % 2 == 0;
        let order: Vec<usize> = if sweep_down {
            (1..nl).collect()
        } else {
            (0..nl.saturating_sub(1)).rev().collect()
        };
        for l in order {
            let nb = if sweep_down { &g.down } else { &g.up };
            sort_by_barycentre(&mut layers[l], nb, &mut pos);
        }
        let c = crossings(&layers, &g.down, &pos);
        if c < best.0 {
            best = (c, layers.clone());
        }
    }
    best.1
}

/// Order one layer by the mean position of each vertex's neighbours (`nb`).
fn sort_by_barycentre(layer: &mut Vec<usize>, nb: &[Vec<usize>], pos: &mut [usize]) {
    let mut keyed: Vec<(f64, usize)> = layer
        .iter()
        .map(|&v| {
            let ns = &nb[v];
            let bc = if ns.is_empty() {
                pos[v] as f64
            } else {
                ns.iter().map(|&u| pos[u] as f64).sum::<f64>() / ns.len() as f64
            };
            (bc, v)
        })
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(pos[a.1].cmp(&pos[b.1])));
    *layer = keyed.into_iter().map(|x| x.1).collect();
    for (i, &v) in layer.iter().enumerate() {
        pos[v] = i;
    }
}

/// Coordinates across the edges: start packed, then pull each vertex towards its neighbours.
fn coordinates(layers: &[Vec<usize>], g: &Layered, size: impl Fn(usize) -> f64) -> Vec<f64> {
    let mut opos = vec![0f64; g.layer_of.len()];
    for vs in layers {
        let total: f64 = vs.iter().map(|&v| size(v)).sum::<f64>()
            + ORDER_GAP * (vs.len().saturating_sub(1)) as f64;
        let mut at = -total / 2.0;
        for &v in vs {
            opos[v] = at + size(v) / 2.0;
            at += size(v) + ORDER_GAP;
        }
    }
    for _ in 0..40 {
        for vs in layers {
            let want: Vec<f64> = vs
                .iter()
                .map(|&v| {
                    let ns: Vec<usize> = g.down[v].iter().chain(&g.up[v]).copied().collect();
                    if ns.is_empty() {
                        opos[v]
                    } else {
                        ns.iter().map(|&u| opos[u]).sum::<f64>() / ns.len() as f64
                    }
                })
                .collect();
            for (i, x) in spaced(vs, want, &size).into_iter().enumerate() {
                opos[vs[i]] = x;
            }
        }
    }
    opos
}

/// The wanted positions of one layer, moved apart to keep the order and the gaps: a forward pass
/// pushes right, a backward pass pushes left, their mean is spaced once more.
fn spaced(vs: &[usize], want: Vec<f64>, size: &impl Fn(usize) -> f64) -> Vec<f64> {
    let k = vs.len();
    let gap = |i: usize, j: usize| (size(vs[i]) + size(vs[j])) / 2.0 + ORDER_GAP;
    let mut fwd = want.clone();
    for i in 1..k {
        fwd[i] = fwd[i].max(fwd[i - 1] + gap(i - 1, i));
    }
    let mut bwd = want;
    for i in (0..k.saturating_sub(1)).rev() {
        bwd[i] = bwd[i].min(bwd[i + 1] - gap(i + 1, i));
    }
    let mut merged: Vec<f64> = (0..k).map(|i| (fwd[i] + bwd[i]) / 2.0).collect();
    for i in 1..k {
        merged[i] = merged[i].max(merged[i - 1] + gap(i - 1, i));
    }
    merged
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
