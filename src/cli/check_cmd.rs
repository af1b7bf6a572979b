//! `ctxlens check`: provider pairing rules; exit 1 when the transcript has problems.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{named, FormatArgs};
use ctxlens::check::Provider;
use ctxlens::check::Report;

/// `ctxlens check FILE`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// Transcript file (`-` for standard input).
    file: PathBuf,
    /// Provider whose rules to check (default: the transcript's dialect).
    #[arg(long, value_parser = named::<Provider>())]
    provider: Option<Provider>,
    /// Print JSON instead of lines.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    format: FormatArgs,
}

/// Checks the transcript against the provider and prints every problem.
pub fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let transcript = args.format.load(&args.file)?;
    let provider = super::provider_for(args.provider, transcript.format().dialect);
    let report = Report::of(&transcript, provider);
    let problems = &report.problems;
    let mut out = std::io::stdout().lock();
    if args.json {
        super::json_out::write(&mut out, transcript.source(), &report, false)?;
        writeln!(out)?;
    } else if problems.is_empty() {
        writeln!(
            out,
            "{}: ok for {} ({} messages)",
            transcript.source(),
            provider.name(),
            ctxlens::text::thousands(transcript.messages().len() as u64)
        )?;
    } else {
        for p in problems {
            writeln!(out, "{}: {p}", transcript.source())?;
        }
        writeln!(
            out,
            "{}: {} problem(s) for {}",
            transcript.source(),
            problems.len(),
            provider.name()
        )?;
    }
    out.flush()?;
    Ok(if problems.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}
