//! The lattice engine: nodes and "directly below" edges in, a dense join table out.
//!
//! The join of two nodes is their least upper bound. Building checks that the graph is
//! acyclic and that no pair has two or more minimal upper bounds; a pair with no upper bound
//! at all is an error too, unless the lattice is declared partial (then the pair does not promote).
//!
//! ```
//! use promote::policy::lattice::build;
//! // b1 below i8 and u8, both below i16
//! let t = build(4, &[(0, 1), (0, 2), (1, 3), (2, 3)], false).unwrap();
//! assert_eq!(t.join(1, 2), Some(3));
//! assert_eq!(t.join(0, 2), Some(2));
//! ```

use super::JoinTable;

/// What is wrong with a lattice.
///
/// ```
/// use promote::policy::lattice::{build, LatticeError};
/// assert!(matches!(build(2, &[(0, 1), (1, 0)], false), Err(LatticeError::Cycle(_))));
/// assert_eq!(build(2, &[], false).unwrap_err(), LatticeError::NoJoin(0, 1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LatticeError {
    /// The edges go round: these nodes form a cycle.
    Cycle(Vec<usize>),
    /// The pair has no upper bound (and the lattice is not partial).
    NoJoin(usize, usize),
    /// The pair has several minimal upper bounds.
    Ambiguous(usize, usize, Vec<usize>),
    /// An edge names a node index that is not below `n`.
    NoNode(usize),
    /// More nodes than a join table holds (at most 254).
    TooMany(usize),
}

/// Build the join table of `n` nodes from `(below, above)` edges; every pair of nodes must
/// have a join unless `partial`.
///
/// ```
/// use promote::policy::lattice::build;
/// let t = build(3, &[(0, 1), (1, 2)], false).unwrap();
/// assert_eq!(t.join(0, 2), Some(2));
/// ```
pub fn build(n: usize, edges: &[(usize, usize)], partial: bool) -> Result<JoinTable, LatticeError> {
    build_over(n, edges, partial, &vec![true; n])
}

/// Like [`build`], but only the pairs of nodes marked in `inside` need a join (a policy's
/// lattice covers its own dtypes and nodes); pairs with a node outside get none.
///
/// ```
/// use promote::policy::lattice::{build_over, LatticeError};
/// // node 3 is isolated: fine when it is outside, an error when it is inside
/// let edges = [(0, 1), (0, 2), (1, 2)];
/// assert!(build_over(4, &edges, false, &[true, true, true, false]).is_ok());
/// assert_eq!(build_over(4, &edges, false, &[true; 4]).unwrap_err(), LatticeError::NoJoin(0, 3));
/// ```
pub fn build_over(
    n: usize,
    edges: &[(usize, usize)],
    partial: bool,
    inside: &[bool],
) -> Result<JoinTable, LatticeError> {
    if n > 254 {
        return Err(LatticeError::TooMany(n));
    }
    let mut up: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        if a.max(b) >= n {
            return Err(LatticeError::NoNode(a.max(b)));
        }
        up[a].push(b);
    }
    let inside = |i: usize| inside.get(i).copied().unwrap_or(false);
    // reach[a][b]: a <= b
    let mut reach = vec![vec![false; n]; n];
    for (a, row) in reach.iter_mut().enumerate() {
        let mut stack = vec![a];
        while let Some(x) = stack.pop() {
            if row[x] {
                continue;
            }
            row[x] = true;
            stack.extend(up[x].iter().copied());
        }
    }
    for a in 0..n {
        for &b in &up[a] {
            if reach[b][a] {
                let cycle: Vec<usize> = (0..n).filter(|&c| reach[b][c] && reach[c][a]).collect();
                return Err(LatticeError::Cycle(cycle));
            }
        }
    }
    let mut table = JoinTable::new(n);
    for a in (0..n).filter(|&a| inside(a)) {
        for b in (a..n).filter(|&b| inside(b)) {
            let ub: Vec<usize> = (0..n)
                .filter(|&c| inside(c) && reach[a][c] && reach[b][c])
                .collect();
            let minimal: Vec<usize> = ub
                .iter()
                .copied()
                .filter(|&c| !ub.iter().any(|&d| d != c && reach[d][c]))
                .collect();
            match minimal.len() {
                0 if partial => {}
                0 => return Err(LatticeError::NoJoin(a, b)),
                1 => {
                    table.set(a, b, Some(minimal[0]));
                    table.set(b, a, Some(minimal[0]));
                }
                _ => return Err(LatticeError::Ambiguous(a, b, minimal)),
            }
        }
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cycles_and_ambiguity_are_named() {
        assert!(matches!(
            build(2, &[(0, 1), (1, 0)], false),
            Err(LatticeError::Cycle(_))
        ));
        // 0 and 1 both below 2 and 3, which are incomparable
        let e = build(4, &[(0, 2), (0, 3), (1, 2), (1, 3)], false).unwrap_err();
        assert_eq!(e, LatticeError::Ambiguous(0, 1, vec![2, 3]));
        assert_eq!(
            build(2, &[], false).unwrap_err(),
            LatticeError::NoJoin(0, 1)
        );
        assert_eq!(build(2, &[], true).unwrap().join(0, 1), None);
    }

    #[test]
    fn bad_indices_and_sizes_are_errors_not_panics() {
        assert_eq!(
            build(2, &[(0, 5)], false).unwrap_err(),
            LatticeError::NoNode(5)
        );
        assert_eq!(
            build(300, &[], true).unwrap_err(),
            LatticeError::TooMany(300)
        );
    }
}
