//! Every conformance case of `tests/data/conformance/cases/` run through the built binary:
//! `compact` output and `--plan` fields must equal the case's `expect`, and every kept
//! message must appear byte-for-byte as it was written in the input file.

use crate::common;

use common::{assert_exit, ctxlens, data, json_stdout, stdout};
use serde_json::Value;

fn case_args<'a>(path: &'a str, options: &Value, extra: &[&'a str]) -> Vec<String> {
    let mut args = vec!["compact".to_owned(), path.to_owned()];
    args.push(format!("--max-tokens={}", options["max_tokens"]));
    if let Some(keep) = options["keep_tail"].as_u64() {
        args.push(format!("--keep-tail={keep}"));
    }
    if options["flush_to_memory"].as_bool() == Some(true) {
        args.push("--flush-to-memory".into());
    }
    args.push(format!(
        "--tokenizer={}",
        options["tokenizer"].as_str().expect("tokenizer is a string")
    ));
    args.extend(extra.iter().map(|s| (*s).to_owned()));
    args
}

fn run(args: &[String]) -> std::process::Output {
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    ctxlens(&refs)
}

#[test]
fn every_conformance_case_passes_through_the_binary() {
    let dir = data().join("conformance/cases");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("cases folder")
        .map(|e| e.expect("entry").path())
        .collect();
    paths.sort();
    assert!(
        paths.len() >= 60,
        "expected the 60 conformance cases, found {}",
        paths.len()
    );
    let work = tempfile::tempdir().expect("temp dir");
    for path in &paths {
        let case: Value = serde_json::from_slice(&std::fs::read(path).expect("case file")).expect("case JSON");
        let name = case["name"].as_str().expect("name");
        // Pretty-printed, so byte-for-byte preservation is tested against real whitespace.
        let input_text = serde_json::to_string_pretty(&case["input"]).expect("input serializes");
        let input_path = work.path().join(format!("{name}.json"));
        std::fs::write(&input_path, &input_text).expect("write input");
        let input_arg = input_path.to_str().expect("UTF-8 path");
        check_plan(name, &case, &run(&case_args(input_arg, &case["options"], &["--plan"])));
        check_output(
            name,
            &case,
            &input_text,
            &run(&case_args(input_arg, &case["options"], &[])),
        );
    }
}

fn check_plan(name: &str, case: &Value, out: &std::process::Output) {
    assert_exit(out, 0);
    let plan = json_stdout(out);
    let expect = &case["expect"];
    for key in ["tokens_before", "compacted", "keep_tail", "tokens_after"] {
        assert_eq!(plan[key], expect[key], "{name}: plan.{key}");
    }
    if expect["compacted"] == Value::Bool(true) {
        for key in ["head_end", "split", "summarized", "fallback", "tail_empty"] {
            assert_eq!(plan[key], expect[key], "{name}: plan.{key}");
        }
    }
    assert_eq!(plan["tokenizer"], case["options"]["tokenizer"], "{name}: tokenizer");
    assert_eq!(plan["max_tokens"], case["options"]["max_tokens"], "{name}: max_tokens");
    let messages = plan["messages"].as_array().expect("messages");
    assert_eq!(
        messages.len(),
        case["input"].as_array().expect("input list").len(),
        "{name}: one row per message"
    );
    let sum: u64 = messages.iter().map(|m| m["tokens"].as_u64().expect("tokens")).sum();
    assert_eq!(
        Value::from(sum),
        expect["tokens_before"],
        "{name}: per-message tokens add up"
    );
}

fn check_output(name: &str, case: &Value, input_text: &str, out: &std::process::Output) {
    assert_exit(out, 0);
    let text = stdout(out);
    let expect = &case["expect"];
    if expect["compacted"] == Value::Bool(false) {
        assert_eq!(text, input_text, "{name}: a no-op is byte-identical");
        return;
    }
    let produced: Value = serde_json::from_str(&text).expect("output is JSON");
    // Compare serializations too: Value equality ignores key order, the spec does not.
    assert_eq!(produced.to_string(), expect["output"].to_string(), "{name}: output");
    // Every kept input message appears exactly as pretty-printed in the input file.
    let input = case["input"].as_array().expect("input list");
    let split = expect["split"].as_u64().expect("split") as usize;
    let head_end = expect["head_end"].as_u64().expect("head_end") as usize;
    for message in input[..head_end].iter().chain(&input[split..]) {
        let pretty = serde_json::to_string_pretty(message).expect("serializes");
        let indented = pretty.replace('\n', "\n  ");
        assert!(
            text.contains(&indented),
            "{name}: kept message not byte-identical: {indented}"
        );
    }
}
