//! What a log cost, against ccusage: `stats --json`'s `cost.total` for every shipped
//! Claude Code log within 1% of ccusage 20.0.24's `totalCost` for that log alone
//! (recorded in `tests/data/ccusage/`, with the command); and a trajectory's, against the
//! cost its own run recorded.

use crate::common;

use common::{assert_exit, ctxlens, data, json_stdout};

#[test]
fn every_shipped_claude_code_log_costs_what_ccusage_says() {
    let logs = data().join("real-transcripts/claude-code-jsonl");
    let mut compared = 0;
    for entry in std::fs::read_dir(data().join("ccusage")).expect("the ccusage figures") {
        let path = entry.expect("entry").path();
        if path.extension().is_none_or(|e| e != "json") {
            continue;
        }
        let reference: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("readable")).expect("JSON");
        let expected = reference["totals"]["totalCost"].as_f64().expect("totalCost");
        let log = logs.join(format!(
            "{}.jsonl",
            path.file_stem().and_then(|s| s.to_str()).expect("a name")
        ));
        let out = ctxlens(&["stats", log.to_str().expect("UTF-8"), "--json"]);
        assert_exit(&out, 0);
        let stats = json_stdout(&out);
        let cost = &stats["cost"];
        let total = cost["total"].as_f64().expect("a priced total");
        assert!(
            (total - expected).abs() <= expected * 0.01,
            "{}: ctxlens ${total:.4}, ccusage ${expected:.4}",
            log.display()
        );
        // The same tokens, once per request.
        let sum =
            |f: &dyn Fn(&serde_json::Value) -> u64| cost["calls"].as_array().expect("calls").iter().map(f).sum::<u64>();
        let written = sum(&|c| {
            c["usage"]["cache_write_5m_tokens"].as_u64().unwrap_or(0)
                + c["usage"]["cache_write_1h_tokens"].as_u64().unwrap_or(0)
        });
        assert_eq!(
            Some(written),
            reference["totals"]["cacheCreationTokens"].as_u64(),
            "{}",
            log.display()
        );
        let output = sum(&|c| c["usage"]["output_tokens"].as_u64().unwrap_or(0));
        assert_eq!(
            Some(output),
            reference["totals"]["outputTokens"].as_u64(),
            "{}",
            log.display()
        );
        assert!(
            cost["prices"].as_str().is_some_and(|p| p.contains("LiteLLM")),
            "the table is named"
        );
        compared += 1;
    }
    assert_eq!(compared, 7, "every shipped Claude Code log has its ccusage figure");
}

/// A trajectory that keeps each response beside its message costs what its own run was
/// billed: mini-swe-agent writes the cost LiteLLM computed for each call
/// (`extra.cost`) and their sum (`info.model_stats.instance_cost`); `stats --json` prices
/// the usage it reads from the same responses (the cached part of each prompt as a cache
/// read) with the shipped table, call for call. And an OpenHands log counts a response
/// that made several tool calls once.
#[test]
fn a_trajectory_with_its_responses_costs_what_its_run_recorded() {
    let file = data().join("real-transcripts/openai-chat/mini-swe-agent-deepseek-chat-django-13265.traj.json");
    let trajectory: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("readable")).expect("JSON");
    let recorded: Vec<f64> = trajectory["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter_map(|m| m["extra"]["cost"].as_f64())
        .collect();
    let out = ctxlens(&["stats", file.to_str().expect("UTF-8"), "--json"]);
    assert_exit(&out, 0);
    let cost = &json_stdout(&out)["cost"];
    let calls = cost["calls"].as_array().expect("calls");
    assert_eq!(calls.len(), recorded.len(), "one call per response");
    for (k, (call, expected)) in calls.iter().zip(&recorded).enumerate() {
        let d = &call["dollars"];
        let ours: f64 = ["input", "cache_write", "cache_read", "output"]
            .iter()
            .map(|part| d[*part].as_f64().expect("priced"))
            .sum();
        assert!(
            (ours - expected).abs() <= expected * 1e-6,
            "call {k}: ${ours} vs ${expected}"
        );
        assert!(call["usage"]["cache_read_tokens"].as_u64().is_some());
    }
    let total = cost["total"].as_f64().expect("priced");
    let instance = trajectory["info"]["model_stats"]["instance_cost"]
        .as_f64()
        .expect("the run's cost");
    assert!((total - instance).abs() <= instance * 1e-6, "${total} vs ${instance}");
    // OpenHands: every event of one response carries it; the response is one call.
    let events = data().join("real-transcripts/openhands-events/openhands-basic-gui-mode.json");
    let list: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&events).expect("readable")).expect("JSON");
    let responses: std::collections::BTreeSet<&str> = list
        .as_array()
        .expect("events")
        .iter()
        .filter(|e| e["source"] == "agent")
        .filter_map(|e| e["tool_call_metadata"]["model_response"]["id"].as_str())
        .collect();
    let cost = &json_stdout(&ctxlens(&["stats", events.to_str().expect("UTF-8"), "--json"]))["cost"];
    assert_eq!(cost["calls"].as_array().expect("calls").len(), responses.len());
    assert!(cost["total"].as_f64().is_some_and(|t| t > 0.0));
}

/// A model the table does not hold is named, and the total is unknown, never 0.
#[test]
fn an_unknown_model_is_said_never_priced_at_zero() {
    let dir = tempfile::tempdir().expect("temp dir");
    let table = dir.path().join("prices.json");
    std::fs::write(
        &table,
        r#"{"some-other-model": {"input_cost_per_token": 1e-6, "output_cost_per_token": 2e-6}}"#,
    )
    .expect("written");
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let out = ctxlens(&[
        "stats",
        log.to_str().expect("UTF-8"),
        "--json",
        "--prices",
        table.to_str().expect("UTF-8"),
    ]);
    assert_exit(&out, 0);
    let stats = json_stdout(&out);
    assert!(stats["cost"]["total"].is_null(), "{}", stats["cost"]);
    assert_eq!(stats["cost"]["unpriced_models"][0], "claude-sonnet-4-5-20250929");
    let text = common::stdout(&ctxlens(&[
        "stats",
        log.to_str().expect("UTF-8"),
        "--prices",
        table.to_str().expect("UTF-8"),
    ]));
    assert!(
        text.contains("cost: unknown (claude-sonnet-4-5-20250929 not in the price table"),
        "{text}"
    );
    // A table that is not one is refused with its place.
    std::fs::write(&table, "{ nope").expect("written");
    let out = ctxlens(&[
        "stats",
        log.to_str().expect("UTF-8"),
        "--prices",
        table.to_str().expect("UTF-8"),
    ]);
    assert_exit(&out, 2);
    assert!(
        common::stderr(&out).contains("prices.json:1:"),
        "{}",
        common::stderr(&out)
    );
}

/// What a policy would have cost: on every shipped Claude Code log, a policy that never
/// fires (on a log that never compacted) or the agent's own policy firing where the real
/// one did (on a log that compacted) is priced within 15% of what the log recorded — the
/// same calls, the cache model alone differing. The log's own cache misses (rewrites no
/// setting causes) are repeated at their calls; where they are under a quarter of the
/// log's cache writes, the model without them holds within 15% too. And every full
/// rewrite the model predicts from the first call or an idle gap is one the log recorded,
/// or an idle gap the log's cache outlived (its call read most of its prompt from the
/// cache after more than the 5 minutes Anthropic keeps an entry at least).
#[test]
fn the_cache_model_prices_a_policy_that_never_fires_as_the_log_recorded() {
    let logs = data().join("real-transcripts/claude-code-jsonl");
    let (mut held, mut held_without_misses, mut rewrites_matched) = (0, 0, 0);
    let mut entries: Vec<_> = std::fs::read_dir(&logs)
        .expect("logs")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for log in entries {
        let log = log.to_str().expect("UTF-8").to_owned();
        let stats = json_stdout(&ctxlens(&["stats", &log, "--json"]));
        let cost = &stats["cost"];
        let calls = cost["calls"].as_array().expect("calls");
        let written: u64 = calls
            .iter()
            .map(|c| {
                c["usage"]["cache_write_5m_tokens"].as_u64().unwrap_or(0)
                    + c["usage"]["cache_write_1h_tokens"].as_u64().unwrap_or(0)
            })
            .sum();
        let recorded_rewrites = cost["rewrites"].as_array().expect("rewrites");
        let unexplained: u64 = recorded_rewrites
            .iter()
            .filter(|r| r["cause"] == "unexplained")
            .map(|r| r["written"].as_u64().unwrap_or(0))
            .sum();
        let compare = json_stdout(&ctxlens(&[
            "compare",
            &log,
            "--policies",
            "toolnexus,claude-code",
            "--summarizer",
            "placeholder",
            "--json",
        ]));
        let recorded = compare["cost"]["recorded"].as_f64().expect("recorded");
        let compacted = stats["notes"]
            .as_array()
            .is_some_and(|n| n.iter().any(|n| n["kind"] == "past compaction"));
        for (policy, row) in compare["policies"].as_array().expect("policies").iter().enumerate() {
            let fires = !row["firings"].as_array().expect("firings").is_empty();
            let name = row["policy"].as_str().expect("name");
            // Compared like with like: a policy that fires on a log that never compacted
            // (or one that never fires on a log that did) changed the calls themselves.
            if fires != compacted || (compacted && name != "claude-code") {
                continue;
            }
            let modelled = &compare["cost"]["policies"][policy];
            let total = modelled["total"].as_f64().expect("priced");
            assert!(
                (total - recorded).abs() <= recorded * 0.15,
                "{log} {name}: modelled ${total:.2}, recorded ${recorded:.2}"
            );
            held += 1;
            if unexplained * 4 <= written {
                let without = modelled["total_without_misses"].as_f64().expect("priced");
                assert!(
                    (without - recorded).abs() <= recorded * 0.15,
                    "{log} {name}: modelled without the log's misses ${without:.2}, recorded ${recorded:.2}"
                );
                held_without_misses += 1;
            }
            for predicted in modelled["full_rewrites"].as_array().expect("full_rewrites") {
                if predicted["cause"] == "compaction" {
                    continue; // the request after a firing: its size is the replay's prediction
                }
                let line = predicted["line"].as_u64().expect("a log's line");
                if recorded_rewrites.iter().any(|r| r["line"] == line) {
                    rewrites_matched += 1;
                    continue;
                }
                let call = calls.iter().find(|c| c["line"] == line).expect("a recorded call there");
                let usage = &call["usage"];
                let read = usage["cache_read_tokens"].as_u64().expect("read");
                let prompt = read
                    + usage["input_tokens"].as_u64().expect("input")
                    + usage["cache_write_5m_tokens"].as_u64().unwrap_or(0)
                    + usage["cache_write_1h_tokens"].as_u64().unwrap_or(0);
                assert!(
                    predicted["cause"] == "idle_gap" && read * 2 > prompt,
                    "{log} {name}: a full rewrite predicted at line {line} the log does not record ({predicted})"
                );
            }
        }
    }
    assert!(held >= 7, "held on {held} log-policy pairs");
    assert!(held_without_misses >= 4, "without misses on {held_without_misses}");
    assert!(rewrites_matched >= 10, "{rewrites_matched} predicted rewrites recorded");
}

/// The log's own cache misses are told from its other rewrites: on the codemie log, a
/// call that read nothing (or only the system prompt and tools) seconds after the call
/// before, where the next call read a prefix written before it, is the provider's miss;
/// one with no such evidence stays unexplained.
#[test]
fn a_cache_miss_is_told_by_a_later_call_reading_what_it_missed() {
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let stats = json_stdout(&ctxlens(&["stats", log.to_str().expect("UTF-8"), "--json"]));
    let calls = stats["cost"]["calls"].as_array().expect("calls");
    let rewrites = stats["cost"]["rewrites"].as_array().expect("rewrites");
    let entry = |c: &serde_json::Value| {
        let u = &c["usage"];
        u["cache_read_tokens"].as_u64().unwrap_or(0)
            + u["cache_write_5m_tokens"].as_u64().unwrap_or(0)
            + u["cache_write_1h_tokens"].as_u64().unwrap_or(0)
    };
    let mut misses = 0;
    for rewrite in rewrites.iter().filter(|r| r["cause"] == "cache_miss") {
        let k = rewrite["call"].as_u64().expect("call") as usize;
        let read = calls[k]["usage"]["cache_read_tokens"].as_u64().expect("read");
        // The next call that read more read no more than an earlier call had written.
        let later = calls[k + 1..]
            .iter()
            .map(|c| c["usage"]["cache_read_tokens"].as_u64().expect("read"))
            .find(|&r| r > read)
            .expect("a later call read more");
        let largest_before = calls[..k].iter().map(entry).max().expect("calls before");
        assert!(
            later <= largest_before,
            "call {k}: read {later} later, {largest_before} written before"
        );
        assert_ne!(later, entry(&calls[k]), "call {k}: the later call read its own entry");
        misses += 1;
    }
    assert!(misses >= 5, "{misses} misses");
    // Its unexplained rewrites are over a quarter of its cache writes: `compare` says the
    // figures without the misses are not modelled.
    let compare = common::stdout(&ctxlens(&[
        "compare",
        log.to_str().expect("UTF-8"),
        "--policies",
        "claude-code",
        "--summarizer",
        "placeholder",
    ]));
    assert!(
        compare.contains("the figures without its misses are not modelled"),
        "{compare}"
    );
    // The text names them apart from the unexplained ones.
    let text = common::stdout(&ctxlens(&["stats", log.to_str().expect("UTF-8")]));
    assert!(
        text.contains("where the provider's cache missed a prefix a later call read"),
        "{text}"
    );
}

/// `history` splits the same cost by epoch: its epochs add up to `stats`' total.
#[test]
fn the_epochs_add_up_to_the_sessions_cost() {
    for name in [
        "vsla-cc1053-autocompact-0a725fb5.jsonl",
        "codemie-autocompact-624a4a58.jsonl",
    ] {
        let log = data().join("real-transcripts/claude-code-jsonl").join(name);
        let log = log.to_str().expect("UTF-8");
        let total = json_stdout(&ctxlens(&["stats", log, "--json"]))["cost"]["total"]
            .as_f64()
            .expect("priced");
        let history = json_stdout(&ctxlens(&["history", log, "--json"]));
        let epochs = history["epochs"].as_array().expect("epochs");
        assert_eq!(epochs.len(), 2, "{name}: one compaction, two epochs");
        let sum: f64 = epochs.iter().map(|e| e["cost"].as_f64().expect("each priced")).sum();
        assert!(
            (sum - total).abs() < 1e-6,
            "{name}: epochs ${sum:.4}, session ${total:.4}"
        );
    }
}
