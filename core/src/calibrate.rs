//! Calibration against recorded usage: a session log records, for each model call, how
//! many prompt tokens the provider counted. ctxlens fits those figures against what it
//! counts of the same context — a fixed overhead the log does not hold (the system
//! prompt and the tool definitions) plus a ratio (the tokenizer's bias) — and reports
//! the overhead, each call's error, and a calibrated total that matches the bill.

use crate::tokens::Counts;
use crate::transcript::Transcript;

/// One model call with recorded usage, beside the fit.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct CallFit {
    /// The message the response is (its prompt is everything before it).
    pub index: usize,
    /// Prompt tokens the provider recorded.
    pub recorded: u64,
    /// What ctxlens counts of the messages before it.
    pub counted: u64,
    /// `overhead + ratio × counted`.
    pub fitted: u64,
    /// `|fitted − recorded| / recorded`, in percent.
    pub error_percent: f64,
}

/// The fit of a log's recorded usage.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Calibration {
    /// Tokens every call carries that the log does not hold (system prompt, tools).
    pub overhead: u64,
    /// Recorded tokens per counted token.
    pub ratio: f64,
    /// Every call, in order.
    pub calls: Vec<CallFit>,
    /// The median per-call error, in percent.
    pub median_error_percent: f64,
    /// The worst per-call error, in percent.
    pub worst_error_percent: f64,
}

impl Calibration {
    /// The provider's figure for a context ctxlens counts as `counted`.
    pub fn predict(&self, counted: u64) -> u64 {
        (self.overhead as f64 + self.ratio * counted as f64).round().max(0.0) as u64
    }
}

/// The (counted, recorded) pairs of a transcript: one per message with recorded usage.
pub fn recorded_calls(transcript: &Transcript, counts: &Counts) -> Vec<(usize, u64, u64)> {
    transcript
        .messages
        .iter()
        .enumerate()
        .filter_map(|(i, m)| {
            let recorded = m.recorded()?.context_tokens();
            let counted = if i == 0 { 0 } else { counts.cumulative(i - 1) };
            (recorded > 0).then_some((i, counted, recorded))
        })
        .collect()
}

/// Fits the recorded usage of `transcript` against `counts`; `None` when the log records
/// no usage.
pub fn calibrate(transcript: &Transcript, counts: &Counts) -> Option<Calibration> {
    fitted(&recorded_calls(transcript, counts))
}

/// The fit of a transcript read on (`on`) from `base`, whose fit was `earlier` (`None`:
/// it recorded no usage) and whose counts are `counts`; `fresh` counts the messages read.
/// The calls before the messages read again keep their points, those read add theirs:
/// what [`calibrate`] gives for the grown transcript, made by a worker from what it read
/// (the fit itself is over every call, so it costs the calls, not the file).
pub fn calibrate_read_on(
    earlier: Option<&Calibration>,
    base: &Transcript,
    counts: &Counts,
    on: &crate::transcript::ReadOn,
    fresh: &[u64],
) -> Option<Calibration> {
    let kept = on.kept();
    let mut points: Vec<(usize, u64, u64)> = earlier.map_or_else(Vec::new, |fit| {
        fit.calls
            .iter()
            .take_while(|call| call.index < kept)
            .map(|call| (call.index, call.counted, call.recorded))
            .collect()
    });
    let read = on.messages_alone(base);
    let mut counted = kept.checked_sub(1).map_or(0, |k| counts.cumulative(k));
    for (j, message) in read.messages.iter().enumerate() {
        if let Some(recorded) = message.recorded().map(|r| r.context_tokens()).filter(|&t| t > 0) {
            points.push((kept + j, counted, recorded));
        }
        counted = counted.saturating_add(fresh.get(j).copied().unwrap_or(0));
    }
    fitted(&points)
}

/// The calibration of (index, counted, recorded) points.
fn fitted(points: &[(usize, u64, u64)]) -> Option<Calibration> {
    let (overhead, ratio) = fit(points)?;
    let calls: Vec<CallFit> = points
        .iter()
        .map(|&(index, counted, recorded)| {
            let fitted = (overhead + ratio * counted as f64).round().max(0.0) as u64;
            let error = (fitted as f64 - recorded as f64).abs() / recorded as f64 * 100.0;
            CallFit {
                index,
                recorded,
                counted,
                fitted,
                error_percent: (error * 10.0).round() / 10.0,
            }
        })
        .collect();
    let mut errors: Vec<f64> = calls.iter().map(|c| c.error_percent).collect();
    errors.sort_by(f64::total_cmp);
    let median = if errors.len() % 2 == 1 {
        errors[errors.len() / 2]
    } else {
        f64::midpoint(errors[errors.len() / 2 - 1], errors[errors.len() / 2])
    };
    Some(Calibration {
        overhead: overhead.round().max(0.0) as u64,
        ratio: (ratio * 1000.0).round() / 1000.0,
        median_error_percent: (median * 10.0).round() / 10.0,
        worst_error_percent: errors.last().copied().unwrap_or(0.0),
        calls,
    })
}

/// One epoch of a session (what the model saw between two real compactions) and the fit
/// of its own calls.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct EpochFit {
    /// Its messages in the whole session.
    pub messages: std::ops::Range<usize>,
    /// The fit of the calls made in it, each against the epoch's own context (from its
    /// first message, a past summary, on); `None` when none recorded usage.
    pub calibration: Option<Calibration>,
}

/// Fits each epoch of `whole` (a session with every epoch, and its counts) on its own:
/// after a real compaction the context is a different one (other instructions re-read,
/// other tools), so one fit across it is wrong for both.
pub fn calibrate_epochs(whole: &Transcript, counts: &Counts) -> Vec<EpochFit> {
    crate::history::epoch_ranges(whole)
        .into_iter()
        .map(|messages| {
            let points: Vec<(usize, u64, u64)> = messages
                .clone()
                .filter_map(|i| {
                    let recorded = whole.messages[i].recorded()?.context_tokens();
                    (recorded > 0).then(|| (i, counts.range(messages.start, i), recorded))
                })
                .collect();
            EpochFit {
                calibration: fitted(&points),
                messages,
            }
        })
        .collect()
}

/// The epoch of `fits` that holds message `index`.
pub fn epoch_of(fits: &[EpochFit], index: usize) -> Option<&EpochFit> {
    fits.iter().find(|e| e.messages.contains(&index))
}

/// `recorded ≈ overhead + ratio × counted`, minimizing the squared relative errors (a
/// call of 5k tokens matters as much as one of 150k); the overhead is never negative and
/// the ratio always positive. One call: its difference is the overhead, ratio 1.
fn fit(points: &[(usize, u64, u64)]) -> Option<(f64, f64)> {
    match points {
        [] => None,
        [(_, counted, recorded)] => Some(((*recorded as f64 - *counted as f64).max(0.0), 1.0)),
        _ => {
            // Minimize Σ (a·z + b·x − 1)² with z = 1/R, x = C/R.
            let (mut zz, mut zx, mut xx, mut z1, mut x1) = (0.0, 0.0, 0.0, 0.0, 0.0);
            for &(_, c, r) in points {
                let (z, x) = (1.0 / r as f64, c as f64 / r as f64);
                zz += z * z;
                zx += z * x;
                xx += x * x;
                z1 += z;
                x1 += x;
            }
            let det = zz * xx - zx * zx;
            let (a, b) = if det.abs() > f64::EPSILON * zz * xx {
                ((z1 * xx - x1 * zx) / det, (zz * x1 - zx * z1) / det)
            } else {
                (0.0, x1 / xx.max(f64::MIN_POSITIVE))
            };
            if a >= 0.0 && b > 0.0 {
                return Some((a, b));
            }
            // Out of range: the best fit with the offending parameter pinned.
            if a < 0.0 && xx > 0.0 {
                return Some((0.0, (x1 / xx).max(f64::MIN_POSITIVE)));
            }
            Some(((z1 / zz).max(0.0), 1.0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::fit;

    #[test]
    fn a_fixed_overhead_and_a_ratio_are_recovered() {
        let points: Vec<(usize, u64, u64)> = [1_000u64, 5_000, 20_000, 60_000]
            .iter()
            .enumerate()
            .map(|(i, &c)| (i, c, 33_000 + c * 12 / 10))
            .collect();
        let (a, b) = fit(&points).expect("fits");
        assert!((a - 33_000.0).abs() < 1.0 && (b - 1.2).abs() < 1e-6, "{a} {b}");
        assert_eq!(fit(&[]), None);
        assert_eq!(fit(&[(0, 100, 350)]), Some((250.0, 1.0)));
    }
}
