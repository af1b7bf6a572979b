//! `--tokenizer provider`: counts what each provider's API charges for a message, as
//! near as public information allows: the text with `o200k_base` (Anthropic and Google
//! publish no tokenizer, so this is a stand-in the calibration against recorded usage
//! corrects), OpenAI's per-message framing, images and documents by the provider's own
//! rule, and no opaque strings (thinking signatures, encrypted reasoning) as text.

use std::sync::OnceLock;

use super::bpe::{message_tokens, BpeCounter, Walk};
use super::media::{MediaResolution, OpenAiImages, Rules};
use super::TokenCounter;
use crate::transcript::{Dialect, Provider};

/// A provider's counter.
#[derive(Debug, Clone, Copy)]
pub struct ProviderCounter {
    rules: Rules,
}

impl TokenCounter for ProviderCounter {
    fn count_message(&self, message_json: &str) -> u64 {
        let text = BpeCounter::o200k();
        let walk = Walk {
            media: Some(self.rules),
            skip_opaque: true,
        };
        message_tokens(message_json, |s| text.count_text(s), walk)
    }
}

/// True for Claude models of version 4.7 and later, which take images at the higher
/// native resolution (2576 px long edge).
pub fn claude_high_resolution(model: &str) -> bool {
    let Some(rest) = model.strip_prefix("claude-") else {
        return false;
    };
    let numbers: Vec<u32> = rest
        .split(['-', '.'])
        .filter_map(|part| part.parse().ok())
        .filter(|n| *n < 100) // dates (20250929) are not versions
        .take(2)
        .collect();
    match numbers.as_slice() {
        [major, minor, ..] => (*major, *minor) >= (4, 7),
        [major] => *major >= 5,
        [] => false,
    }
}

/// The counter for a transcript of `dialect` made with `model`; `resolution` is a Gemini
/// request's `generationConfig.mediaResolution`.
pub fn for_dialect(
    dialect: Dialect,
    model: Option<&str>,
    resolution: Option<MediaResolution>,
) -> &'static ProviderCounter {
    static OPENAI: OnceLock<[ProviderCounter; 7]> = OnceLock::new();
    // Gemini 2 then 3, each with no level set and then each level.
    static GEMINI: OnceLock<Vec<ProviderCounter>> = OnceLock::new();
    static CLAUDE: OnceLock<[ProviderCounter; 2]> = OnceLock::new();
    match dialect.provider() {
        Provider::OpenAi | Provider::Responses => {
            let openai = OPENAI.get_or_init(|| {
                OpenAiImages::ALL.map(|family| ProviderCounter {
                    rules: Rules::OpenAi(family),
                })
            });
            &openai[OpenAiImages::of_model(model).index()]
        }
        Provider::Gemini => {
            let levels = std::iter::once(None).chain(MediaResolution::ALL.map(Some));
            let gemini = GEMINI.get_or_init(|| {
                [false, true]
                    .into_iter()
                    .flat_map(|v3| {
                        levels.clone().map(move |resolution| ProviderCounter {
                            rules: Rules::Gemini { v3, resolution },
                        })
                    })
                    .collect()
            });
            let version = usize::from(model.is_some_and(super::media::gemini_3));
            let level = resolution.map_or(0, |r| 1 + r.index());
            &gemini[version * (1 + MediaResolution::ALL.len()) + level]
        }
        Provider::Anthropic => {
            let claude = CLAUDE.get_or_init(|| {
                [
                    ProviderCounter {
                        rules: Rules::Anthropic { high_res: false },
                    },
                    ProviderCounter {
                        rules: Rules::Anthropic { high_res: true },
                    },
                ]
            });
            &claude[usize::from(model.is_some_and(claude_high_resolution))]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claude_versions_pick_the_image_resolution() {
        assert!(!claude_high_resolution("claude-sonnet-4-5-20250929"));
        assert!(!claude_high_resolution("claude-opus-4-6"));
        assert!(claude_high_resolution("claude-opus-4-7"));
        assert!(claude_high_resolution("claude-sonnet-5"));
        assert!(!claude_high_resolution("gpt-4o"));
    }
}
