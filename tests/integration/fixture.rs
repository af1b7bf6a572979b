//! The worked numbers of `compaction-semantics.md` on the toolnexus fixture (`tests/data/conformance/`),
//! through the built binary.

use crate::common;

use common::{assert_exit, ctxlens, data, json_stdout, stdout};
use serde_json::Value;

fn fixture() -> String {
    data()
        .join("conformance/toolnexus-fixture-transcript.json")
        .to_str()
        .expect("UTF-8 path")
        .to_owned()
}

fn plan(path: &str, extra: &[&str]) -> Value {
    let mut args = vec!["compact", path, "--plan", "--summarizer", "placeholder"];
    args.extend_from_slice(extra);
    let out = ctxlens(&args);
    assert_exit(&out, 0);
    json_stdout(&out)
}

#[test]
fn fixture_total_and_first_costs() {
    let out = ctxlens(&["stats", &fixture(), "--json"]);
    assert_exit(&out, 0);
    let stats = json_stdout(&out);
    assert_eq!(stats["total"], 4752);
    assert_eq!(stats["format"], "openai");
    let costs: Vec<u64> = stats["messages"].as_array().expect("messages")[..5]
        .iter()
        .map(|m| m["tokens"].as_u64().expect("tokens"))
        .collect();
    assert_eq!(costs, [12, 50, 32, 65, 11]);
    assert_eq!(stats["messages"].as_array().expect("messages").len(), 121);
}

#[test]
fn max_2000_keep_800_summarizes_100() {
    let p = plan(&fixture(), &["--max-tokens", "2000", "--keep-tail", "800"]);
    assert_eq!(
        (p["split"].clone(), p["summarized"].clone(), p["tokens_after"].clone()),
        (101.into(), 100.into(), 824.into())
    );
    let out = ctxlens(&["compact", &fixture(), "--max-tokens", "2000", "--keep-tail", "800"]);
    assert_exit(&out, 0);
    let result: Vec<Value> = serde_json::from_str(&stdout(&out)).expect("JSON output");
    assert_eq!(result.len(), 22);
    assert_eq!(result[0]["content"], "You are Ava. SOUL.");
    assert_eq!(
        result[1]["content"],
        "[Summary of earlier conversation]\nsummarized 100 messages"
    );
    assert!(result[2]["content"].as_str().expect("text").starts_with("question 25 "));
}

#[test]
fn default_keep_tail_is_half_of_max() {
    let p = plan(&fixture(), &["--max-tokens", "2000"]);
    assert_eq!(p["keep_tail"], 1000);
    assert_eq!(
        (p["split"].clone(), p["summarized"].clone(), p["tokens_after"].clone()),
        (97.into(), 96.into(), 982.into())
    );
}

#[test]
fn first_three_turns_cost_486_and_the_threshold_is_strict() {
    let text = std::fs::read_to_string(fixture()).expect("fixture");
    let all: Vec<Value> = serde_json::from_str(&text).expect("fixture JSON");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("three.json");
    std::fs::write(&path, serde_json::to_string(&all[..13]).expect("serializes")).expect("write");
    let path = path.to_str().expect("UTF-8 path");
    let at = plan(path, &["--max-tokens", "486"]);
    assert_eq!(
        (at["tokens_before"].clone(), at["compacted"].clone()),
        (486.into(), false.into())
    );
    let under = plan(path, &["--max-tokens", "485"]);
    assert_eq!(under["compacted"], true);
}
