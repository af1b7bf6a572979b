//! `import ctxlens`: the core for Python pipelines (pandas, Spark `mapInPandas`, Ray
//! `map_batches`, DuckDB). Load a transcript from a path or from Python lists and dicts;
//! count with any tokenizer; `plan`, `compact`, `replay`, `check`. Results are plain
//! dicts and lists (the same documents the command line prints as JSON), and the GIL is
//! released while the work runs.

use std::path::PathBuf;

use pyo3::exceptions::{PyFileNotFoundError, PyIsADirectoryError, PyPermissionError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use ::ctxlens::compact::{self, Options, Settings, Strategy, SummaryRole};
use ::ctxlens::document;
use ::ctxlens::summarize::Placeholder;
use ::ctxlens::tokens::{Counts, Tokenizer};
use ::ctxlens::transcript::{FormatOverride, Transcript as Core};

fn value_error(e: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A token budget from Python: a negative one is a `ValueError` naming the argument
/// (not the `OverflowError` an unsigned conversion raises).
fn budget(name: &str, value: i64) -> PyResult<u64> {
    u64::try_from(value).map_err(|_| value_error(format!("{name} must be 0 or more, not {value}")))
}

/// The settings of a `plan` or `compact` call, from its keyword arguments.
fn settings(
    max_tokens: u64,
    keep_tail: Option<u64>,
    flush_to_memory: bool,
    strategy: &str,
    summary_role: &str,
) -> PyResult<Settings> {
    Ok(Settings {
        strategy: strategy.parse::<Strategy>().map_err(value_error)?,
        summary_role: summary_role.parse::<SummaryRole>().map_err(value_error)?,
        ..Settings::tail(Options {
            max_tokens,
            keep_tail,
            flush_to_memory,
        })
    })
}

fn tokenizer(name: &str) -> PyResult<Tokenizer> {
    name.parse().map_err(value_error)
}

/// `max_tokens` and `keep_tail` from Python, checked.
fn budgets(max_tokens: i64, keep_tail: Option<i64>) -> PyResult<(u64, Option<u64>)> {
    Ok((
        budget("max_tokens", max_tokens)?,
        keep_tail.map(|k| budget("keep_tail", k)).transpose()?,
    ))
}

/// The tails a budget sweep tries at each budget: token counts, or shares of the budget.
struct BudgetTails {
    keep_tail: Option<Vec<i64>>,
    keep_ratio: Option<Vec<f64>>,
}

impl BudgetTails {
    /// The tail rules, as `--keep-tail` or `--keep-ratio` make them (half the budget when
    /// neither is given).
    fn rules(&self) -> PyResult<Vec<::ctxlens::replay::sweep::TailRule>> {
        use ::ctxlens::replay::sweep::TailRule;
        match (&self.keep_tail, &self.keep_ratio) {
            (Some(_), Some(_)) => Err(value_error("keep_tail or keep_ratio, not both")),
            (Some(tails), None) => tails
                .iter()
                .map(|&k| budget("keep_tail", k).map(TailRule::Tokens))
                .collect(),
            (None, Some(ratios)) => ratios
                .iter()
                .map(|&r| {
                    if r > 0.0 && r <= 1.0 {
                        Ok(TailRule::PerMille((r * 1000.0).round() as u64))
                    } else {
                        Err(value_error(format!("keep_ratio {r}: a share between 0 and 1")))
                    }
                })
                .collect(),
            (None, None) => Ok(vec![TailRule::Default]),
        }
    }
}

/// The window a policy runs under (`context_window` when given, else the session's
/// model's) and the policy's settings there, its defaults under what was `given`.
fn window_and_settings(
    session: &::ctxlens::session::Session,
    chosen: &'static dyn ::ctxlens::policy::Policy,
    given_window: Option<u64>,
    given: &::ctxlens::policy::PolicySettings,
) -> (u64, ::ctxlens::policy::PolicySettings) {
    let window = ::ctxlens::policy::compare::window_for(given_window, session.whole());
    (window, ::ctxlens::policy::compare::with_defaults(chosen, window, given))
}

/// Policy `name` and the settings `set` gives it (`KEY=VALUE` each, as `--set` takes them),
/// its keys checked: what `replay(policy=…)` and `sweep` run.
fn policy_settings(
    name: &str,
    set: Option<Vec<String>>,
) -> PyResult<(
    &'static dyn ::ctxlens::policy::Policy,
    ::ctxlens::policy::PolicySettings,
)> {
    let chosen = ::ctxlens::policy::by_name(name).map_err(value_error)?;
    let pairs = set.unwrap_or_default();
    let given = ::ctxlens::policy::PolicySettings::parse(pairs.iter().map(String::as_str)).map_err(value_error)?;
    given.check_keys(name, chosen.keys()).map_err(value_error)?;
    Ok((chosen, given))
}

/// A JSON document as Python objects (through the `json` module: plain dicts and lists,
/// keys in the document's order).
fn json_to_python(py: Python<'_>, text: &[u8]) -> PyResult<Py<PyAny>> {
    let json = py.import("json")?;
    let text = std::str::from_utf8(text).map_err(value_error)?;
    Ok(json.call_method1("loads", (text,))?.unbind())
}

/// A loaded transcript.
#[pyclass(frozen, module = "ctxlens")]
struct Transcript {
    inner: Core,
    /// The session prepared once per tokenizer and kept: a notebook asking `compare`,
    /// `sweep` and `replay` of one transcript pays its reading, counting and facts once.
    sessions: std::sync::Mutex<Vec<(Tokenizer, std::sync::Arc<::ctxlens::session::Session>)>>,
}

impl Transcript {
    /// The session counted with `tokenizer`, prepared on first use and kept (what it
    /// derives — history, facts, fits, cost — is computed once too).
    fn session(&self, tokenizer: Tokenizer) -> ::ctxlens::Result<std::sync::Arc<::ctxlens::session::Session>> {
        let known = |sessions: &[(Tokenizer, std::sync::Arc<::ctxlens::session::Session>)]| {
            sessions
                .iter()
                .find(|(t, _)| *t == tokenizer)
                .map(|(_, s)| std::sync::Arc::clone(s))
        };
        if let Some(session) = known(&self.sessions.lock().unwrap_or_else(std::sync::PoisonError::into_inner)) {
            return Ok(session);
        }
        // Prepared without the lock held: another thread may prepare the same one
        // meanwhile, and the first kept wins.
        let session = std::sync::Arc::new(::ctxlens::session::Session::load(
            &self.inner,
            None,
            tokenizer,
            false,
            ::ctxlens::cancel::never(),
        )?);
        let mut sessions = self.sessions.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(kept) = known(&sessions) {
            return Ok(kept);
        }
        sessions.push((tokenizer, std::sync::Arc::clone(&session)));
        Ok(session)
    }

    /// The one core, `compact::Compaction`, with nothing stored (a dry run).
    fn run(
        &self,
        tokenizer: Tokenizer,
        settings: &Settings,
        summarizer: &dyn ::ctxlens::summarize::Summarizer,
    ) -> Result<compact::Outcome, String> {
        let counts = Counts::compute(&self.inner, tokenizer);
        compact::Compaction::new(&self.inner, &counts, *settings)
            .summarizer(summarizer)
            .run()
            .map_err(|e| e.to_string())
    }

    /// ctxlens' compactor swept over `budgets` with the tail rules given: what `sweep(max_tokens=…)` runs.
    #[allow(clippy::too_many_arguments)]
    fn sweep_budgets(
        &self,
        py: Python<'_>,
        t: Tokenizer,
        budgets: &str,
        tails: &BudgetTails,
        flush_to_memory: bool,
        keep: Option<usize>,
        fact_floor: f64,
    ) -> PyResult<Py<PyAny>> {
        use ::ctxlens::replay::sweep::{sweep, Inputs, Range};
        use ::ctxlens::replay::sweep_doc::{Asked, Budgets, SweepDoc};
        let budgets: Budgets = budgets.parse().map_err(value_error)?;
        if !(0.0..=100.0).contains(&fact_floor) {
            return Err(value_error(format!(
                "fact_floor {fact_floor}: a share in percent, 0 to 100"
            )));
        }
        let tails = tails.rules()?;
        let text = py.detach(|| -> ::ctxlens::Result<String> {
            let never = ::ctxlens::cancel::never();
            let session = self.session(t)?;
            if let Some(keep) = keep.filter(|&k| k >= session.view().len()) {
                return Err(::ctxlens::Error::Invalid(format!(
                    "keep {keep}: the session has {} messages",
                    session.view().len()
                )));
            }
            let range = Range {
                from: budgets.from,
                to: budgets.to,
                tails,
                flush_to_memory,
            };
            let asked = Asked::of(&budgets, range, session.view().total())?;
            let outcome = sweep(&Inputs {
                view: session.view(),
                facts: session.facts(never)?,
                settings: &asked.settings,
                range: &asked.range,
                fact_floor,
                summary_role: ::ctxlens::compact::SummaryRole::System,
                cuts_a_tail: true,
                summarizer: &Placeholder,
                keep,
                cancel: never,
                progress: None,
            })?;
            let summarizer = ::ctxlens::summarize::Spec::Placeholder.to_string();
            let doc = SweepDoc::of(session.view(), session.counts(), summarizer, &outcome);
            Ok(document::to_string(self.inner.source(), &doc, true))
        });
        json_to_python(py, text.map_err(value_error)?.as_bytes())
    }
}

impl Transcript {
    /// `replay(policy=…)`: the core's `replay-policy` document.
    fn replay_policy(
        &self,
        py: Python<'_>,
        name: &str,
        set: Option<Vec<String>>,
        context_window: Option<i64>,
        t: Tokenizer,
    ) -> PyResult<Py<PyAny>> {
        use ::ctxlens::policy::replay::{ReplayDoc, SessionReplays};
        let (chosen, given) = policy_settings(name, set)?;
        let given_window = context_window.map(|w| budget("context_window", w)).transpose()?;
        let text = py.detach(|| -> ::ctxlens::Result<String> {
            let never = ::ctxlens::cancel::never();
            let session = self.session(t)?;
            let (window, settings) = window_and_settings(&session, chosen, given_window, &given);
            let replayed = SessionReplays::of(session.whole(), session.counts()).replay(
                chosen,
                &settings,
                &Placeholder,
                Some(window),
                never,
            )?;
            let summarizer = ::ctxlens::summarize::Spec::Placeholder.to_string();
            let doc = ReplayDoc::of(&replayed, &settings, summarizer);
            Ok(document::to_string(self.inner.source(), &doc, true))
        });
        json_to_python(py, text.map_err(value_error)?.as_bytes())
    }
}

#[pymethods]
impl Transcript {
    /// `<ctxlens.Transcript claude-code, 118 messages, from 'session.jsonl'>`.
    fn __repr__(&self) -> String {
        format!(
            "<ctxlens.Transcript {}, {} messages, from {:?}>",
            self.inner.format().name(),
            self.inner.messages().len(),
            self.inner.source()
        )
    }

    /// The file it was read from (`<python>` for messages given as lists and dicts).
    #[getter]
    fn source(&self) -> &str {
        self.inner.source()
    }

    /// The format, as `--format` names it (`openai`, `claude-code`…).
    #[getter]
    fn format(&self) -> &'static str {
        self.inner.format().name()
    }

    /// Number of messages.
    fn __len__(&self) -> usize {
        self.inner.messages().len()
    }

    /// Each message's tokens.
    #[pyo3(signature = (tokenizer="estimate"))]
    fn counts(&self, py: Python<'_>, tokenizer: &str) -> PyResult<Vec<u64>> {
        let t = self::tokenizer(tokenizer)?;
        Ok(py.detach(|| Counts::compute(&self.inner, t).iter().collect()))
    }

    /// The total tokens.
    #[pyo3(signature = (tokenizer="estimate"))]
    fn total(&self, py: Python<'_>, tokenizer: &str) -> PyResult<u64> {
        let t = self::tokenizer(tokenizer)?;
        Ok(py.detach(|| Counts::compute(&self.inner, t).total()))
    }

    /// The per-message table: the document `ctxlens stats FILE --json` prints (each
    /// message's tokens and running total, calls and results, what the provider recorded,
    /// the log's notes, the fit of its usage and what its calls cost).
    #[pyo3(signature = (tokenizer="estimate"))]
    fn stats(&self, py: Python<'_>, tokenizer: &str) -> PyResult<Py<PyAny>> {
        let t = self::tokenizer(tokenizer)?;
        let text = py.detach(|| {
            let counts = Counts::compute(&self.inner, t);
            let doc = ::ctxlens::stats_doc::stats_doc(&self.inner, &counts, ::ctxlens::cost::PriceTable::builtin());
            document::to_string(self.inner.source(), &doc, false)
        });
        json_to_python(py, text.as_bytes())
    }

    /// Where the context goes: the document `ctxlens stats FILE --by kind|tool --json`
    /// prints; with `max_tokens` (and `keep_tail`) each row split into head, summarized and
    /// tail as §7F's plan would cut.
    #[pyo3(signature = (by="kind", max_tokens=None, keep_tail=None, tokenizer="estimate"))]
    fn breakdown(
        &self,
        py: Python<'_>,
        by: &str,
        max_tokens: Option<i64>,
        keep_tail: Option<i64>,
        tokenizer: &str,
    ) -> PyResult<Py<PyAny>> {
        let t = self::tokenizer(tokenizer)?;
        let by: ::ctxlens::breakdown::By = ::ctxlens::names::parse(by).map_err(value_error)?;
        let max_tokens = max_tokens.map(|m| budget("max_tokens", m)).transpose()?;
        let keep_tail = keep_tail.map(|k| budget("keep_tail", k)).transpose()?;
        let text = py.detach(|| {
            let counts = Counts::compute(&self.inner, t);
            let doc = ::ctxlens::breakdown::BreakdownDoc::of(&self.inner, &counts, by, max_tokens, keep_tail);
            document::to_string(self.inner.source(), &doc, false)
        });
        json_to_python(py, text.as_bytes())
    }

    /// The plan: the document `ctxlens compact --plan` prints (the same bytes: `schema`,
    /// `file`, then the plan, keys in the same order).
    #[pyo3(signature = (max_tokens, keep_tail=None, flush_to_memory=false, tokenizer="estimate", strategy="tail"))]
    fn plan(
        &self,
        py: Python<'_>,
        max_tokens: i64,
        keep_tail: Option<i64>,
        flush_to_memory: bool,
        tokenizer: &str,
        strategy: &str,
    ) -> PyResult<Py<PyAny>> {
        let t = self::tokenizer(tokenizer)?;
        let (max_tokens, keep_tail) = budgets(max_tokens, keep_tail)?;
        let settings = settings(max_tokens, keep_tail, flush_to_memory, strategy, "system")?;
        let text = py.detach(|| -> Result<Vec<u8>, String> {
            let outcome = self.run(t, &settings, &Placeholder)?;
            let mut plan = Vec::new();
            compact::write_plan(&mut plan, &outcome).map_err(|e| e.to_string())?;
            let mut out = Vec::new();
            document::write_body::<compact::PlanDocument>(&mut out, self.inner.source(), &plan, false)
                .map_err(|e| e.to_string())?;
            Ok(out)
        });
        json_to_python(py, &text.map_err(value_error)?)
    }

    /// The compacted transcript, as `ctxlens compact` writes it (placeholder summary,
    /// or the `summary` given), as text.
    #[pyo3(signature = (max_tokens, keep_tail=None, flush_to_memory=false, tokenizer="estimate", strategy="tail", summary_role="system", summary=None))]
    #[allow(clippy::too_many_arguments)]
    fn compact(
        &self,
        py: Python<'_>,
        max_tokens: i64,
        keep_tail: Option<i64>,
        flush_to_memory: bool,
        tokenizer: &str,
        strategy: &str,
        summary_role: &str,
        summary: Option<String>,
    ) -> PyResult<String> {
        let t = self::tokenizer(tokenizer)?;
        let (max_tokens, keep_tail) = budgets(max_tokens, keep_tail)?;
        let settings = settings(max_tokens, keep_tail, flush_to_memory, strategy, summary_role)?;
        // An empty summary loses everything summarized without a word (the command line's
        // summarizers refuse one too).
        if summary.as_deref().is_some_and(|s| s.trim().is_empty()) {
            return Err(value_error(
                "summary is empty: give its text, or leave summary out for the placeholder",
            ));
        }
        let strategy = settings.strategy;
        py.detach(|| {
            let counts = Counts::compute(&self.inner, t);
            let planned = compact::plan_strategy(strategy, &self.inner, &counts, &settings.options);
            let summarizer: Box<dyn ::ctxlens::summarize::Summarizer> = match summary {
                Some(text) => Box::new(::ctxlens::summarize::Fixed {
                    text,
                    range: planned.cut().map_or(0..0, |c| c.head_end..c.split),
                }),
                None => Box::new(Placeholder),
            };
            let outcome = self.run(t, &settings, summarizer.as_ref()).map_err(value_error)?;
            match outcome.document.refusal() {
                Some(reason) => Err(value_error(reason)),
                None => Ok(outcome.document.to_text()),
            }
        })
    }

    /// A compactor over the session's whole life (placeholder summaries): the document
    /// `ctxlens replay FILE --max-tokens N --json --summarizer placeholder` prints (model
    /// calls, firings, final context, loops, what the whole life lost, the log's real
    /// compactions); with `policy`, another agent's compactor instead, as `ctxlens replay
    /// FILE --policy NAME [--set KEY=VALUE…] [--context-window N] --json --summarizer
    /// placeholder` prints it.
    #[pyo3(signature = (max_tokens=None, keep_tail=None, flush_to_memory=false, tokenizer="estimate", policy=None, set=None, context_window=None))]
    #[allow(clippy::too_many_arguments)]
    fn replay(
        &self,
        py: Python<'_>,
        max_tokens: Option<i64>,
        keep_tail: Option<i64>,
        flush_to_memory: bool,
        tokenizer: &str,
        policy: Option<&str>,
        set: Option<Vec<String>>,
        context_window: Option<i64>,
    ) -> PyResult<Py<PyAny>> {
        use ::ctxlens::replay::document::{ReplayDoc, Replayed};
        use ::ctxlens::replay::lost::lifetime_loss;
        let t = self::tokenizer(tokenizer)?;
        let max_tokens = match (max_tokens, policy) {
            (Some(_), Some(_)) => {
                return Err(value_error(
                    "replay takes max_tokens (ctxlens' compactor) or policy (another agent's), not both",
                ))
            }
            (None, Some(name)) => return self.replay_policy(py, name, set, context_window, t),
            (None, None) => return Err(value_error("replay needs max_tokens, or policy")),
            (Some(m), None) => m,
        };
        if set.is_some() || context_window.is_some() {
            return Err(value_error("set and context_window go with policy"));
        }
        let (max_tokens, keep_tail) = budgets(max_tokens, keep_tail)?;
        let settings = settings(max_tokens, keep_tail, flush_to_memory, "tail", "system")?;
        let text = py.detach(|| -> ::ctxlens::Result<String> {
            let never = ::ctxlens::cancel::never();
            let session = self.session(t)?;
            let outcome = ::ctxlens::replay::replay(&::ctxlens::replay::Inputs {
                view: session.view(),
                options: settings.options,
                summary_role: settings.summary_role,
                cuts_a_tail: true,
                summarizer: &Placeholder,
                cancel: never,
                progress: None,
            })?;
            let loss = lifetime_loss(session.facts(never)?, &outcome);
            let doc = ReplayDoc::of(&Replayed {
                whole: session.whole(),
                counts: session.counts(),
                view: session.view(),
                summarizer: ::ctxlens::summarize::Spec::Placeholder.to_string(),
                settings: &settings,
                outcome: &outcome,
                loss: &loss,
            });
            Ok(document::to_string(self.inner.source(), &doc, true))
        });
        json_to_python(py, text.map_err(value_error)?.as_bytes())
    }

    /// Every policy (or those named) replayed over the session's whole life, side by side
    /// (placeholder summaries): the document `ctxlens compare FILE --summarizer placeholder
    /// --json` prints. `set` holds `[NAME.]KEY=VALUE` settings as `--set` takes them.
    #[pyo3(signature = (policies=None, context_window=None, set=None, tokenizer="estimate"))]
    fn compare(
        &self,
        py: Python<'_>,
        policies: Option<Vec<String>>,
        context_window: Option<i64>,
        set: Option<Vec<String>>,
        tokenizer: &str,
    ) -> PyResult<Py<PyAny>> {
        use ::ctxlens::policy::compare::{compare, window_for, CompareDoc};
        let t = self::tokenizer(tokenizer)?;
        let chosen: Vec<&'static dyn ::ctxlens::policy::Policy> = match policies {
            None => ::ctxlens::policy::all(),
            Some(names) => names
                .iter()
                .map(|n| ::ctxlens::policy::by_name(n))
                .collect::<::ctxlens::Result<_>>()
                .map_err(value_error)?,
        };
        let given = context_window.map(|w| budget("context_window", w)).transpose()?;
        let set = set.unwrap_or_default();
        let text = py.detach(|| -> ::ctxlens::Result<String> {
            let never = ::ctxlens::cancel::never();
            let session = self.session(t)?;
            let window = window_for(given, session.whole());
            let rows = compare(
                session.whole(),
                session.counts(),
                &chosen,
                window,
                &set,
                &Placeholder,
                never,
                None,
            )?;
            let summarizer = ::ctxlens::summarize::Spec::Placeholder.to_string();
            let doc = CompareDoc::of(session.whole(), window, summarizer, rows);
            Ok(document::to_string(self.inner.source(), &doc, true))
        });
        json_to_python(py, text.map_err(value_error)?.as_bytes())
    }

    /// Many settings replayed over the session's whole life, in parallel (placeholder
    /// summaries), with the answers. With `max_tokens` (`"A..B"`, `"A..B:STEP"` or
    /// `"N,N,…"`, as `--max-tokens` takes them): ctxlens' compactor at each budget, the
    /// document `ctxlens sweep FILE --max-tokens … [--keep-tail K,…] [--keep N] --summarizer
    /// placeholder --json` prints (the knee, the smallest safe budget, the smallest that keeps
    /// message `keep`). With `policy` and `vary`: that policy once per value of one of its
    /// settings, the document `ctxlens sweep FILE --policy NAME --vary KEY=VALUES --summarizer
    /// placeholder --json` prints, with the first safe value and the cheapest
    /// (`minimise="cost"` makes it the answer).
    #[pyo3(signature = (policy=None, vary=None, set=None, context_window=None, minimise=None, tokenizer="estimate", max_tokens=None, keep_tail=None, keep_ratio=None, flush_to_memory=false, keep=None, fact_floor=::ctxlens::replay::sweep::DEFAULT_FACT_FLOOR))]
    #[allow(clippy::too_many_arguments)]
    fn sweep(
        &self,
        py: Python<'_>,
        policy: Option<&str>,
        vary: Option<&str>,
        set: Option<Vec<String>>,
        context_window: Option<i64>,
        minimise: Option<&str>,
        tokenizer: &str,
        max_tokens: Option<&str>,
        keep_tail: Option<Vec<i64>>,
        keep_ratio: Option<Vec<f64>>,
        flush_to_memory: bool,
        keep: Option<usize>,
        fact_floor: f64,
    ) -> PyResult<Py<PyAny>> {
        let t = self::tokenizer(tokenizer)?;
        let (policy, vary) = match (policy, vary, max_tokens) {
            (Some(policy), Some(vary), None) => (policy, vary),
            (None, None, Some(budgets)) => {
                if set.is_some() || context_window.is_some() || minimise.is_some() {
                    return Err(value_error("set, context_window and minimise go with policy and vary"));
                }
                let tails = BudgetTails { keep_tail, keep_ratio };
                return self.sweep_budgets(py, t, budgets, &tails, flush_to_memory, keep, fact_floor);
            }
            _ => {
                return Err(value_error(
                    "sweep takes max_tokens (ctxlens' compactor), or policy and vary (another agent's)",
                ))
            }
        };
        use ::ctxlens::policy::sweep::{sweep_policy, SweepDoc, SweepInputs, Vary};
        let (chosen, given) = policy_settings(policy, set)?;
        let vary: Vary = vary.parse().map_err(value_error)?;
        let minimise_cost = match minimise {
            None => false,
            Some("cost") => true,
            Some(other) => return Err(value_error(format!("minimise takes \"cost\", not {other:?}"))),
        };
        let given_window = context_window.map(|w| budget("context_window", w)).transpose()?;
        let text = py.detach(|| -> ::ctxlens::Result<String> {
            let never = ::ctxlens::cancel::never();
            let session = self.session(t)?;
            let (window, settings) = window_and_settings(&session, chosen, given_window, &given);
            let prices = ::ctxlens::cost::PriceTable::builtin();
            let swept = sweep_policy(&SweepInputs {
                whole: session.whole(),
                counts: session.counts(),
                policy: chosen,
                settings: &settings,
                vary: &vary,
                summarizer: &Placeholder,
                cancel: never,
                window: Some(window),
                prices: Some(prices),
            })?;
            let summarizer = ::ctxlens::summarize::Spec::Placeholder.to_string();
            let doc = SweepDoc::of(
                &swept,
                (chosen.name(), &vary.key),
                &given,
                summarizer,
                &prices.name,
                minimise_cost,
            );
            Ok(document::to_string(self.inner.source(), &doc, true))
        });
        json_to_python(py, text.map_err(value_error)?.as_bytes())
    }

    /// The compactions a session log records: the document `ctxlens history FILE --json`
    /// prints (its epochs; each compaction's sizes, summary, what the agent did again after
    /// it and what it lost).
    #[pyo3(signature = (tokenizer="estimate"))]
    fn history(&self, py: Python<'_>, tokenizer: &str) -> PyResult<Py<PyAny>> {
        use ::ctxlens::history_doc::{done_again, HistoryDoc};
        let t = self::tokenizer(tokenizer)?;
        let text = py.detach(|| -> ::ctxlens::Result<String> {
            let whole = self.inner.whole_session()?;
            let counts = Counts::compute(&whole, t);
            let found = ::ctxlens::history::history(&whole, &counts);
            let again = done_again(&whole, &counts, &found);
            let doc = HistoryDoc::of(&whole, &counts, &found, &again, &[]);
            Ok(document::to_string(whole.source(), &doc, true))
        });
        json_to_python(py, text.map_err(value_error)?.as_bytes())
    }

    /// How full the live context is and how far the agent's next compaction is, in the
    /// agent's own count: the document `ctxlens status FILE --json` prints (`context_window`
    /// as `--context-window` gives the window).
    #[pyo3(signature = (context_window=None))]
    fn status(&self, py: Python<'_>, context_window: Option<i64>) -> PyResult<Py<PyAny>> {
        let window = context_window.map(|w| budget("context_window", w)).transpose()?;
        let text = py.detach(|| {
            // Counted with the estimate, as the command line's status line counts.
            let counts = Counts::compute(&self.inner, Tokenizer::Estimate);
            let meter = ::ctxlens::meter::meter(&self.inner, &counts, window);
            document::to_string(self.inner.source(), &meter, false)
        });
        json_to_python(py, text.as_bytes())
    }

    /// Every automatic compaction of a session log predicted from what was known before it:
    /// the document a line of `ctxlens backtest FILE --json` holds, or `None` for a
    /// transcript whose agent has no policy of its own.
    #[pyo3(signature = (tokenizer="estimate"))]
    fn backtest(&self, py: Python<'_>, tokenizer: &str) -> PyResult<Option<Py<PyAny>>> {
        let t = self::tokenizer(tokenizer)?;
        let text = py.detach(|| -> ::ctxlens::Result<Option<String>> {
            let whole = self.inner.whole_session()?;
            let counts = Counts::compute(&whole, t);
            let summarizer = ::ctxlens::summarize::build(
                &::ctxlens::summarize::Spec::Extractive,
                &::ctxlens::summarize::Settings::default(),
            )?;
            let result =
                ::ctxlens::backtest::backtest(&whole, &counts, summarizer.as_ref(), ::ctxlens::cancel::never())?;
            Ok(result.map(|r| document::to_string(self.inner.source(), &r, false)))
        });
        match text.map_err(value_error)? {
            Some(text) => Ok(Some(json_to_python(py, text.as_bytes())?)),
            None => Ok(None),
        }
    }

    /// Pairing problems by a provider's rules (`openai`, `anthropic`, `gemini`,
    /// `responses`; default: the transcript's own): a list of dicts.
    #[pyo3(signature = (provider=None))]
    fn check(&self, py: Python<'_>, provider: Option<&str>) -> PyResult<Py<PyAny>> {
        use ::ctxlens::check::{check, Provider};
        let provider = match provider {
            None => Provider::for_dialect(self.inner.format().dialect),
            Some(name) => name.parse::<Provider>().map_err(value_error)?,
        };
        let problems = py.detach(|| serde_json::to_vec(&check(&self.inner, provider)));
        json_to_python(py, &problems.map_err(value_error)?)
    }
}

/// Loads a transcript: a path (`str` or `os.PathLike`), or the messages themselves (a
/// list of dicts, or a dict such as a request body with `messages`). `format` forces one
/// of `--format`'s values. `thresholds_from` is where the user's earlier sessions are
/// (a folder, or `none`), as `--thresholds-from` says; by default, as the command line,
/// the log's own folder then `~/.claude/projects`.
#[pyfunction]
#[pyo3(signature = (source, format=None, thresholds_from=None))]
fn load(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    thresholds_from: Option<&str>,
) -> PyResult<Transcript> {
    use ::ctxlens::transcript::earlier::{EarlierSessions, Source};
    let forced: Option<FormatOverride> = format.map(str::parse).transpose().map_err(value_error)?;
    let inner = if source.is_instance_of::<PyList>() || source.is_instance_of::<PyDict>() {
        let json = py.import("json")?;
        let text: String = json.call_method1("dumps", (source,))?.extract()?;
        py.detach(|| Core::parse("<python>", text.into_bytes(), forced))
    } else if source.is_instance_of::<PyString>() || source.hasattr("__fspath__")? {
        let path: PathBuf = source.extract()?;
        if path.as_os_str() != "-" {
            // An opencode database's session (`opencode.db#ses_…`) is read from its file.
            let store = ::ctxlens::transcript::opencode_store::Store::of(&path);
            refuse_unreadable(store.as_ref().map_or(path.as_path(), |s| s.file()))?;
        }
        let sessions = EarlierSessions::from(
            &path,
            thresholds_from.map_or_else(|| Source::beside(&path), Source::parse),
        );
        py.detach(|| Core::read(&path, forced).map(|t| t.with_earlier_sessions(sessions)))
    } else {
        return Err(PyTypeError::new_err(format!(
            "load() takes a path, or a list or dict of messages, not {}",
            source.get_type().name()?
        )));
    };
    Ok(Transcript {
        inner: inner.map_err(value_error)?,
        sessions: std::sync::Mutex::default(),
    })
}

/// A path that cannot be read as a file, refused with the `OSError` subclass Python's own
/// `open()` raises for it (`FileNotFoundError`, `IsADirectoryError`, `PermissionError`),
/// so callers catch what they would catch for a file; other faults stay `ValueError`s.
fn refuse_unreadable(path: &std::path::Path) -> PyResult<()> {
    let name = path.display().to_string();
    if path.is_dir() {
        return Err(PyIsADirectoryError::new_err((21, "Is a directory", name)));
    }
    match std::fs::File::open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(PyFileNotFoundError::new_err((2, "No such file or directory", name)))
        }
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            Err(PyPermissionError::new_err((13, "Permission denied", name)))
        }
        Err(_) => Ok(()), // the reader names any other fault with the file
    }
}

/// The standing instructions of the session logs at `path` (a log, or a folder searched
/// for `*.jsonl` logs) across their compactions: the document `ctxlens ledger PATH
/// --json` prints. `review`: the review file (`pin:`/`ignore:` lines; default: a
/// `.ctxlens-ledger` beside the sessions). A file in a folder that is not a session log
/// is passed over with a `UserWarning`.
#[pyfunction]
#[pyo3(signature = (path, review=None, format=None))]
fn ledger(py: Python<'_>, path: PathBuf, review: Option<PathBuf>, format: Option<&str>) -> PyResult<Py<PyAny>> {
    use ::ctxlens::ledger_files::{ledger_at, read_review, LedgerDoc};
    let forced: Option<FormatOverride> = format.map(str::parse).transpose().map_err(value_error)?;
    if !path.exists() {
        let name = path.display().to_string();
        return Err(PyFileNotFoundError::new_err((2, "No such file or directory", name)));
    }
    let (text, skipped) = py
        .detach(|| -> ::ctxlens::Result<(String, Vec<String>)> {
            let review = read_review(review.as_deref(), &path)?;
            let mut skipped = Vec::new();
            let found = ledger_at(&path, forced, &review, &mut |file, e| {
                skipped.push(format!("{}: skipped: {e}", file.display()));
            })?;
            let doc = document::to_string(&document::file_name(&path), &LedgerDoc::of(&found), true);
            Ok((doc, skipped))
        })
        .map_err(value_error)?;
    let warnings = py.import("warnings")?;
    for message in skipped {
        warnings.call_method1("warn", (message,))?;
    }
    json_to_python(py, text.as_bytes())
}

/// The tokenizers `counts()` and friends accept.
#[pyfunction]
fn tokenizers() -> Vec<&'static str> {
    Tokenizer::ALL.iter().map(|t| t.name()).collect()
}

/// See what an LLM agent's compactor keeps, cuts and summarizes.
///
/// `ctxlens.load(path_or_messages)` gives a `Transcript`: `counts()`, `total()`, `plan()`,
/// `compact()`, `replay()`, `check()` return plain Python values (the documents the
/// `ctxlens` command prints as JSON); `ctxlens.ledger(path)` the standing instructions of
/// a session or a folder of them. Every call releases the GIL while it works.
#[pymodule]
fn ctxlens(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<Transcript>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(tokenizers, m)?)?;
    m.add_function(wrap_pyfunction!(ledger, m)?)?;
    Ok(())
}
