//! What a policy knows about its ops, for `promote ops`: each op the framework has, with its
//! class, form and the rule its policy file gives it, in words.

use crate::dtype::DType;
use crate::op::{Op, OpForm};

use super::compiled::{Action, OpRule};
use super::RulePolicy;

/// One op of a policy, as `promote ops --policy P` lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct OpListing {
    /// The op.
    pub op: Op,
    /// Unary, binary or reduction.
    pub form: OpForm,
    /// Its op class.
    pub class: &'static str,
    /// How many results it has (`divmod`: 2).
    pub results: usize,
    /// Its rule in words: the dtypes it changes, refuses or returns differently, its loops,
    /// whether it takes `dtype=`.
    pub rule: String,
    /// Where the rule comes from (the policy file's `source`s).
    pub sources: Vec<String>,
}

impl RulePolicy {
    /// Every op the framework has, in catalogue order.
    ///
    /// ```
    /// use promote::builtin;
    /// let torch = builtin("torch").unwrap();
    /// let ops = torch.op_listing();
    /// let sqrt = ops.iter().find(|o| o.op.name() == "sqrt").unwrap();
    /// assert_eq!(sqrt.class, "unary_float");
    /// assert!(sqrt.rule.contains("int8→float32"), "{}", sqrt.rule);
    /// assert!(!ops.iter().any(|o| o.op.name() == "divmod"));
    /// ```
    pub fn op_listing(&self) -> Vec<OpListing> {
        Op::all()
            .into_iter()
            .filter_map(|op| {
                let rule = self.op_rule(op)?;
                let parts = &op.info().parts;
                Some(OpListing {
                    op,
                    form: op.form(),
                    class: op.class(),
                    results: parts.len().max(1),
                    rule: if parts.is_empty() {
                        self.rule_words(rule)
                    } else {
                        let names: Vec<&str> = parts.iter().map(|p| p.name()).collect();
                        format!("one result per part: {}", names.join(", "))
                    },
                    sources: rule.sources.clone(),
                })
            })
            .collect()
    }

    /// An op's rule in words, over the dtypes the framework has.
    fn rule_words(&self, rule: &OpRule) -> String {
        let dtypes: Vec<DType> = DType::ALL.into_iter().filter(|d| self.has(*d)).collect();
        let mut parts = Vec::new();
        if let Some(loops) = &rule.loops {
            let names: Vec<&str> = loops.iter().map(|d| d.name()).collect();
            parts.push(format!("loops {}", names.join(" ")));
        }
        let changes: Vec<String> = dtypes
            .iter()
            .filter_map(|&d| match rule.action[d.index()] {
                Action::Compute(c) if self.canonical(c) != d => Some(format!("{d}→{c}")),
                _ => None,
            })
            .collect();
        if !changes.is_empty() {
            parts.push(format!("computes {}", changes.join(" ")));
        }
        let returns: Vec<String> = dtypes
            .iter()
            .filter_map(|&d| rule.returns[d.index()].map(|r| format!("{d}→{r}")))
            .filter(|s| {
                let (a, b) = s.split_once('→').unwrap_or_default();
                a != b
            })
            .collect();
        if let Some(r) = rule.result {
            parts.push(format!("returns {r}"));
        } else if !returns.is_empty() {
            parts.push(format!("returns {}", returns.join(" ")));
        }
        let refused: Vec<&str> = dtypes
            .iter()
            .filter(|d| rule.action[d.index()] == Action::Unsupported)
            .map(|d| d.name())
            .collect();
        if !refused.is_empty() {
            parts.push(format!("refuses {}", refused.join(" ")));
        }
        if rule.same_dtype {
            parts.push("operands of one dtype".into());
        }
        if rule.dtype_arg {
            parts.push("takes dtype=".into());
        }
        if parts.is_empty() {
            "computes and returns the promoted dtype".into()
        } else {
            parts.join("; ")
        }
    }
}
