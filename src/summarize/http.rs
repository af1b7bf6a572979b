//! `openai`: any OpenAI-compatible chat-completions endpoint (`--summarizer-url`, by
//! default a local Ollama at `http://localhost:11434/v1`), with [`SUMMARY_PROMPT`] as the
//! system message and the older messages as the user message.

use std::time::Duration;

use anyhow::{anyhow, bail};
use serde_json::{json, Value};

use super::{Older, Summarizer};

/// The instructions sent with every summarization request.
pub const SUMMARY_PROMPT: &str = "You are compacting the transcript of an AI agent so it can continue without the older part. \
Write a concise summary that keeps: the user's requests, constraints and preferences; decisions made and answers given; \
the tool calls that mattered, with their key arguments and outcomes; errors met and how they were handled; and exact \
identifiers: file paths, URLs, ids, numbers with units, names in code. Do not invent anything. Plain text, no preamble.";

/// A chat-completions endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiCompatible {
    /// Base URL, ending in `/v1` (the request goes to `{url}/chat/completions`).
    pub url: String,
    /// Model name.
    pub model: String,
    /// Bearer key, when the endpoint needs one.
    pub api_key: Option<String>,
    /// Request timeout.
    pub timeout: Duration,
    /// `max_tokens` of the summary.
    pub summary_tokens: u64,
}

impl Summarizer for OpenAiCompatible {
    fn summarize(&self, older: &[Older]) -> anyhow::Result<String> {
        let endpoint = format!("{}/chat/completions", self.url.trim_end_matches('/'));
        let transcript: Vec<String> = older
            .iter()
            .map(|m| format!("[#{} {}] {}", m.index, m.role, m.text))
            .collect();
        let body = json!({
            "model": self.model,
            "messages": [
                {"role": "system", "content": SUMMARY_PROMPT},
                {"role": "user", "content": transcript.join("\n\n")}
            ],
            "max_tokens": self.summary_tokens,
            "temperature": 0
        });
        let agent = ureq::AgentBuilder::new().timeout(self.timeout).build();
        let mut request = agent.post(&endpoint).set("Content-Type", "application/json");
        if let Some(key) = &self.api_key {
            request = request.set("Authorization", &format!("Bearer {key}"));
        }
        let answer: Value = match request.send_json(body) {
            Ok(response) => response
                .into_json()
                .map_err(|e| anyhow!("summarizer {endpoint}: the answer is not JSON: {e}"))?,
            Err(ureq::Error::Status(code, response)) => {
                let text = response.into_string().unwrap_or_default();
                let text: String = text.chars().take(200).collect();
                bail!("summarizer {endpoint}: HTTP {code}: {}", text.trim());
            }
            Err(ureq::Error::Transport(t)) => {
                let why = t.to_string();
                if why.to_lowercase().contains("timed out") {
                    bail!(
                        "summarizer {endpoint}: no answer within {} s",
                        self.timeout.as_secs_f64()
                    );
                }
                bail!("summarizer {endpoint}: {why}");
            }
        };
        let summary = answer
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .ok_or_else(|| anyhow!("summarizer {endpoint}: the answer has no choices[0].message.content"))?
            .trim();
        if summary.is_empty() {
            bail!("summarizer {endpoint}: the model returned an empty summary");
        }
        Ok(summary.to_owned())
    }
}
