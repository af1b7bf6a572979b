//! Evidence of forgetting after a real compaction: what the agent did again in the epoch
//! after it — a file it had already read read again, a command it had already run run
//! again, any other tool called again with the same arguments — and what the user had to
//! say again, each with the tokens it cost (the repeated call's result, the repeated
//! turn). That is the direct answer to "why did it forget": the work the summary did not
//! carry over, paid for twice.

use std::collections::HashMap;
use std::ops::Range;

use serde_json::Value;

use crate::history::Compaction;
use crate::loss::{first_line, TurnStatus};
use crate::policy::{ChatMessage, Kind};
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// What was done again.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Again {
    /// A file read before, read again.
    Reread,
    /// A command run before, run again.
    Rerun,
    /// Another tool called again with the same arguments.
    Recalled,
    /// A human turn the user had to say again.
    Repeated,
}

impl Again {
    /// Its name in reports.
    pub fn name(self) -> &'static str {
        match self {
            Again::Reread => "re-read",
            Again::Rerun => "re-ran",
            Again::Recalled => "called again",
            Again::Repeated => "user repeated",
        }
    }
}

/// One thing done again after the compaction.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct DoneAgain {
    /// The message that did it again (the call, or the user's turn).
    pub message: usize,
    /// What.
    pub kind: Again,
    /// The file, the command, the tool and arguments, or the turn's words.
    pub target: String,
    /// Where it was first done, before the compaction.
    pub first: usize,
    /// Tokens it cost again: the repeated call's result (or the turn).
    pub tokens: u64,
}

/// Argument names that hold a file (Claude Code `file_path`, `notebook_path`; others).
const PATH_KEYS: &[&str] = &["file_path", "notebook_path", "path", "filePath", "filename", "file"];
/// Argument names that hold a command.
const COMMAND_KEYS: &[&str] = &["command", "cmd", "commands"];

/// What a call does, as a key two calls share when they do the same thing.
fn call_key(name: &str, args: &Value) -> (Again, String) {
    let text = |key: &str| match args.get(key) {
        Some(Value::String(s)) => Some(s.trim().to_owned()),
        Some(Value::Array(parts)) => Some(parts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" ")),
        _ => None,
    };
    // A read of a file already read (any part of it: after a compaction the agent no
    // longer has what it read, whichever part that was).
    let searches = args.get("pattern").is_some() || args.get("query").is_some();
    if let Some(path) = PATH_KEYS.iter().find_map(|k| text(k)).filter(|_| !searches) {
        let reads = ![
            "edit",
            "write",
            "replace",
            "create",
            "patch",
            "delete",
            "multiedit",
            "notebookedit",
        ]
        .iter()
        .any(|w| name.to_lowercase().contains(w));
        if reads {
            return (Again::Reread, path);
        }
    }
    if let Some(command) = COMMAND_KEYS.iter().find_map(|k| text(k)) {
        return (Again::Rerun, command);
    }
    (Again::Recalled, format!("{name} {args}"))
}

/// The tool results of `chat` by the id of the call they answer: (message, tokens).
fn results<'a>(chat: &'a [ChatMessage], counts: &Counts) -> HashMap<&'a str, (usize, u64)> {
    chat.iter()
        .filter(|m| m.kind == Kind::Tool)
        .filter_map(|m| {
            let origin = m.origin?;
            Some((m.call_id.as_deref()?, (origin, counts.message(origin))))
        })
        .collect()
}

/// What the epoch `after` did again of the epoch `before` (`chat`: the whole session's
/// chat view, one entry per message), and the turns the user repeated (`repeated`: each
/// with the message that repeated it and the turn it repeated).
pub fn done_again(
    chat: &[ChatMessage],
    counts: &Counts,
    before: &Range<usize>,
    after: &Range<usize>,
    repeated: &[(usize, usize, String)],
) -> Vec<DoneAgain> {
    let answers = results(chat, counts);
    let in_range = |r: &Range<usize>, m: &ChatMessage| m.origin.is_some_and(|o| r.contains(&o));
    let mut first_done: HashMap<(Again, String), usize> = HashMap::new();
    for m in chat.iter().filter(|m| in_range(before, m)) {
        for call in &m.calls {
            first_done
                .entry(call_key(&call.name, &call.args))
                .or_insert(m.origin.unwrap_or_default());
        }
    }
    let mut out = Vec::new();
    let mut counted: std::collections::HashSet<(Again, String)> = std::collections::HashSet::new();
    for m in chat.iter().filter(|m| in_range(after, m)) {
        for call in &m.calls {
            let key = call_key(&call.name, &call.args);
            let Some(&first) = first_done.get(&key) else {
                continue;
            };
            // Each thing once: the first time it is done again is the forgetting.
            if !counted.insert(key.clone()) {
                continue;
            }
            let tokens = answers.get(call.id.as_str()).map_or(0, |&(_, t)| t);
            out.push(DoneAgain {
                message: m.origin.unwrap_or_default(),
                kind: key.0,
                target: key.1,
                first,
                tokens,
            });
        }
    }
    out.extend(repeated.iter().map(|(message, first, words)| DoneAgain {
        message: *message,
        kind: Again::Repeated,
        target: words.clone(),
        first: *first,
        tokens: counts.message(*message),
    }));
    out.sort_by_key(|d| d.message);
    out
}

/// What the epoch after real compaction `c` of `whole` did again (`chat`: the whole
/// session's chat view), with the turns its loss report found the user said again.
pub fn after_compaction(whole: &Transcript, counts: &Counts, chat: &[ChatMessage], c: &Compaction) -> Vec<DoneAgain> {
    let repeated: Vec<(usize, usize, String)> = c
        .loss
        .turns
        .iter()
        .filter(|t| t.status == TurnStatus::RepeatedLater)
        .filter_map(|t| {
            let by = t.evidence.as_ref()?.message?;
            whole.messages[by]
                .boundary
                .then(|| (by, t.message, first_line(&t.text)))
        })
        .collect();
    done_again(chat, counts, &c.ended, &c.after_epoch, &repeated)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_call_is_keyed_by_what_it_does() {
        assert_eq!(
            call_key("Read", &json!({"file_path": "/a/b.rs"})),
            (Again::Reread, "/a/b.rs".to_owned())
        );
        assert_eq!(
            call_key("Read", &json!({"file_path": "/a/b.rs", "offset": 10})),
            (Again::Reread, "/a/b.rs".to_owned())
        );
        assert_eq!(
            call_key("Bash", &json!({"command": " cargo test "})),
            (Again::Rerun, "cargo test".to_owned())
        );
        // An edit is new work, not a re-read.
        assert_eq!(
            call_key("Edit", &json!({"file_path": "/a/b.rs", "old_string": "x"})).0,
            Again::Recalled
        );
        assert_eq!(call_key("Grep", &json!({"pattern": "fn main"})).0, Again::Recalled);
    }
}
