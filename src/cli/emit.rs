//! `--emit-config KIND` on `compact`, `replay` and `sweep`: the settings in force printed
//! as an agent's configuration ([`ctxlens::agent_config`]). A note a format cannot hold
//! as a comment (JSON) goes to standard error.

use std::io::Write;
use std::process::ExitCode;

use super::args::EmitArgs;
use ctxlens::agent_config::{emit, Kind, Settings as AgentSettings};
use ctxlens::compact::Settings;
use ctxlens::summarize::Spec;
use ctxlens::tokens::Counts;
use ctxlens::transcript::Transcript;

/// The settings to emit, with the log's calibration when it records usage.
pub fn settings(
    transcript: &Transcript,
    counts: &Counts,
    settings: &Settings,
    summarizer: &Spec,
    args: &EmitArgs,
) -> AgentSettings {
    AgentSettings {
        options: settings.options,
        strategy: settings.strategy,
        tokenizer: counts.tokenizer,
        summarizer: summarizer.to_string(),
        summary_role: settings.summary_role,
        context_window: args.context_window().or_else(|| {
            let window = transcript.model().and_then(ctxlens::models::window_of)?;
            eprintln!(
                "ctxlens: context window {} ({}, from the model the log names; --context-window overrides it)",
                window.tokens, window.family
            );
            Some(window.tokens)
        }),
        // The fit of the latest epoch that recorded usage: a fit across a real compaction
        // mixes two contexts (other instructions re-read, another overhead).
        calibration: ctxlens::calibrate::calibrate_epochs(transcript, counts)
            .into_iter()
            .rev()
            .find_map(|e| e.calibration)
            .map(|c| (c.overhead, c.ratio)),
        logged_threshold: ctxlens::policy::claude_code::logged_threshold(transcript),
        opencode_estimate_ratio: ctxlens::policy::opencode::estimate_ratio(transcript, counts),
    }
}

/// Prints the configuration of `kind`.
pub fn print(kind: Kind, settings: &AgentSettings) -> anyhow::Result<ExitCode> {
    print_emitted(&emit(kind, settings)?)
}

/// Prints a configuration: its note and warnings on standard error, its text on standard
/// output.
pub fn print_emitted(emitted: &ctxlens::agent_config::Emitted) -> anyhow::Result<ExitCode> {
    if let Some(note) = &emitted.note {
        eprintln!("note: {note}");
    }
    for warning in &emitted.warnings {
        eprintln!("warning: {warning}");
    }
    let mut out = std::io::stdout().lock();
    out.write_all(emitted.text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
