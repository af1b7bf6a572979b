//! Tool groups kept as a followed log grows: the last messages taken back (a response
//! read again, which may have gained lines) and the new ones paired, at the cost of
//! those messages, not of the whole list. Either way the groups are exactly what
//! [`ToolGroups::compute`] gives for the whole list (a property test holds them equal).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::{answered_ids, Orphan, OrphanKind, ToolGroups, NO_GROUP};
use crate::transcript::Message;

/// Call id → the messages making a call with it, ascending.
pub(super) type CallIndex = HashMap<String, Vec<usize>>;

/// The calls of `messages` by id.
fn index_of<'a>(messages: impl Iterator<Item = &'a Message>) -> CallIndex {
    let mut index = CallIndex::default();
    for (at, message) in messages.enumerate() {
        for call in message.tool_calls() {
            index.entry(call.id.clone()).or_default().push(at);
        }
    }
    index
}

/// The most recent call with `id` before message `before`.
fn call_before(index: &CallIndex, id: &str, before: usize) -> Option<usize> {
    let calls = index.get(id)?;
    let k = calls.partition_point(|&at| at < before);
    k.checked_sub(1).map(|k| calls[k])
}

impl ToolGroups {
    /// The number of messages these groups pair.
    pub(crate) fn len(&self) -> usize {
        self.group_of.len()
    }

    /// The groups of `kept` alone, from the groups of `kept` followed by `removed`
    /// (the messages a read on takes back).
    pub(crate) fn take_back(&mut self, kept: &[Message], removed: &[Message]) {
        let from = kept.len();
        debug_assert_eq!(self.len(), from + removed.len(), "the groups pair kept and removed");
        let mut index = self
            .calls
            .take()
            .unwrap_or_else(|| index_of(kept.iter().chain(removed)));
        let message_at = |at: usize| if at < from { &kept[at] } else { &removed[at - from] };
        // The kept calls a removed message answered: their results and orphans change.
        let mut touched: Vec<usize> = Vec::new();
        for (k, message) in removed.iter().enumerate() {
            let at = from + k;
            let previous = at.checked_sub(1).map(|p| (p, message_at(p)));
            for id in answered_ids(message, previous) {
                touched.extend(call_before(&index, id, at).filter(|&call| call < from));
            }
        }
        touched.sort_unstable();
        touched.dedup();
        for message in removed {
            for call in message.tool_calls() {
                if let Some(calls) = index.get_mut(call.id.as_str()) {
                    calls.truncate(calls.partition_point(|&at| at < from));
                    if calls.is_empty() {
                        index.remove(call.id.as_str());
                    }
                }
            }
        }
        let groups_kept = self.groups.partition_point(|g| g.call < from);
        self.groups.truncate(groups_kept);
        self.group_of.truncate(from);
        let orphans_kept = self.orphans.partition_point(|o| o.message < from);
        self.orphans.truncate(orphans_kept);
        for &call in &touched {
            let group = self.group_of(call).expect("a call message always has a group");
            let results = &mut self.groups[group].results;
            results.truncate(results.partition_point(|&r| r < from));
            self.orphan_calls_again(call, kept, &index);
        }
        self.calls = Some(index);
    }

    /// The call orphans of message `call` made again from its group's results (some of
    /// which were taken back), in place of those it had.
    fn orphan_calls_again(&mut self, call: usize, messages: &[Message], index: &CallIndex) {
        let group = self.group_of(call).expect("a call message always has a group");
        let results = &self.groups[group].results;
        let answered = |id: &str| {
            results.iter().any(|&r| {
                let previous = r.checked_sub(1).map(|p| (p, &messages[p]));
                answered_ids(&messages[r], previous).contains(&id) && call_before(index, id, r) == Some(call)
            })
        };
        let unanswered: Vec<Orphan> = messages[call]
            .tool_calls()
            .iter()
            .filter(|c| !answered(c.id.as_str()))
            .map(|c| Orphan {
                message: call,
                id: c.id.clone(),
                kind: OrphanKind::Call,
            })
            .collect();
        // A message's result orphans come before its call orphans, as a whole pairing
        // lists them.
        let start = self.orphans.partition_point(|o| o.message < call);
        let end = self.orphans.partition_point(|o| o.message <= call);
        let results_end = start
            + self.orphans[start..end]
                .iter()
                .take_while(|o| o.kind == OrphanKind::Result)
                .count();
        self.orphans.splice(results_end..end, unanswered);
    }

    /// The groups of `messages`, from these groups of its first [`ToolGroups::len`].
    pub(crate) fn grow(&mut self, messages: &[Message]) {
        let from = self.len();
        let mut index = self.calls.take().unwrap_or_else(|| index_of(messages[..from].iter()));
        self.group_of.resize(messages.len(), NO_GROUP);
        let mut fresh: Vec<Orphan> = Vec::new();
        let mut answered: HashSet<(usize, &str)> = HashSet::default();
        for (at, message) in messages.iter().enumerate().skip(from) {
            let previous = at.checked_sub(1).map(|p| (p, &messages[p]));
            for id in answered_ids(message, previous) {
                let Some(call) = index.get(id).and_then(|calls| calls.last().copied()) else {
                    fresh.push(Orphan {
                        message: at,
                        id: id.to_owned(),
                        kind: OrphanKind::Result,
                    });
                    continue;
                };
                if call < from {
                    self.answer_earlier_call(call, id);
                } else {
                    answered.insert((call, id));
                }
                self.join(call, at);
            }
            if !message.tool_calls().is_empty() {
                self.open_group(at);
                for call in message.tool_calls() {
                    index.entry(call.id.clone()).or_default().push(at);
                }
            }
        }
        for (at, message) in messages.iter().enumerate().skip(from) {
            for call in message.tool_calls() {
                if !answered.contains(&(at, call.id.as_str())) {
                    fresh.push(Orphan {
                        message: at,
                        id: call.id.clone(),
                        kind: OrphanKind::Call,
                    });
                }
            }
        }
        fresh.sort_by_key(|o| o.message);
        self.orphans.extend(fresh);
        self.calls = Some(index);
    }

    /// Call `id` of message `call`, an orphan until now, is answered.
    fn answer_earlier_call(&mut self, call: usize, id: &str) {
        let start = self.orphans.partition_point(|o| o.message < call);
        let end = self.orphans.partition_point(|o| o.message <= call);
        if let Some(k) = (start..end).find(|&k| self.orphans[k].kind == OrphanKind::Call && self.orphans[k].id == id) {
            self.orphans.remove(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::transcript::Transcript;

    /// One generated message: a user turn, an assistant calling some ids (with or
    /// without a legacy `function_call`), a tool result for an id, or a legacy function
    /// result. Ids come from a small pool, so duplicates, unanswered calls and results
    /// answering nothing all happen.
    fn message_json(kind: u8, id: u8, width: u8) -> String {
        match kind % 5 {
            0 => r#"{"role":"user","content":"go"}"#.to_owned(),
            1 => {
                let calls: Vec<String> = (0..=width % 3)
                    .map(|k| {
                        format!(
                            r#"{{"id":"c{}","type":"function","function":{{"name":"f","arguments":"{{}}"}}}}"#,
                            (id + k) % 6
                        )
                    })
                    .collect();
                format!(
                    r#"{{"role":"assistant","content":null,"tool_calls":[{}]}}"#,
                    calls.join(",")
                )
            }
            2 => format!(r#"{{"role":"tool","tool_call_id":"c{}","content":"ok"}}"#, id % 6),
            3 => r#"{"role":"assistant","content":null,"function_call":{"name":"f","arguments":"{}"}}"#.to_owned(),
            _ => r#"{"role":"function","name":"f","content":"ok"}"#.to_owned(),
        }
    }

    fn messages(list: &[(u8, u8, u8)]) -> Vec<Message> {
        let items: Vec<String> = list.iter().map(|&(k, i, w)| message_json(k, i, w)).collect();
        let text = format!("[{}]", items.join(","));
        Transcript::parse("groups.json", text.into_bytes(), None)
            .expect("a generated list loads")
            .messages()
            .to_vec()
    }

    proptest! {
        /// Groups computed for a list, its last messages taken back and others added,
        /// equal the groups computed whole for the list that results.
        #[test]
        fn grown_groups_equal_groups_computed_whole(
            first in proptest::collection::vec((0u8..5, 0u8..8, 0u8..3), 0..24),
            back in 0usize..6,
            more in proptest::collection::vec((0u8..5, 0u8..8, 0u8..3), 0..12),
            again in proptest::collection::vec((0u8..5, 0u8..8, 0u8..3), 0..8),
        ) {
            let before = messages(&first);
            let back = back.min(before.len());
            let kept = before.len() - back;
            let mut grown = ToolGroups::compute(&before);
            grown.take_back(&before[..kept], &before[kept..]);
            prop_assert_eq!(&grown, &ToolGroups::compute(&before[..kept]));
            let mut list = first[..kept].to_vec();
            list.extend(&more);
            let after = messages(&list);
            grown.grow(&after);
            prop_assert_eq!(&grown, &ToolGroups::compute(&after));
            // And once more, with the index made by the first growth.
            list.extend(&again);
            let last = messages(&list);
            grown.grow(&last);
            prop_assert_eq!(&grown, &ToolGroups::compute(&last));
        }
    }
}
