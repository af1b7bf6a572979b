//! Building the summarizer a front end names: the core's, and the HTTP one this crate
//! adds (the core has no HTTP client).

use ctxlens_core::summarize::{self, Settings, Spec, Summarizer};

/// The summarizer `spec` names, or why it cannot be built (the `openai` summarizer
/// needs the `openai` feature).
pub fn build(spec: &Spec, settings: &Settings) -> ctxlens_core::Result<Box<dyn Summarizer>> {
    match spec {
        #[cfg(feature = "openai")]
        Spec::OpenAi => Ok(Box::new(crate::openai::OpenAiCompatible {
            settings: settings.clone(),
        })),
        _ => summarize::build(spec, settings),
    }
}
