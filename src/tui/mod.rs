//! The interactive TUI. [`run`] owns the terminal (raw mode, alternate screen, mouse)
//! and restores it on every exit: `q`, an error, a panic, SIGTERM/SIGINT/SIGHUP.
//! Events from the input thread, the signal thread and the workers arrive on one
//! channel; each becomes an [`action::Action`] for [`app::App::update`], whose
//! [`app::Effect`] the loop then carries out.

pub mod action;
pub mod app;
pub mod event;
pub mod keys;
pub mod preview;
pub mod search;
pub mod theme;
pub mod ui;
pub mod widgets;
pub mod worker;

use std::io::stdout;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;

use ratatui::crossterm::event::{DisableMouseCapture, EnableMouseCapture, KeyCode, KeyEvent, KeyModifiers};
use ratatui::crossterm::execute;
use ratatui::DefaultTerminal;

use self::action::Action;
use self::app::{App, Effect, Mode};
use self::event::Event;
use crate::cli::table::thousands;
use crate::compact::deterministic::DirStore;
use crate::compact::{apply, DeterministicOptions};
use crate::export::write_atomic;
use crate::summarize::Placeholder;

/// Runs the TUI until the user quits; `first` is the effect `App::new` returned.
pub fn run(mut app: App, first: Effect) -> anyhow::Result<()> {
    let mut guard = TerminalGuard::enter()?;
    let (events, inbox) = mpsc::channel();
    event::spawn_input_thread(events.clone());
    event::spawn_signal_thread(events.clone())?;
    let latest = Arc::new(AtomicU64::new(0));
    let size = guard.terminal.size()?;
    app.update(Action::Resize(size.width, size.height));
    let mut pending = vec![first];
    loop {
        pending.extend(app.take_derivation());
        for effect in pending.drain(..) {
            if !perform(effect, &mut app, &mut guard, &events, &latest) {
                return Ok(());
            }
        }
        guard.terminal.draw(|frame| ui::draw(frame, &app))?;
        // While a worker runs, wake up to animate the spinner; otherwise sleep until input.
        let first_event = if app.busy() {
            match inbox.recv_timeout(std::time::Duration::from_millis(100)) {
                Ok(event) => event,
                Err(mpsc::RecvTimeoutError::Timeout) => Event::Action(Action::Tick),
                Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(()),
            }
        } else {
            inbox.recv()?
        };
        // Apply everything already queued before drawing again (held keys, progress).
        for event in std::iter::once(first_event).chain(inbox.try_iter()) {
            pending.push(match event {
                Event::Terminate => Effect::Quit,
                Event::Key(key) => key_action(&app, &key).map_or(Effect::None, |a| app.update(a)),
                Event::Action(action) => app.update(action),
            });
        }
    }
}

/// The action of a key press in the app's current mode.
pub fn key_action(app: &App, key: &KeyEvent) -> Option<Action> {
    match &app.mode {
        Mode::Prompt(_) => match key.code {
            KeyCode::Enter => Some(Action::PromptSubmit),
            KeyCode::Esc => Some(Action::Back),
            KeyCode::Backspace => Some(Action::PromptBackspace),
            KeyCode::Tab => Some(Action::PromptTab),
            KeyCode::Char('c') if key.modifiers.contains(KeyModifiers::CONTROL) => Some(Action::Back),
            KeyCode::Char(c) => Some(Action::PromptChar(c)),
            _ => None,
        },
        Mode::Normal => keys::action_for(key, keys::Context::Main),
        Mode::Help { .. } | Mode::Preview(_) | Mode::Loss { .. } => keys::action_for(key, keys::Context::Overlay),
        Mode::Waiting(_) => matches!(key.code, KeyCode::Esc | KeyCode::Char('q')).then_some(Action::Back),
    }
}

/// Carries out an effect; false means quit.
fn perform(
    effect: Effect,
    app: &mut App,
    guard: &mut TerminalGuard,
    events: &Sender<Event>,
    latest: &Arc<AtomicU64>,
) -> bool {
    match effect {
        Effect::Summarize { generation } => {
            if let Some(job) = summary_job(app) {
                let events = events.clone();
                std::thread::spawn(move || {
                    let result = job();
                    let _ = events.send(Event::Action(Action::SummaryReady { generation, result }));
                });
            }
        }
        Effect::BuildPreview { generation } => {
            let job = preview::PreviewState::job(app);
            let events = events.clone();
            std::thread::spawn(move || {
                let preview = Box::new(job());
                let _ = events.send(Event::Action(Action::PreviewReady { generation, preview }));
            });
        }
        Effect::Derive { generation } => {
            let job = derive_job(app);
            let events = events.clone();
            std::thread::spawn(move || {
                let result = job().map(app::DerivedHandle);
                let _ = events.send(Event::Action(Action::DerivedReady { generation, result }));
            });
        }
        Effect::EditSummary(text) => {
            let result = guard.suspended(|| edit_in_editor(&text));
            app.update(Action::SummaryEdited(result));
        }
        Effect::None => {}
        Effect::Quit => return false,
        Effect::Count { tokenizer, generation } => {
            worker::spawn_count(
                Arc::clone(&app.transcript),
                tokenizer,
                generation,
                Arc::clone(latest),
                events.clone(),
            );
        }
        Effect::CancelCount { generation } => latest.store(generation, Ordering::SeqCst),
        Effect::Export(path) => {
            let job = export_job(app, &path);
            let events = events.clone();
            app.status = Some(app::Status {
                text: format!("writing {}…", path.display()),
                error: false,
            });
            std::thread::spawn(move || {
                let _ = events.send(Event::Action(Action::Exported(job())));
            });
        }
    }
    true
}

/// The summary of the app's current cut, as a job for a worker thread.
pub fn summary_job(app: &App) -> Option<impl FnOnce() -> Result<String, String> + Send + 'static> {
    let (transcript, range) = app.summary_job()?;
    let spec = app.summarizer.clone();
    let settings = app.summary_settings.clone();
    Some(move || {
        let summarizer = crate::summarize::build(&spec, &settings);
        let older = crate::summarize::older_messages(&transcript, range, summarizer.needs_text());
        summarizer.summarize(&older).map_err(|e| format!("{e:#}"))
    })
}

/// The deterministic pass of the app's current counts, as a job for a worker thread:
/// phase 1 (the TUI has no key for subjective edits), then its output reloaded and counted.
pub fn derive_job(app: &App) -> impl FnOnce() -> Result<Arc<app::Derived>, String> + Send + 'static {
    let (transcript, counts, settings) = app.derive_inputs();
    let tokenizer = app.tokenizer;
    move || {
        let compressed = crate::compact::deterministic::compress(
            &transcript,
            &counts,
            &settings,
            &mut crate::compact::deterministic::DryRun,
        )
        .map_err(|e| format!("{e:#}"))?;
        let (reloaded, reloaded_counts) =
            crate::compact::reload(&transcript, &compressed, &counts).map_err(|e| format!("{e:#}"))?;
        Ok(Arc::new(app::Derived {
            tokenizer,
            compressed,
            transcript: Arc::new(reloaded),
            counts: Arc::new(reloaded_counts),
        }))
    }
}

/// Opens `text` in `$VISUAL`, `$EDITOR` or `vi`, and returns what was saved.
fn edit_in_editor(text: &str) -> Result<String, String> {
    let file = tempfile::Builder::new()
        .prefix("ctxlens-summary-")
        .suffix(".txt")
        .tempfile()
        .map_err(|e| e.to_string())?;
    std::fs::write(file.path(), text).map_err(|e| e.to_string())?;
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .unwrap_or_else(|_| "vi".to_owned());
    let status = std::process::Command::new("sh")
        .args(["-c", &format!("{editor} \"$1\""), "editor"])
        .arg(file.path())
        .status()
        .map_err(|e| format!("{editor}: {e}"))?;
    if !status.success() {
        return Err(format!("{editor} exited with {status}"));
    }
    std::fs::read_to_string(file.path()).map_err(|e| e.to_string())
}

/// Writes the compacted transcript to `path` with the current strategy (atomically,
/// never over the input; externalized output goes to `<path>.artifacts/`) and says what
/// was written. The loop runs [`export_job`] on a worker; this is the same, inline.
pub fn export(app: &App, path: &Path) -> Result<String, String> {
    export_job(app, path)()
}

/// An export as a job for a worker thread: it owns what it needs.
pub fn export_job(app: &App, path: &Path) -> impl FnOnce() -> Result<String, String> + Send + 'static {
    let inputs = ApplyInputs::of(app);
    let (input, path) = (app.input_path.clone(), path.to_path_buf());
    move || {
        let name = path
            .file_name()
            .map_or_else(|| "export".into(), |n| n.to_string_lossy().into_owned());
        let folder = path.with_file_name(format!("{name}.artifacts"));
        let mut store = DirStore::new(&folder);
        let applied = inputs.apply(&mut store).map_err(|e| format!("{e:#}"))?;
        write_atomic(&path, applied.output.as_bytes(), input.as_deref(), false).map_err(|e| format!("{e:#}"))?;
        let mut parts = vec![format!(
            "{} → {} tokens",
            thousands(applied.tokens_before),
            thousands(applied.tokens_after)
        )];
        if let Some(cut) = applied.plan.as_ref().and_then(|p| p.cut()) {
            parts.push(format!("{} messages summarized", cut.summarized()));
        }
        if let Some(c) = &applied.compressed {
            parts.push(format!("{} deterministic edits", c.edits.len()));
        }
        if !store.stored.is_empty() {
            parts.push(format!("{} outputs stored in {}", store.stored.len(), folder.display()));
        }
        if applied.output == inputs.input_text() {
            parts.push("identical to the input".to_owned());
        }
        Ok(format!("wrote {}: {}", path.display(), parts.join(", ")))
    }
}

/// What preview and export hand to `compact::apply`, owned so a worker can run it.
pub struct ApplyInputs {
    transcript: Arc<crate::transcript::Transcript>,
    counts: Arc<crate::tokens::Counts>,
    strategy: crate::compact::Strategy,
    options: crate::compact::Options,
    summary: crate::summarize::Fixed,
}

impl ApplyInputs {
    /// The app's current transcript, counts, strategy, options and summary.
    pub fn of(app: &App) -> ApplyInputs {
        ApplyInputs {
            transcript: Arc::clone(&app.transcript),
            counts: app.counts_arc(),
            strategy: app.strategy,
            options: app.options,
            summary: summary_of(app),
        }
    }

    /// Runs the strategy through the core `compact::apply`.
    pub fn apply(
        &self,
        store: &mut dyn crate::compact::deterministic::ArtifactStore,
    ) -> anyhow::Result<crate::compact::Applied> {
        apply(
            &self.transcript,
            &self.counts,
            self.strategy,
            &self.options,
            DeterministicOptions::default(),
            store,
            &self.summary,
        )
    }

    /// The transcript's own text (to tell an unchanged output).
    pub fn input_text(&self) -> &str {
        &self.transcript.text
    }

    /// The strategy's name.
    pub fn strategy_name(&self) -> &'static str {
        self.strategy.name()
    }
}

/// The summary the preview and export use: the one made for the current cut (or the
/// user's edit of it), else the placeholder.
pub fn summary_of(app: &App) -> crate::summarize::Fixed {
    let placeholder = || Placeholder::text(app.plan.cut().map_or(0, crate::compact::Cut::summarized));
    crate::summarize::Fixed(app.summary_text().map_or_else(placeholder, str::to_owned))
}

/// Raw mode, the alternate screen and mouse capture for as long as it lives; restored on
/// drop and by the panic hook.
struct TerminalGuard {
    terminal: DefaultTerminal,
}

impl TerminalGuard {
    fn enter() -> std::io::Result<TerminalGuard> {
        // ratatui's init installs a panic hook that leaves raw mode and the alternate
        // screen; ours, chained in front, also releases the mouse.
        let terminal = ratatui::try_init()?;
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = execute!(stdout(), DisableMouseCapture);
            previous(info);
        }));
        execute!(stdout(), EnableMouseCapture)?;
        Ok(TerminalGuard { terminal })
    }
}

impl TerminalGuard {
    /// Runs `f` with the terminal given back (cooked mode, main screen), as when an
    /// editor runs, then takes it again.
    fn suspended<T>(&mut self, f: impl FnOnce() -> T) -> T {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
        let result = f();
        if let Ok(terminal) = ratatui::try_init() {
            self.terminal = terminal;
        }
        let _ = execute!(stdout(), EnableMouseCapture);
        let _ = self.terminal.clear();
        result
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        let _ = execute!(stdout(), DisableMouseCapture);
        ratatui::restore();
    }
}
