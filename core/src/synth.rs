//! Synthetic transcripts for benchmarks: deterministic, realistic in shape (user turns,
//! assistant tool calls with parallel calls, tool results of varied size, unicode and
//! escapes), any length. Never used at run time.

use std::fmt::Write;

use serde_json::json;

/// A pretty-printed OpenAI chat transcript of exactly `messages` messages.
pub fn openai_transcript(messages: usize) -> String {
    let mut rng = SplitMix(0x5eed);
    let mut out = String::with_capacity(messages * 700);
    out.push_str("[\n  ");
    let mut items = Vec::with_capacity(messages);
    items.push(json!({"role": "system", "content": "You are a careful coding agent. Keep answers short."}));
    let mut call = 0usize;
    while items.len() < messages {
        items.push(json!({"role": "user", "content": prose(&mut rng, 20, 80)}));
        let calls = 1 + rng.below(3) * rng.below(2);
        let ids: Vec<String> = (0..calls).map(|k| format!("call_{}", call + k)).collect();
        call += calls;
        let tool_calls: Vec<_> = ids
            .iter()
            .map(|id| json!({"id": id, "type": "function", "function": {"name": "read_file", "arguments": format!("{{\"path\":\"src/mod_{}.rs\"}}", rng.below(500))}}))
            .collect();
        items.push(json!({"role": "assistant", "content": null, "tool_calls": tool_calls}));
        for id in &ids {
            items.push(json!({"role": "tool", "tool_call_id": id, "content": prose(&mut rng, 40, 300)}));
        }
        items.push(json!({"role": "assistant", "content": prose(&mut rng, 10, 60)}));
    }
    items.truncate(messages);
    let mut first = true;
    for item in &items {
        if !first {
            out.push_str(",\n  ");
        }
        first = false;
        write!(out, "{item}").expect("writing to a String cannot fail");
    }
    out.push_str("\n]\n");
    out
}

const WORDS: &[&str] = &[
    "the",
    "build",
    "fails",
    "on",
    "src/main.rs:42",
    "café",
    "日本語",
    "\"quoted\"",
    "error[E0382]:",
    "value",
    "moved",
    "here",
    "fn",
    "let",
    "mut",
    "→",
    "😀",
    "naïve",
    "{}",
    "\\n",
    "test",
    "passed",
    "0.25",
    "ok",
    "warning:",
];

/// Between `min` and `min + spread - 1` words.
fn prose(rng: &mut SplitMix, min: usize, spread: usize) -> String {
    let words = min + rng.below(spread);
    let mut s = String::with_capacity(words * 6);
    for i in 0..words {
        if i > 0 {
            s.push(if rng.below(12) == 0 { '\n' } else { ' ' });
        }
        s.push_str(WORDS[rng.below(WORDS.len())]);
    }
    s
}

/// A tiny deterministic generator (SplitMix64): no dependency, same output everywhere.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// An Anthropic transcript whose one user message carries `results` tool results of 80
/// log lines each (answering one assistant message's `results` parallel calls): the case
/// that made the deterministic pass quadratic in the results of one message.
pub fn many_results(results: usize) -> String {
    let mut uses = String::new();
    let mut outputs = String::new();
    for i in 0..results {
        if i > 0 {
            uses.push(',');
            outputs.push(',');
        }
        let _ = write!(
            uses,
            r#"{{"type":"tool_use","id":"t{i}","name":"read","input":{{"path":"/src/file{i}.rs"}}}}"#
        );
        let lines: Vec<String> = (0..80)
            .map(|j| format!("line {j} of file {i}: some output text here"))
            .collect();
        let _ = write!(
            outputs,
            r#"{{"type":"tool_result","tool_use_id":"t{i}","content":{}}}"#,
            serde_json::Value::String(lines.join("\n"))
        );
    }
    format!(
        r#"[{{"role":"user","content":"read them all"}},{{"role":"assistant","content":[{uses}]}},{{"role":"user","content":[{outputs}]}},{{"role":"assistant","content":"done"}}]"#
    )
}

/// A generated session of `messages` messages (at least 2) in `format` (0: a Claude Code
/// log, 1: a Codex rollout, 2: an OpenAI JSON array), with a past compaction in a
/// Claude Code log when `compacted`: the file's extension and text.
pub fn session(format: usize, messages: usize, compacted: bool, seed: u64) -> (&'static str, String) {
    let mut rng = SplitMix(seed);
    let mut out = String::with_capacity(messages * 400);
    let cwd = format!("/home/dev/project-{}", seed % 37);
    let stamp = |k: usize| {
        format!(
            "2026-{:02}-{:02}T{:02}:{:02}:00.000Z",
            1 + seed % 12,
            1 + seed % 28,
            k / 60 % 24,
            k % 60
        )
    };
    match format % 3 {
        0 => {
            let mut parent = serde_json::Value::Null;
            for k in 0..messages {
                let uuid = format!("{seed:08x}-0000-4000-8000-{k:012x}");
                if compacted && k == messages / 2 {
                    let boundary = format!("{seed:08x}-0000-4000-9000-{k:012x}");
                    let record = json!({"parentUuid": null, "logicalParentUuid": parent, "isSidechain": false, "type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "uuid": boundary, "sessionId": format!("{seed}"), "cwd": cwd, "timestamp": stamp(k), "compactMetadata": {"trigger": "auto", "preTokens": 150_000}});
                    writeln!(out, "{record}").expect("a String");
                    parent = json!(boundary);
                }
                let (kind, message) = if k % 2 == 0 {
                    ("user", json!({"role": "user", "content": prose(&mut rng, 5, 40)}))
                } else {
                    (
                        "assistant",
                        json!({"id": format!("msg_{seed}_{k}"), "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": prose(&mut rng, 10, 80)}], "usage": {"input_tokens": 10 + k * 40, "output_tokens": 50}}),
                    )
                };
                let record = json!({"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": cwd, "sessionId": format!("{seed}"), "version": "2.0.76", "type": kind, "message": message, "uuid": uuid, "timestamp": stamp(k)});
                writeln!(out, "{record}").expect("a String");
                parent = json!(uuid);
            }
            ("jsonl", out)
        }
        1 => {
            let meta = json!({"timestamp": stamp(0), "type": "session_meta", "payload": {"id": format!("{seed}"), "cwd": cwd}});
            writeln!(out, "{meta}").expect("a String");
            for k in 0..messages {
                let item = if k % 3 == 0 {
                    json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": prose(&mut rng, 5, 30)}]})
                } else if k % 3 == 1 {
                    json!({"type": "function_call", "name": "shell", "arguments": "{\"cmd\":\"ls\"}", "call_id": format!("call_{k}")})
                } else {
                    json!({"type": "function_call_output", "call_id": format!("call_{}", k - 1), "output": prose(&mut rng, 20, 120)})
                };
                writeln!(
                    out,
                    "{}",
                    json!({"timestamp": stamp(k), "type": "response_item", "payload": item})
                )
                .expect("a String");
            }
            ("jsonl", out)
        }
        _ => (
            "json",
            openai_transcript(messages.max(2))
                .replace("careful coding agent", &format!("careful coding agent #{seed}")),
        ),
    }
}

/// A Codex rollout with a `token_count` event after each call's output, as Codex writes
/// one after every model response (the shipped real rollout has none): the usage a
/// growing-log test reads on.
pub fn codex_with_usage(rollout: &str) -> String {
    let mut counted = String::with_capacity(rollout.len() * 2);
    for (k, line) in rollout.lines().enumerate() {
        counted.push_str(line);
        counted.push('\n');
        if line.contains("\"function_call_output\"") {
            let usage = json!({"timestamp": "2026-01-01T00:00:00Z", "type": "event_msg", "payload": {
                "type": "token_count",
                "info": {"last_token_usage": {"input_tokens": 1_000 + k * 37, "output_tokens": 20 + k}}
            }});
            counted.push_str(&usage.to_string());
            counted.push('\n');
        }
    }
    counted
}

/// The shape of a generated agent session ([`agent_session`]): how long its turns run and
/// how big its tool results are. The benchmark generator ([`openai_transcript`]) makes one
/// shape (short turns of similar size); replay speed must hold on every shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionShape {
    /// Tool rounds (an assistant call and its result) per human turn: `1..=rounds`.
    pub rounds: usize,
    /// Words of a tool result: `result_words..result_words * 4`.
    pub result_words: usize,
    /// One tool result in `huge_every` is a hundred times larger (a file dumped whole);
    /// 0 for none.
    pub huge_every: usize,
}

impl SessionShape {
    /// Many short turns: a human turn every three or four messages (about 36% of them).
    pub const SHORT_TURNS: SessionShape = SessionShape {
        rounds: 1,
        result_words: 30,
        huge_every: 0,
    };
    /// Few long turns: tool loops of up to 60 rounds between human turns.
    pub const LONG_LOOPS: SessionShape = SessionShape {
        rounds: 60,
        result_words: 40,
        huge_every: 0,
    };
    /// Mixed turns with an occasional huge tool result.
    pub const BURSTY: SessionShape = SessionShape {
        rounds: 8,
        result_words: 20,
        huge_every: 97,
    };
    /// Every shape above, named (benchmarks and tests iterate over them).
    pub const ALL: [(&'static str, SessionShape); 3] = [
        ("short-turns", SessionShape::SHORT_TURNS),
        ("long-loops", SessionShape::LONG_LOOPS),
        ("bursty", SessionShape::BURSTY),
    ];
}

/// A compact OpenAI chat transcript (one message per line) of exactly `messages` messages
/// in `shape`: a system prompt, then human turns each followed by a tool loop and a reply.
pub fn agent_session(messages: usize, shape: SessionShape, seed: u64) -> String {
    let mut rng = SplitMix(seed);
    let mut items: Vec<serde_json::Value> = Vec::with_capacity(messages + 64);
    items.push(json!({"role": "system", "content": "You are an agent. Use the tools."}));
    let mut call = 0usize;
    while items.len() < messages {
        items.push(json!({"role": "user", "content": prose(&mut rng, 8, 40)}));
        for _ in 0..=rng.below(shape.rounds.max(1)) {
            let id = format!("call_{call}");
            call += 1;
            items.push(json!({"role": "assistant", "content": null, "tool_calls": [{"id": id, "type": "function", "function": {"name": "run", "arguments": format!("{{\"cmd\":\"step {}\"}}", rng.below(1000))}}]}));
            let huge = shape.huge_every > 0 && call.is_multiple_of(shape.huge_every);
            let words = shape.result_words.max(1);
            let words = if huge { words * 100 } else { words };
            items.push(json!({"role": "tool", "tool_call_id": id, "content": prose(&mut rng, words, words * 3)}));
        }
        items.push(json!({"role": "assistant", "content": prose(&mut rng, 5, 30)}));
    }
    items.truncate(messages);
    let mut out = String::with_capacity(messages * 300);
    out.push('[');
    for (k, item) in items.iter().enumerate() {
        if k > 0 {
            out.push_str(",\n");
        }
        write!(out, "{item}").expect("writing to a String cannot fail");
    }
    out.push_str("]\n");
    out
}
