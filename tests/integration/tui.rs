//! The TUI without a terminal: `App::update` driven by messages (user actions and job
//! results), the jobs it asks for run here with `jobs::run`, snapshots of every screen
//! on ratatui's `TestBackend`, and the key styles asserted on the `Buffer`.

use crate::common;

use std::collections::VecDeque;
use std::sync::mpsc;

use ctxlens::cancel::CancelToken;
use ctxlens::compact::Strategy;
use ctxlens::summarize::Spec;
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;
use ctxlens::tui::action::{Action, PromptEdit};
use ctxlens::tui::app::{App, Config, Effect, Mode, Msg, Pane, Row};
use ctxlens::tui::jobs::{self, runner::Runner, Done, Job, JobKind};
use ctxlens::tui::theme::Theme;
use ctxlens::tui::ui;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use ratatui::Terminal;

fn fixture() -> Transcript {
    let bytes = std::fs::read(common::fixture_path()).expect("fixture");
    Transcript::parse("fixture.json", bytes, None).expect("valid")
}

fn sample(name: &str) -> Transcript {
    let bytes = std::fs::read(common::repo().join("sample-transcripts").join(name)).expect("sample");
    Transcript::parse(name, bytes, None).expect("valid")
}

/// Colours on, figures pinned with the placeholder summary.
fn config(max_tokens: Option<u64>, keep_tail: Option<u64>) -> Config {
    Config {
        max_tokens,
        keep_tail,
        theme: Theme::colored(),
        summarizer: Spec::Placeholder,
        save_dir: save_dir(),
        ..Config::default()
    }
}

/// Where the tests' `c` saves go: a folder of this test process, never the checkout.
fn save_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ctxlens-tui-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temp folder");
    dir
}

/// Runs one job here and now, as a worker would (progress is dropped).
fn run_job(job: Job) -> Done {
    jobs::run(job, &CancelToken::new(), &|_| {})
}

/// Delivers a job's result.
fn deliver(app: &mut App, done: Done) -> Vec<Effect> {
    app.update(Msg::Job(Box::new(done)))
}

/// Runs every job the effects start (and those their results start), feeding the results
/// back; returns the effects that are not jobs (editor, quit).
fn settle(app: &mut App, effects: Vec<Effect>) -> Vec<Effect> {
    let mut queue: VecDeque<Effect> = effects.into();
    let mut rest = Vec::new();
    while let Some(effect) = queue.pop_front() {
        match effect {
            Effect::Start(job) => queue.extend(deliver(app, run_job(job))),
            Effect::Cancel(_) => {}
            other => rest.push(other),
        }
    }
    rest
}

/// The jobs the effects start, by kind.
fn started(effects: &[Effect]) -> Vec<JobKind> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Start(job) => Some(job.kind()),
            _ => None,
        })
        .collect()
}

/// The one job of `kind` the effects start.
fn take_job(effects: Vec<Effect>, kind: JobKind) -> Job {
    effects
        .into_iter()
        .find_map(|e| match e {
            Effect::Start(job) if job.kind() == kind => Some(job),
            _ => None,
        })
        .unwrap_or_else(|| panic!("a {kind:?} job"))
}

fn open(transcript: Transcript, config: Config, size: (u16, u16)) -> App {
    let (mut app, effects) = App::new(transcript, config);
    settle(&mut app, effects);
    let effects = app.act(Action::Resize(size.0, size.1));
    settle(&mut app, effects);
    app
}

/// The fixture at max 2000 / `keep_tail` 800 (split 101), in colour, on a 120×36 screen.
fn fixture_app() -> App {
    open(fixture(), config(Some(2000), Some(800)), (120, 36))
}

fn type_text(app: &mut App, text: &str) -> Vec<Effect> {
    text.chars().flat_map(|c| app.act(Action::PromptChar(c))).collect()
}

fn draw(app: &App, width: u16, height: u16) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).expect("test backend");
    terminal.draw(|frame| ui::draw(frame, app)).expect("draw");
    terminal
}

fn row_containing(buffer: &Buffer, needle: &str) -> Option<u16> {
    (0..buffer.area.height).find(|&y| {
        let line: String = (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect();
        line.contains(needle)
    })
}

/// The text of row `y`.
fn line_of(buffer: &Buffer, y: u16) -> String {
    (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect()
}

/// Pieces of a frame drawn around an overlay instead of under it (the defect of overlays
/// inset by one cell): a corner against a vertical border, or a key hint against a corner.
fn frame_fragments(buffer: &Buffer) -> Vec<String> {
    (0..buffer.area.height)
        .map(|y| line_of(buffer, y))
        .filter(|line| ["└│", "┌│", "q└"].iter().any(|f| line.contains(f)))
        .collect()
}

fn cell_at_text<'a>(buffer: &'a Buffer, needle: &str, offset: u16) -> &'a ratatui::buffer::Cell {
    let y = row_containing(buffer, needle).unwrap_or_else(|| panic!("{needle:?} on screen"));
    let line: Vec<&str> = (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect();
    let joined: String = line.concat();
    let byte = joined.find(needle).expect("found");
    let x = joined[..byte].chars().count() as u16 + offset;
    &buffer[(x, y)]
}

fn status_text(app: &App) -> String {
    app.status().map(|s| s.text.clone()).unwrap_or_default()
}

// ---- state, driven by messages -------------------------------------------------------

#[test]
fn the_fixture_opens_with_the_documented_plan() {
    let app = fixture_app();
    let cut = app.planned().cut().expect("compacts");
    assert_eq!(
        (app.planned().tokens, cut.split, cut.summarized(), app.tokens_after()),
        (4752, 101, 100, 824)
    );
}

#[test]
fn tuning_replans_at_once() {
    let mut app = fixture_app();
    app.act(Action::MaxUp);
    assert_eq!(app.options().max_tokens, 2050, "a small step is 1% of 4,752, rounded");
    assert!(status_text(&app).starts_with("max_tokens 2,050: split at #101"));
    app.act(Action::KeepUpBig);
    assert_eq!(app.keep_tail(), 1300);
    assert_eq!(
        app.planned().cut().expect("compacts").split,
        89,
        "suffix(89) = 1,264 ≤ 1,300"
    );
    for _ in 0..10 {
        app.act(Action::MaxUpBig);
    }
    assert!(!app.planned().compacts(), "far over the total it is a no-op");
    app.act(Action::ToggleFlush);
    assert!(app.options().flush_to_memory);
}

fn prompt_value(app: &App) -> String {
    let Mode::Prompt(prompt) = app.mode() else {
        panic!("a prompt is open: {:?}", app.mode())
    };
    prompt.value().to_owned()
}

#[test]
fn exact_values_are_typed_in_a_prompt() {
    let mut app = fixture_app();
    app.act(Action::EnterValue);
    assert_eq!(prompt_value(&app), "2000", "pre-filled with the current value");
    type_text(&mut app, "3,000");
    assert_eq!(
        prompt_value(&app),
        "3,000",
        "the first key replaces the pre-filled value"
    );
    app.act(Action::PromptSubmit);
    assert_eq!(app.options().max_tokens, 3000);

    app.act(Action::EnterValue);
    type_text(&mut app, "5000");
    app.act(Action::PromptTab);
    assert_eq!(prompt_value(&app), "800", "Tab switches to keep_tail with its value");
    app.act(Action::PromptTab);
    assert_eq!(prompt_value(&app), "5000", "and back, keeping what was typed");
    app.act(Action::PromptTab);
    app.act(Action::PromptChar('x'));
    app.act(Action::PromptSubmit);
    assert!(app.status().expect("status").error, "not a number is reported");
    assert_eq!((app.options().max_tokens, app.keep_tail()), (5000, 800));

    app.act(Action::EnterValue);
    app.act(Action::PromptEdit(PromptEdit::End));
    app.act(Action::PromptEdit(PromptEdit::DeletePrevChar));
    assert_eq!(prompt_value(&app), "500", "editing keeps the value");
    app.act(Action::PromptEdit(PromptEdit::DeleteLine));
    type_text(&mut app, "4200");
    app.act(Action::PromptSubmit);
    assert_eq!(app.options().max_tokens, 4200, "Ctrl-U cleared the line");
}

#[test]
fn a_default_budget_follows_the_total_when_the_tokenizer_changes_it() {
    // No max_tokens given: the default share of the total, whatever counts it.
    let mut app = open(fixture(), config(None, None), (120, 36));
    assert!(app.default_max());
    let share = |app: &App| app.options().max_tokens as f64 / app.counts().total() as f64;
    let before = share(&app);
    let mut budgets = vec![app.options().max_tokens];
    for _ in 0..3 {
        let effects = app.act(Action::CycleTokenizer);
        settle(&mut app, effects);
        budgets.push(app.options().max_tokens);
        assert!(
            (share(&app) - before).abs() < 0.001,
            "{} of {}",
            app.options().max_tokens,
            app.counts().total()
        );
        assert!(app.default_max());
    }
    assert!(
        budgets.windows(2).any(|w| w[0] != w[1]),
        "the totals differ: {budgets:?}"
    );
    // A budget the user set stays as set.
    let mut app = fixture_app();
    let effects = app.act(Action::CycleTokenizer);
    settle(&mut app, effects);
    assert_eq!(app.options().max_tokens, 2000);
}

#[test]
fn a_tokenizer_switch_counts_in_the_worker_and_the_counts_arrive() {
    let mut app = fixture_app();
    for expected in [Tokenizer::EstimateCodepoints, Tokenizer::EstimateUtf8] {
        let effects = app.act(Action::CycleTokenizer);
        assert!(
            matches!(effects.as_slice(), [Effect::Start(Job::Count { tokenizer, .. })] if *tokenizer == expected),
            "{effects:?}"
        );
        settle(&mut app, effects);
        assert_eq!(app.tokenizer(), expected);
    }
    let job = take_job(app.act(Action::CycleTokenizer), JobKind::Count);
    assert_eq!(
        app.tokenizer(),
        Tokenizer::EstimateUtf8,
        "estimates stay on screen meanwhile"
    );
    assert!(app.counting().is_some_and(|c| c.tokenizer == Tokenizer::Cl100k));

    // The worker reports progress, then the counts.
    let (sender, inbox) = mpsc::channel();
    let done = jobs::run(job, &CancelToken::new(), &|progress| {
        sender.send(progress).expect("open");
    });
    drop(sender);
    let progress: Vec<Done> = inbox.into_iter().collect();
    assert!(progress.iter().all(|p| matches!(p, Done::CountProgress { .. })) && !progress.is_empty());
    for p in progress {
        deliver(&mut app, p);
    }
    deliver(&mut app, done);
    assert_eq!(app.tokenizer(), Tokenizer::Cl100k);
    assert!(app.counting().is_none());
    assert_eq!(
        app.planned().tokens,
        Counts::compute(app.transcript(), Tokenizer::Cl100k).total()
    );
    // Counted once: cycling back to a cached tokenizer is immediate (o200k and provider
    // are counted on the way).
    for _ in 0..4 {
        let effects = app.act(Action::CycleTokenizer);
        settle(&mut app, effects);
    }
    assert_eq!(app.tokenizer(), Tokenizer::EstimateCodepoints);
    assert!(
        started(&app.act(Action::CycleTokenizer)).is_empty(),
        "estimate-utf8 is cached"
    );
}

#[test]
fn a_stale_count_is_cached_but_not_shown() {
    let mut app = fixture_app();
    for _ in 0..2 {
        let effects = app.act(Action::CycleTokenizer);
        settle(&mut app, effects);
    }
    let stale = take_job(app.act(Action::CycleTokenizer), JobKind::Count);
    let effects = app.act(Action::CycleTokenizer);
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::Start(Job::Count {
                tokenizer: Tokenizer::O200k,
                ..
            })]
        ),
        "{effects:?}"
    );
    deliver(&mut app, run_job(stale));
    assert_eq!(app.tokenizer(), Tokenizer::EstimateUtf8);
    assert!(app.counts_by(Tokenizer::Cl100k).is_some());
    assert!(app.counting().is_some_and(|c| c.tokenizer == Tokenizer::O200k));
}

#[test]
fn search_runs_on_a_worker_then_selects_matches_and_steps_through_them() {
    let mut app = fixture_app();
    app.act(Action::Search);
    type_text(&mut app, "question 25");
    let effects = app.act(Action::PromptSubmit);
    assert_eq!(started(&effects), [JobKind::Search]);
    assert!(app.busy());
    settle(&mut app, effects);
    assert_eq!(app.selected(), 101);
    app.act(Action::Search);
    type_text(&mut app, "answer 2");
    let effects = app.act(Action::PromptSubmit);
    settle(&mut app, effects);
    let first = app.selected();
    app.act(Action::NextMatch);
    assert!(app.selected() > first);
    app.act(Action::PrevMatch);
    assert_eq!(app.selected(), first);
}

#[test]
fn export_writes_atomically_and_refuses_the_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("t.json");
    std::fs::copy(common::fixture_path(), &input).expect("copy");
    let transcript = Transcript::read(&input, None).expect("loads");
    let mut app = open(
        transcript,
        Config {
            input_path: Some(input.clone()),
            ..config(Some(2000), Some(800))
        },
        (120, 36),
    );
    app.act(Action::Export);
    let path = dir.path().join("t.compacted.json");
    assert_eq!(prompt_value(&app), path.display().to_string());
    let effects = app.act(Action::PromptSubmit);
    assert_eq!(started(&effects), [JobKind::Export], "written on a worker");
    settle(&mut app, effects);
    let status = status_text(&app);
    assert!(
        status.contains("4,752 → 824 tokens, 100 messages summarized"),
        "{status}"
    );
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).expect("file")).expect("JSON");
    assert_eq!(written.as_array().expect("list").len(), 22);

    // The input: asked first, and "no" leaves it alone.
    let original = std::fs::read(&input).expect("input");
    app.act(Action::Export);
    type_text(&mut app, &input.display().to_string());
    assert!(
        app.act(Action::PromptSubmit).is_empty(),
        "nothing runs before the answer"
    );
    let Mode::Confirm { question, .. } = app.mode() else {
        panic!("a question: {:?}", app.mode())
    };
    assert!(question.contains("is the input transcript"), "{question}");
    app.act(Action::Back);
    assert_eq!(std::fs::read(&input).expect("input"), original, "untouched");

    // An existing output: asked, and "yes" replaces it.
    app.act(Action::Export);
    type_text(&mut app, &path.display().to_string());
    app.act(Action::PromptSubmit);
    assert!(matches!(app.mode(), Mode::Confirm { .. }), "it exists");
    let effects = app.act(Action::Activate);
    assert_eq!(started(&effects), [JobKind::Export]);
    settle(&mut app, effects);
    assert!(!app.status().expect("status").error, "{}", status_text(&app));
}

#[test]
fn navigation_clicks_and_quitting() {
    let mut app = fixture_app();
    app.act(Action::Bottom);
    assert_eq!(app.selected(), 120);
    assert!(
        app.row_of_message(120) >= app.list_offset(),
        "the selection is scrolled into view"
    );
    app.act(Action::Top);
    // Row 5 of the screen is the list's border, 6 its header, 7 message 0, 9 message 2.
    app.act(Action::Click(10, 9));
    assert_eq!(app.selected(), 2);
    app.act(Action::SwitchPane);
    assert_eq!(app.focus(), Pane::Detail);
    app.act(Action::Down);
    assert_eq!(
        (app.selected(), app.detail_scroll()),
        (2, 1),
        "in the detail pane keys scroll"
    );
    app.act(Action::ToggleHelp);
    assert!(app.act(Action::Dismiss).is_empty(), "Esc closes help first");
    assert_eq!(*app.mode(), Mode::Normal);
    // Esc never leaves the app (the tuned settings would go with it): it says how.
    assert!(app.act(Action::Dismiss).is_empty(), "Esc on the main screen stays");
    assert!(status_text(&app).contains("q quits"), "{}", status_text(&app));
    assert!(matches!(app.act(Action::Back).as_slice(), [Effect::Quit]), "q quits");
}

// ---- screens --------------------------------------------------------------------------

#[test]
fn screen_list_with_boundary() {
    // Opening selects the first tail message and centres the list on the cut.
    let app = fixture_app();
    assert_eq!(app.selected(), 101);
    insta::assert_snapshot!("list_with_boundary", draw(&app, 120, 36).backend());
}

#[test]
fn screen_tool_group_selected() {
    let config = Config {
        summarizer: Spec::Extractive,
        ..config(Some(1500), Some(600))
    };
    let mut app = open(sample("support-agent.json"), config, (120, 36));
    let parallel = app
        .transcript()
        .messages()
        .iter()
        .position(|m| m.tool_calls().len() == 2)
        .expect("a parallel call");
    app.act(Action::Select(parallel));
    insta::assert_snapshot!("tool_group_selected", draw(&app, 120, 36).backend());
}

#[test]
fn screen_detail_focused_and_scrolled() {
    let mut app = fixture_app();
    app.act(Action::Select(3));
    app.act(Action::SwitchPane);
    app.act(Action::Down);
    insta::assert_snapshot!("detail", draw(&app, 120, 36).backend());
}

#[test]
fn screen_help() {
    let mut app = fixture_app();
    app.act(Action::ToggleHelp);
    insta::assert_snapshot!("help", draw(&app, 120, 48).backend());
}

#[test]
fn screen_preview() {
    let mut app = fixture_app();
    let effects = app.act(Action::TogglePreview);
    assert!(matches!(app.mode(), Mode::Waiting(_)), "built on a worker");
    assert_eq!(started(&effects), [JobKind::Preview]);
    settle(&mut app, effects);
    insta::assert_snapshot!("preview", draw(&app, 120, 36).backend());
}

#[test]
fn screen_export_prompt() {
    let mut app = fixture_app();
    app.act(Action::Export);
    insta::assert_snapshot!("export_prompt", draw(&app, 120, 36).backend());
}

#[test]
fn screen_small_terminals() {
    let mut app = fixture_app();
    app.act(Action::Resize(70, 16));
    insta::assert_snapshot!("small_terminal", draw(&app, 70, 16).backend());
    insta::assert_snapshot!("too_small_terminal", draw(&app, 30, 8).backend());
}

// ---- styles ----------------------------------------------------------------------------

#[test]
fn boundary_and_sections_are_coloured() {
    let mut app = fixture_app();
    let terminal = draw(&app, 120, 36);
    let buffer = terminal.backend().buffer();
    let boundary = cell_at_text(buffer, "tail starts here", 0);
    assert_eq!((boundary.fg, boundary.bg), (Color::Black, Color::Yellow), "BOUNDARY");
    assert_eq!(
        cell_at_text(buffer, "question 24 pad pad pad pad…", 0).fg,
        Color::DarkGray,
        "SUMMARIZED"
    );
    assert_eq!(
        cell_at_text(buffer, "question 25 pad pad pad pad…", 0).fg,
        Color::Green,
        "TAIL"
    );
    let selected = cell_at_text(buffer, "question 25 pad pad pad pad…", 0);
    assert!(
        selected.modifier.contains(ratatui::style::Modifier::REVERSED),
        "the selection is reversed"
    );
    app.act(Action::Select(0));
    let terminal = draw(&app, 120, 36);
    assert_eq!(
        cell_at_text(terminal.backend().buffer(), "You are Ava", 0).fg,
        Color::Cyan,
        "HEAD"
    );
}

#[test]
fn tool_partners_and_orphans_are_marked() {
    let mut app = fixture_app();
    app.act(Action::Select(2));
    let terminal = draw(&app, 120, 36);
    let buffer = terminal.backend().buffer();
    let partner = cell_at_text(buffer, "┃  3 tool", 0);
    assert_eq!(
        partner.fg,
        Color::Magenta,
        "TOOL_PAIR on the result of the selected call"
    );

    let broken = br#"[{"role":"user","content":"hi"},{"role":"assistant","content":null,"tool_calls":[{"id":"x","type":"function","function":{"name":"f","arguments":"{}"}}]}]"#;
    let transcript = Transcript::parse("orphan.json", broken.to_vec(), None).expect("valid");
    let mut app = open(transcript, config(Some(1000), None), (120, 36));
    app.act(Action::Select(1));
    let terminal = draw(&app, 120, 36);
    let buffer = terminal.backend().buffer();
    let mark = cell_at_text(buffer, "!1 assistant", 0);
    assert_eq!(mark.fg, Color::Red, "ORPHAN");
    assert!(
        row_containing(buffer, "orphan: call `x` is the last message").is_some(),
        "explained in the detail pane"
    );
}

// ---- strategies ------------------------------------------------------------------------

/// A coding-agent transcript whose tool outputs are big enough for the deterministic pass.
fn big_tools_transcript() -> Transcript {
    let log = (0..300)
        .map(|i| format!("INFO step {i}: compiled module_{i} in 12ms ({})", "-".repeat(20)))
        .collect::<Vec<_>>()
        .join("\n");
    let rows: Vec<serde_json::Value> = (0..60)
        .map(|i| serde_json::json!({"id": i, "name": format!("row {i}"), "note": null}))
        .collect();
    let messages = serde_json::json!([
        {"role": "system", "content": "You are a coding agent."},
        {"role": "user", "content": "Build it and list the rows."},
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "b1", "type": "function", "function": {"name": "build", "arguments": "{}"}},
            {"id": "q1", "type": "function", "function": {"name": "query", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "b1", "content": log},
        {"role": "tool", "tool_call_id": "q1", "content": serde_json::to_string_pretty(&rows).expect("json")},
        {"role": "assistant", "content": "Built; 60 rows."},
        {"role": "user", "content": "Thanks, now deploy."},
        {"role": "assistant", "content": "Deploying."}
    ]);
    Transcript::parse("agent.json", serde_json::to_vec_pretty(&messages).expect("json"), None).expect("valid")
}

fn big_tools_app() -> App {
    let config = Config {
        summarizer: Spec::Extractive,
        ..config(Some(2000), None)
    };
    open(big_tools_transcript(), config, (120, 40))
}

/// Switches to the next strategy and runs the deterministic pass it asks for.
fn next_strategy(app: &mut App) {
    let effects = app.act(Action::CycleStrategy);
    if app.strategy().uses_deterministic_pass() && app.deterministic().is_none() {
        assert_eq!(started(&effects), [JobKind::Derive], "the pass runs on a worker");
        assert!(app.busy(), "the spinner turns while it runs");
    }
    settle(app, effects);
    assert!(started(&app.act(Action::Resize(120, 40))).is_empty(), "made once");
}

#[test]
fn strategies_cycle_and_replan() {
    let mut app = big_tools_app();
    let tail_after = app.tokens_after();
    next_strategy(&mut app);
    assert_eq!(app.strategy(), Strategy::Deterministic);
    let d = app.deterministic().expect("the pass ran");
    let rules: Vec<&str> = d.compressed.edits.iter().map(|e| e.rule.name()).collect();
    assert_eq!(
        rules,
        ["externalize", "tool_json"],
        "the 13 KB log is stored, the rows are pruned"
    );
    assert!(!app.planned().compacts(), "deterministic alone does not cut a tail");
    assert_eq!(app.tokens_after(), d.compressed.tokens_after);
    next_strategy(&mut app);
    assert_eq!(app.strategy(), Strategy::DeterministicThenTail);
    assert_eq!(
        app.planned().tokens,
        app.deterministic().expect("pass").compressed.tokens_after
    );
    assert!(
        app.planned().tokens < app.counts().total(),
        "the pass cleared tokens before the tail plan"
    );
    next_strategy(&mut app);
    assert_eq!(app.strategy(), Strategy::Tail);
    assert_eq!(app.tokens_after(), tail_after);
}

/// Exports to `path` through the prompt and returns the status line.
fn export_to(app: &mut App, path: &std::path::Path) -> String {
    app.act(Action::Export);
    type_text(app, &path.display().to_string());
    let effects = app.act(Action::PromptSubmit);
    settle(app, effects);
    status_text(app)
}

#[test]
fn deterministic_export_stores_artifacts_beside_the_output() {
    let mut app = big_tools_app();
    next_strategy(&mut app);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.json");
    let status = export_to(&mut app, &path);
    assert!(
        status.contains("2 deterministic edits") && status.contains("1 outputs stored in"),
        "{status}"
    );
    let stored: Vec<_> = std::fs::read_dir(dir.path().join("out.json.artifacts"))
        .expect("folder")
        .collect();
    assert_eq!(stored.len(), 1);
}

#[test]
fn screen_deterministic_edit_with_diff() {
    let mut app = big_tools_app();
    next_strategy(&mut app);
    app.act(Action::Select(4));
    let terminal = draw(&app, 120, 40);
    let buffer = terminal.backend().buffer();
    assert_eq!(cell_at_text(buffer, "✎4 tool", 0).fg, Color::LightBlue, "EDITED marker");
    assert!(row_containing(buffer, "✎ edit tool_json").is_some());
    insta::assert_snapshot!("deterministic_edit", terminal.backend());
}

// ---- logs -------------------------------------------------------------------------------

#[test]
fn screen_claude_code_log_with_a_past_compaction_and_recorded_usage() {
    let bytes =
        std::fs::read(common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl"))
            .expect("log");
    let transcript = Transcript::parse("session.jsonl", bytes, None).expect("loads");
    let mut app = open(transcript, config(Some(40_000), None), (130, 36));
    app.act(Action::Select(1));
    assert_eq!(
        app.row_at(0),
        Some(Row::PastCompaction(0)),
        "the marker is the first row"
    );
    assert_eq!(app.row_of_message(0), 1);
    let terminal = draw(&app, 130, 36);
    let buffer = terminal.backend().buffer();
    assert!(row_containing(
        buffer,
        "┄┄ past compaction: compacted here (auto): 155,979 tokens before"
    )
    .is_some());
    assert!(row_containing(buffer, "recorded prompt 36,541 (input 10 · cache write").is_some());
    insta::assert_snapshot!("claude_code_log", terminal.backend());
}

// ---- summaries, the loss report, and results that name their inputs ---------------------

fn extractive_app() -> App {
    open(
        sample("support-agent.json"),
        Config {
            summarizer: Spec::Extractive,
            ..config(Some(1500), Some(600))
        },
        (120, 36),
    )
}

#[test]
fn preview_waits_for_a_background_summary_then_uses_it() {
    let mut app = extractive_app();
    let placeholder_after = app.tokens_after();
    let effects = app.act(Action::TogglePreview);
    assert_eq!(started(&effects), [JobKind::Summary], "summarized in the background");
    assert!(matches!(app.mode(), Mode::Waiting(_)));
    let summary = run_job(take_job(effects, JobKind::Summary));
    let effects = deliver(&mut app, summary);
    assert_eq!(started(&effects), [JobKind::Preview], "then the preview is built");
    settle(&mut app, effects);
    let Mode::Preview(preview) = app.mode() else {
        panic!("the preview opens once the summary is ready")
    };
    assert!(
        preview.text.contains("User requests:\\n- #1 Hi, my order #NW-48213"),
        "{}",
        &preview.text[..400]
    );
    assert!(
        app.tokens_after() > placeholder_after,
        "the real summary is counted now"
    );
    app.act(Action::Back);
    assert_eq!(
        started(&app.act(Action::TogglePreview)),
        [JobKind::Preview],
        "the summary is made once per cut"
    );
}

#[test]
fn esc_cancels_the_wait_and_a_failure_loses_nothing() {
    let mut app = extractive_app();
    let effects = app.act(Action::TogglePreview);
    assert_eq!(started(&effects), [JobKind::Summary]);
    let effects = app.act(Action::Back);
    assert_eq!(*app.mode(), Mode::Normal, "Esc cancels the wait");
    assert!(effects.iter().any(|e| matches!(e, Effect::Cancel(JobKind::Summary))));
    let Job::Summary { key, .. } = take_job(app.act(Action::ToggleLoss), JobKind::Summary) else {
        unreachable!()
    };
    deliver(
        &mut app,
        Done::Summarized {
            key,
            result: Err(ctxlens::Error::Summary("summarizer command `x` failed".into())),
        },
    );
    assert_eq!(*app.mode(), Mode::Normal);
    assert!(app.status().expect("status").error, "failures show in the status line");
    assert!(app.summary().is_none(), "and lose nothing");
}

#[test]
fn a_summary_made_for_another_cut_is_never_attached() {
    // Issue 13's race: counts for a new tokenizer arrive while a summary is being made.
    let mut app = extractive_app();
    for _ in 0..2 {
        let effects = app.act(Action::CycleTokenizer);
        settle(&mut app, effects);
    }
    let count = take_job(app.act(Action::CycleTokenizer), JobKind::Count);
    let old_summary = take_job(app.act(Action::TogglePreview), JobKind::Summary);
    let effects = deliver(&mut app, run_job(count));
    // The cut moved with the new counts, so the waiting preview asks again.
    let Some(Job::Summary { key: new_key, .. }) = effects.into_iter().find_map(|e| match e {
        Effect::Start(job @ Job::Summary { .. }) => Some(job),
        _ => None,
    }) else {
        panic!("the new cut needs its own summary")
    };
    let Job::Summary { key: old_key, .. } = &old_summary else {
        unreachable!()
    };
    assert_ne!(new_key.range(), old_key.range(), "the cut moved");
    let effects = deliver(&mut app, run_job(old_summary));
    assert!(app.summary().is_none(), "the old cut's summary is dropped");
    assert!(started(&effects).is_empty(), "the new request is still running");
    assert!(matches!(app.mode(), Mode::Waiting(_)));
}

#[test]
fn the_loss_report_and_an_edited_summary() {
    let mut app = extractive_app();
    let effects = app.act(Action::ToggleLoss);
    settle(&mut app, effects);
    let Mode::Loss { text, .. } = app.mode() else {
        panic!("the loss report opens")
    };
    assert!(
        text.starts_with("Loss report: 30 messages summarized (#1–#30)"),
        "{text}"
    );
    assert!(text.contains("Facts: 19 found, 19 survive (100.0%)"), "{text}");
    app.act(Action::Back);
    let effects = app.act(Action::EditSummary);
    let [Effect::Edit { key, text: current }] = effects.as_slice() else {
        panic!("the editor opens: {effects:?}")
    };
    assert!(current.starts_with("30 earlier messages."));
    deliver(
        &mut app,
        Done::Edited {
            key: key.clone(),
            result: Ok("Customer Dana: tent replaced (NW-48377).\n".into()),
        },
    );
    assert!(app.summary().expect("summary").edited);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.json");
    export_to(&mut app, &path);
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).expect("file")).expect("json");
    assert_eq!(
        written[1]["content"],
        "[Summary of earlier conversation]\nCustomer Dana: tent replaced (NW-48377)."
    );
    app.act(Action::KeepUpBig);
    assert_eq!(
        started(&app.act(Action::ToggleLoss)),
        [JobKind::Summary],
        "a new cut needs a new summary"
    );
}

#[test]
fn screen_loss_report() {
    let mut app = extractive_app();
    let effects = app.act(Action::ToggleLoss);
    settle(&mut app, effects);
    insta::assert_snapshot!("loss_report", draw(&app, 120, 36).backend());
}

#[test]
fn the_spinner_turns_only_while_work_runs() {
    let mut app = extractive_app();
    assert!(!app.busy());
    let effects = app.act(Action::TogglePreview);
    assert!(app.busy());
    let first = app.spinner();
    app.update(Msg::Tick);
    assert_ne!(app.spinner(), first, "each tick is a new frame");
    let effects = deliver(&mut app, run_job(take_job(effects, JobKind::Summary)));
    assert!(app.busy(), "then the preview is built");
    settle(&mut app, effects);
    assert!(!app.busy());
}

// ---- the runner: the latest request of a kind wins ----------------------------------------

#[test]
fn a_cancelled_job_stops_and_its_result_never_arrives() {
    let big =
        Transcript::parse("big.json", ctxlens::synth::openai_transcript(20_000).into_bytes(), None).expect("valid");
    let big = std::sync::Arc::new(big);
    let (events, inbox) = mpsc::channel();
    let mut runner = Runner::new(events, |done| done);
    runner.start(Job::Count {
        tokenizer: Tokenizer::Cl100k,
        transcript: std::sync::Arc::clone(&big),
    });
    runner.start(Job::Count {
        tokenizer: Tokenizer::EstimateUtf8,
        transcript: big,
    });
    let finished: Vec<Tokenizer> = inbox
        .iter()
        .filter_map(|done| match done {
            Done::Counted { tokenizer, result } => {
                assert!(result.is_ok());
                Some(tokenizer)
            }
            _ => None,
        })
        .take(1)
        .collect();
    runner.shut_down(std::time::Duration::from_secs(5));
    assert_eq!(finished, [Tokenizer::EstimateUtf8], "only the latest count arrives");
    assert!(
        inbox.try_iter().all(|d| !matches!(d, Done::Counted { .. })),
        "the cancelled count sent nothing"
    );
}

#[test]
fn a_job_that_panics_is_reported_and_never_silently_lost() {
    let (events, inbox) = mpsc::channel();
    let mut runner = Runner::with_work(events, |done| done, |_, _, _| panic!("boom in a worker"));
    runner.start(Job::Search {
        query: "x".into(),
        transcript: std::sync::Arc::new(fixture()),
    });
    let done = inbox
        .recv_timeout(std::time::Duration::from_secs(10))
        .expect("a report");
    let Done::Panicked { kind, message } = done else {
        panic!("a panic report, got {done:?}")
    };
    assert_eq!((kind, message.as_str()), (JobKind::Search, "boom in a worker"));
    // The app shows it (the event loop ends the TUI with exit 70 on it).
    let mut app = fixture_app();
    app.update(Msg::Job(Box::new(Done::Panicked {
        kind: JobKind::Search,
        message: "boom".into(),
    })));
    assert!(status_text(&app).contains("boom"));
}

// ---- where the context goes, filters, the summary's role, overlays that stop ---------------

#[test]
fn the_header_warns_when_the_counter_is_far_from_what_the_provider_bills() {
    let log = common::data().join("real-transcripts/claude-code-jsonl/ccl-sample-image-0d3a8e6f.jsonl");
    let app = open(
        Transcript::read(&log, None).expect("loads"),
        config(None, None),
        (120, 36),
    );
    let gap = app.provider_gap().expect("a screenshot counted as base64 text");
    assert!(gap.counted > gap.provider * 5, "{gap:?}");
    let screen = format!("{:?}", draw(&app, 120, 36).backend());
    assert!(screen.contains("the provider bills ≈"), "{screen}");
    assert!(!screen.contains("no warnings"), "{screen}");
    // Counted as the provider bills, there is nothing to warn about.
    let app = open(
        Transcript::read(&log, None).expect("loads"),
        Config {
            tokenizer: Tokenizer::Provider,
            ..config(None, None)
        },
        (120, 36),
    );
    assert_eq!(app.tokenizer(), Tokenizer::Provider);
    assert!(app.provider_gap().is_none());
    let screen = format!("{:?}", draw(&app, 120, 36).backend());
    assert!(!screen.contains("the provider bills ≈"), "{screen}");
}

#[test]
fn the_breakdown_shows_the_fitted_system_prompt_and_tools_without_narrowing_to_them() {
    let log = common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let transcript = Transcript::read(&log, None).expect("loads");
    let fitted = ctxlens::calibrate::calibrate(
        &transcript,
        &ctxlens::tokens::Counts::compute(&transcript, ctxlens::tokens::Tokenizer::Estimate),
    )
    .expect("the log records usage")
    .overhead;
    let mut app = open(transcript, config(Some(60_000), None), (120, 36));
    let effects = app.act(Action::ToggleBreakdown);
    settle(&mut app, effects);
    let Mode::Breakdown(view) = app.mode() else {
        panic!("the breakdown opens: {:?}", app.mode())
    };
    let row = view.rows.iter().position(|r| r.fitted).expect("the fitted row");
    assert_eq!(view.rows[row].tokens, fitted);
    let counted: u64 = view.rows.iter().filter(|r| !r.fitted).map(|r| r.tokens).sum();
    assert_eq!(counted, app.counts().total(), "every counted token is somewhere");
    let screen = format!("{:?}", draw(&app, 120, 36).backend());
    assert!(screen.contains("system + tools (fitted)"), "{screen}");
    for _ in 0..row {
        app.act(Action::Down);
    }
    app.act(Action::Activate);
    assert!(matches!(app.mode(), Mode::Breakdown(_)), "nothing to narrow to");
    assert!(app.filter().is_none());
}

#[test]
fn the_breakdown_is_made_on_a_worker_and_narrows_the_list() {
    let mut app = open(sample("support-agent.json"), config(Some(1500), Some(600)), (120, 36));
    let effects = app.act(Action::ToggleBreakdown);
    assert_eq!(started(&effects), [JobKind::Breakdown]);
    assert!(matches!(app.mode(), Mode::Waiting(_)));
    settle(&mut app, effects);
    let Mode::Breakdown(view) = app.mode() else {
        panic!("the breakdown opens: {:?}", app.mode())
    };
    let total: u64 = view.rows.iter().map(|r| r.tokens).sum();
    assert_eq!(total, app.counts().total(), "every token is somewhere");
    assert!(
        view.rows.windows(2).all(|w| w[0].tokens >= w[1].tokens),
        "largest first"
    );
    insta::assert_snapshot!("breakdown_by_kind", draw(&app, 120, 36).backend());

    // By tool, then the row of one tool's results narrows the list to its messages.
    let effects = app.act(Action::SwitchPane);
    settle(&mut app, effects);
    let Mode::Breakdown(view) = app.mode() else {
        panic!("by tool")
    };
    let row = view
        .rows
        .iter()
        .position(|r| r.label.starts_with("tool result"))
        .expect("a tool's results");
    let expected = view.rows[row].message_indices.clone();
    for _ in 0..row {
        app.act(Action::Down);
    }
    app.act(Action::Activate);
    assert_eq!(*app.mode(), Mode::Normal);
    let filter = app.filter().expect("narrowed");
    assert_eq!(*filter.shown, expected);
    app.act(Action::Top);
    assert_eq!(app.selected(), expected[0]);
    app.act(Action::Down);
    assert_eq!(app.selected(), expected[1], "moving steps through shown messages only");
    insta::assert_snapshot!("list_filtered_by_tool", draw(&app, 120, 36).backend());
    assert!(app.act(Action::Back).is_empty(), "Esc clears the filter first");
    assert!(app.filter().is_none());
    assert!(matches!(app.act(Action::Back).as_slice(), [Effect::Quit]));
}

#[test]
fn the_summary_role_is_a_toggle_and_anthropic_stops_warning() {
    let transcript = sample("anthropic-parallel-tools.json");
    let mut app = open(transcript, config(Some(300), None), (120, 36));
    assert!(app
        .warnings()
        .iter()
        .any(|w| matches!(w, ctxlens::compact::Warning::SystemInsideAnthropicMessages)));
    app.act(Action::ToggleSummaryRole);
    assert_eq!(app.settings().summary_role, ctxlens::compact::SummaryRole::User);
    assert!(!app
        .warnings()
        .iter()
        .any(|w| matches!(w, ctxlens::compact::Warning::SystemInsideAnthropicMessages)));
}

#[test]
fn overlays_stop_at_their_last_page() {
    let mut app = fixture_app();
    app.act(Action::ToggleHelp);
    app.act(Action::Bottom);
    let Mode::Help { scroll: bottom } = *app.mode() else {
        panic!("help")
    };
    assert!(bottom > 0 && bottom < ctxlens::tui::keys::help().len());
    app.act(Action::PageDown);
    app.act(Action::Down);
    assert_eq!(*app.mode(), Mode::Help { scroll: bottom }, "never past the end");
    app.act(Action::PageUp);
    let Mode::Help { scroll } = *app.mode() else {
        panic!("help")
    };
    assert!(scroll < bottom, "one page up shows text again");
}

// ---- the session's whole life: epochs, replay, sweep, settings to paste -----------------

fn autocompact_app() -> App {
    let bytes =
        std::fs::read(common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl"))
            .expect("log");
    let transcript = Transcript::parse("session.jsonl", bytes, None).expect("loads");
    open(transcript, config(Some(40_000), None), (130, 36))
}

#[test]
fn the_timeline_shows_epochs_and_opens_one_read_only() {
    let mut app = autocompact_app();
    let effects = app.act(Action::ToggleTimeline);
    assert_eq!(
        started(&effects),
        vec![JobKind::Session],
        "the whole session is built on a worker"
    );
    settle(&mut app, effects);
    let session = app.session().expect("built");
    assert_eq!(session.core.history().epochs.len(), 2);
    assert_eq!(session.core.history().compactions[0].pre_tokens, Some(155_979));
    let terminal = draw(&app, 130, 36);
    let buffer = terminal.backend().buffer();
    assert!(row_containing(buffer, "compacted (auto) · 155,979 recorded before").is_some());
    insta::assert_snapshot!("epoch_timeline", terminal.backend());

    // Enter opens the first epoch; its messages are the ones before the compaction.
    app.act(Action::Activate);
    let Mode::Timeline(view) = app.mode() else {
        panic!("still the timeline")
    };
    let open = view.open.as_ref().expect("an epoch is open");
    assert_eq!((open.epoch, open.selected), (0, 0));
    app.act(Action::Bottom);
    // The loss report of the compaction that ended it is one key away.
    app.act(Action::ToggleLoss);
    let terminal = draw(&app, 130, 36);
    assert!(row_containing(terminal.backend().buffer(), "What the compaction at line 158 lost").is_some());
    // Esc steps back: loss → epoch → timeline → main screen; the main list never changed.
    let live = app.transcript().messages().len();
    app.act(Action::Back);
    app.act(Action::Back);
    assert!(matches!(app.mode(), Mode::Timeline(v) if v.open.is_none()));
    app.act(Action::Back);
    assert!(matches!(app.mode(), Mode::Normal));
    assert_eq!(app.transcript().messages().len(), live);

    // The second epoch (the third row: epoch, compaction, epoch) starts with the real
    // summary, marked.
    app.act(Action::ToggleTimeline);
    app.act(Action::Down);
    app.act(Action::Down);
    app.act(Action::Activate);
    let Mode::Timeline(view) = app.mode() else {
        panic!("still the timeline")
    };
    assert_eq!(view.open.as_ref().map(|o| o.epoch), Some(1));
    let terminal = draw(&app, 130, 36);
    assert!(row_containing(terminal.backend().buffer(), "the summary the agent got").is_some());
}

#[test]
fn a_real_compaction_is_a_row_of_the_timeline_with_its_summary_and_what_was_done_again() {
    let mut app = autocompact_app();
    let effects = app.act(Action::ToggleTimeline);
    settle(&mut app, effects);
    let session = app.session().expect("built");
    let real_summary = session.core.history().compactions[0].summary.clone();
    let again = session.done_again[0].len();
    // The compaction's own row is selectable, and Enter shows the summary the agent got.
    app.act(Action::Down);
    let terminal = draw(&app, 130, 36);
    let buffer = terminal.backend().buffer();
    let row = line_of(buffer, row_containing(buffer, "▼ compacted (auto)").expect("its row"));
    assert!(
        row.contains("▶   ▼ compacted"),
        "the compaction row is the selected one: {row}"
    );
    app.act(Action::Activate);
    let Mode::Timeline(view) = app.mode() else {
        panic!("still the timeline")
    };
    assert_eq!(view.compaction.map(|c| (c.index, c.loss)), Some((0, false)));
    let terminal = draw(&app, 130, 36);
    let buffer = terminal.backend().buffer();
    assert!(row_containing(buffer, "The summary the agent got").is_some());
    let first_words: String = real_summary.split_whitespace().take(4).collect::<Vec<_>>().join(" ");
    assert!(
        row_containing(buffer, &first_words).is_some(),
        "the real summary is readable in place"
    );
    insta::assert_snapshot!("timeline_compaction", terminal.backend());
    // The evidence of forgetting is further down the same view.
    let heading = format!(
        "Done again after it ({}",
        ctxlens::text::count_of(again as u64, "thing", "things")
    );
    let reached = (0..400).any(|_| {
        app.act(Action::Down);
        row_containing(draw(&app, 130, 36).backend().buffer(), &heading).is_some()
    });
    assert!(reached, "scrolling down reaches {heading:?}");
    // l shows what it lost; l again goes back to the summary; Esc to the timeline.
    app.act(Action::ToggleLoss);
    let terminal = draw(&app, 130, 36);
    assert!(row_containing(terminal.backend().buffer(), "What it lost: facts of epoch 0").is_some());
    app.act(Action::ToggleLoss);
    app.act(Action::Back);
    assert!(matches!(app.mode(), Mode::Timeline(v) if v.compaction.is_none() && v.open.is_none()));
    // l on the epoch row opens the loss of the compaction that ended it, directly.
    app.act(Action::Top);
    app.act(Action::ToggleLoss);
    assert!(matches!(app.mode(), Mode::Timeline(v) if v.compaction.is_some_and(|c| c.loss)));
}

#[test]
fn the_cost_chart_draws_each_recorded_call_and_agrees_with_stats() {
    let mut app = autocompact_app();
    let effects = app.act(Action::ToggleCost);
    assert_eq!(
        started(&effects),
        vec![JobKind::Session],
        "the cost comes with the whole session, built on a worker"
    );
    assert!(
        row_containing(draw(&app, 130, 36).backend().buffer(), "loading the whole session").is_some(),
        "a loading box until it arrives"
    );
    settle(&mut app, effects);
    let cost = app
        .session()
        .and_then(|s| s.core.cost())
        .expect("a Claude Code log is priced");
    // The same figures as the command line's.
    let log = common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let cli = common::json_stdout(&common::ctxlens(&["stats", log.to_str().unwrap(), "--json"]));
    let total = cli["cost"]["total"].as_f64().expect("stats prices the log");
    assert!((cost.total.expect("priced") - total).abs() < 1e-9);
    assert_eq!(cli["cost"]["calls"].as_array().unwrap().len(), cost.calls.len());
    assert_eq!(cli["cost"]["rewrites"].as_array().unwrap().len(), cost.rewrites.len());
    let terminal = draw(&app, 130, 36);
    let buffer = terminal.backend().buffer();
    assert!(
        row_containing(buffer, &format!("${total:.2} over")).is_some(),
        "the total, as stats prices it"
    );
    assert!(row_containing(buffer, "cache written again in full").is_some());
    insta::assert_snapshot!("cost_chart", terminal.backend());
    // The main screen's budget bar says it too, now that it is known; `$` closes.
    app.act(Action::Back);
    let bar = line_of(draw(&app, 160, 36).backend().buffer(), 3);
    assert!(bar.contains(&format!("recorded ${total:.2}")), "{bar}");
    // A transcript with no usage per call says so instead of a chart.
    let mut plain = fixture_app();
    let effects = plain.act(Action::ToggleCost);
    settle(&mut plain, effects);
    let terminal = draw(&plain, 120, 36);
    assert!(row_containing(terminal.backend().buffer(), "records no usage per call").is_some());
}

#[test]
fn the_ledger_lists_the_standing_instructions_as_the_command_line_does() {
    let mut app = autocompact_app();
    let effects = app.act(Action::ToggleLedger);
    assert_eq!(started(&effects), vec![JobKind::Session], "made with the whole session");
    settle(&mut app, effects);
    let ledger = &app.session().expect("built").ledger;
    let log = common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let cli = common::json_stdout(&common::ctxlens(&["ledger", log.to_str().unwrap(), "--json"]));
    assert_eq!(cli["compactions"].as_u64(), Some(ledger.compaction_count as u64));
    let listed = cli["instructions"].as_array().expect("instructions");
    assert!(!listed.is_empty(), "the codemie log has standing instructions");
    assert_eq!(listed.len(), ledger.entries.len());
    for (row, entry) in listed.iter().zip(&ledger.entries) {
        assert_eq!(row["text"].as_str(), Some(entry.text.as_str()));
        assert_eq!(row["lost"].as_u64(), Some(entry.lost as u64));
    }
    let terminal = draw(&app, 130, 36);
    let buffer = terminal.backend().buffer();
    assert!(row_containing(buffer, "standing instruction").is_some());
    let lost = ledger
        .entries
        .iter()
        .find(|e| e.lost > 0)
        .map(|e| format!("lost {}/", e.lost));
    if let Some(lost) = lost {
        assert!(row_containing(buffer, &lost).is_some(), "{lost}");
    }
    insta::assert_snapshot!("ledger", terminal.backend());
    // It pages like the other overlays, and closes with L.
    app.act(Action::Bottom);
    assert_eq!(
        ctxlens::tui::keys::action_for(
            &ratatui::crossterm::event::KeyEvent::from(ratatui::crossterm::event::KeyCode::Char('L')),
            ctxlens::tui::keys::Context::Ledger
        ),
        Some(Action::Back)
    );
    app.act(Action::Back);
    assert_eq!(*app.mode(), Mode::Normal);
}

#[test]
fn the_replay_chart_follows_the_budget_keys() {
    let mut app = fixture_app();
    let effects = app.act(Action::ToggleReplay);
    settle(&mut app, effects);
    let first = app.replay().expect("replayed").firings.len();
    assert!(first > 0);
    let terminal = draw(&app, 120, 36);
    insta::assert_snapshot!("replay_chart", terminal.backend());
    // A bigger budget fires less often; the chart asks for a new replay at once.
    let effects = app.act(Action::MaxUpBig);
    assert_eq!(started(&effects), vec![JobKind::Replay]);
    assert!(
        app.replay().is_none() && app.latest_replay().is_some(),
        "the old chart stays while the new one runs"
    );
    settle(&mut app, effects);
    let effects = app.act(Action::MaxUpBig);
    settle(&mut app, effects);
    assert!(app.replay().expect("replayed").firings.len() < first);
    // The same numbers as the command line's replay with the placeholder.
    let max = app.options().max_tokens.to_string();
    let out = common::ctxlens(&[
        "replay",
        common::fixture_path().to_str().unwrap(),
        "--max-tokens",
        &max,
        "--keep-tail",
        "800",
        "--summarizer",
        "placeholder",
        "--json",
    ]);
    let cli = common::json_stdout(&out);
    assert_eq!(
        cli["firings"].as_array().unwrap().len(),
        app.replay().unwrap().firings.len()
    );
    assert_eq!(
        cli["final_tokens"].as_u64().unwrap(),
        app.replay().unwrap().final_tokens
    );
}

#[test]
fn the_sweep_chart_marks_the_current_setting_and_the_knee() {
    let mut app = fixture_app();
    let effects = app.act(Action::ToggleSweep);
    settle(&mut app, effects);
    let sweep = app.sweep().expect("swept");
    assert_eq!(sweep.rows.len(), ctxlens::replay::sweep::ANSWER_STEPS as usize + 1);
    let terminal = draw(&app, 120, 36);
    assert!(row_containing(terminal.backend().buffer(), "current max_tokens 2,000").is_some());
    insta::assert_snapshot!("sweep_chart", terminal.backend());
    // The budget keys move the marker (a new sweep with the same budgets is not needed
    // unless keep_tail's share changes).
    app.act(Action::MaxUpBig);
    let terminal = draw(&app, 120, 36);
    assert!(row_containing(terminal.backend().buffer(), "current max_tokens 2,500").is_some());
}

#[test]
fn settings_to_paste_cycle_through_the_agents() {
    let mut app = open(
        fixture(),
        Config {
            context_window: Some(200_000),
            ..config(Some(2000), Some(800))
        },
        (120, 36),
    );
    app.act(Action::ToggleConfig);
    let terminal = draw(&app, 120, 36);
    assert!(row_containing(terminal.backend().buffer(), "max_tokens = 2000").is_some());
    insta::assert_snapshot!("settings_to_paste", terminal.backend());
    let mut seen = Vec::new();
    let kinds = ctxlens::agent_config::Kind::budget_kinds();
    for _ in 0..kinds.len() {
        let Mode::Config(view) = app.mode() else {
            panic!("config overlay")
        };
        seen.push(view.kind);
        app.act(Action::SwitchPane);
    }
    seen.sort_unstable();
    assert_eq!(seen, (0..kinds.len()).collect::<Vec<_>>());
    let claude = app
        .emitted_config(ctxlens::agent_config::Kind::ClaudeCode)
        .expect("window given");
    // 2,000 tokens of the effective 180,000 (200,000 less the reply's 20,000), read back
    // by Claude Code as floor(180,000 × pct / 100): within 1% of 2,000.
    let pct: f64 = claude
        .text
        .lines()
        .find_map(|l| l.strip_prefix("export CLAUDE_AUTOCOMPACT_PCT_OVERRIDE="))
        .expect("the override")
        .parse()
        .expect("a number");
    let back = (180_000.0 * pct / 100.0_f64).floor();
    assert!((back - 2000.0).abs() <= 20.0, "{pct}% is {back}");
    assert!(claude.warnings.is_empty(), "{:?}", claude.warnings);
    // `y` copies the shown agent's configuration (OSC 52 in the event loop), `w` writes
    // it to its file, never over an existing one.
    let Mode::Config(view) = app.mode() else {
        panic!("config overlay")
    };
    let kind = kinds[view.kind];
    let shown = app.emitted_config(kind).expect("emits").text;
    assert!(matches!(app.act(Action::Copy).as_slice(), [Effect::Copy(text)] if *text == shown));
    let path = save_dir().join(kind.file_name());
    let _ = std::fs::remove_file(&path);
    app.act(Action::Save);
    assert_eq!(std::fs::read_to_string(&path).expect("written"), shown);
    assert!(status_text(&app).contains("wrote"), "{}", status_text(&app));
    app.act(Action::Save);
    assert!(status_text(&app).contains("not replaced"), "{}", status_text(&app));
    std::fs::remove_file(&path).expect("remove");
}

#[test]
fn enter_in_the_loss_report_jumps_to_the_message() {
    let mut app = fixture_app();
    let effects = app.act(Action::ToggleLoss);
    settle(&mut app, effects);
    let Mode::Loss { text, .. } = app.mode() else {
        panic!("the loss report is open")
    };
    // The first row naming a message.
    let (row, target) = text
        .lines()
        .enumerate()
        .find_map(|(k, l)| ctxlens::tui::app::message_on_line(l).map(|m| (k, m)))
        .expect("a row names a message");
    for _ in 0..row {
        app.act(Action::Down);
    }
    let terminal = draw(&app, 120, 36);
    let highlighted = cell_at_text(terminal.backend().buffer(), &format!("#{target:<6}"), 0);
    assert!(highlighted.modifier.contains(ratatui::style::Modifier::REVERSED));
    app.act(Action::Activate);
    assert!(matches!(app.mode(), Mode::Normal));
    assert_eq!(app.selected(), target);
}

#[test]
fn wide_characters_do_not_shift_the_columns() {
    let messages = serde_json::json!([
        {"role": "user", "content": "plain text question"},
        {"role": "assistant", "content": "😀😀😀 日本語の答え 😀😀😀 emoji everywhere 😀😀😀😀😀😀😀😀😀😀😀😀"},
        {"role": "user", "content": "tab\tand \u{1b}[1mescape\u{1b}[0m"},
        {"role": "assistant", "content": "ok"}
    ]);
    let t = Transcript::parse("wide.json", serde_json::to_vec(&messages).unwrap(), None).unwrap();
    let app = open(t, config(Some(10_000), None), (120, 36));
    let terminal = draw(&app, 120, 36);
    let buffer = terminal.backend().buffer();
    // The running total is the last column of the list: it ends at the same cell on
    // every row, whatever the preview held.
    let list = ctxlens::tui::layout::of_size((120, 36)).list;
    let first_row = row_containing(buffer, "│ 0 user").unwrap();
    let list_right = (list.x..list.x + list.width)
        .rev()
        .find(|&x| {
            let symbol = buffer[(x, first_row)].symbol();
            !symbol.is_empty() && symbol.chars().all(|c| c.is_ascii_digit())
        })
        .expect("a running total");
    for needle in ["│ 0 user", "│ 1 assistant", "│ 2 user", "│ 3 assistant"] {
        let y = row_containing(buffer, needle).unwrap_or_else(|| panic!("{needle} on screen"));
        let digit = |x: u16| buffer[(x, y)].symbol().chars().any(|c| c.is_ascii_digit());
        assert!(digit(list_right), "{needle}: running total ends at column {list_right}");
        assert!(!digit(list_right + 1), "{needle}: and not after it");
    }
    // Control characters never reach the terminal.
    let all: String = buffer.content().iter().map(ratatui::buffer::Cell::symbol).collect();
    assert!(!all.contains('\u{1b}'));
}

#[test]
fn jumps_filters_and_the_wheel_under_the_pointer() {
    let mut app = fixture_app();
    let t = app.transcript().clone();
    // B: the boundary; ) and (: human turns; %: call ↔ result.
    app.act(Action::Top);
    app.act(Action::JumpToBoundary);
    assert_eq!(Some(app.selected()), app.boundary_at());
    app.act(Action::Top);
    app.act(Action::NextTurn);
    assert_eq!(app.selected(), t.boundaries()[0]);
    app.act(Action::NextTurn);
    assert_eq!(app.selected(), t.boundaries()[1]);
    app.act(Action::PrevTurn);
    assert_eq!(app.selected(), t.boundaries()[0]);
    let group = &t.groups().groups[0];
    app.act(Action::Select(group.call));
    app.act(Action::JumpToPartner);
    assert_eq!(app.selected(), group.results[0]);
    app.act(Action::JumpToPartner);
    assert_eq!(app.selected(), *group.results.get(1).unwrap_or(&group.call));

    // F cycles: human turns, summarized, tail, head, (no search yet), then everything.
    app.act(Action::CycleFilter);
    assert_eq!(app.filter().expect("a filter").shown.as_slice(), t.boundaries());
    app.act(Action::CycleFilter);
    let cut = *app.planned().cut().expect("the fixture compacts");
    assert_eq!(
        app.filter().unwrap().shown.as_slice(),
        (cut.head_end..cut.split).collect::<Vec<_>>()
    );
    app.act(Action::CycleFilter);
    assert_eq!(app.filter().unwrap().shown.len(), t.messages().len() - cut.split);
    app.act(Action::CycleFilter);
    assert_eq!(app.filter().unwrap().shown.as_slice(), [0]);
    app.act(Action::CycleFilter);
    assert!(app.filter().is_none(), "after the last filter, everything");

    // The wheel over the detail pane scrolls it and leaves the selection alone.
    let areas = ctxlens::tui::layout::of_size((120, 36));
    let detail = areas.detail.expect("a detail pane at 120 columns");
    let selected = app.selected();
    app.act(Action::ScrollAt(detail.x + 2, detail.y + 2, 3));
    assert_eq!((app.selected(), app.detail_scroll()), (selected, 3));
    app.act(Action::ScrollAt(areas.list.x + 2, areas.list.y + 3, 3));
    assert_eq!(app.selected(), selected + 3);
}

#[test]
fn the_tokenizer_is_picked_directly() {
    let mut app = fixture_app();
    app.act(Action::PickTokenizer);
    let terminal = draw(&app, 120, 36);
    assert!(row_containing(terminal.backend().buffer(), "o200k").is_some());
    for _ in 0..4 {
        app.act(Action::Down);
    }
    let effects = app.act(Action::Activate);
    let Job::Count { tokenizer, .. } = take_job(effects, JobKind::Count) else {
        panic!("a count")
    };
    assert_eq!(tokenizer, Tokenizer::O200k, "four down from estimate is o200k, one key");
    assert!(matches!(app.mode(), Mode::Normal));
}

#[test]
fn messages_read_as_text_with_a_key_for_json() {
    let mut app = fixture_app();
    app.act(Action::Select(3));
    let text_view = draw(&app, 120, 36);
    assert!(
        row_containing(text_view.backend().buffer(), "\"role\"").is_none(),
        "text by default"
    );
    app.act(Action::ToggleRaw);
    let json_view = draw(&app, 120, 36);
    assert!(
        row_containing(json_view.backend().buffer(), "\"role\": \"").is_some(),
        "J shows the JSON"
    );
    app.act(Action::ToggleRaw);
    // The preview too: one block per message with its role and tokens.
    let effects = app.act(Action::TogglePreview);
    settle(&mut app, effects);
    let preview = draw(&app, 120, 36);
    assert!(row_containing(preview.backend().buffer(), "── #0 system ·").is_some());
    app.act(Action::ToggleRaw);
    let raw = draw(&app, 120, 36);
    assert!(row_containing(raw.backend().buffer(), "── #0 system").is_none());
}

#[test]
fn the_boundary_stays_in_view_while_tuning() {
    let mut app = fixture_app();
    app.act(Action::Top);
    assert!(app.list_offset() == 0);
    // A big step moves the cut far from the top of the list: the list follows it.
    app.act(Action::MaxDownBig);
    app.act(Action::MaxDownBig);
    let split = app.boundary_at().expect("still compacting");
    let row = app.row_of_message(split);
    assert!(
        row >= app.list_offset() && row < app.list_offset() + app.page(),
        "boundary on screen"
    );
}

#[test]
fn search_matches_are_marked_in_the_list_and_highlighted_in_the_detail() {
    let mut app = fixture_app();
    app.act(Action::Search);
    type_text(&mut app, "question 26");
    let effects = app.act(Action::PromptSubmit);
    settle(&mut app, effects);
    let terminal = draw(&app, 120, 36);
    let buffer = terminal.backend().buffer();
    let marker = cell_at_text(buffer, "»", 0);
    assert_eq!(marker.fg, Theme::colored().accent.fg.unwrap_or(Color::Reset));
    // In the detail pane (right of the list), the query itself is highlighted.
    let detail = ctxlens::tui::layout::of_size((120, 36)).detail.expect("detail pane");
    let (x, y) = (detail.y..detail.y + detail.height)
        .find_map(|y| {
            let line: String = (detail.x..detail.x + detail.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect();
            line.find("question 26")
                .map(|at| (detail.x + line[..at].chars().count() as u16, y))
        })
        .expect("the match in the detail pane");
    let reversed = |x: u16| buffer[(x, y)].modifier.contains(ratatui::style::Modifier::REVERSED);
    assert!(reversed(x) && reversed(x + 10), "the query is highlighted");
    assert!(!reversed(x + 12), "the rest of the line is not");
}

#[test]
fn a_narrow_header_keeps_its_key_figures() {
    for strategy_steps in [0, 2] {
        let mut app = fixture_app();
        for _ in 0..strategy_steps {
            next_strategy(&mut app);
        }
        app.act(Action::Resize(60, 15));
        let terminal = draw(&app, 60, 15);
        let buffer = terminal.backend().buffer();
        let line = |y: u16| -> String { (0..60).map(|x| buffer[(x, y)].symbol()).collect() };
        let (max_line, keep_line) = (line(1), line(2));
        assert!(
            max_line.contains("max_tokens") && max_line.contains("2,000"),
            "{max_line}"
        );
        assert!(
            keep_line.contains("→ after"),
            "the figure after compaction survives: {keep_line}"
        );
        // Parts are left out whole, never cut mid-word.
        assert!(
            !max_line.contains("flush │") && !max_line.trim_end_matches('│').trim_end().ends_with("flush"),
            "{max_line}"
        );
    }
}

// ---- the session browser ------------------------------------------------------------------

fn browser_over_real_transcripts() -> ctxlens::tui::browser::Browser {
    use ctxlens::tui::browser::{Browser, Entry};
    let root = common::data().join("real-transcripts");
    let files = ctxlens::scan::session_files(std::slice::from_ref(&root)).files;
    let mut browser = Browser::new(
        vec![std::path::PathBuf::from("real-transcripts")],
        files.len() + 1,
        Theme::colored(),
    );
    browser.update(&Action::Resize(120, 30));
    for path in &files {
        let mut session = ctxlens::scan::scan_file(path, Tokenizer::Estimate, None).expect("a real transcript");
        // Paths relative to the data, so snapshots do not depend on the checkout.
        session.path = path.strip_prefix(&root).unwrap().display().to_string();
        // A fresh checkout writes every file now: none is a session being written.
        session.modified_unix = 0;
        // Files that record no start time are dated by their modification time, which a
        // fresh checkout sets: pinned here so the snapshot is the same everywhere.
        if !matches!(session.format.as_str(), "claude-code" | "codex") {
            "2000-01-01T00:00:00Z".clone_into(&mut session.started);
            "2000-01-01T00:00:00Z".clone_into(&mut session.last_activity);
        }
        browser.add(Entry::Session(Box::new(session)));
    }
    browser
}

fn draw_browser(browser: &ctxlens::tui::browser::Browser) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(120, 30)).expect("test backend");
    terminal
        .draw(|frame| ctxlens::tui::browser::draw(frame, browser))
        .expect("draw");
    terminal
}

#[test]
fn rows_arriving_keep_the_cursor_on_the_newest_row_or_on_the_one_the_user_chose() {
    use ctxlens::tui::browser::{Browser, Entry};
    let session = |k: usize| {
        let mut s = ctxlens::scan::scan_file(
            &common::repo().join("sample-transcripts/support-agent.json"),
            Tokenizer::Estimate,
            None,
        )
        .expect("scans");
        // Start times that arrive out of order, newest neither first nor last.
        s.started = format!("2026-01-{:02}T00:00:00Z", 1 + (k * 7919) % 28);
        s.last_activity = s.started.clone();
        s.path = format!("s{k:05}.json");
        Entry::Session(Box::new(s))
    };
    let mut browser = Browser::new(vec!["x".into()], 5_000, Theme::colored());
    browser.update(&Action::Resize(120, 30));
    for k in 0..2_000 {
        browser.add(session(k));
    }
    // Untouched, the cursor is on the first row: the newest session.
    let newest = browser.shown_sessions()[0].path.clone();
    assert_eq!(browser.current_path(), Some(newest));
    // Moved, it stays on the session the user chose while rows arrive above and below.
    for _ in 0..5 {
        browser.update(&Action::Down);
    }
    let chosen = browser.current_path().expect("a row");
    for k in 2_000..4_000 {
        browser.add(session(k));
    }
    assert_eq!(browser.current_path(), Some(chosen));
}

#[test]
fn the_browser_lists_sessions_newest_first_filters_sorts_and_opens_one() {
    use ctxlens::tui::browser::{Effect as BrowserEffect, SortBy};
    let mut browser = browser_over_real_transcripts();
    let terminal = draw_browser(&browser);
    let buffer = terminal.backend().buffer();
    assert!(row_containing(buffer, "loading").is_some(), "one file still scanning");
    // Newest first: the first row is the most recent start.
    let started: Vec<String> = (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .filter_map(|l| l.get(1..17).map(str::trim).map(str::to_owned))
        .filter(|s| s.starts_with("20"))
        .collect();
    let mut sorted = started.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(started, sorted);
    insta::assert_snapshot!("browser", terminal.backend());
    // `/` then text filters by project, path or format.
    browser.update(&Action::Search);
    for c in "codemie".chars() {
        browser.update(&Action::PromptChar(c));
    }
    browser.update(&Action::PromptSubmit);
    assert_eq!(browser.shown().len(), 3, "the three codemie sessions");
    let terminal = draw_browser(&browser);
    insta::assert_snapshot!("browser_filtered", terminal.backend());
    // Enter opens the highlighted one; Esc clears the filter, and never quits (q does).
    let Some(BrowserEffect::Open(path)) = browser.update(&Action::Activate) else {
        panic!("opens")
    };
    assert!(path.to_string_lossy().contains("codemie"));
    assert_eq!(browser.update(&Action::Back), None);
    assert_eq!(browser.filter(), "");
    // `s` sorts by how close the live context is to where its agent compacts, then by
    // tokens, largest first, then by the recorded peak; the row stays put.
    browser.update(&Action::Down);
    browser.update(&Action::Down);
    let before = browser.current_path();
    browser.update(&Action::CycleSort);
    assert_eq!(browser.sort(), SortBy::ClosestToCompaction);
    assert_eq!(browser.current_path(), before, "the selection follows its session");
    let closeness = |s: &ctxlens::scan::Session| {
        s.autocompact_at
            .or_else(|| {
                s.model
                    .as_deref()
                    .and_then(ctxlens::models::window_of)
                    .map(|w| w.tokens)
            })
            .map(|t| s.live_tokens * 1000 / t)
    };
    let close: Vec<Option<u64>> = browser
        .shown_sessions()
        .iter()
        .filter(|s| s.parent_session.is_none())
        .map(|s| closeness(s))
        .collect();
    assert!(close.windows(2).all(|w| w[0] >= w[1]), "{close:?}");
    browser.update(&Action::CycleSort);
    assert_eq!(browser.sort(), SortBy::Tokens);
    assert_eq!(browser.current_path(), before, "the selection follows its session");
    let tokens: Vec<u64> = browser
        .shown_sessions()
        .iter()
        .filter(|s| s.parent_session.is_none())
        .map(|s| s.tokens)
        .collect();
    assert_eq!(tokens.len(), 16, "17 sessions, one a sub-agent drawn under its parent");
    assert!(tokens.windows(2).all(|w| w[0] >= w[1]), "{tokens:?}");
    browser.update(&Action::CycleSort);
    assert_eq!(browser.sort(), SortBy::Recorded);
    let peaks: Vec<Option<u64>> = browser
        .shown_sessions()
        .iter()
        .filter(|s| s.parent_session.is_none())
        .map(|s| s.recorded_peak)
        .collect();
    assert!(peaks.windows(2).all(|w| w[0] >= w[1]), "{peaks:?}");
    // A file scanned now lands in the current order.
    let mut late = browser.shown_sessions()[0].clone();
    late.path = "late.json".to_owned();
    late.recorded_peak = late.recorded_peak.map(|p| p + 1);
    browser.add(ctxlens::tui::browser::Entry::Session(Box::new(late)));
    assert_eq!(browser.shown_sessions()[0].path, "late.json");
    // `?` shows the help over the list (its keys then scroll and close it); Esc there
    // closes it, Esc on the list quits nothing, q quits.
    assert_eq!(browser.update(&Action::ToggleHelp), None);
    assert_eq!(browser.key_context(), ctxlens::tui::keys::Context::Help);
    let terminal = draw_browser(&browser);
    let screen = format!("{:?}", terminal.backend());
    assert!(
        screen.contains(" help ") && screen.contains("The session browser"),
        "{screen}"
    );
    browser.update(&Action::Bottom);
    let last = browser.help_scroll().expect("shown");
    browser.update(&Action::Down);
    assert_eq!(browser.help_scroll(), Some(last), "never past the last page");
    assert_eq!(browser.update(&Action::Back), None);
    assert_eq!(browser.help_scroll(), None);
    assert_eq!(browser.update(&Action::Back), None, "Esc never quits the app");
    assert_eq!(browser.update(&Action::Quit), Some(BrowserEffect::Quit));
}

// ---- a key storm: the way out is always there -------------------------------------------

/// A small deterministic generator, so a failing storm can be replayed from its seed.
struct Storm(u64);

impl Storm {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A key a person could press: every letter and symbol but `q`, digits, arrows,
    /// Enter, Tab, Backspace, Ctrl+ letters. Not `q` or Esc: those are the way out the
    /// test looks for after the storm (a storm that left early would test less).
    fn key(&mut self) -> ratatui::crossterm::event::KeyEvent {
        use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        const CHARS: &str = "abcdefghijklmnoprstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?/=+-<>[]{}()%~. ";
        let pick = self.next() % 100;
        let code = match pick {
            0..=69 => {
                let chars: Vec<char> = CHARS.chars().collect();
                KeyCode::Char(chars[(self.next() % chars.len() as u64) as usize])
            }
            70..=74 => KeyCode::Enter,
            75..=78 => KeyCode::Tab,
            79..=84 => KeyCode::Backspace,
            85..=87 => KeyCode::Up,
            88..=90 => KeyCode::Down,
            91..=92 => KeyCode::PageDown,
            93..=94 => KeyCode::Left,
            95..=96 => KeyCode::Right,
            _ => KeyCode::Home,
        };
        let ctrl = self.next().is_multiple_of(25);
        KeyEvent::new(
            code,
            if ctrl {
                KeyModifiers::CONTROL
            } else {
                KeyModifiers::NONE
            },
        )
    }
}

/// Presses `key` in the app as the event loop does (its binding in the app's current
/// context), running every job it starts but exports (a storm types file names: an
/// export stays in flight instead of writing into the working folder); true when the
/// app asks to quit.
fn press(app: &mut App, key: &ratatui::crossterm::event::KeyEvent) -> bool {
    let Some(action) = ctxlens::tui::keys::action_for(key, app.key_context()) else {
        return false;
    };
    let mut queue: VecDeque<Effect> = app.act(action).into();
    let mut quit = false;
    while let Some(effect) = queue.pop_front() {
        match effect {
            Effect::Start(job) if job.kind() != JobKind::Export => queue.extend(deliver(app, run_job(job))),
            Effect::Quit => quit = true,
            _ => {}
        }
    }
    quit
}

/// From whatever state a storm left, `q` or Esc pressed a few times leaves the app.
fn leaves_within_a_few_presses(app: &mut App) -> bool {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    let q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
    let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
    (0..6).any(|_| press(app, &q) || press(app, &esc))
}

#[test]
fn every_overlay_and_the_browser_can_be_left_after_a_key_storm() {
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    // The keys that open each overlay, prompt and picker of the main view.
    let openers = [
        '?', 'p', 'l', 'b', 'h', 'R', 'S', 'c', 'C', 'e', '=', '/', 't', 'F', 'J', 'E',
    ];
    let mut storms = 0;
    for (k, opener) in openers.iter().enumerate() {
        for seed in 1..=3u64 {
            let mut rng = Storm(seed * 7919 + k as u64);
            let mut app = open(sample("support-agent.json"), config(None, None), (80, 24));
            let opened = press(&mut app, &KeyEvent::new(KeyCode::Char(*opener), KeyModifiers::NONE));
            assert!(!opened, "{opener} does not quit");
            for _ in 0..40 {
                let key = rng.key();
                if press(&mut app, &key) {
                    break; // the storm found a way out itself
                }
                // Drawn after every key at 80×24: no state draws with a panic.
                let _ = draw(&app, 80, 24);
            }
            assert!(
                leaves_within_a_few_presses(&mut app),
                "after `{opener}` and storm {seed}: q/Esc does not leave ({:?})",
                app.mode()
            );
            storms += 1;
        }
    }
    assert_eq!(storms, openers.len() * 3);

    // The session browser: the same storm, then q/Esc leave it.
    for seed in 1..=5u64 {
        let mut rng = Storm(seed);
        let mut browser = browser_over_real_transcripts();
        let mut quit = false;
        for _ in 0..60 {
            let key = rng.key();
            if let Some(action) = ctxlens::tui::keys::action_for(&key, browser.key_context()) {
                if browser.update(&action) == Some(ctxlens::tui::browser::Effect::Quit) {
                    quit = true;
                    break;
                }
            }
            let _ = draw_browser(&browser);
        }
        if !quit {
            let q = KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE);
            let esc = KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE);
            quit = (0..6).any(|_| {
                [&q, &esc].iter().any(|key| {
                    ctxlens::tui::keys::action_for(key, browser.key_context()).and_then(|a| browser.update(&a))
                        == Some(ctxlens::tui::browser::Effect::Quit)
                })
            });
        }
        assert!(quit, "browser storm {seed}: q/Esc does not leave");
    }
}

#[test]
fn the_compare_view_replays_every_policy_in_one_named_unit() {
    let mut app = autocompact_app();
    let effects = app.act(Action::ToggleCompare);
    settle(&mut app, effects);
    let rows = app.compared_policies().expect("compared on the worker");
    assert_eq!(rows.len(), ctxlens::policy::all().len());
    // Claude Code, replayed with its own log's threshold, fires once, at the real compaction.
    let claude = rows
        .iter()
        .find(|r| r.replayed.policy == "claude-code")
        .expect("claude-code");
    assert_eq!(claude.replayed.firings.len(), 1);
    // One answer: the command line's comparison with the same (placeholder) summaries
    // and the same evidence (this app was opened from bytes, with no sessions beside it:
    // `--thresholds-from none`) is the same document, policy by policy, figure by figure.
    let log = common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl");
    let cli = common::json_stdout(&common::ctxlens(&[
        "compare",
        log.to_str().unwrap(),
        "--summarizer",
        "placeholder",
        "--thresholds-from",
        "none",
        "--json",
    ]));
    assert_eq!(
        serde_json::to_value(rows).expect("serializable"),
        cli["policies"],
        "the TUI's C and `ctxlens compare --summarizer placeholder`"
    );
    for (width, height, name) in [(80, 24, "compare_80x24"), (160, 45, "compare_160x45")] {
        app.act(Action::Resize(width, height));
        let terminal = draw(&app, width, height);
        let buffer = terminal.backend().buffer();
        // The unit is named, and the log's usage makes it billed tokens.
        assert!(row_containing(buffer, "billed tokens").is_some(), "{name}");
        assert!(row_containing(buffer, "claude-code").is_some(), "{name}");
        insta::assert_snapshot!(name, terminal.backend());
    }
    // Down moves the highlight; the highlighted policy's settings are shown below.
    let claude_row = ctxlens::policy::all()
        .iter()
        .position(|p| p.name() == "claude-code")
        .expect("claude-code");
    for _ in 0..claude_row {
        app.act(Action::Down);
    }
    let terminal = draw(&app, 160, 45);
    assert!(row_containing(terminal.backend().buffer(), "claude-code: context_window=").is_some());
    assert!(matches!(app.act(Action::Back).as_slice(), []), "Esc closes it");
    assert_eq!(*app.mode(), Mode::Normal);
}

#[test]
fn the_replay_chart_draws_recorded_usage_in_its_own_unit() {
    let mut app = autocompact_app();
    app.act(Action::Resize(160, 45));
    let effects = app.act(Action::ToggleReplay);
    settle(&mut app, effects);
    let terminal = draw(&app, 160, 45);
    let buffer = terminal.backend().buffer();
    // The axis is counted tokens; recorded usage is drawn on it less the fitted
    // overhead, and says so.
    assert!(row_containing(buffer, "recorded, less fitted overhead").is_some());
    assert!(row_containing(buffer, "tokens (estimate)").is_some());
    insta::assert_snapshot!("replay_recorded_160x45", terminal.backend());
}

#[test]
fn enter_in_the_compare_view_makes_another_policy_the_main_plan() {
    use ctxlens::policy::{all, PolicySettings, Section};
    let mut app = autocompact_app();
    // A window the live transcript's 57k tokens overflow, so the agents' defaults cut it.
    app.act(Action::SetContextWindow);
    for c in "30000".chars() {
        app.act(Action::PromptChar(c));
    }
    app.act(Action::PromptSubmit);
    let effects = app.act(Action::ToggleCompare);
    settle(&mut app, effects);
    let rows = app.compared_policies().expect("compared").to_vec();
    // The first policy that changes the live transcript with the settings it was compared
    // with, planned here through the library as the TUI must plan it.
    let (row, plan) = all()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.name() != "toolnexus")
        .find_map(|(k, p)| {
            let pairs = &rows.iter().find(|r| r.replayed.policy == p.name())?.settings;
            let mut settings = PolicySettings::default();
            for (key, value) in pairs {
                settings = settings.with(key, value);
            }
            let plan = p.plan(app.transcript(), &settings).ok()?;
            let cuts = plan
                .messages
                .iter()
                .any(|r| matches!(r.section, Section::Summarized | Section::Dropped));
            cuts.then_some((k, plan))
        })
        .expect("a policy that cuts the live transcript");
    for _ in 0..row {
        app.act(Action::Down);
    }
    app.act(Action::Activate);
    assert_eq!(*app.mode(), Mode::Normal, "Enter closes the view");
    let chosen = app.main_policy().expect("a main policy");
    assert_eq!(chosen.name, plan.policy);
    assert_eq!(chosen.plan, plan);
    // The list says whose plan it shows; the detail of a message the policy takes away
    // says so, by name.
    let gone = plan
        .messages
        .iter()
        .find(|r| matches!(r.section, Section::Summarized | Section::Dropped | Section::Cleared))
        .map(|r| r.index);
    if let Some(gone) = gone {
        app.act(Action::Select(gone));
    }
    let terminal = draw(&app, 120, 30);
    let buffer = terminal.backend().buffer();
    assert!(row_containing(buffer, &format!("plan: {}", plan.policy)).is_some());
    insta::assert_snapshot!("main_policy_120x30", terminal.backend());
    if gone.is_some() {
        assert!(row_containing(buffer, &format!("section {}:", plan.policy)).is_some());
    }
    // Enter on toolnexus goes back to §7F.
    let effects = app.act(Action::ToggleCompare);
    settle(&mut app, effects);
    app.act(Action::Activate);
    assert!(app.main_policy().is_none());
}

#[test]
fn the_context_window_is_typed_in_the_compare_view_and_the_comparison_follows_it() {
    let mut app = autocompact_app();
    let effects = app.act(Action::ToggleCompare);
    settle(&mut app, effects);
    app.act(Action::SetContextWindow);
    assert!(matches!(app.mode(), Mode::Prompt(_)));
    for c in "50,000".chars() {
        app.act(Action::PromptChar(c));
    }
    let effects = app.act(Action::PromptSubmit);
    assert!(
        matches!(app.mode(), Mode::Compare { .. }),
        "back in the view it was typed from"
    );
    settle(&mut app, effects);
    let rows = app.compared_policies().expect("compared again for the new window");
    let claude = rows
        .iter()
        .find(|r| r.replayed.policy == "claude-code")
        .expect("claude-code");
    assert!(
        claude
            .settings
            .iter()
            .any(|(k, v)| k == "context_window" && v == "50000"),
        "{:?}",
        claude.settings
    );
    // A window that is not a number is refused and the old one kept.
    app.act(Action::SetContextWindow);
    for c in "lots".chars() {
        app.act(Action::PromptChar(c));
    }
    app.act(Action::PromptSubmit);
    let rows = app.compared_policies().expect("still compared");
    assert!(rows
        .iter()
        .any(|r| r.settings.iter().any(|(k, v)| k == "context_window" && v == "50000")));
}

/// Every overlay at 80×24 and at 160×45, drawn on a cleared area: no piece of the frame
/// under it shows around it, and each is a reviewed snapshot.
#[test]
fn every_overlay_at_80x24_and_160x45() {
    let overlays: &[(&str, &[Action])] = &[
        ("help", &[Action::ToggleHelp]),
        ("preview", &[Action::TogglePreview]),
        ("loss", &[Action::ToggleLoss]),
        ("breakdown", &[Action::ToggleBreakdown]),
        ("timeline", &[Action::ToggleTimeline]),
        ("epoch", &[Action::ToggleTimeline, Action::Activate]),
        ("compaction", &[Action::ToggleTimeline, Action::Down, Action::Activate]),
        ("replay", &[Action::ToggleReplay]),
        ("sweep", &[Action::ToggleSweep]),
        ("compare", &[Action::ToggleCompare]),
        ("cost", &[Action::ToggleCost]),
        ("ledger", &[Action::ToggleLedger]),
        ("config", &[Action::ToggleConfig]),
        ("tokenizer", &[Action::PickTokenizer]),
        ("max_tokens_prompt", &[Action::EnterValue]),
        ("export_prompt", &[Action::Export]),
        ("search_prompt", &[Action::Search]),
    ];
    for (width, height) in [(80u16, 24u16), (160, 45)] {
        for (name, actions) in overlays {
            let mut app = autocompact_app();
            let effects = app.act(Action::Resize(width, height));
            settle(&mut app, effects);
            for action in *actions {
                let effects = app.act(action.clone());
                settle(&mut app, effects);
            }
            assert_ne!(*app.mode(), Mode::Normal, "{name} is open");
            let terminal = draw(&app, width, height);
            let fragments = frame_fragments(terminal.backend().buffer());
            assert!(fragments.is_empty(), "{name} at {width}×{height}: {fragments:#?}");
            insta::assert_snapshot!(format!("overlay_{name}_{width}x{height}"), terminal.backend());
        }
    }
}

/// A sub-agent's log is listed under the session that started it, whichever arrives
/// first; the live context and the whole log are two labelled columns.
#[test]
fn the_browser_nests_a_sub_agent_under_its_parent_and_shows_live_and_log_tokens() {
    use ctxlens::tui::browser::{Browser, Entry};
    let dir = common::data().join("real-transcripts/claude-code-jsonl");
    let scan = |name: &str| ctxlens::scan::scan_file(&dir.join(name), Tokenizer::Estimate, None).expect("scans");
    let parent = scan("worktrees-ef958aa1.jsonl");
    let child = scan("worktrees-ef958aa1-subagent-a52886dc.jsonl");
    let other = scan("codemie-autocompact-624a4a58.jsonl");
    assert_eq!(child.parent_session, parent.session_id);
    assert!(parent.parent_session.is_none());
    // The compacted log: its live context is the epoch after the compaction.
    assert!(
        other.live_tokens < other.tokens,
        "{} vs {}",
        other.live_tokens,
        other.tokens
    );
    for order in [[&child, &other, &parent], [&parent, &other, &child]] {
        let mut browser = Browser::new(vec![dir.clone()], 3, Theme::colored());
        browser.update(&Action::Resize(160, 20));
        for s in order {
            browser.add(Entry::Session(Box::new(s.clone())));
        }
        let paths: Vec<&str> = browser.shown_sessions().iter().map(|s| s.path.as_str()).collect();
        let at = paths.iter().position(|p| *p == parent.path).expect("parent listed");
        assert_eq!(
            paths[at + 1],
            child.path,
            "the sub-agent right under its parent: {paths:?}"
        );
        let terminal = draw_browser(&browser);
        let buffer = terminal.backend().buffer();
        assert!(row_containing(buffer, "└ sub-agent:").is_some());
        assert!(row_containing(buffer, "live tok").is_some() && row_containing(buffer, "log tok").is_some());
        let row = line_of(
            buffer,
            row_containing(buffer, &ctxlens::text::thousands(other.tokens)).expect("its row"),
        );
        assert!(row.contains(&ctxlens::text::thousands(other.live_tokens)), "{row}");
    }
}

/// A real Claude Code log (through a real compaction) as lines, its first `head` lines
/// written to a file in a temporary folder, and an App following that file (with the
/// effects it starts with).
fn following_a_real_log(head: usize) -> (Vec<String>, tempfile::TempDir, std::path::PathBuf, App, Vec<Effect>) {
    let log = std::fs::read_to_string(
        common::data().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl"),
    )
    .expect("log");
    let lines: Vec<String> = log.lines().map(str::to_owned).collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("live.jsonl");
    std::fs::write(&path, lines[..head].join("\n") + "\n").expect("written");
    let (app, effects) = App::new(
        Transcript::read(&path, None).expect("loads"),
        Config {
            input_path: Some(path.clone()),
            ..config(None, None)
        },
    );
    (lines, dir, path, app, effects)
}

/// A file followed while its agent writes it: each change is read again on a worker, new
/// messages join the list (the selection at the end stays at the end), a half-written
/// last line waits for its end, the meter moves, and a replaced file is read again with a
/// notice.
#[test]
fn a_followed_file_grows_on_screen_and_its_meter_moves() {
    use std::io::Write;
    // The first epoch's first records.
    let (lines, _dir, path, mut app, effects) = following_a_real_log(40);
    assert!(app.follow().is_some(), "a file is followed");
    assert!(
        started(&effects).contains(&JobKind::Reload),
        "the first read makes the meter"
    );
    settle(&mut app, effects);
    let meter = app.meter().expect("a meter").clone();
    let first = app.transcript().messages().len();
    app.act(Action::Bottom);
    let append = |text: &str| {
        let mut file = std::fs::OpenOptions::new().append(true).open(&path).expect("opens");
        file.write_all(text.as_bytes()).expect("appended");
    };
    // More records: the list grows and the selection follows the end.
    append(&(lines[40..70].join("\n") + "\n"));
    let effects = app.update(Msg::FileChanged);
    assert_eq!(started(&effects), vec![JobKind::Reload]);
    settle(&mut app, effects);
    let grown = app.transcript().messages().len();
    assert!(grown > first, "{grown} > {first}");
    assert_eq!(app.selected(), grown - 1, "at the end, it stays at the end");
    assert_ne!(app.meter(), Some(&meter), "the meter moves");
    let terminal = draw(&app, 160, 45);
    assert!(row_containing(terminal.backend().buffer(), "● live").is_some());
    // Half a line: nothing new until its end arrives.
    let next = &lines[70];
    let (head, tail) = next.split_at(next.len() / 2);
    append(head);
    let effects = app.update(Msg::FileChanged);
    settle(&mut app, effects);
    assert_eq!(app.transcript().messages().len(), grown, "a half-written line waits");
    append(&format!("{tail}\n"));
    let effects = app.update(Msg::FileChanged);
    settle(&mut app, effects);
    assert!(app.transcript().messages().len() >= grown);
    // The rest, through the real compaction: the live view is the new epoch, and the
    // timeline shows both.
    append(&(lines[71..].join("\n") + "\n"));
    let effects = app.update(Msg::FileChanged);
    settle(&mut app, effects);
    let effects = app.act(Action::ToggleTimeline);
    settle(&mut app, effects);
    assert_eq!(
        app.session().expect("built").core.history().epochs.len(),
        2,
        "the new epoch, and the old"
    );
    app.act(Action::Back);
    // Replaced by a shorter file: read again, with a notice.
    std::fs::write(&path, lines[..10].join("\n") + "\n").expect("replaced");
    let effects = app.update(Msg::FileChanged);
    settle(&mut app, effects);
    assert!(app.transcript().messages().len() < grown);
    assert!(
        app.status().is_some_and(|s| s.text.contains("replaced")),
        "{:?}",
        app.status()
    );
    // Deleted: what was read stays, and the screen no longer says live.
    std::fs::remove_file(&path).expect("deleted");
    let effects = app.update(Msg::FileChanged);
    settle(&mut app, effects);
    assert!(app.meter().is_none(), "no meter for a file that is gone");
    assert!(
        app.status().is_some_and(|s| s.text.contains("is gone")),
        "{:?}",
        app.status()
    );
    assert!(!app.transcript().messages().is_empty(), "what was read stays");
    let terminal = draw(&app, 160, 45);
    assert!(row_containing(terminal.backend().buffer(), "● live").is_none());
}

/// Opening a followed file reads it once: the first look at it, with nothing written
/// since, makes only the meter, from the read that opened it.
#[test]
fn opening_a_followed_file_makes_its_meter_without_reading_it_again() {
    let (_lines, _dir, _path, mut app, effects) = following_a_real_log(40);
    let done = run_job(take_job(effects, JobKind::Reload));
    assert!(
        matches!(&done, Done::Reloaded { result: Ok(r), .. } if matches!(**r, jobs::Reloaded::Unchanged { .. })),
        "{done:?}"
    );
    deliver(&mut app, done);
    let meter = ctxlens::meter::meter(app.transcript(), app.counts(), None);
    assert_eq!(app.meter(), Some(&meter));
    assert_eq!(app.follow().expect("followed").grown(), 0);
}

/// A file followed a few records at a time (the transcript and its counts grown in place
/// as the worker reads on) is at every step what reading it whole gives: its messages,
/// their counts and its meter.
#[test]
fn a_file_followed_record_by_record_is_at_each_step_the_file_read_whole() {
    use std::io::Write;
    let (lines, _dir, path, mut app, effects) = following_a_real_log(20);
    settle(&mut app, effects);
    let (mut at, mut steps) = (20, 0);
    while at < lines.len() {
        let next = (at + 1 + at % 3).min(lines.len());
        let mut file = std::fs::OpenOptions::new().append(true).open(&path).expect("opens");
        file.write_all((lines[at..next].join("\n") + "\n").as_bytes())
            .expect("appended");
        let effects = app.update(Msg::FileChanged);
        settle(&mut app, effects);
        let whole = Transcript::read(&path, None).expect("loads");
        let counts = ctxlens::tokens::Counts::compute(&whole, app.tokenizer());
        assert_eq!(app.transcript().messages(), whole.messages(), "at line {next}");
        assert!(app.counts().iter().eq(counts.iter()), "at line {next}: counts");
        assert_eq!(
            app.meter(),
            Some(&ctxlens::meter::meter(&whole, &counts, None)),
            "at line {next}"
        );
        assert_eq!(
            app.provider_gap(),
            ctxlens::tokens::media::provider_gap(&whole, &counts),
            "at line {next}"
        );
        assert_eq!(
            app.calibration(),
            ctxlens::calibrate::calibrate(&whole, &counts).as_ref(),
            "at line {next}"
        );
        at = next;
        steps += 1;
    }
    let grown = app.follow().expect("followed").grown();
    assert!(grown * 2 > steps, "grown in place at {grown} of {steps} steps");
}

/// Sessions being written now are marked, counted in the header, shown alone with
/// `--live`, and a session scanned again replaces its row instead of adding one.
#[test]
fn the_browser_marks_the_sessions_being_written_now() {
    use ctxlens::tui::browser::{Browser, Entry};
    let dir = common::data().join("real-transcripts/claude-code-jsonl");
    let scan = |name: &str| ctxlens::scan::scan_file(&dir.join(name), Tokenizer::Estimate, None).expect("scans");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let mut live = scan("codemie-autocompact-624a4a58.jsonl");
    live.modified_unix = now - 10;
    live.last_activity = ctxlens::text::rfc3339(std::time::UNIX_EPOCH + std::time::Duration::from_secs(now - 12));
    let mut old = scan("ccl-sample-37f83ec9.jsonl");
    old.modified_unix = now - 86_400;
    // A file touched just now (copied, checked out) whose log ends months ago is not
    // being written.
    let mut copied = scan("sniffly-ai-music-d3ad4cdc.jsonl");
    copied.modified_unix = now - 5;
    for live_only in [false, true] {
        let mut browser = Browser::new(vec![dir.clone()], 2, Theme::colored());
        if live_only {
            browser = browser.live_only();
        }
        browser.update(&Action::Resize(160, 20));
        browser.add(Entry::Session(Box::new(live.clone())));
        browser.add(Entry::Session(Box::new(old.clone())));
        browser.add(Entry::Session(Box::new(copied.clone())));
        assert_eq!(browser.live_paths(), vec![std::path::PathBuf::from(&live.path)]);
        let shown: Vec<&str> = browser.shown_sessions().iter().map(|s| s.path.as_str()).collect();
        assert_eq!(shown.len(), if live_only { 1 } else { 3 }, "{shown:?}");
        let terminal = draw_browser(&browser);
        let buffer = terminal.backend().buffer();
        assert!(row_containing(buffer, "● 1 being written now").is_some());
        let row = line_of(
            buffer,
            row_containing(buffer, "/clear")
                .or_else(|| row_containing(buffer, "ARCHITECTURE"))
                .expect("the live row"),
        );
        assert!(row.contains(" ● "), "{row}");
        // Scanned again (it grew): the row is replaced, not doubled.
        let mut grown = live.clone();
        grown.messages += 1;
        browser.add(Entry::Session(Box::new(grown)));
        assert_eq!(browser.progress().0, 3);
        assert!(browser.shown_sessions().iter().any(|s| s.messages == live.messages + 1));
    }
}

/// Runs a job of `kind` as a worker would and keeps what it tells on the way: its
/// answer, and each `(done, of)` it told, which must be progress of that kind only, at
/// least once, always further and never past the whole.
fn run_telling(job: Job, kind: JobKind) -> (Done, Vec<(usize, usize)>) {
    let told = std::cell::RefCell::new(Vec::new());
    let done = jobs::run(job, &CancelToken::new(), &|d| told.borrow_mut().push(d));
    let mut last = 0;
    let steps: Vec<(usize, usize)> = told
        .into_inner()
        .into_iter()
        .map(|progress| {
            let Done::Progressed {
                kind: told_kind,
                done,
                of,
                ..
            } = progress
            else {
                panic!("only progress is told before the end")
            };
            assert_eq!(told_kind, kind);
            assert!(done > last && done <= of, "{done} of {of} after {last}");
            last = done;
            (done, of)
        })
        .collect();
    assert!(!steps.is_empty(), "{kind:?} tells its progress");
    (done, steps)
}

/// The sweep chart tells how far its replays are while they run, with the time left.
#[test]
fn the_sweep_tells_how_far_it_is_while_it_runs() {
    let mut app = fixture_app();
    let effects = app.act(Action::ToggleSweep);
    let effects = deliver(&mut app, run_job(take_job(effects, JobKind::Session)));
    let (done, told) = run_telling(take_job(effects, JobKind::Sweep), JobKind::Sweep);
    for (done, of) in told {
        deliver(
            &mut app,
            Done::Progressed {
                kind: JobKind::Sweep,
                done,
                of,
                elapsed: std::time::Duration::from_secs(2),
            },
        );
        let terminal = draw(&app, 120, 36);
        let words = format!("replayed {done} of {of} budgets");
        assert!(row_containing(terminal.backend().buffer(), &words).is_some(), "{words}");
    }
    deliver(&mut app, done);
    assert!(app.sweep().is_some());
    let terminal = draw(&app, 120, 36);
    assert!(
        row_containing(terminal.backend().buffer(), "replayed").is_none(),
        "gone once done"
    );
}

/// `l` with the extractive summarizer waits for a summary, then for the report: each
/// waiting box tells how many messages are read, of how many, and the time left.
#[test]
fn the_summary_and_the_loss_report_tell_how_far_they_are() {
    let config = Config {
        summarizer: Spec::Extractive,
        ..config(Some(2000), Some(800))
    };
    let mut app = open(fixture(), config, (120, 36));
    let mut effects = app.act(Action::ToggleLoss);
    for kind in [JobKind::Summary, JobKind::Loss] {
        let (done, told) = run_telling(take_job(effects, kind), kind);
        for (done, of) in told {
            deliver(
                &mut app,
                Done::Progressed {
                    kind,
                    done,
                    of,
                    elapsed: std::time::Duration::from_millis(300),
                },
            );
            let terminal = draw(&app, 120, 36);
            let words = format!("read {done} of {of} messages");
            assert!(
                row_containing(terminal.backend().buffer(), &words).is_some(),
                "{kind:?}: {words}"
            );
            assert!(row_containing(terminal.backend().buffer(), "s left").is_some());
        }
        effects = deliver(&mut app, done);
    }
    assert!(matches!(app.mode(), Mode::Loss { .. }), "the report is shown");
    let terminal = draw(&app, 120, 36);
    assert!(
        row_containing(terminal.backend().buffer(), "s left").is_none(),
        "gone once done"
    );
}
