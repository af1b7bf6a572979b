//! Summarizers: what turns the older messages into the summary text (§7F
//! `summarize(older)`, which "MAY call an LLM").
//!
//! - [`Placeholder`]: `summarized <N> messages`, the conformance text;
//! - [`Extractive`]: an offline, deterministic digest (requests, tool calls, errors,
//!   answers, facts), bounded in tokens;
//! - [`Command`]: any program, reading the messages as a JSON array on standard input;
//! - [`OpenAiCompatible`]: any chat-completions endpoint (a local Ollama by default).

mod command;
mod extractive;
mod http;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

pub use command::Command;
pub use extractive::Extractive;
pub use http::{OpenAiCompatible, SUMMARY_PROMPT};

use crate::transcript::Transcript;

/// One message being summarized away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Older<'a> {
    /// Its index in the transcript.
    pub index: usize,
    /// Its role.
    pub role: &'a str,
    /// Its raw JSON.
    pub raw: &'a str,
    /// Its readable text.
    pub text: String,
    /// A human turn (a §7F boundary).
    pub human_turn: bool,
    /// Names of the tools it calls, with their arguments.
    pub calls: Vec<(String, String)>,
}

/// The messages `range` of `transcript`, ready for a summarizer; their text and calls
/// only `with_text`.
pub fn older_messages(transcript: &Transcript, range: std::ops::Range<usize>, with_text: bool) -> Vec<Older<'_>> {
    range
        .map(|index| {
            let m = &transcript.messages[index];
            let raw = transcript.raw(m);
            let (text, calls) = if with_text {
                (transcript.readable_text(index), call_arguments(raw, m))
            } else {
                (String::new(), Vec::new())
            };
            Older {
                index,
                role: &m.role,
                raw,
                text,
                human_turn: m.boundary,
                calls,
            }
        })
        .collect()
}

/// (name, arguments) of each call a message makes, arguments as compact text.
fn call_arguments(raw: &str, message: &crate::transcript::Message) -> Vec<(String, String)> {
    if message.tool_calls.is_empty() {
        return Vec::new();
    }
    let value: serde_json::Value = serde_json::from_str(raw).unwrap_or_default();
    let mut arguments: Vec<String> = Vec::new();
    if let Some(calls) = value.get("tool_calls").and_then(serde_json::Value::as_array) {
        arguments.extend(calls.iter().map(|c| {
            c.pointer("/function/arguments")
                .and_then(serde_json::Value::as_str)
                .unwrap_or_default()
                .to_owned()
        }));
    }
    if let Some(blocks) = value.get("content").and_then(serde_json::Value::as_array) {
        arguments.extend(
            blocks
                .iter()
                .filter(|b| b.get("type").and_then(serde_json::Value::as_str) == Some("tool_use"))
                .map(|b| b.get("input").map(serde_json::Value::to_string).unwrap_or_default()),
        );
    }
    message
        .tool_calls
        .iter()
        .enumerate()
        .map(|(k, c)| (c.name.clone(), arguments.get(k).cloned().unwrap_or_default()))
        .collect()
}

/// Makes the summary text of the messages being summarized away.
pub trait Summarizer: Send + Sync {
    /// The summary of `older`.
    fn summarize(&self, older: &[Older]) -> anyhow::Result<String>;

    /// Whether it reads the messages' text (the placeholder only counts them, so the
    /// text of 100k messages need not be built for it).
    fn needs_text(&self) -> bool {
        true
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
    fn summarize(&self, older: &[Older]) -> anyhow::Result<String> {
        Ok(Placeholder::text(older.len()))
    }

    fn needs_text(&self) -> bool {
        false
    }
}

/// A summary already made (or edited by the user): returns it as is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixed(pub String);

impl Summarizer for Fixed {
    fn summarize(&self, _older: &[Older]) -> anyhow::Result<String> {
        Ok(self.0.clone())
    }

    fn needs_text(&self) -> bool {
        false
    }
}

/// Which summarizer, as `--summarizer` names it.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// Settings shared by the summarizers that need them.
#[derive(Debug, Clone, PartialEq, Eq)]
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

/// The summarizer `spec` names.
pub fn build(spec: &Spec, settings: &Settings) -> Box<dyn Summarizer> {
    match spec {
        Spec::Placeholder => Box::new(Placeholder),
        Spec::Extractive => Box::new(Extractive {
            summary_tokens: settings.summary_tokens,
        }),
        Spec::Command(line) => Box::new(Command {
            line: line.clone(),
            timeout: settings.timeout,
        }),
        Spec::OpenAi => Box::new(OpenAiCompatible {
            url: settings.url.clone(),
            model: settings.model.clone(),
            api_key: settings.api_key.clone(),
            timeout: settings.timeout,
            summary_tokens: settings.summary_tokens,
        }),
    }
}
