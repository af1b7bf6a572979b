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

/// Runs every job the effects start, and those their results start, as the workers
/// would.
fn settle(app: &mut App, effects: Vec<Effect>) {
    let mut queue: std::collections::VecDeque<Effect> = effects.into();
    while let Some(effect) = queue.pop_front() {
        if let Effect::Start(job) = effect {
            let done = jobs::run(job, &CancelToken::new(), &|_| {});
            queue.extend(app.update(ctxlens::tui::app::Msg::Job(Box::new(done))));
        }
    }
}

/// A generated Claude Code log, as lines, and a path in `dir` holding all but its last
/// `appended` lines (at least `messages` messages).
fn growing_log(dir: &std::path::Path, messages: usize, appended: usize) -> (Vec<String>, std::path::PathBuf) {
    let (_, text) = ctxlens::synth::session(0, messages + appended, false, 7);
    let lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let path = dir.join(format!("live-{messages}-{appended}.jsonl"));
    std::fs::write(&path, lines[..lines.len() - appended].join("\n") + "\n").expect("written");
    (lines, path)
}

/// `lines` written after the log at `path`.
fn append_lines(path: &std::path::Path, lines: &[String]) {
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| std::io::Write::write_all(&mut f, (lines.join("\n") + "\n").as_bytes()))
        .expect("appended");
}

/// The view's transcript and counts of all but the last `appended` of `lines`, nothing
/// else holding them, already grown once (the first growth after a whole read makes
/// what the next ones keep: the groups' call index, the text's growable buffer): what the
/// measured growth puts its records in.
fn grown_once(lines: &[String], appended: usize) -> (Transcript, ctxlens::tokens::Counts) {
    use ctxlens::tokens::{Counts, Tokenizer};
    let before = lines.len() - appended;
    let text = lines[..before - 1].join("\n") + "\n";
    let mut transcript = Transcript::parse("live.jsonl", text.into_bytes(), None).expect("loads");
    let mut counts = Counts::compute(&transcript, Tokenizer::Estimate);
    let on = transcript
        .read_on(&format!("{}\n", lines[before - 1]))
        .expect("reads on");
    let fresh = Counts::of_read_on(&on, &transcript, Tokenizer::Estimate);
    let kept = transcript.apply(on).expect("read from it");
    counts.extend_with(kept, &fresh);
    (transcript, counts)
}

/// The whole update as the view lives it (see [`follow`]): an App opened on the log and
/// grown once, then the change, the worker's read on, the records put in place, the plan.
fn app_update(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    lines: &[String],
    path: &std::path::Path,
    messages: usize,
    appended: usize,
) {
    group.bench_function(format!("{appended}_appended/app_update/{messages}"), |b| {
        b.iter_batched(
            || {
                // Opened on all but the last line before those appended, which
                // then arrives (the first growth, see `grown_once`).
                let before = lines.len() - appended;
                std::fs::write(path, lines[..before - 1].join("\n") + "\n").expect("written");
                let config = Config {
                    input_path: Some(path.to_path_buf()),
                    summarizer: Spec::Placeholder,
                    ..Config::default()
                };
                let (mut app, effects) = App::new(Transcript::read(path, None).expect("loads"), config);
                settle(&mut app, effects);
                app.act(Action::Resize(200, 50));
                append_lines(path, &lines[before - 1..before]);
                let effects = app.update(ctxlens::tui::app::Msg::FileChanged);
                settle(&mut app, effects);
                append_lines(path, &lines[before..]);
                app
            },
            |mut app| {
                let effects = app.update(ctxlens::tui::app::Msg::FileChanged);
                settle(&mut app, effects);
                assert!(app.follow().is_some_and(|f| f.grown() == 2), "read on");
                black_box(app)
            },
            criterion::BatchSize::LargeInput,
        );
    });
}

/// Following a growing Claude Code log: what one change costs after 100 and after 10,000
/// records were appended to a log of 10,000 and of 100,000 messages. `read_on_job` is
/// the worker's part (read the lines appended and the response read again, count their
/// messages, fit the recorded usage); `grow_in_place` the view's (put them in place in a
/// transcript and counts nothing else holds, meter); `app_update` the whole update as the
/// view lives it, from the change to the new plan. All three cost what was appended, not
/// the log, but for the fit (over every call, on the worker) and the plan (as any budget
/// key re-plans): `read_whole` (the file read, counted and measured again) is what they
/// replace. The
/// browser's row of a session being written: `rescan_row` (read on) against
/// `scan_row_whole`.
fn follow(c: &mut Criterion) {
    use ctxlens::tokens::{Counts, Tokenizer};
    use std::sync::Arc;
    let mut group = c.benchmark_group("follow");
    group.sample_size(10);
    let dir = tempfile::tempdir().expect("temp dir");
    for messages in [10_000, 100_000] {
        for appended in [100, 10_000] {
            let (lines, path) = growing_log(dir.path(), messages, appended);
            let before = Transcript::read(&path, None).expect("loads");
            let counts = Arc::new(Counts::compute(&before, Tokenizer::Estimate));
            let state = ctxlens::follow::FileState::of(&path).expect("state");
            let fit = ctxlens::calibrate::calibrate(&before, &counts).map(Arc::new);
            let previous = Box::new(jobs::LastRead {
                transcript: Arc::new(before),
                counts,
                state,
                fit: jobs::Fit::Made(fit),
            });
            append_lines(&path, &lines[lines.len() - appended..]);
            let reload = |previous: Option<Box<jobs::LastRead>>| Job::Reload {
                path: path.clone(),
                previous,
                tokenizer: Tokenizer::Estimate,
                window: None,
            };
            let job = reload(Some(previous.clone()));
            let read_on = |job: Job| match jobs::run(job, &CancelToken::new(), &|_| {}) {
                jobs::Done::Reloaded {
                    result: Ok(reloaded), ..
                } => match *reloaded {
                    jobs::Reloaded::On { on, counts, .. } => (on, counts),
                    _ => panic!("the appended records are read on"),
                },
                _ => panic!("the log reloads"),
            };
            read_on(job.clone());
            group.bench_function(format!("{appended}_appended/read_on_job/{messages}"), |b| {
                b.iter(|| black_box(read_on(job.clone())));
            });
            let meter = ctxlens::meter::meter(&previous.transcript, &previous.counts, None);
            group.bench_function(format!("{appended}_appended/grow_in_place/{messages}"), |b| {
                let rest = lines[lines.len() - appended..].join("\n") + "\n";
                b.iter_batched(
                    || {
                        let (transcript, counts) = grown_once(&lines, appended);
                        let on = transcript.read_on(&rest).expect("reads on");
                        let fresh = Counts::of_read_on(&on, &transcript, Tokenizer::Estimate);
                        (transcript, counts, on, fresh)
                    },
                    |(mut transcript, mut counts, on, fresh)| {
                        let kept = transcript.apply(on).expect("read from it");
                        counts.extend_with(kept, &fresh);
                        let meter = ctxlens::meter::meter_read_on(&transcript, &counts, &meter);
                        black_box((transcript, counts, meter))
                    },
                    criterion::BatchSize::LargeInput,
                );
            });
            app_update(&mut group, &lines, &path, messages, appended);
            if appended == 100 {
                group.bench_function(format!("{appended}_appended/read_whole/{messages}"), |b| {
                    let job = reload(None);
                    b.iter(|| black_box(jobs::run(job.clone(), &CancelToken::new(), &|_| {})));
                });
                // The browser's row of a session being written: scanned again from the
                // last scan.
                std::fs::write(&path, lines[..lines.len() - appended].join("\n") + "\n").expect("written");
                let scanned = ctxlens::scan::scan_read(&path, Tokenizer::Estimate, None).expect("scans");
                append_lines(&path, &lines[lines.len() - appended..]);
                group.bench_function(format!("{appended}_appended/rescan_row/{messages}"), |b| {
                    b.iter(|| black_box(ctxlens::scan::rescan_grown(&path, &scanned, None).expect("read on")));
                });
                group.bench_function(format!("{appended}_appended/scan_row_whole/{messages}"), |b| {
                    b.iter(|| black_box(ctxlens::scan::scan_file(&path, Tokenizer::Estimate, None).expect("scans")));
                });
            }
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
