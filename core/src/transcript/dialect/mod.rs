//! Message dialects, one module each, behind one trait ([`DialectRules`]): how a list
//! announces the dialect, how one message reads into a [`Message`] view, the links
//! between messages the messages alone do not carry (pairing), the message as its API
//! request carries it, a new text message in the dialect's shape (a summary, a policy's
//! note), which roles are model output, and which provider's rules bill and check it.
//!
//! Adding a dialect is one new module here and one arm in [`Dialect::rules`]; nothing
//! outside this folder matches on a dialect. Provider rules (image and document
//! billing, validators) are keyed by [`Provider`], which the dialect names.

mod anthropic;
mod gemini;
mod openai;
mod openhands;
mod request_entries;
mod responses;

use std::collections::BTreeMap;
use std::ops::Range;

use serde_json::value::RawValue;
use serde_json::Value;

use super::message::{Message, RequestShape, TextBuilder};

/// Which provider's message dialect a transcript speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// OpenAI chat completions (`tool_calls`, `role:"tool"`).
    OpenAi,
    /// Anthropic Messages (`tool_use`/`tool_result` content blocks; also Claude Code).
    Anthropic,
    /// Gemini `contents` (`parts` with `functionCall`/`functionResponse`).
    Gemini,
    /// OpenAI Responses items (`message`, `function_call`, `function_call_output`…; also Codex).
    Responses,
    /// OpenHands events (actions and observations).
    OpenHands,
}

/// The API whose rules bill and check a transcript: the provider a dialect's requests go
/// to. Image and document billing and the validators of `check` are keyed by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    /// OpenAI chat completions.
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
    /// Gemini `generateContent`.
    Gemini,
    /// OpenAI Responses.
    Responses,
}

impl Provider {
    /// The provider whose API a transcript's dialect targets.
    pub fn for_dialect(dialect: Dialect) -> Provider {
        dialect.rules().provider()
    }

    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Provider::OpenAi => "openai",
            Provider::Anthropic => "anthropic",
            Provider::Gemini => "gemini",
            Provider::Responses => "responses",
        }
    }
}

impl crate::names::Named for Provider {
    const KIND: &'static str = "provider";
    const ALL: &'static [Self] = &[
        Provider::OpenAi,
        Provider::Anthropic,
        Provider::Gemini,
        Provider::Responses,
    ];

    fn name(self) -> &'static str {
        Provider::name(self)
    }
}

impl std::str::FromStr for Provider {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(s)
    }
}

/// What one dialect knows. Implemented once per module of this folder; callers reach it
/// through [`Dialect::rules`].
pub(crate) trait DialectRules: Sync {
    /// The name `--format` takes and `stats --json` reports for a list of this dialect.
    fn name(&self) -> &'static str;

    /// The name for one message per line (only chat dialects have their own).
    fn jsonl_name(&self) -> &'static str {
        self.name()
    }

    /// The provider whose API takes this dialect's requests.
    fn provider(&self) -> Provider;

    /// Whether one list item's top-level keys announce this dialect when a list is
    /// sniffed (chat dialects announce nothing: they are told apart after parsing).
    fn announced_by(&self, _keys: &BTreeMap<String, &RawValue>) -> bool {
        false
    }

    /// Whether a request body holding its list under `list_key`, with top-level `body`,
    /// announces this dialect (Gemini's `contents`, Anthropic's `system` beside
    /// `messages`).
    fn announced_by_body(&self, _list_key: &str, _body: &BTreeMap<String, &RawValue>) -> bool {
        false
    }

    /// The view and up to `limit` characters of readable text of message `index`: by
    /// default the chat reader OpenAI and Anthropic share.
    fn view(
        &self,
        raw: &str,
        span: Range<usize>,
        index: usize,
        limit: usize,
    ) -> Result<(Message, TextBuilder), serde_json::Error> {
        super::message::read(raw, span, index, limit)
    }

    /// Links between messages that the messages alone do not carry (ids given by
    /// position, results tied to their cause), once a whole list is read; `raws` are the
    /// messages' JSON texts.
    fn pair(&self, _messages: &mut [Message], _raws: &[&str]) {}

    /// Whether a message stored with `shape` is already exactly what the request sends.
    fn stored_is_sent(&self, shape: RequestShape) -> bool;

    /// The message as its API request carries it, when that differs from `raw`; `None`
    /// when `raw` is already exactly that. An empty string is a message never sent.
    fn request_json(&self, raw: &str) -> Option<String>;

    /// A new message with `role` (`system`, `user` or `assistant`) and `text`, in this
    /// dialect's shape: a compaction's summary, a policy's inserted note.
    fn text_message(&self, role: &str, text: &str) -> Value;

    /// Whether a `system` message inside the list is refused by the API (Anthropic takes
    /// the system prompt beside the messages).
    fn refuses_system_messages(&self) -> bool {
        false
    }

    /// Whether a message of `role` is model output (the answer of a call).
    fn is_model_output(&self, role: &str) -> bool {
        role == "assistant"
    }

    /// Whether messages are typed items (a message, a call, a call's output, reasoning:
    /// one part each) rather than role messages with content parts; one model answer is
    /// then a run of consecutive output items.
    fn is_item_list(&self) -> bool {
        false
    }

    /// Whether messages read as chat messages (`role`/`content`, OpenAI or Anthropic
    /// blocks), so a policy can see their parts rather than only their roles.
    fn is_chat(&self) -> bool {
        false
    }
}

impl Dialect {
    /// Every dialect, in the order a list is sniffed.
    pub const ALL: [Dialect; 5] = [
        Dialect::Gemini,
        Dialect::OpenHands,
        Dialect::Responses,
        Dialect::OpenAi,
        Dialect::Anthropic,
    ];

    /// This dialect's rules.
    pub(crate) fn rules(self) -> &'static dyn DialectRules {
        match self {
            Dialect::OpenAi => &openai::OpenAi,
            Dialect::Anthropic => &anthropic::Anthropic,
            Dialect::Gemini => &gemini::Gemini,
            Dialect::Responses => &responses::Responses,
            Dialect::OpenHands => &openhands::OpenHands,
        }
    }

    /// The provider whose API takes this dialect's requests.
    pub fn provider(self) -> Provider {
        self.rules().provider()
    }
}

/// The dialect the first items of a list announce, if any does.
pub(crate) fn sniff(text: &str, spans: &[Range<usize>]) -> Option<Dialect> {
    for span in spans.iter().take(50) {
        let Ok(keys) = serde_json::from_str::<BTreeMap<String, &RawValue>>(&text[span.clone()]) else {
            continue;
        };
        if let Some(dialect) = Dialect::ALL.into_iter().find(|d| d.rules().announced_by(&keys)) {
            return Some(dialect);
        }
    }
    None
}

/// Which chat dialect a list of chat messages that announced none is: Anthropic when
/// any message has Anthropic content blocks, OpenAI otherwise.
pub(crate) fn chat_dialect(messages: &[Message]) -> Dialect {
    if messages.iter().any(Message::anthropic_blocks) {
        Dialect::Anthropic
    } else {
        Dialect::OpenAi
    }
}

/// The string at `key` of a JSON object, or "".
fn str_at<'a>(value: &'a Value, key: &str) -> &'a str {
    value.get(key).and_then(Value::as_str).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_text_message_reads_back_as_its_role() {
        for dialect in Dialect::ALL {
            for role in ["user", "assistant"] {
                let json = dialect.rules().text_message(role, "hello").to_string();
                let (message, text) = dialect.rules().view(&json, 0..json.len(), 0, 100).unwrap();
                assert_eq!(message.role().as_str(), role, "{dialect:?}: {json}");
                assert!(text.finish().contains("hello"), "{dialect:?}: {json}");
            }
        }
    }

    #[test]
    fn lists_are_sniffed_by_their_first_items() {
        let cases = [
            (r#"{"role":"user","parts":[{"text":"x"}]}"#, Some(Dialect::Gemini)),
            (r#"{"source":"user","action":"message"}"#, Some(Dialect::OpenHands)),
            (r#"{"type":"function_call","call_id":"c"}"#, Some(Dialect::Responses)),
            (r#"{"role":"user","content":"x"}"#, None),
        ];
        for (item, expected) in cases {
            let whole = 0..item.len();
            assert_eq!(sniff(item, std::slice::from_ref(&whole)), expected, "{item}");
        }
    }
}
