//! The request as sent: each message as its provider's API request carries it, which is
//! what ctxlens counts. Trajectory metadata (mini-swe-agent's `extra`, SWE-agent's
//! `agent`/`thought`/`action`…) and log envelopes (a Claude Code response's `id`,
//! `model`, `usage`…) are kept in the file and written back on export, but never
//! counted; an OpenHands event is counted as the chat message the agent builds from it;
//! an event the agent never sends counts nothing. Each dialect's rule is in its own
//! module (`dialect/`).

use super::dialect::Dialect;

/// How ctxlens counts a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum CountMode {
    /// As the API request carries it (the default).
    #[default]
    Request,
    /// The message object exactly as stored in the file (`--count raw`).
    Raw,
}

impl crate::names::Named for CountMode {
    const KIND: &'static str = "count mode";
    const ALL: &'static [Self] = &[CountMode::Request, CountMode::Raw];

    fn name(self) -> &'static str {
        match self {
            CountMode::Request => "request",
            CountMode::Raw => "raw",
        }
    }
}

impl std::str::FromStr for CountMode {
    type Err = crate::Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        crate::names::parse(s)
    }
}

/// The message as its API request carries it, when that differs from `raw`; `None`
/// when `raw` is already exactly that. An empty string is a message never sent.
pub fn request_json(dialect: Dialect, raw: &str) -> Option<String> {
    dialect.rules().request_json(raw)
}
