//! What a Claude Code log's record says of a billed request — its response's id, the
//! request's id, its time, model and usage — read by a parse that skips the message's
//! content instead of building the whole line as a JSON value (the cost pass reads every
//! record of a log, most of whose bytes are content).

use std::borrow::Cow;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::transcript::Recorded;

/// A record that carries a usage.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct UsageRecord {
    /// The response's `message.id` and the record's `requestId`: one billed request.
    pub id: (Option<String>, Option<String>),
    /// `timestamp`.
    pub time: Option<String>,
    /// `message.model`.
    pub model: Option<String>,
    /// `message.usage`.
    pub usage: Recorded,
}

impl UsageRecord {
    /// The usage record of `line`, if it is one (a record whose `message` has a `usage`).
    pub fn of(line: &str) -> Option<UsageRecord> {
        match serde_json::from_str::<Borrowed>(line) {
            Ok(record) => {
                let message = record.message?;
                let usage = serde_json::from_str::<Value>(message.usage?.get()).ok()?;
                Some(UsageRecord {
                    id: (message.id.map(Cow::into_owned), record.request_id.map(Cow::into_owned)),
                    time: record.timestamp.map(Cow::into_owned),
                    model: message.model.map(Cow::into_owned),
                    usage: crate::transcript::anthropic_usage_of(&usage),
                })
            }
            // A shape the borrowing parse does not take (a number where a string was
            // expected, a message that is no object): read as a value, as it always was.
            Err(_) => UsageRecord::of_value(&serde_json::from_str::<Value>(line).ok()?),
        }
    }

    /// The usage record of a line read as a JSON value.
    pub fn of_value(value: &Value) -> Option<UsageRecord> {
        let message = value.get("message").filter(|m| m.get("usage").is_some())?;
        let string = |v: Option<&Value>| v.and_then(Value::as_str).map(str::to_owned);
        Some(UsageRecord {
            id: (string(message.get("id")), string(value.get("requestId"))),
            time: string(value.get("timestamp")),
            model: string(message.get("model")),
            usage: crate::transcript::anthropic_usage(message)?,
        })
    }
}

#[derive(Deserialize)]
struct Borrowed<'a> {
    #[serde(borrow, default)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(borrow, default, rename = "requestId")]
    request_id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    message: Option<BorrowedMessage<'a>>,
}

#[derive(Deserialize)]
struct BorrowedMessage<'a> {
    #[serde(borrow, default)]
    id: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    model: Option<Cow<'a, str>>,
    // `null` is kept: a `"usage": null` is a usage of zeros, as the value read it.
    #[serde(borrow, default, deserialize_with = "crate::transcript::even_null")]
    usage: Option<&'a RawValue>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The borrowing parse reads what the value read, on every record of the shipped
    /// Claude Code logs and on odd shapes.
    #[test]
    fn a_record_reads_as_its_value_does() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/real-transcripts/claude-code-jsonl");
        let mut compared = 0;
        for entry in std::fs::read_dir(dir).expect("the shipped logs") {
            let text = std::fs::read_to_string(entry.expect("an entry").path()).expect("a log");
            for line in text.lines() {
                let Ok(value) = serde_json::from_str::<Value>(line) else {
                    continue;
                };
                assert_eq!(UsageRecord::of(line), UsageRecord::of_value(&value), "{line:.300}");
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared} records");
        for line in [
            r#"{"timestamp":5,"message":{"usage":{"input_tokens":1}}}"#,
            r#"{"message":"text","usage":{"input_tokens":1}}"#,
            r#"{"requestId":"r","message":{"id":"m","model":"x","usage":null,"content":[{"a":1}]}}"#,
            r#"{"message":{"id":"m","content":"no usage"}}"#,
        ] {
            let value: Value = serde_json::from_str(line).expect("valid JSON");
            assert_eq!(UsageRecord::of(line), UsageRecord::of_value(&value), "{line}");
        }
    }
}
