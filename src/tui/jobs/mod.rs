//! Background jobs: everything slower than a frame. A [`Job`] owns a snapshot of what it
//! needs (shared transcript and counts, settings, keys naming its inputs); [`run`] does
//! the work on a worker thread, checking its [`CancelToken`]; the [`Done`] it returns
//! names the inputs it was made from, so the app uses a result only with those inputs.
//! The runner in [`runner`] starts jobs (the latest of a kind wins) and cancels them.

pub mod runner;

use std::path::PathBuf;
use std::sync::Arc;

use crate::cancel::CancelToken;
use crate::compact::deterministic::{DirStore, DryRun};
use crate::compact::{derive, Compaction, Derived, DeterministicOptions, Outcome, Settings, Strategy};
use crate::follow::Change;
use crate::loss::LossReport;
use crate::summarize::{self, Fixed, Spec};
use crate::tokens::{Counts, Tokenizer};
use crate::transcript::Transcript;

/// What names a deterministic pass: the counts it ran on and its options (the cap only
/// matters with subjective edits, which stop at it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DeriveKey {
    /// The tokenizer of the counts.
    pub tokenizer: Tokenizer,
    /// The pass's options.
    pub options: DeterministicOptions,
    /// The cap, when it changes the result (subjective edits on).
    pub cap: Option<u64>,
}

/// What names a summary: the exact cut and the view it is on, and how it is made.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SummaryKey {
    /// The strategy (the tail strategies summarize different views).
    pub strategy: Strategy,
    /// The tokenizer of the counts the cut was planned with.
    pub tokenizer: Tokenizer,
    /// The deterministic pass the view comes from, if any.
    pub derive: Option<DeriveKey>,
    /// First summarized message.
    pub head_end: usize,
    /// First kept tail message.
    pub split: usize,
    /// The summarizer and its settings.
    pub summarizer: (Spec, summarize::Settings),
}

impl SummaryKey {
    /// The summarized messages.
    pub fn range(&self) -> std::ops::Range<usize> {
        self.head_end..self.split
    }
}

/// What names a breakdown: the counts (and the deterministic view) and the plan whose
/// sections split its rows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct BreakdownKey {
    /// The tokenizer of the counts.
    pub tokenizer: Tokenizer,
    /// The settings the plan was made with.
    pub settings: Settings,
    /// By tool (else by kind).
    pub by_tool: bool,
    /// Made on the deterministic view.
    pub derived: bool,
}

/// What names a compaction's result (preview, export): settings, tokenizer, and the
/// summary it used (its key and text).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OutcomeKey {
    /// Strategy and options.
    pub settings: Settings,
    /// The tokenizer of the counts.
    pub tokenizer: Tokenizer,
    /// The summary, when a tail is cut.
    pub summary: Option<(SummaryKey, String)>,
}

/// What names a session's whole-life view: the counts it is measured with and the
/// strategy (a deterministic strategy replays on the pass's output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SessionKey {
    /// The tokenizer.
    pub tokenizer: Tokenizer,
    /// Replays on the deterministic pass's output.
    pub deterministic: bool,
}

/// A session's whole life, built once per [`SessionKey`] on a worker: the core's
/// [`crate::session::Session`] with every part the views draw made there (never on the
/// drawing thread), and what only the screen shows.
#[derive(Debug)]
pub struct Session {
    /// Its inputs.
    pub key: SessionKey,
    /// The whole session, its counts, model view, history, fits, facts and cost.
    pub core: crate::session::Session,
    /// For each real compaction, what the epoch after it did again (the evidence of
    /// forgetting: files re-read, commands re-run, requests repeated).
    pub done_again: Vec<Vec<crate::forgetting::DoneAgain>>,
    /// The agent's own policy replayed against its automatic compactions, each
    /// predicted from what was known before it (`ctxlens backtest`); `None` without one.
    pub backtest: Option<crate::backtest::Backtest>,
    /// The standing instructions the user gave and what each compaction did with them
    /// (`ctxlens ledger FILE`).
    pub ledger: crate::ledger::Ledger,
}

/// What names a replay: the session and the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ReplayKey {
    /// The session.
    pub session: SessionKey,
    /// The options replayed.
    pub options: crate::compact::Options,
    /// The summaries' role.
    pub summary_role: crate::compact::SummaryRole,
    /// Whether the strategy cuts a tail.
    pub cuts_a_tail: bool,
}

/// What names a sweep: the session, the budgets, the tail rule.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SweepKey {
    /// The session.
    pub session: SessionKey,
    /// The budgets and tail rule tried (every step of the answer grid).
    pub range: crate::replay::sweep::Range,
    /// The facts a safe budget keeps, in thousandths.
    pub fact_floor_per_mille: u64,
    /// The summaries' role.
    pub summary_role: crate::compact::SummaryRole,
    /// Whether the strategy cuts a tail.
    pub cuts_a_tail: bool,
    /// The memory reminder.
    pub flush_to_memory: bool,
}

impl SweepKey {
    /// The settings it shows: the answer grid itself, so the chart's points are the
    /// ones the answers were found on and no replay is made twice.
    pub fn settings(&self) -> Vec<crate::compact::Options> {
        self.range.chart()
    }
}

/// What names a comparison of policies: the session, and the window their defaults are
/// taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CompareKey {
    /// The session.
    pub session: SessionKey,
    /// The model's context window.
    pub window: u64,
}

/// The inputs of a compaction, owned so a worker can run it.
#[derive(Debug, Clone)]
pub struct RunSnapshot {
    /// What the result will be keyed by.
    pub key: OutcomeKey,
    /// The transcript.
    pub transcript: Arc<Transcript>,
    /// Its counts.
    pub counts: Arc<Counts>,
    /// The deterministic pass already made for these inputs (a preview reuses it).
    pub derived: Option<Arc<Derived>>,
}

impl RunSnapshot {
    /// Runs the one core, [`crate::compact::Compaction`], with the snapshot's summary.
    pub fn run(
        &self,
        store: &mut dyn crate::compact::deterministic::ArtifactStore,
        reuse_derived: bool,
        with_loss: bool,
        cancel: &CancelToken,
    ) -> crate::Result<Outcome> {
        self.run_telling(store, reuse_derived, with_loss, cancel, &crate::progress::SILENT)
    }

    /// [`RunSnapshot::run`], telling `progress` of the messages it reads.
    pub fn run_telling(
        &self,
        store: &mut dyn crate::compact::deterministic::ArtifactStore,
        reuse_derived: bool,
        with_loss: bool,
        cancel: &CancelToken,
        progress: &crate::progress::Progress,
    ) -> crate::Result<Outcome> {
        let summary = self.key.summary.as_ref().map_or_else(
            || Fixed {
                text: String::new(),
                range: 0..0,
            },
            |(key, text)| Fixed {
                text: text.clone(),
                range: key.range(),
            },
        );
        let mut compaction = Compaction::new(&self.transcript, &self.counts, self.key.settings)
            .summarizer(&summary)
            .store(store)
            .cancel(cancel)
            .progress(progress);
        if with_loss {
            compaction = compaction.with_loss_report();
        }
        if let Some(derived) = self.derived.as_deref().filter(|_| reuse_derived) {
            compaction = compaction.reusing(derived);
        }
        compaction.run()
    }
}

/// Work for a worker thread.
#[derive(Debug, Clone)]
pub enum Job {
    /// Count every message with a tokenizer.
    Count {
        /// The tokenizer.
        tokenizer: Tokenizer,
        /// The transcript.
        transcript: Arc<Transcript>,
    },
    /// The deterministic pass.
    Derive {
        /// Its inputs.
        key: DeriveKey,
        /// The transcript.
        transcript: Arc<Transcript>,
        /// Its counts by `key.tokenizer`.
        counts: Arc<Counts>,
    },
    /// The summary of a cut.
    Summary {
        /// The cut and how.
        key: SummaryKey,
        /// The transcript the cut is on (the deterministic view for `deterministic,tail`).
        view: Transcript,
    },
    /// The preview of the compacted transcript.
    Preview(RunSnapshot),
    /// The loss report of the current cut.
    Loss(RunSnapshot),
    /// Writing the compacted transcript.
    Export {
        /// What to run.
        snapshot: RunSnapshot,
        /// Where.
        path: PathBuf,
        /// The input file, never overwritten unless `overwrite_input`.
        input: Option<PathBuf>,
        /// The user confirmed replacing the input.
        overwrite_input: bool,
    },
    /// Searching the messages' text.
    Search {
        /// The query.
        query: String,
        /// The transcript.
        transcript: Arc<Transcript>,
    },
    /// The session's whole life: every epoch, the model view, the history.
    Session {
        /// Its inputs.
        key: SessionKey,
        /// The live transcript.
        transcript: Arc<Transcript>,
        /// Its counts by `key.tokenizer` (reused when the whole session is the live one).
        counts: Arc<Counts>,
    },
    /// A replay (placeholder-sized summaries: it follows the budget keys live).
    Replay {
        /// Its inputs.
        key: ReplayKey,
        /// The session.
        session: Arc<Session>,
    },
    /// A budget sweep.
    Sweep {
        /// Its inputs.
        key: SweepKey,
        /// The session.
        session: Arc<Session>,
    },
    /// Every agent's policy replayed side by side.
    Compare {
        /// Its inputs.
        key: CompareKey,
        /// The session.
        session: Arc<Session>,
    },
    /// Reading the followed file again after it changed on disk.
    Reload {
        /// The file.
        path: PathBuf,
        /// The last read, its counts and the file's state then: a file that only grew
        /// is read on from where that read stopped.
        previous: Option<Box<LastRead>>,
        /// The tokenizer whose counts the view shows.
        tokenizer: Tokenizer,
        /// The context window the meter measures against (the user's, else the model's).
        window: Option<u64>,
    },
    /// The session browser's scan: one row per file, sent as each is read.
    Scan {
        /// The session files.
        files: Arc<Vec<PathBuf>>,
        /// The tokenizer the rows count with.
        tokenizer: Tokenizer,
        /// Scanning again the sessions being written now (a kind of its own, so it never
        /// cancels the first scan).
        again: bool,
        /// What each file was when last scanned again: a file that only grew is read on
        /// from there, and its entry is updated (the first scan keeps nothing).
        reads: Option<ScanReads>,
    },
    /// Where the context goes.
    Breakdown {
        /// Its inputs.
        key: BreakdownKey,
        /// The transcript (the deterministic view under those strategies).
        transcript: Arc<Transcript>,
        /// Its counts.
        counts: Arc<Counts>,
        /// The plan whose sections split the rows.
        planned: crate::compact::Planned,
        /// By kind or by tool.
        by: crate::breakdown::By,
    },
}

/// Kinds of job: one of each may run at a time (the latest wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum JobKind {
    /// Counting.
    Count,
    /// The deterministic pass.
    Derive,
    /// A summary.
    Summary,
    /// The preview.
    Preview,
    /// The loss report.
    Loss,
    /// An export.
    Export,
    /// A search.
    Search,
    /// A breakdown.
    Breakdown,
    /// Building the session's whole life.
    Session,
    /// A replay.
    Replay,
    /// A sweep.
    Sweep,
    /// A comparison of policies.
    Compare,
    /// Reading the followed file again.
    Reload,
    /// The session browser's scan.
    Scan,
    /// The browser's sessions being written now, scanned again.
    Rescan,
}

impl Job {
    /// Its kind.
    pub fn kind(&self) -> JobKind {
        match self {
            Job::Count { .. } => JobKind::Count,
            Job::Derive { .. } => JobKind::Derive,
            Job::Summary { .. } => JobKind::Summary,
            Job::Preview(_) => JobKind::Preview,
            Job::Loss(_) => JobKind::Loss,
            Job::Export { .. } => JobKind::Export,
            Job::Search { .. } => JobKind::Search,
            Job::Breakdown { .. } => JobKind::Breakdown,
            Job::Session { .. } => JobKind::Session,
            Job::Replay { .. } => JobKind::Replay,
            Job::Sweep { .. } => JobKind::Sweep,
            Job::Compare { .. } => JobKind::Compare,
            Job::Scan { again: false, .. } => JobKind::Scan,
            Job::Scan { again: true, .. } => JobKind::Rescan,
            Job::Reload { .. } => JobKind::Reload,
        }
    }
}

/// The last scan of each session being written, shared by the browser and its rescans.
pub type ScanReads = Arc<std::sync::Mutex<std::collections::HashMap<PathBuf, crate::scan::ScanRead>>>;

/// A finished (or progressing) job, naming the inputs it was made from.
#[derive(Debug)]
pub enum Done {
    /// Counting progressed.
    CountProgress {
        /// The tokenizer being counted.
        tokenizer: Tokenizer,
        /// Messages counted.
        done: usize,
        /// Messages in all.
        total: usize,
    },
    /// Counting finished.
    Counted {
        /// The tokenizer.
        tokenizer: Tokenizer,
        /// The counts, or why not.
        result: crate::Result<Arc<Counts>>,
    },
    /// The deterministic pass finished.
    Derived {
        /// Its inputs.
        key: DeriveKey,
        /// The pass, or why not.
        result: crate::Result<Arc<Derived>>,
    },
    /// A summary was made.
    Summarized {
        /// Its inputs.
        key: SummaryKey,
        /// The text, or why not.
        result: crate::Result<String>,
    },
    /// The user's editor returned (an edit of the summary of `key`).
    Edited {
        /// The summary edited.
        key: SummaryKey,
        /// The edited text, or why not.
        result: Result<String, String>,
    },
    /// The preview is built.
    Previewed {
        /// Its inputs.
        key: OutcomeKey,
        /// The preview's text, or why not.
        result: crate::Result<Preview>,
    },
    /// The loss report is made.
    Lost {
        /// Its inputs.
        key: OutcomeKey,
        /// The report (`None`: nothing is summarized), or why not.
        result: crate::Result<Option<LossReport>>,
    },
    /// An export finished.
    Exported {
        /// Where.
        path: PathBuf,
        /// What was written, or why not.
        result: crate::Result<String>,
    },
    /// A search finished.
    Searched {
        /// The query.
        query: String,
        /// Matching messages, ascending.
        matches: Vec<usize>,
    },
    /// The session's whole life is built.
    Session {
        /// Its inputs.
        key: SessionKey,
        /// It, or why not.
        result: crate::Result<Arc<Session>>,
    },
    /// A replay finished.
    Replayed {
        /// Its inputs.
        key: ReplayKey,
        /// It, or why not.
        result: crate::Result<Arc<crate::replay::Replay>>,
    },
    /// A sweep finished.
    Swept {
        /// Its inputs.
        key: SweepKey,
        /// It, or why not.
        result: crate::Result<Arc<crate::replay::sweep::Sweep>>,
    },
    /// A comparison of policies finished.
    Compared {
        /// Its inputs.
        key: CompareKey,
        /// Each policy's replay, or why not.
        result: crate::Result<Arc<Vec<crate::policy::compare::Compared>>>,
    },
    /// A job panicked (a bug): the TUI ends with an error.
    Panicked {
        /// Its kind.
        kind: JobKind,
        /// The panic's message.
        message: String,
    },
    /// The followed file, read again.
    Reloaded {
        /// The file's state when it was read (what the next change is measured from).
        state: Option<crate::follow::FileState>,
        /// The transcript, its counts and its meter; or why it did not load.
        result: Result<Box<Reloaded>, String>,
    },
    /// A job of `kind` took `done` of its `of` steps in `elapsed` (settings replayed for
    /// a sweep, messages read for a summary or a loss report).
    Progressed {
        /// The job's kind.
        kind: JobKind,
        /// Steps taken.
        done: usize,
        /// Steps in all.
        of: usize,
        /// Time since the job began.
        elapsed: std::time::Duration,
    },
    /// The browser's scan read one file (progress: sent as each file is read).
    Scanned(Box<crate::tui::browser::Entry>),
    /// The browser's scan read every file.
    ScanEnded,
    /// A breakdown is made.
    BrokenDown {
        /// Its inputs.
        key: BreakdownKey,
        /// By kind or by tool.
        by: crate::breakdown::By,
        /// The rows, largest first.
        rows: Vec<crate::breakdown::Row>,
    },
}

/// A followed file's last read: what a file that only grew is read on from.
#[derive(Debug, Clone)]
pub struct LastRead {
    /// The transcript read.
    pub transcript: Arc<Transcript>,
    /// Its counts.
    pub counts: Arc<Counts>,
    /// The file's state when it was read.
    pub state: crate::follow::FileState,
    /// The fit of its recorded usage with `counts`: a read on fits its own from it.
    pub fit: Fit,
}

/// The fit of a read's recorded usage with its counts, as far as it is known.
#[derive(Debug, Clone, PartialEq)]
pub enum Fit {
    /// Not made.
    Unknown,
    /// Made: `None` when the log records no usage.
    Made(Option<Arc<crate::calibrate::Calibration>>),
}

/// The followed file as it is now.
#[derive(Debug)]
pub enum Reloaded {
    /// Read whole (it was replaced, or only a whole read can say what it holds now).
    Whole {
        /// The transcript.
        transcript: Transcript,
        /// Its counts by the tokenizer the view shows.
        counts: Arc<Counts>,
        /// How full its context is and how far its agent's next compaction is.
        meter: crate::meter::Meter,
    },
    /// Read on from the last read: what it read, for the view to put in place in its
    /// transcript (which then grows where it is, at the cost of what was read).
    On {
        /// The records read again and appended.
        on: crate::transcript::ReadOn,
        /// The tokenizer `counts` counted with.
        tokenizer: Tokenizer,
        /// The counts of the messages read (those after the ones kept).
        counts: Vec<u64>,
        /// The fit of the grown transcript's recorded usage (made when the last read's
        /// was known).
        fit: Fit,
    },
    /// The file is as the last read left it (the read that opened it, say): only its
    /// meter, made from that read.
    Unchanged {
        /// How full its context is and how far its agent's next compaction is.
        meter: crate::meter::Meter,
    },
}

/// A built preview: the compacted document and how it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// The document's text.
    pub text: String,
    /// Its display segments ([`super::preview::segments`]).
    pub segments: Vec<(usize, usize)>,
    /// The document's messages as readable text ([`super::preview::readable`]).
    pub readable: String,
    /// Its display segments.
    pub readable_segments: Vec<(usize, usize)>,
    /// The output is the input, byte for byte.
    pub unchanged: bool,
    /// Tokens of the output's messages.
    pub tokens_after: u64,
    /// The strategy's name.
    pub strategy: &'static str,
}

/// Does `job`, reporting progress through `report`; stops early once `cancel` is set
/// (the result is then dropped by the runner).
pub fn run(job: Job, cancel: &CancelToken, report: &dyn Fn(Done)) -> Done {
    match job {
        Job::Count { tokenizer, transcript } => {
            let result = Counts::compute_cancellable(&transcript, tokenizer, cancel, |done, total| {
                report(Done::CountProgress { tokenizer, done, total });
            })
            .map(Arc::new);
            Done::Counted { tokenizer, result }
        }
        Job::Derive {
            key,
            transcript,
            counts,
        } => {
            let result = derive(
                &transcript,
                &counts,
                key.cap.unwrap_or(0),
                key.options,
                &mut DryRun,
                cancel,
            )
            .map(Arc::new);
            Done::Derived { key, result }
        }
        Job::Summary { key, view } => Done::Summarized {
            result: summary(&key, &view, cancel, report),
            key,
        },
        Job::Preview(snapshot) => Done::Previewed {
            result: preview(&snapshot, cancel),
            key: snapshot.key,
        },
        Job::Loss(snapshot) => Done::Lost {
            result: loss_report(&snapshot, cancel, report),
            key: snapshot.key,
        },
        Job::Export {
            snapshot,
            path,
            input,
            overwrite_input,
        } => {
            let result = export(&snapshot, &path, input.as_deref(), overwrite_input, cancel);
            Done::Exported { path, result }
        }
        Job::Search { query, transcript } => {
            let matches = super::search::find(&transcript, &query, cancel);
            Done::Searched { query, matches }
        }
        Job::Breakdown {
            key,
            transcript,
            counts,
            planned,
            by,
        } => {
            let rows = crate::breakdown::breakdown_billed(&transcript, &counts, Some(&planned), by);
            Done::BrokenDown { key, by, rows }
        }
        Job::Session {
            key,
            transcript,
            counts,
        } => Done::Session {
            key,
            result: session(key, &transcript, &counts, cancel).map(Arc::new),
        },
        Job::Replay { key, session } => Done::Replayed {
            key,
            result: replay(key, &session, cancel).map(Arc::new),
        },
        Job::Sweep { key, session } => {
            let result = sweep(&key, &session, cancel, report).map(Arc::new);
            Done::Swept { key, result }
        }
        Job::Compare { key, session } => Done::Compared {
            key,
            result: compare(key, &session, cancel),
        },
        Job::Scan {
            files,
            tokenizer,
            reads,
            ..
        } => {
            scan(&files, tokenizer, reads.as_ref(), cancel, report);
            Done::ScanEnded
        }
        Job::Reload {
            path,
            previous,
            tokenizer,
            window,
        } => reload(&path, previous, tokenizer, window),
    }
}

/// Every agent's policy over the session, with placeholder summaries as the sweep (the
/// view follows the session live).
fn compare(
    key: CompareKey,
    session: &Session,
    cancel: &CancelToken,
) -> crate::Result<Arc<Vec<crate::policy::compare::Compared>>> {
    crate::policy::compare::compare(
        session.core.whole(),
        session.core.counts(),
        &crate::policy::all(),
        key.window,
        &[],
        &crate::summarize::Placeholder,
        cancel,
        None,
    )
    .map(Arc::new)
}

/// The followed file read again (on from the last read when it only grew, whole
/// otherwise), counted, and (read whole) its meter. The last read is dropped before this
/// answers: the view's transcript is then the only holder of its parts, and grows in
/// place.
fn reload(path: &std::path::Path, previous: Option<Box<LastRead>>, tokenizer: Tokenizer, window: Option<u64>) -> Done {
    // The state first: a write that lands while this reads is told again.
    let state = crate::follow::FileState::of(path).ok();
    let unchanged = previous.as_ref().is_some_and(|last| {
        last.counts.tokenizer == tokenizer && state.is_some_and(|now| last.state.change_to(&now) == Change::Same)
    });
    if let (true, Some(last)) = (unchanged, &previous) {
        // The last read is dropped as this returns, before the view gets the answer.
        let meter = crate::meter::meter(&last.transcript, &last.counts, window);
        return Done::Reloaded {
            state,
            result: Ok(Box::new(Reloaded::Unchanged { meter })),
        };
    }
    // The user's earlier sessions, as the view was loaded with them.
    let earlier = previous
        .as_ref()
        .map(|last| last.transcript.earlier_sessions().clone())
        .unwrap_or_default();
    let on = previous
        .zip(state)
        .filter(|(last, now)| last.counts.tokenizer == tokenizer && last.state.change_to(now) == Change::Grew)
        .and_then(|(last, _)| read_on(path, &last, tokenizer));
    let result = match on {
        Some(on) => Ok(on),
        None => Transcript::read(path, None)
            .map_err(|e| e.to_string())
            .map(|transcript| {
                let transcript = transcript.with_earlier_sessions(earlier);
                let counts = Arc::new(Counts::compute(&transcript, tokenizer));
                let meter = crate::meter::meter(&transcript, &counts, window);
                Reloaded::Whole {
                    transcript,
                    counts,
                    meter,
                }
            }),
    };
    Done::Reloaded {
        state,
        result: result.map(Box::new),
    }
}

/// The complete lines written after the last read (a last line still being written
/// waits), read on, counted and fitted; `None` when only a whole read will do.
fn read_on(path: &std::path::Path, last: &LastRead, tokenizer: Tokenizer) -> Option<Reloaded> {
    let previous = &last.transcript;
    let appended = crate::follow::lines_after(path, previous.text().len() as u64)?;
    let on = previous.read_on(&appended)?;
    let counts = Counts::of_read_on(&on, previous, tokenizer);
    let fit = match &last.fit {
        Fit::Made(fit) => Fit::Made(
            crate::calibrate::calibrate_read_on(fit.as_deref(), previous, &last.counts, &on, &counts).map(Arc::new),
        ),
        Fit::Unknown => Fit::Unknown,
    };
    Some(Reloaded::On {
        on,
        tokenizer,
        counts,
        fit,
    })
}

/// The browser's rows, read in parallel and reported one by one from this thread (the
/// report is not shared between threads); it stops at the next file once cancelled.
/// The threads the browser's scan reads sessions on: one fewer than the machine's cores
/// (at least one), so that the screen keeps a core to answer keys on while thousands of
/// sessions are read (on two cores a scan on both starved the key loop for 300 ms).
/// `None` where the threads cannot be made: the scan then runs on rayon's own pool.
fn scan_pool() -> Option<&'static rayon::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
        rayon::ThreadPoolBuilder::new()
            .num_threads(cores.saturating_sub(1).max(1))
            .thread_name(|k| format!("ctxlens-scan-{k}"))
            .build()
            .ok()
    })
    .as_ref()
}

fn scan(
    files: &[PathBuf],
    tokenizer: Tokenizer,
    reads: Option<&ScanReads>,
    cancel: &CancelToken,
    report: &dyn Fn(Done),
) {
    use crate::tui::browser::Entry;
    use rayon::prelude::*;
    let (rows, read) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let read_all = || {
                files.par_iter().for_each_with(rows, |rows, path| {
                    if cancel.is_cancelled() {
                        return;
                    }
                    let row = match reads {
                        Some(reads) => rescan(path, tokenizer, reads),
                        None => crate::scan::scan_file(path, tokenizer, None),
                    };
                    let entry = match row {
                        Ok(session) => Entry::Session(Box::new(session)),
                        Err(e) => Entry::Failed(path.display().to_string(), e.to_string()),
                    };
                    let _ = rows.send((path, entry));
                });
            };
            match scan_pool() {
                Some(pool) => pool.install(read_all),
                None => read_all(),
            }
        });
        // A row is shown as soon as it is read, answered from its log alone; once the
        // other sessions of its folder are all read, a row they answer differently (as
        // `status` answers for the file) is shown again, replacing it.
        let answered_again = |entry: &Entry| {
            entry.session().is_some_and(|s| {
                let alone = s.threshold_query.as_ref().and_then(|q| q.answer(&[]));
                s.autocompact_at.zip(s.autocompact_source.clone()) != alone
            })
        };
        let mut by_folder = crate::scan_folders::ByFolder::new(files);
        for (path, entry) in read {
            let mut shown = entry.clone();
            if let Entry::Session(session) = &mut shown {
                session.compactions_seen = Vec::new();
            }
            report(Done::Scanned(Box::new(shown)));
            for entry in by_folder.finished(path, entry, session_of) {
                if answered_again(&entry) {
                    report(Done::Scanned(Box::new(entry)));
                }
            }
        }
        // Files skipped once cancelled leave folders unfinished.
        for entry in by_folder.rest(session_of).into_iter().filter(|e| answered_again(e)) {
            report(Done::Scanned(Box::new(entry)));
        }
    });
}

/// A browser entry's session row, if it is one.
fn session_of(entry: &mut crate::tui::browser::Entry) -> Option<&mut crate::scan::Session> {
    match entry {
        crate::tui::browser::Entry::Session(session) => Some(&mut **session),
        crate::tui::browser::Entry::Failed(..) => None,
    }
}

/// The row of a session being written: read on from its last scan when the file only
/// grew, else read whole; either way kept for the next look.
fn rescan(
    path: &std::path::Path,
    tokenizer: Tokenizer,
    reads: &ScanReads,
) -> Result<crate::scan::Session, crate::error::LoadError> {
    let last = reads.lock().ok().and_then(|reads| reads.get(path).cloned());
    let read = match last
        .filter(|last| last.counts.tokenizer == tokenizer)
        .and_then(|last| crate::scan::rescan_grown(path, &last, None))
    {
        Some(read) => read,
        None => crate::scan::scan_read(path, tokenizer, None)?,
    };
    let session = read.session.clone();
    if let Ok(mut reads) = reads.lock() {
        reads.insert(path.to_path_buf(), read);
    }
    Ok(session)
}

/// The preview: the compacted document, and its messages as readable text.
fn preview(snapshot: &RunSnapshot, cancel: &CancelToken) -> crate::Result<Preview> {
    let outcome = snapshot.run(&mut DryRun, true, false, cancel)?;
    let text = outcome.document.to_text();
    let format = Some(snapshot.transcript.format().as_override());
    let readable = match outcome.document.refusal() {
        Some(reason) => format!("({reason})"),
        None => Transcript::parse(snapshot.transcript.source(), text.clone().into_bytes(), format).map_or_else(
            |e| format!("(the output does not load back: {e})"),
            |out| super::preview::readable(&out, snapshot.key.tokenizer),
        ),
    };
    Ok(Preview {
        unchanged: outcome.document.is_input(),
        segments: super::preview::segments(&text),
        readable_segments: super::preview::segments(&readable),
        readable,
        text,
        tokens_after: outcome.tokens_after,
        strategy: outcome.settings.strategy.name(),
    })
}

/// The replay of `key` (placeholder summaries: the chart follows the keys live).
fn replay(key: ReplayKey, session: &Session, cancel: &CancelToken) -> crate::Result<crate::replay::Replay> {
    crate::replay::replay(&crate::replay::Inputs {
        view: session.core.view(),
        options: key.options,
        summary_role: key.summary_role,
        cuts_a_tail: key.cuts_a_tail,
        summarizer: &crate::summarize::Placeholder,
        cancel,
        progress: None,
    })
}

/// The sweep of `key` (placeholder summaries).
fn sweep(
    key: &SweepKey,
    session: &Session,
    cancel: &CancelToken,
    report: &dyn Fn(Done),
) -> crate::Result<crate::replay::sweep::Sweep> {
    let facts = session.core.facts(cancel)?;
    telling(JobKind::Sweep, report, |tell| {
        crate::replay::sweep::sweep(&crate::replay::sweep::Inputs {
            view: session.core.view(),
            facts,
            settings: &key.settings(),
            range: &key.range,
            fact_floor: key.fact_floor_per_mille as f64 / 10.0,
            summary_role: key.summary_role,
            cuts_a_tail: key.cuts_a_tail,
            summarizer: &crate::summarize::Placeholder,
            keep: None,
            cancel,
            progress: Some(tell),
        })
    })
}

/// The summary of `key`'s messages of `view`; reading them is what takes long, so a
/// summarizer that reads them is told about as it goes.
fn summary(key: &SummaryKey, view: &Transcript, cancel: &CancelToken, report: &dyn Fn(Done)) -> crate::Result<String> {
    let summarizer = crate::summarizers::build(&key.summarizer.0, &key.summarizer.1)?;
    if !summarizer.needs_text() {
        return summarizer.summarize_range(view, key.range(), cancel);
    }
    telling(JobKind::Summary, report, |tell| {
        let progress = crate::progress::Progress::new(tell);
        let older = crate::summarize::older_messages_telling(view, key.range(), true, &progress);
        summarizer.summarize(&older, cancel)
    })
}

/// The loss report of `snapshot`'s compaction, told as its messages are read.
fn loss_report(
    snapshot: &RunSnapshot,
    cancel: &CancelToken,
    report: &dyn Fn(Done),
) -> crate::Result<Option<crate::loss::LossReport>> {
    telling(JobKind::Loss, report, |tell| {
        snapshot.run_telling(&mut DryRun, true, true, cancel, &crate::progress::Progress::new(tell))
    })
    .map(|outcome| outcome.loss)
}

/// Runs `work` on a thread of its own, given a `tell` that reaches `report` from any
/// thread as [`Done::Progressed`] of `kind`, steps only ever growing (the report itself
/// is this thread's only: what the pool's threads tell goes through a channel).
fn telling<T: Send>(kind: JobKind, report: &dyn Fn(Done), work: impl FnOnce(crate::progress::Tell) -> T + Send) -> T {
    let (told, heard) = std::sync::mpsc::channel();
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        // The tell (and so the channel) ends with the thread: the loop below then ends too.
        let running = scope.spawn(move || {
            let tell = move |done: usize, of: usize| {
                let _ = told.send((done, of));
            };
            work(&tell)
        });
        // Threads tell in the order they send, not the order they took their steps: a
        // figure below one already told is old news.
        let mut told = 0;
        for (done, of) in heard {
            if done <= told {
                continue;
            }
            told = done;
            report(Done::Progressed {
                kind,
                done,
                of,
                elapsed: started.elapsed(),
            });
        }
        running.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Builds the session's whole life: the whole conversation (for a log; otherwise the
/// transcript itself and its counts), its model view under the strategy, its history,
/// fits and cost (the facts wait for the first sweep), what each epoch did again, the
/// backtest, the ledger.
fn session(key: SessionKey, live: &Transcript, counts: &Counts, cancel: &CancelToken) -> crate::Result<Session> {
    let core = crate::session::Session::load(live, Some(counts), key.tokenizer, key.deterministic, cancel)?;
    let (whole, counts, history) = (core.whole(), core.counts(), core.history());
    core.fits();
    core.cost();
    let done_again = crate::history_doc::done_again(whole, counts, history);
    let backtest = backtest_of(whole, counts, history, cancel)?;
    let ledger = crate::ledger_files::session_ledger(whole, history);
    Ok(Session {
        key,
        core,
        done_again,
        backtest,
        ledger,
    })
}

/// The backtest of a session with an automatic compaction to predict (the extractive
/// summarizer, as `ctxlens backtest` runs it).
fn backtest_of(
    whole: &Transcript,
    counts: &Counts,
    history: &crate::history::History,
    cancel: &CancelToken,
) -> crate::Result<Option<crate::backtest::Backtest>> {
    if !history.compactions.iter().any(|c| c.trigger.as_deref() == Some("auto")) {
        return Ok(None);
    }
    let summarizer = crate::summarizers::build(
        &crate::summarize::Spec::Extractive,
        &crate::summarize::Settings::default(),
    )?;
    crate::backtest::backtest(whole, counts, summarizer.as_ref(), cancel)
}

/// Writes the compacted transcript to `path` (atomically; externalized output goes to
/// `<path>.artifacts/` and is removed again if the write fails) and says what was written.
fn export(
    snapshot: &RunSnapshot,
    path: &std::path::Path,
    input: Option<&std::path::Path>,
    overwrite_input: bool,
    cancel: &CancelToken,
) -> crate::Result<String> {
    use crate::text::thousands;
    crate::export::check_output(path, input, overwrite_input)?;
    let mut store = DirStore::new(&crate::compact::artifacts_dir_for(path));
    let outcome = snapshot.run(&mut store, false, false, cancel)?;
    if let Err(e) = cancel.check() {
        crate::compact::deterministic::ArtifactStore::roll_back(&mut store);
        return Err(e);
    }
    crate::compact::write_document(path, &outcome.document, input, overwrite_input, &mut store)?;
    let mut parts = vec![format!(
        "{} → {} tokens",
        thousands(outcome.tokens_before),
        thousands(outcome.tokens_after)
    )];
    if let Some(cut) = outcome.planned.cut() {
        parts.push(format!(
            "{} summarized",
            crate::text::count_of(cut.summarized() as u64, "message", "messages")
        ));
    }
    if let Some(c) = &outcome.compressed {
        parts.push(format!("{} deterministic edits", thousands(c.edits.len() as u64)));
    }
    if !store.stored.is_empty() {
        parts.push(format!(
            "{} outputs stored in {}",
            thousands(store.stored.len() as u64),
            store.dir().display()
        ));
    }
    if outcome.document.is_input() {
        parts.push("identical to the input".to_owned());
    }
    Ok(format!("wrote {}: {}", path.display(), parts.join(", ")))
}
