//! `history --compare-summaries`: for each real compaction, the summary the agent got
//! beside ctxlens' extractive one and any `--summarizer` (a `cmd:` or `openai` one), each
//! written for the same cut and judged the same way — which summary would have kept what
//! mattered.

use ctxlens::history::Compaction;
use ctxlens::history_doc::SummaryCompared as Compared;
use ctxlens::summarize::{Settings, Spec};
use ctxlens::transcript::Transcript;

/// The summaries of `compaction` side by side: the real one, the extractive one, then
/// each of `others`, all on the same cut.
pub fn compare(
    whole: &Transcript,
    compaction: &Compaction,
    others: &[Spec],
    settings: &Settings,
) -> anyhow::Result<Vec<Compared>> {
    let mut rows = vec![Compared::real(compaction)];
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
