//! Codex's automatic compaction predicted on rollouts written to its rules (module doc of
//! `codex`): the limit from the usable window a rollout records, the counter's three terms
//! (the last response's `total_tokens`, the tool outputs since — as truncated in the
//! history —, earlier turns' reasoning), one decision per response, and a turn's start
//! looked at before its new input; each response's usage read where the release writes it
//! (after the response, or after its tool outputs). Each rollout is built so that a
//! counter missing one of those rules fires somewhere else.

use serde_json::{json, Value};

use crate::backtest::backtest;
use crate::cancel::CancelToken;
use crate::summarize::Placeholder;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// What the rollout records as the usable window: 95% of a 272,000-token model's.
const RECORDED_WINDOW: u64 = 258_400;
/// Codex's limit for that model: 90% of 272,000.
const LIMIT: u64 = 244_800;

/// A rollout under construction: its records, and what Codex's estimate makes of them.
struct Rollout {
    records: Vec<Value>,
    /// Its release writes a response's `token_count` after the tool outputs the response
    /// asked for (0.14x), not right after the response (0.117).
    usage_after_outputs: bool,
}

impl Rollout {
    fn new() -> Rollout {
        let mut rollout = Rollout {
            records: Vec::new(),
            usage_after_outputs: false,
        };
        rollout.push(
            "session_meta",
            json!({"id": "s", "cwd": "/repo", "cli_version": "0.117.0", "model_provider": "openai"}),
        );
        rollout
    }

    fn push(&mut self, kind: &str, payload: Value) {
        let mut record = json!({"timestamp": "2026-03-30T04:19:12.102Z", "type": kind});
        record["payload"] = payload;
        self.records.push(record);
    }

    fn turn(&mut self, request: &str) {
        self.push(
            "event_msg",
            json!({"type": "task_started", "model_context_window": RECORDED_WINDOW}),
        );
        self.turn_context();
        self.user(request);
    }

    fn turn_context(&mut self) {
        self.push(
            "turn_context",
            json!({"cwd": "/repo", "model": "gpt-5.4", "truncation_policy": {"mode": "tokens", "limit": 10_000}}),
        );
    }

    fn user(&mut self, request: &str) {
        self.push(
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": request}]}),
        );
        self.push("event_msg", json!({"type": "user_message", "message": request}));
    }

    /// A reasoning item whose encrypted content is `sealed` characters long.
    fn reasoning(&mut self, sealed: usize) {
        self.push(
            "response_item",
            json!({"type": "reasoning", "summary": [], "content": null, "encrypted_content": "g".repeat(sealed)}),
        );
    }

    fn call(&mut self, id: &str) {
        self.push(
            "response_item",
            json!({"type": "function_call", "name": "shell", "arguments": "{\"command\":[\"make\",\"test\"]}", "call_id": id}),
        );
    }

    fn answer(&mut self, text: &str) {
        self.push(
            "response_item",
            json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}),
        );
    }

    /// The usage of the response just written: `total` tokens, prompt and output.
    fn usage(&mut self, total: u64) {
        let usage = json!({"input_tokens": total - 100, "cached_input_tokens": 0, "output_tokens": 100,
            "reasoning_output_tokens": 40, "total_tokens": total});
        self.push(
            "event_msg",
            json!({"type": "token_count", "info": {"last_token_usage": usage, "total_token_usage": usage,
                "model_context_window": RECORDED_WINDOW}}),
        );
    }

    /// A tool's output of `bytes` characters; what Codex's estimate makes of it whole.
    fn output(&mut self, id: &str, bytes: usize) -> u64 {
        let payload = json!({"type": "function_call_output", "call_id": id, "output": "x".repeat(bytes)});
        let estimate = (payload.to_string().len() as u64).div_ceil(4);
        self.push("response_item", payload);
        estimate
    }

    /// A response (a reasoning and call `id`) whose usage is `total`, and the tool's
    /// output of `bytes` characters, in the order the release writes them; what Codex's
    /// estimate makes of the output whole.
    fn tool_round(&mut self, id: &str, total: u64, bytes: usize) -> u64 {
        self.reasoning(2_000);
        self.call(id);
        if self.usage_after_outputs {
            let estimate = self.output(id, bytes);
            self.usage(total);
            estimate
        } else {
            self.usage(total);
            self.output(id, bytes)
        }
    }

    fn task_complete(&mut self) {
        self.push("event_msg", json!({"type": "task_complete"}));
    }

    fn compacted(&mut self, kept: &[&str]) {
        let mut history: Vec<Value> = kept
            .iter()
            .map(|t| json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": t}]}))
            .collect();
        history.push(json!({"type": "message", "role": "user", "content": [{"type": "input_text",
            "text": "Another language model started to solve this problem and produced a summary of its thinking process. The parser is built; tests are next."}]}));
        self.push("compacted", json!({"message": "", "replacement_history": history}));
        self.push("event_msg", json!({"type": "context_compacted"}));
    }

    fn transcript(&self) -> Transcript {
        let mut text = String::new();
        for record in &self.records {
            text.push_str(&record.to_string());
            text.push('\n');
        }
        Transcript::parse("rollout.jsonl", text.into_bytes(), None)
            .and_then(|live| live.whole_session())
            .expect("a rollout")
    }
}

/// Codex's estimate of a reasoning item whose encrypted content is `sealed` long.
fn reasoning_estimate(sealed: u64) -> u64 {
    (sealed * 3 / 4 - 650).div_ceil(4)
}

/// The one automatic compaction of `rollout`, backtested: where the replay fired against
/// the real one (messages), and its counter there.
fn backtested(rollout: &Rollout) -> (Option<i64>, Option<u64>, usize) {
    let whole = rollout.transcript();
    let counts = Counts::compute(&whole, Tokenizer::Estimate);
    let report = backtest(&whole, &counts, &Placeholder, &CancelToken::new())
        .expect("replays")
        .expect("a Codex rollout has Codex's policy");
    assert_eq!(report.compactions.len(), 1, "one automatic compaction");
    let row = &report.compactions[0];
    let responses = rollout
        .records
        .iter()
        .filter(|r| r["payload"]["type"] == "token_count")
        .count();
    (row.error_messages, row.predicted_counter, responses)
}

#[test]
fn a_mid_turn_compaction_is_predicted_at_its_call_with_codexs_own_counter() {
    for usage_after_outputs in [false, true] {
        mid_turn_compaction(usage_after_outputs);
    }
}

fn mid_turn_compaction(usage_after_outputs: bool) {
    let mut rollout = Rollout::new();
    rollout.usage_after_outputs = usage_after_outputs;
    // Turn 1: three long reasonings, which the provider leaves out of later turns' usage.
    rollout.turn("Build the parser.");
    for _ in 0..3 {
        rollout.reasoning(20_000);
    }
    rollout.answer("The parser is built.");
    rollout.usage(100_000);
    rollout.task_complete();
    let earlier_reasoning = 3 * reasoning_estimate(20_000);
    // Turn 2: the model works through tools, each response a reasoning and a call.
    rollout.turn("Now make the tests pass.");
    rollout.tool_round("c1", 200_000, 4_000);
    // 200 KB of output: Codex keeps 12,000 tokens of it in the history (its turn's
    // 10,000-token truncation policy and a fifth more), the rollout keeps it whole. Whole,
    // it would cross the limit here.
    let whole_output = rollout.tool_round("c2", 220_000, 200_000);
    assert!(220_000 + whole_output + earlier_reasoning >= LIMIT);
    assert!(220_000 + 12_000 + 128 / 4 + earlier_reasoning < LIMIT);
    // A limit taken as 90% of the recorded window (232,560) fires here.
    assert!(220_000 + 12_000 + 128 / 4 + earlier_reasoning >= RECORDED_WINDOW * 9 / 10);
    let small = rollout.tool_round("c3", 234_000, 400);
    // Only with the earlier turn's reasoning does the counter reach the limit now.
    let counter = 234_000 + small + earlier_reasoning;
    assert!(counter >= LIMIT && 234_000 + small < LIMIT);
    rollout.compacted(&["Build the parser.", "Now make the tests pass."]);
    rollout.reasoning(2_000);
    rollout.answer("The tests pass.");
    rollout.usage(40_000);
    rollout.task_complete();

    let (error, predicted, responses) = backtested(&rollout);
    let order = if usage_after_outputs {
        "after the outputs"
    } else {
        "after the response"
    };
    assert_eq!(
        error,
        Some(0),
        "usage {order}: fired at the call the real compaction came before"
    );
    assert_eq!(predicted, Some(counter), "usage {order}: Codex's counter, to the token");
    assert_eq!(responses, 5);
}

#[test]
fn a_compaction_at_a_turns_start_leaves_the_new_request_out_of_the_count() {
    let mut rollout = Rollout::new();
    rollout.turn("Build the parser.");
    rollout.answer("The parser is built.");
    rollout.usage(230_000);
    rollout.task_complete();
    // A long request (20,000 tokens): counted at this turn's start, it would fire here.
    let long = "Keep every public name stable. ".repeat(2_600);
    rollout.turn(&long);
    rollout.answer("Noted.");
    rollout.usage(251_000);
    rollout.task_complete();
    // The last response ended over the limit without a tool call: Codex compacts when the
    // next turn starts, before it records the new request.
    rollout.push(
        "event_msg",
        json!({"type": "task_started", "model_context_window": RECORDED_WINDOW}),
    );
    rollout.compacted(&["Build the parser.", &long]);
    rollout.turn_context();
    rollout.user("Next.");
    rollout.reasoning(2_000);
    rollout.answer("Done.");
    rollout.usage(40_000);
    rollout.task_complete();

    let (error, predicted, _) = backtested(&rollout);
    assert_eq!(error, Some(0), "fired where the turn starting over the limit compacted");
    assert_eq!(
        predicted,
        Some(251_000),
        "the last response's total, the new request left out"
    );
}

/// A remote compaction (the OpenAI provider's) returns its summary encrypted: the rollout
/// shows no text of it, only the sealed item, which sizes the next summary as Codex sizes
/// the item (was: read as a summary of 7 tokens, which predicted every later request after
/// a compaction a quarter too small); a local compaction's summary is sized by its text.
#[test]
fn an_encrypted_summary_is_sized_as_codex_sizes_its_item() {
    let known_after_two_compactions = |remote: bool| {
        let mut rollout = Rollout::new();
        for round in 0..2 {
            rollout.turn("Build the parser.");
            rollout.answer("The parser is built.");
            rollout.usage(250_000);
            rollout.task_complete();
            // A local compaction records its summary as the record's message; a remote
            // one an encrypted item in the replacement history, and no message.
            let summary = "The parser is built and handles every statement of the grammar; the tests are next.";
            let (message, last) = if remote {
                (
                    "",
                    json!({"type": "compaction", "encrypted_content": "g".repeat(20_000)}),
                )
            } else {
                (
                    summary,
                    json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": summary}]}),
                )
            };
            let history = json!([
                {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Build the parser."}]},
                last,
            ]);
            rollout.push("compacted", json!({"message": message, "replacement_history": history}));
            rollout.push("event_msg", json!({"type": "context_compacted"}));
            rollout.turn_context();
            rollout.user(&format!("Round {round}."));
            rollout.answer("Done.");
            rollout.usage(30_000);
            rollout.task_complete();
        }
        let whole = rollout.transcript();
        assert_eq!(whole.compactions().len(), 2);
        crate::policy::agent_summary::KnownSummaries::of(&whole).before(&whole, whole.messages().len())
    };
    let readable = known_after_two_compactions(false).expect("two readable summaries");
    assert!(readable.counted > 20, "{readable:?}");
    assert!(readable.source.contains("earlier in this log"), "{}", readable.source);
    let sealed = known_after_two_compactions(true).expect("two sealed summaries");
    assert_eq!(sealed.counted, crate::policy::codex::sealed_tokens(20_000));
    assert!(sealed.counted > 3_000, "{sealed:?}");
    // Its history shows no text of it: the loss report counts it as holding nothing.
    let mut rollout = Rollout::new();
    rollout.turn("Build the parser.");
    rollout.answer("The parser is built.");
    rollout.usage(250_000);
    rollout.push(
        "compacted",
        json!({"message": "", "replacement_history": [{"type": "compaction", "encrypted_content": "g".repeat(20_000)}]}),
    );
    let whole = rollout.transcript();
    let summary = whole.compactions()[0]
        .summary_message
        .expect("the item stands as the summary");
    assert!(whole.is_sealed_summary(summary));
    assert_eq!(whole.summary_text(summary), "");
}
