//! The messages being summarized away, as a summarizer sees them: index, role, raw JSON,
//! and (when the summarizer reads text) their readable text and tool calls.

use serde_json::Value;

use crate::transcript::{Message, Transcript};

/// One message being summarized away.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Older<'a> {
    /// Its index in the transcript.
    pub index: usize,
    /// Its role.
    pub role: &'a str,
    /// Its raw JSON (empty when the summarizer does not read the messages: reaching each
    /// message's bytes in a large file costs a cache miss, and a sweep makes millions).
    pub raw: &'a str,
    /// Its readable text (empty when the summarizer does not read text).
    pub text: String,
    /// A human turn (a §7F boundary).
    pub human_turn: bool,
    /// Names of the tools it calls, with their arguments.
    pub calls: Vec<(String, String)>,
}

/// The messages `range` of `transcript`, ready for a summarizer; their JSON, text and
/// calls only `with_text`.
pub fn older_messages(transcript: &Transcript, range: std::ops::Range<usize>, with_text: bool) -> Vec<Older<'_>> {
    older_messages_telling(transcript, range, with_text, &crate::progress::SILENT)
}

/// [`older_messages`], telling `progress` of each message whose text it builds.
pub fn older_messages_telling<'t>(
    transcript: &'t Transcript,
    range: std::ops::Range<usize>,
    with_text: bool,
    progress: &crate::progress::Progress,
) -> Vec<Older<'t>> {
    use rayon::prelude::*;
    // Building the text parses each message: in parallel when there is any to build.
    if with_text {
        progress.expect(range.len());
        range
            .into_par_iter()
            .map(|index| {
                let older = older_message(transcript, index, with_text);
                progress.step(1);
                older
            })
            .collect()
    } else {
        range.map(|index| older_message(transcript, index, with_text)).collect()
    }
}

/// Message `index` of `transcript`, ready for a summarizer.
pub fn older_message(transcript: &Transcript, index: usize, with_text: bool) -> Older<'_> {
    let m = &transcript.messages[index];
    let (raw, text, calls) = if with_text {
        let raw = transcript.raw(index);
        (raw, transcript.readable_text(index), call_arguments(raw, m))
    } else {
        ("", String::new(), Vec::new())
    };
    Older {
        index,
        role: &m.role,
        raw,
        text,
        human_turn: m.boundary,
        calls,
    }
}

/// (name, arguments) of each call a message makes, arguments as compact text.
fn call_arguments(raw: &str, message: &Message) -> Vec<(String, String)> {
    if message.tool_calls().is_empty() {
        return Vec::new();
    }
    let value: Value = serde_json::from_str(raw).unwrap_or_default();
    let mut arguments: Vec<String> = Vec::new();
    if let Some(calls) = value.get("tool_calls").and_then(Value::as_array) {
        arguments.extend(calls.iter().map(|c| {
            c.pointer("/function/arguments")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .to_owned()
        }));
    }
    if let Some(blocks) = value.get("content").and_then(Value::as_array) {
        arguments.extend(
            blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_use"))
                .map(|b| b.get("input").map(Value::to_string).unwrap_or_default()),
        );
    }
    message
        .tool_calls()
        .iter()
        .enumerate()
        .map(|(k, c)| (c.name.clone(), arguments.get(k).cloned().unwrap_or_default()))
        .collect()
}
