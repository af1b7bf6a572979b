//! `ctxlens stats --by kind|tool`: where the context goes, as a table of bars or JSON.

use std::io::Write;

use ctxlens::breakdown::{BreakdownDoc, By, Row};
use ctxlens::text::{fit, thousands};
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;

/// Prints the breakdown; with `max_tokens`, each row split into head, summarized, tail.
pub fn print(
    transcript: &Transcript,
    tokenizer: Tokenizer,
    by: By,
    max_tokens: Option<u64>,
    keep_tail: Option<u64>,
    json: bool,
) -> anyhow::Result<()> {
    let counts = Counts::compute(transcript, tokenizer);
    let doc = BreakdownDoc::of(transcript, &counts, by, max_tokens, keep_tail);
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if json {
        super::json_out::write(&mut out, transcript.source(), &doc, false)?;
        writeln!(out)?;
    } else {
        write_table(
            &mut out,
            transcript,
            &counts,
            doc.overhead,
            &doc.rows,
            max_tokens.is_some(),
        )?;
    }
    out.flush()?;
    Ok(())
}

fn write_table(
    out: &mut impl Write,
    transcript: &Transcript,
    counts: &Counts,
    overhead: Option<u64>,
    rows: &[Row],
    sections: bool,
) -> std::io::Result<()> {
    const BAR: usize = 30;
    let total = (counts.total() + overhead.unwrap_or(0)).max(1);
    match overhead {
        Some(fitted) => writeln!(
            out,
            "{}: {} tokens ({}) + {} fitted for the system prompt and tools (not in the log) = {} a request carries, by where they go",
            transcript.source(),
            thousands(counts.total()),
            counts.tokenizer,
            thousands(fitted),
            thousands(counts.total() + fitted)
        )?,
        None => writeln!(
            out,
            "{}: {} tokens ({}), by where they go",
            transcript.source(),
            thousands(counts.total()),
            counts.tokenizer
        )?,
    }
    let biggest = rows.first().map_or(1, |r| r.tokens.max(1));
    for row in rows {
        let cells = ((u128::from(row.tokens) * BAR as u128).div_ceil(u128::from(biggest)) as usize).min(BAR);
        let percent = row.tokens as f64 * 100.0 / total as f64;
        // The fitted row is in every request rather than in some messages.
        let messages = if row.fitted {
            "every call".to_owned()
        } else {
            ctxlens::text::count_of(row.messages as u64, "msg", "msgs")
        };
        write!(
            out,
            "{} {:>10} {:>5.1}%  {:<BAR$}  {:>11}",
            fit(&row.label, 32, false),
            thousands(row.tokens),
            percent,
            "█".repeat(cells),
            messages
        )?;
        if sections {
            write!(
                out,
                "  head {} · summarized {} · tail {}",
                thousands(row.head),
                thousands(row.summarized),
                thousands(row.tail)
            )?;
        }
        writeln!(out)?;
    }
    Ok(())
}
