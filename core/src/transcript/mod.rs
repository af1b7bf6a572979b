//! The transcript model: the input text kept exactly as read, one [`Message`] view per
//! message pointing at its raw JSON, and the tool groups and boundaries computed once.

mod append;
pub mod compressed;
mod dialect;
pub mod earlier;
mod embedded_usage;
mod forced;
mod format;
mod groups;
mod logs;
mod media_resolution;
mod message;
pub mod opencode_store;
mod read;
pub mod request;
mod source_text;
mod structure;

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use rayon::prelude::*;
use serde_json::Value;

use crate::error::{LoadError, Position};
use structure::Scan;

pub use append::ReadOn;
pub use dialect::{Dialect, Provider};
pub(crate) use embedded_usage::embedded_call;
pub use format::{Container, Format, FormatOverride};
pub use groups::{Orphan, OrphanKind, ToolGroup, ToolGroups};
pub(crate) use logs::{
    answers_a_call, anthropic_usage, anthropic_usage_of, codex_usage, even_null, gemini_cli_notice_from_v0_33,
    gemini_cli_usage, opencode_usage,
};
pub use logs::{Conversation, LogRecord, Measured, Note, PastCompaction, UsageReader, CLAUDE_CODE_OPENING};

/// What ctxlens writes in the `compactMetadata.writtenBy` of a compaction it writes into
/// a Claude Code log (viewers ignore the field), and the trigger its readers give such a
/// compaction: not the agent's, so nothing learns the agent's threshold from it.
pub const WRITTEN_BY: &str = "ctxlens";
pub use media_resolution::MediaResolution;
pub use message::{
    legacy_call_id, readable_text as readable_text_of, Message, Recorded, RequestShape, ToolCall, IMPLAUSIBLE_TOKENS,
    PREVIEW_CHARS,
};
pub use request::CountMode;
pub use source_text::SourceText;

const BOM: &str = "\u{feff}";

/// The indices of the §7F boundaries (human turns) among `messages`, ascending.
pub(crate) fn boundaries_of(messages: &[Message]) -> Vec<usize> {
    messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.boundary)
        .map(|(i, _)| i)
        .collect()
}

/// A loaded transcript. Cloning is cheap (the text and the message views are shared), so
/// a derived view ([`Transcript::with_overrides`]) costs only its changed messages.
#[derive(Debug, Clone)]
pub struct Transcript {
    /// The file as the user named it (`<stdin>` for `-`), for messages.
    pub(crate) source: String,
    /// The whole input, exactly as read (a BOM included).
    pub(crate) text: Arc<SourceText>,
    /// The detected or forced format.
    pub(crate) format: Format,
    /// The messages, in order.
    pub(crate) messages: Arc<Vec<Message>>,
    /// Text of an Anthropic top-level `system` (shown, never counted).
    pub(crate) system: Option<String>,
    /// Tool groups and orphans.
    pub(crate) groups: Arc<ToolGroups>,
    /// Indices of the §7F boundaries (human turns), ascending.
    pub(crate) boundaries: Arc<Vec<usize>>,
    /// Records that are shown but not model-visible (log formats): hooks, metadata,
    /// titles, past compactions…
    pub(crate) notes: Arc<Vec<Note>>,
    /// Every record of a log format, in file order (empty for plain message lists).
    pub(crate) log_records: Arc<Vec<LogRecord>>,
    /// The compactions a session log records (empty for other formats).
    pub(crate) compactions: Arc<Vec<PastCompaction>>,
    /// Which conversation of a session log this is (always `Live` for other formats).
    pub(crate) conversation: Conversation,
    /// Messages whose JSON was rewritten (the deterministic pass): index → new JSON.
    /// Everything that reads a message's text ([`Transcript::raw`], export) sees these.
    overrides: Arc<BTreeMap<usize, String>>,
    /// How messages are counted: as their API request carries them, or as stored.
    count_mode: CountMode,
    /// The model the transcript was made with, when it says (a request body's `model`,
    /// a Claude Code response's `message.model`): some provider rules depend on it.
    pub(crate) model: Option<String>,
    /// The media resolution a Gemini request sets for all its parts
    /// (`generationConfig.mediaResolution`): how its images and PDF pages are billed.
    pub(crate) media_resolution: Option<MediaResolution>,
    /// How far the read goes, for reading on (made the first time it reads on).
    extent: std::sync::OnceLock<append::Extent>,
    /// The user's other sessions, as evidence of the agent's threshold (none unless a
    /// front end asks: [`Transcript::with_earlier_sessions`]).
    earlier_sessions: crate::transcript::earlier::EarlierSessions,
    /// A Codex rollout's reader of usage where the read ended (what a meter reading on
    /// goes on from).
    pub(crate) codex_usage: Option<Arc<logs::UsageReader>>,
}

impl Transcript {
    /// The file as the user named it (`<stdin>` for `-`), for messages.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// The whole input, exactly as read (a BOM included).
    pub fn text(&self) -> &SourceText {
        &self.text
    }

    /// The detected or forced format.
    pub fn format(&self) -> &Format {
        &self.format
    }

    /// The messages, in order.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// Text of an Anthropic top-level `system` (shown, never counted).
    pub fn system(&self) -> Option<&str> {
        self.system.as_deref()
    }

    /// Tool groups and orphans.
    pub fn groups(&self) -> &ToolGroups {
        &self.groups
    }

    /// Indices of the §7F boundaries (human turns), ascending.
    pub fn boundaries(&self) -> &[usize] {
        &self.boundaries
    }

    /// Records that are shown but not model-visible (log formats): hooks, metadata,
    /// titles, past compactions…
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// Every record of a log format, in file order (empty for plain message lists).
    pub fn log_records(&self) -> &[LogRecord] {
        &self.log_records
    }

    /// The compactions a session log records (empty for other formats).
    pub fn compactions(&self) -> &[PastCompaction] {
        &self.compactions
    }

    /// The first value of a top-level (or Codex `payload`) string field of the log's
    /// records, among the first 50: a session's start, its client's version.
    pub fn first_record_field(&self, key: &str) -> Option<String> {
        self.record_field(self.log_records.iter().take(50), key)
    }

    /// The last value of such a field, among the last 50 records.
    pub fn last_record_field(&self, key: &str) -> Option<String> {
        self.record_field(self.log_records.iter().rev().take(50), key)
    }

    fn record_field<'a>(&self, mut records: impl Iterator<Item = &'a LogRecord>, key: &str) -> Option<String> {
        records.find_map(|r| string_field(&self.text[r.range.clone()], key))
    }

    /// The context's size a log recorded at its end, where it records no usage per call:
    /// GitHub Copilot CLI's `session.shutdown` `currentTokens` (its system prompt, tools
    /// and conversation, as the CLI counts them), when no message of the conversation
    /// follows it (a session resumed after it has grown since).
    pub fn recorded_context(&self) -> Option<u64> {
        if self.format.container != Container::CopilotCli {
            return None;
        }
        for record in self.log_records.iter().rev() {
            if record.message.is_some() {
                return None;
            }
            let line = &self.text[record.range.clone()];
            if !line.contains("\"session.shutdown\"") {
                continue;
            }
            let value: serde_json::Value = serde_json::from_str(line).ok()?;
            return value
                .pointer("/data/currentTokens")
                .and_then(serde_json::Value::as_u64)
                .filter(|&t| t > 0);
        }
        None
    }

    /// The context window the log itself records for its model, when it does (Codex's
    /// `token_count` events carry `info.model_context_window`): the window the agent
    /// worked with, which beats a guess from the model's name. The last one wins.
    pub fn recorded_window(&self) -> Option<u64> {
        self.log_records.iter().rev().find_map(|r| {
            let line = &self.text[r.range.clone()];
            if !line.contains("\"model_context_window\"") {
                return None;
            }
            let value: serde_json::Value = serde_json::from_str(line).ok()?;
            value
                .pointer("/payload/info/model_context_window")
                .and_then(serde_json::Value::as_u64)
                .filter(|&w| w > 0)
        })
    }

    /// The model's context window as the log records it, where it does: what
    /// [`Transcript::recorded_window`] says, read as the agent means it. A Codex rollout
    /// records the *usable* window, 95% of the model's
    /// (`effective_context_window_percent`); the model's is what its limits are taken from.
    pub fn model_window(&self) -> Option<u64> {
        let recorded = self.recorded_window()?;
        Some(if self.format.container == Container::Codex {
            logs::codex::model_window_of(recorded)
        } else {
            recorded
        })
    }

    /// The version of the agent that wrote a session log, when it says: Claude Code's
    /// `version` on its records, Codex's `cli_version` in its session header. Agents
    /// change their compaction rules between releases.
    pub fn client_version(&self) -> Option<String> {
        if let Some(info) = self.session_info() {
            return info
                .get("version")
                .and_then(serde_json::Value::as_str)
                .map(str::to_owned);
        }
        self.first_record_field("version")
            .or_else(|| self.first_record_field("cli_version"))
    }

    /// What an opencode session says of itself, outside its messages (`Session.Info`:
    /// its directory, its release, when it was created); `None` for other formats.
    pub fn session_info(&self) -> Option<serde_json::Value> {
        #[derive(serde::Deserialize)]
        struct Document<'a> {
            #[serde(borrow)]
            info: &'a serde_json::value::RawValue,
        }
        if self.format.container != Container::Opencode {
            return None;
        }
        let document: Document = serde_json::from_str(&self.text).ok()?;
        serde_json::from_str(document.info.get()).ok()
    }

    /// Which conversation of a session log this is (always `Live` for other formats).
    pub fn conversation(&self) -> Conversation {
        self.conversation
    }

    /// The model the transcript was made with, when it says (a request body's `model`,
    /// a Claude Code response's `message.model`): some provider rules depend on it.
    pub fn model(&self) -> Option<&str> {
        self.model.as_deref()
    }

    /// The media resolution a Gemini request sets for all its parts
    /// (`generationConfig.mediaResolution`): how its images and PDF pages are billed.
    pub fn media_resolution(&self) -> Option<MediaResolution> {
        self.media_resolution
    }

    /// Reads a file, or standard input for `-`, and loads it.
    pub fn read(path: &Path, format: Option<FormatOverride>) -> Result<Transcript, LoadError> {
        let (source, text) = read::read_text(path)?;
        Transcript::parse_text(&source, Arc::new(text), format, Conversation::Live)
    }

    /// Reads a file (or standard input for `-`) with every epoch of a session log joined
    /// (see [`Conversation::Whole`]); other formats load as [`Transcript::read`] does.
    pub fn read_whole(path: &Path) -> Result<Transcript, LoadError> {
        let (source, text) = read::read_text(path)?;
        Transcript::parse_text(&source, Arc::new(text), None, Conversation::Whole)
    }

    /// Loads a transcript from bytes; `source` names it in errors.
    pub fn parse(source: &str, bytes: Vec<u8>, forced: Option<FormatOverride>) -> Result<Transcript, LoadError> {
        Transcript::parse_conversation(source, bytes, forced, Conversation::Live)
    }

    /// The whole session of a log (every epoch joined, see [`Conversation::Whole`]); for
    /// any other format the transcript itself, which has only one.
    pub fn whole_session(&self) -> Result<Transcript, LoadError> {
        if !self.format.container.is_log() || self.conversation == Conversation::Whole {
            return Ok(self.clone());
        }
        let whole = Transcript::parse_text(
            &self.source,
            Arc::clone(&self.text),
            Some(self.format.as_override()),
            Conversation::Whole,
        )?;
        let mut whole = whole.with_count_mode(self.count_mode);
        // A model given on the command line holds for every epoch; so do the sessions
        // beside it.
        whole.model.clone_from(&self.model);
        whole.earlier_sessions = self.earlier_sessions.clone();
        Ok(whole)
    }

    /// Loads `conversation` of a transcript from bytes.
    pub fn parse_conversation(
        source: &str,
        bytes: Vec<u8>,
        forced: Option<FormatOverride>,
        conversation: Conversation,
    ) -> Result<Transcript, LoadError> {
        let text = read::text_from_bytes(source, bytes)?;
        Transcript::parse_text(source, Arc::new(text), forced, conversation)
    }

    /// Loads `conversation` of a transcript from its text.
    fn parse_text(
        source: &str,
        text: Arc<SourceText>,
        forced: Option<FormatOverride>,
        conversation: Conversation,
    ) -> Result<Transcript, LoadError> {
        let start = if text.starts_with(BOM) { BOM.len() } else { 0 };
        let mut split = format::split(source, &text, start, forced, Scan::Halves)?;
        let mut compactions = Vec::new();
        let mut codex_usage = None;
        let is_log = split.container.is_log();
        let (dialect, messages, notes, log_records, log_model) = if split.container.is_log() {
            let (loaded, dialect) = match split.container {
                Container::ClaudeCode => (
                    logs::claude_code(source, &text, start, conversation)?,
                    Dialect::Anthropic,
                ),
                Container::GeminiCli => (logs::gemini_cli(source, &text, start, conversation)?, Dialect::Gemini),
                Container::CopilotCli => (logs::copilot_cli(source, &text, start, conversation)?, Dialect::OpenAi),
                Container::Opencode => (logs::opencode(source, &text, start, conversation)?, Dialect::Anthropic),
                _ => (logs::codex(source, &text, start, conversation)?, Dialect::Responses),
            };
            compactions = loaded.compactions;
            codex_usage = loaded.codex_usage.map(Arc::new);
            (dialect, loaded.messages, loaded.notes, loaded.records, loaded.model)
        } else {
            let (dialect, mut messages) = match parse_list(source, &text, &split) {
                // A fault is always named as the one-pass scan finds it.
                Err(_) if split.in_halves => {
                    split = format::split(source, &text, start, forced, Scan::OnePass)?;
                    parse_list(source, &text, &split)?
                }
                listed => listed?,
            };
            let raws: Vec<&str> = messages.iter().map(|m| &text[m.span.clone()]).collect();
            dialect.rules().pair(&mut messages, &raws);
            // A trajectory that kept each response beside its message records usage too,
            // and names its model there.
            let model = embedded_usage::attach(&text, &mut messages, |role| dialect.rules().is_model_output(role));
            (dialect, messages, Vec::new(), Vec::new(), model)
        };
        let system = split.system.map(|span| system_text(&text[span]));
        let model = split
            .model
            .map(|span| text[span].trim_matches('"').to_owned())
            .or(log_model);
        let groups = ToolGroups::compute(&messages);
        let boundaries = boundaries_of(&messages);
        Ok(Transcript {
            source: source.to_owned(),
            format: Format {
                dialect,
                container: split.container,
            },
            text,
            messages: Arc::new(messages),
            system,
            groups: Arc::new(groups),
            boundaries: Arc::new(boundaries),
            notes: Arc::new(notes),
            log_records: Arc::new(log_records),
            compactions: Arc::new(compactions),
            conversation: if is_log { conversation } else { Conversation::Live },
            overrides: Arc::default(),
            count_mode: CountMode::default(),
            model,
            media_resolution: split.media_resolution,
            extent: std::sync::OnceLock::new(),
            earlier_sessions: crate::transcript::earlier::EarlierSessions::default(),
            codex_usage,
        })
    }

    /// The same transcript with `sessions` as the evidence of the user's other sessions
    /// (gathered when a prediction first needs them).
    #[must_use]
    pub fn with_earlier_sessions(mut self, sessions: crate::transcript::earlier::EarlierSessions) -> Transcript {
        self.earlier_sessions = sessions;
        self
    }

    /// The evidence of the user's other sessions (none unless given).
    pub fn earlier_sessions(&self) -> &crate::transcript::earlier::EarlierSessions {
        &self.earlier_sessions
    }

    /// The `timestamp` of the record on 1-based `line` of a log, when it has one.
    pub fn line_timestamp(&self, line: usize) -> Option<String> {
        let text: &str = &self.text;
        let start = match line {
            0 => return None,
            1 => 0,
            _ => text.match_indices('\n').nth(line - 2)?.0 + 1,
        };
        let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        string_field(&text[start..end], "timestamp")
    }

    /// The `timestamp` of the last record of a message before `index` (a log's clock
    /// just before that message), when the log records one.
    pub fn time_before(&self, index: usize) -> Option<String> {
        self.log_records
            .iter()
            .rev()
            .filter(|r| r.message.is_some_and(|m| m < index))
            .take(50)
            .find_map(|r| string_field(&self.text[r.range.clone()], "timestamp"))
    }

    /// The same transcript counted in `mode` (`--count raw` counts messages as stored).
    #[must_use]
    pub fn with_count_mode(mut self, mode: CountMode) -> Transcript {
        self.count_mode = mode;
        self
    }

    /// The transcript said to be made with `model` (`--model`: a log that does not say,
    /// or says wrong); some provider rules depend on it.
    #[must_use]
    pub fn with_model(mut self, model: String) -> Transcript {
        self.model = Some(model);
        self
    }

    /// How messages are counted.
    pub fn count_mode(&self) -> CountMode {
        self.count_mode
    }

    /// Message `index` as it is counted: as its API request carries it (trajectory
    /// metadata and log envelopes left out, see [`request`]), or as stored with
    /// `--count raw`. An empty string is a message never sent.
    pub fn request(&self, index: usize) -> std::borrow::Cow<'_, str> {
        let raw = self.raw(index);
        let shape = self.messages[index].shape;
        let exact = self.format.dialect.rules().stored_is_sent(shape);
        if exact || self.count_mode == CountMode::Raw {
            return std::borrow::Cow::Borrowed(raw);
        }
        self.count_form(raw)
    }

    /// Any message JSON of this transcript's dialect as it is counted (see
    /// [`Transcript::request`]): a rewritten message, a message a compaction inserts.
    pub fn count_form<'a>(&self, json: &'a str) -> std::borrow::Cow<'a, str> {
        if self.count_mode == CountMode::Raw {
            return std::borrow::Cow::Borrowed(json);
        }
        match request::request_json(self.format.dialect, json) {
            Some(request) => std::borrow::Cow::Owned(request),
            None => std::borrow::Cow::Borrowed(json),
        }
    }

    /// The same transcript with the JSON of some messages replaced (index → new JSON):
    /// what the deterministic pass leaves. The new texts must keep each message's role,
    /// calls and results (the pass only shortens texts), so groups and boundaries hold.
    #[must_use]
    pub fn with_overrides(&self, changed: BTreeMap<usize, String>) -> Transcript {
        let mut overrides = (*self.overrides).clone();
        overrides.extend(changed);
        Transcript {
            overrides: Arc::new(overrides),
            ..self.clone()
        }
    }

    /// The messages rewritten by [`Transcript::with_overrides`], index → JSON.
    pub fn overrides(&self) -> &BTreeMap<usize, String> {
        &self.overrides
    }

    /// The view of any message JSON of this transcript's dialect (one a compaction
    /// inserts, say): its role, calls, results and whether it is a human turn.
    pub fn message_of(&self, json: &str) -> Option<Message> {
        self.format
            .dialect
            .rules()
            .view(json, 0..json.len(), 0, PREVIEW_CHARS)
            .ok()
            .map(|(m, _)| m)
    }

    /// The readable text of any message JSON of this transcript's dialect.
    pub fn readable_text_of_json(&self, json: &str) -> String {
        self.format
            .dialect
            .rules()
            .view(json, 0..json.len(), 0, usize::MAX)
            .map_or_else(|_| json.to_owned(), |(_, text)| text.finish())
    }

    /// The full readable text of message `index` (rebuilt from its raw JSON).
    pub fn readable_text(&self, index: usize) -> String {
        self.readable_text_of_json(self.raw(index))
    }

    /// The text summary message `index` gives the agent: its readable text, or nothing
    /// for a summary the provider keeps encrypted (a Codex remote compaction's item,
    /// whose readable placeholder is none of its words).
    pub fn summary_text(&self, index: usize) -> String {
        if self.is_sealed_summary(index) {
            String::new()
        } else {
            self.readable_text(index)
        }
    }

    /// Whether message `index` is a summary the provider keeps encrypted.
    pub fn is_sealed_summary(&self, index: usize) -> bool {
        self.messages
            .get(index)
            .is_some_and(|m| m.past_summary && m.role.as_str() == "compaction")
    }

    /// The role as the list shows it: a user message that only carries tool results is
    /// `results` (not a human turn), a prompt rebuilt from a client event `user·event`, a
    /// past compaction's summary `summary`.
    pub fn role_label(&self, index: usize) -> &str {
        let m = &self.messages[index];
        if m.past_summary {
            "summary"
        } else if m.from_event {
            "user·event"
        } else if m.role == "user" && !m.boundary && !m.tool_results().is_empty() {
            "results"
        } else {
            &m.role
        }
    }

    /// The preview as the list shows it: `+N` first when a message makes N more calls
    /// than one, `[N results]` when it carries several results (each then set apart).
    pub fn list_preview(&self, index: usize, max_chars: usize) -> std::borrow::Cow<'_, str> {
        let m = &self.messages[index];
        let prefix = match (m.tool_calls().len(), m.tool_results().len()) {
            (calls, _) if calls > 1 => format!("+{} ", calls - 1),
            (_, results) if results > 1 => format!("[{results} results] "),
            _ => return self.preview(index, max_chars),
        };
        let rest = self.preview(index, max_chars.saturating_sub(prefix.chars().count()));
        std::borrow::Cow::Owned(prefix + &rest)
    }

    /// The one-line preview of message `index`, cut to `max_chars` characters.
    /// Made from the raw JSON on demand (the list draws a screenful at a time).
    pub fn preview(&self, index: usize, max_chars: usize) -> std::borrow::Cow<'_, str> {
        let raw = self.raw(index);
        let fresh = self
            .format
            .dialect
            .rules()
            .view(raw, 0..raw.len(), index, PREVIEW_CHARS.max(max_chars))
            .map(|(_, text)| text.preview())
            .unwrap_or_default();
        std::borrow::Cow::Owned(Message::cut_preview(&fresh, max_chars).into_owned())
    }

    /// The output tokens of response `index` as its agent counted them, when its log
    /// recorded usage. A Claude Code log writes each line of a streamed response with the
    /// usage of the stream's start (a few output tokens, 1.0.x to 2.1.4x) while the agent's
    /// own copy of the message gets the final count, which its auto-compact check reads:
    /// where the record is under an eighth of a quarter of the characters of the response's
    /// content, that quarter (Claude Code's own estimate) stands for it.
    pub fn output_tokens_known(&self, index: usize) -> Option<u64> {
        let recorded = self.messages[index].recorded()?.output_tokens;
        if self.format.container != Container::ClaudeCode {
            return Some(recorded);
        }
        // Only a response whose record is far under its content is read again.
        if recorded.saturating_mul(32) >= self.raw(index).len() as u64 {
            return Some(recorded);
        }
        let content = serde_json::from_str::<serde_json::Value>(self.raw(index))
            .ok()
            .and_then(|m| m.get("content").map(|c| c.to_string().len() as u64))
            .unwrap_or_default();
        let quarter = content / 4;
        Some(if recorded.saturating_mul(8) < quarter {
            quarter
        } else {
            recorded
        })
    }

    /// The JSON text of message `index`: as rewritten, else as read (a merged Claude Code
    /// response is its merged JSON).
    pub fn raw(&self, index: usize) -> &str {
        if let Some(json) = self.overrides.get(&index) {
            return json;
        }
        let message = &self.messages[index];
        message.synthetic().unwrap_or(&self.text[message.span.clone()])
    }

    /// The text between two consecutive messages (`",\n  "` in a pretty array, `"\n"` in
    /// JSONL); new messages are joined with it so they match the file's layout.
    pub fn separator(&self) -> &str {
        match self.messages.as_slice() {
            [a, b, ..] => &self.text[a.span.end..b.span.start],
            _ if self.format.container == Container::Jsonl => "\n",
            _ => ",",
        }
    }

    /// The text before the first message and after the last one.
    pub fn surroundings(&self) -> (&str, &str) {
        match (self.messages.first(), self.messages.last()) {
            (Some(first), Some(last)) => (&self.text[..first.span.start], &self.text[last.span.end..]),
            _ => (&self.text, ""),
        }
    }

    /// The byte range of messages `range` with the separators between them.
    pub fn run_bytes(&self, range: Range<usize>) -> Range<usize> {
        if range.is_empty() {
            return 0..0;
        }
        self.messages[range.start].span.start..self.messages[range.end - 1].span.end
    }
}

/// The dialect and messages of a list of messages split into `split.spans`, each
/// message's raw JSON parsed (in parallel) into its view. A list no item announces is
/// chat, read by the reader both chat dialects share and told apart afterwards.
fn parse_list(source: &str, text: &str, split: &format::Split) -> Result<(Dialect, Vec<Message>), LoadError> {
    let sniffed = split.dialect_hint.or_else(|| dialect::sniff(text, &split.spans));
    let dialect = sniffed.unwrap_or(Dialect::OpenAi);
    let messages = parse_messages(source, text, &split.spans, dialect, split.depth_checked)?;
    Ok((sniffed.unwrap_or_else(|| dialect::chat_dialect(&messages)), messages))
}

fn parse_messages(
    source: &str,
    text: &str,
    spans: &[Range<usize>],
    dialect: Dialect,
    depth_checked: bool,
) -> Result<Vec<Message>, LoadError> {
    // Collected straight into their final place (no intermediate lists): a million
    // messages are parsed in parallel without holding them twice.
    let mut parsed: Vec<Option<Message>> = Vec::new();
    spans
        .par_iter()
        .enumerate()
        .map(|(index, span)| parse_message(source, text, span, index, dialect, depth_checked).ok())
        .collect_into_vec(&mut parsed);
    if let Some(index) = parsed.iter().position(Option::is_none) {
        // The first bad message, parsed again for its error.
        return Err(parse_message(source, text, &spans[index], index, dialect, false).expect_err("it failed once"));
    }
    // Same size as `Option<Message>` (a niche), so this reuses the vector in place.
    Ok(parsed.into_iter().map(|m| m.expect("every message parsed")).collect())
}

/// One message's view, or the error naming its place.
fn parse_message(
    source: &str,
    text: &str,
    span: &Range<usize>,
    index: usize,
    dialect: Dialect,
    depth_checked: bool,
) -> Result<Message, LoadError> {
    let raw = &text[span.clone()];
    if !raw.starts_with('{') {
        // Not an object: first say where it is not even JSON, if it is not.
        if let Err(e) = serde_json::from_str::<&serde_json::value::RawValue>(raw) {
            return Err(format::json_error(source, text, span.start, &e));
        }
        return Err(LoadError::at(
            source,
            Position::of_offset(text, span.start),
            format!("message {index} is not a JSON object (found {})", json_kind(raw)),
        ));
    }
    // The structural scan already measured the nesting of a list's elements.
    if let Some(at) = (!depth_checked).then(|| too_deep(raw, MAX_DEPTH)).flatten() {
        return Err(LoadError::at(
            source,
            Position::of_offset(text, span.start + at),
            format!("message {index}: JSON nested deeper than {MAX_DEPTH} levels"),
        ));
    }
    dialect
        .rules()
        .view(raw, span.clone(), index, 0)
        .map(|(m, _)| m)
        .map_err(|e| {
            let at = span.start + Position::offset_of_serde(raw, e.line(), e.column());
            LoadError::at(
                source,
                Position::of_offset(text, at),
                format!("message {index}: {}", format::serde_reason(&e)),
            )
        })
}

/// The deepest nesting a message may have: `serde_json`'s own recursion limit, so every
/// message can also be parsed into a `Value` (the BPE counters do).
const MAX_DEPTH: usize = 128;

/// The offset of the first bracket nested deeper than `limit` in valid JSON `raw`.
/// String bodies are skipped with `memchr`, so this costs little beside parsing.
fn too_deep(raw: &str, limit: usize) -> Option<usize> {
    let bytes = raw.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while let Some(at) = memchr::memchr2(b'"', b'\\', &bytes[i..]) {
                    i += at + 1;
                    if bytes[i - 1] == b'"' {
                        break;
                    }
                    i += 1; // the escaped character
                }
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > limit {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// What a (valid, non-object) JSON value is, from its first character.
fn json_kind(raw: &str) -> &'static str {
    match raw.as_bytes().first() {
        Some(b'n') => "null",
        Some(b't' | b'f') => "a boolean",
        Some(b'"') => "a string",
        Some(b'[') => "an array",
        _ => "a number",
    }
}

/// The readable text of a top-level system prompt: a string, text blocks, or Gemini's
/// `{parts: [{text}]}`.
fn system_text(raw: &str) -> String {
    match serde_json::from_str::<Value>(raw) {
        Ok(Value::String(s)) => s,
        Ok(Value::Object(o)) => o
            .get("parts")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        Ok(Value::Array(blocks)) => blocks
            .iter()
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => raw.to_owned(),
    }
}

/// A string field of one log record, at its top level or in its `payload` (Codex). Only
/// a line that names the key is parsed (a scan asks this of every session).
fn string_field(line: &str, key: &str) -> Option<String> {
    if !line.contains(&format!("\"{key}\"")) {
        return None;
    }
    let value: serde_json::Value = serde_json::from_str(line).ok()?;
    value
        .get(key)
        .or_else(|| value.get("payload").and_then(|p| p.get(key)))
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::too_deep;
    use super::*;

    /// A list of messages large enough to be scanned in halves, pretty-printed.
    fn large_list() -> String {
        let message = r#"{"role": "user", "content": "a line, [with] {brackets} and \"quotes\""}"#;
        let mut text = String::from("[\n");
        while text.len() < 5 << 20 {
            text.push_str("  ");
            text.push_str(message);
            text.push_str(",\n");
        }
        text.push_str("  ");
        text.push_str(message);
        text.push_str("\n]\n");
        text
    }

    /// The error of loading `text` with the one-pass scan only.
    fn one_pass_error(text: &str) -> String {
        let split = format::split("t.json", text, 0, None, Scan::OnePass);
        match split.and_then(|split| parse_list("t.json", text, &split)) {
            Ok(_) => panic!("the text is faulty"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_large_list_loads_from_its_halves_as_from_one_pass() {
        let text = large_list();
        let halves = format::split("t.json", &text, 0, None, Scan::Halves).expect("splits");
        let one_pass = format::split("t.json", &text, 0, None, Scan::OnePass).expect("splits");
        assert!(halves.in_halves && !one_pass.in_halves);
        assert_eq!(halves.spans, one_pass.spans);
        let loaded = Transcript::parse("t.json", text.into_bytes(), None).expect("loads");
        assert_eq!(loaded.messages.len(), one_pass.spans.len());
    }

    /// Faults in the second half (where the halves scan starts blind) are named exactly
    /// as the one-pass scan names them.
    #[test]
    fn a_fault_in_a_large_list_is_named_as_one_pass_names_it() {
        let text = large_list();
        let late = text.len() * 3 / 4;
        let late = late + text[late..].find("\"content\"").expect("a message");
        let comma = late + text[late..].find("},\n").expect("a next message") + 1;
        let faults = [
            // A raw line break inside a string: the second half may start inside it.
            format!("{}\n{}", &text[..late + 14], &text[late + 14..]),
            // A missing comma between two late messages.
            format!("{}{}", &text[..comma], &text[comma + 1..]),
            // A bracket that closes the list early.
            format!("{}]{}", &text[..late - 1], &text[late - 1..]),
            // Text after the list.
            format!("{text}x"),
        ];
        for faulty in faults {
            let Err(error) = Transcript::parse("t.json", faulty.clone().into_bytes(), None) else {
                panic!("the text is faulty");
            };
            assert_eq!(error.to_string(), one_pass_error(&faulty));
        }
    }

    #[test]
    fn a_message_stays_small() {
        // The header every message has; what only some have is boxed.
        assert!(
            std::mem::size_of::<super::Message>() <= 56,
            "{}",
            std::mem::size_of::<super::Message>()
        );
        assert_eq!(
            std::mem::size_of::<Option<super::Message>>(),
            std::mem::size_of::<super::Message>()
        );
    }

    #[test]
    fn depth_is_measured_outside_strings_only() {
        assert_eq!(too_deep(r#"{"a":[[1]]}"#, 3), None);
        assert_eq!(too_deep(r#"{"a":[[[1]]]}"#, 3), Some(7));
        assert_eq!(too_deep(r#"{"a":"[[[[\"[[[["}"#, 1), None);
        assert_eq!(too_deep(r#"{"a":"\\"}"#, 1), None);
    }
}
