//! Helpers shared by the integration tests: the built binary, the test data inside the
//! repository, and running commands.

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
        .env("XDG_CACHE_HOME", test_cache())
        .env("HOME", test_home())
        .output()
        .expect("the built binary runs")
}

/// An empty home folder for the binary: the user's own sessions (`~/.claude/projects`,
/// where ctxlens looks for earlier compactions) never change a test's answer.
pub fn test_home() -> PathBuf {
    let home = std::env::temp_dir().join(format!("ctxlens-test-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).expect("a temporary home");
    home
}

/// The cache folder the tests give ctxlens (`status` keeps its answers there), so a test
/// run never writes into the user's own cache.
pub fn test_cache() -> PathBuf {
    std::env::temp_dir().join(format!("ctxlens-test-cache-{}", std::process::id()))
}

/// Runs the built `ctxlens` with `args`, feeding `input` on standard input.
pub fn ctxlens_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ctxlens"))
        .args(args)
        .env("XDG_CACHE_HOME", test_cache())
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

/// A one-shot HTTP server on 127.0.0.1: returns its `/v1` URL and a channel with the
/// request's head and body; `respond` writes the answer.
pub fn serve_once(
    respond: impl FnOnce(&mut std::net::TcpStream) + Send + 'static,
) -> (String, std::sync::mpsc::Receiver<(String, String)>) {
    use std::io::{BufRead, BufReader, Read};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind loopback");
    let url = format!("http://{}/v1", listener.local_addr().expect("address"));
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().expect("a connection");
        let mut reader = BufReader::new(stream.try_clone().expect("clone"));
        let mut head = String::new();
        let mut length = 0;
        loop {
            let mut line = String::new();
            reader.read_line(&mut line).expect("header");
            if let Some(v) = line.to_ascii_lowercase().strip_prefix("content-length:") {
                length = v.trim().parse().expect("length");
            }
            if line == "\r\n" || line.is_empty() {
                break;
            }
            head.push_str(&line);
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("body");
        let _ = tx.send((head, String::from_utf8(body).expect("UTF-8")));
        respond(&mut stream);
    });
    (url, rx)
}

/// Writes an HTTP answer with `status` and a JSON `body`.
pub fn reply(stream: &mut std::net::TcpStream, status: &str, body: &str) {
    let _ = write!(
        stream,
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}
