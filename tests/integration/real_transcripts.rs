//! Every real transcript of `tests/data/real-transcripts/` loads with `stats` and plans with
//! `compact --plan` (exit 0), and a no-op compact writes each one back byte-identically.

use crate::common;

use common::{assert_exit, ctxlens, data, json_stdout};

fn files() -> Vec<String> {
    let mut files = Vec::new();
    for folder in [
        "openai-chat",
        "anthropic-messages",
        "claude-code-jsonl",
        "codex-rollout",
        "gemini-contents",
        "openhands-events",
    ] {
        for entry in std::fs::read_dir(data().join("real-transcripts").join(folder)).expect("folder") {
            files.push(entry.expect("entry").path().to_str().expect("UTF-8 path").to_owned());
        }
    }
    files.sort();
    assert_eq!(files.len(), 17, "the seventeen real transcripts: {files:?}");
    files
}

#[test]
fn each_loads_and_plans_at_half_its_total() {
    for file in files() {
        let out = ctxlens(&["stats", &file, "--json"]);
        assert_exit(&out, 0);
        let stats = json_stdout(&out);
        let total = stats["total"].as_u64().expect("total");
        assert!(total > 0, "{file}: counted");
        let expected_format = [
            ("anthropic-messages", "anthropic"),
            ("openai-chat", "openai"),
            ("claude-code-jsonl", "claude-code"),
            ("codex-rollout", "codex"),
            ("gemini-contents", "gemini"),
            ("openhands-events", "openhands"),
        ]
        .into_iter()
        .find(|(folder, _)| file.contains(folder))
        .map(|(_, format)| format);
        assert_eq!(stats["format"].as_str(), expected_format, "{file}");

        let half = (total / 2).to_string();
        let out = ctxlens(&["compact", &file, "--max-tokens", &half, "--plan"]);
        assert_exit(&out, 0);
        let plan = json_stdout(&out);
        assert_eq!(plan["compacted"], true, "{file}: over budget at half its total");
        // Smaller, unless what was summarized cost less than the summary (events an agent
        // never sends cost nothing).
        let summarized: u64 = plan["messages"]
            .as_array()
            .expect("rows")
            .iter()
            .filter(|m| m["section"] == "summarized")
            .map(|m| m["tokens"].as_u64().expect("tokens"))
            .sum();
        if summarized > 40 {
            assert!(
                plan["tokens_after"].as_u64().expect("tokens_after") < total,
                "{file}: smaller"
            );
        }

        let out = ctxlens(&["compact", &file, "--max-tokens", &total.to_string()]);
        assert_exit(&out, 0);
        assert!(
            out.stdout == std::fs::read(&file).expect("read"),
            "{file}: no-op is byte-identical"
        );
    }
}

#[test]
fn trajectory_quirks_are_understood() {
    let swe = files()
        .into_iter()
        .find(|f| f.contains("swe-agent-marshmallow"))
        .expect("the SWE-agent trajectory");
    let stats = json_stdout(&ctxlens(&["stats", &swe, "--json"]));
    // SWE-agent's plural `tool_call_ids` pairs results with calls.
    let results: usize = stats["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["tool_results"].as_array().expect("list").len())
        .sum();
    assert_eq!(results, 11);
    let mini = files()
        .into_iter()
        .find(|f| f.contains("mini-swe-agent"))
        .expect("mini-swe-agent");
    let stats = json_stdout(&ctxlens(&["stats", &mini, "--json"]));
    let roles: Vec<&str> = stats["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .map(|m| m["role"].as_str().expect("role"))
        .collect();
    assert_eq!(roles.len(), 314);
    assert_eq!(roles.last(), Some(&"exit"), "the unknown role loads");
}

#[test]
fn a_claude_code_log_ctxlens_compacts_records_the_compaction_as_claude_code_does() {
    // The output holds Claude Code's `compact_boundary` record before the summary, so
    // `history` of it finds the compaction: ctxlens' own, at the size ctxlens counted; the
    // compactions the log already had stay on the chain, and compacting the output again
    // adds one more.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut checked = 0;
    let mut twice = 0;
    let compactions_of = |path: &str| {
        let history = json_stdout(&ctxlens(&["history", path, "--json"]));
        history["compactions"].as_array().expect("compactions").clone()
    };
    for file in files().into_iter().filter(|f| f.contains("claude-code-jsonl")) {
        let before = compactions_of(&file).len();
        let stats = json_stdout(&ctxlens(&["stats", &file, "--json"]));
        let budget = (stats["total"].as_u64().expect("total") / 3).max(1).to_string();
        let out_path = dir.path().join("out.jsonl");
        let out_path = out_path.to_str().expect("utf-8");
        let plan = json_stdout(&ctxlens(&["compact", &file, "--max-tokens", &budget, "--plan"]));
        if plan["compacted"] != true {
            continue; // this budget does not compact this log
        }
        assert_exit(
            &ctxlens(&["compact", &file, "--max-tokens", &budget, "-o", out_path, "--force"]),
            0,
        );
        let compactions = compactions_of(out_path);
        assert_eq!(compactions.len(), before + 1, "{file}: {compactions:?}");
        let ours = &compactions[before];
        // Read as ctxlens' own (its marker), written in Claude Code's words for viewers.
        assert_eq!(ours["trigger"], "ctxlens", "{file}");
        let written = std::fs::read_to_string(out_path).expect("written");
        let boundary: serde_json::Value = written
            .lines()
            .rev()
            .find(|l| l.contains("compact_boundary"))
            .map(|l| serde_json::from_str(l).expect("JSON"))
            .expect("a boundary");
        assert_eq!(boundary["compactMetadata"]["trigger"], "manual", "{file}");
        assert_eq!(boundary["compactMetadata"]["writtenBy"], "ctxlens", "{file}");
        assert!(ours["pre_tokens"].as_u64().is_some_and(|p| p > 0), "{file}");
        assert!(
            ours["summary_message"].is_u64(),
            "{file}: the summary follows the boundary"
        );
        checked += 1;
        // Again, on the output: every earlier compaction is still found.
        let total = json_stdout(&ctxlens(&["stats", out_path, "--json"]))["total"]
            .as_u64()
            .expect("total");
        let (budget, tail) = ((total - 1).to_string(), (total / 4).to_string());
        let again = dir.path().join("again.jsonl");
        let again = again.to_str().expect("utf-8");
        let compact_again = |extra: &[&str]| {
            let mut args = vec!["compact", out_path, "--max-tokens", &budget, "--keep-tail", &tail];
            args.extend_from_slice(extra);
            ctxlens(&args)
        };
        if json_stdout(&compact_again(&["--plan"]))["compacted"] != true {
            continue;
        }
        assert_exit(&compact_again(&["-o", again, "--force"]), 0);
        assert_eq!(compactions_of(again).len(), before + 2, "{file}: compacted twice");
        twice += 1;
    }
    assert!(checked >= 3, "{checked} logs compacted");
    assert!(twice >= 2, "{twice} logs compacted twice");
}

#[test]
fn a_compacted_log_carries_no_usage_measured_before_its_compaction() {
    // Usage on a kept record was measured with the summarized messages in the context:
    // carried over, `stats` would fit an overhead as large as the old context.
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out.jsonl");
    let out = out.to_str().expect("utf-8");
    let mut checked = 0;
    for file in files()
        .into_iter()
        .filter(|f| f.contains("claude-code-jsonl") || f.contains("codex-rollout"))
    {
        let before = json_stdout(&ctxlens(&["stats", &file, "--json"]));
        let budget = (before["total"].as_u64().expect("total") / 3).max(1).to_string();
        if json_stdout(&ctxlens(&["compact", &file, "--max-tokens", &budget, "--plan"]))["compacted"] != true {
            continue;
        }
        assert_exit(
            &ctxlens(&["compact", &file, "--max-tokens", &budget, "-o", out, "--force"]),
            0,
        );
        let text = std::fs::read_to_string(out).expect("output");
        let records: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON record"))
            .collect();
        // What the compaction wrote: Claude Code's summary record, Codex's `compacted`.
        let written = records
            .iter()
            .rposition(|r| r["isCompactSummary"] == true || r["type"] == "compacted")
            .unwrap_or_else(|| panic!("{file}: the compaction's record"));
        for record in &records[written..] {
            assert!(record["message"].get("usage").is_none(), "{file}: {record}");
            assert_ne!(record["payload"]["type"], "token_count", "{file}");
        }
        let after = json_stdout(&ctxlens(&["stats", out, "--json"]));
        let overhead = |stats: &serde_json::Value| stats["calibration"]["overhead"].as_u64().unwrap_or(0);
        assert!(
            overhead(&after) <= overhead(&before),
            "{file}: an overhead of {} fitted on the output ({} on the log)",
            overhead(&after),
            overhead(&before)
        );
        checked += 1;
    }
    assert!(checked >= 4, "{checked} logs compacted");
}

#[test]
fn history_fits_each_epoch_s_system_prompt_and_tools_on_its_own() {
    // The live epoch's figure is the one `stats` fits; an earlier epoch has its own.
    let mut per_epoch = 0;
    for file in files().into_iter().filter(|f| f.contains("claude-code-jsonl")) {
        let stats = json_stdout(&ctxlens(&["stats", &file, "--json"]));
        let history = json_stdout(&ctxlens(&["history", &file, "--json"]));
        let epochs = history["epochs"].as_array().expect("epochs");
        let live = epochs.last().expect("an epoch");
        assert_eq!(
            live["overhead"].as_u64(),
            stats["calibration"]["overhead"].as_u64().filter(|&o| o > 0),
            "{file}"
        );
        per_epoch += epochs[..epochs.len() - 1]
            .iter()
            .filter(|e| e["overhead"].as_u64().is_some())
            .count();
    }
    assert!(per_epoch >= 1, "an earlier epoch with its own fit");
}

#[test]
fn the_breakdown_shows_what_the_log_does_not_hold_as_the_calibration_fits_it() {
    let mut with_usage = 0;
    for file in files() {
        let stats = json_stdout(&ctxlens(&["stats", &file, "--json"]));
        let by_kind = json_stdout(&ctxlens(&["stats", &file, "--by", "kind", "--json"]));
        let rows = by_kind["rows"].as_array().expect("rows");
        let fitted: Vec<&serde_json::Value> = rows.iter().filter(|r| r["fitted"] == true).collect();
        match stats["calibration"]["overhead"].as_u64().filter(|&o| o > 0) {
            Some(overhead) => {
                assert_eq!(fitted.len(), 1, "{file}: one overhead row");
                assert_eq!(fitted[0]["tokens"].as_u64(), Some(overhead), "{file}");
                assert_eq!(by_kind["overhead"].as_u64(), Some(overhead), "{file}");
                // The counted rows still add up to the counted total.
                let counted: u64 = rows
                    .iter()
                    .filter(|r| r["fitted"] != true)
                    .map(|r| r["tokens"].as_u64().expect("tokens"))
                    .sum();
                assert_eq!(counted, by_kind["total"].as_u64().expect("total"), "{file}");
                with_usage += 1;
            }
            None => assert!(fitted.is_empty(), "{file}: no usage, no fitted row"),
        }
        // By tool there is no such row.
        let by_tool = json_stdout(&ctxlens(&["stats", &file, "--by", "tool", "--json"]));
        assert!(by_tool["rows"]
            .as_array()
            .expect("rows")
            .iter()
            .all(|r| r["fitted"] != true));
    }
    assert!(with_usage >= 3, "{with_usage} logs with recorded usage");
}

#[test]
fn stats_warns_when_the_counter_is_far_from_what_the_provider_bills() {
    let log = data().join("real-transcripts/claude-code-jsonl/ccl-sample-image-0d3a8e6f.jsonl");
    let log = log.to_str().expect("utf-8");
    let header = |tokenizer: &str| {
        let out = ctxlens(&["stats", log, "--tokenizer", tokenizer]);
        assert_exit(&out, 0);
        String::from_utf8(out.stdout)
            .expect("utf-8")
            .lines()
            .take(4)
            .collect::<Vec<_>>()
            .join("\n")
    };
    let estimate = header("estimate");
    assert!(estimate.contains("by the provider's rules ≈"), "{estimate}");
    assert!(estimate.contains("--tokenizer provider"), "{estimate}");
    assert!(!header("provider").contains("by the provider's rules ≈"));
    // A log without media has no such warning.
    let plain = data().join("real-transcripts/claude-code-jsonl/ccl-sample-37f83ec9.jsonl");
    let out = ctxlens(&["stats", plain.to_str().expect("utf-8")]);
    assert!(!String::from_utf8(out.stdout)
        .expect("utf-8")
        .contains("by the provider's rules ≈"));
}

/// Claude Code 2.1 may compact while a tool's result is still in flight: the boundary's
/// `logicalParentUuid` names a record never written, and a hook's `progress` record before
/// the boundary names the same missing parent (seen in a real 2.1.41 session). The
/// conversation before the compaction is still found — from the last message written
/// before the boundary —, so the log has its two epochs, not one.
#[test]
fn a_compaction_whose_logical_parent_was_never_written_keeps_the_epoch_before_it() {
    let path = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let text = std::fs::read_to_string(&path).expect("the 2.0.76 log");
    let records: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect();
    let boundary = records
        .iter()
        .position(|r| r["subtype"] == "compact_boundary")
        .expect("its compaction");
    let missing = records[boundary]["logicalParentUuid"]
        .as_str()
        .expect("linked")
        .to_owned();
    let named = records
        .iter()
        .position(|r| r["uuid"] == missing.as_str())
        .expect("the record it names");
    // That record is not written; a hook's progress record naming it is.
    let mut progress = records[named].clone();
    let progress = progress.as_object_mut().expect("an object");
    progress.remove("message");
    progress.remove("toolUseResult");
    progress.insert("type".into(), "progress".into());
    progress.insert("parentUuid".into(), missing.clone().into());
    progress.insert("uuid".into(), "00000000-0000-4000-8000-00000000a11e".into());
    progress.insert(
        "data".into(),
        serde_json::json!({"type": "hook_progress", "hookEvent": "PostToolUse"}),
    );
    let mut cut: Vec<String> = records.iter().map(serde_json::Value::to_string).collect();
    cut[named] = serde_json::Value::Object(progress.clone()).to_string();
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("in-flight.jsonl");
    std::fs::write(&file, cut.join("\n") + "\n").expect("write");
    let history = |p: &std::path::Path| json_stdout(&ctxlens(&["history", p.to_str().expect("utf-8"), "--json"]));
    let (whole, cut) = (history(&path), history(&file));
    assert_eq!(cut["epochs"].as_array().map(Vec::len), Some(2), "{cut}");
    assert_eq!(cut["compactions"][0]["trigger"], "auto");
    // The epoch before it holds every message but the unwritten one.
    assert_eq!(
        cut["epochs"][0]["messages"].as_u64(),
        whole["epochs"][0]["messages"].as_u64().map(|n| n - 1)
    );
    assert_eq!(cut["epochs"][1]["messages"], whole["epochs"][1]["messages"]);
}

/// `stats` and `status` give one figure for the context now on every real log that
/// records usage: the provider's last count.
#[test]
fn stats_and_status_agree_on_the_context_now() {
    let mut compared = 0;
    for file in files()
        .iter()
        .filter(|f| f.contains("claude-code") || f.contains("codex"))
    {
        let status = json_stdout(&ctxlens(&["status", file, "--json"]));
        if status["tokens_from"] != "recorded" {
            continue;
        }
        let out = ctxlens(&["stats", file]);
        assert_exit(&out, 0);
        let text = common::stdout(&out);
        let tokens = status["tokens"].as_u64().expect("tokens");
        let expected = format!("the context now: {} tokens", ctxlens::text::thousands(tokens));
        assert!(text.contains(&expected), "{file}: {expected}\n{text}");
        compared += 1;
    }
    assert!(compared >= 6, "{compared}");
}
