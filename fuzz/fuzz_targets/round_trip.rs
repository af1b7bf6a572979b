//! Write, then reload: every output ctxlens writes loads back, in the input's format,
//! with exactly the messages the plan keeps plus the ones it writes.
#![no_main]

use ctxlens::compact::{Compaction, Options, Settings, SummaryRole};
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    for t in common::loads(data) {
        let counts = Counts::compute(&t, Tokenizer::Estimate);
        let (max_tokens, keep_tail, flush_to_memory) = common::budget(data, counts.total());
        let role = if data.len() % 2 == 0 {
            SummaryRole::System
        } else {
            SummaryRole::User
        };
        let settings = Settings {
            summary_role: role,
            ..Settings::tail(Options {
                max_tokens,
                keep_tail,
                flush_to_memory,
            })
        };
        let outcome = Compaction::new(&t, &counts, settings).run()
        .expect("the placeholder never fails");
        if outcome.document.refusal().is_some() {
            // A format ctxlens reads but does not write (an agent's recording).
            continue;
        }
        let text = outcome.document.to_text();
        if outcome.document.is_input() {
            assert_eq!(text.as_bytes(), data, "a no-op is byte for byte");
            continue;
        }
        let back = Transcript::parse("out", text.into_bytes(), Some(t.format().as_override()))
            .unwrap_or_else(|e| panic!("the output does not load back: {e}"));
        let cut = outcome.planned.cut().expect("compacted");
        let expected = t.messages().len() - cut.summarized() + 1 + usize::from(flush_to_memory);
        assert_eq!(back.messages().len(), expected, "kept + written");
    }
});
