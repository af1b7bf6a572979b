//! Benchmarks of a compactor over a whole session (see `ctxlens::replay`): one replay at
//! 10,000 and 100,000 messages with placeholder summaries (what the TUI's chart runs on
//! every budget key), the same with extractive summaries, indexing a session's facts,
//! the TUI's sweep (its answer grid) at 10,000 messages, and every agent's policy replayed over the same
//! sessions (`policy/…`, to hold beside `replay/…`: within 2× is the target).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ctxlens::cancel::never;
use ctxlens::compact::{Options, SummaryRole};
use ctxlens::replay::lost::FactIndex;
use ctxlens::replay::sweep::{sweep, Inputs as SweepInputs, Range, TailRule, DEFAULT_FACT_FLOOR};
use ctxlens::replay::{replay, Inputs, View};
use ctxlens::summarize::{Extractive, Placeholder, Summarizer};
use ctxlens::synth::openai_transcript;
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;

fn view(messages: usize) -> View {
    let text = openai_transcript(messages);
    let t = Transcript::parse("bench.json", text.into_bytes(), None).expect("valid");
    let counts = Counts::compute(&t, Tokenizer::Estimate);
    View::new(t, counts)
}

fn options(view: &View, share: u64) -> Options {
    Options {
        max_tokens: view.total() / share,
        keep_tail: None,
        flush_to_memory: false,
    }
}

fn run(view: &View, options: Options, summarizer: &dyn Summarizer) -> usize {
    replay(&Inputs {
        view,
        options,
        summary_role: SummaryRole::System,
        cuts_a_tail: true,
        summarizer,
        cancel: never(),
        progress: None,
    })
    .expect("replays")
    .firings
    .len()
}

fn replays(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    group.sample_size(10);
    for messages in [10_000, 100_000] {
        let v = view(messages);
        // A budget of a fiftieth of the session: it fires dozens of times.
        let o = options(&v, 50);
        eprintln!("{messages} messages: {} firings", run(&v, o, &Placeholder));
        group.bench_function(format!("{messages}/placeholder"), |b| {
            b.iter(|| black_box(run(&v, o, &Placeholder)));
        });
        let extractive = Extractive { summary_tokens: 400 };
        group.bench_function(format!("{messages}/extractive"), |b| {
            b.iter(|| black_box(run(&v, o, &extractive)));
        });
    }
    group.finish();
}

fn sweeps(c: &mut Criterion) {
    let v = view(10_000);
    let mut group = c.benchmark_group("sweep");
    group.sample_size(10);
    group.bench_function("10000/fact_index", |b| {
        b.iter(|| black_box(FactIndex::build(&v, never()).expect("indexes").len()));
    });
    let facts = FactIndex::build(&v, never()).expect("indexes");
    // The TUI's sweep: the answer grid from a twentieth of the session to all of it.
    let range = Range {
        from: v.total() / 20,
        to: v.total(),
        tails: vec![TailRule::Default],
        flush_to_memory: false,
    };
    let settings = range.chart();
    for (name, summarizer) in [
        ("placeholder", &Placeholder as &dyn Summarizer),
        ("extractive", &Extractive { summary_tokens: 400 }),
    ] {
        group.bench_function(format!("10000/answer_grid/{name}"), |b| {
            b.iter(|| {
                let result = sweep(&SweepInputs {
                    view: &v,
                    facts: &facts,
                    settings: &settings,
                    range: &range,
                    fact_floor: DEFAULT_FACT_FLOOR,
                    summary_role: SummaryRole::System,
                    cuts_a_tail: true,
                    summarizer,
                    keep: None,
                    cancel: never(),
                    progress: None,
                })
                .expect("sweeps");
                black_box(result.rows.len())
            });
        });
    }
    group.finish();
}

/// Every policy over the session, its window a fiftieth of the session (so each one that
/// fires by size fires dozens of times), placeholder summaries.
fn policies(c: &mut Criterion) {
    use ctxlens::calibrate::calibrate_epochs;
    use ctxlens::policy::{all, chat_view_counted, compare::settings_for, replay as policy_replay};
    let mut group = c.benchmark_group("policy");
    group.sample_size(10);
    for messages in [10_000, 100_000] {
        let text = openai_transcript(messages);
        let whole = Transcript::parse("bench.json", text.into_bytes(), None).expect("valid");
        let counts = Counts::compute(&whole, Tokenizer::Estimate);
        let fits = calibrate_epochs(&whole, &counts);
        let chat = chat_view_counted(&whole, &counts);
        let turns = ctxlens::loss::session::SessionTurns::of_session(&whole);
        let prefixes = policy_replay::SurvivingPrefixes::of(&whole);
        let window = counts.total() / 50;
        for policy in all() {
            let settings = settings_for(policy, window, &[]).expect("defaults");
            let run = || {
                policy_replay::replay(&policy_replay::Inputs {
                    whole: &whole,
                    counts: &counts,
                    policy,
                    settings: &settings,
                    summarizer: &Placeholder,
                    fits: &fits,
                    text_fits: &fits,
                    chat: &chat,
                    turns: &turns,
                    cancel: never(),
                    window: None,
                    prefixes: &prefixes,
                    overhead: policy_replay::SessionOverhead::of(&whole, &counts),
                    summaries: &std::sync::OnceLock::new(),
                    known: policy_replay::Known::EVERYTHING,
                })
                .expect("replays")
                .firings
                .len()
            };
            eprintln!("{messages} messages, {}: {} firings", policy.name(), run());
            group.bench_function(format!("{messages}/{}", policy.name()), |b| b.iter(|| black_box(run())));
        }
    }
    group.finish();
}

criterion_group!(benches, replays, sweeps, policies);
criterion_main!(benches);
