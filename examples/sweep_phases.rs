//! Where the TUI's `S` spends its time at 100,000 messages: the whole session, its model
//! view, the fact index, then the sweep's answer grid with placeholder summaries.
//! `cargo run --release --example sweep_phases [MESSAGES] [TAIL_PER_MILLE]` (the TUI's
//! sweep keeps the tail's share of the budget the user set; none: the default tail).

use std::time::Instant;

use ctxlens::cancel::CancelToken;
use ctxlens::compact::SummaryRole;
use ctxlens::replay::lost::FactIndex;
use ctxlens::replay::sweep::{sweep, Inputs, Range, TailRule, DEFAULT_FACT_FLOOR};
use ctxlens::summarize::Placeholder;
use ctxlens::synth::openai_transcript;
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;

fn main() {
    let messages: usize = std::env::args()
        .nth(1)
        .map_or(100_000, |n| n.parse().expect("a number"));
    let tail = std::env::args()
        .nth(2)
        .map_or(TailRule::Default, |m| TailRule::PerMille(m.parse().expect("a number")));
    let transcript = Transcript::parse("synth.json", openai_transcript(messages).into_bytes(), None).expect("valid");
    let counts = Counts::compute(&transcript, Tokenizer::Estimate);
    let cancel = CancelToken::new();
    let t0 = Instant::now();
    let whole = transcript.whole_session().expect("whole");
    let t1 = Instant::now();
    let view = ctxlens::replay::view_for(&whole, &counts, false, &cancel).expect("view");
    let t2 = Instant::now();
    let facts = FactIndex::build(&view, &cancel).expect("facts");
    let t3 = Instant::now();
    let range = Range {
        from: view.total() / 20,
        to: view.total(),
        tails: vec![tail],
        flush_to_memory: false,
    };
    let settings = range.chart();
    let inputs = Inputs {
        view: &view,
        facts: &facts,
        settings: &settings,
        range: &range,
        fact_floor: DEFAULT_FACT_FLOOR,
        summary_role: SummaryRole::System,
        cuts_a_tail: true,
        summarizer: &Placeholder,
        keep: None,
        cancel: &cancel,
        progress: None,
    };
    let result = sweep(&inputs).expect("sweeps");
    let t4 = Instant::now();
    let again = sweep(&inputs).expect("sweeps");
    let t5 = Instant::now();
    assert_eq!(result, again);
    eprintln!(
        "whole session {:?} · view {:?} · fact index {:?} ({} facts, {} turns) · sweep {:?} ({} rows) · sweep again {:?}",
        t1 - t0,
        t2 - t1,
        t3 - t2,
        facts.len(),
        facts.instructions(),
        t4 - t3,
        result.rows.len(),
        t5 - t4
    );
}
