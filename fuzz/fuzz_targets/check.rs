//! `check` with every provider's rules on anything that loads: problems name messages
//! that exist, and it never panics.
#![no_main]

use ctxlens::check::{check, Provider};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    for t in common::loads(data) {
        for provider in [
            Provider::OpenAi,
            Provider::Anthropic,
            Provider::Gemini,
            Provider::Responses,
        ] {
            for problem in check(&t, provider) {
                let _ = problem.to_string();
            }
        }
    }
});
