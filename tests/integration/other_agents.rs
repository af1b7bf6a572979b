//! Other agents' logs: Gemini CLI chat recordings — the real single-JSON one (Gemini CLI
//! 0.22) and a JSONL one written from gemini-cli's writer (an upserted message, a
//! compression as a `$set` of `messages`, a rewind, a slash command, a notice) — read as
//! gemini-cli reads them back; a Copilot CLI `events.jsonl` written from copilot-sdk's
//! event types (a background compaction, a rewind); and what the commands say of them.
//! Expected figures are taken from the logs' own records, never typed.

use std::path::PathBuf;

use crate::common::{self, assert_exit, ctxlens, stderr, stdout};
use ctxlens::transcript::{Container, Transcript};
use serde_json::Value;

fn gemini_dir() -> PathBuf {
    common::data().join("other-agents/gemini-cli")
}

fn real_recording() -> PathBuf {
    gemini_dir().join("session-2025-12-30T01-16-3f9ce747.json")
}

fn compressed_recording() -> PathBuf {
    gemini_dir().join("session-2026-06-10T08-00-7c2d41aa.jsonl")
}

fn load(path: &std::path::Path) -> Transcript {
    Transcript::read(path, None).expect("the recording loads")
}

/// `scan ROOT --json`'s rows.
fn scan_rows(root: &std::path::Path) -> Vec<Value> {
    let out = ctxlens(&["scan", root.to_str().expect("utf-8"), "--json"]);
    assert_exit(&out, 0);
    stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a row"))
        .collect()
}

fn texts(t: &Transcript) -> Vec<String> {
    (0..t.messages().len()).map(|i| t.readable_text(i)).collect()
}

#[test]
fn a_gemini_cli_recording_is_the_chat_gemini_cli_rebuilds_from_it() {
    let path = real_recording();
    let t = load(&path);
    assert_eq!(t.format().container, Container::GeminiCli);
    assert_eq!(t.format().name(), "gemini-cli");
    let record: Value = serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    let records = record["messages"].as_array().expect("messages");
    let of_type = |kind: &str| records.iter().filter(|m| m["type"] == kind).collect::<Vec<_>>();
    let answers = of_type("gemini");
    let with_results = answers
        .iter()
        .filter(|m| {
            m["toolCalls"]
                .as_array()
                .is_some_and(|calls| calls.iter().any(|c| c["result"].is_array()))
        })
        .count();
    // Each user turn, each answer, and one turn of results after an answer whose calls have them.
    assert_eq!(t.messages().len(), of_type("user").len() + answers.len() + with_results);
    assert_eq!(
        t.boundaries().len(),
        of_type("user").len(),
        "results are not human turns"
    );
    assert!(t.groups().orphans.is_empty(), "every call meets its result");
    assert_eq!(t.groups().groups.len(), with_results);
    // The CLI's own notices are notes, never sent.
    let notices = records.len() - of_type("user").len() - answers.len();
    assert_eq!(
        t.notes().iter().filter(|n| n.kind.starts_with("gemini-cli ")).count(),
        notices
    );
    // Each answer carries its call's usage: `input` holds `cached`, thoughts are output.
    let recorded: Vec<_> = t
        .messages()
        .iter()
        .filter_map(ctxlens::transcript::Message::recorded)
        .collect();
    assert_eq!(recorded.len(), answers.len());
    for (usage, answer) in recorded.iter().zip(&answers) {
        let n = |k: &str| answer["tokens"][k].as_u64().expect("a count");
        assert_eq!(usage.context_tokens(), n("input"));
        assert_eq!(usage.cache_read_tokens, n("cached"));
        assert_eq!(usage.output_tokens, n("output") + n("thoughts"));
    }
    assert_eq!(t.model(), answers.last().and_then(|a| a["model"].as_str()));
}

#[test]
fn the_jsonl_form_replays_rewrites_rewinds_and_a_compression() {
    let path = compressed_recording();
    let text = std::fs::read_to_string(&path).expect("read");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a record"))
        .collect();
    let set = lines
        .iter()
        .find(|l| l["$set"]["messages"].is_array())
        .expect("the compression");
    let history: Vec<&Value> = set["$set"]["messages"].as_array().expect("list").iter().collect();
    let content_text = |m: &Value| -> String {
        match &m["content"] {
            Value::String(s) => s.clone(),
            Value::Array(parts) => parts.iter().filter_map(|p| p["text"].as_str()).collect(),
            _ => String::new(),
        }
    };
    let live = load(&path);
    assert_eq!(live.compactions().len(), 1);
    let compaction = &live.compactions()[0];
    assert_eq!(compaction.summary_message, Some(0));
    // The live chat opens with the history the compression set, then what followed it
    // (the rewound prompt, the slash command and the notice are not part of it).
    let after: Vec<&Value> = lines
        .iter()
        .skip_while(|l| !l["$set"]["messages"].is_array())
        .filter(|l| l["type"] == "user" || l["type"] == "gemini")
        .filter(|l| !content_text(l).starts_with('/'))
        .collect();
    let rewound = lines.iter().find_map(|l| l["$rewindTo"].as_str()).expect("a rewind");
    let expected: Vec<String> = history
        .iter()
        .copied()
        .chain(after.into_iter().filter(|l| l["id"] != rewound))
        .map(content_text)
        .collect();
    assert_eq!(texts(&live), expected);
    assert!(live.messages()[0].past_summary() && live.messages()[1].past_summary());
    assert!(
        !live.messages()[2].past_summary(),
        "what the compression kept is not its summary"
    );
    assert!(
        live.messages()[2..history.len()].iter().all(|m| m.recorded().is_none()),
        "the usage of a kept answer measured the context before the compression"
    );
    assert_eq!(
        compaction.pre_tokens,
        lines
            .iter()
            .take_while(|l| !l["$set"]["messages"].is_array())
            .filter_map(|l| l["tokens"]["input"].as_u64())
            .last()
    );
    let kinds: Vec<&str> = live.notes().iter().map(|n| n.kind.as_str()).collect();
    for kind in ["past compaction", "command", "rewind", "gemini-cli info"] {
        assert!(kinds.contains(&kind), "{kind} in {kinds:?}");
    }
    // Loaded whole: what the compression dropped comes first, written once (its last
    // version: the answer carries the tokens of its second write), then the summary.
    let whole = live.whole_session().expect("whole");
    assert_eq!(whole.compactions().len(), 1);
    let at = whole.compactions()[0].at;
    let first_prompt = lines.iter().find(|l| l["type"] == "user").expect("a prompt");
    assert_eq!(texts(&whole)[0], content_text(first_prompt));
    assert_eq!(texts(&whole)[at], content_text(history[0]));
    let first_answer = lines.iter().find(|l| l["type"] == "gemini").expect("an answer");
    let answered = lines
        .iter()
        .rev()
        .find(|l| l["id"] == first_answer["id"])
        .expect("its last version");
    assert_eq!(
        whole.messages()[1].recorded().map(|r| r.context_tokens()),
        answered["tokens"]["input"].as_u64()
    );
    // The summary is what the compression wrote anew; the rest of its history was kept.
    let written_before = |id: &Value| {
        lines
            .iter()
            .take_while(|l| !l["$set"]["messages"].is_array())
            .any(|l| l["id"] == *id)
    };
    let summary = history.iter().filter(|m| !written_before(&m["id"])).count();
    let kept = history.len() - summary;
    assert_eq!(whole.messages().len(), at + live.messages().len() - kept);
    // Its cost: one call per answer id, whatever was later dropped.
    let cost = ctxlens::cost::session_cost(&live, ctxlens::cost::PriceTable::builtin()).expect("recorded usage");
    let answer_ids: std::collections::BTreeSet<&str> = lines
        .iter()
        .filter(|l| l["tokens"].is_object())
        .filter_map(|l| l["id"].as_str())
        .collect();
    assert_eq!(cost.calls.len(), answer_ids.len());
}

#[test]
fn the_commands_read_a_gemini_cli_recording_and_refuse_to_write_one() {
    let path = compressed_recording();
    let file = path.to_str().expect("utf-8");
    let out = ctxlens(&["history", file]);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("1 compaction"), "{}", stdout(&out));
    let out = ctxlens(&["stats", file, "--json"]);
    assert_exit(&out, 0);
    assert_eq!(common::json_stdout(&out)["format"], "gemini-cli");
    // The plan is shown; the compacted recording is not written (no file, exit 2).
    // A budget under the recording's size, so the compactor cuts.
    let plan = ctxlens(&["compact", file, "--max-tokens", "60", "--keep-tail", "30", "--plan"]);
    assert_exit(&plan, 0);
    assert!(
        common::json_stdout(&plan)["summarized"].as_u64().is_some_and(|n| n > 0),
        "{}",
        stdout(&plan)
    );
    let dir = tempfile::tempdir().expect("a folder");
    let output = dir.path().join("out.jsonl");
    let out = ctxlens(&[
        "compact",
        file,
        "--max-tokens",
        "60",
        "--keep-tail",
        "30",
        "-o",
        output.to_str().expect("utf-8"),
    ]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("does not write them yet"), "{}", stderr(&out));
    assert!(!output.exists(), "nothing half-written");
    // Forced on another agent's log, the format is refused by name.
    let claude = common::data().join("real-transcripts/claude-code-jsonl/ccl-sample-37f83ec9.jsonl");
    let out = ctxlens(&["stats", claude.to_str().expect("utf-8"), "--format", "gemini-cli"]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("not a gemini-cli transcript"), "{}", stderr(&out));
}

#[test]
fn scan_finds_gemini_cli_chats_in_its_folder_and_nothing_else_there() {
    let home = tempfile::tempdir().expect("a home");
    let project = home.path().join(".gemini/tmp/9e1b00");
    std::fs::create_dir_all(project.join("chats")).expect("folders");
    std::fs::copy(
        compressed_recording(),
        project.join("chats/session-2026-06-10T08-00-7c2d41aa.jsonl"),
    )
    .expect("copy");
    // Gemini CLI's other files there are not sessions.
    std::fs::write(project.join("logs.json"), "[{\"sessionId\":\"x\",\"type\":\"user\"}]").expect("write");
    let rows = scan_rows(&home.path().join(".gemini/tmp"));
    assert_eq!(rows.len(), 1, "{rows:?}");
    let name = compressed_recording().file_name().map(std::ffi::OsStr::to_os_string);
    assert_eq!(
        rows[0]["path"]
            .as_str()
            .and_then(|p| std::path::Path::new(p).file_name()),
        name.as_deref()
    );
    assert_eq!(rows[0]["compactions"], 1, "{:?}", rows[0]);
}

fn copilot_log() -> PathBuf {
    common::data().join("other-agents/copilot-cli/compacted/events.jsonl")
}

/// The chat messages a Copilot CLI event log's events stand for, in order, as
/// `(event id, text)`: a user's words, an answer, a tool's result.
fn copilot_messages(events: &[Value]) -> Vec<(String, String)> {
    events
        .iter()
        .filter_map(|e| {
            let data = &e["data"];
            let sent = match e["type"].as_str()? {
                "user.message" | "assistant.message" => data["content"].as_str()?,
                "tool.execution_complete" => data["result"]["content"].as_str()?,
                _ => return None,
            };
            Some((e["id"].as_str()?.to_owned(), sent.to_owned()))
        })
        .collect()
}

#[test]
fn a_copilot_cli_event_log_is_its_chat_with_its_compaction_and_its_rewind() {
    let path = copilot_log();
    let events: Vec<Value> = std::fs::read_to_string(&path)
        .expect("read")
        .lines()
        .map(|l| serde_json::from_str(l).expect("an event"))
        .collect();
    let position = |kind: &str| events.iter().position(|e| e["type"] == kind).expect(kind);
    let (started, completed) = (
        position("session.compaction_start"),
        position("session.compaction_complete"),
    );
    let done = &events[completed]["data"];
    let rewound = events[position("session.snapshot_rewind")]["data"]["upToEventId"]
        .as_str()
        .expect("an event id");
    let all = copilot_messages(&events);
    let index_of = |id: &str| events.iter().position(|e| e["id"] == id).expect("listed");
    let live = load(&path);
    assert_eq!(live.format().container, Container::CopilotCli);
    // Live: the summary, what was written after the compaction began, minus the rewound.
    let mut expected = vec![done["summaryContent"].as_str().expect("a summary").to_owned()];
    expected.extend(
        all.iter()
            .filter(|(id, _)| index_of(id) > started && index_of(id) < index_of(rewound))
            .chain(all.iter().filter(|(id, _)| index_of(id) > index_of(rewound)))
            .map(|(_, text)| text.clone()),
    );
    // An answer's text, then the calls it makes.
    let live_texts = texts(&live);
    assert_eq!(live_texts.len(), expected.len());
    for (got, sent) in live_texts.iter().zip(&expected) {
        assert!(got.starts_with(sent.as_str()), "{got:?} is {sent:?}");
    }
    assert!(live.messages()[0].past_summary());
    let compaction = &live.compactions()[0];
    assert_eq!(compaction.pre_tokens, done["preCompactionTokens"].as_u64());
    assert_eq!(compaction.post_tokens, done["postCompactionTokens"].as_u64());
    assert_eq!(compaction.trigger.as_deref(), Some("auto"), "`threshold` is automatic");
    assert!(live.groups().orphans.is_empty(), "each request meets its result");
    assert_eq!(live.model(), events[0]["data"]["selectedModel"].as_str());
    // Whole: everything before the compaction's end, the summary, then the rest.
    let whole = live.whole_session().expect("whole");
    let before = all.iter().filter(|(id, _)| index_of(id) < completed).count();
    assert_eq!(whole.compactions()[0].at, before);
    assert_eq!(texts(&whole)[before], expected[0]);
    for (got, (_, sent)) in texts(&whole).iter().zip(&all[..before]) {
        assert!(got.starts_with(sent.as_str()), "{got:?} is {sent:?}");
    }
    assert!(!texts(&whole)
        .iter()
        .any(|t| *t == all.iter().find(|(id, _)| id == rewound).expect("rewound").1));
}

#[test]
fn history_and_scan_find_copilot_cli_compactions_in_its_folder() {
    let file = copilot_log();
    let out = ctxlens(&["history", file.to_str().expect("utf-8")]);
    assert_exit(&out, 0);
    assert!(stdout(&out).contains("1 compaction"), "{}", stdout(&out));
    let home = tempfile::tempdir().expect("a home");
    let session = home.path().join(".copilot/session-state/c0ffee00");
    std::fs::create_dir_all(&session).expect("folders");
    std::fs::copy(&file, session.join("events.jsonl")).expect("copy");
    std::fs::write(session.join("workspace.json"), "{\"sessionId\": \"c0ffee00\"}").expect("write");
    let rows = scan_rows(&home.path().join(".copilot/session-state"));
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0]["compactions"], 1, "{:?}", rows[0]);
}

/// `--emit-config gemini-cli` writes `model.compressionThreshold`: a §7F budget as its
/// share of the window, the gemini-cli policy's own threshold as it was set; another
/// agent's policy is refused with the reason.
#[test]
fn gemini_clis_setting_is_the_share_of_the_window_it_compresses_at() {
    let sample = common::repo().join("sample-transcripts/support-agent.json");
    let sample = sample.to_str().expect("utf-8");
    let share = |out: &std::process::Output| -> f64 {
        assert_exit(out, 0);
        let settings: Value = serde_json::from_str(&stdout(out)).expect("JSON");
        settings["model"]["compressionThreshold"].as_f64().expect("a number")
    };
    let budget = ctxlens(&[
        "compact",
        sample,
        "--max-tokens",
        "50000",
        "--context-window",
        "100000",
        "--emit-config",
        "gemini-cli",
    ]);
    assert!((share(&budget) - 50_000.0 / 100_000.0).abs() < 1e-9);
    let own = ctxlens(&[
        "compact",
        sample,
        "--policy",
        "gemini-cli",
        "--set",
        "threshold=0.7",
        "--set",
        "token_limit=100000",
        "--emit-config",
        "gemini-cli",
    ]);
    assert!((share(&own) - 0.7).abs() < 1e-9);
    let other = ctxlens(&["compact", sample, "--policy", "codex", "--emit-config", "gemini-cli"]);
    assert_exit(&other, 2);
    assert!(stderr(&other).contains("that agent's own policy"), "{}", stderr(&other));
}

/// A Gemini CLI recording costs what ccusage (its own Gemini CLI reader, 20.0.24) says,
/// within 1%, with the same uncached input and cache reads: each answer's tokens once,
/// however often the message was written (`tests/data/ccusage/gemini-cli/`, with the
/// command).
#[test]
fn a_gemini_cli_recording_costs_what_ccusage_says() {
    let mut compared = 0;
    for entry in std::fs::read_dir(common::data().join("ccusage/gemini-cli")).expect("the ccusage figures") {
        let path = entry.expect("entry").path();
        let reference: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read")).expect("JSON");
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        let recording = ["json", "jsonl"]
            .iter()
            .map(|ext| gemini_dir().join(format!("{stem}.{ext}")))
            .find(|p| p.exists())
            .expect("the recording ccusage read");
        let out = ctxlens(&["stats", recording.to_str().expect("utf-8"), "--json"]);
        assert_exit(&out, 0);
        let cost = &common::json_stdout(&out)["cost"];
        let total = cost["total"].as_f64().expect("a priced total");
        let expected = reference["totals"]["totalCost"].as_f64().expect("totalCost");
        assert!(
            (total - expected).abs() <= expected * 0.01,
            "{stem}: ctxlens ${total:.6}, ccusage ${expected:.6}"
        );
        let sum = |key: &str| -> u64 {
            cost["calls"]
                .as_array()
                .expect("calls")
                .iter()
                .map(|c| c["usage"][key].as_u64().unwrap_or(0))
                .sum()
        };
        assert_eq!(
            Some(sum("input_tokens")),
            reference["totals"]["inputTokens"].as_u64(),
            "{stem}"
        );
        assert_eq!(
            Some(sum("cache_read_tokens")),
            reference["totals"]["cacheReadTokens"].as_u64(),
            "{stem}"
        );
        compared += 1;
    }
    assert_eq!(compared, 2, "both Gemini CLI recordings have their ccusage figure");
}

/// A Copilot CLI run's usage is its `session.shutdown` totals: the same tokens ccusage
/// (20.0.24, its Copilot CLI reader) reads (`tests/data/ccusage/copilot-cli/`), priced per
/// request — the totals split over the run's requests, each under the 200,000-token tier
/// that ccusage, pricing the sum as one request, applies to the whole run.
#[test]
fn a_copilot_cli_run_costs_its_shutdown_totals_priced_per_request() {
    let reference: Value = serde_json::from_str(
        &std::fs::read_to_string(common::data().join("ccusage/copilot-cli/compacted.json")).expect("read"),
    )
    .expect("JSON");
    let totals = &reference["totals"];
    let out = ctxlens(&["stats", copilot_log().to_str().expect("utf-8"), "--json"]);
    assert_exit(&out, 0);
    let cost = &common::json_stdout(&out)["cost"];
    let calls = cost["calls"].as_array().expect("calls");
    let sum = |key: &str| -> u64 { calls.iter().map(|c| c["usage"][key].as_u64().unwrap_or(0)).sum() };
    assert_eq!(Some(sum("input_tokens")), totals["inputTokens"].as_u64());
    assert_eq!(Some(sum("cache_read_tokens")), totals["cacheReadTokens"].as_u64());
    assert_eq!(
        Some(sum("cache_write_5m_tokens")),
        totals["cacheCreationTokens"].as_u64()
    );
    assert_eq!(Some(sum("output_tokens")), totals["outputTokens"].as_u64());
    let events = std::fs::read_to_string(copilot_log()).expect("read");
    let shutdown: Value = events
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("an event"))
        .find(|e| e["type"] == "session.shutdown")
        .expect("a shutdown");
    let requests: u64 = shutdown["data"]["modelMetrics"]
        .as_object()
        .expect("metrics")
        .values()
        .map(|m| m["requests"]["count"].as_u64().expect("a count"))
        .sum();
    assert_eq!(calls.len() as u64, requests, "one priced call per request");
    let prompt = |c: &Value| -> u64 {
        ["input_tokens", "cache_read_tokens", "cache_write_5m_tokens"]
            .iter()
            .map(|k| c["usage"][*k].as_u64().unwrap_or(0))
            .sum()
    };
    assert!(calls.iter().all(|c| prompt(c) < 200_000), "no request reaches the tier");
    let total = cost["total"].as_f64().expect("priced");
    let summed = totals["totalCost"].as_f64().expect("ccusage's");
    assert!(
        total < summed,
        "ctxlens ${total} is under ccusage's ${summed}, which tiers the sum"
    );
}

/// A Gemini CLI compression says what set it off only through the notice the CLI records
/// after it: "Context compressed from X% to Y%." (automatic, v0.33 on), the older
/// "IMPORTANT: This conversation exceeded the compress threshold… (compressed from: N to
/// M tokens)." (automatic, v0.18–v0.32, with the size before it), or an empty notice
/// (`/compress`). Releases before v0.44 recorded only that notice, the history staying
/// whole in the file: the notice alone is the compaction.
#[test]
fn a_gemini_cli_compression_is_known_by_its_notice_in_every_release() {
    // v0.44 on: the `$set`, then the notice of an automatic compression.
    let live = load(&compressed_recording());
    assert_eq!(live.compactions()[0].trigger.as_deref(), Some("auto"));
    // The real v0.22 recording, with a notice of each kind added after two answers.
    let real: Value = serde_json::from_str(
        &std::fs::read_to_string(gemini_dir().join("session-2025-12-30T01-16-3f9ce747.json")).expect("read"),
    )
    .expect("JSON");
    let mut with_notices = real.clone();
    let messages = with_notices["messages"].as_array_mut().expect("messages");
    let answers: Vec<usize> = (0..messages.len())
        .filter(|&i| messages[i]["type"] == "gemini")
        .collect();
    let (first, second) = (answers[1], answers[answers.len() - 2]);
    let notice = |id: &str, text: &str| serde_json::json!({"id": id, "timestamp": "2025-12-30T01:20:00.000Z", "type": "info", "content": text});
    messages.insert(second + 1, notice("n2", ""));
    messages.insert(
        first + 1,
        notice(
            "n1",
            "IMPORTANT: This conversation exceeded the compress threshold. A compressed context will be sent for future messages (compressed from: 6900 to 1200 tokens).",
        ),
    );
    // And a notice that is not one (a plain info) changes nothing.
    messages.insert(0, notice("n0", "Loaded cached credentials."));
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("session-2025-12-30T01-16-3f9ce747.json");
    std::fs::write(&file, serde_json::to_string_pretty(&with_notices).expect("JSON")).expect("write");
    let history = common::json_stdout(&ctxlens(&["history", file.to_str().expect("utf-8"), "--json"]));
    let compactions = history["compactions"].as_array().expect("compactions");
    let triggers: Vec<&str> = compactions.iter().filter_map(|c| c["trigger"].as_str()).collect();
    assert_eq!(triggers, ["auto", "manual"], "{history}");
    assert_eq!(compactions[0]["pre_tokens"], 6900, "the size the notice says");
    let last_input_before_second = real["messages"][answers[answers.len() - 2]]["tokens"]["input"].clone();
    assert_eq!(
        compactions[1]["pre_tokens"], last_input_before_second,
        "the last prompt before it"
    );
    // The recording keeps the whole history: every message is still in the live view.
    let plain = load(&gemini_dir().join("session-2025-12-30T01-16-3f9ce747.json"));
    let noticed = load(&file);
    assert_eq!(noticed.messages().len(), plain.messages().len());
    assert_eq!(noticed.compactions().len(), 2);
    assert!(plain.compactions().is_empty());
    // scan counts them; backtest judges the automatic one only.
    let row = common::json_stdout(&ctxlens(&["scan", file.to_str().expect("utf-8"), "--json"]));
    assert_eq!(row["compactions"], 2);
    let backtest = stdout(&ctxlens(&["backtest", file.to_str().expect("utf-8")]));
    assert!(backtest.contains("1 automatic compaction:"), "{backtest}");
}

/// Gemini CLI's compressing requests are estimated as its release makes them
/// (`chatCompressionService.ts`): the older 70% of the history in and the summary out,
/// and from v0.26 a second request that verifies the summary (the same history, read
/// from the cache, and the summary in; the final summary out). The release shows in the
/// recording: a `$set` (v0.44 on) or the v0.33 notice make two requests; the notice of
/// v0.18–v0.32 one (a lower bound), its summary the size it states after, less the part
/// kept.
#[test]
fn gemini_clis_compressing_requests_are_estimated_by_release() {
    let calls_of = |file: &std::path::Path| {
        let stats = common::json_stdout(&ctxlens(&["stats", file.to_str().expect("utf-8"), "--json"]));
        stats["cost"]["compaction_calls"]
            .as_array()
            .expect("compaction calls")
            .clone()
    };
    // v0.44 on: the `$set` holds the summary.
    let recorded = calls_of(&compressed_recording());
    assert_eq!(recorded.len(), 1);
    assert_eq!(recorded[0]["requests"], 2, "{recorded:?}");
    let usage = &recorded[0]["usage"];
    assert!(usage["output_tokens"].as_u64().expect("output") > 0, "{usage}");
    assert!(
        usage["cache_read_tokens"].as_u64().expect("read") > 0,
        "the verification reads the history"
    );
    // Before v0.44, a notice only: of v0.33 on (two requests) and of v0.18–v0.32 (one).
    let real: Value = serde_json::from_str(
        &std::fs::read_to_string(gemini_dir().join("session-2025-12-30T01-16-3f9ce747.json")).expect("read"),
    )
    .expect("JSON");
    for (text, requests, summary) in [
        ("Context compressed from 52% to 21%.", 2, None),
        (
            "IMPORTANT: This conversation exceeded the compress threshold. A compressed context will be sent for future messages (compressed from: 6900 to 3000 tokens).",
            1,
            // What the notice says after, less the 30% of 6,900 kept.
            Some(3000 - 6900 * 3 / 10),
        ),
    ] {
        let mut with_notice = real.clone();
        let messages = with_notice["messages"].as_array_mut().expect("messages");
        let answer = (0..messages.len()).filter(|&i| messages[i]["type"] == "gemini").nth(1).expect("an answer");
        messages.insert(
            answer + 1,
            serde_json::json!({"id": "n1", "timestamp": "2025-12-30T01:20:00.000Z", "type": "info", "content": text}),
        );
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("session-2025-12-30T01-16-3f9ce747.json");
        std::fs::write(&file, serde_json::to_string_pretty(&with_notice).expect("JSON")).expect("write");
        let calls = calls_of(&file);
        assert_eq!(calls.len(), 1, "{text}");
        assert_eq!(calls[0]["requests"], requests, "{text}: {calls:?}");
        if let Some(summary) = summary {
            assert_eq!(calls[0]["usage"]["output_tokens"], summary, "{text}");
            assert_eq!(calls[0]["usage"]["input_tokens"], 6900 - 6900 * 3 / 10, "{text}: the older 70% in");
        }
    }
}

/// A Gemini CLI recording that compressed automatically twice: the replay predicts the
/// second from the first (the share it showed), never from itself.
#[test]
fn gemini_clis_next_compression_is_predicted_from_the_one_before_it() {
    // A session whose prompt grows by about 2,000 tokens a turn and that compresses when
    // the last prompt reaches 30% of gemini-2.5-pro's 1,048,576 tokens (a user's
    // `compressionThreshold` of 0.3), keeping the last 30% of the history.
    const LIMIT: u64 = 1_048_576;
    let threshold = (0.3 * LIMIT as f64) as u64;
    let mut lines = vec![
        serde_json::json!({"sessionId": "5e5e5e5e-0000-4000-8000-000000000001", "projectHash": "ab", "startTime": "2026-06-01T08:00:00.000Z", "lastUpdated": "2026-06-01T08:00:00.000Z", "kind": "main"}),
    ];
    let (mut live, mut ids, mut compressions, mut minute) = (Vec::<Value>::new(), 0, Vec::new(), 0u32);
    let prompt = |live: &[Value]| 1_000 + live.iter().map(|m| m.to_string().len() as u64 / 4).sum::<u64>();
    let mut last_prompt = 0;
    while compressions.len() < 2 {
        minute += 1;
        let time = format!("2026-06-01T{:02}:{:02}:00.000Z", 8 + minute / 60, minute % 60);
        if last_prompt >= threshold {
            // Before the next request: the history becomes a summary, "Got it." and the
            // last two messages; then the notice of an automatic compression.
            ids += 1;
            let summary = serde_json::json!({"id": format!("s{ids}"), "timestamp": time, "type": "user", "content": [{"text": format!("<state_snapshot>turn {minute}</state_snapshot>")}]});
            let ack = serde_json::json!({"id": format!("k{ids}"), "timestamp": time, "type": "gemini", "content": [{"text": "Got it. Thanks for the additional context!"}]});
            // gemini-cli keeps about the last 30% of the history, from a user turn on.
            let sizes: Vec<usize> = live.iter().map(|m| m.to_string().len()).collect();
            let total: usize = sizes.iter().sum();
            let mut from = live.len();
            while from > 0 && sizes[from - 1..].iter().sum::<usize>() * 10 <= total * 3 {
                from -= 1;
            }
            while from < live.len() && live[from]["type"] != "user" {
                from += 1;
            }
            let kept = live[from..].to_vec();
            live = [vec![summary, ack], kept].concat();
            lines.push(serde_json::json!({"$set": {"messages": live.clone()}}));
            lines.push(serde_json::json!({"id": format!("i{ids}"), "timestamp": time, "type": "info", "content": "Context compressed from 30% to 1%."}));
            compressions.push(lines.len());
        }
        ids += 1;
        let user = serde_json::json!({"id": format!("u{ids}"), "timestamp": time, "type": "user", "content": [{"text": format!("step {ids}: ").repeat(700)}]});
        live.push(user.clone());
        lines.push(user);
        last_prompt = prompt(&live);
        let answer = serde_json::json!({"id": format!("g{ids}"), "timestamp": time, "type": "gemini", "content": "done", "model": "gemini-2.5-pro", "thoughts": [],
            "tokens": {"input": last_prompt, "output": 3, "cached": 0, "thoughts": 0, "tool": 0, "total": last_prompt + 3}});
        live.push(answer.clone());
        lines.push(answer);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("session-2026-06-01T08-00-5e5e5e5e.jsonl");
    std::fs::write(&file, lines.iter().map(|l| l.to_string() + "\n").collect::<String>()).expect("write");
    let file = file.to_str().expect("utf-8");
    let backtest = common::json_stdout(&ctxlens(&["backtest", file, "--json"]));
    assert_eq!(backtest["policy"], "gemini-cli");
    let judged = backtest["compactions"].as_array().expect("compactions");
    assert_eq!(judged.len(), 2, "{backtest}");
    // The first had nothing before it: gemini-cli's default share (0.5) fires later, if at all.
    assert!(judged[0]["error_messages"].as_i64().is_none_or(|e| e > 3), "{backtest}");
    // The second, from the first's share: within 3 messages.
    let error = judged[1]["error_messages"].as_i64().expect("fired");
    assert!(error.abs() <= 3, "{backtest}");
    // No look-ahead: the log cut right before its second compression judges the first
    // exactly as the whole log does.
    let cut: String = lines[..compressions[1] - 2]
        .iter()
        .map(|l| l.to_string() + "\n")
        .collect();
    let cut_file = dir.path().join("session-2026-06-01T08-00-5e5e5e5f.jsonl");
    std::fs::write(&cut_file, cut).expect("write");
    let cut_backtest = common::json_stdout(&ctxlens(&["backtest", cut_file.to_str().expect("utf-8"), "--json"]));
    assert_eq!(cut_backtest["compactions"].as_array().map(Vec::len), Some(1));
    assert_eq!(cut_backtest["compactions"][0], judged[0]);
}

/// Copilot CLI compacts on its own at a threshold it does not publish: with no compaction
/// in its log, `status` says so, never "no automatic compaction" nor a distance to it.
#[test]
fn copilot_status_says_its_threshold_is_unpublished() {
    let log = common::data().join("other-agents/copilot-cli/events.jsonl");
    let out = ctxlens(&["status", log.to_str().unwrap()]);
    assert_exit(&out, 0);
    let line = stdout(&out);
    assert!(
        line.contains("compacts on its own at a threshold it does not publish"),
        "{line}"
    );
    assert!(
        !line.contains("no automatic compaction") && !line.contains("compaction in"),
        "{line}"
    );
}
