//! The parsed view of one message: its role, readable text, the tool calls it makes and
//! the tool results it carries, and whether it is a §7F boundary (a human turn).
//! The raw JSON text stays in the transcript; this view only points at it.

use std::ops::Range;

use serde_json::{Map, Value};

/// One tool call a message makes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The call id (`tool_calls[].id`, `tool_use.id`, or a synthetic id for legacy
    /// `function_call`).
    pub id: String,
    /// The tool's name.
    pub name: String,
}

/// One message of a transcript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Byte range of the message's raw JSON text in [`super::Transcript::text`].
    pub span: Range<usize>,
    /// `role`, or the empty string when the message has none.
    pub role: String,
    /// Readable text: content strings, text blocks, tool call names and arguments.
    pub text: String,
    /// Tool calls made by this message.
    pub tool_calls: Vec<ToolCall>,
    /// Ids of the tool calls this message answers.
    pub tool_results: Vec<String>,
    /// §7F rule 3: `role == "user"` and content is not a list holding a `tool_result`.
    pub boundary: bool,
    /// The message uses Anthropic content blocks (`tool_use`, `tool_result`, `thinking`…).
    pub anthropic_blocks: bool,
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

impl Message {
    /// Builds the view of a message object. `index` names legacy function calls.
    pub fn from_object(object: &Map<String, Value>, span: Range<usize>, index: usize) -> Message {
        let role = object
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let content = object.get("content");
        let mut view = Message {
            span,
            role,
            text: String::new(),
            tool_calls: Vec::new(),
            tool_results: Vec::new(),
            boundary: false,
            anthropic_blocks: false,
        };
        let mut has_tool_result_block = false;
        match content {
            Some(Value::String(s)) => view.text.push_str(s),
            Some(Value::Array(blocks)) => {
                for block in blocks {
                    has_tool_result_block |= view.read_block(block);
                }
            }
            _ => {}
        }
        view.read_openai_calls(object, index);
        view.boundary = view.role == "user" && !has_tool_result_block;
        view
    }

    /// Reads one content block; returns true for a `tool_result` block.
    fn read_block(&mut self, block: &Value) -> bool {
        let kind = block.get("type").and_then(Value::as_str).unwrap_or_default();
        self.anthropic_blocks |= ANTHROPIC_BLOCKS.contains(&kind);
        match kind {
            "text" | "input_text" | "output_text" => {
                self.push_text(block.get("text").and_then(Value::as_str).unwrap_or_default());
            }
            "tool_use" => {
                let call = ToolCall {
                    id: str_field(block, "id"),
                    name: str_field(block, "name"),
                };
                let input = block.get("input").map(Value::to_string).unwrap_or_default();
                self.push_text(&format!("→ {}({input})", call.name));
                self.tool_calls.push(call);
            }
            "tool_result" => {
                self.tool_results.push(str_field(block, "tool_use_id"));
                self.push_text(&flatten_text(block.get("content")));
                return true;
            }
            "thinking" => {
                self.push_text(&format!("[thinking] {}", str_field(block, "thinking")));
            }
            "" => self.push_text(&flatten_text(Some(block))),
            other => self.push_text(&format!("[{other}]")),
        }
        false
    }

    fn read_openai_calls(&mut self, object: &Map<String, Value>, index: usize) {
        if let Some(Value::Array(calls)) = object.get("tool_calls") {
            for call in calls {
                let function = call.get("function");
                let name = function.map(|f| str_field(f, "name")).unwrap_or_default();
                let arguments = function.map(|f| str_field(f, "arguments")).unwrap_or_default();
                self.push_text(&format!("→ {name}({arguments})"));
                self.tool_calls.push(ToolCall {
                    id: str_field(call, "id"),
                    name,
                });
            }
        }
        if let Some(function_call @ Value::Object(_)) = object.get("function_call") {
            let name = str_field(function_call, "name");
            self.push_text(&format!("→ {name}({})", str_field(function_call, "arguments")));
            self.tool_calls.push(ToolCall {
                id: legacy_call_id(index),
                name,
            });
        }
        if let Some(Value::String(id)) = object.get("tool_call_id") {
            self.tool_results.push(id.clone());
        }
        // SWE-agent writes the plural form.
        if let Some(Value::Array(ids)) = object.get("tool_call_ids") {
            self.tool_results
                .extend(ids.iter().filter_map(Value::as_str).map(str::to_owned));
        }
    }

    fn push_text(&mut self, text: &str) {
        if text.is_empty() {
            return;
        }
        if !self.text.is_empty() {
            self.text.push('\n');
        }
        self.text.push_str(text);
    }

    /// A one-line preview of at most `max_chars` characters.
    pub fn preview(&self, max_chars: usize) -> String {
        let mut out = String::with_capacity(max_chars.min(self.text.len()));
        let mut last_was_space = true;
        for c in self.text.chars() {
            if out.chars().count() >= max_chars {
                out.pop();
                out.push('…');
                break;
            }
            let c = if c.is_whitespace() { ' ' } else { c };
            if c == ' ' && last_was_space {
                continue;
            }
            last_was_space = c == ' ';
            out.push(c);
        }
        out.trim_end().to_owned()
    }
}

/// The id ctxlens gives a legacy `function_call` (it has none of its own).
pub fn legacy_call_id(index: usize) -> String {
    format!("function_call@{index}")
}

fn str_field(value: &Value, key: &str) -> String {
    value.get(key).and_then(Value::as_str).unwrap_or_default().to_owned()
}

/// Text of a tool result's content: a string, or the text of its blocks.
fn flatten_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item.get("text").and_then(Value::as_str) {
                Some(t) => t.to_owned(),
                None => format!("[{}]", item.get("type").and_then(Value::as_str).unwrap_or("block")),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(json: &str) -> Message {
        let value: Value = serde_json::from_str(json).expect("test JSON is valid");
        Message::from_object(value.as_object().expect("an object"), 0..json.len(), 7)
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
            openai.tool_calls.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
            ["a", "b"]
        );
        let anthropic = view(r#"{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"f","input":{}}]}"#);
        assert_eq!(anthropic.tool_calls[0].name, "f");
        assert!(anthropic.anthropic_blocks);
        let swe = view(r#"{"role":"tool","tool_call_ids":["x","y"],"content":"ok"}"#);
        assert_eq!(swe.tool_results, ["x", "y"]);
        let legacy = view(r#"{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}}"#);
        assert_eq!(legacy.tool_calls[0].id, "function_call@7");
        let null_call = view(r#"{"role":"assistant","content":"x","function_call":null}"#);
        assert!(null_call.tool_calls.is_empty());
    }

    #[test]
    fn preview_is_one_line_and_bounded() {
        let m = view(r#"{"role":"user","content":"line one\n\n  line   two and more words"}"#);
        assert_eq!(m.preview(100), "line one line two and more words");
        assert_eq!(m.preview(10), "line one …");
    }
}
