//! Summarizers: what turns the older messages into the summary text (§7F
//! `summarize(older)`, which "MAY call an LLM").
//!
//! - [`Placeholder`]: `summarized <N> messages`, the conformance text;
//! - [`Extractive`]: an offline, deterministic digest (requests, tool calls, errors,
//!   answers, facts), bounded in tokens;
//! - [`Command`]: any program, reading the messages as a JSON array on standard input;
//! - the `ctxlens` crate adds `OpenAiCompatible`, any chat-completions endpoint (the core
//!   has no HTTP client).
//!
//! Every summarizer is bounded: a summary over [`Settings::limit_tokens`] is an error
//! naming the summarizer, never a summary.

mod command;
mod extractive;
mod older;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

pub use command::{kill_running_commands, Command};
pub use extractive::Extractive;
pub use older::{older_message, older_messages, older_messages_telling, Older};

use crate::cancel::CancelToken;
use crate::Error;

/// The instructions sent with every summarization request to a model.
pub const SUMMARY_PROMPT: &str = "You are compacting the transcript of an AI agent so it can continue without the older part. \
Write a concise summary that keeps: the user's requests, constraints and preferences; decisions made and answers given; \
the tool calls that mattered, with their key arguments and outcomes; errors met and how they were handled; and exact \
identifiers: file paths, URLs, ids, numbers with units, names in code. Do not invent anything. Plain text, no preamble.";

/// Makes the summary text of the messages being summarized away.
pub trait Summarizer: Send + Sync {
    /// The summary of `older`; stops with [`Error::Cancelled`] once `cancel` is set.
    fn summarize(&self, older: &[Older], cancel: &CancelToken) -> crate::Result<String>;

    /// Whether it reads the messages (their JSON and text). One that does not (the
    /// placeholder only counts them) is given each message's index, role and whether it
    /// is a human turn, so 100k messages need not be read for it.
    fn needs_text(&self) -> bool {
        true
    }

    /// The summary of messages `range` of `transcript`. By default the messages are
    /// handed to [`Summarizer::summarize`]; a summarizer that needs only the range (the
    /// placeholder counts it, a fixed summary checks it) answers without building them.
    /// A summarizer that [`Summarizer::needs_text`] must answer here as `summarize` does
    /// over the built messages: a compaction with a loss report builds them once for
    /// both and calls `summarize`.
    fn summarize_range(
        &self,
        transcript: &crate::transcript::Transcript,
        range: std::ops::Range<usize>,
        cancel: &CancelToken,
    ) -> crate::Result<String> {
        let older = older_messages(transcript, range, self.needs_text());
        self.summarize(&older, cancel)
    }
}

/// The conformance summarizer: `summarized <N> messages`.
#[derive(Debug, Clone, Copy, Default)]
pub struct Placeholder;

impl Placeholder {
    /// The placeholder summary of `count` messages.
    pub fn text(count: usize) -> String {
        format!("summarized {count} messages")
    }
}

impl Summarizer for Placeholder {
    fn summarize(&self, older: &[Older], _cancel: &CancelToken) -> crate::Result<String> {
        Ok(Placeholder::text(older.len()))
    }

    fn needs_text(&self) -> bool {
        false
    }

    fn summarize_range(
        &self,
        _transcript: &crate::transcript::Transcript,
        range: std::ops::Range<usize>,
        _cancel: &CancelToken,
    ) -> crate::Result<String> {
        Ok(Placeholder::text(range.len()))
    }
}

/// A summary already made (or edited by the user) for the messages `range`: returned
/// as is for exactly those messages, refused for any other cut, so a summary can never
/// be attached to a cut it was not made for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed {
    /// The text.
    pub text: String,
    /// The messages it summarizes.
    pub range: std::ops::Range<usize>,
}

impl Fixed {
    /// The text, when `asked` is exactly the range it was made for.
    fn for_range(&self, asked: std::ops::Range<usize>) -> crate::Result<String> {
        if asked != self.range {
            return Err(Error::Summary(format!(
                "the summary was made for messages #{}–#{}, but the cut summarizes #{}–#{}: make it again",
                self.range.start,
                self.range.end.saturating_sub(1),
                asked.start,
                asked.end.saturating_sub(1)
            )));
        }
        Ok(self.text.clone())
    }
}

impl Summarizer for Fixed {
    fn summarize(&self, older: &[Older], _cancel: &CancelToken) -> crate::Result<String> {
        self.for_range(older.first().map_or(0, |m| m.index)..older.last().map_or(0, |m| m.index + 1))
    }

    fn needs_text(&self) -> bool {
        false
    }

    fn summarize_range(
        &self,
        _transcript: &crate::transcript::Transcript,
        range: std::ops::Range<usize>,
        _cancel: &CancelToken,
    ) -> crate::Result<String> {
        self.for_range(range)
    }
}

/// Which summarizer, as `--summarizer` names it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Spec {
    /// `placeholder`.
    Placeholder,
    /// `extractive`.
    Extractive,
    /// `cmd:<command line>`.
    Command(String),
    /// `openai`.
    OpenAi,
}

impl FromStr for Spec {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "placeholder" => Ok(Spec::Placeholder),
            "extractive" => Ok(Spec::Extractive),
            "openai" => Ok(Spec::OpenAi),
            _ => match s.strip_prefix("cmd:") {
                Some(line) if !line.trim().is_empty() => Ok(Spec::Command(line.to_owned())),
                _ => Err(format!(
                    "unknown summarizer `{s}` (expected placeholder, extractive, openai or cmd:<command line>)"
                )),
            },
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Placeholder => f.write_str("placeholder"),
            Spec::Extractive => f.write_str("extractive"),
            Spec::Command(line) => write!(f, "cmd:{line}"),
            Spec::OpenAi => f.write_str("openai"),
        }
    }
}

/// The longest `--summary-timeout` accepted: a day.
pub const MAX_TIMEOUT_SECONDS: f64 = 86_400.0;

/// The shortest timeout: a millisecond (`1e-300` rounds to no time at all, so every
/// summary would fail before it started).
pub const MIN_TIMEOUT_SECONDS: f64 = 0.001;

/// A timeout in seconds as the command line gives it: positive, finite, at most a day.
pub fn parse_timeout(text: &str) -> crate::Result<Duration> {
    let seconds: f64 = text
        .trim()
        .parse()
        .map_err(|_| crate::Error::Invalid(format!("`{text}` is not a number of seconds")))?;
    if !seconds.is_finite() || seconds <= 0.0 {
        return Err(crate::Error::Invalid(format!(
            "`{text}`: the timeout must be a positive number of seconds"
        )));
    }
    if seconds < MIN_TIMEOUT_SECONDS {
        return Err(crate::Error::Invalid(format!(
            "`{text}`: the timeout must be at least {MIN_TIMEOUT_SECONDS} s (no program or request answers sooner)"
        )));
    }
    if seconds > MAX_TIMEOUT_SECONDS {
        return Err(crate::Error::Invalid(format!(
            "`{text}`: the timeout must be at most {MAX_TIMEOUT_SECONDS} seconds (a day)"
        )));
    }
    Ok(Duration::from_secs_f64(seconds))
}

/// Settings shared by the summarizers that need them.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Settings {
    /// Token bound of a summary (extractive; `max_tokens` for the HTTP one).
    pub summary_tokens: u64,
    /// How long a command or request may take.
    pub timeout: Duration,
    /// Base URL of the chat-completions endpoint (`…/v1`).
    pub url: String,
    /// Model name sent to the endpoint.
    pub model: String,
    /// Bearer key, from `CTXLENS_API_KEY` or `OPENAI_API_KEY`.
    pub api_key: Option<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            summary_tokens: 400,
            timeout: Duration::from_secs(120),
            url: "http://localhost:11434/v1".to_owned(),
            model: "llama3.2".to_owned(),
            api_key: std::env::var("CTXLENS_API_KEY")
                .or_else(|_| std::env::var("OPENAI_API_KEY"))
                .ok(),
        }
    }
}

impl Settings {
    /// The largest summary accepted, in tokens (estimated as characters / 4): four times
    /// `summary_tokens`. A model or command that writes more is an error.
    pub fn limit_tokens(&self) -> u64 {
        self.summary_tokens.saturating_mul(4).max(64)
    }

    /// The most bytes read from a command or an HTTP answer: generous room for the
    /// largest accepted summary (4 bytes a character), plus a JSON envelope.
    pub fn limit_bytes(&self) -> usize {
        usize::try_from(self.limit_tokens().saturating_mul(16))
            .unwrap_or(usize::MAX)
            .saturating_add(64 * 1024)
    }
}

/// `summary` when it is within `settings.limit_tokens()`, else an error naming `who`.
pub fn bounded(who: &str, summary: String, settings: &Settings) -> crate::Result<String> {
    let tokens = (summary.chars().count() as u64).div_ceil(4);
    if tokens > settings.limit_tokens() {
        return Err(Error::Summary(format!(
            "{who} wrote a summary of about {tokens} tokens, over the limit of {} (4 × --summary-tokens {})",
            settings.limit_tokens(),
            settings.summary_tokens
        )));
    }
    Ok(summary)
}

/// The summarizer `spec` names, or why it cannot be built here (the `openai` summarizer
/// is the `ctxlens` crate's: `ctxlens::summarizers::build` builds every one).
pub fn build(spec: &Spec, settings: &Settings) -> crate::Result<Box<dyn Summarizer>> {
    Ok(match spec {
        Spec::Placeholder => Box::new(Placeholder),
        Spec::Extractive => Box::new(Extractive {
            summary_tokens: settings.summary_tokens,
        }),
        Spec::Command(line) => Box::new(Command {
            line: line.clone(),
            settings: settings.clone(),
        }),
        Spec::OpenAi => {
            return Err(Error::Invalid(
                "the openai summarizer is not built in (build ctxlens with the `openai` feature)".into(),
            ))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeouts_are_positive_finite_and_bounded() {
        assert_eq!(parse_timeout("2.5").ok(), Some(Duration::from_millis(2500)));
        for bad in [
            "0",
            "-1",
            "NaN",
            "inf",
            "1e30",
            "1e19",
            "18446744073709551616",
            "x",
            "86401",
        ] {
            assert!(parse_timeout(bad).is_err(), "{bad} must be refused");
        }
    }

    #[test]
    fn a_fixed_summary_only_fits_its_own_cut() {
        let fixed = Fixed {
            text: "s".into(),
            range: 1..3,
        };
        let older = |range: std::ops::Range<usize>| -> Vec<Older<'static>> {
            range
                .map(|index| Older {
                    index,
                    role: "user",
                    raw: "{}",
                    text: String::new(),
                    human_turn: true,
                    calls: Vec::new(),
                })
                .collect()
        };
        let never = crate::cancel::never();
        assert_eq!(fixed.summarize(&older(1..3), never).expect("same cut"), "s");
        assert!(fixed.summarize(&older(1..4), never).is_err());
    }
}
