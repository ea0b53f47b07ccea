//! `promote lattice` over its real output: the recovered Hasse diagram, dot, and a legible SVG.

mod common;
use common::promote;

/// The lattice of JAX's source (jax/_src/dtypes.py, `_type_promotion_lattice`), as
/// `LOWER -> UPPER` lines: the lattice of its docs over the classic dtypes, plus the narrow
/// dtypes as leaves above `i*` (int2, uint2, int4, uint4) and `f*` (float8, float4), with
/// nothing above them (so the whole is a partial lattice).
const JAX: &str = "b1 -> i*
u8 -> u16 i16
u16 -> u32 i32
u32 -> u64 i64
u64 -> f*
i8 -> i16
i16 -> i32
i32 -> i64
i64 -> f*
bf16 -> f32
f16 -> f32
f32 -> f64 c64
f64 -> c128
c64 -> c128
i* -> u8 i8 int2 uint2 s4 uint4
f* -> bf16 f16 c* f8e4m3fn f8e5m2 f8e4m3fnuz f8e5m2fnuz f8e4m3b11fnuz f8e3m4 f8e4m3 f8e8m0fnu f4e2m1fn
c* -> c64";

fn edges(text: &str) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| l.split_once("->"))
        .flat_map(|(a, bs)| {
            bs.split_whitespace()
                .map(move |b| (a.trim().to_string(), b.to_string()))
        })
        .collect();
    v.sort();
    v
}

#[test]
fn jax_hasse_diagram_is_its_lattice() {
    let (code, out, err) = promote(&["lattice", "--policy", "jax-x64", "--format", "edges"]);
    assert_eq!(code, 0);
    assert!(err.is_empty(), "a partial lattice needs no warning: {err}");
    assert_eq!(edges(&out), edges(JAX));
}

#[test]
fn dot_has_every_node_and_edge() {
    // jax-x64: the lattice of JAX above (x32's puts uint32 below int32, one edge fewer)
    let (_, out, _) = promote(&[
        "lattice",
        "--policy",
        "jax-x64",
        "--format",
        "dot",
        "--direction",
        "bt",
    ]);
    assert!(out.starts_with("digraph promote {"));
    assert!(out.contains("rankdir=BT"));
    assert_eq!(out.matches(" -> ").count(), edges(JAX).len());
    assert!(out.contains("label=\"i*\"") && out.contains("dashed"));
}

/// Node boxes of an SVG of ours: (x, y, width, height, label).
fn boxes(svg: &str) -> Vec<(f64, f64, f64, f64, String)> {
    let attr = |s: &str, name: &str| -> f64 {
        let i = s.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        s[i..].split('"').next().unwrap().parse().unwrap()
    };
    svg.lines()
        .filter(|l| l.starts_with("<g><title>"))
        .map(|l| {
            let label = l
                .rsplit_once("</text>")
                .unwrap()
                .0
                .rsplit_once('>')
                .unwrap()
                .1
                .to_string();
            let rect = &l[l.find("<rect").unwrap()..];
            (
                attr(rect, "x"),
                attr(rect, "y"),
                attr(rect, "width"),
                attr(rect, "height"),
                label,
            )
        })
        .collect()
}

fn assert_legible(svg: &str, nodes: usize) {
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    let w = svg
        .split("width=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse::<f64>()
        .unwrap();
    let h = svg
        .split("height=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse::<f64>()
        .unwrap();
    let b = boxes(svg);
    assert_eq!(b.len(), nodes);
    for (i, p) in b.iter().enumerate() {
        assert!(
            p.0 >= 0.0 && p.1 >= 0.0 && p.0 + p.2 <= w && p.1 + p.3 <= h,
            "{} lies outside the picture",
            p.4
        );
        assert!(
            p.2 >= p.4.chars().count() as f64 * 7.0,
            "{} does not fit its box",
            p.4
        );
        for q in &b[i + 1..] {
            let apart =
                p.0 + p.2 <= q.0 || q.0 + q.2 <= p.0 || p.1 + p.3 <= q.1 || q.1 + q.3 <= p.1;
            assert!(apart, "{} and {} overlap", p.4, q.4);
        }
    }
}

#[test]
fn svg_is_legible_for_every_builtin() {
    let (_, policies, _) = promote(&["policies"]);
    for n in policies
        .lines()
        .skip(2)
        .filter_map(|l| l.trim_start_matches('|').split_whitespace().next())
    {
        for dir in ["lr", "bt"] {
            let (code, svg, _) = promote(&["lattice", "--policy", n, "--direction", dir]);
            assert_eq!(code, 0);
            let (_, e, _) = promote(&["lattice", "--policy", n, "--format", "edges"]);
            let nodes = {
                let mut v: Vec<String> = edges(&e).into_iter().flat_map(|(a, b)| [a, b]).collect();
                v.sort();
                v.dedup();
                v.len()
            };
            let b = boxes(&svg);
            assert!(b.len() >= nodes, "{n}: every node of an edge is drawn");
            assert_legible(&svg, b.len());
        }
    }
}

#[test]
fn tables_that_are_not_lattices_say_so() {
    let (code, svg, err) = promote(&["lattice", "--policy", "torch"]);
    assert_eq!(code, 0);
    assert!(err.contains("not a lattice"), "{err}");
    assert!(
        svg.contains("The table is no partial order"),
        "the caption says so"
    );
    let (_, svg, err) = promote(&["lattice", "--policy", "numpy"]);
    assert!(err.contains("not a lattice"), "{err}");
    // ml_dtypes' float8s make NumPy's table not commutative (recorded: resolve-narrow/numpy)
    assert!(svg.contains("not commutative"), "{svg}");
}
