//! Compaction: the §7F tail plan (pure) and applying it to produce the output document.

mod apply;
pub mod deterministic;
mod plan;

pub use apply::{
    compact, inserted_messages, render, tokens_after, warnings, Compaction, Warning, FLUSH_REMINDER, SUMMARY_PREFIX,
};
pub use plan::{plan, Cut, Decision, Options, Plan, SplitReason};

/// Which compaction strategy runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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
}

impl std::str::FromStr for Strategy {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.replace('+', ",").as_str() {
            "tail" => Ok(Strategy::Tail),
            "deterministic" => Ok(Strategy::Deterministic),
            "deterministic,tail" => Ok(Strategy::DeterministicThenTail),
            _ => Err(format!(
                "unknown strategy `{s}` (expected tail, deterministic or deterministic,tail)"
            )),
        }
    }
}
