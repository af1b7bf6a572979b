//! Property tests of the tail compactor over generated transcripts (OpenAI and
//! Anthropic dialects, parallel tool calls, stray system messages, unicode, pretty or
//! compact layout) and generated options.

use ctxlens::compact::{plan, Compaction, Decision, Options, Settings, SplitReason, SummaryRole};
use ctxlens::replay::{replay, Inputs as ReplayInputs, View};
use ctxlens::summarize::Placeholder;
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::{OrphanKind, Transcript};
use proptest::prelude::*;
use serde_json::{json, Value};

#[derive(Debug, Clone)]
enum Turn {
    User(String),
    Assistant(String),
    Tools { calls: usize, text: String },
    System(String),
    Odd(String),
}

fn text() -> impl Strategy<Value = String> {
    prop::string::string_regex("[a-z é日😀\"\\\\\n\t/\u{2028}\u{1}]{0,40}").expect("valid regex")
}

fn turn() -> impl Strategy<Value = Turn> {
    prop_oneof![
        4 => text().prop_map(Turn::User),
        3 => text().prop_map(Turn::Assistant),
        3 => (1usize..4, text()).prop_map(|(calls, text)| Turn::Tools { calls, text }),
        1 => text().prop_map(Turn::System),
        1 => text().prop_map(Turn::Odd),
    ]
}

/// Builds the message list; tool calls always get their results right after them.
fn messages(system: Option<String>, turns: &[Turn], anthropic: bool) -> Vec<Value> {
    let mut out = Vec::new();
    if let Some(s) = system {
        out.push(json!({"role": "system", "content": s}));
    }
    let mut next_id = 0;
    for turn in turns {
        match turn {
            Turn::User(t) if anthropic => out.push(json!({"role": "user", "content": [{"type": "text", "text": t}]})),
            Turn::User(t) => out.push(json!({"role": "user", "content": t})),
            Turn::Assistant(t) => out.push(json!({"role": "assistant", "content": t})),
            Turn::System(t) => out.push(json!({"role": "system", "content": t})),
            Turn::Odd(t) => out.push(json!({"role": "exit", "content": t, "extra": {"n": 1.50e3}})),
            Turn::Tools { calls, text } => {
                let ids: Vec<String> = (0..*calls).map(|k| format!("id{}", next_id + k)).collect();
                next_id += calls;
                if anthropic {
                    let uses: Vec<Value> = ids
                        .iter()
                        .map(|id| json!({"type": "tool_use", "id": id, "name": "f", "input": {"q": text}}))
                        .collect();
                    out.push(json!({"role": "assistant", "content": uses}));
                    let results: Vec<Value> = ids
                        .iter()
                        .map(|id| json!({"type": "tool_result", "tool_use_id": id, "content": text}))
                        .collect();
                    out.push(json!({"role": "user", "content": results}));
                } else {
                    let calls: Vec<Value> = ids
                        .iter()
                        .map(|id| json!({"id": id, "type": "function", "function": {"name": "f", "arguments": "{}"}}))
                        .collect();
                    out.push(json!({"role": "assistant", "content": null, "tool_calls": calls}));
                    for id in &ids {
                        out.push(json!({"role": "tool", "tool_call_id": id, "content": text}));
                    }
                }
            }
        }
    }
    out
}

fn tokenizer() -> impl Strategy<Value = Tokenizer> {
    prop_oneof![
        Just(Tokenizer::Estimate),
        Just(Tokenizer::EstimateCodepoints),
        Just(Tokenizer::EstimateUtf8)
    ]
}

prop_compose! {
    fn case()(
        system in prop::option::of(text()),
        turns in prop::collection::vec(turn(), 0..30),
        anthropic in any::<bool>(),
        pretty in any::<bool>(),
        tokenizer in tokenizer(),
        max_fraction in 0.0f64..1.3,
        keep in prop::option::of(0u64..400),
        flush in any::<bool>(),
    ) -> (String, Tokenizer, f64, Option<u64>, bool) {
        let list = Value::Array(messages(system, &turns, anthropic));
        let text = if pretty { serde_json::to_string_pretty(&list) } else { serde_json::to_string(&list) };
        (text.expect("serializes"), tokenizer, max_fraction, keep, flush)
    }
}

/// §7F rules 2–6 transcribed literally (re-counting every suffix), as an oracle.
fn reference_split(t: &Transcript, counts: &Counts, keep_tail: u64) -> (usize, usize, SplitReason) {
    let n = t.messages().len();
    let head_end = usize::from(t.messages().first().is_some_and(|m| m.role() == "system"));
    let mut split = None;
    let mut i = n;
    while i > head_end + 1 {
        i -= 1;
        let s: u64 = (i..n).map(|k| counts.message(k)).sum();
        if s > keep_tail {
            break;
        }
        if t.messages()[i].boundary() {
            split = Some(i);
        }
    }
    if let Some(s) = split {
        return (head_end, s, SplitReason::LargestFittingTail);
    }
    match (head_end + 1..n).rev().find(|&i| t.messages()[i].boundary()) {
        Some(s) => (head_end, s, SplitReason::Fallback),
        None => (head_end, n, SplitReason::NoBoundary),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn the_compactor_keeps_its_promises((text, tokenizer, max_fraction, keep, flush) in case()) {
        let t = Transcript::parse("prop.json", text.clone().into_bytes(), None).expect("generated input loads");
        let counts = Counts::compute(&t, tokenizer);
        let options = Options { max_tokens: (counts.total() as f64 * max_fraction) as u64, keep_tail: keep, flush_to_memory: flush };
        let result = Compaction::new(&t, &counts, Settings::tail(options)).run().expect("placeholder never fails");

        // The prefix-sum plan agrees with the literal walk.
        if let Decision::Compact(cut) = plan(&t, &counts, &options).decision {
            let (head_end, split, reason) = reference_split(&t, &counts, options.effective_keep_tail());
            prop_assert_eq!((cut.head_end, cut.split, cut.reason), (head_end, split, reason));
        }

        let output = result.document.to_text();
        let Some(cut) = result.planned.cut() else {
            // The no-op path is byte-identical.
            prop_assert!(result.document.is_input());
            prop_assert_eq!(output.as_bytes(), text.as_bytes());
            return Ok(());
        };
        // The tail starts at a boundary, or is empty.
        prop_assert!(cut.split == t.messages().len() || t.messages()[cut.split].boundary());
        // At least one message is summarized.
        prop_assert!(cut.summarized() >= 1);

        // Read back in the input's own format: with every tool block summarized away an
        // Anthropic list no longer says it is one, and its messages count by its dialect.
        let out = Transcript::parse("out.json", output.as_bytes().to_vec(), Some(t.format().as_override()))
            .expect("output loads");
        // No orphaned tool result (the generated inputs have none).
        prop_assert!(out.groups().orphans.iter().all(|o| o.kind != OrphanKind::Result), "{:?}", out.groups().orphans);
        // The leading system message is kept verbatim, first.
        if cut.head_end == 1 {
            prop_assert_eq!(out.raw(0), t.raw(0));
        }
        // The tail is the input's bytes, separators included.
        prop_assert!(output.contains(&t.text()[t.run_bytes(cut.split..t.messages().len())]));
        // tokens_after is what the output costs.
        prop_assert_eq!(Counts::compute(&out, tokenizer).total(), result.tokens_after);
        let expected_len = cut.head_end + 1 + usize::from(flush) + (t.messages().len() - cut.split);
        prop_assert_eq!(out.messages().len(), expected_len);
    }
}

/// A firing as compared: at, tokens before and after, summarized, fallback, empty tail.
type FiringRow = (usize, u64, u64, usize, bool, bool);

/// Replay by the slow, obvious route: before every assistant message, write the working
/// context out as a file, load it, and run the one core (`compact::run`) on it.
fn reference_replay(
    t: &Transcript,
    tokenizer: Tokenizer,
    options: Options,
    role: SummaryRole,
) -> (Vec<FiringRow>, u64, usize) {
    let mut context: Vec<String> = Vec::new();
    let mut firings = Vec::new();
    let load = |context: &[String]| {
        let text = format!("[{}]", context.join(","));
        Transcript::parse("context.json", text.into_bytes(), Some(t.format().as_override())).expect("a context loads")
    };
    for i in 0..t.messages().len() {
        if t.messages()[i].role() == "assistant" && !context.is_empty() {
            let ct = load(&context);
            let counts = Counts::compute(&ct, tokenizer);
            let settings = Settings {
                summary_role: role,
                ..Settings::tail(options)
            };
            let outcome = Compaction::new(&ct, &counts, settings)
                .run()
                .expect("placeholder never fails");
            if let Some(cut) = outcome.planned.cut() {
                firings.push((
                    i,
                    counts.total(),
                    outcome.tokens_after,
                    cut.summarized(),
                    cut.fallback(),
                    cut.tail_empty(),
                ));
                let out = Transcript::parse(
                    "out.json",
                    outcome.document.to_text().into_bytes(),
                    Some(t.format().as_override()),
                )
                .expect("the output loads");
                context = (0..out.messages().len()).map(|k| out.raw(k).to_owned()).collect();
            }
        }
        context.push(t.raw(i).to_owned());
    }
    let last = load(&context);
    let counts = Counts::compute(&last, tokenizer);
    (firings, counts.total(), last.messages().len())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// Replay's working context (a few leading items and a stretch of the session, planned
    /// with prefix sums) does exactly what writing each context out and compacting it
    /// does, with system or user summaries, with or without the reminder.
    #[test]
    fn replay_equals_compacting_each_context((text, tokenizer, max_fraction, keep, flush) in case(), user_role in any::<bool>()) {
        let t = Transcript::parse("prop.json", text.into_bytes(), None).expect("generated input loads");
        let counts = Counts::compute(&t, tokenizer);
        let options = Options { max_tokens: (counts.total() as f64 * max_fraction / 2.0) as u64, keep_tail: keep, flush_to_memory: flush };
        let role = if user_role { SummaryRole::User } else { SummaryRole::System };
        let view = View::new(t.clone(), counts);
        let fast = replay(&ReplayInputs {
            view: &view,
            options,
            summary_role: role,
            cuts_a_tail: true,
            summarizer: &Placeholder,
            cancel: ctxlens::cancel::never(),
            progress: None,
        }).expect("placeholder never fails");
        let (firings, final_tokens, final_messages) = reference_replay(&t, tokenizer, options, role);
        let got: Vec<_> = fast.firings.iter().map(|f| (f.at, f.tokens_before, f.tokens_after, f.summarized, f.fallback, f.tail_empty)).collect();
        prop_assert_eq!(got, firings);
        prop_assert_eq!((fast.final_tokens, fast.final_messages), (final_tokens, final_messages));
    }
}
