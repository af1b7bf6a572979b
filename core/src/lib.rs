//! # ctxlens-core
//!
//! The core of ctxlens: see what an LLM agent's compactor keeps, cuts and summarizes. ctxlens loads a real
//! transcript (OpenAI chat, Anthropic Messages, Gemini, Responses, JSONL, request bodies,
//! trajectories, Claude Code and Codex session logs), counts what every message costs,
//! and reproduces bit for bit the toolnexus SPEC §7F tail compactor: where it cuts, which
//! tool groups it keeps together, what it summarizes away, and what the compacted
//! transcript looks like.
//!
//! It never touches a terminal and has no command line, UI or HTTP dependency (the
//! `ctxlens` crate holds the front ends; the compiler keeps the wall):
//! - [`transcript`]: the model (raw JSON text per message + a parsed view), formats,
//!   tool groups and boundaries;
//! - [`tokens`]: the [`tokens::TokenCounter`] trait, the estimators and BPE counters, and
//!   [`tokens::Counts`] (per-message counts as prefix sums);
//! - [`compact`]: the pure [`compact::plan`], the strategies, and [`compact::Compaction`],
//!   the one way to compact;
//! - [`summarize`]: the [`summarize::Summarizer`] trait and its implementations;
//! - [`history`]: the compactions a session log records, and its epochs; [`replay`]: a
//!   compactor over a session's whole life, and the budget sweep; [`session`]: a session
//!   loaded whole with what those answers derive from it, made once and shared;
//! - [`scan`]: session files under folders, each summarized in bounded memory;
//! - [`loss`]: what a cut loses; [`check`]: provider pairing rules; [`export`]: safe
//!   writes; [`text`]: numbers and widths for people.
//!
//! ```
//! use ctxlens_core::{compact, tokens::{Counts, Tokenizer}, transcript::Transcript};
//! let json = br#"[{"role":"system","content":"be brief"},
//!   {"role":"user","content":"first question, quite a long one"},
//!   {"role":"assistant","content":"first answer"},
//!   {"role":"user","content":"second"}]"#.to_vec();
//! let transcript = Transcript::parse("demo.json", json, None)?;
//! let counts = Counts::compute(&transcript, Tokenizer::Estimate);
//! let options = compact::Options { max_tokens: 30, keep_tail: Some(10), flush_to_memory: false };
//! let outcome = compact::Compaction::new(&transcript, &counts, compact::Settings::tail(options)).run()?;
//! let cut = outcome.planned.cut().expect("over budget, so it compacts");
//! assert_eq!((cut.head_end, cut.split, cut.summarized()), (1, 3, 2));
//! # Ok::<(), ctxlens_core::Error>(())
//! ```

/// The crate's README, whose examples run as doctests (so what a reader copies works).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

pub mod agent_config;
pub mod backtest;
pub mod breakdown;
pub mod calibrate;
pub mod cancel;
pub mod check;
pub mod compact;
pub mod cost;
pub mod document;
pub mod error;
pub mod export;
pub mod follow;
pub mod forgetting;
pub mod history;
pub mod history_doc;
pub mod ledger;
pub mod ledger_files;
pub mod loss;
pub mod meter;
pub mod models;
pub mod names;
pub mod policy;
pub mod progress;
pub mod replay;
pub mod scan;
pub mod scan_folders;
pub mod session;
pub mod stats_doc;
pub mod summarize;
#[cfg(any(test, feature = "synth"))]
pub mod synth;
#[cfg(test)]
mod test_data;
#[cfg(test)]
mod test_json;
pub mod text;
pub mod tokens;
pub mod transcript;

pub use error::{Error, LoadError, Result};
