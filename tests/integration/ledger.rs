//! `ctxlens ledger`: the standing instructions of a session across its compactions, the
//! hook that hands the lost ones back (`--hook`, run by Claude Code's `SessionStart`
//! hook with the matcher `compact`, which passes `{transcript_path, source, …}` on
//! standard input), its settings (`--emit-hook`), and the user's review file.

use crate::common;

use common::{ctxlens, ctxlens_stdin, data, stderr, stdout};
use serde_json::Value;

/// A Claude Code log written for these tests: "always run the unit tests before you
/// commit anything" is restated by the first summary and dropped by the second; "use
/// pnpm, never npm" is restated by both; "add a --verbose flag" is a one-off task.
fn two_compactions() -> std::path::PathBuf {
    data().join("ledger/two-compactions.jsonl")
}

fn ledger_json(path: &std::path::Path) -> Value {
    let out = ctxlens(&["ledger", path.to_str().expect("utf-8"), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("ledger --json")
}

#[test]
fn each_standing_instruction_has_what_every_compaction_did_with_it() {
    let doc = ledger_json(&two_compactions());
    assert_eq!(doc["schema"], "ctxlens.ledger/1");
    assert_eq!(doc["compactions"], 2);
    let entries = doc["instructions"].as_array().expect("instructions");
    let texts: Vec<&str> = entries.iter().map(|e| e["text"].as_str().expect("text")).collect();
    assert_eq!(
        texts,
        [
            "always run the unit tests before you commit anything",
            "use pnpm, never npm, for installing packages"
        ],
        "standing instructions only: the one-off task is not listed"
    );
    let statuses = |e: &Value| -> Vec<String> {
        e["compactions"]
            .as_array()
            .expect("fates")
            .iter()
            .map(|f| f["status"].as_str().expect("status").to_owned())
            .collect()
    };
    assert_eq!(statuses(&entries[0]), ["in_summary", "lost"]);
    assert_eq!(entries[0]["lost"], 1);
    assert_eq!(statuses(&entries[1]), ["in_summary", "in_summary"]);
    assert_eq!(entries[0]["given"][0]["line"], 1);
    assert_eq!(entries[0]["given"][0]["timestamp"], "2026-03-01T10:01:00.000Z");
}

#[test]
fn the_hook_hands_back_what_the_last_compaction_lost_in_the_users_words() {
    let log = two_compactions();
    let by_file = ctxlens(&["ledger", log.to_str().expect("utf-8"), "--hook"]);
    assert_eq!(by_file.status.code(), Some(0));
    let handed = stdout(&by_file);
    assert!(
        handed.contains("- always run the unit tests before you commit anything"),
        "{handed}"
    );
    assert!(!handed.contains("pnpm"), "kept by the last summary: not repeated");
    assert!(
        !handed.starts_with('{'),
        "Claude Code reads output opening with `{{` as JSON"
    );
    // As Claude Code runs it: the hook's input on standard input.
    let input = serde_json::json!({
        "session_id": "ledger-demo",
        "transcript_path": log,
        "cwd": "/home/dev/app",
        "hook_event_name": "SessionStart",
        "source": "compact",
    });
    let by_input = ctxlens_stdin(&["ledger", "--hook"], input.to_string().as_bytes());
    assert_eq!(by_input.status.code(), Some(0));
    assert_eq!(stdout(&by_input), handed);
}

#[test]
fn the_hook_says_nothing_and_exits_0_when_unsure() {
    for input in [&b"not json"[..], b"{\"transcript_path\": \"/no/such/file.jsonl\"}", b""] {
        let out = ctxlens_stdin(&["ledger", "--hook"], input);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(input));
        assert!(out.stdout.is_empty(), "{}", stdout(&out));
    }
    // A session with nothing lost: nothing to hand back.
    let kept = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let out = ctxlens(&["ledger", kept.to_str().expect("utf-8"), "--hook"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "{}", stdout(&out));
}

#[test]
fn the_review_file_beside_the_sessions_pins_and_ignores() {
    let dir = tempfile::tempdir().expect("a folder");
    let log = dir.path().join("session.jsonl");
    std::fs::copy(two_compactions(), &log).expect("copied");
    std::fs::write(dir.path().join(".ctxlens-ledger"), "# reviewed\npin: pnpm\n").expect("written");
    let out = ctxlens(&["ledger", log.to_str().expect("utf-8"), "--hook"]);
    let handed = stdout(&out);
    assert!(handed.contains("pnpm") && handed.contains("unit tests"), "{handed}");
    std::fs::write(dir.path().join(".ctxlens-ledger"), "ignore: unit tests\n").expect("written");
    let doc = ledger_json(dir.path());
    assert_eq!(doc["instructions"].as_array().expect("entries").len(), 1);
    let review = dir.path().join(".ctxlens-ledger");
    std::fs::write(&review, "pin: pnpm\nremember this\n").expect("written");
    let out = ctxlens(&["ledger", log.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains(&format!("{}:2:", review.display())),
        "names the file and line: {}",
        stderr(&out)
    );
}

#[test]
fn the_hook_settings_are_claude_codes_and_other_agents_are_refused_with_a_reason() {
    let out = ctxlens(&["ledger", "--emit-hook", "claude-code"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let settings: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let session_start = &settings["hooks"]["SessionStart"][0];
    assert_eq!(session_start["matcher"], "compact");
    assert_eq!(session_start["hooks"][0]["type"], "command");
    assert_eq!(session_start["hooks"][0]["command"], "ctxlens ledger --hook");
    let refused = ctxlens(&["ledger", "--emit-hook", "codex"]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("no hook that runs after a compaction"),
        "{}",
        stderr(&refused)
    );
}

#[test]
fn rules_lost_more_than_once_are_offered_for_claude_md() {
    let dir = tempfile::tempdir().expect("a folder");
    // The same project twice: the unit-test rule is lost by both sessions' last compactions.
    for name in ["a.jsonl", "b.jsonl"] {
        std::fs::copy(two_compactions(), dir.path().join(name)).expect("copied");
    }
    let out = ctxlens(&[
        "ledger",
        dir.path().to_str().expect("utf-8"),
        "--emit-config",
        "claude-md",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let lines = stdout(&out);
    assert!(
        lines.contains("- always run the unit tests before you commit anything"),
        "{lines}"
    );
    assert!(!lines.contains("pnpm"), "never lost: CLAUDE.md need not say it");
}

#[test]
fn ledger_reads_every_shipped_claude_code_log() {
    let root = data().join("real-transcripts/claude-code-jsonl");
    let doc = ledger_json(&root);
    assert_eq!(doc["sessions"], 7);
    assert!(doc["compactions"].as_u64().expect("count") >= 2);
    for entry in doc["instructions"].as_array().expect("entries") {
        assert!(!entry["given"].as_array().expect("given").is_empty());
    }
}
