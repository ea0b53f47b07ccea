//! [`DType`] ↔ NumPy dtype objects. Results come back as `numpy.dtype`s; bfloat16 as
//! `ml_dtypes`' dtype when that package is installed, otherwise as the name `"bfloat16"`.

use promote::DType;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

static NUMPY_DTYPES: PyOnceLock<Vec<Py<PyAny>>> = PyOnceLock::new();

/// The NumPy dtype object of each of the 15 dtypes (`"bfloat16"` without `ml_dtypes`).
pub fn all(py: Python<'_>) -> PyResult<&Vec<Py<PyAny>>> {
    NUMPY_DTYPES.get_or_try_init(py, || {
        let np = py.import("numpy")?;
        let ml = py.import("ml_dtypes").ok();
        DType::ALL
            .iter()
            .map(|d| -> PyResult<Py<PyAny>> {
                Ok(match (d, &ml) {
                    (DType::BFloat16, Some(m)) => np
                        .call_method1("dtype", (m.getattr("bfloat16")?,))?
                        .unbind(),
                    (DType::BFloat16, None) => d.name().into_pyobject(py)?.into_any().unbind(),
                    _ => np.call_method1("dtype", (d.name(),))?.unbind(),
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
            &format!("NumPy has no {d} dtype: install ml_dtypes (pip install ml_dtypes) for bfloat16 arrays"),
        ));
    }
    Ok(o)
}
