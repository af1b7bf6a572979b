//! `history --compare-summaries`: for each real compaction, the summary the agent got
//! beside ctxlens' extractive one and any `--summarizer` (a `cmd:` or `openai` one), each
//! written for the same cut and judged the same way — which summary would have kept what
//! mattered.

use serde::Serialize;

use ctxlens::history::Compaction;
use ctxlens::loss::{turns::TurnKind, LossReport, Survival, TurnStatus};
use ctxlens::summarize::{Settings, Spec};
use ctxlens::transcript::Transcript;

/// One summary of one compaction and what it loses.
#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct Compared {
    /// `real` (what the agent got), or the summarizer's name.
    pub by: String,
    /// The summary's tokens (estimate: four characters a token, the same for all).
    pub tokens: u64,
    /// Instructions of the replaced epoch it restates in no sentence and nothing after
    /// it repeats.
    pub instructions_lost: usize,
    /// The replaced epoch's instructions.
    pub instructions: usize,
    /// User facts (values the user supplied) lost.
    pub user_facts_lost: usize,
    /// Facts lost (noise included), and how many there were.
    pub facts_lost: usize,
    /// Facts found in the replaced epoch.
    pub facts: usize,
    /// Facts that survive, in percent.
    pub survival_percent: f64,
    /// The summary.
    pub text: String,
}

impl Compared {
    fn of(by: String, text: String, loss: &LossReport) -> Compared {
        let lost_of = |kind: TurnKind| {
            loss.turns
                .iter()
                .filter(|t| t.kind == kind && t.status == TurnStatus::Lost)
                .count()
        };
        Compared {
            by,
            tokens: (text.chars().count() as u64).div_ceil(4),
            instructions_lost: lost_of(TurnKind::Instruction),
            instructions: loss.turns.iter().filter(|t| t.kind == TurnKind::Instruction).count(),
            user_facts_lost: lost_of(TurnKind::UserFact),
            facts_lost: loss.count(Survival::Lost),
            facts: loss.facts.len(),
            survival_percent: loss.survival_percent(),
            text,
        }
    }
}

/// The summaries of `compaction` side by side: the real one, the extractive one, then
/// each of `others`, all on the same cut.
pub fn compare(
    whole: &Transcript,
    compaction: &Compaction,
    others: &[Spec],
    settings: &Settings,
) -> anyhow::Result<Vec<Compared>> {
    let mut rows = vec![Compared::of(
        "real".to_owned(),
        compaction.summary.clone(),
        &compaction.loss,
    )];
    let mut specs = vec![Spec::Extractive];
    specs.extend(others.iter().filter(|s| **s != Spec::Extractive).cloned());
    for spec in specs {
        let summarizer = ctxlens::summarizers::build(&spec, settings)?;
        let text = summarizer.summarize_range(whole, compaction.ended.clone(), ctxlens::cancel::never())?;
        let loss = compaction.loss_with(whole, &text);
        rows.push(Compared::of(spec.to_string(), text, &loss));
    }
    Ok(rows)
}

/// The rows as the history table prints them, under one compaction.
pub fn print(out: &mut impl std::io::Write, rows: &[Compared]) -> anyhow::Result<()> {
    let thousands = |n: usize| ctxlens::text::thousands(n as u64);
    writeln!(
        out,
        "    summaries side by side (same cut, same messages kept after it):"
    )?;
    writeln!(
        out,
        "      {:<14} {:>7}  {:>18}  {:>15}  {:>16}",
        "summary", "tokens", "instructions lost", "user facts lost", "facts survive"
    )?;
    for r in rows {
        writeln!(
            out,
            "      {:<14} {:>7}  {:>18}  {:>15}  {:>16}",
            ctxlens::text::one_line(&r.by, 14),
            ctxlens::text::thousands(r.tokens),
            format!("{} of {}", thousands(r.instructions_lost), thousands(r.instructions)),
            thousands(r.user_facts_lost),
            format!("{:.1}% of {}", r.survival_percent, thousands(r.facts)),
        )?;
    }
    Ok(())
}
