//! `llm4s`: the deterministic compressor (`DeterministicCompressor.compressToCap`, see
//! [`crate::compact::deterministic`]) through the policy contract, optionally followed by
//! the §7F tail compactor on what it leaves (`strategy=deterministic+tail`, the
//! `deterministic,tail` strategy of `compact --strategy`).
//!
//! On a transcript the plan is the compressor's own run (every edit, the rewritten
//! messages); on a replay's working context, where only the chat view exists, the same
//! rules are applied to each message's text and its count moved by the change in its
//! escaped length — the §7F estimate is a quarter of that length, so the figure stays the
//! estimator's. Edited messages are kept rows flagged `truncated`: the compressor never
//! drops or summarizes anything by itself.

use std::collections::BTreeMap;

use super::chat::{chat_view, ChatMessage, Kind};
use super::running::Running;
use super::toolnexus::Toolnexus;
use super::{Edit, Engine, InPlace, Policy, PolicyPlan, PolicySettings, Section};
use crate::compact::deterministic::{self, compact_tool_output, DryRun};
use crate::compact::{DeterministicOptions, Options, Strategy};
use crate::tokens::{compact_length, Counts, Tokenizer};
use crate::transcript::Transcript;

/// `llm4s`.
pub struct Llm4s;

/// The settings of an `llm4s` run, in the strategy's own types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Llm4sSettings {
    /// `deterministic` or `deterministic,tail`.
    pub strategy: Strategy,
    /// The cap (`max_tokens`) and, for the tail, `keep_tail`.
    pub options: Options,
    /// Phase 2 and the externalization size.
    pub deterministic: DeterministicOptions,
}

impl Llm4sSettings {
    /// Reads `--set max_tokens=N [keep_tail=N] [subjective_edits=B] [externalize_over=BYTES]
    /// [strategy=deterministic|deterministic+tail]`.
    pub fn parse(settings: &PolicySettings) -> Result<Llm4sSettings, crate::Error> {
        let max_tokens = settings.number("max_tokens")?.ok_or_else(|| {
            crate::Error::Setting("llm4s needs --set max_tokens=N (the cap; or --max-tokens N)".to_owned())
        })?;
        let strategy: Strategy = settings
            .choice("strategy", &["deterministic", "deterministic+tail"], "deterministic")?
            .parse()?;
        let externalize_over =
            settings.number_or("externalize_over", deterministic::DEFAULT_EXTERNALIZE_OVER as u64)?;
        Ok(Llm4sSettings {
            strategy,
            options: Options {
                max_tokens,
                keep_tail: settings.number("keep_tail")?,
                flush_to_memory: false,
            },
            deterministic: DeterministicOptions {
                subjective_edits: settings.flag("subjective_edits", false)?,
                externalize_over: usize::try_from(externalize_over).unwrap_or(usize::MAX),
            },
        })
    }
}

/// What the compressor did to the messages of a chat: each edited message's new count,
/// its new text (on a chat view) or its new JSON (on a transcript).
#[derive(Default)]
struct Edited {
    counted: BTreeMap<usize, u64>,
    texts: BTreeMap<usize, String>,
    json: BTreeMap<usize, String>,
    /// Every rule that could edit a message was tried on every message given.
    every_rule_ran: bool,
}

impl Policy for Llm4s {
    fn name(&self) -> &'static str {
        "llm4s"
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        // No agent default: 80% of the window, as for the §7F compactor.
        vec![("max_tokens", (window * 8 / 10).to_string())]
    }

    fn engine(&self) -> Engine {
        Engine::DeterministicStrategy
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "max_tokens",
            "keep_tail",
            "strategy",
            "subjective_edits",
            "externalize_over",
        ]
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        message.counted
    }

    /// The agent calls the compressor when its context is over the cap.
    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        Ok(running.total_cost() > Llm4sSettings::parse(settings)?.options.max_tokens)
    }

    fn plan(&self, transcript: &Transcript, settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let parsed = Llm4sSettings::parse(settings)?;
        let counts = Counts::compute(transcript, Tokenizer::Estimate);
        let compressed = deterministic::compress(
            transcript,
            &counts,
            &deterministic::Settings {
                cap: parsed.options.max_tokens,
                subjective_edits: parsed.deterministic.subjective_edits,
                externalize_over: parsed.deterministic.externalize_over,
            },
            &mut DryRun,
            crate::cancel::never(),
        )
        .map_err(|e| crate::Error::Setting(e.to_string()))?;
        let view = transcript.with_overrides(compressed.changed.clone());
        let recounted = counts.with_recounted(&view, compressed.changed.keys().copied());
        let edited = Edited {
            counted: compressed.changed.keys().map(|&i| (i, recounted.message(i))).collect(),
            texts: BTreeMap::new(),
            json: compressed.changed,
            every_rule_ran: true,
        };
        finish(&chat_view(transcript), edited, &parsed, settings)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let parsed = Llm4sSettings::parse(settings)?;
        let total = chat.iter().map(|m| m.counted).sum();
        let edited = edit_texts(chat, 0, total, &parsed);
        finish(chat, edited, &parsed, settings)
    }

    /// Without a tail to cut, each message's edit is its own: a replay hands over only
    /// the messages added since the last call.
    fn in_place(
        &self,
        context: &[ChatMessage],
        running: &Running,
        from: usize,
        settings: &PolicySettings,
    ) -> Result<Option<InPlace>, crate::Error> {
        let parsed = Llm4sSettings::parse(settings)?;
        if parsed.strategy.cuts_a_tail() {
            return Ok(None);
        }
        let edited = edit_texts(context, from, running.total_counted(), &parsed);
        let Edited {
            counted,
            mut texts,
            every_rule_ran,
            ..
        } = edited;
        Ok(Some(InPlace::Edits {
            edits: counted
                .into_iter()
                .map(|(position, counted)| Edit {
                    position,
                    counted,
                    text: texts.remove(&position).unwrap_or_default(),
                })
                .collect(),
            // Phase 2 stopped at the cap: a later run may still edit what it did not reach.
            settled: if every_rule_ran { context.len() } else { from },
        }))
    }
}

/// The plan from the edits: edited rows flagged, then the §7F plan on the edited counts
/// when the strategy cuts a tail.
fn finish(
    chat: &[ChatMessage],
    edited: Edited,
    parsed: &Llm4sSettings,
    settings: &PolicySettings,
) -> Result<PolicyPlan, crate::Error> {
    let before: u64 = chat.iter().map(|m| m.counted).sum();
    let mut plan = if parsed.strategy.cuts_a_tail() {
        let shrunk: Vec<ChatMessage> = chat
            .iter()
            .map(|m| {
                let mut m = m.clone();
                if let Some(&c) = edited.counted.get(&m.index) {
                    m.counted = c;
                }
                m
            })
            .collect();
        let tail_settings = PolicySettings::default()
            .with("max_tokens", parsed.options.max_tokens)
            .with_optional("keep_tail", settings.number("keep_tail")?);
        let mut plan = Toolnexus.plan_chat(&shrunk, &tail_settings)?;
        plan.policy = Llm4s.name();
        plan
    } else {
        let mut plan = PolicyPlan::unchanged(Llm4s.name(), "estimate", chat.len());
        let after = before - edited.counted.keys().map(|&i| chat[i].counted).sum::<u64>()
            + edited.counted.values().sum::<u64>();
        plan.tokens_after = Some(after);
        plan
    };
    plan.tokens_before = Some(before);
    for (&index, &tokens) in &edited.counted {
        let row = &mut plan.messages[index];
        if matches!(row.section, Section::Head | Section::Tail) {
            row.truncated = true;
            row.truncated_to_tokens = Some(tokens);
        }
    }
    plan.compacted |= !edited.counted.is_empty();
    plan.rewritten = edited.json;
    plan.rewritten_text = edited.texts;
    if !parsed.strategy.cuts_a_tail() && plan.tokens_after > Some(parsed.options.max_tokens) {
        plan.warnings.push(format!(
            "the deterministic pass alone leaves {} tokens, over the cap of {}: llm4s does not cut (strategy=deterministic+tail would)",
            plan.tokens_after.unwrap_or_default(),
            parsed.options.max_tokens
        ));
    }
    Ok(plan)
}

/// The compressor's rules on the chat view's texts from position `from` on (messages
/// an earlier run edited are left as they are): every tool result through phase 1, then,
/// while the whole context (`total` before any edit) is over the cap and when asked, each
/// subjective rule over the assistant texts.
fn edit_texts(chat: &[ChatMessage], from: usize, total: u64, parsed: &Llm4sSettings) -> Edited {
    let fresh = || chat[from.min(chat.len())..].iter().filter(|m| !m.edited && !m.cleared);
    let mut counted: BTreeMap<usize, u64> = BTreeMap::new();
    let mut texts: BTreeMap<usize, String> = BTreeMap::new();
    let mut total = total;
    let mut every_rule_ran = true;
    for m in fresh().filter(|m| m.kind == Kind::Tool) {
        if let Ok(Some((new, _rule))) = compact_tool_output(&m.text, parsed.deterministic.externalize_over, &mut DryRun)
        {
            let after = recount(m.counted, &m.text, &new);
            if after <= m.counted {
                total -= m.counted - after;
                counted.insert(m.index, after);
                texts.insert(m.index, new);
            }
        }
    }
    if parsed.deterministic.subjective_edits {
        let rules: [fn(&str) -> Option<String>; 3] = [
            deterministic::remove_fillers,
            deterministic::dedup_sentences,
            deterministic::truncate_verbose,
        ];
        for rule in rules {
            if total <= parsed.options.max_tokens {
                every_rule_ran = false;
                break;
            }
            for m in fresh().filter(|m| m.kind == Kind::Assistant) {
                let current = texts.get(&m.index).map_or(m.text.as_str(), String::as_str);
                let Some(new) = rule(current) else { continue };
                let before = counted.get(&m.index).copied().unwrap_or(m.counted);
                let after = recount(before, current, &new);
                if after < before {
                    total -= before - after;
                    counted.insert(m.index, after);
                    texts.insert(m.index, new);
                }
            }
        }
    }
    Edited {
        counted,
        texts,
        json: BTreeMap::new(),
        every_rule_ran,
    }
}

/// A message of `counted` estimated tokens with `old` replaced by `new`: the estimate is
/// a quarter of the escaped length, so the length moves by the difference of the two
/// texts' escaped lengths.
fn recount(counted: u64, old: &str, new: &str) -> u64 {
    let escaped = |s: &str| compact_length(&serde_json::to_string(s).unwrap_or_default()).utf16;
    (counted * 4 + escaped(new)).saturating_sub(escaped(old)).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(tool_output: &str) -> Transcript {
        let messages = serde_json::json!([
            {"role": "system", "content": "You are terse."},
            {"role": "user", "content": "read the log"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
            {"role": "tool", "tool_call_id": "c1", "content": tool_output},
            {"role": "assistant", "content": "done"}
        ]);
        Transcript::parse("test.json", messages.to_string().into_bytes(), None).unwrap()
    }

    fn log_output() -> String {
        use std::fmt::Write;
        let mut out = String::new();
        for i in 0..400 {
            writeln!(out, "2024-01-01 12:00:{:02} INFO step {i} ok", i % 60).expect("a String takes any write");
        }
        out
    }

    #[test]
    fn a_large_tool_output_is_kept_shorter_and_written_rewritten() {
        let t = transcript(&log_output());
        let settings = PolicySettings::default().with("max_tokens", 100_000);
        let plan = Llm4s.plan(&t, &settings).unwrap();
        assert!(plan.compacted);
        assert!(plan.messages[3].truncated);
        assert_eq!(plan.messages[3].section, Section::Tail);
        assert!(plan.tokens_after < plan.tokens_before);
        assert!(plan.rewritten.contains_key(&3));
        assert!(plan.messages.iter().filter(|r| r.index != 3).all(|r| !r.truncated));
    }

    #[test]
    fn the_chat_view_estimate_agrees_with_the_transcript_run() {
        let t = transcript(&log_output());
        let settings = PolicySettings::default().with("max_tokens", 100_000);
        let exact = Llm4s.plan(&t, &settings).unwrap();
        let from_chat = Llm4s.plan_chat(&chat_view(&t), &settings).unwrap();
        let a = exact.messages[3].truncated_to_tokens.unwrap();
        let b = from_chat.messages[3].truncated_to_tokens.unwrap();
        assert!(a.abs_diff(b) <= 2, "transcript {a} vs chat view {b}");
    }

    #[test]
    fn with_a_tail_it_summarizes_what_the_pass_could_not_bring_under_the_cap() {
        let t = transcript(&log_output());
        let settings = PolicySettings::default()
            .with("max_tokens", 20)
            .with("strategy", "deterministic+tail")
            .with("keep_tail", 1);
        let plan = Llm4s.plan(&t, &settings).unwrap();
        assert!(plan.messages.iter().any(|r| r.section == Section::Summarized));
        assert_eq!(plan.inserted.len(), 1);
        let alone = Llm4s
            .plan(&t, &PolicySettings::default().with("max_tokens", 20))
            .unwrap();
        assert!(alone.messages.iter().all(|r| r.section != Section::Summarized));
        assert_eq!(alone.warnings.len(), 1, "{:?}", alone.warnings);
    }

    #[test]
    fn small_outputs_are_left_alone() {
        let t = transcript("ok");
        let plan = Llm4s
            .plan(&t, &PolicySettings::default().with("max_tokens", 10))
            .unwrap();
        assert!(!plan.compacted);
        assert!(plan.rewritten.is_empty());
    }
}
