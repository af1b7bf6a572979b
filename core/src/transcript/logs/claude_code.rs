//! Claude Code session logs: the active branch back through `parentUuid`, a response
//! split over several lines merged into one message, parallel tool results kept with
//! their call, `compact_boundary` records as past compactions, off-branch records
//! (sidechains, abandoned branches) summed into notes.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use serde_json::value::RawValue;
use serde_json::Value;

use super::message_head::MessageHead;
use super::{
    lines, note_incomplete, one_line, text_of, value, Conversation, Line, Loaded, LogRecord, Note, PastCompaction,
};
use crate::error::LoadError;
use crate::transcript::format::{json_error, span_of};
use crate::transcript::message::{Message, Recorded};

/// A Claude Code session: the active branch (the last leaf back through `parentUuid`),
/// assistant responses split over several lines merged (same `message.id`).
pub(crate) fn claude_code(
    source: &str,
    text: &str,
    start: usize,
    conversation: Conversation,
) -> Result<Loaded, LoadError> {
    let (lines, incomplete) = lines(source, text, start)?;
    // A compaction that kept messages verbatim says how to link them after its summary
    // (Claude Code relinks them when it loads the log; so does this reader).
    let relinked = preserved_relinks(&lines);
    let parent = |l: &Line| {
        if let Some(anchor) = uuid_of(l).and_then(|u| relinked.get(&u)) {
            return Some(anchor.clone());
        }
        l.fields
            .get("parentUuid")
            .and_then(|r| serde_json::from_str::<String>(r.get()).ok())
    };
    let by_uuid: HashMap<String, usize> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| uuid_of(l).map(|u| (u, i)))
        .collect();
    let main_parents: HashSet<String> = lines.iter().filter(|l| !is_sidechain(l)).filter_map(parent).collect();
    let unwritten = unwritten_parent_bridges(&lines, &parent, &by_uuid);
    // The line a record's parent leads back to: `Some(None)` for a parent neither written
    // nor bridged (a dead end), `None` for a record naming none (a chain's start).
    let up = |i: usize| parent(&lines[i]).map(|p| by_uuid.get(&p).copied().or_else(|| unwritten.get(&i).copied()));
    let leaf = last_leaf(&lines, &main_parents, &parent, &by_uuid, &|i| up(i) != Some(None));
    // A compaction starts a chain with no parent: the conversation before it is reached
    // through the boundary's `logicalParentUuid`, or, for a 1.0.x summary written without
    // a boundary, through the main conversation's last record before it.
    let before_legacy = legacy_summary_parents(&lines, &main_parents);
    let logical_of = |i: usize| logical_parent(&lines, i, &by_uuid, &before_legacy);
    let line_of = |p: String| by_uuid.get(&p).copied();
    let mut seen = HashSet::new();
    // Back through a compaction only when every epoch is wanted.
    let whole = conversation == Conversation::Whole;
    let chain = walk_back(leaf, &mut seen, &|_| false, &|i| {
        up(i).unwrap_or_else(|| whole.then(|| logical_of(i)).flatten().and_then(line_of))
    });
    let chain = with_parallel_results(&lines, with_whole_responses(&lines, chain, &parent), &parent);
    let active: HashSet<usize> = chain.iter().copied().collect();
    // The earlier epochs behind the live one: from its compaction back through its
    // logical parent and every parent before it.
    let start = chain.first().and_then(|&i| logical_of(i)).and_then(line_of);
    let earlier_chain = walk_back(start, &mut seen, &|i| active.contains(&i), &|i| {
        up(i).unwrap_or_else(|| logical_of(i).and_then(line_of))
    });
    let earlier: HashMap<usize, usize> = with_parallel_results(&lines, earlier_chain, &parent)
        .into_iter()
        .enumerate()
        .map(|(k, i)| (i, k))
        .collect();

    let mut loaded = Loaded::empty();
    let mut builder = ClaudeMessages::default();
    for &i in &chain {
        builder.add(source, text, &lines[i], i)?;
    }
    let (messages, notes, record_message, model) = builder.finish();
    loaded.compactions = claude_compactions(
        &lines,
        &chain,
        &notes,
        &messages,
        &record_message,
        &before_legacy,
        &by_uuid,
    );
    keep_preserved_texts(
        text,
        &lines,
        &by_uuid,
        &record_message,
        &messages,
        &mut loaded.compactions,
    );
    let notes = with_legacy_compaction_notes(notes, &loaded.compactions);
    loaded.messages = messages;
    loaded.notes = notes;
    loaded.model = model;
    off_branch_notes(&lines, &active, &mut loaded);
    note_continued_elsewhere(&lines, &chain, &parent, &by_uuid, &mut loaded);
    let order: HashMap<usize, usize> = chain.iter().enumerate().map(|(k, &i)| (i, k)).collect();
    loaded.records = lines
        .iter()
        .enumerate()
        .map(|(i, l)| LogRecord {
            range: l.range.clone(),
            message: record_message.get(&i).copied(),
            active: active.contains(&i),
            order: order.get(&i).copied(),
            earlier: earlier.get(&i).copied(),
        })
        .collect();
    note_incomplete(&mut loaded, incomplete);
    Ok(loaded)
}

/// For each record naming a parent the file never holds, the record it continues: the
/// last one before it in the file on the same side (main conversation or sub-agent).
/// Claude Code sometimes links a record to one it never wrote (2.1.27: a `Stop` hook's
/// `progress` record names the turn's last answer, absent), yet goes on sending the whole
/// conversation: the next recorded prompt holds everything before (e.g. 144,153 tokens
/// after a last request of 137,094, where the chain alone would begin at that hook). A
/// session's first record naming a parent in another file has nothing before it and
/// stays a start.
fn unwritten_parent_bridges(
    lines: &[Line],
    parent: &dyn Fn(&Line) -> Option<String>,
    by_uuid: &HashMap<String, usize>,
) -> HashMap<usize, usize> {
    let has_uuid = |l: &Line| l.fields.contains_key("uuid");
    let mut last_on_side: [Option<usize>; 2] = [None, None];
    let mut out = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        if !has_uuid(line) {
            continue;
        }
        let side = usize::from(is_sidechain(line));
        if let Some(before) = last_on_side[side] {
            if parent(line).is_some_and(|p| !by_uuid.contains_key(&p)) {
                out.insert(i, before);
            }
        }
        last_on_side[side] = Some(i);
    }
    out
}

/// The record line `i` continues when it starts a chain of its own: a boundary's (the
/// record before the first message it kept verbatim, else its `logicalParentUuid`, else —
/// that record never written — the last message before it), or a 1.0.x summary's
/// (`before_legacy` holds both last messages).
fn logical_parent(
    lines: &[Line],
    i: usize,
    by_uuid: &HashMap<String, usize>,
    before_legacy: &HashMap<usize, String>,
) -> Option<String> {
    let field = |line: &Line, key: &str| {
        line.fields
            .get(key)
            .and_then(|r| serde_json::from_str::<String>(r.get()).ok())
    };
    if !is_compact_boundary(&lines[i]) {
        return before_legacy.get(&i).cloned();
    }
    // What it kept verbatim is the next epoch's now: the one before ends where the first
    // kept message began (its own parent in the file).
    preserved_head(&lines[i])
        .and_then(|head| by_uuid.get(&head).copied())
        .and_then(|head| field(&lines[head], "parentUuid"))
        .or_else(|| field(&lines[i], "logicalParentUuid"))
        .filter(|parent| by_uuid.contains_key(parent))
        // The record it names was never written: the last message before it stands in.
        .or_else(|| before_legacy.get(&i).cloned())
}

/// The main conversation's last leaf (sub-agent children do not count: `main_parents`
/// are the parents main-conversation records name); a sub-agent's own log is all
/// sidechain, so then any leaf will do. A leaf whose parent is not in the file and that
/// has no record before it to continue from ([`unwritten_parent_bridges`]) leads nowhere
/// and is passed over while another leaf exists (`leads_back`); one that has such a
/// record (a tool's `progress` record written while its call's own line is not yet: the
/// last line of a log read mid-call) leads back through it; so is passed over a late
/// tool result — one answering a call the conversation has moved on from (a later
/// response exists), such as a permission request failing when the session closes hours
/// after the call: the conversation did not go back to that call.
fn last_leaf(
    lines: &[Line],
    main_parents: &HashSet<String>,
    parent: &dyn Fn(&Line) -> Option<String>,
    by_uuid: &HashMap<String, usize>,
    leads_back: &dyn Fn(usize) -> bool,
) -> Option<usize> {
    let main_leaf = |l: &Line| !is_sidechain(l) && uuid_of(l).is_some_and(|u| !main_parents.contains(&u));
    let kind = |l: &Line| l.fields.get("type").map(|t| t.get().trim_matches('"').to_owned());
    let last_response = lines
        .iter()
        .rposition(|l| !is_sidechain(l) && kind(l).as_deref() == Some("assistant"));
    let late_result = |l: &Line| {
        kind(l).as_deref() == Some("user")
            && l.fields
                .get("message")
                .is_some_and(|m| m.get().contains("\"tool_result\""))
            && parent(l)
                .and_then(|p| by_uuid.get(&p).copied())
                .zip(last_response)
                .is_some_and(|(call, last)| call < last)
    };
    let last = |keep: &dyn Fn(usize, &Line) -> bool| (0..lines.len()).rev().find(|&i| keep(i, &lines[i]));
    last(&|i, l| main_leaf(l) && leads_back(i) && !late_result(l))
        .or_else(|| last(&|i, l| main_leaf(l) && leads_back(i)))
        .or_else(|| lines.iter().rposition(main_leaf))
        .or_else(|| {
            let all_parents: HashSet<String> = lines.iter().filter_map(parent).collect();
            lines
                .iter()
                .rposition(|l| uuid_of(l).is_some_and(|u| !all_parents.contains(&u)))
        })
}

/// The lines from `from` back through `next` until a line already `seen` or one to
/// stop at, oldest first.
fn walk_back(
    from: Option<usize>,
    seen: &mut HashSet<usize>,
    stop_at: &dyn Fn(usize) -> bool,
    next: &dyn Fn(usize) -> Option<usize>,
) -> Vec<usize> {
    let mut out = Vec::new();
    let mut cursor = from;
    while let Some(i) = cursor.filter(|&i| !stop_at(i) && seen.insert(i)) {
        out.push(i);
        cursor = next(i);
    }
    out.reverse();
    out
}

/// The chain with the results of parallel calls that sit on side branches put back.
/// Claude Code links each parallel call's `tool_result` line to that call's own line, so
/// every result but the last is a sibling of the chain the leaf walks back through; the
/// client still sends them all. A result line is taken back right after its parent.
fn with_parallel_results(lines: &[Line], chain: Vec<usize>, parent: &dyn Fn(&Line) -> Option<String>) -> Vec<usize> {
    let on_chain: HashSet<usize> = chain.iter().copied().collect();
    let mut children: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        if on_chain.contains(&i) || !is_tool_result_line(line) {
            continue;
        }
        if let Some(p) = parent(line) {
            children.entry(p).or_default().push(i);
        }
    }
    if children.is_empty() {
        return chain;
    }
    let mut out = Vec::with_capacity(chain.len());
    for i in chain {
        out.push(i);
        if let Some(side) = uuid_of(&lines[i]).and_then(|u| children.remove(&u)) {
            // A result is on its call's side: a sub-agent's results answer its own calls.
            out.extend(
                side.into_iter()
                    .filter(|&r| is_sidechain(&lines[r]) == is_sidechain(&lines[i])),
            );
        }
    }
    out
}

/// The chain with every line of each response on it: Claude Code writes a response one
/// content block a line, each linked to the line before, and each tool result to its own
/// call's line; when the last result written answers an early call (parallel calls
/// finishing out of order), the leaf's walk back goes from that result to its call and
/// skips the response's later lines and the results hanging from them. The client still
/// sends the whole response and every result (the next request's recorded prompt holds
/// them): a response's lines off the chain that descend from its lines on it are put
/// back right after their parent line, on the same side (main conversation or
/// sub-agent); [`with_parallel_results`] then brings their results back. A copy of the
/// response on another branch (the same `message.id`, linked from elsewhere) stays off,
/// and a chain that holds every line of its responses is left as it is.
fn with_whole_responses(lines: &[Line], chain: Vec<usize>, parent: &dyn Fn(&Line) -> Option<String>) -> Vec<usize> {
    #[derive(serde::Deserialize)]
    struct Head {
        id: Option<String>,
    }
    let on_chain: HashSet<usize> = chain.iter().copied().collect();
    let is_answer = |l: &Line| text_of(l.fields.get("type")) == "assistant";
    // Most logs hold no answer off the chain: nothing to read then.
    if !lines
        .iter()
        .enumerate()
        .any(|(i, l)| !on_chain.contains(&i) && is_answer(l))
    {
        return chain;
    }
    let response_of = |l: &Line| {
        if !is_answer(l) {
            return None;
        }
        let head: Head = serde_json::from_str(l.fields.get("message")?.get()).ok()?;
        Some((head.id.filter(|id| !id.is_empty())?, is_sidechain(l)))
    };
    let mut responses: HashMap<(String, bool), Vec<usize>> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(key) = response_of(line) {
            responses.entry(key).or_default().push(i);
        }
    }
    // The lines to put back, by the uuid of the line each follows.
    let mut after: HashMap<String, Vec<usize>> = HashMap::new();
    for group in responses.values() {
        if group.iter().all(|i| on_chain.contains(i)) {
            continue;
        }
        let mut linked: HashSet<String> = group
            .iter()
            .filter(|i| on_chain.contains(i))
            .filter_map(|&i| uuid_of(&lines[i]))
            .collect();
        // In file order: a line comes after the line it names as its parent.
        for &i in group.iter().filter(|i| !on_chain.contains(i)) {
            let Some(p) = parent(&lines[i]).filter(|p| linked.contains(p)) else {
                continue;
            };
            linked.extend(uuid_of(&lines[i]));
            after.entry(p).or_default().push(i);
        }
    }
    if after.is_empty() {
        return chain;
    }
    let mut out = Vec::with_capacity(chain.len());
    let mut stack: Vec<usize> = Vec::new();
    for i in chain {
        stack.push(i);
        while let Some(j) = stack.pop() {
            out.push(j);
            if let Some(next) = uuid_of(&lines[j]).and_then(|u| after.remove(&u)) {
                stack.extend(next.into_iter().rev());
            }
        }
    }
    out
}

/// A sub-agent's record (`isSidechain: true`).
fn is_sidechain(line: &Line) -> bool {
    value(line.fields.get("isSidechain")) == Value::Bool(true)
}

/// A record's `uuid`, when it has one.
fn uuid_of(line: &Line) -> Option<String> {
    line.fields
        .get("uuid")
        .and_then(|r| serde_json::from_str::<String>(r.get()).ok())
}

/// A `compact_boundary` system line.
fn is_compact_boundary(line: &Line) -> bool {
    text_of(line.fields.get("subtype")) == "compact_boundary"
}

/// The parents Claude Code gives the messages a compaction kept verbatim (its boundary's
/// `compactMetadata`, as the Agent SDK's types document it for Claude Code 2.1):
/// `preservedMessages: {anchorUuid, uuids}` links `uuids[0]` to the anchor and each next
/// one to the one before; the older `preservedSegment: {headUuid, anchorUuid, tailUuid}`
/// links the head to the anchor (the rest keep their own parents back to it). The anchor
/// is the summary (kept messages after it) or the boundary (kept messages before it).
fn preserved_relinks(lines: &[Line]) -> HashMap<String, String> {
    let mut relinked = HashMap::new();
    for line in lines.iter().filter(|l| is_compact_boundary(l)) {
        let meta = value(line.fields.get("compactMetadata"));
        let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_owned);
        if let Some(kept) = meta.get("preservedMessages") {
            let Some(anchor) = text(kept, "anchorUuid") else {
                continue;
            };
            let uuids: Vec<String> = kept
                .get("uuids")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|u| u.as_str().map(str::to_owned))
                .collect();
            // uuids[0] after the anchor, each next one after the one before it.
            let befores = std::iter::once(anchor).chain(uuids.iter().cloned());
            relinked.extend(uuids.iter().cloned().zip(befores));
        } else if let Some(segment) = meta.get("preservedSegment") {
            if let (Some(head), Some(anchor)) = (text(segment, "headUuid"), text(segment, "anchorUuid")) {
                relinked.insert(head, anchor);
            }
        }
    }
    relinked
}

/// The first message a boundary kept verbatim (`preservedMessages.uuids[0]`, else
/// `preservedSegment.headUuid`), when it kept any.
fn preserved_head(line: &Line) -> Option<String> {
    let meta = value(line.fields.get("compactMetadata"));
    meta.pointer("/preservedMessages/uuids/0")
        .or_else(|| meta.pointer("/preservedSegment/headUuid"))
        .and_then(Value::as_str)
        .map(str::to_owned)
}

/// The readable texts of what each boundary kept verbatim, in order, and its
/// `postTokens` (the context's size right after it, where recorded).
fn keep_preserved_texts(
    text: &str,
    lines: &[Line],
    by_uuid: &HashMap<String, usize>,
    record_message: &HashMap<usize, usize>,
    messages: &[Message],
    compactions: &mut [PastCompaction],
) {
    let uuids_of = |meta: &Value| -> Vec<String> {
        let strings = |v: Option<&Value>| -> Vec<String> {
            v.and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|u| u.as_str().map(str::to_owned))
                .collect()
        };
        if let Some(kept) = meta.get("preservedMessages") {
            return strings(kept.get("uuids"));
        }
        // A segment: from its tail back through parents to its head.
        let Some(segment) = meta.get("preservedSegment") else {
            return Vec::new();
        };
        let (Some(head), Some(tail)) = (
            segment.get("headUuid").and_then(Value::as_str),
            segment.get("tailUuid").and_then(Value::as_str),
        ) else {
            return Vec::new();
        };
        let mut out = vec![tail.to_owned()];
        let mut cursor = tail.to_owned();
        while cursor != head && out.len() <= lines.len() {
            let Some(parent) = by_uuid
                .get(&cursor)
                .and_then(|&i| lines[i].fields.get("parentUuid"))
                .and_then(|r| serde_json::from_str::<String>(r.get()).ok())
            else {
                break;
            };
            out.push(parent.clone());
            cursor = parent;
        }
        out.reverse();
        out
    };
    for c in compactions.iter_mut() {
        let Some(line) = lines.iter().find(|l| l.number == c.line && is_compact_boundary(l)) else {
            continue;
        };
        let meta = value(line.fields.get("compactMetadata"));
        c.post_tokens = meta.get("postTokens").and_then(Value::as_u64);
        let mut seen = HashSet::new();
        c.kept = uuids_of(&meta)
            .iter()
            .filter_map(|u| record_message.get(by_uuid.get(u)?))
            .filter(|&&m| seen.insert(m))
            .map(|&m| {
                let message = &messages[m];
                message.synthetic().map_or_else(
                    || crate::transcript::message::readable_text(&text[message.span.clone()]),
                    crate::transcript::message::readable_text,
                )
            })
            .collect();
    }
}

/// Claude Code 1.0.x wrote a compaction as its summary alone: a main-conversation `user`
/// record with `isCompactSummary: true` and no parent (no `compact_boundary` before it,
/// no `logicalParentUuid`). The conversation it replaced is the one the client was in
/// when it compacted: the main conversation's last message written before the summary,
/// preferring one that nothing continues (the leaf the client compacted from). A 2.x
/// boundary names that record (`logicalParentUuid`), but the record may never have been
/// written: a tool's result still in flight when it compacted (2.1.41 does it, after a
/// hook's `progress` record that names the same missing parent); the same record then
/// stands in ([`logical_parent`]). Returns, for each summary and boundary line, the `uuid`
/// of that record. Only messages count: a `progress` record is the client's bookkeeping,
/// and its parent may be the missing one.
fn legacy_summary_parents(lines: &[Line], main_parents: &HashSet<String>) -> HashMap<usize, String> {
    let is_message = |l: &Line| matches!(text_of(l.fields.get("type")).as_str(), "user" | "assistant");
    // A sub-agent's own log (`subagents/agent-*.jsonl`) is all sidechain: its
    // conversation is the main one there.
    let sub_agent_log = !lines.iter().any(|l| is_message(l) && !is_sidechain(l));
    let on_main = |l: &Line| sub_agent_log || !is_sidechain(l);
    let mut out = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        if !is_legacy_summary(line) && !is_compact_boundary(line) {
            continue;
        }
        let earlier = || {
            lines[..i]
                .iter()
                .rev()
                .filter(|l| on_main(l) && is_message(l))
                .filter_map(uuid_of)
        };
        let leaf = earlier()
            .find(|u| !main_parents.contains(u))
            .or_else(|| earlier().next());
        if let Some(u) = leaf {
            out.insert(i, u);
        }
    }
    out
}

/// How Claude Code opens the summary it writes after compacting (its `cli.js`).
pub const CLAUDE_CODE_OPENING: &str =
    "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\n";

/// How Claude Code opens every compaction summary it writes, in every release read: the
/// first sentence of [`CLAUDE_CODE_OPENING`] (the line after it varies).
fn summary_opening() -> &'static str {
    let opening = CLAUDE_CODE_OPENING;
    opening.split_once(". ").map_or(opening, |(first, _)| first)
}

/// A session continued from a compacted one (1.0.x `--continue`/`--resume`) opens its file
/// with the earlier session's summary as a plain user record, without `isCompactSummary`:
/// a user record that starts a chain (`parentUuid` null, not a sidechain) and whose text
/// opens as Claude Code opens its summaries. It is that summary, not the user's words:
/// its first request carries the files that compaction restored, and it asks nothing.
fn carries_a_summary(line: &Line, message_raw: &RawValue) -> bool {
    if text_of(line.fields.get("type")) != "user"
        || value(line.fields.get("parentUuid")) != Value::Null
        || is_sidechain(line)
        || !message_raw.get().contains(summary_opening())
    {
        return false;
    }
    let message: Value = serde_json::from_str(message_raw.get()).unwrap_or(Value::Null);
    let text = match message.get("content") {
        Some(Value::String(text)) => Some(text.as_str()),
        Some(Value::Array(blocks)) => blocks.iter().find_map(|b| b.get("text")?.as_str()),
        _ => None,
    };
    text.is_some_and(|t| t.trim_start().starts_with(summary_opening()))
}

/// A 1.0.x compaction: a main-conversation summary that starts a chain of its own.
fn is_legacy_summary(line: &Line) -> bool {
    value(line.fields.get("isCompactSummary")) == Value::Bool(true)
        && text_of(line.fields.get("type")) == "user"
        && value(line.fields.get("isSidechain")) != Value::Bool(true)
        && value(line.fields.get("parentUuid")) == Value::Null
}

/// Whether the user asked for a 1.0.x compaction: a `/compact` command among the main
/// conversation's records between the previous compaction (or the start) and the summary.
/// The log has no `trigger` field then, so this is the only sign.
fn asked_for_compaction(lines: &[Line], summary: usize) -> bool {
    lines[..summary]
        .iter()
        .rev()
        .take_while(|l| !is_legacy_summary(l) && !is_compact_boundary(l))
        .filter(|l| text_of(l.fields.get("type")) == "user")
        .any(|l| {
            let message = value(l.fields.get("message"));
            let content = message.get("content");
            let said = content.and_then(Value::as_str).map_or_else(
                || {
                    content
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                        .filter_map(|b| b.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n")
                },
                str::to_owned,
            );
            said.contains("<command-name>/compact</command-name>")
        })
}

/// The compactions on the chain, each with the epoch start it marks and the summary
/// message right after it: `compact_boundary` records (their `compactMetadata` says
/// what fired them and the size before), and 1.0.x summaries without one (the message
/// itself starts the epoch; what fired it is read from a `/compact` command before it).
fn claude_compactions(
    lines: &[Line],
    chain: &[usize],
    notes: &[Note],
    messages: &[Message],
    record_message: &HashMap<usize, usize>,
    before_legacy: &HashMap<usize, String>,
    by_uuid: &HashMap<String, usize>,
) -> Vec<PastCompaction> {
    chain
        .iter()
        .filter_map(|&i| {
            let line = &lines[i];
            if is_compact_boundary(line) {
                let at = notes
                    .iter()
                    .find(|n| n.line == line.number)
                    .map_or(messages.len(), |n| n.before);
                let meta = value(line.fields.get("compactMetadata"));
                return Some(PastCompaction {
                    line: line.number,
                    at,
                    trigger: Some(trigger_of(&meta)).filter(|t| *t != "?").map(str::to_owned),
                    pre_tokens: meta.get("preTokens").and_then(Value::as_u64),
                    summary_message: messages.get(at).filter(|m| m.past_summary).map(|_| at),
                    kept: Vec::new(),
                    post_tokens: None,
                    elsewhere: compacted_elsewhere(lines, i, by_uuid),
                });
            }
            // A 1.0.x summary counts where the conversation before it is known (a log
            // that starts with one, cut from its earlier records, has nothing behind it).
            if !is_legacy_summary(line) || !before_legacy.contains_key(&i) {
                return None;
            }
            let at = *record_message.get(&i)?;
            let trigger = if asked_for_compaction(lines, i) {
                "manual"
            } else {
                "auto"
            };
            Some(PastCompaction {
                line: line.number,
                at,
                trigger: Some(trigger.to_owned()),
                pre_tokens: None,
                summary_message: Some(at),
                kept: Vec::new(),
                post_tokens: None,
                elsewhere: false,
            })
        })
        .collect()
}

/// Whether the boundary at line `i` compacted a conversation logged in another file
/// ([`PastCompaction::elsewhere`]): it names a logical parent this file never holds, and
/// its `preTokens` exceed all this file could have sent before it — the last prompt
/// recorded before it plus every byte written from that response on (its output too:
/// a log records a streamed answer's output count as it began, often 1; no tokenizer
/// makes more tokens than bytes). A Claude Code 2.0.8 session resumed the next day
/// compacted in its new file at 158,881 tokens; the next resume copied that boundary into
/// the first file, whose largest request was 49,712.
fn compacted_elsewhere(lines: &[Line], i: usize, by_uuid: &HashMap<String, usize>) -> bool {
    let named = text_of(lines[i].fields.get("logicalParentUuid"));
    if named.is_empty() || by_uuid.contains_key(&named) {
        return false;
    }
    let Some(pre) = value(lines[i].fields.get("compactMetadata"))
        .get("preTokens")
        .and_then(Value::as_u64)
    else {
        return false;
    };
    let mut bytes = 0u64;
    let mut last_response: Option<(String, u64)> = None;
    for line in lines[..i].iter().rev() {
        if is_compact_boundary(line) {
            break;
        }
        let message = value(line.fields.get("message"));
        let id = message.get("id").and_then(Value::as_str).unwrap_or_default();
        match &last_response {
            // The response's earlier lines (the same message id) are its output too.
            Some((found, _)) if found != id => break,
            Some(_) => {}
            None => {
                let prompt = message.get("usage").map(usage_of).map(|u| u.context_tokens());
                if let Some(prompt) = prompt.filter(|&p| p > 0) {
                    last_response = Some((id.to_owned(), prompt));
                }
            }
        }
        bytes += line.range.len() as u64;
    }
    pre > last_response.map_or(0, |(_, prompt)| prompt) + bytes
}

/// A 1.0.x compaction has no boundary record to be its note: one is made, where its
/// summary starts the epoch, so every view marks it as it marks a boundary.
fn with_legacy_compaction_notes(mut notes: Vec<Note>, compactions: &[PastCompaction]) -> Vec<Note> {
    for c in compactions {
        if notes.iter().any(|n| n.line == c.line) {
            continue; // a boundary, noted already
        }
        let at = notes.partition_point(|n| n.before < c.at);
        let trigger = c.trigger.as_deref().unwrap_or("?");
        notes.insert(
            at,
            Note {
                before: c.at,
                line: c.line,
                kind: "past compaction".to_owned(),
                text: format!("compacted here ({trigger}): size not recorded (a 1.0.x log: its summary alone)"),
            },
        );
    }
    notes
}

/// A `user` line whose content is only `tool_result` blocks.
fn is_tool_result_line(line: &Line) -> bool {
    if text_of(line.fields.get("type")) != "user" {
        return false;
    }
    let message = value(line.fields.get("message"));
    message.get("content").and_then(Value::as_array).is_some_and(|blocks| {
        !blocks.is_empty()
            && blocks
                .iter()
                .all(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
    })
}

/// Builds the messages of one Claude Code conversation chain, as the client sends them:
/// the lines of one response (same `message.id`) are one assistant message, and the
/// `tool_result` lines answering its calls are one user message, results in call order
/// (older clients interleave call and result lines; newer ones write each parallel
/// result on its own line).
#[derive(Default)]
struct ClaudeMessages {
    messages: Vec<Message>,
    notes: Vec<Note>,
    record_message: HashMap<usize, usize>,
    model: Option<String>,
    /// The response being built: its message index and `message.id`.
    response: Option<(usize, String)>,
    /// The user message collecting that response's tool results.
    results: Option<usize>,
    /// The messages of the open response (its own, its results') that lines were merged
    /// into, as JSON not written out yet: each is serialized and parsed once, when the
    /// response ends, rather than once per line (a response of many lines was quadratic).
    merged: Vec<(usize, Value)>,
    /// The ids of the calls the open response made so far.
    open_calls: Vec<String>,
}

impl ClaudeMessages {
    fn add(&mut self, source: &str, text: &str, line: &Line, line_index: usize) -> Result<(), LoadError> {
        let kind = text_of(line.fields.get("type"));
        let is_meta = value(line.fields.get("isMeta")) == Value::Bool(true);
        let message_raw = line
            .fields
            .get("message")
            .filter(|_| (kind == "user" || kind == "assistant") && !is_meta);
        let Some(message_raw) = message_raw else {
            self.notes.push(claude_note(line, &kind, is_meta, self.messages.len()));
            return Ok(());
        };
        // What decides where the message goes, read without building it as a value.
        let head = MessageHead::of(message_raw.get());
        if kind == "assistant" {
            // `<synthetic>` names Claude Code's own notes (a timeout, an interruption),
            // not the model the session runs on.
            if let Some(model) = head.model.as_ref().filter(|m| m.as_str() != "<synthetic>") {
                self.model = Some(model.clone());
            }
        }
        // A further line of the response being built (possibly after some of its results).
        if let (Some((at, open)), Some(id), "assistant") = (&self.response, &head.id, kind.as_str()) {
            if id == open {
                let at = *at;
                self.open_calls.extend(head.call_ids());
                self.merge_into(text, at, message_raw, head.usage, line.range.clone());
                self.record_message.insert(line_index, at);
                return Ok(());
            }
        }
        // A result of the response being built: gathered into one user message.
        if kind == "user" && self.answers_open_response(&head) {
            if let Some(at) = self.results {
                self.merge_into(text, at, message_raw, head.usage, line.range.clone());
                self.record_message.insert(line_index, at);
                return Ok(());
            }
            self.push(source, text, line, line_index, message_raw, head.usage)?;
            self.results = Some(self.messages.len() - 1);
            return Ok(());
        }
        self.close_response();
        let calls: Vec<String> = head.call_ids().collect();
        self.push(source, text, line, line_index, message_raw, head.usage)?;
        if let Some(id) = head.id.filter(|_| kind == "assistant") {
            self.response = Some((self.messages.len() - 1, id));
            self.open_calls = calls;
        }
        Ok(())
    }

    fn push(
        &mut self,
        source: &str,
        text: &str,
        line: &Line,
        line_index: usize,
        message_raw: &RawValue,
        recorded: Option<Recorded>,
    ) -> Result<(), LoadError> {
        let span = span_of(text, message_raw.get());
        let index = self.messages.len();
        let mut m = Message::parse(message_raw.get(), span, index)
            .map_err(|e| json_error(source, text, line.range.start, &e))?;
        m.extra_mut().records = vec![line.range.clone()];
        m.set_recorded(recorded);
        if value(line.fields.get("isCompactSummary")) == Value::Bool(true) || carries_a_summary(line, message_raw) {
            m.past_summary = true;
            m.boundary = false;
        }
        self.record_message.insert(line_index, index);
        self.messages.push(m);
        Ok(())
    }

    /// A user message of only `tool_result` blocks answering calls of the open response.
    fn answers_open_response(&self, message: &MessageHead) -> bool {
        self.response.is_some()
            && !message.blocks.is_empty()
            && message.blocks.iter().all(|b| {
                b.kind == "tool_result"
                    && b.tool_use_id
                        .as_ref()
                        .is_some_and(|id| self.open_calls.iter().any(|c| c == id))
            })
    }

    /// Appends a continuation line of the open response to message `at` (content blocks
    /// joined, the last line's usage kept): its record and usage at once, its JSON when
    /// the response ends ([`ClaudeMessages::close_response`]).
    fn merge_into(&mut self, text: &str, at: usize, next: &RawValue, usage: Option<Recorded>, record: Range<usize>) {
        // Only a merged line is read as a value: its blocks join the message's.
        let next: Value = serde_json::from_str(next.get()).unwrap_or(Value::Null);
        let message = &mut self.messages[at];
        let recorded = usage.or(message.recorded());
        message.extra_mut().records.push(record);
        message.set_recorded(recorded);
        let k = if let Some(k) = self.merged.iter().position(|(i, _)| *i == at) {
            k
        } else {
            let current = message.synthetic().unwrap_or(&text[message.span.clone()]);
            self.merged
                .push((at, serde_json::from_str(current).unwrap_or(Value::Null)));
            self.merged.len() - 1
        };
        let merged = &mut self.merged[k].1;
        if let (Some(Value::Array(blocks)), Some(Value::Array(more))) = (merged.get_mut("content"), next.get("content"))
        {
            blocks.extend(more.iter().cloned());
        }
        if let (Some(usage), Some(obj)) = (next.get("usage"), merged.as_object_mut()) {
            obj.insert("usage".to_owned(), usage.clone());
        }
    }

    /// Ends the response being built: its gathered results go in call order, and each
    /// message lines were merged into is written out and read once.
    fn close_response(&mut self) {
        if let Some(results) = self.results.filter(|_| self.response.is_some()) {
            if let Some((_, value)) = self.merged.iter_mut().find(|(i, _)| *i == results) {
                sort_results(value, &self.open_calls);
            }
        }
        for (at, value) in self.merged.drain(..) {
            let message = &mut self.messages[at];
            let json = value.to_string();
            let (records, span, recorded) = (message.records().to_vec(), message.span.clone(), message.recorded());
            *message = Message::parse(&json, span, 0).unwrap_or_else(|_| message.clone());
            message.extra_mut().records = records;
            message.set_synthetic(json);
            message.set_recorded(recorded);
        }
        self.response = None;
        self.results = None;
        self.open_calls.clear();
    }

    fn finish(mut self) -> (Vec<Message>, Vec<Note>, HashMap<usize, usize>, Option<String>) {
        self.close_response();
        (self.messages, self.notes, self.record_message, self.model)
    }
}

/// Puts the `tool_result` blocks of a gathered results message in the calls' order.
fn sort_results(value: &mut Value, order: &[String]) {
    if let Some(Value::Array(blocks)) = value.get_mut("content") {
        let position = |b: &Value| {
            let id = b.get("tool_use_id").and_then(Value::as_str).unwrap_or_default();
            order.iter().position(|o| o == id).unwrap_or(usize::MAX)
        };
        blocks.sort_by_key(position);
    }
}

/// Anthropic usage: the prompt the response was produced from, split as it was billed
/// (see [`Recorded`] for the mapping).
pub(crate) fn usage(message: &Value) -> Option<Recorded> {
    Some(usage_of(message.get("usage")?))
}

/// [`usage`] of the `usage` object itself.
pub(crate) fn usage_of(u: &Value) -> Recorded {
    let n = |k: &str| u.get(k).and_then(Value::as_u64).unwrap_or(0);
    let written = n("cache_creation_input_tokens");
    let split = u.get("cache_creation");
    let by_ttl = |k: &str| split.and_then(|s| s.get(k)).and_then(Value::as_u64);
    // The split by lifetime is the flat total's detail; where it adds up to less (2.1.6x
    // logs write `{"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0}` beside
    // a `cache_creation_input_tokens` of 43,789), the rest was written for the default
    // five minutes: the flat total is what was written and billed.
    let (five_minutes, one_hour) = match (by_ttl("ephemeral_5m_input_tokens"), by_ttl("ephemeral_1h_input_tokens")) {
        (None, None) => (written, 0),
        (five, hour) => {
            let hour = hour.unwrap_or(0);
            (five.unwrap_or(0).max(written.saturating_sub(hour)), hour)
        }
    };
    Recorded {
        input_tokens: n("input_tokens"),
        cache_write_5m_tokens: five_minutes,
        cache_write_1h_tokens: one_hour,
        cache_read_tokens: n("cache_read_input_tokens"),
        output_tokens: n("output_tokens"),
        reasoning_tokens: 0,
    }
}

/// What set a compaction off, from its boundary's `compactMetadata`: Claude Code's
/// `trigger` (`auto`, `manual`), or `ctxlens` for one ctxlens wrote (its `writtenBy`),
/// which no prediction learns from; `?` when it says none.
fn trigger_of(meta: &Value) -> &str {
    if meta.get("writtenBy").and_then(Value::as_str) == Some(crate::transcript::WRITTEN_BY) {
        return crate::transcript::WRITTEN_BY;
    }
    meta.get("trigger").and_then(Value::as_str).unwrap_or("?")
}

fn claude_note(line: &Line, kind: &str, is_meta: bool, before: usize) -> Note {
    let subtype = text_of(line.fields.get("subtype"));
    let (kind, text) = if subtype == "compact_boundary" {
        let meta = value(line.fields.get("compactMetadata"));
        let pre = meta.get("preTokens").and_then(Value::as_u64).unwrap_or(0);
        let trigger = trigger_of(&meta);
        (
            "past compaction".to_owned(),
            format!(
                "compacted here ({trigger}): {} tokens before",
                crate::text::thousands(pre)
            ),
        )
    } else if is_meta {
        ("meta".to_owned(), one_line(&text_of(line.fields.get("message")), 100))
    } else if kind == "attachment" {
        let attachment = value(line.fields.get("attachment"));
        (
            "attachment".to_owned(),
            attachment
                .get("type")
                .and_then(Value::as_str)
                .unwrap_or("attachment")
                .to_owned(),
        )
    } else if kind == "system" {
        (
            format!("system {subtype}").trim().to_owned(),
            one_line(&text_of(line.fields.get("content")), 100),
        )
    } else {
        (kind.to_owned(), String::new())
    };
    Note {
        before,
        line: line.number,
        kind,
        text,
    }
}

/// A conversation whose first record names a parent the file never holds continues one
/// logged in another file (a session resumed into a new log: its first request carried
/// that history, unlogged here). Noted before the first message, kind `continued`.
fn note_continued_elsewhere(
    lines: &[Line],
    chain: &[usize],
    parent: &dyn Fn(&Line) -> Option<String>,
    by_uuid: &HashMap<String, usize>,
    loaded: &mut Loaded,
) {
    let Some(&first) = chain.first() else { return };
    if parent(&lines[first]).is_none_or(|p| by_uuid.contains_key(&p)) {
        return;
    }
    let session = text_of(lines[first].fields.get("sessionId"));
    let text = if session.is_empty() {
        "continues a conversation logged in another file".to_owned()
    } else {
        format!("continues a conversation logged in another file (session {session})")
    };
    let at = loaded
        .notes
        .iter()
        .take_while(|n| n.before == 0 && n.kind == "title")
        .count();
    loaded.notes.insert(
        at,
        Note {
            before: 0,
            line: lines[first].number,
            kind: "continued".into(),
            text,
        },
    );
}

/// Titles, sub-agent lines and other branches, noted once each.
fn off_branch_notes(lines: &[Line], active: &HashSet<usize>, loaded: &mut Loaded) {
    let mut sidechain = 0;
    let mut other = 0;
    for (i, line) in lines.iter().enumerate().filter(|(i, _)| !active.contains(i)) {
        let kind = text_of(line.fields.get("type"));
        if kind == "summary" {
            let title = text_of(line.fields.get("summary"));
            loaded.notes.insert(
                0,
                Note {
                    before: 0,
                    line: line.number,
                    kind: "title".into(),
                    text: title,
                },
            );
        } else if is_sidechain(line) {
            sidechain += 1;
        } else if line.fields.contains_key("uuid") {
            other += 1;
        }
        let _ = i;
    }
    let end = loaded.messages.len();
    loaded.notes.extend(off_branch_summary(sidechain, other, end));
}

/// The notes that count a log's records off its active conversation: sub-agent lines,
/// and other branches (a compacted log's earlier epochs among them); after message `end`.
pub(crate) fn off_branch_summary(sidechain: usize, other: usize, end: usize) -> Vec<Note> {
    let mut notes = Vec::new();
    if sidechain > 0 {
        notes.push(Note {
            before: end,
            line: 0,
            kind: "sidechain".into(),
            text: format!("{sidechain} sub-agent lines (not in this conversation)"),
        });
    }
    if other > 0 {
        notes.push(Note {
            before: end,
            line: 0,
            kind: "other branches".into(),
            text: format!("{other} records off the active branch"),
        });
    }
    notes
}

/// How many records an [`off_branch_summary`] note counts.
pub(crate) fn off_branch_count(note: &Note) -> usize {
    note.text
        .split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use crate::transcript::Transcript;

    /// A log read while a tool runs ends with the tool's `progress` record, which names a
    /// parent not written yet: the conversation is still the one before it, message for
    /// message (was: no message at all).
    #[test]
    fn a_progress_record_naming_an_unwritten_parent_does_not_hide_the_conversation() {
        for (name, text) in crate::test_data::real_claude_code_logs() {
            let read = |text: &str| Transcript::parse(name, text.as_bytes().to_vec(), None).expect("loads");
            let before = read(&text);
            let progress = serde_json::json!({
                "type": "progress", "isSidechain": false, "uuid": "p-1",
                "parentUuid": "a-record-not-written-yet", "data": {"type": "bash_progress"},
            });
            let after = read(&format!("{text}{progress}\n"));
            assert!(!before.messages().is_empty(), "{name}");
            assert_eq!(after.messages().len(), before.messages().len(), "{name}");
            assert_eq!(after.messages().last(), before.messages().last(), "{name}");
        }
    }

    /// A tool's result written when the session closes, hours after its call and after the
    /// conversation moved on (a permission request failing), is the last record of the
    /// file: the conversation read is still the one that went on, not the call's old
    /// branch; a result answering the last response is the conversation's end as before.
    #[test]
    fn a_late_tool_result_does_not_take_the_conversation_back_to_its_call() {
        let record = |kind: &str, uuid: &str, parent: &str, content: serde_json::Value| {
            serde_json::json!({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": "s",
                "timestamp": "2026-05-19T04:11:39.069Z", "message": {"role": if kind == "user" { "user" } else { "assistant" },
                    "content": content}})
            .to_string()
        };
        let call = serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]);
        let result =
            serde_json::json!([{"type": "tool_result", "tool_use_id": "t1", "content": "permission request failed"}]);
        let mut lines = vec![
            serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s",
                "timestamp": "2026-05-19T04:10:00.000Z", "message": {"role": "user", "content": "list the files"}})
            .to_string(),
            record("assistant", "a1", "u1", call),
            // The user interrupts and asks something else: the conversation goes on from u1.
            record(
                "user",
                "u2",
                "u1",
                serde_json::json!("never mind: how much context is left?"),
            ),
            record(
                "assistant",
                "a2",
                "u2",
                serde_json::json!([{"type": "text", "text": "About 40%."}]),
            ),
        ];
        let read = |lines: &[String]| {
            Transcript::parse(
                "log.jsonl",
                (lines.join(
                    "
",
                ) + "
")
                .into_bytes(),
                None,
            )
            .expect("a log")
        };
        let went_on = read(&lines);
        lines.push(record("user", "r1", "a1", result.clone()));
        let closed = read(&lines);
        assert_eq!(closed.messages().len(), went_on.messages().len());
        assert_eq!(
            closed.messages().last(),
            went_on.messages().last(),
            "the conversation that went on"
        );
        // A result answering the last response ends the conversation.
        lines.pop();
        lines.push(record(
            "assistant",
            "a3",
            "a2",
            serde_json::json!([{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]),
        ));
        lines.push(record("user", "r2", "a3", result));
        let answered = read(&lines);
        assert_eq!(answered.messages().len(), went_on.messages().len() + 2);
    }

    /// A sub-agent's own log is all sidechain; a compaction boundary in it may name a
    /// parent the file never holds (2.1.114): the epoch before it is still the file's
    /// records before the boundary, and the compaction is read.
    #[test]
    fn a_sub_agents_compaction_keeps_the_epoch_before_it() {
        let record = |kind: &str, uuid: &str, parent: Option<&str>, extra: serde_json::Value| {
            let mut r = serde_json::json!({"type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": true,
                "agentId": "a1", "sessionId": "s", "timestamp": "2026-04-20T10:00:00.000Z"});
            for (k, v) in extra.as_object().expect("fields") {
                r[k] = v.clone();
            }
            r.to_string()
        };
        let user = |text: &str| serde_json::json!({"message": {"role": "user", "content": text}});
        let answer = |context: u64| {
            serde_json::json!({"message": {"id": format!("m{context}"), "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "done"}], "usage": {"input_tokens": context, "output_tokens": 50}}})
        };
        let lines = [
            record("user", "u1", None, user("Find every caller of parse().")),
            record("assistant", "a1", Some("u1"), answer(120_000)),
            record("user", "u2", Some("a1"), user("And the tests.")),
            record("assistant", "a2", Some("u2"), answer(168_000)),
            record(
                "system",
                "b1",
                None,
                serde_json::json!({"subtype": "compact_boundary",
                "logicalParentUuid": "a-record-this-file-never-holds",
                "compactMetadata": {"trigger": "auto", "preTokens": 168_050}}),
            ),
            record(
                "user",
                "s1",
                Some("b1"),
                serde_json::json!({"isCompactSummary": true,
                "message": {"role": "user", "content": "This session is being continued from a previous conversation."}}),
            ),
            record("assistant", "a3", Some("s1"), answer(30_000)),
        ];
        let whole = Transcript::parse("agent-a1.jsonl", (lines.join("\n") + "\n").into_bytes(), None)
            .and_then(|t| t.whole_session())
            .expect("a log");
        assert_eq!(whole.compactions().len(), 1);
        assert_eq!(whole.compactions()[0].at, 4, "after the epoch's four messages");
        assert_eq!(
            whole.compactions()[0].threshold_bracket(&whole),
            Some((120_050, 168_050)),
            "bracketed by the epoch before it"
        );
        assert!(!whole.compactions()[0].elsewhere, "its epoch could have sent 168,050");
        // The same boundary counting more than the file ever sent before it (168,050 for
        // the last response, and a few hundred bytes after it): a conversation logged in
        // another file compacted, and this epoch brackets nothing from below.
        let copied = lines.join("\n").replace("\"preTokens\":168050", "\"preTokens\":400000") + "\n";
        assert!(copied.contains("400000"));
        let whole = Transcript::parse("agent-a1.jsonl", copied.into_bytes(), None)
            .and_then(|t| t.whole_session())
            .expect("a log");
        assert!(whole.compactions()[0].elsewhere);
        assert_eq!(whole.compactions()[0].threshold_bracket(&whole), Some((0, 400_000)));
    }

    /// The cache written is the flat `cache_creation_input_tokens`; its split by lifetime
    /// is detail, which 2.1.6x logs write as zeros beside a non-zero total: the rest is the
    /// default five minutes (was: dropped, a 60,202-token request read as 16,413).
    #[test]
    fn a_cache_write_split_that_adds_up_to_less_leaves_the_rest_to_five_minutes() {
        let usage = |split: serde_json::Value| {
            let mut u = serde_json::json!({"input_tokens": 16_413, "cache_creation_input_tokens": 43_789,
                "cache_read_input_tokens": 0, "output_tokens": 90});
            if !split.is_null() {
                u["cache_creation"] = split;
            }
            let r = super::usage_of(&u);
            (r.cache_write_5m_tokens, r.cache_write_1h_tokens, r.context_tokens())
        };
        let zeros = serde_json::json!({"ephemeral_1h_input_tokens": 0, "ephemeral_5m_input_tokens": 0});
        assert_eq!(usage(zeros), (43_789, 0, 60_202));
        assert_eq!(usage(serde_json::Value::Null), (43_789, 0, 60_202));
        let split = serde_json::json!({"ephemeral_1h_input_tokens": 40_000, "ephemeral_5m_input_tokens": 3_789});
        assert_eq!(usage(split), (3_789, 40_000, 60_202));
        let hour_only = serde_json::json!({"ephemeral_1h_input_tokens": 43_789});
        assert_eq!(usage(hour_only), (0, 43_789, 60_202));
    }

    /// Parallel calls that finish out of order: Claude Code writes a response a block a
    /// line, each linked to the line before, and each result to its own call's line. When
    /// the last result written answers the first call, the walk back from the leaf skips
    /// the response's later calls and their results; the client sent them all (a
    /// sub-agent of 2.1.114 on a third-party model: its compaction's `preTokens` are the
    /// last usage plus every result). In a sub-agent's log (all sidechain) and in a main log alike, every
    /// call and every result is read, none an orphan; a copy of the response on another
    /// branch stays off.
    #[test]
    fn parallel_calls_finishing_out_of_order_are_all_read() {
        for sidechain in [false, true] {
            let record = |kind: &str, uuid: &str, parent: Option<&str>, content: serde_json::Value| {
                let mut message = serde_json::json!({"role": if kind == "assistant" { "assistant" } else { "user" },
                    "content": content});
                if kind == "assistant" {
                    message["id"] = serde_json::json!("msg-1");
                }
                serde_json::json!({"type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": sidechain,
                    "sessionId": "s", "timestamp": "2026-04-20T10:00:00.000Z", "message": message})
                .to_string()
            };
            let call = |id: &str| serde_json::json!([{"type": "tool_use", "id": id, "name": "Read", "input": {"file_path": id}}]);
            let result = |id: &str| serde_json::json!([{"type": "tool_result", "tool_use_id": id, "content": format!("text of {id}")}]);
            let mut lines = vec![
                record("user", "u1", None, serde_json::json!("Read the three notes.")),
                record("assistant", "c1", Some("u1"), call("t1")),
                record("assistant", "c2", Some("c1"), call("t2")),
                record("assistant", "c3", Some("c2"), call("t3")),
                // Finished in the order 3, 2, 1: the last written answers the first call.
                record("user", "r3", Some("c3"), result("t3")),
                record("user", "r2", Some("c2"), result("t2")),
                record("user", "r1", Some("c1"), result("t1")),
            ];
            let mut next = serde_json::json!({"type": "assistant", "uuid": "a2", "parentUuid": "r1", "isSidechain": sidechain,
                "sessionId": "s", "message": {"id": "msg-2", "role": "assistant", "content": [{"type": "text", "text": "Read."}]}});
            next["timestamp"] = serde_json::json!("2026-04-20T10:00:09.000Z");
            lines.push(next.to_string());
            let read = |lines: &[String]| {
                Transcript::parse("agent-a1.jsonl", (lines.join("\n") + "\n").into_bytes(), None).expect("a log")
            };
            let log = read(&lines);
            let text: String = (0..log.messages().len()).map(|i| log.readable_text(i) + "\n").collect();
            for id in ["t1", "t2", "t3"] {
                assert!(text.contains(&format!("text of {id}")), "sidechain {sidechain}: {text}");
            }
            let calls: usize = log.messages().iter().map(|m| m.tool_calls().len()).sum();
            assert_eq!(calls, 3, "sidechain {sidechain}");
            assert_eq!(log.groups().orphans.len(), 0, "sidechain {sidechain}");
            // The same response copied onto another branch (linked from elsewhere) is not
            // read into this one.
            lines.insert(1, record("user", "u0", None, serde_json::json!("An abandoned branch.")));
            lines.insert(2, record("assistant", "x2", Some("u0"), call("t2")));
            let copied = read(&lines);
            let calls: usize = copied.messages().iter().map(|m| m.tool_calls().len()).sum();
            assert_eq!(calls, 3, "sidechain {sidechain}: the copy stays off");
        }
    }

    /// A record naming a parent the file never holds, in the middle of a conversation
    /// (Claude Code 2.1.27 wrote a `Stop` hook's record naming an answer it never wrote),
    /// does not cut the conversation there: the next request held everything before it,
    /// and so does the active branch. A session's first record naming a parent in another
    /// file is noted as continuing that conversation.
    #[test]
    fn a_parent_never_written_does_not_cut_the_conversation() {
        let record = |kind: &str, uuid: &str, parent: Option<&str>, content: serde_json::Value| {
            serde_json::json!({"type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": false,
                "sessionId": "s0", "timestamp": "2026-01-31T12:57:24.385Z",
                "message": {"role": if kind == "assistant" { "assistant" } else { "user" }, "content": content}})
            .to_string()
        };
        let text = |t: &str| serde_json::json!([{"type": "text", "text": t}]);
        let hook = serde_json::json!({"type": "progress", "uuid": "p1", "parentUuid": "an-answer-never-written",
            "isSidechain": false, "sessionId": "s0", "data": {"type": "hook_progress", "hookEvent": "Stop"}})
        .to_string();
        let lines = [
            record("user", "u1", None, serde_json::json!("Write the router.")),
            record("assistant", "a1", Some("u1"), text("Written.")),
            hook,
            record("user", "u2", Some("p1"), serde_json::json!("Now the middleware.")),
            record("assistant", "a2", Some("u2"), text("Done.")),
        ];
        let read = |lines: &[String]| {
            Transcript::parse("log.jsonl", (lines.join("\n") + "\n").into_bytes(), None).expect("a log")
        };
        let log = read(&lines);
        let texts: Vec<String> = (0..log.messages().len()).map(|i| log.readable_text(i)).collect();
        assert_eq!(texts.len(), 4, "{texts:?}");
        assert!(texts[0].contains("Write the router"), "{texts:?}");
        assert!(!log.notes().iter().any(|n| n.kind == "continued"));
        // The first record names a parent in another file: nothing before it here.
        let mut resumed = lines.to_vec();
        resumed[0] = record(
            "user",
            "u1",
            Some("the-other-files-last-answer"),
            serde_json::json!("Write the router."),
        );
        let log = read(&resumed);
        assert_eq!(log.messages().len(), 4);
        let note = log.notes().iter().find(|n| n.kind == "continued").expect("noted");
        assert_eq!((note.line, note.before), (1, 0));
        assert!(note.text.contains("session s0"), "{}", note.text);
        // `history --json` says it too (and the CLI and Python serialise that document).
        let whole = log.whole_session().expect("whole");
        let counts = crate::tokens::Counts::compute(&whole, crate::tokens::Tokenizer::Estimate);
        let found = crate::history::history(&whole, &counts);
        let doc = crate::history_doc::HistoryDoc::of(&whole, &counts, &found, &[Vec::new()], &[]);
        assert_eq!(doc.continues, Some(note.text.as_str()));
    }

    /// A compaction's threshold is above the last request before the one that set it
    /// off; a response that records no prompt at all (a provider reporting zero usage)
    /// is no such request.
    #[test]
    fn a_response_recording_no_usage_does_not_bound_the_threshold() {
        let usage = |context: u64| serde_json::json!({"input_tokens": context, "output_tokens": if context > 0 { 100 } else { 0 }});
        let turn = |n: u32, parent: &str, context: u64| {
            let user = serde_json::json!({"type": "user", "uuid": format!("u{n}"), "parentUuid": parent, "sessionId": "s",
                "timestamp": "2026-05-19T04:10:00.000Z", "message": {"role": "user", "content": format!("step {n}")}});
            let answer = serde_json::json!({"type": "assistant", "uuid": format!("a{n}"), "parentUuid": format!("u{n}"),
                "sessionId": "s", "timestamp": "2026-05-19T04:10:01.000Z",
                "message": {"id": format!("m{n}"), "role": "assistant", "model": "mimo-v2.5-pro",
                    "content": [{"type": "text", "text": "done"}], "usage": usage(context)}});
            format!("{user}\n{answer}\n")
        };
        let boundary = serde_json::json!({"type": "system", "subtype": "compact_boundary", "uuid": "b1", "parentUuid": null,
            "logicalParentUuid": "a4", "sessionId": "s", "timestamp": "2026-05-19T04:11:00.000Z",
            "compactMetadata": {"trigger": "auto", "preTokens": 167_000}});
        let summary = serde_json::json!({"type": "user", "uuid": "s1", "parentUuid": "b1", "sessionId": "s",
            "isCompactSummary": true, "timestamp": "2026-05-19T04:11:01.000Z",
            "message": {"role": "user", "content": "This session is being continued from a previous conversation."}});
        let text = [
            serde_json::json!({"type": "user", "uuid": "u0", "parentUuid": null, "sessionId": "s",
                "timestamp": "2026-05-19T04:09:00.000Z", "message": {"role": "user", "content": "start"}})
            .to_string()
                + "\n",
            turn(1, "u0", 150_000),
            turn(2, "a1", 0),
            turn(3, "a2", 160_000),
            turn(4, "a3", 0),
            format!("{boundary}\n{summary}\n"),
        ]
        .concat();
        let whole = Transcript::parse("log.jsonl", text.into_bytes(), None)
            .and_then(|t| t.whole_session())
            .expect("a log");
        let compaction = whole.compactions().first().expect("its compaction");
        assert_eq!(compaction.threshold_bracket(&whole), Some((150_100, 167_000)));
    }

    /// A streamed response written with the usage of the stream's start (a few output
    /// tokens for a 20,000-character tool call) is counted as the agent counted it: a
    /// quarter of its characters; a record that fits its response stands.
    #[test]
    fn a_response_logged_at_its_streams_start_keeps_the_agents_output_count() {
        let log = |output: u64, chars: usize| {
            let user = serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": null, "sessionId": "s",
                "timestamp": "2025-08-24T19:41:51.004Z", "message": {"role": "user", "content": "write the module"}});
            let answer = serde_json::json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "sessionId": "s",
                "timestamp": "2025-08-24T19:41:55.004Z", "requestId": "r1",
                "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-20250514",
                    "content": [{"type": "tool_use", "id": "t1", "name": "Write",
                        "input": {"file_path": "/a.rs", "content": "x".repeat(chars)}}],
                    "usage": {"input_tokens": 1, "cache_creation_input_tokens": 247, "cache_read_input_tokens": 150_038,
                        "output_tokens": output}}});
            Transcript::parse("log.jsonl", format!("{user}\n{answer}\n").into_bytes(), None).expect("a log")
        };
        let streamed = log(4, 22_000);
        let at = streamed.messages().len() - 1;
        let known = streamed.output_tokens_known(at).expect("recorded");
        assert!((5_500..5_600).contains(&known), "a quarter of its content: {known}");
        let final_count = log(6_100, 22_000);
        assert_eq!(final_count.output_tokens_known(at), Some(6_100));
        let short = log(4, 20);
        assert_eq!(
            short.output_tokens_known(at),
            Some(4),
            "a short answer's record fits it"
        );
    }

    /// A session continued from a compacted one opens with that compaction's summary as a
    /// plain user record (1.0.x, no `isCompactSummary`): it is read as a past summary, not
    /// the user's words; the same words elsewhere are the user's.
    #[test]
    fn a_session_continued_from_a_compacted_one_opens_with_its_summary() {
        let opening = format!("{}Analysis: the parser.", super::CLAUDE_CODE_OPENING);
        let log = |parent: serde_json::Value, sidechain: bool, content: serde_json::Value| {
            let user = serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": parent, "isSidechain": sidechain,
                "sessionId": "s", "timestamp": "2025-08-24T19:41:51.004Z", "message": {"role": "user", "content": content}});
            let answer = serde_json::json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "isSidechain": sidechain,
                "sessionId": "s", "timestamp": "2025-08-24T19:41:55.004Z",
                "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "Continuing."}]}});
            let text = format!("{user}\n{answer}\n");
            Transcript::parse("log.jsonl", text.into_bytes(), None).expect("a Claude Code log")
        };
        let first = |t: &Transcript| (t.messages()[0].past_summary(), t.messages()[0].boundary);
        let text_block = serde_json::json!([{"type": "text", "text": opening}]);
        assert_eq!(
            first(&log(serde_json::Value::Null, false, serde_json::json!(opening))),
            (true, false)
        );
        assert_eq!(first(&log(serde_json::Value::Null, false, text_block)), (true, false));
        // Quoted by the user, or not at the start of a chain: the user's words.
        let quoted = serde_json::json!(format!("why did it say: {opening}"));
        assert_eq!(first(&log(serde_json::Value::Null, false, quoted)), (false, true));
        let answered = |parent: &str| {
            let text = format!(
                "{}\n{}\n",
                serde_json::json!({"type": "user", "uuid": "u0", "parentUuid": null, "sessionId": "s",
                    "timestamp": "2025-08-24T19:41:50.004Z", "message": {"role": "user", "content": "go on"}}),
                serde_json::json!({"type": "user", "uuid": "u1", "parentUuid": parent, "sessionId": "s",
                    "timestamp": "2025-08-24T19:41:51.004Z", "message": {"role": "user", "content": opening}})
            );
            Transcript::parse("log.jsonl", text.into_bytes(), None).expect("a Claude Code log")
        };
        let later = answered("u0");
        assert_eq!(later.messages().len(), 2);
        assert!(
            later.messages().iter().all(|m| !m.past_summary()),
            "a record with a parent"
        );
    }
}
