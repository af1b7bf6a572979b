//! Other agents' compactors against their references: every case of
//! `tests/data/conformance/policies/expected.json` (made with the real LangChain code
//! and line-by-line ports of Codex, OpenHands, opencode and Semantic Kernel) run through
//! the built binary as `compact FILE --policy NAME --set K=V --plan`, compared as
//! `MAPPING.md` says: `compacted`, the index set of each section, the row flags, and the
//! token and summarizer extras the case records.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};

use common::{ctxlens, data, stderr};
use serde_json::Value;

const SECTIONS: [&str; 5] = ["head", "tail", "summarized", "dropped", "cleared"];
const FLAGS: [&str; 3] = ["truncated", "inputs_cleared", "duplicated"];
const EXTRAS: [&str; 4] = [
    "tokens_before",
    "tokens_after",
    "summarizer_input",
    "summarizer_input_truncated",
];

fn indices(value: &Value) -> BTreeSet<u64> {
    value
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_u64)
        .collect()
}

/// The mismatches of one plan against one case (empty: it passes).
fn compare(case: &Value, plan: &Value, n: usize) -> Vec<String> {
    let expect = &case["expect"];
    let mut bad = Vec::new();
    let rows = plan["messages"].as_array().cloned().unwrap_or_default();
    let seen: Vec<u64> = rows.iter().filter_map(|r| r["index"].as_u64()).collect();
    if seen != (0..n as u64).collect::<Vec<_>>() {
        bad.push(format!("rows are not 0..{n} in order"));
    }
    if plan["policy"] != case["policy"] {
        bad.push(format!("policy {}", plan["policy"]));
    }
    if plan["compacted"] != expect["compacted"] {
        bad.push(format!(
            "compacted {} (expected {})",
            plan["compacted"], expect["compacted"]
        ));
    }
    let got = |section: &str| -> BTreeSet<u64> {
        rows.iter()
            .filter(|r| r["section"] == section)
            .filter_map(|r| r["index"].as_u64())
            .collect()
    };
    if expect["compacted"] == Value::Bool(true) {
        for section in SECTIONS {
            if got(section) != indices(&expect[section]) {
                bad.push(format!(
                    "{section}: {:?} (expected {:?})",
                    got(section),
                    indices(&expect[section])
                ));
            }
        }
    } else {
        let kept: BTreeSet<u64> = got("head").union(&got("tail")).copied().collect();
        let want: BTreeSet<u64> = indices(&expect["head"])
            .union(&indices(&expect["tail"]))
            .copied()
            .collect();
        if kept != want {
            bad.push("not compacted, so every message is head or tail".to_owned());
        }
    }
    for flag in FLAGS {
        let flagged: BTreeSet<u64> = rows
            .iter()
            .filter(|r| r[flag] == Value::Bool(true))
            .filter_map(|r| r["index"].as_u64())
            .collect();
        if flagged != indices(&expect[flag]) {
            bad.push(format!(
                "{flag} rows {flagged:?} (expected {:?})",
                indices(&expect[flag])
            ));
        }
    }
    if let Some(want) = expect.get("truncated_to_tokens") {
        let got: BTreeMap<String, Value> = rows
            .iter()
            .filter_map(|r| Some((r["index"].as_u64()?.to_string(), r.get("truncated_to_tokens")?.clone())))
            .collect();
        let want: BTreeMap<String, Value> = want.as_object().cloned().unwrap_or_default().into_iter().collect();
        if got != want {
            bad.push(format!("truncated_to_tokens {got:?} (expected {want:?})"));
        }
    }
    for extra in EXTRAS {
        if let Some(want) = expect.get(extra) {
            if &plan[extra] != want {
                bad.push(format!("{extra} {} (expected {want})", plan[extra]));
            }
        }
    }
    bad
}

#[test]
fn every_policy_matches_its_reference_on_every_case() {
    let dir = data().join("conformance/policies");
    check_cases(&dir, &dir.join("expected.json"), 327);
}

/// Gemini CLI's compression against a stdlib port of its code
/// (`tests/data/conformance/policies/gemini-cli/`), on the shared inputs and two longer
/// ones.
#[test]
fn gemini_cli_matches_its_reference_on_every_case() {
    let dir = data().join("conformance/policies");
    check_cases(&dir, &dir.join("gemini-cli/expected.json"), 60);
}

/// Runs every case of `expected` (inputs named relative to `dir`) and fails with each
/// difference.
fn check_cases(dir: &std::path::Path, expected: &std::path::Path, at_least: usize) {
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(expected).expect("read")).expect("JSON");
    let cases = doc["cases"].as_array().expect("cases");
    assert!(cases.len() >= at_least, "{} cases", cases.len());
    let mut sizes = BTreeMap::new();
    let mut per_policy: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in cases {
        let file = case["file"].as_str().expect("file");
        let path = dir.join(file);
        let n = *sizes.entry(file.to_owned()).or_insert_with(|| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("input")).expect("JSON");
            v.as_array().expect("a list").len()
        });
        let policy = case["policy"].as_str().expect("policy");
        let mut args = vec![
            "compact".to_owned(),
            path.display().to_string(),
            "--policy".to_owned(),
            policy.to_owned(),
        ];
        for (k, v) in case["set"].as_object().expect("set") {
            args.push("--set".to_owned());
            args.push(format!("{k}={}", v.as_str().expect("a string value")));
        }
        args.push("--plan".to_owned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ctxlens(&args);
        let entry = per_policy.entry(policy.to_owned()).or_default();
        entry.0 += 1;
        let bad = if out.status.success() {
            match serde_json::from_slice::<Value>(&out.stdout) {
                Ok(plan) => compare(case, &plan, n),
                Err(e) => vec![format!("not JSON: {e}")],
            }
        } else {
            vec![format!("exit {:?}: {}", out.status.code(), stderr(&out))]
        };
        if bad.is_empty() {
            entry.1 += 1;
        } else {
            failures.push(format!("{}: {}", case["id"], bad.join("; ")));
        }
    }
    for (policy, (cases, passed)) in &per_policy {
        eprintln!("{policy:<32} {passed}/{cases}");
    }
    assert!(
        failures.is_empty(),
        "{} cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn a_policy_refuses_settings_it_does_not_have() {
    let input = data().join("conformance/policies/inputs/agent-loop.json");
    let input = input.display().to_string();
    let out = ctxlens(&[
        "compact",
        &input,
        "--policy",
        "codex",
        "--set",
        "max_tokens=10",
        "--plan",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("max_tokens") && err.contains("auto_compact_token_limit"),
        "{err}"
    );
    let out = ctxlens(&["compact", &input, "--policy", "claude-kode", "--plan"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown policy"), "{}", stderr(&out));
    let out = ctxlens(&[
        "compact",
        &input,
        "--policy",
        "langchain-trim",
        "--set",
        "max_tokens=ten",
        "--plan",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("whole number"), "{}", stderr(&out));
}

/// The shipped real transcripts.
fn real_transcripts() -> Vec<std::path::PathBuf> {
    let root = data().join("real-transcripts");
    let mut files = Vec::new();
    for dir in std::fs::read_dir(&root).expect("real transcripts") {
        let dir = dir.expect("entry").path();
        if dir.is_dir() {
            for f in std::fs::read_dir(&dir).expect("folder") {
                let f = f.expect("entry").path();
                if matches!(f.extension().and_then(|e| e.to_str()), Some("json" | "jsonl" | "traj")) {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    files
}

fn json_of(args: &[&str]) -> Value {
    let out = ctxlens(args);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

/// On both real Claude Code logs with an automatic compaction (1.0.53, 2.0.76), the
/// claude-code policy with no setting fires at the first model call after the real
/// compaction: its threshold is the release's rule, not the log's own preTokens. After
/// firing it predicts the next request with what Claude Code puts back (restored files).
#[test]
fn claude_code_replayed_fires_where_the_real_compaction_did_from_the_releases_rule() {
    for name in [
        "codemie-autocompact-624a4a58.jsonl",
        "vsla-cc1053-autocompact-0a725fb5.jsonl",
    ] {
        let log = data()
            .join("real-transcripts/claude-code-jsonl")
            .join(name)
            .display()
            .to_string();
        let history = json_of(&["history", &log, "--json"]);
        let compaction = &history["compactions"][0];
        let summary_at = compaction["at"].as_u64().expect("at");
        let replayed = json_of(&["replay", &log, "--policy", "claude-code", "--json"]);
        let firings = replayed["firings"].as_array().expect("firings");
        assert_eq!(firings.len(), 1, "{name}: {firings:?}");
        let calls = replayed["calls"].as_array().expect("calls");
        let first_call_after = calls
            .iter()
            .map(|c| c["at"].as_u64().expect("at"))
            .find(|&at| at > summary_at)
            .expect("a call after the compaction");
        assert_eq!(firings[0]["at"].as_u64(), Some(first_call_after), "{name}");
        // The release's rule (the firing cannot read the compaction it predicts) lies
        // where the log's compaction says the threshold was.
        let bracket: Vec<u64> = compaction["threshold_between"]
            .as_array()
            .expect("bracket")
            .iter()
            .filter_map(Value::as_u64)
            .collect();
        let said = replayed["warnings"].to_string();
        assert!(said.contains("'s rule") && !said.contains("agrees"), "{name}: {said}");
        let threshold: u64 = said
            .split("threshold ")
            .nth(1)
            .and_then(|t| t.split(':').next())
            .and_then(|n| n.parse().ok())
            .expect("a threshold in the warning");
        if let [low, high] = bracket[..] {
            assert!(
                low < threshold && threshold <= high,
                "{name}: {threshold} outside ({low}, {high}]"
            );
        }
    }
    // A threshold set by hand wins over every source.
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let set = json_of(&[
        "replay",
        log.to_str().unwrap(),
        "--policy",
        "claude-code",
        "--set",
        "threshold=100000",
        "--json",
    ]);
    assert!(
        set["warnings"].to_string().contains("threshold 100000: set"),
        "{}",
        set["warnings"]
    );
    let pinned = json_of(&[
        "replay",
        log.to_str().unwrap(),
        "--policy",
        "claude-code@1.0.53",
        "--json",
    ]);
    assert!(
        pinned["warnings"].to_string().contains("154560"),
        "{}",
        pinned["warnings"]
    );
}

#[test]
fn compare_runs_every_policy_on_every_real_transcript() {
    let policies = ctxlens::policy::all().len();
    for file in real_transcripts() {
        let file = file.display().to_string();
        let doc = json_of(&["compare", &file, "--json", "--summarizer", "placeholder"]);
        let rows = doc["policies"].as_array().expect("policies");
        assert_eq!(rows.len(), policies, "{file}");
        for row in rows {
            let calls = row["model_calls"].as_u64().expect("calls");
            let firings = row["firings"].as_array().expect("firings").len() as u64;
            assert!(
                firings <= calls,
                "{file} {}: {firings} firings in {calls} calls",
                row["policy"]
            );
            // Every call's size adds up to the total, and the peak is one of them.
            let sizes: Vec<u64> = row["calls"]
                .as_array()
                .expect("calls")
                .iter()
                .map(|c| c["counted"].as_u64().expect("counted"))
                .collect();
            assert_eq!(
                sizes.iter().sum::<u64>(),
                row["counted_total"].as_u64().expect("total"),
                "{file} {}",
                row["policy"]
            );
            assert_eq!(
                sizes.iter().copied().max().unwrap_or(0),
                row["peak_counted"].as_u64().expect("peak")
            );
            let lost = row["instructions_lost"].as_array().expect("lost").len() as u64;
            assert!(lost <= row["instructions"].as_u64().expect("instructions"));
        }
    }
}

#[test]
fn a_view_policy_keeps_the_history_and_a_rewriting_one_shrinks_it() {
    let file = data()
        .join("conformance/policies/inputs/support-agent.json")
        .display()
        .to_string();
    // Server-side clearing applies to each request: the client's history grows on.
    let clearing = json_of(&[
        "replay",
        &file,
        "--policy",
        "anthropic-clear-tool-uses",
        "--set",
        "trigger=300",
        "--set",
        "keep=1",
        "--json",
        "--summarizer",
        "placeholder",
    ]);
    let messages: Vec<u64> = clearing["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .map(|c| c["messages"].as_u64().expect("n"))
        .collect();
    assert!(messages.windows(2).all(|w| w[0] < w[1]), "{messages:?}");
    assert!(!clearing["firings"].as_array().expect("firings").is_empty());
    // A summary replaces the history: the context shrinks after each firing.
    let summarizing = json_of(&[
        "replay",
        &file,
        "--policy",
        "langchain-summarization",
        "--set",
        "trigger=tokens:600",
        "--set",
        "keep=messages:6",
        "--json",
        "--summarizer",
        "placeholder",
    ]);
    let firings = summarizing["firings"].as_array().expect("firings");
    assert!(!firings.is_empty());
    for f in firings {
        assert!(f["counted_after"].as_u64() < f["counted_before"].as_u64(), "{f}");
    }
}

#[test]
fn each_fast_view_sizes_a_call_as_its_plan_does() {
    use ctxlens::policy::{chat_view, PolicySettings, Running, Section};
    let placeholder =
        |text: &str| (serde_json::json!({"role": "tool", "content": text}).to_string().len() as u64).div_ceil(4);
    let settings = |pairs: &[&str]| PolicySettings::parse(pairs.iter().copied()).expect("settings");
    let cases: Vec<(&str, PolicySettings)> = vec![
        ("openhands-mask", settings(&["attention_window=4"])),
        ("openhands-mask", settings(&["attention_window=1"])),
        ("openhands-recent", settings(&["keep_first=2", "max_events=6"])),
        ("openhands-recent", settings(&["keep_first=1", "max_events=40"])),
        ("openhands-recent", settings(&["keep_first=0", "max_events=5"])),
        ("anthropic-clear-tool-uses", settings(&["trigger=100", "keep=1"])),
        ("anthropic-clear-tool-uses", settings(&["trigger=400", "keep=3"])),
        ("langchain-trim", settings(&["max_tokens=300"])),
        (
            "langchain-trim",
            settings(&["max_tokens=500", "start_on=human", "include_system=true"]),
        ),
        ("langchain-trim", settings(&["max_tokens=60", "start_on=human"])),
    ];
    let inputs = [
        "support-agent.json",
        "agent-loop.json",
        "anthropic-parallel-tools.json",
        "toolnexus-fixture-transcript.json",
        "lc-orphan-38352.json",
    ];
    let mut compared = 0;
    for input in inputs {
        let path = data().join("conformance/policies/inputs").join(input);
        let transcript = ctxlens::transcript::Transcript::read(&path, None).expect("loads");
        let mut chat = chat_view(&transcript);
        // The fast views and the plans price a cleared message alike.
        for m in &mut chat {
            m.counted = m.counted.max(1);
        }
        for (name, settings) in &cases {
            let policy = ctxlens::policy::by_name(name).expect("a policy");
            for end in 1..=chat.len() {
                let context = &chat[..end];
                let running = Running::of(context, |m| policy.cost(m));
                let Some(fast) = policy.fast_view(settings, &running, &placeholder).expect("settings") else {
                    panic!("{name} {settings:?}: no fast view");
                };
                let plan = policy.plan_chat(context, settings).expect("plans");
                let placeholder_text = plan.placeholder.unwrap_or("[cleared]");
                let mut messages = 0;
                let mut counted = 0;
                let mut removed = 0;
                for row in &plan.messages {
                    let m = &context[row.index];
                    match row.section {
                        Section::Head | Section::Tail => {
                            messages += 1 + usize::from(row.duplicated);
                            counted += m.counted * (1 + u64::from(row.duplicated));
                        }
                        Section::Cleared => {
                            messages += 1;
                            counted += placeholder(placeholder_text);
                            removed += 1;
                        }
                        Section::Summarized | Section::Dropped => removed += 1,
                    }
                }
                let what = format!("{input} {name} {:?} at {end}", settings.pairs());
                assert_eq!(fast.changed, plan.compacted, "{what}");
                assert_eq!(
                    (fast.messages, fast.counted, fast.removed),
                    (messages, counted, removed),
                    "{what}"
                );
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared}");
}

#[test]
fn every_policy_plans_every_shipped_file_at_edge_settings_without_a_panic() {
    use ctxlens::policy::{all, chat_view, PolicySettings};
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for dir in [
        common::repo().join("sample-transcripts"),
        data().join("reproducers"),
        data().join("conformance/policies/inputs"),
    ] {
        for entry in std::fs::read_dir(dir).expect("folder") {
            files.push(entry.expect("entry").path());
        }
    }
    files.extend(real_transcripts());
    let values = ["0", "1", "2", "3", "100", "100000"];
    let mut plans = 0;
    for file in files {
        let Ok(transcript) = ctxlens::transcript::Transcript::read(&file, None) else {
            continue; // a reproducer of a load error
        };
        // The chat view once per file; each policy plans it (Claude Code's own `plan`
        // only adds the log's calibration, planned once below).
        let chat = chat_view(&transcript);
        let claude = ctxlens::policy::by_name("claude-code").expect("claude-code");
        assert!(
            claude.plan(&transcript, &PolicySettings::default()).is_ok(),
            "{}",
            file.display()
        );
        for policy in all() {
            for value in values {
                // Every key the policy takes at the same small or large number, then each
                // key alone: a plan or a clear error, never a panic, one row per message.
                let mut every = PolicySettings::default();
                for key in policy.keys() {
                    every = every.with(key, value);
                }
                let singles = policy
                    .keys()
                    .iter()
                    .map(|key| PolicySettings::default().with(key, value));
                for settings in std::iter::once(every).chain(singles) {
                    if let Ok(plan) = policy.plan_chat(&chat, &settings) {
                        let rows: Vec<usize> = plan.messages.iter().map(|r| r.index).collect();
                        assert_eq!(
                            rows,
                            (0..transcript.messages().len()).collect::<Vec<_>>(),
                            "{} {}",
                            file.display(),
                            policy.name()
                        );
                        plans += 1;
                    }
                }
            }
        }
    }
    assert!(plans > 1000, "{plans}");
}

#[test]
fn history_and_scan_report_the_threshold_a_log_compacted_at() {
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let log = log.display().to_string();
    let history = json_of(&["history", &log, "--json"]);
    let compaction = &history["compactions"][0];
    let pre = compaction["pre_tokens"].as_u64().expect("preTokens");
    let bracket = compaction["threshold_between"]
        .as_array()
        .expect("an auto compaction is bracketed");
    // Above the largest request the epoch recorded, at most where it fired.
    let peak = history["epochs"][0]["recorded_peak"].as_u64().expect("recorded");
    assert_eq!(bracket[1].as_u64(), Some(pre));
    assert!(
        bracket[0].as_u64().is_some_and(|low| low <= pre && low <= peak),
        "{bracket:?}"
    );
    // scan and status give the one threshold, inside that bracket.
    let out = ctxlens(&["scan", &log, "--json"]);
    let row: Value = serde_json::from_str(String::from_utf8_lossy(&out.stdout).trim()).expect("a row");
    let at = row["autocompact_at"].as_u64().expect("a threshold");
    assert!(
        bracket[0].as_u64().is_some_and(|low| low < at) && at <= pre,
        "{at} outside {bracket:?}"
    );
    assert_eq!(json_of(&["status", &log, "--json"])["threshold"].as_u64(), Some(at));
}

#[test]
fn a_policy_writes_the_transcript_its_plan_describes() {
    let cases: [(&str, &[&str]); 7] = [
        ("langchain-summarization", &["trigger=tokens:100", "keep=messages:4"]),
        ("langchain-trim", &["max_tokens=300"]),
        (
            "anthropic-clear-tool-uses",
            &["trigger=100", "keep=1", "clear_tool_inputs=true"],
        ),
        ("codex", &["auto_compact_token_limit=100"]),
        ("openhands-recent", &["keep_first=2", "max_events=100"]),
        ("openhands-mask", &["attention_window=3"]),
        ("semantic-kernel-summarization", &["target_count=4"]),
    ];
    let dir = data().join("conformance/policies/inputs");
    for input in ["support-agent.json", "agent-loop.json", "anthropic-parallel-tools.json"] {
        let file = dir.join(input).display().to_string();
        let original: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(dir.join(input)).expect("read")).expect("JSON");
        for (policy, set) in cases {
            let mut args = vec!["compact", file.as_str(), "--policy", policy];
            for s in set {
                args.extend(["--set", s]);
            }
            let mut plan_args = args.clone();
            plan_args.push("--plan");
            let plan = json_of(&plan_args);
            let written = json_of(&args);
            let out = written.as_array().expect("a message list");
            let rows = plan["messages"].as_array().expect("rows");
            let kept = rows
                .iter()
                .filter(|r| matches!(r["section"].as_str(), Some("head" | "tail" | "cleared")))
                .count();
            let twice = rows.iter().filter(|r| r["duplicated"] == Value::Bool(true)).count();
            let inserted = plan["inserted"].as_array().expect("inserted").len();
            let what = format!("{input} {policy} {set:?}");
            assert_eq!(out.len(), kept + twice + inserted, "{what}");
            // The expected sequence from the plan alone: kept messages in order (a
            // duplicated head again where the tail starts), the summary at its position.
            // Kept messages are the input's; a cleared one holds the placeholder.
            let placeholder = plan["placeholder"].as_str().unwrap_or("[cleared]");
            let mut expected: Vec<(usize, &str)> = Vec::new();
            let first_tail = rows.iter().position(|r| r["section"] == "tail");
            for (k, row) in rows.iter().enumerate() {
                if Some(k) == first_tail {
                    for dup in rows.iter().filter(|r| r["duplicated"] == Value::Bool(true)) {
                        expected.push((dup["index"].as_u64().expect("index") as usize, "kept"));
                    }
                }
                let index = row["index"].as_u64().expect("index") as usize;
                match row["section"].as_str() {
                    Some("head" | "tail") if row["inputs_cleared"] == Value::Bool(true) => {
                        expected.push((index, "args"));
                    }
                    Some("head" | "tail") => expected.push((index, "kept")),
                    Some("cleared") => expected.push((index, "cleared")),
                    _ => {}
                }
            }
            for i in plan["inserted"].as_array().expect("inserted") {
                let at = (i["position"].as_u64().expect("position") as usize).min(expected.len());
                expected.insert(at, (usize::MAX, "summary"));
            }
            for (k, (index, what_kind)) in expected.iter().enumerate() {
                match *what_kind {
                    "kept" => assert_eq!(out[k], original[*index], "{what}: message {index}"),
                    "cleared" => assert_eq!(out[k]["content"], placeholder, "{what}: message {index}"),
                    "args" => assert_eq!(out[k]["role"], original[*index]["role"], "{what}: message {index}"),
                    _ => assert_eq!(out[k]["role"], plan["inserted"][0]["role"], "{what}: the summary"),
                }
            }
        }
    }
    // A session log is described, not rewritten in another agent's shape.
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let out = ctxlens(&[
        "compact",
        &log.display().to_string(),
        "--policy",
        "codex",
        "--set",
        "auto_compact_token_limit=10",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--plan"), "{}", stderr(&out));
}

#[test]
fn cleared_results_keep_their_dialect_shape() {
    // An Anthropic request: the tool_result blocks hold the placeholder, the blocks stay.
    let file = common::repo()
        .join("sample-transcripts/anthropic-parallel-tools.json")
        .display()
        .to_string();
    let out = json_of(&[
        "compact",
        &file,
        "--policy",
        "openhands-mask",
        "--set",
        "attention_window=2",
    ]);
    let messages = out["messages"].as_array().expect("the request's messages");
    let results: Vec<&Value> = messages
        .iter()
        .filter_map(|m| m["content"].as_array())
        .flatten()
        .filter(|b| b["type"] == "tool_result")
        .collect();
    assert!(!results.is_empty());
    assert!(results.iter().any(|b| b["content"] == "<MASKED>"), "{results:?}");
    assert!(
        results.iter().all(|b| b["tool_use_id"].is_string()),
        "the pairing stays"
    );
    assert!(out["system"].as_str().is_some(), "the request around the list is kept");
}

#[test]
fn opencode_compacts_at_its_usable_context_and_keeps_whole_turns() {
    let file = data()
        .join("conformance/policies/inputs/support-agent.json")
        .display()
        .to_string();
    let plan_with = |set: &[&str]| {
        let mut args = vec![
            "compact",
            file.as_str(),
            "--policy",
            "opencode",
            "--plan",
            "--set",
            "overhead=0",
        ];
        for s in set {
            args.extend(["--set", s]);
        }
        json_of(&args)
    };
    // With no overhead the billed size is the counted one: it fires once that reaches
    // context − max_output − reserved, and not one token before.
    let total = plan_with(&[])["tokens_before"].as_u64().expect("tokens");
    let at = |usable: u64| plan_with(&[&format!("context={}", usable + 300), "max_output=200", "reserved=100"]);
    assert_eq!(at(total)["compacted"], Value::Bool(true));
    assert_eq!(at(total + 1)["compacted"], Value::Bool(false));
    // 2026: the tail is whole user turns (it starts at a user message); legacy keeps none.
    let plan = at(total);
    let rows = plan["messages"].as_array().expect("rows");
    let first_tail = rows.iter().position(|r| r["section"] == "tail").expect("a tail");
    let input: Vec<Value> = serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("JSON");
    assert_eq!(input[first_tail]["role"], "user");
    // Legacy versions keep no room for `reserved`: usable = context − max_output.
    let legacy = plan_with(&[
        &format!("context={}", total + 200),
        "max_output=200",
        "reserved=100",
        "version=legacy",
    ]);
    assert!(legacy["messages"]
        .as_array()
        .expect("rows")
        .iter()
        .all(|r| r["section"] == "summarized"));
    assert_eq!(plan["inserted"][0]["role"], "assistant");
}

#[test]
fn llm4s_is_the_deterministic_strategy_through_the_policy_contract() {
    // On every shipped real transcript and at a cap that makes phase 2 run, the policy's
    // plan sizes the output as `compact --strategy deterministic` does, flags exactly the
    // messages it edits, and writes the same document.
    let dir = tempfile::tempdir().expect("temp dir");
    let mut edited_files = 0;
    for file in real_transcripts() {
        let path = file.to_str().expect("utf-8 path");
        let strategy = json_of(&[
            "compact",
            path,
            "--strategy",
            "deterministic",
            "--max-tokens",
            "1000",
            "--subjective-edits",
            "--plan",
        ]);
        let plan = json_of(&[
            "compact",
            path,
            "--policy",
            "llm4s",
            "--set",
            "max_tokens=1000",
            "--set",
            "subjective_edits=true",
            "--plan",
        ]);
        assert_eq!(plan["tokens_after"], strategy["tokens_after"], "{path}");
        assert_eq!(plan["tokens_before"], strategy["tokens_before"], "{path}");
        let edited: BTreeSet<u64> = strategy["edits"]
            .as_array()
            .expect("edits")
            .iter()
            .map(|e| e["index"].as_u64().expect("index"))
            .collect();
        let flagged: BTreeSet<u64> = plan["messages"]
            .as_array()
            .expect("rows")
            .iter()
            .filter(|r| r["truncated"] == Value::Bool(true))
            .map(|r| r["index"].as_u64().expect("index"))
            .collect();
        assert_eq!(flagged, edited, "{path}");
        if edited.is_empty() {
            continue;
        }
        edited_files += 1;
        let by_strategy = dir.path().join("strategy.out");
        let by_policy = dir.path().join("policy.out");
        for (out, args) in [
            (
                &by_strategy,
                vec![
                    "--strategy",
                    "deterministic",
                    "--max-tokens",
                    "1000",
                    "--subjective-edits",
                ],
            ),
            (
                &by_policy,
                vec![
                    "--policy",
                    "llm4s",
                    "--set",
                    "max_tokens=1000",
                    "--set",
                    "subjective_edits=true",
                ],
            ),
        ] {
            let mut all = vec!["compact", path, "-o", out.to_str().expect("utf-8"), "--force"];
            all.extend(args);
            let run = ctxlens(&all);
            assert_eq!(run.status.code(), Some(0), "{path}: {}", stderr(&run));
        }
        assert_eq!(
            std::fs::read(&by_strategy).expect("strategy output"),
            std::fs::read(&by_policy).expect("policy output"),
            "{path}"
        );
    }
    assert!(
        edited_files >= 3,
        "only {edited_files} real transcripts had a tool output to compact"
    );
}

/// Each value of a policy sweep is priced as `compare` prices that policy under that
/// setting (one cache model, one answer), and `--minimise cost` answers with the safe
/// value that costs least; a log without usage is priced nowhere.
#[test]
fn a_policy_sweep_prices_each_value_as_compare_does_and_can_minimise_cost() {
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let log = log.to_str().expect("utf-8 path");
    let vary = "threshold=60000..160000:50000";
    let swept = json_of(&[
        "sweep",
        log,
        "--policy",
        "claude-code",
        "--vary",
        vary,
        "--json",
        "--minimise",
        "cost",
    ]);
    let rows = swept["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 3);
    for row in rows {
        let set = format!("claude-code.threshold={}", row["value"].as_str().expect("value"));
        let compared = json_of(&["compare", log, "--policies", "claude-code", "--set", &set, "--json"]);
        let priced = &compared["cost"]["policies"][0]["total"];
        assert!(priced.is_f64(), "{set}: {compared}");
        assert_eq!(&row["cost_usd"], priced, "{set}");
    }
    let safe_costs: Vec<(&Value, f64)> = rows
        .iter()
        .filter(|r| r["loops"] == 0 && r["instructions_lost"] == 0 && r["refused"] == 0)
        .map(|r| (&r["value"], r["cost_usd"].as_f64().expect("priced")))
        .collect();
    let cheapest = safe_costs
        .iter()
        .fold(None, |best: Option<&(&Value, f64)>, row| match best {
            Some(b) if b.1 <= row.1 => best,
            _ => Some(row),
        })
        .map_or(Value::Null, |(v, _)| (*v).clone());
    assert_eq!(swept["cheapest_safe"], cheapest);
    assert_eq!(
        swept["answer"], swept["cheapest_safe"],
        "--minimise cost answers with it"
    );
    assert!(swept["prices"].as_str().is_some_and(|p| p.contains("LiteLLM")));
    let by_order = json_of(&["sweep", log, "--policy", "claude-code", "--vary", vary, "--json"]);
    assert_eq!(by_order["answer"], by_order["first_safe"]);
    let text = String::from_utf8_lossy(&ctxlens(&["sweep", log, "--policy", "claude-code", "--vary", vary]).stdout)
        .into_owned();
    assert!(
        text.contains("cheapest of those with prompt caching") || text.contains("no safe value here is priced"),
        "{text}"
    );
    // No usage recorded: nothing priced, nothing cheapest.
    let sample = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-transcripts/support-agent.json");
    let unpriced = json_of(&[
        "sweep",
        sample.to_str().unwrap(),
        "--policy",
        "claude-code",
        "--vary",
        "threshold=1000,2000",
        "--json",
    ]);
    assert!(unpriced["rows"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["cost_usd"].is_null()));
    assert!(unpriced["cheapest_safe"].is_null());
    // The §7F sweep is not priced: asking it to minimise cost is refused with the reason.
    let out = ctxlens(&["sweep", log, "--max-tokens", "50000..150000", "--minimise", "cost"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn a_policy_sweep_is_one_replay_per_value() {
    // Each row of `sweep --policy NAME --vary KEY=…` reads what `replay --policy NAME --set
    // KEY=V` reads, and the answer is the first row that never loops and loses nothing.
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let log = log.to_str().expect("utf-8 path");
    for (policy, vary, key) in [
        ("claude-code", "threshold=100000..160000:30000", "threshold"),
        (
            "langchain-summarization",
            "trigger=tokens:60000,tokens:120000",
            "trigger",
        ),
        ("openhands-recent", "max_events=20..80:30", "max_events"),
    ] {
        let swept = json_of(&["sweep", log, "--policy", policy, "--vary", vary, "--json"]);
        let rows = swept["rows"].as_array().expect("rows");
        assert!(rows.len() >= 2, "{policy}");
        for row in rows {
            let value = row["value"].as_str().expect("value");
            let set = format!("{key}={value}");
            let replayed = json_of(&["replay", log, "--policy", policy, "--set", &set, "--json"]);
            assert_eq!(
                row["firings"].as_u64(),
                replayed["firings"].as_array().map(|f| f.len() as u64),
                "{policy} {set}"
            );
            for field in [
                "loops",
                "peak_counted",
                "peak_billed",
                "counted_total",
                "billed_total",
                "first_lost",
            ] {
                assert_eq!(row[field], replayed[field], "{policy} {set} {field}");
            }
            assert_eq!(
                row["instructions_lost"], replayed["instructions_lost_count"],
                "{policy} {set}"
            );
        }
        let safe = rows
            .iter()
            .find(|r| r["loops"] == 0 && r["instructions_lost"] == 0)
            .map(|r| r["value"].clone());
        assert_eq!(swept["first_safe"], safe.unwrap_or(Value::Null), "{policy}");
    }
    let out = ctxlens(&["sweep", log, "--policy", "codex"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--vary") && stderr(&out).contains("auto_compact_token_limit"),
        "{}",
        stderr(&out)
    );
    let out = ctxlens(&["sweep", log, "--policy", "codex", "--vary", "nonsense=1,2"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(stderr(&out).contains("no such key"), "{}", stderr(&out));
}

/// A policy exactly as `inner`, except that a replay must plan it at every call: what
/// the replay's in-place path is checked against.
struct PlannedEveryCall(&'static dyn ctxlens::policy::Policy);

impl ctxlens::policy::Policy for PlannedEveryCall {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        self.0.defaults(window)
    }
    fn engine(&self) -> ctxlens::policy::Engine {
        self.0.engine()
    }
    fn settings_from_log(
        &self,
        whole: &ctxlens::transcript::Transcript,
        before: usize,
        given: &ctxlens::policy::PolicySettings,
    ) -> Vec<(&'static str, String)> {
        self.0.settings_from_log(whole, before, given)
    }
    fn keys(&self) -> &'static [&'static str] {
        self.0.keys()
    }
    fn plan_chat(
        &self,
        chat: &[ctxlens::policy::ChatMessage],
        settings: &ctxlens::policy::PolicySettings,
    ) -> Result<ctxlens::policy::PolicyPlan, ctxlens::Error> {
        self.0.plan_chat(chat, settings)
    }
    fn counts_billed(&self) -> bool {
        self.0.counts_billed()
    }
    fn rewrites_history(&self) -> bool {
        self.0.rewrites_history()
    }
    fn cost(&self, message: &ctxlens::policy::ChatMessage) -> u64 {
        self.0.cost(message)
    }
    fn may_act(
        &self,
        settings: &ctxlens::policy::PolicySettings,
        running: &ctxlens::policy::Running,
    ) -> Result<bool, ctxlens::Error> {
        self.0.may_act(settings, running)
    }
}

#[test]
fn acting_in_place_replays_as_planning_every_call_does() {
    use ctxlens::policy::{by_name, chat_view_counted, replay, PolicySettings};
    let settings = |pairs: &[&str]| PolicySettings::parse(pairs.iter().copied()).expect("settings");
    let cases: Vec<(&str, PolicySettings)> = vec![
        ("opencode-prune", settings(&["protect=50", "minimum=10"])),
        ("opencode-prune", settings(&["protect=0", "minimum=0"])),
        ("opencode-prune", settings(&["protect=2000", "minimum=500"])),
        ("llm4s", settings(&["max_tokens=100"])),
        ("llm4s", settings(&["max_tokens=5000", "subjective_edits=true"])),
        (
            "llm4s",
            settings(&["max_tokens=0", "subjective_edits=true", "externalize_over=3000"]),
        ),
    ];
    let mut files: Vec<std::path::PathBuf> = ["support-agent.json", "agent-loop.json", "anthropic-parallel-tools.json"]
        .iter()
        .map(|f| data().join("conformance/policies/inputs").join(f))
        .collect();
    files.extend(real_transcripts());
    let summarizer = ctxlens::summarizers::build(
        &ctxlens::summarize::Spec::Placeholder,
        &ctxlens::summarize::Settings::default(),
    )
    .expect("placeholder");
    let mut fired = 0;
    for file in files {
        let whole = ctxlens::transcript::Transcript::read_whole(&file).expect("loads");
        let counts = ctxlens::tokens::Counts::compute(&whole, ctxlens::tokens::Tokenizer::Estimate);
        let fits = ctxlens::calibrate::calibrate_epochs(&whole, &counts);
        let chat = chat_view_counted(&whole, &counts);
        let turns = ctxlens::loss::session::SessionTurns::of_session(&whole);
        let prefixes = replay::SurvivingPrefixes::of(&whole);
        for (name, settings) in &cases {
            let policy = by_name(name).expect("policy");
            let planned = PlannedEveryCall(policy);
            let run = |p: &dyn ctxlens::policy::Policy| {
                let replayed = replay::replay(&replay::Inputs {
                    whole: &whole,
                    counts: &counts,
                    policy: p,
                    settings,
                    summarizer: summarizer.as_ref(),
                    fits: &fits,
                    text_fits: &fits,
                    chat: &chat,
                    turns: &turns,
                    cancel: ctxlens::cancel::never(),
                    window: None,
                    prefixes: &prefixes,
                    overhead: replay::SessionOverhead::of(&whole, &counts),
                    summaries: &std::sync::OnceLock::new(),
                    known: replay::Known::EVERYTHING,
                })
                .expect("replays");
                serde_json::to_value(&replayed).expect("serializes")
            };
            let (fast, slow) = (run(policy), run(&planned));
            let what = format!("{} {name} {:?}", file.display(), settings.pairs());
            for key in [
                "firings",
                "calls",
                "loops",
                "peak_counted",
                "counted_total",
                "instructions_lost",
                "first_lost",
            ] {
                assert_eq!(fast[key], slow[key], "{what}: {key}");
            }
            fired += fast["firings"].as_array().map_or(0, Vec::len);
        }
    }
    assert!(fired > 20, "{fired}");
}

#[test]
fn a_message_a_policy_keeps_in_part_is_written_in_part() {
    // Every Codex case whose expectation truncates a kept user message: the written
    // transcript holds that message cut in the middle to about its share, marked.
    let expected: Value = serde_json::from_str(
        &std::fs::read_to_string(data().join("conformance/policies/expected.json")).expect("expected.json"),
    )
    .expect("JSON");
    let cases = expected["cases"].as_array().expect("cases");
    let mut written = 0;
    for case in cases.iter().filter(|c| c["policy"] == "codex") {
        let Some(tokens) = case["expect"]["truncated_to_tokens"]
            .as_object()
            .filter(|t| !t.is_empty())
        else {
            continue;
        };
        let file = data()
            .join("conformance/policies")
            .join(case["file"].as_str().expect("file"));
        let file = file.to_str().expect("utf-8");
        let mut args = vec![
            "compact".to_owned(),
            file.to_owned(),
            "--policy".to_owned(),
            "codex".to_owned(),
        ];
        for (k, v) in case["set"].as_object().expect("set") {
            args.push("--set".to_owned());
            args.push(format!("{k}={}", v.as_str().expect("string")));
        }
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ctxlens(&refs);
        assert_eq!(out.status.code(), Some(0), "{}: {}", case["id"], stderr(&out));
        let output: Value = serde_json::from_slice(&out.stdout).expect("a message list");
        let input: Value = serde_json::from_str(&std::fs::read_to_string(file).expect("input")).expect("JSON");
        for (index, share) in tokens {
            let original = input[index.parse::<usize>().expect("index")]["content"]
                .as_str()
                .expect("text");
            let cut = output
                .as_array()
                .expect("list")
                .iter()
                .filter_map(|m| m["content"].as_str())
                .find(|c| c.contains("tokens truncated"))
                .unwrap_or_else(|| panic!("{}: no truncated message written", case["id"]));
            let share = share.as_u64().expect("tokens") as usize;
            // What is kept of the text (the marker aside) is its first and last parts,
            // within the share (four bytes a token).
            let (head, rest) = cut.split_once('…').expect("marker");
            let (_, tail) = rest.split_once("truncated…").expect("marker's end");
            assert!(
                original.starts_with(head) && original.ends_with(tail),
                "{}: {cut}",
                case["id"]
            );
            assert!(head.len() + tail.len() <= share * 4, "{}: {cut}", case["id"]);
            assert!(head.len() + tail.len() < original.len(), "{}: {cut}", case["id"]);
            written += 1;
        }
    }
    assert!(written >= 2, "{written}");
}

/// `compact --policy … --emit-config KIND` writes the policy's own setting as the agent's
/// configuration, or refuses with the reason: never the transcript in its place.
#[test]
fn a_policys_emitted_config_is_its_own_setting_or_a_refusal() {
    let demo = common::repo().join("sample-transcripts/support-agent.json");
    let demo = demo.to_str().unwrap();
    let out = ctxlens(&[
        "compact",
        demo,
        "--policy",
        "claude-code",
        "--set",
        "threshold=150000",
        "--emit-config",
        "claude-code",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE="), "{text}");
    assert!(text.contains("here 150000 tokens"), "{text}");
    assert!(!text.contains("\"role\""), "no transcript: {text}");

    // Above the threshold the log itself shows: a warning in the snippet and on stderr.
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let pre = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .find_map(|r| r["compactMetadata"]["preTokens"].as_u64())
        .unwrap();
    let above = (pre + 5_000).to_string();
    let out = ctxlens(&[
        "compact",
        log.to_str().unwrap(),
        "--policy",
        "claude-code",
        "--set",
        &format!("threshold={above}"),
        "--emit-config",
        "claude-code",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains(&format!("compacting at {pre} tokens")),
        "{}",
        stderr(&out)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains(&format!("compacting at {pre}")));

    // A policy whose settings are not that configuration: refused, nothing on stdout.
    let out = ctxlens(&["compact", demo, "--policy", "codex", "--emit-config", "codex"]);
    assert_ne!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    assert!(
        stderr(&out).contains("--emit-config codex with --policy codex"),
        "{}",
        stderr(&out)
    );
}

/// `--emit-config anthropic` writes the request field of the policy the Messages API
/// applies (its `context_management`), with the beta header it needs said beside it; a
/// policy the API does not apply, and a §7F budget, are refused with the reason.
#[test]
fn the_server_side_policy_is_written_as_the_requests_own_field() {
    let demo = common::repo().join("sample-transcripts/support-agent.json");
    let demo = demo.to_str().expect("utf-8 path");
    let emitted_by = |command: &str| {
        ctxlens(&[
            command,
            demo,
            "--policy",
            "anthropic-context-management",
            "--set",
            "trigger=60000",
            "--set",
            "exclude_tools=web_search",
            "--emit-config",
            "anthropic",
        ])
    };
    let out = emitted_by("compact");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let field: Value = serde_json::from_slice(&out.stdout).expect("the field is JSON");
    let edit = &field["context_management"]["edits"][0];
    assert_eq!(edit["trigger"]["value"], 60_000);
    assert_eq!(edit["exclude_tools"], serde_json::json!(["web_search"]));
    assert!(
        stderr(&out).contains("anthropic-beta: context-management-2025-06-27"),
        "{}",
        stderr(&out)
    );
    // `replay --policy` and `sweep --policy` write the same field (the sweep: its answer's
    // value), never a replay or a table with the option left unused.
    let replayed = emitted_by("replay");
    assert_eq!(replayed.status.code(), Some(0), "{}", stderr(&replayed));
    assert_eq!(replayed.stdout, out.stdout);
    let swept = ctxlens(&[
        "sweep",
        demo,
        "--policy",
        "anthropic-context-management",
        "--vary",
        "trigger=1000,60000",
        "--emit-config",
        "anthropic",
    ]);
    assert_eq!(swept.status.code(), Some(0), "{}", stderr(&swept));
    let answer = stderr(&swept);
    let chosen = if answer.contains("trigger=1000 ") {
        1_000
    } else {
        60_000
    };
    assert!(answer.contains("ctxlens: emitting trigger="), "{answer}");
    let field: Value = serde_json::from_slice(&swept.stdout).expect("JSON");
    assert_eq!(field["context_management"]["edits"][0]["trigger"]["value"], chosen);
    for refused in [
        vec!["compact", demo, "--policy", "codex", "--emit-config", "anthropic"],
        vec!["replay", demo, "--policy", "codex", "--emit-config", "anthropic"],
        vec!["compact", demo, "--max-tokens", "1000", "--emit-config", "anthropic"],
    ] {
        let out = ctxlens(&refused);
        assert_eq!(out.status.code(), Some(2), "{refused:?}");
        assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
        assert!(stderr(&out).contains("--emit-config anthropic"), "{}", stderr(&out));
    }
}

/// The records of `text` after 1-based line `after`, with every recorded usage tripled:
/// what a log would say had its later calls been billed otherwise.
fn usage_tripled_after(text: &str, after: usize) -> String {
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        let mut record: Value = match serde_json::from_str(line) {
            Ok(v) if i + 1 > after => v,
            _ => {
                out.push_str(line);
                out.push('\n');
                continue;
            }
        };
        if let Some(usage) = record.pointer_mut("/message/usage").and_then(Value::as_object_mut) {
            for value in usage.values_mut() {
                if let Some(n) = value.as_u64() {
                    *value = Value::from(n * 3);
                }
            }
        }
        out.push_str(&record.to_string());
        out.push('\n');
    }
    out
}

/// No figure of a replayed firing uses usage recorded after it (docs/policies.md): with
/// every usage after a real automatic compaction changed, the firing that predicts it is
/// the same, figure for figure; and it comes within three messages of the real one, its
/// threshold taken from what was known before (the release's rule), said in a warning.
#[test]
fn a_replayed_firing_reads_no_usage_recorded_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut checked = 0;
    for name in [
        "vsla-cc1053-autocompact-0a725fb5.jsonl",
        "codemie-autocompact-624a4a58.jsonl",
    ] {
        let log = data().join("real-transcripts/claude-code-jsonl").join(name);
        let text = std::fs::read_to_string(&log).unwrap();
        let history = common::json_stdout(&ctxlens(&["history", log.to_str().unwrap(), "--json"]));
        let replayed = common::json_stdout(&ctxlens(&[
            "replay",
            log.to_str().unwrap(),
            "--policy",
            "claude-code",
            "--json",
        ]));
        let warnings = replayed["warnings"].to_string();
        assert!(
            warnings.contains("rule, read from Claude Code") || warnings.contains("'s rule,"),
            "{warnings}"
        );
        for real in history["compactions"].as_array().unwrap() {
            assert_eq!(real["trigger"], "auto", "{name}");
            let at = real["at"].as_u64().unwrap();
            let firing = replayed["firings"]
                .as_array()
                .unwrap()
                .iter()
                .min_by_key(|f| f["at"].as_u64().unwrap().abs_diff(at))
                .unwrap_or_else(|| panic!("{name}: no firing"));
            let off = firing["at"].as_u64().unwrap().abs_diff(at);
            assert!(off <= 3, "{name}: fired at {} for the compaction at {at}", firing["at"]);
            let tampered = dir.path().join(name);
            std::fs::write(
                &tampered,
                usage_tripled_after(&text, real["line"].as_u64().unwrap() as usize),
            )
            .unwrap();
            let again = common::json_stdout(&ctxlens(&[
                "replay",
                tampered.to_str().unwrap(),
                "--policy",
                "claude-code",
                "--json",
            ]));
            let same = again["firings"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["at"] == firing["at"])
                .unwrap_or_else(|| panic!("{name}: the firing at {} moved with later usage", firing["at"]));
            assert_eq!(same, firing, "{name}: a figure of the firing read later usage");
            checked += 1;
        }
    }
    assert_eq!(checked, 2, "the 1.0.53 and the 2.0.76 compaction");
}

/// Claude Code's summary size where none is known before the moment predicted
/// (`claude_code::SUMMARY_PRIOR`) is the median — the lower middle — of ctxlens' counts of
/// the summaries in the real Claude Code logs shipped here.
#[test]
fn claude_codes_summary_prior_is_the_median_of_the_shipped_logs_summaries() {
    let logs = data().join("real-transcripts/claude-code-jsonl");
    let mut sizes = Vec::new();
    for entry in std::fs::read_dir(&logs).expect("logs") {
        let path = entry.expect("entry").path();
        let whole = ctxlens::transcript::Transcript::read_whole(&path).expect("loads");
        for compaction in whole.compactions() {
            if let Some(at) = compaction.summary_message {
                let text = whole.readable_text(at);
                sizes.push(ctxlens::policy::agent_summary::summary_counted(&whole, &text));
            }
        }
    }
    sizes.sort_unstable();
    assert!(sizes.len() >= 2, "{sizes:?}");
    assert_eq!(
        ctxlens::policy::claude_code::SUMMARY_PRIOR,
        sizes[(sizes.len() - 1) / 2],
        "{sizes:?}"
    );
}

/// `backtest` predicts every automatic compaction of the shipped logs from what was known
/// before it: it fires within three messages of each (the rows name the real call and
/// the predicted one), and gives the next request's size beside the recorded one.
#[test]
fn backtest_predicts_every_automatic_compaction_of_the_shipped_logs() {
    let root = data().join("real-transcripts");
    let out = ctxlens(&["backtest", root.to_str().unwrap(), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let rows: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let (mut automatic, mut counters) = (0, 0);
    for row in &rows {
        assert_eq!(row["schema"], "ctxlens.backtest/1");
        let file = row["file"].as_str().unwrap();
        let history = json_of(&["history", file, "--json"]);
        let real: Vec<&Value> = history["compactions"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["trigger"] == "auto")
            .collect();
        let compactions = row["compactions"].as_array().unwrap();
        assert_eq!(compactions.len(), real.len(), "{file}");
        for (c, real) in compactions.iter().zip(&real) {
            // The agent's own count (where its log records one: 1.0.53's does not) beside
            // the replayed policy's, within 1%.
            assert_eq!(c["real_counter"], real["pre_tokens"], "{file}: {c}");
            let predicted = c["predicted_counter"]
                .as_u64()
                .expect("the policy's count at its firing");
            if let Some(recorded) = c["real_counter"].as_u64() {
                assert!(predicted.abs_diff(recorded) * 100 <= recorded, "{file}: {c}");
                counters += 1;
            }
            let error = c["error_messages"]
                .as_i64()
                .unwrap_or_else(|| panic!("{file}: not predicted: {c}"));
            assert!(error.abs() <= 3, "{file}: {c}");
            // The next request's size, predicted from what was known before it, within 20%.
            let size_error = c["size_error_percent"]
                .as_f64()
                .unwrap_or_else(|| panic!("{file}: no size predicted: {c}"));
            assert!(size_error.abs() <= 20.0, "{file}: {c}");
            automatic += 1;
        }
    }
    assert!(automatic >= 2, "the 1.0.53 and the 2.0.76 compactions");
    assert!(counters >= 1, "the 2.0.76 log records its preTokens");
    let text = String::from_utf8_lossy(&ctxlens(&["backtest", root.to_str().unwrap()]).stdout).into_owned();
    assert!(
        text.contains(&format!(
            "{automatic} automatic compactions: {automatic} predicted, {automatic} within 3 messages"
        )),
        "{text}"
    );
}

/// A log `backtest` cannot read is an error naming it (exit 2), never "0 automatic
/// compactions"; in a folder it is named on stderr, left out of the totals, and the exit
/// is 1; a transcript that is not an agent's log is refused with its format.
#[test]
fn backtest_says_which_logs_it_could_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(&broken, "{\"type\":\"user\"\n").unwrap();
    let empty = dir.path().join("empty.jsonl");
    std::fs::write(&empty, "").unwrap();
    for file in [&broken, &empty, &dir.path().join("missing.jsonl")] {
        let out = ctxlens(&["backtest", file.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains(file.to_str().unwrap()), "{}", stderr(&out));
        assert!(out.stdout.is_empty(), "{}", String::from_utf8_lossy(&out.stdout));
    }
    let sample = common::repo().join("sample-transcripts/support-agent.json");
    let out = ctxlens(&["backtest", sample.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("openai format"), "{}", stderr(&out));
    std::fs::copy(
        data().join("real-transcripts/claude-code-jsonl/vsla-cc1053-autocompact-0a725fb5.jsonl"),
        dir.path().join("vsla.jsonl"),
    )
    .unwrap();
    let out = ctxlens(&["backtest", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("1 automatic compaction: 1 predicted"), "{text}");
    assert!(text.contains("not counted: 2 logs that could not be read"), "{text}");
    for name in ["broken.jsonl", "empty.jsonl"] {
        assert!(stderr(&out).contains(name), "{}", stderr(&out));
    }
}

/// A compaction already made is history: a replay told to follow the real compactions
/// before a point goes on after each from the context the agent really had (the calls
/// after it are billed as the log recorded them, until the replay fires itself), where a
/// replay of the whole session keeps its own context. This is how `backtest` predicts a
/// log's second compaction from where the first left the session.
#[test]
fn a_replay_follows_the_real_compactions_it_is_told_are_history() {
    use ctxlens::policy::replay::{Known, SessionReplays};
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let whole = ctxlens::transcript::Transcript::read_whole(&log).expect("loads");
    let counts = ctxlens::tokens::Counts::compute(&whole, ctxlens::tokens::Tokenizer::Estimate);
    let policy = ctxlens::policy::by_name("claude-code").expect("policy");
    let settings = ctxlens::policy::compare::settings_for(policy, 200_000, &[]).expect("settings");
    let session = SessionReplays::of(&whole, &counts);
    let summarizer = ctxlens::summarize::Extractive { summary_tokens: 200 };
    let compacted_at = whole.compactions().first().expect("a real compaction").at;
    let replay = |known: Known| {
        session
            .replay_known_until(
                policy,
                &settings,
                &summarizer,
                Some(200_000),
                known,
                ctxlens::cancel::never(),
            )
            .expect("replays")
    };
    let first_after = |r: &ctxlens::policy::replay::Replayed| {
        *r.calls
            .iter()
            .find(|c| c.at > compacted_at && c.recorded.is_some())
            .expect("a recorded call after the compaction")
    };
    let followed = replay(Known {
        until: usize::MAX,
        follow_before: compacted_at + 1,
    });
    let call = first_after(&followed);
    assert_eq!(call.billed, call.recorded, "the agent's own context after it: {call:?}");
    let own = replay(Known::EVERYTHING);
    let call = first_after(&own);
    assert_ne!(call.billed, call.recorded, "the replay's own context: {call:?}");
}

/// A replayed request larger than the model's window is one the provider refuses: each
/// call says so and every replay counts them (compare, replay), so a policy that never
/// fires on a long session is not shown as fine. `replay --policy` takes the window the
/// way `compare` does (`--context-window`, else the model's) with the policy's defaults.
#[test]
fn requests_over_the_window_are_the_providers_refusals() {
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let log = log.to_str().unwrap();
    let compared = json_of(&["compare", log, "--json", "--summarizer", "placeholder"]);
    let window = compared["context_window"].as_u64().expect("window");
    for row in compared["policies"].as_array().unwrap() {
        let calls = row["calls"].as_array().unwrap();
        let over = calls
            .iter()
            .filter(|c| {
                c["billed"]
                    .as_u64()
                    .or(c["counted"].as_u64())
                    .is_some_and(|n| n > window)
            })
            .count();
        assert_eq!(row["refused"].as_u64(), Some(over as u64), "{}", row["policy"]);
        assert_eq!(calls.iter().filter(|c| c["over_window"] == true).count(), over);
        if row["policy"] == "claude-code" {
            assert_eq!(over, 0, "it compacts before the window");
        }
    }
    assert!(
        compared["policies"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["refused"].as_u64() > Some(0)),
        "a policy that never fires goes over the 200k window on this log"
    );
    // replay --policy codex takes --context-window (it was refused) and its defaults.
    let demo = common::repo().join("sample-transcripts/support-agent.json");
    let out = ctxlens(&[
        "replay",
        demo.to_str().unwrap(),
        "--policy",
        "codex",
        "--context-window",
        "1500",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let replayed: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(replayed["refused"].as_u64() > Some(0), "{replayed}");
    assert!(
        replayed["settings"].to_string().contains("1500"),
        "{}",
        replayed["settings"]
    );
}

/// Where ctxlens' count of the messages exceeds what the provider measured (the estimate
/// overcounts code and JSON; here the real 1.0.53 log with every usage figure cut to
/// 40%), the replay follows the provider's figure: it fires where the agent compacted,
/// not where its own count reaches the threshold.
#[test]
fn a_count_above_the_providers_figure_is_scaled_down_to_it() {
    let text = std::fs::read_to_string(
        data().join("real-transcripts/claude-code-jsonl/vsla-cc1053-autocompact-0a725fb5.jsonl"),
    )
    .expect("the 1.0.53 log");
    let scaled: String = text
        .lines()
        .map(|line| {
            let mut record: Value = serde_json::from_str(line).expect("a record");
            if let Some(usage) = record.pointer_mut("/message/usage").and_then(Value::as_object_mut) {
                for key in [
                    "input_tokens",
                    "cache_creation_input_tokens",
                    "cache_read_input_tokens",
                    "output_tokens",
                ] {
                    if let Some(n) = usage.get(key).and_then(Value::as_u64) {
                        usage.insert(key.to_owned(), (n * 4 / 10).into());
                    }
                }
            }
            record.to_string() + "\n"
        })
        .collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let log = dir.path().join("scaled.jsonl");
    std::fs::write(&log, scaled).expect("write");
    let log = log.to_str().expect("utf-8");
    let history = json_of(&["history", log, "--json"]);
    let compaction = &history["compactions"][0];
    // The threshold its automatic compaction shows: the last response before it.
    let threshold = compaction["threshold_between"][1].as_u64().expect("bracketed");
    let replay = json_of(&[
        "replay",
        log,
        "--policy",
        "claude-code",
        "--set",
        &format!("threshold={threshold}"),
        "--thresholds-from",
        "none",
        "--json",
    ]);
    let at = compaction["at"].as_u64().expect("at");
    let real_call = replay["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .filter_map(|c| c["at"].as_u64())
        .find(|&c| c > at)
        .expect("a call after it");
    let first = &replay["firings"][0];
    // Counted, the context is far above the threshold long before (it is the figure that was cut).
    assert!(
        first["counted_before"].as_u64().expect("counted") > threshold,
        "{first}"
    );
    let fired = first["at"].as_u64().expect("fired");
    assert!(
        fired.abs_diff(real_call) <= 3,
        "fired before #{fired}, the agent before #{real_call}"
    );
}
