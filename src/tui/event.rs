//! The event sources of the TUI, all feeding one channel: a thread reading terminal
//! input, a thread turning SIGTERM/SIGINT/SIGHUP into a quit, and the job runner.

use std::sync::mpsc::Sender;

use ratatui::crossterm::event::{self, Event as TermEvent, KeyEventKind, MouseButton, MouseEventKind};

use super::action::Action;
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
}

/// Reads terminal input forever (crossterm reads `/dev/tty` when stdin is a pipe).
pub fn spawn_input_thread(events: Sender<Event>) {
    std::thread::spawn(move || {
        while let Ok(raw) = event::read() {
            let Some(converted) = convert(&raw) else { continue };
            if events.send(converted).is_err() {
                break;
            }
        }
    });
}

/// Turns termination signals into [`Event::Terminate`], so the loop restores the terminal.
pub fn spawn_signal_thread(events: Sender<Event>) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGTERM, SIGINT, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let _ = events.send(Event::Terminate(signal));
        }
    });
    Ok(())
}

fn convert(raw: &TermEvent) -> Option<Event> {
    match *raw {
        TermEvent::Key(key) if key.kind != KeyEventKind::Release => Some(Event::Key(key)),
        TermEvent::Resize(w, h) => Some(Event::Action(Action::Resize(w, h))),
        TermEvent::Mouse(mouse) => match mouse.kind {
            MouseEventKind::ScrollDown => Some(Event::Action(Action::ScrollAt(mouse.column, mouse.row, 3))),
            MouseEventKind::ScrollUp => Some(Event::Action(Action::ScrollAt(mouse.column, mouse.row, -3))),
            MouseEventKind::Down(MouseButton::Left) => Some(Event::Action(Action::Click(mouse.column, mouse.row))),
            _ => None,
        },
        _ => None,
    }
}
