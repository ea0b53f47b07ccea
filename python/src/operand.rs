//! Python objects → operands, by duck typing (no framework is imported):
//!
//! | object | operand |
//! | --- | --- |
//! | `bool`, `int` (any size), `float`, `complex` values | a Python scalar |
//! | a string | the CLI's compact syntax: `"int8"`, `"~int32"`, `"int8(5)"` |
//! | a dtype (`np.dtype`, `np.int8`, `torch.int8`, `tf.int8`, `jnp.int8`, `int`) | a tensor of it |
//! | anything with `.dtype` and `.shape` (arrays, tensors, NumPy scalars) | a tensor of its dtype; 0-d with its value; weak when `.weak_type` (JAX) or a `WeakTensor` (TF) |
//! | `promote.weak("int32")` | a weakly typed tensor |
//!
//! Dtype objects and strings are remembered by identity (a bounded cache), so the hot path of
//! `result_type(np.int8, np.float32)` is two lookups.

use std::collections::HashMap;
use std::sync::Mutex;

use promote::operand::{Literal, PyInt};
use promote::{DType, Operand, PromoteError};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt as PyLong, PyString, PyType};

use crate::errors::to_py;

/// Hashes an address (already unique) with one multiplication.
#[derive(Default)]
pub struct AddressHasher(u64);

impl std::hash::Hasher for AddressHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_usize(&mut self, n: usize) {
        self.0 = (n as u64 >> 4).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type ByAddress = std::hash::BuildHasherDefault<AddressHasher>;
/// Objects remembered: identity → (the object, kept alive so that its address is not reused; its operand).
type Cache = Mutex<HashMap<usize, (Py<PyAny>, Operand), ByAddress>>;
static CACHE: PyOnceLock<Cache> = PyOnceLock::new();
/// At most this many objects are remembered (dtypes and dtype names are few).
const CACHE_MAX: usize = 1024;

/// The dtype of a remembered strong tensor-like object (a dtype, a scalar type, a name): the
/// hot path of `result_type`.
pub fn cached_strong(py: Python<'_>, obj: &Bound<'_, PyAny>) -> Option<DType> {
    let c = CACHE.get_or_init(py, Default::default).lock().ok()?;
    match c.get(&(obj.as_ptr() as usize)) {
        Some((
            _,
            Operand::Tensor {
                dtype,
                weak: false,
                zero_dim: false,
                ..
            },
        )) => Some(*dtype),
        _ => None,
    }
}

fn cached(py: Python<'_>, obj: &Bound<'_, PyAny>) -> Option<Operand> {
    let c = CACHE.get_or_init(py, Default::default).lock().ok()?;
    c.get(&(obj.as_ptr() as usize)).map(|(_, o)| o.clone())
}

fn remember(py: Python<'_>, obj: &Bound<'_, PyAny>, o: &Operand) {
    if let Ok(mut c) = CACHE.get_or_init(py, Default::default).lock() {
        if c.len() < CACHE_MAX {
            c.insert(obj.as_ptr() as usize, (obj.clone().unbind(), o.clone()));
        }
    }
}

/// A weakly typed operand, by hand: ``promote.weak("int32")`` is what JAX calls a weakly
/// typed int32 (``weak_type=True``) and TensorFlow a ``WeakTensor``; ``value=`` makes it 0-d.
///
/// >>> import promote
/// >>> promote.policy("jax").resolve("add", "int8", promote.weak("int32")).token
/// 'int8'
#[pyclass(module = "promote", frozen, name = "weak")]
pub struct Weak {
    operand: Operand,
}

#[pymethods]
impl Weak {
    #[new]
    #[pyo3(signature = (dtype, value = None))]
    fn new(dtype: &Bound<'_, PyAny>, value: Option<&Bound<'_, PyAny>>) -> PyResult<Weak> {
        let d = dtype_of(dtype)?;
        let value = value.map(literal_of).transpose()?;
        Ok(Weak {
            operand: Operand::Tensor {
                dtype: d,
                weak: true,
                zero_dim: value.is_some(),
                value,
            },
        })
    }

    /// The operand in the compact syntax (``~int32``).
    fn __str__(&self) -> String {
        self.operand.to_string()
    }

    fn __repr__(&self) -> String {
        match &self.operand {
            Operand::Tensor {
                dtype,
                value: Some(v),
                ..
            } => format!("promote.weak('{}', value={v})", dtype.name()),
            o => format!("promote.weak('{}')", o.dtype().map_or("?", |d| d.name())),
        }
    }
}

fn invalid(message: String) -> PyErr {
    to_py(PromoteError::Invalid { message })
}

/// A Python int of any size.
fn int_literal(obj: &Bound<'_, PyAny>) -> PyResult<Literal> {
    let text = match obj.extract::<i64>() {
        Ok(v) => v.to_string(),
        Err(_) => obj.str()?.to_string(),
    };
    PyInt::parse(&text)
        .map(Literal::Int)
        .ok_or_else(|| invalid(format!("cannot read the int {text}")))
}

/// A Python scalar value (bool, int, float, complex; subclasses such as NumPy's float64 count
/// by their Python kind) as a literal.
fn literal_of(obj: &Bound<'_, PyAny>) -> PyResult<Literal> {
    if obj.is_instance_of::<PyBool>() {
        return Ok(Literal::Bool(obj.extract()?));
    }
    if obj.is_instance_of::<PyLong>() {
        return int_literal(obj);
    }
    if obj.is_instance_of::<PyFloat>() {
        return Ok(Literal::Float(obj.extract()?));
    }
    if let Ok(c) = obj.cast::<PyComplex>() {
        return Ok(Literal::Complex(c.real(), c.imag()));
    }
    Err(invalid(format!(
        "{} is not a Python bool, int, float or complex",
        obj.repr()?
    )))
}

/// The Python scalar a 0-d array or tensor holds (`.item()`, or `.numpy().item()` for
/// TensorFlow); `None` where it cannot be read.
fn value_of(obj: &Bound<'_, PyAny>) -> Option<Literal> {
    let item = obj
        .call_method0(intern!(obj.py(), "item"))
        .or_else(|_| {
            obj.call_method0(intern!(obj.py(), "numpy"))
                .and_then(|n| n.call_method0(intern!(obj.py(), "item")))
        })
        .ok()?;
    literal_of(&item).ok()
}

/// Any Python object as an operand (see the module docs).
pub fn operand(obj: &Bound<'_, PyAny>) -> PyResult<Operand> {
    let py = obj.py();
    // Python scalars, by exact type: NumPy's float64 and complex128 scalars subclass Python's
    // float and complex but are 0-d arrays, read below.
    if obj.is_exact_instance_of::<PyBool>()
        || obj.is_exact_instance_of::<PyLong>()
        || obj.is_exact_instance_of::<PyFloat>()
        || obj.is_exact_instance_of::<PyComplex>()
    {
        return Ok(Operand::Literal(literal_of(obj)?));
    }
    if let Some(o) = cached(py, obj) {
        return Ok(o);
    }
    if let Ok(w) = obj.cast::<Weak>() {
        return Ok(w.get().operand.clone());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let o: Operand = s.to_cow()?.parse().map_err(to_py)?;
        remember(py, obj, &o);
        return Ok(o);
    }
    if !obj.is_instance_of::<PyType>() {
        let kind = type_kind(&obj.get_type())?;
        if kind.array_like || obj.hasattr(intern!(py, "shape"))? {
            if let Ok(dt) = obj.getattr(intern!(py, "dtype")) {
                return array_operand(obj, &dt, kind);
            }
        }
    }
    let d = dtype_of(obj)?;
    let o = Operand::tensor(d);
    Ok(o)
}

/// What an object's *type* says, read once per type: asking an instance for a missing
/// attribute raises (and discards) an `AttributeError`, which costs about a microsecond under
/// the stable ABI, more than the rest of `result_type` together; and asking a tensor for its
/// `.shape` builds a new object.
#[derive(Clone, Copy)]
struct TypeKind {
    /// The type defines both `shape` and `dtype` (NumPy arrays, tensors of every framework):
    /// an array without asking the instance.
    array_like: bool,
    /// TensorFlow's `WeakTensor`: weak by its type.
    weak_tensor: bool,
    /// The type defines `weak_type` (JAX arrays) or forwards unknown attributes through
    /// `__getattr__` (JAX tracers): the instance is asked.
    may_have_weak_type: bool,
}

type TypeCache = Mutex<HashMap<usize, (Py<PyType>, TypeKind), ByAddress>>;
static TYPES: PyOnceLock<TypeCache> = PyOnceLock::new();

fn type_kind(ty: &Bound<'_, PyType>) -> PyResult<TypeKind> {
    let py = ty.py();
    let cache = TYPES.get_or_init(py, Default::default);
    let key = ty.as_ptr() as usize;
    if let Some(k) = cache.lock().ok().and_then(|c| c.get(&key).map(|(_, k)| *k)) {
        return Ok(k);
    }
    let kind = TypeKind {
        array_like: ty.hasattr(intern!(py, "shape"))? && ty.hasattr(intern!(py, "dtype"))?,
        weak_tensor: ty.name()?.to_cow()? == "WeakTensor",
        may_have_weak_type: ty.hasattr(intern!(py, "weak_type"))?
            || ty.hasattr(intern!(py, "__getattr__"))?,
    };
    if let Ok(mut c) = cache.lock() {
        if c.len() < CACHE_MAX {
            c.insert(key, (ty.clone().unbind(), kind));
        }
    }
    Ok(kind)
}

/// An array or tensor: dtype, rank, 0-d value and weak flag.
fn array_operand(
    obj: &Bound<'_, PyAny>,
    dt: &Bound<'_, PyAny>,
    kind: TypeKind,
) -> PyResult<Operand> {
    let py = obj.py();
    let dtype = dtype_of(dt)?;
    let ndim: usize = match obj.getattr(intern!(py, "ndim")).and_then(|n| n.extract()) {
        Ok(n) => n,
        Err(_) => obj.getattr(intern!(py, "shape"))?.len()?,
    };
    let weak = kind.weak_tensor
        || (kind.may_have_weak_type
            && match obj.getattr_opt(intern!(py, "weak_type")) {
                Ok(Some(w)) => w.extract::<bool>().unwrap_or(false),
                _ => false,
            });
    let zero_dim = ndim == 0;
    let value = if zero_dim { value_of(obj) } else { None };
    Ok(Operand::Tensor {
        dtype,
        weak,
        zero_dim,
        value,
    })
}

/// A dtype-like object (a name, a NumPy/framework dtype, a scalar type) as a dtype.
pub fn dtype_of(obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    let py = obj.py();
    if let Some(Operand::Tensor { dtype, .. }) = cached(py, obj) {
        return Ok(dtype);
    }
    let d = dtype_uncached(obj)?;
    remember(py, obj, &Operand::tensor(d));
    Ok(d)
}

fn dtype_uncached(obj: &Bound<'_, PyAny>) -> PyResult<DType> {
    let py = obj.py();
    let not_a_dtype = || -> PyResult<PyErr> {
        Ok(invalid(format!(
            "cannot read a dtype from {}: pass a dtype name (\"int8\"), a NumPy or framework dtype, an array or tensor, or a Python scalar",
            obj.repr()?
        )))
    };
    if let Ok(s) = obj.cast::<PyString>() {
        return DType::parse(&s.to_cow()?).map_err(to_py);
    }
    if obj.is_instance_of::<PyType>() {
        // a scalar type (np.int8, ml_dtypes.bfloat16) or a Python type (int is int64, as
        // NumPy reads it): through numpy.dtype
        let np = py.import("numpy")?;
        return match np.call_method1("dtype", (obj,)) {
            Ok(d) => dtype_of(&d),
            Err(_) => Err(not_a_dtype()?),
        };
    }
    // jnp.int8 and the like: a scalar-type object holding its NumPy dtype
    if !obj.hasattr(intern!(py, "shape"))? {
        if let Ok(inner) = obj.getattr(intern!(py, "dtype")) {
            if !inner.is(obj) {
                return dtype_of(&inner);
            }
        }
    }
    if let Ok(name) = obj.getattr(intern!(py, "name")) {
        if let Ok(s) = name.cast::<PyString>() {
            if let Ok(d) = DType::parse(&s.to_cow()?) {
                return Ok(d);
            }
        }
    }
    // torch.int8 and paddle.int8 print as their names
    let text = obj.str()?.to_string();
    DType::parse(&text).map_err(|_| not_a_dtype().unwrap_or_else(|e| e))
}
