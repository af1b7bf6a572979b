//! Following the open file while its agent writes it: a change on disk starts a reload
//! on a worker; the new read replaces the transcript with the selection kept where the
//! user left it (or at the end, when it was at the end), everything made from the old
//! read is dropped, and the context meter (how full the context is, how far the agent's
//! next compaction is) is updated. A file replaced or made shorter is reloaded with a
//! notice. A file that only grew is read on by the worker and the records it read are
//! put in place here: the transcript and its counts grow where they are (nothing else
//! holds them once what was made from the old read is dropped), at the cost of what the
//! agent wrote, not of the session.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::slot::{InFlight, Slot};
use super::{App, Effect, Status};
use crate::follow::{Change, FileState};
use crate::meter::Meter;
use crate::text::{count_of, thousands};
use crate::tokens::media::HeavySums;
use crate::tokens::Counts;
use crate::tui::jobs::{Fit, Job, LastRead, Reloaded};

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
    /// Of those, the reads on put in place (the rest were whole reads).
    grown: usize,
}

impl Follow {
    /// Following `path`, read in `state`.
    pub fn new(path: PathBuf, state: FileState) -> Follow {
        Follow {
            path,
            state,
            meter: None,
            reloads: 0,
            grown: 0,
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

    /// How many reads since it was opened were read on and grown in place.
    pub fn grown(&self) -> usize {
        self.grown
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
        self.reload(true)
    }

    /// A reload of the followed file: on from the last read when `read_on` (and the file
    /// only grew), else whole.
    fn reload(&self, read_on: bool) -> Vec<Effect> {
        let Some(follow) = &self.follow else {
            return Vec::new();
        };
        let previous = read_on.then(|| {
            Box::new(LastRead {
                transcript: Arc::clone(&self.transcript),
                counts: Arc::clone(&self.counts[&self.tokenizer]),
                state: follow.state,
                fit: self
                    .calibration
                    .as_ref()
                    .filter(|(t, _)| *t == self.tokenizer)
                    .map_or(Fit::Unknown, |(_, fit)| Fit::Made(fit.clone())),
            })
        });
        vec![Effect::Start(Job::Reload {
            path: follow.path.clone(),
            previous,
            tokenizer: self.tokenizer,
            window: self.given_window,
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
                // The last good read stays on screen; the next change reads again. A file
                // that is gone is no longer live: its meter goes.
                if follow.path.exists() {
                    self.status = Status::error(format!("following {}: {e}", follow.path.display()));
                } else {
                    follow.meter = None;
                    self.status = Status::error(format!(
                        "{} is gone: showing what was read (no longer live)",
                        follow.path.display()
                    ));
                }
                return Vec::new();
            }
        };
        let before = self.transcript.messages().len();
        let at_end = self.selected + 1 >= before;
        let read_on = matches!(*reloaded, Reloaded::On { .. });
        match *reloaded {
            Reloaded::Whole {
                transcript,
                counts,
                meter,
            } => {
                // (The file as opened, unchanged, answers `Unchanged`: a whole read is
                // always of a file that changed.)
                follow.meter = Some(meter);
                follow.reloads += 1;
                self.install(transcript, counts);
            }
            Reloaded::Unchanged { meter } => {
                follow.meter = Some(meter);
                follow.reloads += 1;
                return Vec::new();
            }
            Reloaded::On {
                on,
                tokenizer,
                counts,
                fit,
            } => {
                follow.reloads += 1;
                if !self.grow(on, tokenizer, &counts, fit) {
                    // Read on from another read (the view changed its tokenizer, say):
                    // the file is read whole.
                    return self.reload(false);
                }
            }
        }
        let after = self.transcript.messages().len();
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
        } else if read_on {
            Status::info("the file grew: no new message")
        } else {
            Status::info("the file changed: read again")
        };
        self.clamp_offset();
        Vec::new()
    }

    /// Puts a new read of the file in place of the old one: what was made from the old
    /// read (passes, summaries, replays, charts) no longer holds and is dropped.
    fn install(&mut self, transcript: crate::transcript::Transcript, counts: Arc<Counts>) {
        self.drop_derived();
        self.transcript = Arc::new(transcript);
        let heavy = HeavySums::of(&self.transcript, &counts, 0..self.transcript.messages().len());
        self.heavy = BTreeMap::from([(self.tokenizer, heavy)]);
        self.counts = BTreeMap::from([(self.tokenizer, counts)]);
        self.figure_again();
    }

    /// Puts what the worker read on (and counted with `tokenizer`, and fitted) in place in
    /// the transcript and its counts, which grow where they are; false (nothing changed)
    /// when it was read on from another read or counted with another tokenizer.
    fn grow(
        &mut self,
        on: crate::transcript::ReadOn,
        tokenizer: crate::tokens::Tokenizer,
        counted: &[u64],
        fit: Fit,
    ) -> bool {
        if tokenizer != self.tokenizer || !self.counts.contains_key(&tokenizer) {
            return false;
        }
        // First, so that nothing else holds the parts that grow.
        self.drop_derived();
        self.counts.retain(|&t, _| t == tokenizer);
        // The binary-heavy sums of the messages read again, taken away before they go.
        let old_len = self.transcript.messages().len();
        let removed = HeavySums::of(
            &self.transcript,
            &self.counts[&tokenizer],
            on.kept().min(old_len)..old_len,
        );
        let Some(kept) = Arc::make_mut(&mut self.transcript).apply(on) else {
            return false;
        };
        let counts = self.counts.get_mut(&tokenizer).expect("checked above");
        Arc::make_mut(counts).extend_with(kept, counted);
        let added = HeavySums::of(&self.transcript, counts, kept..self.transcript.messages().len());
        let heavy = match self.heavy.get(&tokenizer) {
            Some(heavy) => heavy.minus(removed),
            None => HeavySums::of(&self.transcript, counts, 0..kept),
        };
        self.heavy = BTreeMap::from([(tokenizer, heavy.plus(added))]);
        // The worker's fit of the grown transcript (else the plan fits it again).
        self.calibration = match fit {
            Fit::Made(fit) => Some((tokenizer, fit)),
            Fit::Unknown => None,
        };
        if let Some(follow) = &mut self.follow {
            follow.grown += 1;
            follow.meter = Some(match &follow.meter {
                Some(earlier) => crate::meter::meter_read_on(&self.transcript, counts, earlier),
                None => crate::meter::meter(&self.transcript, counts, self.given_window),
            });
        }
        self.figure_again();
        true
    }

    /// Drops what was made from the last read: passes, summaries, replays, charts.
    fn drop_derived(&mut self) {
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
    }

    /// The figures of a new read: the default budget, the plan.
    fn figure_again(&mut self) {
        self.follow_default_budget();
        self.replan();
    }
}
