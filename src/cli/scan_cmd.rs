//! `ctxlens scan DIR|GLOB…`: one row per session, streamed as each file is done (files
//! in parallel), as a table, JSON Lines (`DuckDB` and Spark read them directly) or CSV; a
//! file that fails to load is one error row, never the end of the scan; a progress line
//! on a terminal; a summary at the end.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;

use anyhow::bail;
use rayon::prelude::*;

use super::args::BudgetArgs;
use ctxlens::scan::{scan_file, session_files, Session, Skipped};
use ctxlens::scan_folders::ByFolder;
use ctxlens::text::{count_of, fit, thousands};
use ctxlens::tokens::Tokenizer;

/// `ctxlens scan`.
#[derive(Debug, clap::Args)]
pub struct ScanArgs {
    /// Folders (searched for .jsonl, .json, .traj), files, or quoted glob patterns.
    #[arg(required = true)]
    paths: Vec<String>,
    /// With --max-tokens: also replay each session (firings, loops).
    #[command(flatten)]
    budget: BudgetArgs,
    /// Tokenizer to count with.
    #[arg(long, value_parser = super::args::named::<Tokenizer>())]
    tokenizer: Option<Tokenizer>,
    /// Print JSON Lines (one object per session; errors as {"path", "error"}).
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV.
    #[arg(long)]
    csv: bool,
}

/// A pattern's matches, or the path itself; paths the pattern could not read (an
/// unreadable folder) go to `skipped`, said as error rows.
fn expand(pattern: &str, skipped: &mut Vec<Skipped>) -> anyhow::Result<Vec<PathBuf>> {
    if !pattern.contains(['*', '?', '[']) || std::path::Path::new(pattern).exists() {
        return Ok(vec![PathBuf::from(pattern)]);
    }
    let mut matches = Vec::new();
    for entry in glob::glob(pattern).map_err(|e| anyhow::anyhow!("{pattern}: not a glob pattern: {e}"))? {
        match entry {
            Ok(path) => matches.push(path),
            Err(e) => skipped.push(Skipped {
                path: e.path().to_path_buf(),
                reason: format!("not read: {}", e.error()),
            }),
        }
    }
    Ok(matches)
}

/// What one file gave.
enum Outcome {
    Done(Box<Session>),
    Failed(PathBuf, String),
}

/// The CSV columns: every field of a JSON row, in its order, then `error` (a row that
/// did not load has only `path` and `error`). A cell is the field's JSON value flattened:
/// a string as CSV text, a number or boolean as JSON writes it, `null` empty.
const CSV_COLUMNS: [&str; 23] = [
    "path",
    "project",
    "started",
    "format",
    "messages",
    "tokens",
    "live_tokens",
    "title",
    "model",
    "last_activity",
    "modified",
    "session_id",
    "parent_session",
    "recorded_peak",
    "peak_percent_of_window",
    "compactions",
    "autocompact_at",
    "autocompact_source",
    "orphans",
    "firings",
    "loops",
    "cost_usd",
    "error",
];

/// The scan table of a folder (`ctxlens DIR` when standard output is not a terminal).
pub fn print_table(dir: &std::path::Path) -> anyhow::Result<ExitCode> {
    run(&ScanArgs {
        paths: vec![dir.display().to_string()],
        budget: BudgetArgs {
            max_tokens: None,
            keep_tail: None,
            flush_to_memory: false,
            no_flush_to_memory: false,
        },
        tokenizer: None,
        json: false,
        csv: false,
    })
}

/// The outcomes as their folders are read whole, each row answered from its folder's
/// other sessions ([`ByFolder`]).
fn settled_by_folder(
    rx: mpsc::Receiver<(usize, PathBuf, Outcome)>,
    mut by_folder: ByFolder<(usize, Outcome)>,
) -> impl Iterator<Item = (usize, Outcome)> {
    fn row((_, outcome): &mut (usize, Outcome)) -> Option<&mut Session> {
        match outcome {
            Outcome::Done(session) => Some(&mut **session),
            Outcome::Failed(..) => None,
        }
    }
    let mut rx = rx.into_iter();
    std::iter::from_fn(move || match rx.next() {
        Some((index, path, outcome)) => Some(by_folder.finished(&path, (index, outcome), row)),
        // A scan stopped short leaves folders unfinished: their rows still come out.
        None => Some(by_folder.rest(row)).filter(|rest| !rest.is_empty()),
    })
    .flatten()
}

/// The outcomes in the files' order (sorted paths), whatever order the threads finish
/// them in: each waits only for the ones before it, so rows still stream.
fn in_file_order(rx: impl Iterator<Item = (usize, Outcome)>) -> impl Iterator<Item = Outcome> {
    let mut waiting: std::collections::BTreeMap<usize, Outcome> = std::collections::BTreeMap::new();
    let mut next = 0;
    rx.flat_map(move |(index, outcome)| {
        waiting.insert(index, outcome);
        let mut ready = Vec::new();
        while let Some(outcome) = waiting.remove(&next) {
            ready.push(outcome);
            next += 1;
        }
        ready
    })
}

/// Scans and streams.
pub fn run(args: &ScanArgs) -> anyhow::Result<ExitCode> {
    let mut roots = Vec::new();
    let mut unread = Vec::new();
    for p in &args.paths {
        roots.extend(expand(p, &mut unread)?);
    }
    let found = session_files(&roots);
    unread.extend(found.skipped);
    let files = found.files;
    if files.is_empty() && unread.is_empty() {
        bail!("no session files under {}", args.paths.join(", "));
    }
    let tokenizer = args
        .tokenizer
        .or(super::config_file::current().tokenizer)
        .unwrap_or(Tokenizer::Estimate);
    let options = args.budget.max_tokens().map(|m| args.budget.options(m));
    let total = files.len();
    let (tx, rx) = mpsc::sync_channel::<(usize, PathBuf, Outcome)>(64);
    // A row is answered from the other sessions of its folder once they are all read.
    let by_folder = ByFolder::new(&files);
    let worker = std::thread::spawn(move || {
        files.par_iter().enumerate().for_each_with(tx, |tx, (index, path)| {
            let outcome = match scan_file(path, tokenizer, options) {
                Ok(session) => Outcome::Done(Box::new(session)),
                Err(e) => Outcome::Failed(path.clone(), e.to_string()),
            };
            let _ = tx.send((index, path.clone(), outcome));
        });
    });
    let progress = std::io::stderr().is_terminal();
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if args.csv {
        writeln!(out, "{}", CSV_COLUMNS.join(","))?;
    } else if !args.json {
        writeln!(
            out,
            "{:<24}  {:<24}  {:<11}  {:>8}  {:>11}  {:>11}  {:>4}  {:>4}  {:>7}  path",
            "started", "project", "format", "messages", "tokens", "recorded", "cmp", "orph", "firings"
        )?;
    }
    let (mut done, mut failed, mut messages, mut tokens, mut compacted, mut looping) =
        (0usize, 0usize, 0usize, 0u64, 0usize, 0usize);
    // What was passed over comes first, each an error row, so nothing is skipped unsaid.
    for skipped in &unread {
        write_error(&mut out, args, &skipped.path, &skipped.reason)?;
    }
    out.flush()?;
    for outcome in in_file_order(settled_by_folder(rx, by_folder)) {
        match outcome {
            Outcome::Done(s) => {
                done += 1;
                messages += s.messages;
                tokens = tokens.saturating_add(s.tokens);
                compacted += usize::from(s.compactions > 0);
                looping += usize::from(s.loops.is_some_and(|l| l > 0));
                write_row(&mut out, args, &s)?;
            }
            Outcome::Failed(path, error) => {
                failed += 1;
                write_error(&mut out, args, &path, &error)?;
            }
        }
        // Each row goes out as soon as the rows before it have, to a pipe too: a consumer
        // sees progress.
        out.flush()?;
        if progress {
            eprint!("\rscanned {}/{} sessions", done + failed, total);
        }
    }
    let _ = worker.join();
    out.flush()?;
    if progress {
        eprintln!();
    }
    let summary = format!(
        "{} scanned ({} failed to load{}): {}, {} tokens; {} compacted in the log{}",
        count_of((done + failed) as u64, "session", "sessions"),
        thousands(failed as u64),
        if unread.is_empty() {
            String::new()
        } else {
            format!(", {} paths skipped", thousands(unread.len() as u64))
        },
        count_of(messages as u64, "message", "messages"),
        thousands(tokens),
        thousands(compacted as u64),
        if options.is_some() {
            format!("; {} would loop under these settings", thousands(looping as u64))
        } else {
            String::new()
        }
    );
    if args.json || args.csv {
        eprintln!("ctxlens: {summary}");
    } else {
        writeln!(out, "\n{summary}")?;
    }
    Ok(ExitCode::SUCCESS)
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_owned()
    }
}

fn write_row(out: &mut impl Write, args: &ScanArgs, s: &Session) -> anyhow::Result<()> {
    if args.json {
        // Each row is a document of its own (JSON Lines): its schema and file first.
        super::json_out::write(&mut *out, &s.path, &ctxlens::scan::Row::Read(s), false)?;
        writeln!(out)?;
    } else if args.csv {
        let row = serde_json::to_value(s)?;
        let cells: Vec<String> = CSV_COLUMNS
            .iter()
            .map(|column| match row.get(*column) {
                None | Some(serde_json::Value::Null) => String::new(),
                Some(serde_json::Value::String(text)) => csv_field(text),
                Some(other) => other.to_string(),
            })
            .collect();
        writeln!(out, "{}", cells.join(","))?;
    } else {
        writeln!(
            out,
            "{:<24}  {}  {:<11}  {:>8}  {:>11}  {:>11}  {:>4}  {:>4}  {:>7}  {}",
            fit(&ctxlens::scan::short_time(&s.started), 24, false),
            fit(&ctxlens::text::visible(&s.project, false), 24, false),
            s.format,
            thousands(s.messages as u64),
            thousands(s.tokens),
            s.recorded_peak.map_or_else(|| "–".to_owned(), thousands),
            s.compactions,
            s.orphans,
            match (s.firings, s.loops) {
                (Some(f), Some(l)) if l > 0 => format!("{f} ⟲{l}"),
                (Some(f), _) => f.to_string(),
                _ => "–".to_owned(),
            },
            ctxlens::text::visible(&s.path, false)
        )?;
    }
    Ok(())
}

fn write_error(out: &mut impl Write, args: &ScanArgs, file: &Path, error: &str) -> anyhow::Result<()> {
    let path = &file.display().to_string();
    if args.json {
        let row = ctxlens::scan::Row::Unreadable {
            path,
            path_base64: ctxlens::scan::path_base64(file),
            error,
        };
        super::json_out::write(&mut *out, path, &row, false)?;
        writeln!(out)?;
    } else if args.csv {
        let empty = ",".repeat(CSV_COLUMNS.len() - 2);
        writeln!(out, "{}{empty},{}", csv_field(path), csv_field(error))?;
    } else if error.starts_with(path.as_str()) {
        writeln!(out, "error: {}", ctxlens::text::visible(error, false))?;
    } else {
        // The row says which file, as every row of the table does.
        writeln!(
            out,
            "error: {}: {}",
            ctxlens::text::visible(path, false),
            ctxlens::text::visible(error, false)
        )?;
    }
    Ok(())
}
