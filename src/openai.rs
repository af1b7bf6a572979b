//! `openai`: any OpenAI-compatible chat-completions endpoint (`--summarizer-url`, by
//! default a local Ollama at `http://localhost:11434/v1`), with
//! [`ctxlens_core::summarize::SUMMARY_PROMPT`]
//! as the system message and the older messages as the user message.
//!
//! Redirects are not followed (the request carries a key and a transcript); answers are
//! read up to a byte limit; error text from the server never shows the key.

use std::io::Read;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

use ctxlens_core::cancel::CancelToken;
use ctxlens_core::summarize::{bounded, Older, Settings, Summarizer, SUMMARY_PROMPT};
use ctxlens_core::Error;

/// A chat-completions endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenAiCompatible {
    /// URL (`settings.url`, ending in `/v1`), model, key, timeout and bounds.
    pub settings: Settings,
}

/// `text` with the key and any `Bearer …` credential replaced by `[redacted]`.
pub fn redact(text: &str, key: Option<&str>) -> String {
    let mut out = match key.filter(|k| !k.is_empty()) {
        Some(key) => text.replace(key, "[redacted]"),
        None => text.to_owned(),
    };
    let mut search_from = 0;
    while let Some(at) = out[search_from..].to_ascii_lowercase().find("bearer ") {
        let start = search_from + at + "bearer ".len();
        let end = out[start..]
            .find(|c: char| c.is_whitespace() || "\"',;)]}".contains(c))
            .map_or(out.len(), |e| start + e);
        if end > start && !out[start..].starts_with("[redacted]") {
            out.replace_range(start..end, "[redacted]");
        }
        search_from = start;
    }
    out
}

impl OpenAiCompatible {
    fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.settings.url.trim_end_matches('/'))
    }

    fn error(&self, what: impl std::fmt::Display) -> Error {
        let text = format!("summarizer {}: {what}", self.endpoint());
        Error::Summary(redact(&text, self.settings.api_key.as_deref()))
    }

    /// The request, blocking (run on a thread so a cancel need not wait for it).
    fn request(&self, body: &Value) -> crate::Result<String> {
        let settings = &self.settings;
        let agent = ureq::AgentBuilder::new().timeout(settings.timeout).redirects(0).build();
        let mut request = agent.post(&self.endpoint()).set("Content-Type", "application/json");
        if let Some(key) = &settings.api_key {
            request = request.set("Authorization", &format!("Bearer {key}"));
        }
        let limit = settings.limit_bytes();
        let read = |response: ureq::Response| -> (String, bool) {
            let mut bytes = Vec::new();
            let _ = response.into_reader().take(limit as u64 + 1).read_to_end(&mut bytes);
            let over = bytes.len() > limit;
            bytes.truncate(limit);
            (String::from_utf8_lossy(&bytes).into_owned(), over)
        };
        let response = match request.send_json(body) {
            Ok(response) => response,
            Err(ureq::Error::Status(code, response)) => {
                let (text, _) = read(response);
                let text: String = text.chars().take(200).collect();
                return Err(self.error(format!("HTTP {code}: {}", text.trim())));
            }
            Err(ureq::Error::Transport(t)) => {
                let why = t.to_string();
                if why.to_lowercase().contains("timed out") {
                    return Err(self.error(format!("no answer within {} s", settings.timeout.as_secs_f64())));
                }
                return Err(self.error(why));
            }
        };
        if (300..400).contains(&response.status()) {
            let to = response.header("location").unwrap_or("?").to_owned();
            return Err(self.error(format!(
                "HTTP {}: redirected to {to}; redirects are not followed (set --summarizer-url to the final address)",
                response.status()
            )));
        }
        let (text, over) = read(response);
        if over {
            return Err(self.error(format!("the answer is larger than {limit} bytes")));
        }
        let answer: Value =
            serde_json::from_str(&text).map_err(|e| self.error(format!("the answer is not JSON: {e}")))?;
        let summary = answer
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .ok_or_else(|| self.error("the answer has no choices[0].message.content"))?
            .trim();
        if summary.is_empty() {
            return Err(self.error("the model returned an empty summary"));
        }
        Ok(summary.to_owned())
    }
}

impl Summarizer for OpenAiCompatible {
    fn summarize(&self, older: &[Older], cancel: &CancelToken) -> crate::Result<String> {
        let transcript: Vec<String> = older
            .iter()
            .map(|m| format!("[#{} {}] {}", m.index, m.role, m.text))
            .collect();
        let body = json!({
            "model": self.settings.model,
            "messages": [
                {"role": "system", "content": SUMMARY_PROMPT},
                {"role": "user", "content": transcript.join("\n\n")}
            ],
            "max_tokens": self.settings.summary_tokens,
            "temperature": 0
        });
        let (done, result) = mpsc::channel();
        let this = self.clone();
        std::thread::spawn(move || {
            let _ = done.send(this.request(&body));
        });
        let summary = loop {
            match result.recv_timeout(Duration::from_millis(20)) {
                Ok(answer) => break answer?,
                Err(mpsc::RecvTimeoutError::Timeout) if cancel.is_cancelled() => return Err(Error::Cancelled),
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => return Err(self.error("the request thread failed")),
            }
        };
        bounded(&format!("summarizer {}", self.endpoint()), summary, &self.settings)
    }
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn keys_and_bearer_tokens_are_redacted() {
        assert_eq!(
            redact("bad key sk-123 (Authorization: Bearer sk-123)", Some("sk-123")),
            "bad key [redacted] (Authorization: Bearer [redacted])"
        );
        assert_eq!(
            redact("\"authorization\":\"bearer abc.def\"", None),
            "\"authorization\":\"bearer [redacted]\""
        );
    }
}
