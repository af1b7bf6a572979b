//! `cmd:<command line>`: runs a program (through `sh -c`), writes the older messages to
//! its standard input as a JSON array of the raw message objects, and reads the summary
//! from its standard output.
//!
//! The program runs in a process group of its own, without the API keys in its
//! environment. The whole group is killed on timeout, on cancel and once the program has
//! exited (a background child holding the output open cannot stretch the wait); its
//! output is read up to a byte limit. A non-zero exit, a timeout, too much or no output is
//! an error naming the command, never an empty or error-text summary.
//!
//! A SIGKILL gives ctxlens no chance to kill anything, so each command has a watchdog
//! ([`Watchdog`]): a second `sh`, in a group of its own, that reads a pipe only ctxlens
//! holds open. However ctxlens ends, the kernel closes that pipe; the watchdog reads its
//! end and kills the command's group. No `unsafe` (a parent-death signal would need code
//! run between fork and exec).

use std::io::{Read, Write};
use std::process::{Child, Command as Process, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{bounded, Older, Settings, Summarizer};
use crate::cancel::CancelToken;
use crate::Error;

/// Environment variables a summarizer command never inherits.
const SECRET_VARIABLES: [&str; 2] = ["CTXLENS_API_KEY", "OPENAI_API_KEY"];

/// A summarizer program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    /// The command line, run with `sh -c`.
    pub line: String,
    /// Timeout and bounds.
    pub settings: Settings,
}

impl Command {
    fn error(&self, what: impl std::fmt::Display) -> Error {
        Error::Summary(format!("summarizer command `{}` {what}", self.line))
    }

    fn spawn(&self) -> crate::Result<(Child, Option<Watchdog>)> {
        let mut process = Process::new("sh");
        process
            .args(["-c", &self.line])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for name in SECRET_VARIABLES {
            process.env_remove(name);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            process.process_group(0);
        }
        // Started and listed under the lock, so a signal handler that kills the listed
        // groups either runs first (and no command starts after it) or sees the new group.
        let mut running = running();
        if CLOSED.load(Ordering::Acquire) {
            return Err(Error::Cancelled);
        }
        let child = process
            .spawn()
            .map_err(|e| self.error(format!("could not start: {e}")))?;
        running.push(child.id());
        let watchdog = Watchdog::start(child.id());
        Ok((child, watchdog))
    }
}

/// Kills a command's process group when ctxlens ends, SIGKILL included: see the module's
/// documentation. Dropped (killed and reaped, before it acts) once the command is done.
struct Watchdog(Child);

/// The watchdog's script: wait for end of file on standard input (ctxlens gone), then kill
/// the group given as its first argument.
const WATCHDOG: &str = "while IFS= read -r _; do :; done; kill -s KILL -- \"-$1\" 2>/dev/null";

impl Watchdog {
    /// Watches the process group `group`. `None` where no `sh` runs it (the command then
    /// dies with ctxlens only by the paths that can run code: exit, signal, panic).
    fn start(group: u32) -> Option<Watchdog> {
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            let mut process = Process::new("sh");
            process
                .args(["-c", WATCHDOG, "ctxlens-watchdog", &group.to_string()])
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                // Its own group: a signal to ctxlens' group (Ctrl-C, `kill -9 -PGID`) must
                // not take the watchdog with it.
                .process_group(0);
            process.spawn().ok().map(Watchdog)
        }
        #[cfg(not(unix))]
        {
            let _ = group;
            None
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        // Killed before its input closes, so it never signals a group that has ended
        // (whose number may be taken again).
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The process groups of the summarizer commands running now, so that whatever ends
/// this process (a signal, an error, a panic) can end them too: [`kill_running_commands`].
static RUNNING: std::sync::Mutex<Vec<u32>> = std::sync::Mutex::new(Vec::new());

fn running() -> std::sync::MutexGuard<'static, Vec<u32>> {
    // A panic while the list was held leaves it as it was: still the right list.
    RUNNING.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Kills the process group of every summarizer command still running. For a signal
/// handler or an exit path: no program a summarizer started outlives ctxlens.
pub fn kill_running_commands() {
    let mut running = running();
    // No command starts after this: the process is on its way out.
    CLOSED.store(true, Ordering::Release);
    for group in running.drain(..) {
        signal_group(group);
    }
}

/// Set once [`kill_running_commands`] ran.
static CLOSED: AtomicBool = AtomicBool::new(false);

fn signal_group(group: u32) {
    #[cfg(unix)]
    {
        if let Some(pid) = i32::try_from(group).ok().and_then(rustix::process::Pid::from_raw) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    #[cfg(not(unix))]
    let _ = group;
}

/// Kills the child's whole process group (the child leads it), then reaps the child.
fn kill_group(child: &mut Child) {
    let group = child.id();
    running().retain(|&g| g != group);
    signal_group(group);
    let _ = child.kill();
    let _ = child.wait();
}

/// Reads `from` to its end, keeping at most `limit` bytes; stops (and sets `over`) as
/// soon as there is more, so an endless writer is caught at once, not at the timeout.
fn read_bounded(mut from: impl Read, limit: usize, over: &AtomicBool) -> Vec<u8> {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 8192];
    loop {
        match from.read(&mut buffer) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = limit.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
                if n > room {
                    over.store(true, Ordering::Release);
                    break;
                }
            }
        }
    }
    kept
}

impl Summarizer for Command {
    fn summarize(&self, older: &[Older], cancel: &CancelToken) -> crate::Result<String> {
        let mut input = Vec::with_capacity(older.iter().map(|m| m.raw.len() + 1).sum::<usize>() + 2);
        input.push(b'[');
        for (k, m) in older.iter().enumerate() {
            if k > 0 {
                input.push(b',');
            }
            input.extend_from_slice(m.raw.as_bytes());
        }
        input.push(b']');
        let (mut child, _watchdog) = self.spawn()?;
        // Feed and drain on threads, so a large input or output cannot deadlock the pipes.
        let mut stdin = child.stdin.take().expect("stdin was piped");
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(&input); // a command may exit without reading
        });
        let stdout = child.stdout.take().expect("stdout was piped");
        let limit = self.settings.limit_bytes();
        let over = Arc::new(AtomicBool::new(false));
        let reader = {
            let over = Arc::clone(&over);
            std::thread::spawn(move || read_bounded(stdout, limit, &over))
        };
        let stderr = child.stderr.take().expect("stderr was piped");
        // Standard error beyond its first 4 KiB is of no use (and not a summary).
        let err_reader = std::thread::spawn(move || read_bounded(stderr, 4096, &AtomicBool::new(false)));
        let too_much = || {
            self.error(format!(
                "printed more than {limit} bytes: a summary is at most {} tokens",
                self.settings.limit_tokens()
            ))
        };
        let deadline = Instant::now() + self.settings.timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) => {}
                Err(e) => {
                    kill_group(&mut child);
                    return Err(self.error(format!("could not be waited for: {e}")));
                }
            }
            if cancel.is_cancelled() {
                kill_group(&mut child);
                return Err(Error::Cancelled);
            }
            if over.load(Ordering::Acquire) {
                kill_group(&mut child);
                return Err(too_much());
            }
            if Instant::now() >= deadline {
                kill_group(&mut child);
                return Err(self.error(format!("timed out after {} s", self.settings.timeout.as_secs_f64())));
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        // The program is done: whatever it left running goes too, which also closes
        // every copy of its output so the readers finish.
        kill_group(&mut child);
        let _ = feeder.join();
        let out = reader.join().unwrap_or_default();
        let err = String::from_utf8_lossy(&err_reader.join().unwrap_or_default()).into_owned();
        // Too much output first: the writer may have died of the pipe closing on it.
        if over.load(Ordering::Acquire) {
            return Err(too_much());
        }
        if !status.success() {
            let why = err
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no message on standard error");
            return Err(self.error(format!("failed ({status}): {why}")));
        }
        let summary = String::from_utf8(out).map_err(|_| self.error("printed invalid UTF-8"))?;
        let summary = summary.trim();
        if summary.is_empty() {
            return Err(self.error("printed nothing"));
        }
        bounded(
            &format!("summarizer command `{}`", self.line),
            summary.to_owned(),
            &self.settings,
        )
    }
}
