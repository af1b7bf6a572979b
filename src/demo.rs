//! The embedded demo transcript: a realistic support-agent session with tool calls,
//! long enough to compact, opened when ctxlens is run with no file.

use crate::transcript::Transcript;

/// The demo's file name as shown to the user.
pub const DEMO_NAME: &str = "demo:support-agent.json";

/// The demo transcript's text (the same file as `sample-transcripts/support-agent.json`).
pub const DEMO_JSON: &str = include_str!("../sample-transcripts/support-agent.json");

/// Loads the demo transcript.
pub fn load() -> Transcript {
    Transcript::parse(DEMO_NAME, DEMO_JSON.as_bytes().to_vec(), None).expect("the embedded demo transcript is valid")
}
