//! The loss report against hand-labelled compactions (`tests/data/forget/`, and the
//! project's own `tests/data/forget-own/`): for every
//! case, `history CASE --json` is read as the labels' scorer reads it, and the turns it
//! calls lost instructions are compared with the turns labelled `instruction` + `lost`.
//! Over all cases precision and recall must be at least 0.9 each and no chatter turn may be
//! called a lost instruction; every surviving turn must carry its evidence, quoted from
//! the text it names.

use crate::common;

use std::collections::BTreeSet;

use common::{ctxlens, data, stderr};
use serde_json::Value;

struct Scored {
    listed: usize,
    gold: usize,
    hits: usize,
    chatter_listed: usize,
}

fn score(case: &std::path::Path) -> Scored {
    let labels: Value = serde_json::from_str(&std::fs::read_to_string(case.join("labels.json")).expect("labels"))
        .expect("labels are JSON");
    let file = case.join(labels["file"].as_str().unwrap_or("case.jsonl"));
    let out = ctxlens(&["history", file.to_str().expect("utf-8"), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}: {}", case.display(), stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("history --json");
    let boundary = &labels["compaction"]["boundary_line"];
    let compaction = report["compactions"]
        .as_array()
        .expect("compactions")
        .iter()
        .find(|c| &c["line"] == boundary)
        .unwrap_or_else(|| panic!("{}: no compaction at line {boundary}", case.display()));
    let turns = compaction["loss"]["instructions"]
        .as_array()
        .expect("the contract's turns");
    for t in turns {
        // The contract: every field there; a surviving turn quotes its evidence.
        for key in ["message", "kind", "text", "status"] {
            assert!(!t[key].is_null(), "{}: {key} missing in {t}", case.display());
        }
        let survives = t["status"] != "lost";
        assert_eq!(survives, t["evidence"].is_object(), "{}: {t}", case.display());
        if survives {
            let quote = t["evidence"]["quote"].as_str().expect("quote");
            assert!(!quote.is_empty(), "{}: {t}", case.display());
        }
    }
    let listed: BTreeSet<u64> = turns
        .iter()
        .filter(|t| t["status"] == "lost" && t["kind"] == "instruction")
        .map(|t| t["message"].as_u64().expect("index"))
        .collect();
    let labelled = labels["turns"].as_array().expect("turns");
    let gold: BTreeSet<u64> = labelled
        .iter()
        .filter(|t| t["kind"] == "instruction" && t["status"] == "lost")
        .map(|t| t["message"].as_u64().expect("index"))
        .collect();
    let chatter: BTreeSet<u64> = labelled
        .iter()
        .filter(|t| t["kind"] == "chatter")
        .map(|t| t["message"].as_u64().expect("index"))
        .collect();
    Scored {
        listed: listed.len(),
        gold: gold.len(),
        hits: listed.intersection(&gold).count(),
        chatter_listed: listed.intersection(&chatter).count(),
    }
}

/// Every labelled set: the shared examples (`forget`), and the project's own cases, one
/// per class of failure a loss report made on unseen sessions (`forget-own`, see its
/// README).
const LABELLED_SETS: [(&str, usize); 2] = [("forget", 12), ("forget-own", 18)];

#[test]
fn lost_instructions_are_found_as_the_labels_say() {
    for (set, at_least) in LABELLED_SETS {
        lost_instructions_are_found_in(set, at_least);
    }
}

fn lost_instructions_are_found_in(set: &str, at_least: usize) {
    let root = data().join(set);
    let mut cases: Vec<_> = std::fs::read_dir(&root)
        .expect("forget cases")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.join("labels.json").exists())
        .collect();
    cases.sort();
    assert!(cases.len() >= at_least, "{set}: {} cases", cases.len());
    let (mut listed, mut gold, mut hits, mut chatter) = (0, 0, 0, 0);
    for case in &cases {
        let s = score(case);
        listed += s.listed;
        gold += s.gold;
        hits += s.hits;
        chatter += s.chatter_listed;
    }
    let precision = hits as f64 / listed.max(1) as f64;
    let recall = hits as f64 / gold.max(1) as f64;
    assert!(
        precision >= 0.9,
        "{set}: precision {precision:.2} ({hits} of {listed} listed)"
    );
    assert!(recall >= 0.9, "{set}: recall {recall:.2} ({hits} of {gold} lost)");
    assert_eq!(chatter, 0, "{set}: chatter listed as lost instructions");
}

#[test]
fn codemie_restated_instructions_are_in_the_summary_with_its_sentence() {
    // The real compaction's summary restates #2 nearly word for word and #36 with its typos
    // fixed: both are `in_summary`, quoting the summary.
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let out = ctxlens(&["history", log.to_str().expect("utf-8"), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let turns = report["compactions"][0]["loss"]["instructions"]
        .as_array()
        .expect("turns");
    let summary = report["compactions"][0]["summary"].as_str().expect("summary");
    for (message, words) in [(2, "review old and current implementation"), (36, "jsonl file")] {
        let turn = turns
            .iter()
            .find(|t| t["message"] == message)
            .unwrap_or_else(|| panic!("#{message} judged"));
        assert_eq!(turn["status"], "in_summary", "{turn}");
        assert_eq!(turn["evidence"]["where"], "summary", "{turn}");
        let quote = turn["evidence"]["quote"].as_str().expect("quote");
        assert!(quote.contains(words), "{quote}");
        assert!(
            summary.contains(quote.trim_start_matches("- ")),
            "the quote is the summary's: {quote}"
        );
    }
}

#[test]
fn codemie_after_its_compaction_re_reads_a_file_it_had_read_and_says_what_that_cost() {
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let out = ctxlens(&["history", log.to_str().expect("utf-8"), "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let compaction = &report["compactions"][0];
    let at = compaction["at"].as_u64().expect("at");
    let again = compaction["done_again"].as_array().expect("done_again");
    let reread = again
        .iter()
        .find(|d| d["kind"] == "reread")
        .expect("a file read before the compaction is read again after it");
    assert!(reread["message"].as_u64().expect("message") >= at, "{reread}");
    assert!(reread["first"].as_u64().expect("first") < at, "{reread}");
    assert!(
        reread["target"]
            .as_str()
            .expect("target")
            .contains("ARCHITECTURE-REFACTORING"),
        "{reread}"
    );
    assert!(reread["tokens"].as_u64().expect("tokens") > 0, "{reread}");
    let total: u64 = again.iter().map(|d| d["tokens"].as_u64().expect("tokens")).sum();
    assert_eq!(compaction["done_again_tokens"].as_u64(), Some(total));
    // The text report names it with its cost.
    let out = ctxlens(&["history", log.to_str().expect("utf-8")]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("done again after it") && text.contains("re-read"),
        "{text}"
    );
}

/// `ctxlens COMMAND support-agent.json OPTIONS…`'s JSON (the support-agent policy input).
fn support_agent_json(command: &str, options: &[&str]) -> Value {
    let file = data().join("conformance/policies/inputs/support-agent.json");
    let mut args = vec![command, file.to_str().expect("utf-8")];
    args.extend_from_slice(options);
    let out = ctxlens(&args);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_slice(&out.stdout).expect("JSON")
}

/// The messages of the turns the contract calls lost instructions.
fn lost_instructions(turns: &[Value]) -> Vec<u64> {
    turns
        .iter()
        .filter(|t| t["status"] == "lost" && t["kind"] == "instruction")
        .map(|t| t["message"].as_u64().expect("message"))
        .collect()
}

#[test]
fn compact_report_json_speaks_the_same_contract() {
    let doc = support_agent_json(
        "compact",
        &[
            "--max-tokens",
            "300",
            "--report",
            "--json",
            "--summarizer",
            "extractive",
        ],
    );
    let turns = doc["loss"]["instructions"].as_array().expect("the contract's turns");
    assert!(!turns.is_empty());
    for t in turns {
        assert!(
            ["instruction", "user_fact", "chatter"].contains(&t["kind"].as_str().expect("kind")),
            "{t}"
        );
        let status = t["status"].as_str().expect("status");
        assert!(["in_summary", "repeated_later", "lost"].contains(&status), "{t}");
        assert_eq!(status != "lost", t["evidence"].is_object(), "{t}");
        assert!(t["message"].is_u64() && t["text"].is_string(), "{t}");
    }
    // The lost instructions are the turns the contract calls lost instructions.
    let listed: Vec<u64> = doc["loss"]["instructions_lost"]
        .as_array()
        .expect("instructions_lost")
        .iter()
        .map(|t| t["message"].as_u64().expect("index"))
        .collect();
    assert_eq!(lost_instructions(turns), listed);
    // --json needs --report.
    let file = data().join("conformance/policies/inputs/support-agent.json");
    let out = ctxlens(&[
        "compact",
        file.to_str().expect("utf-8"),
        "--max-tokens",
        "300",
        "--json",
    ]);
    assert_ne!(out.status.code(), Some(0));
}

#[test]
fn replay_json_judges_every_turn_by_meaning_in_the_same_contract() {
    let doc = support_agent_json(
        "replay",
        &["--max-tokens", "300", "--json", "--summarizer", "extractive"],
    );
    let lost = &doc["lost"];
    let turns = lost["instructions"].as_array().expect("the contract's turns");
    assert_eq!(turns.len() as u64, lost["human_turns"].as_u64().expect("count"));
    assert!(
        !doc["firings"].as_array().expect("firings").is_empty(),
        "the budget makes the compactor fire"
    );
    let mut seen = BTreeSet::new();
    for t in turns {
        let status = t["status"].as_str().expect("status");
        seen.insert(status.to_owned());
        assert!(
            ["kept", "in_summary", "repeated_later", "lost"].contains(&status),
            "{t}"
        );
        // Evidence for what survives elsewhere; a summary's sentence is one of the
        // summaries' own.
        assert_eq!(
            ["in_summary", "repeated_later"].contains(&status),
            t["evidence"].is_object(),
            "{t}"
        );
        if status == "in_summary" {
            assert_eq!(t["evidence"]["where"], "summary", "{t}");
            assert!(!t["evidence"]["quote"].as_str().expect("quote").is_empty(), "{t}");
        }
    }
    assert!(seen.contains("kept") && seen.contains("in_summary"), "{seen:?}");
    // What is kept is the session's end: every summarized turn comes before it.
    let position = |t: &Value| t["message"].as_u64().expect("position");
    let first_kept = turns.iter().filter(|t| t["status"] == "kept").map(position).min();
    let last_summarized = turns.iter().filter(|t| t["status"] != "kept").map(position).max();
    assert!(last_summarized < first_kept, "{last_summarized:?} {first_kept:?}");
    // The lost instructions are the turns the contract calls lost instructions.
    let listed: Vec<u64> = lost["instructions_lost"]
        .as_array()
        .expect("instructions_lost")
        .iter()
        .map(|t| t["message"].as_u64().expect("position"))
        .collect();
    assert_eq!(lost_instructions(turns), listed);
}

#[test]
fn lost_facts_come_what_matters_first_with_the_noise_collapsed() {
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let log = log.to_str().expect("utf-8");
    let out = ctxlens(&["history", log, "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let report_of_loss = &report["compactions"][0]["loss"];
    let lost = report_of_loss["lost_facts"].as_array().expect("lost facts");
    assert_eq!(lost.len() as u64, report_of_loss["lost"].as_u64().expect("count"));
    // Ranked: the reasons never go back up the order, noise last.
    let order = ["user", "error", "edited", "command", "other"];
    let rank = |f: &Value| {
        let why = f["why"].as_str().expect("why");
        order.iter().position(|w| *w == why).unwrap_or(order.len())
    };
    assert!(lost.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])));
    let noise: Vec<&Value> = lost.iter().filter(|f| rank(f) == order.len()).collect();
    assert!(noise
        .iter()
        .all(|f| f["why"].as_str().expect("why").starts_with("noise:")));
    // UUIDs are noise; a path the agent edited ranks above one it only read.
    assert!(noise
        .iter()
        .any(|f| f["why"] == "noise:hash" && f["text"].as_str().expect("text").matches('-').count() == 4));
    let edited = lost
        .iter()
        .position(|f| f["why"] == "edited")
        .expect("an edited file lost");
    let other_path = lost
        .iter()
        .position(|f| f["why"] == "other" && f["kind"] == "path")
        .expect("a path only read");
    assert!(edited < other_path);
    // The text lists the 20 that matter most and counts the noise; --all lists every one.
    let short = String::from_utf8(ctxlens(&["history", log]).stdout).expect("utf-8");
    let all = String::from_utf8(ctxlens(&["history", log, "--all"]).stdout).expect("utf-8");
    let fact_rows = |text: &str| {
        text.lines()
            .skip_while(|l| !l.contains("Lost facts, what matters first"))
            .skip(1)
            .take_while(|l| l.starts_with("      "))
            .filter(|l| l.trim_start().starts_with('#'))
            .count()
    };
    assert_eq!(fact_rows(&short), 20);
    assert!(short.contains("UUIDs and hashes collapsed"), "{short}");
    assert_eq!(fact_rows(&all), lost.len());
}

#[test]
fn history_compares_the_real_summary_with_others_on_the_same_cut() {
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let log = log.to_str().expect("utf-8");
    let out = ctxlens(&[
        "history",
        log,
        "--json",
        "--compare-summaries",
        "--summarizer",
        "cmd:printf 'The user and the assistant talked.'",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let compaction = &report["compactions"][0];
    let rows = compaction["summaries"].as_array().expect("summaries side by side");
    let by: Vec<&str> = rows.iter().map(|r| r["by"].as_str().expect("by")).collect();
    assert_eq!(
        by,
        ["real", "extractive", "cmd:printf 'The user and the assistant talked.'"]
    );
    // The real row is the compaction's own report.
    let loss = &compaction["loss"];
    let lost_instructions = loss["instructions"]
        .as_array()
        .expect("turns")
        .iter()
        .filter(|t| t["kind"] == "instruction" && t["status"] == "lost")
        .count() as u64;
    assert_eq!(rows[0]["instructions_lost"].as_u64(), Some(lost_instructions));
    assert_eq!(rows[0]["facts_lost"], loss["lost"]);
    assert_eq!(rows[0]["text"], compaction["summary"]);
    // Every row judges the same epoch; a summary that says nothing loses what the real
    // one kept.
    assert!(rows
        .iter()
        .all(|r| r["instructions"] == rows[0]["instructions"] && r["facts"] == rows[0]["facts"]));
    assert_eq!(rows[2]["text"], "The user and the assistant talked.");
    assert!(
        rows[2]["instructions_lost"].as_u64() > rows[0]["instructions_lost"].as_u64(),
        "{}",
        rows[2]
    );
    // The table shows the same rows.
    let text = String::from_utf8(ctxlens(&["history", log, "--compare-summaries"]).stdout).expect("utf-8");
    assert!(text.contains("summaries side by side"), "{text}");
    assert!(text.lines().any(|l| l.trim_start().starts_with("extractive")), "{text}");
}

#[test]
fn a_policy_replay_judges_turns_by_meaning_too() {
    let doc = support_agent_json(
        "replay",
        &[
            "--policy",
            "langchain-summarization",
            "--set",
            "trigger=tokens:300",
            "--summarizer",
            "extractive",
            "--json",
        ],
    );
    let turns = doc["turns"].as_array().expect("turns");
    assert_eq!(turns.len() as u64, doc["instructions"].as_u64().expect("count"));
    let statuses: BTreeSet<&str> = turns.iter().map(|t| t["status"].as_str().expect("status")).collect();
    assert!(
        statuses.contains("kept") && statuses.contains("in_summary"),
        "{statuses:?}"
    );
    let listed: Vec<u64> = doc["instructions_lost"]
        .as_array()
        .expect("lost")
        .iter()
        .map(|pair| pair[0].as_u64().expect("message"))
        .collect();
    assert_eq!(lost_instructions(turns), listed);
}
