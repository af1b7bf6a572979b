//! Other agents' compactors as policies: when each fires, how it counts, what it keeps,
//! clears or drops, and where its summary goes — replayed on any transcript through one
//! contract ([`PolicyPlan`]), so `compact --policy NAME --plan` answers "what would *my*
//! agent do with this session". The semantics, with their sources, are in
//! `docs/policies.md`; expected outputs of the real LangChain code and of line-by-line
//! ports of the others are checked in `tests/integration/policies.rs`.
//!
//! Every policy reads the same chat view of the transcript ([`chat::chat_view`]) and
//! writes one row per message: `head`/`tail` (kept, before or after the cut), `summarized`,
//! `dropped` or `cleared`. Upstream bugs are reproduced as the agent behaves and named in
//! [`PolicyPlan::warnings`].

#[cfg(test)]
mod added_policy_tests;
pub mod agent_summary;
mod anthropic_api;
pub mod chat;
pub mod claude_code;
pub(crate) mod codex;
pub mod compare;
mod gemini_cli;
mod langchain;
pub mod llm4s;
pub mod opencode;
mod openhands;
mod python_repr;
pub mod render;
pub mod replay;
pub mod replay_cost;
pub mod running;
mod semantic_kernel;
mod settings;
pub mod sweep;
mod toolnexus;

pub use chat::{chat_view, chat_view_counted, written, ChatMessage, Kind};
pub use langchain::approximate_tokens;
pub use opencode::estimate as opencode_estimate;
pub use running::{FastView, Running};
pub use settings::PolicySettings;

use crate::transcript::Transcript;

/// What a policy does with one input message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Section {
    /// Kept verbatim, before the policy's summary or cut.
    Head,
    /// Kept verbatim, after it.
    Tail,
    /// Replaced by the policy's summary.
    Summarized,
    /// Removed without a summary.
    Dropped,
    /// Kept, its content replaced by the policy's placeholder.
    Cleared,
}

/// One input message's fate.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Row {
    /// The message.
    pub index: usize,
    /// Its section.
    pub section: Section,
    /// Kept, but only part of its content.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    /// What a truncated message was cut to, in the policy's counter (Codex).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub truncated_to_tokens: Option<u64>,
    /// An assistant message whose calls' arguments were emptied.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inputs_cleared: bool,
    /// The policy sends this message twice (an upstream bug).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub duplicated: bool,
}

impl Row {
    /// A row with no flags.
    pub fn new(index: usize, section: Section) -> Row {
        Row {
            index,
            section,
            truncated: false,
            truncated_to_tokens: None,
            inputs_cleared: false,
            duplicated: false,
        }
    }
}

/// One message rewritten in place: its position, new count and new text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    /// Its position in the context.
    pub position: usize,
    /// ctxlens' count of it after the edit.
    pub counted: u64,
    /// Its new text.
    pub text: String,
}

/// What a policy does to a context in place (see [`Policy::in_place`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InPlace {
    /// Messages rewritten shorter, each never edited again.
    Edits {
        /// The edits.
        edits: Vec<Edit>,
        /// Every message before this position is settled (edited, or left alone by every
        /// rule): the next action may start here.
        settled: usize,
    },
    /// Messages cleared to the placeholder (ascending positions), with the policy's own
    /// figures before and after.
    Clears {
        /// The positions.
        positions: Vec<usize>,
        /// What their content becomes.
        placeholder: &'static str,
        /// The policy's figure before.
        tokens_before: u64,
        /// And after.
        tokens_after: u64,
    },
}

/// A message the policy adds.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Inserted {
    /// Where, in the output list.
    pub position: usize,
    /// Its role (`user`, `assistant`, `system`).
    pub role: &'static str,
    /// `summary`, `marker`, `reminder`.
    pub kind: &'static str,
    /// Its text's shape (`Here is a summary of the conversation to date:\n\n{summary}`).
    pub text: String,
    /// Its size in ctxlens' count where the text is only part of what the agent sends
    /// (a restored file the log shows in part), else `None` (count the text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
}

/// What a policy would do with a transcript: the contract of `compact --policy … --plan`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct PolicyPlan {
    /// The policy's name.
    pub policy: &'static str,
    /// The unit of `tokens_before` and `tokens_after` (`langchain-approximate`,
    /// `codex-bytes`, `messages`…).
    pub counter: &'static str,
    /// The output differs from the input: it fired and changed something.
    pub compacted: bool,
    /// The input's size in the policy's counter, when it counts tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_before: Option<u64>,
    /// The output's size (summaries not included), when the policy counts tokens.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens_after: Option<u64>,
    /// One row per input message, in order.
    pub messages: Vec<Row>,
    /// What it adds.
    pub inserted: Vec<Inserted>,
    /// The messages its summarizer is sent (LangChain trims them first).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summarizer_input: Option<Vec<usize>>,
    /// Of those, the ones cut to part of their text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub summarizer_input_truncated: Option<Vec<usize>>,
    /// Upstream behaviour a user should know of (an orphan left, an empty summary, a
    /// duplicated head), each a sentence.
    pub warnings: Vec<String>,
    /// The least and the most what the agent restores after its summary (the inserted
    /// messages of kind `restored`, in the policy's counter) can come to, where the log
    /// shows some of it only in part (Claude Code re-reads its files from disk); absent
    /// when it is known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub restored_range: Option<[u64; 2]>,
    /// What a cleared message's content becomes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub placeholder: Option<&'static str>,
    /// Kept messages the policy sends rewritten (the deterministic compressor's edits):
    /// index → the message's new JSON, in the input's dialect.
    #[serde(skip)]
    pub rewritten: std::collections::BTreeMap<usize, String>,
    /// On a chat view: the new text of each kept message the policy rewrites (what a
    /// replay's working context holds from then on).
    #[serde(skip)]
    pub rewritten_text: std::collections::BTreeMap<usize, String>,
}

impl crate::document::Document for PolicyPlan {
    const NAME: &'static str = "compact-policy-plan";
}

impl PolicyPlan {
    /// A plan that keeps every message as it is.
    pub fn unchanged(policy: &'static str, counter: &'static str, n: usize) -> PolicyPlan {
        PolicyPlan {
            policy,
            counter,
            compacted: false,
            tokens_before: None,
            tokens_after: None,
            messages: (0..n).map(|i| Row::new(i, Section::Tail)).collect(),
            inserted: Vec::new(),
            summarizer_input: None,
            summarizer_input_truncated: None,
            warnings: Vec::new(),
            restored_range: None,
            placeholder: None,
            rewritten: std::collections::BTreeMap::new(),
            rewritten_text: std::collections::BTreeMap::new(),
        }
    }

    /// Rows by section: `sections[i]` for message `i`.
    pub fn section(&self, index: usize) -> Section {
        self.messages[index].section
    }

    /// Marks what a clearing policy kept: rows after the last cleared one are the tail,
    /// every other kept row the head.
    fn split_around_clearing(&mut self) {
        let last = self.messages.iter().rposition(|r| r.section == Section::Cleared);
        for row in &mut self.messages {
            if row.section != Section::Cleared {
                row.section = match last {
                    Some(last) if row.index < last => Section::Head,
                    _ => Section::Tail,
                };
            }
        }
    }
}

/// A server-side policy's settings as the provider's request takes them.
#[derive(Debug, Clone, PartialEq)]
pub struct RequestField {
    /// The JSON to merge into the request body.
    pub body: serde_json::Value,
    /// The beta header the request needs for it (`anthropic-beta: …`), if any.
    pub beta_header: Option<&'static str>,
}

/// What runs a policy, where that changes how the front ends treat it. Asked of the
/// policy, never decided by its name, so a new policy is its module and its registry line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// ctxlens' own §7F tail compactor: with no `--set` it is the plan the budget options
    /// (`--max-tokens`, `--keep-tail`) already describe.
    TailCompactor,
    /// ctxlens' deterministic strategy: the budget options are its shorthand too, and
    /// `compact` writes what the strategy writes (not only a plan).
    DeterministicStrategy,
    /// Another agent's compactor, replayed from its settings alone.
    Agent,
}

impl Engine {
    /// `--max-tokens` / `--keep-tail` are this policy's `max_tokens` / `keep_tail`.
    pub fn takes_budget_shorthand(self) -> bool {
        matches!(self, Engine::TailCompactor | Engine::DeterministicStrategy)
    }
}

/// One agent's compactor.
pub trait Policy: Sync {
    /// Its name on the command line.
    fn name(&self) -> &'static str;
    /// Its settings when the user gives none, for a model with `window` tokens: what the
    /// agent does by default, or — for the frameworks without one — the assumption
    /// `docs/policies.md` states. Required, so that no policy runs with none by omission.
    fn defaults(&self, window: u64) -> Vec<(&'static str, String)>;
    /// What runs it (see [`Engine`]).
    fn engine(&self) -> Engine {
        Engine::Agent
    }
    /// The agent whose session logs record this policy's compactions (Claude Code's,
    /// Codex's): what `backtest` replays on such a log.
    fn agent_logs(&self) -> Option<crate::transcript::Container> {
        None
    }
    /// For an agent that fires at one threshold in the tokens the provider bills: that
    /// threshold and the window it is measured in, under `settings` (what `--emit-config`
    /// writes as the agent's own setting). `None`: its trigger is not one such number.
    fn billed_trigger(&self, settings: &PolicySettings) -> Result<Option<(u64, u64)>, crate::Error> {
        let _ = settings;
        Ok(None)
    }
    /// The size of the summary the agent writes, in ctxlens' count, where neither its log
    /// nor the user's earlier sessions show one before the moment predicted, and where
    /// that figure comes from (for the replay's warnings). `None`: the replay's own
    /// summary stands.
    fn summary_prior(&self) -> Option<(u64, &'static str)> {
        None
    }
    /// Settings the session's log shows the agent used, from what was known before
    /// message `before` (Claude Code's earlier compactions, the release that wrote the
    /// log), taken by a replay where the user set none (`given`: what the user set, which
    /// may change what the log means, such as a pinned release). Never from later records:
    /// a replay predicting a compaction must not read the answer (docs/policies.md).
    fn settings_from_log(
        &self,
        whole: &Transcript,
        before: usize,
        given: &PolicySettings,
    ) -> Vec<(&'static str, String)> {
        let _ = (whole, before, given);
        Vec::new()
    }
    /// Whether its log may set `key` for a replay: the user set none, and `whole` is a log
    /// of this policy's own agent ([`Policy::agent_logs`]); what each
    /// [`Policy::settings_from_log`] asks first.
    fn log_may_set(&self, whole: &Transcript, given: &PolicySettings, key: &str) -> bool {
        given.text(key).is_none() && self.agent_logs().as_ref() == Some(&whole.format().container)
    }
    /// The `--set` keys it takes, as the agent spells them.
    fn keys(&self) -> &'static [&'static str];
    /// What it would do with the messages `chat` (rows numbered by position).
    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error>;
    /// What it would do with `transcript` under `settings`.
    fn plan(&self, transcript: &Transcript, settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        self.plan_chat(&chat_view(transcript), settings)
    }
    /// For a policy the provider applies to each request (server-side): its settings as
    /// the request's own field (Anthropic's `context_management`), what `--emit-config`
    /// writes for it. `None`: no provider applies it.
    fn request_config(&self, settings: &PolicySettings) -> Result<Option<RequestField>, crate::Error> {
        let _ = settings;
        Ok(None)
    }
    /// It counts what the provider bills (`overhead` + `ratio` × counted): a replay sets
    /// those two from the recorded usage of the context's epoch.
    fn counts_billed(&self) -> bool {
        false
    }
    /// The figure the agent reads from the last response's recorded usage when it decides
    /// before the next call (the provider's prompt by default). What came after that
    /// response is added in the policy's own counter ([`Policy::billed_base`]).
    fn last_response_tokens(&self, recorded: &crate::transcript::Recorded) -> u64 {
        recorded.context_tokens()
    }
    /// What its billed counter's `overhead + ratio ×` applies to: ctxlens' count of the
    /// context (the default), or the policy's own cost where the agent estimates what
    /// came since the last response its own way (Codex: four bytes a token).
    fn billed_base(&self, running: &Running) -> u64 {
        running.total_counted()
    }
    /// Its output replaces the history (a summary, a pruned store), rather than being a
    /// view made afresh for each call while the client keeps everything (trimming,
    /// masking, Anthropic's server-side clearing).
    fn rewrites_history(&self) -> bool {
        true
    }
    /// Its counter, per message (additive), for the cheap test a replay makes before it
    /// asks for a plan: 0 for policies that count messages.
    fn cost(&self, message: &ChatMessage) -> u64 {
        let _ = message;
        0
    }
    /// Whether the context `running` describes may make it act: false only when it
    /// certainly does nothing (a replay then skips the plan).
    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let _ = (settings, running);
        Ok(true)
    }
    /// For a policy that only rewrites or clears messages where they are: what it does
    /// to `context` now, without a plan's row per message (`running` gives the whole
    /// context's figures; `from` is where the messages added since its last action start,
    /// for a policy whose edits are each message's own). A replay applies it in place,
    /// which keeps a session linear when the policy acts at nearly every call. `None`:
    /// plan the whole context.
    fn in_place(
        &self,
        context: &[ChatMessage],
        running: &Running,
        from: usize,
        settings: &PolicySettings,
    ) -> Result<Option<InPlace>, crate::Error> {
        let _ = (context, running, from, settings);
        Ok(None)
    }
    /// For a policy that makes a view per call: what the call sends, sized from the
    /// running figures without a plan (`placeholder(text)`: ctxlens' count of a message
    /// cleared to `text`); `None` when these settings need the plan.
    fn fast_view(
        &self,
        settings: &PolicySettings,
        running: &Running,
        placeholder: &dyn Fn(&str) -> u64,
    ) -> Result<Option<FastView>, crate::Error> {
        let _ = (settings, running, placeholder);
        Ok(None)
    }
}

/// Every policy, by name.
pub fn all() -> Vec<&'static dyn Policy> {
    vec![
        &toolnexus::Toolnexus,
        &llm4s::Llm4s,
        &claude_code::ClaudeCode,
        &langchain::Trim,
        &langchain::Summarization,
        &langchain::ClearToolUses,
        &anthropic_api::ServerClearToolUses,
        &codex::Codex,
        &openhands::Recent,
        &openhands::Mask,
        &openhands::Amortized,
        &openhands::Llm,
        &opencode::Overflow,
        &opencode::Prune,
        &semantic_kernel::Truncation,
        &semantic_kernel::Summarization,
        &gemini_cli::GeminiCli,
    ]
}

/// The policy called `name`.
pub fn by_name(name: &str) -> crate::Result<&'static dyn Policy> {
    all()
        .into_iter()
        .find(|p| p.name() == name)
        .ok_or_else(|| crate::Error::UnknownName {
            kind: "policy",
            name: name.to_owned(),
            known: all().iter().map(|p| p.name()).collect(),
        })
}

/// Plans `transcript` with the policy called `name`, after checking every `--set` key is
/// one the policy takes.
pub fn plan(name: &str, transcript: &Transcript, settings: &PolicySettings) -> crate::Result<PolicyPlan> {
    let policy = by_name(name)?;
    settings.check_keys(policy.name(), policy.keys())?;
    policy.plan(transcript, settings)
}
