//! `ctxlens backtest FILE|DIR`: every automatic compaction of each session log predicted
//! from what was known before it ([`ctxlens::backtest`]) against what happened — where
//! the replay fired, the next request's size — with the error per compaction and in all.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::args::InputArgs;
use ctxlens::backtest::{backtest, Backtest};
use ctxlens::summarize::Spec;
use ctxlens::tokens::Counts;

#[derive(Debug, clap::Args)]
pub struct BacktestArgs {
    /// A session log, or a folder searched for them (`*.jsonl`, recursively).
    path: PathBuf,
    /// Print JSON Lines: one `{file, policy, sources, compactions: [...]}` per log.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    input: InputArgs,
}

pub fn run(args: &BacktestArgs) -> anyhow::Result<ExitCode> {
    let summarizer = ctxlens::summarizers::build(&Spec::Extractive, &ctxlens::summarize::Settings::default())?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (mut fired, mut predicted, mut within_3, mut size_errors) = (0usize, 0usize, 0usize, Vec::new());
    // A file named on the command line must be read; in a folder, a log that cannot be is
    // said and counted, and the others are backtested.
    let one_file = !args.path.is_dir();
    let mut unread = 0usize;
    for file in ctxlens::ledger_files::session_logs(&args.path)? {
        let whole = match args.input.load(&file).and_then(|live| Ok(live.whole_session()?)) {
            Ok(whole) => whole,
            Err(e) if one_file => return Err(e),
            Err(e) => {
                eprintln!("ctxlens: skipped: {e:#}");
                unread += 1;
                continue;
            }
        };
        let counts = Counts::compute(&whole, args.input.tokenizer());
        let Some(result) = backtest(&whole, &counts, summarizer.as_ref(), ctxlens::cancel::never())? else {
            if one_file {
                anyhow::bail!(
                    "{}: {} format, not an agent's session log: backtest predicts the compactions an agent's own log records (Claude Code, Codex, Gemini CLI, opencode, Copilot CLI)",
                    file.display(),
                    whole.format().name()
                );
            }
            continue;
        };
        for row in &result.compactions {
            fired += 1;
            if let Some(error) = row.error_messages {
                predicted += 1;
                within_3 += usize::from(error.abs() <= 3);
            }
            size_errors.extend(row.size_error_percent);
        }
        if args.json {
            super::json_out::write(&mut out, &super::json_out::file_name(&file), &result, false)?;
            writeln!(out)?;
        } else {
            print_log(&mut out, &file, &result)?;
        }
    }
    if !args.json {
        let median = median(&mut size_errors);
        writeln!(
            out,
            "{}: {predicted} predicted, {within_3} within 3 messages; next request's size {}",
            ctxlens::text::count_of(fired as u64, "automatic compaction", "automatic compactions"),
            median.map_or_else(
                || "not compared".to_owned(),
                |m| format!("off by {m:.1}% (median of |error|)")
            ),
        )?;
        if unread > 0 {
            writeln!(
                out,
                "not counted: {} that could not be read (named on stderr)",
                ctxlens::text::count_of(unread as u64, "log", "logs")
            )?;
        }
    }
    out.flush()?;
    Ok(if unread > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn print_log(out: &mut impl Write, file: &Path, result: &Backtest) -> anyhow::Result<()> {
    writeln!(out, "{}: policy {}", file.display(), result.policy)?;
    for source in &result.sources {
        writeln!(out, "  {source}")?;
    }
    if result.compactions.is_empty() {
        writeln!(
            out,
            "  no automatic compaction to predict ({} not automatic)",
            result.not_automatic
        )?;
    }
    // In line order: the predicted compactions and those this file cannot predict.
    let mut rows: Vec<(usize, String)> = result
        .compactions
        .iter()
        .map(|row| (row.line, format!("compacted before #{}; {}", row.real_at, row.describe())))
        .chain(result.compacted_elsewhere.iter().map(|&line| {
            (
                line,
                "compacted a conversation logged in another file (it counted more than this file ever sent): not predicted here"
                    .to_owned(),
            )
        }))
        .collect();
    rows.sort_by_key(|(line, _)| *line);
    for (line, text) in rows {
        writeln!(out, "  line {line}: {text}")?;
    }
    Ok(())
}

/// The median of the absolute values.
fn median(values: &mut [f64]) -> Option<f64> {
    for v in values.iter_mut() {
        *v = v.abs();
    }
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => None,
        n if n % 2 == 1 => Some(values[n / 2]),
        n => Some(f64::midpoint(values[n / 2 - 1], values[n / 2])),
    }
}
