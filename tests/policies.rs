//! Other agents' compactors against their references: every case of
//! `tests/data/conformance/policies/expected.json` (made with the real LangChain code
//! and line-by-line ports of Codex, OpenHands, opencode and Semantic Kernel) run through
//! the built binary as `compact FILE --policy NAME --set K=V --plan`, compared as
//! `MAPPING.md` says: `compacted`, the index set of each section, the row flags, and the
//! token and summarizer extras the case records.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::{ctxlens, data, stderr};
use serde_json::Value;

const SECTIONS: [&str; 5] = ["head", "tail", "summarized", "dropped", "cleared"];
const FLAGS: [&str; 3] = ["truncated", "inputs_cleared", "duplicated"];
const EXTRAS: [&str; 4] = ["tokens_before", "tokens_after", "summarizer_input", "summarizer_input_truncated"];

fn indices(value: &Value) -> BTreeSet<u64> {
    value.as_array().into_iter().flatten().filter_map(Value::as_u64).collect()
}

/// The mismatches of one plan against one case (empty: it passes).
fn compare(case: &Value, plan: &Value, n: usize) -> Vec<String> {
    let expect = &case["expect"];
    let mut bad = Vec::new();
    let rows = plan["messages"].as_array().cloned().unwrap_or_default();
    let seen: Vec<u64> = rows.iter().filter_map(|r| r["index"].as_u64()).collect();
    if seen != (0..n as u64).collect::<Vec<_>>() {
        bad.push(format!("rows are not 0..{n} in order"));
    }
    if plan["policy"] != case["policy"] {
        bad.push(format!("policy {}", plan["policy"]));
    }
    if plan["compacted"] != expect["compacted"] {
        bad.push(format!("compacted {} (expected {})", plan["compacted"], expect["compacted"]));
    }
    let got = |section: &str| -> BTreeSet<u64> {
        rows.iter()
            .filter(|r| r["section"] == section)
            .filter_map(|r| r["index"].as_u64())
            .collect()
    };
    if expect["compacted"] == Value::Bool(true) {
        for section in SECTIONS {
            if got(section) != indices(&expect[section]) {
                bad.push(format!("{section}: {:?} (expected {:?})", got(section), indices(&expect[section])));
            }
        }
    } else {
        let kept: BTreeSet<u64> = got("head").union(&got("tail")).copied().collect();
        let want: BTreeSet<u64> = indices(&expect["head"]).union(&indices(&expect["tail"])).copied().collect();
        if kept != want {
            bad.push("not compacted, so every message is head or tail".to_owned());
        }
    }
    for flag in FLAGS {
        let flagged: BTreeSet<u64> = rows
            .iter()
            .filter(|r| r[flag] == Value::Bool(true))
            .filter_map(|r| r["index"].as_u64())
            .collect();
        if flagged != indices(&expect[flag]) {
            bad.push(format!("{flag} rows {flagged:?} (expected {:?})", indices(&expect[flag])));
        }
    }
    if let Some(want) = expect.get("truncated_to_tokens") {
        let got: BTreeMap<String, Value> = rows
            .iter()
            .filter_map(|r| Some((r["index"].as_u64()?.to_string(), r.get("truncated_to_tokens")?.clone())))
            .collect();
        let want: BTreeMap<String, Value> = want.as_object().cloned().unwrap_or_default().into_iter().collect();
        if got != want {
            bad.push(format!("truncated_to_tokens {got:?} (expected {want:?})"));
        }
    }
    for extra in EXTRAS {
        if let Some(want) = expect.get(extra) {
            if &plan[extra] != want {
                bad.push(format!("{extra} {} (expected {want})", plan[extra]));
            }
        }
    }
    bad
}

#[test]
fn every_policy_matches_its_reference_on_every_case() {
    let dir = data().join("conformance/policies");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).expect("read")).expect("JSON");
    let cases = doc["cases"].as_array().expect("cases");
    assert!(cases.len() >= 327, "{} cases", cases.len());
    let mut sizes = BTreeMap::new();
    let mut per_policy: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut failures = Vec::new();
    for case in cases {
        let file = case["file"].as_str().expect("file");
        let path = dir.join(file);
        let n = *sizes.entry(file.to_owned()).or_insert_with(|| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("input")).expect("JSON");
            v.as_array().expect("a list").len()
        });
        let policy = case["policy"].as_str().expect("policy");
        let mut args = vec![
            "compact".to_owned(),
            path.display().to_string(),
            "--policy".to_owned(),
            policy.to_owned(),
        ];
        for (k, v) in case["set"].as_object().expect("set") {
            args.push("--set".to_owned());
            args.push(format!("{k}={}", v.as_str().expect("a string value")));
        }
        args.push("--plan".to_owned());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = ctxlens(&args);
        let entry = per_policy.entry(policy.to_owned()).or_default();
        entry.0 += 1;
        let bad = if out.status.success() {
            match serde_json::from_slice::<Value>(&out.stdout) {
                Ok(plan) => compare(case, &plan, n),
                Err(e) => vec![format!("not JSON: {e}")],
            }
        } else {
            vec![format!("exit {:?}: {}", out.status.code(), stderr(&out))]
        };
        if bad.is_empty() {
            entry.1 += 1;
        } else {
            failures.push(format!("{}: {}", case["id"], bad.join("; ")));
        }
    }
    for (policy, (cases, passed)) in &per_policy {
        eprintln!("{policy:<32} {passed}/{cases}");
    }
    assert!(failures.is_empty(), "{} cases fail:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn a_policy_refuses_settings_it_does_not_have() {
    let input = data().join("conformance/policies/inputs/agent-loop.json");
    let input = input.display().to_string();
    let out = ctxlens(&["compact", &input, "--policy", "codex", "--set", "max_tokens=10", "--plan"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(err.contains("max_tokens") && err.contains("auto_compact_token_limit"), "{err}");
    let out = ctxlens(&["compact", &input, "--policy", "claude-kode", "--plan"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("unknown policy"), "{}", stderr(&out));
    let out = ctxlens(&["compact", &input, "--policy", "langchain-trim", "--set", "max_tokens=ten", "--plan"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("whole number"), "{}", stderr(&out));
}
