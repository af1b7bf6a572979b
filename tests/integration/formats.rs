//! Every format on small hand-made fixtures: Claude Code branch following, split-response
//! merging and past compactions; Codex history, usage and compactions; Gemini id-less
//! pairing; Responses and OpenHands pairing; orphans; checks; and a byte-identical round
//! trip (load, export with nothing compacted) for every format.

use crate::common;

use common::{assert_exit, ctxlens_stdin, stdout};
use ctxlens::check::{check, Provider};
use ctxlens::compact::{Compaction, Options, Settings};
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::{Container, Dialect, OrphanKind, Transcript};
use serde_json::{json, Value};

fn jsonl(records: &[Value]) -> Vec<u8> {
    let mut out = String::new();
    for record in records {
        out.push_str(&record.to_string());
        out.push('\n');
    }
    out.into_bytes()
}

fn load(bytes: Vec<u8>) -> Transcript {
    Transcript::parse("fixture", bytes, None).expect("the fixture loads")
}

fn roles(t: &Transcript) -> Vec<&str> {
    t.messages().iter().map(|m| m.role().as_str()).collect()
}

fn claude_session() -> Vec<u8> {
    let usage = json!({"input_tokens": 10, "cache_creation_input_tokens": 20, "cache_read_input_tokens": 70, "output_tokens": 5});
    jsonl(&[
        json!({"type": "summary", "summary": "Fix the build", "leafUuid": "u4"}),
        json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s", "message": {"role": "user", "content": "fix the build"}}),
        json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "message": {"id": "msg_1", "role": "assistant", "content": [{"type": "text", "text": "Looking."}], "usage": usage}}),
        json!({"type": "assistant", "uuid": "a2", "parentUuid": "a1", "message": {"id": "msg_1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {"cmd": "make"}}, {"type": "tool_use", "id": "t2", "name": "bash", "input": {"cmd": "make test"}}], "usage": usage}}),
        json!({"type": "user", "uuid": "u2", "parentUuid": "a2", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}, {"type": "tool_result", "tool_use_id": "t2", "content": "ok"}]}}),
        json!({"type": "assistant", "uuid": "b1", "parentUuid": "u2", "message": {"id": "msg_old", "role": "assistant", "content": [{"type": "text", "text": "an abandoned branch"}]}}),
        json!({"type": "system", "subtype": "stop_hook_summary", "uuid": "h1", "parentUuid": "u2", "content": "hook ran"}),
        json!({"type": "user", "uuid": "u3", "parentUuid": "h1", "isMeta": true, "message": {"role": "user", "content": "<command-name>/clear</command-name>"}}),
        json!({"type": "user", "uuid": "u4", "parentUuid": "u3", "message": {"role": "user", "content": "thanks, now ship it"}}),
        json!({"type": "assistant", "uuid": "s1", "parentUuid": "u4", "isSidechain": true, "message": {"id": "msg_side", "role": "assistant", "content": [{"type": "text", "text": "sub-agent"}]}}),
    ])
}

#[test]
fn claude_code_follows_the_active_branch_and_merges_split_responses() {
    let t = load(claude_session());
    assert_eq!(t.format().container, Container::ClaudeCode);
    assert_eq!(t.format().dialect, Dialect::Anthropic);
    assert_eq!(
        roles(&t),
        ["user", "assistant", "user", "user"],
        "the abandoned branch, hook, meta and sidechain are not messages"
    );
    let response = &t.messages()[1];
    assert_eq!(response.records().len(), 2, "one response over two lines");
    assert_eq!(
        response.tool_calls().iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        ["t1", "t2"]
    );
    assert!(t.raw(1).contains("Looking.") && t.raw(1).contains("make test"));
    assert_eq!(
        response.recorded().expect("usage").context_tokens(),
        100,
        "input + cache creation + cache read"
    );
    assert_eq!(t.groups().groups.len(), 1);
    assert_eq!(
        t.groups().groups[0].results,
        [2],
        "parallel calls answered in one user line"
    );
    assert_eq!(
        *t.boundaries(),
        [0, 3],
        "a user line carrying tool_result is not a human turn"
    );
    let kinds: Vec<&str> = t.notes().iter().map(|n| n.kind.as_str()).collect();
    assert_eq!(
        kinds,
        [
            "title",
            "system stop_hook_summary",
            "meta",
            "sidechain",
            "other branches"
        ]
    );
}

#[test]
fn claude_code_compaction_keeps_records_and_the_chain() {
    let input = claude_session();
    let t = load(input.clone());
    let counts = Counts::compute(&t, Tokenizer::Estimate);
    let options = Options {
        max_tokens: 10,
        keep_tail: Some(0),
        flush_to_memory: true,
    };
    let result = Compaction::new(&t, &counts, Settings::tail(options))
        .run()
        .expect("compacts");
    let out = result.document.to_text();
    let text = String::from_utf8(input).expect("UTF-8");
    let u4 = text.lines().find(|l| l.contains("\"uuid\":\"u4\"")).expect("u4");
    assert!(out.lines().any(|l| l == u4), "the kept record is written byte for byte");
    assert!(!out.contains("sub-agent") && !out.contains("abandoned"));
    let reloaded = load(out.into_bytes());
    assert_eq!(
        roles(&reloaded),
        ["user", "user", "user"],
        "summary and reminder as Claude Code writes them, then the tail, still one chain"
    );
    assert!(reloaded.messages()[0].past_summary() && reloaded.messages()[1].past_summary());
}

#[test]
fn claude_code_past_compactions_are_markers() {
    let t = load(jsonl(&[
        json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s", "message": {"role": "user", "content": "old question"}}),
        json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "old answer"}]}}),
        json!({"type": "system", "subtype": "compact_boundary", "uuid": "cb", "parentUuid": null, "logicalParentUuid": "a1", "compactMetadata": {"trigger": "auto", "preTokens": 5000}}),
        json!({"type": "user", "uuid": "u2", "parentUuid": "cb", "isCompactSummary": true, "message": {"role": "user", "content": "This session is being continued..."}}),
        json!({"type": "user", "uuid": "u3", "parentUuid": "u2", "message": {"role": "user", "content": "next question"}}),
        json!({"type": "assistant", "uuid": "a3", "parentUuid": "u3", "message": {"id": "m3", "role": "assistant", "content": [{"type": "text", "text": "next answer"}]}}),
    ]));
    assert_eq!(roles(&t), ["user", "user", "assistant"]);
    assert!(
        t.messages()[0].past_summary() && !t.messages()[0].boundary(),
        "the summary is not a human turn"
    );
    let marker = t
        .notes()
        .iter()
        .find(|n| n.is_past_compaction())
        .expect("a past compaction");
    assert_eq!(
        (marker.before, marker.text.as_str()),
        (0, "compacted here (auto): 5,000 tokens before")
    );
}

#[test]
fn codex_history_usage_and_compactions() {
    let t = load(jsonl(&[
        json!({"timestamp": "t0", "type": "session_meta", "payload": {"id": "s", "cwd": "/repo"}}),
        json!({"timestamp": "t1", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list files"}]}}),
        json!({"timestamp": "t2", "type": "response_item", "payload": {"type": "function_call", "call_id": "c1", "name": "shell", "arguments": "{\"cmd\":\"ls\"}"}}),
        json!({"timestamp": "t2", "type": "response_item", "payload": {"type": "function_call", "call_id": "c2", "name": "shell", "arguments": "{\"cmd\":\"pwd\"}"}}),
        // Written after the answer it measures (Codex 0.125, as the shipped rollout shows).
        json!({"timestamp": "t2", "type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": {"input_tokens": 500, "output_tokens": 20}}}}),
        json!({"timestamp": "t3", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "a b"}}),
        json!({"timestamp": "t3", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c2", "output": "/repo"}}),
        // Written before the answer it measures (Codex 0.58), then a compaction: it
        // measured no answer that the rebuilt history holds.
        json!({"timestamp": "t4", "type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": {"input_tokens": 700, "output_tokens": 20}}}}),
        json!({"timestamp": "t5", "type": "compacted", "payload": {"message": "summary"}}),
        json!({"timestamp": "t6", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}}),
    ]));
    assert_eq!(t.format().name(), "codex");
    assert_eq!(
        roles(&t),
        [
            "user",
            "function_call",
            "function_call",
            "function_call_output",
            "function_call_output",
            "assistant"
        ]
    );
    assert_eq!(t.groups().groups.len(), 2);
    assert!(t.groups().orphans.is_empty());
    assert_eq!(t.messages()[2].recorded().expect("token_count").context_tokens(), 500);
    assert!(t.messages()[4].recorded().is_none() && t.messages()[5].recorded().is_none());
    assert!(t.notes().iter().any(|n| n.is_past_compaction() && n.before == 5));
    assert!(check(&t, Provider::Responses).is_empty());
}

/// The usage record keeps the split each log records: Anthropic's cache writes by
/// lifetime (or all as 5-minute writes when the log has no split) and reads; Codex's
/// cached input as a read out of its `input_tokens`, its reasoning inside the output.
#[test]
fn recorded_usage_keeps_each_logs_cache_split() {
    let line = |id: &str, parent: &str, usage: serde_json::Value| json!({"type": "assistant", "uuid": id, "parentUuid": parent, "message": {"id": format!("msg_{id}"), "role": "assistant", "content": [{"type": "text", "text": "ok"}], "usage": usage}});
    let t = load(jsonl(&[
        json!({"type": "user", "uuid": "u1", "parentUuid": null, "message": {"role": "user", "content": "hi"}}),
        line(
            "a1",
            "u1",
            json!({"input_tokens": 3, "cache_creation_input_tokens": 1500, "cache_read_input_tokens": 20000, "cache_creation": {"ephemeral_5m_input_tokens": 500, "ephemeral_1h_input_tokens": 1000}, "output_tokens": 7}),
        ),
        json!({"type": "user", "uuid": "u2", "parentUuid": "a1", "message": {"role": "user", "content": "again"}}),
        line(
            "a2",
            "u2",
            json!({"input_tokens": 4, "cache_creation_input_tokens": 900, "cache_read_input_tokens": 100, "output_tokens": 2}),
        ),
    ]));
    let split = t.messages()[1].recorded().expect("usage");
    assert_eq!(
        (
            split.input_tokens,
            split.cache_write_5m_tokens,
            split.cache_write_1h_tokens,
            split.cache_read_tokens,
            split.output_tokens
        ),
        (3, 500, 1000, 20000, 7)
    );
    assert_eq!(split.context_tokens(), 21503);
    let unsplit = t.messages()[3].recorded().expect("usage");
    assert_eq!(
        (
            unsplit.cache_write_5m_tokens,
            unsplit.cache_write_1h_tokens,
            unsplit.cache_read_tokens
        ),
        (900, 0, 100),
        "no lifetime split: the API's default 5-minute write"
    );

    let codex = load(jsonl(&[
        json!({"timestamp": "t0", "type": "session_meta", "payload": {"id": "s", "cwd": "/repo"}}),
        json!({"timestamp": "t1", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}}),
        json!({"timestamp": "t2", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "hello"}]}}),
        json!({"timestamp": "t3", "type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": {"input_tokens": 5000, "cached_input_tokens": 4096, "output_tokens": 300, "reasoning_output_tokens": 256, "total_tokens": 5300}}}}),
    ]));
    let u = codex.messages()[1].recorded().expect("token_count");
    assert_eq!(
        (
            u.input_tokens,
            u.cache_read_tokens,
            u.cache_write_tokens(),
            u.output_tokens,
            u.reasoning_tokens
        ),
        (904, 4096, 0, 300, 256)
    );
    assert_eq!(
        u.context_tokens(),
        5000,
        "OpenAI's input_tokens already holds the cached part"
    );
}

#[test]
fn codex_replacement_history_is_the_live_context() {
    let summary =
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "summary of the work"}]});
    let t = load(jsonl(&[
        json!({"timestamp": "t0", "type": "session_meta", "payload": {"id": "s"}}),
        json!({"timestamp": "t1", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "old request"}]}}),
        json!({"timestamp": "t2", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "old answer"}]}}),
        json!({"timestamp": "t3", "type": "compacted", "payload": {"message": "summary of the work", "replacement_history": [summary]}}),
        json!({"timestamp": "t4", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "new answer"}]}}),
    ]));
    assert_eq!(roles(&t), ["user", "assistant"], "the replacement, then what followed");
    assert!(t.readable_text(0).contains("summary of the work"));
    assert!(t.notes().iter().any(|n| n.is_past_compaction() && n.before == 0));
}

#[test]
fn gemini_pairs_id_less_calls_by_position_and_name() {
    let body = json!({
        "systemInstruction": {"parts": [{"text": "be brief"}]},
        "contents": [
            {"role": "user", "parts": [{"text": "two topics please"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "topic", "args": {}}}, {"functionCall": {"name": "joke", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "topic", "response": {"r": 1}}}, {"functionResponse": {"name": "joke", "response": {"r": 2}}}]},
            {"role": "model", "parts": [{"text": "done"}]}
        ]
    });
    let t = load(serde_json::to_vec_pretty(&body).expect("json"));
    assert_eq!(t.format().name(), "gemini");
    assert_eq!(t.system(), Some("be brief"));
    assert_eq!(roles(&t), ["user", "assistant", "user", "assistant"]);
    assert_eq!(t.groups().groups.len(), 1);
    assert_eq!(t.groups().groups[0].results, [2]);
    assert!(t.groups().orphans.is_empty());
    assert_eq!(
        *t.boundaries(),
        [0],
        "a turn of only functionResponse parts is not a human turn"
    );
    // Names that do not line up are not paired: both sides are orphans, and check says so.
    let mut swapped = body.clone();
    swapped["contents"][2]["parts"][0]["functionResponse"]["name"] = "joke".into();
    swapped["contents"][2]["parts"][1]["functionResponse"]["name"] = "topic".into();
    let t = load(serde_json::to_vec(&swapped).expect("json"));
    assert!(t.groups().orphans.iter().any(|o| o.kind == OrphanKind::Call));
    let late = json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}, {"role": "user", "parts": [{"functionResponse": {"id": "x", "name": "f", "response": {}}}]}]});
    let problems = check(&load(serde_json::to_vec(&late).expect("json")), Provider::Gemini);
    assert_eq!(
        problems[0].provider_error,
        "Please ensure that function response turn comes immediately after a function call turn."
    );
}

#[test]
fn responses_items_pair_by_call_id() {
    let items = json!([
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "weather?"}]},
        {"type": "reasoning", "summary": [{"type": "summary_text", "text": "call the tool"}]},
        {"type": "function_call", "call_id": "c1", "name": "weather", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "sunny"},
        {"type": "function_call_output", "call_id": "c9", "output": "stray"}
    ]);
    let t = load(serde_json::to_vec_pretty(&items).expect("json"));
    assert_eq!(t.format().name(), "responses");
    assert_eq!(t.groups().groups[0].results, [3]);
    assert_eq!(t.groups().orphans.len(), 1);
    let problems = check(&t, Provider::Responses);
    assert_eq!(problems.len(), 1);
    assert_eq!(
        problems[0].provider_error,
        "No tool call found for function call output with call_id c9."
    );
}

#[test]
fn openhands_actions_pair_with_their_observations() {
    let events = json!([
        {"id": 0, "source": "user", "action": "message", "message": "make a todo app", "args": {"content": "make a todo app"}},
        {"id": 1, "source": "agent", "action": "run", "message": "Running mkdir", "tool_call_metadata": {"tool_call_id": "toolu_1", "function_name": "execute_bash"}, "args": {"command": "mkdir app"}},
        {"id": 2, "source": "agent", "observation": "run", "cause": 1, "message": "ran", "content": "", "tool_call_metadata": {"tool_call_id": "toolu_1", "function_name": "execute_bash"}},
        {"id": 3, "source": "environment", "observation": "agent_state_changed", "message": "", "content": ""},
        {"id": 5, "source": "agent", "action": "browse", "message": "Opening the page", "args": {"url": "http://localhost:8000"}},
        {"id": 6, "source": "agent", "observation": "browse", "cause": 5, "message": "page loaded", "content": "<html>"},
        {"id": 7, "source": "user", "observation": "null", "cause": 0, "message": "No observation", "content": ""},
        {"id": 4, "source": "agent", "action": "message", "message": "done", "args": {"content": "done"}}
    ]);
    let t = load(serde_json::to_vec_pretty(&events).expect("json"));
    assert_eq!(t.format().name(), "openhands");
    assert_eq!(
        roles(&t),
        [
            "user",
            "assistant",
            "tool",
            "event",
            "assistant",
            "tool",
            "event",
            "assistant"
        ]
    );
    assert_eq!(t.groups().groups[0].results, [2], "paired by tool_call_metadata");
    assert_eq!(t.groups().groups[1].results, [5], "paired by cause");
    assert!(
        t.groups().orphans.is_empty(),
        "an observation caused by a user message is not a result"
    );
}

#[test]
fn nothing_compacted_round_trips_byte_for_byte_in_every_format() {
    let fixtures: Vec<Vec<u8>> = vec![
        claude_session(),
        std::fs::read(common::repo().join("sample-transcripts/agent-loop.jsonl")).expect("jsonl"),
        std::fs::read(common::repo().join("sample-transcripts/anthropic-parallel-tools.json")).expect("anthropic"),
        serde_json::to_vec_pretty(&json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]})).expect("gemini"),
        serde_json::to_vec_pretty(&json!([{"type": "message", "role": "user", "content": "hi"}, {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}])).expect("responses"),
        jsonl(&[json!({"timestamp": "t", "type": "response_item", "payload": {"type": "message", "role": "user", "content": "hi"}})]),
    ];
    let real = common::data().join("real-transcripts");
    let mut all = fixtures;
    for folder in std::fs::read_dir(&real)
        .expect("folder")
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
    {
        for file in std::fs::read_dir(folder.path()).expect("files") {
            all.push(std::fs::read(file.expect("entry").path()).expect("read"));
        }
    }
    for bytes in all {
        let out = ctxlens_stdin(&["compact", "-", "--max-tokens", "100000000"], &bytes);
        assert_exit(&out, 0);
        assert!(
            out.stdout == bytes,
            "not byte-identical: {}",
            String::from_utf8_lossy(&bytes[..bytes.len().min(200)])
        );
    }
}

#[test]
fn stats_show_recorded_usage_and_notes() {
    let out = ctxlens_stdin(&["stats", "-"], &claude_session());
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(text.contains("┄ title: Fix the build"), "{text}");
    assert!(
        text.contains("┄ recorded prompt 100 (input 10 · cache write 20 · cache read 70) vs estimate"),
        "{text}"
    );
    let json: Value =
        serde_json::from_slice(&ctxlens_stdin(&["stats", "-", "--json"], &claude_session()).stdout).expect("json");
    assert_eq!(json["format"], "claude-code");
    assert_eq!(json["messages"][1]["recorded"]["context_tokens"], 100);
    assert_eq!(
        json["messages"][1]["recorded"]["cache_read_tokens"], 70,
        "the split beside the sum"
    );
    assert_eq!(json["messages"][1]["recorded"]["cache_write_5m_tokens"], 20);
    assert_eq!(json["recorded_last"], 100);
    assert_eq!(json["notes"][0]["kind"], "title");
}

#[test]
fn codex_prompts_logged_only_as_events_are_human_turns() {
    let rollout = common::data().join("real-transcripts/codex-rollout/codemie-codex-desktop-019e1695.jsonl");
    let text = std::fs::read_to_string(&rollout).expect("rollout");
    let prompts = text.lines().filter(|l| l.contains("\"type\":\"user_message\"")).count();
    let t = ctxlens::transcript::Transcript::read(&rollout, None).expect("loads");
    assert_eq!(t.boundaries().len(), prompts, "every prompt is a human turn");
    assert!(t
        .boundaries()
        .iter()
        .all(|&i| t.messages()[i].from_event() && t.role_label(i) == "user·event"));
    // A rollout that logs the prompt twice (as an item and as an event) has it once.
    // A rollout that logs the prompt twice (as an item and as an event, in either order)
    // has it once, from the item.
    for item_first in [true, false] {
        let doubled: String = text
            .lines()
            .map(|l| {
                let v: serde_json::Value = serde_json::from_str(l).expect("json");
                if v["payload"]["type"] == "user_message" {
                    let item = serde_json::json!({"timestamp": v["timestamp"], "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": v["payload"]["message"]}]}});
                    if item_first {
                        format!("{item}\n{l}\n")
                    } else {
                        format!("{l}\n{item}\n")
                    }
                } else {
                    format!("{l}\n")
                }
            })
            .collect();
        let t2 = ctxlens::transcript::Transcript::parse("doubled.jsonl", doubled.into_bytes(), None).expect("loads");
        assert_eq!(t2.boundaries().len(), prompts, "item first: {item_first}");
        assert!(t2.boundaries().iter().all(|&i| !t2.messages()[i].from_event()));
        assert_eq!(t2.messages().len(), t.messages().len());
    }
}

#[test]
fn an_anthropic_request_known_only_by_its_image_block_is_anthropic() {
    // No `system`, no tool blocks: an `image` block with a `source` object is Anthropic's
    // (OpenAI's are `image_url`, LangChain's carry `source_type`).
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
    let anthropic = json!({"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [
        {"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": png}},
            {"type": "text", "text": "What is this?"}
        ]}
    ]});
    let t = load(serde_json::to_vec(&anthropic).expect("json"));
    assert_eq!(t.format().dialect, Dialect::Anthropic);
    let langchain = json!({"messages": [
        {"role": "user", "content": [
            {"type": "image", "source_type": "base64", "mime_type": "image/png", "data": png},
            {"type": "text", "text": "What is this?"}
        ]}
    ]});
    let t = load(serde_json::to_vec(&langchain).expect("json"));
    assert_eq!(t.format().dialect, Dialect::OpenAi);
}

#[test]
fn deepseek_reasoning_is_read_as_thinking() {
    let chat = json!([
        {"role": "user", "content": "What is 2+2?"},
        {"role": "assistant", "content": "4", "reasoning_content": "Two plus two is four."}
    ]);
    let t = load(serde_json::to_vec(&chat).expect("json"));
    assert_eq!(t.format().dialect, Dialect::OpenAi);
    let text = t.readable_text(1);
    assert!(text.starts_with("[thinking] Two plus two is four."), "{text}");
    assert!(text.ends_with('4'), "{text}");
    // Counted by kind as thinking, as Anthropic's thinking blocks are.
    let counts = Counts::compute(&t, Tokenizer::Estimate);
    let rows = ctxlens::breakdown::breakdown(&t, &counts, None, ctxlens::breakdown::By::Kind);
    assert!(rows.iter().any(|r| r.label == "thinking" && r.tokens > 0), "{rows:?}");
}

#[test]
fn opaque_signatures_have_their_own_row_under_a_text_counter() {
    let gemini =
        common::data().join("real-transcripts/gemini-contents/pydantic-ai-gemini3-parallel-calls.request.json");
    let t = Transcript::read(&gemini, None).expect("loads");
    let share = |tokenizer: Tokenizer| {
        let counts = Counts::compute(&t, tokenizer);
        let rows = ctxlens::breakdown::breakdown(&t, &counts, None, ctxlens::breakdown::By::Kind);
        assert_eq!(
            rows.iter().map(|r| r.tokens).sum::<u64>(),
            counts.total(),
            "every token once"
        );
        rows.iter()
            .find(|r| r.label == "signatures and encrypted")
            .map_or(0, |r| r.tokens)
    };
    // The estimate counts Gemini's thoughtSignature as text; the provider does not.
    assert!(share(Tokenizer::Estimate) > 0);
    assert_eq!(share(Tokenizer::Provider), 0);
}

// ---- edge decisions (docs/tokens.md, "Edge decisions") ----------------------------------------

fn counted(json: &str, tokenizer: Tokenizer) -> u64 {
    let t = Transcript::parse("edge.json", json.as_bytes().to_vec(), None).expect("loads");
    Counts::compute(&t, tokenizer).total()
}

#[test]
fn a_duplicate_key_is_counted_as_written_and_read_as_the_api_reads_it() {
    let twice = r#"[{"role":"user","content":"hello there, a long first value","content":"hi"}]"#;
    let once = r#"[{"role":"user","content":"hi"}]"#;
    // Counted: both values are in the request the client sends.
    assert!(counted(twice, Tokenizer::Estimate) > counted(once, Tokenizer::Estimate));
    // Read: the last value, as the API's parser keeps it.
    let t = Transcript::parse("edge.json", twice.as_bytes().to_vec(), None).expect("loads");
    assert_eq!(t.readable_text(0), "hi");
}

#[test]
fn nesting_deeper_than_128_levels_is_an_error_at_its_position() {
    let nested = |depth: usize| {
        format!(
            r#"[{{"role":"user","content":"x","meta":{}{}}}]"#,
            "[".repeat(depth),
            "]".repeat(depth)
        )
    };
    assert!(Transcript::parse("ok.json", nested(120).into_bytes(), None).is_ok());
    let error = Transcript::parse("deep.json", nested(130).into_bytes(), None)
        .expect_err("too deep")
        .to_string();
    assert!(error.starts_with("deep.json:1:"), "{error}");
    assert!(error.contains("deeper than 128 levels"), "{error}");
}

#[test]
fn a_lone_surrogate_is_measured_as_json_stringify_writes_it_back() {
    // `\ud800` alone is six characters once re-escaped, in every unit the ports use (the
    // Python port's `json.dumps(ensure_ascii=False)` writes the raw surrogate: one code
    // point there).
    let lone = r#"[{"role":"user","content":"a\ud800b"}]"#;
    let six = r#"[{"role":"user","content":"a123456b"}]"#;
    let one = r#"[{"role":"user","content":"a1b"}]"#;
    for tokenizer in [
        Tokenizer::Estimate,
        Tokenizer::EstimateCodepoints,
        Tokenizer::EstimateUtf8,
    ] {
        assert_eq!(counted(lone, tokenizer), counted(six, tokenizer), "{tokenizer}");
        assert_ne!(counted(lone, tokenizer), counted(one, tokenizer), "{tokenizer}");
    }
}

#[test]
fn the_model_picks_the_image_rule_and_model_overrides_it() {
    // A 1×1 PNG: one tile, one patch.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
    let request = |model: &str| {
        serde_json::to_vec(&json!({"model": model, "messages": [
            {"role": "user", "content": [
                {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}}
            ]}
        ]}))
        .expect("json")
    };
    let total = |bytes: &[u8], extra: &[&str]| {
        let mut args = vec!["stats", "-", "--tokenizer", "provider", "--json"];
        args.extend_from_slice(extra);
        let out = ctxlens_stdin(&args, bytes);
        assert_exit(&out, 0);
        let doc: Value = serde_json::from_str(&stdout(&out)).expect("json");
        doc["total"].as_u64().expect("total")
    };
    let gpt_4o = total(&request("gpt-4o"), &[]);
    let mini = total(&request("gpt-4o-mini"), &[]);
    let gpt_5 = total(&request("gpt-5"), &[]);
    // The same text around an image billed 85 + 170, 2,833 + 5,667 and 70 + 140.
    assert_eq!(mini - gpt_4o, (2_833 + 5_667) - (85 + 170));
    assert_eq!(gpt_4o - gpt_5, (85 + 170) - (70 + 140));
    // --model wins over the request's own.
    assert_eq!(total(&request("gpt-4o"), &["--model", "gpt-4o-mini"]), mini);
}

#[test]
fn a_gemini_request_s_media_resolution_sets_what_its_images_cost() {
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
    let request = |model: &str, config: Value, part_level: Option<&str>| {
        let mut part = json!({"inlineData": {"mimeType": "image/png", "data": png}});
        if let Some(level) = part_level {
            part["mediaResolution"] = json!({"level": level});
        }
        serde_json::to_vec(&json!({"model": model, "generationConfig": config, "contents": [
            {"role": "user", "parts": [{"text": "what is this"}, part]}
        ]}))
        .expect("json")
    };
    let total = |bytes: Vec<u8>| {
        let out = ctxlens_stdin(&["stats", "-", "--tokenizer", "provider", "--json"], &bytes);
        assert_exit(&out, 0);
        let doc: Value = serde_json::from_str(&stdout(&out)).expect("json");
        doc["total"].as_u64().expect("total")
    };
    let none = json!({});
    let low = json!({"mediaResolution": "MEDIA_RESOLUTION_LOW"});
    // Gemini 3: 1,120 by default, 280 at the request's low, 2,240 for a part at ultra high.
    let default = total(request("gemini-3-pro-preview", none.clone(), None));
    assert_eq!(
        default - total(request("gemini-3-pro-preview", low.clone(), None)),
        1_120 - 280
    );
    assert_eq!(
        total(request(
            "gemini-3-pro-preview",
            low.clone(),
            Some("MEDIA_RESOLUTION_ULTRA_HIGH")
        )) - default,
        2_240 - 1_120
    );
    // Gemini 2.5: one 258-token tile by default, 64 at low.
    assert_eq!(
        total(request("gemini-2.5-flash", none, None)) - total(request("gemini-2.5-flash", low, None)),
        258 - 64
    );
}

#[test]
fn a_media_note_names_the_rule_and_says_when_it_is_assumed() {
    let image_log = common::data().join("real-transcripts/claude-code-jsonl/ccl-sample-image-0d3a8e6f.jsonl");
    let image_log = image_log.to_str().expect("utf-8");
    let notes = |tokenizer: &str| {
        let out = common::ctxlens(&["stats", image_log, "--tokenizer", tokenizer]);
        assert_exit(&out, 0);
        stdout(&out)
            .lines()
            .filter(|l| l.contains("image 2000×1008"))
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    // The log names its model: that model's rule, not "the provider's".
    for tokenizer in ["estimate", "o200k", "provider"] {
        let lines = notes(tokenizer);
        assert!(!lines.is_empty(), "{tokenizer}");
        assert!(
            lines.iter().all(|l| l.contains("Anthropic's rule for claude-")),
            "{lines:?}"
        );
    }
    // The BPE counters say theirs is OpenAI's rule.
    assert!(notes("o200k").iter().all(|l| l.contains("OpenAI's GPT-4o image rule")));
    // A request that names no model: the rule is assumed, and said to be.
    let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==";
    let t = load(
        serde_json::to_vec(&json!([{"role": "user", "content": [
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{png}")}}
        ]}]))
        .expect("json"),
    );
    assert!(ctxlens::tokens::media::provider_rule(&t).contains("assumed"));
}

#[test]
fn an_image_counts_the_same_in_standard_and_url_safe_base64_under_every_tokenizer() {
    // An image whose standard encoding holds `+` or `/` (a 3×1 RGB PNG).
    let standard = "iVBORw0KGgoAAAANSUhEUgAAAAMAAAABCAIAAACUgoPjAAAADklEQVR4nGP4/X4/BAEAKKUH/EtXNfYAAAAASUVORK5CYII=";
    assert!(
        standard.contains(['+', '/']),
        "the standard form uses the characters base64url replaces"
    );
    let url_safe = standard.replace('+', "-").replace('/', "_");
    let request = |payload: &str| {
        json!([{"role": "user", "content": [
            {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": payload}},
            {"type": "text", "text": "What is this?"}
        ]}])
        .to_string()
    };
    for tokenizer in Tokenizer::ALL {
        assert_eq!(
            counted(&request(standard), tokenizer),
            counted(&request(&url_safe), tokenizer),
            "{tokenizer}"
        );
    }
    // And the size is read from either: counted by the image rule, not "size unknown".
    let t = load(request(&url_safe).into_bytes());
    let media = ctxlens::tokens::media::media_in(&serde_json::from_str(&t.request(0)).expect("json"));
    assert_eq!(media[0].size, Some((3, 1)));
}

/// A Codex rollout that records its model's window (`token_count` events'
/// `info.model_context_window`, codex-rs's `TokenUsageInfo`) is measured against that
/// window, not one guessed from the model's name: status and compare alike (the model's
/// window behind it for compare's defaults).
#[test]
fn a_codex_rollouts_own_window_is_the_window() {
    let rollout = jsonl(&[
        json!({"timestamp": "t0", "type": "session_meta", "payload": {"id": "s", "cwd": "/repo", "cli_version": "0.60.0"}}),
        json!({"timestamp": "t0", "type": "turn_context", "payload": {"model": "gpt-5.5-codex"}}),
        json!({"timestamp": "t1", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list files"}]}}),
        json!({"timestamp": "t2", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]}}),
        json!({"timestamp": "t3", "type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": {"input_tokens": 129_200, "cached_input_tokens": 0, "output_tokens": 20}, "model_context_window": 258_400}}}),
    ]);
    let status: Value =
        serde_json::from_slice(&ctxlens_stdin(&["status", "-", "--json"], &rollout).stdout).expect("status JSON");
    assert_eq!(status["window"], 258_400, "{status}");
    assert_eq!(status["pct"], 50);
    let compared: Value = serde_json::from_slice(
        &ctxlens_stdin(&["compare", "-", "--json", "--summarizer", "placeholder"], &rollout).stdout,
    )
    .expect("compare JSON");
    // The agents' defaults come from the model's window, which the rollout's usable one
    // (95% of it) gives.
    assert_eq!(compared["context_window"], 258_400 * 100 / 95);
}

/// Codex 0.58 writes a call's `token_count` before the call's items (after its reasoning
/// event), and the same usage again after the call's outputs (as the shipped 0.58
/// rollout does): the usage goes to the answer that follows, not to the tool output
/// before it, and the repeat measures nothing.
#[test]
fn a_codex_usage_written_before_its_answer_goes_to_that_answer() {
    let t = load(jsonl(&[
        json!({"timestamp": "t0", "type": "session_meta", "payload": {"id": "s", "cwd": "/repo"}}),
        json!({"timestamp": "t1", "type": "response_item", "payload": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "list files"}]}}),
        json!({"timestamp": "t2", "type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": {"input_tokens": 300, "output_tokens": 9}, "total_token_usage": {"input_tokens": 300, "output_tokens": 9}}}}),
        json!({"timestamp": "t2", "type": "response_item", "payload": {"type": "reasoning", "summary": []}}),
        json!({"timestamp": "t2", "type": "response_item", "payload": {"type": "function_call", "call_id": "c1", "name": "shell", "arguments": "{\"cmd\":\"ls\"}"}}),
        json!({"timestamp": "t3", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "a b"}}),
        json!({"timestamp": "t3", "type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": {"input_tokens": 300, "output_tokens": 9}, "total_token_usage": {"input_tokens": 300, "output_tokens": 9}}}}),
        json!({"timestamp": "t4", "type": "event_msg", "payload": {"type": "agent_reasoning", "text": "answer"}}),
        json!({"timestamp": "t4", "type": "event_msg", "payload": {"type": "token_count", "info": {"last_token_usage": {"input_tokens": 420, "output_tokens": 5}, "total_token_usage": {"input_tokens": 720, "output_tokens": 14}}}}),
        json!({"timestamp": "t4", "type": "response_item", "payload": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a and b"}]}}),
    ]));
    let recorded: Vec<Option<u64>> = t
        .messages()
        .iter()
        .map(|m| m.recorded().map(|r| r.context_tokens()))
        .collect();
    assert_eq!(recorded, [None, None, Some(300), None, Some(420)], "{recorded:?}");
}
