//! Writes a generated agent session of a given shape (see `ctxlens::synth::agent_session`)
//! for timing replay on other shapes than the benchmark's:
//! `cargo run --release --example agent_session -- 100000 short-turns out.json`.

fn main() {
    let mut args = std::env::args().skip(1);
    let messages: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    let name = args.next().unwrap_or_else(|| "short-turns".to_owned());
    let path = args.next().unwrap_or_else(|| "session.json".to_owned());
    let Some((_, shape)) = ctxlens::synth::SessionShape::ALL.iter().find(|(n, _)| *n == name) else {
        let names: Vec<&str> = ctxlens::synth::SessionShape::ALL.iter().map(|(n, _)| *n).collect();
        eprintln!("error: unknown shape {name:?} (known: {})", names.join(", "));
        std::process::exit(2);
    };
    if let Err(e) = std::fs::write(&path, ctxlens::synth::agent_session(messages, *shape, 0x5eed)) {
        eprintln!("error: {path}: {e}");
        std::process::exit(2);
    }
}
