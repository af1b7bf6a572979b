//! # ctxlens
//!
//! See what an LLM agent's compactor keeps, cuts and summarizes. This crate is the
//! application: the command line (the `ctxlens` binary), the terminal UI ([`tui`]) and
//! the HTTP summarizer ([`openai`]), over [`ctxlens_core`], the library that loads,
//! counts, plans, compacts, replays and judges (re-exported here whole, so
//! `ctxlens::compact` is `ctxlens_core::compact`). The core depends on none of the front
//! ends' crates; that wall is the compiler's (see `docs/architecture.md`).
//!
//! Features: `cli` (the command line), `tui` (the terminal UI), `openai` (the HTTP
//! summarizer). All three are on by default.

pub use ctxlens_core::*;

pub mod demo;
#[cfg(feature = "openai")]
pub mod openai;
pub mod summarizers;
#[cfg(feature = "tui")]
pub mod tui;
