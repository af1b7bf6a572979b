//! The price table: per-token prices of the chat models ctxlens reads logs of, from
//! LiteLLM's `model_prices_and_context_window.json` (MIT, BerriAI/litellm — the table
//! ccusage prices with), trimmed by `core/data/make_prices.py` and shipped in the crate
//! (`core/data/prices.json`, its origin in `core/data/SOURCES.md`). `--prices FILE` takes
//! another table of the same shape. A model the table does not hold has no price: its
//! cost is unknown and said so, never 0.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use serde::Deserialize;

/// The table shipped in the crate: which one, for every figure priced with it.
pub const BUILTIN_NAME: &str = "LiteLLM model_prices_and_context_window.json of litellm 1.110.2 (and 1.75.0 for models it dropped), copied 2026-12-02";

static BUILTIN: LazyLock<PriceTable> = LazyLock::new(|| {
    PriceTable::from_json(BUILTIN_NAME, include_str!("../../data/prices.json"))
        .unwrap_or_else(|_| PriceTable::empty(BUILTIN_NAME))
});

/// One model's entry as LiteLLM writes it (the fields ctxlens uses).
#[derive(Debug, Clone, Default, Deserialize)]
struct Entry {
    input_cost_per_token: Option<f64>,
    output_cost_per_token: Option<f64>,
    cache_creation_input_token_cost: Option<f64>,
    cache_creation_input_token_cost_above_1hr: Option<f64>,
    cache_read_input_token_cost: Option<f64>,
    input_cost_per_token_above_200k_tokens: Option<f64>,
    output_cost_per_token_above_200k_tokens: Option<f64>,
    cache_creation_input_token_cost_above_200k_tokens: Option<f64>,
    cache_creation_input_token_cost_above_1hr_above_200k_tokens: Option<f64>,
    cache_read_input_token_cost_above_200k_tokens: Option<f64>,
    input_cost_per_token_above_272k_tokens: Option<f64>,
    output_cost_per_token_above_272k_tokens: Option<f64>,
    cache_read_input_token_cost_above_272k_tokens: Option<f64>,
    max_input_tokens: Option<u64>,
}

/// Dollars per token of each kind a call is billed in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rates {
    /// Uncached input.
    pub input: f64,
    /// A cache write with a 5-minute lifetime (Anthropic: 1.25 × input).
    pub cache_write_5m: f64,
    /// A cache write with a 1-hour lifetime (Anthropic: 2 × input).
    pub cache_write_1h: f64,
    /// A cache read (Anthropic: 0.1 × input; OpenAI's cached input).
    pub cache_read: f64,
    /// Output, reasoning included.
    pub output: f64,
}

/// A model's prices: its rates, and the rates of a request whose prompt is larger than
/// `above` tokens, where the provider bills the whole request higher.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prices {
    /// The rates of an ordinary request.
    pub base: Rates,
    /// A long request's rates: from how many prompt tokens on, and what.
    pub long: Option<(u64, Rates)>,
    /// The largest prompt the model takes, where the table says (`max_input_tokens`).
    pub window: Option<u64>,
}

impl Prices {
    fn of(entry: &Entry) -> Option<Prices> {
        let input = entry.input_cost_per_token?;
        let output = entry.output_cost_per_token?;
        // Where the table has no cache price the provider bills a write and a read as
        // input (no cache discount known).
        let write = entry.cache_creation_input_token_cost.unwrap_or(input);
        let base = Rates {
            input,
            cache_write_5m: write,
            // Anthropic documents the 1-hour write at twice the input price.
            cache_write_1h: entry
                .cache_creation_input_token_cost_above_1hr
                .unwrap_or(write.max(2.0 * input)),
            cache_read: entry.cache_read_input_token_cost.unwrap_or(input),
            output,
        };
        let tier = |above: u64,
                    input: Option<f64>,
                    output: Option<f64>,
                    write: Option<f64>,
                    write_1h: Option<f64>,
                    read: Option<f64>| {
            let input = input?;
            Some((
                above,
                Rates {
                    input,
                    cache_write_5m: write.unwrap_or(base.cache_write_5m * input / base.input),
                    cache_write_1h: write_1h.unwrap_or(base.cache_write_1h * input / base.input),
                    cache_read: read.unwrap_or(base.cache_read * input / base.input),
                    output: output.unwrap_or(base.output),
                },
            ))
        };
        let long = tier(
            200_000,
            entry.input_cost_per_token_above_200k_tokens,
            entry.output_cost_per_token_above_200k_tokens,
            entry.cache_creation_input_token_cost_above_200k_tokens,
            entry.cache_creation_input_token_cost_above_1hr_above_200k_tokens,
            entry.cache_read_input_token_cost_above_200k_tokens,
        )
        .or_else(|| {
            tier(
                272_000,
                entry.input_cost_per_token_above_272k_tokens,
                entry.output_cost_per_token_above_272k_tokens,
                None,
                None,
                entry.cache_read_input_token_cost_above_272k_tokens,
            )
        });
        Some(Prices {
            base,
            long,
            window: entry.max_input_tokens,
        })
    }

    /// The rates a request with a prompt of `prompt` tokens is billed at.
    pub fn rates(&self, prompt: u64) -> Rates {
        match self.long {
            Some((above, rates)) if prompt > above => rates,
            _ => self.base,
        }
    }
}

/// A price table: model name → prices.
#[derive(Debug, Clone)]
pub struct PriceTable {
    /// What the table is (its origin and date), said beside every figure priced with it.
    pub name: String,
    models: BTreeMap<String, Prices>,
}

impl PriceTable {
    /// The table shipped in the crate.
    pub fn builtin() -> &'static PriceTable {
        &BUILTIN
    }

    fn empty(name: &str) -> PriceTable {
        PriceTable {
            name: name.to_owned(),
            models: BTreeMap::new(),
        }
    }

    /// A table in LiteLLM's shape (`{model: {input_cost_per_token, …}}`), named `name`;
    /// entries without an input and an output price are left out.
    pub fn from_json(name: &str, text: &str) -> Result<PriceTable, serde_json::Error> {
        let raw: BTreeMap<String, serde_json::Value> = serde_json::from_str(text)?;
        let models = raw
            .into_iter()
            .filter_map(|(model, value)| {
                let entry: Entry = serde_json::from_value(value).ok()?;
                Some((model, Prices::of(&entry)?))
            })
            .collect();
        Ok(PriceTable {
            name: name.to_owned(),
            models,
        })
    }

    /// The prices of `model` as a log names it: the name itself, else without a
    /// provider's prefix (`anthropic/…`) or a context suffix (`[1m]`), else with the
    /// provider's prefix the table uses. `None`: not in the table.
    pub fn prices(&self, model: &str) -> Option<&Prices> {
        let bare = model.rsplit('/').next().unwrap_or(model);
        let bare = bare.split('[').next().unwrap_or(bare).trim();
        // A version or variant after `@` (Vertex AI's `claude-sonnet-4-5@20250929`,
        // opencode's `claude-sonnet-4-6@default`) names the same model's prices.
        let bare = bare.split('@').next().unwrap_or(bare);
        // Copilot CLI names Claude's versions with a dot (`claude-sonnet-4.5`), the
        // table with a dash (`claude-sonnet-4-5`).
        let dashed = if bare.starts_with("claude-") {
            bare.replace('.', "-")
        } else {
            bare.to_owned()
        };
        [
            model.to_owned(),
            bare.to_owned(),
            format!("anthropic/{bare}"),
            format!("openai/{bare}"),
            format!("gemini/{bare}"),
            dashed,
        ]
        .iter()
        .find_map(|name| self.models.get(name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_prices_the_models_of_the_shipped_logs() {
        let table = PriceTable::builtin();
        for model in [
            "claude-sonnet-4-5-20250929",
            "claude-opus-4-20250514",
            "gpt-5.5",
            "gpt-5.1-codex",
            "deepseek-chat",
            "claude-sonnet-4.5",
            "claude-sonnet-4-6@default",
        ] {
            assert!(table.prices(model).is_some(), "{model} in {}", table.name);
        }
        assert!(table.prices("no-such-model-7").is_none());
        let sonnet = table.prices("claude-sonnet-4-5-20250929").expect("priced").base;
        // Anthropic's multipliers: a 5-minute write 1.25 ×, a 1-hour write 2 ×, a read 0.1 ×.
        assert!((sonnet.cache_write_5m / sonnet.input - 1.25).abs() < 1e-9);
        assert!((sonnet.cache_write_1h / sonnet.input - 2.0).abs() < 1e-9);
        assert!((sonnet.cache_read / sonnet.input - 0.1).abs() < 1e-9);
    }

    #[test]
    fn a_long_prompt_is_billed_at_the_long_rates() {
        let table = PriceTable::from_json(
            "t",
            r#"{"m": {"input_cost_per_token": 1e-6, "output_cost_per_token": 5e-6,
                "input_cost_per_token_above_200k_tokens": 2e-6, "output_cost_per_token_above_200k_tokens": 7e-6}}"#,
        )
        .expect("parses");
        let prices = table
            .prices("anthropic/m[1m]")
            .expect("found without prefix and suffix");
        assert!((prices.rates(200_000).input - 1e-6).abs() < 1e-15);
        assert!((prices.rates(200_001).input - 2e-6).abs() < 1e-15);
        assert!((prices.rates(200_001).output - 7e-6).abs() < 1e-15);
    }
}
