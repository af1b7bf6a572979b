//! Replay, history, sweep and the settings to paste, through the built binary: the replay
//! expectations of the conformance data, the real compaction recorded in a Claude Code
//! log, a Codex log with a `compacted` record, every real transcript, and every
//! `--emit-config` kind parsed as its own format.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_exit, ctxlens, data, fixture_path, json_stdout, stderr, stdout};
use serde_json::Value;

fn real_transcripts() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(data().join("real-transcripts")).unwrap() {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            files.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()));
        }
    }
    files.sort();
    assert!(files.len() >= 10, "the real transcripts are in tests/data");
    files
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Every replay expectation of the conformance data: its index, the entry, and the input
/// file (a case's input written to `dir`).
fn conformance_replays(dir: &Path) -> Vec<(usize, Value, PathBuf)> {
    let text = std::fs::read_to_string(data().join("conformance/replay/expected.json")).unwrap();
    let entries: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert!(entries.len() >= 60);
    entries
        .into_iter()
        .enumerate()
        .map(|(k, entry)| {
            let file = if let Some(case) = entry["case"].as_str() {
                let case: Value = serde_json::from_str(
                    &std::fs::read_to_string(data().join("conformance/cases").join(case)).unwrap(),
                )
                .unwrap();
                let file = dir.join(format!("case-{k}.json"));
                std::fs::write(&file, serde_json::to_string(&case["input"]).unwrap()).unwrap();
                file
            } else {
                data().join("conformance").join(entry["file"].as_str().unwrap())
            };
            (k, entry, file)
        })
        .collect()
}

#[test]
fn replay_matches_every_conformance_expectation() {
    let dir = tempfile::tempdir().unwrap();
    for (k, entry, file) in conformance_replays(dir.path()) {
        let o = &entry["options"];
        let max_tokens = o["max_tokens"].to_string();
        let mut args = vec![
            "replay",
            path(&file),
            "--max-tokens",
            &max_tokens,
            "--summarizer",
            "placeholder",
            "--json",
            "--tokenizer",
            o["tokenizer"].as_str().unwrap(),
        ];
        let keep_tail = o["keep_tail"].to_string();
        if !o["keep_tail"].is_null() {
            args.extend(["--keep-tail", &keep_tail]);
        }
        if o["flush_to_memory"] == Value::Bool(true) {
            args.push("--flush-to-memory");
        }
        let out = ctxlens(&args);
        assert_exit(&out, 0);
        let got = json_stdout(&out);
        let expect = &entry["expect"];
        for key in ["model_calls", "final_tokens", "final_messages"] {
            assert_eq!(got[key], expect[key], "entry {k} ({entry}): {key}");
        }
        let firings: Vec<Value> = got["firings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let mut only = serde_json::Map::new();
                for key in [
                    "at",
                    "tokens_before",
                    "tokens_after",
                    "summarized",
                    "fallback",
                    "tail_empty",
                ] {
                    only.insert(key.to_owned(), f[key].clone());
                }
                Value::Object(only)
            })
            .collect();
        assert_eq!(Value::Array(firings), expect["firings"], "entry {k}: firings");
    }
}

/// The same expectations through the policy engine: ctxlens' own compactor as the
/// `toolnexus` policy (what `compare` and `replay --policy` run) fires where the §7F
/// replay fires, with the same sizes before and after, summary and reminder included.
#[test]
fn the_toolnexus_policy_meets_every_conformance_replay_expectation() {
    use ctxlens::policy::replay::SessionReplays;
    use ctxlens::policy::PolicySettings;
    use ctxlens::tokens::{Counts, Tokenizer};
    let dir = tempfile::tempdir().unwrap();
    let toolnexus = ctxlens::policy::by_name("toolnexus").unwrap();
    for (k, entry, file) in conformance_replays(dir.path()) {
        let o = &entry["options"];
        let whole = ctxlens::transcript::Transcript::read(&file, None)
            .unwrap()
            .whole_session()
            .unwrap();
        let tokenizer: Tokenizer = o["tokenizer"].as_str().unwrap().parse().unwrap();
        let counts = Counts::compute(&whole, tokenizer);
        let mut settings = PolicySettings::parse([]).unwrap().with("max_tokens", &o["max_tokens"]);
        if !o["keep_tail"].is_null() {
            settings = settings.with("keep_tail", &o["keep_tail"]);
        }
        settings = settings.with("flush_to_memory", o["flush_to_memory"] == Value::Bool(true));
        let replayed = SessionReplays::of(&whole, &counts)
            .replay(
                toolnexus,
                &settings,
                &ctxlens::summarize::Placeholder,
                None,
                ctxlens::cancel::never(),
            )
            .unwrap();
        let expect = &entry["expect"];
        assert_eq!(
            Value::from(replayed.model_calls),
            expect["model_calls"],
            "entry {k}: model_calls"
        );
        let got: Vec<(u64, u64, u64)> = replayed
            .firings
            .iter()
            .map(|f| (f.at as u64, f.tokens_before.unwrap(), f.counted_after))
            .collect();
        let want: Vec<(u64, u64, u64)> = expect["firings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| {
                let n = |key: &str| f[key].as_u64().unwrap();
                (n("at"), n("tokens_before"), n("tokens_after"))
            })
            .collect();
        assert_eq!(
            got, want,
            "entry {k} ({}): firings (at, before, after)",
            entry["options"]
        );
    }
}

/// One answer whichever engine asks: on every shipped Codex rollout with usage, the §7F
/// replay and the policy engine count the same model calls (a run of output items is one
/// response) and read the same recorded usage for each, whichever item of the run the
/// rollout recorded it after.
#[test]
fn both_replay_engines_read_one_usage_per_codex_response() {
    let dir = data().join("real-transcripts/codex-rollout");
    let mut compared = 0;
    for entry in std::fs::read_dir(&dir).expect("the shipped rollouts") {
        let file = entry.expect("an entry").path();
        let file = path(&file);
        let usage = |replayed: &Value| -> Vec<Option<u64>> {
            replayed["calls"]
                .as_array()
                .expect("calls")
                .iter()
                .map(|c| c["recorded"].as_u64())
                .collect()
        };
        let tail = json_stdout(&ctxlens(&["replay", file, "--max-tokens", "100000", "--json"]));
        let policy = json_stdout(&ctxlens(&["replay", file, "--policy", "codex", "--json"]));
        assert_eq!(tail["model_calls"], policy["model_calls"], "{file}");
        let (tail, policy) = (usage(&tail), usage(&policy));
        // Where a replay fires, the calls after it are no longer the agent's own: compare
        // the calls before any firing.
        let agent_calls = tail.len().min(policy.len());
        assert_eq!(tail[..agent_calls], policy[..agent_calls], "{file}");
        // Responses measured: `token_count` events whose session totals moved (Codex
        // sends the last usage again when a turn starts).
        let mut totals: Vec<Value> = Vec::new();
        for line in std::fs::read_to_string(file).expect("reads").lines() {
            let record: Value = serde_json::from_str(line).expect("a JSON line");
            let total = &record["payload"]["info"]["total_token_usage"];
            if record["payload"]["type"] == "token_count" && !total.is_null() && totals.last() != Some(total) {
                totals.push(total.clone());
            }
        }
        let token_counts = totals.len();
        if token_counts > 0 {
            assert_eq!(
                tail.iter().flatten().count(),
                token_counts,
                "{file}: each response's usage once"
            );
            compared += 1;
        }
    }
    assert!(compared >= 2, "rollouts with usage compared: {compared}");
}

/// The Claude Code log that auto-compacted: its record says so.
fn autocompact_log() -> PathBuf {
    data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl")
}

/// The first record of a JSONL file matching `pick`.
fn record(file: &Path, pick: impl Fn(&Value) -> bool) -> Value {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|r| pick(r))
        .expect("the record is in the file")
}

#[test]
fn history_shows_the_real_compaction_of_a_claude_code_log() {
    let log = autocompact_log();
    let boundary = record(&log, |r| r["subtype"] == "compact_boundary");
    let summary_record = record(&log, |r| r["isCompactSummary"] == Value::Bool(true));
    let out = ctxlens(&["history", path(&log), "--json"]);
    assert_exit(&out, 0);
    let doc = json_stdout(&out);
    let compactions = doc["compactions"].as_array().unwrap();
    assert_eq!(compactions.len(), 1);
    let c = &compactions[0];
    assert_eq!(c["trigger"], boundary["compactMetadata"]["trigger"]);
    assert_eq!(c["trigger"], "auto");
    assert_eq!(c["pre_tokens"], boundary["compactMetadata"]["preTokens"]);
    // The summary the agent got, as readable text.
    let summary_text = summary_record["message"]["content"].as_str().unwrap();
    assert_eq!(c["summary"].as_str().unwrap().trim(), summary_text.trim());
    // The epoch before it: every message up to the compaction, none of them empty.
    let epochs = doc["epochs"].as_array().unwrap();
    assert_eq!(epochs.len(), 2);
    assert_eq!(epochs[0]["first"], 0);
    assert_eq!(epochs[0]["messages"].as_u64().unwrap(), c["at"].as_u64().unwrap());
    assert!(epochs[0]["messages"].as_u64().unwrap() > 50, "{}", epochs[0]);
    assert!(epochs[0]["tokens"].as_u64().unwrap() > 0);
    // Its loss report: facts of the epoch, some kept, some lost.
    let loss = &c["loss"];
    assert!(loss["facts"].as_u64().unwrap() > 0);
    assert!(loss["in_summary"].as_u64().unwrap() > 0);
    assert_eq!(
        loss["facts"].as_u64().unwrap(),
        loss["in_summary"].as_u64().unwrap() + loss["kept"].as_u64().unwrap() + loss["lost"].as_u64().unwrap()
    );
    // The plain output says the same.
    let out = ctxlens(&["history", path(&log)]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(text.contains("compacted (auto)") && text.contains("155,979"), "{text}");
    // The live view still starts after the compaction.
    let stats = json_stdout(&ctxlens(&["stats", path(&log), "--json"]));
    let live = stats["messages"].as_array().unwrap().len() as u64;
    assert_eq!(live, epochs[1]["messages"].as_u64().unwrap());
}

/// The compactions a log holds, counted from its raw records by the rules of each
/// writer (not by ctxlens' reader): Claude Code 2.x `compact_boundary` records; Claude
/// Code 1.0.x summaries that start a main chain of their own (`isCompactSummary`, no
/// parent) after some earlier record; Codex `compacted` records.
fn compactions_in_raw_log(file: &Path) -> usize {
    let text = std::fs::read_to_string(file).unwrap();
    let records: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    records
        .iter()
        .enumerate()
        .filter(|(i, r)| {
            r["subtype"] == "compact_boundary"
                || r["type"] == "compacted"
                || (r["isCompactSummary"] == Value::Bool(true)
                    && r["parentUuid"].is_null()
                    && r["isSidechain"] != Value::Bool(true)
                    && *i > 0
                    && records[i - 1]["subtype"] != "compact_boundary")
        })
        .count()
}

#[test]
fn history_and_scan_find_every_compaction_of_every_shipped_log() {
    let logs: Vec<PathBuf> = real_transcripts()
        .into_iter()
        .filter(|f| f.to_string_lossy().contains("claude-code-jsonl") || f.to_string_lossy().contains("codex-rollout"))
        .collect();
    assert!(logs.len() >= 8, "{logs:?}");
    let mut seen = 0;
    for log in &logs {
        let expected = compactions_in_raw_log(log);
        let history = json_stdout(&ctxlens(&["history", path(log), "--json"]));
        let found = history["compactions"].as_array().unwrap().len();
        assert_eq!(found, expected, "history of {}", log.display());
        assert_eq!(
            history["epochs"].as_array().unwrap().len(),
            expected + 1,
            "{}",
            log.display()
        );
        let scan = json_stdout(&ctxlens(&["scan", path(log), "--json"]));
        assert_eq!(scan["compactions"], expected, "scan of {}", log.display());
        seen += expected;
    }
    assert!(seen >= 2, "the shipped logs hold a 2.x and a 1.0.x compaction");
}

/// Claude Code 1.0.53 wrote an automatic compaction as its summary alone: history, scan
/// and stats see it, the epoch before it is the conversation the client compacted from,
/// and the last request recorded before it is the lower end of the threshold.
#[test]
fn history_reads_a_claude_code_1_0_compaction_written_without_a_boundary() {
    let log = data().join("real-transcripts/claude-code-jsonl/vsla-cc1053-autocompact-0a725fb5.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let records: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let summary_at = records
        .iter()
        .position(|r| r["isCompactSummary"] == Value::Bool(true))
        .unwrap();
    assert_eq!(records[summary_at]["version"], "1.0.53");
    let last_usage = records[..summary_at]
        .iter()
        .rev()
        .filter(|r| r["isSidechain"] != Value::Bool(true))
        .find_map(|r| {
            let u = &r["message"]["usage"];
            u.is_object().then(|| {
                ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]
                    .iter()
                    .map(|k| u[k].as_u64().unwrap_or(0))
                    .sum::<u64>()
            })
        })
        .unwrap();

    let doc = json_stdout(&ctxlens(&["history", path(&log), "--json"]));
    let c = &doc["compactions"][0];
    assert_eq!(c["line"], summary_at + 1);
    assert_eq!(c["trigger"], "auto", "no /compact before it");
    assert!(c["pre_tokens"].is_null(), "1.0.x records no size");
    assert_eq!(c["last_recorded_before"], last_usage);
    assert_eq!(
        c["summary"].as_str().unwrap().trim(),
        records[summary_at]["message"]["content"].as_str().unwrap().trim()
    );
    let epochs = doc["epochs"].as_array().unwrap();
    assert!(
        epochs[0]["messages"].as_u64().unwrap() > 100,
        "the conversation before it: {}",
        epochs[0]
    );
    // The live view is the epoch after it, and says where it starts.
    let stats = json_stdout(&ctxlens(&["stats", path(&log), "--json"]));
    assert_eq!(
        stats["messages"].as_array().unwrap().len() as u64,
        epochs[1]["messages"].as_u64().unwrap()
    );
    let notes = stats["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n["kind"] == "past compaction" && n["line"] == summary_at + 1),
        "{notes:?}"
    );
}

/// The 1.0.x shape written by hand: a `/compact` command before the summary makes it
/// manual; a log that starts with a summary (its earlier records not in the file) holds
/// no compaction of its own.
#[test]
fn a_1_0_summary_after_a_compact_command_is_manual_and_one_with_nothing_before_is_none() {
    let user = |uuid: &str, parent: Option<&str>, content: &str| {
        serde_json::json!({"type": "user", "uuid": uuid, "parentUuid": parent, "isSidechain": false, "version": "1.0.40",
            "message": {"role": "user", "content": content}})
    };
    let assistant = |uuid: &str, parent: &str| {
        serde_json::json!({"type": "assistant", "uuid": uuid, "parentUuid": parent, "isSidechain": false,
            "message": {"id": format!("msg_{uuid}"), "role": "assistant", "content": [{"type": "text", "text": "done"}],
            "usage": {"input_tokens": 1200, "output_tokens": 5}}})
    };
    let mut summary = user(
        "s1",
        None,
        "This session is being continued from a previous conversation. Summary: the tests pass.",
    );
    summary["isCompactSummary"] = Value::Bool(true);
    let manual = [
        user("u1", None, "run the tests"),
        assistant("a1", "u1"),
        user(
            "u2",
            Some("a1"),
            "<command-name>/compact</command-name>\n<command-message>compact</command-message>",
        ),
        summary.clone(),
        user("u3", Some("s1"), "now ship it"),
    ];
    let cut = [summary, user("u3", Some("s1"), "now ship it")];
    let dir = tempfile::tempdir().unwrap();
    for (name, records, expected) in [("manual.jsonl", &manual[..], 1), ("cut.jsonl", &cut[..], 0)] {
        let file = dir.path().join(name);
        let lines: Vec<String> = records.iter().map(Value::to_string).collect();
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();
        let doc = json_stdout(&ctxlens(&["history", path(&file), "--json"]));
        let compactions = doc["compactions"].as_array().unwrap();
        assert_eq!(compactions.len(), expected, "{name}: {doc}");
        if expected == 1 {
            assert_eq!(compactions[0]["trigger"], "manual");
            assert_eq!(compactions[0]["last_recorded_before"], 1200);
        }
    }
}

/// Claude Code 2.1 keeps recent messages verbatim after its summary and says so on the
/// boundary (`compactMetadata.preservedMessages {anchorUuid, uuids}` or the older
/// `preservedSegment {headUuid, anchorUuid, tailUuid}`, with `postTokens`; the shapes as
/// `@anthropic-ai/claude-agent-sdk` 0.3.334's `sdk.d.ts` documents them for Claude Code
/// 2.1.334). Both are read: the kept messages follow the summary in the live view, the
/// epoch before ends where they began, and history lists them and the size after.
#[test]
fn a_claude_code_2_1_compaction_keeps_the_messages_its_boundary_names() {
    use serde_json::json;
    let user = |uuid: &str, parent: Option<&str>, text: &str| {
        json!({"type": "user", "uuid": uuid, "parentUuid": parent, "isSidechain": false,
            "message": {"role": "user", "content": text}})
    };
    let assistant = |uuid: &str, parent: &str, text: &str| {
        json!({"type": "assistant", "uuid": uuid, "parentUuid": parent, "isSidechain": false,
            "message": {"id": format!("msg_{uuid}"), "role": "assistant", "content": [{"type": "text", "text": text}],
            "usage": {"input_tokens": 1000, "output_tokens": 5}}})
    };
    let kept_as = [
        json!({"preservedMessages": {"anchorUuid": "s1", "uuids": ["u2", "a2"]}}),
        json!({"preservedSegment": {"headUuid": "u2", "anchorUuid": "s1", "tailUuid": "a2"}}),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (k, kept) in kept_as.iter().enumerate() {
        let mut meta = json!({"trigger": "auto", "preTokens": 150_000, "postTokens": 41_000});
        meta.as_object_mut().unwrap().extend(kept.as_object().unwrap().clone());
        let mut summary = user(
            "s1",
            Some("b1"),
            "This session is being continued from a previous conversation. Summary: tests pass.",
        );
        summary["isCompactSummary"] = Value::Bool(true);
        let records = [
            user("u1", None, "first request, summarized away"),
            assistant("a1", "u1", "first answer"),
            user("u2", Some("a1"), "keep this request verbatim"),
            assistant("a2", "u2", "kept answer"),
            json!({"type": "system", "subtype": "compact_boundary", "uuid": "b1", "parentUuid": null,
                "logicalParentUuid": "a2", "content": "Conversation compacted", "compactMetadata": meta}),
            summary,
            user("u3", Some("a2"), "the next request"),
        ];
        let file = dir.path().join(format!("kept-{k}.jsonl"));
        let lines: Vec<String> = records.iter().map(Value::to_string).collect();
        std::fs::write(&file, lines.join("\n") + "\n").unwrap();

        let transcript =
            ctxlens::transcript::Transcript::parse("kept.jsonl", std::fs::read(&file).unwrap(), None).unwrap();
        let live: Vec<String> = (0..transcript.messages().len())
            .map(|i| transcript.readable_text(i))
            .collect();
        assert_eq!(live.len(), 4, "summary, the two kept, the next request: {live:?}");
        assert!(
            live[1].contains("keep this request") && live[3].contains("the next request"),
            "{live:?}"
        );
        let doc = json_stdout(&ctxlens(&["history", path(&file), "--json"]));
        let c = &doc["compactions"][0];
        assert_eq!(c["post_tokens"], 41_000);
        assert_eq!(c["kept"].as_array().unwrap().len(), 2, "{c}");
        assert!(c["kept"][0].as_str().unwrap().contains("keep this request verbatim"));
        let epochs = doc["epochs"].as_array().unwrap();
        assert_eq!(
            epochs[0]["messages"], 2,
            "the epoch before ends where the kept ones began"
        );
        assert_eq!(epochs[1]["messages"], 4);
    }
}

#[test]
fn history_of_a_codex_log_with_a_compaction() {
    let rollout = data().join("real-transcripts/codex-rollout/codemie-codex-desktop-019e1695.jsonl");
    let text = std::fs::read_to_string(&rollout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    // A compaction in the middle, written as Codex writes one.
    let middle = lines.iter().rposition(|l| l.contains("\"response_item\"")).unwrap() / 2;
    let summary = "Summary: the user asked for a review of the sync code; the tests pass.";
    let compacted = serde_json::json!({
        "timestamp": "2026-01-01T00:00:00.000Z",
        "type": "compacted",
        "payload": {"message": summary, "replacement_history": [
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "keep this request"}]},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": summary}]}
        ]}
    });
    let mut joined: Vec<String> = lines[..middle].iter().map(|l| (*l).to_owned()).collect();
    joined.push(compacted.to_string());
    joined.extend(lines[middle..].iter().map(|l| (*l).to_owned()));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rollout.jsonl");
    std::fs::write(&file, joined.join("\n") + "\n").unwrap();

    let doc = json_stdout(&ctxlens(&["history", path(&file), "--json"]));
    let c = &doc["compactions"].as_array().unwrap()[0];
    assert_eq!(c["summary"].as_str().unwrap(), summary);
    assert_eq!(c["kept"], serde_json::json!(["keep this request"]));
    assert_eq!(doc["epochs"].as_array().unwrap().len(), 2);
    // Replay joins the epochs: every response item and every prompt (this rollout logs
    // its prompts only as events) is there, the real summary is not.
    let is_message = |l: &&str| l.contains("\"response_item\"") || l.contains("\"type\":\"user_message\"");
    let before = lines[..middle].iter().filter(|l| is_message(l)).count();
    let after = lines[middle..].iter().filter(|l| is_message(l)).count();
    let replayed = json_stdout(&ctxlens(&["replay", path(&file), "--max-tokens", "1000000", "--json"]));
    assert_eq!(replayed["messages"].as_u64().unwrap(), (before + after) as u64);
    assert_eq!(replayed["real_compactions"][0]["at"].as_u64().unwrap(), before as u64);
}

#[test]
fn replay_history_and_sweep_run_on_every_real_transcript() {
    for file in real_transcripts()
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e != "md"))
    {
        let history = ctxlens(&["history", path(file)]);
        assert_exit(&history, 0);
        let stats = json_stdout(&ctxlens(&["stats", path(file), "--json"]));
        let total = stats["total"].as_u64().unwrap();
        let max = (total / 3).max(1).to_string();
        let replay = ctxlens(&["replay", path(file), "--max-tokens", &max]);
        assert_exit(&replay, 0);
        let range = format!("{}..{}", (total / 4).max(1), (total / 2).max(2));
        let sweep = ctxlens(&["sweep", path(file), "--max-tokens", &range, "--json"]);
        assert_exit(&sweep, 0);
        assert_eq!(
            json_stdout(&sweep)["settings"].as_array().unwrap().len(),
            11,
            "{}",
            file.display()
        );
    }
}

#[test]
fn sweep_over_the_fixture_gives_seven_settings_and_answers() {
    let fixture = fixture_path();
    let out = ctxlens(&[
        "sweep",
        path(&fixture),
        "--max-tokens",
        "1000..4000:500",
        "--json",
        "--keep",
        "90",
    ]);
    assert_exit(&out, 0);
    let doc = json_stdout(&out);
    let rows = doc["settings"].as_array().unwrap();
    assert_eq!(rows.len(), 7);
    let budgets: Vec<u64> = rows.iter().map(|r| r["max_tokens"].as_u64().unwrap()).collect();
    assert_eq!(budgets, (0..7).map(|k| 1000 + 500 * k).collect::<Vec<u64>>());
    // Each row is the replay of its setting.
    for r in rows {
        let max = r["max_tokens"].to_string();
        let one = json_stdout(&ctxlens(&["replay", path(&fixture), "--max-tokens", &max, "--json"]));
        assert_eq!(
            r["firings"].as_u64().unwrap() as usize,
            one["firings"].as_array().unwrap().len()
        );
        assert_eq!(r["final_tokens"], one["final_tokens"]);
        assert_eq!(r["loops"], one["loops"]);
    }
    // The answers are searched on the session's own grid, narrowed between its points:
    // each answer's own replay is what it claims, every row of the table from the answer
    // up is too (the answer is the smallest budget from which every larger one is), and
    // another range typed gives the same answers.
    let alone = |answer: &str| {
        let a = &doc[answer];
        let one = json_stdout(&ctxlens(&[
            "sweep",
            path(&fixture),
            "--max-tokens",
            &a["max_tokens"].to_string(),
            "--keep-tail",
            &a["keep_tail"].to_string(),
            "--keep",
            "90",
            "--json",
        ]));
        (a["max_tokens"].as_u64().unwrap(), one["settings"][0].clone())
    };
    let (keeping, row) = alone("smallest_keeping");
    assert_eq!(row["keeps"], Value::Bool(true));
    let larger = |budget: u64| rows.iter().filter(move |r| r["max_tokens"].as_u64().unwrap() >= budget);
    assert!(larger(keeping).all(|r| r["keeps"] == Value::Bool(true)));
    let floor = doc["fact_floor_percent"].as_f64().unwrap();
    let safe_row = |r: &Value| {
        r["loops"].as_u64() == Some(0)
            && r["instructions_lost"].as_u64() == Some(0)
            && r["fact_survival_percent"].as_f64().unwrap() >= floor
    };
    let (safe, row) = alone("smallest_safe");
    assert!(safe_row(&row), "{row}");
    assert!(larger(safe).all(safe_row));
    let elsewhere = json_stdout(&ctxlens(&[
        "sweep",
        path(&fixture),
        "--max-tokens",
        "200..9000:2200",
        "--json",
        "--keep",
        "90",
    ]));
    for answer in ["knee", "smallest_safe", "smallest_keeping"] {
        assert_eq!(elsewhere[answer], doc[answer], "{answer} whatever the range");
    }
    // CSV: a header and one line per setting.
    let csv = stdout(&ctxlens(&[
        "sweep",
        path(&fixture),
        "--max-tokens",
        "1000..4000:500",
        "--csv",
    ]));
    assert_eq!(csv.lines().count(), 8);
    assert!(csv.starts_with("max_tokens,keep_tail,"));
    // keep-tail lists multiply the settings.
    let doc = json_stdout(&ctxlens(&[
        "sweep",
        path(&fixture),
        "--max-tokens",
        "1000,2000",
        "--keep-tail",
        "0,300,600",
        "--json",
    ]));
    assert_eq!(doc["settings"].as_array().unwrap().len(), 6);
}

#[test]
fn a_replay_that_cannot_get_under_budget_reports_loops() {
    // keep_tail larger than max_tokens: the fallback tail alone is over budget.
    let fixture = fixture_path();
    let doc = json_stdout(&ctxlens(&[
        "replay",
        path(&fixture),
        "--max-tokens",
        "300",
        "--keep-tail",
        "2000",
        "--summarizer",
        "placeholder",
        "--json",
    ]));
    let firings = doc["firings"].as_array().unwrap();
    let looping = firings
        .iter()
        .filter(|f| f["tokens_after"].as_u64() > Some(300))
        .count();
    assert!(looping > 0);
    assert_eq!(doc["loops"].as_u64().unwrap() as usize, looping);
    assert!(firings
        .iter()
        .all(|f| f["loops"] == Value::Bool(f["tokens_after"].as_u64() > Some(300))));
}

#[test]
fn replay_runs_the_deterministic_strategies() {
    let fixture = fixture_path();
    for strategy in ["deterministic", "deterministic,tail"] {
        let out = ctxlens(&[
            "replay",
            path(&fixture),
            "--max-tokens",
            "2000",
            "--strategy",
            strategy,
            "--json",
        ]);
        assert_exit(&out, 0);
        let doc = json_stdout(&out);
        if strategy == "deterministic" {
            assert!(doc["firings"].as_array().unwrap().is_empty(), "no tail is cut");
        }
    }
}

/// Whether `python3` can check the Python output (required where clients are required).
fn python() -> Option<&'static str> {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok || std::env::var_os("CTXLENS_REQUIRE_CLIENTS").is_none(),
        "python3 is required"
    );
    ok.then_some("python3")
}

#[test]
fn every_emit_config_kind_parses_as_its_format() {
    let fixture = fixture_path();
    let claude = data().join("real-transcripts/claude-code-jsonl/ccl-sample-37f83ec9.jsonl");
    for command in ["compact", "replay", "sweep"] {
        for kind in ["toolnexus", "langchain", "codex", "claude-code", "opencode", "ctxlens"] {
            for file in [&fixture, &claude] {
                let budget = if command == "sweep" { "1000..4000:500" } else { "3000" };
                let out = ctxlens(&[
                    command,
                    path(file),
                    "--max-tokens",
                    budget,
                    "--emit-config",
                    kind,
                    "--context-window",
                    "200000",
                ]);
                assert_exit(&out, 0);
                let text = stdout(&out);
                match kind {
                    "toolnexus" => {
                        let v: Value = serde_json::from_str(&text).unwrap();
                        assert!(v["maxTokens"].is_u64() && v["keepTail"].is_u64() && v["flushToMemory"].is_boolean());
                        assert!(stderr(&out).contains("note:"), "the counting note goes beside JSON");
                    }
                    "opencode" => {
                        let v: Value = serde_json::from_str(&text).unwrap();
                        assert!(v["compaction"]["reserved"].is_u64() && v["compaction"]["auto"] == Value::Bool(true));
                    }
                    "codex" | "ctxlens" => {
                        let v: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{kind}: {e}\n{text}"));
                        if kind == "codex" {
                            assert!(v["model_auto_compact_token_limit"].is_integer());
                        } else {
                            assert!(v["max_tokens"].is_integer());
                        }
                        assert!(
                            text.lines().any(|l| l.starts_with('#')),
                            "a comment says how counting differs"
                        );
                    }
                    "claude-code" => {
                        // A percentage with its decimals, or — for a threshold Claude Code
                        // cannot reach — only comments saying it keeps its own.
                        match text.lines().find(|l| !l.starts_with('#')) {
                            Some(line) => {
                                let pct: f64 = line
                                    .strip_prefix("export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE=")
                                    .unwrap()
                                    .parse()
                                    .unwrap();
                                assert!(pct > 0.0 && pct <= 100.0, "{pct}");
                            }
                            None => assert!(text.contains("keeps"), "{text}"),
                        }
                        if let Ok(sh) = Command::new("sh").args(["-n", "-c", &text]).output() {
                            assert!(sh.status.success(), "valid shell");
                        }
                    }
                    "langchain" => {
                        if let Some(py) = python() {
                            let check = Command::new(py)
                                .args(["-c", "import ast,sys; ast.parse(sys.argv[1])", &text])
                                .output()
                                .unwrap();
                            assert!(
                                check.status.success(),
                                "{}\n{text}",
                                String::from_utf8_lossy(&check.stderr)
                            );
                        }
                        assert!(text.contains("SummarizationMiddleware(") && text.contains("trigger=(\"tokens\""));
                    }
                    _ => unreachable!(),
                }
            }
        }
    }
    // Knobs that are a share of the window need the window.
    let out = ctxlens(&[
        "compact",
        path(&fixture),
        "--max-tokens",
        "3000",
        "--emit-config",
        "claude-code",
    ]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("--context-window"));
}

#[test]
fn the_log_calibration_converts_thresholds_for_agents_that_count_billed_tokens() {
    let claude = data().join("real-transcripts/claude-code-jsonl/ccl-sample-37f83ec9.jsonl");
    let codex = stdout(&ctxlens(&[
        "compact",
        path(&claude),
        "--max-tokens",
        "30000",
        "--emit-config",
        "codex",
    ]));
    let v: toml::Table = toml::from_str(&codex).unwrap();
    let limit = v["model_auto_compact_token_limit"].as_integer().unwrap();
    // The log records a large overhead (system prompt, tools): the billed threshold is higher.
    assert!(limit > 30_000 + 10_000, "{codex}");
    assert!(codex.contains("calibration"));
}

/// Runs the binary in `dir`.
fn ctxlens_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_ctxlens"))
        .args(args)
        .current_dir(dir)
        .env("HOME", crate::common::test_home())
        .output()
        .unwrap()
}

#[test]
fn settings_written_as_ctxlens_toml_are_read_back() {
    let fixture = fixture_path();
    let dir = tempfile::tempdir().unwrap();
    let toml_text = stdout(&ctxlens(&[
        "compact",
        path(&fixture),
        "--max-tokens",
        "2000",
        "--keep-tail",
        "700",
        "--emit-config",
        "ctxlens",
    ]));
    std::fs::write(dir.path().join(".ctxlens.toml"), &toml_text).unwrap();
    let with_flags = ctxlens(&[
        "compact",
        path(&fixture),
        "--max-tokens",
        "2000",
        "--keep-tail",
        "700",
        "--plan",
    ]);
    // From the working directory.
    let from_cwd = ctxlens_in(dir.path(), &["compact", path(&fixture), "--plan"]);
    assert_exit(&from_cwd, 0);
    assert_eq!(stdout(&from_cwd), stdout(&with_flags));
    // Named with --config, from anywhere; a flag still wins.
    let named = dir.path().join(".ctxlens.toml");
    let out = ctxlens(&["compact", path(&fixture), "--config", path(&named), "--plan"]);
    assert_eq!(stdout(&out), stdout(&with_flags));
    let out = ctxlens(&[
        "compact",
        path(&fixture),
        "--config",
        path(&named),
        "--max-tokens",
        "3000",
        "--plan",
    ]);
    assert_eq!(json_stdout(&out)["max_tokens"], 3000);
    // A true in the file is turned off from the command line.
    let flushing = dir.path().join("flushing.toml");
    std::fs::write(
        &flushing,
        toml_text.replace("flush_to_memory = false", "flush_to_memory = true"),
    )
    .unwrap();
    let plan = |extra: &[&str]| {
        let mut args = vec!["compact", path(&fixture), "--config", path(&flushing), "--plan"];
        args.extend_from_slice(extra);
        json_stdout(&ctxlens(&args))["tokens_after"].as_u64().unwrap()
    };
    // The reminder costs tokens: with it the result is larger.
    let without = json_stdout(&with_flags)["tokens_after"].as_u64().unwrap();
    assert!(plan(&[]) > without);
    assert_eq!(plan(&["--no-flush-to-memory"]), without);
    assert_eq!(plan(&["--no-flush-to-memory", "--flush-to-memory"]), plan(&[]));
    // A bad file is an error naming it and the position.
    std::fs::write(&named, "max_tokens = \"lots\"\n").unwrap();
    let out = ctxlens(&["compact", path(&fixture), "--config", path(&named), "--plan"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains(".ctxlens.toml:1:14"), "{}", stderr(&out));
}

/// The answers do not move with the range typed nor with the table's step: on every
/// shipped real session log, ranges drawn at random (a seeded walk: any start from 0 to
/// half the session, any end up to past its peak, 1 to 40 rows) give the same knee, the
/// same smallest safe budget and the same smallest budget keeping a message. In-process
/// (the library's sweep, as the CLI, the TUI and Python run it), with the extractive
/// summarizer the CLI defaults to.
#[test]
fn the_sweep_answers_are_the_same_whatever_range_is_typed() {
    use ctxlens::compact::SummaryRole;
    use ctxlens::replay::lost::FactIndex;
    use ctxlens::replay::sweep::{sweep, Answer, Inputs, Range, TailRule, DEFAULT_FACT_FLOOR};
    use ctxlens::summarize::Extractive;
    use ctxlens::tokens::{Counts, Tokenizer};
    use ctxlens::transcript::Transcript;

    let logs = real_session_logs();
    assert!(!logs.is_empty());
    let cancel = ctxlens::cancel::CancelToken::new();
    let summarizer = Extractive { summary_tokens: 200 };
    let mut seed: u64 = 0x5eed_2026_1203;
    let mut next = |below: u64| {
        // xorshift64*: reproducible, no crate needed.
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d) % below.max(1)
    };
    let mut compared = 0;
    for log in &logs {
        let whole = Transcript::read(log, None)
            .expect("loads")
            .whole_session()
            .expect("whole");
        let counts = Counts::compute(&whole, Tokenizer::Estimate);
        let view = ctxlens::replay::view_for(&whole, &counts, false, &cancel).expect("view");
        let facts = FactIndex::build(&view, &cancel).expect("facts");
        let total = view.total().max(2);
        let keep = Some(view.len() / 2);
        let answer = |a: &Option<Answer>| a.as_ref().map(|a| (a.max_tokens, a.keep_tail));
        let mut first = None;
        for _ in 0..4 {
            let from = next(total / 2);
            let to = from + 1 + next(total + total / 5);
            let range = Range {
                from,
                to,
                tails: vec![TailRule::Default],
                flush_to_memory: false,
            };
            let steps = 1 + next(40);
            let settings = range.settings(&range.budgets(steps));
            let swept = sweep(&Inputs {
                view: &view,
                facts: &facts,
                settings: &settings,
                range: &range,
                fact_floor: DEFAULT_FACT_FLOOR,
                summary_role: SummaryRole::System,
                cuts_a_tail: true,
                summarizer: &summarizer,
                keep,
                cancel: &cancel,
                progress: None,
            })
            .expect("sweeps");
            assert_eq!(swept.rows.len(), settings.len(), "one row per setting shown");
            let answers = (
                answer(&swept.knee),
                answer(&swept.smallest_safe),
                answer(&swept.smallest_keeping),
            );
            match &first {
                None => first = Some((answers, from, to, steps)),
                Some((expected, f, t, n)) => {
                    compared += 1;
                    assert_eq!(
                        &answers,
                        expected,
                        "{}: {from}..{to} in {steps} rows against {f}..{t} in {n}",
                        log.display()
                    );
                }
            }
        }
    }
    assert!(compared >= 3 * logs.len());
}

/// The shipped real session logs (Claude Code and Codex).
fn real_session_logs() -> Vec<std::path::PathBuf> {
    let mut logs: Vec<std::path::PathBuf> = ["claude-code-jsonl", "codex-rollout"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(common::data().join("real-transcripts").join(dir)).expect("shipped"))
        .map(|entry| entry.expect("listed").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    logs.sort();
    logs
}

/// A sweep's rows count what the full loss report lists, and a session's fact index
/// shared by many replays (its later-restatements found once) judges each replay as a
/// fresh index would.
#[test]
fn shared_loss_counts_equal_a_fresh_full_judgement() {
    use ctxlens::cancel::CancelToken;
    use ctxlens::compact::{Options, SummaryRole};
    use ctxlens::replay::lost::{lifetime_loss, lifetime_loss_counts, FactIndex};
    use ctxlens::replay::{replay, view_for, Inputs};
    use ctxlens::summarize::{Extractive, Placeholder, Summarizer};
    use ctxlens::tokens::{Counts, Tokenizer};
    use ctxlens::transcript::Transcript;

    let cancel = CancelToken::new();
    let mut judged_turns = 0;
    for file in real_transcripts() {
        let Ok(transcript) = Transcript::read(&file, None) else {
            continue;
        };
        let whole = transcript.whole_session().expect("whole session");
        let counts = Counts::compute(&whole, Tokenizer::Estimate);
        let view = view_for(&whole, &counts, false, &cancel).expect("view");
        let shared = FactIndex::build(&view, &cancel).expect("facts");
        for divisor in [12, 5, 2] {
            for summarizer in [&Placeholder as &dyn Summarizer, &Extractive { summary_tokens: 200 }] {
                let outcome = replay(&Inputs {
                    view: &view,
                    options: Options {
                        max_tokens: (view.total() / divisor).max(1),
                        keep_tail: None,
                        flush_to_memory: false,
                    },
                    summary_role: SummaryRole::User,
                    cuts_a_tail: true,
                    summarizer,
                    cancel: &cancel,
                    progress: None,
                })
                .expect("replays");
                let fresh = FactIndex::build(&view, &cancel).expect("facts");
                let full = lifetime_loss(&fresh, &outcome);
                let counted = lifetime_loss_counts(&shared, &outcome);
                let shown = file.display();
                assert_eq!(counted.facts_lost, full.lost.len(), "{shown} at 1/{divisor}");
                assert_eq!(
                    counted.instructions_lost,
                    full.instructions_lost.len(),
                    "{shown} at 1/{divisor}"
                );
                // The same formula on the same counts: bit for bit.
                assert_eq!(
                    counted.survival_percent.to_bits(),
                    full.survival_percent().to_bits(),
                    "{shown} at 1/{divisor}"
                );
                assert_eq!(lifetime_loss(&shared, &outcome), full, "{shown} at 1/{divisor}");
                judged_turns += full.turns.len();
            }
        }
    }
    assert!(
        judged_turns > 100,
        "the real transcripts have human turns to judge ({judged_turns})"
    );
}
