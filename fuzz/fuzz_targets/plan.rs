//! The §7F plan on anything that loads: its promises hold (the tail starts at a human
//! turn or is empty, something is summarized, the sections cover every message once),
//! and a replay of the session with the same budget runs. Every other agent's policy
//! plans it too, with settings drawn from the input: one row per message, in order.
#![no_main]

use ctxlens::compact::{plan, Decision, Options, Section};
use ctxlens::tokens::{Counts, Tokenizer};
use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    for t in common::loads(data) {
        for tokenizer in [Tokenizer::Estimate, Tokenizer::EstimateUtf8] {
            let counts = Counts::compute(&t, tokenizer);
            let (max_tokens, keep_tail, flush_to_memory) = common::budget(data, counts.total());
            let options = Options {
                max_tokens,
                keep_tail,
                flush_to_memory,
            };
            let p = plan(&t, &counts, &options);
            if let Decision::Compact(cut) = p.decision {
                assert!(cut.split == t.messages().len() || t.messages()[cut.split].boundary());
                assert!(cut.summarized() >= 1);
                assert_eq!(
                    cut.head_tokens + cut.summarized_tokens + cut.tail_tokens,
                    counts.total()
                );
                let summarized = (0..t.messages().len())
                    .filter(|&i| p.section(i) == Section::Summarized)
                    .count();
                assert_eq!(summarized, cut.summarized());
            }
            let view = ctxlens::replay::View::new(t.clone(), counts.clone());
            let _ = ctxlens::replay::replay(&ctxlens::replay::Inputs {
                view: &view,
                options,
                summary_role: ctxlens::compact::SummaryRole::System,
                cuts_a_tail: true,
                summarizer: &ctxlens::summarize::Placeholder,
                cancel: ctxlens::cancel::never(),
                progress: None,
            })
            .expect("the placeholder never fails");
        }
        let total = ctxlens::tokens::Counts::compute(&t, Tokenizer::Estimate).total();
        let (max_tokens, keep, _) = common::budget(data, total);
        let n = max_tokens.to_string();
        let k = keep.unwrap_or(1).max(1).to_string();
        let settings = ctxlens::policy::PolicySettings::parse([
            format!("max_tokens={n}").as_str(),
            format!("threshold={n}").as_str(),
            format!("trigger=tokens:{}", max_tokens.max(1)).as_str(),
            format!("auto_compact_token_limit={n}").as_str(),
            format!("target_count={k}").as_str(),
            format!("max_events={k}").as_str(),
            format!("attention_window={k}").as_str(),
            format!("protect={n}").as_str(),
            "minimum=0",
            "allow_partial=true",
        ])
        .expect("well-formed");
        for policy in ctxlens::policy::all() {
            let mut own = ctxlens::policy::PolicySettings::default();
            for (key, value) in settings.pairs() {
                if policy.keys().contains(&key.as_str()) {
                    own = own.with(&key, value);
                }
            }
            if let Ok(plan) = policy.plan(&t, &own) {
                let rows: Vec<usize> = plan.messages.iter().map(|r| r.index).collect();
                assert_eq!(rows, (0..t.messages().len()).collect::<Vec<_>>(), "{}", policy.name());
            }
        }
    }
});
