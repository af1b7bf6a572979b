//! `cmd:<command line>`: runs a program (through `sh -c`), writes the older messages to
//! its standard input as a JSON array of the raw message objects, and reads the summary
//! from its standard output. A non-zero exit, a timeout or empty output is an error
//! naming the command, never an empty or error-text summary.

use std::io::{Read, Write};
use std::process::{Command as Process, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

use super::{Older, Summarizer};

/// A summarizer program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The command line, run with `sh -c`.
    pub line: String,
    /// How long it may run.
    pub timeout: Duration,
}

impl Summarizer for Command {
    fn summarize(&self, older: &[Older]) -> anyhow::Result<String> {
        let input = format!("[{}]", older.iter().map(|m| m.raw).collect::<Vec<_>>().join(","));
        let mut child = Process::new("sh")
            .args(["-c", &self.line])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("summarizer command `{}` could not start", self.line))?;
        // Feed and drain on threads, so a large input or output cannot deadlock the pipes.
        let mut stdin = child.stdin.take().expect("stdin was piped");
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes()); // a command may exit without reading
        });
        let mut stdout = child.stdout.take().expect("stdout was piped");
        let reader = std::thread::spawn(move || {
            let mut out = Vec::new();
            let _ = stdout.read_to_end(&mut out);
            out
        });
        let mut stderr = child.stderr.take().expect("stderr was piped");
        let err_reader = std::thread::spawn(move || {
            let mut err = String::new();
            let _ = stderr.read_to_string(&mut err);
            err
        });
        let deadline = Instant::now() + self.timeout;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                bail!(
                    "summarizer command `{}` timed out after {} s",
                    self.line,
                    self.timeout.as_secs_f64()
                );
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let _ = feeder.join();
        let out = reader.join().unwrap_or_default();
        let err = err_reader.join().unwrap_or_default();
        if !status.success() {
            let why = err
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no message on standard error");
            bail!("summarizer command `{}` failed ({status}): {why}", self.line);
        }
        let summary = String::from_utf8(out)
            .with_context(|| format!("summarizer command `{}` printed invalid UTF-8", self.line))?;
        let summary = summary.trim();
        if summary.is_empty() {
            bail!("summarizer command `{}` printed nothing", self.line);
        }
        Ok(summary.to_owned())
    }
}
