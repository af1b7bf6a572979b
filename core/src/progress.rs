//! Progress of long work, told as it goes: steps done of a total, reported to whoever
//! watches (a progress line, a front end's ETA) at most once per hundredth of the total,
//! so a million steps taken on many threads cost a hundred calls.

use std::sync::atomic::{AtomicUsize, Ordering};

/// What the watcher is told: `(done, of)`.
pub type Tell<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// Steps done of a total, shared by the threads that take them.
pub struct Progress<'a> {
    total: AtomicUsize,
    done: AtomicUsize,
    tell: Tell<'a>,
    /// Nobody watches: steps are not even counted (no shared counter for every thread
    /// of every caller to contend for).
    silent: bool,
}

/// Progress nobody watches.
pub static SILENT: Progress<'static> = Progress {
    total: AtomicUsize::new(0),
    done: AtomicUsize::new(0),
    tell: &|_, _| {},
    silent: true,
};

impl<'a> Progress<'a> {
    /// No steps yet, told to `tell`.
    pub fn new(tell: Tell<'a>) -> Progress<'a> {
        Progress {
            total: AtomicUsize::new(0),
            done: AtomicUsize::new(0),
            tell,
            silent: false,
        }
    }

    /// `steps` more to take (work learns its size as it goes).
    pub fn expect(&self, steps: usize) {
        if self.silent {
            return;
        }
        self.total.fetch_add(steps, Ordering::Relaxed);
    }

    /// `steps` taken; the watcher is told when a hundredth of the total is crossed.
    pub fn step(&self, steps: usize) {
        if self.silent {
            return;
        }
        let before = self.done.fetch_add(steps, Ordering::Relaxed);
        let total = self.total.load(Ordering::Relaxed);
        if total == 0 {
            return;
        }
        let after = (before + steps).min(total);
        if before * 100 / total != after * 100 / total {
            (self.tell)(after, total);
        }
    }

    /// `(done, of)` so far.
    pub fn now(&self) -> (usize, usize) {
        let total = self.total.load(Ordering::Relaxed);
        (self.done.load(Ordering::Relaxed).min(total), total)
    }
}

impl std::fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (done, of) = self.now();
        write!(f, "Progress({done} of {of})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn the_watcher_hears_each_hundredth_once_from_many_threads() {
        let heard = Mutex::new(Vec::new());
        {
            let tell = |done: usize, of: usize| heard.lock().expect("not poisoned").push((done, of));
            let progress = Progress::new(&tell);
            progress.expect(10_000);
            std::thread::scope(|scope| {
                for _ in 0..4 {
                    scope.spawn(|| (0..2_500).for_each(|_| progress.step(1)));
                }
            });
            assert_eq!(progress.now(), (10_000, 10_000));
        }
        let heard = heard.into_inner().expect("not poisoned");
        assert_eq!(heard.len(), 100, "one call per hundredth");
        assert!(heard.iter().all(|&(_, of)| of == 10_000));
        assert_eq!(heard.iter().map(|&(done, _)| done).max(), Some(10_000));
    }

    #[test]
    fn silent_progress_takes_steps_quietly() {
        SILENT.expect(10);
        SILENT.step(5);
        assert_eq!(SILENT.now(), (0, 0), "not even counted");
        let progress = Progress::new(&|_, _| panic!("no total: nothing to tell"));
        progress.step(3);
        assert_eq!(progress.now(), (0, 0));
    }
}
