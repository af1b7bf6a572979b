//! The fault campaign's reproducers (kept under `tests/data/reproducers/`), each as a
//! test of the behaviour it now has: no panic, no message lost between summary and
//! tail, no unsafe write, no unbounded summary, no leaked key.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use common::{assert_exit, ctxlens, data, json_stdout, reply, repo, serve_once, stderr, stdout};
use serde_json::Value;

fn reproducer(name: &str) -> PathBuf {
    data().join("reproducers").join(name)
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// Compacts `file` with `args`, writes the result, loads it back, and checks it holds
/// exactly the messages the plan keeps plus the ones it writes: nothing lost, nothing
/// doubled.
fn assert_round_trip(file: &Path, args: &[&str]) {
    let mut plan_args = vec!["compact", path(file), "--plan"];
    plan_args.extend_from_slice(args);
    let plan_out = ctxlens(&plan_args);
    assert_exit(&plan_out, 0);
    let plan = json_stdout(&plan_out);
    let before = json_stdout(&ctxlens(&["stats", path(file), "--json"]))["messages"]
        .as_array()
        .expect("messages")
        .len();
    let flush = args.contains(&"--flush-to-memory");
    let tail = if plan["strategy"].is_string() {
        &plan["tail"]
    } else {
        &plan
    };
    let expected = if tail.is_null() || tail["compacted"] != Value::Bool(true) {
        before
    } else {
        before - tail["summarized"].as_u64().expect("summarized") as usize + 1 + usize::from(flush)
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let mut write_args = vec!["compact", path(file), "-o", path(&out), "--artifacts"];
    let store = dir.path().join("store");
    write_args.push(path(&store));
    write_args.extend_from_slice(args);
    assert_exit(&ctxlens(&write_args), 0);
    let format = args.iter().position(|a| *a == "--format").map(|k| args[k + 1]);
    let mut stats_args = vec!["stats", path(&out), "--json"];
    if let Some(f) = format {
        stats_args.extend(["--format", f]);
    }
    let after = ctxlens(&stats_args);
    assert_exit(&after, 0);
    let count = json_stdout(&after)["messages"].as_array().expect("messages").len();
    assert_eq!(
        count,
        expected,
        "{} {args:?}: the output holds the kept and the new messages",
        file.display()
    );
}

#[test]
fn a_lone_surrogate_never_panics() {
    for name in ["lone-surrogate.json", "lone-surrogate-long.json"] {
        for strategy in ["tail", "deterministic", "deterministic,tail"] {
            for extra in [&[][..], &["--subjective-edits"][..]] {
                let mut args = vec!["--max-tokens", "1", "--strategy", strategy];
                args.extend_from_slice(extra);
                assert_round_trip(&reproducer(name), &args);
            }
        }
    }
}

/// Found by the round-trip fuzzer: records naming parents the file never holds (and a
/// uuid written twice). The output, whose kept records keep their own parents, loads back
/// with the kept messages and the summary: the last record leads back through the ones
/// before it, in the input and in the output alike.
#[test]
fn a_claude_code_log_naming_unwritten_parents_round_trips() {
    let log = reproducer("claude-code-unwritten-parents.jsonl");
    for max in ["1", "17", "40"] {
        for keep in ["0", "9", "30"] {
            assert_round_trip(
                &log,
                &["--max-tokens", max, "--keep-tail", keep, "--summary-role", "system"],
            );
        }
    }
}

#[test]
fn a_claude_code_log_out_of_parent_order_loses_nothing() {
    let log = reproducer("claude-code-unordered.jsonl");
    for strategy in ["tail", "deterministic", "deterministic,tail"] {
        for max in ["1000", "20000"] {
            assert_round_trip(&log, &["--max-tokens", max, "--strategy", strategy]);
        }
    }
}

#[test]
fn summary_timeouts_are_positive_finite_and_bounded() {
    let sample = repo().join("sample-transcripts/support-agent.json");
    for bad in [
        "1e19",
        "inf",
        "1e30",
        "18446744073709551616",
        "NaN",
        "0",
        "86401",
        "-1",
        "abc",
    ] {
        let arg = format!("--summary-timeout={bad}");
        let out = ctxlens(&["compact", path(&sample), "--max-tokens", "100", &arg]);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("summary-timeout"), "{bad}: {}", stderr(&out));
        assert!(!stderr(&out).contains("panicked"));
    }
    let out = ctxlens(&[
        "compact",
        path(&sample),
        "--max-tokens",
        "100",
        "--summary-timeout",
        "2.5",
        "--summarizer",
        "cmd:echo fine",
    ]);
    assert_exit(&out, 0);
}

#[test]
fn numeric_call_and_result_ids_pair() {
    let file = reproducer("numeric-tool-call-id.json");
    let stats = json_stdout(&ctxlens(&["stats", path(&file), "--json"]));
    assert_eq!(stats["messages"][2]["tool_results"], serde_json::json!(["5"]));
    assert_exit(&ctxlens(&["check", path(&file)]), 0);
}

#[test]
fn openhands_events_as_jsonl_round_trip() {
    let file = reproducer("openhands-events.jsonl");
    assert_round_trip(
        &file,
        &["--format", "openhands", "--max-tokens", "50", "--keep-tail", "100"],
    );
    assert_round_trip(&file, &["--max-tokens", "50", "--keep-tail", "100"]);
}

/// Runs the binary; fails if it takes longer than `limit` (a hung summarizer).
fn run_within(limit: Duration, args: &[&str]) -> std::process::Output {
    let start = Instant::now();
    let out = ctxlens(args);
    assert!(start.elapsed() < limit, "{args:?} took {:?}", start.elapsed());
    out
}

#[test]
fn a_command_summarizer_is_bounded_in_time_size_and_processes() {
    let sample = repo().join("sample-transcripts/support-agent.json");
    let base = ["compact", path(&sample), "--max-tokens", "100"];
    // A background child holding standard output open cannot stretch the wait: the
    // summary is what the command printed before it exited.
    let out = run_within(
        Duration::from_secs(15),
        &[
            &base[..],
            &["--summary-timeout", "2", "--summarizer", "cmd:sleep 20 & echo s"],
        ]
        .concat(),
    );
    assert_exit(&out, 0);
    assert!(
        stdout(&out).contains(r"[Summary of earlier conversation]\ns"),
        "{}",
        stdout(&out)
    );
    // The whole process group goes when the command exits, and when it times out: the
    // background work never finishes.
    let dir = tempfile::tempdir().expect("temp dir");
    for (line, timeout, code) in [
        ("({sleep 3; touch MARK}) & echo s", "10", 0),
        ("({sleep 3; touch MARK}) & sleep 30", "1", 2),
    ] {
        let marker = dir.path().join(format!("still-running-{code}"));
        let line = format!(
            "cmd:{}",
            line.replace("{sleep 3; touch MARK}", &format!("sleep 3; touch {}", marker.display()))
        );
        let out = run_within(
            Duration::from_secs(15),
            &[&base[..], &["--summary-timeout", timeout, "--summarizer", &line]].concat(),
        );
        assert_exit(&out, code);
        if code == 2 {
            assert!(stderr(&out).contains("timed out"), "{}", stderr(&out));
        }
        std::thread::sleep(Duration::from_secs(4));
        assert!(
            !marker.exists(),
            "{line}: the command's background child was killed with it"
        );
    }
    // An endless answer stops at the bound, as an error naming the command.
    let out = run_within(
        Duration::from_secs(15),
        &[&base[..], &["--summarizer", "cmd:yes"]].concat(),
    );
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("cmd:yes") || stderr(&out).contains("yes"),
        "{}",
        stderr(&out)
    );
    assert!(stdout(&out).is_empty(), "nothing written");
    // The API keys are not inherited.
    let out = Command::new(env!("CARGO_BIN_EXE_ctxlens"))
        .args(base)
        .args([
            "--summarizer",
            "cmd:echo \"${CTXLENS_API_KEY:-no-key}-${OPENAI_API_KEY:-no-key}\"",
        ])
        .env("CTXLENS_API_KEY", "sk-secret-1")
        .env("OPENAI_API_KEY", "sk-secret-2")
        .output()
        .expect("runs");
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(text.contains("no-key-no-key") && !text.contains("sk-secret"), "{text}");
}

#[test]
fn an_http_summarizer_never_leaks_the_key_nor_follows_redirects() {
    let sample = repo().join("sample-transcripts/support-agent.json");
    let secret = "sk-test-0123456789abcdef";
    // A server that echoes the Authorization header in its error.
    let (url, requests) = serve_once(|s| {
        reply(
            s,
            "401 Unauthorized",
            r#"{"error":"bad key: Bearer sk-test-0123456789abcdef (Authorization: Bearer sk-test-0123456789abcdef)"}"#,
        );
    });
    // `compact` with the OpenAI summarizer pointed at `url`, the key in the environment.
    let compact_against = |url: &str| {
        Command::new(env!("CARGO_BIN_EXE_ctxlens"))
            .args([
                "compact",
                path(&sample),
                "--max-tokens",
                "100",
                "--summarizer",
                "openai",
            ])
            .args(["--summarizer-url", url])
            .env("CTXLENS_API_KEY", secret)
            .output()
            .expect("runs")
    };
    let out = compact_against(&url);
    assert_exit(&out, 2);
    let (head, _) = requests.recv_timeout(Duration::from_secs(10)).expect("the request");
    assert!(head.contains(secret), "the key was sent to the server");
    assert!(!stderr(&out).contains(secret), "the key never shows: {}", stderr(&out));
    assert!(stderr(&out).contains("401"), "{}", stderr(&out));
    // A redirect is not followed; the error says so.
    for status in ["302 Found", "307 Temporary Redirect", "308 Permanent Redirect"] {
        let (url, _) = serve_once(move |s| {
            let _ = std::io::Write::write_all(
                s,
                format!("HTTP/1.1 {status}\r\nLocation: http://127.0.0.1:9/v1/chat/completions\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").as_bytes(),
            );
        });
        let out = compact_against(&url);
        assert_exit(&out, 2);
        assert!(stderr(&out).contains("redirect"), "{status}: {}", stderr(&out));
    }
}

#[cfg(unix)]
#[test]
fn outputs_must_be_regular_files_and_never_the_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in.json");
    std::fs::copy(repo().join("sample-transcripts/support-agent.json"), &input).expect("copy");
    let original = std::fs::read(&input).expect("read");
    let args = |out: &Path| -> Vec<String> {
        ["compact", path(&input), "--max-tokens", "1000", "-o", path(out)]
            .iter()
            .map(|s| (*s).to_owned())
            .collect()
    };
    let run = |out: &Path| {
        let a = args(out);
        ctxlens(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    // A character device.
    let out = run(Path::new("/dev/null"));
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("character device"), "{}", stderr(&out));
    // A FIFO.
    let fifo = dir.path().join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().expect("mkfifo").success());
    let out = run(&fifo);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("FIFO"), "{}", stderr(&out));
    // A symlink to the input, and a hard link to it: both are the input.
    let link = dir.path().join("link.json");
    std::os::unix::fs::symlink(&input, &link).expect("symlink");
    assert_exit(&run(&link), 2);
    let hard = dir.path().join("hard.json");
    std::fs::hard_link(&input, &hard).expect("hard link");
    let out = run(&hard);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("input"), "{}", stderr(&out));
    assert_eq!(std::fs::read(&input).expect("read"), original, "the input is untouched");
    assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    // A symlink to a new regular file is written through, and stays a symlink.
    let target = dir.path().join("target.json");
    std::fs::write(&target, "old").expect("write");
    let to_target = dir.path().join("to-target.json");
    std::os::unix::fs::symlink(&target, &to_target).expect("symlink");
    assert_exit(&run(&to_target), 0);
    assert!(std::fs::symlink_metadata(&to_target)
        .expect("link")
        .file_type()
        .is_symlink());
    assert!(std::fs::read_to_string(&target)
        .expect("read")
        .contains("Summary of earlier conversation"));
}

#[test]
fn artifacts_are_verified_and_never_left_behind_a_refused_write() {
    let file = reproducer("big-tool-output.json");
    let dir = tempfile::tempdir().expect("temp dir");
    let store = dir.path().join("store");
    let out = dir.path().join("out.json");
    let args = |out: &Path| {
        vec![
            "compact".to_owned(),
            path(&file).to_owned(),
            "--max-tokens".into(),
            "1".into(),
            "--strategy".into(),
            "deterministic".into(),
            "--externalize-over".into(),
            "2048".into(),
            "--artifacts".into(),
            path(&store).to_owned(),
            "-o".into(),
            path(out).to_owned(),
        ]
    };
    let run = |out: &Path| {
        let a = args(out);
        ctxlens(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    assert_exit(&run(&out), 0);
    let stored: Vec<PathBuf> = std::fs::read_dir(&store)
        .expect("store")
        .map(|e| e.expect("entry").path())
        .collect();
    assert_eq!(stored.len(), 1, "one output externalized");
    let good = std::fs::read(&stored[0]).expect("artifact");
    // Tampered: same name, other content. Not trusted: it is written again, right.
    std::fs::write(&stored[0], "not what was stored").expect("tamper");
    let again = dir.path().join("again.json");
    assert_exit(&run(&again), 0);
    assert_eq!(
        std::fs::read(&stored[0]).expect("artifact"),
        good,
        "the artifact holds the output again"
    );
    let name = stored[0].file_name().expect("name").to_string_lossy().into_owned();
    assert_eq!(
        ctxlens::compact::deterministic::content_name(&String::from_utf8(good).expect("text")),
        name
    );
    std::fs::remove_file(&again).expect("remove");
    // A directory where the artifact should be: an error, and no output.
    std::fs::remove_file(&stored[0]).expect("remove");
    std::fs::create_dir(&stored[0]).expect("mkdir");
    let refused = run(&again);
    assert_exit(&refused, 2);
    assert!(stderr(&refused).contains("not a file"), "{}", stderr(&refused));
    assert!(!again.exists());
    std::fs::remove_dir(&stored[0]).expect("rmdir");
    // An output that cannot be written leaves no artifact behind.
    let fresh_store = dir.path().join("fresh");
    let refused = ctxlens(&[
        "compact",
        path(&file),
        "--max-tokens",
        "1",
        "--strategy",
        "deterministic",
        "--artifacts",
        path(&fresh_store),
        "-o",
        "/dev/null",
    ]);
    assert_exit(&refused, 2);
    let left = std::fs::read_dir(&fresh_store).map_or(0, Iterator::count);
    assert_eq!(left, 0, "no artifact written for a refused output");
}

#[cfg(unix)]
#[test]
fn a_signal_during_a_write_leaves_no_temporary_file() {
    // A large input written slowly enough to be interrupted: a 100k-message transcript.
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("big.json");
    std::fs::write(&input, ctxlens::synth::openai_transcript(100_000)).expect("write");
    for signal in ["-TERM", "-INT", "-HUP"] {
        let out_dir = tempfile::tempdir().expect("temp dir");
        let out = out_dir.path().join("out.json");
        let mut child = Command::new(env!("CARGO_BIN_EXE_ctxlens"))
            .args(["compact", path(&input), "--max-tokens", "999999999", "-o", path(&out)])
            .spawn()
            .expect("spawn");
        // Wait for the temporary file to appear, then signal.
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let temp = std::fs::read_dir(out_dir.path())
                .expect("dir")
                .any(|e| e.expect("entry").file_name().to_string_lossy().contains(".tmp"));
            if temp || child.try_wait().expect("wait").is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        let _ = Command::new("kill").args([signal, &child.id().to_string()]).status();
        let status = child.wait().expect("exit");
        let left: Vec<String> = std::fs::read_dir(out_dir.path())
            .expect("dir")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".tmp"))
            .collect();
        assert!(left.is_empty(), "{signal}: temporary files left: {left:?}");
        // Either it finished first (a whole output) or it stopped (no output at all).
        if out.exists() {
            assert!(status.success());
            assert_eq!(std::fs::read(&out).expect("read"), std::fs::read(&input).expect("read"));
        }
    }
}

// ---- issue 19: the second fault campaign -----------------------------------------------

#[test]
fn an_image_payload_that_is_not_base64_has_an_unknown_size_and_no_panic() {
    let file = reproducer("image-payload-not-base64.json");
    for tokenizer in [
        "estimate",
        "estimate-codepoints",
        "estimate-utf8",
        "cl100k",
        "o200k",
        "provider",
    ] {
        for args in [
            &["stats", path(&file), "--tokenizer", tokenizer][..],
            &["stats", path(&file), "--by", "kind", "--tokenizer", tokenizer][..],
            &[
                "compact",
                path(&file),
                "--plan",
                "--max-tokens",
                "10",
                "--tokenizer",
                tokenizer,
            ][..],
        ] {
            let out = ctxlens(args);
            assert_exit(&out, 0);
            assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
        }
    }
    // The estimator's count is flagged as far from the provider's, the size as unknown.
    let plan = json_stdout(&ctxlens(&["compact", path(&file), "--plan", "--max-tokens", "10"]));
    assert!(plan["messages"][0]["provider_tokens"].is_u64(), "{plan}");
    let out = ctxlens(&["stats", path(&file)]);
    assert!(stdout(&out).contains("size unknown"), "{}", stdout(&out));
}

/// Every count the `stats --json` rows give, and their running totals never going down.
fn assert_counts_bounded_and_monotone(file: &Path, tokenizer: &str, bound: u64) {
    let stats = json_stdout(&ctxlens(&["stats", path(file), "--json", "--tokenizer", tokenizer]));
    let rows = stats["messages"].as_array().expect("rows");
    let mut running = 0u64;
    for row in rows {
        let cumulative = row["cumulative"].as_u64().expect("cumulative");
        assert!(cumulative >= running, "{tokenizer}: the running total went down: {row}");
        running = cumulative;
    }
    assert!(running <= bound, "{tokenizer}: {running} tokens for {}", file.display());
}

#[test]
fn forged_image_and_page_headers_bill_at_most_what_a_provider_can() {
    // 2,000 PNG headers claiming 4294967295×4294967295: each is billed at most what one
    // image can cost (OpenAI 1,445, Anthropic 4,784, Gemini 16 tiles), never 8e15.
    let images = reproducer("forged-image-headers.json");
    for tokenizer in ["cl100k", "o200k", "provider"] {
        assert_counts_bounded_and_monotone(&images, tokenizer, 2_000 * 5_000 + 10_000);
    }
    // A budget beyond every total still reads as one: the plan is not compacted.
    let plan = json_stdout(&ctxlens(&[
        "compact",
        path(&images),
        "--plan",
        "--tokenizer",
        "provider",
        "--max-tokens",
        "9000000000000000000",
    ]));
    assert_eq!(plan["compacted"], Value::Bool(false), "{}", plan["tokens_before"]);
    // `/Count 4294967295` is capped at the most pages a provider accepts in one request.
    let pdf = reproducer("forged-pdf-page-count.json");
    for tokenizer in ["cl100k", "provider"] {
        assert_counts_bounded_and_monotone(&pdf, tokenizer, 600 * 2_250 + 1_000);
    }
}

#[test]
fn recorded_usage_at_the_largest_number_is_left_out() {
    let file = reproducer("claude-code-usage-at-u64-max.jsonl");
    for command in [
        &["stats", path(&file)][..],
        &["history", path(&file)][..],
        &["scan", path(&file)][..],
    ] {
        let out = ctxlens(command);
        assert_exit(&out, 0);
        assert!(!stderr(&out).contains("panicked"), "{command:?}: {}", stderr(&out));
    }
    // A usage no provider could bill is left out (it used to saturate every sum it
    // reached), and said.
    let row: Value = serde_json::from_str(stdout(&ctxlens(&["scan", path(&file), "--json"])).trim()).expect("a row");
    assert!(
        row["recorded_peak"].as_u64().is_none_or(|peak| peak < 100_000_000),
        "{row}"
    );
    assert!(stdout(&ctxlens(&["stats", path(&file)])).contains("cannot be real"));
}

#[test]
fn a_codex_compaction_after_an_event_prompt_keeps_every_replacement_item() {
    let file = reproducer("codex-compacted-after-event-prompt.jsonl");
    let stats = json_stdout(&ctxlens(&["stats", path(&file), "--json"]));
    let roles: Vec<&str> = stats["messages"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|m| m["role"].as_str().expect("role"))
        .collect();
    // The three items of the replacement history, then the prompt once, then the answer.
    assert_eq!(roles, ["user", "user", "user", "user", "assistant"]);
    let table = stdout(&ctxlens(&["stats", path(&file)]));
    let order: Vec<usize> = [
        "Rename the config loader.",
        "Keep the old name as a deprecated alias.",
        "Summary: the loader was renamed",
        "Now add a test for it.",
        "Added tests/settings.rs.",
    ]
    .iter()
    .map(|text| {
        table
            .find(text)
            .unwrap_or_else(|| panic!("{text} is missing:\n{table}"))
    })
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{table}");
    assert_eq!(table.matches("Now add a test for it.").count(), 1, "{table}");
    assert_round_trip(&file, &["--max-tokens", "60", "--keep-tail", "40"]);
}

#[test]
fn a_codex_rollout_is_recognised_when_it_opens_with_a_compaction() {
    let file = reproducer("codex-first-record-compacted.jsonl");
    let stats = json_stdout(&ctxlens(&["stats", path(&file), "--json"]));
    assert_eq!(stats["format"], "codex", "{}", stats["format"]);
    // Without timestamps (an older or hand-cut log) the record types still say Codex.
    let dir = tempfile::tempdir().expect("temp dir");
    let bare = dir.path().join("bare.jsonl");
    let text = std::fs::read_to_string(&file).expect("read");
    let stripped: String = text
        .lines()
        .map(|line| {
            let mut record: serde_json::Map<String, Value> = serde_json::from_str(line).expect("record");
            record.remove("timestamp");
            Value::Object(record).to_string() + "\n"
        })
        .collect();
    std::fs::write(&bare, stripped).expect("write");
    let stats = json_stdout(&ctxlens(&["stats", path(&bare), "--json"]));
    assert_eq!(stats["format"], "codex");
}

/// Runs the binary, killing it if it outlives `limit` (a hang is a failure, not a stuck CI).
fn run_bounded(limit: Duration, args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxlens"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let deadline = Instant::now() + limit;
    while child.try_wait().expect("wait").is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("{args:?} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

#[cfg(unix)]
#[test]
fn scan_never_blocks_on_a_fifo_nor_loops_through_links() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    let sample = repo().join("sample-transcripts/support-agent.json");
    std::fs::create_dir(root.join("sub")).expect("mkdir");
    std::fs::copy(&sample, root.join("a.json")).expect("copy");
    std::fs::copy(&sample, root.join("sub/b.json")).expect("copy");
    std::os::unix::fs::symlink("..", root.join("sub/loop")).expect("link");
    std::os::unix::fs::symlink("a.json", root.join("alias.json")).expect("link");
    assert!(Command::new("mkfifo")
        .arg(root.join("pipe.jsonl"))
        .status()
        .expect("mkfifo")
        .success());
    let r = |p: &str| root.join(p).display().to_string();
    // (the command, whether it names or matches the FIFO)
    for (args, named_fifo) in [
        (vec!["scan".to_owned(), r("*"), "--json".to_owned()], true),
        (vec!["scan".to_owned(), r("**/*.json"), "--json".to_owned()], false),
        (
            vec!["scan".to_owned(), r("pipe.jsonl"), r("a.json"), "--json".to_owned()],
            true,
        ),
        (vec!["scan".to_owned(), r(""), "--json".to_owned()], true),
    ] {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = run_bounded(Duration::from_secs(30), &args);
        assert_exit(&out, 0);
        let rows: Vec<Value> = stdout(&out)
            .lines()
            .map(|l| serde_json::from_str(l).expect("a JSON row"))
            .collect();
        let sessions: Vec<&Value> = rows.iter().filter(|r| r["error"].is_null()).collect();
        // Each file once, whatever the links: a.json (alias.json is the same file), and
        // sub/b.json when the pattern reaches it.
        let mut paths: Vec<String> = sessions
            .iter()
            .map(|r| r["path"].as_str().expect("path").to_owned())
            .collect();
        let before = paths.len();
        paths.sort();
        paths.dedup();
        assert_eq!(paths.len(), before, "{args:?}: a session counted twice: {paths:?}");
        assert!(paths.len() <= 2, "{args:?}: {paths:?}");
        // Nothing passed over unsaid: the FIFO is an error row whenever it was named
        // or matched.
        if named_fifo {
            assert!(
                rows.iter()
                    .any(|r| r["path"].as_str().is_some_and(|p| p.ends_with("pipe.jsonl")) && r["error"].is_string()),
                "{args:?}: {rows:?}"
            );
        }
        assert!(stderr(&out).contains("skipped") || !named_fifo, "{}", stderr(&out));
    }
}

#[cfg(unix)]
#[test]
fn scan_rows_stream_before_the_scan_ends() {
    // A slow file cannot hold back a row that is finished: the FIFO's error row is
    // written (and flushed to the pipe) before the scan of a large file is done.
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("big.json"), ctxlens::synth::openai_transcript(100_000)).expect("write");
    assert!(Command::new("mkfifo")
        .arg(dir.path().join("pipe.jsonl"))
        .status()
        .expect("mkfifo")
        .success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxlens"))
        .args([
            "scan",
            &dir.path().join("pipe.jsonl").display().to_string(),
            &dir.path().join("big.json").display().to_string(),
            "--json",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.as_mut().expect("stdout")),
        &mut first,
    )
    .expect("a line");
    let still_running = child.try_wait().expect("wait").is_none();
    let _ = child.wait();
    assert!(first.contains("pipe.jsonl") && first.contains("FIFO"), "{first}");
    assert!(still_running, "the first row came only after the whole scan");
}

#[cfg(unix)]
#[test]
fn a_signal_kills_every_summarizer_command_it_started() {
    let sample = repo().join("sample-transcripts/support-agent.json");
    // SIGKILL runs no code of ctxlens: the command's watchdog kills it.
    for (command, signal) in [
        ("replay", "-TERM"),
        ("sweep", "-INT"),
        ("compact", "-HUP"),
        ("replay", "-KILL"),
    ] {
        let dir = tempfile::tempdir().expect("temp dir");
        let pids = dir.path().join("pids");
        // Each run of the command appends its process id, then sleeps far longer than
        // the test waits.
        let summarizer = format!("cmd:echo $$ >> '{}'; sleep 120", pids.display());
        let mut args = vec![command, path(&sample), "--summarizer", &summarizer];
        let out = dir.path().join("out.json");
        match command {
            "sweep" => args.extend(["--max-tokens", "600,900"]),
            "compact" => args.extend(["--max-tokens", "600", "-o", path(&out)]),
            _ => args.extend(["--max-tokens", "600"]),
        }
        let mut child = Command::new(env!("CARGO_BIN_EXE_ctxlens"))
            .args(&args)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        let deadline = Instant::now() + Duration::from_secs(30);
        while !std::fs::read_to_string(&pids).is_ok_and(|t| !t.trim().is_empty()) {
            assert!(Instant::now() < deadline, "{command}: the summarizer never started");
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = Command::new("kill").args([signal, &child.id().to_string()]).status();
        let status = child.wait().expect("exit");
        assert!(!status.success(), "{command}: stopped by the signal");
        std::thread::sleep(Duration::from_millis(200));
        for pid in std::fs::read_to_string(&pids).expect("pids").split_whitespace() {
            assert!(
                !running(pid),
                "{command} {signal}: summarizer process {pid} outlived ctxlens"
            );
        }
    }
}

/// Whether process `pid` still runs (a zombie waiting for a parent that no longer
/// exists has stopped: in a container, nothing may reap it).
#[cfg(unix)]
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .is_ok_and(|stat| stat.rsplit_once(") ").is_some_and(|(_, rest)| !rest.starts_with('Z')))
}

#[test]
fn a_settings_file_found_implicitly_never_runs_a_command() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sample = repo().join("sample-transcripts/support-agent.json");
    let marker = dir.path().join("ran");
    std::fs::write(
        dir.path().join(".ctxlens.toml"),
        format!(
            "summarizer = \"cmd:touch '{}'; echo summary\"\nmax_tokens = 600\n",
            marker.display()
        ),
    )
    .expect("write");
    let run = |extra: &[&str]| {
        let mut args = vec!["compact", path(&sample), "-o", "out.json"];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_ctxlens"))
            .args(&args)
            .current_dir(dir.path())
            .output()
            .expect("runs")
    };
    let out = run(&[]);
    assert_exit(&out, 0);
    assert!(!marker.exists(), "the implicit file ran its command");
    let err = stderr(&out);
    assert!(err.contains("settings from .ctxlens.toml"), "{err}");
    assert!(err.contains("runs a program") && err.contains("--config"), "{err}");
    // Named explicitly, the same file is trusted.
    let out = run(&["--config", ".ctxlens.toml"]);
    assert_exit(&out, 0);
    assert!(marker.exists(), "an explicit --config runs its summarizer");
}

#[cfg(unix)]
#[test]
fn unbounded_work_is_refused_at_once() {
    let sample = repo().join("sample-transcripts/support-agent.json");
    // A settings file that never ends is read up to a bound, then refused.
    let out = run_bounded(
        Duration::from_secs(20),
        &["stats", path(&sample), "--config", "/dev/urandom"],
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("/dev/urandom"), "{}", stderr(&out));
    // A cross product of budgets and tails past the limit, before anything runs.
    let tails: Vec<String> = (1..=20).map(|k| (k * 10).to_string()).collect();
    let out = run_bounded(
        Duration::from_secs(20),
        &[
            "sweep",
            path(&sample),
            "--max-tokens",
            "100..1000:10",
            "--keep-tail",
            &tails.join(","),
        ],
    );
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("at most 1000"), "{}", stderr(&out));
    // A long list alone, too.
    let budgets: Vec<String> = (1..=1001).map(|k| k.to_string()).collect();
    let out = run_bounded(
        Duration::from_secs(20),
        &["sweep", path(&sample), "--max-tokens", &budgets.join(",")],
    );
    assert_exit(&out, 2);
    // A range to the largest number: the budgets past the session are one row.
    let out = run_bounded(
        Duration::from_secs(60),
        &[
            "sweep",
            path(&sample),
            "--max-tokens",
            "1..18446744073709551615",
            "--json",
        ],
    );
    assert_exit(&out, 0);
    let rows = json_stdout(&out)["settings"].as_array().expect("settings").len();
    assert_eq!(rows, 2, "one budget below the session's total, one past it");
    // A timeout too short for any program to answer.
    let out = ctxlens(&[
        "compact",
        path(&sample),
        "--max-tokens",
        "100",
        "--summary-timeout",
        "1e-300",
    ]);
    assert_exit(&out, 2);
}

#[test]
fn a_codex_event_prompt_after_a_compaction_is_a_new_turn_and_round_trips() {
    // Found by the round-trip fuzz target: a `compacted` record (here without a
    // replacement history) ends an event prompt's wait for the response item repeating
    // it, so the item after the compaction and the event after that are each a turn of
    // their own, and a compacted output, which leaves the record out, reloads with
    // exactly the kept messages plus the summary.
    let file = reproducer("codex-compaction-without-replacement.jsonl");
    let table = stdout(&ctxlens(&["stats", path(&file)]));
    assert_eq!(table.matches("Now add a test for it.").count(), 3, "{table}");
    assert!(table.contains("user·event"), "{table}");
    for max in ["1", "10", "30", "60"] {
        assert_round_trip(&file, &["--max-tokens", max]);
    }
}

#[test]
fn codex_event_prompts_in_a_kept_tail_are_written_once() {
    // Found by the round-trip fuzz target: an event prompt is synthetic like an item of
    // an earlier replacement history, but its event is its own record; taking it for a
    // replacement item wrote it twice (into the new replacement history and as its event).
    let file = reproducer("codex-event-prompts-in-the-kept-tail.jsonl");
    for args in [
        &["--max-tokens", "30", "--keep-tail", "60", "--flush-to-memory"][..],
        &["--max-tokens", "30", "--keep-tail", "60"][..],
        &["--max-tokens", "1", "--flush-to-memory"][..],
        &["--max-tokens", "30", "--keep-tail", "0"][..],
    ] {
        assert_round_trip(&file, args);
    }
}

#[test]
fn a_codex_prompt_repeated_across_a_compaction_round_trips() {
    // Found by the round-trip fuzz target: an event prompt is the same prompt as a
    // response item only when that item is the message just before it; a look further
    // back reached a kept copy of an earlier turn's prompt once the compaction between
    // them was summarized away.
    let file = reproducer("codex-repeated-prompt-across-a-compaction.jsonl");
    for args in [
        &["--max-tokens", "60", "--keep-tail", "80"][..],
        &["--max-tokens", "1"][..],
        &["--max-tokens", "60", "--keep-tail", "30", "--flush-to-memory"][..],
    ] {
        assert_round_trip(&file, args);
    }
}

#[test]
fn a_log_whose_last_line_is_still_being_written_opens() {
    // A live session: the client is half-way through writing its last record.
    let full =
        std::fs::read_to_string(data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl"))
            .expect("read");
    let last_start = full.trim_end().rfind('\n').expect("several lines") + 1;
    let cut = last_start + (full.len() - last_start) / 2;
    let dir = tempfile::tempdir().expect("temp dir");
    let live = dir.path().join("live.jsonl");
    std::fs::write(&live, &full[..cut]).expect("write");
    let out = ctxlens(&["stats", path(&live)]);
    assert_exit(&out, 0);
    let text = stdout(&out);
    assert!(text.contains("still being written"), "{text}");
    // The complete records are all read: the same messages as the file without that line.
    let whole = dir.path().join("complete.jsonl");
    std::fs::write(&whole, &full[..last_start]).expect("write");
    let count = |f: &Path| {
        json_stdout(&ctxlens(&["stats", path(f), "--json"]))["messages"]
            .as_array()
            .expect("rows")
            .len()
    };
    assert_eq!(count(&live), count(&whole));
    // A broken line that is not the last one is still an error naming its place.
    let broken = dir.path().join("broken.jsonl");
    std::fs::write(&broken, format!("{}\n{}", &full[..cut], &full[last_start..])).expect("write");
    let out = ctxlens(&["stats", path(&broken)]);
    assert_exit(&out, 2);
    assert!(stderr(&out).contains("broken.jsonl:"), "{}", stderr(&out));
}

#[test]
fn a_codex_response_item_after_a_compaction_record_is_a_new_turn() {
    // Found by CI's round-trip fuzzing: an event prompt, a `compacted` record, then a
    // response item with the same prompt. The item used to replace the event across the
    // compaction; a compacted output (which leaves that record out) then read it as the
    // same prompt logged twice. A compaction ends the wait for the repeating item.
    let file = reproducer("codex-item-after-a-compaction-record.jsonl");
    for args in [
        &["--max-tokens", "60", "--keep-tail", "80"][..],
        &["--max-tokens", "1", "--flush-to-memory"][..],
        &["--max-tokens", "20", "--keep-tail", "25"][..],
    ] {
        assert_round_trip(&file, args);
    }
}
