//! Results carry their inputs: random interleavings of setting changes, cancellations
//! and worker completions — including results that arrive after the app moved on, as
//! when a cancellation comes too late — and, for every export that is written, a check
//! that each message of the input is kept or summarized exactly once.

use crate::common;

use ctxlens::cancel::CancelToken;
use ctxlens::summarize::Spec;
use ctxlens::transcript::Transcript;
use ctxlens::tui::action::Action;
use ctxlens::tui::app::{App, Config, Effect, Mode, Msg};
use ctxlens::tui::jobs::{self, Done, Job};
use ctxlens::tui::theme::Theme;
use proptest::prelude::*;
use serde_json::Value;

/// One step of the user or of the workers.
#[derive(Debug, Clone)]
enum Step {
    /// A key.
    Act(Action),
    /// Export to a fresh file.
    Export,
    /// Esc (cancels a wait).
    Esc,
    /// The worker with this index (modulo the started jobs) finishes now, even if its
    /// kind was cancelled or superseded since.
    Finish(usize),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => prop_oneof![
            Just(Action::MaxUp),
            Just(Action::MaxDown),
            Just(Action::MaxUpBig),
            Just(Action::MaxDownBig),
            Just(Action::KeepUp),
            Just(Action::KeepDown),
            Just(Action::KeepUpBig),
            Just(Action::KeepDownBig),
            Just(Action::ToggleFlush),
            Just(Action::CycleTokenizer),
            Just(Action::TogglePreview),
            Just(Action::ToggleLoss),
        ]
        .prop_map(Step::Act),
        2 => Just(Step::Export),
        1 => Just(Step::Esc),
        4 => any::<usize>().prop_map(Step::Finish),
    ]
}

/// The messages of a JSON document's list, as values.
fn messages(text: &str) -> Vec<Value> {
    let value: Value = serde_json::from_str(text).expect("JSON");
    match value {
        Value::Array(items) => items,
        other => other["messages"].as_array().cloned().unwrap_or_default(),
    }
}

/// Every input message is kept (head or tail, unchanged) or summarized, exactly once:
/// the summary says how many messages it covers (the extractive summary starts with
/// "N earlier messages.").
fn assert_each_message_once(input: &[Value], output: &str) -> Result<(), TestCaseError> {
    let out = messages(output);
    if out == input {
        return Ok(());
    }
    let head = usize::from(input.first().is_some_and(|m| m["role"] == "system") && out.first() == input.first());
    let summary = out.get(head).and_then(|m| m["content"].as_str()).unwrap_or_default();
    let body = summary
        .strip_prefix("[Summary of earlier conversation]\n")
        .ok_or_else(|| TestCaseError::fail(format!("no summary after the head: {summary:?}")))?;
    let covered: usize = body
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| TestCaseError::fail(format!("summary without its count: {body:?}")))?;
    let reminder = usize::from(out.get(head + 1).is_some_and(|m| {
        m["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("Before continuing"))
    }));
    let tail = &out[head + 1 + reminder..];
    prop_assert!(tail.len() <= input.len());
    prop_assert_eq!(
        tail,
        &input[input.len() - tail.len()..],
        "the tail is the input's last messages"
    );
    prop_assert_eq!(
        head + covered + tail.len(),
        input.len(),
        "head {} + summarized {} + tail {} must be every message once",
        head,
        covered,
        tail.len()
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_export_keeps_or_summarizes_each_message_once(steps in prop::collection::vec(step(), 1..60)) {
        let bytes = std::fs::read(common::repo().join("sample-transcripts/support-agent.json")).expect("sample");
        let input = messages(std::str::from_utf8(&bytes).expect("UTF-8"));
        let transcript = Transcript::parse("support-agent.json", bytes, None).expect("loads");
        let config = Config {
            max_tokens: Some(1200),
            keep_tail: Some(500),
            summarizer: Spec::Extractive,
            theme: Theme::plain(),
            ..Config::default()
        };
        let (mut app, first) = App::new(transcript, config);
        let mut started: Vec<Job> = Vec::new();
        let collect = |effects: Vec<Effect>, started: &mut Vec<Job>| {
            for effect in effects {
                if let Effect::Start(job) = effect {
                    started.push(job);
                }
            }
        };
        collect(first, &mut started);
        collect(app.act(Action::Resize(120, 36)), &mut started);
        let dir = tempfile::tempdir().expect("temp dir");
        for (k, step) in steps.into_iter().enumerate() {
            match step {
                Step::Act(action) => {
                    if !matches!(app.mode(), Mode::Normal) {
                        collect(app.act(Action::Back), &mut started);
                    }
                    collect(app.act(action), &mut started);
                }
                Step::Esc => collect(app.act(Action::Back), &mut started),
                Step::Export => {
                    if !matches!(app.mode(), Mode::Normal) {
                        collect(app.act(Action::Back), &mut started);
                    }
                    collect(app.act(Action::Export), &mut started);
                    let path = dir.path().join(format!("out-{k}.json"));
                    for c in path.display().to_string().chars() {
                        collect(app.act(Action::PromptChar(c)), &mut started);
                    }
                    collect(app.act(Action::PromptSubmit), &mut started);
                }
                Step::Finish(pick) if !started.is_empty() => {
                    let job = started.remove(pick % started.len());
                    let done = jobs::run(job, &CancelToken::new(), &|_| {});
                    let wrote = matches!(&done, Done::Exported { result: Ok(_), .. });
                    let path = match &done {
                        Done::Exported { path, .. } => Some(path.clone()),
                        _ => None,
                    };
                    collect(app.update(Msg::Job(Box::new(done))), &mut started);
                    if let (true, Some(path)) = (wrote, path) {
                        let text = std::fs::read_to_string(&path).expect("the export");
                        assert_each_message_once(&input, &text)?;
                    }
                }
                Step::Finish(_) => {}
            }
        }
        // Let the remaining work finish, newest last, and check those exports too.
        while let Some(job) = started.pop() {
            let done = jobs::run(job, &CancelToken::new(), &|_| {});
            if let Done::Exported { path, result: Ok(_) } = &done {
                let text = std::fs::read_to_string(path).expect("the export");
                assert_each_message_once(&input, &text)?;
            }
            collect(app.update(Msg::Job(Box::new(done))), &mut started);
        }
    }
}
