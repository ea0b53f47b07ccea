//! `Policy.eval`: the kernel layer on NumPy buffers, read in place, GIL released.

use std::time::Instant;

use numpy::{PyUntypedArray, PyUntypedArrayMethods};
use promote::kernel::eval::{kernel_error, literal_array};
use promote::kernel::exec::{execute, execute_into};
use promote::kernel::{Array, Element, View, ViewMut};
use promote::autocast::Autocast;
use promote::policy::RulePolicy;
use promote::{Call, DType, Op, Operand, Policy as _, PromoteError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyComplex, PyFloat, PyInt, PyTuple};

use crate::dtypes;
use crate::errors::to_py;
use crate::operand;

fn invalid(message: String) -> PyErr {
    to_py(PromoteError::Invalid { message })
}

/// One operand of `eval`: the operand the policy sees, and its data (an array read in place),
/// or `None` for a Python scalar.
struct Input<'py> {
    operand: Operand,
    array: Option<Bound<'py, PyUntypedArray>>,
}

/// An array operand as a C-contiguous, aligned, native NumPy array of its dtype: itself when
/// it already is one, else one copy (`numpy.ascontiguousarray`).
fn buffer<'py>(obj: &Bound<'py, PyAny>, d: DType) -> PyResult<Bound<'py, PyUntypedArray>> {
    let py = obj.py();
    let want = dtypes::numpy_dtype(py, d)?;
    if let Ok(a) = obj.cast::<PyUntypedArray>() {
        if a.is_c_contiguous() && a.is_aligned() && a.dtype().is(&want) {
            return Ok(a.clone());
        }
    }
    let np = py.import("numpy")?;
    let a = np.call_method1("ascontiguousarray", (obj, &want))?;
    Ok(a.cast_into::<PyUntypedArray>()?)
}

fn input<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Input<'py>> {
    let scalar = obj.is_exact_instance_of::<PyBool>()
        || obj.is_exact_instance_of::<PyInt>()
        || obj.is_exact_instance_of::<PyFloat>()
        || obj.is_exact_instance_of::<PyComplex>();
    let operand = operand::operand(obj)?;
    if scalar {
        return Ok(Input {
            operand,
            array: None,
        });
    }
    let Some(d) = operand.dtype() else {
        return Err(invalid(format!("{} holds no data", obj.repr()?)));
    };
    if obj.is_instance_of::<pyo3::types::PyString>()
        || obj.is_instance_of::<pyo3::types::PyType>()
        || obj.cast::<operand::Weak>().is_ok()
    {
        return Err(invalid(format!(
            "eval needs data: pass NumPy arrays or Python scalars, not the dtype {}",
            obj.repr()?
        )));
    }
    let array = buffer(obj, d)?;
    Ok(Input {
        operand,
        array: Some(array),
    })
}

/// The shape of the result: equal shapes, or one operand of a single element (broadcast).
fn result_shape(op: Op, shapes: &[Vec<usize>]) -> PyResult<Vec<usize>> {
    let size = |s: &Vec<usize>| s.iter().product::<usize>();
    match op {
        Op::Sum => return Ok(vec![]),
        Op::Matmul => {
            if shapes.iter().all(|s| s.len() == 1) && shapes[0] == shapes[1] {
                return Ok(vec![]);
            }
            return Err(invalid(format!(
                "promote's matmul kernel is the dot product of two 1-d arrays of one length, not shapes {shapes:?}"
            )));
        }
        _ => {}
    }
    let rank = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; rank];
    for s in shapes {
        for (i, &n) in s.iter().rev().enumerate() {
            let o = &mut out[rank - 1 - i];
            if *o == 1 {
                *o = n;
            } else if n != 1 && n != *o {
                return Err(invalid(format!("shapes {shapes:?} do not broadcast")));
            }
        }
    }
    let total: usize = out.iter().product();
    if shapes.iter().any(|s| size(s) != 1 && size(s) != total) {
        return Err(invalid(format!(
            "promote's kernels take operands of one shape, or one operand of a single element; not shapes {shapes:?} (numpy.broadcast_arrays makes them one shape)"
        )));
    }
    Ok(out)
}

/// The elements of a C-contiguous native array of dtype `d`, without copying.
///
/// # Safety
/// `a` must be C-contiguous, aligned and of `d`'s NumPy dtype (as [`buffer`] makes it), and
/// stay alive and unresized while the view is used.
unsafe fn view_of<'a>(a: &'a Bound<'_, PyUntypedArray>, d: DType) -> View<'a> {
    let n: usize = a.shape().iter().product();
    let ptr = (*a.as_array_ptr()).fields.data;
    promote::with_dtype!(d, T => {
        let s: &'a [T] = if n == 0 { &[] } else { std::slice::from_raw_parts(ptr as *const T, n) };
        T::view(s)
    })
}

/// Its mutable counterpart, for the freshly allocated output.
///
/// # Safety
/// As [`view_of`], and nothing else may read or write `a` meanwhile.
unsafe fn view_mut_of<'a>(a: &'a Bound<'_, PyUntypedArray>, d: DType) -> ViewMut<'a> {
    let n: usize = a.shape().iter().product();
    let ptr = (*a.as_array_ptr()).fields.data;
    promote::with_dtype!(d, T => {
        let s: &'a mut [T] = if n == 0 { &mut [] } else { std::slice::from_raw_parts_mut(ptr as *mut T, n) };
        T::view_mut(s)
    })
}

/// `Policy.eval(op, *operands)`, under an autocast layer if one is given (the data cast as
/// the library's `autocast::cast_data` casts it, then the base policy's plan).
pub fn eval<'py>(
    py: Python<'py>,
    policy: &RulePolicy,
    layer: Option<&Autocast>,
    op: Op,
    operands: &Bound<'py, PyTuple>,
) -> PyResult<Bound<'py, PyAny>> {
    let inputs = operands
        .iter()
        .map(|o| input(&o))
        .collect::<PyResult<Vec<_>>>()?;
    let call =
        Call::new(op, inputs.iter().map(|i| i.operand.clone()).collect(), None).map_err(to_py)?;
    let shapes: Vec<Vec<usize>> = inputs
        .iter()
        .map(|i| i.array.as_ref().map_or(vec![], |a| a.shape().to_vec()))
        .collect();
    let shape = result_shape(op, &shapes)?;
    // SAFETY: every array comes from `buffer` (contiguous, aligned, its dtype); all stay
    // referenced until this function returns.
    let data: Vec<Option<View<'_>>> = inputs
        .iter()
        .map(|i| {
            i.array.as_ref().map(|a| unsafe {
                view_of(a, i.operand.dtype().expect("arrays have dtypes"))
            })
        })
        .collect();
    let (call, cast, autocast_step) = match layer {
        Some(l) => {
            let (applied, cast) = promote::autocast::cast_data(l, &call, &data).map_err(to_py)?;
            (applied.call, cast, Some(applied.step))
        }
        None => (call, vec![None; data.len()], None),
    };
    let mut plan = policy.resolve(&call).map_err(to_py)?;
    if let Some(step) = autocast_step {
        plan.steps.insert(0, step);
    }
    // Python scalars as one element of the dtype the plan casts them to
    let scalars: Vec<Option<Array>> = inputs
        .iter()
        .zip(&plan.inputs)
        .map(|(i, &to)| match (&i.array, &i.operand) {
            (None, Operand::Literal(l)) => literal_array(l, to).map(Some),
            _ => Ok(None),
        })
        .collect::<Result<_, _>>()
        .map_err(to_py)?;
    let np = py.import("numpy")?;
    let out_obj = np.call_method1(
        "empty",
        (shape.clone(), dtypes::numpy_dtype(py, plan.result)?),
    )?;
    let out = out_obj.cast::<PyUntypedArray>()?;
    // the autocast's cast data, else the arrays read in place, else the scalars' one element
    let views: Vec<View<'_>> = data
        .iter()
        .zip(&cast)
        .zip(&scalars)
        .map(|((d, c), s)| match (c, d, s) {
            (Some(c), _, _) => c.view(),
            (None, Some(d), _) => *d,
            (None, None, Some(s)) => s.view(),
            (None, None, None) => unreachable!("a scalar has its one element"),
        })
        .collect();
    // SAFETY: `out` is new, and stays referenced until this function returns.
    let out_view = unsafe { view_mut_of(out, plan.result) };
    let sem = policy.semantics();
    let r = py.detach(|| execute_into(&plan, &views, out_view, &sem));
    r.map_err(|e| to_py(kernel_error(policy, &plan, e)))?;
    if shape.is_empty() {
        return out_obj.get_item(());
    }
    Ok(out_obj)
}

/// The same kernel timed from Rust, for the benchmark: seconds of ONE
/// `kernel::exec::execute` (allocating its output, as a Rust caller does) of `call` over the
/// given NumPy arrays, read in place as `eval` reads them. The benchmark calls it once per
/// round, interleaved with `p.eval` and NumPy on the same buffers.
#[pyfunction]
#[pyo3(signature = (policy, call, *arrays))]
pub fn _time_kernel(
    py: Python<'_>,
    policy: &str,
    call: &str,
    arrays: &Bound<'_, PyTuple>,
) -> PyResult<f64> {
    let p = promote::builtin(policy).map_err(to_py)?;
    let call: Call = call.parse().map_err(to_py)?;
    let plan = p.resolve(&call).map_err(to_py)?;
    if arrays.len() != call.operands.len() {
        return Err(invalid(format!(
            "{} arrays for the {} operands of `{call}`",
            arrays.len(),
            call.operands.len()
        )));
    }
    let buffers = call
        .operands
        .iter()
        .zip(arrays.iter())
        .map(|(o, a)| {
            let d = o.dtype().unwrap_or(DType::Float64);
            buffer(&a, d).map(|b| (b, d))
        })
        .collect::<PyResult<Vec<_>>>()?;
    // SAFETY: every buffer comes from `buffer` and stays referenced until this returns.
    let views: Vec<View<'_>> = buffers.iter().map(|(b, d)| unsafe { view_of(b, *d) }).collect();
    let sem = p.semantics();
    let t = py.detach(|| {
        let start = Instant::now();
        let out = execute(&plan, &views, &sem);
        let t = start.elapsed();
        drop(std::hint::black_box(out));
        t
    });
    Ok(t.as_secs_f64())
}
