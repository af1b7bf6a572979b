//! What the Claude Code reader must know of a record's message before it decides where
//! the message goes: its response id, its model, its usage, and each content block's kind
//! and call ids — read without building the message as a JSON value. A message's text and
//! tool results (most of a log's bytes) are skipped by the parser, not copied into a tree
//! the reader would throw away.

use std::borrow::Cow;

use serde::de::{Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::transcript::message::Recorded;

/// One content block, as far as the reader looks at it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct BlockHead {
    /// `type` (`text`, `tool_use`, `tool_result`…).
    pub kind: String,
    /// A call's `id`.
    pub id: Option<String>,
    /// A result's `tool_use_id`.
    pub tool_use_id: Option<String>,
}

/// A message's head.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct MessageHead {
    /// `id`: the response it belongs to (assistant lines of one response share it).
    pub id: Option<String>,
    /// `model`.
    pub model: Option<String>,
    /// The content's blocks (none when the content is a string).
    pub blocks: Vec<BlockHead>,
    /// `usage`, as billed.
    pub usage: Option<Recorded>,
}

impl MessageHead {
    /// The head of the message whose JSON is `raw`; a message the borrowing parse cannot
    /// read (a block that is not an object, say) is read through a JSON value, as it
    /// was before, so nothing a log holds is judged differently.
    pub fn of(raw: &str) -> MessageHead {
        if let Ok(borrowed) = serde_json::from_str::<Borrowed>(raw) {
            return MessageHead {
                id: borrowed.id.map(Cow::into_owned),
                model: borrowed.model.map(Cow::into_owned),
                blocks: borrowed.content.0,
                usage: borrowed
                    .usage
                    .and_then(|u| serde_json::from_str::<Value>(u.get()).ok())
                    .map(|u| super::claude_code::usage_of(&u)),
            };
        }
        let value: Value = serde_json::from_str(raw).unwrap_or(Value::Null);
        MessageHead::of_value(&value)
    }

    /// The head of a message already read as a JSON value.
    pub fn of_value(message: &Value) -> MessageHead {
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        MessageHead {
            id: text(message, "id"),
            model: text(message, "model"),
            blocks: message
                .get("content")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .map(|b| BlockHead {
                    kind: text(b, "type").unwrap_or_default(),
                    id: text(b, "id"),
                    tool_use_id: text(b, "tool_use_id"),
                })
                .collect(),
            usage: super::claude_code::usage(message),
        }
    }

    /// The ids of the calls the message makes.
    pub fn call_ids(&self) -> impl Iterator<Item = String> + '_ {
        self.blocks
            .iter()
            .filter(|b| b.kind == "tool_use")
            .filter_map(|b| b.id.clone())
    }
}

/// The fields read, borrowed from the line where they need no unescaping.
#[derive(Deserialize)]
struct Borrowed<'a> {
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    model: Option<Cow<'a, str>>,
    #[serde(default)]
    content: Blocks,
    // `null` is kept (a log's `"usage": null` reads as a usage of zeros, as the value did).
    #[serde(borrow, default, deserialize_with = "even_null")]
    usage: Option<&'a RawValue>,
}

/// A field's raw JSON, `null` included (`Option` alone would read `null` as absent):
/// a log's `"usage": null` reads as a usage of zeros, as a JSON value read it.
pub(crate) fn even_null<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<&'de RawValue>, D::Error> {
    <&RawValue>::deserialize(deserializer).map(Some)
}

/// A message's `content`: its blocks when it is a list, none when it is a string (or
/// anything else).
#[derive(Default)]
struct Blocks(Vec<BlockHead>);

impl<'de> Deserialize<'de> for Blocks {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Blocks, D::Error> {
        deserializer.deserialize_any(BlocksVisitor)
    }
}

struct BlocksVisitor;

impl<'de> Visitor<'de> for BlocksVisitor {
    type Value = Blocks;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a message's content")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Blocks, A::Error> {
        let mut blocks = Vec::new();
        while let Some(block) = seq.next_element::<BorrowedBlock>()? {
            blocks.push(BlockHead {
                kind: block.kind.map(Cow::into_owned).unwrap_or_default(),
                id: block.id.map(Cow::into_owned),
                tool_use_id: block.tool_use_id.map(Cow::into_owned),
            });
        }
        Ok(Blocks(blocks))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Blocks, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(Blocks::default())
    }

    fn visit_str<E>(self, _: &str) -> Result<Blocks, E> {
        Ok(Blocks::default())
    }

    fn visit_unit<E>(self) -> Result<Blocks, E> {
        Ok(Blocks::default())
    }

    fn visit_bool<E>(self, _: bool) -> Result<Blocks, E> {
        Ok(Blocks::default())
    }

    fn visit_i64<E>(self, _: i64) -> Result<Blocks, E> {
        Ok(Blocks::default())
    }

    fn visit_u64<E>(self, _: u64) -> Result<Blocks, E> {
        Ok(Blocks::default())
    }

    fn visit_f64<E>(self, _: f64) -> Result<Blocks, E> {
        Ok(Blocks::default())
    }
}

/// A block's fields read; the rest (its text, input, result) skipped.
#[derive(Deserialize)]
struct BorrowedBlock<'a> {
    #[serde(rename = "type", borrow, default)]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    tool_use_id: Option<Cow<'a, str>>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The borrowing parse reads what a JSON value would, on every message of the
    /// shipped Claude Code logs and on the shapes a log may hold.
    #[test]
    fn the_head_is_what_the_value_says() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/real-transcripts/claude-code-jsonl");
        let mut compared = 0;
        for entry in std::fs::read_dir(dir).expect("the shipped logs") {
            let text = std::fs::read_to_string(entry.expect("an entry").path()).expect("a log");
            for line in text.lines() {
                let Ok(record) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                let Some(message) = record.get("message") else { continue };
                let raw = message.to_string();
                assert_eq!(MessageHead::of(&raw), MessageHead::of_value(message), "{raw:.300}");
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared} messages");
        for raw in [
            r#"{"role":"user","content":"plain \"text\""}"#,
            r#"{"role":"user","content":null}"#,
            r#"{"role":"user","content":["a string block"]}"#,
            r#"{"id":"m\u0031","content":[{"type":"tool_use","id":"t\"1","input":{"a":[1,2]}}]}"#,
            r#"{"content":[{"type":"tool_result","tool_use_id":"t1","content":[{"type":"text","text":"x"}]}]}"#,
            r#"{"content":{"odd":true},"usage":{"input_tokens":3,"output_tokens":4}}"#,
            r#"{"id":null,"model":"m","usage":null}"#,
        ] {
            let value: Value = serde_json::from_str(raw).expect("valid JSON");
            assert_eq!(MessageHead::of(raw), MessageHead::of_value(&value), "{raw}");
        }
    }
}
