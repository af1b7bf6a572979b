//! A policy added the way docs/policies.md says — its own module implementing
//! [`Policy`], one line in the registry — runs through every shared path (defaults,
//! `--set` checks, compare, the policy sweep, plans) with no other file naming it. This
//! module is that policy, written as a newcomer would write a 16th one; the test passes it
//! where the registry's list would go.

use super::compare::{check_set, compare, settings_for};
use super::sweep::{sweep_policy, SweepInputs, Vary};
use super::{ChatMessage, Policy, PolicyPlan, PolicySettings, Section};
use crate::cancel::never;
use crate::summarize::Placeholder;
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// Keeps the last `max_messages` messages and drops the rest (no summary).
struct KeepLast;

static KEEP_LAST: KeepLast = KeepLast;

impl Policy for KeepLast {
    fn name(&self) -> &'static str {
        "keep-last"
    }

    fn defaults(&self, _window: u64) -> Vec<(&'static str, String)> {
        vec![("max_messages", "6".to_owned())]
    }

    fn keys(&self) -> &'static [&'static str] {
        &["max_messages"]
    }

    fn rewrites_history(&self) -> bool {
        false
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let keep = usize::try_from(settings.number_or("max_messages", 6)?).unwrap_or(usize::MAX);
        let first_kept = chat.len().saturating_sub(keep);
        let mut plan = PolicyPlan::unchanged(self.name(), "messages", chat.len());
        for row in &mut plan.messages {
            row.section = if row.index < first_kept {
                Section::Dropped
            } else {
                Section::Tail
            };
        }
        plan.compacted = first_kept > 0;
        Ok(plan)
    }
}

fn session() -> (Transcript, Counts) {
    let text = crate::synth::agent_session(400, crate::synth::SessionShape::SHORT_TURNS, 3);
    let transcript = Transcript::parse("added.json", text.into_bytes(), None).expect("a generated session");
    let counts = Counts::compute(&transcript, Tokenizer::Estimate);
    (transcript, counts)
}

#[test]
fn a_new_policy_runs_through_compare_sweep_and_plans_from_its_own_module() {
    let (transcript, counts) = session();
    let policies: [&'static dyn Policy; 1] = [&KEEP_LAST];
    // Its defaults come from its module, `--set` is checked against its keys.
    assert_eq!(
        settings_for(&KEEP_LAST, 200_000, &[])
            .expect("defaults")
            .number_or("max_messages", 0)
            .expect("a number"),
        6
    );
    assert!(
        check_set(&policies, &["keep-last.max_mesages=4".to_owned()]).is_err(),
        "a typo is refused"
    );
    let set = ["keep-last.max_messages=40".to_owned()];
    check_set(&policies, &set).expect("its own key");
    // Compared: it drops messages at calls once the view holds more than 40.
    let rows = compare(
        &transcript,
        &counts,
        &policies,
        200_000,
        &set,
        &Placeholder,
        never(),
        None,
    )
    .expect("compares");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].replayed.policy, "keep-last");
    assert!(!rows[0].replayed.firings.is_empty(), "it acts on a 400-message session");
    assert!(
        rows[0].replayed.calls.iter().all(|c| c.messages <= 41),
        "no call sends more than it keeps (+ the answer's prompt)"
    );
    // Swept over its key: fewer kept messages, more messages dropped per call.
    let vary: Vary = "max_messages=10,100".parse().expect("a list");
    let swept = sweep_policy(&SweepInputs {
        whole: &transcript,
        counts: &counts,
        policy: &KEEP_LAST,
        settings: &PolicySettings::default(),
        vary: &vary,
        summarizer: &Placeholder,
        cancel: never(),
        window: None,
        prices: None,
    })
    .expect("sweeps");
    assert_eq!(swept.rows.len(), 2);
    let plan = KEEP_LAST
        .plan(&transcript, &PolicySettings::default().with("max_messages", 10))
        .expect("plans");
    assert_eq!(plan.messages.iter().filter(|r| r.section == Section::Tail).count(), 10);
}
