//! `anthropic-context-management`: Anthropic's server-side clearing of old tool results
//! (the Messages API's `context_management` edit `clear_tool_uses_20250919`, beta header
//! `context-management-2025-06-27`) as the API applies it. The edit is the one LangChain
//! copies client-side (`anthropic-clear-tool-uses`, [`super::langchain`]): above a
//! trigger, the oldest tool results but the newest `keep` are replaced by a placeholder
//! (their calls' inputs too with `clear_tool_inputs`), skipping `exclude_tools`, until
//! `clear_at_least` is reclaimed; the client keeps the whole history. What differs is the
//! count: the API triggers on the request's **input tokens as it counts them** — the
//! system prompt and the tools included — where LangChain approximates a quarter of the
//! messages' characters. Here that count is the provider's bill, `overhead + ratio ×
//! counted` (a replay fits both to the log's recorded usage, as for Claude Code).
//! Defaults as the API documents them: `trigger` 100,000 input tokens, `keep` 3 tool
//! uses, nothing else.

use super::chat::ChatMessage;
use super::claude_code::Billing;
use super::langchain::{clear_tool_uses, clearing_fast_view};
use super::running::{FastView, Running};
use super::{Policy, PolicyPlan, PolicySettings, RequestField};
use crate::transcript::Transcript;

/// The edit's type in the request.
const EDIT_TYPE: &str = "clear_tool_uses_20250919";

/// The beta header the request carries.
const BETA_HEADER: &str = "context-management-2025-06-27";

/// The unit of its counts.
const COUNTER: &str = "billed input tokens (overhead + ratio × estimate)";

/// `anthropic-context-management`.
pub struct ServerClearToolUses;

impl ServerClearToolUses {
    /// The API's trigger, in input tokens.
    fn trigger(settings: &PolicySettings) -> Result<u64, crate::Error> {
        settings.number_or("trigger", 100_000)
    }
}

impl Policy for ServerClearToolUses {
    fn name(&self) -> &'static str {
        "anthropic-context-management"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        // The API's own defaults hold whatever the window.
        Vec::new()
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "trigger",
            "keep",
            "clear_at_least",
            "exclude_tools",
            "clear_tool_inputs",
            "overhead",
            "ratio",
        ]
    }

    fn request_config(&self, settings: &PolicySettings) -> Result<Option<RequestField>, crate::Error> {
        // The Messages API's field, as its reference gives it: only what the user set
        // beside the trigger and `keep` (the API's defaults hold for the rest).
        let mut edit = serde_json::Map::new();
        edit.insert("type".into(), EDIT_TYPE.into());
        edit.insert(
            "trigger".into(),
            serde_json::json!({"type": "input_tokens", "value": Self::trigger(settings)?}),
        );
        edit.insert(
            "keep".into(),
            serde_json::json!({"type": "tool_uses", "value": settings.number_or("keep", 3)?}),
        );
        if let Some(tokens) = settings.number("clear_at_least")? {
            edit.insert(
                "clear_at_least".into(),
                serde_json::json!({"type": "input_tokens", "value": tokens}),
            );
        }
        let excluded = settings.list("exclude_tools");
        if !excluded.is_empty() {
            edit.insert("exclude_tools".into(), excluded.into());
        }
        if settings.flag("clear_tool_inputs", false)? {
            edit.insert("clear_tool_inputs".into(), true.into());
        }
        Ok(Some(RequestField {
            body: serde_json::json!({ "context_management": { "edits": [edit] } }),
            beta_header: Some(BETA_HEADER),
        }))
    }

    fn rewrites_history(&self) -> bool {
        false // applied by the server to each request; the client keeps the full history
    }

    fn counts_billed(&self) -> bool {
        true
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        message.counted
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        Ok(Billing::of(settings)?.billed(running.total_cost()) > Self::trigger(settings)?)
    }

    fn fast_view(
        &self,
        settings: &PolicySettings,
        running: &Running,
        placeholder: &dyn Fn(&str) -> u64,
    ) -> Result<Option<FastView>, crate::Error> {
        let over = self.may_act(settings, running)?;
        clearing_fast_view(settings, running, placeholder, over)
    }

    fn plan(&self, transcript: &Transcript, settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        // Without a replay to set them, the bill is fitted to this log's recorded usage.
        let counts = crate::tokens::Counts::compute(transcript, crate::tokens::Tokenizer::Estimate);
        let (settings, notes) = Billing::fitted_to_log(transcript, &counts, settings);
        let mut plan = self.plan_chat(&super::chat_view_counted(transcript, &counts), &settings)?;
        plan.warnings.splice(0..0, notes);
        Ok(plan)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let billing = Billing::of(settings)?;
        let tokens = |chat: &[ChatMessage]| billing.billed(chat.iter().map(|m| m.counted).sum());
        let mut plan = clear_tool_uses(
            PolicyPlan::unchanged(self.name(), COUNTER, chat.len()),
            chat,
            settings,
            &tokens,
        )?;
        billing.warn(&mut plan);
        Ok(plan)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::chat::chat_view;
    use crate::policy::langchain::ClearToolUses;

    /// A session of `n` tool rounds, each result `size` characters long.
    fn rounds(n: usize, size: usize) -> Transcript {
        let mut messages = vec![serde_json::json!({"role": "user", "content": "read every file"})];
        for k in 0..n {
            let id = format!("call_{k}");
            messages.push(serde_json::json!({"role": "assistant", "content": null,
                "tool_calls": [{"id": id, "type": "function", "function": {"name": "read", "arguments": "{}"}}]}));
            messages.push(serde_json::json!({"role": "tool", "tool_call_id": id, "content": "x ".repeat(size / 2)}));
        }
        let text = serde_json::json!({ "messages": messages }).to_string();
        Transcript::parse("rounds.json", text.into_bytes(), None).expect("a transcript")
    }

    #[test]
    fn the_request_field_is_the_apis_edit_with_only_what_was_set() {
        let field = ServerClearToolUses
            .request_config(&PolicySettings::default())
            .expect("valid settings")
            .expect("the API applies it");
        assert_eq!(field.beta_header, Some(BETA_HEADER));
        let edit = &field.body["context_management"]["edits"][0];
        assert_eq!(edit["type"], EDIT_TYPE);
        assert_eq!(
            edit["trigger"],
            serde_json::json!({"type": "input_tokens", "value": 100_000})
        );
        assert_eq!(edit["keep"], serde_json::json!({"type": "tool_uses", "value": 3}));
        assert_eq!(edit.as_object().expect("an object").len(), 3, "{edit}");
        let set = PolicySettings::default()
            .with("trigger", 60_000)
            .with("keep", 5)
            .with("clear_at_least", 8_000)
            .with("exclude_tools", "web_search, memory")
            .with("clear_tool_inputs", "true")
            .with("overhead", 20_000);
        let field = ServerClearToolUses
            .request_config(&set)
            .expect("valid")
            .expect("applied");
        let edit = &field.body["context_management"]["edits"][0];
        assert_eq!(edit["trigger"]["value"], 60_000);
        assert_eq!(edit["keep"]["value"], 5);
        assert_eq!(
            edit["clear_at_least"],
            serde_json::json!({"type": "input_tokens", "value": 8_000})
        );
        assert_eq!(edit["exclude_tools"], serde_json::json!(["web_search", "memory"]));
        assert_eq!(edit["clear_tool_inputs"], true);
        // ctxlens' own model of the bill is not the API's to read.
        assert!(edit.get("overhead").is_none());
    }

    #[test]
    fn the_api_counts_the_system_prompt_and_tools_where_langchain_does_not() {
        let transcript = rounds(10, 2_000);
        let chat = crate::policy::chat_view_counted(
            &transcript,
            &crate::tokens::Counts::compute(&transcript, crate::tokens::Tokenizer::Estimate),
        );
        let counted: u64 = chat.iter().map(|m| m.counted).sum();
        let trigger = counted + 1_000;
        let set = |overhead: u64| {
            PolicySettings::default()
                .with("trigger", trigger)
                .with("overhead", overhead)
                .with("ratio", 1)
        };
        // The messages alone stay under the trigger: neither clears.
        assert!(!ServerClearToolUses.plan_chat(&chat, &set(0)).expect("plans").compacted);
        let approximate = PolicySettings::default().with("trigger", trigger);
        assert!(
            !ClearToolUses
                .plan_chat(&chat_view(&transcript), &approximate)
                .expect("plans")
                .compacted
        );
        // A 20,000-token system prompt and tools put the request over it: the API clears,
        // and keeps the newest three results.
        let plan = ServerClearToolUses.plan_chat(&chat, &set(20_000)).expect("plans");
        assert!(plan.compacted);
        let cleared = plan
            .messages
            .iter()
            .filter(|r| r.section == crate::policy::Section::Cleared)
            .count();
        assert_eq!(cleared, 7);
        assert!(plan.tokens_before.expect("measured") > trigger);
    }
}
