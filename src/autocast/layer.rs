//! The one entry point of an autocast over a policy: [`resolve`] (a plan), [`evaluate`] (a plan
//! executed on data), [`resolve_under`]/[`evaluate_under`] (the one choice between a layer and
//! none, which the JSONL interfaces `query::answer_line` and `kernel::eval::answer_line` make
//! after [`take_autocast`]) and [`Autocasted`], a policy that is a base policy under an autocast.

use std::sync::Arc;

use serde_json::Value;

use super::{builtin_autocast, Applied, Autocast};
use crate::dtype::DType;
use crate::error::PromoteError;
use crate::kernel::array::{Array, View};
use crate::kernel::cast::cast_array;
use crate::kernel::eval::{self, Evaluated};
use crate::op::Call;
use crate::plan::{Plan, Traced};
use crate::policy::Policy;

/// Resolve a call under an autocast: the autocast's casts, then the base policy's plan, the
/// autocast's step first.
///
/// ```
/// use promote::{autocast::{builtin_autocast, resolve}, builtin, Call, DType, Step};
/// let (torch, bf16) = (builtin("torch").unwrap(), builtin_autocast("torch-cpu-bf16").unwrap());
/// let plan = resolve(&*torch, &bf16, &"matmul float32 float32".parse::<Call>().unwrap()).unwrap();
/// assert_eq!(plan.result, DType::BFloat16);
/// assert!(matches!(plan.steps[0], Step::Autocast { .. }));
/// ```
pub fn resolve(base: &dyn Policy, layer: &Autocast, call: &Call) -> Result<Plan, PromoteError> {
    let applied = layer.apply(call)?;
    let mut plan = base.resolve(&applied.call)?;
    plan.steps.insert(0, applied.step);
    Ok(plan)
}

/// [`resolve`] with the steps kept whether the call succeeds or is refused (`promote explain`).
///
/// ```
/// use promote::{autocast::{builtin_autocast, resolve_traced}, builtin, Call, Step};
/// let (torch, bf16) = (builtin("torch").unwrap(), builtin_autocast("torch-cpu-bf16").unwrap());
/// let t = resolve_traced(&*torch, &bf16, &"matmul float32 float32".parse::<Call>().unwrap());
/// assert!(t.outcome.is_ok() && matches!(t.steps[0], Step::Autocast { .. }));
/// ```
pub fn resolve_traced(base: &dyn Policy, layer: &Autocast, call: &Call) -> Traced {
    match layer.apply(call) {
        Err(e) => Traced {
            outcome: Err(e),
            steps: Vec::new(),
        },
        Ok(applied) => {
            let mut t = base.resolve_traced(&applied.call);
            t.steps.insert(0, applied.step.clone());
            if let Ok(p) = &mut t.outcome {
                p.steps.insert(0, applied.step);
            }
            t
        }
    }
}

/// Execute a call under an autocast: the tensors' data are cast as the autocast casts them
/// (rounded into the autocast dtype), then the base policy's plan runs on them.
///
/// ```
/// use promote::{autocast, builtin, kernel::array::Array, Call, DType};
/// let torch = builtin("torch").unwrap();
/// let bf16 = autocast::builtin_autocast("torch-cpu-bf16").unwrap();
/// let call: Call = "matmul float32 float32".parse().unwrap();
/// let a = Array::from(vec![1.0f32, 1.00390625]);
/// let b = Array::from(vec![1.0f32, 1.0]);
/// let r = autocast::evaluate(&*torch, &bf16, &call, &[Some(a.view()), Some(b.view())]).unwrap();
/// assert_eq!(r.plan.result, DType::BFloat16);
/// ```
pub fn evaluate(
    base: &dyn Policy,
    layer: &Autocast,
    call: &Call,
    data: &[Option<View<'_>>],
) -> Result<Evaluated, PromoteError> {
    let (applied, cast) = cast_data(layer, call, data)?;
    let views: Vec<Option<View<'_>>> = data
        .iter()
        .zip(&cast)
        .map(|(d, c)| c.as_ref().map(|a| a.view()).or(*d))
        .collect();
    let mut r = eval::evaluate(base, &applied.call, &views)?;
    r.plan.steps.insert(0, applied.step);
    Ok(r)
}

/// The autocast applied to a call and its data: the cast call, and each operand's data cast
/// as the autocast casts it (`None`: the data is used as it is). What [`evaluate`] does before
/// the base policy runs; the Python package's `eval` calls it too.
///
/// ```
/// use promote::{autocast, kernel::array::Array, Call, DType};
/// let bf16 = autocast::builtin_autocast("torch-cpu-bf16").unwrap();
/// let call: Call = "matmul float32 float64".parse().unwrap();
/// let (a, b) = (Array::from(vec![1.00390625f32]), Array::from(vec![1.0f64]));
/// let (applied, cast) = autocast::cast_data(&bf16, &call, &[Some(a.view()), Some(b.view())]).unwrap();
/// assert_eq!(applied.casts, vec![Some(DType::BFloat16), None]);
/// assert_eq!(cast[0].as_ref().unwrap().dtype(), DType::BFloat16);
/// assert!(cast[1].is_none()); // float64 is left alone
/// ```
pub fn cast_data(
    layer: &Autocast,
    call: &Call,
    data: &[Option<View<'_>>],
) -> Result<(Applied, Vec<Option<Array>>), PromoteError> {
    let applied = layer.apply(call)?;
    let cast = data
        .iter()
        .zip(&applied.casts)
        .map(|(d, to)| match (d, to) {
            (Some(v), Some(to)) if v.dtype() != *to => Some(cast_array(*v, *to)),
            _ => None,
        })
        .collect();
    Ok((applied, cast))
}

/// Take a query's `"autocast"` key out of it: the built-in autocast it names, if any.
///
/// ```
/// let mut q = serde_json::json!({"op": "matmul", "operands": [], "autocast": "torch-cpu-bf16"});
/// let a = promote::autocast::take_autocast(&mut q).unwrap().unwrap();
/// assert_eq!(a.name, "torch-cpu-bf16");
/// assert!(q.get("autocast").is_none());
/// ```
pub fn take_autocast(query: &mut Value) -> Result<Option<Arc<Autocast>>, PromoteError> {
    let Some(o) = query.as_object_mut() else {
        return Ok(None);
    };
    match o.remove("autocast") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(name)) => builtin_autocast(&name).map(Some),
        Some(_) => Err(PromoteError::invalid(
            "\"autocast\" is the name of an autocast, such as \"torch-cpu-bf16\" (`promote autocasts` lists them)",
        )),
    }
}

/// Resolve a call under `layer` if there is one, else under the base policy alone: the one
/// place every path (the JSONL interfaces, the CLI, the Python package) picks between them.
///
/// ```
/// use promote::{autocast, builtin, Call, DType};
/// let torch = builtin("torch").unwrap();
/// let call: Call = "matmul float32 float32".parse().unwrap();
/// assert_eq!(autocast::resolve_under(&*torch, None, &call).unwrap().result, DType::Float32);
/// let f16 = autocast::builtin_autocast("torch-cpu-f16").unwrap();
/// assert_eq!(autocast::resolve_under(&*torch, Some(&f16), &call).unwrap().result, DType::Float16);
/// ```
pub fn resolve_under(
    base: &dyn Policy,
    layer: Option<&Autocast>,
    call: &Call,
) -> Result<Plan, PromoteError> {
    match layer {
        Some(l) => resolve(base, l, call),
        None => base.resolve(call),
    }
}

/// Execute a call under `layer` if there is one, else under the base policy alone.
///
/// ```
/// use promote::autocast::{builtin_autocast, evaluate_under};
/// use promote::kernel::Array;
/// use promote::{builtin, Call, DType};
/// let (torch, bf16) = (builtin("torch").unwrap(), builtin_autocast("torch-cpu-bf16").unwrap());
/// let call: Call = "matmul float32 float32".parse().unwrap();
/// let (a, b) = (Array::from(vec![1.0f32, 2.0]), Array::from(vec![3.0f32, 4.0]));
/// let r = evaluate_under(&*torch, Some(&*bf16), &call, &[Some(a.view()), Some(b.view())]).unwrap();
/// assert_eq!(r.plan.result, DType::BFloat16);
/// let plain = evaluate_under(&*torch, None, &call, &[Some(a.view()), Some(b.view())]).unwrap();
/// assert_eq!(plain.data, Array::from(vec![11.0f32]));
/// ```
pub fn evaluate_under(
    base: &dyn Policy,
    layer: Option<&Autocast>,
    call: &Call,
    data: &[Option<View<'_>>],
) -> Result<Evaluated, PromoteError> {
    match layer {
        Some(l) => evaluate(base, l, call, data),
        None => eval::evaluate(base, call, data),
    }
}

/// A base policy under an autocast, as a [`Policy`]: what `explain` and the Rust API use.
///
/// ```
/// use std::sync::Arc;
/// use promote::{autocast::{builtin_autocast, Autocasted}, builtin, Call, DType, Policy};
/// let p = Autocasted::new(builtin("torch").unwrap(), builtin_autocast("torch-cpu-f16").unwrap());
/// assert_eq!(p.result(&"matmul float32 float32".parse::<Call>().unwrap()).unwrap().0, DType::Float16);
/// assert_eq!(p.name(), "torch+torch-cpu-f16");
/// ```
pub struct Autocasted {
    base: Arc<dyn Policy>,
    layer: Arc<Autocast>,
    name: String,
}

impl Autocasted {
    /// `base` under `layer`.
    ///
    /// ```
    /// use promote::autocast::{builtin_autocast, Autocasted};
    /// use promote::Policy;
    /// let p = Autocasted::new(promote::builtin("torch").unwrap(), builtin_autocast("torch-cpu-f16").unwrap());
    /// assert_eq!(p.name(), "torch+torch-cpu-f16");
    /// ```
    pub fn new(base: Arc<dyn Policy>, layer: Arc<Autocast>) -> Autocasted {
        let name = format!("{}+{}", base.name(), layer.name);
        Autocasted { base, layer, name }
    }

    /// The autocast layer.
    ///
    /// ```
    /// use promote::autocast::{builtin_autocast, Autocasted};
    /// let p = Autocasted::new(promote::builtin("torch").unwrap(), builtin_autocast("torch-cpu-f16").unwrap());
    /// assert_eq!(p.layer().name, "torch-cpu-f16");
    /// ```
    pub fn layer(&self) -> &Autocast {
        &self.layer
    }
}

impl Policy for Autocasted {
    fn name(&self) -> &str {
        &self.name
    }
    fn framework(&self) -> &str {
        self.base.framework()
    }
    fn dtypes(&self) -> &[DType] {
        self.base.dtypes()
    }
    fn semantics(&self) -> crate::kernel::compute::Semantics {
        self.base.semantics()
    }
    fn resolve(&self, call: &Call) -> Result<Plan, PromoteError> {
        resolve(&*self.base, &self.layer, call)
    }
    fn resolve_traced(&self, call: &Call) -> Traced {
        resolve_traced(&*self.base, &self.layer, call)
    }
    fn promote_types(&self, a: DType, b: DType) -> Option<DType> {
        self.base.promote_types(a, b)
    }
    fn eval(&self, call: &Call, data: &[Option<View<'_>>]) -> Result<Evaluated, PromoteError> {
        evaluate(&*self.base, &self.layer, call, data)
    }
}
