//! Bad input never panics: exit 2 and one `error: FILE:LINE:COLUMN: …` line.

use crate::common;

use common::{assert_exit, ctxlens, stderr};

/// Writes `bytes` to a file named `name`, runs `stats` on it, and returns the error line.
fn error_for(name: &str, bytes: &[u8]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).expect("write");
    let path = path.to_str().expect("UTF-8 path");
    for args in [
        vec!["stats", path],
        vec!["compact", path, "--max-tokens", "10"],
        vec!["check", path],
    ] {
        let out = ctxlens(&args);
        assert_exit(&out, 2);
        let err = stderr(&out);
        assert!(!err.contains("panicked"), "{name}: {err}");
        assert_eq!(err.lines().count(), 1, "{name}: one error line, got: {err}");
        assert!(out.stdout.is_empty(), "{name}: nothing on stdout");
    }
    let out = ctxlens(&["stats", path]);
    stderr(&out).trim_end().replace(path, "FILE")
}

#[test]
fn empty_file() {
    assert_eq!(
        error_for("empty.json", b"  \n"),
        "error: FILE:1:1: empty input: expected a JSON array of messages, an object with `messages`, or JSONL"
    );
}

#[test]
fn truncated_json_names_the_end() {
    let err = error_for("cut.json", b"[\n {\"role\":\"user\",\n  \"content\":\"hi");
    assert!(
        err.starts_with("error: FILE:3:15: truncated JSON: EOF while parsing a string"),
        "{err}"
    );
}

#[test]
fn a_file_cut_just_after_a_backslash_names_the_end() {
    // Found by the `load` fuzz target: the structural scan stepped past the end.
    let kept = common::data().join("reproducers/cut-after-backslash.json");
    let err = error_for("cut-escape.json", &std::fs::read(kept).expect("reproducer"));
    assert!(err.starts_with("error: FILE:3:"), "{err}");
    assert!(err.contains("EOF while parsing"), "{err}");
}

#[test]
fn invalid_utf8_names_the_byte() {
    let err = error_for("latin1.json", b"[{\"role\":\"user\",\n\"content\":\"caf\xe9\"}]");
    assert_eq!(
        err,
        "error: FILE:2:15: invalid UTF-8 (byte 0xE9): transcripts must be UTF-8 text"
    );
}

#[test]
fn a_bare_number() {
    assert_eq!(
        error_for("n.json", b"42\n"),
        "error: FILE:1:1: expected a JSON array of messages or an object with `messages`, found a number"
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut deep = b"[{\"role\":\"user\",\"content\":".to_vec();
    deep.extend(std::iter::repeat_n(b'[', 100_000));
    deep.extend(std::iter::repeat_n(b']', 100_000));
    deep.extend(b"}]");
    let err = error_for("deep.json", &deep);
    assert!(err.starts_with("error: FILE:1:"), "{err}");
    assert!(err.contains("message 0: JSON nested deeper than 128 levels"), "{err}");
}

#[test]
fn a_bad_jsonl_line_names_its_line() {
    let jsonl = b"{\"role\":\"user\",\"content\":\"a\"}\n{\"role\":\"assistant\",\"content\":\"b\"}\n{\"role\":\"user\",\"content\":}\n";
    let err = error_for("t.jsonl", jsonl);
    assert_eq!(err, "error: FILE:3:26: bad JSONL line: expected value");
}

#[test]
fn an_object_with_no_messages() {
    let err = error_for("body.json", b"{\"model\":\"gpt-4o\",\"prompt\":\"hi\"}");
    assert_eq!(
        err,
        "error: FILE:1:1: no message list: the object has no `messages`, `history`, `contents` or `input` key (its keys: model, prompt)"
    );
}

#[test]
fn a_message_that_is_not_an_object() {
    let err = error_for("s.json", b"[\n  {\"role\":\"user\",\"content\":\"a\"},\n  \"oops\"\n]");
    assert_eq!(err, "error: FILE:3:3: message 1 is not a JSON object (found a string)");
}

#[test]
fn a_missing_file() {
    let out = ctxlens(&["stats", "/nonexistent/t.json"]);
    assert_exit(&out, 2);
    assert!(
        stderr(&out).starts_with("error: /nonexistent/t.json: cannot read:"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn compact_without_a_budget_is_a_usage_error() {
    let out = ctxlens(&["compact", "whatever.json"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--max-tokens"), "{}", stderr(&out));
}

#[test]
fn a_wrong_format_says_what_it_expected_and_found() {
    let sample = common::repo().join("sample-transcripts/support-agent.json");
    let traj = common::data().join("real-transcripts/openai-chat/swe-agent-marshmallow-1867-function-calling.traj");
    let log = common::data().join("real-transcripts/claude-code-jsonl/sniffly-ai-music-d3ad4cdc.jsonl");
    for (file, format, found) in [
        (&sample, "claude-code", "found a JSON array"),
        (
            &traj,
            "claude-code",
            "found one JSON object with `environment`, `history`",
        ),
        (&sample, "codex", "found a JSON array"),
        (&log, "codex", "found records with `leafUuid`"),
        (&sample, "gemini", "found messages with `content`, `role`"),
        (&sample, "openhands", "found messages with `content`, `role`"),
        (&sample, "openai-jsonl", "found a JSON array"),
        (&log, "gemini", "found a claude-code session log"),
        (&log, "openai", "found a claude-code session log"),
    ] {
        let path = file.to_str().unwrap();
        let out = common::ctxlens(&["stats", path, "--format", format]);
        common::assert_exit(&out, 2);
        let err = common::stderr(&out);
        let article = if format.starts_with(['a', 'o']) { "an" } else { "a" };
        // The file named once, with the place (`FILE:1:1: not a … transcript`).
        assert!(
            err.contains(&format!("{path}:1:1: not {article} {format} transcript: expected ")) && err.contains(found),
            "{format}: {err}"
        );
        assert_eq!(err.matches(path).count(), 1, "{err}");
        assert!(
            !err.contains("invalid JSON") && !err.contains("truncated JSON"),
            "{err}"
        );
    }
    // The right format still loads.
    common::assert_exit(
        &common::ctxlens(&["stats", log.to_str().unwrap(), "--format", "claude-code"]),
        0,
    );
}

/// A device is never read (`/dev/zero` would be read until memory runs out); `status`,
/// which a status bar calls every few seconds, refuses a pipe too rather than block.
#[cfg(unix)]
#[test]
fn a_device_or_a_pipe_is_refused_not_read_forever() {
    for args in [
        &["stats", "/dev/zero"][..],
        &["status", "/dev/zero"][..],
        &["status", "/dev/urandom"][..],
    ] {
        let out = ctxlens(args);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("/dev/"), "{args:?}: {}", stderr(&out));
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        return; // no mkfifo here
    }
    let out = ctxlens(&["status", fifo.to_str().expect("UTF-8")]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("not a session file"), "{}", stderr(&out));
}

#[test]
fn a_usage_that_cannot_be_real_is_left_out_and_said() {
    // A Claude Code log whose second response records u64::MAX input tokens: it used to
    // saturate every sum and report an overhead of 18446744073709551615, "fit error 0.0%".
    let dir = tempfile::tempdir().expect("a folder");
    let log = dir.path().join("huge.jsonl");
    let record = |k: usize, kind: &str, message: serde_json::Value| {
        serde_json::json!({"parentUuid": if k == 0 { serde_json::Value::Null } else { format!("u{}", k - 1).into() },
            "isSidechain": false, "type": kind, "uuid": format!("u{k}"), "sessionId": "s", "timestamp": "2026-01-01T00:00:00Z",
            "message": message}).to_string()
    };
    let usage = |input: u64| serde_json::json!({"input_tokens": input, "output_tokens": 10});
    let lines = [
        record(0, "user", serde_json::json!({"role": "user", "content": "hello"})),
        record(
            1,
            "assistant",
            serde_json::json!({"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "hi"}], "usage": usage(1_000)}),
        ),
        record(2, "user", serde_json::json!({"role": "user", "content": "again"})),
        record(
            3,
            "assistant",
            serde_json::json!({"id": "m2", "role": "assistant", "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "ok"}], "usage": usage(u64::MAX)}),
        ),
    ];
    std::fs::write(&log, lines.join("\n") + "\n").expect("written");
    let path = log.to_str().expect("utf-8");
    let text = common::ctxlens(&["stats", path]);
    assert_eq!(text.status.code(), Some(0), "{}", common::stderr(&text));
    let shown = common::stdout(&text);
    assert!(
        shown.contains("1 recorded usage cannot be real") && shown.contains("#3"),
        "{shown}"
    );
    assert!(
        !shown.contains("18446744073709551615") && !shown.contains("18,446,744"),
        "{shown}"
    );
    let status = common::ctxlens(&["status", path, "--json"]);
    assert!(
        !common::stdout(&status).contains("18446744073709551615"),
        "{}",
        common::stdout(&status)
    );
}
