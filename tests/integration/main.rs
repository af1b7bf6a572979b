//! Every integration test in one binary: one link instead of one per file (on two cores
//! the links were most of a test build). Each module is what was a file of its own; the
//! helpers they share are [`common`].

mod common;

mod architecture;
mod bad_input;
mod cli;
mod compressed;
mod conformance;
mod cost;
mod deterministic;
mod fixture;
mod formats;
mod interleavings;
mod ledger;
mod loss_labels;
mod msrv;
mod one_core;
mod opencode;
mod other_agents;
mod policies;
mod properties;
mod readme;
mod real_transcripts;
mod replay;
mod reproducers;
mod scan;
mod summarizers;
mod tiktoken_differential;
mod truth;
mod tui;
mod tui_tmux;
