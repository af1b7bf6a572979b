//! How large the summary is that the agent itself writes when it compacts, as known
//! before a moment of the session. A replay makes its own summary (the extractive one
//! by default, a few hundred tokens); the agent's model writes its own, often ten times
//! longer (Claude Code asks for nine detailed sections). Predicting the agent's next
//! request with the replay's summary predicts it too small, so the policy of the agent
//! that wrote the log weighs its summary as the agent's earlier summaries weighed: those
//! of this log before the firing, else those of the user's earlier sessions
//! ([`crate::transcript::earlier`]: the same release first, then any) — never one
//! written after the moment predicted (no look-ahead). With none known, the policy's
//! usual size for its agent stands where it has one (`Policy::summary_prior`), said in
//! the warnings; else the replay's own summary, and nothing is said.

use crate::transcript::Transcript;

/// The agent's summary size known at a firing, and where it comes from (in words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KnownSummary {
    /// ctxlens' count of the summary message (as the replay counts its own).
    pub counted: u64,
    /// Where the figure comes from, for the replay's warnings.
    pub source: String,
}

/// The agent's summaries a session knows of, each counted once: a replay asks at every
/// firing ([`KnownSummaries::before`]), which must not count every summary again (nor scan
/// the log for the answer after each compaction) each time.
#[derive(Debug, Default)]
pub struct KnownSummaries {
    /// This log's compactions with a summary, in order.
    own: Vec<OwnSummary>,
    /// The earlier sessions' summaries' counts, by file and line (read once they are asked
    /// for: gathering the earlier sessions reads other files).
    earlier: std::sync::OnceLock<std::collections::HashMap<(String, usize), u64>>,
}

/// One of this log's summaries.
#[derive(Debug)]
struct OwnSummary {
    /// The compaction's position.
    at: usize,
    /// The first message at or after it with recorded usage (the agent answered): the
    /// summary is known to a call after it. `usize::MAX` when none.
    answered: usize,
    /// Its count.
    counted: u64,
}

impl KnownSummaries {
    /// The summaries of `whole` (this log's; the earlier sessions' are counted when first
    /// asked for).
    pub fn of(whole: &Transcript) -> KnownSummaries {
        let recorded: Vec<usize> = whole
            .messages()
            .iter()
            .enumerate()
            .filter(|(_, m)| m.recorded().is_some())
            .map(|(i, _)| i)
            .collect();
        let own = whole
            .compactions()
            .iter()
            .filter_map(|c| {
                let summary = c.summary_message?;
                // A summary the provider keeps encrypted (Codex's remote compaction) is
                // sized as Codex sizes its item, from the sealed content's length; one
                // with no text at all is no sample of the size, not a summary of none.
                let counted = if whole.is_sealed_summary(summary) {
                    let item: serde_json::Value = serde_json::from_str(&whole.request(summary)).ok()?;
                    let sealed = item.get("encrypted_content")?.as_str()?.len() as u64;
                    crate::policy::codex::sealed_tokens(sealed)
                } else {
                    let text = whole.readable_text(summary);
                    if text.trim().is_empty() {
                        return None;
                    }
                    summary_counted(whole, &text)
                };
                let answered = recorded
                    .get(recorded.partition_point(|&i| i < c.at))
                    .copied()
                    .unwrap_or(usize::MAX);
                (counted > 0).then_some(OwnSummary {
                    at: c.at,
                    answered,
                    counted,
                })
            })
            .collect();
        KnownSummaries {
            own,
            earlier: std::sync::OnceLock::new(),
        }
    }

    /// The median of the summaries the agent wrote before message `at` of `whole` (the
    /// session these were made of): this log's own compactions first, else the earlier
    /// sessions'. `None` with none known.
    pub fn before(&self, whole: &Transcript, at: usize) -> Option<KnownSummary> {
        // Known once the agent answered after it, before this call (the compaction being
        // predicted is not: its summary is the answer).
        let own: Vec<u64> = self
            .own
            .iter()
            .filter(|s| s.at < at && s.answered < at)
            .map(|s| s.counted)
            .collect();
        if let Some(counted) = median(own.clone()) {
            return Some(KnownSummary {
                counted,
                source: format!(
                    "summary size {counted}: {} this agent wrote earlier in this log",
                    summaries(own.len())
                ),
            });
        }
        self.earlier_sessions(whole, at)
    }

    /// The summaries of the user's earlier sessions before message `at`: of the log's own
    /// release when there are any, else of any release of the agent.
    fn earlier_sessions(&self, whole: &Transcript, at: usize) -> Option<KnownSummary> {
        let sessions = whole.earlier_sessions();
        if sessions.all(whole).is_empty() {
            return None;
        }
        let now = whole.time_before(at)?;
        let version = whole.client_version();
        let same_release = sessions.before(whole, &now, version.as_deref());
        let (found, which) = if same_release.iter().any(|c| c.summary.is_some()) {
            (same_release, "of the same release")
        } else {
            (sessions.before_any_release(whole, &now), "of another release")
        };
        let counts = self.earlier.get_or_init(|| {
            sessions
                .all(whole)
                .iter()
                .filter_map(|c| Some(((c.file.clone(), c.line), summary_counted(whole, c.summary.as_deref()?))))
                .collect()
        });
        let sizes: Vec<u64> = found
            .iter()
            .filter(|c| c.summary.is_some())
            .filter_map(|c| counts.get(&(c.file.clone(), c.line)).copied())
            .collect();
        let counted = median(sizes.clone())?;
        let latest = found
            .iter()
            .filter(|c| c.summary.is_some())
            .max_by(|a, b| a.time.cmp(&b.time))?;
        Some(KnownSummary {
            counted,
            source: format!(
                "summary size {counted}: {} of earlier sessions {which} (the latest: {} line {})",
                summaries(sizes.len()),
                latest.file,
                latest.line
            ),
        })
    }
}

/// The agent's summary known at message `at` of `whole` ([`KnownSummaries::before`], for
/// one question; a replay keeps the [`KnownSummaries`] for all its firings).
pub fn known_before(whole: &Transcript, at: usize) -> Option<KnownSummary> {
    KnownSummaries::of(whole).before(whole, at)
}

/// ctxlens' count of a summary's `text` as a user message of `whole` (in its count
/// form), the way a replay counts the summary it inserts.
pub fn summary_counted(whole: &Transcript, text: &str) -> u64 {
    crate::tokens::count_json(
        whole,
        crate::tokens::Tokenizer::Estimate,
        &serde_json::json!({"role": "user", "content": text}).to_string(),
    )
}

/// "the summary" or "the median of the N summaries".
fn summaries(n: usize) -> String {
    if n == 1 {
        "the summary".to_owned()
    } else {
        format!("the median of the {n} summaries")
    }
}

/// The median (the lower of the two middle values), `None` for none.
fn median(mut values: Vec<u64>) -> Option<u64> {
    values.sort_unstable();
    values.get(values.len().checked_sub(1)? / 2).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rule as first written: at each question, every compaction before `at` whose
    /// summary the agent answered after (recorded usage between it and `at`), counted anew.
    fn own_by_scan(whole: &Transcript, at: usize) -> Option<u64> {
        let own: Vec<u64> = whole
            .compactions()
            .iter()
            .filter(|c| {
                c.at < at
                    && whole.messages()[c.at..at.min(whole.messages().len())]
                        .iter()
                        .any(|m| m.recorded().is_some())
            })
            .filter_map(|c| c.summary_message)
            .map(|i| summary_counted(whole, &whole.readable_text(i)))
            .filter(|&n| n > 0)
            .collect();
        median(own)
    }

    #[test]
    fn summaries_counted_once_answer_as_the_scan_at_every_message_of_the_shipped_logs() {
        let (mut asked, mut known) = (0, 0);
        for (name, text) in crate::test_data::real_claude_code_logs() {
            let whole = Transcript::parse(name, text.into_bytes(), None)
                .expect("a shipped log")
                .whole_session()
                .expect("its whole session");
            let table = KnownSummaries::of(&whole);
            for at in 0..=whole.messages().len() + 1 {
                let answer = table.before(&whole, at).map(|k| k.counted);
                assert_eq!(answer, own_by_scan(&whole, at), "{name} at {at}");
                asked += 1;
                known += usize::from(answer.is_some());
            }
        }
        assert!(asked > 200 && known > 0, "{asked} asked, {known} known");
    }

    #[test]
    fn the_median_is_the_lower_middle() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![7]), Some(7));
        assert_eq!(median(vec![9, 1, 5]), Some(5));
        assert_eq!(median(vec![4, 1, 9, 2]), Some(2));
    }
}
