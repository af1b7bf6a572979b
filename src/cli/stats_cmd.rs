//! `ctxlens stats`: the per-message token table, as text or JSON.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::args::InputArgs;
use ctxlens::cost::{PriceTable, SessionCost};
use ctxlens::text::{fit, id_list, one_line, thousands, truncate, visible};
use ctxlens::tokens::{recorded_vs_estimate, Counts, Tokenizer};
use ctxlens::transcript::{OrphanKind, Transcript};

/// `ctxlens stats FILE`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// Transcript file (`-` for standard input).
    file: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Where the context goes instead of the per-message table: by kind (system, user,
    /// assistant, thinking, tool calls, tool results, images, past summaries) or by tool.
    #[arg(long, value_parser = super::args::named::<ctxlens::breakdown::By>(), value_name = "KIND|TOOL")]
    by: Option<ctxlens::breakdown::By>,
    /// With --by: split each row into head, summarized and tail under this budget.
    #[arg(long, value_name = "N", requires = "by")]
    max_tokens: Option<u64>,
    /// With --by and --max-tokens: the tail budget (default: max-tokens / 2).
    #[arg(long, value_name = "N", requires = "max_tokens")]
    keep_tail: Option<u64>,
    /// Price the recorded usage with this table (LiteLLM's
    /// `model_prices_and_context_window.json` shape) instead of the one ctxlens ships.
    #[arg(long, value_name = "FILE")]
    prices: Option<PathBuf>,
    #[command(flatten)]
    input: InputArgs,
}

/// Prints the stats of the file.
pub fn run(args: &StatsArgs) -> anyhow::Result<ExitCode> {
    let transcript = args.input.load(&args.file)?;
    let tokenizer = args.input.tokenizer();
    match args.by {
        Some(by) => {
            super::breakdown_cmd::print(&transcript, tokenizer, by, args.max_tokens, args.keep_tail, args.json)?;
        }
        None => print(&transcript, tokenizer, &price_table(args.prices.as_deref())?, args.json)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `--prices FILE`, else the table ctxlens ships.
pub fn price_table(path: Option<&Path>) -> anyhow::Result<PriceTable> {
    let Some(path) = path else {
        return Ok(PriceTable::builtin().clone());
    };
    let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
    PriceTable::from_json(&path.display().to_string(), &text)
        .map_err(|e| anyhow::anyhow!("{}:{}:{}: not a price table: {e}", path.display(), e.line(), e.column()))
}

/// Prints the stats of `transcript` counted with `tokenizer`.
pub fn print(transcript: &Transcript, tokenizer: Tokenizer, prices: &PriceTable, as_json: bool) -> anyhow::Result<()> {
    let counts = Counts::compute(transcript, tokenizer);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if as_json {
        super::json_out::write(
            &mut out,
            transcript.source(),
            &ctxlens::stats_doc::stats_doc(transcript, &counts, prices),
            false,
        )?;
        writeln!(out)?;
    } else {
        write_table(&mut out, transcript, &counts, prices)?;
    }
    out.flush()?;
    Ok(())
}

/// The human table: a header, then one row per message.
/// Says which recorded usages cannot be real and were left out (nothing when none).
fn write_implausible_usage(out: &mut impl Write, transcript: &Transcript) -> std::io::Result<()> {
    let implausible: Vec<String> = (0..transcript.messages().len())
        .filter(|&i| transcript.messages()[i].implausible_usage())
        .map(|i| format!("#{i}"))
        .collect();
    if !implausible.is_empty() {
        writeln!(
            out,
            "warning: {} recorded usage{} cannot be real (over {} tokens: {}) and {} left out of fits, meter and cost",
            implausible.len(),
            if implausible.len() == 1 { "" } else { "s" },
            thousands(ctxlens::transcript::IMPLAUSIBLE_TOKENS),
            implausible.join(", "),
            if implausible.len() == 1 { "is" } else { "are" },
        )?;
    }
    Ok(())
}

pub fn write_table(
    out: &mut impl Write,
    transcript: &Transcript,
    counts: &Counts,
    prices: &PriceTable,
) -> std::io::Result<()> {
    let groups = &transcript.groups();
    writeln!(
        out,
        "{}: {} · {} · {} · {}",
        transcript.source(),
        transcript.format(),
        ctxlens::text::count_of(transcript.messages().len() as u64, "message", "messages"),
        ctxlens::text::count_of(groups.groups.len() as u64, "tool group", "tool groups"),
        ctxlens::text::count_of(groups.orphans.len() as u64, "orphan", "orphans")
    )?;
    if let Some(system) = &transcript.system() {
        writeln!(out, "top-level system (not counted): {}", one_line(system, 80))?;
    }
    writeln!(
        out,
        "tokenizer {}: total {} tokens",
        counts.tokenizer,
        thousands(counts.total())
    )?;
    write_billing(out, transcript, counts)?;
    if let Some(cost) = ctxlens::cost::session_cost(transcript, prices) {
        write_cost(out, &cost)?;
    }
    write_implausible_usage(out, transcript)?;
    writeln!(out)?;
    writeln!(
        out,
        "{:>6}  {:<10} {:>8} {:>11}  {:<22} preview",
        "#", "role", "tokens", "cumulative", "tools"
    )?;
    let mut notes = transcript.notes().iter().peekable();
    let rule = ctxlens::tokens::media::provider_rule(transcript);
    for (i, m) in transcript.messages().iter().enumerate() {
        while let Some(note) = notes.next_if(|n| n.before <= i) {
            write_note(out, note)?;
        }
        let calls: Vec<&str> = m.tool_calls().iter().map(|c| c.id.as_str()).collect();
        let results: Vec<&str> = m.tool_results().iter().map(String::as_str).collect();
        let mut tools = format!("{}{}", id_list("→", &calls, 22), id_list("←", &results, 22));
        if groups.orphans_of(i).next().is_some() {
            let kinds: Vec<&str> = groups
                .orphans_of(i)
                .map(|o| {
                    if o.kind == OrphanKind::Call {
                        "unanswered"
                    } else {
                        "no call"
                    }
                })
                .collect();
            tools = format!("!{} {tools}", kinds.join(","));
        }
        writeln!(
            out,
            "{:>6}  {} {:>8} {:>11}  {} {}",
            i,
            fit(&visible(transcript.role_label(i), false), 10, false),
            thousands(counts.message(i)),
            thousands(counts.cumulative(i)),
            fit(&tools, 22, false),
            visible(&truncate(&transcript.list_preview(i, 60), 60), false)
        )?;
        for orphan in groups.orphans_of(i) {
            let why = orphan.explain(transcript.messages().len());
            writeln!(out, "{:>6}  ┄ ⚠ orphan: {}", "", visible(&why, false))?;
        }
        if let Some(heavy) = ctxlens::tokens::media::binary_heavy(transcript, i) {
            writeln!(
                out,
                "{:>6}  ┄ {}",
                "",
                binary_warning(&heavy, counts.message(i), counts.tokenizer, &rule)
            )?;
        }
        if let Some(r) = recorded_vs_estimate(transcript, counts, i) {
            writeln!(
                out,
                "{:>6}  ┄ recorded prompt {} ({}) vs estimate {} of the messages before: {:+.1}%",
                "",
                thousands(r.context_tokens),
                ctxlens::tokens::usage_split(&r.usage),
                thousands(r.estimate),
                r.error_percent
            )?;
        }
    }
    for note in notes {
        write_note(out, note)?;
    }
    Ok(())
}

/// What the header says of billing: the counter's distance from the provider's rules
/// when far, and the calibration of recorded usage.
fn write_billing(out: &mut impl Write, transcript: &Transcript, counts: &Counts) -> std::io::Result<()> {
    if let Some(gap) = ctxlens::tokens::media::provider_gap(transcript, counts) {
        writeln!(out, "{}", gap_warning(&gap, counts.tokenizer))?;
    }
    if let Some(c) = ctxlens::calibrate::calibrate(transcript, counts) {
        writeln!(
            out,
            "recorded usage ({} calls): ≈{} tokens of system prompt and tool definitions, not in the log; {:.3} recorded per counted token; fit error median {:.1}%, worst {:.1}%",
            c.calls.len(),
            thousands(c.overhead),
            c.ratio,
            c.median_error_percent,
            c.worst_error_percent
        )?;
        // The provider's own last count, where the log has one, is what `status` says;
        // the fit over every call is a second opinion (a session resumed with fewer
        // tools, say, is far from it).
        let now = ctxlens::meter::meter(transcript, counts, None);
        let fitted = c.predict(counts.total());
        if now.tokens_from == "recorded" {
            writeln!(
                out,
                "the context now: {} tokens, as the provider last recorded it (as status says); the fit would say {}",
                thousands(now.tokens),
                thousands(fitted)
            )?;
        } else {
            writeln!(
                out,
                "calibrated total (what the provider would count now): {} tokens",
                thousands(fitted)
            )?;
        }
    }
    Ok(())
}

/// What the recorded calls cost, by what they paid for, and where the cache was
/// written again in full.
fn write_cost(out: &mut impl Write, cost: &SessionCost) -> std::io::Result<()> {
    let d = &cost.dollars;
    match cost.total {
        Some(total) => writeln!(
            out,
            "cost of {}: ${total:.2} (uncached input ${:.2} · cache write ${:.2} · cache read ${:.2} · output ${:.2}); prices: {}",
            if cost.unpriced_models.is_empty() {
                ctxlens::text::count_of(cost.calls.len() as u64, "recorded call", "recorded calls")
            } else {
                format!("{} of {} recorded calls", cost.priced_calls(), cost.calls.len())
            },
            d.input,
            d.cache_write,
            d.cache_read,
            d.output,
            cost.prices
        )?,
        None if cost.calls.is_empty() => return Ok(()),
        None => writeln!(out, "cost: unknown ({} not in the price table {})", cost.unpriced_models.join(", "), cost.prices)?,
    }
    if let Some(extra) = cost.compaction_total {
        writeln!(
            out,
            "  + about ${extra:.2} for {} (not in the log: estimated)",
            cost.compaction_calls_words()
        )?;
    }
    if cost.total.is_some() && !cost.unpriced_models.is_empty() {
        writeln!(
            out,
            "  not priced (not in the table), so the session's total is unknown: {} ({} calls)",
            cost.unpriced_models.join(", "),
            cost.calls.len() - cost.priced_calls()
        )?;
    }
    if !cost.rewrites.is_empty() {
        let lines: Vec<String> = cost.rewrites.iter().map(|r| r.line.to_string()).collect();
        writeln!(
            out,
            "cache written again in full {} times: {} (lines {})",
            cost.rewrites.len(),
            cost.rewrite_causes(),
            lines.join(", ")
        )?;
    }
    Ok(())
}

/// The header's warning when the chosen counter is far from what the provider bills.
pub fn gap_warning(gap: &ctxlens::tokens::media::ProviderGap, tokenizer: Tokenizer) -> String {
    format!(
        "⚠ {tokenizer} counts {} tokens; by the provider's rules ≈{} ({:+.0}%, from images and documents in {} message{}): --tokenizer provider counts as the provider bills",
        thousands(gap.counted),
        thousands(gap.provider),
        gap.percent(),
        thousands(gap.messages as u64),
        if gap.messages == 1 { "" } else { "s" }
    )
}

/// The warning beside a message that is mostly binary data, naming the rule that gives
/// the provider's figure (`rule`: [`ctxlens::tokens::media::provider_rule`]).
pub fn binary_warning(
    heavy: &ctxlens::tokens::media::BinaryHeavy,
    tokens: u64,
    tokenizer: Tokenizer,
    rule: &str,
) -> String {
    let what: Vec<String> = heavy
        .media
        .iter()
        .map(ctxlens::tokens::media::Media::describe)
        .collect();
    match tokenizer {
        _ if tokenizer.is_estimate() => format!(
            "⚠ {}: the estimator counts it as {} tokens, the model sees about {} ({rule}); a compactor using the estimator fires on it",
            what.join(", "),
            thousands(tokens),
            thousands(heavy.provider_tokens)
        ),
        // The BPE counters count media as OpenAI bills GPT-4o, whoever the provider is.
        Tokenizer::Cl100k | Tokenizer::O200k => format!(
            "{}: {} tokens here by OpenAI's GPT-4o image rule; {} by --tokenizer provider ({rule})",
            what.join(", "),
            thousands(tokens),
            thousands(heavy.provider_tokens)
        ),
        _ => format!(
            "{}: counted by {rule}: {} tokens",
            what.join(", "),
            thousands(tokens)
        ),
    }
}

fn write_note(out: &mut impl Write, note: &ctxlens::transcript::Note) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>6}  ┄ {}: {}",
        "",
        visible(&note.kind, false),
        one_line(&note.text, 100)
    )
}
