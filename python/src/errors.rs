//! The library's errors as the package's typed exceptions (defined in `promote/_errors.py`).

use promote::PromoteError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// The exception classes, by the spec's error kind.
struct Classes {
    no_promotion: Py<PyType>,
    overflow: Py<PyType>,
    unsupported: Py<PyType>,
    value: Py<PyType>,
    invalid: Py<PyType>,
    base: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

fn classes(py: Python<'_>) -> PyResult<&Classes> {
    CLASSES.get_or_try_init(py, || {
        let m = py.import("promote._errors")?;
        let get =
            |n: &str| -> PyResult<Py<PyType>> { Ok(m.getattr(n)?.cast_into::<PyType>()?.unbind()) };
        Ok(Classes {
            no_promotion: get("NoPromotion")?,
            overflow: get("Overflow")?,
            unsupported: get("Unsupported")?,
            value: get("ValueRefused")?,
            invalid: get("InvalidCall")?,
            base: get("PromoteError")?,
        })
    })
}

/// The exception for an error kind's name and a message.
pub fn exception(py: Python<'_>, kind: &str, message: &str) -> PyErr {
    let cs = match classes(py) {
        Ok(c) => c,
        Err(e) => return e,
    };
    let cls = match kind {
        "no_promotion" => &cs.no_promotion,
        "overflow" => &cs.overflow,
        "unsupported" => &cs.unsupported,
        "value" => &cs.value,
        _ => &cs.invalid,
    };
    match cls.bind(py).call1((message, kind)) {
        Ok(obj) => PyErr::from_value(obj),
        Err(e) => e,
    }
}

/// A library error as a Python exception carrying the framework's message.
pub fn to_py(e: PromoteError) -> PyErr {
    Python::attach(|py| exception(py, e.kind().name(), &e.to_string()))
}

/// Whether a Python exception is one of the package's refusals (not a bug or a bad argument
/// of another kind).
pub fn is_refusal(py: Python<'_>, e: &PyErr) -> bool {
    classes(py).is_ok_and(|c| e.is_instance(py, c.base.bind(py)))
}
