//! Where `compact --plan` spends its time on a file: a plain read, the UTF-8 check a load
//! makes (simdutf8) and serde's split into raw elements (references for the steps inside a
//! load), then the whole load as the CLI does it, the count and the plan.
//! `cargo run --release --example phases -- FILE`.

use std::time::Instant;

use ctxlens::compact::{plan, Options};
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;
use serde_json::value::RawValue;

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let t0 = Instant::now();
    let bytes = std::fs::read(&path).expect("readable");
    let t1 = Instant::now();
    let text = simdutf8::basic::from_utf8(&bytes).expect("UTF-8");
    let t2 = Instant::now();
    let items: Vec<&RawValue> = serde_json::from_str(text).expect("an array");
    let t3 = Instant::now();
    let t = Transcript::read(std::path::Path::new(&path), None).expect("loads");
    let t4 = Instant::now();
    let counts = Counts::compute(&t, Tokenizer::Estimate);
    let t5 = Instant::now();
    let options = Options {
        max_tokens: counts.total() / 5,
        keep_tail: None,
        flush_to_memory: false,
    };
    let p = plan(&t, &counts, &options);
    let t6 = Instant::now();
    eprintln!(
        "read {:?} · utf8 {:?} · serde split {:?} ({} items) · load {:?} · count {:?} · plan {:?} · compacts {}",
        t1 - t0,
        t2 - t1,
        t3 - t2,
        items.len(),
        t4 - t3,
        t5 - t4,
        t6 - t5,
        p.compacts()
    );
}
