//! Framework settings as policy parameters (`[settings.KEY]` in a policy file, `--set KEY=VALUE`
//! on the command line, a query's `"set"`): `torch.set_default_dtype`, JAX's `jax_enable_x64`
//! and `jax_numpy_dtype_promotion`, TensorFlow's `dtype_conversion_mode`.
//!
//! A file declares each setting it takes, the value it reproduces (`default`) and, for every
//! other value, the policy that answers under it: another built-in policy (`policy = "jax-x64"`),
//! or the same file with a `patch` merged into it (PyTorch's default float64 changes its
//! `defaults` and its Python-literal dtypes). Several settings at once are settled one key at a
//! time, each step carrying the whole wanted assignment, so the order never matters (the test
//! `every_setting_combination_settles` checks every combination of every built-in policy).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::error::{suggest, PromoteError};

use super::compile::compile;
use super::spec;
use super::RulePolicy;

/// The settings a compiled policy takes, and the file text patches are merged into.
#[derive(Clone, Debug, Default)]
pub(crate) struct Settings {
    /// The policy file as written (before any patch).
    pub(crate) src: Arc<str>,
    /// The file's name, for errors.
    pub(crate) file: String,
    /// The patches merged into `src` to make this policy: (key, value, patch), in order.
    pub(crate) patched: Vec<(String, String, toml::Table)>,
    /// Each setting: its current value and where each other value leads.
    pub(crate) keys: BTreeMap<String, Setting>,
}

/// One setting of a compiled policy.
#[derive(Clone, Debug)]
pub(crate) struct Setting {
    source: String,
    value: String,
    links: BTreeMap<String, Link>,
}

/// Where a value of a setting leads.
#[derive(Clone, Debug)]
enum Link {
    /// Another built-in policy.
    Policy(String),
    /// The same file with this table merged into it.
    Patch(toml::Table),
}

/// A setting a policy takes, for people and for `promote policies` (see
/// [`RulePolicy::settings`]).
///
/// ```
/// let torch = promote::builtin("torch").unwrap();
/// let s = torch.settings().into_iter().find(|s| s.key == "default_float").unwrap();
/// assert_eq!(s.values, ["float32", "float64"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingInfo {
    /// The key (`default_float`, `enable_x64`, ...).
    pub key: String,
    /// The value this policy reproduces.
    pub value: String,
    /// Every value the setting takes, this policy's first.
    pub values: Vec<String>,
    /// How the setting is made in the framework, and what checks each value.
    pub source: String,
}

/// The settings of a file's `[settings.KEY]` tables, compiled.
pub(crate) fn settings(
    src: &str,
    file: &str,
    specs: &BTreeMap<String, spec::SettingSpec>,
) -> Result<Settings, PromoteError> {
    let mut keys = BTreeMap::new();
    for (key, s) in specs {
        let mut links = BTreeMap::new();
        for (value, v) in &s.values {
            let link = match (&v.policy, &v.patch) {
                (Some(p), None) => Link::Policy(p.clone()),
                (None, Some(t)) => Link::Patch(t.clone()),
                _ => {
                    return Err(PromoteError::PolicyFile {
                        file: file.into(),
                        line: 0,
                        column: 0,
                        message: format!(
                            "[settings.{key}.values.{value}] needs either `policy` (a built-in name) or `patch` (tables merged into this file), not both"
                        ),
                    })
                }
            };
            links.insert(value.clone(), link);
        }
        keys.insert(
            key.clone(),
            Setting {
                source: s.source.clone(),
                value: s.default.clone(),
                links,
            },
        );
    }
    Ok(Settings {
        src: src.into(),
        file: file.into(),
        patched: Vec::new(),
        keys,
    })
}

impl RulePolicy {
    /// The settings this policy takes (`[settings.KEY]` of its file), with the value it
    /// reproduces.
    ///
    /// ```
    /// let jax = promote::builtin("jax").unwrap();
    /// let keys: Vec<_> = jax.settings().into_iter().map(|s| (s.key, s.value)).collect();
    /// assert!(keys.contains(&("enable_x64".to_string(), "false".to_string())));
    /// ```
    pub fn settings(&self) -> Vec<SettingInfo> {
        let keys = &self.settings.keys;
        keys.iter()
            .map(|(k, s)| SettingInfo {
                key: k.clone(),
                value: s.value.clone(),
                values: std::iter::once(s.value.clone())
                    .chain(s.links.keys().filter(|v| **v != s.value).cloned())
                    .collect(),
                source: s.source.clone(),
            })
            .collect()
    }

    /// This framework under settings: the policy that reproduces it with `KEY=VALUE` for each
    /// pair (the others as this policy has them). An unknown key or value is an
    /// [`PromoteError::UnknownSetting`] naming the valid ones.
    ///
    /// ```
    /// use promote::{builtin, Call, Policy};
    /// let jax = builtin("jax").unwrap();
    /// assert_eq!(jax.with_settings(&[("enable_x64", "true")]).unwrap().name, "jax-x64");
    /// // strict promotion with x64 off: jax-strict without x64
    /// let strict = jax.with_settings(&[("numpy_dtype_promotion", "strict")]).unwrap();
    /// let c: Call = "add int8 int16".parse().unwrap();
    /// assert!(strict.result(&c).is_err());
    /// let c: Call = "add int64 ~int32".parse().unwrap();
    /// assert_eq!(strict.result(&c).unwrap().0, promote::DType::Int32);
    /// ```
    pub fn with_settings(
        &self,
        set: &[(impl AsRef<str>, impl AsRef<str>)],
    ) -> Result<Arc<RulePolicy>, PromoteError> {
        let mut want: BTreeMap<String, String> = self
            .settings
            .keys
            .iter()
            .map(|(k, s)| (k.clone(), s.value.clone()))
            .collect();
        for (k, v) in set {
            let (k, v) = (k.as_ref(), v.as_ref());
            let s = self.setting(k)?;
            if v != s.value && !s.links.contains_key(v) {
                let values: Vec<&str> = std::iter::once(s.value.as_str())
                    .chain(s.links.keys().map(String::as_str))
                    .collect();
                return Err(PromoteError::UnknownSetting {
                    policy: self.name.clone(),
                    what: format!("value `{}` for the setting {k}", crate::error::clip(v)),
                    suggestion: suggest(v, values.iter().copied()),
                    valid: format!("{k} takes {}", values.join(", ")),
                });
            }
            want.insert(k.into(), v.into());
        }
        let key = format!(
            "{}|{:p}|{:?}|{want:?}",
            self.name,
            Arc::as_ptr(&self.settings.src),
            self.settings
                .patched
                .iter()
                .map(|(k, v, _)| (k, v))
                .collect::<Vec<_>>()
        );
        static CACHE: OnceLock<Mutex<BTreeMap<String, Arc<RulePolicy>>>> = OnceLock::new();
        let cache = CACHE.get_or_init(Default::default);
        if let Some(p) = cache.lock().ok().and_then(|c| c.get(&key).cloned()) {
            return Ok(p);
        }
        let p = settle(Arc::new(self.clone()), &want, 0)?;
        if let Ok(mut c) = cache.lock() {
            c.insert(key, p.clone());
        }
        Ok(p)
    }

    fn setting(&self, k: &str) -> Result<&Setting, PromoteError> {
        self.settings.keys.get(k).ok_or_else(|| {
            let keys = self.settings.keys.keys().map(String::as_str);
            PromoteError::UnknownSetting {
                policy: self.name.clone(),
                what: format!("setting `{}`", crate::error::clip(k)),
                suggestion: suggest(k, keys),
                valid: match self.settings.keys.is_empty() {
                    true => "it takes no settings".into(),
                    false => format!("it takes {}", self.settings_text()),
                },
            }
        })
    }

    /// `key (value, other values), ...`: the settings in one line.
    fn settings_text(&self) -> String {
        let s = self.settings().into_iter();
        s.map(|s| format!("{} ({})", s.key, s.values.join(", ")))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Follow links from `p` until every wanted value holds (at most one step per key and a few
/// more: a link may lead to a policy that differs in a key already settled).
fn settle(
    p: Arc<RulePolicy>,
    want: &BTreeMap<String, String>,
    depth: usize,
) -> Result<Arc<RulePolicy>, PromoteError> {
    let differs = want
        .iter()
        .find(|(k, v)| p.settings.keys.get(*k).is_none_or(|s| s.value != **v));
    let Some((k, v)) = differs else {
        return Ok(p);
    };
    let stuck = || PromoteError::UnknownSetting {
        policy: p.name.clone(),
        what: format!("way to {k}={v} from its settings"),
        suggestion: None,
        valid: format!(
            "the [settings] tables of {} do not lead there; it takes {}",
            p.settings.file,
            p.settings_text()
        ),
    };
    if depth > 2 * want.len() + 2 {
        return Err(stuck());
    }
    let link = p.settings.keys.get(k).and_then(|s| s.links.get(v));
    let next = match link.ok_or_else(stuck)? {
        Link::Policy(name) => super::builtin(name)?,
        Link::Patch(t) => Arc::new(patched(&p, k, v, t)?),
    };
    settle(next, want, depth + 1)
}

/// The policy's file with its patches and `KEY=VALUE`'s merged in, compiled.
fn patched(p: &RulePolicy, k: &str, v: &str, t: &toml::Table) -> Result<RulePolicy, PromoteError> {
    let s = &p.settings;
    let file_err = |message: String| PromoteError::PolicyFile {
        file: s.file.clone(),
        line: 0,
        column: 0,
        message,
    };
    let mut doc: toml::Table = toml::from_str(&s.src).map_err(|e| file_err(e.to_string()))?;
    let base_name = doc
        .get("name")
        .and_then(|n| n.as_str())
        .unwrap_or_default()
        .to_string();
    let mut patched = s.patched.clone();
    patched.retain(|(pk, _, _)| pk != k);
    // an empty patch is the way back to the file's own value (added below)
    if !t.is_empty() {
        patched.push((k.into(), v.into(), t.clone()));
    }
    let mut name = base_name;
    for (pk, pv, pt) in &patched {
        merge(&mut doc, pt);
        name = format!("{name}@{pk}={pv}");
        // the merged file reproduces pv: its default says so, and its old default leads back
        if let Some(toml::Value::Table(st)) = doc
            .get_mut("settings")
            .and_then(|x| x.as_table_mut())
            .and_then(|x| x.get_mut(pk.as_str()))
        {
            let old = st.insert("default".into(), toml::Value::String(pv.clone()));
            let back: toml::Table = [("patch".to_string(), toml::Value::Table(toml::Table::new()))]
                .into_iter()
                .collect();
            if let (Some(toml::Value::String(old)), Some(toml::Value::Table(values))) =
                (old, st.get_mut("values"))
            {
                values.insert(old, toml::Value::Table(back));
            }
        }
    }
    doc.insert("name".into(), toml::Value::String(name));
    let text = toml::to_string(&doc).map_err(|e| file_err(e.to_string()))?;
    let mut q = compile(&text, &format!("{} with {k}={v}", s.file))?;
    q.settings = Arc::new(Settings {
        src: s.src.clone(),
        file: s.file.clone(),
        patched,
        keys: q.settings.keys.clone(),
    });
    Ok(q)
}

/// Merge `patch` into `doc`: a table into a table key by key, `rules` entries in front of the
/// document's own, any other value replacing the document's.
pub(crate) fn merge(doc: &mut toml::Table, patch: &toml::Table) {
    for (k, v) in patch {
        match (doc.get_mut(k), v) {
            (Some(toml::Value::Table(d)), toml::Value::Table(p)) => merge(d, p),
            (Some(toml::Value::Array(d)), toml::Value::Array(p)) if k == "rules" => {
                let mut all = p.clone();
                all.append(d);
                *d = all;
            }
            _ => {
                doc.insert(k.clone(), v.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in policy, under every combination of its settings' values, settles on a
    /// policy that reproduces exactly that combination, whatever the order the keys are given in.
    #[test]
    fn every_setting_combination_settles() {
        for name in super::super::BUILTIN {
            let p = super::super::builtin(name).unwrap();
            let infos = p.settings();
            let mut combos: Vec<Vec<(String, String)>> = vec![vec![]];
            for s in &infos {
                combos = combos
                    .into_iter()
                    .flat_map(|c| {
                        s.values.iter().map(move |v| {
                            let mut c = c.clone();
                            c.push((s.key.clone(), v.clone()));
                            c
                        })
                    })
                    .collect();
            }
            for combo in combos {
                let mut rev = combo.clone();
                rev.reverse();
                for order in [&combo, &rev] {
                    let q = p.with_settings(order).unwrap();
                    let got: Vec<_> = q.settings().into_iter().map(|s| (s.key, s.value)).collect();
                    let mut want = combo.clone();
                    want.sort();
                    assert_eq!(got, want, "{name} with {order:?} gave {}", q.name);
                }
            }
        }
    }

    #[test]
    fn patches_merge_tables_and_put_rules_first() {
        let mut doc: toml::Table =
            toml::from_str("a = { x = 1, y = 2 }\nrules = [{ n = 1 }]\nb = 3").unwrap();
        let patch: toml::Table =
            toml::from_str("a = { y = 5 }\nrules = [{ n = 0 }]\nb = 4").unwrap();
        merge(&mut doc, &patch);
        let want: toml::Table =
            toml::from_str("a = { x = 1, y = 5 }\nrules = [{ n = 0 }, { n = 1 }]\nb = 4").unwrap();
        assert_eq!(doc, want);
    }
}
