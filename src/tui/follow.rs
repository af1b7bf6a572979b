//! Following the open file while its agent writes it: a thread that waits for the
//! platform's file-system notification (the `notify` crate: inotify, `FSEvents`, kqueue…)
//! on the file's folder and says [`Event::FileChanged`] when the file grew, shrank or was
//! replaced; where notification is not available it looks at the file's size and
//! identity twice a second instead. It never spins: it sleeps until told, or until the
//! next look.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::time::Duration;

use super::event::Event;
use crate::follow::{Change, FileState};

/// How long to wait after a notification before telling the app (an agent writes a
/// record in several small writes; one reload covers them all).
const SETTLE: Duration = Duration::from_millis(40);

/// How often the fallback looks at the file.
const POLL: Duration = Duration::from_millis(500);

/// How long a missing file may stay missing before the view hears it is gone (a writer
/// that replaces it by rename leaves it missing for far less).
const GONE_AFTER: Duration = Duration::from_millis(300);

/// A running follower: [`Following::stop`] ends it (a session closed in the browser).
#[derive(Debug)]
pub struct Following {
    stop: Arc<AtomicBool>,
}

impl Following {
    /// Stops following: the thread ends at its next wake and tells nothing more.
    pub fn stop(self) {
        self.stop.store(true, Ordering::Release);
    }
}

/// Starts following `path`, last read in `state`; changes go to `events`.
pub fn spawn(path: PathBuf, state: FileState, events: Sender<Event>) -> Following {
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    std::thread::spawn(move || {
        let (tx, notified) = mpsc::channel();
        // Watching the folder, not the file: a file replaced by a rename is then seen.
        let folder = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .map_or_else(|| PathBuf::from("."), PathBuf::from);
        let watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
            let _ = tx.send(event.is_ok());
        })
        .and_then(|mut w| {
            notify::Watcher::watch(&mut w, &folder, notify::RecursiveMode::NonRecursive)?;
            Ok(w)
        });
        let mut last = state;
        // Said once when the file is gone (and again when it comes back, as a change).
        let mut gone = false;
        loop {
            match &watcher {
                Ok(_) => {
                    if notified.recv().is_err() {
                        return;
                    }
                    std::thread::sleep(SETTLE);
                    while notified.try_recv().is_ok() {}
                }
                Err(_) => std::thread::sleep(POLL),
            }
            if stopped.load(Ordering::Acquire) {
                return;
            }
            let Ok(now) = FileState::of(&path) else {
                // Removed for a moment (a writer replacing it), or deleted: look again
                // after a moment; still missing, the view is told (it stops saying live).
                std::thread::sleep(GONE_AFTER);
                if !gone && FileState::of(&path).is_err() {
                    gone = true;
                    if events.send(Event::FileChanged).is_err() {
                        return;
                    }
                }
                continue;
            };
            gone = false;
            if last.change_to(&now) != Change::Same {
                last = now;
                if events.send(Event::FileChanged).is_err() {
                    return;
                }
            }
        }
    });
    Following { stop }
}
