//! Writes a generated transcript (see `ctxlens::synth`) for benchmarks and timings:
//! `cargo run --release --example synth -- 100000 target/bench-data/transcript-100k.json`.

fn main() {
    let mut args = std::env::args().skip(1);
    let messages: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let path = args.next().unwrap_or_else(|| "transcript.json".to_owned());
    let text = ctxlens::synth::openai_transcript(messages);
    if let Err(e) = std::fs::write(&path, text) {
        eprintln!("error: {path}: {e}");
        std::process::exit(2);
    }
}
