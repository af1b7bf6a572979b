//! Loading any bytes in any format: an error or a transcript, never a panic; a loaded
//! transcript counts, previews and reads back its text, and its whole session loads.
#![no_main]

use ctxlens::tokens::{Counts, Tokenizer};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    for t in common::loads(data) {
        let counts = Counts::compute(&t, Tokenizer::Estimate);
        assert_eq!(counts.len(), t.messages().len());
        for i in 0..t.messages().len().min(64) {
            let _ = t.preview(i, 40);
            let _ = t.readable_text(i);
            let _ = t.role_label(i);
            let _ = t.request(i);
        }
        for &b in t.boundaries().iter() {
            assert!(b < t.messages().len());
        }
        if let Ok(whole) = t.whole_session() {
            let _ = ctxlens::history::history(&whole, &Counts::compute(&whole, Tokenizer::Estimate));
        }
    }
});
