//! Every policy replayed over one session, side by side: what `ctxlens compare` prints
//! and the TUI's compare view shows. A policy the user gives no settings runs as its
//! agent does by default for the model's window ([`default_settings`]); the frameworks
//! without a default get a stated assumption.

use rayon::prelude::*;

use super::replay::{replay, Inputs, Replayed};
use super::{chat_view_counted, Policy, PolicySettings};
use crate::calibrate::calibrate_epochs;
use crate::cancel::CancelToken;
use crate::summarize::Summarizer;
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// One policy's row.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Compared {
    /// The settings it ran with.
    pub settings: Vec<(String, String)>,
    /// Its replay.
    #[serde(flatten)]
    pub replayed: Replayed,
}

/// Each policy's settings when the user gives none: what the agent does by default for
/// a model with `window` tokens, or — for the frameworks without a default — a stated
/// assumption (documented in `docs/policies.md`).
pub fn default_settings(name: &str, window: u64) -> Vec<(&'static str, String)> {
    let w = window.to_string();
    match name {
        // The two compactors ctxlens runs itself have no agent default: 80% of the window.
        "toolnexus" | "llm4s" => vec![("max_tokens", (window * 8 / 10).to_string())],
        "claude-code" | "codex" => vec![("context_window", w)],
        "opencode" => vec![("context", w)],
        "langchain-summarization" => vec![("trigger", "fraction:0.8".to_owned()), ("max_input_tokens", w)],
        "langchain-trim" => vec![
            ("max_tokens", w),
            ("start_on", "human".to_owned()),
            ("include_system", "true".to_owned()),
        ],
        "semantic-kernel-truncation" | "semantic-kernel-summarization" => {
            vec![("target_count", "50".to_owned()), ("threshold_count", "10".to_owned())]
        }
        _ => Vec::new(),
    }
}

/// A policy's settings in a comparison: its defaults for the window, then `set`
/// (`NAME.KEY=VALUE` for this policy, a bare `KEY=VALUE` for every policy that has it).
pub fn settings_for(policy: &dyn Policy, window: u64, set: &[String]) -> Result<PolicySettings, String> {
    let mut settings = PolicySettings::default();
    for (k, v) in default_settings(policy.name(), window) {
        settings = settings.with(k, v);
    }
    for pair in set {
        let (key, value) = pair
            .split_once('=')
            .ok_or_else(|| format!("--set {pair}: expected [NAME.]KEY=VALUE"))?;
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
    let settings: Vec<PolicySettings> = policies
        .iter()
        .map(|p| settings_for(*p, window, set))
        .collect::<Result<_, _>>()
        .map_err(crate::Error::Summary)?;
    let fits = calibrate_epochs(whole, counts);
    let chat = chat_view_counted(whole, counts);
    let turns = crate::loss::session::SessionTurns::of_session(whole);
    policies
        .par_iter()
        .zip(settings.par_iter())
        .map(|(policy, settings)| {
            let replayed = replay(&Inputs {
                whole,
                counts,
                policy: *policy,
                settings,
                summarizer,
                fits: &fits,
                chat: &chat,
                turns: &turns,
                cancel,
            })?;
            if let Some(tell) = progress {
                let done = replayed_so_far.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
                tell(done, policies.len());
            }
            Ok(Compared {
                settings: settings.pairs(),
                replayed,
            })
        })
        .collect()
}
