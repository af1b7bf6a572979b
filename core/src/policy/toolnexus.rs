//! `toolnexus`: the SPEC §7F tail compactor ([`crate::compact::plan_shape`], the same
//! planner `compact` runs) through the policy contract, on the chat view's counted
//! tokens (the §7F estimate). `--max-tokens` and `--keep-tail` are its shorthand on the
//! command line.

use super::chat::{ChatMessage, Kind};
use super::running::Running;
use super::{Engine, Inserted, Policy, PolicyPlan, PolicySettings, Section};
use crate::compact::{plan_shape, Options, Section as PlanSection, Shape};

/// A chat slice as the §7F planner sees it: prefix sums of the counted tokens and the
/// human turns (user messages that are neither tool results nor past summaries).
struct ChatShape<'a> {
    chat: &'a [ChatMessage],
    prefix: Vec<u64>,
    boundaries: Vec<usize>,
}

impl<'a> ChatShape<'a> {
    fn new(chat: &'a [ChatMessage]) -> ChatShape<'a> {
        let mut prefix = Vec::with_capacity(chat.len() + 1);
        let mut running = 0u64;
        prefix.push(0);
        for m in chat {
            running = running.saturating_add(m.counted);
            prefix.push(running);
        }
        let boundaries = (0..chat.len())
            .filter(|&i| chat[i].kind == Kind::User && chat[i].role == "user" && !chat[i].past_summary)
            .collect();
        ChatShape {
            chat,
            prefix,
            boundaries,
        }
    }
}

impl Shape for ChatShape<'_> {
    fn len(&self) -> usize {
        self.chat.len()
    }

    fn starts_with_system(&self) -> bool {
        self.chat.first().is_some_and(|m| m.role == "system")
    }

    fn suffix(&self, from: usize) -> u64 {
        self.prefix[self.chat.len()] - self.prefix[from.min(self.chat.len())]
    }

    fn boundary_from(&self, from: usize) -> Option<usize> {
        let k = self.boundaries.partition_point(|&b| b < from);
        self.boundaries.get(k).copied()
    }

    fn last_boundary(&self) -> Option<usize> {
        self.boundaries.last().copied()
    }
}

/// `toolnexus`.
pub struct Toolnexus;

impl Toolnexus {
    fn options(settings: &PolicySettings) -> Result<Options, crate::Error> {
        Ok(Options {
            max_tokens: settings.number("max_tokens")?.ok_or_else(|| {
                crate::Error::Setting("toolnexus needs --set max_tokens=N (or --max-tokens N)".to_owned())
            })?,
            keep_tail: settings.number("keep_tail")?,
            flush_to_memory: settings.flag("flush_to_memory", false)?,
        })
    }
}

impl Policy for Toolnexus {
    fn name(&self) -> &'static str {
        "toolnexus"
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        // ctxlens' own compactor has no agent default: 80% of the window.
        vec![("max_tokens", (window * 8 / 10).to_string())]
    }

    fn engine(&self) -> Engine {
        Engine::TailCompactor
    }

    fn keys(&self) -> &'static [&'static str] {
        &["max_tokens", "keep_tail", "flush_to_memory"]
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        message.counted
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let cost = running.total_cost();
        Ok(cost > Self::options(settings)?.max_tokens)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let options = Self::options(settings)?;
        let shape = ChatShape::new(chat);
        let planned = plan_shape(&shape, &options);
        let total = shape.suffix(0);
        let mut out = PolicyPlan::unchanged(self.name(), "estimate", chat.len());
        out.tokens_before = Some(total);
        out.tokens_after = Some(total);
        if let Some(cut) = planned.cut() {
            for row in &mut out.messages {
                row.section = match planned.section(row.index) {
                    PlanSection::Head => Section::Head,
                    PlanSection::Summarized => Section::Summarized,
                    PlanSection::Tail => Section::Tail,
                };
            }
            out.compacted = true;
            out.tokens_after = Some(cut.head_tokens + cut.tail_tokens);
            out.inserted.push(Inserted {
                position: planned.head_end,
                role: "system",
                kind: "summary",
                text: format!("{}{{summary}}", crate::compact::SUMMARY_PREFIX),
                tokens: None,
            });
        }
        Ok(out)
    }
}
