//! Tool groups and orphans, computed once at load (and grown with a followed log, see
//! `grow.rs`).
//!
//! A tool group is an assistant message that calls tools plus every message holding a
//! result for one of those calls (parallel calls included). An orphan is a call no
//! result answers, or a result whose call is nowhere before it.

// Call ids are short strings hashed once per call and result: FxHash (already in the
// tree through regex) instead of SipHash, which cost a third of pairing 100k messages.
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use super::message::{legacy_call_id, Message};

mod grow;

/// One assistant call message and the messages that answer it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolGroup {
    /// Index of the message making the calls.
    pub call: usize,
    /// Indices of the messages carrying results, in order.
    pub results: Vec<usize>,
}

impl ToolGroup {
    /// Every message of the group, call first.
    pub fn members(&self) -> impl Iterator<Item = usize> + '_ {
        std::iter::once(self.call).chain(self.results.iter().copied())
    }
}

/// What kind of orphan.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OrphanKind {
    /// A call that no later message answers.
    Call,
    /// A result whose call id appears in no earlier message.
    Result,
}

/// A call without a result, or a result without a call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orphan {
    /// Index of the message holding it.
    pub message: usize,
    /// The call id.
    pub id: String,
    /// Call or result.
    pub kind: OrphanKind,
}

impl Orphan {
    /// What this orphan means where it stands in a transcript of `len` messages: a call
    /// at the end is a tool still running; one in the middle was never answered; a result
    /// answers nothing.
    pub fn explain(&self, len: usize) -> String {
        match self.kind {
            OrphanKind::Call if self.message + 1 >= len => format!(
                "call `{}` is the last message and waits for its result: fine while the tool runs, but a request sent now, before the result is added, is rejected",
                self.id
            ),
            OrphanKind::Call => format!(
                "call `{}` is never answered by a later message (an interrupted tool use?); providers reject any request that holds it without its result",
                self.id
            ),
            OrphanKind::Result => format!(
                "result for `{}` answers no earlier call (was the call summarized or cut away?); providers reject a request holding it",
                self.id
            ),
        }
    }
}

/// All groups and orphans of a transcript.
#[derive(Debug, Clone, Default)]
pub struct ToolGroups {
    /// Groups in the order of their call messages.
    pub groups: Vec<ToolGroup>,
    /// For each message, the group it belongs to ([`NO_GROUP`] when none): four bytes a
    /// message, read through [`ToolGroups::group_of`].
    group_of: Vec<u32>,
    /// Calls without results and results without calls.
    pub orphans: Vec<Orphan>,
    /// Call id → the messages making a call with it, ascending: what a result read later
    /// pairs with. Made on the first growth only (a transcript read once never needs it).
    calls: Option<grow::CallIndex>,
}

/// Equal when they pair the same messages (the index kept for growing is not compared:
/// a list grown and the same list computed whole are equal).
impl PartialEq for ToolGroups {
    fn eq(&self, other: &ToolGroups) -> bool {
        self.groups == other.groups && self.group_of == other.group_of && self.orphans == other.orphans
    }
}

impl Eq for ToolGroups {}

/// `group_of` of a message in no group.
const NO_GROUP: u32 = u32::MAX;

impl ToolGroups {
    /// The group message `index` belongs to, if any.
    pub fn group_of(&self, index: usize) -> Option<usize> {
        self.group_of
            .get(index)
            .copied()
            .filter(|&g| g != NO_GROUP)
            .map(|g| g as usize)
    }

    fn set_group(&mut self, index: usize, group: usize) {
        self.group_of[index] = u32::try_from(group).unwrap_or(NO_GROUP);
    }

    /// A new group for call message `call` (the last so far).
    fn open_group(&mut self, call: usize) {
        let group = self.groups.len();
        self.set_group(call, group);
        self.groups.push(ToolGroup {
            call,
            results: Vec::new(),
        });
    }

    /// Message `result` answers a call of message `call`: it joins that group (and
    /// belongs to the first group it joins).
    fn join(&mut self, call: usize, result: usize) {
        let group = self.group_of(call).expect("a call message always has a group");
        if !self.groups[group].results.contains(&result) {
            self.groups[group].results.push(result);
        }
        if self.group_of(result).is_none() {
            self.set_group(result, group);
        }
    }

    /// Pairs calls and results by id (legacy `function_call` by adjacency).
    pub fn compute(messages: &[Message]) -> ToolGroups {
        let mut out = ToolGroups {
            groups: Vec::new(),
            group_of: vec![NO_GROUP; messages.len()],
            orphans: Vec::new(),
            calls: None,
        };
        // call id → message index of the most recent call with that id.
        let mut open: HashMap<&str, usize> = HashMap::default();
        let mut answered: HashSet<(usize, &str)> = HashSet::default();
        for (index, message) in messages.iter().enumerate() {
            out.attach_results(index, message, messages, &open, &mut answered);
            if !message.tool_calls().is_empty() {
                out.open_group(index);
                for call in message.tool_calls() {
                    open.insert(call.id.as_str(), index);
                }
            }
        }
        out.collect_unanswered(messages, &answered);
        out
    }

    fn attach_results<'a>(
        &mut self,
        index: usize,
        message: &'a Message,
        messages: &'a [Message],
        open: &HashMap<&'a str, usize>,
        answered: &mut HashSet<(usize, &'a str)>,
    ) {
        for id in answered_ids(message, index.checked_sub(1).map(|i| (i, &messages[i]))) {
            match open.get(id) {
                Some(&call) => {
                    answered.insert((call, id));
                    self.join(call, index);
                }
                None => self.orphans.push(Orphan {
                    message: index,
                    id: id.to_owned(),
                    kind: OrphanKind::Result,
                }),
            }
        }
    }

    fn collect_unanswered(&mut self, messages: &[Message], answered: &HashSet<(usize, &str)>) {
        for (index, message) in messages.iter().enumerate() {
            for call in message.tool_calls() {
                if !answered.contains(&(index, call.id.as_str())) {
                    self.orphans.push(Orphan {
                        message: index,
                        id: call.id.clone(),
                        kind: OrphanKind::Call,
                    });
                }
            }
        }
        self.orphans.sort_by_key(|o| o.message);
    }

    /// Orphans held by message `index`.
    pub fn orphans_of(&self, index: usize) -> impl Iterator<Item = &Orphan> {
        self.orphans.iter().filter(move |o| o.message == index)
    }
}

/// The call ids `message` answers: its results', and for a legacy `role:"function"`
/// message the `function_call` of the message right before it (`previous`, with its
/// index).
fn answered_ids<'a>(message: &'a Message, previous: Option<(usize, &'a Message)>) -> Vec<&'a str> {
    let mut ids: Vec<&str> = message.tool_results().iter().map(String::as_str).collect();
    if message.role == "function" {
        if let Some((at, previous)) = previous {
            let legacy_id = legacy_call_id(at);
            if let Some(call) = previous.tool_calls().iter().find(|c| c.id == legacy_id) {
                ids.push(call.id.as_str());
            }
        }
    }
    ids
}

#[cfg(test)]
mod explain_tests {
    use super::{Orphan, OrphanKind};

    #[test]
    fn an_orphan_is_explained_by_where_it_stands() {
        let call = |message| Orphan {
            message,
            id: "c1".into(),
            kind: OrphanKind::Call,
        };
        assert!(call(9)
            .explain(10)
            .contains("is the last message and waits for its result"));
        let middle = call(3).explain(10);
        assert!(
            middle.contains("never answered") && !middle.contains("last message"),
            "{middle}"
        );
        let result = Orphan {
            message: 0,
            id: "c1".into(),
            kind: OrphanKind::Result,
        };
        assert!(result.explain(10).contains("answers no earlier call"));
    }
}
