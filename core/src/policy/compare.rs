//! Every policy replayed over one session, side by side: what `ctxlens compare` prints
//! and the TUI's compare view shows. A policy the user gives no settings runs as its
//! agent does by default for the model's window ([`Policy::defaults`]); the frameworks
//! without a default get a stated assumption.

use rayon::prelude::*;

use super::replay::{Replayed, SessionReplays};
use super::{Policy, PolicySettings};
use crate::cancel::CancelToken;
use crate::summarize::Summarizer;
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// The model's context window a comparison takes the agents' defaults from: the one
/// given, else the one the log records ([`Transcript::model_window`]), else the model's,
/// else Claude Code's default.
pub fn window_for(given: Option<u64>, whole: &Transcript) -> u64 {
    given
        .or_else(|| whole.model_window())
        .or_else(|| whole.model().and_then(crate::models::window_of).map(|w| w.tokens))
        .unwrap_or(super::claude_code::DEFAULT_WINDOW)
}

/// `compare`'s answer (`ctxlens compare --json`, `Transcript.compare()` in Python).
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CompareDoc {
    /// The window the defaults were taken from.
    pub context_window: u64,
    /// The summarizer the firings used.
    pub summarizer: String,
    /// One row per policy.
    pub policies: Vec<Compared>,
    /// What each policy would have cost with prompt caching (a log with recorded usage).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Costs>,
}

impl crate::document::Document for CompareDoc {
    const NAME: &'static str = "compare";
}

impl CompareDoc {
    /// The answer for `rows`, compared on `whole` at `window` with `summarizer`.
    pub fn of(whole: &Transcript, window: u64, summarizer: String, rows: Vec<Compared>) -> CompareDoc {
        CompareDoc {
            context_window: window,
            summarizer,
            cost: Costs::of(whole, &rows),
            policies: rows,
        }
    }
}

/// The costs in a comparison: the log's own, and each policy's modelled one.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Costs {
    /// The price table.
    pub prices: String,
    /// What the log recorded, in dollars; `None` when a model it names is not in the
    /// price table.
    pub recorded: Option<f64>,
    /// The share of the log's cache writes, in percent, made by rewrites whose cause it
    /// does not show; over 25 the figures without the log's misses are not modelled.
    pub unexplained_rewrites_percent: Option<f64>,
    /// Each policy's modelled cost, in the rows' order.
    pub policies: Vec<super::replay_cost::ReplayCost>,
}

impl Costs {
    /// The costs of a comparison, when the log records what its calls cost.
    pub fn of(whole: &Transcript, rows: &[Compared]) -> Option<Costs> {
        let table = crate::cost::PriceTable::builtin();
        let recorded = crate::cost::session_cost(whole, table)?;
        let cache = super::replay_cost::CacheModel::of(whole, table);
        Some(Costs {
            prices: table.name.clone(),
            recorded: recorded.complete_total(),
            unexplained_rewrites_percent: recorded.unexplained_percent(),
            policies: rows.iter().map(|r| cache.cost(&r.replayed)).collect(),
        })
    }
}

/// One policy's row.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Compared {
    /// The settings it ran with.
    pub settings: Vec<(String, String)>,
    /// What the session would have cost under it with prompt caching, in dollars (the
    /// built-in price table, [`super::replay_cost::replay_cost`]); `None` where the log records no
    /// usage or the table lacks a model's price.
    pub cost_usd: Option<f64>,
    /// Its replay.
    #[serde(flatten)]
    pub replayed: Replayed,
}

/// Checks the `--set` pairs of a comparison before anything runs: `NAME.KEY=VALUE` names
/// a compared policy and one of its keys, a bare `KEY=VALUE` is a key some compared
/// policy takes, and no key is empty. A typo is an error with the valid keys, never a
/// setting silently applied to nothing.
pub fn check_set(policies: &[&'static dyn Policy], set: &[String]) -> Result<(), crate::Error> {
    for pair in set {
        let (key, _) = pair
            .split_once('=')
            .ok_or_else(|| crate::Error::Setting(format!("--set {pair}: expected [NAME.]KEY=VALUE")))?;
        match key.split_once('.') {
            Some((name, key)) => {
                let policy = policies.iter().find(|p| p.name() == name).ok_or_else(|| {
                    let names: Vec<&str> = policies.iter().map(|p| p.name()).collect();
                    crate::Error::Setting(format!(
                        "--set {pair}: `{name}` is not a compared policy (one of: {})",
                        names.join(", ")
                    ))
                })?;
                if !policy.keys().contains(&key) {
                    return Err(crate::Error::Setting(format!(
                        "--set {pair}: {name} has no key `{key}` (it takes {})",
                        policy.keys().join(", ")
                    )));
                }
            }
            None if key.trim().is_empty() => return Err(crate::Error::Setting(format!("--set {pair}: no key"))),
            None => {
                if !policies.iter().any(|p| p.keys().contains(&key)) {
                    return Err(crate::Error::Setting(format!(
                        "--set {pair}: no compared policy takes `{key}` (give NAME.KEY for one policy's key)"
                    )));
                }
            }
        }
    }
    Ok(())
}

/// A policy's settings in a comparison: its defaults for the window, then `set`
/// (`NAME.KEY=VALUE` for this policy, a bare `KEY=VALUE` for every policy that has it).
pub fn settings_for(policy: &dyn Policy, window: u64, set: &[String]) -> Result<PolicySettings, crate::Error> {
    let mut settings = PolicySettings::default();
    for (k, v) in policy.defaults(window) {
        settings = settings.with(k, v);
    }
    for pair in set {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| crate::Error::Setting(format!("--set {pair}: expected [NAME.]KEY=VALUE")))?;
        let target = match key.split_once('.') {
            Some((name, key)) => (name == policy.name()).then_some(key),
            None => policy.keys().contains(&key).then_some(key),
        };
        if let Some(key) = target {
            settings = settings.with(key, value);
        }
    }
    Ok(settings)
}

/// A policy's settings for one run: its defaults for `window`, then the ones `given`
/// (`replay --policy`, `sweep --policy`, `compact --policy`; [`settings_for`] makes a
/// comparison's the same way, so the two give one answer).
pub fn with_defaults(policy: &dyn Policy, window: u64, given: &PolicySettings) -> PolicySettings {
    let mut settings = PolicySettings::default();
    for (key, value) in policy.defaults(window) {
        settings = settings.with(key, value);
    }
    for (key, value) in given.pairs() {
        settings = settings.with(&key, value);
    }
    settings
}

/// Replays `policies` over `whole` (every epoch, with its counts) in parallel; `progress`
/// is told `(replayed, of)` as each policy's replay ends.
// The inputs are the session, the policies, their settings as asked and how to run: a
// struct for them would only rename these.
#[allow(clippy::too_many_arguments)]
pub fn compare(
    whole: &Transcript,
    counts: &Counts,
    policies: &[&'static dyn Policy],
    window: u64,
    set: &[String],
    summarizer: &dyn Summarizer,
    cancel: &CancelToken,
    progress: Option<crate::progress::Tell>,
) -> crate::Result<Vec<Compared>> {
    let replayed_so_far = std::sync::atomic::AtomicUsize::new(0);
    check_set(policies, set)?;
    let settings: Vec<PolicySettings> = policies
        .iter()
        .map(|p| settings_for(*p, window, set))
        .collect::<Result<_, _>>()?;
    let session = SessionReplays::of(whole, counts);
    // Priced only where the log says what its calls were billed.
    let table = crate::cost::PriceTable::builtin();
    let cache = crate::cost::session_cost(whole, table)
        .is_some()
        .then(|| super::replay_cost::CacheModel::of(whole, table));
    policies
        .par_iter()
        .zip(settings.par_iter())
        .map(|(policy, settings)| {
            let replayed = session.replay(*policy, settings, summarizer, Some(window), cancel)?;
            if let Some(tell) = progress {
                let done = replayed_so_far.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                tell(done, policies.len());
            }
            Ok(Compared {
                settings: settings.pairs(),
                cost_usd: cache.as_ref().and_then(|cache| cache.cost(&replayed).total),
                replayed,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyPlan, Section};

    /// A sixteenth policy, written only here: it drops all but its last `keep` messages.
    /// Nothing outside this module names it, and compare runs it with its own defaults.
    struct KeepLast;

    impl Policy for KeepLast {
        fn name(&self) -> &'static str {
            "test-keep-last"
        }

        fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
            vec![("keep", (window / 1000).to_string())]
        }

        fn keys(&self) -> &'static [&'static str] {
            &["keep"]
        }

        fn plan_chat(
            &self,
            chat: &[crate::policy::ChatMessage],
            settings: &PolicySettings,
        ) -> Result<PolicyPlan, crate::Error> {
            let keep = settings.number("keep")?.unwrap_or(0) as usize;
            let mut plan = PolicyPlan::unchanged(self.name(), "messages", chat.len());
            let cut = chat.len().saturating_sub(keep);
            for row in &mut plan.messages[..cut] {
                row.section = Section::Dropped;
            }
            plan.compacted = cut > 0;
            Ok(plan)
        }
    }

    static KEEP_LAST: KeepLast = KeepLast;

    #[test]
    fn a_policy_added_in_its_own_module_runs_with_its_defaults() {
        let defaults = settings_for(&KEEP_LAST, 3_000, &[]).expect("settings");
        assert_eq!(
            defaults.number("keep").ok(),
            Some(Some(3)),
            "its own default for the window"
        );
        let set = settings_for(&KEEP_LAST, 3_000, &["test-keep-last.keep=2".to_owned()]).expect("settings");
        assert_eq!(set.number("keep").ok(), Some(Some(2)), "`NAME.KEY=VALUE` reaches it");

        let text = r#"[{"role":"user","content":"one"},{"role":"assistant","content":"two"},{"role":"user","content":"three"},{"role":"assistant","content":"four"},{"role":"user","content":"five"}]"#;
        let whole = Transcript::parse("five.json", text.as_bytes().to_vec(), None).expect("a transcript");
        let counts = Counts::compute(&whole, crate::tokens::Tokenizer::Estimate);
        let rows = compare(
            &whole,
            &counts,
            &[&KEEP_LAST],
            3_000,
            &[],
            &crate::summarize::Placeholder,
            crate::cancel::never(),
            None,
        )
        .expect("a comparison");
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].replayed.policy, "test-keep-last");
        assert_eq!(rows[0].settings, vec![("keep".to_owned(), "3".to_owned())]);
    }

    #[test]
    fn a_mistyped_set_is_refused_with_what_is_valid() {
        let policies: [&'static dyn Policy; 1] = [&KEEP_LAST];
        let refused = |pair: &str| check_set(&policies, &[pair.to_owned()]).unwrap_err().to_string();
        assert!(refused("test-keep-last.kep=1").contains("has no key `kep` (it takes keep)"));
        assert!(refused("codex.keep=1").contains("not a compared policy"));
        assert!(refused("kep=1").contains("no compared policy takes `kep`"));
        assert!(refused("=1").contains("no key"));
        assert!(refused(".=1").contains("not a compared policy"));
        assert!(refused("test-keep-last.=1").contains("has no key ``"));
        assert!(refused("keep").contains("expected [NAME.]KEY=VALUE"));
        assert!(check_set(&policies, &["keep=1".to_owned(), "test-keep-last.keep=2".to_owned()]).is_ok());
    }
}
