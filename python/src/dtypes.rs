//! [`DType`] ↔ NumPy dtype objects. Results come back as `numpy.dtype`s. The dtypes NumPy lacks
//! (bfloat16, the float8/6/4 family, int4/int2, complex32) come back as `ml_dtypes`' dtypes when
//! that package is installed (importing it registers their names with NumPy), otherwise as
//! their names (`"bfloat16"`).

use promote::DType;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

static NUMPY_DTYPES: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

/// The NumPy dtype object of every dtype the engine knows, by index (the name where neither
/// NumPy nor `ml_dtypes` has it).
pub fn all(py: Python<'_>) -> PyResult<&Vec<Py<PyAny>>> {
    NUMPY_DTYPES.get_or_try_init(py, || {
        let np = py.import("numpy")?;
        // imported for its side effect: NumPy then knows its dtypes by name
        let _ml = py.import("ml_dtypes").ok();
        DType::ALL
            .iter()
            .map(|d| -> PyResult<Py<PyAny>> {
                Ok(match np.call_method1("dtype", (d.name(),)) {
                    Ok(dt) => dt.unbind(),
                    Err(_) => d.name().into_pyobject(py)?.into_any().unbind(),
                })
            })
            .collect()
    })
}

/// A dtype as a Python object (a NumPy dtype, or a name).
#[inline]
pub fn to_py(py: Python<'_>, d: DType) -> PyResult<Bound<'_, PyAny>> {
    Ok(all(py)?[d.index()].bind(py).clone())
}

/// The NumPy dtype of a dtype, failing when NumPy cannot hold it (bfloat16 without `ml_dtypes`).
pub fn numpy_dtype(py: Python<'_>, d: DType) -> PyResult<Bound<'_, PyAny>> {
    let o = to_py(py, d)?;
    if o.is_instance_of::<pyo3::types::PyString>() {
        return Err(crate::errors::exception(
            py,
            "unsupported",
            &format!("NumPy has no {d} dtype: install ml_dtypes (pip install ml_dtypes) for {d} arrays"),
        ));
    }
    Ok(o)
}
