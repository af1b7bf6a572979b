//! Provider validators: the pairing rules each API enforces, with the error text the
//! provider is predicted to answer (from `formats.md`), so a broken transcript is caught
//! before a request fails.

use std::collections::HashSet;
use std::fmt;

pub use crate::transcript::Provider;
use crate::transcript::Transcript;

/// One way a transcript breaks a provider's rules.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Problem {
    /// Index of the offending message.
    pub index: usize,
    /// What is wrong, in ctxlens's words.
    pub problem: String,
    /// What the provider is predicted to answer.
    pub provider_error: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "message {}: {} (provider: {})",
            self.index, self.problem, self.provider_error
        )
    }
}

/// The `check` document: the provider's rules applied and every problem found.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub struct Report {
    /// The provider whose rules were applied (`openai`, `anthropic`, `gemini`, `responses`).
    pub provider: &'static str,
    /// No problem found.
    pub ok: bool,
    /// Every problem, in message order.
    pub problems: Vec<Problem>,
}

impl Report {
    /// `transcript` checked by `provider`'s rules.
    pub fn of(transcript: &Transcript, provider: Provider) -> Report {
        let problems = check(transcript, provider);
        Report {
            provider: provider.name(),
            ok: problems.is_empty(),
            problems,
        }
    }
}

impl crate::document::Document for Report {
    const NAME: &'static str = "check";
}

/// Every problem `transcript` has for `provider`, in message order.
pub fn check(transcript: &Transcript, provider: Provider) -> Vec<Problem> {
    let mut problems = match provider {
        Provider::OpenAi => check_openai(transcript),
        Provider::Anthropic => check_anthropic(transcript),
        Provider::Gemini => check_gemini(transcript),
        Provider::Responses => check_responses(transcript),
    };
    problems.sort_by_key(|p| p.index);
    problems
}

const OPENAI_ORPHAN_RESULT: &str =
    "messages with role 'tool' must be a response to a preceeding message with 'tool_calls'";

fn check_openai(transcript: &Transcript) -> Vec<Problem> {
    let messages = &transcript.messages;
    let mut problems = Vec::new();
    // Ids the run of tool messages right after the current assistant call may answer.
    let mut callable: HashSet<&str> = HashSet::new();
    for (index, message) in messages.iter().enumerate() {
        if message.role != "tool" {
            callable.clear();
        }
        if message.role == "tool" && !has_key(transcript.raw(index), "tool_call_id") {
            problems.push(Problem {
                index,
                problem: if has_key(transcript.raw(index), "tool_call_ids") {
                    "tool message has SWE-agent's plural `tool_call_ids` but no `tool_call_id`".to_owned()
                } else {
                    "tool message has no `tool_call_id`".to_owned()
                },
                provider_error: format!("Missing required parameter: 'messages[{index}].tool_call_id'."),
            });
        }
        if message.role == "tool" {
            for id in message.tool_results() {
                if !callable.contains(id.as_str()) {
                    problems.push(Problem {
                        index,
                        problem: format!("tool result `{id}` does not follow an assistant message that calls it"),
                        provider_error: OPENAI_ORPHAN_RESULT.to_owned(),
                    });
                }
            }
        }
        if message.role == "assistant" && !message.tool_calls().is_empty() {
            callable = message.tool_calls().iter().map(|c| c.id.as_str()).collect();
            let answered: HashSet<&str> = messages[index + 1..]
                .iter()
                .take_while(|m| m.role == "tool")
                .flat_map(|m| m.tool_results().iter().map(String::as_str))
                .collect();
            let missing: Vec<&str> = message
                .tool_calls()
                .iter()
                .map(|c| c.id.as_str())
                .filter(|id| !answered.contains(id) && !id.starts_with("function_call@"))
                .collect();
            if !missing.is_empty() {
                problems.push(Problem {
                    index,
                    problem: format!("tool call(s) {} not answered by the tool messages right after", quoted(&missing)),
                    provider_error: format!(
                        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {}",
                        missing.join(", ")
                    ),
                });
            }
        }
    }
    problems
}

fn check_anthropic(transcript: &Transcript) -> Vec<Problem> {
    let messages = &transcript.messages;
    let mut problems = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        if message.role == "system" {
            problems.push(Problem {
                index,
                problem: "role \"system\" inside `messages` (a summary or reminder?)".to_owned(),
                provider_error: "messages: Unexpected role \"system\". The Messages API accepts a top-level `system` parameter, not \"system\" as an input message role.".to_owned(),
            });
        }
        let previous_calls: HashSet<&str> = index
            .checked_sub(1)
            .map(|p| &messages[p])
            .filter(|p| p.role == "assistant")
            .map(|p| p.tool_calls().iter().map(|c| c.id.as_str()).collect())
            .unwrap_or_default();
        for id in message.tool_results() {
            if !previous_calls.contains(id.as_str()) {
                problems.push(Problem {
                    index,
                    problem: format!("tool_result `{id}` has no tool_use in the message right before"),
                    provider_error: format!("unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."),
                });
            }
        }
        if !message.tool_calls().is_empty() {
            let next_results: HashSet<&str> = messages
                .get(index + 1)
                .filter(|n| n.role == "user")
                .map(|n| n.tool_results().iter().map(String::as_str).collect())
                .unwrap_or_default();
            let missing: Vec<&str> = message
                .tool_calls()
                .iter()
                .map(|c| c.id.as_str())
                .filter(|id| !next_results.contains(id))
                .collect();
            if !missing.is_empty() {
                problems.push(Problem {
                    index,
                    problem: format!("tool_use {} not answered in the next message", quoted(&missing)),
                    provider_error: format!("`tool_use` ids were found without `tool_result` blocks immediately after: {}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", missing.join(", ")),
                });
            }
        }
    }
    problems
}

/// Gemini: a turn of function responses comes right after the model turn that called,
/// with as many responses as calls.
fn check_gemini(transcript: &Transcript) -> Vec<Problem> {
    let messages = &transcript.messages;
    let mut problems = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        if message.tool_results().is_empty() {
            continue;
        }
        let previous = index
            .checked_sub(1)
            .map(|p| &messages[p])
            .filter(|p| !p.tool_calls().is_empty());
        match previous {
            None => problems.push(Problem {
                index,
                problem: "function responses that do not follow a function call turn".to_owned(),
                provider_error: "Please ensure that function response turn comes immediately after a function call turn.".to_owned(),
            }),
            Some(p) if p.tool_calls().len() != message.tool_results().len() => problems.push(Problem {
                index,
                problem: format!("{} function responses for {} function calls", message.tool_results().len(), p.tool_calls().len()),
                provider_error: "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.".to_owned(),
            }),
            Some(_) => {}
        }
    }
    problems
}

/// Responses: every `function_call_output` has an earlier `function_call` with its
/// `call_id`, and every call has an output.
fn check_responses(transcript: &Transcript) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut called: HashSet<&str> = HashSet::new();
    let answered: HashSet<&str> = transcript
        .messages
        .iter()
        .flat_map(|m| m.tool_results().iter().map(String::as_str))
        .collect();
    for (index, message) in transcript.messages.iter().enumerate() {
        for id in message.tool_results() {
            if !called.contains(id.as_str()) {
                problems.push(Problem {
                    index,
                    problem: format!("output for `{id}` has no function call before it"),
                    provider_error: format!("No tool call found for function call output with call_id {id}."),
                });
            }
        }
        for call in message.tool_calls() {
            called.insert(call.id.as_str());
            if !answered.contains(call.id.as_str()) {
                problems.push(Problem {
                    index,
                    problem: format!("function call `{}` has no output", call.id),
                    provider_error: format!("No tool output found for function call {}.", call.id),
                });
            }
        }
    }
    problems
}

/// True when the message object `raw` has the top-level key `key`.
fn has_key(raw: &str, key: &str) -> bool {
    serde_json::from_str::<std::collections::BTreeMap<String, &serde_json::value::RawValue>>(raw)
        .is_ok_and(|map| map.contains_key(key))
}

fn quoted(ids: &[&str]) -> String {
    ids.iter().map(|id| format!("`{id}`")).collect::<Vec<_>>().join(", ")
}
