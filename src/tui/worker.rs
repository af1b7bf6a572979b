//! Background token counting. Counting a large transcript with a BPE vocabulary takes
//! hundreds of milliseconds, so it runs on a worker thread that reports progress as
//! actions; a newer request cancels an older one (the latest request wins).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;

use super::action::Action;
use super::event::Event;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// Starts counting `transcript` with `tokenizer` for request `generation`. `latest` holds
/// the newest generation; when it moves on, this worker stops at its next chunk.
pub fn spawn_count(
    transcript: Arc<Transcript>,
    tokenizer: Tokenizer,
    generation: u64,
    latest: Arc<AtomicU64>,
    events: Sender<Event>,
) {
    latest.store(generation, Ordering::SeqCst);
    std::thread::spawn(move || {
        let progress_events = events.clone();
        let counts = Counts::compute_with_progress(&transcript, tokenizer, |done, total| {
            let current = latest.load(Ordering::SeqCst) == generation;
            current
                && progress_events
                    .send(Event::Action(Action::CountProgress {
                        generation,
                        done,
                        total,
                    }))
                    .is_ok()
        });
        if let Some(counts) = counts {
            // The receiver is gone only when the app has quit.
            let _ = events.send(Event::Action(Action::CountDone {
                generation,
                counts: Arc::new(counts),
            }));
        }
    });
}
