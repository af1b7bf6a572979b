//! The summarizers and the loss report. The `openai` summarizer talks to a local HTTP
//! server started by the test (success, HTTP 500, timeout, malformed body); the `cmd:`
//! summarizer runs scripts that succeed, fail, hang and print nothing.

use crate::common;

use std::time::Duration;

use ctxlens::cancel::never;

use common::{assert_exit, ctxlens_stdin, reply, serve_once, stderr, stdout};
use ctxlens::compact::Options;
use ctxlens::loss::{loss_report, FactKind, Survival};
use ctxlens::openai::OpenAiCompatible;
use ctxlens::summarize::{older_messages, Command, Extractive, Placeholder, Settings, Summarizer, SUMMARY_PROMPT};
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;
use serde_json::{json, Value};

fn transcript() -> Transcript {
    let messages = json!([
        {"role": "system", "content": "You are a deploy bot."},
        {"role": "user", "content": "Deploy build 7 to /srv/app/releases using `deploy.sh`; never touch prod-db-01."},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "run", "arguments": "{\"cmd\":\"./deploy.sh --build 7\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "ERROR: ERR_DISK_FULL after writing 42 MB to /srv/app/releases/7"},
        {"role": "assistant", "content": "The disk is full; I will clean old releases first."},
        {"role": "user", "content": "Ok, go ahead. The dashboard is https://grafana.example.org/d/deploys"},
        {"role": "assistant", "content": "Cleaned up; deploying build 7 again to /srv/app/releases."}
    ]);
    Transcript::parse("deploy.json", serde_json::to_vec_pretty(&messages).expect("json"), None).expect("loads")
}

fn older(t: &Transcript) -> Vec<ctxlens::summarize::Older<'_>> {
    older_messages(t, 1..5, true)
}

// ---- placeholder and extractive ----------------------------------------------------------

#[test]
fn placeholder_counts_the_messages() {
    let t = transcript();
    assert_eq!(
        Placeholder.summarize(&older(&t), never()).expect("ok"),
        "summarized 4 messages"
    );
}

#[test]
fn extractive_is_deterministic_bounded_and_keeps_the_facts() {
    let t = transcript();
    let summary = Extractive { summary_tokens: 400 }
        .summarize(&older(&t), never())
        .expect("ok");
    assert_eq!(
        summary,
        Extractive { summary_tokens: 400 }
            .summarize(&older(&t), never())
            .expect("ok"),
        "deterministic"
    );
    for fact in [
        "/srv/app/releases",
        "deploy.sh",
        "prod-db-01",
        "ERR_DISK_FULL",
        "42 MB",
        "run(",
    ] {
        assert!(summary.contains(fact), "{fact} missing from:\n{summary}");
    }
    assert!(summary.contains("User requests:\n- #1 Deploy build 7"), "{summary}");
    let tiny = Extractive { summary_tokens: 30 }
        .summarize(&older(&t), never())
        .expect("ok");
    assert!(tiny.chars().count() / 4 <= 30 + 8, "bounded: {tiny}");
}

// ---- cmd: --------------------------------------------------------------------------------

fn command(line: &str, timeout_ms: u64) -> Command {
    Command {
        line: line.to_owned(),
        settings: Settings {
            timeout: Duration::from_millis(timeout_ms),
            ..Settings::default()
        },
    }
}

#[test]
fn a_command_reads_the_messages_as_json_and_prints_the_summary() {
    let t = transcript();
    let script =
        r#"python3 -c 'import json,sys; d=json.load(sys.stdin); print(len(d), "messages, first role", d[0]["role"])'"#;
    assert_eq!(
        command(script, 10_000).summarize(&older(&t), never()).expect("ok"),
        "4 messages, first role user"
    );
}

#[test]
fn a_failing_command_is_an_error_naming_it() {
    let t = transcript();
    let err = command("echo 'model overloaded' >&2; exit 3", 10_000)
        .summarize(&older(&t), never())
        .expect_err("fails");
    let text = format!("{err:#}");
    assert!(
        text.contains("summarizer command `echo 'model overloaded' >&2; exit 3` failed")
            && text.contains("model overloaded"),
        "{text}"
    );
}

#[test]
fn a_hanging_command_times_out() {
    let t = transcript();
    let err = command("sleep 30", 200)
        .summarize(&older(&t), never())
        .expect_err("times out");
    assert!(format!("{err:#}").contains("timed out after 0.2 s"), "{err:#}");
}

#[test]
fn a_silent_command_is_an_error_not_an_empty_summary() {
    let t = transcript();
    let err = command("cat > /dev/null", 10_000)
        .summarize(&older(&t), never())
        .expect_err("empty");
    assert!(format!("{err:#}").contains("printed nothing"), "{err:#}");
}

// ---- openai (a local server) --------------------------------------------------------------

/// Serves one request on 127.0.0.1 with `respond`, and hands the request back.
fn endpoint(url: String, timeout_ms: u64) -> OpenAiCompatible {
    OpenAiCompatible {
        settings: Settings {
            url,
            model: "tiny".into(),
            api_key: Some("sk-test".into()),
            timeout: Duration::from_millis(timeout_ms),
            summary_tokens: 300,
        },
    }
}

#[test]
fn openai_success_sends_the_prompt_and_reads_the_answer() {
    let (url, requests) = serve_once(|s| {
        reply(
            s,
            "200 OK",
            r#"{"choices":[{"message":{"role":"assistant","content":"  Deploy blocked by a full disk.  "}}]}"#,
        );
    });
    let t = transcript();
    let summary = endpoint(url, 5_000).summarize(&older(&t), never()).expect("ok");
    assert_eq!(summary, "Deploy blocked by a full disk.");
    let (head, body) = requests.recv().expect("the request");
    assert!(head.starts_with("POST /v1/chat/completions"), "{head}");
    assert!(
        head.to_ascii_lowercase().contains("authorization: bearer sk-test"),
        "{head}"
    );
    let body: Value = serde_json::from_str(&body).expect("JSON body");
    assert_eq!(body["model"], "tiny");
    assert_eq!(body["max_tokens"], 300);
    assert_eq!(body["messages"][0]["content"], SUMMARY_PROMPT);
    assert!(body["messages"][1]["content"]
        .as_str()
        .expect("text")
        .contains("ERR_DISK_FULL"));
}

#[test]
fn openai_http_errors_are_reported() {
    let (url, _) = serve_once(|s| reply(s, "500 Internal Server Error", r#"{"error":"model crashed"}"#));
    let err = endpoint(url.clone(), 5_000)
        .summarize(&older(&transcript()), never())
        .expect_err("500");
    let text = format!("{err:#}");
    assert!(
        text.contains(&format!("summarizer {url}/chat/completions: HTTP 500")) && text.contains("model crashed"),
        "{text}"
    );
}

#[test]
fn openai_timeouts_are_reported() {
    let (url, _) = serve_once(|_| std::thread::sleep(Duration::from_secs(3)));
    let err = endpoint(url, 300)
        .summarize(&older(&transcript()), never())
        .expect_err("timeout");
    assert!(format!("{err:#}").contains("no answer within 0.3 s"), "{err:#}");
}

#[test]
fn openai_malformed_answers_are_reported() {
    let (url, _) = serve_once(|s| reply(s, "200 OK", "this is not json"));
    let err = endpoint(url, 5_000)
        .summarize(&older(&transcript()), never())
        .expect_err("malformed");
    assert!(format!("{err:#}").contains("the answer is not JSON"), "{err:#}");
    let (url, _) = serve_once(|s| reply(s, "200 OK", r#"{"choices":[]}"#));
    let err = endpoint(url, 5_000)
        .summarize(&older(&transcript()), never())
        .expect_err("no content");
    assert!(
        format!("{err:#}").contains("has no choices[0].message.content"),
        "{err:#}"
    );
}

// ---- the loss report ----------------------------------------------------------------------

fn report_with(summary: &str) -> ctxlens::loss::LossReport {
    let t = transcript();
    let counts = Counts::compute(&t, Tokenizer::Estimate);
    let plan = ctxlens::compact::plan(
        &t,
        &counts,
        &Options {
            max_tokens: 10,
            keep_tail: Some(60),
            flush_to_memory: false,
        },
    );
    let cut = plan.cut().expect("compacts");
    assert_eq!(cut.split, 5, "the tail is the second user turn and the answer");
    loss_report(&t, cut.head_end..cut.split, summary)
}

#[test]
fn the_placeholder_loses_what_the_tail_does_not_repeat() {
    let report = report_with("summarized 4 messages");
    let lost: Vec<(&str, FactKind)> = report
        .facts
        .iter()
        .filter(|(_, s)| *s == Survival::Lost)
        .map(|(f, _)| (f.text.as_str(), f.kind))
        .collect();
    assert_eq!(
        lost,
        [
            ("deploy.sh", FactKind::CodeName),
            ("prod-db-01", FactKind::Identifier),
            ("./deploy.sh", FactKind::Path),
            ("ERR_DISK_FULL", FactKind::ErrorCode),
            ("42 MB", FactKind::Number),
            ("/srv/app/releases/7", FactKind::Path),
        ]
    );
    let kept: Vec<&str> = report
        .facts
        .iter()
        .filter(|(_, s)| *s == Survival::Kept)
        .map(|(f, _)| f.text.as_str())
        .collect();
    assert_eq!(kept, ["/srv/app/releases"], "the tail repeats the release folder");
    assert_eq!(
        report.instructions,
        [(
            1,
            "Deploy build 7 to /srv/app/releases using `deploy.sh`; never touch prod-db-01.".to_owned()
        )]
    );
    assert!(
        (report.survival_percent() - 14.3).abs() < 0.05,
        "{}",
        report.survival_percent()
    );
}

#[test]
fn a_summary_that_names_the_facts_keeps_them() {
    let report = report_with(
        "Build 7: ERR_DISK_FULL after 42 MB in /srv/app/releases/7; ./deploy.sh; deploy.sh; avoid prod-db-01.",
    );
    assert_eq!(report.count(Survival::Lost), 0, "{report}");
    assert!((report.survival_percent() - 100.0).abs() < f64::EPSILON);
    let text = report.to_string();
    assert!(text.starts_with("Loss report: 4 messages summarized (#1–#4)"), "{text}");
}

#[test]
fn the_report_puts_instructions_first_and_ranks_lost_facts_by_what_matters() {
    let t = transcript();
    let report = loss_report(&t, 1..5, "summarized 4 messages");
    let text = report.to_string();
    let instructions = text.find("User instructions summarized away: 1").expect("instructions");
    let facts = text.find("Facts:").expect("facts");
    assert!(instructions < facts, "instructions come first:\n{text}");
    assert!(text.contains("  #1      ✗ Deploy build 7"), "{text}");
    // What the user said, then the error, then what the command named, then the rest.
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("Lost facts, what matters first"))
        .skip(1)
        .collect();
    let why: Vec<&str> = rows.iter().map(|l| l.split_whitespace().nth(1).expect("why")).collect();
    assert_eq!(why, ["user", "user", "error", "command", "other", "other"], "{text}");
    assert!(rows[3].ends_with("path   ./deploy.sh"), "{text}");
    // Without a summary it is lost; a user who says it again later keeps it.
    assert_eq!(loss_report(&t, 1..2, "").instructions_lost.len(), 1);
    let again = json!([
        {"role": "user", "content": "Deploy build 7 to staging, never to prod."},
        {"role": "assistant", "content": "On it."},
        {"role": "user", "content": "Deploy build 7 to staging, never to prod.\n(again)"}
    ]);
    let t = Transcript::parse("again.json", serde_json::to_vec(&again).expect("json"), None).expect("loads");
    let report = loss_report(&t, 0..2, "");
    assert_eq!(report.instructions.len(), 1);
    assert!(report.instructions_lost.is_empty(), "{report}");
}

#[test]
fn acknowledgements_and_client_markers_are_not_instructions() {
    let messages = json!([
        {"role": "user", "content": "[Request interrupted by user for tool use]"},
        {"role": "user", "content": "Ok."},
        {"role": "user", "content": "Thanks."},
        {"role": "user", "content": "Use the staging database from now on."},
        {"role": "assistant", "content": "Id d1268aa4-6e4a-4835-8ad8-49b99128aa00 noted."},
        {"role": "user", "content": "next"}
    ]);
    let t = Transcript::parse("noise.json", serde_json::to_vec(&messages).expect("json"), None).expect("loads");
    let report = loss_report(&t, 0..5, "");
    let instructions: Vec<usize> = report.instructions.iter().map(|(i, _)| *i).collect();
    assert_eq!(instructions, vec![3]);
    // Identifiers stay whole.
    assert!(report
        .facts
        .iter()
        .any(|(f, _)| f.text == "d1268aa4-6e4a-4835-8ad8-49b99128aa00" && f.kind == FactKind::Identifier));
    assert!(!report.facts.iter().any(|(f, _)| f.text == "d1268aa4-6e4a-4835"));
}

// ---- the CLI --------------------------------------------------------------------------------

#[test]
fn compact_report_and_summarizer_flags() {
    let input = serde_json::to_vec(&serde_json::from_str::<Value>(transcript().text()).expect("json")).expect("json");
    let out = ctxlens_stdin(
        &["compact", "-", "--max-tokens", "10", "--keep-tail", "60", "--report"],
        &input,
    );
    assert_exit(&out, 0);
    assert!(
        stdout(&out).contains("  #1      user    code   deploy.sh\n"),
        "{}",
        stdout(&out)
    );
    let out = ctxlens_stdin(
        &[
            "compact",
            "-",
            "--max-tokens",
            "10",
            "--keep-tail",
            "60",
            "--summarizer",
            "cmd:cat >/dev/null; echo custom digest",
        ],
        &input,
    );
    assert_exit(&out, 0);
    let doc: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc[1]["content"], "[Summary of earlier conversation]\ncustom digest");
    let out = ctxlens_stdin(
        &["compact", "-", "--max-tokens", "10", "--summarizer", "cmd:exit 4"],
        &input,
    );
    assert_exit(&out, 2);
    assert!(
        stderr(&out).starts_with("error: summarizer command `exit 4` failed"),
        "{}",
        stderr(&out)
    );
    assert!(out.stdout.is_empty(), "no half output on failure");
}
