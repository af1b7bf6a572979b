//! `toolnexus`: the SPEC §7F tail compactor (ctxlens' own plan, [`crate::compact::plan`])
//! through the policy contract, counted with the §7F estimate. `--max-tokens` and
//! `--keep-tail` are its shorthand on the command line.

use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section, SettingError};
use crate::compact::{plan, Options, Section as PlanSection};
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// `toolnexus`.
pub struct Toolnexus;

impl Policy for Toolnexus {
    fn name(&self) -> &'static str {
        "toolnexus"
    }

    fn keys(&self) -> &'static [&'static str] {
        &["max_tokens", "keep_tail", "flush_to_memory"]
    }

    fn plan(&self, transcript: &Transcript, settings: &PolicySettings) -> Result<PolicyPlan, SettingError> {
        let max_tokens = settings
            .number("max_tokens")?
            .ok_or_else(|| SettingError("toolnexus needs --set max_tokens=N (or --max-tokens N)".to_owned()))?;
        let options = Options {
            max_tokens,
            keep_tail: settings.number("keep_tail")?,
            flush_to_memory: settings.flag("flush_to_memory", false)?,
        };
        let counts = Counts::compute(transcript, Tokenizer::Estimate);
        let planned = plan(transcript, &counts, &options);
        let n = transcript.messages.len();
        let mut out = PolicyPlan::unchanged(self.name(), "estimate", n);
        out.tokens_before = Some(counts.total());
        out.tokens_after = Some(counts.total());
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
            });
        }
        Ok(out)
    }
}
