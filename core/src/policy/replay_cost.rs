//! What a replayed policy would have cost with prompt caching. The provider caches a
//! prompt's prefix; a call reads from the cache the longest prefix it shares with an
//! earlier call still cached, and writes the rest. Over a replay that is, call by call:
//! - a call that grows the context the previous call sent reads that previous prompt
//!   and writes only what came since;
//! - a call right after a firing (a summary, a rewritten or cleared history, a view that
//!   left something out) shares only the stable prefix — the system prompt and tools, as
//!   the log's cache reads showed them before that call (the replay's own rule for the
//!   request after a firing, `policy::replay::SurvivingPrefixes`) — and writes the rest;
//! - a call after an idle gap longer than the cache lives (5 minutes, or an hour where
//!   the log's calls write for an hour; from the log's own clock) reads nothing and
//!   writes its whole prompt;
//! - the session's first call reads what the log's first call read (the system prompt
//!   and tools an earlier session left cached);
//! - where the log's own cache missed (a rewrite no setting causes: the provider's miss,
//!   or none the log shows; `cost::RewriteCause`), the call reads no more than the log
//!   says it read, and the figure without those misses is given beside;
//! - a firing that summarizes makes one call more: the summarizer reads the context it
//!   summarizes from the cache and writes the summary.
//!
//! How the shared prefix is billed is the provider's (`CacheRule`): Anthropic writes
//! what it caches at the write price; OpenAI and Gemini cache a prefix on their own at
//! no extra cost, from a minimum length (and for OpenAI in steps), so what a call does
//! not read is plain input.
//!
//! Output tokens are the ones the log recorded for that call. The model of each call is
//! the one its response names (a log may switch models). Compare it with the log's own
//! cost ([`crate::cost::session_cost`]), whose rewrites name their causes.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::replay::Replayed;
use crate::cost::{seconds, Dollars, PriceTable, RewriteCause, CACHE_SECONDS, ONE_HOUR_CACHE_SECONDS};
use crate::transcript::{Recorded, Transcript};

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

    /// A call of `prompt` tokens sharing `prefix` with a cached one, and its `output`;
    /// what it writes is written for an hour when `one_hour`, else for 5 minutes.
    fn usage(self, prompt: u64, prefix: u64, output: u64, one_hour: bool) -> Recorded {
        let prefix = prefix.min(prompt);
        match self {
            CacheRule::Written => Recorded {
                cache_read_tokens: prefix,
                cache_write_5m_tokens: if one_hour { 0 } else { prompt - prefix },
                cache_write_1h_tokens: if one_hour { prompt - prefix } else { 0 },
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
    /// Their total; `None` when any call could not be priced.
    pub total: Option<f64>,
    /// Model calls priced (the summarizer's included).
    pub calls: usize,
    /// Tokens written to and read from the cache over the session.
    pub cache_write_tokens: u64,
    /// See `cache_write_tokens`.
    pub cache_read_tokens: u64,
    /// Calls where the log's own cache misses were replayed: the log recorded the call
    /// rewriting its cache for a reason no setting changes (the provider's cache missed,
    /// or no cause the log shows), so the model reads no more than that call read.
    pub misses_replayed: usize,
    /// The total if the cache had never missed (those calls reading all they share with
    /// the call before): the model's own figure, beside `total`'s with the misses.
    pub total_without_misses: Option<f64>,
    /// The calls the model itself predicts write most of their prompt again (more than
    /// half of a prompt over [`crate::cost::REWRITE_MIN_PROMPT`] tokens, as `stats` names
    /// the log's): after a firing, an idle gap, or the first call. The log's own misses
    /// are not among them.
    pub full_rewrites: Vec<PredictedRewrite>,
    /// Models the table has no price for.
    pub unpriced_models: Vec<String>,
}

/// A call the cache model predicts writes most of its prompt again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PredictedRewrite {
    /// The message whose response the call is (0-based).
    pub message: usize,
    /// The log line of that message's first record (a log only).
    pub line: Option<usize>,
    /// Tokens it writes.
    pub written: u64,
    /// Why: the session's first call, an idle gap longer than the cache lives, or a
    /// firing just before it.
    pub cause: RewriteCause,
}

/// What a session's log shows about its cache, gathered once and used to price any
/// number of replays of it (a sweep prices one per row).
pub struct CacheModel<'a> {
    whole: &'a Transcript,
    table: &'a PriceTable,
    prefixes: super::replay::SurvivingPrefixes,
    /// Message index of each call the log records rewriting its cache for a reason no
    /// setting changes → the tokens that call read from the cache.
    misses: BTreeMap<usize, u64>,
    /// The model of the log's last recorded call (for calls that do not name theirs).
    last_model: Option<String>,
    /// The log line of each message's first record (a log only).
    lines: BTreeMap<usize, usize>,
}

impl<'a> CacheModel<'a> {
    /// The model of `whole`'s cache, priced from `table`.
    pub fn of(whole: &'a Transcript, table: &'a PriceTable) -> CacheModel<'a> {
        let recorded = crate::cost::session_cost(whole, table);
        let last_model = whole.model().map(str::to_owned).or_else(|| {
            recorded
                .as_ref()
                .and_then(|c| c.calls.iter().rev().find_map(|c| c.model.clone()))
        });
        CacheModel {
            whole,
            table,
            prefixes: super::replay::SurvivingPrefixes::of(whole),
            misses: recorded.map(|c| misses_by_message(whole, &c)).unwrap_or_default(),
            last_model,
            lines: first_lines(whole),
        }
    }

    /// The cost of `replayed` (a replay of this model's session).
    pub fn cost(&self, replayed: &Replayed) -> ReplayCost {
        let with = self.price(replayed, true);
        let without = self.price(replayed, false);
        ReplayCost {
            total_without_misses: without.total,
            full_rewrites: without.full_rewrites,
            ..with
        }
    }

    /// Prices `replayed`, repeating the log's own misses or not.
    fn price(&self, replayed: &Replayed, repeat_misses: bool) -> ReplayCost {
        let whole = self.whole;
        let firings: BTreeMap<usize, &crate::policy::replay::Firing> =
            replayed.firings.iter().map(|f| (f.at, f)).collect();
        let mut out = ReplayCost {
            policy: replayed.policy,
            dollars: Dollars::default(),
            total: None,
            calls: 0,
            cache_write_tokens: 0,
            cache_read_tokens: 0,
            misses_replayed: 0,
            total_without_misses: None,
            full_rewrites: Vec::new(),
            unpriced_models: Vec::new(),
        };
        let mut unpriced = BTreeSet::new();
        let mut priced_any = false;
        let mut last_model = self.last_model.clone();
        let mut previous: Option<(u64, Option<i64>)> = None;
        let mut one_hour = false;
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
                match model.as_deref().and_then(|m| self.table.prices(m)) {
                    Some(prices) => {
                        priced_any = true;
                        out.dollars.add(&Dollars::of(&usage, prices));
                    }
                    None => {
                        unpriced.insert(model.clone().unwrap_or_else(|| "(no model named)".to_owned()));
                    }
                }
            };
            // The cache lives as long as the log's own writes ask (a call that records
            // none keeps the lifetime of the last that did).
            let recorded = whole.messages()[call.at].recorded();
            if let Some(r) = recorded.filter(|r| r.cache_write_tokens() > 0) {
                one_hour = r.cache_write_1h_tokens > 0;
            }
            let lifetime = if one_hour {
                ONE_HOUR_CACHE_SECONDS
            } else {
                CACHE_SECONDS
            };
            let idle = matches!((previous, time), (Some((_, Some(before))), Some(now)) if now - before > lifetime);
            let mut prefix = match previous {
                // The session's first call reads what earlier sessions left cached (the
                // system prompt and tools), as the log's first call did.
                None => recorded.map_or(0, |r| r.cache_read_tokens),
                Some(_) if idle => 0,
                Some((before, _)) => {
                    if let Some(firing) = fired.filter(|f| f.summary_input_tokens > 0) {
                        // The summarizer's own call: the context it summarizes, from the cache.
                        let summary = (firing.summary.chars().count() as u64).div_ceil(4);
                        bill(rule.usage(before, before, summary, one_hour));
                    }
                    if fired.is_some() {
                        // What survives a change to the messages, as the replay predicts the
                        // request after a firing (one rule for its size and its price).
                        self.prefixes.before(call.at).unwrap_or(0)
                    } else {
                        before
                    }
                }
            }
            .min(prompt);
            if let Some(&read) = self.misses.get(&call.at).filter(|_| repeat_misses) {
                // The provider missed here whatever the policy: the call reads no more
                // than the log says it read.
                if read < prefix {
                    prefix = read;
                    out.misses_replayed += 1;
                }
            }
            let output = whole.messages()[call.at].recorded().map_or(0, |r| r.output_tokens);
            let usage = rule.usage(prompt, prefix, output, one_hour);
            let written = usage.cache_write_tokens();
            bill(usage);
            if prompt > crate::cost::REWRITE_MIN_PROMPT && written > prompt / 2 {
                out.full_rewrites.push(PredictedRewrite {
                    message: call.at,
                    line: self.lines.get(&call.at).copied(),
                    written,
                    cause: match previous {
                        None => RewriteCause::FirstCall,
                        Some(_) if idle => RewriteCause::IdleGap,
                        Some(_) => RewriteCause::Compaction,
                    },
                });
            }
            previous = Some((prompt, time));
        }
        // A call the table cannot price leaves the replay's cost unknown, as the log's.
        out.total = (priced_any && unpriced.is_empty()).then(|| out.dollars.total());
        out.unpriced_models = unpriced.into_iter().collect();
        out
    }
}

/// The cost of `replayed` (a replay of `whole`) with prompt caching, priced from `table`
/// (one replay; [`CacheModel`] prices many of the same session).
pub fn replay_cost(whole: &Transcript, replayed: &Replayed, table: &PriceTable) -> ReplayCost {
    CacheModel::of(whole, table).cost(replayed)
}

/// The message each provider-side rewrite of `recorded` belongs to (the message whose
/// first record is on its line), with what the call read.
fn misses_by_message(whole: &Transcript, recorded: &crate::cost::SessionCost) -> BTreeMap<usize, u64> {
    let reads: BTreeMap<usize, u64> = recorded
        .rewrites
        .iter()
        .filter(|r| matches!(r.cause, RewriteCause::CacheMiss | RewriteCause::Unexplained))
        .map(|r| (r.line, recorded.calls[r.call].usage.cache_read_tokens))
        .collect();
    if reads.is_empty() {
        return BTreeMap::new();
    }
    first_lines(whole)
        .into_iter()
        .filter_map(|(message, line)| Some((message, *reads.get(&line)?)))
        .collect()
}

/// The 1-based log line of each message's first record (one pass over the text; empty
/// for a transcript that is not a log).
fn first_lines(whole: &Transcript) -> BTreeMap<usize, usize> {
    let mut lines = crate::cost::Lines::of(whole);
    let mut out = BTreeMap::new();
    for record in whole.log_records() {
        let line = lines.at(record.range.start);
        if let Some(message) = record.message {
            out.entry(message).or_insert(line);
        }
    }
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
        let anthropic = CacheRule::of(Some("claude-sonnet-4-5")).usage(10_000, 8_000, 50, false);
        assert_eq!(
            (anthropic.cache_read_tokens, anthropic.cache_write_5m_tokens),
            (8_000, 2_000)
        );
        assert_eq!(anthropic.input_tokens, 0);
        // OpenAI: reads in steps of 128 from 1,024 tokens; nothing is written.
        let openai = CacheRule::of(Some("gpt-5.1-codex")).usage(10_000, 8_000, 50, false);
        assert_eq!((openai.cache_read_tokens, openai.input_tokens), (7_936, 2_064));
        assert_eq!(openai.cache_write_tokens(), 0);
        let short = CacheRule::of(Some("openai/gpt-4o")).usage(2_000, 1_000, 0, false);
        assert_eq!((short.cache_read_tokens, short.input_tokens), (0, 2_000));
        // Gemini: Flash from 1,024 tokens, Pro from 4,096.
        let flash = CacheRule::of(Some("gemini-3-flash-preview")).usage(3_000, 2_000, 0, false);
        assert_eq!(flash.cache_read_tokens, 2_000);
        let pro = CacheRule::of(Some("gemini-2.5-pro")).usage(3_000, 2_000, 0, false);
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
