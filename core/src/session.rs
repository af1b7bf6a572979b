//! A loaded session and what the whole-life answers derive from it, made once and shared
//! by every front end (the CLI's `replay`, `sweep` and `compare`, the TUI's lifetime
//! views, Python): the whole conversation (every epoch of a log joined), its counts, the
//! model view a replay walks, and — each made the first time it is asked for — its
//! history, the fit of recorded usage per epoch, the facts the loss counts judge, and
//! what its recorded calls cost.
//!
//! Without the deterministic pass the view is of the session itself, so the session is
//! held once, not twice (a 100k-message log is tens of megabytes).

use std::sync::OnceLock;

use crate::calibrate::EpochFit;
use crate::cancel::CancelToken;
use crate::cost::SessionCost;
use crate::history::History;
use crate::replay::lost::FactIndex;
use crate::replay::View;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// A session, whole, with what is derived from it.
#[derive(Debug)]
pub struct Session {
    /// The whole session and its counts when the view is of another transcript (the
    /// deterministic pass's output); `None` when the view is the session's own.
    apart: Option<(Transcript, Counts)>,
    /// The model view (past summaries left out) a replay walks.
    view: View,
    history: OnceLock<History>,
    fits: OnceLock<Vec<EpochFit>>,
    facts: OnceLock<FactIndex>,
    cost: OnceLock<Option<SessionCost>>,
}

impl Session {
    /// The session `live` belongs to (every epoch of a log; the transcript itself
    /// otherwise), counted with `tokenizer` — `live_counts` are reused when `live` is
    /// already the whole session and they are by that tokenizer — and its model view,
    /// on the deterministic pass's output when `deterministic_pass`.
    pub fn load(
        live: &Transcript,
        live_counts: Option<&Counts>,
        tokenizer: Tokenizer,
        deterministic_pass: bool,
        cancel: &CancelToken,
    ) -> crate::Result<Session> {
        let whole = live.whole_session()?;
        let reusable = live_counts.filter(|c| {
            c.tokenizer == tokenizer
                && whole.messages().len() == live.messages().len()
                && whole.conversation() == live.conversation()
        });
        let counts = match reusable {
            Some(counts) => counts.clone(),
            None => Counts::compute_cancellable(&whole, tokenizer, cancel, |_, _| {})?,
        };
        Session::of(whole, counts, deterministic_pass, cancel)
    }

    /// The session `whole` (already joined) with its `counts`.
    pub fn of(
        whole: Transcript,
        counts: Counts,
        deterministic_pass: bool,
        cancel: &CancelToken,
    ) -> crate::Result<Session> {
        let (apart, view) = if deterministic_pass {
            let view = crate::replay::view_for(&whole, &counts, true, cancel)?;
            (Some((whole, counts)), view)
        } else {
            (None, View::new(whole, counts))
        };
        Ok(Session {
            apart,
            view,
            history: OnceLock::new(),
            fits: OnceLock::new(),
            facts: OnceLock::new(),
            cost: OnceLock::new(),
        })
    }

    /// The whole session.
    pub fn whole(&self) -> &Transcript {
        self.apart.as_ref().map_or(&self.view.transcript, |(whole, _)| whole)
    }

    /// Its counts.
    pub fn counts(&self) -> &Counts {
        self.apart.as_ref().map_or(&self.view.counts, |(_, counts)| counts)
    }

    /// The model view a replay walks.
    pub fn view(&self) -> &View {
        &self.view
    }

    /// Its epochs and real compactions.
    pub fn history(&self) -> &History {
        self.history
            .get_or_init(|| crate::history::history(self.whole(), self.counts()))
    }

    /// Each epoch's fit of recorded usage (how the provider's figures map to the counts).
    pub fn fits(&self) -> &[EpochFit] {
        self.fits
            .get_or_init(|| crate::calibrate::calibrate_epochs(self.whole(), self.counts()))
    }

    /// Its facts and human turns, as the loss counts judge them (made once; a cancelled
    /// build is not kept).
    pub fn facts(&self, cancel: &CancelToken) -> crate::Result<&FactIndex> {
        if let Some(facts) = self.facts.get() {
            return Ok(facts);
        }
        let built = FactIndex::build(&self.view, cancel)?;
        // Two threads may build it at once: the first kept is the one every caller sees.
        Ok(self.facts.get_or_init(|| built))
    }

    /// What its recorded calls cost, priced with the built-in table (`None` for a
    /// format that records no usage per call).
    pub fn cost(&self) -> Option<&SessionCost> {
        self.cost
            .get_or_init(|| crate::cost::session_cost(self.whole(), crate::cost::PriceTable::builtin()))
            .as_ref()
    }
}
