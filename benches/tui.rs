//! TUI benchmarks on a generated 100k-message transcript: drawing one frame, a budget
//! change end to end (`App::update` re-plans from cached counts, then a full redraw),
//! which must stay well under a 16 ms frame, and the preview and search jobs that run on
//! workers.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use ctxlens::cancel::CancelToken;
use ctxlens::summarize::Spec;
use ctxlens::synth::openai_transcript;
use ctxlens::transcript::Transcript;
use ctxlens::tui::action::Action;
use ctxlens::tui::app::{App, Config, Effect};
use ctxlens::tui::jobs::{self, Job, JobKind};
use ctxlens::tui::ui;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn tui(c: &mut Criterion) {
    let text = openai_transcript(100_000);
    let transcript = Transcript::parse("bench.json", text.into_bytes(), None).expect("valid");
    let config = Config {
        summarizer: Spec::Placeholder,
        ..Config::default()
    };
    let (mut app, _) = App::new(transcript, config);
    app.act(Action::Resize(200, 50));
    let mut terminal = Terminal::new(TestBackend::new(200, 50)).expect("backend");
    let mut group = c.benchmark_group("tui_100k");
    group.bench_function("draw_frame", |b| {
        b.iter(|| {
            terminal.draw(|frame| ui::draw(frame, &app)).expect("draw");
        });
    });
    let mut up = true;
    group.bench_function("budget_change_replan_and_redraw", |b| {
        b.iter(|| {
            up = !up;
            app.act(if up { Action::MaxUp } else { Action::MaxDown });
            terminal.draw(|frame| ui::draw(frame, &app)).expect("draw");
            black_box(app.tokens_after())
        });
    });
    group.bench_function("replan_only", |b| b.iter(|| black_box(app.act(Action::KeepUp))));
    group.sample_size(10);
    let preview = app
        .act(Action::TogglePreview)
        .into_iter()
        .find_map(|e| match e {
            Effect::Start(job) if job.kind() == JobKind::Preview => Some(job),
            _ => None,
        })
        .expect("a preview job");
    group.bench_function("build_preview_on_the_worker", |b| {
        b.iter(|| black_box(jobs::run(preview.clone(), &CancelToken::new(), &|_| {})));
    });
    let search = Job::Search {
        query: "moved here".into(),
        transcript: std::sync::Arc::clone(app.transcript()),
    };
    group.bench_function("search_all_messages", |b| {
        b.iter(|| black_box(jobs::run(search.clone(), &CancelToken::new(), &|_| {})));
    });
    group.finish();
}

/// The session browser filling in from a scan of 50,000 sessions, one frame drawn per
/// 1,000 rows (the event loop redraws as rows arrive): linear in the rows.
fn browser(c: &mut Criterion) {
    use ctxlens::tui::browser::{self, Browser, Entry};
    let template = ctxlens::scan::scan_file(
        std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/sample-transcripts/support-agent.json"
        )),
        ctxlens::tokens::Tokenizer::Estimate,
        None,
    )
    .expect("the sample scans");
    let sessions: Vec<Entry> = (0..50_000)
        .map(|k| {
            let mut s = template.clone();
            s.started = format!(
                "2026-{:02}-{:02}T{:02}:00:00Z",
                1 + k % 12,
                1 + (k * 7) % 28,
                (k * 13) % 24
            );
            s.path = format!("/sessions/p{}/s{k:06}.jsonl", k % 97);
            Entry::Session(Box::new(s))
        })
        .collect();
    let mut group = c.benchmark_group("browser");
    group.sample_size(10);
    group.bench_function("scan_of_50k_sessions_arriving", |b| {
        b.iter(|| {
            let mut view = Browser::new(
                vec!["/sessions".into()],
                sessions.len(),
                ctxlens::tui::theme::Theme::colored(),
            );
            let mut terminal = Terminal::new(TestBackend::new(160, 45)).expect("backend");
            view.update(&Action::Resize(160, 45));
            for (k, entry) in sessions.iter().enumerate() {
                view.add(entry.clone());
                if k % 1_000 == 0 {
                    terminal.draw(|frame| browser::draw(frame, &view)).expect("draw");
                }
            }
            black_box(view.progress())
        });
    });
    group.finish();
}

/// Following a growing Claude Code log: the work one change costs (the reload job: read,
/// count, meter) after 100 records were appended to a log of 10,000 and of 100,000
/// messages, read on from the last read (what the TUI does) and read whole (what it does
/// when the file was replaced). Reading on costs what was appended; reading whole, the
/// file.
fn follow(c: &mut Criterion) {
    use std::sync::Arc;
    let mut group = c.benchmark_group("follow");
    group.sample_size(10);
    for messages in [10_000, 100_000] {
        let (_, text) = ctxlens::synth::session(0, messages, false, 7);
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("live.jsonl");
        let lines: Vec<&str> = text.lines().collect();
        let cut = lines.len() - 100;
        std::fs::write(&path, lines[..cut].join("\n") + "\n").expect("written");
        let before = Transcript::read(&path, None).expect("loads");
        let counts = Arc::new(ctxlens::tokens::Counts::compute(
            &before,
            ctxlens::tokens::Tokenizer::Estimate,
        ));
        let state = ctxlens::follow::FileState::of(&path).expect("state");
        let previous = Box::new(jobs::LastRead {
            transcript: Arc::new(before),
            counts,
            state,
        });
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| std::io::Write::write_all(&mut f, (lines[cut..].join("\n") + "\n").as_bytes()))
            .expect("appended");
        assert!(
            previous
                .transcript
                .appended(&(lines[cut..].join("\n") + "\n"))
                .is_some(),
            "the appended records are read on, not read whole"
        );
        // The browser's row of a session being written: scanned again from the last scan.
        let scanned = {
            std::fs::write(&path, lines[..cut].join("\n") + "\n").expect("written");
            let scanned = ctxlens::scan::scan_read(&path, ctxlens::tokens::Tokenizer::Estimate, None).expect("scans");
            std::fs::OpenOptions::new()
                .append(true)
                .open(&path)
                .and_then(|mut f| std::io::Write::write_all(&mut f, (lines[cut..].join("\n") + "\n").as_bytes()))
                .expect("appended");
            scanned
        };
        group.bench_function(format!("100_appended/rescan_row/{messages}"), |b| {
            b.iter(|| black_box(ctxlens::scan::rescan_grown(&path, &scanned, None).expect("read on")));
        });
        group.bench_function(format!("100_appended/scan_row_whole/{messages}"), |b| {
            b.iter(|| {
                black_box(ctxlens::scan::scan_file(&path, ctxlens::tokens::Tokenizer::Estimate, None).expect("scans"))
            });
        });
        for (how, previous) in [("read_on", Some(previous)), ("read_whole", None)] {
            group.bench_function(format!("100_appended/{how}/{messages}"), |b| {
                b.iter(|| {
                    let job = Job::Reload {
                        path: path.clone(),
                        previous: previous.clone(),
                        tokenizer: ctxlens::tokens::Tokenizer::Estimate,
                        window: None,
                    };
                    black_box(jobs::run(job, &CancelToken::new(), &|_| {}))
                });
            });
        }
    }
    group.finish();
}

/// The views a user waits for at 100,000 messages, from the key to every job it starts
/// run (as the workers run them): `l` (summary, then the loss report), `S` (the whole
/// session, its facts, then the sweep's answer grid) and `b` (the breakdown). Each runs
/// on a fresh App, so nothing is reused from an earlier run. `l` runs with the TUI's
/// default summarizer (extractive) and with placeholder summaries; the sweep always
/// replays with placeholder summaries and the breakdown summarizes nothing.
fn views(c: &mut Criterion) {
    let text = openai_transcript(100_000);
    let transcript = Transcript::parse("bench.json", text.into_bytes(), None).expect("valid");
    let mut group = c.benchmark_group("views_100k");
    group.sample_size(10);
    // The sweep keeps the share of the budget the user's tail is; a small and a large one
    // beside the default (half the budget).
    let budget = 2_000_000;
    for (name, key, summarizer, keep_tail) in [
        ("l_loss_report/extractive", Action::ToggleLoss, Spec::Extractive, None),
        ("l_loss_report/placeholder", Action::ToggleLoss, Spec::Placeholder, None),
        ("S_sweep", Action::ToggleSweep, Spec::Extractive, None),
        (
            "S_sweep/tail_2pct",
            Action::ToggleSweep,
            Spec::Extractive,
            Some(budget / 50),
        ),
        (
            "S_sweep/tail_90pct",
            Action::ToggleSweep,
            Spec::Extractive,
            Some(budget * 9 / 10),
        ),
        ("b_breakdown", Action::ToggleBreakdown, Spec::Extractive, None),
    ] {
        group.bench_function(name, |b| {
            b.iter_batched(
                || {
                    let config = Config {
                        summarizer: summarizer.clone(),
                        max_tokens: keep_tail.map(|_| budget),
                        keep_tail,
                        ..Config::default()
                    };
                    let (mut app, _) = App::new(transcript.clone(), config);
                    app.act(Action::Resize(200, 50));
                    app
                },
                |mut app| {
                    let mut queue: std::collections::VecDeque<Effect> = app.act(key.clone()).into();
                    while let Some(effect) = queue.pop_front() {
                        if let Effect::Start(job) = effect {
                            let done = jobs::run(job, &CancelToken::new(), &|_| {});
                            queue.extend(app.update(ctxlens::tui::app::Msg::Job(Box::new(done))));
                        }
                    }
                    black_box(app.mode().clone())
                },
                criterion::BatchSize::LargeInput,
            );
        });
    }
    group.finish();
}

criterion_group!(benches, tui, browser, follow, views);
criterion_main!(benches);
