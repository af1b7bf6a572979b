//! `claude-code`: Claude Code's auto-compaction. It counts the whole request as the
//! provider bills it — system prompt and tool definitions included, which no log holds —
//! so ctxlens counts `overhead + ratio × counted`, fitted to the log's recorded usage (or
//! the overhead assumed and said). It fires at `threshold` and keeps nothing: the next
//! request is the system prompt, the tools and one user message with the summary.
//!
//! The threshold, from what was known before the compaction it predicts
//! ([`known_threshold`]; always said in the plan's warnings):
//! 1. `--set threshold=N`;
//! 2. this log's automatic compactions *before* that point: each brackets the threshold
//!    between the last request recorded before it and its `preTokens`; the release's rule
//!    is taken when it falls in the bracket (it is exact), else the bracket's middle (the
//!    user lowered it: `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, another reply reserve);
//! 3. the user's earlier sessions of the same release and window, before that point
//!    (the log's own folder first, then the sessions root; [`crate::transcript::earlier`]),
//!    their brackets taken as in 2;
//! 4. the rule of the release that wrote the log (`version` on its records, or `--set
//!    version=` / `--policy claude-code@VERSION`), read from its published `cli.js`
//!    ([`ReleaseRule`]);
//! 5. the documented default: the effective window (window − up to 20,000 reserved for
//!    output) − 13,000, lowered (never raised) by `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`
//!    (`autocompact_pct`, a percentage of the effective window, decimals allowed).

use super::chat::{ChatMessage, Kind};
use super::running::Running;
use super::{Inserted, Policy, PolicyPlan, PolicySettings, Section};
use crate::transcript::earlier::EarlierCompaction;
use crate::transcript::Transcript;

/// The window when neither the user nor the model says (Claude's standard window).
pub const DEFAULT_WINDOW: u64 = 200_000;
/// What Claude Code reserves for the reply at most.
pub const OUTPUT_RESERVE: u64 = 20_000;
/// The margin below the effective window where it compacts (reverse-engineered).
pub const AUTOCOMPACT_MARGIN: u64 = 13_000;
/// System prompt and tools when no recorded usage tells (Claude Code's own are 15–35k).
pub const ASSUMED_OVERHEAD: u64 = 20_000;

/// The window minus the reply's reserve.
pub fn effective_window(window: u64, max_output: u64) -> u64 {
    window.saturating_sub(max_output.min(OUTPUT_RESERVE))
}

/// Where Claude Code compacts by default, and with `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`.
pub fn default_threshold(window: u64, max_output: u64, pct: Option<f64>) -> u64 {
    let effective = effective_window(window, max_output);
    let default = effective.saturating_sub(AUTOCOMPACT_MARGIN);
    match pct {
        Some(p) => default.min((effective as f64 * p / 100.0).floor() as u64),
        None => default,
    }
}

/// Claude Code's automatic-compaction rule as its published releases wrote it (npm
/// `@anthropic-ai/claude-code`, `cli.js`; the two were told apart by bisecting the 1.0.x
/// releases: 1.0.70 is the last with the fraction, 1.0.71 the first with the margin).
/// Every release compares the last response's usage (input, cache writes, cache reads
/// and output) against `threshold(window − reply reserve)`; the window is 200,000
/// (1,000,000 for a `[1m]` model).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReleaseRule {
    /// Up to 1.0.70: 92% of the effective window (1.0.53's `cli.js`: `var rB1=0.92`,
    /// `to2()=ti2-r3A(model)` with `ti2=200000`; the same in 1.0.67 and 1.0.70).
    Fraction,
    /// From 1.0.71: the effective window less 13,000 (1.0.71's `var pK8=13000`; 1.0.128's
    /// `nP6=13000`; 2.0.76's `vH0=13000`, lowered by `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`).
    Margin,
}

impl ReleaseRule {
    /// The rule of release `version` (`1.0.53`); `None` for what is not a version or is
    /// older than 1.0 (not read).
    pub fn of(version: &str) -> Option<ReleaseRule> {
        let (major, minor, patch) = release_number(version)?;
        match (major, minor) {
            (0, _) => None,
            (1, 0) if patch <= 70 => Some(ReleaseRule::Fraction),
            _ => Some(ReleaseRule::Margin),
        }
    }

    /// Where it compacts for a `window`-token model whose reply reserve is `reserve`.
    pub fn threshold(self, window: u64, reserve: u64, pct: Option<f64>) -> u64 {
        let effective = window.saturating_sub(reserve);
        match self {
            ReleaseRule::Fraction => (effective as f64 * 0.92).floor() as u64,
            ReleaseRule::Margin => {
                let at = effective.saturating_sub(AUTOCOMPACT_MARGIN);
                pct.map_or(at, |p| at.min((effective as f64 * p / 100.0).floor() as u64))
            }
        }
    }

    /// The rule in words, with its source.
    pub fn describe(self, window: u64, reserve: u64) -> String {
        match self {
            ReleaseRule::Fraction => {
                format!("0.92 × ({window} − {reserve}), read from Claude Code 1.0.53's cli.js (1.0.x up to 1.0.70)")
            }
            ReleaseRule::Margin => format!(
                "({window} − {reserve}) − {AUTOCOMPACT_MARGIN}, read from Claude Code 1.0.71's, 1.0.128's, 2.0.76's and 2.1.41's cli.js (from 2.1.21 the reply's reserve is at most 20000)"
            ),
        }
    }
}

/// The first release that caps the reply's reserve at [`OUTPUT_RESERVE`] when it sizes
/// the window it compacts in: 2.1.21's `cli.js` computes it as `Math.min(maxOutput(model),
/// PL2)` with `PL2=20000` (and 2.1.30's, 2.1.32's, 2.1.41's the same under other names);
/// 2.1.20's takes the model's maximum whole. Found by reading each release between 2.0.76
/// and 2.1.41 from npm.
pub const RESERVE_CAPPED_FROM: (u64, u64, u64) = (2, 1, 21);

/// A release's `(major, minor, patch)`, when `version` is one.
pub(super) fn release_number(version: &str) -> Option<(u64, u64, u64)> {
    let mut parts = version.trim().split('.').map(|p| p.parse::<u64>().ok());
    Some((parts.next()??, parts.next()??, parts.next().flatten().unwrap_or(0)))
}

/// The reply's reserve a release sets aside for `model` (`CLAUDE_CODE_MAX_OUTPUT_TOKENS`
/// unset): 1.0.x keeps 8,192 for 3.5 and Haiku models, else 32,000; 2.x the smaller of
/// 32,000 and the model's own maximum (2.0.76's table); from 2.1.21 at most 20,000
/// ([`RESERVE_CAPPED_FROM`]).
pub fn release_reserve(version: &str, model: &str) -> u64 {
    let reserve = model_reserve(version, model);
    if release_number(version).is_some_and(|n| n >= RESERVE_CAPPED_FROM) {
        reserve.min(OUTPUT_RESERVE)
    } else {
        reserve
    }
}

/// The model's own reply maximum as a release's table gives it (see [`release_reserve`]).
fn model_reserve(version: &str, model: &str) -> u64 {
    let model = model.to_lowercase();
    if version.trim().starts_with("1.") {
        return if model.contains("3-5") || model.contains("haiku") {
            8_192
        } else {
            32_000
        };
    }
    if model.contains("3-5") || model.contains("claude-3-sonnet") {
        8_192
    } else if model.contains("claude-3-opus") || model.contains("claude-3-haiku") {
        4_096
    } else {
        32_000
    }
}

/// The window Claude Code measures against for `model` (every release read: 200,000, or
/// 1,000,000 for a `[1m]` model), whatever the provider serves: what its meter and its
/// threshold rule read.
pub fn release_window(model: &str) -> u64 {
    if model.contains("[1m]") {
        1_000_000
    } else {
        DEFAULT_WINDOW
    }
}

/// Where Claude Code would compact next in `whole`, from what was known before message
/// `before` (see the module's docs: the log's earlier automatic compactions, the
/// release's rule — `pinned`'s, else the log's own), with the sentence that says where it
/// comes from; `None` when only the default is left.
pub fn known_threshold(whole: &Transcript, before: usize, pinned: Option<&str>) -> Option<(u64, String)> {
    let query = ThresholdQuery::of(whole, before, pinned)?;
    // A log's own compaction makes other sessions moot: they are gathered only when
    // asked for; and most logs have none beside them, so the clock (which walks back
    // through records, at every call of a replay) is read only when there are some.
    let earlier = if query.answered_by_the_log() {
        &[][..]
    } else {
        whole.earlier_sessions().all(whole)
    };
    if earlier.is_empty() {
        return query.answer(&[]);
    }
    query.at(whole.time_before(before)).answer(earlier)
}

/// What a prediction of Claude Code's next compaction knows of one log before a given
/// message, apart from the user's other sessions: its own earlier compactions (their
/// brackets narrowed together), the release's rule, the moment and the model. Made while
/// the log is read and kept without it, so that a scan can answer once the other sessions
/// of the folder are read (the scan's folder-by-folder settling).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ThresholdQuery {
    /// The log's own compactions: `(low, high, words)`.
    own: Option<(u64, u64, String)>,
    /// The release's rule: `(threshold, how it is computed, release)`.
    rule: Option<(u64, String, String)>,
    /// When the prediction is made (the last timestamp before it; see [`Self::at`]).
    now: Option<String>,
    /// The release followed.
    version: Option<String>,
    /// The model, whose window an earlier session must share.
    model: String,
}

impl ThresholdQuery {
    /// The query for `whole` before message `before`; `None` for a log with nothing of
    /// Claude Code's to go by.
    pub fn of(whole: &Transcript, before: usize, pinned: Option<&str>) -> Option<ThresholdQuery> {
        if pinned.is_none()
            && whole.compactions.is_empty()
            && whole.format().container != crate::transcript::Container::ClaudeCode
        {
            return None;
        }
        let model = whole.model().unwrap_or_default().to_owned();
        let version = version_of(whole, pinned);
        let rule = version.clone().and_then(|v| {
            let rule = ReleaseRule::of(&v)?;
            let (window, reserve) = (release_window(&model), release_reserve(&v, &model));
            Some((rule.threshold(window, reserve, None), rule.describe(window, reserve), v))
        });
        // Each earlier automatic compaction brackets the threshold; several narrow it.
        let mut bracket: Option<(u64, u64, usize)> = None;
        for c in whole
            .compactions
            .iter()
            .filter(|c| c.known_before(&whole.messages, before))
        {
            let Some((low, high)) = c.threshold_bracket(whole) else {
                continue;
            };
            bracket = Some(match bracket {
                Some((lo, hi, _)) => (lo.max(low), hi.min(high), c.line),
                None => (low, high, c.line),
            });
        }
        Some(ThresholdQuery {
            own: bracket.map(|(lo, hi, line)| (lo, hi, format!("this log's compaction at line {line}"))),
            rule,
            now: None,
            version,
            model,
        })
    }

    /// The query made at `now` (the last timestamp before the message predicted, as
    /// [`Transcript::time_before`] reads it): without a moment no other session is
    /// known to come before it, so none is used.
    #[must_use]
    pub fn at(self, now: Option<String>) -> ThresholdQuery {
        ThresholdQuery { now, ..self }
    }

    /// The log's own compactions say where it compacts: other sessions are not asked.
    pub fn answered_by_the_log(&self) -> bool {
        self.own.is_some()
    }

    /// The threshold and the sentence that says where it comes from, given the automatic
    /// compactions of the user's other sessions (of which only those before this moment,
    /// of this release and window are used).
    pub fn answer<'a>(&self, earlier: impl IntoIterator<Item = &'a EarlierCompaction>) -> Option<(u64, String)> {
        let evidence = self.own.clone().or_else(|| self.earlier_bracket(earlier));
        // A bracket with nothing below it (the log read holds no request before the
        // compaction: a live view starts at its summary) only bounds the threshold above.
        let range = |lo: u64, hi: u64| {
            if lo == 0 {
                format!("at most {hi}")
            } else {
                format!("between {lo} and {hi}")
            }
        };
        match (evidence, self.rule.clone()) {
            (Some((lo, hi, what)), Some((at, rule, v))) if lo < at && at <= hi => Some((
                at,
                format!(
                    "threshold {at}: Claude Code {v}'s rule, {rule}; {what} agrees ({})",
                    range(lo, hi)
                ),
            )),
            (Some((lo, hi, what)), rule) => {
                let at = if lo == 0 {
                    hi
                } else {
                    crate::transcript::PastCompaction::bracket_middle((lo, hi))
                };
                let unlike = rule.map_or_else(String::new, |(r, _, v)| {
                    format!(" ({v}'s rule says {r}: lowered by an override?)")
                });
                let how = if lo == 0 { "the most" } else { "the middle" };
                Some((
                    at,
                    format!("threshold {at}: {how} of what {what} shows ({}){unlike}", range(lo, hi)),
                ))
            }
            (None, Some((at, rule, v))) => Some((at, format!("threshold {at}: Claude Code {v}'s rule, {rule}"))),
            (None, None) => None,
        }
    }

    /// What the user's earlier sessions of the same release and window show of the
    /// threshold: their brackets narrowed together, or the latest alone when they
    /// disagree (a setting changed between sessions); with the words that name them.
    fn earlier_bracket<'a>(&self, all: impl IntoIterator<Item = &'a EarlierCompaction>) -> Option<(u64, u64, String)> {
        let now = self.now.as_deref()?;
        let window = release_window(&self.model);
        let earlier: Vec<_> = crate::transcript::earlier::usable(all, now, self.version.as_deref())
            .into_iter()
            .filter(|c| release_window(c.model.as_deref().unwrap_or_default()) == window)
            .collect();
        let latest = earlier.iter().max_by(|a, b| a.time.cmp(&b.time))?;
        let (lo, hi) = earlier
            .iter()
            .fold((0, u64::MAX), |(lo, hi), c| (lo.max(c.low), hi.min(c.high)));
        let name = |c: &EarlierCompaction| format!("{} line {}", c.file, c.line);
        if lo < hi {
            let what = if earlier.len() == 1 {
                format!("an earlier session's compaction ({})", name(latest))
            } else {
                format!(
                    "{} earlier sessions' compactions (the latest: {})",
                    earlier.len(),
                    name(latest)
                )
            };
            Some((lo, hi, what))
        } else {
            Some((
                latest.low,
                latest.high,
                format!(
                    "the latest earlier session's compaction ({}; earlier sessions disagree)",
                    name(latest)
                ),
            ))
        }
    }
}

/// The release a prediction follows: the pinned one, else the log's own.
fn version_of(whole: &Transcript, pinned: Option<&str>) -> Option<String> {
    pinned.map(str::to_owned).or_else(|| whole.client_version())
}

/// How a policy that counts what the provider bills turns ctxlens' count into the
/// bill: `overhead + ratio × counted` (`--set overhead=N`, `--set ratio=R`; a replay sets
/// them from the recorded usage), the overhead assumed when nothing says.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Billing {
    pub(super) overhead: u64,
    pub(super) ratio: f64,
    pub(super) assumed: bool,
}

impl Billing {
    /// `settings` with `overhead` and `ratio` fitted to `transcript`'s recorded usage
    /// where the user set no overhead (a plan made without a replay to set them), and the
    /// note that says so.
    pub(super) fn fitted_to_log(
        transcript: &Transcript,
        counts: &crate::tokens::Counts,
        settings: &PolicySettings,
    ) -> (PolicySettings, Vec<String>) {
        let mut settings = settings.clone();
        let mut notes = Vec::new();
        if settings.text("overhead").is_none() {
            if let Some(fit) = crate::calibrate::calibrate(transcript, counts) {
                settings = settings.with("overhead", fit.overhead).with("ratio", fit.ratio);
                notes.push(format!(
                    "billed ≈ {} + {:.3} × counted, fitted to this log's recorded usage",
                    fit.overhead, fit.ratio
                ));
            }
        }
        (settings, notes)
    }

    /// From the `overhead` and `ratio` settings.
    pub(super) fn of(settings: &PolicySettings) -> Result<Billing, crate::Error> {
        let ratio = match settings.text("ratio") {
            Some(t) => t
                .parse::<f64>()
                .ok()
                .filter(|r| *r > 0.0 && r.is_finite())
                .ok_or_else(|| crate::Error::Setting(format!("--set ratio={t}: expected a positive number")))?,
            None => 1.0,
        };
        let overhead = settings.number("overhead")?;
        Ok(Billing {
            overhead: overhead.unwrap_or(ASSUMED_OVERHEAD),
            ratio,
            assumed: overhead.is_none(),
        })
    }

    /// The bill for a context ctxlens counts as `counted`.
    pub(super) fn billed(self, counted: u64) -> u64 {
        (self.overhead as f64 + self.ratio * counted as f64).round() as u64
    }

    /// The plan's note when the overhead is assumed.
    pub(super) fn warn(self, plan: &mut PolicyPlan) {
        if self.assumed {
            plan.warnings.push(format!(
                "the system prompt and tools are assumed to be {} tokens (no recorded usage; --set overhead=N)",
                self.overhead
            ));
        }
    }
}

/// `claude-code`.
pub struct ClaudeCode;

/// The settings as numbers.
struct Resolved {
    threshold: u64,
    billing: Billing,
}

impl ClaudeCode {
    fn resolve(settings: &PolicySettings) -> Result<Resolved, crate::Error> {
        let window = settings.number_or("context_window", DEFAULT_WINDOW)?;
        let max_output = settings.number_or("max_output", OUTPUT_RESERVE)?;
        let pct = match settings.text("autocompact_pct") {
            Some(t) => Some(
                t.parse::<f64>()
                    .ok()
                    .filter(|p| *p > 0.0 && *p <= 100.0)
                    .ok_or_else(|| {
                        crate::Error::Setting(format!(
                            "--set autocompact_pct={t}: expected a percentage above 0, at most 100"
                        ))
                    })?,
            ),
            None => None,
        };
        let threshold = match (settings.number("threshold")?, settings.text("version")) {
            (Some(t), _) => t,
            (None, Some(version)) => {
                let rule = ReleaseRule::of(version).ok_or_else(|| {
                    crate::Error::Setting(format!(
                        "--set version={version}: not a Claude Code release from 1.0 on (e.g. 1.0.53)"
                    ))
                })?;
                let reserve = settings.number_or("max_output", release_reserve(version, ""))?;
                rule.threshold(window, reserve, pct)
            }
            (None, None) => default_threshold(window, max_output, pct),
        };
        Ok(Resolved {
            threshold,
            billing: Billing::of(settings)?,
        })
    }
}

impl Policy for ClaudeCode {
    fn name(&self) -> &'static str {
        "claude-code"
    }

    fn defaults(&self, window: u64) -> Vec<(&'static str, String)> {
        vec![("context_window", window.to_string())]
    }

    fn summary_prior(&self) -> Option<(u64, &'static str)> {
        Some((
            SUMMARY_PRIOR,
            "the median of Claude Code's summaries in the real logs shipped with ctxlens",
        ))
    }

    fn agent_logs(&self) -> Option<crate::transcript::Container> {
        Some(crate::transcript::Container::ClaudeCode)
    }

    fn billed_trigger(&self, settings: &PolicySettings) -> Result<Option<(u64, u64)>, crate::Error> {
        let window = settings.number_or("context_window", DEFAULT_WINDOW)?;
        Ok(Some((Self::resolve(settings)?.threshold, window)))
    }

    fn settings_from_log(
        &self,
        whole: &Transcript,
        before: usize,
        given: &PolicySettings,
    ) -> Vec<(&'static str, String)> {
        // The release the log names decides what is restored after compacting too.
        let own_log = whole.format().container == crate::transcript::Container::ClaudeCode;
        let mut from_log: Vec<(&'static str, String)> = match given.text("version") {
            Some(_) => Vec::new(),
            None => whole
                .client_version()
                .filter(|_| own_log)
                .map(|v| ("version", v))
                .into_iter()
                .collect(),
        };
        if given.text("threshold").is_none() {
            // (the user's threshold wins over every source)
            if let Some((at, source)) = known_threshold(whole, before, given.text("version")) {
                from_log.push(("threshold", at.to_string()));
                from_log.push(("threshold_source", source));
            }
        }
        from_log
    }

    fn keys(&self) -> &'static [&'static str] {
        &[
            "threshold",
            "version",
            "context_window",
            "max_output",
            "autocompact_pct",
            "overhead",
            "ratio",
        ]
    }

    fn counts_billed(&self) -> bool {
        true
    }

    /// Claude Code counts the last response's whole usage — its prompt and its output —
    /// then estimates the messages added since: its `cli.js` sums `input_tokens`, both
    /// cache figures and `output_tokens` (1.0.53: the function minified as `T04`), and the
    /// `preTokens` its boundaries record are that sum plus what followed (the kept-back
    /// logs' `preTokens` equal it to the token where nothing followed).
    fn last_response_tokens(&self, recorded: &crate::transcript::Recorded) -> u64 {
        recorded.context_tokens().saturating_add(recorded.output_tokens)
    }

    /// Its own estimate of a message, what it adds for the messages since the last
    /// response (`estimate`); for a response, only its lines after the first
    /// (`rest_of_response`), which a release from 2.1.69 adds. Each under the newest
    /// rules, which count every block an older release counts: the running sum bounds
    /// every release's figure from above.
    fn cost(&self, message: &ChatMessage) -> u64 {
        if message.kind == Kind::Assistant {
            rest_of_response(message, Rules::NEWEST)
        } else {
            estimate(message, Rules::NEWEST)
        }
    }

    /// Whether [`Policy::plan_chat`] may fire, from the running sums: the last response's
    /// billed size, and from 2.1.2 an upper bound of Claude Code's estimate of what
    /// followed (exact but for the response's own later lines, which [`Policy::cost`]
    /// counts under the newest rules).
    fn may_act(&self, settings: &PolicySettings, running: &Running) -> Result<bool, crate::Error> {
        let r = Self::resolve(settings)?;
        let rules = Rules::of(settings);
        let measured = running.last_assistant().map_or(0, |a| a + 1);
        let since = if !rules.estimates_since {
            0
        } else if rules.from_response_start {
            running.total_cost() - running.cost[running.last_assistant().unwrap_or(0)]
        } else {
            running.total_cost() - running.cost[measured]
        };
        Ok(r.billing.billed(running.counted[measured]).saturating_add(since) >= r.threshold)
    }

    fn plan(&self, transcript: &Transcript, settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let counts = crate::tokens::Counts::compute(transcript, crate::tokens::Tokenizer::Estimate);
        let (mut settings, notes) = Billing::fitted_to_log(transcript, &counts, settings);
        if settings.text("threshold").is_none() {
            for (key, value) in self.settings_from_log(transcript, transcript.messages.len(), &settings) {
                settings = settings.with(key, value);
            }
        }
        let mut plan = self.plan_chat(&super::chat_view_counted(transcript, &counts), &settings)?;
        plan.warnings.splice(0..0, notes);
        Ok(plan)
    }

    fn plan_chat(&self, chat: &[ChatMessage], settings: &PolicySettings) -> Result<PolicyPlan, crate::Error> {
        let r = Self::resolve(settings)?;
        // What Claude Code measures before a request: the last response's usage (its
        // prompt and its output), and from 2.1.2 its own estimate of the tool results and
        // messages added since ([`estimates_since`]).
        let measured = chat
            .iter()
            .rposition(|m| m.kind == Kind::Assistant)
            .map_or(0, |i| i + 1);
        let counted: u64 = chat[..measured].iter().map(|m| m.counted).sum();
        let rules = Rules::of(settings);
        let since: u64 = if rules.estimates_since {
            let after: u64 = chat[measured..].iter().map(|m| estimate(m, rules)).sum();
            let rest = match measured.checked_sub(1) {
                Some(last) if rules.from_response_start => rest_of_response(&chat[last], rules),
                _ => 0,
            };
            after.saturating_add(rest)
        } else {
            0
        };
        let billed = r.billing.billed(counted).saturating_add(since);
        let mut plan = PolicyPlan::unchanged(self.name(), "billed (overhead + ratio × estimate)", chat.len());
        plan.tokens_before = Some(billed);
        plan.tokens_after = Some(billed);
        r.billing.warn(&mut plan);
        plan.warnings.push(threshold_source(settings, r.threshold));
        if billed < r.threshold || chat.is_empty() {
            return Ok(plan);
        }
        for row in &mut plan.messages {
            row.section = Section::Summarized;
        }
        plan.compacted = true;
        plan.inserted.push(Inserted {
            position: 0,
            role: "user",
            kind: "summary",
            text: format!("{}{{summary}}", crate::compact::CLAUDE_CODE_OPENING),
            tokens: None,
        });
        let restored = restore(chat, &RestoreLimits::of(settings.text("version")));
        let restored_tokens: u64 = restored
            .inserted
            .iter()
            .map(|r| r.tokens.unwrap_or_else(|| quarter_chars(&r.text)))
            .sum();
        if restored.least != restored.most {
            plan.restored_range = Some([restored.least, restored.most]);
        }
        plan.inserted.extend(restored.inserted);
        // The next request: the system prompt and tools, and what is restored (billed);
        // the summary is not written yet.
        plan.tokens_after = Some(r.billing.billed(restored_tokens).max(r.billing.overhead));
        Ok(plan)
    }
}

/// What a release's counter estimates before a request, read from each release's
/// `cli.js` on npm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rules {
    /// It adds its estimate of the messages since the last response to that response's
    /// usage: up to 2.1.1 the check reads the usage alone (2.1.1's `cli.js`: the function
    /// minified as `OI`, as 1.0.53's `fw` and 2.0.76's `gK`); from 2.1.2 it adds the
    /// estimate (2.1.2's `D81`, 2.1.41's `Fv`: `Vb1(usage) + X_8(messages.slice(last +
    /// 1))`).
    estimates_since: bool,
    /// The estimate starts after the response's FIRST line rather than its last: from
    /// 2.1.69 the counter walks back over the lines sharing the last response's
    /// `message.id` (2.1.110's `wJ`: `my6(usage) + ov(q.slice(K + 1))`, `K` the first line
    /// of that id), so the response's later lines — one content block each — are
    /// estimated on top of the usage that already holds them.
    from_response_start: bool,
    /// A call's name and arguments, thinking and documents count: up to 2.1.73 a block
    /// estimate knows text, images and tool results and counts anything else 0 (2.1.73's
    /// `hAz`); from 2.1.74 a call is a quarter of its name and arguments' JSON, thinking a
    /// quarter of its text, a document 2,000 and any other block a quarter of its JSON
    /// (2.1.74's `B4z`, 2.1.110's `f7z`).
    counts_calls: bool,
}

impl Rules {
    /// The latest behaviour.
    const NEWEST: Rules = Rules {
        estimates_since: true,
        from_response_start: true,
        counts_calls: true,
    };

    /// The rules of the release `settings` name (the latest where none is named).
    fn of(settings: &PolicySettings) -> Rules {
        match settings.text("version").and_then(release_number) {
            Some(n) => Rules::of_release(n),
            None => Rules::NEWEST,
        }
    }

    /// The rules of release `n`.
    fn of_release(n: (u64, u64, u64)) -> Rules {
        Rules {
            estimates_since: n >= (2, 1, 2),
            from_response_start: n >= (2, 1, 69),
            counts_calls: n >= (2, 1, 74),
        }
    }
}

/// Claude Code's estimate of a message under `rules` (2.1.41's `j_8`, `OR7`, `TY9` and
/// `$2`; [`block_estimate`] for each content block): a quarter of its text's length,
/// rounded, and 2,000 for each image; the attachments its log records after it, a quarter
/// of their JSON's length (`$2(F1(A.attachment))`).
fn estimate(message: &ChatMessage, rules: Rules) -> u64 {
    let content = match &message.content_parts {
        Some(serde_json::Value::Array(blocks)) => blocks.iter().map(|b| block_estimate(b, rules)).sum(),
        _ => quarter_chars(&message.text).saturating_add(2_000 * message.images as u64),
    };
    content.saturating_add(message.attached_chars.saturating_add(2) / 4)
}

/// The estimate of a response's content blocks after its first, under `rules`: Claude
/// Code writes one log line per content block, and from 2.1.69 estimates the lines after
/// the response's first again ([`Rules::from_response_start`]). A response held as plain
/// text (one block) adds nothing.
fn rest_of_response(response: &ChatMessage, rules: Rules) -> u64 {
    let Some(serde_json::Value::Array(blocks)) = &response.content_parts else {
        return 0;
    };
    blocks.iter().skip(1).map(|b| block_estimate(b, rules)).sum()
}

/// Claude Code's estimate of one content block (2.1.74's `B4z`; before it, 2.1.73's
/// `hAz`, see [`Rules::counts_calls`]), lengths in UTF-16 units as JavaScript's.
fn block_estimate(block: &serde_json::Value, rules: Rules) -> u64 {
    use serde_json::Value;
    let text = |key: &str| quarter_chars(block.get(key).and_then(Value::as_str).unwrap_or(""));
    match block {
        Value::String(s) => return quarter_chars(s),
        Value::Object(_) => {}
        _ => return 0,
    }
    match block.get("type").and_then(Value::as_str) {
        Some("text") => text("text"),
        Some("image") => 2_000,
        Some("tool_result") => match block.get("content") {
            Some(Value::String(s)) => quarter_chars(s),
            Some(Value::Array(parts)) => parts.iter().map(|p| block_estimate(p, rules)).sum(),
            _ => 0,
        },
        _ if !rules.counts_calls => 0,
        Some("document") => 2_000,
        Some("tool_use") => {
            let name = block.get("name").and_then(Value::as_str).unwrap_or("");
            let input = block.get("input").map_or_else(|| "{}".to_owned(), Value::to_string);
            quarter_chars(&format!("{name}{input}"))
        }
        Some("thinking") => text("thinking"),
        Some("redacted_thinking") => text("data"),
        _ => quarter_chars(&block.to_string()),
    }
}

/// The first release that estimates an attachment by the messages it sends for it rather
/// than by its JSON (2.1.45's `wO8`; 2.1.42 and 2.1.44 still `H2(F1(attachment))`, 2.1.43
/// was never published): an attachment sent as no message then counts nothing.
const ATTACHMENTS_AS_SENT_FROM: (u64, u64, u64) = (2, 1, 45);

/// The attachments Claude Code sends the model no message for (2.1.110's
/// `normalizeAttachmentForAPI`, `y_7`: its table's `() => []` entries and its closing list;
/// 2.1.45 has the hook ones): hook outcomes, permission notes, progress and mode markers.
const SENT_AS_NO_MESSAGE: [&str; 24] = [
    "already_read_file",
    "autocheckpointing",
    "background_task_status",
    "command_permissions",
    "companion_intro",
    "compaction_reminder",
    "context_efficiency",
    "current_session_memory",
    "dynamic_skill",
    "edited_image_file",
    "hook_cancelled",
    "hook_deferred_tool",
    "hook_error_during_execution",
    "hook_non_blocking_error",
    "hook_permission_decision",
    "hook_system_message",
    "max_turns_reached",
    "pen_mode_enter",
    "pen_mode_exit",
    "structured_output",
    "task_progress",
    "teammate_shutdown_batch",
    "todo",
    "ultramemory",
];

/// The length, in UTF-16 units, Claude Code's estimate reads of an `attachment` record's
/// attachment under release `version` (the newest when none is named): its JSON, but from
/// 2.1.45 nothing for one it sends as no message (`SENT_AS_NO_MESSAGE`; a hook's
/// success but at a session's start or a prompt). The others are estimated by their JSON
/// still: the messages Claude Code makes of them are not rebuilt.
pub fn attachment_chars(attachment: &serde_json::Value, version: Option<&str>) -> u64 {
    use serde_json::Value;
    let as_sent = version
        .and_then(release_number)
        .is_none_or(|n| n >= ATTACHMENTS_AS_SENT_FROM);
    if as_sent {
        let kind = attachment.get("type").and_then(Value::as_str).unwrap_or("");
        let hook_event = attachment.get("hookEvent").and_then(Value::as_str);
        let quiet_hook = kind == "hook_success" && !matches!(hook_event, Some("SessionStart" | "UserPromptSubmit"));
        if quiet_hook || SENT_AS_NO_MESSAGE.contains(&kind) {
            return 0;
        }
    }
    attachment.to_string().encode_utf16().count() as u64
}

/// Claude Code's own count before its next request, read from its log's records as they
/// are written (the meter of `ctxlens status` and of the TUI's follow mode): the last
/// response's usage, its prompt and its output, and from 2.1.2 its estimate of what
/// followed, each under the rules of the release named (`Rules`) — the figure
/// [`ClaudeCode`]'s plan compares with the threshold. A fold over the records: feeding a
/// log's lines in order from anywhere before its last response gives the same count, so a
/// log being written is read on from where the last read stopped.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct LiveCounter {
    /// The release whose rules apply (the log's own).
    pub version: Option<String>,
    /// The last response's `message.id`.
    pub response_id: Option<String>,
    /// Its prompt, as its last line's usage records it.
    pub prompt: u64,
    /// Its output, as that usage records it.
    pub output: u64,
    /// Claude Code's estimate of the response's content (every block): a log that kept a
    /// streamed response's first usage records an output of a token or two, and the
    /// response then counts as this.
    pub response_estimate: u64,
    /// The estimate of what followed, as the release counts it.
    pub since: u64,
}

impl LiveCounter {
    /// An empty counter for a log of release `version`.
    pub fn new(version: Option<String>) -> LiveCounter {
        LiveCounter {
            version,
            ..LiveCounter::default()
        }
    }

    /// The count: `None` before the first response.
    pub fn count(&self) -> Option<u64> {
        self.response_id.as_ref()?;
        // As the replay reads a recorded output (`policy::replay`): one under half the
        // response's estimate is the stream's first figure.
        let output = if self.output.saturating_mul(2) < self.response_estimate {
            self.response_estimate
        } else {
            self.output
        };
        let since = if self.rules().estimates_since { self.since } else { 0 };
        Some(self.prompt.saturating_add(output).saturating_add(since))
    }

    fn rules(&self) -> Rules {
        match self.version.as_deref().and_then(release_number) {
            Some(n) => Rules::of_release(n),
            None => Rules::NEWEST,
        }
    }

    /// Reads one record of the log (a line's JSON); a side chain's records, meta
    /// messages and records that hold no message or attachment change nothing.
    pub fn feed(&mut self, record: &serde_json::Value) {
        use serde_json::Value;
        let flag = |key: &str| record.get(key).and_then(Value::as_bool) == Some(true);
        if flag("isSidechain") || flag("isMeta") {
            return;
        }
        let rules = self.rules();
        let message = record.get("message");
        let content_estimate = |rules: Rules| match message.and_then(|m| m.get("content")) {
            Some(Value::String(s)) => quarter_chars(s),
            Some(Value::Array(blocks)) => blocks.iter().map(|b| block_estimate(b, rules)).sum(),
            _ => 0,
        };
        match record.get("type").and_then(Value::as_str) {
            Some("assistant") => {
                // Claude Code's own notes (`<synthetic>`: an interruption, an error) are
                // never the response it measures.
                let synthetic = message.and_then(|m| m.get("model")).and_then(Value::as_str) == Some("<synthetic>");
                let n = |k: &str| {
                    message
                        .and_then(|m| m.get("usage"))
                        .and_then(|u| u.get(k))
                        .and_then(Value::as_u64)
                        .unwrap_or(0)
                };
                let prompt = n("input_tokens")
                    .saturating_add(n("cache_creation_input_tokens"))
                    .saturating_add(n("cache_read_input_tokens"));
                // A usage no provider could have billed is left out, as the reader leaves it.
                let real = prompt.max(n("output_tokens")) < crate::transcript::IMPLAUSIBLE_TOKENS;
                let has_usage = message.is_some_and(|m| m.get("usage").is_some());
                if synthetic || !has_usage || !real {
                    self.since = self.since.saturating_add(content_estimate(rules));
                    return;
                }
                let id = message.and_then(|m| m.get("id")).and_then(Value::as_str);
                let same = id.is_some() && id == self.response_id.as_deref();
                if same && rules.from_response_start {
                    // A later line of the response: estimated again on top of its usage.
                    self.since = self.since.saturating_add(content_estimate(rules));
                } else if same {
                    // Up to 2.1.68 the estimate starts after the response's last line.
                    self.since = 0;
                } else {
                    (self.since, self.response_estimate) = (0, 0);
                    self.response_id = Some(id.unwrap_or_default().to_owned());
                }
                self.response_estimate = self.response_estimate.saturating_add(content_estimate(Rules::NEWEST));
                (self.prompt, self.output) = (prompt, n("output_tokens"));
            }
            Some("user") => self.since = self.since.saturating_add(content_estimate(rules)),
            Some("attachment") => {
                if let Some(attachment) = record.get("attachment") {
                    let chars = attachment_chars(attachment, self.version.as_deref());
                    self.since = self.since.saturating_add(chars.saturating_add(2) / 4);
                }
            }
            _ => {}
        }
    }
}

/// What Claude Code puts back after compacting (read from its published `cli.js`): the
/// files it had read or written most recently, read again, each only when it fits the
/// per-file limit, while they fit the total; then the todo list. 1.0.53 to 1.0.84: 5
/// files, 10,000 tokens each (1.0.53's `M24=5`, `O24=1e4`), 50,000 in all
/// (`R24=50000`); a larger file fails to read and is left out. From 1.0.85 (1.0.84's
/// `SW8=1e4`, 1.0.85's `LY8=5000`; 1.0.89's and 2.0.76's `By5=5`, `Zy5=5000`,
/// `Gy5=50000`): 5 files, 5,000 each; a larger file comes back as a one-line reference
/// (`compact_file_reference`: "Note: FILE was read before the last conversation was
/// summarized, but the contents are too large to include…"). Found by reading each
/// release from 1.0.80 to 1.0.89 from npm (1.0.82 was never published).
/// Tokens are counted as it counts them there: a quarter of the characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RestoreLimits {
    /// Files restored at most.
    pub files: usize,
    /// A file larger than this is not restored.
    pub per_file: u64,
    /// All restored files together.
    pub total: u64,
    /// A file over `per_file` is named in a one-line reference (2.x) rather than left
    /// out (1.x).
    pub reference_too_large: bool,
}

impl RestoreLimits {
    /// The limits of release `version` (the newer ones when none is known).
    pub fn of(version: Option<&str>) -> RestoreLimits {
        let older = version
            .and_then(release_number)
            .is_some_and(|n| n < FILE_REFERENCE_FROM);
        RestoreLimits {
            files: 5,
            per_file: if older { 10_000 } else { 5_000 },
            total: 50_000,
            reference_too_large: !older,
        }
    }
}

/// Claude Code's summary, in ctxlens' count, where neither the log nor the user's earlier
/// sessions show one: the median (the lower middle, as `agent_summary` takes medians) of
/// the summaries in the real Claude Code logs shipped in `tests/data/real-transcripts`
/// (1.0.53: 2,325; 2.0.76: 3,418). Its prompt asks for nine detailed sections, ten times
/// what the replay's own extractive summary holds. A test holds it to those logs; measured
/// on real logs kept out of the repository, it brings the next request's size within 20%
/// on 29 of 37 compactions (27 with the replay's own summary).
pub const SUMMARY_PRIOR: u64 = 2_325;

/// The first release that restores at most 5,000 tokens of a file after compacting and
/// names a larger one in a one-line reference ([`RestoreLimits`]).
pub const FILE_REFERENCE_FROM: (u64, u64, u64) = (1, 0, 85);

/// The reference 2.x restores instead of a file too large to include.
fn too_large_note(path: &str) -> String {
    format!(
        "Note: {path} was read before the last conversation was summarized, but the contents are too large to include. Use Read tool if you need to access it."
    )
}

/// Claude Code's count: a quarter of the characters, rounded.
fn quarter_chars(text: &str) -> u64 {
    // JavaScript's `Math.round(text.length / 4)`: UTF-16 units, a half rounded up.
    (text.encode_utf16().count() as u64 + 2) / 4
}

/// The tools whose use puts a file in what Claude Code restores (its read-file state).
const FILE_TOOLS: [&str; 4] = ["Read", "Edit", "MultiEdit", "Write"];

/// A file's size in characters as a Read result shows it: Claude Code numbers the lines
/// it returns (`    36→text` up to 2.0; `36\ttext` in 2.1), and a read of part of a
/// file (`offset`, `limit`) still tells its last line, so the whole is about that many
/// lines of the mean length seen.
fn file_chars(result: &str) -> u64 {
    let mut last_line = 0u64;
    let mut numbered = 0u64;
    let mut chars = 0u64;
    for line in result.lines() {
        let Some((number, _)) = line.split_once('→').or_else(|| line.split_once('\t')) else {
            continue;
        };
        let Ok(n) = number.trim().parse::<u64>() else { continue };
        last_line = last_line.max(n);
        numbered += 1;
        chars += line.chars().count() as u64 + 1;
    }
    let whole = result.chars().count() as u64;
    if numbered == 0 {
        return whole;
    }
    whole.max(last_line * chars / numbered)
}

/// The lines a Read returns when it is given no `limit` (every release read, 1.0.53 to
/// 2.1: `2000`): a result of fewer numbered lines than this, read without `offset` or
/// `limit`, is the whole file.
const READ_DEFAULT_LINES: u64 = 2000;

/// What the log shows of a file Claude Code may restore.
struct FileSeen {
    path: String,
    /// The last text seen of it.
    text: String,
    /// Its size in characters, as far as the log shows it.
    chars: u64,
    /// The log shows the whole file (written, or read whole); otherwise `chars` is only
    /// a lower bound: Claude Code re-reads the file from disk when it restores it.
    whole: bool,
}

/// What Claude Code adds after its summary ([`restored`]), and how sure that is.
pub struct Restored {
    /// The inserted messages, each file at the size the log shows.
    pub inserted: Vec<Inserted>,
    /// The least and the most those files can come to, in the same unit, where the log
    /// shows some of them only in part (a file seen in part may be small, or too large to
    /// restore, or fill its release's limit); equal when every file was seen whole.
    pub least: u64,
    /// See `least`.
    pub most: u64,
}

/// The messages Claude Code adds after its summary: the most recently used files (their
/// size as the reads showed it: the last line number times the mean line) within
/// `limits`, then the todo list of the last `TodoWrite`. Each is an inserted `user`
/// message of kind `restored`; a file's text is what the log holds of it and its
/// `tokens` the whole file's estimate.
pub fn restored(chat: &[ChatMessage], limits: &RestoreLimits) -> Vec<Inserted> {
    restore(chat, limits).inserted
}

/// [`restored`], with the range its files can come to ([`Restored`]).
pub fn restore(chat: &[ChatMessage], limits: &RestoreLimits) -> Restored {
    let (files, todos) = files_seen(chat);
    let mut out: Vec<(String, Option<u64>)> = Vec::new();
    let (mut total, mut least, mut most) = (0, 0u64, 0u64);
    for file in files.iter().rev().take(limits.files) {
        let tokens = (file.chars + file.path.chars().count() as u64).div_ceil(4);
        let note = too_large_note(&file.path);
        let note_tokens = if limits.reference_too_large {
            quarter_chars(&note)
        } else {
            0
        };
        // A file seen in part and not yet over the limit may be anything from a note (too
        // large after all) to the limit itself.
        if !file.whole && tokens <= limits.per_file {
            least += note_tokens.min(tokens);
            most = (most + limits.per_file).min(limits.total);
        }
        if tokens > limits.per_file {
            if limits.reference_too_large && total + note_tokens <= limits.total {
                total += note_tokens;
                out.push((note, Some(note_tokens)));
            }
            least += note_tokens;
            most = (most + note_tokens).min(limits.total);
            continue;
        }
        if total + tokens > limits.total {
            continue;
        }
        total += tokens;
        if file.whole {
            least += tokens;
            most = (most + tokens).min(limits.total);
        }
        out.push((format!("{}\n{}", file.path, file.text), Some(tokens)));
    }
    let todo_tokens = todos.as_deref().map_or(0, quarter_chars);
    out.extend(todos.map(|t| (t, None)));
    let inserted = out
        .into_iter()
        .enumerate()
        .map(|(k, (text, tokens))| Inserted {
            position: k + 1,
            role: "user",
            kind: "restored",
            text,
            tokens,
        })
        .collect();
    Restored {
        inserted,
        least: least.min(total) + todo_tokens,
        most: most.max(total) + todo_tokens,
    }
}

/// The files the log shows Claude Code's tools using (newest use last) and the todo list
/// of the last `TodoWrite`.
fn files_seen(chat: &[ChatMessage]) -> (Vec<FileSeen>, Option<String>) {
    let results: std::collections::HashMap<&str, &str> = chat
        .iter()
        .filter_map(|m| Some((m.call_id.as_deref()?, m.text.as_str())))
        .collect();
    let mut files: Vec<FileSeen> = Vec::new();
    let mut todos: Option<String> = None;
    for call in chat.iter().flat_map(|m| &m.calls) {
        if call.name == "TodoWrite" {
            todos = call.args.get("todos").map(ToString::to_string);
            continue;
        }
        if !FILE_TOOLS.contains(&call.name.as_str()) {
            continue;
        }
        let Some(path) = call.args.get("file_path").and_then(serde_json::Value::as_str) else {
            continue;
        };
        let seen = match call.name.as_str() {
            "Read" => results.get(call.id.as_str()).map(|t| {
                let part = call.args.get("offset").is_some() || call.args.get("limit").is_some();
                (
                    (*t).to_owned(),
                    file_chars(t),
                    !part && numbered_lines(t) < READ_DEFAULT_LINES,
                )
            }),
            "Write" => call
                .args
                .get("content")
                .and_then(serde_json::Value::as_str)
                .map(|t| (t.to_owned(), t.chars().count() as u64, true)),
            // An edit's result shows numbered lines around the change: the file has at
            // least that many, which a partial read may not have shown.
            _ => results
                .get(call.id.as_str())
                .map(|t| ((*t).to_owned(), file_chars(t), false)),
        };
        let edited = call.name != "Read" && call.name != "Write";
        let known = files.iter().position(|f| f.path == path).map(|i| files.remove(i));
        let entry = match (seen, known) {
            // The text of a read beats an edit's snippet; the size is the largest shown.
            (Some((_, chars, _)), Some(before)) if edited => FileSeen {
                chars: chars.max(before.chars),
                ..before
            },
            (Some((text, chars, whole)), Some(before)) => FileSeen {
                path: before.path,
                text,
                chars: chars.max(before.chars),
                whole: whole || before.whole,
            },
            (Some((text, chars, whole)), None) => FileSeen {
                path: path.to_owned(),
                text,
                chars,
                whole,
            },
            (None, Some(before)) => before,
            (None, None) => continue,
        };
        files.push(entry);
    }
    (files, todos)
}

/// The numbered lines of a Read result ([`file_chars`] reads the numbers).
fn numbered_lines(result: &str) -> u64 {
    result
        .lines()
        .filter(|line| {
            line.split_once('→')
                .or_else(|| line.split_once('\t'))
                .is_some_and(|(n, _)| n.trim().parse::<u64>().is_ok())
        })
        .count() as u64
}

/// Where the threshold in force comes from, in words (every plan says it).
fn threshold_source(settings: &PolicySettings, threshold: u64) -> String {
    if let Some(source) = settings.text("threshold_source") {
        return source.to_owned();
    }
    match (settings.text("threshold"), settings.text("version")) {
        (Some(_), _) => format!("threshold {threshold}: set"),
        (None, Some(version)) => format!("threshold {threshold}: Claude Code {version}'s rule (set)"),
        (None, None) => format!(
            "threshold {threshold}: the default (window − up to {OUTPUT_RESERVE} − {AUTOCOMPACT_MARGIN}); no earlier compaction nor release known"
        ),
    }
}

/// The threshold a Claude Code log's own `auto` compaction shows: its `preTokens` (the
/// last recorded request before it is the lower end of the bracket).
pub fn logged_threshold(transcript: &Transcript) -> Option<u64> {
    transcript
        .compactions
        .iter()
        .rev()
        .find(|c| c.trigger.as_deref() == Some("auto"))
        .and_then(|c| c.pre_tokens)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bracket with nothing below it (a live view that starts at the compaction's
    /// summary) bounds the threshold above only: it is not halved to a "middle".
    #[test]
    fn a_bracket_known_only_above_is_not_halved() {
        let query = |low: u64, rule: Option<u64>| ThresholdQuery {
            own: Some((low, 155_979, "this log's compaction at line 158".to_owned())),
            rule: rule.map(|at| (at, "(200000 − 32000) − 13000".to_owned(), "2.0.76".to_owned())),
            now: None,
            version: None,
            model: "claude-sonnet-4-5".to_owned(),
        };
        let (at, why) = query(0, None).answer([]).expect("an answer");
        assert_eq!(at, 155_979, "{why}");
        assert!(why.contains("at most 155979"), "{why}");
        let (at, why) = query(0, Some(155_000)).answer([]).expect("an answer");
        assert_eq!(at, 155_000);
        assert!(why.contains("agrees (at most 155979)"), "{why}");
        let (at, _) = query(150_000, None).answer([]).expect("an answer");
        assert_eq!(at, 152_990, "the middle of a bracket known on both sides");
    }

    #[test]
    fn the_last_response_counts_its_prompt_and_its_output() {
        let usage = crate::transcript::Recorded {
            input_tokens: 10,
            cache_write_5m_tokens: 2_000,
            cache_read_tokens: 164_000,
            output_tokens: 391,
            ..Default::default()
        };
        // 8dee18d0's last response before its compaction: 166,010 sent, 391 written.
        assert_eq!(ClaudeCode.last_response_tokens(&usage), 166_401);
        assert_eq!(usage.context_tokens(), 166_010, "the request's own size is the prompt");
    }

    /// The settings of release `version` at `threshold`, the billed size taken as counted
    /// (overhead 0, ratio 1).
    fn at_release(version: &str, threshold: u64) -> PolicySettings {
        let pairs = [
            format!("version={version}"),
            format!("threshold={threshold}"),
            "overhead=0".to_owned(),
            "ratio=1".to_owned(),
        ];
        PolicySettings::parse(pairs.iter().map(String::as_str)).expect("settings")
    }

    /// From 2.1.2 the check adds Claude Code's estimate of what followed the last response
    /// (a quarter of a tool result's length; an attachment's JSON likewise); up to 2.1.1
    /// it reads the response alone. The cheap test a replay makes agrees with the plan.
    #[test]
    fn from_2_1_2_what_followed_the_last_response_is_estimated() {
        use super::super::chat::written;
        let mut result = written(Kind::Tool, "user", "x".repeat(4_000), 1_300);
        result.past_summary = false;
        let mut reminder = written(Kind::User, "user", String::new(), 0);
        (reminder.past_summary, reminder.attached_chars) = (false, 2_000);
        assert_eq!(estimate(&result, Rules::NEWEST), 1_000);
        assert_eq!(estimate(&reminder, Rules::NEWEST), 500);
        let mut chat: Vec<ChatMessage> = [
            written(Kind::User, "user", "start".to_owned(), 10_000),
            written(Kind::Assistant, "assistant", "reading".to_owned(), 150_000),
            result,
            reminder,
        ]
        .into_iter()
        .enumerate()
        .map(|(i, mut m)| {
            (m.index, m.past_summary) = (i, false);
            m
        })
        .collect();
        chat[2].call_id = Some("t1".to_owned());
        // The response measured 160,000 (overhead 0, ratio 1); 1,500 followed.
        let running = Running::of(&chat, |m| ClaudeCode.cost(m));
        for (version, threshold, fires) in [
            ("2.1.2", 161_500, true),
            ("2.1.2", 161_501, false),
            ("2.1.1", 161_500, false),
            ("2.1.1", 160_000, true),
            ("1.0.53", 160_001, false),
        ] {
            let s = at_release(version, threshold);
            let plan = ClaudeCode.plan_chat(&chat, &s).expect("plans");
            assert_eq!(plan.compacted, fires, "{version} at {threshold}");
            assert_eq!(
                ClaudeCode.may_act(&s, &running).expect("tests"),
                fires,
                "{version} at {threshold}: the cheap test"
            );
        }
    }

    /// From 2.1.69 the estimate starts after the last response's first line, so its later
    /// blocks count again; from 2.1.74 a call's name and arguments count too. The first
    /// block (here thinking) never does. The cheap test never misses a firing.
    #[test]
    fn later_releases_estimate_the_last_responses_later_lines() {
        use super::super::chat::written;
        let blocks = serde_json::json!([
            {"type": "thinking", "thinking": "t".repeat(400)},
            {"type": "text", "text": "a".repeat(80)},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}},
        ]);
        let mut response = written(Kind::Assistant, "assistant", "a".repeat(80), 150_000);
        response.content_parts = Some(blocks);
        let mut result = written(Kind::Tool, "user", "x".repeat(4_000), 1_300);
        result.call_id = Some("t1".to_owned());
        let mut chat = vec![
            written(Kind::User, "user", "start".to_owned(), 10_000),
            response,
            result,
        ];
        for (i, m) in chat.iter_mut().enumerate() {
            (m.index, m.past_summary) = (i, false);
        }
        let running = Running::of(&chat, |m| ClaudeCode.cost(m));
        // 160,000 measured; the result adds 1,000; the text block 20 (80 / 4) from 2.1.69;
        // `Bash{"command":"ls"}` 5 (20 / 4) from 2.1.74.
        for (version, since) in [
            ("2.1.68", 1_000),
            ("2.1.69", 1_020),
            ("2.1.73", 1_020),
            ("2.1.74", 1_025),
        ] {
            for (threshold, fires) in [(160_000 + since, true), (160_001 + since, false)] {
                let s = at_release(version, threshold);
                let plan = ClaudeCode.plan_chat(&chat, &s).expect("plans");
                assert_eq!(plan.compacted, fires, "{version} at {threshold}");
                let may = ClaudeCode.may_act(&s, &running).expect("tests");
                assert!(may || !fires, "{version} at {threshold}: the cheap test missed it");
                if version == "2.1.74" || version == "2.1.68" {
                    assert_eq!(may, fires, "{version} at {threshold}: the cheap test is exact");
                }
            }
        }
    }

    /// The live counter reads a log's lines as Claude Code counts its messages: the last
    /// response's usage (prompt and output), then what followed, as each release estimates
    /// it; a hook's error sent as no message counts nothing from 2.1.45; any start before
    /// the last response gives the same count.
    #[test]
    fn the_live_counter_reads_a_log_as_each_release_counts() {
        let usage = serde_json::json!({"input_tokens": 10, "cache_read_input_tokens": 150_000, "output_tokens": 900});
        let line = |kind: &str, id: Option<&str>, content: serde_json::Value| {
            let mut message = serde_json::json!({"role": kind, "content": content});
            if let Some(id) = id {
                message["id"] = id.into();
                message["usage"] = usage.clone();
            }
            serde_json::json!({"type": kind, "message": message})
        };
        let result =
            |n: usize| serde_json::json!([{"type": "tool_result", "tool_use_id": "t", "content": "r".repeat(n)}]);
        let lines = [
            line("user", None, serde_json::json!("start")),
            line(
                "assistant",
                Some("old"),
                serde_json::json!([{"type": "text", "text": "x".repeat(4_000)}]),
            ),
            line(
                "assistant",
                Some("last"),
                serde_json::json!([{"type": "thinking", "thinking": "t".repeat(400)}]),
            ),
            line(
                "assistant",
                Some("last"),
                serde_json::json!([{"type": "text", "text": "a".repeat(80)}]),
            ),
            line(
                "assistant",
                Some("last"),
                serde_json::json!([{"type": "tool_use", "id": "t", "name": "Bash", "input": {"command": "ls"}}]),
            ),
            line("user", None, result(400)),
            serde_json::json!({"type": "attachment", "attachment": {"type": "hook_non_blocking_error", "stderr": "e".repeat(400)}}),
            serde_json::json!({"type": "attachment", "attachment": {"type": "edited_text_file", "snippet": "s".repeat(394)}}),
        ];
        let edited_json = lines[7]["attachment"].to_string().len() as u64;
        let hook_json = lines[6]["attachment"].to_string().len() as u64;
        let count = |version: &str, from: usize| {
            let mut counter = LiveCounter::new(Some(version.to_owned()));
            lines[from..].iter().for_each(|l| counter.feed(l));
            counter.count().expect("a response was read")
        };
        // 150,010 + 900; the result 100; the attachments a quarter of their JSON each
        // (the hook's only before 2.1.45); from 2.1.69 the text block 20, from 2.1.74 the call 5.
        let base = 150_910 + 100 + (edited_json + 2) / 4;
        assert_eq!(count("2.1.1", 0), 150_910, "the usage alone up to 2.1.1");
        assert_eq!(count("2.1.44", 0), base + (hook_json + 2) / 4);
        assert_eq!(count("2.1.68", 0), base);
        assert_eq!(count("2.1.69", 0), base + 20);
        assert_eq!(count("2.1.74", 0), base + 25);
        for from in 0..=2 {
            assert_eq!(count("2.1.74", from), base + 25, "read from line {from}");
        }
    }

    #[test]
    fn thresholds_follow_the_effective_window() {
        // 200k window, 20k reserved: effective 180k, compacts at 167k.
        assert_eq!(default_threshold(200_000, 64_000, None), 167_000);
        // The percentage is of the effective window and only lowers it.
        assert_eq!(default_threshold(200_000, 64_000, Some(75.0)), 135_000);
        assert_eq!(default_threshold(200_000, 64_000, Some(99.5)), 167_000);
        assert_eq!(default_threshold(200_000, 64_000, Some(50.5)), 90_900);
        // A model with a small output limit reserves less.
        assert_eq!(default_threshold(200_000, 8_000, None), 179_000);
    }

    #[test]
    fn each_release_compacts_by_its_own_rule() {
        assert_eq!(ReleaseRule::of("1.0.53"), Some(ReleaseRule::Fraction));
        assert_eq!(ReleaseRule::of("1.0.70"), Some(ReleaseRule::Fraction));
        assert_eq!(ReleaseRule::of("1.0.71"), Some(ReleaseRule::Margin));
        assert_eq!(ReleaseRule::of("2.0.76"), Some(ReleaseRule::Margin));
        assert_eq!(ReleaseRule::of("0.2.9"), None, "not read");
        assert_eq!(ReleaseRule::of("nightly"), None);
        let sonnet = "claude-sonnet-4-20250514";
        // 1.0.53: 0.92 × (200,000 − 32,000); 2.0.76: (200,000 − 32,000) − 13,000.
        assert_eq!(
            ReleaseRule::Fraction.threshold(200_000, release_reserve("1.0.53", sonnet), None),
            154_560
        );
        assert_eq!(
            ReleaseRule::Margin.threshold(200_000, release_reserve("2.0.76", sonnet), None),
            155_000
        );
        // From 2.1.21 the reserve is at most 20,000: (200,000 − 20,000) − 13,000.
        assert_eq!(
            ReleaseRule::Margin.threshold(200_000, release_reserve("2.1.21", sonnet), None),
            167_000
        );
        assert_eq!(release_reserve("2.1.20", sonnet), 32_000);
        assert_eq!(
            release_reserve("2.1.150", "claude-3-opus-20240229"),
            4_096,
            "a smaller maximum stays"
        );
        assert_eq!(release_reserve("1.0.53", "claude-3-5-haiku-20241022"), 8_192);
        assert_eq!(release_reserve("2.0.76", "claude-3-opus-20240229"), 4_096);
        assert_eq!(release_window("claude-sonnet-4[1m]"), 1_000_000);
        // The override only lowers the margin rule's threshold.
        assert_eq!(ReleaseRule::Margin.threshold(200_000, 32_000, Some(50.0)), 84_000);
    }

    fn call(id: &str, name: &str, args: serde_json::Value) -> ChatMessage {
        let mut m = crate::policy::chat::written(Kind::Assistant, "assistant", String::new(), 1);
        m.calls.push(crate::policy::chat::Call {
            id: id.to_owned(),
            name: name.to_owned(),
            arguments: args.to_string(),
            args,
        });
        m
    }

    fn result(id: &str, text: &str) -> ChatMessage {
        let mut m = crate::policy::chat::written(Kind::Tool, "tool", text.to_owned(), 1);
        m.call_id = Some(id.to_owned());
        m
    }

    /// Numbered lines as Claude Code's Read returns them, `from..=to`, each `width` wide.
    #[test]
    fn a_part_of_a_file_read_is_sized_by_its_last_line_in_either_numbering() {
        // Lines 90 to 94 of a file of 30-character lines: about 94 lines of it.
        let arrows = numbered(90, 94, 30);
        let tabs = arrows.replace('→', "\t");
        for shown in [&arrows, &tabs] {
            let chars = file_chars(shown);
            assert!(chars > 90 * 30 && chars < 94 * 40, "{chars} for {shown:?}");
        }
        // Text with no numbered line is its own size.
        assert_eq!(file_chars("plain\ttext"), 10);
    }

    fn numbered(from: u64, to: u64, width: usize) -> String {
        use std::fmt::Write as _;
        let mut text = String::new();
        for n in from..=to {
            let _ = writeln!(text, "{n:>6}→{}", "x".repeat(width));
        }
        text
    }

    #[test]
    fn the_newest_files_are_restored_within_the_releases_limits() {
        use serde_json::json;
        let mut chat = Vec::new();
        // Seven files read, oldest first; f6 is too large for 2.x's 5,000 per file.
        for k in 0..7u64 {
            let id = format!("r{k}");
            chat.push(call(&id, "Read", json!({"file_path": format!("/f{k}")})));
            let lines = if k == 6 { 1_000 } else { 100 };
            chat.push(result(&id, &numbered(1, lines, 30)));
        }
        // A part of f0 read again: its size is its last line's, not the part's.
        chat.push(call(
            "again",
            "Read",
            json!({"file_path": "/f0", "offset": 90, "limit": 5}),
        ));
        chat.push(result("again", &numbered(90, 94, 30)));
        chat.push(call(
            "t",
            "TodoWrite",
            json!({"todos": [{"content": "ship", "status": "pending"}]}),
        ));
        let got = restored(&chat, &RestoreLimits::of(Some("2.0.76")));
        let paths: Vec<&str> = got.iter().map(|i| i.text.lines().next().unwrap_or("")).collect();
        // The five newest uses: f0 (read again last), f6 (too large: a reference), f5, f4, f3.
        assert_eq!(paths[0], "/f0", "{paths:?}");
        assert!(paths[1].starts_with("Note: /f6 was read before"), "{paths:?}");
        assert_eq!(paths[2..5], ["/f5", "/f4", "/f3"], "{paths:?}");
        assert!(
            got[0].tokens.is_some_and(|t| t > 900),
            "f0 is 100 lines of 38 characters: {:?}",
            got[0].tokens
        );
        assert_eq!(got.last().map(|i| i.kind), Some("restored"));
        assert!(
            got.last()
                .is_some_and(|i| i.text.contains("ship") && i.tokens.is_none()),
            "the todo list last"
        );
        // 1.0.53 to 1.0.84 allow 10,000 per file: f6 comes back; a file over that is left
        // out. From 1.0.85 the newer rule.
        let old = restored(&chat, &RestoreLimits::of(Some("1.0.53")));
        assert!(old.iter().any(|i| i.text.starts_with("/f6")));
        assert_eq!(RestoreLimits::of(Some("1.0.84")), RestoreLimits::of(Some("1.0.53")));
        assert_eq!(RestoreLimits::of(Some("1.0.85")), RestoreLimits::of(Some("2.0.76")));
        assert_eq!(RestoreLimits::of(Some("1.0.89")).per_file, 5_000);
        let small = RestoreLimits {
            per_file: 500,
            ..RestoreLimits::of(Some("1.0.53"))
        };
        let left_out = restored(&chat, &small);
        assert!(
            left_out
                .iter()
                .all(|i| !i.text.starts_with("/f6") && !i.text.contains("Note:")),
            "{left_out:?}"
        );
    }

    #[test]
    fn a_file_seen_only_in_part_makes_what_is_restored_a_range() {
        use serde_json::json;
        let limits = RestoreLimits::of(Some("2.0.76"));
        let todo = call(
            "t",
            "TodoWrite",
            json!({"todos": [{"content": "ship", "status": "pending"}]}),
        );
        // Every file seen whole (read whole, written): one figure.
        let mut whole = vec![call("r", "Read", json!({"file_path": "/a"}))];
        whole.push(result("r", &numbered(1, 40, 30)));
        whole.push(call(
            "w",
            "Write",
            json!({"file_path": "/b", "content": "fn main() {}\n"}),
        ));
        whole.push(todo.clone());
        // The files at the sizes the log shows them.
        let point_of = |restored: &Restored| -> u64 {
            restored
                .inserted
                .iter()
                .map(|i| i.tokens.unwrap_or_else(|| quarter_chars(&i.text)))
                .sum()
        };
        let known = restore(&whole, &limits);
        let point = point_of(&known);
        assert_eq!((known.least, known.most), (point, point));
        // A file known only by an edit's snippet and one read in part: Claude Code re-reads
        // both from disk, so each may be a one-line note (too large) or up to the limit.
        let mut part = whole.clone();
        part.push(call(
            "e",
            "Edit",
            json!({"file_path": "/c", "old_string": "x", "new_string": "y"}),
        ));
        part.push(result("e", &numbered(10, 14, 30)));
        part.push(call("p", "Read", json!({"file_path": "/d", "offset": 1, "limit": 20})));
        part.push(result("p", &numbered(1, 20, 30)));
        let partial = restore(&part, &limits);
        let point = point_of(&partial);
        let note = quarter_chars(&too_large_note("/c")) + quarter_chars(&too_large_note("/d"));
        assert!(
            partial.least < point && point < partial.most,
            "{} {point} {}",
            partial.least,
            partial.most
        );
        assert_eq!(partial.most - known.most, 2 * limits.per_file);
        assert_eq!(partial.least - known.least, note);
        // 1.x leaves a file too large out: the least counts nothing for it.
        let old = restore(&part, &RestoreLimits::of(Some("1.0.53")));
        assert_eq!(old.least, known.least);
        // A read of part of a file whose shown lines already pass the limit: a note, sure.
        let mut large = whole.clone();
        large.push(call(
            "l",
            "Read",
            json!({"file_path": "/e", "offset": 3000, "limit": 5}),
        ));
        large.push(result("l", &numbered(3000, 3004, 30)));
        let sure = restore(&large, &limits);
        assert_eq!(sure.least, sure.most);
        assert!(sure.inserted.iter().any(|i| i.text.starts_with("Note: /e")));
    }
}
