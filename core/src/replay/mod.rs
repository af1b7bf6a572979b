//! Replay: a compactor over a session's whole life. Every assistant message of a recorded
//! session answers one model call, and a §7F compactor runs on the working context right
//! before each call. [`replay`] runs that loop again with the settings the user picks:
//!
//! ```text
//! context = []
//! for each position p of the model view:
//!     if p answers a model call and context is not empty:
//!         plan §7F on context; if it compacts, context = head + summary (+ reminder) + tail
//!     append p to context
//! ```
//!
//! Each call costs one O(log n) plan on the working context ([`view::Context`], prefix
//! sums, nothing re-counted); a firing also costs its summary. [`lost`] says which facts
//! and user instructions a whole replay lost; [`sweep`] replays many settings.

pub mod document;
pub mod lost;
pub mod sweep;
pub mod sweep_doc;
pub mod view;

use std::sync::Arc;

use crate::cancel::CancelToken;
use crate::compact::{plan_shape, visible_messages, Options, Shape, SummaryRole};
use crate::summarize::{older_message, Older, Summarizer};

pub use view::{Context, Inserted, Item, View};

/// What a replay needs.
pub struct Inputs<'a> {
    /// The session.
    pub view: &'a View,
    /// The compactor's options.
    pub options: Options,
    /// The role of the summaries it writes in a message list.
    pub summary_role: SummaryRole,
    /// `false` for a strategy that never cuts a tail (the deterministic pass alone): the
    /// context is only measured.
    pub cuts_a_tail: bool,
    /// Makes each firing's summary.
    pub summarizer: &'a dyn Summarizer,
    /// Stops the replay early.
    pub cancel: &'a CancelToken,
    /// Told `(position, of)` as the replay goes through the session (every few thousand
    /// messages).
    pub progress: Option<crate::progress::Tell<'a>>,
}

/// One firing of the compactor.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Firing {
    /// The position of the assistant message whose call fired it.
    pub at: usize,
    /// The context's tokens before.
    pub tokens_before: u64,
    /// The context's tokens after (summary and reminder included).
    pub tokens_after: u64,
    /// Messages summarized (earlier summaries included).
    pub summarized: usize,
    /// No human turn fitted `keep_tail`: the most recent one was used.
    pub fallback: bool,
    /// No human turn after the head: the whole body was summarized.
    pub tail_empty: bool,
    /// Tokens the summarizer read (what the summary cost in input).
    pub summary_input_tokens: u64,
    /// Still over `max_tokens` afterwards: it fires again at the next call.
    pub loops: bool,
    /// The summary's text.
    #[serde(skip)]
    pub summary: String,
}

/// The context at one model call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Call {
    /// The position of the assistant message answering it.
    pub at: usize,
    /// The context's tokens before the compactor ran.
    pub before: u64,
    /// The context's tokens sent (after a firing, if any).
    pub after: u64,
    /// The prompt size the provider recorded for this call, when the log has it.
    pub recorded: Option<u64>,
}

/// A replay's outcome.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The options replayed.
    pub options: Options,
    /// Calls (assistant messages with a non-empty context before them).
    pub model_calls: usize,
    /// Every firing, in order.
    pub firings: Vec<Firing>,
    /// The context's tokens after the last message.
    pub final_tokens: u64,
    /// The context's messages after the last message.
    pub final_messages: usize,
    /// Firings still over `max_tokens` afterwards.
    pub loops: usize,
    /// Calls sent over `max_tokens`.
    pub calls_over_budget: usize,
    /// Tokens every summary read, together.
    pub summary_input_tokens: u64,
    /// Every call.
    pub calls: Vec<Call>,
    /// The final context's leading items (head, summaries).
    pub final_items: Vec<Item>,
    /// The positions kept verbatim at the end, after `final_items`.
    pub final_stretch: std::ops::Range<usize>,
}

impl Replay {
    /// Whether position `p` is in the final context verbatim.
    pub fn keeps(&self, p: usize) -> bool {
        self.final_stretch.contains(&p) || self.final_items.contains(&Item::Original(p))
    }

    /// The first firing, if any.
    pub fn first_firing(&self) -> Option<&Firing> {
        self.firings.first()
    }
}

/// The model view a strategy replays on: the session itself, or for a strategy with the
/// deterministic pass (`deterministic_pass`), the session after its first phase (tool outputs compressed or
/// externalized, which depends on each message alone, so it is the same at every call).
/// The subjective edits depend on the whole context and are not replayed.
pub fn view_for(
    transcript: &crate::transcript::Transcript,
    counts: &crate::tokens::Counts,
    deterministic_pass: bool,
    cancel: &CancelToken,
) -> crate::Result<View> {
    if !deterministic_pass {
        return Ok(View::new(transcript.clone(), counts.clone()));
    }
    let derived = crate::compact::derive(
        transcript,
        counts,
        0,
        crate::compact::DeterministicOptions::default(),
        &mut crate::compact::deterministic::DryRun,
        cancel,
    )?;
    Ok(View::new(derived.view, derived.counts))
}

/// Replays the compactor over the session.
pub fn replay(inputs: &Inputs) -> crate::Result<Replay> {
    let view = inputs.view;
    let options = inputs.options;
    let mut context = Context::new(view);
    let mut firings = Vec::new();
    let mut calls = Vec::with_capacity(view.calls.len());
    let mut next_call = view.calls.iter().copied().peekable();
    for p in 0..view.len() {
        if p % 4096 == 0 {
            inputs.cancel.check()?;
            if let Some(tell) = inputs.progress.filter(|_| p > 0) {
                tell(p, view.len());
            }
        }
        if next_call.next_if_eq(&p).is_some() && !context.is_empty() {
            let plan = plan_shape(&context, &options);
            let mut after = plan.tokens_before;
            if let Some(cut) = plan.cut().filter(|_| inputs.cuts_a_tail) {
                let summary = summarize(inputs, &context, cut.head_end..cut.split)?;
                let inserted = inserted_items(inputs, &summary, p);
                context.replace(cut.head_end, cut.split, inserted);
                after = context.suffix(0);
                firings.push(Firing {
                    at: p,
                    tokens_before: plan.tokens_before,
                    tokens_after: after,
                    summarized: cut.summarized(),
                    fallback: cut.fallback(),
                    tail_empty: cut.tail_empty(),
                    summary_input_tokens: cut.summarized_tokens,
                    loops: after > options.max_tokens,
                    summary,
                });
            }
            calls.push(Call {
                at: p,
                before: plan.tokens_before,
                after,
                recorded: view.recorded(p),
            });
        }
        context.push_next();
    }
    Ok(Replay {
        options,
        model_calls: calls.len(),
        loops: firings.iter().filter(|f| f.loops).count(),
        calls_over_budget: calls.iter().filter(|c| c.after > options.max_tokens).count(),
        summary_input_tokens: firings.iter().map(|f| f.summary_input_tokens).sum(),
        firings,
        final_tokens: context.suffix(0),
        final_messages: context.len(),
        calls,
        final_items: context.items.clone(),
        final_stretch: context.stretch.clone(),
    })
}

/// The summary of the context's messages `range`.
fn summarize(inputs: &Inputs, context: &Context, range: std::ops::Range<usize>) -> crate::Result<String> {
    let view = inputs.view;
    let with_text = inputs.summarizer.needs_text();
    let items: Vec<Item> = range.map(|k| context.at(k)).collect();
    let older: Vec<Older> = items
        .iter()
        .map(|item| match item {
            Item::Original(q) => older_message(&view.transcript, view.positions[*q], with_text),
            Item::Inserted(m) => Older {
                index: view.positions.get(m.at).copied().unwrap_or(m.at),
                role: &m.role,
                raw: &m.json,
                text: if with_text { m.text.clone() } else { String::new() },
                human_turn: m.boundary,
                calls: Vec::new(),
            },
        })
        .collect();
    inputs.summarizer.summarize(&older, inputs.cancel)
}

/// The summary (and reminder) messages a firing at `at` writes, as context items.
fn inserted_items(inputs: &Inputs, summary: &str, at: usize) -> Vec<Item> {
    let transcript = &inputs.view.transcript;
    let tokenizer = inputs.view.counts.tokenizer;
    let is_log = transcript.format.container.is_log();
    visible_messages(transcript, inputs.options.flush_to_memory, inputs.summary_role, summary)
        .into_iter()
        .map(|json| {
            let parsed = transcript.message_of(&json);
            Item::Inserted(Arc::new(Inserted {
                tokens: crate::tokens::count_json(transcript, tokenizer, &json),
                text: transcript.readable_text_of_json(&json),
                role: parsed
                    .as_ref()
                    .map_or_else(|| "system".to_owned(), |m| m.role.to_string()),
                // A session log marks its summaries (never a human turn); in a plain list a
                // user-role summary is one, as §7F reads it.
                boundary: !is_log && parsed.is_some_and(|m| m.boundary),
                at,
                json,
            }))
        })
        .collect()
}
