//! `ctxlens check`: provider pairing rules; exit 1 when the transcript has problems.

use std::io::Write;
use std::process::ExitCode;

use serde_json::json;

use crate::check::{check, Provider};
use crate::transcript::Transcript;

/// Checks `transcript` against `provider` and prints every problem.
pub fn run(transcript: &Transcript, provider: Provider, as_json: bool) -> anyhow::Result<ExitCode> {
    let problems = check(transcript, provider);
    let mut out = std::io::stdout().lock();
    if as_json {
        let list: Vec<_> = problems
            .iter()
            .map(|p| json!({"index": p.index, "problem": p.problem, "provider_error": p.provider_error}))
            .collect();
        let doc = json!({"provider": provider.name(), "ok": problems.is_empty(), "problems": list});
        writeln!(out, "{doc}")?;
    } else if problems.is_empty() {
        writeln!(
            out,
            "{}: ok for {} ({} messages)",
            transcript.source,
            provider.name(),
            transcript.messages.len()
        )?;
    } else {
        for p in &problems {
            writeln!(out, "{}: {p}", transcript.source)?;
        }
        writeln!(
            out,
            "{}: {} problem(s) for {}",
            transcript.source,
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
