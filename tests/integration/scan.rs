//! `ctxlens scan`: one row per session, streamed; errors as rows; CSV and JSON Lines;
//! with settings, each session's replay.

use crate::common;

use common::{assert_exit, ctxlens, data, stdout};
use serde_json::Value;

#[test]
fn every_session_is_a_row_and_a_broken_file_is_one_error_row() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (k, (extension, text)) in [
        ctxlens::synth::session(0, 40, true, 1),
        ctxlens::synth::session(1, 30, false, 2),
        ctxlens::synth::session(2, 25, false, 3),
    ]
    .into_iter()
    .enumerate()
    {
        std::fs::write(dir.path().join(format!("s{k}.{extension}")), text).expect("write");
    }
    let nested = dir.path().join("deeper/still");
    std::fs::create_dir_all(&nested).expect("mkdir");
    std::fs::write(nested.join("broken.json"), "[{\"role\": \"user\", \"content\": ").expect("write");
    std::fs::write(nested.join("notes.txt"), "not a session").expect("write");
    let path = dir.path().to_str().expect("UTF-8");
    let out = ctxlens(&["scan", path, "--json", "--max-tokens", "500"]);
    assert_exit(&out, 0);
    let rows: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    assert_eq!(rows.len(), 4, "three sessions and one error; the .txt is not a session");
    let errors: Vec<&Value> = rows.iter().filter(|r| r.get("error").is_some()).collect();
    assert_eq!(errors.len(), 1);
    assert!(errors[0]["path"].as_str().unwrap().ends_with("broken.json"));
    assert!(errors[0]["error"].as_str().unwrap().contains("truncated JSON"));
    let log = rows
        .iter()
        .find(|r| r["format"] == "claude-code")
        .expect("the Claude Code session");
    assert_eq!(log["compactions"], 1);
    assert_eq!(log["project"], "/home/dev/project-1");
    assert!(log["recorded_peak"].as_u64().unwrap() > 0);
    // The row's figures are what the other commands say of the same file.
    let file = log["path"].as_str().unwrap();
    let history = common::json_stdout(&ctxlens(&["history", file, "--json"]));
    assert_eq!(history["messages"], log["messages"]);
    let replay = common::json_stdout(&ctxlens(&[
        "replay",
        file,
        "--max-tokens",
        "500",
        "--summarizer",
        "placeholder",
        "--json",
    ]));
    assert_eq!(
        replay["firings"].as_array().unwrap().len() as u64,
        log["firings"].as_u64().unwrap()
    );
    assert_eq!(replay["loops"], log["loops"]);
    // CSV: a header and a line per file; the table ends with a summary.
    let csv = stdout(&ctxlens(&["scan", path, "--csv"]));
    assert_eq!(csv.lines().count(), 5);
    let table = stdout(&ctxlens(&["scan", path]));
    assert!(table.contains("4 sessions scanned (1 failed to load)"), "{table}");
}

#[test]
fn scan_takes_quoted_globs_and_real_transcripts() {
    let pattern = format!("{}/real-transcripts/*/*.jsonl", data().display());
    let out = ctxlens(&["scan", &pattern, "--json"]);
    assert_exit(&out, 0);
    let rows = stdout(&out).lines().count();
    let expected = std::fs::read_dir(data().join("real-transcripts"))
        .unwrap()
        .filter_map(Result::ok)
        .filter(|d| d.path().is_dir())
        .flat_map(|d| std::fs::read_dir(d.path()).unwrap().filter_map(Result::ok))
        .filter(|f| f.path().extension().is_some_and(|e| e == "jsonl"))
        .count();
    assert_eq!(rows, expected);
    let none = ctxlens(&["scan", "/nonexistent/*.jsonl"]);
    assert_exit(&none, 2);
}

#[test]
fn a_folder_without_a_terminal_prints_the_scan_table() {
    let dir = data().join("real-transcripts");
    let dir = dir.to_str().expect("UTF-8 path");
    let opened = ctxlens(&[dir]);
    assert_exit(&opened, 0);
    let scanned = ctxlens(&["scan", dir]);
    // Rows arrive as files finish, so compare them as sets.
    let mut a: Vec<String> = stdout(&opened).lines().map(str::to_owned).collect();
    let mut b: Vec<String> = stdout(&scanned).lines().map(str::to_owned).collect();
    a.sort();
    b.sort();
    assert_eq!(a, b);
    let rows = stdout(&ctxlens(&["scan", dir, "--json"])).lines().count();
    let summary = format!("{rows} sessions scanned (0 failed to load)");
    assert!(stdout(&opened).contains(&summary), "{}", stdout(&opened));
}

#[test]
fn rows_come_in_path_order_every_run_and_standard_input_has_no_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Sizes that finish out of order: the largest first in path order.
    for (k, messages) in [(0, 3000), (1, 10), (2, 800), (3, 40), (4, 1500), (5, 5)] {
        let (extension, text) = ctxlens::synth::session(k % 3, messages, false, k as u64 + 11);
        std::fs::write(dir.path().join(format!("s{k}.{extension}")), text).expect("write");
    }
    let path = dir.path().to_str().expect("UTF-8");
    let paths = |out: &std::process::Output| -> Vec<String> {
        stdout(out)
            .lines()
            .map(|l| {
                serde_json::from_str::<Value>(l).expect("a row")["path"]
                    .as_str()
                    .expect("path")
                    .to_owned()
            })
            .collect()
    };
    let first = paths(&ctxlens(&["scan", path, "--json"]));
    let mut sorted = first.clone();
    sorted.sort();
    assert_eq!(first, sorted, "rows in path order");
    assert_eq!(first.len(), 6);
    for _ in 0..3 {
        assert_eq!(
            paths(&ctxlens(&["scan", path, "--json"])),
            first,
            "the same order every run"
        );
    }
    let (_, text) = ctxlens::synth::session(2, 4, false, 5);
    let out = crate::common::ctxlens_stdin(&["scan", "-", "--json"], text.as_bytes());
    assert_exit(&out, 0);
    let row: Value = serde_json::from_str(stdout(&out).trim()).expect("a row");
    assert_eq!(row["started"], Value::Null, "{row}");
}

/// A session being written, scanned again as it grows (what the browser does for a live
/// row): reading on from the last scan gives the row a whole scan of the file gives, at
/// every step of real Claude Code and Codex logs.
#[test]
fn a_grown_session_is_rescanned_from_where_it_stopped() {
    use ctxlens::scan::{rescan_grown, scan_file, scan_read};
    use ctxlens::tokens::Tokenizer;
    let logs = [
        "real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl",
        "real-transcripts/claude-code-jsonl/worktrees-ef958aa1.jsonl",
        "real-transcripts/codex-rollout/codemie-codex-desktop-019e1695.jsonl",
    ];
    let dir = tempfile::tempdir().expect("a temp folder");
    let mut read_on = 0;
    let mut steps = 0;
    for log in logs {
        let text = std::fs::read_to_string(data().join(log)).expect("shipped");
        let lines: Vec<&str> = text.lines().collect();
        let path = dir.path().join(std::path::Path::new(log).file_name().expect("a name"));
        let first = lines.len() / 3;
        std::fs::write(&path, lines[..first].join("\n") + "\n").expect("written");
        let mut last = scan_read(&path, Tokenizer::Estimate, None).expect("scans");
        let mut at = first;
        while at < lines.len() {
            let to = (at + 1 + at % 5).min(lines.len());
            let mut file = std::fs::OpenOptions::new().append(true).open(&path).expect("opens");
            std::io::Write::write_all(&mut file, (lines[at..to].join("\n") + "\n").as_bytes()).expect("appended");
            drop(file);
            at = to;
            steps += 1;
            let whole = scan_file(&path, Tokenizer::Estimate, None).expect("scans");
            last = match rescan_grown(&path, &last, None) {
                Some(on) => {
                    read_on += 1;
                    assert_eq!(on.session, whole, "{log} read on to line {at}");
                    on
                }
                None => scan_read(&path, Tokenizer::Estimate, None).expect("scans"),
            };
        }
    }
    assert!(read_on * 10 > steps * 6, "read on at {read_on} of {steps} steps");
}

#[test]
fn a_csv_row_carries_every_field_of_a_json_row_and_the_cost_stats_gives() {
    let log = data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let path = log.to_str().expect("utf-8");
    let json: serde_json::Value =
        serde_json::from_str(stdout(&ctxlens(&["scan", path, "--json"])).trim()).expect("a row");
    let csv = stdout(&ctxlens(&["scan", path, "--csv"]));
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().expect("a header").split(',').collect();
    let fields: Vec<&str> = json
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .filter(|k| !["schema", "file"].contains(k))
        .collect();
    assert_eq!(
        &header[..header.len() - 1],
        &fields[..],
        "the JSON row's fields, in its order, then error"
    );
    assert_eq!(header.last(), Some(&"error"));
    let row = csv_cells(lines.next().expect("a row"));
    assert_eq!(row.len(), header.len(), "{row:?}");
    let cost_column = header.iter().position(|c| *c == "cost_usd").expect("cost_usd");
    assert_eq!(row[cost_column], json["cost_usd"].to_string());
    // A text cell holding commas and quotes comes back whole.
    let source_column = header
        .iter()
        .position(|c| *c == "autocompact_source")
        .expect("its source");
    let source = json["autocompact_source"].as_str().expect("a source");
    assert!(source.contains(','), "{source}");
    assert_eq!(row[source_column], source);
    let stats: serde_json::Value = serde_json::from_slice(&ctxlens(&["stats", path, "--json"]).stdout).expect("stats");
    assert_eq!(json["cost_usd"], stats["cost"]["total"], "the same dollars as stats");
    assert!(
        json["cost_usd"].as_f64().is_some_and(|d| d > 1.0),
        "{}",
        json["cost_usd"]
    );
}

/// A file name that is not UTF-8 comes back with its bytes (`path_base64`), from which
/// the file opens again; its `path` is only for reading. A file that does not load gets
/// them too, and the table's error row names the file.
#[cfg(unix)]
#[test]
fn a_name_that_is_not_utf8_comes_back_as_bytes_that_reopen_the_file() {
    use base64::Engine as _;
    use std::os::unix::ffi::{OsStrExt, OsStringExt};
    let dir = tempfile::tempdir().expect("temp dir");
    let (extension, text) = ctxlens::synth::session(0, 30, false, 1);
    let raw = |name: &[u8]| dir.path().join(std::ffi::OsString::from_vec(name.to_vec()));
    let session = raw(&[b"s\xff.".as_slice(), extension.as_bytes()].concat());
    std::fs::write(&session, &text).expect("write");
    let broken = raw(b"b\xfe.json");
    std::fs::write(&broken, "[{").expect("write");
    let out = ctxlens(&["scan", dir.path().to_str().expect("utf-8 temp dir"), "--json"]);
    assert_exit(&out, 0);
    let rows: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON row"))
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    for (row, file) in rows.iter().zip([&broken, &session]) {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(
                row["path_base64"]
                    .as_str()
                    .expect("path_base64 on a name that is not UTF-8"),
            )
            .expect("base64");
        assert_eq!(bytes, file.as_os_str().as_bytes());
        let reopened = std::path::PathBuf::from(std::ffi::OsString::from_vec(bytes));
        assert!(std::fs::metadata(&reopened).is_ok(), "{}", reopened.display());
        let lossy = std::path::Path::new(row["path"].as_str().expect("path"));
        assert!(!lossy.exists(), "the text name {} is not the file", lossy.display());
    }
    assert!(rows[0]["error"].is_string(), "the broken file sorts first: {rows:?}");
    let table = ctxlens(&["scan", dir.path().to_str().expect("utf-8 temp dir")]);
    let error_line = stdout(&table)
        .lines()
        .find(|l| l.starts_with("error:"))
        .map(str::to_owned);
    assert!(
        error_line.is_some_and(|l| l.contains("b\u{fffd}.json")),
        "{}",
        stdout(&table)
    );
    let utf8 = ctxlens(&[
        "scan",
        data()
            .join("real-transcripts/claude-code-jsonl")
            .to_str()
            .expect("utf-8"),
        "--json",
    ]);
    assert!(!stdout(&utf8).contains("path_base64"), "a UTF-8 name carries no bytes");
}

/// A scan answers where each session's agent compacts next as `status` answers for that
/// file: from the log, else from the earlier sessions of its folder (named), else from the
/// release's rule — never from a session that compacted after it.
#[test]
fn scan_and_status_give_each_session_the_same_threshold_from_the_same_evidence() {
    let vsla = std::fs::read_to_string(
        data().join("real-transcripts/claude-code-jsonl/vsla-cc1053-autocompact-0a725fb5.jsonl"),
    )
    .expect("the 1.0.53 log");
    let dir = tempfile::tempdir().expect("temp dir");
    let project = dir.path().join("-home-kenth56-vsla");
    std::fs::create_dir_all(&project).expect("a project folder");
    // The same project a month before (another session, the same compaction), and one a
    // day after that has not compacted yet: the real session up to its compaction.
    let earlier = vsla
        .replace("0a725fb5-6378", "11111111-6378")
        .replace("2025-07-", "2025-06-");
    let live: String = vsla
        .lines()
        .take_while(|l| !l.contains("\"isCompactSummary\""))
        .map(|l| {
            l.replace("0a725fb5-6378", "22222222-6378")
                .replace("2025-07-20", "2025-07-21")
                + "\n"
        })
        .collect();
    std::fs::write(project.join("live.jsonl"), &live).expect("writes");
    let answers = |folder: &std::path::Path| {
        let scanned = stdout(&ctxlens(&["scan", folder.to_str().expect("utf-8"), "--json"]));
        let row: Value = scanned
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).expect("a row"))
            .find(|r| r["path"].as_str().is_some_and(|p| p.ends_with("live.jsonl")))
            .expect("the live session's row");
        let live = folder.join("live.jsonl");
        let status: Value =
            serde_json::from_slice(&ctxlens(&["status", live.to_str().expect("utf-8"), "--json"]).stdout)
                .expect("status");
        assert_eq!(
            row["autocompact_at"], status["threshold"],
            "scan and status: {row}\n{status}"
        );
        row["autocompact_source"].as_str().expect("said").to_owned()
    };
    let alone = answers(&project);
    assert!(alone.contains("1.0.53's rule") && !alone.contains("earlier"), "{alone}");
    std::fs::write(project.join("earlier.jsonl"), &earlier).expect("writes");
    let with_sibling = answers(&project);
    assert!(with_sibling.contains("earlier.jsonl line 451"), "{with_sibling}");
    // A session that compacted later than it is no evidence.
    std::fs::write(project.join("earlier.jsonl"), earlier.replace("2025-06-", "2025-08-")).expect("writes");
    assert_eq!(answers(&project), alone);
}

/// The cells of one CSV line as RFC 4180 reads them: a quoted cell may hold commas, and
/// `""` inside it is a quote.
fn csv_cells(line: &str) -> Vec<String> {
    let (mut cells, mut cell, mut quoted, mut chars) = (Vec::new(), String::new(), false, line.chars().peekable());
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                cell.push('"');
                chars.next();
            }
            ('"', _) => quoted = !quoted,
            (',', false) => cells.push(std::mem::take(&mut cell)),
            (c, _) => cell.push(c),
        }
    }
    cells.push(cell);
    cells
}
