//! Following the open file while its agent writes it: a change on disk starts a reload
//! on a worker; the new read replaces the transcript with the selection kept where the
//! user left it (or at the end, when it was at the end), everything made from the old
//! read is dropped, and the context meter (how full the context is, how far the agent's
//! next compaction is) is updated. A file replaced or made shorter is reloaded with a
//! notice.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::slot::{InFlight, Slot};
use super::{App, Effect, Status};
use crate::follow::{Change, FileState};
use crate::meter::Meter;
use crate::text::{count_of, thousands};
use crate::tokens::Counts;
use crate::tui::jobs::{Job, LastRead, Reloaded};

/// The file followed, and what its last read said.
#[derive(Debug)]
pub struct Follow {
    /// The file.
    path: PathBuf,
    /// Its state when it was last read.
    state: FileState,
    /// The last read's meter (made on a worker: `None` until the first one is made).
    meter: Option<Meter>,
    /// Reads since it was opened.
    reloads: usize,
}

impl Follow {
    /// Following `path`, read in `state`.
    pub fn new(path: PathBuf, state: FileState) -> Follow {
        Follow {
            path,
            state,
            meter: None,
            reloads: 0,
        }
    }

    /// The file.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }

    /// The state of its last read.
    pub fn state(&self) -> FileState {
        self.state
    }
}

impl App {
    /// The context meter of the followed file's last read.
    pub fn meter(&self) -> Option<&Meter> {
        self.follow.as_ref().and_then(|f| f.meter.as_ref())
    }

    /// The followed file, when the open file is followed as it grows.
    pub fn follow(&self) -> Option<&Follow> {
        self.follow.as_ref()
    }

    /// The file changed on disk: read it again (a newer read cancels an older one).
    pub(super) fn file_changed(&mut self) -> Vec<Effect> {
        let Some(follow) = &self.follow else {
            return Vec::new();
        };
        vec![Effect::Start(Job::Reload {
            path: follow.path.clone(),
            previous: Some(Box::new(LastRead {
                transcript: Arc::clone(&self.transcript),
                counts: Arc::clone(&self.counts[&self.tokenizer]),
                state: follow.state,
            })),
            tokenizer: self.tokenizer,
            window: self.context_window,
        })]
    }

    /// A read of the followed file arrived.
    pub(super) fn reloaded(&mut self, state: Option<FileState>, result: Result<Box<Reloaded>, String>) -> Vec<Effect> {
        let Some(follow) = &mut self.follow else {
            return Vec::new();
        };
        let replaced = state.is_some_and(|s| follow.state.change_to(&s) == Change::Replaced);
        if let Some(state) = state {
            follow.state = state;
        }
        let reloaded = match result {
            Ok(reloaded) => reloaded,
            Err(e) => {
                // The last good read stays on screen; the next change reads again.
                self.status = Status::error(format!("following {}: {e}", follow.path.display()));
                return Vec::new();
            }
        };
        let Reloaded {
            transcript,
            counts,
            meter,
        } = *reloaded;
        follow.meter = Some(meter);
        follow.reloads += 1;
        let first = follow.reloads == 1 && !replaced;
        let before = self.transcript.messages().len();
        let after = transcript.messages().len();
        if first && after == before {
            // The meter of the file as opened: nothing else changed.
            return Vec::new();
        }
        let at_end = self.selected + 1 >= before;
        self.install(transcript, counts);
        self.selected = if at_end || replaced {
            after.saturating_sub(1)
        } else {
            self.selected.min(after.saturating_sub(1))
        };
        self.status = if replaced {
            Status::info(format!(
                "the file was replaced: read again ({})",
                count_of(after as u64, "message", "messages")
            ))
        } else if after > before {
            Status::info(format!(
                "+{} · {} tokens",
                count_of((after - before) as u64, "message", "messages"),
                thousands(self.counts().total())
            ))
        } else {
            Status::info("the file changed: read again")
        };
        self.clamp_offset();
        Vec::new()
    }

    /// Puts a new read of the file in place of the old one: what was made from the old
    /// read (passes, summaries, replays, charts) no longer holds and is dropped.
    fn install(&mut self, transcript: crate::transcript::Transcript, counts: Arc<Counts>) {
        self.transcript = Arc::new(transcript);
        let gap = crate::tokens::media::provider_gap(&self.transcript, &counts);
        self.counts = BTreeMap::from([(self.tokenizer, counts)]);
        self.gaps = BTreeMap::from([(self.tokenizer, gap)]);
        self.calibration = None;
        self.derived = Slot::new();
        self.session = Slot::new();
        self.replay = Slot::new();
        self.sweep = Slot::new();
        self.compare = Slot::new();
        self.previewing = InFlight::new();
        self.reporting = InFlight::new();
        self.breaking_down = InFlight::new();
        self.summary = None;
        self.summarizing = None;
        self.search = None;
        if self.filter.is_some() {
            self.clear_filter();
        }
        self.follow_default_budget();
        self.replan();
    }
}
