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
//! How the shared prefix is billed is the provider's (`CacheRule`): Anthropic writes
//! what it caches at the write price; OpenAI and Gemini cache a prefix on their own at
//! no extra cost, from a minimum length (and for OpenAI in steps), so what a call does
//! not read is plain input.
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

/// How a provider bills the prefix a call shares with an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum CacheRule {
    /// Anthropic: what is not read from the cache is written to it, at the write price.
    Written,
    /// OpenAI and Gemini: prefixes are cached without being asked, at no extra cost; a
    /// call reads the shared prefix when it is at least `minimum` tokens, rounded down to
    /// a multiple of `step`, and the rest is plain input.
    Implicit { minimum: u64, step: u64 },
}

impl CacheRule {
    /// The rule for `model`'s provider: OpenAI caches prompts of 1,024 tokens or more in
    /// steps of 128 (its prompt-caching guide); Gemini from 1,024 tokens for its Flash
    /// models and 4,096 for Pro (the Gemini API's caching page, 2026-05); any other
    /// (Anthropic's, and models of no known family) as Anthropic bills.
    fn of(model: Option<&str>) -> CacheRule {
        let model = model.unwrap_or_default().to_ascii_lowercase();
        let family = model.rsplit('/').next().unwrap_or_default();
        let openai = ["gpt-", "o1", "o3", "o4", "codex"]
            .iter()
            .any(|prefix| family.starts_with(prefix));
        if openai {
            CacheRule::Implicit {
                minimum: 1_024,
                step: 128,
            }
        } else if family.starts_with("gemini") {
            let minimum = if family.contains("flash") { 1_024 } else { 4_096 };
            CacheRule::Implicit { minimum, step: 1 }
        } else {
            CacheRule::Written
        }
    }

    /// A call of `prompt` tokens sharing `prefix` with a cached one, and its `output`.
    fn usage(self, prompt: u64, prefix: u64, output: u64) -> Recorded {
        let prefix = prefix.min(prompt);
        match self {
            CacheRule::Written => Recorded {
                cache_read_tokens: prefix,
                cache_write_5m_tokens: prompt - prefix,
                output_tokens: output,
                ..Recorded::default()
            },
            CacheRule::Implicit { minimum, step } => {
                let read = if prefix >= minimum { prefix / step * step } else { 0 };
                Recorded {
                    cache_read_tokens: read,
                    input_tokens: prompt - read,
                    output_tokens: output,
                    ..Recorded::default()
                }
            }
        }
    }
}

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
        let rule = CacheRule::of(model.as_deref());
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
                    let summary = (firing.summary.chars().count() as u64).div_ceil(4);
                    bill(rule.usage(before, before, summary));
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
        bill(rule.usage(prompt, prefix, output));
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

#[cfg(test)]
mod tests {
    use super::CacheRule;

    #[test]
    fn each_provider_bills_a_shared_prefix_its_own_way() {
        // Anthropic: read what is shared, write the rest.
        let anthropic = CacheRule::of(Some("claude-sonnet-4-5")).usage(10_000, 8_000, 50);
        assert_eq!(
            (anthropic.cache_read_tokens, anthropic.cache_write_5m_tokens),
            (8_000, 2_000)
        );
        assert_eq!(anthropic.input_tokens, 0);
        // OpenAI: reads in steps of 128 from 1,024 tokens; nothing is written.
        let openai = CacheRule::of(Some("gpt-5.1-codex")).usage(10_000, 8_000, 50);
        assert_eq!((openai.cache_read_tokens, openai.input_tokens), (7_936, 2_064));
        assert_eq!(openai.cache_write_tokens(), 0);
        let short = CacheRule::of(Some("openai/gpt-4o")).usage(2_000, 1_000, 0);
        assert_eq!((short.cache_read_tokens, short.input_tokens), (0, 2_000));
        // Gemini: Flash from 1,024 tokens, Pro from 4,096.
        let flash = CacheRule::of(Some("gemini-3-flash-preview")).usage(3_000, 2_000, 0);
        assert_eq!(flash.cache_read_tokens, 2_000);
        let pro = CacheRule::of(Some("gemini-2.5-pro")).usage(3_000, 2_000, 0);
        assert_eq!((pro.cache_read_tokens, pro.input_tokens), (0, 3_000));
        // Every rule bills the whole prompt once.
        for usage in [anthropic, openai, short, flash, pro] {
            assert_eq!(
                usage.context_tokens(),
                usage.input_tokens + usage.cache_read_tokens + usage.cache_write_tokens()
            );
        }
    }
}
