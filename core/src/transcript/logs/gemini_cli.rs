//! Gemini CLI chat recordings (`~/.gemini/tmp/<project hash>/chats/session-*.json[l]`),
//! read as gemini-cli itself reads them back (google-gemini/gemini-cli at 016443b5e7bf,
//! `packages/core/src/services/chatRecordingService.ts`, `loadConversationRecord`, and
//! `chatRecordingTypes.ts`):
//! - the single-JSON form: one `ConversationRecord` (`sessionId`, `projectHash`, …,
//!   `messages`);
//! - the JSONL form: a metadata line, then a message each time it is written — the same
//!   `id` again replaces it where it stands (tool calls, results and tokens are added to a
//!   message after it was first written) —, `{"$rewindTo": id}` drops that message and all
//!   after it (an id it does not hold: all of them), and `{"$set": {…}}` updates the
//!   metadata; a `$set` holding `messages` is the chat's whole new history
//!   (`updateMessagesFromHistory`: after a compression, or when tool outputs are masked).
//!
//! A `user` message is the user's turn (its `content`, a part list). A `gemini` message
//! is the model's answer: its text and its `toolCalls` as `functionCall` parts, then —
//! when the calls have results — one user turn of their `functionResponse` parts, as the
//! chat is rebuilt on resume. `info`, `error` and `warning` messages are the CLI's own
//! and slash commands are run by the CLI: none is sent, each is a note; so are the
//! model's thoughts (summaries shown to the user, not history). A message's `tokens` is
//! the usage of its call: `input` (promptTokenCount) holds `cached`, and `thoughts` are
//! billed as output.
//!
//! A compression is a `$set` of `messages` that drops earlier messages and opens with
//! ones never seen before (the summary it made): a past compaction, its summary those
//! new messages, what it kept the messages carried over. gemini-cli records neither what
//! fired it nor the size after.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde_json::{json, Value};

use super::{
    lines, note_incomplete, one_line, pair_synthetic, synthetic_message, Conversation, Loaded, LogRecord, Note,
    PastCompaction,
};
use crate::error::{LoadError, Position};
use crate::transcript::dialect::Dialect;
use crate::transcript::format::{json_error, span_of};
use crate::transcript::message::Recorded;

/// One message record as it last stood, with the record that wrote it.
#[derive(Debug, Clone)]
struct Entry {
    id: String,
    value: Value,
    range: Range<usize>,
}

/// What the whole session holds, in order: messages by id, and the summaries
/// compressions wrote (which replaced what came before them in the live chat).
#[derive(Debug, Clone)]
enum Item {
    Message(String),
    Compression {
        line: usize,
        summary: Vec<String>,
        kept: Vec<String>,
        pre_tokens: Option<u64>,
        /// The size after it, where the notice states it (releases before v0.33).
        post_tokens: Option<u64>,
        /// `auto` or `manual`, from the notice the CLI recorded after it (see
        /// [`Chat::notice`]); `None` when it recorded none.
        trigger: Option<String>,
        /// The recording holds the history it wrote (a `$set`, v0.44 on); before that
        /// only its notice is recorded, and the recording keeps the whole history.
        history_recorded: bool,
    },
}

/// The chat as the records build it.
#[derive(Debug, Default)]
struct Chat {
    /// Each id's last version.
    entries: HashMap<String, Entry>,
    /// The live history: ids in order.
    live: Vec<String>,
    /// The same ids, to look up.
    in_live: HashSet<String>,
    /// The whole session: every message the model was sent, and each compression.
    whole: Vec<Item>,
    /// Ids rewound away (off the conversation).
    rewound: HashSet<String>,
    /// The prompt size of the last recorded call.
    last_prompt: Option<u64>,
    /// The line of the compression whose notice may still come (until the next answer).
    awaiting_notice: Option<usize>,
}

impl Chat {
    /// Message record `entry` (written at 1-based `line`), as it now stands.
    fn upsert(&mut self, entry: Entry, line: usize) {
        if let Some(prompt) = entry.value.pointer("/tokens/input").and_then(Value::as_u64) {
            self.last_prompt = Some(prompt);
        }
        self.notice(&entry.value, line);
        if self.in_live.insert(entry.id.clone()) {
            self.live.push(entry.id.clone());
            self.whole.push(Item::Message(entry.id.clone()));
            self.rewound.remove(&entry.id);
        }
        self.entries.insert(entry.id.clone(), entry);
    }

    /// What set a compression off, from the notice the CLI records after it: its UI
    /// records each `info` item it shows (`useHistoryManager.ts`). An automatic
    /// compression shows "Context compressed from X% to Y%." (`useGeminiStream.ts`,
    /// `handleChatCompressionEvent`; v0.18–v0.32: "IMPORTANT: This conversation exceeded
    /// the compress threshold… (compressed from: N to M tokens)"), while `/compress`
    /// shows a compression item, which has no text and is recorded as an empty `info`
    /// (`compressCommand.ts`; google-gemini/gemini-cli 5411f113). The notice follows the
    /// `$set` (`client.ts`: `tryCompressChat`, then the `ChatCompressed` event); the
    /// model's next answer ends the wait. A notice with no `$set` before it is a
    /// compression of a release that recorded only the notice (before v0.44).
    fn notice(&mut self, record: &Value, line: usize) {
        let trigger = match record.get("type").and_then(Value::as_str) {
            Some("gemini") => {
                self.awaiting_notice = None;
                return;
            }
            Some("info") => {
                let text = text_of_parts(&parts_of(record.get("content").unwrap_or(&Value::Null)));
                match compression_notice(&text) {
                    Some(trigger) => trigger,
                    None => return,
                }
            }
            _ => return,
        };
        let (trigger, sizes) = trigger;
        match self.awaiting_notice.take() {
            // Found by its line: a rewind since may have moved it in `whole`.
            Some(at) => {
                for item in self.whole.iter_mut().rev() {
                    if let Item::Compression {
                        line, trigger: slot, ..
                    } = item
                    {
                        if *line == at {
                            *slot = Some(trigger.to_owned());
                            break;
                        }
                    }
                }
            }
            None => self.whole.push(Item::Compression {
                line,
                summary: Vec::new(),
                kept: Vec::new(),
                pre_tokens: sizes.before.or(self.last_prompt),
                post_tokens: sizes.after,
                trigger: Some(trigger.to_owned()),
                history_recorded: false,
            }),
        }
    }

    /// `$rewindTo`: that message and every later one leave the chat.
    fn rewind(&mut self, id: &str) {
        let from = self.live.iter().position(|l| l == id).unwrap_or(0);
        let gone: HashSet<String> = self.live.drain(from..).collect();
        self.in_live.retain(|id| !gone.contains(id));
        self.whole
            .retain(|item| !matches!(item, Item::Message(m) if gone.contains(m)));
        self.rewound.extend(gone);
    }

    /// A `$set` of `messages`: the history from now on. Returns whether it was a
    /// compression (it drops earlier messages and opens with new ones).
    fn replace(&mut self, messages: Vec<Entry>, line: usize) -> bool {
        let new_ids: Vec<String> = messages.iter().map(|e| e.id.clone()).collect();
        let new_set: HashSet<&String> = new_ids.iter().collect();
        let dropped: Vec<String> = self.live.iter().filter(|id| !new_set.contains(id)).cloned().collect();
        let opens_new = new_ids.first().is_some_and(|id| !self.entries.contains_key(id));
        let compression = !dropped.is_empty() && opens_new;
        if compression {
            let summary: Vec<String> = new_ids
                .iter()
                .take_while(|id| !self.entries.contains_key(*id))
                .cloned()
                .collect();
            let kept = new_ids[summary.len()..].to_vec();
            self.awaiting_notice = Some(line);
            self.whole.push(Item::Compression {
                line,
                summary,
                kept,
                pre_tokens: self.last_prompt,
                post_tokens: None,
                trigger: None,
                history_recorded: true,
            });
        } else {
            // A rollback or a rewrite: what it drops leaves the chat, as a rewind.
            let gone: HashSet<&String> = dropped.iter().collect();
            self.whole
                .retain(|item| !matches!(item, Item::Message(m) if gone.contains(m)));
            self.rewound.extend(dropped);
            for entry in &messages {
                if !self.entries.contains_key(&entry.id) {
                    self.whole.push(Item::Message(entry.id.clone()));
                }
            }
        }
        self.in_live = new_ids.iter().cloned().collect();
        self.live = new_ids;
        for entry in messages {
            self.entries.insert(entry.id.clone(), entry);
        }
        compression
    }
}

/// Whether an `info` notice's text says the chat was compressed: `auto` or `manual`
/// (see [`Chat::notice`]), and the size before it where the notice says it.
fn compression_notice(text: &str) -> Option<(&'static str, NoticeSizes)> {
    const BEFORE_V0_33: &str = "IMPORTANT: This conversation exceeded the compress threshold";
    if text.starts_with(FROM_V0_33) {
        Some(("auto", NoticeSizes::default()))
    } else if text.starts_with(BEFORE_V0_33) {
        // "(compressed from: N to M tokens)"
        let mut words = text
            .split_once("compressed from: ")
            .map(|(_, rest)| rest.split_whitespace())
            .into_iter()
            .flatten();
        let before = words.next().and_then(|n| n.parse().ok());
        let after = words.nth(1).and_then(|n| n.parse().ok());
        Some(("auto", NoticeSizes { before, after }))
    } else if text.trim().is_empty() {
        Some(("manual", NoticeSizes::default()))
    } else {
        None
    }
}

/// How the notice of an automatic compression opens from v0.33 on.
const FROM_V0_33: &str = "Context compressed from ";

/// The sizes a compression notice states (releases before v0.33 said them in tokens).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct NoticeSizes {
    before: Option<u64>,
    after: Option<u64>,
}

/// Whether the record `json` is the notice of a compression made by v0.33 or later
/// ("Context compressed from X% to Y%."), a release that verifies its summary with a
/// second call (from v0.26: `chatCompressionService.ts`, gemini-cli 1182168b).
pub(crate) fn is_notice_from_v0_33(json: &str) -> bool {
    json.contains(FROM_V0_33)
        && serde_json::from_str::<Value>(json).is_ok_and(|record| {
            text_of_parts(&parts_of(record.get("content").unwrap_or(&Value::Null))).starts_with(FROM_V0_33)
        })
}

/// The part list a `content` (a `PartListUnion`: a string, a part, or a list of both)
/// stands for.
fn parts_of(content: &Value) -> Vec<Value> {
    match content {
        Value::String(s) if s.is_empty() => Vec::new(),
        Value::String(s) => vec![json!({ "text": s })],
        Value::Array(items) => items
            .iter()
            .flat_map(|item| match item {
                Value::String(s) => vec![json!({ "text": s })],
                Value::Object(_) => vec![item.clone()],
                _ => Vec::new(),
            })
            .collect(),
        Value::Object(_) => vec![content.clone()],
        _ => Vec::new(),
    }
}

fn text_of_parts(parts: &[Value]) -> String {
    parts
        .iter()
        .filter_map(|p| p.get("text").and_then(Value::as_str))
        .collect::<Vec<_>>()
        .join("")
}

/// What the CLI keeps to itself: its own notices, and the user's slash commands.
fn note_kind(entry: &Value) -> Option<String> {
    let kind = entry.get("type").and_then(Value::as_str).unwrap_or_default();
    match kind {
        "user" => {
            let text = text_of_parts(&parts_of(entry.get("content").unwrap_or(&Value::Null)));
            let command = text.trim_start().strip_prefix('/').is_some_and(|rest| {
                rest.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                    && !rest.split_whitespace().next().unwrap_or_default().contains('/')
            });
            command.then(|| "command".to_owned())
        }
        "gemini" => None,
        other => Some(format!("gemini-cli {other}")),
    }
}

/// The model-visible contents one message record stands for: the user's turn; or the
/// model's answer, then the results of its calls as one user turn.
fn contents_of(entry: &Value) -> Vec<Value> {
    let content = parts_of(entry.get("content").unwrap_or(&Value::Null));
    if entry.get("type").and_then(Value::as_str) != Some("gemini") {
        return vec![json!({ "role": "user", "parts": content })];
    }
    let calls: Vec<&Value> = entry
        .get("toolCalls")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .collect();
    let mut model_parts: Vec<Value> = content.into_iter().filter(|p| p.get("thought").is_none()).collect();
    let mut responses = Vec::new();
    for call in &calls {
        let id = call.get("id").cloned().unwrap_or(Value::Null);
        let name = call.get("name").cloned().unwrap_or(Value::Null);
        model_parts.push(json!({ "functionCall": { "id": id, "name": name, "args": call.get("args").cloned().unwrap_or(json!({})) } }));
        let result = call.get("result").unwrap_or(&Value::Null);
        let parts = parts_of(result);
        if parts.is_empty() {
            continue;
        }
        if parts.iter().any(|p| p.get("functionResponse").is_some()) {
            responses.extend(parts);
        } else {
            // A bare result: the CLI sends it as the call's output.
            let output = text_of_parts(&parts);
            responses.push(json!({ "functionResponse": { "id": id, "name": name, "response": { "output": output } } }));
        }
    }
    let mut out = vec![json!({ "role": "model", "parts": model_parts })];
    if !responses.is_empty() {
        out.push(json!({ "role": "user", "parts": responses }));
    }
    out
}

/// The usage a `gemini` message's `tokens` records (`TokensSummary`).
pub(crate) fn usage_of(entry: &Value) -> Option<Recorded> {
    let tokens = entry.get("tokens").filter(|t| t.is_object())?;
    let n = |k: &str| tokens.get(k).and_then(Value::as_u64).unwrap_or(0);
    let cached = n("cached");
    Some(Recorded {
        input_tokens: n("input").saturating_sub(cached),
        cache_read_tokens: cached,
        output_tokens: n("output").saturating_add(n("thoughts")),
        reasoning_tokens: n("thoughts"),
        ..Recorded::default()
    })
}

/// The record `value` (a message) as an entry, when it has an id.
fn entry(value: Value, range: Range<usize>) -> Option<Entry> {
    let id = value.get("id")?.as_str()?.to_owned();
    Some(Entry { id, value, range })
}

/// Reads a Gemini CLI chat recording, either form.
pub(crate) fn gemini_cli(
    source: &str,
    text: &str,
    start: usize,
    conversation: Conversation,
) -> Result<Loaded, LoadError> {
    let body = &text[start..];
    // The single-JSON form is one object over many lines; the JSONL form a line each.
    let whole_object = serde_json::from_str::<serde_json::Map<String, Value>>(body.trim_end()).is_ok();
    let (chat, notes_by_id, file_records, incomplete) = if whole_object {
        single_json(source, text, start)?
    } else {
        jsonl(source, text, start)?
    };
    let items: Vec<Item> = match conversation {
        Conversation::Whole => chat.whole.clone(),
        Conversation::Live => live_items(&chat),
    };
    // In the live view, what the compression it opens with kept carries no usage: those
    // calls were made with the context before it.
    let measured_before: HashSet<&String> = match items.first() {
        Some(Item::Compression { kept, .. }) if conversation == Conversation::Live => kept.iter().collect(),
        _ => HashSet::new(),
    };
    let mut view = View {
        source,
        text,
        chat: &chat,
        notes_by_id,
        loaded: Loaded::empty(),
        message_of_record: HashMap::new(),
    };
    for item in &items {
        match item {
            Item::Message(id) if measured_before.contains(id) => view.push(id, Role::Kept)?,
            Item::Message(id) => view.push(id, Role::Conversation)?,
            Item::Compression {
                line,
                summary,
                kept,
                pre_tokens,
                post_tokens,
                trigger,
                history_recorded,
            } => view.compression(
                *line,
                summary,
                kept,
                (*pre_tokens, *post_tokens),
                trigger.clone(),
                *history_recorded,
            )?,
        }
    }
    let View {
        mut loaded,
        mut notes_by_id,
        message_of_record,
        ..
    } = view;
    pair_synthetic(Dialect::Gemini, &mut loaded.messages);
    // Notes no message of this view carries (a rewind at the end) come last.
    for (_, mut rest) in notes_by_id.drain() {
        for note in &mut rest {
            note.before = loaded.messages.len();
        }
        loaded.notes.extend(rest);
    }
    loaded.notes.sort_by_key(|n| (n.before, n.line));
    for (line_index, (range, id)) in file_records.iter().enumerate() {
        let final_version = id
            .as_ref()
            .and_then(|id| chat.entries.get(id))
            .is_some_and(|e| e.range == *range);
        let message = final_version
            .then(|| message_of_record.get(&range.start).copied())
            .flatten();
        let active = id.as_ref().is_none_or(|id| !chat.rewound.contains(id));
        loaded.records.push(LogRecord {
            range: range.clone(),
            message,
            active,
            order: active.then_some(line_index),
            earlier: None,
        });
    }
    note_incomplete(&mut loaded, incomplete);
    Ok(loaded)
}

/// The live chat: after the last compression that rewrote the history, its summary, then
/// the history; a compression that recorded only its notice (the history stayed whole in
/// the recording) stands before the message that followed it.
fn live_items(chat: &Chat) -> Vec<Item> {
    let rewrote = |item: &Item| {
        matches!(
            item,
            Item::Compression {
                history_recorded: true,
                ..
            }
        )
    };
    let (mut items, summary, after) = match chat.whole.iter().rposition(rewrote) {
        Some(at) => match &chat.whole[at] {
            c @ Item::Compression { summary, .. } => (vec![c.clone()], summary.clone(), at + 1),
            Item::Message(_) => (Vec::new(), Vec::new(), 0),
        },
        None => (Vec::new(), Vec::new(), 0),
    };
    let mut notices: HashMap<&String, Vec<Item>> = HashMap::new();
    let mut waiting = Vec::new();
    for item in &chat.whole[after..] {
        match item {
            Item::Compression { .. } => waiting.push(item.clone()),
            Item::Message(id) if !waiting.is_empty() => {
                notices.insert(id, std::mem::take(&mut waiting));
            }
            Item::Message(_) => {}
        }
    }
    for id in chat.live.iter().filter(|id| !summary.contains(id)) {
        items.extend(notices.remove(id).unwrap_or_default());
        items.push(Item::Message(id.clone()));
    }
    // Those whose next message left the chat (rewound) come last, in order.
    let mut rest: Vec<Item> = notices.into_values().flatten().chain(waiting).collect();
    rest.sort_by_key(|item| match item {
        Item::Compression { line, .. } => *line,
        Item::Message(_) => 0,
    });
    items.extend(rest);
    items
}

/// What an entry is in the view being built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// A message of the conversation.
    Conversation,
    /// Written by a compression: its summary.
    Summary,
    /// Kept by the compression the live view opens with: its usage measured the context
    /// before it.
    Kept,
}

/// A view (live or whole) being built from the chat.
struct View<'a> {
    source: &'a str,
    text: &'a str,
    chat: &'a Chat,
    /// Notes waiting for the message they come before.
    notes_by_id: HashMap<String, Vec<Note>>,
    loaded: Loaded,
    /// The first message each record (by its start) became.
    message_of_record: HashMap<usize, usize>,
}

impl View<'_> {
    /// The messages (or the note) of the entry `id`.
    fn push(&mut self, id: &str, role: Role) -> Result<(), LoadError> {
        let Some(entry) = self.chat.entries.get(id) else {
            return Ok(());
        };
        let loaded = &mut self.loaded;
        for mut note in self.notes_by_id.remove(id).unwrap_or_default() {
            note.before = loaded.messages.len();
            loaded.notes.push(note);
        }
        let summary = role == Role::Summary;
        if let Some(kind) = note_kind(&entry.value).filter(|_| !summary) {
            let what = text_of_parts(&parts_of(entry.value.get("content").unwrap_or(&Value::Null)));
            loaded.notes.push(Note {
                before: loaded.messages.len(),
                line: Position::of_offset(self.text, entry.range.start).line,
                kind,
                text: one_line(&what, 80),
            });
            return Ok(());
        }
        if let Some(model) = entry.value.get("model").and_then(Value::as_str) {
            loaded.model = Some(model.to_owned());
        }
        self.message_of_record.insert(entry.range.start, loaded.messages.len());
        for (k, content) in contents_of(&entry.value).iter().enumerate() {
            let index = loaded.messages.len();
            let mut m = synthetic_message(
                self.source,
                self.text,
                Dialect::Gemini,
                content.to_string(),
                &entry.range,
                index,
            )?;
            m.past_summary = summary;
            if summary {
                m.boundary = false;
            }
            if k == 0 && role != Role::Kept {
                m.set_recorded(usage_of(&entry.value));
            }
            loaded.messages.push(m);
        }
        Ok(())
    }

    /// A compression: its summary's messages, and the compaction they stand for.
    fn compression(
        &mut self,
        line: usize,
        summary: &[String],
        kept: &[String],
        (pre_tokens, post_tokens): (Option<u64>, Option<u64>),
        trigger: Option<String>,
        history_recorded: bool,
    ) -> Result<(), LoadError> {
        let at = self.loaded.messages.len();
        for id in summary {
            self.push(id, Role::Summary)?;
        }
        let kept_texts = kept
            .iter()
            .filter_map(|id| self.chat.entries.get(id))
            .map(|e| text_of_parts(&parts_of(e.value.get("content").unwrap_or(&Value::Null))))
            .filter(|t| !t.trim().is_empty())
            .collect();
        let loaded = &mut self.loaded;
        loaded.compactions.push(PastCompaction {
            line,
            at,
            trigger,
            pre_tokens,
            summary_message: (loaded.messages.len() > at).then_some(at),
            kept: kept_texts,
            post_tokens,
            elsewhere: false,
        });
        loaded.notes.push(Note {
            before: at,
            line,
            kind: "past compaction".into(),
            text: if history_recorded {
                format!(
                    "compressed here: history replaced by {} messages",
                    summary.len() + kept.len()
                )
            } else {
                "compressed here (this release recorded its notice, not its summary)".to_owned()
            },
        });
        Ok(())
    }
}

/// What the reader of either form gives back: the chat, notes by the message they come
/// before (the CLI's notices are keyed by their own id), and each record's bytes with
/// the id it wrote.
type Read = (
    Chat,
    HashMap<String, Vec<Note>>,
    Vec<(Range<usize>, Option<String>)>,
    Option<Note>,
);

/// The single-JSON form: the messages in order, each its own record.
fn single_json(source: &str, text: &str, start: usize) -> Result<Read, LoadError> {
    let body = text[start..].trim_end();
    let map: std::collections::BTreeMap<String, &serde_json::value::RawValue> =
        serde_json::from_str(body).map_err(|e| json_error(source, text, start, &e))?;
    let mut chat = Chat::default();
    let mut records = Vec::new();
    if let Some(list) = map.get("messages") {
        let items: Vec<&serde_json::value::RawValue> = serde_json::from_str(list.get()).map_err(|_| {
            LoadError::at(
                source,
                Position::of_offset(text, span_of(text, list.get()).start),
                "`messages` must be a JSON array of message records",
            )
        })?;
        for raw in items {
            let range = span_of(text, raw.get());
            let value: Value =
                serde_json::from_str(raw.get()).map_err(|e| json_error(source, text, range.start, &e))?;
            let id = value.get("id").and_then(Value::as_str).map(str::to_owned);
            if let Some(e) = entry(value, range.clone()) {
                chat.upsert(e, Position::of_offset(text, range.start).line);
            }
            records.push((range, id));
        }
    }
    Ok((chat, HashMap::new(), records, None))
}

/// The JSONL form, replayed as gemini-cli replays it.
fn jsonl(source: &str, text: &str, start: usize) -> Result<Read, LoadError> {
    let (lines, incomplete) = lines(source, text, start)?;
    let mut chat = Chat::default();
    let mut notes: HashMap<String, Vec<Note>> = HashMap::new();
    let mut records = Vec::new();
    // A rewind is shown before the message written next (or last, when none is).
    let mut pending: Vec<Note> = Vec::new();
    for line in &lines {
        let range = line.range.clone();
        let value: Value =
            serde_json::from_str(&text[range.clone()]).map_err(|e| json_error(source, text, range.start, &e))?;
        let mut id = None;
        if let Some(to) = value.get("$rewindTo").and_then(Value::as_str) {
            chat.rewind(to);
            pending.push(Note {
                before: usize::MAX,
                line: line.number,
                kind: "rewind".into(),
                text: format!("rewound to before message {}", one_line(to, 40)),
            });
        } else if let Some(set) = value.get("$set").filter(|s| s.is_object()) {
            if let Some(list) = set.get("messages").and_then(Value::as_array) {
                let entries: Vec<Entry> = list.iter().filter_map(|m| entry(m.clone(), range.clone())).collect();
                chat.replace(entries, line.number);
            }
        } else if value.get("id").and_then(Value::as_str).is_some() {
            id = value.get("id").and_then(Value::as_str).map(str::to_owned);
            if let Some(e) = entry(value, range.clone()) {
                if !pending.is_empty() {
                    notes.entry(e.id.clone()).or_default().append(&mut pending);
                }
                chat.upsert(e, line.number);
            }
        }
        records.push((range, id));
    }
    if !pending.is_empty() {
        notes.entry(String::new()).or_default().append(&mut pending);
    }
    Ok((chat, notes, records, incomplete))
}
