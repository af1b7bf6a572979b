//! `codex`: Codex CLI's compaction. It fires when its counter reaches
//! `auto_compact_token_limit`, then takes one of two paths (openai/codex at 001cb8e:
//! `compact.rs` `should_use_remote_compact_task` is the provider being OpenAI's):
//! - **local** (`compaction=local`, the default but for OpenAI's provider;
//!   `codex-rs/core/src/compact.rs`): the new history is only the user's own messages,
//!   newest first while they fit in 20,000 tokens (the first that does not fit is cut to
//!   what is left), in their original order, then the summary as a user message.
//!   Assistant messages, tool calls and outputs, earlier summaries and injected context
//!   (AGENTS.md, the environment) are all summarized away.
//! - **remote** (`compaction=remote`, the default where the rollout's provider is
//!   `openai`; `compact_remote.rs`): the whole history goes to the Responses API's
//!   `/responses/compact`, whose answer replaces it: the conversation's messages — the
//!   user's and the model's answers, not its reasoning, calls or tool outputs — then one
//!   encrypted compaction item (the `replacement_history` of public 0.117/0.118 rollouts);
//!   Codex adds its injected context again. Codex keeps what the server returns
//!   (`should_keep_compacted_history_item`), and the server has changed what it returns:
//!   public rollouts of 0.142.2, 0.144.5, 0.145.0-alpha and 0.146.0-alpha keep the user's
//!   messages alone, no answer of the model (`remote_kept=user`, for 0.142 on and where no
//!   release is known); 0.117 and 0.118 kept both (`remote_kept=answers`, before 0.142;
//!   no rollout of 0.119–0.141 was seen). How large the item is to the provider is not
//!   known before the next call's usage: the replay weighs it as its own summary, and says
//!   so.
//!
//! **The limit** is 90% of the model's window (`ModelInfo::auto_compact_token_limit`,
//! `codex-rs/protocol/src/openai_models.rs`; a configured limit is clamped to it). A
//! rollout records `model_context_window` as the *usable* window, 95% of the model's
//! (`effective_context_window_percent`): 258,400 for a 272,000-token model, whose limit is
//! 244,800 ([`crate::transcript::Transcript::model_window`]).
//!
//! **The counter** is `ContextManager::get_total_token_usage`
//! (`codex-rs/core/src/context_manager/history.rs`): the last response's `total_tokens`
//! (prompt and output), plus its estimate of the items added after the last item the
//! model wrote (tool outputs: each item's JSON, four bytes a token), plus — the provider
//! leaving earlier turns' reasoning out of its usage — the estimate of every reasoning
//! item before the last user message (its encrypted content's length × ¾ − 650 bytes).
//! A replay sets the first term from the rollout's `token_count` events (`overhead`,
//! `ratio`), and from the fit of an ended epoch after its own firing.
//!
//! **When it looks**: once per model response, after the response and its tool outputs
//! — mid-turn, when the model asked for a tool — and at the start of a turn, before the
//! user's new message is added (`run_turn`'s pre-sampling check). A replay decides before
//! each response's first item; at a turn's start it leaves the new turn's input out of the
//! count, as Codex has not recorded it yet.

use super::chat::{ChatMessage, Kind};
use super::running::Running;

/// Codex's default limit for a model whose window is `window`: 90% of it.
pub fn default_limit(window: u64) -> u64 {
    window * 9 / 10
}
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section};

/// Codex's approximation: 4 bytes a token.
fn approx_tokens(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(4)
}

/// Codex's estimate of one item (`estimate_item_token_count`): a reasoning item by its
/// encrypted content (length × ¾ − 650 bytes), any other by its JSON, four bytes a token.
/// A message with no JSON of its own (a summary a replay wrote) is sized by its text and
/// its calls' names and arguments.
fn message_tokens(m: &ChatMessage) -> u64 {
    if m.sealed_bytes > 0 && (m.role == "reasoning" || m.role == "compaction") {
        return sealed_tokens(m.sealed_bytes);
    }
    if m.json_bytes > 0 {
        return approx_tokens(m.json_bytes as usize);
    }
    approx_tokens(m.text.len() + m.calls.iter().map(|c| c.name.len() + c.arguments.len()).sum::<usize>())
}

/// Codex's estimate of a reasoning or compaction item whose encrypted content is `sealed`
/// bytes long: what it decodes to, ¾ of it less 650 bytes, four bytes a token
/// (`estimate_response_item_model_visible_bytes`, `codex-rs/core/src/context_manager/history.rs`).
pub(crate) fn sealed_tokens(sealed: u64) -> u64 {
    approx_tokens(((sealed * 3 / 4).saturating_sub(650)) as usize)
}

/// User messages Codex injects itself, never kept as the user's own words.
const CONTEXTUAL_PREFIXES: [&str; 6] = [
    "<environment_context>",
    "<user_instructions>",
    "# AGENTS.md instructions",
    "<user_shell_command>",
    "<turn_aborted>",
    SUMMARY_PREFIX_START,
];

/// How Codex's summary message starts (`templates/compact/summary_prefix.md`).
const SUMMARY_PREFIX_START: &str = "Another language model started to solve this problem";

fn is_real_user_message(m: &ChatMessage) -> bool {
    m.kind == Kind::User && m.role == "user" && !CONTEXTUAL_PREFIXES.iter().any(|p| m.text.trim_start().starts_with(p))
}

/// `codex`.
pub struct Codex;

impl Policy for Codex {
    fn name(&self) -> &'static str {
        "codex"
    }

    fn agent_logs(&self) -> Option<crate::transcript::Container> {
        Some(crate::transcript::Container::Codex)
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        vec![("context_window", window.to_string())]
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "auto_compact_token_limit",
            "context_window",
            "user_message_budget",
            "compaction",
            "remote_kept",
            "overhead",
            "ratio",
            "provider",
        ]
    }

    fn settings_from_log(
        &self,
        whole: &crate::transcript::Transcript,
        before: usize,
        given: &PolicySettings,
    ) -> Vec<(&'static str, String)> {
        let _ = before;
        // The provider and the release are in the rollout's first record: known from the
        // start.
        let mut out = Vec::new();
        if self.log_may_set(whole, given, "provider") {
            out.extend(whole.first_record_field("model_provider").map(|p| ("provider", p)));
        }
        if self.log_may_set(whole, given, "remote_kept") {
            let release = whole.first_record_field("cli_version");
            out.extend(
                release
                    .as_deref()
                    .and_then(super::claude_code::release_number)
                    .map(|n| ("remote_kept", remote_kept_by(n).to_owned())),
            );
        }
        out
    }

    fn counts_billed(&self) -> bool {
        true
    }

    fn billed_base(&self, running: &Running) -> u64 {
        running.total_cost()
    }

    fn cost(&self, message: &ChatMessage) -> u64 {
        message_tokens(message)
    }

    fn last_response_tokens(&self, recorded: &crate::transcript::Recorded) -> u64 {
        // `last_token_usage.total_tokens`: the prompt and the output, reasoning included.
        recorded.context_tokens().saturating_add(recorded.output_tokens)
    }

    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let Some(limit) = limit_of(settings)? else {
            return Ok(true);
        };
        Ok(counter_at(settings, running)? >= limit)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let window = settings.number("context_window")?;
        let Some(limit) = limit_of(settings)? else {
            return Err(crate::Error::Setting(
                "codex needs --set auto_compact_token_limit=N (model_auto_compact_token_limit) or context_window=N"
                    .to_owned(),
            ));
        };
        let remote = match settings.text("compaction") {
            // Codex compacts remotely for OpenAI's provider (`should_use_remote_compact_task`).
            None => settings.text("provider") == Some("openai"),
            Some("local") => false,
            Some("remote") => true,
            Some(other) => {
                return Err(crate::Error::Setting(format!(
                    "--set compaction={other}: codex compacts `local` or `remote`"
                )))
            }
        };
        let budget = settings.number_or("user_message_budget", 20_000)?;
        let total = counter_at(settings, &Running::of(chat, message_tokens))?;
        let label = if settings.text("overhead").is_some() {
            "codex (last usage + bytes/4 since)"
        } else {
            "codex-bytes"
        };
        let mut plan = PolicyPlan::unchanged(self.name(), label, chat.len());
        plan.tokens_before = Some(total);
        plan.tokens_after = Some(total);
        note_settings(settings, window, &mut plan.warnings);
        if total < limit {
            return Ok(plan);
        }
        for row in &mut plan.messages {
            row.section = Section::Summarized;
        }
        let kept_tokens = if remote {
            let answers = match settings.text("remote_kept") {
                None | Some("user") => false,
                Some("answers") => true,
                Some(other) => {
                    return Err(crate::Error::Setting(format!(
                        "--set remote_kept={other}: the server keeps the user's messages (`user`) or the model's answers too (`answers`)"
                    )))
                }
            };
            let kept = if answers {
                "the user's and the model's messages (as before 0.142)"
            } else {
                "the user's messages (as from 0.142; --set remote_kept=answers for the model's answers too, as before)"
            };
            plan.warnings.push(format!(
                "remote compaction: the server keeps {kept} and one encrypted compaction item whose size is not known before the next call; those messages are kept whole, the context Codex injects again, and the item weighed as the replay's summary"
            ));
            if settings.text("user_message_budget").is_some() {
                plan.warnings
                    .push("user_message_budget applies to local compaction only".to_owned());
            }
            keep_the_conversation(chat, &mut plan, answers)
        } else {
            keep_recent_user_messages(chat, &mut plan, budget)
        };
        let kept = plan.messages.iter().filter(|r| r.section == Section::Head).count();
        plan.compacted = true;
        plan.tokens_after = Some(kept_tokens);
        plan.inserted.push(if remote {
            Inserted {
                position: kept,
                role: "assistant",
                kind: "summary",
                text: "{summary}".to_owned(),
                tokens: None,
            }
        } else {
            Inserted {
                position: kept,
                role: "user",
                kind: "summary",
                text: format!("{SUMMARY_PREFIX_START} and produced a summary of its thinking process. …\n{{summary}}"),
                tokens: None,
            }
        });
        Ok(plan)
    }
}

/// The limit in force: the configured one, clamped to 90% of the window as current Codex
/// does, else 90% of the window; `None` when these settings give neither.
fn limit_of(settings: &PolicySettings) -> Result<Option<u64>, crate::Error> {
    let window = settings.number("context_window")?;
    Ok(match (settings.number("auto_compact_token_limit")?, window) {
        (Some(limit), Some(window)) => Some(limit.min(default_limit(window))),
        (Some(limit), None) => Some(limit),
        (None, Some(window)) => Some(default_limit(window)),
        (None, None) => None,
    })
}

/// What these settings leave unsaid, added to `warnings`.
fn note_settings(settings: &PolicySettings, window: Option<u64>, warnings: &mut Vec<String>) {
    if settings.text("compaction").is_none() && settings.text("provider") == Some("openai") {
        warnings.push(
            "this rollout's provider is openai, for which Codex compacts remotely (codex-rs `should_use_remote_compact_task`): replayed as remote compaction; --set compaction=local replays the local path".to_owned(),
        );
    }
    if let (Ok(Some(limit)), Some(window)) = (settings.number("auto_compact_token_limit"), window) {
        if limit > default_limit(window) {
            warnings.push(format!(
                "auto_compact_token_limit {limit} is above 90% of the {window}-token window: current Codex versions clamp it to {}",
                default_limit(window)
            ));
        }
    }
}

/// Local compaction's kept messages: the user's own, newest first while they fit in
/// `budget` (the first that does not fit cut in the middle to what is left). Their tokens.
fn keep_recent_user_messages(chat: &[ChatMessage], plan: &mut PolicyPlan, budget: u64) -> u64 {
    let mut remaining = budget;
    let mut kept_tokens = 0;
    for m in chat.iter().rev().filter(|m| is_real_user_message(m)) {
        if remaining == 0 {
            break;
        }
        let tokens = approx_tokens(m.text.len());
        let row = &mut plan.messages[m.index];
        row.section = Section::Head;
        if tokens <= remaining {
            remaining -= tokens;
            kept_tokens += tokens;
        } else {
            row.truncated = true;
            row.truncated_to_tokens = Some(remaining);
            plan.rewritten_text.insert(m.index, truncate_middle(&m.text, remaining));
            kept_tokens += remaining;
            break;
        }
    }
    kept_tokens
}

/// Remote compaction's kept messages: the messages of the conversation — the user's and
/// the model's answers, not its reasoning, calls or their outputs — as the server returns
/// them (the rollouts' `replacement_history`), and the context Codex injects (developer
/// instructions, AGENTS.md, the environment), which it adds again; earlier compaction items
/// aside, the new one standing for them. Their tokens in Codex's estimate.
fn keep_the_conversation(chat: &[ChatMessage], plan: &mut PolicyPlan, answers: bool) -> u64 {
    let mut kept_tokens = 0;
    for m in chat
        .iter()
        .filter(|m| is_kept_remotely(m) && (answers || m.kind != Kind::Assistant))
    {
        plan.messages[m.index].section = Section::Head;
        kept_tokens += message_tokens(m);
    }
    kept_tokens
}

/// What the server keeps in a remote compaction of release `n` (module doc): the model's
/// answers too before 0.142, the user's messages alone from it.
fn remote_kept_by(n: (u64, u64, u64)) -> &'static str {
    if n < (0, 142, 0) {
        "answers"
    } else {
        "user"
    }
}

/// Whether the remote path keeps `m` (see [`keep_the_conversation`]).
fn is_kept_remotely(m: &ChatMessage) -> bool {
    let earlier_summary = m.role == "compaction" || m.text.trim_start().starts_with(SUMMARY_PREFIX_START);
    let conversation = match m.kind {
        Kind::User => m.role == "user",
        Kind::Assistant => m.role == "assistant" && m.calls.is_empty(),
        Kind::System => true,
        Kind::Tool => false,
    };
    conversation && !earlier_summary
}

/// Codex's counter over the context `running` describes, at a decision (module doc):
/// with recorded usage known (`overhead` + `ratio` × the items up to the model's last one
/// stand for the last response's `total_tokens`), that figure, the tool outputs since,
/// and the reasoning items before the last user message; without it, the estimate of
/// every item. A new turn's input after the model's last item is not counted: Codex looks
/// before it records it.
fn counter_at(settings: &PolicySettings, running: &Running) -> Result<u64, crate::Error> {
    let Some(overhead) = settings.number("overhead")? else {
        return Ok(running.total_cost());
    };
    let ratio = match settings.text("ratio") {
        None => 1.0,
        Some(text) => text
            .parse::<f64>()
            .ok()
            .filter(|r| *r > 0.0 && r.is_finite())
            .ok_or_else(|| crate::Error::Setting(format!("--set ratio={text}: expected a positive number")))?,
    };
    let n = running.messages();
    let (base, thinking) = match running.last_assistant() {
        Some(last) => {
            let outputs_since = running.tool_cost[n] - running.tool_cost[last + 1];
            let thinking = running.user_before(last).map_or(0, |user| running.thinking_cost[user]);
            (running.cost[last + 1] + outputs_since, thinking)
        }
        None => (running.total_cost(), 0),
    };
    Ok((overhead as f64 + ratio * base as f64).round() as u64 + thinking)
}

/// `text` cut in the middle to about `tokens` tokens (four bytes each), its first and
/// last halves kept around a marker naming the tokens removed — Codex's middle
/// truncation of the oldest user message that does not fit.
pub fn truncate_middle(text: &str, tokens: u64) -> String {
    let budget = usize::try_from(tokens.saturating_mul(4)).unwrap_or(usize::MAX);
    if text.len() <= budget {
        return text.to_owned();
    }
    let half = budget / 2;
    let mut head_end = half;
    while !text.is_char_boundary(head_end) {
        head_end -= 1;
    }
    let mut tail_start = text.len() - half;
    while !text.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    let removed = approx_tokens(tail_start - head_end);
    format!(
        "{}…{removed} tokens truncated…{}",
        &text[..head_end],
        &text[tail_start..]
    )
}

#[cfg(test)]
mod tests {
    use super::{message_tokens, truncate_middle};
    use crate::policy::chat::chat_view;
    use crate::transcript::Transcript;

    /// Codex's counter before each call of a real rollout — the last recorded usage plus
    /// its estimate (four bytes a token) of the items since — against the usage the
    /// provider then recorded: the per-call errors, in percent.
    fn counter_errors(file: &str) -> Vec<f64> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/real-transcripts/codex-rollout")
            .join(file);
        let whole = Transcript::read_whole(&path).expect("loads");
        let chat = chat_view(&whole);
        let mut estimate = 0u64;
        let mut last: Option<(u64, u64)> = None; // (recorded, estimate then)
        let mut errors = Vec::new();
        for m in &chat {
            // The usage a response recorded rides on the item that answered the call.
            let recorded = m
                .origin
                .and_then(|i| whole.messages()[i].recorded())
                .map(|r| r.context_tokens());
            if let Some(recorded) = recorded.filter(|&r| r > 0) {
                if let Some((before, then)) = last {
                    let counter = before + (estimate - then);
                    errors.push((counter as f64 - recorded as f64) / recorded as f64 * 100.0);
                }
                last = Some((recorded, estimate));
            }
            estimate += message_tokens(m);
        }
        errors
    }

    fn median_abs(mut errors: Vec<f64>) -> f64 {
        for e in &mut errors {
            *e = e.abs();
        }
        errors.sort_by(f64::total_cmp);
        errors[errors.len() / 2]
    }

    #[test]
    fn the_counter_follows_recorded_usage_on_real_rollouts() {
        for (file, calls) in [
            ("codemie-codex-cli-019e1625.jsonl", 60),
            ("codex-session-view-019a93b9.jsonl", 30),
        ] {
            let errors = counter_errors(file);
            assert!(errors.len() >= calls, "{file}: {} calls compared", errors.len());
            let compared = errors.len();
            let median = median_abs(errors);
            // Printed for the record (`cargo test -p ctxlens-core the_counter -- --nocapture`).
            println!("{file}: {compared} calls, median |error| {median:.2}%");
            assert!(median <= 5.0, "{file}: median error {median:.1}%");
        }
    }

    /// A session: the injected environment, two user requests (one long), the agent's
    /// answers and a tool's output.
    fn session() -> Vec<crate::policy::ChatMessage> {
        use crate::policy::chat::{written, Kind};
        let long = "please keep the tests green ".repeat(4_000);
        let messages = [
            (
                Kind::User,
                "user",
                "<environment_context>cwd /repo</environment_context>".to_owned(),
            ),
            (Kind::User, "user", long),
            (Kind::Assistant, "assistant", "I will run them.".repeat(50)),
            (Kind::Tool, "tool", "ok ".repeat(2_000)),
            (Kind::User, "user", "now fix the lint".to_owned()),
            (Kind::Assistant, "assistant", "Done.".to_owned()),
        ];
        messages
            .into_iter()
            .enumerate()
            .map(|(index, (kind, role, text))| {
                let mut m = written(kind, role, text, 0);
                m.index = index;
                m.past_summary = false;
                m
            })
            .collect()
    }

    fn sections(plan: &crate::policy::PolicyPlan) -> Vec<crate::policy::Section> {
        plan.messages.iter().map(|r| r.section).collect()
    }

    #[test]
    fn remote_compaction_keeps_the_conversation_whole_and_says_what_is_unknown() {
        use crate::policy::{Policy, PolicySettings, Section};
        let chat = session();
        let settings = PolicySettings::default()
            .with("auto_compact_token_limit", 100)
            .with("compaction", "remote")
            .with("remote_kept", "answers");
        let plan = super::Codex.plan_chat(&chat, &settings).expect("plans");
        assert!(plan.compacted);
        assert_eq!(
            sections(&plan),
            [
                Section::Head,
                Section::Head,
                Section::Head,
                Section::Summarized,
                Section::Head,
                Section::Head
            ],
            "the injected context, the user's and the model's messages; not the tool's output"
        );
        assert!(
            plan.messages.iter().all(|r| !r.truncated),
            "nothing is cut: {:?}",
            plan.messages
        );
        assert_eq!(plan.inserted.len(), 1);
        assert_eq!((plan.inserted[0].position, plan.inserted[0].role), (5, "assistant"));
        assert!(
            plan.warnings.iter().any(|w| w.contains("encrypted compaction item")),
            "{:?}",
            plan.warnings
        );
        // Local compaction of the same session: the injected context goes, the long request
        // is cut to what the 20,000-token budget leaves.
        let local = super::Codex
            .plan_chat(&chat, &settings.clone().with("compaction", "local"))
            .expect("plans");
        assert_eq!(local.section(0), Section::Summarized);
        assert!(local.messages[1].truncated);
        assert!(
            plan.tokens_after > local.tokens_after,
            "{:?} {:?}",
            plan.tokens_after,
            local.tokens_after
        );
        assert!(!local.warnings.iter().any(|w| w.contains("encrypted")));
        // From 0.142 the server keeps the user's messages alone: the model's answer goes.
        let user_only = super::Codex
            .plan_chat(&chat, &settings.clone().with("remote_kept", "user"))
            .expect("plans");
        assert_eq!(
            sections(&user_only),
            [
                Section::Head,
                Section::Head,
                Section::Summarized,
                Section::Summarized,
                Section::Head,
                Section::Summarized
            ],
            "the injected context and the user's messages"
        );
        assert!(user_only.tokens_after < plan.tokens_after);
        let unset = PolicySettings::default()
            .with("auto_compact_token_limit", 100)
            .with("compaction", "remote");
        let newest = super::Codex.plan_chat(&chat, &unset).expect("plans");
        assert_eq!(
            sections(&newest),
            sections(&user_only),
            "the newest releases' by default"
        );
        let wrong = super::Codex.plan_chat(&chat, &settings.clone().with("remote_kept", "all"));
        assert!(wrong.is_err_and(|e| e.to_string().contains("`answers`")));
        let wrong = super::Codex.plan_chat(&chat, &settings.with("compaction", "server"));
        assert!(wrong.is_err_and(|e| e.to_string().contains("`local` or `remote`")));
    }

    /// What a remote compaction keeps, by the release that wrote the rollout: the public
    /// rollouts seen (0.117.0 and 0.118.0-alpha.2 keep answers; 0.142.2 to
    /// 0.146.0-alpha.3.1 the user's messages alone).
    #[test]
    fn what_the_server_keeps_follows_the_release() {
        use crate::policy::claude_code::release_number;
        let kept = |v: &str| super::remote_kept_by(release_number(v).expect("a release"));
        for old in ["0.117.0", "0.118.0-alpha.2", "0.125.0", "0.141.9"] {
            assert_eq!(kept(old), "answers", "{old}");
        }
        for new in ["0.142.2", "0.144.5", "0.145.0-alpha.18", "0.146.0-alpha.3.1", "1.0.0"] {
            assert_eq!(kept(new), "user", "{new}");
        }
    }

    #[test]
    fn an_openai_rollout_is_replayed_as_codex_compacts_it_remotely() {
        use crate::policy::{Policy, PolicySettings};
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../tests/data/real-transcripts/codex-rollout/codemie-codex-cli-019e1625.jsonl");
        let whole = Transcript::read_whole(&path).expect("loads");
        let given = PolicySettings::default();
        let from_log = super::Codex.settings_from_log(&whole, 0, &given);
        assert_eq!(
            from_log,
            [("provider", "openai".to_owned()), ("remote_kept", "answers".to_owned())],
            "0.125.0: before 0.142"
        );
        let settings = given.with("provider", "openai").with("auto_compact_token_limit", 100);
        let plan = super::Codex.plan_chat(&session(), &settings).expect("plans");
        assert!(
            plan.warnings.iter().any(|w| w.contains("compacts remotely")),
            "{:?}",
            plan.warnings
        );
        let remote = super::Codex
            .plan_chat(&session(), &settings.clone().with("compaction", "remote"))
            .expect("plans");
        assert_eq!(sections(&plan), sections(&remote), "the remote path by default");
        let chosen = super::Codex
            .plan_chat(&session(), &settings.with("compaction", "local"))
            .expect("plans");
        assert!(!chosen.warnings.iter().any(|w| w.contains("compacts remotely")));
    }

    #[test]
    fn the_middle_goes_and_says_how_much() {
        let text = "a".repeat(40) + &"é".repeat(40) + &"z".repeat(40);
        let cut = truncate_middle(&text, 10);
        assert!(cut.starts_with(&"a".repeat(20)), "{cut}");
        assert!(cut.ends_with(&"z".repeat(20)), "{cut}");
        assert!(cut.contains("tokens truncated"), "{cut}");
        assert!(cut.len() < text.len());
        assert_eq!(truncate_middle("short", 10), "short");
    }
}
