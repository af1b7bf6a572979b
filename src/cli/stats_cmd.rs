//! `ctxlens stats`: the per-message token table, as text or JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use serde::Serialize;

use super::args::InputArgs;
use ctxlens::text::{fit, id_list, one_line, thousands, truncate, visible};
use ctxlens::tokens::{recorded_vs_estimate, Counts, RecordedRow, Tokenizer};
use ctxlens::transcript::{OrphanKind, Transcript};

/// `ctxlens stats FILE`.
#[derive(Debug, clap::Args)]
pub struct StatsArgs {
    /// Transcript file (`-` for standard input).
    file: PathBuf,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    input: InputArgs,
}

/// Prints the stats of the file.
pub fn run(args: &StatsArgs) -> anyhow::Result<ExitCode> {
    let transcript = args.input.load(&args.file)?;
    print(&transcript, Tokenizer::from(args.input.tokenizer), args.json)?;
    Ok(ExitCode::SUCCESS)
}

/// Prints the stats of `transcript` counted with `tokenizer`.
pub fn print(transcript: &Transcript, tokenizer: Tokenizer, as_json: bool) -> anyhow::Result<()> {
    let counts = Counts::compute(transcript, tokenizer);
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    if as_json {
        serde_json::to_writer(&mut out, &stats_doc(transcript, &counts))?;
        writeln!(out)?;
    } else {
        write_table(&mut out, transcript, &counts)?;
    }
    out.flush()?;
    Ok(())
}

/// The `stats --json` document; field order is the documented key order.
#[derive(Serialize)]
pub struct StatsDoc<'a> {
    format: &'static str,
    tokenizer: &'static str,
    total: u64,
    messages: StatsRows<'a>,
    /// Records shown but not counted (log formats).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    notes: Vec<NoteRow<'a>>,
    /// The last recorded prompt size, when the log records usage.
    #[serde(skip_serializing_if = "Option::is_none")]
    recorded_last: Option<u64>,
}

#[derive(Serialize)]
struct NoteRow<'a> {
    before: usize,
    line: usize,
    kind: &'a str,
    text: &'a str,
}

struct StatsRows<'a> {
    transcript: &'a Transcript,
    counts: &'a Counts,
}

#[derive(Serialize)]
struct StatsRow<'a> {
    index: usize,
    role: &'a str,
    tokens: u64,
    cumulative: u64,
    tool_calls: Vec<&'a str>,
    tool_results: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    recorded: Option<RecordedRow>,
}

impl Serialize for StatsRows<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.transcript.messages.iter().enumerate().map(|(i, m)| StatsRow {
            index: i,
            role: &m.role,
            tokens: self.counts.message(i),
            cumulative: self.counts.cumulative(i),
            tool_calls: m.tool_calls.iter().map(|c| c.id.as_str()).collect(),
            tool_results: &m.tool_results,
            recorded: recorded_vs_estimate(self.transcript, self.counts, i),
        }))
    }
}

/// The `stats --json` document of `transcript`.
pub fn stats_doc<'a>(transcript: &'a Transcript, counts: &'a Counts) -> StatsDoc<'a> {
    StatsDoc {
        format: transcript.format.name(),
        tokenizer: counts.tokenizer.name(),
        total: counts.total(),
        messages: StatsRows { transcript, counts },
        notes: transcript
            .notes
            .iter()
            .map(|n| NoteRow {
                before: n.before,
                line: n.line,
                kind: &n.kind,
                text: &n.text,
            })
            .collect(),
        recorded_last: transcript
            .messages
            .iter()
            .rev()
            .find_map(|m| m.recorded)
            .map(|r| r.context_tokens),
    }
}

/// The human table: a header, then one row per message.
pub fn write_table(out: &mut impl Write, transcript: &Transcript, counts: &Counts) -> std::io::Result<()> {
    let groups = &transcript.groups;
    writeln!(
        out,
        "{}: {} · {} messages · {} tool groups · {} orphans",
        transcript.source,
        transcript.format,
        transcript.messages.len(),
        groups.groups.len(),
        groups.orphans.len()
    )?;
    if let Some(system) = &transcript.system {
        writeln!(out, "top-level system (not counted): {}", one_line(system, 80))?;
    }
    writeln!(
        out,
        "tokenizer {}: total {} tokens",
        counts.tokenizer,
        thousands(counts.total())
    )?;
    writeln!(out)?;
    writeln!(
        out,
        "{:>6}  {:<10} {:>8} {:>11}  {:<22} preview",
        "#", "role", "tokens", "cumulative", "tools"
    )?;
    let mut notes = transcript.notes.iter().peekable();
    for (i, m) in transcript.messages.iter().enumerate() {
        while let Some(note) = notes.next_if(|n| n.before <= i) {
            write_note(out, note)?;
        }
        let calls: Vec<&str> = m.tool_calls.iter().map(|c| c.id.as_str()).collect();
        let results: Vec<&str> = m.tool_results.iter().map(String::as_str).collect();
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
            fit(&visible(&m.role, false), 10, false),
            thousands(counts.message(i)),
            thousands(counts.cumulative(i)),
            fit(&tools, 22, false),
            visible(&truncate(&transcript.preview(i, 60), 60), false)
        )?;
        if let Some(r) = recorded_vs_estimate(transcript, counts, i) {
            writeln!(
                out,
                "{:>6}  ┄ recorded prompt {} vs estimate {} of the messages before: {:+.1}%",
                "",
                thousands(r.context_tokens),
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

fn write_note(out: &mut impl Write, note: &ctxlens::transcript::Note) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>6}  ┄ {}: {}",
        "",
        visible(&note.kind, false),
        one_line(&note.text, 100)
    )
}
