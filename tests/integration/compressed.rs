//! Compressed logs read as `rg -z` reads them: the shipped codemie log gzipped and
//! zstd-compressed (`tests/data/compressed/`) gives every command the answer the log
//! itself gives — the same bytes, but for the file's name.

use crate::common::{self, ctxlens, stdout};

/// The plain log and its compressed copies.
fn logs() -> (String, Vec<String>) {
    let plain = common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let compressed = ["gz", "zst"]
        .iter()
        .map(|ext| {
            common::data()
                .join(format!("compressed/codemie-autocompact-624a4a58.jsonl.{ext}"))
                .display()
                .to_string()
        })
        .collect();
    (plain.display().to_string(), compressed)
}

#[test]
fn every_command_reads_a_gzip_or_zstd_log_as_the_log_itself() {
    let (plain, compressed) = logs();
    let commands: [&[&str]; 9] = [
        &["stats", "FILE", "--json"],
        &["history", "FILE", "--json"],
        &["status", "FILE"],
        &["check", "FILE", "--json"],
        &["ledger", "FILE", "--json"],
        &["compact", "FILE", "--max-tokens", "60000", "--plan"],
        &[
            "replay",
            "FILE",
            "--max-tokens",
            "60000",
            "--summarizer",
            "placeholder",
            "--json",
        ],
        &[
            "compare",
            "FILE",
            "--summarizer",
            "placeholder",
            "--thresholds-from",
            "none",
            "--json",
        ],
        &["backtest", "FILE", "--thresholds-from", "none", "--json"],
    ];
    for command in commands {
        let run = |file: &str| {
            let args: Vec<&str> = command.iter().map(|a| if *a == "FILE" { file } else { a }).collect();
            let out = ctxlens(&args);
            (out.status.code(), stdout(&out).replace(file, "FILE"))
        };
        let expected = run(&plain);
        assert_eq!(expected.0, Some(0), "{command:?} on the log itself");
        for file in &compressed {
            assert_eq!(run(file), expected, "{command:?} on {file}");
        }
    }
}

#[test]
fn scan_finds_compressed_sessions_by_their_inner_name() {
    let (_, compressed) = logs();
    let dir = tempfile::tempdir().expect("a folder");
    for file in &compressed {
        let name = std::path::Path::new(file).file_name().expect("a name");
        std::fs::copy(file, dir.path().join(name)).expect("copy");
    }
    // An archive that is not a session is not one.
    std::fs::write(dir.path().join("notes.txt.gz"), b"\x1f\x8b").expect("write");
    let out = ctxlens(&["scan", dir.path().to_str().expect("utf-8"), "--json"]);
    let rows: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a row"))
        .collect();
    assert_eq!(rows.len(), 2, "{rows:?}");
    assert!(rows.iter().all(|r| r["compactions"] == 1), "{rows:?}");
}

#[test]
fn a_cut_archive_is_an_error_naming_the_file() {
    let (_, compressed) = logs();
    let dir = tempfile::tempdir().expect("a folder");
    let bytes = std::fs::read(&compressed[0]).expect("read");
    let cut = dir.path().join("cut.jsonl.gz");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).expect("write");
    let out = ctxlens(&["stats", cut.to_str().expect("utf-8")]);
    assert_eq!(out.status.code(), Some(2));
    let said = common::stderr(&out);
    assert!(
        said.contains("cut.jsonl.gz") && said.contains("not a valid gzip stream"),
        "{said}"
    );
}
