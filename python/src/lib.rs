//! The Python binding of `promote`: a thin layer that converts Python objects to the library's
//! operands and calls, and the library's plans, errors and arrays back to Python.
//!
//! * [`operand`]: any Python object a user has in hand → an [`promote::Operand`] (duck typing);
//! * [`dtypes`]: [`promote::DType`] ↔ NumPy dtype objects;
//! * [`plan`]: the `Plan` class;
//! * [`errors`]: [`promote::PromoteError`] → the typed exceptions of `promote._errors`;
//! * [`eval`]: `Policy.eval`, the kernels on NumPy buffers.

// PromoteError is the library's type (128 bytes); closures passing it along are not the place to box it.
#![allow(clippy::result_large_err)]

mod dtypes;
mod errors;
mod eval;
mod operand;
mod plan;

use std::sync::{Arc, OnceLock};

use promote::autocast::{self, Autocast};
use promote::policy::{self, RulePolicy};
use promote::{Call, DType, Op, Operand, Policy as _};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use errors::to_py;

/// A framework's promotion rules. Get one with `promote.policy("torch")`, or under a
/// mixed-precision autocast layer with `promote.policy("torch", autocast="torch-cpu-bf16")`.
#[pyclass(module = "promote", frozen, name = "Policy")]
pub struct PyPolicy {
    pub(crate) inner: Arc<RulePolicy>,
    /// The autocast layer over it, if any: every method resolves under it.
    layer: Option<Arc<Autocast>>,
    /// `result_type` of every op over two strong tensors, filled on first use.
    pairs: OnceLock<Vec<u8>>,
}

/// A cell of [`PyPolicy::pairs`] that the table does not answer (an error: resolve it to get
/// the message).
const NO_PAIR: u8 = u8::MAX;

impl PyPolicy {
    fn new(inner: Arc<RulePolicy>, layer: Option<Arc<Autocast>>) -> PyPolicy {
        PyPolicy {
            inner,
            layer,
            pairs: OnceLock::new(),
        }
    }

    /// Resolve a call under the layer, if any (the library's one choice between them).
    fn plan_of(&self, call: &Call) -> Result<promote::Plan, promote::PromoteError> {
        autocast::resolve_under(&*self.inner, self.layer.as_deref(), call)
    }

    /// The result dtype and weak flag of a call (the policy's fast path without a layer).
    fn result_of(&self, call: &Call) -> Result<(DType, bool), promote::PromoteError> {
        match self.layer {
            None => self.inner.result(call),
            Some(_) => self.plan_of(call).map(|p| (p.result, p.weak)),
        }
    }

    /// The result dtype of `op` over two strong tensors, from the table.
    fn pair(&self, op: Op, a: DType, b: DType) -> Option<DType> {
        let t = self.pairs.get_or_init(|| {
            let mut t = vec![NO_PAIR; Op::all().len() * DType::COUNT * DType::COUNT];
            for op in Op::all().into_iter().filter(|o| o.arity() == 2) {
                for x in DType::ALL {
                    for y in DType::ALL {
                        let call =
                            Call::new(op, vec![Operand::tensor(x), Operand::tensor(y)], None);
                        if let Ok((d, _)) = call.and_then(|c| self.inner.result(&c)) {
                            t[(op.index() * DType::COUNT + x.index()) * DType::COUNT + y.index()] = d.index() as u8;
                        }
                    }
                }
            }
            t
        });
        match t
            .get((op.index() * DType::COUNT + a.index()) * DType::COUNT + b.index())
            .copied()
            .unwrap_or(NO_PAIR)
        {
            NO_PAIR => None,
            d => Some(DType::ALL[d as usize]),
        }
    }
}

/// Parse an op name, as a Python exception.
fn op_of(op: &str) -> PyResult<Op> {
    Op::parse(op).map_err(to_py)
}

/// The call of `op` over Python operands, `out` a dtype-like object or `None`.
fn call_of(
    op: &str,
    operands: &Bound<'_, PyTuple>,
    out: Option<&Bound<'_, PyAny>>,
) -> PyResult<Call> {
    let op = op_of(op)?;
    let ops = operands
        .iter()
        .map(|o| operand::operand(&o))
        .collect::<PyResult<Vec<Operand>>>()?;
    let out = match out {
        None => None,
        Some(o) if o.is_none() => None,
        Some(o) => Some(operand::dtype_of(o)?),
    };
    Call::new(op, ops, out).map_err(to_py)
}

#[pymethods]
impl PyPolicy {
    /// The policy's name (`torch`, `jax-x64`, ...).
    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// The framework and version it reproduces (`torch 2.15.0`).
    #[getter]
    fn framework(&self) -> &str {
        self.inner.framework()
    }

    /// The name of the autocast layer over the policy (``torch-cpu-bf16``), or ``None``.
    ///
    /// >>> import promote
    /// >>> promote.policy("torch", autocast="torch-cpu-bf16").autocast
    /// 'torch-cpu-bf16'
    /// >>> promote.policy("torch").autocast is None
    /// True
    #[getter]
    fn autocast(&self) -> Option<&str> {
        self.layer.as_deref().map(|l| l.name.as_str())
    }

    /// The dtypes the framework has, as NumPy dtypes (names where NumPy has none).
    #[getter]
    fn dtypes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ds = self
            .inner
            .dtypes()
            .iter()
            .map(|d| dtypes::to_py(py, *d))
            .collect::<PyResult<Vec<_>>>()?;
        PyList::new(py, ds)
    }

    /// The result dtype of `op` over the operands, as a NumPy dtype.
    ///
    /// Operands are dtype names, NumPy dtypes and scalar types, arrays and scalars of NumPy
    /// and the frameworks, Python scalars, and ``promote.weak(...)``.
    ///
    /// >>> import numpy as np, promote
    /// >>> torch = promote.policy("torch")
    /// >>> torch.result_type(np.int8, np.uint8)
    /// dtype('int16')
    /// >>> torch.result_type("int8", 1.0)
    /// dtype('float32')
    /// >>> promote.policy("numpy").result_type(np.ones(3, np.uint8), 300)
    /// Traceback (most recent call last):
    /// ...
    /// promote._errors.Overflow: numpy: Python int 300 does not fit uint8 in add; pass it as an array with an explicit dtype, or cast the other operand to a wider dtype
    #[pyo3(signature = (*operands, op = "add"))]
    fn result_type<'py>(
        &self,
        py: Python<'py>,
        operands: &Bound<'py, PyTuple>,
        op: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let op = op_of(op)?;
        if operands.len() == 2 {
            // the hot path: two remembered dtypes (np.int8, np.dtype("float32"), "int8")
            let a = operand::cached_strong(py, &operands.get_item(0)?);
            let b = operand::cached_strong(py, &operands.get_item(1)?);
            let table = a.zip(b).filter(|_| self.layer.is_none());
            if let Some(d) = table.and_then(|(a, b)| self.pair(op, a, b)) {
                return dtypes::to_py(py, d);
            }
        }
        let call = call_of(op.name(), operands, None)?;
        let (d, _weak) = self.result_of(&call).map_err(to_py)?;
        dtypes::to_py(py, d)
    }

    /// Resolve a call into a :class:`Plan`: result dtype, weak flag, compute dtype, the cast of
    /// each operand and the steps that decided.
    ///
    /// ``out`` is the dtype of an existing destination (``out=`` or an in-place op).
    /// ``errors="return"`` returns a refusal (a :class:`PromoteError`) instead of raising it.
    ///
    /// >>> import promote
    /// >>> plan = promote.policy("torch").resolve("divide", "int8", "int8")
    /// >>> plan.compute, plan.inputs, plan.result, plan.weak
    /// (dtype('float32'), [dtype('float32'), dtype('float32')], dtype('float32'), False)
    /// >>> promote.policy("jax").resolve("add", "int8", 1.0).token
    /// '~float32'
    /// >>> promote.policy("numpy").resolve("add", "uint8", 300, errors="return").token
    /// '!overflow'
    ///
    /// Under an autocast layer the plan's first step is the autocast's, naming the op's list:
    ///
    /// >>> bf16 = promote.policy("torch", autocast="torch-cpu-bf16")
    /// >>> plan = bf16.resolve("matmul", "float32", "float32")
    /// >>> plan.token, plan.steps[0]["rule"]
    /// ('bfloat16', 'autocast')
    /// >>> print(plan.steps[0]["detail"])  # doctest: +ELLIPSIS
    /// matmul is on the lower_precision list of torch-cpu-bf16: operand 1 float32 -> bfloat16, operand 2 float32 -> bfloat16 (aten/src/ATen/autocast_mode.cpp ...)
    /// >>> bf16.resolve("matmul", "float32", "float64", errors="return").token  # float64 is left alone
    /// '!no_promotion'
    #[pyo3(signature = (op, *operands, out = None, errors = "raise"))]
    fn resolve<'py>(
        &self,
        py: Python<'py>,
        op: &str,
        operands: &Bound<'py, PyTuple>,
        out: Option<&Bound<'py, PyAny>>,
        errors: &str,
    ) -> PyResult<Bound<'py, PyAny>> {
        let returning = match errors {
            "raise" => false,
            "return" => true,
            x => {
                return Err(to_py(promote::PromoteError::Invalid {
                    message: format!("errors is \"raise\" or \"return\", not {x:?}"),
                }))
            }
        };
        let r = call_of(op, operands, out).and_then(|call| match self.plan_of(&call) {
            Ok(p) => Ok(plan::PyPlan::new(self.inner.clone(), self.layer.clone(), call, p)
                .into_pyobject(py)?
                .into_any()),
            Err(e) => Err(to_py(e)),
        });
        match r {
            Err(e) if returning && errors::is_refusal(py, &e) => {
                Ok(e.into_value(py).into_bound(py).into_any())
            }
            r => r,
        }
    }

    /// Run `op` on NumPy arrays with this policy's promotion and element semantics.
    ///
    /// The inputs are read in place (C-contiguous arrays of native byte order; others are
    /// copied once); the result is a new array of the resolved dtype, or a NumPy scalar when
    /// it has no dimensions. Shapes must be equal, or one operand a single element (a Python
    /// scalar, a 0-d array). The GIL is released while the kernel runs.
    ///
    /// >>> import numpy as np, promote
    /// >>> promote.policy("torch").eval("add", np.array([127, -128], np.int8), np.array([1, 255], np.uint8))
    /// array([128, 127], dtype=int16)
    /// >>> promote.policy("numpy").eval("floor_divide", np.array([-7, 7], np.int8), 2)
    /// array([-4,  3], dtype=int8)
    ///
    /// Under an autocast layer the data is cast first, as the framework casts it (here
    /// 1.00048828125 rounds to 1 in float16):
    ///
    /// >>> a = np.array([1.00048828125, 3.0], np.float32)
    /// >>> promote.policy("torch", autocast="torch-cpu-f16").eval("matmul", a, np.ones(2, np.float32))
    /// np.float16(4.0)
    #[pyo3(signature = (op, *operands))]
    fn eval<'py>(
        &self,
        py: Python<'py>,
        op: &str,
        operands: &Bound<'py, PyTuple>,
    ) -> PyResult<Bound<'py, PyAny>> {
        eval::eval(py, &self.inner, self.layer.as_deref(), op_of(op)?, operands)
    }

    /// Answer one JSONL query line of the machine interface (``promote resolve``), as a line.
    ///
    /// >>> import promote
    /// >>> promote.policy("jax").query('{"op": "add", "operands": [{"dtype": "int8"}, {"scalar": "float", "value": "1.0"}]}')
    /// '{"dtype":"float32","weak":true}'
    ///
    /// A query's ``"autocast"`` key resolves it under that layer (and overrides the policy's):
    ///
    /// >>> promote.policy("torch").query('{"op": "matmul", "operands": [{"dtype": "float32"}, {"dtype": "float32"}], "autocast": "torch-cpu-f16"}')
    /// '{"dtype":"float16","weak":false}'
    fn query(&self, line: &str) -> String {
        promote::query::answer_line_under(&*self.inner, self.layer.as_deref(), line)
    }

    /// The answer token of a call in the compact syntax (``"add int8 300 out=int8"``), as the
    /// fixtures write it: ``int16``, ``~float32``, ``!overflow``.
    ///
    /// >>> import promote
    /// >>> [promote.policy("numpy").token(c) for c in ["add uint8 300", "add uint8 int8(-1)"]]
    /// ['!overflow', 'int16']
    fn token(&self, call: &str) -> String {
        self.token_of(call)
    }

    /// The answer tokens of many calls in the compact syntax (one per call).
    fn tokens(&self, py: Python<'_>, calls: Vec<String>) -> Vec<String> {
        py.detach(|| calls.iter().map(|c| self.token_of(c)).collect())
    }

    fn __repr__(&self) -> String {
        let with = match &self.layer {
            Some(l) => format!(", autocast='{}'", l.name),
            None => String::new(),
        };
        format!(
            "promote.policy('{}'{with})  # {}",
            self.inner.name(),
            self.inner.framework()
        )
    }
}

impl PyPolicy {
    fn token_of(&self, call: &str) -> String {
        token_text(call.parse::<Call>().and_then(|c| self.result_of(&c)))
    }
}

fn token_text(r: Result<(DType, bool), promote::PromoteError>) -> String {
    match r {
        Ok((d, w)) => format!("{}{}", if w { "~" } else { "" }, d.name()),
        Err(e) => format!("!{}", e.kind().name()),
    }
}

/// The names of the built-in policies.
///
/// >>> import promote
/// >>> "torch" in promote.policies() and "numpy1" in promote.policies()
/// True
#[pyfunction]
fn policies() -> Vec<&'static str> {
    policy::BUILTIN.to_vec()
}

/// The names of the built-in autocast layers (mixed precision; ``promote autocasts``).
///
/// >>> import promote
/// >>> "torch-cpu-bf16" in promote.autocasts() and "paddle-o1-f16" in promote.autocasts()
/// True
#[pyfunction]
fn autocasts() -> Vec<&'static str> {
    autocast::AUTOCASTS.to_vec()
}

/// A built-in policy by name, or a policy file of your own (``path=``, TOML; see
/// ``policies/README.md``); ``autocast=`` puts a mixed-precision layer over it: a built-in
/// name (``promote.autocasts()``) or an autocast file of your own (``.toml``).
///
/// >>> import promote
/// >>> promote.policy("torch").framework
/// 'torch 2.15.0'
/// >>> str(promote.policy("torch", autocast="torch-cpu-bf16").result_type("float32", "float32", op="matmul"))
/// 'bfloat16'
/// >>> promote.policy("torch", autocast="torch-cpu-bf61")
/// Traceback (most recent call last):
/// ...
/// promote._errors.InvalidCall: invalid query: unknown autocast `torch-cpu-bf61`; did you mean `torch-cpu-bf16`? ...
#[pyfunction(name = "policy")]
#[pyo3(signature = (name = None, *, path = None, autocast = None))]
fn policy_(
    name: Option<&str>,
    path: Option<std::path::PathBuf>,
    autocast: Option<&str>,
) -> PyResult<PyPolicy> {
    let inner = match (name, path) {
        (Some(n), None) => policy::builtin(n).map_err(to_py)?,
        (None, Some(p)) => Arc::new(policy::load_file(&p).map_err(to_py)?),
        _ => {
            return Err(to_py(promote::PromoteError::Invalid {
                message: "pass a built-in name (promote.policy(\"torch\")) or a file (promote.policy(path=\"mine.toml\")), not both".into(),
            }))
        }
    };
    let layer = match autocast {
        None => None,
        Some(a) if a.ends_with(".toml") => Some(Arc::new(
            autocast::load_autocast_file(std::path::Path::new(a)).map_err(to_py)?,
        )),
        Some(a) => Some(autocast::builtin_autocast(a).map_err(to_py)?),
    };
    Ok(PyPolicy::new(inner, layer))
}

/// Load a built-in name or a `.toml` file, as the CLI does.
fn load(name: &Bound<'_, PyAny>) -> PyResult<Arc<RulePolicy>> {
    if let Ok(p) = name.cast::<PyPolicy>() {
        return Ok(p.get().inner.clone());
    }
    let s: String = name.extract()?;
    if s.ends_with(".toml") || std::path::Path::new(&s).is_file() {
        policy::load_file(std::path::Path::new(&s))
            .map(Arc::new)
            .map_err(to_py)
    } else {
        policy::builtin(&s).map_err(to_py)
    }
}

/// A JSON value as plain Python data, through the `json` module.
fn json_to_py<'py>(py: Python<'py>, v: &serde_json::Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?.call_method1("loads", (v.to_string(),))
}

/// `promote diff` as plain data (the JSON report: groups of cells and the differing calls).
#[pyfunction]
#[pyo3(signature = (a, b, op = "add", ignore_weak = false))]
fn _diff<'py>(
    py: Python<'py>,
    a: &Bound<'py, PyAny>,
    b: &Bound<'py, PyAny>,
    op: &str,
    ignore_weak: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let (a, b) = (load(a)?, load(b)?);
    let v = promote::cli::diff_json(&a, &b, op, ignore_weak).map_err(to_py)?;
    json_to_py(py, &v)
}

/// `promote table` as plain data (the JSON table: labels, operands, cells).
#[pyfunction]
#[pyo3(signature = (policy, op = "add", with_ = "tensors", style = "full", literals = None, mark = None))]
fn _table<'py>(
    py: Python<'py>,
    policy: &Bound<'py, PyAny>,
    op: &str,
    with_: &str,
    style: &str,
    literals: Option<Vec<String>>,
    mark: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let p = load(policy)?;
    let m = mark.map(load).transpose()?;
    let lits = literals.unwrap_or_default();
    let lits: Vec<&str> = lits.iter().map(|s| s.as_str()).collect();
    let v = promote::cli::table_json(&p, op, with_, style, &lits, m.as_deref()).map_err(to_py)?;
    json_to_py(py, &v)
}

#[pymodule]
fn _promote(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPolicy>()?;
    m.add_class::<plan::PyPlan>()?;
    m.add_class::<operand::Weak>()?;
    m.add_function(wrap_pyfunction!(policies, m)?)?;
    m.add_function(wrap_pyfunction!(autocasts, m)?)?;
    m.add_function(wrap_pyfunction!(policy_, m)?)?;
    m.add_function(wrap_pyfunction!(_diff, m)?)?;
    m.add_function(wrap_pyfunction!(_table, m)?)?;
    m.add_function(wrap_pyfunction!(eval::_time_kernel, m)?)?;
    let ops = PyList::new(m.py(), Op::all().iter().map(|o| o.name()))?;
    m.add("OPS", ops)?;
    Ok(())
}
