//! The deterministic compressor: the llm4s bands and markers at their boundaries, each
//! llm4s bug shown absent, properties over generated transcripts, and the CLI.

use crate::common;

use common::{assert_exit, ctxlens, ctxlens_stdin, json_stdout, stderr};
use ctxlens::compact::deterministic::{
    compact_error, compact_json, compact_log, compact_text, compact_tool_output, compress, content_name,
    dedup_sentences, truncate_verbose, DirStore, DryRun, Rule, Settings,
};
use ctxlens::tokens::{Counts, Tokenizer};
use ctxlens::transcript::Transcript;
use proptest::prelude::*;
use serde_json::{json, Value};

fn words_text(bytes: usize) -> String {
    let mut s = String::new();
    let mut i = 0;
    while s.len() < bytes {
        s.push_str("word");
        s.push_str(&(i % 10).to_string());
        s.push(' ');
        i += 1;
    }
    s.truncate(bytes);
    s
}

// ---- phase 1 bands and markers -------------------------------------------------------

#[test]
fn the_keep_band_ends_at_2048_bytes() {
    assert_eq!(
        compact_tool_output(&words_text(2048), 8192, &mut DryRun).expect("ok"),
        None
    );
    let (text, rule) = compact_tool_output(&words_text(2049), 8192, &mut DryRun)
        .expect("ok")
        .expect("compacted");
    assert_eq!(rule, Rule::ToolText);
    assert!(text.contains(" ... [+"), "{text}");
}

#[test]
fn externalizing_starts_above_the_threshold() {
    let at = words_text(8192);
    assert_eq!(
        compact_tool_output(&at, 8192, &mut DryRun)
            .expect("ok")
            .expect("inline")
            .1,
        Rule::ToolText
    );
    let over = words_text(8193);
    let (pointer, rule) = compact_tool_output(&over, 8192, &mut DryRun)
        .expect("ok")
        .expect("externalized");
    assert_eq!(rule, Rule::Externalize);
    assert_eq!(
        pointer,
        format!(
            "[EXTERNALIZED: {} | TEXT | Text content, 8193 bytes]",
            content_name(&over)
        )
    );
    let json_text = format!("{{\"a\":\"{}\",\"b\":1}}", "x".repeat(9000));
    let (pointer, _) = compact_tool_output(&json_text, 8192, &mut DryRun)
        .expect("ok")
        .expect("externalized");
    assert!(
        pointer.ends_with(&format!(
            "| JSON | JSON object with 2 fields, {} bytes]",
            json_text.len()
        )),
        "{pointer}"
    );
}

#[test]
fn logs_collapse_from_121_lines() {
    // Lines longer than the marker, so collapsing one of them shrinks the text.
    let log = |n: usize| {
        (0..n)
            .map(|i| format!("INFO step {i} done {}", "-".repeat(60)))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(compact_log(&log(120)), None);
    let collapsed = compact_log(&log(121)).expect("collapsed");
    let lines: Vec<&str> = collapsed.lines().collect();
    assert_eq!(lines.len(), 80 + 1 + 40);
    assert_eq!(lines[80], "... [collapsed 1 repeated/verbose log lines] ...");
    assert!(lines[79].starts_with("INFO step 79 done"));
    assert!(
        lines[81].starts_with("INFO step 81 done"),
        "line 80 is the one collapsed"
    );
    // A short line's marker would cost more than the line: nothing changes then.
    let short = (0..121).map(|i| format!("INFO {i}")).collect::<Vec<_>>().join("\n");
    assert_eq!(compact_log(&short), None);
    let repeated = "INFO a\nINFO b\nINFO b\nINFO b\nINFO c";
    assert_eq!(compact_log(repeated).as_deref(), Some("INFO a\nINFO b \u{d7}3\nINFO c"));
}

#[test]
fn stack_traces_keep_ten_frames() {
    let trace = |frames: usize| {
        let mut lines = vec![
            "ERROR: boom".to_owned(),
            "java.lang.IllegalStateException: bad".into(),
            "context".into(),
        ];
        lines.extend((0..frames).map(|i| format!("    at com.acme.Thing.m{i}(Thing.java:{i})")));
        lines.push("Caused by: java.io.IOException: disk".into());
        lines.join("\n")
    };
    assert_eq!(compact_error(&trace(10)), None);
    let cut = compact_error(&trace(11)).expect("cut");
    assert!(cut.contains("Thing.m9(") && !cut.contains("Thing.m10("), "{cut}");
    assert!(cut.contains("... [+1 additional stack frames] ..."), "{cut}");
    assert!(
        cut.ends_with("Caused by: java.io.IOException: disk"),
        "the cause is kept: {cut}"
    );
    let python = format!(
        "Traceback (most recent call last):\nsetup\nmore\n{}\nValueError: bad",
        (0..12)
            .map(|i| format!("  File \"app.py\", line {i}, in f{i}\n    f{i}()"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let cut = compact_error(&python).expect("python frames count too");
    assert!(
        cut.contains("... [+2 additional stack frames] ...") && cut.ends_with("ValueError: bad"),
        "{cut}"
    );
}

#[test]
fn json_arrays_keep_ten_and_ten_from_21_items() {
    let array = |n: usize| serde_json::to_string_pretty(&json!({"items": (0..n).collect::<Vec<_>>()})).expect("json");
    let twenty = compact_json(&array(20)).expect("pretty becomes compact");
    assert_eq!(
        serde_json::from_str::<Value>(&twenty).expect("json")["items"]
            .as_array()
            .expect("list")
            .len(),
        20
    );
    let cut: Value = serde_json::from_str(&compact_json(&array(21)).expect("cut")).expect("json");
    let items = cut["items"].as_array().expect("list");
    assert_eq!(items.len(), 21);
    assert_eq!(items[10], "...[+1 items]...");
    assert_eq!((items[9].clone(), items[11].clone()), (json!(9), json!(11)));
    let pruned = compact_json(r#"{"a": null, "b": "", "c": [], "d": 0, "e": false, "f": [1]}"#).expect("pruned");
    assert_eq!(pruned, r#"{"d":0,"e":false,"f":[1]}"#);
}

#[test]
fn text_is_cut_from_1001_characters() {
    let at = "w ".repeat(500);
    assert_eq!(at.chars().count(), 1000);
    assert_eq!(compact_text(&at), None);
    let over = format!("{at}x");
    let cut = compact_text(&over).expect("cut");
    assert!(cut.contains(" ... [+431 words] ... "), "{cut}");
}

// ---- the llm4s bugs, absent ----------------------------------------------------------

fn transcript(messages: &Value) -> Transcript {
    Transcript::parse(
        "t.json",
        serde_json::to_string_pretty(messages).expect("json").into_bytes(),
        None,
    )
    .expect("loads")
}

fn run(t: &Transcript, cap: u64, subjective: bool) -> ctxlens::compact::deterministic::Compressed {
    let counts = Counts::compute(t, Tokenizer::Estimate);
    compress(
        t,
        &counts,
        &Settings {
            cap,
            subjective_edits: subjective,
            externalize_over: 8192,
        },
        &mut DryRun,
        ctxlens::cancel::never(),
    )
    .expect("ok")
}

#[test]
fn dedup_keeps_the_sentence_between_repeats() {
    let text = "The build failed on CI today. I will check the logs now. The build failed on CI today.";
    assert_eq!(
        dedup_sentences(text).as_deref(),
        Some("The build failed on CI today. [\u{d7}2] I will check the logs now.")
    );
}

#[test]
fn user_messages_never_change() {
    let filler = "Um, well, you know, like, I basically want a refund. I want a refund. I want a refund.";
    let t = transcript(&json!([
        {"role": "user", "content": filler},
        {"role": "assistant", "content": filler},
        {"role": "user", "content": "x".repeat(3000)},
    ]));
    let result = run(&t, 0, true);
    let out = Transcript::parse("o.json", result.document(&t).to_text().into_bytes(), None).expect("loads");
    assert_eq!(out.raw(0), t.raw(0));
    assert_eq!(out.raw(2), t.raw(2));
    assert!(result.edits.iter().all(|e| e.index == 1), "{:?}", result.edits);
    assert!(!result.edits.is_empty(), "the assistant's copy is edited");
}

#[test]
fn code_and_json_are_never_touched_by_subjective_rules() {
    let long_code = format!(
        "Um, well, like this. Here it is.\n```rust\n{}\n```\nHere it is. Here it is.",
        "let x = 1;\n".repeat(300)
    );
    let json_reply = format!(
        "{{\"answer\": \"{}\", \"again\": \"{}\"}}",
        "well um like ".repeat(100),
        "x".repeat(2000)
    );
    let t = transcript(&json!([
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": long_code},
        {"role": "assistant", "content": json_reply},
    ]));
    let result = run(&t, 0, true);
    assert!(result.edits.is_empty(), "{:?}", result.edits);
    assert_eq!(result.document(&t).to_text(), t.text().as_str());
}

#[test]
fn short_text_never_grows() {
    // 1001 characters in only 10 words: llm4s would emit "[+-60 words]" and grow it.
    let long_words = vec!["x".repeat(100); 10].join(" ");
    assert!(long_words.chars().count() > 1000);
    assert_eq!(compact_text(&long_words), None);
    assert_eq!(dedup_sentences("A. B. A."), None);
    assert_eq!(truncate_verbose("Short. Text. Here. Now."), None);
}

#[test]
fn binary_output_is_always_stored() {
    let binary = format!("data:image/png;base64,{}", "iVBORw0KGgo".repeat(300));
    assert!(binary.len() > 2048 && binary.len() < 8192, "in the inline band");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut store = DirStore::new(dir.path());
    let (pointer, rule) = compact_tool_output(&binary, 8192, &mut store)
        .expect("ok")
        .expect("stored");
    assert_eq!(rule, Rule::Externalize);
    assert!(pointer.contains("| BINARY | Binary content,"), "{pointer}");
    let name = content_name(&binary);
    assert!(pointer.contains(&name));
    assert_eq!(
        std::fs::read_to_string(dir.path().join(&name)).expect("stored file"),
        binary
    );
}

#[test]
fn key_order_and_big_integers_survive_json_compaction() {
    let text = r#"{"zeta": 1, "alpha": 12345678901234567890123, "mid": [], "beta": 9007199254740993, "gamma": "g", "delta": null, "eps": 0.1}"#;
    let padded = format!("{text}{}", " ".repeat(2100));
    let (out, rule) = compact_tool_output(&padded, 8192, &mut DryRun)
        .expect("ok")
        .expect("compacted");
    assert_eq!(rule, Rule::ToolJson);
    assert_eq!(
        out,
        r#"{"zeta":1,"alpha":12345678901234567890123,"beta":9007199254740993,"gamma":"g","eps":0.1}"#
    );
}

#[test]
fn the_result_reports_whether_the_cap_was_met() {
    let t = transcript(&json!([{"role": "user", "content": "hello there"}, {"role": "assistant", "content": "hi"}]));
    let met = run(&t, 1000, false);
    assert!(met.cap_met && met.edits.is_empty());
    let missed = run(&t, 1, false);
    assert!(!missed.cap_met);
    assert_eq!(missed.tokens_after, missed.tokens_before);
}

// ---- properties -----------------------------------------------------------------------

fn tool_output() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z ]{0,200}",
        (100usize..3000).prop_map(|n| words_text(n * 5)),
        (0usize..200).prop_map(|n| (0..n).map(|i| format!("INFO line {}", i % 7)).collect::<Vec<_>>().join("\n")),
        (0usize..40).prop_map(|n| serde_json::to_string_pretty(&json!({"rows": (0..n).map(|i| json!({"id": i, "note": "x".repeat(100), "gone": null})).collect::<Vec<_>>()})).expect("json")),
        (1000usize..4000).prop_map(|n| format!("data:application/octet-stream;base64,{}", "QUJD".repeat(n))),
    ]
}

fn assistant_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z .]{0,300}",
        Just("Um, well, you know, like, I think so. I think so. I mean it works.".to_owned()),
        (10usize..80).prop_map(|n| "This sentence is rather long and repetitive. ".repeat(n)),
        Just("```\ncode = here: yes\n```".to_owned()),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn compression_keeps_its_promises(
        turns in prop::collection::vec((assistant_text(), prop::collection::vec(tool_output(), 0..3), "[a-z ]{1,40}"), 1..6),
        anthropic in any::<bool>(),
        cap_fraction in 0.0f64..1.2,
        subjective in any::<bool>(),
    ) {
        let mut messages = vec![json!({"role": "system", "content": "sys um well like"})];
        let mut id = 0;
        for (assistant, outputs, user) in &turns {
            messages.push(json!({"role": "user", "content": format!("{user} um well you know")}));
            if !outputs.is_empty() {
                let ids: Vec<String> = outputs.iter().map(|_| { id += 1; format!("id{id}") }).collect();
                if anthropic {
                    messages.push(json!({"role": "assistant", "content": ids.iter().map(|i| json!({"type": "tool_use", "id": i, "name": "f", "input": {}})).collect::<Vec<_>>()}));
                    messages.push(json!({"role": "user", "content": ids.iter().zip(outputs).map(|(i, o)| json!({"type": "tool_result", "tool_use_id": i, "content": o})).collect::<Vec<_>>()}));
                } else {
                    messages.push(json!({"role": "assistant", "content": null, "tool_calls": ids.iter().map(|i| json!({"id": i, "type": "function", "function": {"name": "f", "arguments": "{}"}})).collect::<Vec<_>>()}));
                    for (i, o) in ids.iter().zip(outputs) {
                        messages.push(json!({"role": "tool", "tool_call_id": i, "content": o}));
                    }
                }
            }
            messages.push(json!({"role": "assistant", "content": assistant}));
        }
        let t = transcript(&Value::Array(messages));
        let counts = Counts::compute(&t, Tokenizer::Estimate);
        let dir = tempfile::tempdir().expect("temp dir");
        let mut store = DirStore::new(dir.path());
        let cap = (counts.total() as f64 * cap_fraction) as u64;
        let result = compress(&t, &counts, &Settings { cap, subjective_edits: subjective, externalize_over: 8192 }, &mut store, ctxlens::cancel::never()).expect("ok");
        let out = Transcript::parse("o.json", result.document(&t).to_text().into_bytes(), None).expect("output loads");

        prop_assert!(result.tokens_after <= result.tokens_before);
        prop_assert_eq!(Counts::compute(&out, Tokenizer::Estimate).total(), result.tokens_after);
        prop_assert_eq!(out.messages().len(), t.messages().len());
        for (i, (a, b)) in t.messages().iter().zip(out.messages().iter()).enumerate() {
            let carries_results = !a.tool_results().is_empty();
            if (a.role() == "user" && !carries_results) || a.role() == "system" {
                prop_assert_eq!(t.raw(i), out.raw(i), "user and system messages are byte-identical");
            }
            prop_assert_eq!(&a.tool_calls(), &b.tool_calls());
            prop_assert_eq!(&a.tool_results(), &b.tool_results());
        }
        prop_assert_eq!(&out.groups(), &t.groups(), "every tool group survives with its ids");
        for name in &result.artifacts {
            let stored = std::fs::read_to_string(dir.path().join(name)).expect("every pointer resolves");
            prop_assert_eq!(&content_name(&stored), name);
            prop_assert!(t.text().contains(&serde_json::to_string(&stored).expect("json")[1..20]), "it holds an original text");
            prop_assert!(result.document(&t).to_text().contains(name.as_str()));
        }
    }
}

// ---- the CLI ----------------------------------------------------------------------------

fn big_tool_transcript() -> String {
    serde_json::to_string_pretty(&json!([
        {"role": "user", "content": "read it"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "read", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": words_text(9000)},
        {"role": "assistant", "content": "done"}
    ]))
    .expect("json")
}

#[test]
fn plan_lists_every_edit() {
    let out = ctxlens_stdin(
        &[
            "compact",
            "-",
            "--strategy",
            "deterministic",
            "--max-tokens",
            "100",
            "--plan",
        ],
        big_tool_transcript().as_bytes(),
    );
    assert_exit(&out, 0);
    let plan = json_stdout(&out);
    let keys: Vec<&String> = plan.as_object().expect("object").keys().collect();
    assert_eq!(
        keys,
        [
            "schema",
            "file",
            "strategy",
            "tokens_before",
            "tokens_after",
            "cap_met",
            "edits"
        ]
    );
    assert_eq!(plan["edits"][0]["rule"], "externalize");
    assert_eq!(plan["edits"][0]["index"], 2);
    assert_eq!(plan["cap_met"], true);
}

#[test]
fn standard_output_refuses_to_externalize_without_a_store() {
    let out = ctxlens_stdin(
        &["compact", "-", "--strategy", "deterministic", "--max-tokens", "100"],
        big_tool_transcript().as_bytes(),
    );
    assert_exit(&out, 2);
    assert!(
        stderr(&out).contains("pass --artifacts DIR, or -o OUT"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn output_files_get_their_artifacts_beside_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("t.json");
    std::fs::write(&input, big_tool_transcript()).expect("write");
    let out_path = dir.path().join("small.json");
    let out = ctxlens(&[
        "compact",
        input.to_str().expect("path"),
        "--strategy",
        "deterministic",
        "--max-tokens",
        "100",
        "-o",
        out_path.to_str().expect("path"),
    ]);
    assert_exit(&out, 0);
    let written = std::fs::read_to_string(&out_path).expect("output");
    let doc: Value = serde_json::from_str(&written).expect("json");
    let pointer = doc[2]["content"].as_str().expect("pointer");
    let name = pointer.split_whitespace().nth(1).expect("name");
    let stored = std::fs::read_to_string(dir.path().join("small.json.artifacts").join(name)).expect("artifact");
    assert_eq!(stored, words_text(9000));
    // Untouched messages are written as read.
    let original = std::fs::read_to_string(&input).expect("input");
    assert!(written.contains("{\n    \"role\": \"assistant\",\n    \"content\": \"done\"\n  }"));
    let tool_at = written.find("{\"role\":\"tool\"").expect("the rewritten tool message");
    assert!(
        original.starts_with(&written[..tool_at]),
        "everything before the edited message is as read"
    );
}

#[test]
fn strategies_compose() {
    let dir = tempfile::tempdir().expect("temp dir");
    let fixture = common::fixture_path();
    let out = ctxlens(&[
        "compact",
        fixture.to_str().expect("path"),
        "--strategy",
        "deterministic,tail",
        "--max-tokens",
        "2000",
        "--keep-tail",
        "800",
        "--plan",
        "--artifacts",
        dir.path().to_str().expect("path"),
    ]);
    assert_exit(&out, 0);
    let plan = json_stdout(&out);
    assert_eq!(plan["strategy"], "deterministic,tail");
    assert_eq!(plan["deterministic"]["tokens_before"], 4752);
    assert_eq!(plan["tail"]["tokens_before"], plan["deterministic"]["tokens_after"]);
    assert_eq!(
        plan["tail"]["split"], 101,
        "nothing in the fixture is big enough to compress"
    );
}
