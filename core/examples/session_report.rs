//! What a session log holds, from the library alone: its size, the compactions the agent
//! really made, what its recorded calls cost with prompt caching, and where a §7F
//! compactor at a budget of your choosing would have fired.
//!
//! `cargo run -p ctxlens-core --example session_report -- LOG [MAX_TOKENS]`

use ctxlens_core::compact::{Options, SummaryRole};
use ctxlens_core::replay::{replay, Inputs};
use ctxlens_core::session::Session;
use ctxlens_core::summarize::Placeholder;
use ctxlens_core::tokens::Tokenizer;
use ctxlens_core::transcript::Transcript;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: session_report LOG [MAX_TOKENS]")?;
    let budget: Option<u64> = args.next().map(|n| n.parse()).transpose()?;
    let never = ctxlens_core::cancel::never();

    // The log, every epoch joined, counted with the §7F estimate.
    let live = Transcript::read(std::path::Path::new(&path), None)?;
    let session = Session::load(&live, None, Tokenizer::Estimate, false, never)?;
    let whole = session.whole();
    println!(
        "{path}: {} ({}), {} messages, {} tokens",
        whole.format(),
        whole.model().unwrap_or("model not named"),
        whole.messages().len(),
        session.counts().total()
    );

    for c in &session.history().compactions {
        println!(
            "  compacted at line {} ({}), {} tokens before",
            c.line,
            c.trigger.as_deref().unwrap_or("trigger not recorded"),
            c.pre_tokens.map_or_else(|| "?".to_owned(), |t| t.to_string())
        );
    }

    match session.cost() {
        Some(cost) => println!(
            "  {} recorded calls cost ${:.2} (cache writes ${:.2}, cache reads ${:.2}); prices: {}",
            cost.calls.len(),
            cost.total.unwrap_or(f64::NAN),
            cost.dollars.cache_write,
            cost.dollars.cache_read,
            cost.prices
        ),
        None => println!("  no usage recorded per call"),
    }

    // A §7F compactor over the session's whole life, at half its size unless told.
    let max_tokens = budget.unwrap_or(session.view().total() / 2).max(1);
    let replayed = replay(&Inputs {
        view: session.view(),
        options: Options {
            max_tokens,
            keep_tail: None,
            flush_to_memory: false,
        },
        summary_role: SummaryRole::User,
        cuts_a_tail: true,
        summarizer: &Placeholder,
        cancel: never,
        progress: None,
    })?;
    let at: Vec<String> = replayed.firings.iter().map(|f| format!("#{}", f.at)).collect();
    println!(
        "  at max_tokens {max_tokens}: {} firing(s) {} over {} model calls",
        replayed.firings.len(),
        at.join(" "),
        replayed.model_calls
    );
    Ok(())
}
