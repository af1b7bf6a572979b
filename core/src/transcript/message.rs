//! The parsed view of one message: its role, a one-line preview, the tool calls it makes
//! and the tool results it carries, and whether it is a §7F boundary (a human turn).
//!
//! The raw JSON text stays in the transcript; the view only points at it. Parsing is
//! typed and borrowing (unknown keys are skipped, nothing is built for them), and only a
//! bounded preview of the text is kept; [`readable_text`] rebuilds the full text on demand.

use std::borrow::Cow;
use std::ops::Range;

use serde::Deserialize;
use serde_json::value::RawValue;

/// Characters of readable text kept per message for list rows.
pub const PREVIEW_CHARS: usize = 160;

/// One tool call a message makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The call id (`tool_calls[].id`, `tool_use.id`, or a synthetic id for legacy
    /// `function_call`).
    pub id: String,
    /// The tool's name.
    pub name: String,
}

/// A message's role, without a heap allocation for the roles every format uses.
#[derive(Clone, PartialEq, Eq, Hash)]
pub enum Role {
    /// `system`.
    System,
    /// `user`.
    User,
    /// `assistant`.
    Assistant,
    /// `tool`.
    Tool,
    /// Anything else (`developer`, `function`, `function_call`, `reasoning`, `event`…).
    Other(Box<str>),
}

impl Role {
    /// The role named `name`.
    pub fn new(name: &str) -> Role {
        match name {
            "system" => Role::System,
            "user" => Role::User,
            "assistant" => Role::Assistant,
            "tool" => Role::Tool,
            other => Role::Other(other.into()),
        }
    }

    /// Its name.
    pub fn as_str(&self) -> &str {
        match self {
            Role::System => "system",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
            Role::Other(name) => name,
        }
    }
}

impl std::ops::Deref for Role {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for Role {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Role {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl std::fmt::Debug for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Role {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What only some messages have, kept apart (and shared between copies of a message) so
/// a plain message stays small (a transcript of a million short messages is mostly these
/// headers): its tool calls and results, the log records behind it, a rewritten JSON,
/// recorded usage.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Extra {
    /// Tool calls made by this message.
    pub tool_calls: Vec<ToolCall>,
    /// Ids of the tool calls this message answers.
    pub tool_results: Vec<String>,
    /// For log formats (Claude Code, Codex): the whole JSONL records behind the message,
    /// written back byte for byte on export. Empty for plain message lists.
    pub records: Vec<Range<usize>>,
    /// The message's JSON when it is not a slice of the input (a Claude Code response
    /// split over several lines, merged). Set through [`Message::set_synthetic`] only,
    /// which keeps the message's own flag for it.
    synthetic: Option<String>,
    /// Usage the provider recorded for the response this message is (or precedes).
    pub recorded: Option<Recorded>,
    /// The log recorded a usage that cannot be real (see [`Recorded::is_plausible`]):
    /// left out of `recorded`, so of every fit, meter and cost, and said.
    pub implausible_usage: bool,
    /// For a tool's output: the most of it, in tokens, the agent kept in the history it
    /// sends, where the log holds it whole (Codex truncates each output to its turn's
    /// `truncation_policy` as it records it in the history; the rollout keeps it all).
    pub kept_output_tokens: Option<u64>,
}

/// One message of a transcript: about 56 bytes, plus its shared extras when it has any.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent facts about one message, read by many
pub struct Message {
    /// Byte range of the message's raw JSON text in [`super::Transcript::text`].
    pub(crate) span: Range<usize>,
    /// `role`, or the empty string when the message has none.
    pub(crate) role: Role,
    /// §7F rule 3: `role == "user"` and content is not a list holding a `tool_result`.
    pub(crate) boundary: bool,
    /// The message uses Anthropic content blocks (`tool_use`, `tool_result`, `thinking`…).
    pub(crate) anthropic_blocks: bool,
    /// This message is a past compaction's summary (Claude Code `isCompactSummary`).
    pub(crate) past_summary: bool,
    /// Rebuilt from a client event (a Codex `event_msg` `user_message` whose prompt the
    /// history does not hold), not read from a message record.
    pub(crate) from_event: bool,
    /// Its JSON is `extra.synthetic`: said here so that reading any message's text does
    /// not first load its boxed extras (a cache miss per message with calls or results).
    has_synthetic: bool,
    /// Keys beyond what its API request carries (see [`crate::transcript::request`]).
    pub(crate) shape: RequestShape,
    /// Calls, results, records, rewritten JSON, usage: shared, `None` when it has none.
    extra: Option<std::sync::Arc<Extra>>,
}

/// Token usage a log recorded for one model response, split as the provider bills it:
/// the prompt's uncached input, what it wrote to the cache (by lifetime) and what it read
/// from it, and the output. Costs (a cache write is dearer than input, a read far
/// cheaper) and predictions stand on the split; [`Recorded::context_tokens`] is the
/// whole prompt.
///
/// How each log's fields map (saturating: a log is input, and a forged `u64::MAX` must
/// not wrap):
/// - Claude Code (Anthropic `usage`): `input_tokens` → `input_tokens`;
///   `cache_creation.ephemeral_5m_input_tokens` / `ephemeral_1h_input_tokens` → the two
///   writes (without that split, all of `cache_creation_input_tokens` is a 5-minute write,
///   the API's default lifetime); `cache_read_input_tokens` → `cache_read_tokens`.
/// - Codex (`token_count` `last_token_usage`, OpenAI's convention): `input_tokens` includes
///   `cached_input_tokens`, so the uncached input is the difference and the cached part a
///   read; `reasoning_output_tokens` is part of `output_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Recorded {
    /// Prompt tokens billed as plain input (neither written to nor read from a cache).
    pub input_tokens: u64,
    /// Prompt tokens written to the cache with a 5-minute lifetime.
    pub cache_write_5m_tokens: u64,
    /// Prompt tokens written to the cache with a 1-hour lifetime.
    pub cache_write_1h_tokens: u64,
    /// Prompt tokens read from the cache.
    pub cache_read_tokens: u64,
    /// Output tokens of the response (reasoning included).
    pub output_tokens: u64,
    /// Of the output, the reasoning tokens, where the log says.
    pub reasoning_tokens: u64,
}

/// More tokens than any model's window holds, many times over (the largest windows are
/// ten million): a usage over it is a corrupt or hand-edited log, not a request.
pub const IMPLAUSIBLE_TOKENS: u64 = 100_000_000;

impl Recorded {
    /// Whether a provider could have billed it: every figure under
    /// [`IMPLAUSIBLE_TOKENS`] (`u64::MAX` in a log would otherwise saturate every sum and
    /// fit it touches).
    pub fn is_plausible(&self) -> bool {
        [
            self.input_tokens,
            self.cache_write_5m_tokens,
            self.cache_write_1h_tokens,
            self.cache_read_tokens,
            self.output_tokens,
            self.reasoning_tokens,
        ]
        .iter()
        .all(|&t| t < IMPLAUSIBLE_TOKENS)
            && self.context_tokens() < IMPLAUSIBLE_TOKENS
    }

    /// The whole prompt the provider counted: input, cache writes and cache reads.
    pub fn context_tokens(&self) -> u64 {
        self.input_tokens
            .saturating_add(self.cache_write_tokens())
            .saturating_add(self.cache_read_tokens)
    }

    /// Prompt tokens written to the cache, whatever their lifetime.
    pub fn cache_write_tokens(&self) -> u64 {
        self.cache_write_5m_tokens.saturating_add(self.cache_write_1h_tokens)
    }

    /// These and `other`, part by part (the usage of two requests together).
    #[must_use]
    pub fn plus(&self, other: &Recorded) -> Recorded {
        Recorded {
            input_tokens: self.input_tokens.saturating_add(other.input_tokens),
            cache_write_5m_tokens: self.cache_write_5m_tokens.saturating_add(other.cache_write_5m_tokens),
            cache_write_1h_tokens: self.cache_write_1h_tokens.saturating_add(other.cache_write_1h_tokens),
            cache_read_tokens: self.cache_read_tokens.saturating_add(other.cache_read_tokens),
            output_tokens: self.output_tokens.saturating_add(other.output_tokens),
            reasoning_tokens: self.reasoning_tokens.saturating_add(other.reasoning_tokens),
        }
    }
}

/// Block types that only the Anthropic Messages API uses.
const ANTHROPIC_BLOCKS: &[&str] = &[
    "tool_use",
    "tool_result",
    "thinking",
    "redacted_thinking",
    "server_tool_use",
    "web_search_tool_result",
    "compaction",
];

/// The keys ctxlens reads; every other key is skipped without being built, but noted
/// (see [`RequestShape`]): a key the provider's API does not accept is trajectory
/// metadata or a log envelope, never part of the request.
#[derive(Default)]
struct Fields<'a> {
    role: Option<&'a RawValue>,
    content: Option<&'a RawValue>,
    tool_calls: Option<&'a RawValue>,
    tool_call_id: Option<&'a RawValue>,
    tool_call_ids: Option<&'a RawValue>,
    function_call: Option<&'a RawValue>,
    /// The reasoning `DeepSeek` (and compatible APIs) put beside an assistant's content.
    reasoning_content: Option<&'a RawValue>,
    shape: RequestShape,
}

/// Which keys beyond a dialect's own a message carries: whether it must be trimmed to be
/// counted as its API request carries it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RequestShape {
    /// Keys the OpenAI chat API does not accept (or SWE-agent's plural `tool_call_ids`).
    pub beyond_openai: bool,
    /// Keys beyond the Anthropic/Gemini message's `role` and `content`.
    pub beyond_role_content: bool,
}

/// The message keys the OpenAI chat API (and compatible APIs) accept.
pub(crate) const OPENAI_MESSAGE_KEYS: &[&str] = &[
    "role",
    "content",
    "name",
    "tool_calls",
    "tool_call_id",
    "function_call",
    "refusal",
    "audio",
    // DeepSeek and compatible reasoning APIs take the reasoning back with tool calls.
    "reasoning_content",
    "prefix",
    "partial",
];

impl<'de: 'a, 'a> Deserialize<'de> for Fields<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct FieldsVisitor<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for FieldsVisitor<'a> {
            type Value = Fields<'a>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object (a message)")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Fields<'a>, A::Error> {
                let mut fields = Fields::default();
                while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                    let slot = match key.as_ref() {
                        "role" => &mut fields.role,
                        "content" => &mut fields.content,
                        "tool_calls" => &mut fields.tool_calls,
                        "tool_call_id" => &mut fields.tool_call_id,
                        "tool_call_ids" => &mut fields.tool_call_ids,
                        "function_call" => &mut fields.function_call,
                        "reasoning_content" => {
                            fields.shape.beyond_role_content = true;
                            &mut fields.reasoning_content
                        }
                        other => {
                            fields.shape.beyond_openai |= !OPENAI_MESSAGE_KEYS.contains(&other);
                            fields.shape.beyond_role_content = true;
                            map.next_value::<serde::de::IgnoredAny>()?;
                            continue;
                        }
                    };
                    *slot = Some(map.next_value()?);
                }
                let shape = &mut fields.shape;
                shape.beyond_role_content |= fields.tool_calls.is_some()
                    || fields.tool_call_id.is_some()
                    || fields.tool_call_ids.is_some()
                    || fields.function_call.is_some();
                // SWE-agent's plural form is not what the API takes.
                shape.beyond_openai |= fields.tool_call_ids.is_some();
                Ok(fields)
            }
        }
        deserializer.deserialize_map(FieldsVisitor(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(borrow, default, rename = "type")]
    kind: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    text: Option<&'a RawValue>,
    #[serde(borrow, default)]
    thinking: Option<&'a RawValue>,
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    input: Option<&'a RawValue>,
    #[serde(borrow, default)]
    tool_use_id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    content: Option<&'a RawValue>,
    /// An Anthropic `image` or `document` block's `source` object (`base64`, `url`,
    /// `file`): what tells Anthropic's media blocks from other clients' `image` blocks
    /// (LangChain's carry `source_type`, OpenAI's are `image_url`).
    #[serde(borrow, default)]
    source: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct OpenAiCall<'a> {
    #[serde(borrow, default)]
    id: Option<&'a RawValue>,
    #[serde(borrow, default)]
    function: Option<Function<'a>>,
}

#[derive(Deserialize)]
struct Function<'a> {
    #[serde(borrow, default)]
    name: Option<&'a RawValue>,
    #[serde(borrow, default)]
    arguments: Option<&'a RawValue>,
}

impl Message {
    /// The same message in a text `by` bytes longer in front (a log read on from where
    /// an earlier read stopped): its span and its records' ranges moved by `by`.
    pub(crate) fn shift(&mut self, by: usize) {
        self.span = self.span.start + by..self.span.end + by;
        if let Some(extra) = &mut self.extra {
            for record in &mut std::sync::Arc::make_mut(extra).records {
                *record = record.start + by..record.end + by;
            }
        }
    }

    /// Byte range of the message's raw JSON text in [`super::Transcript::text`].
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// `role`, or the empty string when the message has none.
    pub fn role(&self) -> &Role {
        &self.role
    }

    /// §7F rule 3: `role == "user"` and content is not a list holding a `tool_result`.
    pub fn boundary(&self) -> bool {
        self.boundary
    }

    /// The message uses Anthropic content blocks (`tool_use`, `tool_result`, `thinking`…).
    pub fn anthropic_blocks(&self) -> bool {
        self.anthropic_blocks
    }

    /// This message is a past compaction's summary (Claude Code `isCompactSummary`).
    pub fn past_summary(&self) -> bool {
        self.past_summary
    }

    /// Rebuilt from a client event (a Codex `event_msg` `user_message` whose prompt the
    /// history does not hold), not read from a message record.
    pub fn from_event(&self) -> bool {
        self.from_event
    }

    /// Keys beyond what its API request carries (see [`crate::transcript::request`]).
    pub fn shape(&self) -> RequestShape {
        self.shape
    }

    /// A message with `role` and nothing read yet; the views fill it in.
    pub(crate) fn empty(span: Range<usize>, role: &str) -> Message {
        Message {
            span,
            role: Role::new(role),
            boundary: false,
            anthropic_blocks: false,
            past_summary: false,
            from_event: false,
            has_synthetic: false,
            shape: RequestShape::default(),
            extra: None,
        }
    }

    /// Builds the view of a message's raw JSON; `index` names legacy function calls.
    /// Fails only when the text is not a JSON object.
    pub fn parse(raw: &str, span: Range<usize>, index: usize) -> Result<Message, serde_json::Error> {
        let (message, _) = read(raw, span, index, 0)?;
        Ok(message)
    }

    /// Tool calls made by this message.
    pub fn tool_calls(&self) -> &[ToolCall] {
        self.extra.as_ref().map_or(&[], |e| &e.tool_calls)
    }

    /// Ids of the tool calls this message answers.
    pub fn tool_results(&self) -> &[String] {
        self.extra.as_ref().map_or(&[], |e| &e.tool_results)
    }

    /// The log records behind it (empty for plain message lists).
    pub fn records(&self) -> &[Range<usize>] {
        self.extra.as_ref().map_or(&[], |e| &e.records)
    }

    /// Its JSON when it is not a slice of the input.
    pub fn synthetic(&self) -> Option<&str> {
        if !self.has_synthetic {
            return None;
        }
        self.extra.as_ref().and_then(|e| e.synthetic.as_deref())
    }

    /// Makes `json` the message's JSON, in place of its slice of the input.
    pub(crate) fn set_synthetic(&mut self, json: String) {
        self.extra_mut().synthetic = Some(json);
        self.has_synthetic = true;
    }

    /// Usage the provider recorded for it.
    pub fn recorded(&self) -> Option<Recorded> {
        self.extra.as_ref().and_then(|e| e.recorded)
    }

    /// For a tool's output the log holds whole: the most of it, in tokens, the agent
    /// kept in the history it sends.
    pub fn kept_output_tokens(&self) -> Option<u64> {
        self.extra.as_ref().and_then(|e| e.kept_output_tokens)
    }

    /// Its extras, made on first use.
    pub(crate) fn extra_mut(&mut self) -> &mut Extra {
        // Shared between copies of a message (a log read on copies every message it
        // keeps): a change makes this copy its own.
        std::sync::Arc::make_mut(self.extra.get_or_insert_with(std::sync::Arc::default))
    }

    /// Sets the recorded usage (nothing is allocated for none).
    pub(crate) fn set_recorded(&mut self, recorded: Option<Recorded>) {
        if recorded.is_some_and(|r| !r.is_plausible()) {
            let extra = self.extra_mut();
            extra.recorded = None;
            extra.implausible_usage = true;
            return;
        }
        if recorded.is_some() || self.extra.is_some() {
            self.extra_mut().recorded = recorded;
        }
    }

    /// The log recorded a usage for this message that cannot be real, and it was left out.
    pub fn implausible_usage(&self) -> bool {
        self.extra.as_ref().is_some_and(|e| e.implausible_usage)
    }

    /// `preview` cut to `max_chars` characters, ending in `…` when cut.
    pub fn cut_preview(preview: &str, max_chars: usize) -> Cow<'_, str> {
        if preview.chars().count() <= max_chars {
            return Cow::Borrowed(preview);
        }
        let mut cut: String = preview.chars().take(max_chars.saturating_sub(1)).collect();
        cut.push('…');
        Cow::Owned(cut)
    }
}

/// The full readable text of a message: content strings, text blocks, tool calls with
/// their arguments, tool results (newlines kept).
pub fn readable_text(raw: &str) -> String {
    match read(raw, 0..raw.len(), 0, usize::MAX) {
        Ok((_, text)) => text.finish(),
        Err(_) => raw.to_owned(),
    }
}

/// Reads the view and up to `limit` characters of text in one pass.
pub(crate) fn read(
    raw: &str,
    span: Range<usize>,
    index: usize,
    limit: usize,
) -> Result<(Message, TextBuilder), serde_json::Error> {
    let fields: Fields = serde_json::from_str(raw)?;
    let mut message = Message::empty(span, &fields.role.map(string_of).unwrap_or_default());
    message.shape = fields.shape;
    let mut text = TextBuilder::new(limit);
    let mut has_tool_result_block = false;
    // The reasoning first, as a thinking block is read: the model wrote it before its
    // answer, and it is what the provider bills as thinking.
    if let Some(reasoning) = fields
        .reasoning_content
        .filter(|r| r.get().starts_with('"') && r.get() != "\"\"")
    {
        text.push_str("[thinking] ");
        text.push_json(reasoning);
        text.push_str("\n");
    }
    if let Some(content) = fields.content {
        if content.get().starts_with('[') {
            let blocks: Vec<Block> = serde_json::from_str(content.get()).unwrap_or_default();
            for block in &blocks {
                has_tool_result_block |= read_block(&mut message, &mut text, block);
            }
            // The summary ctxlens writes for an Anthropic export with `--summary-role
            // user` (a text block) marks the file as Anthropic, even when nothing else
            // does (every tool block summarized away).
            message.anthropic_blocks |= message.role == "user"
                && blocks.first().is_some_and(|b| {
                    b.kind.as_deref() == Some("text")
                        && b.text
                            .is_some_and(|t| t.get().starts_with(r#""[Summary of earlier conversation]\n"#))
                });
        } else {
            text.push_json(content);
        }
    }
    read_openai_calls(&mut message, &mut text, &fields, index);
    message.boundary = message.role == "user" && !has_tool_result_block;
    Ok((message, text))
}

/// Reads one content block; returns true for a `tool_result` block.
fn read_block(message: &mut Message, text: &mut TextBuilder, block: &Block) -> bool {
    let kind = block.kind.as_deref().unwrap_or_default();
    message.anthropic_blocks |= ANTHROPIC_BLOCKS.contains(&kind)
        || (matches!(kind, "image" | "document") && block.source.is_some_and(|s| s.get().starts_with('{')));
    match kind {
        "tool_use" => {
            let call = ToolCall {
                id: block.id.map(string_of).unwrap_or_default(),
                name: block.name.map(string_of).unwrap_or_default(),
            };
            text.push_call(&call.name, || block.input.map_or("", RawValue::get).into());
            message.extra_mut().tool_calls.push(call);
        }
        "tool_result" => {
            if !message.tool_results().is_empty() {
                // Several results in one message: keep them apart in the preview.
                text.push_str("│");
            }
            message
                .extra_mut()
                .tool_results
                .push(block.tool_use_id.map(string_of).unwrap_or_default());
            if let Some(content) = block.content {
                text.push_nested(content);
            }
            return true;
        }
        "thinking" => {
            text.push_str("[thinking] ");
            text.push_json_opt(block.thinking);
        }
        _ => match block.text {
            Some(t) => text.push_json(t),
            None => text.push_str(&format!("[{}]", if kind.is_empty() { "block" } else { kind })),
        },
    }
    false
}

fn read_openai_calls(message: &mut Message, text: &mut TextBuilder, fields: &Fields, index: usize) {
    if let Some(calls) = fields.tool_calls.filter(|raw| raw.get().starts_with('[')) {
        let calls: Vec<OpenAiCall> = serde_json::from_str(calls.get()).unwrap_or_default();
        for call in calls {
            let name = call
                .function
                .as_ref()
                .and_then(|f| f.name)
                .map(string_of)
                .unwrap_or_default();
            let arguments = call.function.as_ref().and_then(|f| f.arguments);
            text.push_call(&name, || arguments.map(string_of).unwrap_or_default().into());
            message.extra_mut().tool_calls.push(ToolCall {
                id: call.id.map(string_of).unwrap_or_default(),
                name,
            });
        }
    }
    if let Some(function_call) = fields.function_call.filter(|raw| raw.get().starts_with('{')) {
        if let Ok(function) = serde_json::from_str::<Function>(function_call.get()) {
            let name = function.name.map(string_of).unwrap_or_default();
            text.push_call(&name, || function.arguments.map(string_of).unwrap_or_default().into());
            message.extra_mut().tool_calls.push(ToolCall {
                id: legacy_call_id(index),
                name,
            });
        }
    }
    // An id is a string; a number is taken as its text, as call ids are, so a numeric
    // call and its numeric result still pair.
    let scalar = |raw: &&RawValue| {
        raw.get()
            .starts_with(|c: char| c == '"' || c == '-' || c.is_ascii_digit())
    };
    if let Some(id) = fields.tool_call_id.filter(scalar) {
        message.extra_mut().tool_results.push(string_of(id));
    }
    // SWE-agent writes the plural form.
    if let Some(ids) = fields.tool_call_ids {
        let ids: Vec<Cow<str>> = serde_json::from_str(ids.get()).unwrap_or_default();
        message
            .extra_mut()
            .tool_results
            .extend(ids.into_iter().map(Cow::into_owned));
    }
}

/// The id ctxlens gives a legacy `function_call` (it has none of its own).
pub fn legacy_call_id(index: usize) -> String {
    format!("function_call@{index}")
}

/// A JSON string's value; any other JSON value as its text.
pub(crate) fn string_of(raw: &RawValue) -> String {
    serde_json::from_str::<Cow<str>>(raw.get()).map_or_else(|_| raw.get().to_owned(), Cow::into_owned)
}

/// Accumulates readable text up to a character limit, so a preview never decodes more
/// than it shows.
pub(crate) struct TextBuilder {
    text: String,
    chars: usize,
    limit: usize,
    cut: bool,
}

impl TextBuilder {
    pub(crate) fn new(limit: usize) -> Self {
        TextBuilder {
            text: String::new(),
            chars: 0,
            limit,
            cut: false,
        }
    }

    pub(crate) fn push_str(&mut self, s: &str) {
        if self.cut || s.is_empty() {
            return;
        }
        if !self.text.is_empty() && !self.text.ends_with(['\n', ' ']) {
            self.text.push('\n');
            self.chars += 1;
        }
        // Room for the whole string (a character is at least a byte): one copy. This is
        // every push of a full text (the loss report, search, the extractive summary).
        if self.limit.saturating_sub(self.chars) >= s.len() {
            self.text.push_str(s);
            self.chars += s.chars().count();
            return;
        }
        for c in s.chars() {
            if self.chars >= self.limit {
                self.cut = true;
                return;
            }
            self.text.push(c);
            self.chars += 1;
        }
    }

    /// Like [`TextBuilder::push_str`], taking the string: the first text of a message
    /// (most messages have one) becomes the text without a copy.
    fn push_string(&mut self, s: String) {
        if self.text.is_empty() && !self.cut && s.len() <= self.limit {
            self.chars = s.chars().count();
            self.text = s;
        } else {
            self.push_str(&s);
        }
    }

    /// A JSON string's value, or any other JSON value as written.
    pub(crate) fn push_json(&mut self, raw: &RawValue) {
        if self.cut {
            return;
        }
        let s = raw.get();
        if s == "null" {
            return;
        }
        if s.starts_with('"') {
            // Decode only what the limit lets through (plus room for escapes).
            let budget = self
                .limit
                .saturating_sub(self.chars)
                .saturating_mul(6)
                .saturating_add(8);
            if s.len() <= budget {
                // The whole string (the text is valid JSON): copied run by run between
                // escapes, twice as fast as serde's decoder on escape-dense text.
                self.push_string(decode_string_prefix(s));
                return;
            }
            let end = floor_boundary(s, budget);
            self.push_str(&decode_string_prefix(&s[..end]));
        } else {
            self.push_str(s);
        }
    }

    fn push_json_opt(&mut self, raw: Option<&RawValue>) {
        if let Some(raw) = raw {
            self.push_json(raw);
        }
    }

    /// A tool result's content: a string, or a list of blocks with text.
    fn push_nested(&mut self, content: &RawValue) {
        if content.get().starts_with('[') {
            let blocks: Vec<Block> = serde_json::from_str(content.get()).unwrap_or_default();
            for block in &blocks {
                match block.text {
                    Some(t) => self.push_json(t),
                    None => self.push_str(&format!("[{}]", block.kind.as_deref().unwrap_or("block"))),
                }
            }
        } else {
            self.push_json(content);
        }
    }

    /// A call as `→ name(arguments)`. The arguments are decoded only when the text has
    /// room for them: a load (no text kept) and a preview cut short skip that work.
    pub(crate) fn push_call<'a>(&mut self, name: &str, arguments: impl FnOnce() -> Cow<'a, str>) {
        if self.chars >= self.limit {
            // Any push now only marks the text cut.
            self.push_str("→");
            return;
        }
        self.push_str(&format!("→ {name}({})", arguments()));
    }

    /// The text on one line, whitespace collapsed, `…` when cut.
    pub(crate) fn preview(&self) -> String {
        let mut out = String::with_capacity(self.text.len());
        for word in self.text.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
        if self.cut {
            out.push('…');
        }
        out
    }

    pub(crate) fn finish(self) -> String {
        self.text
    }
}

fn floor_boundary(s: &str, mut at: usize) -> usize {
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// Decodes the JSON string literal `s`, which may be cut short: decoding stops at a cut
/// escape, and a missing closing quote is tolerated. Lone surrogates become U+FFFD.
fn decode_string_prefix(s: &str) -> String {
    let body = s.strip_prefix('"').unwrap_or(s);
    let body = body.strip_suffix('"').unwrap_or(body);
    let mut out = String::with_capacity(body.len());
    let mut rest = body;
    // memchr's vector search: escapes in JSON text are often only a few bytes apart.
    while let Some(at) = memchr::memchr(b'\\', rest.as_bytes()) {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some((c, used)) = decode_escape(rest) else {
            return out; // a cut escape ends the prefix
        };
        out.push(c);
        rest = &rest[used..];
    }
    out.push_str(rest);
    out
}

/// The character of the escape sequence at the start of `s` and its length in bytes.
fn decode_escape(s: &str) -> Option<(char, usize)> {
    let simple = match s.as_bytes().get(1)? {
        b'n' => '\n',
        b't' => '\t',
        b'r' => '\r',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'u' => return decode_unicode_escape(s),
        &other => char::from(other),
    };
    Some((simple, 2))
}

fn decode_unicode_escape(s: &str) -> Option<(char, usize)> {
    let unit = u32::from_str_radix(s.get(2..6)?, 16).ok()?;
    if (0xd800..0xdc00).contains(&unit) && s.get(6..8) == Some("\\u") {
        if let Some(low @ 0xdc00..=0xdfff) = s.get(8..12).and_then(|h| u32::from_str_radix(h, 16).ok()) {
            let c = char::from_u32(0x10000 + ((unit - 0xd800) << 10) + (low - 0xdc00))?;
            return Some((c, 12));
        }
    }
    Some((char::from_u32(unit).unwrap_or('\u{fffd}'), 6))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(json: &str) -> Message {
        Message::parse(json, 0..json.len(), 7).expect("test JSON is an object")
    }

    #[test]
    fn boundaries_follow_rule_3() {
        assert!(view(r#"{"role":"user","content":"hi"}"#).boundary);
        assert!(view(r#"{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image"}]}"#).boundary);
        assert!(
            !view(r#"{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"ok"}]}"#).boundary
        );
        assert!(!view(r#"{"role":"tool","tool_call_id":"c1","content":"ok"}"#).boundary);
        assert!(!view(r#"{"role":"assistant","content":"hi"}"#).boundary);
        assert!(!view(r#"{"role":"exit","content":"patch"}"#).boundary);
    }

    #[test]
    fn calls_and_results_are_read_in_every_dialect() {
        let openai = view(
            r#"{"role":"assistant","content":null,"tool_calls":[{"id":"a","function":{"name":"f","arguments":"{}"}},{"id":"b","function":{"name":"g","arguments":"{}"}}]}"#,
        );
        assert_eq!(
            openai.tool_calls().iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        let anthropic = view(r#"{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{}}]}"#);
        assert_eq!(anthropic.tool_calls()[0].name, "f");
        assert!(anthropic.anthropic_blocks);
        let swe = view(r#"{"role":"tool","tool_call_ids":["x","y"],"content":"ok"}"#);
        assert_eq!(swe.tool_results(), ["x", "y"]);
        let legacy = view(r#"{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}}"#);
        assert_eq!(legacy.tool_calls()[0].id, "function_call@7");
        let null_call = view(r#"{"role":"assistant","content":"x","function_call":null,"tool_calls":null}"#);
        assert!(null_call.tool_calls().is_empty());
    }

    fn preview_of_test(raw: &str) -> String {
        read(raw, 0..raw.len(), 0, PREVIEW_CHARS)
            .map(|(_, text)| text.preview())
            .unwrap_or_default()
    }

    #[test]
    fn preview_is_one_line_and_bounded() {
        let preview = preview_of_test(r#"{"role":"user","content":"line one\n\n  line   two and more words"}"#);
        assert_eq!(preview, "line one line two and more words");
        assert_eq!(Message::cut_preview(&preview, 10), "line one …");
        let long = format!(r#"{{"role":"user","content":"{}"}}"#, "ab\\n".repeat(500));
        let preview = preview_of_test(&long);
        assert!(preview.ends_with('…'));
        assert!(preview.chars().count() <= PREVIEW_CHARS + 1);
    }

    #[test]
    fn readable_text_is_complete() {
        let raw = r#"{"role":"assistant","content":[{"type":"text","text":"a\nb"},{"type":"tool_use","id":"t","name":"grep","input":{"q":"x"}}]}"#;
        assert_eq!(readable_text(raw), "a\nb\n→ grep({\"q\":\"x\"})");
        let long = format!(r#"{{"role":"user","content":"{}"}}"#, "word ".repeat(1000));
        assert_eq!(readable_text(&long).len(), 5000);
    }

    #[test]
    fn string_prefixes_decode_up_to_a_cut_escape() {
        assert_eq!(
            decode_string_prefix(r#""a\nb \u00e9 \ud83d\ude00 \"q\" \/""#),
            "a\nb é 😀 \"q\" /"
        );
        assert_eq!(decode_string_prefix(r#""abc \u00"#), "abc ");
        assert_eq!(decode_string_prefix(r#""abc \"#), "abc ");
        assert_eq!(decode_string_prefix(r#""lone \ud800 x""#), "lone \u{fffd} x");
    }

    proptest::proptest! {
        /// A whole JSON string decodes as serde decodes it, whatever its escapes.
        #[test]
        fn whole_strings_decode_as_serde_decodes_them(
            body in r#"([a-z é日😀/]|\\["\\/bfnrt]|\\u00[0-7][0-9a-fA-F]|\\u[1-9a-c][0-9a-f]{3}|\\ud83d\\ude00){0,40}"#
        ) {
            let literal = format!("\"{body}\"");
            let want: String = serde_json::from_str(&literal).expect("valid JSON");
            proptest::prop_assert_eq!(decode_string_prefix(&literal), want);
        }
    }
}
