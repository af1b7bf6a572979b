//! Compaction: the §7F tail plan (pure) and applying it to produce the output document.

mod apply;
pub mod deterministic;
mod plan;
mod strategy;

pub use apply::{
    compact, inserted_for, inserted_messages, render, tokens_after, warnings, Compaction, Inserted, Warning,
    FLUSH_REMINDER, SUMMARY_PREFIX,
};
pub use plan::{plan, Cut, Decision, Options, Plan, SplitReason};
pub use strategy::{apply, reload, Applied, DeterministicOptions, Strategy};
