//! Compaction: the §7F tail plan (pure, [`plan()`]), the strategies and what they plan
//! ([`plan_strategy`], [`Planned::section`]), a plan's figures without writing anything
//! ([`figures()`]), and [`Compaction`], the one way to compact for every front end.

pub mod deterministic;
mod document;
mod figures;
mod inserted;
mod plan;
mod plan_doc;
mod render;
mod run;
mod stale_usage;
mod strategy;

pub use document::{write_document, Document};
pub use figures::{figures, Figures};
pub use inserted::{
    inserted_messages, inserted_texts, insertion, visible_messages, Insertion, SummaryRole, CLAUDE_CODE_OPENING,
    FLUSH_REMINDER, SUMMARY_PREFIX,
};
pub use plan::{head_end, plan, plan_shape, Cut, Decision, Options, Plan, Section, Shape, SplitReason};
pub use plan_doc::{write_plan, PlanDocument};
pub use render::Rendered;
pub use run::{Compaction, Outcome};
pub use strategy::{derive, plan_strategy, Derived, DeterministicOptions, Planned, Settings, Strategy, Warning};

/// Where externalized tool output goes beside an output file `OUT`: `OUT.artifacts/`.
/// The one place the folder's name is chosen.
pub fn artifacts_dir_for(output: &std::path::Path) -> std::path::PathBuf {
    let name = output
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    output.with_file_name(format!("{name}.artifacts"))
}
