//! The one "latest request wins" helper every background job goes through: starting a
//! job cancels the running one of its kind (its token is set, so it stops at its next
//! check and its result is dropped); quitting cancels them all and gives their threads a
//! moment to stop (a summarizer command kills its process group on the way out).

use std::collections::BTreeMap;
use std::sync::mpsc::Sender;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{run, Done, Job, JobKind};
use crate::cancel::CancelToken;

/// Runs jobs on threads and sends what they produce to `deliver`.
pub struct Runner<E: Send + 'static> {
    running: BTreeMap<JobKind, (CancelToken, JoinHandle<()>)>,
    deliver: Sender<E>,
    wrap: fn(Done) -> E,
}

impl<E: Send + 'static> Runner<E> {
    /// A runner sending every result, wrapped by `wrap`, to `deliver`.
    pub fn new(deliver: Sender<E>, wrap: fn(Done) -> E) -> Runner<E> {
        Runner {
            running: BTreeMap::new(),
            deliver,
            wrap,
        }
    }

    /// Starts `job`, cancelling the running job of its kind.
    pub fn start(&mut self, job: Job) {
        let kind = job.kind();
        self.cancel(kind);
        let token = CancelToken::new();
        let (worker_token, deliver, wrap) = (token.clone(), self.deliver.clone(), self.wrap);
        let handle = std::thread::spawn(move || {
            let progress = |done: Done| {
                if !worker_token.is_cancelled() {
                    let _ = deliver.send(wrap(done));
                }
            };
            let done = run(job, &worker_token, &progress);
            // A cancelled job's result is dropped: a newer request (or none) owns the kind.
            if !worker_token.is_cancelled() {
                let _ = deliver.send(wrap(done));
            }
        });
        self.running.insert(kind, (token, handle));
    }

    /// Cancels the running job of `kind`, if any.
    pub fn cancel(&mut self, kind: JobKind) {
        if let Some((token, _)) = self.running.remove(&kind) {
            token.cancel();
        }
    }

    /// Cancels every job and waits up to `grace` for their threads to stop.
    pub fn shut_down(&mut self, grace: Duration) {
        let deadline = Instant::now() + grace;
        let running = std::mem::take(&mut self.running);
        for (token, _) in running.values() {
            token.cancel();
        }
        for (_, (_, handle)) in running {
            while !handle.is_finished() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}
