//! One policy replayed once per value of one of its settings (`sweep --policy NAME
//! --vary KEY=VALUES`), in parallel, with the answers a user wants to paste: the first
//! value, in the order given, at which the policy never loops and keeps every user
//! instruction ([`Row::safe`]), and the safe value that costs least with prompt caching
//! ([`Swept::cheapest_safe`], each row priced by [`super::replay_cost::replay_cost`] where the
//! log records usage). `sweep --policy` prints its rows and answers; what "safe" or
//! "cheapest" means is decided here, never by a front end.
//!
//! `VALUES` is a list (`a,b,c`) or a range `A..B[:STEP]` after an optional prefix the
//! key's values carry (`trigger=tokens:100000..180000:20000`); a range ends at `B`
//! whatever the step, and takes decimals (`fraction:0.5..0.9:0.1`) counted exactly.

use rayon::prelude::*;

use super::replay::{Replayed, SessionReplays};
use super::{Policy, PolicySettings};
use crate::cancel::CancelToken;
use crate::cost::PriceTable;
use crate::summarize::Summarizer;
use crate::tokens::Counts;
use crate::transcript::Transcript;

/// The most values one policy sweep replays.
pub const MAX_VALUES: usize = 200;

/// `--vary KEY=VALUES`, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Vary {
    /// The policy's key.
    pub key: String,
    /// Its values, as `--set` would take them.
    pub values: Vec<String>,
}

impl std::str::FromStr for Vary {
    type Err = crate::Error;

    /// Reads `KEY=VALUES`.
    fn from_str(s: &str) -> Result<Vary, crate::Error> {
        let bad = |why: String| crate::Error::Setting(format!("--vary {s}: {why}"));
        let (key, values) = s
            .split_once('=')
            .ok_or_else(|| bad("expected KEY=VALUES (a list a,b,c or a range A..B[:STEP])".to_owned()))?;
        let key = key.trim();
        if key.is_empty() {
            return Err(bad("no key".to_owned()));
        }
        let values = match values.split_once("..") {
            Some((left, right)) => range(left, right).map_err(bad)?,
            None => values
                .split(',')
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(str::to_owned)
                .collect(),
        };
        if values.is_empty() {
            return Err(bad("no value".to_owned()));
        }
        if values.len() > MAX_VALUES {
            return Err(bad(format!(
                "{} values; a policy sweep runs at most {MAX_VALUES} (use a larger step)",
                values.len()
            )));
        }
        Ok(Vary {
            key: key.to_owned(),
            values,
        })
    }
}

/// A number of a range in units of `10^-decimals`, exactly: `1.5` with 2 decimals is 150.
fn scaled(text: &str, decimals: u32) -> Result<u128, String> {
    let text = text.trim().replace('_', "");
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || !(fraction.is_empty() || digits(fraction)) || fraction.len() as u32 > decimals {
        return Err(format!("`{text}` is not a number"));
    }
    let padded = format!("{whole}{fraction:0<width$}", width = decimals as usize);
    padded.parse::<u128>().map_err(|_| format!("`{text}` is too large"))
}

/// Decimals written after the point of a number (`0.25` → 2).
fn decimals_of(text: &str) -> u32 {
    text.trim().split_once('.').map_or(0, |(_, f)| f.trim().len() as u32)
}

/// `PREFIX A .. B[:STEP]`: the prefix is whatever precedes A's digits; the values run
/// from A by STEP (a tenth of the span by default) and end at B.
fn range(left: &str, right: &str) -> Result<Vec<String>, String> {
    // A's digits (grouped with `_`, with a decimal point) end the left side.
    let run = left.len()
        - left
            .trim_end_matches(|c: char| c.is_ascii_digit() || c == '_' || c == '.')
            .len();
    let (prefix, a) = left.split_at(left.len() - run);
    let (b, step) = match right.split_once(':') {
        Some((b, step)) => (b, Some(step)),
        None => (right, None),
    };
    let decimals = decimals_of(a).max(decimals_of(b)).max(step.map_or(0, decimals_of));
    if decimals > 9 {
        return Err("more than 9 decimals".to_owned());
    }
    let (start, end) = (scaled(a, decimals)?, scaled(b, decimals)?);
    if end < start {
        return Err(format!("the range is empty ({} < {})", b.trim(), a.trim()));
    }
    let step = match step {
        Some(step) => scaled(step, decimals)?,
        None => ((end - start) / 10).max(1),
    };
    if step == 0 {
        return Err("the step must be positive".to_owned());
    }
    if (end - start) / step >= MAX_VALUES as u128 {
        return Err(format!("more than {MAX_VALUES} values: use a larger step"));
    }
    let write = |n: u128| {
        if decimals == 0 {
            format!("{prefix}{n}")
        } else {
            let unit = 10u128.pow(decimals);
            format!("{prefix}{}.{:0width$}", n / unit, n % unit, width = decimals as usize)
        }
    };
    let mut values: Vec<String> = (0..=(end - start) / step).map(|k| write(start + k * step)).collect();
    // The end is always a value: a step that does not divide the span stops short of it.
    if (end - start) % step != 0 {
        values.push(write(end));
    }
    Ok(values)
}

/// One replay's figures, as the tables of `compare` and of a policy sweep show them (and
/// their JSON).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Figures {
    /// Times it fired.
    pub firings: usize,
    /// Firings after which it may act again at once.
    pub loops: usize,
    /// The largest context sent (counted).
    pub peak_counted: u64,
    /// The largest billed context, when every call could be billed.
    pub peak_billed: Option<u64>,
    /// Everything sent over the session (counted).
    pub counted_total: u64,
    /// Everything billed over the session, when every call could be billed.
    pub billed_total: Option<u64>,
    /// Tokens every summary read, together.
    pub summary_input_tokens: u64,
    /// Human turns removed and restated by no summary.
    pub instructions_lost: usize,
    /// Human turns in the session.
    pub instructions: usize,
    /// The first message of the session it removed.
    pub first_lost: Option<usize>,
    /// Requests over the model's window: the provider refuses them.
    pub refused: usize,
}

impl Figures {
    /// The figures of a replay.
    pub fn of(r: &Replayed) -> Figures {
        Figures {
            firings: r.firings.len(),
            loops: r.loops,
            peak_counted: r.peak_counted,
            peak_billed: r.peak_billed,
            counted_total: r.counted_total,
            billed_total: r.billed_total,
            summary_input_tokens: r.summary_input_tokens,
            instructions_lost: r.instructions_lost.len(),
            instructions: r.instructions,
            first_lost: r.first_lost,
            refused: r.refused,
        }
    }
}

/// One value's replay.
#[derive(Debug, Clone, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Row {
    /// The value, as `--set` takes it.
    pub value: String,
    /// The replay's figures.
    #[serde(flatten)]
    pub figures: Figures,
    /// What the session would have cost under this value with prompt caching, in
    /// dollars (the sweep's price table); `None` where the log records no usage to
    /// model the cache by, or the table has no price for a model it used.
    pub cost_usd: Option<f64>,
    /// The policy's warnings under this value.
    pub warnings: Vec<String>,
}

impl Row {
    /// Safe: the policy never loops, keeps every user instruction and sends no request
    /// the provider refuses.
    pub fn safe(&self) -> bool {
        self.figures.loops == 0 && self.figures.instructions_lost == 0 && self.figures.refused == 0
    }
}

/// A policy sweep's answer.
#[derive(Debug, Clone)]
pub struct Swept {
    /// One row per value, in the order given.
    pub rows: Vec<Row>,
    /// The first safe row, when one is.
    pub first_safe: Option<usize>,
    /// The safe row that costs least (the first of equals), when any safe row is priced.
    pub cheapest_safe: Option<usize>,
}

/// `sweep --policy`'s answer (`Transcript.sweep(policy=…)` in Python): every row, and the
/// values a user wants to paste.
#[derive(serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SweepDoc<'a> {
    /// The policy.
    pub policy: &'a str,
    /// The key varied.
    pub key: &'a str,
    /// The fixed settings the user gave.
    pub settings: Vec<(String, String)>,
    /// The summarizer of the firings.
    pub summarizer: String,
    /// One row per value, in the order given.
    pub rows: &'a [Row],
    /// The first value at which the policy never loops and keeps every instruction.
    pub first_safe: Option<&'a str>,
    /// The safe value that costs least with prompt caching (rows priced from `prices`).
    pub cheapest_safe: Option<&'a str>,
    /// The answer: `first_safe`, or `cheapest_safe` when cost is minimised.
    pub answer: Option<&'a str>,
    /// The price table the rows' `cost_usd` come from.
    pub prices: &'a str,
}

impl crate::document::Document for SweepDoc<'_> {
    const NAME: &'static str = "sweep-policy";
}

impl<'a> SweepDoc<'a> {
    /// The answer of `swept`, a sweep of `policy`'s `key` over the fixed `settings` the user
    /// gave, priced from `prices`; `minimise_cost` makes the cheapest safe value the answer.
    pub fn of(
        swept: &'a Swept,
        (policy, key): (&'a str, &'a str),
        settings: &PolicySettings,
        summarizer: String,
        prices: &'a str,
        minimise_cost: bool,
    ) -> SweepDoc<'a> {
        let value = |i: Option<usize>| i.map(|i| swept.rows[i].value.as_str());
        let (first_safe, cheapest_safe) = (value(swept.first_safe), value(swept.cheapest_safe));
        SweepDoc {
            policy,
            key,
            settings: settings.pairs(),
            summarizer,
            rows: &swept.rows,
            first_safe,
            cheapest_safe,
            answer: if minimise_cost { cheapest_safe } else { first_safe },
            prices,
        }
    }
}

/// What a policy sweep replays.
pub struct SweepInputs<'a> {
    /// The session, every epoch.
    pub whole: &'a Transcript,
    /// Its counts.
    pub counts: &'a Counts,
    /// The policy.
    pub policy: &'static dyn Policy,
    /// Its fixed settings.
    pub settings: &'a PolicySettings,
    /// The key varied and its values.
    pub vary: &'a Vary,
    /// The summarizer of its summaries.
    pub summarizer: &'a dyn Summarizer,
    /// Stops the replays.
    pub cancel: &'a CancelToken,
    /// The model's context window (requests over it are refused), when known.
    pub window: Option<u64>,
    /// Prices each row's replay (`None`: no cost is modelled).
    pub prices: Option<&'a PriceTable>,
}

/// Replays the policy once per value, in parallel; the key and the fixed settings are
/// checked against the policy's keys first.
pub fn sweep_policy(inputs: &SweepInputs<'_>) -> crate::Result<Swept> {
    let policy = inputs.policy;
    if !policy.keys().contains(&inputs.vary.key.as_str()) {
        return Err(crate::Error::Setting(format!(
            "--vary {}: {} has no such key (it takes {})",
            inputs.vary.key,
            policy.name(),
            policy.keys().join(", ")
        )));
    }
    inputs.settings.check_keys(policy.name(), policy.keys())?;
    let session = SessionReplays::of(inputs.whole, inputs.counts);
    // A replay is priced only where the log says what its calls were billed.
    let cache = inputs
        .prices
        .filter(|table| crate::cost::session_cost(inputs.whole, table).is_some())
        .map(|table| super::replay_cost::CacheModel::of(inputs.whole, table));
    let rows: Vec<Row> = inputs
        .vary
        .values
        .par_iter()
        .map(|value| {
            let settings = inputs.settings.clone().with(&inputs.vary.key, value);
            let replayed = session
                .replay(policy, &settings, inputs.summarizer, inputs.window, inputs.cancel)
                .map_err(|e| match e {
                    crate::Error::Setting(e) => crate::Error::Setting(format!("{}={value}: {e}", inputs.vary.key)),
                    other => other,
                })?;
            Ok(Row {
                value: value.clone(),
                figures: Figures::of(&replayed),
                cost_usd: cache.as_ref().and_then(|cache| cache.cost(&replayed).total),
                warnings: replayed.warnings,
            })
        })
        .collect::<crate::Result<_>>()?;
    let first_safe = rows.iter().position(Row::safe);
    let cheapest_safe = cheapest_safe(&rows);
    Ok(Swept {
        rows,
        first_safe,
        cheapest_safe,
    })
}

/// The safe row with the lowest cost, the first of equals; `None` when no safe row is
/// priced.
fn cheapest_safe(rows: &[Row]) -> Option<usize> {
    rows.iter()
        .enumerate()
        .filter(|(_, r)| r.safe())
        .filter_map(|(i, r)| Some((i, r.cost_usd?)))
        .fold(None, |best: Option<(usize, f64)>, (i, cost)| match best {
            Some((_, lowest)) if lowest <= cost => best,
            _ => Some((i, cost)),
        })
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vary(s: &str) -> Result<Vary, String> {
        s.parse::<Vary>().map_err(|e| e.to_string())
    }

    #[test]
    fn a_range_keeps_its_prefix_and_a_list_is_taken_as_written() {
        let v = vary("trigger=tokens:100..300:100").unwrap();
        assert_eq!(v.key, "trigger");
        assert_eq!(v.values, ["tokens:100", "tokens:200", "tokens:300"]);
        let v = vary("threshold=1_000..1_200:100").unwrap();
        assert_eq!(v.values, ["1000", "1100", "1200"]);
        let v = vary("keep=messages:10,messages:20").unwrap();
        assert_eq!(v.values, ["messages:10", "messages:20"]);
    }

    #[test]
    fn a_range_ends_at_its_end_whatever_the_step() {
        let v = vary("max_tokens=100..1005").unwrap();
        assert_eq!(v.values.first().map(String::as_str), Some("100"));
        assert_eq!(v.values.last().map(String::as_str), Some("1005"));
        let v = vary("max_tokens=1..18446744073709551615").unwrap();
        assert_eq!(v.values.last().map(String::as_str), Some("18446744073709551615"));
        assert!(v.values.len() <= 12, "{:?}", v.values);
    }

    #[test]
    fn decimal_ranges_are_counted_exactly() {
        let v = vary("trigger=fraction:0.5..0.9:0.1").unwrap();
        assert_eq!(
            v.values,
            [
                "fraction:0.5",
                "fraction:0.6",
                "fraction:0.7",
                "fraction:0.8",
                "fraction:0.9"
            ]
        );
        let v = vary("autocompact_pct=1.5..3").unwrap();
        assert_eq!(v.values.first().map(String::as_str), Some("1.5"));
        assert_eq!(v.values.last().map(String::as_str), Some("3.0"));
    }

    /// A row that loops `loops` times, sends `refused` requests the provider refuses and
    /// costs `cost_usd`; nothing lost.
    fn row(loops: usize, refused: usize, cost_usd: Option<f64>) -> Row {
        Row {
            value: String::new(),
            figures: Figures {
                firings: 1,
                loops,
                peak_counted: 0,
                peak_billed: None,
                counted_total: 0,
                billed_total: None,
                summary_input_tokens: 0,
                instructions_lost: 0,
                instructions: 3,
                first_lost: None,
                refused,
            },
            cost_usd,
            warnings: Vec::new(),
        }
    }

    #[test]
    fn a_setting_whose_requests_the_provider_refuses_is_not_safe() {
        assert!(row(0, 0, None).safe());
        assert!(!row(0, 2, None).safe());
    }

    #[test]
    fn the_cheapest_safe_row_is_the_lowest_priced_safe_one_first_of_equals() {
        // A cheaper row that loops is not safe; an unpriced one is not chosen.
        let rows = [
            row(0, 0, Some(3.0)),
            row(1, 0, Some(1.0)),
            row(0, 0, None),
            row(0, 0, Some(2.0)),
            row(0, 0, Some(2.0)),
        ];
        assert_eq!(cheapest_safe(&rows), Some(3));
        assert_eq!(cheapest_safe(&rows[..3]), Some(0));
        assert_eq!(cheapest_safe(&[row(0, 0, None)]), None);
    }

    #[test]
    fn bad_ranges_are_refused_with_the_reason() {
        assert!(vary("threshold").unwrap_err().contains("KEY=VALUES"));
        assert!(vary("threshold=5..1").unwrap_err().contains("empty (1 < 5)"));
        assert!(vary("threshold=1..100000:1").unwrap_err().contains("larger step"));
        assert!(vary("threshold=a..b").unwrap_err().contains("not a number"));
        assert!(vary("threshold=1..2:0").unwrap_err().contains("positive"));
        assert!(vary("=1,2").unwrap_err().contains("no key"));
    }
}
