//! The running figures of a replay's working context, kept as messages are appended
//! (prefix sums, the user messages' positions), so that at each model call a policy can
//! tell in O(1) whether it may act, and a policy that makes a view per call (trimming,
//! masking, clearing) can size its view in O(log n) — a session of 100,000 messages
//! would otherwise cost a whole plan per call.

use super::chat::{ChatMessage, Kind};

/// Prefix sums over the context: entry `i` covers messages `0..i`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Running {
    /// The policy's own cost.
    pub cost: Vec<u64>,
    /// ctxlens' count (the §7F estimate).
    pub counted: Vec<u64>,
    /// ctxlens' count of tool results only.
    pub tool_counted: Vec<u64>,
    /// Tool results.
    pub tools: Vec<u64>,
    /// Tool results whose call is in the nearest assistant message before them (the
    /// ones a clearing edit may clear).
    pub clearable: Vec<u64>,
    /// ctxlens' count of those.
    pub clearable_counted: Vec<u64>,
    /// Positions of user messages (LangChain's `human`), ascending.
    pub users: Vec<usize>,
    /// The context starts with a system message.
    pub first_is_system: bool,
    /// Positions of cleared messages and past summaries, ascending: where a walk back
    /// through old tool outputs stops.
    pub stops: Vec<usize>,
    /// The position of the latest assistant message.
    last_assistant: Option<usize>,
    /// The policy's cost of tool results only.
    pub tool_cost: Vec<u64>,
    /// The policy's cost of reasoning items only (the model's sealed thinking an item
    /// list keeps in the history, which the provider's usage of a later turn leaves out).
    pub thinking_cost: Vec<u64>,
}

impl Running {
    /// Empty: no message yet.
    pub fn new() -> Running {
        Running {
            cost: vec![0],
            counted: vec![0],
            tool_counted: vec![0],
            tools: vec![0],
            clearable: vec![0],
            clearable_counted: vec![0],
            users: Vec::new(),
            first_is_system: false,
            stops: Vec::new(),
            last_assistant: None,
            tool_cost: vec![0],
            thinking_cost: vec![0],
        }
    }

    /// The figures of `context` (after a policy rewrote it).
    pub fn of(context: &[ChatMessage], cost: impl Fn(&ChatMessage) -> u64) -> Running {
        let mut running = Running::new();
        let n = context.len() + 1;
        for v in [
            &mut running.cost,
            &mut running.counted,
            &mut running.tool_counted,
            &mut running.tools,
            &mut running.clearable,
            &mut running.clearable_counted,
            &mut running.tool_cost,
            &mut running.thinking_cost,
        ] {
            v.reserve(n);
        }
        for (k, m) in context.iter().enumerate() {
            running.push(&context[..k], m, cost(m));
        }
        running
    }

    /// The position of the latest assistant message, if any.
    pub fn last_assistant(&self) -> Option<usize> {
        self.last_assistant
    }

    /// Messages in the context.
    pub fn messages(&self) -> usize {
        self.cost.len() - 1
    }

    /// The policy's cost of the whole context.
    pub fn total_cost(&self) -> u64 {
        self.cost[self.messages()]
    }

    /// ctxlens' count of the whole context.
    pub fn total_counted(&self) -> u64 {
        self.counted[self.messages()]
    }

    /// Appends message `m`, costing `cost`, to the context `before` (the messages these
    /// figures already cover).
    pub fn push(&mut self, before: &[ChatMessage], m: &ChatMessage, cost: u64) {
        let position = self.messages();
        if position == 0 {
            self.first_is_system = m.kind == Kind::System;
        }
        let last = |v: &Vec<u64>| *v.last().expect("never empty");
        self.cost.push(last(&self.cost) + cost);
        self.counted.push(last(&self.counted) + m.counted);
        let is_tool = m.kind == Kind::Tool;
        self.tools.push(last(&self.tools) + u64::from(is_tool));
        self.tool_cost
            .push(last(&self.tool_cost) + if is_tool { cost } else { 0 });
        self.thinking_cost
            .push(last(&self.thinking_cost) + if m.role == "reasoning" { cost } else { 0 });
        self.tool_counted
            .push(last(&self.tool_counted) + if is_tool { m.counted } else { 0 });
        let clearable = is_tool
            && m.call_id.as_ref().is_some_and(|id| {
                self.last_assistant
                    .and_then(|a| before.get(a))
                    .is_some_and(|a| a.calls.iter().any(|c| &c.id == id))
            });
        self.clearable.push(last(&self.clearable) + u64::from(clearable));
        self.clearable_counted
            .push(last(&self.clearable_counted) + if clearable { m.counted } else { 0 });
        if m.kind == Kind::User {
            self.users.push(position);
        }
        if m.cleared || m.past_summary {
            self.stops.push(position);
        }
        if m.kind == Kind::Assistant {
            self.last_assistant = Some(position);
        }
    }

    /// The position just after the `k`-th tool result (`k` ≥ 1), or 0 for `k` = 0.
    pub fn after_tool(&self, k: u64) -> usize {
        if k == 0 {
            return 0;
        }
        // The first prefix holding k tool results ends just after the k-th one.
        self.tools.partition_point(|&t| t < k)
    }

    /// Records that the messages at `changed` (ascending positions, with their new cost
    /// and count) were cleared in place: the prefix sums from the first of them on move
    /// by the differences, in one pass of additions.
    pub fn cleared(&mut self, changed: &[(usize, u64, u64)]) {
        self.resized(changed, true);
    }

    /// Records that the messages at `changed` were rewritten shorter in place (not
    /// cleared: a walk back through old outputs does not stop at them).
    pub fn edited(&mut self, changed: &[(usize, u64, u64)]) {
        self.resized(changed, false);
    }

    fn resized(&mut self, changed: &[(usize, u64, u64)], cleared: bool) {
        let Some(&(first, ..)) = changed.first() else {
            return;
        };
        let n = self.messages();
        let (mut d_cost, mut d_counted, mut d_tool, mut d_clearable) = (0i64, 0i64, 0i64, 0i64);
        let (mut d_tool_cost, mut d_thinking) = (0i64, 0i64);
        let mut next = changed.iter().peekable();
        for p in first..n {
            if let Some(&&(at, cost, counted)) = next.peek() {
                if at == p {
                    next.next();
                    let old_cost = self.cost[p + 1] as i64 - self.cost[p] as i64 + d_cost;
                    let old_counted = self.counted[p + 1] as i64 - self.counted[p] as i64 + d_counted;
                    let is_tool = self.tools[p + 1] > self.tools[p];
                    let clearable = self.clearable[p + 1] > self.clearable[p];
                    let thinking = self.thinking_cost[p + 1] as i64 - self.thinking_cost[p] as i64 + d_thinking;
                    if is_tool {
                        d_tool_cost += cost as i64 - old_cost;
                    }
                    if thinking > 0 {
                        d_thinking += cost as i64 - thinking;
                    }
                    let old_tool = if is_tool { old_counted } else { 0 };
                    let old_clearable = if clearable { old_counted } else { 0 };
                    d_cost += cost as i64 - old_cost;
                    d_counted += counted as i64 - old_counted;
                    d_tool += if is_tool { counted as i64 } else { 0 } - old_tool;
                    d_clearable += if clearable { counted as i64 } else { 0 } - old_clearable;
                    let k = self.stops.partition_point(|&s| s < p);
                    if cleared && self.stops.get(k) != Some(&p) {
                        self.stops.insert(k, p);
                    }
                }
            }
            let shift = |v: &mut u64, d: i64| *v = (*v as i64 + d) as u64;
            shift(&mut self.cost[p + 1], d_cost);
            shift(&mut self.counted[p + 1], d_counted);
            shift(&mut self.tool_counted[p + 1], d_tool);
            shift(&mut self.clearable_counted[p + 1], d_clearable);
            shift(&mut self.tool_cost[p + 1], d_tool_cost);
            shift(&mut self.thinking_cost[p + 1], d_thinking);
        }
    }

    /// The last user message before position `before`.
    pub fn user_before(&self, before: usize) -> Option<usize> {
        let k = self.users.partition_point(|&u| u < before);
        k.checked_sub(1).map(|k| self.users[k])
    }

    /// The first user message at or after `from`.
    pub fn user_from(&self, from: usize) -> Option<usize> {
        let k = self.users.partition_point(|&u| u < from);
        self.users.get(k).copied()
    }
}

/// What a call sends under a view policy, sized from the running figures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FastView {
    /// The view differs from the context.
    pub changed: bool,
    /// Messages sent.
    pub messages: usize,
    /// ctxlens' count of them.
    pub counted: u64,
    /// Messages of the context left out or cleared.
    pub removed: usize,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::chat::{written, Call};

    fn tool(id: &str, counted: u64) -> ChatMessage {
        let mut m = written(Kind::Tool, "tool", "output".to_owned(), counted);
        m.past_summary = false;
        m.call_id = Some(id.to_owned());
        m
    }

    fn assistant(ids: &[&str]) -> ChatMessage {
        let mut m = written(Kind::Assistant, "assistant", String::new(), 5);
        m.past_summary = false;
        m.calls = ids
            .iter()
            .map(|id| Call {
                id: (*id).to_owned(),
                name: "f".to_owned(),
                arguments: "{}".to_owned(),
                args: serde_json::json!({}),
            })
            .collect();
        m
    }

    #[test]
    fn clearing_in_place_moves_the_sums_as_a_recount_would() {
        let mut user = written(Kind::User, "user", "go".to_owned(), 3);
        user.past_summary = false;
        let mut context = vec![
            user,
            assistant(&["a", "b"]),
            tool("a", 40),
            tool("b", 70),
            assistant(&["c"]),
            tool("c", 90),
            tool("orphan", 11),
        ];
        let cost = |m: &ChatMessage| m.counted * 2;
        let mut running = Running::of(&context, cost);
        assert_eq!(running.clearable[context.len()], 3, "the orphan is not clearable");
        let mut changed = Vec::new();
        for p in [2, 5] {
            context[p].counted = 4;
            context[p].cleared = true;
            changed.push((p, cost(&context[p]), 4));
        }
        running.cleared(&changed);
        assert_eq!(running, Running::of(&context, cost));
        assert_eq!(running.stops, vec![2, 5]);
    }
}
