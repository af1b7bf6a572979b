//! A progress line on stderr for long work (`replayed 3 of 8 policies · about 4 s
//! left`), drawn over itself and wiped at the end; only when stderr is a terminal (logs
//! and pipes get nothing but the output) and only once the work has run for
//! [`SHOWN_AFTER`] (a quick run does not flicker).

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

/// How long work runs before its progress is shown.
const SHOWN_AFTER: Duration = Duration::from_millis(300);

/// One line of progress for one piece of work.
pub struct ProgressLine {
    started: Instant,
    what: &'static str,
    of_what: &'static str,
}

impl ProgressLine {
    /// A line saying `{what} {done} of {of} {of_what}`, or `None` off a terminal.
    pub fn on_terminal(what: &'static str, of_what: &'static str) -> Option<ProgressLine> {
        std::io::stderr().is_terminal().then(|| ProgressLine {
            started: Instant::now(),
            what,
            of_what,
        })
    }

    /// Draws `done` of `of` with the time left at the rate so far.
    pub fn tell(&self, done: usize, of: usize) {
        if let Some(line) = line(self.what, self.of_what, done, of, self.started.elapsed()) {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{line}   ");
            let _ = err.flush();
        }
    }
}

impl Drop for ProgressLine {
    /// The line is wiped when the work ends, however it ends.
    fn drop(&mut self) {
        if self.started.elapsed() >= SHOWN_AFTER {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{:80}\r", "");
            let _ = err.flush();
        }
    }
}

/// The words for `done` of `of` after `elapsed`, or `None` while it is too early to show.
fn line(what: &str, of_what: &str, done: usize, of: usize, elapsed: Duration) -> Option<String> {
    if elapsed < SHOWN_AFTER {
        return None;
    }
    let left = elapsed.as_secs_f64() / done.max(1) as f64 * of.saturating_sub(done) as f64;
    let left = if left < 10.0 {
        format!("{left:.1}")
    } else {
        format!("{left:.0}")
    };
    Some(format!(
        "{what} {} of {} {of_what} · about {left} s left",
        ctxlens::text::thousands(done as u64),
        ctxlens::text::thousands(of as u64)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_tells_the_time_left_at_the_rate_so_far() {
        let at = |ms| Duration::from_millis(ms);
        assert_eq!(line("replayed", "policies", 1, 8, at(100)), None, "too early to show");
        assert_eq!(
            line("replayed", "policies", 2, 8, at(1_000)).as_deref(),
            Some("replayed 2 of 8 policies · about 3.0 s left")
        );
        assert_eq!(
            line("replayed", "messages", 40_960, 100_000, at(20_480)).as_deref(),
            Some("replayed 40,960 of 100,000 messages · about 30 s left")
        );
    }
}
