//! The deterministic pass on anything that loads: it never panics, never makes a
//! message cost more, and its output loads back with the same number of messages.
#![no_main]

use ctxlens::compact::deterministic::DryRun;
use ctxlens::compact::{derive, DeterministicOptions};
use ctxlens::tokens::{Counts, Tokenizer};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    for t in common::loads(data) {
        let counts = Counts::compute(&t, Tokenizer::Estimate);
        let (cap, _, subjective_edits) = common::budget(data, counts.total());
        let options = DeterministicOptions {
            subjective_edits,
            externalize_over: 64 + data.len() % 4096,
        };
        let derived =
            derive(&t, &counts, cap, options, &mut DryRun, ctxlens::cancel::never()).expect("a dry run never fails");
        for edit in &derived.compressed.edits {
            assert!(edit.tokens_after <= edit.tokens_before, "{edit:?}");
        }
        assert_eq!(derived.view.messages().len(), t.messages().len());
        assert!(derived.counts.total() <= counts.total());
    }
});
