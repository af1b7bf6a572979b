//! [`Slot`]: one background job's place in the [`super::App`]: the last result made, with
//! the key of the inputs it was made for, and the key of the job in flight. Every job the
//! App starts keeps its state in one, so "is this result still for what is on screen?" and
//! "is this the job I am waiting for?" are answered in one place, the same way for all.

/// The last result of one kind of job and the job of that kind in flight. `K` names a
/// job's inputs; a result is used only while its key is the current one.
#[derive(Debug)]
pub(super) struct Slot<K, V> {
    made: Option<(K, V)>,
    running: Option<K>,
}

/// A slot for jobs whose result goes elsewhere (a view opens with it): only the flight.
pub(super) type InFlight<K> = Slot<K, ()>;

impl<K: PartialEq + Clone, V> Slot<K, V> {
    /// Nothing made, nothing running.
    pub(super) const fn new() -> Slot<K, V> {
        Slot {
            made: None,
            running: None,
        }
    }

    /// The result made for exactly `key`.
    pub(super) fn get(&self, key: &K) -> Option<&V> {
        self.made.as_ref().filter(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// The last result made, when `keep` accepts its key (a chart shows the last one of
    /// the same session while the next one runs, so it never blanks).
    pub(super) fn latest(&self, keep: impl FnOnce(&K) -> bool) -> Option<&V> {
        self.made.as_ref().filter(|(k, _)| keep(k)).map(|(_, v)| v)
    }

    /// Whether a job of this kind is in flight.
    pub(super) fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Whether the job for `key` is in flight.
    pub(super) fn is_running_for(&self, key: &K) -> bool {
        self.running.as_ref() == Some(key)
    }

    /// Asks for `key`'s result: true (and `key` marked in flight) when the caller must
    /// start the job, false when the result is made or its job already runs.
    pub(super) fn start(&mut self, key: &K) -> bool {
        if self.get(key).is_some() || self.is_running_for(key) {
            return false;
        }
        self.running = Some(key.clone());
        true
    }

    /// Marks `key` in flight whatever was made before (work the user asked for again).
    pub(super) fn restart(&mut self, key: K) {
        self.running = Some(key);
    }

    /// Forgets the job in flight (it was cancelled): its result will be dropped.
    pub(super) fn cancel(&mut self) {
        self.running = None;
    }

    /// A job of this kind ended: true when it is the one in flight (which is then no
    /// longer), false for a stale one whose result must be dropped.
    pub(super) fn land(&mut self, key: &K) -> bool {
        if self.is_running_for(key) {
            self.running = None;
            true
        } else {
            false
        }
    }

    /// Keeps `value` as the result for `key`.
    pub(super) fn put(&mut self, key: K, value: V) {
        self.made = Some((key, value));
    }

    /// A job ended with `result`: the result of the one in flight is kept and its error
    /// returned for the caller to show; a stale one is dropped (`Ok`).
    pub(super) fn finish<E>(&mut self, key: K, result: Result<V, E>) -> Result<(), E> {
        if !self.land(&key) {
            return Ok(());
        }
        self.put(key, result?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Slot;

    #[test]
    fn a_result_is_used_only_for_its_own_key() {
        let mut slot: Slot<u32, &str> = Slot::new();
        assert!(slot.start(&1));
        assert!(!slot.start(&1), "already running");
        assert!(slot.is_running_for(&1));
        assert_eq!(slot.finish::<()>(1, Ok("one")), Ok(()));
        assert!(!slot.is_running());
        assert_eq!(slot.get(&1), Some(&"one"));
        assert_eq!(slot.get(&2), None);
        assert!(!slot.start(&1), "already made");
        assert_eq!(slot.latest(|k| *k == 1), Some(&"one"));
    }

    #[test]
    fn a_stale_result_is_dropped_and_the_newer_flight_kept() {
        let mut slot: Slot<u32, &str> = Slot::new();
        assert!(slot.start(&1));
        assert!(slot.start(&2), "new inputs: a new job");
        assert_eq!(slot.finish::<()>(1, Ok("one")), Ok(()));
        assert_eq!(slot.get(&1), None, "the stale result is dropped");
        assert!(slot.is_running_for(&2));
        assert_eq!(slot.finish(2, Err("failed")), Err("failed"));
        assert!(!slot.is_running());
        slot.restart(3);
        slot.cancel();
        assert!(!slot.land(&3), "a cancelled job's result is stale");
    }
}
