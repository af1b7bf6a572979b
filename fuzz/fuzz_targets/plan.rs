//! The §7F plan on anything that loads: its promises hold (the tail starts at a human
//! turn or is empty, something is summarized, the sections cover every message once),
//! and a replay of the session with the same budget runs.
#![no_main]

use ctxlens::compact::{plan, Decision, Options, Section};
use ctxlens::tokens::{Counts, Tokenizer};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    for t in common::loads(data) {
        for tokenizer in [Tokenizer::Estimate, Tokenizer::EstimateUtf8] {
            let counts = Counts::compute(&t, tokenizer);
            let (max_tokens, keep_tail, flush_to_memory) = common::budget(data, counts.total());
            let options = Options {
                max_tokens,
                keep_tail,
                flush_to_memory,
            };
            let p = plan(&t, &counts, &options);
            if let Decision::Compact(cut) = p.decision {
                assert!(cut.split == t.messages.len() || t.messages[cut.split].boundary);
                assert!(cut.summarized() >= 1);
                assert_eq!(
                    cut.head_tokens + cut.summarized_tokens + cut.tail_tokens,
                    counts.total()
                );
                let summarized = (0..t.messages.len())
                    .filter(|&i| p.section(i) == Section::Summarized)
                    .count();
                assert_eq!(summarized, cut.summarized());
            }
            let view = ctxlens::replay::View::new(t.clone(), counts.clone());
            let _ = ctxlens::replay::replay(&ctxlens::replay::Inputs {
                view: &view,
                options,
                summary_role: ctxlens::compact::SummaryRole::System,
                cuts_a_tail: true,
                summarizer: &ctxlens::summarize::Placeholder,
                cancel: ctxlens::cancel::never(),
            })
            .expect("the placeholder never fails");
        }
    }
});
