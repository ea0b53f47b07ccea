//! The orders in which the frameworks combine the elements of a reduction or a scan, where
//! they are neither NumPy's pairwise sum nor PyTorch's cascade (those live in `reduce`).
//!
//! Each order is a function of the lane's values (already in the working type), the
//! identity and the combining function, so `sum`, `prod`, `mean` and `var` share it; what a
//! framework computes in (a half type widened to `f32`, or rounded after every step) is the
//! combining function's business.
//!
//! - XLA on CPU (`jnp.sum`, `jnp.prod`, the sums inside `jnp.mean`/`jnp.var`): its
//!   `TreeReductionRewriter` (window 32) turns a reduction of more than 32 elements into a
//!   `reduce-window` of size and stride 32, the padding split evenly before and after
//!   (`pad=lo_hi`, `lo = pad / 2`), then a reduction of the windows' results, rewritten again
//!   while it is longer than 32; a window, and a reduction of at most 32, is folded in order
//!   from the identity ([`xla_tree`]).
//! - XLA on CPU (`jnp.cumsum`, `jnp.cumprod`: `lax.cumsum` lowers to a `reduce-window` over
//!   the whole axis): its `ReduceWindowRewriter` (base length 16) pads the axis with the
//!   identity to a multiple of 16, scans each row of 16 in order, scans the rows' totals
//!   exclusively (rewritten again while longer than 16) and combines each row's scan with
//!   the total before it ([`xla_scan`]).
//!
//! - PyTorch on CPU (`torch.prod`: `binary_kernel_reduce_vec`): a contiguous lane is read as
//!   blocks of four SIMD vectors of 32 bytes (the AVX2 build), each vector lane a running
//!   product started from the first block; the four vectors are combined pairwise, their
//!   lanes in order onto the identity, then the tail element by element
//!   ([`torch_inner`]).
//!
//! - A dtype's own binary loop called once per element, each partial result stored in the
//!   dtype (NumPy's `reduce`/`accumulate` over ml_dtypes' loops, whose `add` rounds
//!   `float(a) + float(b)` into the narrow dtype): folded in order from the identity
//!   ([`each_step`]), a scan from the first element ([`each_step_scan`]).
//!
//! These hold for any length (they are the rewriters' and loops' own arithmetic; PyTorch
//! splits a reduction over threads only above 32768 elements, which is not reproduced).
//! Recorded by `tools/oracle/record_values_ops_fw.py` (`tests/fixtures/eval-ops/jax*.jsonl.gz`)
//! and `record_values_ops.py` (`torch.jsonl.gz`), replayed by `tests/kernel_ops_values.rs`.

/// XLA's reduction window (`TreeReductionRewriter`'s `reduce_window_size` on CPU).
const XLA_WINDOW: usize = 32;

/// XLA's scan base length (`ReduceWindowRewriter`'s `base_length` on CPU).
const XLA_SCAN_BASE: usize = 16;

/// Folds `vals` in order from `init`.
fn fold<W: Copy>(vals: &[W], init: W, f: impl Fn(W, W) -> W) -> W {
    vals.iter().fold(init, |a, &v| f(a, v))
}

/// Folds `vals` in order from `init`, every partial result passed through `store` (the
/// dtype it is kept in): `store(store(init ∘ v0) ∘ v1) ...`.
pub(crate) fn each_step<W: Copy>(
    vals: &[W],
    init: W,
    f: impl Fn(W, W) -> W,
    store: impl Fn(W) -> W,
) -> W {
    vals.iter().fold(init, |a, &v| store(f(a, v)))
}

/// The inclusive scan of `vals` in order, the first element as it is, every further partial
/// result passed through `store`.
pub(crate) fn each_step_scan<W: Copy>(
    vals: &[W],
    f: impl Fn(W, W) -> W,
    store: impl Fn(W) -> W,
) -> Vec<W> {
    let mut out: Vec<W> = Vec::with_capacity(vals.len());
    for &v in vals {
        let next = out.last().map_or(v, |&a| store(f(a, v)));
        out.push(next);
    }
    out
}

/// The reduction of `vals` in XLA CPU's order (see the module's notes): 40 values are two
/// windows, `[0, 20)` and `[20, 40)` (padding 24, split 12/12), then the two results.
pub(crate) fn xla_tree<W: Copy>(vals: &[W], init: W, f: impl Fn(W, W) -> W + Copy) -> W {
    let n = vals.len();
    if n <= XLA_WINDOW {
        return fold(vals, init, f);
    }
    let padded = n.div_ceil(XLA_WINDOW) * XLA_WINDOW;
    let lo = (padded - n) / 2;
    let windows: Vec<W> = (0..padded / XLA_WINDOW)
        .map(|w| {
            let start = (w * XLA_WINDOW).saturating_sub(lo);
            let end = ((w + 1) * XLA_WINDOW - lo).min(n);
            fold(&vals[start..end], init, f)
        })
        .collect();
    xla_tree(&windows, init, f)
}

/// The inclusive scan of `vals` in XLA CPU's order (see the module's notes).
pub(crate) fn xla_scan<W: Copy>(vals: &[W], init: W, f: impl Fn(W, W) -> W + Copy) -> Vec<W> {
    let n = vals.len();
    if n <= XLA_SCAN_BASE {
        // each output folds its window from the identity: the running fold
        let mut acc = init;
        return vals
            .iter()
            .map(|&v| {
                acc = f(acc, v);
                acc
            })
            .collect();
    }
    let rows = n.div_ceil(XLA_SCAN_BASE);
    let padded: Vec<W> = vals
        .iter()
        .copied()
        .chain(std::iter::repeat_n(init, rows * XLA_SCAN_BASE - n))
        .collect();
    let scanned: Vec<Vec<W>> = padded
        .chunks(XLA_SCAN_BASE)
        .map(|row| xla_scan(row, init, f))
        .collect();
    let totals: Vec<W> = scanned.iter().map(|r| r[XLA_SCAN_BASE - 1]).collect();
    // the exclusive scan of the totals: the identity, then the inclusive scan but its last
    let mut before = vec![init];
    before.extend(xla_scan(&totals, init, f));
    scanned
        .iter()
        .zip(before)
        .flat_map(|(row, b)| row.iter().map(move |&v| f(v, b)))
        .take(n)
        .collect()
}

/// A contiguous lane reduced as PyTorch's `vectorized_inner_reduction` does with vectors of
/// `width` lanes (see the module's notes): `vector` combines the vectors' lanes (its
/// `Vectorized` operator), `scalar` the lanes' results, the output and the tail (its scalar
/// operator, which the compiler may contract differently).
pub(crate) fn torch_inner<W: Copy>(
    vals: &[W],
    init: W,
    (vector, scalar): (impl Fn(W, W) -> W + Copy, impl Fn(W, W) -> W + Copy),
    width: usize,
) -> W {
    let f = vector;
    let block = 4 * width;
    let count = vals.len() / block;
    let mut out = init;
    if count > 0 {
        let mut acc = vals[..block].to_vec();
        for chunk in vals[block..count * block].chunks(block) {
            for (a, &v) in acc.iter_mut().zip(chunk) {
                *a = f(*a, v);
            }
        }
        let lane = |k: usize, l: usize| acc[k * width + l];
        let folded: Vec<W> = (0..width)
            .map(|l| f(f(lane(0, l), lane(1, l)), f(lane(2, l), lane(3, l))))
            .collect();
        out = scalar(out, fold(&folded[1..], folded[0], scalar));
    }
    fold(&vals[count * block..], out, scalar)
}

/// A contiguous lane reduced as Eigen's `InnerMostDimReducer` (the vectorized one, below its
/// tree threshold of 1024 packets) does with packets of `width` lanes: four packet
/// accumulators over the leading blocks of four packets, added onto the first in order
/// (`p0 ∘ p1 ∘ p2 ∘ p3`), the remaining whole packets onto it, the tail element by element
/// onto the identity, then the packet's lanes halved pairwise (`predux`) and combined with the
/// tail's result last. `step` combines in the packets' type (a half packet rounds every
/// step), `wide` in the type `predux` works in (a half packet's is float32), whose result
/// `round` brings back.
pub(crate) fn eigen_inner<W: Copy>(
    vals: &[W],
    init: W,
    width: usize,
    step: impl Fn(W, W) -> W + Copy,
    (wide, round): (impl Fn(W, W) -> W, impl Fn(W) -> W),
) -> W {
    let n = vals.len();
    let combine = |a: &mut [W], b: &[W]| {
        for (x, &y) in a.iter_mut().zip(b) {
            *x = step(*x, y);
        }
    };
    let mut p0 = vec![init; width];
    let mut start = 0;
    if n >= 4 * width {
        let blocks = n / (4 * width) * 4 * width;
        let mut acc = vec![vec![init; width]; 4];
        for block in vals[..blocks].chunks(4 * width) {
            for (k, packet) in block.chunks(width).enumerate() {
                combine(&mut acc[k], packet);
            }
        }
        p0 = acc[0].clone();
        for other in &acc[1..] {
            combine(&mut p0, other);
        }
        start = blocks;
    }
    let whole = n / width * width;
    for packet in vals[start.min(whole)..whole].chunks(width) {
        combine(&mut p0, packet);
    }
    let tail = fold(&vals[whole.max(start)..], init, step);
    while p0.len() > 1 {
        let half = p0.len() / 2;
        let (lo, hi) = p0.split_at_mut(half);
        for (x, &y) in lo.iter_mut().zip(hi.iter()) {
            *x = wide(*x, y);
        }
        p0.truncate(half);
    }
    step(tail, round(p0[0]))
}

/// Eigen's leaf size (`kLeafSize` in `TensorReduction.h`): a tree reduction splits a lane
/// longer than this many packets (or values, without packets) in two.
const EIGEN_LEAF: usize = 1024;

/// The lanes of a packet reduced by halves: `(p0 ∘ p2) ∘ (p1 ∘ p3)` for four lanes (AVX's
/// `predux`/`predux_mul`: the high 128 bits onto the low ones, then within them).
fn predux<W: Copy>(mut p: Vec<W>, f: impl Fn(W, W) -> W) -> W {
    while p.len() > 1 {
        let half = p.len() / 2;
        let (lo, hi) = p.split_at_mut(half);
        for (x, &y) in lo.iter_mut().zip(hi.iter()) {
            *x = f(*x, y);
        }
        p.truncate(half);
    }
    p[0]
}

/// A contiguous lane reduced by Eigen's vectorized `InnerMostDimReducer` at commit f612df27
/// (Paddle's pinned Eigen) with packets of `width` lanes, the lane starting at element
/// `first` of the array. `tree` (a sum: not exactly
/// associative, not stateful): a lane of more than 1024 packets is split at the packet
/// boundary after its middle and each part reduced alone, combined onto the identity in
/// order; a shorter one runs two packet accumulators over pairs of packets, the odd packet
/// onto the first, the second onto the first, the tail element by element onto the
/// identity, then `tail ∘ predux(packet)`. Without `tree` (a product, a mean) one
/// accumulator takes every whole packet.
pub(crate) fn eigen_packets<W: Copy>(
    vals: &[W],
    init: W,
    (width, first): (usize, usize),
    tree: bool,
    f: impl Fn(W, W) -> W + Copy,
) -> W {
    let n = vals.len();
    if tree && n > width * EIGEN_LEAF {
        // the split is aligned on the packets of the whole array (`first` is the lane's start)
        let split = ((first + n.div_ceil(2)).div_ceil(width) * width - first).min(n);
        let left = f(
            init,
            eigen_packets(&vals[..split], init, (width, first), tree, f),
        );
        return f(
            left,
            eigen_packets(&vals[split..], init, (width, first + split), tree, f),
        );
    }
    let whole = n / width * width;
    let pairs = if tree { n / (2 * width) * 2 * width } else { 0 };
    let lanes = |a: &mut Vec<W>, packet: &[W]| {
        for (x, &y) in a.iter_mut().zip(packet) {
            *x = f(*x, y);
        }
    };
    let (mut p, mut q) = (vec![init; width], vec![init; width]);
    for pair in vals[..pairs].chunks(2 * width) {
        lanes(&mut p, &pair[..width]);
        lanes(&mut q, &pair[width..]);
    }
    for packet in vals[pairs..whole].chunks(width) {
        lanes(&mut p, packet);
    }
    if tree {
        lanes(&mut p, &q);
    }
    let tail = fold(&vals[whole..], init, f);
    f(tail, predux(p, f))
}

/// Eigen's `InnerMostDimReducer` for a type without packets (Paddle's complex numbers): a
/// lane of more than 1024 values is split at `n / 2` and each half reduced alone, combined
/// onto the identity in order (`tree`, a sum); else folded in order from the identity.
pub(crate) fn eigen_scalar<W: Copy>(
    vals: &[W],
    init: W,
    tree: bool,
    f: impl Fn(W, W) -> W + Copy,
) -> W {
    let n = vals.len();
    if tree && n > EIGEN_LEAF {
        let left = f(init, eigen_scalar(&vals[..n / 2], init, tree, f));
        return f(left, eigen_scalar(&vals[n / 2..], init, tree, f));
    }
    fold(vals, init, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tree_windows_are_centred() {
        // 40 values, padding 24: windows [0, 20) and [20, 40) — an order a sum of powers of
        // two shows: 2^24 + 1 + ... is absorbed differently per window
        let mut x = vec![1.0f32; 40];
        x[0] = 16_777_216.0;
        // window one: 2^24 then 19 ones (each absorbed), window two: 20 ones = 20
        assert_eq!(xla_tree(&x, 0.0, |a, b| a + b), 16_777_236.0);
        assert_eq!(xla_tree(&x[..32], 0.0, |a, b| a + b), 16_777_216.0);
    }

    #[test]
    fn torch_lanes_then_tail() {
        // width 2: one block of 8 ([1..8]), lanes (1·3)·(5·7) and (2·4)·(6·8), then the tail
        let x: Vec<f64> = (1..=10).map(f64::from).collect();
        let sum = torch_inner(&x, 0.0, (|a, b| a + b, |a, b| a + b), 2);
        assert_eq!(sum, 55.0);
        let mut y = vec![1.0f32; 9];
        y[0] = 16_777_216.0;
        // width 1: accumulators [2^24 + 1 (absorbed), 2, 2, 2], combined (2^24 + 2) + 4, then
        // the tail's 1 (a tie, to even: 2^24 + 8); in order it would stay 2^24
        assert_eq!(
            torch_inner(&y, 0.0, (|a, b| a + b, |a, b| a + b), 1),
            16_777_224.0
        );
    }

    #[test]
    fn eigen_packets_then_tail() {
        // width 2, 11 values: one block of four packets [0, 8), one more packet [8, 10), the
        // tail [10]; a 1 added to 2^24 is absorbed, the ones of the other lane are not
        let mut x = vec![1.0f32; 11];
        x[0] = 16_777_216.0;
        let add = |a: f32, b: f32| a + b;
        let got = eigen_inner(&x, 0.0, 2, add, (add, |v| v));
        let by_hand = {
            let p0 = [
                ((16_777_216.0f32 + 1.0) + 1.0) + 1.0,
                ((1.0f32 + 1.0) + 1.0) + 1.0,
            ];
            let p0 = [p0[0] + 1.0, p0[1] + 1.0]; // the packet [8, 10)
            (0.0 + 1.0) + (p0[0] + p0[1])
        };
        assert_eq!(got, by_hand);
        let add = |a: f64, b: f64| a + b;
        assert_eq!(
            eigen_inner(&[1.0f64, 2.0, 3.0], 0.0, 4, add, (add, |v| v)),
            6.0
        );
    }

    #[test]
    fn each_step_stores_every_partial() {
        // kept in whole numbers: 0.4 + 0.4 + 0.4 is 0 step by step, 1 rounded once
        let round = |v: f64| v.round();
        assert_eq!(each_step(&[0.4, 0.4, 0.4], 0.0, |a, b| a + b, round), 0.0);
        assert_eq!(round(fold(&[0.4, 0.4, 0.4], 0.0, |a, b| a + b)), 1.0);
        // a scan keeps its first element as it is
        let s = each_step_scan(&[0.4, 0.7, 0.4], |a, b| a + b, round);
        assert_eq!(s, vec![0.4, 1.0, 1.0]);
        assert!(each_step_scan(&[], |a: f64, b| a + b, round).is_empty());
    }

    #[test]
    fn scan_adds_the_rows_totals() {
        let x: Vec<f64> = (1..=40).map(f64::from).collect();
        let want: Vec<f64> = (1..=40).map(|k| f64::from(k * (k + 1) / 2)).collect();
        assert_eq!(xla_scan(&x, 0.0, |a, b| a + b), want);
        // the ones after 2^24 are absorbed one by one in the first row, added as a row total
        // in the second and third
        let mut y = vec![1.0f32; 40];
        y[0] = 16_777_216.0;
        let s = xla_scan(&y, 0.0, |a, b| a + b);
        assert_eq!(s[15], 16_777_216.0);
        assert_eq!(s[31], 16_777_232.0);
    }

    #[test]
    fn eigen_two_accumulators_then_tree() {
        // width 2, 7 values: pairs of packets [0, 4) into p and q, packet [4, 6) into p, q onto
        // p, the tail [6] onto the identity, then tail + (p0 + p1)
        let mut x = vec![1.0f32; 7];
        x[0] = 16_777_216.0;
        let add = |a: f32, b: f32| a + b;
        let p = [(16_777_216.0f32 + 1.0) + 1.0, (0.0f32 + 1.0) + 1.0];
        let p = [p[0] + 1.0, p[1] + 1.0];
        assert_eq!(
            eigen_packets(&x, 0.0, (2, 0), true, add),
            (0.0 + 1.0) + (p[0] + p[1])
        );
        // one accumulator: the product's order
        let y: Vec<f64> = (1..=9).map(f64::from).collect();
        let mul = |a: f64, b: f64| a * b;
        assert_eq!(eigen_packets(&y, 1.0, (4, 0), false, mul), 362_880.0);
        // 2049 packets of one value: split after packet 1025
        let z = vec![1.0f64; 2049];
        assert_eq!(eigen_packets(&z, 0.0, (1, 0), true, |a, b| a + b), 2049.0);
        let mut w = vec![1.0f32; 1026];
        w[0] = 16_777_216.0;
        // halves [0, 513) (the ones absorbed) and [513, 1026) (513 ones), 2^24 + 513 a tie to even
        assert_eq!(
            eigen_scalar(&w, 0.0, true, |a, b| a + b),
            16_777_216.0 + 512.0
        );
        assert_eq!(eigen_scalar(&w, 0.0, false, |a, b| a + b), 16_777_216.0);
    }
}
