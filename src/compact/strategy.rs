//! Strategies, and [`apply`]: the one function that runs any of them. The CLI's output,
//! the TUI's preview and the TUI's export all go through it, so they cannot disagree.

use super::deterministic::{self, ArtifactStore, Compressed};
use super::{compact, Options, Plan};
use crate::summarize::Summarizer;
use crate::tokens::Counts;
use crate::transcript::Transcript;

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

/// The deterministic compressor's options besides the cap (which is `max_tokens`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

/// What a strategy produced.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The output document.
    pub output: String,
    /// Tokens before.
    pub tokens_before: u64,
    /// Tokens of the output's messages.
    pub tokens_after: u64,
    /// The deterministic pass, when it ran.
    pub compressed: Option<Compressed>,
    /// The tail plan, when the tail compactor ran (on the deterministic output for
    /// `deterministic,tail`).
    pub plan: Option<Plan>,
}

/// Runs `strategy` on `transcript`. The deterministic cap is `options.max_tokens`.
pub fn apply(
    transcript: &Transcript,
    counts: &Counts,
    strategy: Strategy,
    options: &Options,
    det: DeterministicOptions,
    store: &mut dyn ArtifactStore,
    summarizer: &dyn Summarizer,
) -> anyhow::Result<Applied> {
    let settings = deterministic::Settings {
        cap: options.max_tokens,
        subjective_edits: det.subjective_edits,
        externalize_over: det.externalize_over,
    };
    match strategy {
        Strategy::Tail => {
            let result = compact(transcript, counts, options, summarizer)?;
            Ok(Applied {
                tokens_before: result.plan.tokens_before,
                tokens_after: result.tokens_after,
                plan: Some(result.plan),
                output: result.output.into_owned(),
                compressed: None,
            })
        }
        Strategy::Deterministic => {
            let compressed = deterministic::compress(transcript, counts, &settings, store)?;
            Ok(Applied {
                output: compressed.output.clone(),
                tokens_before: compressed.tokens_before,
                tokens_after: compressed.tokens_after,
                compressed: Some(compressed),
                plan: None,
            })
        }
        Strategy::DeterministicThenTail => {
            let compressed = deterministic::compress(transcript, counts, &settings, store)?;
            let (stage_two, counts_two) = reload(transcript, &compressed, counts)?;
            let result = compact(&stage_two, &counts_two, options, summarizer)?;
            Ok(Applied {
                output: result.output.into_owned(),
                tokens_before: counts.total(),
                tokens_after: result.tokens_after,
                plan: Some(result.plan),
                compressed: Some(compressed),
            })
        }
    }
}

/// The deterministic output loaded as a transcript (same format, same message indices)
/// and counted with the same tokenizer: what the tail compactor sees in
/// `deterministic,tail`.
pub fn reload(
    transcript: &Transcript,
    compressed: &Compressed,
    counts: &Counts,
) -> anyhow::Result<(Transcript, Counts)> {
    let stage_two = Transcript::parse(
        &transcript.source,
        compressed.output.clone().into_bytes(),
        Some(transcript.format.as_override()),
    )?;
    let counts_two = Counts::compute(&stage_two, counts.tokenizer);
    Ok((stage_two, counts_two))
}
