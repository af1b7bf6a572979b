//! One strategy core: for every strategy and every sample and real transcript, the
//! command line's `compact -o` and the TUI's export write the same bytes (and the same
//! artifacts), because both call `compact::run`.

use crate::common;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use ctxlens::cancel::CancelToken;
use ctxlens::compact::Strategy;
use ctxlens::summarize::Spec;
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;
use ctxlens::tui::action::Action;
use ctxlens::tui::app::{App, Config, Effect, Mode, Msg};
use ctxlens::tui::jobs;

fn transcripts() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(common::repo().join("sample-transcripts"))
        .expect("samples")
        .map(|e| e.expect("entry").path())
        .collect();
    for folder in std::fs::read_dir(common::data().join("real-transcripts")).expect("real") {
        let folder = folder.expect("entry").path();
        if folder.is_dir() {
            files.extend(
                std::fs::read_dir(folder)
                    .expect("folder")
                    .map(|e| e.expect("entry").path()),
            );
        }
    }
    files.sort();
    files
}

fn settle(app: &mut App, effects: Vec<Effect>) {
    let mut queue: VecDeque<Effect> = effects.into();
    while let Some(effect) = queue.pop_front() {
        if let Effect::Start(job) = effect {
            let done = jobs::run(job, &CancelToken::new(), &|_| {});
            queue.extend(app.update(Msg::Job(Box::new(done))));
        }
    }
}

/// The TUI's export of `file` with `strategy` at `max_tokens`, written to `out`.
fn tui_export(file: &Path, strategy: Strategy, max_tokens: u64, out: &Path) {
    let transcript = Transcript::read(file, None).expect("loads");
    let config = Config {
        input_path: Some(file.to_owned()),
        max_tokens: Some(max_tokens),
        summarizer: Spec::Placeholder,
        ..Config::default()
    };
    let (mut app, effects) = App::new(transcript, config);
    settle(&mut app, effects);
    while app.strategy() != strategy {
        let effects = app.act(Action::CycleStrategy);
        settle(&mut app, effects);
    }
    app.act(Action::Export);
    assert!(matches!(app.mode(), Mode::Prompt(_)), "export prompt");
    for c in out.display().to_string().chars() {
        app.act(Action::PromptChar(c));
    }
    let effects = app.act(Action::PromptSubmit);
    settle(&mut app, effects);
    let status = app.status().expect("a status");
    assert!(!status.error, "{}: {}", file.display(), status.text);
}

fn artifacts(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .map(|e| {
            let path = e.expect("entry").path();
            (
                path.file_name().expect("name").to_string_lossy().into_owned(),
                std::fs::read(&path).expect("artifact"),
            )
        })
        .collect();
    files.sort();
    files
}

#[test]
fn cli_compact_and_tui_export_write_the_same_bytes_for_every_strategy() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut compared = 0;
    for file in transcripts().iter().filter(|f| !f.ends_with("SOURCES.md")) {
        let transcript = Transcript::read(file, None).expect("loads");
        let max_tokens = Counts::compute(&transcript, Tokenizer::Estimate).total() / 2;
        for strategy in Strategy::ALL {
            let stem = format!("{}-{}", file.file_name().expect("name").to_string_lossy(), compared);
            let cli_out = dir.path().join(format!("{stem}.cli"));
            let tui_out = dir.path().join(format!("{stem}.tui"));
            let output = common::ctxlens(&[
                "compact",
                &file.display().to_string(),
                "--max-tokens",
                &max_tokens.to_string(),
                "--strategy",
                strategy.name(),
                "-o",
                &cli_out.display().to_string(),
            ]);
            common::assert_exit(&output, 0);
            tui_export(file, strategy, max_tokens, &tui_out);
            let (cli, tui) = (
                std::fs::read(&cli_out).expect("cli output"),
                std::fs::read(&tui_out).expect("tui output"),
            );
            assert!(
                cli == tui,
                "{} with {}: the CLI and the TUI wrote different bytes",
                file.display(),
                strategy.name()
            );
            let artifacts_of = |p: &Path| artifacts(&ctxlens::compact::artifacts_dir_for(p));
            assert_eq!(artifacts_of(&cli_out), artifacts_of(&tui_out), "same artifacts");
            compared += 1;
        }
    }
    assert!(compared >= 3 * 17, "every strategy of every transcript: {compared}");
}
