//! Counting anything that loads with every tokenizer (the provider's included, with its
//! image and document rules), the check for messages whose count is mostly a binary
//! payload, and the breakdown by kind: never a panic, and totals that never go down as
//! messages are added. The input is also tried as the payload of an image or document
//! part in each dialect, so the base64, header and page readers see arbitrary bytes.
#![no_main]

use ctxlens::breakdown::{breakdown, By};
use ctxlens::tokens::{media, Counts, Tokenizer};
use ctxlens::transcript::Transcript;
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

/// Messages carrying `payload` where each dialect puts a base64 image or document.
fn media_transcripts(payload: &str) -> Vec<Transcript> {
    // Over binary_heavy's smallest size, in short pieces: a 2 KiB run of one letter is
    // byte-pair merged slowly and would starve the fuzzer.
    let padding = "AB+/".repeat(512);
    let data = format!("{padding}{payload}");
    let parts = [
        serde_json::json!([{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}]}]),
        serde_json::json!([{"role": "user", "content": [{"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": payload}}]}]),
        serde_json::json!([{"role": "user", "content": [{"type": "image_url", "image_url": {"url": format!("data:image/jpeg;base64,{data}"), "detail": "high"}}]}]),
        serde_json::json!({"contents": [{"role": "user", "parts": [{"inlineData": {"mimeType": "image/webp", "data": payload}}]}]}),
    ];
    parts
        .iter()
        .filter_map(|v| Transcript::parse("fuzz", v.to_string().into_bytes(), None).ok())
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let mut transcripts = common::loads(data);
    transcripts.extend(media_transcripts(&String::from_utf8_lossy(data)));
    for t in &transcripts {
        // Each input counts with the provider's counter and with one other, chosen by its
        // length (every tokenizer is reached across the corpus at a sixth of the cost).
        let other = Tokenizer::ALL[data.len() % Tokenizer::ALL.len()];
        for tokenizer in [Tokenizer::Provider, other] {
            let counts = Counts::compute(t, tokenizer);
            let mut running = 0u64;
            for i in 0..t.messages().len() {
                let next = counts.cumulative(i);
                assert!(next >= running, "the running total went down at message {i}");
                running = next;
            }
            let rows = breakdown(t, &counts, None, By::Kind);
            let _ = rows.iter().map(|r| r.tokens).fold(0u64, u64::saturating_add);
        }
        for i in 0..t.messages().len().min(64) {
            let _ = media::binary_heavy(t, i);
        }
    }
});
