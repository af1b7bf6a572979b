//! Writes `N` generated sessions under `DIR` (a mix of Claude Code logs, Codex rollouts
//! and OpenAI arrays, mostly small, a few large, some with a past compaction), for
//! timing `ctxlens scan`: `cargo run --release --example gen_sessions -- DIR N`.

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = std::path::PathBuf::from(args.next().expect("DIR"));
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    for k in 0..n {
        let seed = k as u64 * 2_654_435_761 % 1_000_003;
        // Sizes: most sessions are short, one in fifty is long.
        let messages = match k % 50 {
            0 => 2_000,
            1..=9 => 300,
            _ => 20 + (seed as usize % 120),
        };
        let (extension, text) = ctxlens::synth::session(k % 3, messages, k % 7 == 0, seed);
        let project = dir.join(format!("project-{:02}", k % 40));
        std::fs::create_dir_all(&project).expect("a folder");
        std::fs::write(project.join(format!("session-{k:05}.{extension}")), text).expect("written");
    }
}
