//! The usage a kept record carries was measured on the context before the compaction
//! (summarized messages included): carried into a compacted log, it would tell `stats`,
//! the calibration and the agent itself that the new context is as large as the old.
//! A kept tail record is therefore written without it — a Claude Code assistant
//! record without `message.usage`, a Codex rollout without its `token_count` events —
//! and everything else byte for byte.

use serde_json::Value;

use crate::transcript::Container;

/// What a compacted log writes for one record of the kept tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum KeptRecord {
    /// The record as read.
    Unchanged,
    /// The record rewritten without its usage.
    Rewritten(String),
    /// Nothing: the record only reported usage.
    Dropped,
}

/// What to write for the kept tail record `text` of a log in `container`.
pub(super) fn kept_record(container: &Container, text: &str) -> KeptRecord {
    if !may_carry_usage(container, text) {
        return KeptRecord::Unchanged;
    }
    let Ok(mut record) = serde_json::from_str::<Value>(text) else {
        return KeptRecord::Unchanged;
    };
    match container {
        Container::ClaudeCode => {
            let removed = (record.get("type").and_then(Value::as_str) == Some("assistant"))
                .then(|| {
                    record
                        .get_mut("message")
                        .and_then(Value::as_object_mut)
                        .and_then(|m| m.shift_remove("usage"))
                })
                .flatten();
            match removed {
                Some(_) => KeptRecord::Rewritten(record.to_string()),
                None => KeptRecord::Unchanged,
            }
        }
        Container::Codex => {
            let token_count = record.get("type").and_then(Value::as_str) == Some("event_msg")
                && record.pointer("/payload/type").and_then(Value::as_str) == Some("token_count");
            if token_count {
                KeptRecord::Dropped
            } else {
                KeptRecord::Unchanged
            }
        }
        _ => KeptRecord::Unchanged,
    }
}

/// Whether record `text` may carry usage at all (most records do not, and need no parse).
pub(super) fn may_carry_usage(container: &Container, text: &str) -> bool {
    match container {
        Container::ClaudeCode => text.contains("\"usage\""),
        Container::Codex => text.contains("\"token_count\""),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_claude_code_assistant_record_loses_its_usage_and_nothing_else() {
        let record = r#"{"parentUuid":"a","type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"é \"q\""}],"usage":{"input_tokens":90000,"output_tokens":5}},"uuid":"b","toolUseResult":{"usage":{"input_tokens":1}}}"#;
        let KeptRecord::Rewritten(written) = kept_record(&Container::ClaudeCode, record) else {
            panic!("the usage is removed");
        };
        assert_eq!(
            written,
            r#"{"parentUuid":"a","type":"assistant","message":{"id":"m","role":"assistant","content":[{"type":"text","text":"é \"q\""}]},"uuid":"b","toolUseResult":{"usage":{"input_tokens":1}}}"#
        );
    }

    #[test]
    fn records_without_context_usage_are_kept_as_read() {
        let user = r#"{"type":"user","message":{"role":"user","content":"the usage is high"},"toolUseResult":{"usage":{"input_tokens":1}}}"#;
        assert_eq!(kept_record(&Container::ClaudeCode, user), KeptRecord::Unchanged);
        let codex_message = r#"{"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"token_count"}]}}"#;
        assert_eq!(kept_record(&Container::Codex, codex_message), KeptRecord::Unchanged);
        assert_eq!(kept_record(&Container::Jsonl, r#"{"usage":{}}"#), KeptRecord::Unchanged);
    }

    #[test]
    fn a_codex_token_count_event_is_dropped() {
        let event = r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":90000}}}}"#;
        assert_eq!(kept_record(&Container::Codex, event), KeptRecord::Dropped);
    }
}
