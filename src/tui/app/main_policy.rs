//! Another agent's policy as the main plan: Enter on a row of the compare view (`C`) makes
//! the message list and the detail pane show that policy's plan of the transcript — which
//! messages it keeps, summarizes, drops, clears or cuts short — with the settings the
//! comparison ran it with (its defaults for the model's window). Enter on `toolnexus`
//! goes back to the §7F plan the budget keys tune.

use crate::policy::{self, PolicyPlan, PolicySettings, Section};
use crate::text::thousands;

use super::{App, Mode, Status};

/// The chosen policy and its plan of the transcript.
#[derive(Debug, Clone)]
pub struct MainPolicy {
    /// Its name.
    pub name: &'static str,
    /// Its plan.
    pub plan: PolicyPlan,
}

impl MainPolicy {
    /// Where message `index` ends up under this policy.
    pub fn section(&self, index: usize) -> Section {
        self.plan.messages.get(index).map_or(Section::Tail, |r| r.section)
    }

    /// Whether the policy keeps message `index` only in part.
    pub fn truncated(&self, index: usize) -> bool {
        self.plan.messages.get(index).is_some_and(|r| r.truncated)
    }

    /// Where its kept tail starts, when it takes away messages before it.
    pub fn cut_at(&self) -> Option<usize> {
        let rows = &self.plan.messages;
        let first_tail = rows.iter().position(|r| r.section == Section::Tail)?;
        rows[..first_tail]
            .iter()
            .any(|r| matches!(r.section, Section::Summarized | Section::Dropped))
            .then_some(first_tail)
    }

    /// One line on what it does: fires or not, how many messages each way.
    pub fn summary(&self) -> String {
        if !self.plan.compacted {
            return format!("{}: does not fire on this transcript", self.name);
        }
        let count = |s: Section| self.plan.messages.iter().filter(|r| r.section == s).count();
        let mut parts = Vec::new();
        for (section, verb) in [
            (Section::Summarized, "summarized"),
            (Section::Dropped, "dropped"),
            (Section::Cleared, "cleared"),
        ] {
            let n = count(section);
            if n > 0 {
                parts.push(format!("{} {verb}", thousands(n as u64)));
            }
        }
        let cut = self.plan.messages.iter().filter(|r| r.truncated).count();
        if cut > 0 {
            parts.push(format!("{} cut short", thousands(cut as u64)));
        }
        format!("{}: {}", self.name, parts.join(", "))
    }
}

impl App {
    /// Makes the policy on row `selected` of the compare view the main plan (`toolnexus`:
    /// back to §7F).
    pub(super) fn use_policy(&mut self, selected: usize) {
        let Some(chosen) = policy::all().get(selected).copied() else {
            return;
        };
        self.mode = Mode::Normal;
        if chosen.engine() == policy::Engine::TailCompactor {
            self.main_policy = None;
            self.status = Status::info("the list follows the §7F plan again (the budget keys tune it)");
            return;
        }
        // The settings the comparison ran it with, so the list agrees with its row.
        let pairs: Vec<(String, String)> = self
            .compared_policies()
            .and_then(|rows| rows.iter().find(|r| r.replayed.policy == chosen.name()))
            .map(|r| r.settings.clone())
            .unwrap_or_default();
        let mut settings = PolicySettings::default();
        for (key, value) in &pairs {
            settings = settings.with(key, value);
        }
        match chosen.plan(&self.transcript, &settings) {
            Ok(plan) => {
                let main = MainPolicy {
                    name: chosen.name(),
                    plan,
                };
                self.status = Status::info(format!(
                    "the list follows {} (C, Enter on toolnexus: back to §7F)",
                    main.summary()
                ));
                self.main_policy = Some(main);
            }
            Err(e) => self.status = Status::error(format!("{}: {e}", chosen.name())),
        }
    }
}
