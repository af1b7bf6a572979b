#![allow(dead_code)] // each target uses what it needs

//! What every target shares: inputs are whole files (so the samples and reproducers seed
//! them as they are); which format is forced and which options are tried are derived
//! from the input's length, so every path is reached from every seed.

use ctxlens::transcript::{FormatOverride, Transcript};

/// The format a run forces: none (detection), or one of `--format`'s values.
pub fn forced(data: &[u8]) -> Option<FormatOverride> {
    let k = data.len() % (FormatOverride::NAMES.len() + 1);
    (k > 0).then(|| FormatOverride::NAMES[k - 1].parse().expect("a known name"))
}

/// The file loaded as detected, and as forced; never panics (that is what is tested).
pub fn loads(data: &[u8]) -> Vec<Transcript> {
    let mut out = Vec::new();
    if let Ok(t) = Transcript::parse("fuzz", data.to_vec(), None) {
        out.push(t);
    }
    if let Some(format) = forced(data) {
        if let Ok(t) = Transcript::parse("fuzz", data.to_vec(), Some(format)) {
            out.push(t);
        }
    }
    out
}

/// A budget between nothing and the whole transcript, from the input.
pub fn budget(data: &[u8], total: u64) -> (u64, Option<u64>, bool) {
    let seed = data
        .iter()
        .fold(7u64, |h, &b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let max = if total == 0 { seed % 4 } else { seed % (total + 1) };
    let keep = match seed % 5 {
        0 => None,
        1 => Some(0),
        _ => Some((seed >> 8) % (total + 2)),
    };
    (max, keep, seed & 16 != 0)
}
