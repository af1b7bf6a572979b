//! The pinned `tiktoken` crate (fast) must count exactly as tiktoken-rs (the reference)
//! does, for cl100k and o200k, on a varied corpus: every string of the conformance cases
//! and real transcripts, plus generated tricky strings.

use crate::common;

use ctxlens::tokens::{openai_message_tokens, BpeCounter};
use std::sync::LazyLock;

use proptest::prelude::*;
use serde_json::Value;
use tiktoken_rs::CoreBPE;

// Loading a reference vocabulary takes tens of milliseconds: once per test binary.
static REFERENCE_CL100K: LazyLock<CoreBPE> = LazyLock::new(|| tiktoken_rs::cl100k_base().expect("cl100k"));
static REFERENCE_O200K: LazyLock<CoreBPE> = LazyLock::new(|| tiktoken_rs::o200k_base().expect("o200k"));

fn collect_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| collect_strings(v, out)),
        Value::Object(map) => map.values().for_each(|v| collect_strings(v, out)),
        _ => {}
    }
}

fn corpus() -> Vec<String> {
    let data = common::data();
    let mut files = vec![data.join("conformance/toolnexus-fixture-transcript.json")];
    for folder in [
        "conformance/cases",
        "real-transcripts/openai-chat",
        "real-transcripts/anthropic-messages",
    ] {
        files.extend(
            std::fs::read_dir(data.join(folder))
                .expect("folder")
                .map(|e| e.expect("entry").path()),
        );
    }
    let mut strings = Vec::new();
    for file in files {
        let value: Value = serde_json::from_slice(&std::fs::read(&file).expect("read")).expect("JSON");
        collect_strings(&value, &mut strings);
    }
    strings
}

#[test]
fn counts_equal_the_reference_on_the_test_corpus() {
    let strings = corpus();
    let bytes: usize = strings.iter().map(String::len).sum();
    assert!(bytes > 1_000_000, "a varied corpus of real text ({bytes} bytes)");
    let pairs = [
        (BpeCounter::cl100k(), &*REFERENCE_CL100K),
        (BpeCounter::o200k(), &*REFERENCE_O200K),
    ];
    for (fast, reference) in pairs {
        for s in &strings {
            let expected = reference.encode_ordinary(s).len() as u64;
            assert_eq!(
                fast.count_text(s),
                expected,
                "mismatch on {:?}",
                s.chars().take(80).collect::<String>()
            );
        }
    }
}

#[test]
fn the_per_message_formula_matches_with_either_counter() {
    let reference = &*REFERENCE_CL100K;
    let message = r#"{"role":"assistant","name":"ava","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"café 日本語\"}"}}]}"#;
    let by_reference = openai_message_tokens(message, |s| reference.encode_ordinary(s).len() as u64);
    let by_fast = openai_message_tokens(message, |s| BpeCounter::cl100k().count_text(s));
    assert_eq!(by_fast, by_reference);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn counts_equal_the_reference_on_tricky_strings(s in "(\\PC|[ \t\r\n\u{2028}\u{200d}'’]|'s|'ll| {2,5}|[0-9]{1,7}|\\p{Han}{1,4}|\\p{Emoji}){0,40}") {
        prop_assert_eq!(BpeCounter::cl100k().count_text(&s), REFERENCE_CL100K.encode_ordinary(&s).len() as u64);
        prop_assert_eq!(BpeCounter::o200k().count_text(&s), REFERENCE_O200K.encode_ordinary(&s).len() as u64);
    }
}
