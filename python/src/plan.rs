//! The `Plan` class: what resolving a call decided, and why.

use std::sync::Arc;

use promote::autocast::Autocast;
use promote::policy::RulePolicy;
use promote::{Call, Plan};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::dtypes;

/// The explanation steps of a plan as plain data: one `(rule, detail)` per step.
///
/// The one place that reads `Plan::steps`: when steps become structured, only this changes.
pub fn steps_of(plan: &Plan) -> Vec<(String, String)> {
    plan.steps
        .iter()
        .map(|s| (s.rule().to_string(), s.to_string()))
        .collect()
}

/// What resolving a call decided: the dtype each operand is cast to (``inputs``), the dtype
/// the kernel computes in (``compute``), the result dtype and weak flag, and the rules that
/// decided (``steps``). ``str(plan)`` is the text ``promote explain`` prints.
///
/// >>> import promote
/// >>> plan = promote.policy("numpy1").resolve("add", "uint8", -1)
/// >>> plan.result, plan.token
/// (dtype('int16'), 'int16')
/// >>> all(set(s) >= {"rule", "detail"} for s in plan.steps) and len(plan.steps) > 0
/// True
/// >>> print(str(plan).splitlines()[0])
/// add uint8 -1 gives int16 under numpy1 (numpy 1.26.4).
#[pyclass(module = "promote", frozen, name = "Plan")]
pub struct PyPlan {
    policy: Arc<RulePolicy>,
    layer: Option<Arc<Autocast>>,
    call: Call,
    plan: Plan,
}

impl PyPlan {
    pub fn new(
        policy: Arc<RulePolicy>,
        layer: Option<Arc<Autocast>>,
        call: Call,
        plan: Plan,
    ) -> PyPlan {
        PyPlan {
            policy,
            layer,
            call,
            plan,
        }
    }
}

#[pymethods]
impl PyPlan {
    /// The op (``add``, ``floor_divide``, ...).
    #[getter]
    fn op(&self) -> &'static str {
        self.plan.op.name()
    }
    /// The call in the compact syntax of the CLI and the fixtures (``add int8 1.0``).
    #[getter]
    fn call(&self) -> String {
        self.call.to_string()
    }
    /// The policy's name.
    #[getter]
    fn policy(&self) -> &str {
        &self.policy.name
    }
    /// The result dtype (bool for comparisons; the ``out`` dtype when one is given).
    #[getter]
    fn result<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        dtypes::to_py(py, self.plan.result)
    }
    /// Whether the framework marks the result weakly typed (JAX ``weak_type``, TF ``WeakTensor``).
    #[getter]
    fn weak(&self) -> bool {
        self.plan.weak
    }
    /// The answer of a yes/no op (``can_cast``): ``True`` or ``False``; ``None`` for every other
    /// op, whose answer is its dtype.
    ///
    /// >>> import promote
    /// >>> promote.policy("numpy").resolve("can_cast", "int8", "int16").verdict
    /// True
    #[getter]
    fn verdict(&self) -> Option<bool> {
        self.plan.verdict
    }
    /// The dtype the kernel computes in.
    #[getter]
    fn compute<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        dtypes::to_py(py, self.plan.compute)
    }
    /// The promoted dtype of the operands, before the op's own rule.
    #[getter]
    fn promoted<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        dtypes::to_py(py, self.plan.promoted)
    }
    /// The dtype each operand is cast to before the kernel runs, in operand order.
    #[getter]
    fn inputs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ds = self
            .plan
            .inputs
            .iter()
            .map(|d| dtypes::to_py(py, *d))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, ds)
    }
    /// The rules that decided, in order: ``{"rule": ..., "detail": ...}`` each.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let list = PyList::empty(py);
        for (rule, detail) in steps_of(&self.plan) {
            let d = PyDict::new(py);
            d.set_item("rule", rule)?;
            d.set_item("detail", detail)?;
            list.append(d)?;
        }
        Ok(list)
    }
    /// The answer as the fixtures write it: ``int16``, ``~float32``.
    #[getter]
    fn token(&self) -> String {
        format!(
            "{}{}",
            if self.plan.weak { "~" } else { "" },
            self.plan.result.name()
        )
    }
    /// The explanation, as ``promote explain`` prints it (``--autocast``: the layer's step first).
    fn __str__(&self) -> String {
        promote::analysis::explain_under(&self.policy, self.layer.as_deref(), &self.call)
            .to_string()
    }
    fn __repr__(&self) -> String {
        format!(
            "<Plan {} under {}: {}>",
            self.call, self.policy.name, self.plan
        )
    }
}
