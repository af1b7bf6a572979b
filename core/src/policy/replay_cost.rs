//! What a replayed policy would have cost with prompt caching. The provider caches a
//! prompt's prefix; a call reads from the cache the longest prefix it shares with an
//! earlier call still cached, and writes the rest. Over a replay that is, call by call:
//! - a call that grows the context the previous call sent reads that previous prompt
//!   and writes only what came since;
//! - a call right after a firing (a summary, a rewritten or cleared history, a view that
//!   left something out) shares only the stable prefix — the system prompt and tools, as
//!   the log's cache reads showed them before that call (the replay's own rule for the
//!   request after a firing, `policy::replay::SurvivingPrefixes`) — and writes the rest;
//! - a call after an idle gap longer than the cache lives (5 minutes, from the log's own
//!   clock) reads nothing and writes its whole prompt;
//! - a firing that summarizes makes one call more: the summarizer reads the context it
//!   summarizes from the cache and writes the summary.
//!
//! Output tokens are the ones the log recorded for that call. The model of each call is
//! the one its response names (a log may switch models). What the model cannot know —
//! a cache evicted early, an instruction changed early in the prompt — it leaves out, so
//! it prices a policy that never fires below what such a log recorded; compare it with
//! the log's own cost ([`crate::cost::session_cost`]), whose rewrites name their causes.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::replay::Replayed;
use crate::cost::{seconds, Dollars, PriceTable};
use crate::transcript::{Recorded, Transcript};

/// The cache's lifetime when nothing says otherwise (Anthropic's default; OpenAI keeps
/// a prefix at least as long).
const CACHE_SECONDS: i64 = 300;

/// A replay's modelled cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct ReplayCost {
    /// The policy.
    pub policy: &'static str,
    /// What its calls cost, by kind.
    pub dollars: Dollars,
    /// Their total; `None` when no call could be priced.
    pub total: Option<f64>,
    /// Model calls priced (the summarizer's included).
    pub calls: usize,
    /// Tokens written to and read from the cache over the session.
    pub cache_write_tokens: u64,
    /// See `cache_write_tokens`.
    pub cache_read_tokens: u64,
    /// Models the table has no price for.
    pub unpriced_models: Vec<String>,
}

/// The cost of `replayed` (a replay of `whole`) with prompt caching, priced from `table`.
pub fn replay_cost(whole: &Transcript, replayed: &Replayed, table: &PriceTable) -> ReplayCost {
    // One pass over the session, asked at each firing (a view policy fires at every call).
    let prefixes = super::replay::SurvivingPrefixes::of(whole);
    let firings: BTreeMap<usize, &crate::policy::replay::Firing> = replayed.firings.iter().map(|f| (f.at, f)).collect();
    let mut out = ReplayCost {
        policy: replayed.policy,
        dollars: Dollars::default(),
        total: None,
        calls: 0,
        cache_write_tokens: 0,
        cache_read_tokens: 0,
        unpriced_models: Vec::new(),
    };
    let mut unpriced = BTreeSet::new();
    let mut priced_any = false;
    // Where responses do not name their model (Codex names it per turn), the one the
    // log's recorded calls were made with.
    let mut last_model = whole.model().map(str::to_owned).or_else(|| {
        crate::cost::session_cost(whole, table).and_then(|c| c.calls.iter().rev().find_map(|c| c.model.clone()))
    });
    let mut previous: Option<(u64, Option<i64>)> = None;
    for call in &replayed.calls {
        let prompt = call.billed.unwrap_or(call.counted);
        let time = whole.time_before(call.at + 1).as_deref().and_then(seconds);
        let model = model_of(whole, call.at).or_else(|| last_model.clone());
        last_model.clone_from(&model);
        let fired = firings.get(&call.at);
        let mut bill = |usage: Recorded| {
            out.calls += 1;
            out.cache_write_tokens = out.cache_write_tokens.saturating_add(usage.cache_write_tokens());
            out.cache_read_tokens = out.cache_read_tokens.saturating_add(usage.cache_read_tokens);
            match model.as_deref().and_then(|m| table.prices(m)) {
                Some(prices) => {
                    priced_any = true;
                    out.dollars.add(&Dollars::of(&usage, prices));
                }
                None => {
                    unpriced.insert(model.clone().unwrap_or_else(|| "(no model named)".to_owned()));
                }
            }
        };
        let idle = matches!((previous, time), (Some((_, Some(before))), Some(now)) if now - before > CACHE_SECONDS);
        let prefix = match previous {
            None => 0,
            Some(_) if idle => 0,
            Some((before, _)) => {
                if let Some(firing) = fired.filter(|f| f.summary_input_tokens > 0) {
                    // The summarizer's own call: the context it summarizes, from the cache.
                    bill(Recorded {
                        cache_read_tokens: before,
                        output_tokens: (firing.summary.chars().count() as u64).div_ceil(4),
                        ..Recorded::default()
                    });
                }
                if fired.is_some() {
                    // What survives a change to the messages, as the replay predicts the
                    // request after a firing (one rule for its size and its price).
                    prefixes.before(call.at).unwrap_or(0)
                } else {
                    before
                }
            }
        }
        .min(prompt);
        let output = whole.messages()[call.at].recorded().map_or(0, |r| r.output_tokens);
        bill(Recorded {
            cache_read_tokens: prefix,
            cache_write_5m_tokens: prompt - prefix,
            output_tokens: output,
            ..Recorded::default()
        });
        previous = Some((prompt, time));
    }
    out.total = priced_any.then(|| out.dollars.total());
    out.unpriced_models = unpriced.into_iter().collect();
    out
}

/// The model a call's response names, from its JSON (Claude Code: `model`).
fn model_of(whole: &Transcript, index: usize) -> Option<String> {
    let raw = whole.raw(index);
    if !raw.contains("\"model\"") {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(raw).ok()?;
    value.get("model")?.as_str().map(str::to_owned)
}
