//! Mixed-precision autocast: a layer over any policy that casts an op's floating tensors before
//! the policy promotes them (PyTorch's `torch.autocast`, Paddle AMP, Genesis's autocast).
//!
//! An autocast is data: a TOML file in `policies/autocast/` (format in `policies/README.md`):
//! the autocast dtype, which operands it touches, and op lists, each of a [`Class`]. For a call,
//! the op's list decides a target dtype; every operand the autocast touches is cast to it; the
//! base policy then resolves the cast call as usual. The plan starts with a [`Step::Autocast`]
//! saying which list the op is on and where that list comes from.
//!
//! ```
//! use promote::{autocast, builtin, Call, DType, Policy};
//! let torch = builtin("torch").unwrap();
//! let bf16 = autocast::builtin_autocast("torch-cpu-bf16").unwrap();
//! let call: Call = "matmul float32 float32".parse().unwrap();
//! let plan = autocast::resolve(&*torch, &bf16, &call).unwrap();
//! assert_eq!(plan.result, DType::BFloat16);
//! assert!(plan.explain().starts_with("1. [autocast] matmul is on the lower_precision list"));
//! // float64 is left alone by torch.autocast: the matmul then meets two dtypes
//! assert!(autocast::resolve(&*torch, &bf16, &"matmul float32 float64".parse().unwrap()).is_err());
//! ```

mod builtin;
mod layer;
mod spec;

pub use builtin::{builtin_autocast, load_autocast_file, AUTOCASTS};
pub use layer::{
    cast_data, evaluate, evaluate_under, resolve, resolve_traced, resolve_under, take_autocast,
    Autocasted,
};

use std::collections::BTreeMap;

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::op::Call;
use crate::operand::Operand;
use crate::plan::Step;

/// What an autocast does to the operands of the ops on one list.
///
/// ```
/// use promote::{autocast::{builtin_autocast, Class}, Op};
/// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
/// assert_eq!(bf16.list_of(Op::Matmul).class, Class::LowerPrecision);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Cast to the autocast dtype (PyTorch's `lower_precision_fp`, Paddle's white list).
    LowerPrecision,
    /// Cast to float32 (PyTorch's `fp32` and `fp32_set_opt_dtype`, Paddle's black list).
    Fp32,
    /// Cast to the widest touched dtype: float32 if any operand is float32, else the autocast
    /// dtype (PyTorch's `promote`, Paddle O1's gray ops).
    Promote,
    /// Leave the operands alone: the base policy promotes as usual.
    Fallthrough,
}

impl Class {
    /// The class's name in a file: `lower_precision`, `fp32`, `promote`, `fallthrough`.
    ///
    /// ```
    /// assert_eq!(promote::autocast::Class::Fp32.name(), "fp32");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Class::LowerPrecision => "lower_precision",
            Class::Fp32 => "fp32",
            Class::Promote => "promote",
            Class::Fallthrough => "fallthrough",
        }
    }

    /// The class of a name, if it is one.
    ///
    /// ```
    /// use promote::autocast::Class;
    /// assert_eq!(Class::parse("promote"), Some(Class::Promote));
    /// assert_eq!(Class::parse("white"), None);
    /// ```
    pub fn parse(name: &str) -> Option<Class> {
        [
            Class::LowerPrecision,
            Class::Fp32,
            Class::Promote,
            Class::Fallthrough,
        ]
        .into_iter()
        .find(|c| c.name() == name)
    }
}

/// Which operands an autocast casts: tensors of these dtypes (0-d ones too, if `zero_dim`).
/// Python literals are never cast: every autocast recorded or read acts on tensors only.
///
/// ```
/// use promote::{autocast::builtin_autocast, DType};
/// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
/// assert!(bf16.touches.dtypes.contains(&DType::Float32));
/// assert!(!bf16.touches.dtypes.contains(&DType::Float64));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Touches {
    /// The dtypes it casts (PyTorch: the floating dtypes but float64).
    pub dtypes: Vec<DType>,
    /// Whether 0-d tensors are cast too.
    pub zero_dim: bool,
    /// Where this rule comes from.
    pub source: String,
}

/// One op list of an autocast: its class, its ops (the framework's names), its source.
///
/// ```
/// use promote::{autocast::builtin_autocast, Op};
/// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
/// assert!(bf16.list_of(Op::Matmul).ops.iter().any(|o| o == "matmul"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct OpList {
    /// What the list does.
    pub class: Class,
    /// Where the list comes from (file, function, version).
    pub source: String,
    /// The framework's op names.
    pub ops: Vec<String>,
}

/// A compiled autocast layer (see the module documentation).
///
/// ```
/// use promote::{autocast::builtin_autocast, DType};
/// let f16 = builtin_autocast("torch-cuda-f16").unwrap();
/// assert_eq!((f16.dtype, f16.base.as_str()), (DType::Float16, "torch"));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Autocast {
    /// `torch-cpu-bf16`, ...
    pub name: String,
    /// The framework and version (`torch==2.15.0`).
    pub framework: String,
    /// What it reproduces, in the framework's words (`torch.autocast("cpu", dtype=torch.bfloat16)`).
    pub description: String,
    /// The autocast dtype.
    pub dtype: DType,
    /// The policy it was recorded or derived over.
    pub base: String,
    /// `recorded` or `source`.
    pub derived: String,
    /// Which operands it casts.
    pub touches: Touches,
    /// The class of ops on no list (`fallthrough` in PyTorch).
    pub unlisted: OpList,
    /// What the promote class does with a floating dtype other than float32 and `dtype`:
    /// cast it to `dtype` (Paddle) instead of refusing (PyTorch's `prioritize`).
    pub promote_to_dtype: bool,
    /// The rule for a call with `out`, whatever list its op is on (PyTorch: the `out=`
    /// overloads are on no list, `fallthrough`), with its source; `None`: `out` changes nothing.
    pub out_falls_through: Option<OpList>,
    /// Spec op name -> the framework's names for it.
    pub op_names: BTreeMap<String, Vec<String>>,
    /// The op lists, in file order (the first list naming an op wins).
    pub lists: Vec<OpList>,
}

/// A call after the autocast: the cast call, each operand's new dtype (`None`: left alone),
/// and the step that says why.
///
/// ```
/// use promote::{autocast::builtin_autocast, Call, DType};
/// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
/// let a = bf16.apply(&"matmul float32 float32".parse::<Call>().unwrap()).unwrap();
/// assert_eq!(a.call.to_string(), "matmul bfloat16 bfloat16");
/// assert_eq!(a.casts, vec![Some(DType::BFloat16); 2]);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    /// The call with the autocast's casts applied.
    pub call: Call,
    /// For each operand, the dtype it was cast to, if any.
    pub casts: Vec<Option<DType>>,
    /// The step explaining the autocast's decision.
    pub step: Step,
}

impl Autocast {
    /// The list an op is on (the first that names it), or the `unlisted` rule.
    ///
    /// ```
    /// use promote::{autocast::{builtin_autocast, Class}, Op};
    /// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
    /// assert_eq!(bf16.list_of(Op::Matmul).class, Class::LowerPrecision);
    /// assert_eq!(bf16.list_of(Op::Add).class, Class::Fallthrough);
    /// ```
    pub fn list_of(&self, op: crate::op::Op) -> &OpList {
        let spec = op.name();
        let names: Vec<&str> = match self.op_names.get(spec) {
            Some(n) => n.iter().map(String::as_str).collect(),
            None => vec![spec],
        };
        self.lists
            .iter()
            .find(|l| l.ops.iter().any(|o| names.contains(&o.as_str())))
            .unwrap_or(&self.unlisted)
    }

    /// Whether the autocast casts this operand.
    ///
    /// ```
    /// use promote::{autocast::builtin_autocast, DType, Operand};
    /// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
    /// assert!(bf16.touches(&Operand::tensor(DType::Float32)));
    /// assert!(!bf16.touches(&"1.0".parse::<Operand>().unwrap()));
    /// ```
    pub fn touches(&self, o: &Operand) -> bool {
        match o {
            Operand::Tensor {
                dtype, zero_dim, ..
            } => self.touches.dtypes.contains(dtype) && (self.touches.zero_dim || !zero_dim),
            Operand::Literal(_) => false,
        }
    }

    /// Apply the autocast to a call: which list, which target dtype, which operands are cast.
    ///
    /// ```
    /// use promote::{autocast::builtin_autocast, Call, DType};
    /// let bf16 = builtin_autocast("torch-cpu-bf16").unwrap();
    /// let a = bf16.apply(&"matmul float32 int32".parse::<Call>().unwrap()).unwrap();
    /// assert_eq!(a.casts, vec![Some(DType::BFloat16), None]);
    /// ```
    pub fn apply(&self, call: &Call) -> Result<Applied, PromoteError> {
        let list = match (&self.out_falls_through, call.out) {
            (Some(out_rule), Some(_)) => out_rule,
            _ => self.list_of(call.op),
        };
        let target = self.target(list.class, call)?;
        let mut casts = vec![None; call.operands.len()];
        let mut operands = call.operands.clone();
        let mut said = Vec::new();
        if let Some(to) = target {
            for (i, o) in operands.iter_mut().enumerate() {
                if !self.touches(o) {
                    continue;
                }
                let from = o.dtype().unwrap_or(to);
                if from != to {
                    *o = recast(o, to)?;
                    said.push(format!("operand {} {from} -> {to}", i + 1));
                }
                casts[i] = Some(to);
            }
        }
        let step = self.step(call, list, target, &said);
        // the call as given (its op, out and any other field), with the cast operands
        let mut cast_call = call.clone();
        cast_call.operands = operands;
        Ok(Applied {
            call: cast_call,
            casts,
            step,
        })
    }

    /// The dtype a class casts touched operands to (`None`: no cast).
    fn target(&self, class: Class, call: &Call) -> Result<Option<DType>, PromoteError> {
        Ok(match class {
            Class::LowerPrecision => Some(self.dtype),
            Class::Fp32 => Some(DType::Float32),
            Class::Fallthrough => None,
            Class::Promote => Some(self.promote_target(call)?),
        })
    }

    /// The promote class: float32 if a touched operand is float32, else the autocast dtype;
    /// another floating dtype met before any float32 is cast to the autocast dtype or refused, as
    /// the file says (`torch.cat([float16, float32])` is refused under bfloat16 autocast,
    /// `torch.cat([float32, float16])` is float32: recorded).
    fn promote_target(&self, call: &Call) -> Result<DType, PromoteError> {
        let touched: Vec<DType> = call
            .operands
            .iter()
            .filter(|o| self.touches(o))
            .filter_map(|o| o.dtype())
            .collect();
        // in operand order, as at::autocast::prioritize folds them: float32 wins from where it
        // is met; another floating dtype met before it is refused (or cast, as the file says)
        let mut current = self.dtype;
        let mut other = None;
        for &d in &touched {
            if current == DType::Float32 || d == DType::Float32 {
                current = DType::Float32;
            } else if d != self.dtype && !self.promote_to_dtype {
                other = Some(d);
                break;
            }
        }
        match other {
            None => Ok(current),
            Some(other) => Err(PromoteError::NoPromotion {
                policy: self.name.clone(),
                op: call.op.name().to_string(),
                operands: format!("{other} under {} autocast", self.dtype),
                rule: format!(
                    "the promote list knows float32, float64 and {} only ({})",
                    self.dtype,
                    self.list_of(call.op).source
                ),
                advice: format!(
                    "cast the {other} operand to {} or float32 first, or leave the autocast region",
                    self.dtype
                ),
            }),
        }
    }

    fn step(&self, call: &Call, list: &OpList, target: Option<DType>, said: &[String]) -> Step {
        let on = match (list.ops.is_empty(), call.out) {
            (true, Some(out)) if list.class == Class::Fallthrough => {
                format!("{} with out={out} is on no list of {}", call.op, self.name)
            }
            (true, _) if list.class == Class::Fallthrough => {
                format!("{} is on no list of {}", call.op, self.name)
            }
            (true, _) => format!(
                "{} is on no list of {}, which makes it {}",
                call.op,
                self.name,
                list.class.name()
            ),
            (false, _) => format!(
                "{} is on the {} list of {}",
                call.op,
                list.class.name(),
                self.name
            ),
        };
        let detail = match target {
            None => format!("{on}: the operands are left alone"),
            Some(to) if said.is_empty() => format!(
                "{on}: casts {} tensors to {to}; none is cast here",
                self.touched_names()
            ),
            Some(_) => format!("{on}: {}", said.join(", ")),
        };
        Step::Autocast {
            layer: self.name.clone(),
            list: list.class.name().to_string(),
            detail,
            source: list.source.clone(),
        }
    }

    fn touched_names(&self) -> String {
        let names: Vec<&str> = self.touches.dtypes.iter().map(|d| d.name()).collect();
        names.join("/")
    }
}

/// An operand cast to `to`; a 0-d tensor's value goes through the cast (rounded as the kernels
/// round it).
fn recast(o: &Operand, to: DType) -> Result<Operand, PromoteError> {
    let Operand::Tensor {
        dtype,
        weak,
        zero_dim,
        value,
    } = o
    else {
        return Ok(o.clone());
    };
    let value = match value {
        None => None,
        Some(v) => {
            let a = crate::kernel::value::parse_array(*dtype, &[v.to_string()])
                .map_err(PromoteError::invalid)?;
            let cast = crate::kernel::cast::cast_array(a.view(), to);
            let text = crate::kernel::value::format_array(cast.view())
                .pop()
                .unwrap_or_default();
            Some(crate::operand::held_value(to, &text)?)
        }
    };
    Ok(Operand::Tensor {
        dtype: to,
        weak: *weak,
        zero_dim: *zero_dim,
        value,
    })
}
