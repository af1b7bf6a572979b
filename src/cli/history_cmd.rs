//! `ctxlens history FILE`: the compactions a session log records — its epochs, each real
//! compaction (trigger, recorded size before it beside our count, the summary the agent
//! got, what it kept) and what each lost.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::InputArgs;
use super::summaries_compared;
use ctxlens::forgetting::DoneAgain;
use ctxlens::history::{history, History};
use ctxlens::history_doc::{HistoryDoc, SummaryCompared};
use ctxlens::loss::rank::Detail;
use ctxlens::loss::Survival;
use ctxlens::text::{one_line, thousands};
use ctxlens::tokens::Counts;
use ctxlens::transcript::Transcript;

/// `ctxlens history FILE`.
#[derive(Debug, clap::Args)]
pub struct HistoryArgs {
    /// Session log (Claude Code, Codex; other formats have one epoch). `-` reads standard input.
    file: PathBuf,
    /// Print JSON: `{epochs: [{messages, tokens, …}], compactions: [{trigger, pre_tokens, summary, …}]}`.
    #[arg(long)]
    json: bool,
    /// List every lost fact (the table shows the first 20 of each compaction).
    #[arg(long)]
    all: bool,
    /// For each compaction, the real summary beside ctxlens' extractive one (and each
    /// `--summarizer`) on the same cut, each with what it loses.
    #[arg(long)]
    compare_summaries: bool,
    /// Another summarizer to compare (repeatable): extractive, placeholder, openai, or
    /// cmd:<command line>.
    #[arg(long, value_parser = super::args::parse_summarizer, requires = "compare_summaries")]
    summarizer: Vec<ctxlens::summarize::Spec>,
    #[command(flatten)]
    summary: super::args::SummaryArgs,
    #[command(flatten)]
    input: InputArgs,
}

/// How many lost facts the table shows per compaction without `--all`.
const SHOWN_LOST: usize = 20;

/// Prints the history.
pub fn run(args: &HistoryArgs) -> anyhow::Result<ExitCode> {
    let live = args.input.load(&args.file)?;
    let whole = live.whole_session()?;
    let counts = Counts::compute(&whole, args.input.tokenizer());
    let found = history(&whole, &counts);
    let done_again = ctxlens::history_doc::done_again(&whole, &counts, &found);
    let compared: Vec<Vec<SummaryCompared>> = if args.compare_summaries {
        let settings = args.summary.settings();
        found
            .compactions
            .iter()
            .map(|c| summaries_compared::compare(&whole, c, &args.summarizer, &settings))
            .collect::<anyhow::Result<_>>()?
    } else {
        Vec::new()
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.json {
        let doc = HistoryDoc::of(&whole, &counts, &found, &done_again, &compared);
        super::json_out::write(&mut out, whole.source(), &doc, true)?;
        writeln!(out)?;
    } else {
        print(&mut out, &whole, &counts, &found, &done_again, &compared, args.all)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// What the agent did again after a compaction, and what the user said again: the
/// evidence that it forgot, with what it cost.
fn print_done_again(out: &mut impl Write, done: &[DoneAgain], all: bool) -> anyhow::Result<()> {
    if done.is_empty() {
        return Ok(());
    }
    let tokens: u64 = done.iter().map(|d| d.tokens).sum();
    writeln!(
        out,
        "    done again after it ({}, {} tokens):",
        done.len(),
        thousands(tokens)
    )?;
    let shown = if all { done.len() } else { SHOWN_LOST.min(done.len()) };
    for d in &done[..shown] {
        writeln!(
            out,
            "      #{:<6} {:<13} {} (first #{}, {} tokens)",
            d.message,
            d.kind.name(),
            one_line(&d.target, 100),
            d.first,
            thousands(d.tokens)
        )?;
    }
    if shown < done.len() {
        writeln!(out, "      … and {} more (--all, or --json)", done.len() - shown)?;
    }
    Ok(())
}

/// The threshold an auto compaction brackets, when the log shows it: a log that records
/// no request before it (Copilot CLI records no usage) brackets nothing.
fn print_threshold(
    out: &mut impl Write,
    c: &ctxlens::history::Compaction,
    container: &ctxlens::transcript::Container,
) -> anyhow::Result<()> {
    if let Some((low, high)) = c.threshold_between.filter(|_| c.last_recorded_before.is_some()) {
        // Named only where a policy replays this agent's own logs.
        let used_by = ctxlens::policy::all()
            .into_iter()
            .find(|p| p.agent_logs().as_ref() == Some(container))
            .map_or_else(String::new, |p| format!("; replay --policy {} uses it", p.name()));
        if c.elsewhere {
            writeln!(
                out,
                "    it compacted a conversation logged in another file (it counted more than this file ever sent): this epoch is only part of it"
            )?;
            writeln!(
                out,
                "    its auto-compact threshold: at most {} (where it fired){used_by}",
                thousands(high)
            )?;
            return Ok(());
        }
        writeln!(
            out,
            "    its auto-compact threshold: above {} (the largest request before it) and at most {} (where it fired){used_by}",
            thousands(low),
            thousands(high)
        )?;
    }
    Ok(())
}

/// The summary a compaction gave the agent, in a line.
fn print_summary(out: &mut impl Write, c: &ctxlens::history::Compaction) -> std::io::Result<()> {
    let tokens = thousands(c.summary_tokens);
    if c.summary.trim().is_empty() {
        // Codex's remote compaction: the provider returns its summary encrypted.
        return writeln!(
            out,
            "    summary the agent got ({tokens} tokens): not readable in the log (kept encrypted by the provider), so the loss below counts it as holding nothing"
        );
    }
    writeln!(
        out,
        "    summary the agent got ({tokens} tokens): {}",
        one_line(&c.summary, 160)
    )
}

/// An epoch's heading: its messages, tokens, turns, and what the log says of its calls.
fn epoch_line(epoch: &ctxlens::history::Epoch, tokenizer: &str, overhead: Option<u64>, cost: Option<f64>) -> String {
    let recorded = epoch
        .recorded_peak
        .map(|r| format!(" · largest recorded prompt {}", thousands(r)))
        .unwrap_or_default();
    let overhead = overhead
        .map(|o| {
            format!(
                " · ≈{} per request beyond its messages (fitted: system prompt, tools, what the log does not hold)",
                thousands(o)
            )
        })
        .unwrap_or_default();
    let cost = cost.map(|d| format!(" · cost ${d:.2}")).unwrap_or_default();
    format!(
        "Epoch {}  #{}–#{}  {} · {} tokens ({tokenizer}) · {}{recorded}{overhead}{cost}",
        epoch.index,
        epoch.messages.start,
        epoch.messages.end.saturating_sub(1),
        ctxlens::text::count_of(epoch.messages.len() as u64, "message", "messages"),
        thousands(epoch.tokens),
        ctxlens::text::count_of(epoch.human_turns as u64, "human turn", "human turns"),
    )
}

fn print(
    out: &mut impl Write,
    whole: &Transcript,
    counts: &Counts,
    found: &History,
    done_again: &[Vec<DoneAgain>],
    compared: &[Vec<SummaryCompared>],
    all: bool,
) -> anyhow::Result<()> {
    let tokenizer = counts.tokenizer.name();
    writeln!(
        out,
        "{}: {} · {} messages · {} epoch{} · {} compaction{}",
        whole.source(),
        whole.format(),
        thousands(whole.messages().len() as u64),
        found.epochs.len(),
        if found.epochs.len() == 1 { "" } else { "s" },
        found.compactions.len(),
        if found.compactions.len() == 1 { "" } else { "s" },
    )?;
    if found.compactions.is_empty() && !whole.format().container.is_log() {
        writeln!(
            out,
            "(only session logs record compactions; this file is one conversation)"
        )?;
    }
    // A session resumed into this file: its first request carried history logged elsewhere.
    for note in whole.notes().iter().filter(|n| n.kind == "continued") {
        writeln!(out, "{} (line {})", note.text, note.line)?;
    }
    let fits = ctxlens::calibrate::calibrate_epochs(whole, counts);
    let costs = ctxlens::history_doc::epoch_costs(whole, found);
    for epoch in &found.epochs {
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            epoch_line(
                epoch,
                tokenizer,
                ctxlens::history_doc::epoch_overhead(&fits, &epoch.messages),
                costs.get(epoch.index).copied().flatten()
            )
        )?;
        for c in found.compactions.iter().filter(|c| c.epoch == epoch.index) {
            let pre = match (c.pre_tokens, c.last_recorded_before) {
                (Some(p), _) => match c.post_tokens {
                    Some(post) => format!("{} tokens recorded before, {} after", thousands(p), thousands(post)),
                    None => format!("{} tokens recorded before", thousands(p)),
                },
                (None, Some(last)) => format!(
                    "size not recorded (the last request before it: {} tokens)",
                    thousands(last)
                ),
                (None, None) => "size not recorded".to_owned(),
            };
            writeln!(
                out,
                "  ▼ compacted ({}) at line {}: {pre}; this epoch counts {} ({tokenizer})",
                c.trigger.as_deref().unwrap_or("trigger not recorded"),
                c.line,
                thousands(c.counted_before)
            )?;
            print_threshold(out, c, &whole.format().container)?;
            print_summary(out, c)?;
            if !c.kept.is_empty() {
                writeln!(out, "    kept besides it: {} messages, verbatim", c.kept.len())?;
            }
            let l = &c.loss;
            writeln!(
                out,
                "    loss: {} facts, {} survive ({:.1}%): {} in the summary, {} later; {} lost",
                l.facts.len(),
                l.facts.len() - l.count(Survival::Lost),
                l.survival_percent(),
                l.count(Survival::Summary),
                l.count(Survival::Kept),
                l.count(Survival::Lost)
            )?;
            if !l.instructions_lost.is_empty() {
                writeln!(
                    out,
                    "    user instructions in neither the summary nor anything after it ({} of {}):",
                    l.instructions_lost.len(),
                    l.instructions.len()
                )?;
                for (index, text) in &l.instructions_lost {
                    writeln!(out, "      #{index:<6} {}", one_line(text, 120))?;
                }
            }
            print_done_again(out, &done_again[c.index], all)?;
            if let Some(rows) = compared.get(c.index) {
                summaries_compared::print(out, rows)?;
            }
            let detail = if all { Detail::Everything } else { Detail::Short };
            let mut ranked = String::new();
            l.ranked.write(&mut ranked, "    ", detail)?;
            // The report's blank line before its heading is one too many in this table.
            write!(out, "{}", ranked.trim_start_matches('\n'))?;
        }
    }
    Ok(())
}
