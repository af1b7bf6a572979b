//! What the model really saw and paid for: messages counted as the request carries them,
//! images by provider rules, Claude Code's parallel results as the client sends them,
//! recorded usage fitted, where the context goes, and exports their clients accept
//! (claude-code-log, when installed: `.ci/run` installs it and requires it).

use crate::common;

use std::path::PathBuf;

use common::{assert_exit, ctxlens, ctxlens_stdin, json_stdout, stdout};
use serde_json::json;

fn real(path: &str) -> String {
    common::data().join("real-transcripts").join(path).display().to_string()
}

fn total(args: &[&str]) -> u64 {
    let out = ctxlens(args);
    assert_exit(&out, 0);
    json_stdout(&out)["total"].as_u64().expect("total")
}

#[test]
fn a_screenshot_is_counted_by_the_image_rule_not_as_text() {
    let file = real("claude-code-jsonl/ccl-sample-image-0d3a8e6f.jsonl");
    let estimate = total(&["stats", &file, "--json"]);
    let cl100k = total(&["stats", &file, "--json", "--tokenizer", "cl100k"]);
    assert!(
        estimate > 250_000,
        "the §7F estimator still counts the base64 text: {estimate}"
    );
    assert!(cl100k < 60_000, "cl100k counts the image by rule: {cl100k}");
    let stats = json_stdout(&ctxlens(&["stats", &file, "--json"]));
    let with_media: Vec<&serde_json::Value> = stats["messages"]
        .as_array()
        .expect("rows")
        .iter()
        .filter(|m| m.get("media").is_some())
        .collect();
    assert_eq!(with_media.len(), 1, "one message is mostly an image");
    let media = &with_media[0]["media"];
    assert_eq!(
        (
            media["parts"][0]["width"].as_u64(),
            media["parts"][0]["height"].as_u64()
        ),
        (Some(2000), Some(1008))
    );
    let provider = media["provider_tokens"].as_u64().expect("provider figure");
    assert!(
        (1_000..3_000).contains(&provider),
        "about a screenshot's worth: {provider}"
    );
    let table = stdout(&ctxlens(&["stats", &file]));
    assert!(
        table.contains("image 2000×1008: the estimator counts it as"),
        "warned in the table"
    );
    let plan = ctxlens(&["compact", &file, "--max-tokens", "100000", "--plan"]);
    assert!(common::stderr(&plan).contains("a compactor using the estimator fires on it"));
}

#[test]
fn trajectory_metadata_is_not_counted_unless_asked() {
    let file = real("openai-chat/mini-swe-agent-deepseek-chat-django-13265.traj.json");
    let request = total(&["stats", &file, "--json", "--tokenizer", "cl100k"]);
    let raw = total(&["stats", &file, "--json", "--tokenizer", "cl100k", "--count", "raw"]);
    assert!(request < 100_000, "without `extra`: {request}");
    assert!(raw > 200_000, "--count raw counts what is stored: {raw}");
}

/// A Claude Code session with one parallel response (two calls), logged the way current
/// clients log it: each result links to its own call's line, so the first result sits on
/// a side branch of the chain the leaf walks back through.
fn parallel_session() -> Vec<u8> {
    let base = |uuid: &str, parent: Option<&str>| {
        json!({"uuid": uuid, "parentUuid": parent, "isSidechain": false, "userType": "external",
               "cwd": "/repo", "sessionId": "s1", "version": "2.1.0", "timestamp": "2026-11-30T10:00:00Z"})
    };
    let with = |mut record: serde_json::Value, extra: serde_json::Value| {
        for (k, v) in extra.as_object().expect("object") {
            record[k] = v.clone();
        }
        record
    };
    let lines = [
        with(
            base("u1", None),
            json!({"type": "user", "message": {"role": "user", "content": "look at both files"}}),
        ),
        with(
            base("a1", Some("u1")),
            json!({"type": "assistant", "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "Reading both."}], "usage": {"input_tokens": 10, "cache_read_input_tokens": 20000, "output_tokens": 5}}}),
        ),
        with(
            base("a2", Some("a1")),
            json!({"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Read", "input": {"file_path": "a.rs"}}], "usage": {"input_tokens": 10, "cache_read_input_tokens": 20000, "output_tokens": 5}}}),
        ),
        with(
            base("a3", Some("a2")),
            json!({"type": "assistant", "message": {"id": "m1", "role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Read", "input": {"file_path": "b.rs"}}], "usage": {"input_tokens": 10, "cache_read_input_tokens": 20000, "output_tokens": 5}}}),
        ),
        with(
            base("r1", Some("a2")),
            json!({"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "fn a() {}"}]}}),
        ),
        with(
            base("r2", Some("a3")),
            json!({"type": "user", "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "content": "fn b() {}"}]}}),
        ),
        with(
            base("a4", Some("r2")),
            json!({"type": "assistant", "message": {"id": "m2", "role": "assistant", "content": [{"type": "text", "text": "Both define one function."}], "usage": {"input_tokens": 10, "cache_read_input_tokens": 20100, "output_tokens": 9}}}),
        ),
        with(
            base("u2", Some("a4")),
            json!({"type": "user", "message": {"role": "user", "content": "thanks"}}),
        ),
    ];
    let mut out = Vec::new();
    for line in lines {
        out.extend_from_slice(line.to_string().as_bytes());
        out.push(b'\n');
    }
    out
}

#[test]
fn parallel_calls_are_sent_as_the_client_sends_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("session.jsonl");
    std::fs::write(&path, parallel_session()).expect("write");
    let file = path.display().to_string();
    let out = ctxlens(&["check", &file, "--provider", "anthropic"]);
    assert_exit(&out, 0);
    let stats = json_stdout(&ctxlens(&["stats", &file, "--json"]));
    let roles: Vec<&str> = stats["messages"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|m| m["role"].as_str().expect("role"))
        .collect();
    assert_eq!(
        roles,
        ["user", "assistant", "user", "assistant", "user"],
        "one response, one message of both results, in call order"
    );
    assert_eq!(stats["messages"][2]["tool_results"], json!(["t1", "t2"]));
}

#[test]
fn anthropic_exports_pass_check_with_a_user_summary() {
    let file = common::repo().join("sample-transcripts/anthropic-parallel-tools.json");
    let file = file.display().to_string();
    let system = ctxlens(&["compact", &file, "--max-tokens", "300"]);
    let user = ctxlens(&["compact", &file, "--max-tokens", "300", "--summary-role", "user"]);
    let checked = |doc: &[u8]| ctxlens_stdin(&["check", "-", "--provider", "anthropic"], doc);
    assert_exit(&checked(&system.stdout), 1);
    assert_exit(&checked(&user.stdout), 0);
    // Without --provider, the export is still checked as Anthropic.
    assert_exit(&ctxlens_stdin(&["check", "-"], &user.stdout), 0);
    assert!(stdout(&ctxlens_stdin(&["check", "-"], &user.stdout)).contains("ok for anthropic"));
}

#[test]
fn plural_tool_call_ids_fail_the_openai_check() {
    let file = real("openai-chat/swe-agent-marshmallow-1867-function-calling.traj");
    let out = ctxlens(&["check", &file, "--provider", "openai"]);
    assert_exit(&out, 1);
    assert!(stdout(&out).contains("plural `tool_call_ids` but no `tool_call_id`"));
}

#[test]
fn recorded_usage_is_fitted_and_explained() {
    let file = real("claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let stats = json_stdout(&ctxlens(&["stats", &file, "--json", "--tokenizer", "provider"]));
    let calibration = &stats["calibration"];
    let overhead = calibration["overhead"].as_u64().expect("overhead");
    assert!(
        (25_000..45_000).contains(&overhead),
        "system prompt and tools: {overhead}"
    );
    let median = calibration["median_error_percent"].as_f64().expect("median");
    assert!(median < 5.0, "median per-call error {median}%");
    let total = stats["total"].as_u64().expect("total");
    assert!(calibration["calibrated_total"].as_u64().expect("calibrated") > total + overhead / 2);
    let table = stdout(&ctxlens(&["stats", &file, "--tokenizer", "provider"]));
    assert!(table.contains("tokens of system prompt and tool definitions, not in the log"));
}

#[test]
fn where_the_context_goes_by_kind_and_by_tool() {
    let file = real("claude-code-jsonl/ccl-sample-37f83ec9.jsonl");
    let by_kind = json_stdout(&ctxlens(&[
        "stats",
        &file,
        "--by",
        "kind",
        "--json",
        "--max-tokens",
        "40000",
    ]));
    let rows = by_kind["rows"].as_array().expect("rows");
    // Every counted token once; the fitted row (what the log does not hold) beside them.
    let sum: u64 = rows
        .iter()
        .filter(|r| r["fitted"] != true)
        .map(|r| r["tokens"].as_u64().expect("tokens"))
        .sum();
    assert_eq!(
        sum,
        by_kind["total"].as_u64().expect("total"),
        "every token counted once"
    );
    for r in rows {
        let parts = ["head", "summarized", "tail"].map(|k| r[k].as_u64().expect("section"));
        assert_eq!(parts.iter().sum::<u64>(), r["tokens"].as_u64().expect("tokens"));
    }
    let labels: Vec<&str> = rows.iter().map(|r| r["label"].as_str().expect("label")).collect();
    assert!(
        labels.contains(&"thinking") || labels.contains(&"tool results"),
        "{labels:?}"
    );
    let by_tool = json_stdout(&ctxlens(&["stats", &file, "--by", "tool", "--json"]));
    let tools: Vec<&str> = by_tool["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["label"].as_str().expect("label"))
        .collect();
    assert!(tools.contains(&"tool result Bash"), "{tools:?}");
}

/// claude-code-log (on `PyPI`) reads every compacted Claude Code sample without a validation
/// error or an orphan, and takes ctxlens' summary for a compaction's, as it takes Claude
/// Code's own (by its opening sentence). Run when `CTXLENS_CLAUDE_CODE_LOG` names
/// its executable (`.ci/run` installs it and sets `CTXLENS_REQUIRE_CLIENTS=1`).
#[test]
fn claude_code_log_reads_every_compacted_sample() {
    let Some(viewer) = std::env::var_os("CTXLENS_CLAUDE_CODE_LOG").map(PathBuf::from) else {
        assert!(
            std::env::var_os("CTXLENS_REQUIRE_CLIENTS").is_none(),
            "CTXLENS_CLAUDE_CODE_LOG is not set but CTXLENS_REQUIRE_CLIENTS is"
        );
        eprintln!("claude-code-log not configured (CTXLENS_CLAUDE_CODE_LOG): skipped");
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = common::data().join("real-transcripts/claude-code-jsonl");
    let mut checked = 0;
    let files = std::fs::read_dir(&folder).expect("folder").count();
    for entry in std::fs::read_dir(&folder).expect("folder") {
        let file = entry.expect("entry").path();
        let name = file.file_name().expect("name").to_string_lossy().into_owned();
        let half = total(&["stats", &file.display().to_string(), "--json"]) / 2;
        let out = dir.path().join(&name);
        let compacted = ctxlens(&[
            "compact",
            &file.display().to_string(),
            "--max-tokens",
            &half.to_string(),
            "--flush-to-memory",
            "-o",
            &out.display().to_string(),
        ]);
        assert_exit(&compacted, 0);
        // And compacted again: two compactions on the chain, the first one's boundary kept.
        let total_after = total(&["stats", &out.display().to_string(), "--json"]);
        let again = ctxlens(&[
            "compact",
            &out.display().to_string(),
            "--max-tokens",
            &total_after.saturating_sub(1).max(1).to_string(),
            "--keep-tail",
            &(total_after / 4).to_string(),
            "--force",
            "-o",
            &out.display().to_string(),
        ]);
        assert_exit(&again, 0);
        let rendered = dir.path().join(format!("{name}.json"));
        let run = std::process::Command::new(&viewer)
            .arg(&out)
            .arg("-o")
            .arg(&rendered)
            .output()
            .expect("claude-code-log runs");
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&run.stdout),
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(run.status.success(), "{name}: {said}");
        for problem in ["validation error", "Orphan", "orphan", "Unexpected error"] {
            assert!(!said.contains(problem), "{name}: claude-code-log says {said}");
        }
        // The viewer knows a compaction summary by Claude Code's opening sentence and
        // treats ctxlens' as it treats Claude Code's own (1.7.0 lists neither among the
        // messages, see below): never as an ordinary user turn.
        let messages = rendered_messages(&rendered);
        assert!(
            !messages.contains("Summary of earlier conversation"),
            "{name}: the summary is rendered as a user's turn, not as a compaction's"
        );
        checked += 1;
    }
    assert_eq!(checked, files, "every shipped Claude Code log");
    assert!(checked >= 7, "the shipped logs are there: {checked}");
    // Like with like: Claude Code's own compaction summary, in the log it wrote, is not on
    // the page either.
    let real = folder.join("codemie-autocompact-624a4a58.jsonl");
    let rendered = dir.path().join("codemie.json");
    let run = std::process::Command::new(&viewer)
        .arg(&real)
        .arg("-o")
        .arg(&rendered)
        .output()
        .expect("claude-code-log runs");
    assert!(run.status.success());
    let messages = rendered_messages(&rendered);
    assert!(messages.contains("Ultra-Deep Analysis"), "the log's turns are there");
    assert!(!messages.contains("being continued from a previous conversation"));
}

/// The messages of a claude-code-log JSON export, as one text (its `messages`).
fn rendered_messages(path: &std::path::Path) -> String {
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("rendered")).expect("claude-code-log writes JSON");
    doc["messages"].to_string()
}
