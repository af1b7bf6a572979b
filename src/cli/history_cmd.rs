//! `ctxlens history FILE`: the compactions a session log records — its epochs, each real
//! compaction (trigger, recorded size before it beside our count, the summary the agent
//! got, what it kept) and what each lost.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;

use super::args::InputArgs;
use super::summaries_compared::{self, Compared};
use ctxlens::forgetting::DoneAgain;
use ctxlens::history::{history, History};
use ctxlens::loss::document::LossDoc;
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
    // What each compaction's next epoch did again (the chat view, with the calls'
    // arguments, read once).
    let chat = if found.compactions.is_empty() {
        Vec::new()
    } else {
        ctxlens::policy::chat_view_counted(&whole, &counts)
    };
    let done_again: Vec<Vec<DoneAgain>> = found
        .compactions
        .iter()
        .map(|c| ctxlens::forgetting::after_compaction(&whole, &counts, &chat, c))
        .collect();
    let compared: Vec<Vec<Compared>> = if args.compare_summaries {
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
        let doc = document(&whole, &counts, &found, &done_again, &compared);
        super::json_out::write(&mut out, whole.source(), &doc, true)?;
        writeln!(out)?;
    } else {
        print(&mut out, &whole, &counts, &found, &done_again, &compared, args.all)?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize, schemars::JsonSchema)]
pub(super) struct Doc<'a> {
    format: &'a str,
    #[schemars(schema_with = "ctxlens::names::schema::<ctxlens::tokens::Tokenizer>")]
    tokenizer: &'a str,
    messages: usize,
    epochs: Vec<EpochDoc>,
    compactions: Vec<CompactionDoc<'a>>,
}

impl ctxlens::document::Document for Doc<'_> {
    const NAME: &'static str = "history";
}

#[derive(Serialize, schemars::JsonSchema)]
struct EpochDoc {
    index: usize,
    first: usize,
    last: Option<usize>,
    messages: usize,
    tokens: u64,
    recorded_peak: Option<u64>,
    /// The system prompt and tools its requests carried, fitted from its usage.
    overhead: Option<u64>,
    human_turns: usize,
    /// What its recorded calls cost, in dollars (`stats` names the price table).
    cost: Option<f64>,
}

#[derive(Serialize, schemars::JsonSchema)]
struct CompactionDoc<'a> {
    index: usize,
    line: usize,
    epoch: usize,
    at: usize,
    trigger: Option<&'a str>,
    pre_tokens: Option<u64>,
    /// The context's size right after it, as recorded (Claude Code's `postTokens`).
    post_tokens: Option<u64>,
    /// The last prompt recorded before it (the request that did not set it off).
    last_recorded_before: Option<u64>,
    /// `[last request recorded before it, pre_tokens]` for an auto compaction.
    threshold_between: Option<(u64, u64)>,
    counted_before: u64,
    summary: &'a str,
    summary_message: Option<usize>,
    summary_tokens: u64,
    kept: &'a [String],
    /// What the agent did again after it, and what the user said again.
    done_again: Vec<DoneAgain>,
    /// The tokens all of that cost.
    done_again_tokens: u64,
    loss: LossDoc<'a>,
    /// With --compare-summaries: the real summary and the others on the same cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    summaries: Option<&'a [Compared]>,
}

/// The system prompt and tools epoch `messages` of `whole` carried (not in the log),
/// fitted from its own recorded usage, when it recorded any.
fn epoch_overhead(fits: &[ctxlens::calibrate::EpochFit], messages: &std::ops::Range<usize>) -> Option<u64> {
    fits.iter()
        .find(|f| f.messages == *messages)
        .and_then(|f| f.calibration.as_ref())
        .map(|c| c.overhead)
        .filter(|&o| o > 0)
}

/// Each epoch's recorded cost (empty when the log records no priced call).
fn epoch_costs(whole: &Transcript, found: &History) -> Vec<Option<f64>> {
    let lines: Vec<usize> = found.compactions.iter().map(|c| c.line).collect();
    ctxlens::cost::session_cost(whole, ctxlens::cost::PriceTable::builtin())
        .map_or_else(Vec::new, |c| c.by_epoch(&lines))
}

fn document<'a>(
    whole: &'a Transcript,
    counts: &'a Counts,
    found: &'a History,
    done_again: &[Vec<DoneAgain>],
    compared: &'a [Vec<Compared>],
) -> Doc<'a> {
    let fits = ctxlens::calibrate::calibrate_epochs(whole, counts);
    let costs = epoch_costs(whole, found);
    Doc {
        format: whole.format().name(),
        tokenizer: counts.tokenizer.name(),
        messages: whole.messages().len(),
        epochs: found
            .epochs
            .iter()
            .map(|e| EpochDoc {
                index: e.index,
                first: e.messages.start,
                last: e.messages.end.checked_sub(1).filter(|_| !e.messages.is_empty()),
                messages: e.messages.len(),
                tokens: e.tokens,
                recorded_peak: e.recorded_peak,
                overhead: epoch_overhead(&fits, &e.messages),
                human_turns: e.human_turns,
                cost: costs.get(e.index).copied().flatten(),
            })
            .collect(),
        compactions: found
            .compactions
            .iter()
            .map(|c| CompactionDoc {
                index: c.index,
                line: c.line,
                epoch: c.epoch,
                at: c.at,
                trigger: c.trigger.as_deref(),
                pre_tokens: c.pre_tokens,
                post_tokens: c.post_tokens,
                last_recorded_before: c.last_recorded_before,
                threshold_between: c.threshold_between,
                counted_before: c.counted_before,
                summary: &c.summary,
                summary_message: c.summary_message,
                summary_tokens: c.summary_tokens,
                kept: &c.kept,
                done_again_tokens: done_again[c.index].iter().map(|d| d.tokens).sum(),
                summaries: compared.get(c.index).map(Vec::as_slice),
                done_again: done_again[c.index].clone(),
                loss: LossDoc::of(&c.loss),
            })
            .collect(),
    }
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
        writeln!(
            out,
            "    its auto-compact threshold: above {} (the last request before it) and at most {} (where it fired){used_by}",
            thousands(low),
            thousands(high)
        )?;
    }
    Ok(())
}

/// An epoch's heading: its messages, tokens, turns, and what the log says of its calls.
fn epoch_line(epoch: &ctxlens::history::Epoch, tokenizer: &str, overhead: Option<u64>, cost: Option<f64>) -> String {
    let recorded = epoch
        .recorded_peak
        .map(|r| format!(" · largest recorded prompt {}", thousands(r)))
        .unwrap_or_default();
    let overhead = overhead
        .map(|o| format!(" · system + tools ≈{} (fitted, not in the log)", thousands(o)))
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
    compared: &[Vec<Compared>],
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
    let fits = ctxlens::calibrate::calibrate_epochs(whole, counts);
    let costs = epoch_costs(whole, found);
    for epoch in &found.epochs {
        writeln!(out)?;
        writeln!(
            out,
            "{}",
            epoch_line(
                epoch,
                tokenizer,
                epoch_overhead(&fits, &epoch.messages),
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
            writeln!(
                out,
                "    summary the agent got ({} tokens): {}",
                thousands(c.summary_tokens),
                one_line(&c.summary, 160)
            )?;
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
