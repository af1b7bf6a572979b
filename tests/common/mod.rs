//! Helpers shared by the integration tests: the built binary, the test data inside the
//! repository, and running commands.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// `tests/data/`: the conformance cases, the toolnexus fixture, the replay expectations
/// and the real transcripts (each with its origin in a `SOURCES.md` beside it).
pub fn data() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The toolnexus fixture transcript (121 messages).
pub fn fixture_path() -> PathBuf {
    data().join("conformance/toolnexus-fixture-transcript.json")
}

/// The repository's own folder.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs the built `ctxlens` with `args`.
pub fn ctxlens(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ctxlens"))
        .args(args)
        .output()
        .expect("the built binary runs")
}

/// Runs the built `ctxlens` with `args`, feeding `input` on standard input.
pub fn ctxlens_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxlens"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the built binary runs");
    let mut stdin = child.stdin.take().expect("piped stdin");
    // A command that fails early closes its end; that is fine here.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("the binary finishes")
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("stdout is UTF-8")
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("stderr is UTF-8")
}

/// Asserts exit code `code`, showing standard error when it differs.
pub fn assert_exit(out: &Output, code: i32) {
    assert_eq!(out.status.code(), Some(code), "stderr: {}", stderr(out));
}

/// Parses standard output as JSON.
pub fn json_stdout(out: &Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", stdout(out)))
}
