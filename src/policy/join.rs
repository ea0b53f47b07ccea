//! The join structures: a policy's nodes and the dense table of their joins, which the lattice
//! ([`super::lattice`]) or the table (`super::table`) of a policy file compiles into.

use crate::dtype::DType;

/// A dense `n × n` join table over node indices; `None` is "does not promote".
///
/// ```
/// use promote::{builtin, DType, Policy};
/// let jax = builtin("jax").unwrap();
/// assert_eq!(jax.promote_types(DType::Int8, DType::UInt8), Some(DType::Int16));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinTable {
    n: usize,
    cells: Vec<u8>,
}

/// The cell value of "no join".
const NEVER: u8 = u8::MAX;

impl JoinTable {
    pub(crate) fn new(n: usize) -> JoinTable {
        assert!(n < NEVER as usize, "at most 254 nodes");
        JoinTable {
            n,
            cells: vec![NEVER; n * n],
        }
    }
    pub(crate) fn set(&mut self, a: usize, b: usize, v: Option<usize>) {
        self.cells[a * self.n + b] = v.map_or(NEVER, |x| x as u8);
    }
    /// The join of nodes `a` and `b`.
    ///
    /// # Panics
    ///
    /// When `a` or `b` is not below [`JoinTable::len`]: node indices come from the policy that
    /// owns the table, so an out-of-range index is a bug in the caller, and the lookup stays a
    /// plain table load.
    ///
    /// ```
    /// use promote::policy::lattice::build;
    /// let t = build(3, &[(0, 1), (0, 2)], true).unwrap();
    /// assert_eq!(t.join(0, 1), Some(1));
    /// assert_eq!(t.join(1, 2), None);
    /// ```
    #[inline]
    pub fn join(&self, a: usize, b: usize) -> Option<usize> {
        match self.cells[a * self.n + b] {
            NEVER => None,
            x => Some(x as usize),
        }
    }
    /// Number of nodes.
    ///
    /// ```
    /// assert_eq!(promote::policy::lattice::build(3, &[(0, 1), (1, 2)], false).unwrap().len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.n
    }
    /// No nodes.
    ///
    /// ```
    /// assert!(promote::policy::lattice::build(0, &[], false).unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
}

/// A node of a policy's promotion graph.
///
/// ```
/// use promote::{load_file, DType};
/// let jax = load_file(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/policies/jax.toml"))).unwrap();
/// let n = jax.weak_node(DType::Float16);
/// assert!(n.weak);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Node {
    /// Its name (`int8`, `i*`).
    pub name: String,
    /// The dtype a result at this node gets.
    pub dtype: DType,
    /// Whether a result at this node is weakly typed.
    pub weak: bool,
    /// The node stands for a dtype outside the 15 (a table's `!` cell: PyTorch's complex32, OneFlow's int128).
    pub outside: bool,
}

/// One join of the promotion graph, as the resolver sees it.
pub(crate) enum Joined {
    /// The join is this node.
    Node(usize),
    /// The two nodes do not promote.
    Never,
    /// The join is a dtype outside the 15 (PyTorch's complex32).
    Outside,
}
