//! The TUI without a terminal: `App::update` driven by actions, snapshots of every screen
//! on ratatui's `TestBackend`, and the key styles asserted on the `Buffer`.

mod common;

use std::sync::atomic::AtomicU64;
use std::sync::{mpsc, Arc};

use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;
use ctxlens::tui::action::Action;
use ctxlens::tui::app::{App, Effect, Mode, Pane};
use ctxlens::tui::event::Event;
use ctxlens::tui::theme::Theme;
use ctxlens::tui::{ui, worker};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::Color;
use ratatui::Terminal;

fn fixture() -> Transcript {
    let bytes = std::fs::read(common::shared().join("conformance/toolnexus-fixture-transcript.json")).expect("fixture");
    Transcript::parse("fixture.json", bytes, None).expect("valid")
}

fn sample(name: &str) -> Transcript {
    let bytes = std::fs::read(common::repo().join("sample-transcripts").join(name)).expect("sample");
    Transcript::parse(name, bytes, None).expect("valid")
}

/// The fixture at max 2000 / `keep_tail` 800 (split 101), in colour, on a 120×36 screen.
fn fixture_app() -> App {
    let (mut app, effect) = App::new(fixture(), None, Some(2000), Some(800), false, Tokenizer::Estimate);
    assert_eq!(effect, Effect::None);
    app.theme = Theme::colored();
    // Figures in these tests are pinned with the placeholder summary.
    app.summarizer = ctxlens::summarize::Spec::Placeholder;
    app.update(Action::Resize(120, 36));
    app
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

fn cell_at_text<'a>(buffer: &'a Buffer, needle: &str, offset: u16) -> &'a ratatui::buffer::Cell {
    let y = row_containing(buffer, needle).unwrap_or_else(|| panic!("{needle:?} on screen"));
    let line: Vec<&str> = (0..buffer.area.width).map(|x| buffer[(x, y)].symbol()).collect();
    let joined: String = line.concat();
    let byte = joined.find(needle).expect("found");
    let x = joined[..byte].chars().count() as u16 + offset;
    &buffer[(x, y)]
}

// ---- state, driven by actions --------------------------------------------------------

#[test]
fn the_fixture_opens_with_the_documented_plan() {
    let app = fixture_app();
    let cut = app.plan.cut().expect("compacts");
    assert_eq!(
        (app.plan.tokens_before, cut.split, cut.summarized(), app.tokens_after),
        (4752, 101, 100, 824)
    );
}

#[test]
fn tuning_replans_at_once() {
    let mut app = fixture_app();
    app.update(Action::MaxUp);
    assert_eq!(app.options.max_tokens, 2050, "a small step is 1% of 4,752, rounded");
    assert!(app
        .status
        .as_ref()
        .expect("status")
        .text
        .starts_with("max_tokens 2,050: split at #101"));
    app.update(Action::KeepUpBig);
    assert_eq!(app.plan.keep_tail, 1300);
    assert_eq!(
        app.plan.cut().expect("compacts").split,
        89,
        "suffix(89) = 1,264 ≤ 1,300"
    );
    for _ in 0..10 {
        app.update(Action::MaxUpBig);
    }
    assert!(!app.plan.compacts(), "far over the total it is a no-op");
    app.update(Action::ToggleFlush);
    assert!(app.options.flush_to_memory);
}

#[test]
fn exact_values_are_typed_in_a_prompt() {
    let mut app = fixture_app();
    app.update(Action::EnterValue);
    for _ in 0..4 {
        app.update(Action::PromptBackspace);
    }
    for c in "3,000".chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::PromptSubmit);
    assert_eq!(app.options.max_tokens, 3000);
    app.update(Action::EnterValue);
    app.update(Action::PromptTab);
    let Mode::Prompt(prompt) = &app.mode else {
        panic!("prompt open")
    };
    assert_eq!(prompt.input, "800", "Tab switches to keep_tail with its value");
    app.update(Action::PromptChar('x'));
    app.update(Action::PromptSubmit);
    assert!(app.status.as_ref().expect("status").error, "not a number is reported");
    assert_eq!(app.plan.keep_tail, 800);
}

/// Builds the preview a `BuildPreview` effect asks for, as the worker would.
fn preview_now(app: &mut App, effect: &Effect) {
    let Effect::BuildPreview { generation } = *effect else {
        panic!("a preview to build: {effect:?}")
    };
    let preview = Box::new(ctxlens::tui::preview::PreviewState::job(app)());
    app.update(Action::PreviewReady { generation, preview });
}

/// Delivers the counts a `Count` effect asks for, as the worker would.
fn count_now(app: &mut App, effect: &Effect) {
    let Effect::Count { tokenizer, generation } = *effect else {
        panic!("a count to run: {effect:?}")
    };
    let counts = Arc::new(Counts::compute(&app.transcript, tokenizer));
    app.update(Action::CountDone { generation, counts });
}

#[test]
fn a_tokenizer_switch_counts_in_the_worker_and_the_counts_arrive() {
    let mut app = fixture_app();
    for expected in [Tokenizer::EstimateCodepoints, Tokenizer::EstimateUtf8] {
        let effect = app.update(Action::CycleTokenizer);
        assert!(
            matches!(effect, Effect::Count { tokenizer, .. } if tokenizer == expected),
            "{effect:?}"
        );
        count_now(&mut app, &effect);
        assert_eq!(app.tokenizer, expected);
    }
    let Effect::Count { tokenizer, generation } = app.update(Action::CycleTokenizer) else {
        panic!("cl100k is counted in the background");
    };
    assert_eq!(tokenizer, Tokenizer::Cl100k);
    assert_eq!(
        app.tokenizer,
        Tokenizer::EstimateUtf8,
        "estimates stay on screen meanwhile"
    );
    assert!(app.counting.is_some());

    let (events, inbox) = mpsc::channel();
    worker::spawn_count(
        Arc::clone(&app.transcript),
        tokenizer,
        generation,
        Arc::new(AtomicU64::new(0)),
        events,
    );
    let mut progress_seen = false;
    for event in inbox {
        let Event::Action(action) = event else {
            panic!("only actions come from a worker")
        };
        progress_seen |= matches!(action, Action::CountProgress { .. });
        let done = matches!(action, Action::CountDone { .. });
        app.update(action);
        if done {
            break;
        }
    }
    assert!(progress_seen);
    assert_eq!(app.tokenizer, Tokenizer::Cl100k);
    assert!(app.counting.is_none());
    assert_eq!(
        app.plan.tokens_before,
        Counts::compute(&app.transcript, Tokenizer::Cl100k).total()
    );
    // Counted once: cycling back to a cached tokenizer is immediate.
    for _ in 0..3 {
        let effect = app.update(Action::CycleTokenizer);
        if matches!(effect, Effect::Count { .. }) {
            count_now(&mut app, &effect);
        }
    }
    assert_eq!(app.tokenizer, Tokenizer::EstimateCodepoints);
    assert_eq!(
        app.update(Action::CycleTokenizer),
        Effect::None,
        "estimate-utf8 is cached"
    );
}

#[test]
fn a_stale_count_is_cached_but_not_shown() {
    let mut app = fixture_app();
    for _ in 0..2 {
        let effect = app.update(Action::CycleTokenizer);
        count_now(&mut app, &effect);
    }
    app.update(Action::CycleTokenizer);
    let stale = app.counting.expect("counting").generation;
    let effect = app.update(Action::CycleTokenizer);
    assert!(
        matches!(
            effect,
            Effect::Count {
                tokenizer: Tokenizer::O200k,
                ..
            }
        ),
        "{effect:?}"
    );
    let counts = Arc::new(Counts::compute(&app.transcript, Tokenizer::Cl100k));
    app.update(Action::CountDone {
        generation: stale,
        counts,
    });
    assert_eq!(app.tokenizer, Tokenizer::EstimateUtf8);
    assert!(app.counts_by(Tokenizer::Cl100k).is_some());
    assert!(matches!(app.counting, Some(c) if c.tokenizer == Tokenizer::O200k));
}

#[test]
fn search_selects_matches_and_steps_through_them() {
    let mut app = fixture_app();
    app.update(Action::Search);
    for c in "question 25".chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::PromptSubmit);
    assert_eq!(app.selected, 101);
    app.update(Action::Search);
    for c in "answer 2".chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::PromptSubmit);
    let first = app.selected;
    app.update(Action::NextMatch);
    assert!(app.selected > first);
    app.update(Action::PrevMatch);
    assert_eq!(app.selected, first);
}

#[test]
fn export_writes_atomically_and_refuses_the_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("t.json");
    std::fs::copy(
        common::shared().join("conformance/toolnexus-fixture-transcript.json"),
        &input,
    )
    .expect("copy");
    let transcript = Transcript::read(&input, None).expect("loads");
    let (mut app, _) = App::new(
        transcript,
        Some(input.clone()),
        Some(2000),
        Some(800),
        false,
        Tokenizer::Estimate,
    );
    app.summarizer = ctxlens::summarize::Spec::Placeholder;
    app.update(Action::Export);
    let Mode::Prompt(prompt) = &app.mode else {
        panic!("export prompt")
    };
    assert_eq!(prompt.input, dir.path().join("t.compacted.json").display().to_string());
    let Effect::Export(path) = app.update(Action::PromptSubmit) else {
        panic!("export effect")
    };
    let status = ctxlens::tui::export(&app, &path).expect("written");
    assert!(
        status.contains("4,752 → 824 tokens, 100 messages summarized"),
        "{status}"
    );
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).expect("file")).expect("JSON");
    assert_eq!(written.as_array().expect("list").len(), 22);
    let refused = ctxlens::tui::export(&app, &input).expect_err("never over the input");
    assert!(refused.contains("refusing to overwrite"), "{refused}");
}

#[test]
fn navigation_clicks_and_quitting() {
    let mut app = fixture_app();
    app.update(Action::Bottom);
    assert_eq!(app.selected, 120);
    assert!(
        app.row_of_message(120) >= app.list_offset,
        "the selection is scrolled into view"
    );
    app.update(Action::Top);
    // Row 5 of the screen is the list's border, 6 its header, 7 message 0, 9 message 2.
    app.update(Action::Click(10, 9));
    assert_eq!(app.selected, 2);
    app.update(Action::SwitchPane);
    assert_eq!(app.focus, Pane::Detail);
    app.update(Action::Down);
    assert_eq!(
        (app.selected, app.detail_scroll),
        (2, 1),
        "in the detail pane keys scroll"
    );
    app.update(Action::ToggleHelp);
    assert_eq!(app.update(Action::Back), Effect::None, "Esc closes help first");
    assert_eq!(app.mode, Mode::Normal);
    assert_eq!(app.update(Action::Back), Effect::Quit);
}

// ---- screens --------------------------------------------------------------------------

#[test]
fn screen_list_with_boundary() {
    // Opening selects the first tail message and centres the list on the cut.
    let app = fixture_app();
    assert_eq!(app.selected, 101);
    insta::assert_snapshot!("list_with_boundary", draw(&app, 120, 36).backend());
}

#[test]
fn screen_tool_group_selected() {
    let (mut app, _) = App::new(
        sample("support-agent.json"),
        None,
        Some(1500),
        Some(600),
        false,
        Tokenizer::Estimate,
    );
    app.update(Action::Resize(120, 36));
    let parallel = app
        .transcript
        .messages
        .iter()
        .position(|m| m.tool_calls.len() == 2)
        .expect("a parallel call");
    app.select(parallel);
    insta::assert_snapshot!("tool_group_selected", draw(&app, 120, 36).backend());
}

#[test]
fn screen_detail_focused_and_scrolled() {
    let mut app = fixture_app();
    app.select(3);
    app.update(Action::SwitchPane);
    app.update(Action::Down);
    insta::assert_snapshot!("detail", draw(&app, 120, 36).backend());
}

#[test]
fn screen_help() {
    let mut app = fixture_app();
    app.update(Action::ToggleHelp);
    insta::assert_snapshot!("help", draw(&app, 120, 48).backend());
}

#[test]
fn screen_preview() {
    let mut app = fixture_app();
    let effect = app.update(Action::TogglePreview);
    assert!(matches!(app.mode, Mode::Waiting(_)), "built on a worker");
    preview_now(&mut app, &effect);
    insta::assert_snapshot!("preview", draw(&app, 120, 36).backend());
}

#[test]
fn screen_export_prompt() {
    let mut app = fixture_app();
    app.update(Action::Export);
    insta::assert_snapshot!("export_prompt", draw(&app, 120, 36).backend());
}

#[test]
fn screen_small_terminals() {
    let mut app = fixture_app();
    app.update(Action::Resize(70, 16));
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
    app.select(0);
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
    app.select(2);
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
    let (mut app, _) = App::new(transcript, None, Some(1000), None, false, Tokenizer::Estimate);
    app.theme = Theme::colored();
    app.select(1);
    let terminal = draw(&app, 120, 36);
    let buffer = terminal.backend().buffer();
    let mark = cell_at_text(buffer, "!1 assistant", 0);
    assert_eq!(mark.fg, Color::Red, "ORPHAN");
    assert!(
        row_containing(buffer, "orphan: call `x` has no result").is_some(),
        "explained in the detail pane"
    );
}

// ---- strategies ------------------------------------------------------------------------

/// A coding-agent transcript whose tool outputs are big enough for the deterministic pass.
fn big_tools_app() -> App {
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
    let transcript =
        Transcript::parse("agent.json", serde_json::to_vec_pretty(&messages).expect("json"), None).expect("valid");
    let (mut app, _) = App::new(transcript, None, Some(2000), None, false, Tokenizer::Estimate);
    app.theme = Theme::colored();
    app.update(Action::Resize(120, 40));
    app
}

/// Runs the deterministic pass the app asks for, as the worker would, and delivers it.
fn derive_now(app: &mut App) {
    let Some(Effect::Derive { generation }) = app.take_derivation() else {
        panic!("a pass to run")
    };
    assert!(app.busy(), "the spinner turns while it runs");
    let result = ctxlens::tui::derive_job(app)().map(ctxlens::tui::app::DerivedHandle);
    app.update(Action::DerivedReady { generation, result });
    assert!(app.take_derivation().is_none(), "made once");
}

#[test]
fn strategies_cycle_and_replan() {
    let mut app = big_tools_app();
    let tail_after = app.tokens_after;
    app.update(Action::CycleStrategy);
    assert_eq!(app.strategy, ctxlens::compact::Strategy::Deterministic);
    assert!(
        app.deterministic().is_none(),
        "the pass runs on a worker, not in update"
    );
    derive_now(&mut app);
    let d = app.deterministic().expect("the pass ran");
    let rules: Vec<&str> = d.compressed.edits.iter().map(|e| e.rule.name()).collect();
    assert_eq!(
        rules,
        ["externalize", "tool_json"],
        "the 13 KB log is stored, the rows are pruned"
    );
    assert!(!app.plan.compacts(), "deterministic alone does not cut a tail");
    assert_eq!(app.tokens_after, d.compressed.tokens_after);
    app.update(Action::CycleStrategy);
    assert_eq!(app.strategy, ctxlens::compact::Strategy::DeterministicThenTail);
    assert_eq!(
        app.plan.tokens_before,
        app.deterministic().expect("pass").compressed.tokens_after
    );
    let derived_total = app.plan.tokens_before;
    assert!(
        derived_total < app.counts().total(),
        "the pass cleared tokens before the tail plan"
    );
    assert!(!app.plan.compacts() || app.plan.cut().expect("cut").split > 0);
    app.update(Action::CycleStrategy);
    assert_eq!(app.strategy, ctxlens::compact::Strategy::Tail);
    assert_eq!(app.tokens_after, tail_after);
}

#[test]
fn deterministic_export_stores_artifacts_beside_the_output() {
    let mut app = big_tools_app();
    app.update(Action::CycleStrategy);
    derive_now(&mut app);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.json");
    let status = ctxlens::tui::export(&app, &path).expect("written");
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
    app.update(Action::CycleStrategy);
    derive_now(&mut app);
    app.select(4);
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
        std::fs::read(common::shared().join("real-transcripts/claude-code-jsonl/codemie-autocompact-624a4a58.jsonl"))
            .expect("log");
    let transcript = Transcript::parse("session.jsonl", bytes, None).expect("loads");
    let (mut app, _) = App::new(transcript, None, Some(40_000), None, false, Tokenizer::Estimate);
    app.theme = Theme::colored();
    app.update(Action::Resize(130, 36));
    app.select(1);
    assert_eq!(
        app.row_at(0),
        Some(ctxlens::tui::app::Row::PastCompaction(0)),
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
    assert!(row_containing(buffer, "recorded prompt 36,541 vs estimate 3,418").is_some());
    insta::assert_snapshot!("claude_code_log", terminal.backend());
}

// ---- summaries and the loss report ------------------------------------------------------

fn extractive_app() -> App {
    let (mut app, _) = App::new(
        sample("support-agent.json"),
        None,
        Some(1500),
        Some(600),
        false,
        Tokenizer::Estimate,
    );
    app.theme = Theme::colored();
    app.summarizer = ctxlens::summarize::Spec::Extractive;
    app.update(Action::Resize(120, 36));
    app
}

/// Runs the app's summary job here, as the worker would, and delivers the result.
fn finish_summary(app: &mut App, generation: u64) -> Effect {
    let job = ctxlens::tui::summary_job(app).expect("a cut to summarize");
    app.update(Action::SummaryReady {
        generation,
        result: job(),
    })
}

#[test]
fn preview_waits_for_a_background_summary_then_uses_it() {
    let mut app = extractive_app();
    let placeholder_after = app.tokens_after;
    let Effect::Summarize { generation } = app.update(Action::TogglePreview) else {
        panic!("summarized in the background")
    };
    assert!(matches!(app.mode, Mode::Waiting(_)));
    let effect = finish_summary(&mut app, generation);
    preview_now(&mut app, &effect);
    let Mode::Preview(preview) = &app.mode else {
        panic!("the preview opens once the summary is ready")
    };
    assert!(
        preview.text.contains("User requests:\\n- #1 Hi, my order #NW-48213"),
        "{}",
        &preview.text[..400]
    );
    assert!(app.tokens_after > placeholder_after, "the real summary is counted now");
    app.update(Action::Back);
    assert!(
        matches!(app.update(Action::TogglePreview), Effect::BuildPreview { .. }),
        "the summary is made once per cut"
    );
}

#[test]
fn the_latest_summary_request_wins_and_esc_cancels() {
    let mut app = extractive_app();
    let Effect::Summarize { generation: first } = app.update(Action::TogglePreview) else {
        panic!("summarize")
    };
    app.update(Action::Back);
    assert_eq!(app.mode, Mode::Normal, "Esc cancels the wait");
    assert_eq!(finish_summary(&mut app, first), Effect::None);
    assert!(app.summary.is_none(), "a cancelled result is dropped");
    let Effect::Summarize { generation } = app.update(Action::ToggleLoss) else {
        panic!("summarize")
    };
    assert!(generation > first);
    app.update(Action::SummaryReady {
        generation,
        result: Err("summarizer command `x` failed".into()),
    });
    assert_eq!(app.mode, Mode::Normal);
    assert!(
        app.status.as_ref().expect("status").error,
        "failures show in the status line"
    );
    assert!(app.summary.is_none(), "and lose nothing");
}

#[test]
fn the_loss_report_and_an_edited_summary() {
    let mut app = extractive_app();
    let Effect::Summarize { generation } = app.update(Action::ToggleLoss) else {
        panic!("summarize")
    };
    finish_summary(&mut app, generation);
    let Mode::Loss { text, .. } = &app.mode else {
        panic!("the loss report opens")
    };
    assert!(
        text.starts_with("Loss report: 30 messages summarized (#1–#30)"),
        "{text}"
    );
    assert!(text.contains("Facts: 19 found, 19 survive (100%)"), "{text}");
    app.update(Action::Back);
    let Effect::EditSummary(current) = app.update(Action::EditSummary) else {
        panic!("the editor opens")
    };
    assert!(current.starts_with("30 earlier messages."));
    app.update(Action::SummaryEdited(Ok(
        "Customer Dana: tent replaced (NW-48377).\n".into()
    )));
    assert!(app.summary.as_ref().expect("summary").edited);
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("out.json");
    ctxlens::tui::export(&app, &path).expect("exported");
    let written: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).expect("file")).expect("json");
    assert_eq!(
        written[1]["content"],
        "[Summary of earlier conversation]\nCustomer Dana: tent replaced (NW-48377)."
    );
    app.update(Action::KeepUpBig);
    assert!(
        matches!(app.update(Action::ToggleLoss), Effect::Summarize { .. }),
        "a new cut needs a new summary"
    );
}

#[test]
fn screen_loss_report() {
    let mut app = extractive_app();
    let Effect::Summarize { generation } = app.update(Action::ToggleLoss) else {
        panic!("summarize")
    };
    finish_summary(&mut app, generation);
    insta::assert_snapshot!("loss_report", draw(&app, 120, 36).backend());
}

#[test]
fn the_spinner_turns_only_while_work_runs() {
    let mut app = extractive_app();
    assert!(!app.busy());
    let Effect::Summarize { generation } = app.update(Action::TogglePreview) else {
        panic!("summarize")
    };
    assert!(app.busy());
    let first = app.spinner();
    app.update(Action::Tick);
    assert_ne!(app.spinner(), first, "each tick is a new frame");
    let effect = finish_summary(&mut app, generation);
    assert!(app.busy(), "then the preview is built");
    preview_now(&mut app, &effect);
    assert!(!app.busy());
}
