//! Strategies and their settings, and what a strategy plans before any summary exists:
//! [`plan_strategy`] is the one place that knows which strategy cuts a tail, and
//! [`Planned::section`] answers where each message ends up, for every front end.

use std::collections::BTreeMap;

use super::deterministic::{self, ArtifactStore, Compressed};
use super::plan::{head_end, plan, Cut, Options, Plan, Section};
use crate::cancel::CancelToken;
use crate::tokens::Counts;
use crate::transcript::{Dialect, Transcript};

/// Which compaction strategy runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// The SPEC §7F tail compactor.
    Tail,
    /// The deterministic compressor (llm4s rules).
    Deterministic,
    /// The deterministic pass, then the tail compactor on its result: clear cheap tokens
    /// before summarizing.
    DeterministicThenTail,
}

impl Strategy {
    /// Every strategy, in the order the TUI cycles through them.
    pub const ALL: [Strategy; 3] = [Strategy::Tail, Strategy::Deterministic, Strategy::DeterministicThenTail];

    /// The name on the command line and in `--plan`.
    pub fn name(self) -> &'static str {
        match self {
            Strategy::Tail => "tail",
            Strategy::Deterministic => "deterministic",
            Strategy::DeterministicThenTail => "deterministic,tail",
        }
    }

    /// True when the deterministic pass runs first.
    pub fn uses_deterministic_pass(self) -> bool {
        matches!(self, Strategy::Deterministic | Strategy::DeterministicThenTail)
    }

    /// True when the §7F tail compactor runs (last).
    pub fn cuts_a_tail(self) -> bool {
        matches!(self, Strategy::Tail | Strategy::DeterministicThenTail)
    }

    /// The strategy after this one in [`Strategy::ALL`].
    #[must_use]
    pub fn next(self) -> Strategy {
        let i = Strategy::ALL.iter().position(|&s| s == self).unwrap_or(0);
        Strategy::ALL[(i + 1) % Strategy::ALL.len()]
    }
}

impl crate::names::Named for Strategy {
    const KIND: &'static str = "strategy";
    const ALL: &'static [Self] = &Strategy::ALL;

    fn name(self) -> &'static str {
        Strategy::name(self)
    }

    /// `deterministic+tail`: the `+` that reads as "then" on a command line.
    fn alias(text: &str) -> Option<Self> {
        (text == "deterministic+tail").then_some(Strategy::DeterministicThenTail)
    }
}

impl std::str::FromStr for Strategy {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(s)
    }
}

/// The deterministic compressor's options besides the cap (which is `max_tokens`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeterministicOptions {
    /// Run phase 2 (the subjective edits).
    pub subjective_edits: bool,
    /// Externalize tool outputs larger than this many bytes.
    pub externalize_over: usize,
}

impl Default for DeterministicOptions {
    fn default() -> Self {
        DeterministicOptions {
            subjective_edits: false,
            externalize_over: deterministic::DEFAULT_EXTERNALIZE_OVER,
        }
    }
}

/// Everything a user tunes: the strategy, the §7F options, the deterministic options,
/// the summary's role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Settings {
    /// The strategy.
    pub strategy: Strategy,
    /// `max_tokens` (also the deterministic cap), `keep_tail`, `flush_to_memory`.
    pub options: Options,
    /// The deterministic pass's options.
    pub deterministic: DeterministicOptions,
    /// The role of the summary message in a message list (system, as §7F writes it).
    pub summary_role: super::SummaryRole,
}

impl Settings {
    /// The tail compactor alone with these options.
    pub fn tail(options: Options) -> Settings {
        Settings {
            strategy: Strategy::Tail,
            options,
            deterministic: DeterministicOptions::default(),
            summary_role: super::SummaryRole::System,
        }
    }
}

/// The deterministic pass applied: its edits, and the transcript it leaves (the same
/// messages, some rewritten) with that transcript's counts. What `deterministic,tail`
/// plans on.
#[derive(Debug, Clone)]
pub struct Derived {
    /// The pass: edits, rewritten messages, totals.
    pub compressed: Compressed,
    /// The transcript with the rewritten messages.
    pub view: Transcript,
    /// Its counts (the rewritten messages re-counted).
    pub counts: Counts,
}

/// Runs the deterministic pass with cap `max_tokens` and applies it as a view.
pub fn derive(
    transcript: &Transcript,
    counts: &Counts,
    max_tokens: u64,
    options: DeterministicOptions,
    store: &mut dyn ArtifactStore,
    cancel: &CancelToken,
) -> crate::Result<Derived> {
    let settings = deterministic::Settings {
        cap: max_tokens,
        subjective_edits: options.subjective_edits,
        externalize_over: options.externalize_over,
    };
    let compressed = deterministic::compress(transcript, counts, &settings, store, cancel)?;
    let changed: BTreeMap<usize, String> = compressed.changed.clone();
    let indices: Vec<usize> = changed.keys().copied().collect();
    let view = transcript.with_overrides(changed);
    let counts = counts.with_recounted(&view, indices);
    Ok(Derived {
        compressed,
        view,
        counts,
    })
}

/// What a strategy does with given counts, before any summary is made: instant to
/// compute (prefix sums), so the TUI re-plans on every key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Planned {
    /// The strategy.
    pub strategy: Strategy,
    /// The §7F plan (on the deterministic output for `deterministic,tail`); `None` when
    /// the strategy cuts no tail.
    pub tail: Option<Plan>,
    /// 1 when message 0 is a leading system message.
    pub head_end: usize,
    /// Tokens of the transcript planned on.
    pub tokens: u64,
}

impl Planned {
    /// The cut, when the tail compactor fires.
    pub fn cut(&self) -> Option<&Cut> {
        self.tail.as_ref().and_then(Plan::cut)
    }

    /// True when a tail is cut.
    pub fn compacts(&self) -> bool {
        self.cut().is_some()
    }

    /// Where message `index` ends up.
    pub fn section(&self, index: usize) -> Section {
        match &self.tail {
            Some(plan) => plan.section(index),
            None if index < self.head_end => Section::Head,
            None => Section::Tail,
        }
    }
}

/// Plans `strategy` on `transcript` and `counts`: the transcript itself for `tail`, the
/// view the deterministic pass left (see [`derive()`]) for the other strategies.
pub fn plan_strategy(strategy: Strategy, transcript: &Transcript, counts: &Counts, options: &Options) -> Planned {
    Planned {
        strategy,
        tail: strategy.cuts_a_tail().then(|| plan(transcript, counts, options)),
        head_end: head_end(transcript),
        tokens: counts.total(),
    }
}

/// Something about a result that will bite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Warning {
    /// The result is still over `max_tokens`: the compactor fires again every turn.
    StillOverBudget {
        /// Tokens after compaction.
        tokens_after: u64,
        /// The budget.
        max_tokens: u64,
    },
    /// The tail is empty, so the result holds no user message.
    NoUserMessageLeft,
    /// The summary is a `role:"system"` message inside an Anthropic `messages` list,
    /// which the Anthropic API rejects.
    SystemInsideAnthropicMessages,
    /// The deterministic pass ended over its cap (it is best effort).
    CapNotMet {
        /// Tokens after the pass.
        tokens_after: u64,
        /// The cap.
        cap: u64,
    },
}

impl std::fmt::Display for Warning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use crate::text::thousands;
        match self {
            Warning::StillOverBudget { tokens_after, max_tokens } => write!(
                f,
                "result is still over max_tokens ({} > {}): the compactor will fire again on every turn",
                thousands(*tokens_after),
                thousands(*max_tokens)
            ),
            Warning::NoUserMessageLeft => f.write_str("no user message left: the tail is empty and the whole body is summarized"),
            Warning::CapNotMet { tokens_after, cap } => write!(
                f,
                "the deterministic pass cannot reach the cap ({} > {}): rules only cut what they safely can",
                thousands(*tokens_after),
                thousands(*cap)
            ),
            Warning::SystemInsideAnthropicMessages => f.write_str(
                "Anthropic dialect: the summary is a role:\"system\" message inside `messages`, which the Anthropic API rejects (--summary-role user writes one it accepts)",
            ),
        }
    }
}

/// The warnings of a planned result that costs `tokens_after` tokens (`is_log`: a session
/// log, whose summary takes its client's own shape).
pub fn warnings(
    planned: &Planned,
    max_tokens: u64,
    tokens_after: u64,
    dialect: Dialect,
    role: super::SummaryRole,
    is_log: bool,
) -> Vec<Warning> {
    let mut warnings = Vec::new();
    if let Some(cut) = planned.cut() {
        if tokens_after > max_tokens {
            warnings.push(Warning::StillOverBudget {
                tokens_after,
                max_tokens,
            });
        }
        if cut.tail_empty() {
            warnings.push(Warning::NoUserMessageLeft);
        }
        if dialect.rules().refuses_system_messages() && role == super::SummaryRole::System && !is_log {
            warnings.push(Warning::SystemInsideAnthropicMessages);
        }
    } else if planned.tail.is_none() && tokens_after > max_tokens {
        warnings.push(Warning::CapNotMet {
            tokens_after,
            cap: max_tokens,
        });
    }
    warnings
}
