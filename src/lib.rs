//! # ctxlens
//!
//! See what an LLM agent's compactor keeps, cuts and summarizes. ctxlens loads a real
//! transcript (OpenAI chat, Anthropic Messages, JSONL, request bodies, trajectories),
//! counts what every message costs, and reproduces bit for bit the toolnexus SPEC §7F
//! tail compactor: where it cuts, which tool groups it keeps together, what it
//! summarizes away, and what the compacted transcript looks like.
//!
//! The core never touches a terminal:
//! - [`transcript`]: the model (raw JSON text per message + a parsed view), formats,
//!   tool groups and boundaries;
//! - [`tokens`]: the [`tokens::TokenCounter`] trait, the estimators and BPE counters, and
//!   [`tokens::Counts`] (per-message counts with prefix sums);
//! - [`compact`]: the pure [`compact::plan`] and [`compact::compact`], which applies it;
//! - [`summarize`]: the [`summarize::Summarizer`] trait;
//! - [`check`]: provider pairing rules;
//! - [`export`]: atomic writes.
//!
//! ```
//! use ctxlens::{compact, summarize::Placeholder, tokens::{Counts, Tokenizer}, transcript::Transcript};
//! let json = br#"[{"role":"system","content":"be brief"},
//!   {"role":"user","content":"first question, quite a long one"},
//!   {"role":"assistant","content":"first answer"},
//!   {"role":"user","content":"second"}]"#.to_vec();
//! let transcript = Transcript::parse("demo.json", json, None)?;
//! let counts = Counts::compute(&transcript, Tokenizer::Estimate);
//! let options = compact::Options { max_tokens: 30, keep_tail: Some(10), flush_to_memory: false };
//! let result = compact::compact(&transcript, &counts, &options, &Placeholder)?;
//! let cut = result.plan.cut().expect("over budget, so it compacts");
//! assert_eq!((cut.head_end, cut.split, cut.summarized()), (1, 3, 2));
//! # Ok::<(), anyhow::Error>(())
//! ```

pub mod check;
pub mod cli;
pub mod compact;
pub mod demo;
pub mod error;
pub mod export;
pub mod loss;
pub mod summarize;
pub mod synth;
pub mod tokens;
pub mod transcript;
pub mod tui;
