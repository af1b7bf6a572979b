//! The interactive TUI (feature `tui`). [`run`] owns the terminal and restores it on
//! every exit: `q`, an error, a panic, SIGTERM/SIGINT/SIGHUP. Keys, terminal events,
//! signals and job results arrive on one channel; keys go through the key table of the
//! current mode, everything becomes a [`app::Msg`] for [`app::App::update`], and the loop
//! carries out the [`app::Effect`]s it returns (jobs go to the [`jobs::runner::Runner`]).

// The terminal is read with poll(2) and restored on Unix signals (input.rs, event.rs):
// elsewhere the UI is refused at compile time rather than built half working.
#[cfg(not(unix))]
compile_error!(
    "ctxlens's terminal UI runs on Unix only (it reads the terminal with poll(2)); build the command line alone with `--no-default-features --features cli,openai`"
);

pub mod action;
pub mod app;
pub mod browser;
pub mod event;
pub mod follow;
pub mod help;
pub mod input;
pub mod jobs;
pub mod keys;
pub mod layout;
pub mod ledger_view;
pub mod preview;
pub mod search;
pub mod terminal;
pub mod theme;
pub mod ui;
pub mod widgets;
pub mod wrap;

use std::collections::VecDeque;
use std::sync::mpsc;
use std::time::Duration;

use ratatui::crossterm::event::KeyEvent;

use self::action::Action;
pub use self::app::Config;
use self::app::{App, Effect, Msg};
use self::event::Event;
use self::jobs::runner::Runner;
use self::jobs::{Done, Job};
use self::terminal::TerminalGuard;
use crate::transcript::Transcript;

/// How the TUI ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exit {
    /// The user quit.
    Quit,
    /// A signal (its number) ended it; the terminal was restored first.
    Signal(i32),
    /// A background job crashed (a bug, with its message); the terminal was restored.
    Crashed(String),
}

/// The terminal and the event sources, set up once for as long as the TUI runs (a
/// browser opens one session after another on them).
struct Screen {
    guard: TerminalGuard,
    events: mpsc::Sender<Event>,
    inbox: mpsc::Receiver<Event>,
    paused: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// Rows of the browser's scan that arrived while a session was open.
    deferred: Vec<browser::Entry>,
}

impl Screen {
    fn open() -> std::io::Result<Screen> {
        let guard = TerminalGuard::enter()?;
        let (events, inbox) = mpsc::channel();
        let paused = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        event::spawn_input_thread(events.clone(), std::sync::Arc::clone(&paused));
        event::spawn_signal_thread(events.clone())?;
        Ok(Screen {
            guard,
            events,
            inbox,
            paused,
            deferred: Vec::new(),
        })
    }
}

/// Runs the TUI on `transcript` until the user quits or a signal arrives.
pub fn run(transcript: Transcript, config: Config) -> std::io::Result<Exit> {
    let mut screen = Screen::open()?;
    let exit = run_session(&mut screen, transcript, config)?;
    drop(screen);
    Ok(exit)
}

/// How often the browser scans again the sessions being written now.
const RESCAN_EVERY: Duration = Duration::from_secs(3);

/// The most time the browser spends adding scanned rows before it draws a frame and
/// reads keys again.
const ROWS_PER_FRAME: Duration = Duration::from_millis(25);

/// The session browser on the session files under `roots`: scanned in the background,
/// Enter opens one in the usual view, leaving it comes back.
pub fn run_browser(roots: Vec<std::path::PathBuf>, config: &Config, live_only: bool) -> std::io::Result<Exit> {
    use browser::{Browser, Entry};
    let found = crate::scan::session_files(&roots);
    let files = found.files;
    let mut screen = Screen::open()?;
    let mut browser = Browser::new(roots, files.len() + found.skipped.len(), config.theme);
    if live_only {
        browser = browser.live_only();
    }
    for skipped in found.skipped {
        browser.add(Entry::Failed(skipped.path.display().to_string(), skipped.reason));
    }
    // The scan is a job like any other: cancelled (and its threads given a moment) when
    // the browser ends, however it ends.
    let mut scanner = Runner::new(screen.events.clone(), |done| Event::Job(Box::new(done)));
    scanner.start(Job::Scan {
        files: std::sync::Arc::new(files),
        tokenizer: config.tokenizer,
        again: false,
        reads: None,
    });
    let exit = browse(&mut screen, &mut browser, &mut scanner, config);
    scanner.shut_down(Duration::from_secs(1));
    exit
}

/// The browser's loop, until the user quits or a signal arrives.
fn browse(
    screen: &mut Screen,
    browser: &mut browser::Browser,
    scanner: &mut Runner<Event>,
    config: &Config,
) -> std::io::Result<Exit> {
    use browser::Effect as BrowserEffect;
    // What each session being written was when it was last scanned: only a file that
    // changed since is scanned again (a large live log costs a whole scan).
    let mut last_scans: std::collections::HashMap<std::path::PathBuf, crate::follow::FileState> =
        std::collections::HashMap::new();
    // And what that scan read, so a file that only grew is read on from there.
    let reads = jobs::ScanReads::default();
    let size = screen.guard.terminal.size()?;
    browser.update(&Action::Resize(size.width, size.height));
    // Rows taken from the inbox and not added yet. Keys are answered before them, and at
    // most [`ROWS_PER_FRAME`] of row work is done between two frames: a scan of tens of
    // thousands of files queues thousands of rows, and a key behind them in the inbox
    // waited for all of them (each a move in a sorted list) before its frame was drawn.
    let mut pending_rows: std::collections::VecDeque<browser::Entry> = std::collections::VecDeque::new();
    loop {
        screen.guard.terminal.draw(|frame| browser::draw(frame, browser))?;
        // Sessions being written now are scanned again every few seconds (their rows
        // update); with none, the loop sleeps until a key or a row arrives — or takes
        // what came in without waiting while rows are still to be added.
        let waited = if pending_rows.is_empty() {
            screen.inbox.recv_timeout(RESCAN_EVERY)
        } else {
            match screen.inbox.try_recv() {
                Ok(event) => Ok(event),
                Err(mpsc::TryRecvError::Empty) => Err(mpsc::RecvTimeoutError::Timeout),
                Err(mpsc::TryRecvError::Disconnected) => Err(mpsc::RecvTimeoutError::Disconnected),
            }
        };
        let first = match waited {
            Ok(event) => Some(event),
            Err(mpsc::RecvTimeoutError::Timeout) if !pending_rows.is_empty() => None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                browser.tick();
                rescan_live(browser, &mut last_scans, &reads, scanner, config);
                continue;
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => return Ok(Exit::Quit),
        };
        let mut open = None;
        for event in first.into_iter().chain(screen.inbox.try_iter()) {
            let action = match event {
                Event::Terminate(signal) => return Ok(Exit::Signal(signal)),
                Event::Job(done) => {
                    match *done {
                        Done::Scanned(entry) => pending_rows.push_back(*entry),
                        Done::Panicked { message, .. } => return Ok(Exit::Crashed(message)),
                        _ => {} // the end of the scan, or a closed session's late result
                    }
                    continue;
                }
                Event::Key(key) => match keys::action_for(&key, browser.key_context()) {
                    Some(action) => action,
                    None => continue,
                },
                Event::Action(action) => action,
                Event::FileChanged => continue, // a closed session's file
            };
            match browser.update(&action) {
                Some(BrowserEffect::Quit) => return Ok(Exit::Quit),
                Some(BrowserEffect::Open(path)) => open = Some(path),
                None => {}
            }
        }
        let started = std::time::Instant::now();
        while let Some(entry) = pending_rows.pop_front() {
            browser.add(entry);
            if started.elapsed() >= ROWS_PER_FRAME {
                break;
            }
        }
        if let Some(path) = open {
            let read = Transcript::read(&path, None).map(|t| {
                let beside = crate::transcript::earlier::Source::beside(&path);
                t.with_earlier_sessions(crate::transcript::earlier::EarlierSessions::from(&path, beside))
            });
            match read {
                Ok(transcript) => {
                    let session_config = Config {
                        input_path: Some(path),
                        from_browser: true,
                        ..config.clone()
                    };
                    let exit = run_session(screen, transcript, session_config)?;
                    for entry in screen.deferred.drain(..) {
                        browser.add(entry);
                    }
                    match exit {
                        Exit::Quit => {
                            let size = screen.guard.terminal.size()?;
                            browser.update(&Action::Resize(size.width, size.height));
                        }
                        other => return Ok(other),
                    }
                }
                Err(e) => browser.set_status(e.to_string()),
            }
        }
    }
}

/// Scans again the sessions being written now that changed since their last scan (their
/// rows update), keeping what each scan read so a file that only grew is read on.
fn rescan_live(
    browser: &browser::Browser,
    last_scans: &mut std::collections::HashMap<std::path::PathBuf, crate::follow::FileState>,
    reads: &jobs::ScanReads,
    scanner: &mut Runner<Event>,
    config: &Config,
) {
    let live: Vec<std::path::PathBuf> = browser
        .live_paths()
        .into_iter()
        .filter(|path| {
            let now = crate::follow::FileState::of(path).ok();
            let changed = now.is_some() && last_scans.get(path) != now.as_ref();
            if let Some(now) = now {
                last_scans.insert(path.clone(), now);
            }
            changed
        })
        .collect();
    if let Ok(mut reads) = reads.lock() {
        // A session no longer being written keeps no read in memory.
        let being_written = browser.live_paths();
        reads.retain(|path, _| being_written.contains(path));
    }
    if !live.is_empty() {
        scanner.start(Job::Scan {
            files: std::sync::Arc::new(live),
            tokenizer: config.tokenizer,
            again: true,
            reads: Some(std::sync::Arc::clone(reads)),
        });
    }
}

/// Runs the usual view on `transcript` until the user leaves it.
fn run_session(screen: &mut Screen, transcript: Transcript, config: Config) -> std::io::Result<Exit> {
    let (mut app, first) = App::new(transcript, config);
    let Screen {
        guard,
        events,
        inbox,
        paused,
        deferred,
    } = screen;
    let mut runner = Runner::new(events.clone(), |done| Event::Job(Box::new(done)));
    let watching = app
        .follow()
        .map(|f| follow::spawn(f.path().to_path_buf(), f.state(), events.clone()));
    let size = guard.terminal.size()?;
    let mut pending: VecDeque<Effect> = first.into();
    pending.extend(app.act(Action::Resize(size.width, size.height)));
    let exit = 'outer: loop {
        while let Some(effect) = pending.pop_front() {
            match effect {
                Effect::Start(job) => runner.start(job),
                Effect::Cancel(kind) => runner.cancel(kind),
                Effect::Edit { key, text } => {
                    // The reader stops reading first, so the editor gets every key.
                    paused.store(true, std::sync::atomic::Ordering::Release);
                    std::thread::sleep(Duration::from_millis(150));
                    let result = guard.suspended(|| terminal::edit_in_editor(&text));
                    paused.store(false, std::sync::atomic::Ordering::Release);
                    pending.extend(app.update(Msg::Job(Box::new(Done::Edited { key, result }))));
                }
                Effect::Copy(text) => {
                    use base64::Engine;
                    let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
                    // OSC 52: the terminal (or tmux, or an SSH client's terminal) sets its
                    // clipboard; a terminal without it ignores the sequence.
                    let sequence = format!("\x1b]52;c;{encoded}\x07");
                    let _ = std::io::Write::write_all(&mut std::io::stdout(), sequence.as_bytes());
                    let _ = std::io::Write::flush(&mut std::io::stdout());
                }
                Effect::Quit => break 'outer Exit::Quit,
            }
        }
        guard.terminal.draw(|frame| ui::draw(frame, &app))?;
        // While a worker runs, wake up to animate the spinner; otherwise sleep until input.
        let first_event = if app.busy() {
            match inbox.recv_timeout(Duration::from_millis(100)) {
                Ok(event) => Some(event),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => break Exit::Quit,
            }
        } else {
            match inbox.recv() {
                Ok(event) => Some(event),
                Err(_) => break Exit::Quit,
            }
        };
        if first_event.is_none() {
            pending.extend(app.update(Msg::Tick));
        }
        // Apply everything already queued before drawing again (held keys, progress).
        for event in first_event.into_iter().chain(inbox.try_iter()) {
            let msg = match event {
                Event::Terminate(signal) => break 'outer Exit::Signal(signal),
                Event::Key(key) => match key_action(&app, &key) {
                    Some(action) => Msg::Action(action),
                    None => continue,
                },
                Event::Action(action) => Msg::Action(action),
                Event::FileChanged => Msg::FileChanged,
                Event::Job(done) => match *done {
                    Done::Panicked { message, .. } => break 'outer Exit::Crashed(message),
                    // The browser's scan, still running behind this session: kept for it.
                    Done::Scanned(entry) => {
                        deferred.push(*entry);
                        continue;
                    }
                    done => Msg::Job(Box::new(done)),
                },
            };
            pending.extend(app.update(msg));
        }
    };
    // Cancelled jobs stop (a summarizer command's process group is killed) before the
    // terminal is given back.
    runner.shut_down(Duration::from_secs(1));
    if let Some(watching) = watching {
        watching.stop();
    }
    Ok(exit)
}

/// The action of a key press in the app's current mode (its key context).
pub fn key_action(app: &App, key: &KeyEvent) -> Option<Action> {
    keys::action_for(key, app.key_context())
}
