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

/// The work a runner does with a job: [`run`], or a stand-in in tests.
pub type Work = fn(Job, &CancelToken, &dyn Fn(Done)) -> Done;

/// Runs jobs on threads and sends what they produce to `deliver`.
pub struct Runner<E: Send + 'static> {
    running: BTreeMap<JobKind, (CancelToken, JoinHandle<()>)>,
    deliver: Sender<E>,
    wrap: fn(Done) -> E,
    work: Work,
}

impl<E: Send + 'static> Runner<E> {
    /// A runner sending every result, wrapped by `wrap`, to `deliver`.
    pub fn new(deliver: Sender<E>, wrap: fn(Done) -> E) -> Runner<E> {
        Runner::with_work(deliver, wrap, run)
    }

    /// A runner doing `work` with each job.
    pub fn with_work(deliver: Sender<E>, wrap: fn(Done) -> E, work: Work) -> Runner<E> {
        Runner {
            running: BTreeMap::new(),
            deliver,
            wrap,
            work,
        }
    }

    /// Starts `job`, cancelling the running job of its kind.
    pub fn start(&mut self, job: Job) {
        let kind = job.kind();
        self.cancel(kind);
        let token = CancelToken::new();
        let (worker_token, deliver, wrap, work) = (token.clone(), self.deliver.clone(), self.wrap, self.work);
        let handle = std::thread::spawn(move || {
            let progress = |done: Done| {
                if !worker_token.is_cancelled() {
                    let _ = deliver.send(wrap(done));
                }
            };
            // A panic in a job is a bug: it is reported (always, cancelled or not), and the
            // TUI restores the terminal and exits with an error instead of living on.
            let outcome =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(job, &worker_token, &progress)));
            match outcome {
                Ok(done) if !worker_token.is_cancelled() => {
                    let _ = deliver.send(wrap(done));
                }
                // A cancelled job's result is dropped: a newer request (or none) owns the kind.
                Ok(_) => {}
                Err(payload) => {
                    let message = payload
                        .downcast_ref::<&str>()
                        .map(|s| (*s).to_owned())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a background job panicked".to_owned());
                    let _ = deliver.send(wrap(Done::Panicked { kind, message }));
                }
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
