//! A format the user forced with `--format` is checked against what the file holds, so a
//! wrong choice says so — `FILE is not a claude-code transcript: expected …, found …` —
//! instead of a JSON error deep in the wrong parser, or blank previews.

use std::collections::BTreeMap;

use serde_json::value::RawValue;

use super::format::FormatOverride;
use crate::error::{LoadError, Position};

/// What a format expects, in words.
fn expected(format: FormatOverride) -> &'static str {
    match format {
        FormatOverride::ClaudeCode => {
            "one JSON record per line with `type`, `uuid`, `sessionId` and `message` (a Claude Code session log)"
        }
        FormatOverride::Codex => "one JSON record per line with `timestamp`, `type` and `payload` (a Codex rollout)",
        FormatOverride::GeminiCli => {
            "a Gemini CLI chat recording: an object (or a first JSONL line) with `sessionId` and `projectHash`"
        }
        FormatOverride::CopilotCli => "one event per line with a dotted `type` and `data` (a Copilot CLI events.jsonl)",
        FormatOverride::Opencode => "an opencode session as `opencode export` prints it: an object with `info` (a `ses_` session) and `messages`",
        FormatOverride::OpenAiJsonl | FormatOverride::AnthropicJsonl => {
            "one chat message per line, each a JSON object with `role`"
        }
        FormatOverride::Gemini => "Gemini contents: objects with `role` and `parts`",
        FormatOverride::OpenHands => "OpenHands events: objects with `source` and `action` or `observation`",
        FormatOverride::OpenAi | FormatOverride::Anthropic | FormatOverride::Responses => {
            "a list of messages or items (a JSON array, an object with `messages`, or JSONL)"
        }
    }
}

/// The top-level keys of a JSON object, when `raw` is one.
fn keys(raw: &str) -> Option<Vec<String>> {
    serde_json::from_str::<BTreeMap<String, &RawValue>>(raw)
        .ok()
        .map(|m| m.into_keys().collect())
}

/// What the document starting at `body` (its first non-blank character) holds, in words.
fn found(body: &str) -> String {
    let first_line = body.lines().next().unwrap_or_default().trim();
    match body.as_bytes().first() {
        Some(b'[') => "a JSON array".to_owned(),
        Some(b'{') => match keys(first_line) {
            Some(k) => format!("records with {}", listed(&k)),
            None => match serde_json::from_str::<BTreeMap<String, &RawValue>>(body) {
                Ok(m) => format!("one JSON object with {}", listed(&m.into_keys().collect::<Vec<_>>())),
                Err(_) => "a JSON object spread over several lines".to_owned(),
            },
        },
        _ => "text that is not JSON".to_owned(),
    }
}

/// `a`, `b` and `c` (at most six keys).
fn listed(keys: &[String]) -> String {
    let shown: Vec<String> = keys.iter().take(6).map(|k| format!("`{k}`")).collect();
    let more = if keys.len() > 6 { ", …" } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// Whether the first records of a log hold what `format` needs.
fn log_fits(format: FormatOverride, body: &str) -> bool {
    let records: Vec<Vec<String>> = body
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(20)
        .map(|l| keys(l.trim()).unwrap_or_default())
        .collect();
    let has = |k: &Vec<String>, key: &str| k.iter().any(|x| x == key);
    !records.is_empty()
        && records.iter().all(|k| !k.is_empty())
        && match format {
            FormatOverride::ClaudeCode => records.iter().any(|k| {
                has(k, "sessionId")
                    || has(k, "parentUuid")
                    || has(k, "leafUuid")
                    || (has(k, "type") && has(k, "message"))
            }),
            FormatOverride::Codex => records.iter().any(|k| has(k, "payload") && has(k, "type")),
            _ => records.iter().all(|k| has(k, "role")),
        }
}

/// Whether the first messages of a list hold what `format` needs.
fn list_fits(format: FormatOverride, messages: &[&str]) -> bool {
    let sample: Vec<Vec<String>> = messages.iter().take(20).map(|m| keys(m).unwrap_or_default()).collect();
    let has = |k: &Vec<String>, key: &str| k.iter().any(|x| x == key);
    match format {
        FormatOverride::Gemini => sample.iter().any(|k| has(k, "parts")),
        FormatOverride::OpenHands => sample
            .iter()
            .any(|k| has(k, "source") && (has(k, "action") || has(k, "observation"))),
        _ => true,
    }
}

/// The error for a file that is not `format`.
fn not_a(source: &str, text: &str, at: usize, format: FormatOverride, found: &str) -> LoadError {
    LoadError::at(
        source,
        Position::of_offset(text, at),
        format!(
            "not {} {} transcript: expected {}, found {found}",
            if format.name().starts_with(['a', 'o']) {
                "an"
            } else {
                "a"
            },
            format.name(),
            expected(format)
        ),
    )
}

/// After splitting: a session log (detected by its records) is not a message list of
/// another format, whatever `--format` says.
pub(crate) fn check_container(
    source: &str,
    text: &str,
    at: usize,
    format: FormatOverride,
    detected: &super::format::Container,
) -> Result<(), LoadError> {
    if !detected.is_log()
        || matches!(
            format,
            FormatOverride::ClaudeCode
                | FormatOverride::Codex
                | FormatOverride::GeminiCli
                | FormatOverride::CopilotCli
                | FormatOverride::Opencode
        )
    {
        return Ok(());
    }
    let log = match detected {
        super::format::Container::Codex => FormatOverride::Codex.name(),
        super::format::Container::GeminiCli => FormatOverride::GeminiCli.name(),
        super::format::Container::CopilotCli => FormatOverride::CopilotCli.name(),
        super::format::Container::Opencode => FormatOverride::Opencode.name(),
        _ => FormatOverride::ClaudeCode.name(),
    };
    Err(not_a(
        source,
        text,
        at,
        format,
        &format!("a {log} session log (drop --format, or use --format {log})"),
    ))
}

/// Before reading a forced agent recording: a Gemini CLI document (single-JSON form) or
/// its first line (JSONL form) names its session and project; a Copilot CLI log's first
/// line is an event; an opencode session holds `info` and `messages`.
pub(crate) fn check_recording(source: &str, text: &str, at: usize, format: FormatOverride) -> Result<(), LoadError> {
    let body = &text[at..];
    let first_line = body.lines().next().unwrap_or_default().trim();
    let fits = if format == FormatOverride::Opencode {
        serde_json::from_str::<BTreeMap<String, &RawValue>>(body.trim_end())
            .is_ok_and(|record| crate::transcript::logs::is_opencode_export(&record))
    } else if format == FormatOverride::CopilotCli {
        serde_json::from_str::<BTreeMap<String, &RawValue>>(first_line)
            .is_ok_and(|record| super::format::is_copilot_cli_event(&record))
    } else {
        let keys = keys(body.trim_end()).or_else(|| keys(first_line)).unwrap_or_default();
        keys.iter().any(|k| k == "sessionId") && keys.iter().any(|k| k == "projectHash")
    };
    if fits {
        return Ok(());
    }
    Err(not_a(source, text, at, format, &found(body)))
}

/// Before parsing: a forced line format (JSONL, Claude Code, Codex) must be one.
pub(crate) fn check_lines(source: &str, text: &str, at: usize, format: FormatOverride) -> Result<(), LoadError> {
    let body = &text[at..];
    if log_fits(format, body) {
        return Ok(());
    }
    Err(not_a(source, text, at, format, &found(body)))
}

/// After splitting a list: its messages must look like `format`'s.
pub(crate) fn check_list(
    source: &str,
    text: &str,
    at: usize,
    format: FormatOverride,
    messages: &[&str],
) -> Result<(), LoadError> {
    if messages.is_empty() || list_fits(format, messages) {
        return Ok(());
    }
    let first = keys(messages[0]).unwrap_or_default();
    Err(not_a(
        source,
        text,
        at,
        format,
        &format!("messages with {}", listed(&first)),
    ))
}

#[cfg(test)]
mod tests {
    use super::super::format::FormatOverride;

    #[test]
    fn every_format_names_itself_as_parsed() {
        for name in FormatOverride::NAMES {
            let format: FormatOverride = name.parse().expect("a known name");
            assert_eq!(format.name(), name);
        }
    }
}
