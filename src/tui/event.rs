//! The event sources of the TUI, all feeding one channel: a thread reading terminal
//! input (parsed by [`super::input`]), a thread turning SIGTERM/SIGINT/SIGHUP into a quit
//! and SIGWINCH into a resize, and the job runner.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

use ratatui::crossterm::event;

use super::action::Action;
use super::input::{Input, Parser};
use super::jobs::Done;

/// Something the event loop must handle.
#[derive(Debug)]
pub enum Event {
    /// A key press (to be mapped through the key table in the current mode).
    Key(event::KeyEvent),
    /// A terminal event that is already a user action (mouse, resize).
    Action(Action),
    /// A background job finished or progressed.
    Job(Box<Done>),
    /// A signal asked us to stop (its number).
    Terminate(i32),
    /// The file being followed changed on disk (grew, shrank or was replaced).
    FileChanged,
}

/// Reads terminal input forever with ctxlens' own parser ([`super::input`]): standard
/// input when it is the terminal, else `/dev/tty` (piped transcripts). While `paused`
/// (an editor owns the terminal) it reads nothing.
pub fn spawn_input_thread(events: Sender<Event>, paused: Arc<AtomicBool>) {
    use std::io::IsTerminal;
    std::thread::spawn(move || {
        let result = if std::io::stdin().is_terminal() {
            read_forever(&std::io::stdin(), &events, &paused)
        } else {
            match std::fs::File::open("/dev/tty") {
                Ok(tty) => read_forever(&tty, &events, &paused),
                Err(e) => Err(e),
            }
        };
        if result.is_err() {
            // No terminal to read: the loop still ends on signals.
        }
    });
}

/// How long a half sequence may wait for the rest of its bytes (a terminal writes a
/// sequence at once; a pause means it was a key such as Esc or Alt+[).
const SEQUENCE_WAIT: Duration = Duration::from_millis(25);

fn read_forever(
    tty: &(impl std::os::fd::AsFd + ReadFd),
    events: &Sender<Event>,
    paused: &AtomicBool,
) -> std::io::Result<()> {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let mut parser = Parser::new();
    let mut buf = [0u8; 4096];
    loop {
        if paused.load(Ordering::Acquire) {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        let wait = if parser.is_pending() {
            SEQUENCE_WAIT
        } else {
            Duration::from_millis(100)
        };
        let timeout = Timespec {
            tv_sec: 0,
            tv_nsec: i64::from(wait.subsec_nanos()),
        };
        let mut fds = [PollFd::new(tty, PollFlags::IN)];
        let ready = poll(&mut fds, Some(&timeout)).unwrap_or(0);
        let inputs = if ready > 0 {
            let n = tty.read_some(&mut buf)?;
            if n == 0 {
                return Ok(());
            }
            parser.feed(&buf[..n])
        } else if parser.is_pending() {
            parser.flush()
        } else {
            continue;
        };
        for input in inputs {
            let event = match input {
                Input::Key(key) => Event::Key(key),
                Input::Wheel(x, y, n) => Event::Action(Action::ScrollAt(x, y, n)),
                Input::Click(x, y) => Event::Action(Action::Click(x, y)),
            };
            if events.send(event).is_err() {
                return Ok(());
            }
        }
    }
}

/// Reading bytes from the terminal (standard input or `/dev/tty`), unbuffered.
trait ReadFd {
    fn read_some(&self, buf: &mut [u8]) -> std::io::Result<usize>;
}

impl ReadFd for std::io::Stdin {
    fn read_some(&self, buf: &mut [u8]) -> std::io::Result<usize> {
        Ok(rustix::io::read(self, buf)?)
    }
}

impl ReadFd for std::fs::File {
    fn read_some(&self, buf: &mut [u8]) -> std::io::Result<usize> {
        Ok(rustix::io::read(self, buf)?)
    }
}

/// Turns termination signals into [`Event::Terminate`], so the loop restores the
/// terminal, and window changes into a resize.
pub fn spawn_signal_thread(events: Sender<Event>) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM, SIGWINCH};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP, SIGWINCH])?;
    std::thread::spawn(move || {
        for signal in signals.forever() {
            let event = if signal == SIGWINCH {
                match ratatui::crossterm::terminal::size() {
                    Ok((w, h)) => Event::Action(Action::Resize(w, h)),
                    Err(_) => continue,
                }
            } else {
                Event::Terminate(signal)
            };
            let stop = matches!(event, Event::Terminate(_));
            if events.send(event).is_err() || stop {
                break;
            }
        }
    });
    Ok(())
}
