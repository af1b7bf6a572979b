//! Cooperative cancellation: a [`CancelToken`] is handed to long work (counting, the
//! deterministic pass, summaries, rendering, writes), which checks it between steps and
//! stops with [`crate::Error::Cancelled`]. A summarizer command also kills its process
//! group when it sees the token set.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// A flag shared between whoever asked for the work and the work itself.
#[derive(Debug, Clone, Default)]
pub struct CancelToken(Arc<AtomicBool>);

impl CancelToken {
    /// A token that is not cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// Asks the work to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// True once [`CancelToken::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// `Err(Cancelled)` once cancelled: `token.check()?` between steps.
    pub fn check(&self) -> crate::Result<()> {
        if self.is_cancelled() {
            Err(crate::Error::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// A token nobody cancels, for one-shot command-line work.
pub fn never() -> &'static CancelToken {
    static NEVER: std::sync::OnceLock<CancelToken> = std::sync::OnceLock::new();
    NEVER.get_or_init(CancelToken::new)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clones_share_the_flag() {
        let token = CancelToken::new();
        let worker = token.clone();
        assert!(worker.check().is_ok());
        token.cancel();
        assert!(matches!(worker.check(), Err(crate::Error::Cancelled)));
        assert!(!never().is_cancelled());
    }
}
