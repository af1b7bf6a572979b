//! The budget sweep as a user asks it and reads its answer: the budgets typed
//! (`A..B`, `A..B:STEP`, a list), the settings they make once the budgets the session never
//! reaches are set aside, and the `sweep --json` document — one definition for the command
//! line, the TUI and Python.

use serde::Serialize;

use super::sweep::{Answer, Range, Row, Sweep, ANSWER_STEPS};
use crate::compact::Options;
use crate::replay::View;
use crate::tokens::Counts;

/// The most settings one sweep runs (a typo such as `1..1000000:1` would otherwise run
/// for hours).
pub const MAX_BUDGETS: usize = 1000;

/// The budgets asked for, and the range they were given as (`A..B`, or a list's smallest
/// and largest): the answers are searched over the range, not the steps.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Budgets {
    /// The budgets, in the order given.
    pub values: Vec<u64>,
    /// The range's start.
    pub from: u64,
    /// The range's end.
    pub to: u64,
}

impl std::str::FromStr for Budgets {
    type Err = crate::Error;

    /// `A..B` (11 equal steps), `A..B:STEP` (ending at `B` whatever the step), or
    /// `N,N,…`.
    fn from_str(s: &str) -> crate::Result<Budgets> {
        let invalid = |m: String| crate::Error::Invalid(m);
        let number = |t: &str| {
            t.trim()
                .replace('_', "")
                .parse::<u64>()
                .map_err(|_| invalid(format!("`{t}` is not a token count")))
        };
        let values = if let Some((a, rest)) = s.split_once("..") {
            let (b, step) = match rest.split_once(':') {
                Some((b, step)) => (number(b)?, Some(number(step)?)),
                None => (number(rest)?, None),
            };
            let a = number(a)?;
            if b < a {
                return Err(invalid(format!("the range {s} is empty ({b} < {a})")));
            }
            let explicit_step = step;
            let step = step.unwrap_or(((b - a) / 10).max(1));
            if step == 0 {
                return Err(invalid("the step must be positive".to_owned()));
            }
            if (b - a) / step >= MAX_BUDGETS as u64 {
                return Err(invalid(format!(
                    "{s} has more than {MAX_BUDGETS} budgets: use a larger step"
                )));
            }
            // Each value at most B: a + k·step never passes it (k ≤ (B − A) / step); and
            // the range ends at its end, B itself, whatever the step (`100..1005:300` ends
            // 1005). Without a step, 11 equal steps from A to B.
            let mut values: Vec<u64> = match explicit_step {
                Some(_) => (0..=(b - a) / step).map(|k| a + k * step).collect(),
                None => (0..=10u128)
                    .map(|k| a + u64::try_from(u128::from(b - a) * k / 10).unwrap_or(b - a))
                    .collect(),
            };
            values.dedup();
            if values.last() != Some(&b) {
                values.push(b);
            }
            values
        } else {
            s.split(',').map(number).collect::<crate::Result<Vec<_>>>()?
        };
        if values.is_empty() {
            return Err(invalid("no budget given".to_owned()));
        }
        if values.len() > MAX_BUDGETS {
            return Err(invalid(format!(
                "{} budgets: a sweep runs at most {MAX_BUDGETS}",
                values.len()
            )));
        }
        let (from, to) = match s.split_once("..") {
            Some((a, rest)) => (number(a)?, number(rest.split_once(':').map_or(rest, |(b, _)| b))?),
            None => (
                values.iter().copied().min().unwrap_or(0),
                values.iter().copied().max().unwrap_or(0),
            ),
        };
        Ok(Budgets { values, from, to })
    }
}

/// The settings of a sweep over `budgets` with `range`'s tail rules, checked and fitted to
/// a session of `whole` tokens: budgets past the whole session never fire and all read
/// the same, so the smallest of them is kept and the rest set aside (`1..u64::MAX` stays
/// a sweep of the budgets that matter), the range ending there too.
#[derive(Debug, Clone)]
pub struct Asked {
    /// The settings to replay, in the order to report them.
    pub settings: Vec<Options>,
    /// The range the answers are searched over.
    pub range: Range,
    /// How many settings were set aside, and the budget from which on (the first past the
    /// whole session).
    pub set_aside: Option<(usize, u64)>,
}

impl Asked {
    /// The sweep of `budgets`, each with every tail rule of `range`, on a session of
    /// `whole` tokens.
    ///
    /// # Errors
    /// More than [`MAX_BUDGETS`] settings (budgets × tails): such a sweep would run for
    /// hours.
    pub fn of(budgets: &Budgets, mut range: Range, whole: u64) -> crate::Result<Asked> {
        // Checked before the settings are made: a cross product of two long lists must not
        // run (or even be built) for hours.
        let tails = range.tails.len().max(1);
        let count = budgets.values.len().saturating_mul(tails);
        if count > MAX_BUDGETS {
            return Err(crate::Error::Invalid(format!(
                "{} budgets × {tails} tails = {count} settings: a sweep runs at most {MAX_BUDGETS} (give fewer budgets or tails)",
                budgets.values.len(),
            )));
        }
        let mut settings = range.settings(&budgets.values);
        let mut set_aside = None;
        if let Some(first_over) = settings.iter().map(|o| o.max_tokens).filter(|&m| m >= whole).min() {
            let before = settings.len();
            settings.retain(|o| o.max_tokens <= first_over);
            range.to = range.to.min(first_over);
            let left_out = before - settings.len();
            if left_out > 0 {
                set_aside = Some((left_out, first_over));
            }
        }
        Ok(Asked {
            settings,
            range,
            set_aside,
        })
    }
}

/// The `sweep --json` document of the budget sweep.
#[derive(Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct SweepDoc<'a> {
    #[cfg_attr(
        feature = "schema",
        schemars(schema_with = "crate::names::schema::<crate::tokens::Tokenizer>")
    )]
    tokenizer: &'static str,
    summarizer: String,
    messages: usize,
    total_tokens: u64,
    /// One row per setting, in the order given.
    settings: &'a [Row],
    /// Where more budget stops buying many fewer firings.
    knee: Option<&'a Answer>,
    /// The smallest safe setting.
    smallest_safe: Option<&'a Answer>,
    /// The smallest `max_tokens` that keeps the `--keep` message verbatim to the end.
    smallest_keeping: Option<&'a Answer>,
    fact_floor_percent: f64,
    answer_steps: u64,
}

impl crate::document::Document for SweepDoc<'_> {
    const NAME: &'static str = "sweep";
}

impl<'a> SweepDoc<'a> {
    /// The document of `outcome`, swept over `view` (counted by `counts`) with the
    /// summarizer `--summarizer` names `summarizer`.
    pub fn of(view: &View, counts: &Counts, summarizer: String, outcome: &'a Sweep) -> SweepDoc<'a> {
        SweepDoc {
            tokenizer: counts.tokenizer.name(),
            summarizer,
            messages: view.len(),
            total_tokens: view.total(),
            settings: &outcome.rows,
            knee: outcome.knee.as_ref(),
            smallest_safe: outcome.smallest_safe.as_ref(),
            smallest_keeping: outcome.smallest_keeping.as_ref(),
            fact_floor_percent: outcome.fact_floor,
            answer_steps: ANSWER_STEPS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::sweep::TailRule;

    #[test]
    fn budgets_parse_as_ranges_and_lists() {
        let parse = |s: &str| s.parse::<Budgets>();
        assert_eq!(parse("1000..4000:500").unwrap().values.len(), 7);
        assert_eq!(
            parse("100..1005:300").unwrap().values,
            [100, 400, 700, 1000, 1005],
            "a range ends at its end"
        );
        let stepped = parse("1000..4300:1000").unwrap();
        assert_eq!(
            (stepped.from, stepped.to),
            (1000, 4300),
            "the range is as given, not as stepped"
        );
        assert_eq!(
            parse("1000..2000").unwrap().values,
            (0..=10).map(|k| 1000 + k * 100).collect::<Vec<_>>()
        );
        let list = parse("10,5,20").unwrap();
        assert_eq!((list.values, list.from, list.to), (vec![10, 5, 20], 5, 20));
        assert!(parse("4000..1000").is_err());
        assert!(parse("1..1000000:1").is_err());
        assert!(parse("a..b").is_err());
        let whole = parse(&format!("0..{}", u64::MAX)).expect("the widest range");
        assert_eq!(whole.values.last(), Some(&u64::MAX), "no overflow, ends at its end");
    }

    #[test]
    fn budgets_past_the_session_are_set_aside_but_the_first() {
        let budgets: Budgets = "1000..5000:1000".parse().unwrap();
        let range = Range {
            from: budgets.from,
            to: budgets.to,
            tails: vec![TailRule::Default],
            flush_to_memory: false,
        };
        let asked = Asked::of(&budgets, range, 2500).unwrap();
        let kept: Vec<u64> = asked.settings.iter().map(|o| o.max_tokens).collect();
        assert_eq!(kept, [1000, 2000, 3000]);
        assert_eq!(asked.set_aside, Some((2, 3000)));
        assert_eq!(asked.range.to, 3000);
        let many = Range {
            from: 0,
            to: 0,
            tails: (0..2).map(TailRule::Tokens).collect(),
            flush_to_memory: false,
        };
        let list: Budgets = (0..600)
            .map(|k| k.to_string())
            .collect::<Vec<_>>()
            .join(",")
            .parse()
            .unwrap();
        assert!(
            Asked::of(&list, many, 10).is_err(),
            "600 budgets × 2 tails is over the bound"
        );
    }
}
