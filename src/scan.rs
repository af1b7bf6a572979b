//! Sessions at scale: find the session files under folders (Claude Code projects, Codex
//! rollouts, any transcript), and summarize each — format, messages, tokens, recorded
//! peak, real compactions, orphans, and under given settings the replay's firings and
//! loops — one file at a time, so memory is bounded by the largest session. The command
//! line's `scan` streams these rows; the TUI's session browser lists them.

use std::path::{Path, PathBuf};

use crate::compact::{Options, SummaryRole};
use crate::error::LoadError;
use crate::replay::{replay, Inputs, View};
use crate::summarize::Placeholder;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// One session, summarized.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Session {
    /// The file.
    pub path: String,
    /// The project it belongs to: the working directory a log records, else its folder.
    pub project: String,
    /// When it started (the first timestamp a log records), else the file's modification
    /// time, as RFC 3339 (UTC); sorts newest first as text.
    pub started: String,
    /// Its detected format.
    pub format: String,
    /// Messages of the whole session (every epoch).
    pub messages: usize,
    /// Their tokens by the tokenizer.
    pub tokens: u64,
    /// The largest prompt the provider recorded, when the log records usage.
    pub recorded_peak: Option<u64>,
    /// Compactions the log records.
    pub compactions: usize,
    /// Calls without results and results without calls.
    pub orphans: usize,
    /// With settings: how often the compactor would fire over the session's life.
    pub firings: Option<usize>,
    /// With settings: firings still over budget afterwards.
    pub loops: Option<usize>,
}

/// The extensions of session files.
const EXTENSIONS: [&str; 3] = ["jsonl", "json", "traj"];

/// The session files under `roots` (files as given; folders searched recursively for
/// `.jsonl`, `.json` and `.traj`), sorted, without duplicates.
pub fn session_files(roots: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in roots {
        if root.is_dir() {
            walk(root, &mut out);
        } else {
            out.push(root.clone());
        }
    }
    out.sort();
    out.dedup();
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Ok(kind) = entry.file_type() else { continue };
        if kind.is_dir() {
            walk(&path, out);
        } else if kind.is_file()
            && path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| EXTENSIONS.contains(&e))
        {
            out.push(path);
        }
    }
}

/// Where a user's sessions live, when they exist: `~/.claude/projects` (Claude Code)
/// and `~/.codex/sessions` (Codex).
pub fn default_session_dirs() -> Vec<PathBuf> {
    let Some(home) = std::env::var_os("HOME").map(PathBuf::from) else {
        return Vec::new();
    };
    [home.join(".claude/projects"), home.join(".codex/sessions")]
        .into_iter()
        .filter(|d| d.is_dir())
        .collect()
}

/// Summarizes the session in `path`; with `options`, replays it too (placeholder-sized
/// summaries: the firings and loops, not the summaries, are what a scan reports).
pub fn scan_file(path: &Path, tokenizer: Tokenizer, options: Option<Options>) -> Result<Session, LoadError> {
    let whole = Transcript::read_whole(path)?;
    let counts = Counts::compute(&whole, tokenizer);
    let (firings, loops) = match options {
        Some(options) => {
            let view = View::new(whole.clone(), counts.clone());
            let outcome = replay(&Inputs {
                view: &view,
                options,
                summary_role: SummaryRole::System,
                cuts_a_tail: true,
                summarizer: &Placeholder,
                cancel: crate::cancel::never(),
            })
            .map_err(|e| LoadError::whole(&path.display().to_string(), e.to_string()))?;
            (Some(outcome.firings.len()), Some(outcome.loops))
        }
        None => (None, None),
    };
    Ok(Session {
        path: path.display().to_string(),
        project: project_of(&whole, path),
        started: started_of(&whole, path),
        format: whole.format.name().to_owned(),
        messages: whole.messages.len(),
        tokens: counts.total(),
        recorded_peak: whole
            .messages
            .iter()
            .filter_map(|m| m.recorded().map(|r| r.context_tokens))
            .max(),
        compactions: whole.compactions.len(),
        orphans: whole.groups.orphans.len(),
        firings,
        loops,
    })
}

/// The first value of a top-level `key` of the log's records, as text.
fn first_field(transcript: &Transcript, key: &str) -> Option<String> {
    transcript.log_records.iter().take(50).find_map(|r| {
        let value: serde_json::Value = serde_json::from_str(&transcript.text[r.range.clone()]).ok()?;
        value
            .get(key)
            .or_else(|| value.get("payload").and_then(|p| p.get(key)))
            .and_then(serde_json::Value::as_str)
            .map(str::to_owned)
    })
}

fn project_of(transcript: &Transcript, path: &Path) -> String {
    first_field(transcript, "cwd").unwrap_or_else(|| {
        path.parent()
            .and_then(Path::file_name)
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    })
}

fn started_of(transcript: &Transcript, path: &Path) -> String {
    first_field(transcript, "timestamp").unwrap_or_else(|| {
        std::fs::metadata(path)
            .and_then(|m| m.modified())
            .map_or_else(|_| String::new(), rfc3339)
    })
}

/// A start time for a table: `2026-05-11 10:29` (to the minute).
pub fn short_time(started: &str) -> String {
    started.get(..16).unwrap_or(started).replacen('T', " ", 1)
}

/// A time as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
fn rfc3339(time: std::time::SystemTime) -> String {
    let secs = time.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rest) = (secs / 86_400, secs % 86_400);
    // Civil from days (Howard Hinnant's algorithm).
    let z = days as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rest / 3600,
        rest % 3600 / 60,
        rest % 60
    )
}

#[cfg(test)]
mod tests {
    use super::rfc3339;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn times_are_rfc3339() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(1_798_761_600 + 3_723)),
            "2027-01-01T01:02:03Z"
        );
        assert_eq!(
            rfc3339(UNIX_EPOCH + Duration::from_secs(951_782_400)),
            "2000-02-29T00:00:00Z"
        );
    }
}
