//! Context windows by model family, for the settings an agent takes as a share of its
//! window and for the thresholds ctxlens checks against it. Each family's source is the
//! provider's model documentation, named in `docs/policies.md`; a model of no family
//! known here takes the largest prompt LiteLLM's table (the shipped price table) gives
//! it; a model in neither gets no window (the user passes `--context-window`).

/// A model family's context window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// Tokens of input and output together.
    pub tokens: u64,
    /// The family it was matched as.
    pub family: &'static str,
}

/// (prefix of the model id, window, family), most specific first.
const FAMILIES: [(&str, u64, &str); 16] = [
    ("gpt-4.1", 1_047_576, "GPT-4.1"),
    ("gpt-4o", 128_000, "GPT-4o"),
    ("gpt-5", 400_000, "GPT-5"),
    ("o1", 200_000, "o-series"),
    ("o3", 200_000, "o-series"),
    ("o4-mini", 200_000, "o-series"),
    ("codex-mini", 200_000, "o-series"),
    ("gemini-1.5-pro", 2_097_152, "Gemini 1.5 Pro"),
    ("gemini-1.5", 1_048_576, "Gemini 1.5"),
    ("gemini-2", 1_048_576, "Gemini 2"),
    ("gemini-3", 1_048_576, "Gemini 3"),
    ("claude-opus-4", 200_000, "Claude 4"),
    ("claude-sonnet-4", 200_000, "Claude 4"),
    ("claude-haiku-4", 200_000, "Claude 4"),
    ("claude-3", 200_000, "Claude 3"),
    ("claude-", 200_000, "Claude"),
];

/// The window of `model` (a provider's model id, with or without a `provider/` or
/// `models/` prefix and date suffix; Claude's `[1m]` marks the 1M-token window).
pub fn window_of(model: &str) -> Option<Window> {
    let id = model.rsplit('/').next().unwrap_or(model).to_ascii_lowercase();
    if id.starts_with("claude-") && id.ends_with("[1m]") {
        return Some(Window {
            tokens: 1_000_000,
            family: "Claude, 1M context",
        });
    }
    FAMILIES
        .iter()
        .find(|(prefix, ..)| id.starts_with(prefix))
        .map(|&(_, tokens, family)| Window { tokens, family })
        .or_else(|| {
            let tokens = crate::cost::PriceTable::builtin().prices(model)?.window?;
            Some(Window {
                tokens,
                family: "LiteLLM's max_input_tokens",
            })
        })
}

#[cfg(test)]
mod tests {
    use super::window_of;

    #[test]
    fn families_are_matched_by_their_ids() {
        assert_eq!(window_of("claude-sonnet-4-5-20250929").map(|w| w.tokens), Some(200_000));
        assert_eq!(window_of("claude-sonnet-4-5[1m]").map(|w| w.tokens), Some(1_000_000));
        assert_eq!(window_of("openai/gpt-4o-mini").map(|w| w.tokens), Some(128_000));
        assert_eq!(window_of("gpt-4.1-nano").map(|w| w.tokens), Some(1_047_576));
        assert_eq!(window_of("models/gemini-2.5-flash").map(|w| w.tokens), Some(1_048_576));
        assert_eq!(window_of("llama3.2"), None);
        // Of no family here: the largest prompt LiteLLM's table gives it.
        let deepseek = window_of("deepseek-chat").expect("in the shipped table");
        assert_eq!(deepseek.family, "LiteLLM's max_input_tokens");
        assert!(deepseek.tokens >= 64_000, "{deepseek:?}");
    }
}
