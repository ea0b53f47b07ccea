//! The kernel layer: executes a [`Plan`](crate::Plan) on real data, for all 15 dtypes.
//!
//! * [`arch`]: the SIMD paths (baseline, AVX2, AVX-512) and run-time dispatch;
//! * [`array`](mod@array): typed buffers ([`array::Array`], [`array::View`]) for the 15 dtypes;
//! * [`cast`]: all 15×15 casts with NumPy's semantics (the table is in that module);
//! * [`library_casts`]: where ml_dtypes' and PyTorch's `astype` differ from them (one table);
//! * [`compute`]: the per-op element semantics and chunk kernels;
//! * [`xla`]: XLA's CPU element operations where they differ (the `xla-cpu` semantics);
//! * [`libm`]: the frameworks' own math libraries, ported bit for bit (SLEEF, SVML, MKL VML,
//!   Eigen's packet math, NumPy's SIMD loops, XLA's approximations and complex functions);
//! * [`dispatch`]: the one table from an op's kernel name to its kernel;
//! * [`matmul`]: n-d `matmul` with each framework's order of summation;
//! * [`exec`]: chunked, cast-on-the-fly, parallel execution of a plan;
//! * [`narrow`]: the narrow dtypes (float8/6/4, int4/2, complex32) as data, and their exact casts;
//! * [`value`]: values as text, both ways;
//! * [`data`]: `eval`'s JSON data arrays, straight into typed buffers and back;
//! * [`eval`]: the `promote eval` query interface;
//! * [`npy`]: NumPy `.npy` files for `eval`'s operands and result;
//! * [`ops`]: the unary ops, further binary ops and reductions of issue 12, by NumPy name;
//! * [`bench`](mod@bench): the benchmark cases shared by `promote bench` and `benches/kernels.rs`.
//!
//! ```
//! use promote::{builtin, Call, Policy, DType};
//! use promote::kernel::{array::Array, exec::execute, Semantics};
//! let torch = builtin("torch").unwrap();
//! let plan = torch.resolve(&"floor_divide int8 int8".parse::<Call>().unwrap()).unwrap();
//! let a = Array::from(vec![-7i8, 7, -128, 5]);
//! let b = Array::from(vec![2i8, -2, -1, 0]);
//! let q = execute(&plan, &[a.view(), b.view()], &Semantics::NUMPY).unwrap();
//! assert_eq!(q, Array::from(vec![-4i8, -4, -128, 0]));
//! ```

#[doc(hidden)] // the SIMD path switch: for the crate's tests and benchmarks, not the API
pub mod arch;
pub mod array;
pub mod astype;
#[doc(hidden)]
// the benchmark cases and copy floors: for `benches/` and `promote bench`, not the API
pub mod bench;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod cast;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod compute;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod data;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod dispatch;
pub mod eval;
pub mod exec;
pub mod libm;
pub mod library_casts;
pub(crate) mod matmul;
pub mod narrow;
pub mod npy;
pub mod ops;
#[doc(hidden)] // the vectorized maps: internals, named by the narrow codec's docs
pub mod simd;
pub mod value;
#[doc(hidden)] // internals: public for the doctests of their own rooms, not the API
pub mod xla;

pub use array::{Array, Element, View, ViewMut};
pub use cast::cast_array;
pub use compute::{KernelError, Semantics};
pub use exec::{execute, execute_into};
pub use matmul::matmul;
