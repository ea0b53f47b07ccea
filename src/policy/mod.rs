//! Policies: how one framework promotes.
//!
//! A policy is data (a TOML file in `policies/`, see `policies/README.md`). [`compile`] checks
//! it and turns it into a [`RulePolicy`]: the lattice or table becomes a dense join table over
//! *nodes* (the 15 dtypes plus the policy's weak nodes such as JAX's `i*`), the per-op rules
//! become one array lookup per op, so resolving two tensors is a couple of loads.
//!
//! The flow of [`Policy::resolve`]: operands → nodes (tensor dtypes, weak nodes, literal nodes)
//! → the promoted node (a `join` over all of them, or PyTorch/NumPy-style `categories`) → the
//! literal range checks → the op's rule (compute dtype, result dtype, refusals) → the cast into
//! `out`. Every stage appends a [`Step`](crate::plan::Step) saying what it decided.
//!
//! The files of this module, in the order of the pipeline:
//!
//! - `spec`: the TOML schema of a policy file, as written;
//! - [`compile()`] (`compile/`): the compiler, one file per section of the policy file;
//! - [`join`], [`lattice`], `table`: the join structures and their builders;
//! - `compiled`, `corner`: what the policy compiles into — schemes, op rules, the `out`
//!   rule, corner rules;
//! - [`RulePolicy`] (`rule_policy.rs`): the compiled policy, its accessors and fast path;
//! - `resolve/`: the resolver, one file per stage (arguments → operands → promotion →
//!   compute → out), the order written once in `resolve/mod.rs`; NumPy 1's value-based
//!   casting is `resolve/value_based.rs`;
//! - [`builtin()`] (`builtin.rs`): the registry of built-in policies.

pub(crate) mod compiled;
pub(crate) mod corner;
pub mod join;
pub mod lattice;
pub(crate) mod spec;
pub(crate) mod table;

mod builtin;
mod compile;
mod op_list;
pub(crate) mod resolve;
mod rule_policy;
mod settings;

pub use builtin::{builtin, load_file, BUILTIN};
pub use compile::compile;
pub(crate) use compiled::Scheme;
pub use join::{JoinTable, Node};
pub use resolve::value_based::min_scalar_type_of;
pub use rule_policy::RulePolicy;
pub use settings::SettingInfo;

use crate::dtype::DType;
use crate::error::PromoteError;
use crate::kernel::compute::Semantics;
use crate::kernel::eval::Evaluated;
use crate::kernel::View;
use crate::op::Call;
use crate::plan::{Plan, Traced};

/// What every policy does: resolve a call into a plan, or refuse with a typed error.
///
/// ```
/// use promote::{builtin, Policy, Call, DType};
/// let jax = builtin("jax").unwrap();
/// let plan = jax.resolve(&"add int8 1.0".parse::<Call>().unwrap()).unwrap();
/// assert_eq!((plan.result, plan.weak), (DType::Float32, true));
/// ```
pub trait Policy: Send + Sync {
    /// The policy's name (`torch`, `jax-x64`, ...).
    ///
    /// ```
    /// use promote::Policy;
    /// assert_eq!(promote::builtin("jax-x64").unwrap().name(), "jax-x64");
    /// ```
    fn name(&self) -> &str;
    /// The framework and version it reproduces.
    ///
    /// ```
    /// use promote::Policy;
    /// assert!(promote::builtin("torch").unwrap().framework().contains("torch"));
    /// ```
    fn framework(&self) -> &str;
    /// The dtypes the framework has.
    ///
    /// ```
    /// use promote::{builtin, DType, Policy};
    /// assert!(builtin("torch").unwrap().dtypes().contains(&DType::BFloat16));
    /// ```
    fn dtypes(&self) -> &[DType];

    /// The element semantics its kernels compute with (`promote eval`, the benchmarks): the
    /// policy file's `[kernel] semantics`; NumPy's when the file has no `[kernel]` table, and
    /// for a policy that does not say.
    ///
    /// ```
    /// use promote::{builtin, kernel::Semantics, Policy};
    /// assert_eq!(builtin("jax-x64").unwrap().semantics(), Semantics::XLA_CPU);
    /// assert_eq!(builtin("oneflow").unwrap().semantics().name, "numpy");
    /// ```
    fn semantics(&self) -> Semantics {
        Semantics::NUMPY
    }
    /// Resolve a call into a full plan, with the steps that explain it.
    ///
    /// ```
    /// use promote::{builtin, Call, DType, Policy};
    /// let plan = builtin("numpy").unwrap().resolve(&"add int8 uint8".parse::<Call>().unwrap()).unwrap();
    /// assert_eq!(plan.result, DType::Int16);
    /// assert!(!plan.explain().is_empty());
    /// ```
    fn resolve(&self, call: &Call) -> Result<Plan, PromoteError>;

    /// Only the answer of the machine interface: the result dtype and weak flag. Cheaper than
    /// [`Policy::resolve`] (no explanation is written; two strong tensors are one table load).
    ///
    /// ```
    /// use promote::{builtin, Call, DType, Policy};
    /// let t = builtin("torch").unwrap();
    /// let call: Call = "add int8 uint8".parse().unwrap();
    /// assert_eq!(t.result(&call).unwrap(), (DType::Int16, false));
    /// ```
    fn result(&self, call: &Call) -> Result<(DType, bool), PromoteError> {
        self.resolve(call).map(|p| (p.result, p.weak))
    }

    /// Resolve a call and keep the steps whether it succeeds or is refused: the answer to "why
    /// was this refused?".
    ///
    /// ```
    /// use promote::{builtin, Call, Policy, Step};
    /// let torch = builtin("torch").unwrap();
    /// let t = torch.resolve_traced(&"add uint16 int8".parse::<Call>().unwrap());
    /// assert!(t.outcome.is_err());
    /// let t = torch.resolve_traced(&"add int8 1.0".parse::<Call>().unwrap());
    /// assert!(matches!(t.steps[0], Step::Literal { .. }));
    /// ```
    fn resolve_traced(&self, call: &Call) -> Traced {
        let outcome = self.resolve(call);
        let steps = outcome
            .as_ref()
            .map(|p| p.steps.clone())
            .unwrap_or_default();
        Traced { outcome, steps }
    }

    /// The promotion of two strong tensors alone, as the framework's promotion table shows it
    /// (`torch.promote_types`, `np.promote_types`, `jnp.promote_types`); `None` where they do
    /// not promote, or promote to a dtype outside the 15.
    ///
    /// ```
    /// use promote::{builtin, DType, Policy};
    /// let numpy: &dyn Policy = &*builtin("numpy").unwrap();
    /// assert_eq!(numpy.promote_types(DType::UInt8, DType::Int8), Some(DType::Int16));
    /// ```
    fn promote_types(&self, a: DType, b: DType) -> Option<DType>;

    /// The same framework under settings (`--set KEY=VALUE`, a query's `"set"`): a policy that
    /// takes them answers with the policy of those values ([`RulePolicy::with_settings`]); one
    /// that does not refuses every key.
    ///
    /// ```
    /// use promote::{builtin, Call, DType, Policy};
    /// let torch: &dyn Policy = &*builtin("torch").unwrap();
    /// let f64 = torch.set(&[("default_float".into(), "float64".into())]).unwrap();
    /// let c: Call = "add int8 1.0".parse().unwrap();
    /// assert_eq!(f64.result(&c).unwrap(), (DType::Float64, false));
    /// ```
    fn set(
        &self,
        settings: &[(String, String)],
    ) -> Result<std::sync::Arc<dyn Policy>, PromoteError> {
        match settings.first() {
            None => Err(PromoteError::invalid("no settings given")),
            Some((k, _)) => Err(PromoteError::UnknownSetting {
                policy: self.name().into(),
                what: format!("setting `{}`", crate::error::clip(k)),
                suggestion: None,
                valid: "it takes no settings".into(),
            }),
        }
    }

    /// Resolve a call and execute its plan on data, in one call: one data slot per operand
    /// (`None` for a Python literal, which becomes one value of the plan's input dtype for it),
    /// with the policy's own element semantics. Data whose dtype is not its operand's is
    /// refused, never reinterpreted.
    ///
    /// ```
    /// use promote::kernel::Array;
    /// use promote::{builtin, Call, DType, Policy};
    /// let torch = builtin("torch").unwrap();
    /// let call: Call = "add int8 1.5".parse().unwrap();
    /// let a = Array::from(vec![1i8, 2]);
    /// let r = torch.eval(&call, &[Some(a.view()), None]).unwrap();
    /// assert_eq!(r.data, Array::from(vec![2.5f32, 3.5]));
    /// let wrong = Array::from(vec![1i16, 2]);
    /// assert!(torch.eval(&call, &[Some(wrong.view()), None]).is_err());
    /// ```
    fn eval(&self, call: &Call, data: &[Option<View<'_>>]) -> Result<Evaluated, PromoteError> {
        crate::kernel::eval::evaluate(self, call, data)
    }
}
