//! `--set KEY=VALUE` for a policy: the keys as the agent spells them, read as the
//! agent reads them (numbers, booleans, lists, `none`), every unknown key an error that
//! names the keys the policy takes.

use std::collections::BTreeMap;

/// The `--set` values given, by key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PolicySettings {
    values: BTreeMap<String, String>,
}

impl PolicySettings {
    /// From `KEY=VALUE` pairs; a later value for a key wins.
    pub fn parse<'a>(pairs: impl IntoIterator<Item = &'a str>) -> Result<PolicySettings, crate::Error> {
        let mut values = BTreeMap::new();
        for pair in pairs {
            let (key, value) = pair
                .split_once('=')
                .ok_or_else(|| crate::Error::Setting(format!("--set {pair}: expected KEY=VALUE")))?;
            values.insert(key.trim().to_owned(), value.trim().to_owned());
        }
        Ok(PolicySettings { values })
    }

    /// Every value, by key.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.values.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
    }

    /// Sets one value (the TUI's picker and tests).
    #[must_use]
    pub fn with(mut self, key: &str, value: impl std::fmt::Display) -> PolicySettings {
        self.values.insert(key.to_owned(), value.to_string());
        self
    }

    /// Sets one value when there is one.
    #[must_use]
    pub fn with_optional(self, key: &str, value: Option<impl std::fmt::Display>) -> PolicySettings {
        match value {
            Some(v) => self.with(key, v),
            None => self,
        }
    }

    /// Every key is one of `keys`.
    pub fn check_keys(&self, policy: &str, keys: &[&str]) -> Result<(), crate::Error> {
        match self.values.keys().find(|k| !keys.contains(&k.as_str())) {
            Some(unknown) => Err(crate::Error::Setting(format!(
                "--set {unknown}: {policy} has no such setting (its settings: {})",
                keys.join(", ")
            ))),
            None => Ok(()),
        }
    }

    /// The raw text of `key`.
    pub fn text(&self, key: &str) -> Option<&str> {
        self.values.get(key).map(String::as_str)
    }

    /// A whole number (`_` separators allowed).
    pub fn number(&self, key: &str) -> Result<Option<u64>, crate::Error> {
        self.text(key)
            .map(|t| {
                t.replace('_', "")
                    .parse::<u64>()
                    .map_err(|_| crate::Error::Setting(format!("--set {key}={t}: expected a whole number")))
            })
            .transpose()
    }

    /// A whole number, or `default`.
    pub fn number_or(&self, key: &str, default: u64) -> Result<u64, crate::Error> {
        Ok(self.number(key)?.unwrap_or(default))
    }

    /// A whole number, `none` (no value) or absent (`default`).
    pub fn optional_number(&self, key: &str, default: Option<u64>) -> Result<Option<u64>, crate::Error> {
        match self.text(key) {
            Some(t) if t.eq_ignore_ascii_case("none") => Ok(None),
            Some(_) => self.number(key),
            None => Ok(default),
        }
    }

    /// `true`/`false` (also `1`/`0`, `yes`/`no`).
    pub fn flag(&self, key: &str, default: bool) -> Result<bool, crate::Error> {
        match self.text(key).map(str::to_ascii_lowercase).as_deref() {
            None => Ok(default),
            Some("true" | "1" | "yes") => Ok(true),
            Some("false" | "0" | "no") => Ok(false),
            Some(other) => Err(crate::Error::Setting(format!(
                "--set {key}={other}: expected true or false"
            ))),
        }
    }

    /// A comma-separated list (empty when absent).
    pub fn list(&self, key: &str) -> Vec<String> {
        self.text(key)
            .map(|t| {
                t.split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// One of `choices` (or `default`).
    pub fn choice(
        &self,
        key: &str,
        choices: &[&'static str],
        default: &'static str,
    ) -> Result<&'static str, crate::Error> {
        match self.text(key) {
            None => Ok(default),
            Some(t) => choices
                .iter()
                .copied()
                .find(|c| c.eq_ignore_ascii_case(t))
                .ok_or_else(|| {
                    crate::Error::Setting(format!("--set {key}={t}: expected one of {}", choices.join(", ")))
                }),
        }
    }
}
