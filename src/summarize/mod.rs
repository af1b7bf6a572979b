//! Summarizers: what turns the older messages into the summary text.
//!
//! §7F calls `summarize(older)` exactly once per firing with the raw message objects.
//! Only the placeholder exists so far; its text is the one the conformance cases expect.

/// Makes the summary text of the messages being summarized away.
pub trait Summarizer {
    /// The summary of `older`, each item the raw JSON text of one message.
    fn summarize(&self, older: &[&str]) -> anyhow::Result<String>;
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
    fn summarize(&self, older: &[&str]) -> anyhow::Result<String> {
        Ok(Placeholder::text(older.len()))
    }
}
