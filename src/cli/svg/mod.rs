//! A small layered-DAG layout (Sugiyama style) rendered straight to SVG, so that `promote lattice`
//! needs no Graphviz: layers by longest path, dummy nodes on long edges, barycentre sweeps against
//! crossings, neighbour-averaged coordinates, smooth edges with arrowheads.

use std::fmt::Write as _;

use crate::analysis::Graph;

mod layout;
use layout::{layout, Layout};

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
const MARGIN: f64 = 24.0;

fn text_width(s: &str) -> f64 {
    s.chars().count() as f64 * CHAR_W
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

/// Where everything goes: the layout, the node widths, the rank axis, the page.
struct Frame {
    lr: bool,
    /// Each node's width.
    w: Vec<f64>,
    lay: Layout,
    rank_at: Vec<f64>,
    rank_len: f64,
    omin: f64,
    x0: f64,
    y0: f64,
    width: f64,
    height: f64,
    caption_h: f64,
}

impl Frame {
    /// A vertex's centre on the page.
    fn xy(&self, v: usize) -> (f64, f64) {
        let r = self.rank_at[self.lay.layer_of[v]];
        let o = self.lay.order_pos[v] - self.omin;
        if self.lr {
            (self.x0 + r, self.y0 + o)
        } else {
            (self.x0 + o, self.y0 + self.rank_len - r)
        }
    }
}

/// Render a graph as a standalone SVG document.
pub(crate) fn render(g: &Graph, dir: Direction) -> String {
    let f = frame(g, dir);
    let mut s = header(g, &f);
    s.push_str(&edges(g, &f));
    s.push_str(&nodes(g, &f));
    s.push_str(&legend(g, &f));
    s.push_str("</svg>\n");
    s
}

/// Lay the graph out and size the page.
fn frame(g: &Graph, dir: Direction) -> Frame {
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
    Frame {
        lr,
        w,
        lay,
        rank_at,
        rank_len,
        omin,
        x0,
        y0,
        width,
        height,
        caption_h,
    }
}

/// The document's head: size, title, arrowhead, background.
fn header(g: &Graph, f: &Frame) -> String {
    let (width, height, lay) = (f.width, f.height, &f.lay);
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
    s
}

/// The edges, each a smooth path through its chain of vertices.
fn edges(g: &Graph, f: &Frame) -> String {
    let (lr, w, lay) = (f.lr, &f.w, &f.lay);
    let xy = |v: usize| f.xy(v);
    let mut s = String::new();
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
    s
}

/// The nodes: a rounded box each, dashed for a weak type.
fn nodes(g: &Graph, f: &Frame) -> String {
    let w = &f.w;
    let xy = |v: usize| f.xy(v);
    let mut s = String::new();
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
    s
}

/// The colours of the kinds, the weak type's dashes, and the caption.
fn legend(g: &Graph, f: &Frame) -> String {
    let (height, caption_h) = (f.height, f.caption_h);
    let mut s = String::new();
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
    s
}
