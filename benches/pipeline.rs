//! Benchmarks of the core pipeline on generated transcripts (see `ctxlens::synth`):
//! load + count + plan end to end with the estimator at 100k messages; what `compact
//! --plan`, `compact --report` and an extractive summary compute at 100k messages; one
//! full firing at 8.5k messages, a re-plan with counts cached, and cl100k counting at
//! 100k messages.
//!
//! The 100k-message file is also written to `target/bench-data/` so Python's
//! `json.load` of the same bytes can be timed beside it (see the README).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use ctxlens::compact::{plan, Compaction, Options, Settings};
use ctxlens::summarize::Placeholder;
use ctxlens::synth::openai_transcript;
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;

fn write_bench_file(name: &str, text: &str) -> Option<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-data");
    std::fs::create_dir_all(&dir).ok()?;
    std::fs::write(dir.join(name), text).ok()?;
    Some(dir.join(name))
}

/// What every end-to-end benchmark starts with: the file loaded, counted with the
/// estimator, and a budget of half its tokens.
fn load_and_count(bytes: Vec<u8>) -> (Transcript, Counts, Options) {
    count_with_budget(Transcript::parse("bench.json", bytes, None).expect("valid"))
}

/// A loaded transcript counted with the estimator, and a budget of half its tokens.
fn count_with_budget(t: Transcript) -> (Transcript, Counts, Options) {
    let counts = Counts::compute(&t, Tokenizer::Estimate);
    let options = Options {
        max_tokens: counts.total() / 2,
        keep_tail: None,
        flush_to_memory: false,
    };
    (t, counts, options)
}

fn large(c: &mut Criterion) {
    let text = openai_transcript(100_000);
    let file = write_bench_file("transcript-100k.json", &text);
    eprintln!("100k-message transcript: {:.1} MB", text.len() as f64 / 1e6);
    let mut group = c.benchmark_group("100k");
    group.sample_size(10);
    // The same from the file (in the page cache, as a file just written or read is):
    // load + count + plan as `compact --plan` does them, reading included.
    if let Some(file) = file {
        group.bench_function("read_count_plan_from_file", |b| {
            b.iter_batched(
                || (),
                |()| {
                    let (t, counts, options) = count_with_budget(Transcript::read(&file, None).expect("valid"));
                    let planned = plan(&t, &counts, &options);
                    // Freed after the clock stops, as the other benchmarks' inputs are.
                    black_box((t, planned))
                },
                BatchSize::LargeInput,
            );
        });
    }
    group.bench_function("compact_plan_estimate_end_to_end", |b| {
        b.iter_batched(
            || text.clone().into_bytes(),
            |bytes| {
                let (t, counts, options) = load_and_count(bytes);
                black_box(plan(&t, &counts, &options))
            },
            BatchSize::LargeInput,
        );
    });
    // What `compact --plan` computes (the run, and the plan it prints), beside what
    // `compact --report` computes: the loss report reads every summarized message once
    // and searches all facts in one pass per kept message.
    for (name, summarizer) in [
        (
            "compact_plan_run_end_to_end",
            &Placeholder as &dyn ctxlens::summarize::Summarizer,
        ),
        ("compact_report_end_to_end", &Placeholder),
        (
            "compact_extractive_end_to_end",
            &ctxlens::summarize::Extractive { summary_tokens: 400 },
        ),
    ] {
        let with_loss = name == "compact_report_end_to_end";
        let prints_plan = name == "compact_plan_run_end_to_end";
        group.bench_function(name, |b| {
            b.iter_batched(
                || text.clone().into_bytes(),
                |bytes| {
                    let (t, counts, options) = load_and_count(bytes);
                    let compaction =
                        ctxlens::compact::Compaction::new(&t, &counts, ctxlens::compact::Settings::tail(options))
                            .summarizer(summarizer);
                    let compaction = if with_loss {
                        compaction.with_loss_report()
                    } else {
                        compaction
                    };
                    let outcome = compaction.run().expect("compacts");
                    if prints_plan {
                        ctxlens::compact::write_plan(&mut std::io::sink(), &outcome).expect("written");
                    }
                    black_box(outcome.loss.map(|l| l.facts.len()))
                },
                BatchSize::LargeInput,
            );
        });
    }
    let t = Transcript::parse("bench.json", text.clone().into_bytes(), None).expect("valid");
    group.bench_function("count_cl100k", |b| {
        b.iter(|| black_box(Counts::compute(&t, Tokenizer::Cl100k).total()));
    });
    let counts = Counts::compute(&t, Tokenizer::Estimate);
    let mut max = counts.total() / 3;
    group.sample_size(100);
    group.bench_function("replan_counts_cached", |b| {
        b.iter(|| {
            max = if max > counts.total() {
                counts.total() / 3
            } else {
                max + 997
            };
            let options = Options {
                max_tokens: max,
                keep_tail: None,
                flush_to_memory: false,
            };
            black_box(plan(&t, &counts, &options))
        });
    });
    group.finish();
}

fn firing(c: &mut Criterion) {
    let text = openai_transcript(8_500);
    eprintln!("8.5k-message transcript: {:.1} MB", text.len() as f64 / 1e6);
    c.bench_function("8.5k/one_firing_end_to_end", |b| {
        b.iter_batched(
            || text.clone().into_bytes(),
            |bytes| {
                let (t, counts, mut options) = load_and_count(bytes);
                options.flush_to_memory = true;
                let result = Compaction::new(&t, &counts, Settings::tail(options))
                    .run()
                    .expect("placeholder");
                black_box(result.document.len())
            },
            BatchSize::LargeInput,
        );
    });
}

/// The deterministic pass on one message holding 2,000 tool results (it was quadratic in
/// them: 103 s before the fix on the campaign's machine).
fn many_results(c: &mut Criterion) {
    let text = ctxlens::synth::many_results(2_000);
    let t = Transcript::parse("blocks.json", text.into_bytes(), None).expect("valid");
    let counts = Counts::compute(&t, Tokenizer::Estimate);
    let mut group = c.benchmark_group("deterministic");
    group.sample_size(10);
    group.bench_function("2000_results_in_one_message", |b| {
        b.iter(|| {
            let derived = ctxlens::compact::derive(
                &t,
                &counts,
                1_000,
                ctxlens::compact::DeterministicOptions::default(),
                &mut ctxlens::compact::deterministic::DryRun,
                ctxlens::cancel::never(),
            )
            .expect("derives");
            black_box(derived.compressed.edits.len())
        });
    });
    group.finish();
}

criterion_group!(benches, firing, large, many_results);
criterion_main!(benches);
