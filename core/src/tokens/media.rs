//! Images and documents inside messages, counted by their provider's documented rule
//! instead of as text: a base64 screenshot is hundreds of thousands of characters but a
//! model sees it as about a thousand tokens. Dimensions come from the image's header
//! bytes (the `imagesize` crate; no pixel is decoded); a PDF's pages are counted from its
//! page objects. The rules, and where each provider documents them: `docs/tokens.md`.

use base64::Engine;
use serde_json::{Map, Value};

pub use crate::transcript::MediaResolution;

/// Whose rule applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Rules {
    /// OpenAI, by the model's family: base and per-tile tokens, or 32-px patches times a
    /// multiplier.
    OpenAi(OpenAiImages),
    /// Anthropic: one token per 28×28-px patch, after resizing to the model's native
    /// resolution (`high_res`: Claude Opus 4.7 and later, 2576 px and 4,784 tokens;
    /// otherwise 1568 px and 1,568 tokens).
    Anthropic {
        /// The model takes the higher native resolution.
        high_res: bool,
    },
    /// Gemini 2 and earlier: 258 tokens up to 384×384 px, else 258 per 768-px tile; 258
    /// per PDF page. Gemini 3 (`v3`): its default `media_resolution` (high), 1,120 per
    /// image and 560 per PDF page. A request's `generationConfig.mediaResolution`
    /// (`resolution`) and, on Gemini 3, a part's own `mediaResolution` set the level.
    Gemini {
        /// A Gemini 3 model.
        v3: bool,
        /// The media resolution the request sets for all its parts.
        resolution: Option<MediaResolution>,
    },
}

/// How an OpenAI model bills an image (OpenAI's "Images and vision" guide, "Calculating
/// costs"). Tile models fit the image in 2048×2048, scale its shortest side to 768 and
/// bill a base plus a price per 512-px tile (the base alone at `detail: low`); patch
/// models bill 32-px patches (at most 1,536, the image scaled down to fit) times a
/// multiplier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum OpenAiImages {
    /// 85 + 170 a tile: GPT-4o, GPT-4.1, GPT-4.5, and any model not named below.
    Gpt4o,
    /// 2,833 + 5,667 a tile: gpt-4o-mini (the same price as GPT-4o in more tokens).
    Gpt4oMini,
    /// 75 + 150 a tile: o1, o1-pro, o3.
    OSeries,
    /// 70 + 140 a tile: GPT-5 and its chat and point releases.
    Gpt5,
    /// Patches × 1.62: gpt-4.1-mini, gpt-5-mini.
    PatchesMini,
    /// Patches × 2.46: gpt-4.1-nano, gpt-5-nano.
    PatchesNano,
    /// Patches × 1.72: o4-mini.
    PatchesO4Mini,
}

impl OpenAiImages {
    /// Every family, in the order [`OpenAiImages::index`] numbers them.
    pub const ALL: [OpenAiImages; 7] = [
        OpenAiImages::Gpt4o,
        OpenAiImages::Gpt4oMini,
        OpenAiImages::OSeries,
        OpenAiImages::Gpt5,
        OpenAiImages::PatchesMini,
        OpenAiImages::PatchesNano,
        OpenAiImages::PatchesO4Mini,
    ];

    /// Its place in [`OpenAiImages::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The family of `model` (`None`, or a name not listed: GPT-4o's, the rule most
    /// vision models share; [`OpenAiImages::known`] says whether it was named).
    pub fn of_model(model: Option<&str>) -> OpenAiImages {
        Self::known(model).unwrap_or(OpenAiImages::Gpt4o)
    }

    /// The family `model` names, if it names one this table knows.
    pub fn known(model: Option<&str>) -> Option<OpenAiImages> {
        let model = model?.to_ascii_lowercase();
        let model = model.rsplit('/').next().unwrap_or_default(); // `openai/gpt-5-mini`
        let starts = |p: &str| model.starts_with(p);
        Some(if starts("gpt-4o-mini") {
            OpenAiImages::Gpt4oMini
        } else if starts("gpt-4.1-mini") || starts("gpt-5-mini") {
            OpenAiImages::PatchesMini
        } else if starts("gpt-4.1-nano") || starts("gpt-5-nano") {
            OpenAiImages::PatchesNano
        } else if starts("o4-mini") {
            OpenAiImages::PatchesO4Mini
        } else if starts("o1") || starts("o3") {
            OpenAiImages::OSeries
        } else if starts("gpt-5") {
            OpenAiImages::Gpt5
        } else if starts("gpt-4o") || starts("gpt-4.1") || starts("gpt-4.5") || starts("chatgpt-4o") {
            OpenAiImages::Gpt4o
        } else {
            return None;
        })
    }

    /// Tokens of a `width`×`height` image (`low`: OpenAI's `detail: low`).
    pub fn image(self, width: u32, height: u32, low: bool) -> u64 {
        let tiled = |base: u64, tile: u64| {
            if low {
                base
            } else {
                base + tile * openai_tiles(width, height)
            }
        };
        let patched = |multiplier: f64| (openai_patches(width, height) as f64 * multiplier).ceil() as u64;
        match self {
            OpenAiImages::Gpt4o => tiled(85, 170),
            OpenAiImages::Gpt4oMini => tiled(2_833, 5_667),
            OpenAiImages::OSeries => tiled(75, 150),
            OpenAiImages::Gpt5 => tiled(70, 140),
            OpenAiImages::PatchesMini => patched(1.62),
            OpenAiImages::PatchesNano => patched(2.46),
            OpenAiImages::PatchesO4Mini => patched(1.72),
        }
    }
}

/// The rule that counts a transcript's images and documents as its provider bills them
/// (`--tokenizer provider`), in words, and whether it is assumed (the model is not one
/// the rule's table names): "OpenAI's rule for gpt-4o-mini", "OpenAI's GPT-4o rule
/// (model unknown: assumed)".
pub fn provider_rule(transcript: &crate::transcript::Transcript) -> String {
    use crate::transcript::Provider;
    let model = transcript.model.as_deref();
    match transcript.format.dialect.provider() {
        Provider::OpenAi | Provider::Responses => match OpenAiImages::known(model) {
            Some(_) => format!("OpenAI's rule for {}", model.unwrap_or_default()),
            None => "OpenAI's GPT-4o rule (model unknown: assumed; --model names it)".to_owned(),
        },
        Provider::Anthropic => match model.filter(|m| m.starts_with("claude-")) {
            Some(m) => format!("Anthropic's rule for {m}"),
            None => "Anthropic's rule at 1568 px (model unknown: assumed; --model names it)".to_owned(),
        },
        Provider::Gemini => match (model.filter(|m| m.contains("gemini-")), transcript.media_resolution) {
            (Some(m), Some(level)) => format!("Gemini's rule at the request's {} ({m})", level.name()),
            (None, Some(level)) => format!(
                "Gemini 2's rule at the request's {} (model unknown: assumed; --model names it)",
                level.name()
            ),
            (Some(m), None) if gemini_3(m) => format!("Gemini 3's default media resolution ({m})"),
            (Some(m), None) => format!("Gemini's 768-px tiles ({m})"),
            (None, None) => "Gemini's 768-px tiles (model unknown: assumed; --model names it)".to_owned(),
        },
    }
}

/// What kind of media a part holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaKind {
    /// A picture.
    Image,
    /// A PDF.
    Pdf,
    /// Some other binary document.
    Other,
}

/// One image or document part of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Media {
    /// Image, PDF or other.
    pub kind: MediaKind,
    /// Its media type (`image/png`), when given.
    pub mime: String,
    /// Width and height in pixels, when the header could be read.
    pub size: Option<(u32, u32)>,
    /// Pages of a PDF, when they could be counted.
    pub pages: Option<u32>,
    /// Characters of its base64 payload in the message (0 for a URL or file reference).
    pub payload_chars: usize,
    /// The resolution the part asks for, when given: OpenAI's `detail` (`low`, `high`,
    /// `auto`), a Gemini part's `mediaResolution` (`MEDIA_RESOLUTION_LOW`…).
    pub detail: Option<String>,
}

/// A PDF page by the Anthropic documentation's middle figure (1,500–3,000 tokens of text
/// per page; the page image is not priced separately there).
const PDF_PAGE_TOKENS: u64 = 2_250;

/// A Gemini 3 image at `level` (by default high: 1,120).
fn gemini3_image(level: Option<MediaResolution>) -> u64 {
    match level {
        Some(MediaResolution::Low) => 280,
        Some(MediaResolution::Medium) => 560,
        Some(MediaResolution::High) | None => 1_120,
        Some(MediaResolution::UltraHigh) => 2_240,
    }
}

/// A Gemini 3 PDF page at `level` (by default medium: 560; no level above high).
fn gemini3_page(level: Option<MediaResolution>) -> u64 {
    match level {
        Some(MediaResolution::Low) => 280,
        Some(MediaResolution::Medium) | None => 560,
        Some(MediaResolution::High | MediaResolution::UltraHigh) => 1_120,
    }
}

/// A Gemini 2 image or page when the request sets a level: 64 at low, else 256 (high
/// reframes the image at the same 256).
fn gemini2_fixed(level: MediaResolution) -> u64 {
    if level == MediaResolution::Low {
        64
    } else {
        256
    }
}

/// True for Gemini 3 models (`gemini-3-pro-preview`, `gemini-3.1-flash`…).
pub fn gemini_3(model: &str) -> bool {
    let model = model.rsplit('/').next().unwrap_or_default().to_ascii_lowercase();
    model
        .strip_prefix("gemini-")
        .and_then(|rest| rest.split(['-', '.']).next())
        .and_then(|major| major.parse::<u32>().ok())
        .is_some_and(|major| major >= 3)
}

impl Media {
    /// Its tokens under `rules`.
    pub fn tokens(&self, rules: Rules) -> u64 {
        match (self.kind, rules) {
            (MediaKind::Image, Rules::OpenAi(family)) => {
                let (w, h) = self.size.unwrap_or((1024, 1024));
                family.image(w, h, self.detail.as_deref() == Some("low"))
            }
            (MediaKind::Image, Rules::Anthropic { high_res }) => {
                let (_, cap) = anthropic_limits(high_res);
                self.size.map_or(cap, |(w, h)| anthropic_image(w, h, high_res))
            }
            (MediaKind::Image | MediaKind::Pdf, Rules::Gemini { v3: true, resolution }) => {
                // A part's own level wins over the request's.
                let level = self
                    .detail
                    .as_deref()
                    .and_then(|d| MediaResolution::parse(&Value::String(d.to_owned())))
                    .or(resolution);
                if self.kind == MediaKind::Image {
                    gemini3_image(level)
                } else {
                    gemini3_page(level) * self.billable_pages(rules)
                }
            }
            (MediaKind::Image, Rules::Gemini { v3: false, resolution }) => match resolution {
                None => self.size.map_or(258, |(w, h)| gemini_image(w, h)),
                Some(level) => gemini2_fixed(level),
            },
            (MediaKind::Pdf, Rules::Gemini { v3: false, resolution }) => {
                resolution.map_or(258, gemini2_fixed) * self.billable_pages(rules)
            }
            (MediaKind::Pdf, _) => PDF_PAGE_TOKENS * self.billable_pages(rules),
            (MediaKind::Other, Rules::Gemini { .. }) => 258,
            (MediaKind::Other, _) => PDF_PAGE_TOKENS,
        }
    }

    /// The pages a provider can bill for this document: what its header claims, at most
    /// the most pages that provider accepts in one request (a forged `/Count 4294967295`
    /// must not count 10¹³ tokens).
    fn billable_pages(&self, rules: Rules) -> u64 {
        u64::from(self.pages.unwrap_or(1).clamp(1, max_pdf_pages(rules)))
    }

    /// One line about it: `image/png 2000×1008`, `PDF, 3 pages`.
    pub fn describe(&self) -> String {
        match (self.kind, self.size, self.pages) {
            (MediaKind::Image, Some((w, h)), _) => format!("image {w}×{h}"),
            (MediaKind::Image, None, _) => "image (size unknown)".to_owned(),
            (MediaKind::Pdf, _, Some(p)) => format!("PDF, {p} page{}", if p == 1 { "" } else { "s" }),
            (MediaKind::Pdf, _, None) => "PDF".to_owned(),
            (MediaKind::Other, ..) => format!("document {}", self.mime),
        }
    }
}

/// The most pages of one PDF each provider accepts: Anthropic 600 (100 for models with a
/// 200k window; the larger bound is the one that can be billed), Gemini 1,000, OpenAI's
/// file inputs 100. Sources in `docs/tokens.md`.
fn max_pdf_pages(rules: Rules) -> u32 {
    match rules {
        Rules::Anthropic { .. } => 600,
        Rules::Gemini { .. } => 1_000,
        Rules::OpenAi(_) => 100,
    }
}

/// OpenAI high detail on GPT-4o: fit in 2048×2048, shortest side down to 768, 512-px
/// tiles, 85 + 170 a tile.
pub fn openai_image(width: u32, height: u32) -> u64 {
    OpenAiImages::Gpt4o.image(width, height, false)
}

/// The 512-px tiles of an image fitted in 2048×2048 with its shortest side at most 768.
fn openai_tiles(width: u32, height: u32) -> u64 {
    let (mut w, mut h) = (f64::from(width.max(1)), f64::from(height.max(1)));
    let fit = (2048.0 / w.max(h)).min(1.0);
    (w, h) = (w * fit, h * fit);
    let shortest = (768.0 / w.min(h)).min(1.0);
    (w, h) = (w * shortest, h * shortest);
    (w / 512.0).ceil() as u64 * (h / 512.0).ceil() as u64
}

/// The 32-px patches of an image, at most 1,536: a larger image is scaled by
/// `sqrt(1536 × 32² / (w × h))`, then a little more so its width is a whole number of
/// patches, and its patches counted again.
fn openai_patches(width: u32, height: u32) -> u64 {
    const CAP: f64 = 1536.0;
    const PATCH: f64 = 32.0;
    let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
    let patches = |w: f64, h: f64| (w / PATCH).ceil() * (h / PATCH).ceil();
    if patches(w, h) <= CAP {
        return patches(w, h) as u64;
    }
    let shrink = (CAP * PATCH * PATCH / (w * h)).sqrt();
    let (w, h) = (w * shrink, h * shrink);
    let fit = (w / PATCH).floor() / (w / PATCH);
    patches(w * fit, h * fit).min(CAP) as u64
}

fn anthropic_limits(high_res: bool) -> (u32, u64) {
    if high_res {
        (2576, 4784)
    } else {
        (1568, 1568)
    }
}

/// Anthropic: resized to the largest size that keeps the aspect ratio within the long
/// edge and the token cap, then one token per 28×28 patch (edges padded up).
pub fn anthropic_image(width: u32, height: u32, high_res: bool) -> u64 {
    let (max_edge, cap) = anthropic_limits(high_res);
    let patches = |w: u64, h: u64| w.div_ceil(28) * h.div_ceil(28);
    let (w, h) = (u64::from(width.max(1)), u64::from(height.max(1)));
    let long = w.max(h);
    let scaled = |scale: f64| {
        (
            ((w as f64 * scale).floor() as u64).max(1),
            ((h as f64 * scale).floor() as u64).max(1),
        )
    };
    let mut scale = (f64::from(max_edge) / long as f64).min(1.0);
    let (sw, sh) = scaled(scale);
    if patches(sw, sh) <= cap {
        return patches(sw, sh);
    }
    // Shrink until the patches fit the cap: the largest scale that does.
    let (mut lo, mut hi) = (0.0, scale);
    for _ in 0..40 {
        scale = f64::midpoint(lo, hi);
        let (sw, sh) = scaled(scale);
        if patches(sw, sh) <= cap {
            lo = scale;
        } else {
            hi = scale;
        }
    }
    let (sw, sh) = scaled(lo);
    patches(sw, sh)
}

/// Gemini: 258 tokens up to 384×384, else 258 for each 768×768 tile, after a larger
/// image is scaled down to fit 3072×3072 (so one image bills at most 16 tiles).
pub fn gemini_image(width: u32, height: u32) -> u64 {
    const LARGEST: f64 = 3072.0;
    if width <= 384 && height <= 384 {
        return 258;
    }
    let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
    let fit = (LARGEST / w.max(h)).min(1.0);
    let tiles = |side: f64| ((side * fit).round().max(1.0) / 768.0).ceil() as u64;
    tiles(w) * tiles(h) * 258
}

/// The media part `object` is, if it is one: Anthropic `image`/`document` blocks with a
/// base64 (or URL/file) source, OpenAI `image_url` and `file` parts, Responses
/// `input_image`/`input_file` items, Gemini `inlineData`/`fileData` parts.
pub fn media_part(object: &Map<String, Value>) -> Option<Media> {
    let str_at = |o: &Map<String, Value>, k: &str| o.get(k).and_then(Value::as_str).map(str::to_owned);
    let kind = object.get("type").and_then(Value::as_str).unwrap_or_default();
    match kind {
        "image" | "document" => {
            let source = object.get("source")?.as_object()?;
            let data = str_at(source, "data");
            let mime = str_at(source, "media_type").unwrap_or_default();
            if kind == "document" && source.get("type").and_then(Value::as_str) == Some("text") {
                return None; // a plain-text document is counted as text
            }
            Some(from_payload(&mime, data.as_deref(), None))
        }
        "image_url" => {
            let (url, detail) = match object.get("image_url")? {
                Value::String(url) => (url.clone(), None),
                Value::Object(o) => (str_at(o, "url").unwrap_or_default(), str_at(o, "detail")),
                _ => return None,
            };
            Some(from_data_url(&url, detail))
        }
        "input_image" => {
            let url = str_at(object, "image_url").unwrap_or_default();
            Some(from_data_url(&url, str_at(object, "detail")))
        }
        "file" => {
            let file = object.get("file")?.as_object()?;
            Some(from_data_url(&str_at(file, "file_data").unwrap_or_default(), None))
        }
        "input_file" => Some(from_data_url(&str_at(object, "file_data").unwrap_or_default(), None)),
        _ => {
            let inline = object.get("inlineData").or_else(|| object.get("inline_data"));
            // Gemini 3 reads a part's own level beside its data.
            let level = object
                .get("mediaResolution")
                .or_else(|| object.get("media_resolution"))
                .and_then(MediaResolution::parse)
                .map(|level| level.name().to_owned());
            if let Some(inline) = inline.and_then(Value::as_object) {
                let mime = str_at(inline, "mimeType")
                    .or_else(|| str_at(inline, "mime_type"))
                    .unwrap_or_default();
                return Some(from_payload(&mime, str_at(inline, "data").as_deref(), level));
            }
            let file = object.get("fileData").or_else(|| object.get("file_data"));
            let file = file.and_then(Value::as_object)?;
            let mime = str_at(file, "mimeType")
                .or_else(|| str_at(file, "mime_type"))
                .unwrap_or_default();
            Some(from_payload(&mime, None, level))
        }
    }
}

/// A message whose size is mostly binary data (a base64 image or document): what the
/// estimator charges for it is far from what the model sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BinaryHeavy {
    /// Its media parts.
    pub media: Vec<Media>,
    /// Its tokens by the provider's rules (text by `o200k_base`, media by rule).
    pub provider_tokens: u64,
}

/// The media of message `index` when its base64 payloads are more than half of its JSON.
pub fn binary_heavy(transcript: &crate::transcript::Transcript, index: usize) -> Option<BinaryHeavy> {
    use memchr::memmem::Finder;
    use std::sync::LazyLock;
    // Below this a payload cannot make the estimate far off; above it, the searchers are
    // built once, not per message (this runs for every row of `stats` and `--plan`).
    const SMALLEST: usize = 2048;
    static HINTS: LazyLock<[Finder<'static>; 3]> = LazyLock::new(|| {
        [
            Finder::new("base64"),
            Finder::new("inlineData"),
            Finder::new("inline_data"),
        ]
    });
    if transcript.raw(index).len() < SMALLEST {
        return None;
    }
    let request = transcript.request(index);
    let bytes = request.as_bytes();
    if !HINTS.iter().any(|h| h.find(bytes).is_some()) {
        return None;
    }
    let value: Value = serde_json::from_str(&request).ok()?;
    let media = media_in(&value);
    let payload: usize = media.iter().map(|m| m.payload_chars).sum();
    if payload * 2 <= request.len() {
        return None;
    }
    let provider_tokens = crate::tokens::count_request(transcript, crate::tokens::Tokenizer::Provider, &request);
    Some(BinaryHeavy { media, provider_tokens })
}

/// How far the chosen counter is from what the provider bills, on the messages whose size
/// is mostly binary data (images, documents): there the estimators and BPE counters count
/// the base64 text, the provider its rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProviderGap {
    /// The transcript's total by the chosen counter.
    pub counted: u64,
    /// The same total with those messages counted by the provider's rules.
    pub provider: u64,
    /// How many messages make the difference.
    pub messages: usize,
}

impl ProviderGap {
    /// The counted total against the provider's, in percent (`+1900` is twenty times).
    pub fn percent(&self) -> f64 {
        (self.counted as f64 - self.provider as f64) * 100.0 / self.provider.max(1) as f64
    }
}

/// The most two totals may differ, in percent, before the gap is worth a warning.
pub const GAP_WARNING_PERCENT: u64 = 20;

/// The [`ProviderGap`] of `transcript` counted with `counts`, when the two totals differ
/// by more than [`GAP_WARNING_PERCENT`] (`None` when they are close, or `counts` is
/// already the provider's).
pub fn provider_gap(transcript: &crate::transcript::Transcript, counts: &crate::tokens::Counts) -> Option<ProviderGap> {
    HeavySums::of(transcript, counts, 0..transcript.messages.len()).gap(counts)
}

/// What the messages mostly made of binary data add up to, by the chosen counter and by
/// the provider's rules: what a [`ProviderGap`] is judged from. Sums of messages, so a
/// followed log's are kept by taking away those read again and adding those read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct HeavySums {
    /// Their tokens by the chosen counter.
    counted: u64,
    /// Their tokens by the provider's rules.
    provider: u64,
    /// How many there are.
    messages: usize,
}

impl HeavySums {
    /// The sums over `messages` of `transcript` counted with `counts` (none when `counts`
    /// are already the provider's: there is no gap to judge).
    pub fn of(
        transcript: &crate::transcript::Transcript,
        counts: &crate::tokens::Counts,
        messages: std::ops::Range<usize>,
    ) -> HeavySums {
        use rayon::prelude::*;
        if counts.tokenizer == crate::tokens::Tokenizer::Provider {
            return HeavySums::default();
        }
        messages
            .into_par_iter()
            .filter_map(|i| binary_heavy(transcript, i).map(|h| (counts.message(i), h.provider_tokens)))
            .map(|(counted, provider)| HeavySums {
                counted,
                provider,
                messages: 1,
            })
            .reduce(HeavySums::default, HeavySums::plus)
    }

    /// These sums and `other`'s.
    #[must_use]
    pub fn plus(self, other: HeavySums) -> HeavySums {
        HeavySums {
            counted: self.counted + other.counted,
            provider: self.provider + other.provider,
            messages: self.messages + other.messages,
        }
    }

    /// These sums without `part`'s (sums of some of the same messages).
    #[must_use]
    pub fn minus(self, part: HeavySums) -> HeavySums {
        HeavySums {
            counted: self.counted.saturating_sub(part.counted),
            provider: self.provider.saturating_sub(part.provider),
            messages: self.messages.saturating_sub(part.messages),
        }
    }

    /// The gap these sums make in the total of `counts` (the counts they were summed
    /// from), when it is worth a warning (see [`provider_gap`]).
    pub fn gap(&self, counts: &crate::tokens::Counts) -> Option<ProviderGap> {
        let counted = counts.total();
        let provider = counted.saturating_sub(self.counted) + self.provider;
        (counted.abs_diff(provider) * 100 > provider * GAP_WARNING_PERCENT).then_some(ProviderGap {
            counted,
            provider,
            messages: self.messages,
        })
    }
}

/// Every media part in a message value, in order.
pub fn media_in(value: &Value) -> Vec<Media> {
    let mut out = Vec::new();
    collect(value, &mut out);
    out
}

fn collect(value: &Value, out: &mut Vec<Media>) {
    match value {
        Value::Object(o) => match media_part(o) {
            Some(media) => out.push(media),
            None => o.values().for_each(|v| collect(v, out)),
        },
        Value::Array(items) => items.iter().for_each(|v| collect(v, out)),
        _ => {}
    }
}

/// A `data:<mime>;base64,<payload>` URL (or a plain URL: nothing to read).
fn from_data_url(url: &str, detail: Option<String>) -> Media {
    match url.strip_prefix("data:").and_then(|rest| rest.split_once(',')) {
        Some((meta, payload)) => {
            let mime = meta.split(';').next().unwrap_or_default().to_owned();
            from_payload(&mime, Some(payload), detail)
        }
        None => from_payload("", None, detail),
    }
}

fn from_payload(mime: &str, payload: Option<&str>, detail: Option<String>) -> Media {
    let payload = payload.unwrap_or_default();
    let head = decode_prefix(payload, 64 * 1024);
    let kind = if mime == "application/pdf" || head.starts_with(b"%PDF") {
        MediaKind::Pdf
    } else if mime.starts_with("image/") || imagesize::image_type(&head).is_ok() || payload.is_empty() {
        MediaKind::Image
    } else {
        MediaKind::Other
    };
    let size = (kind == MediaKind::Image).then(|| image_size(payload, &head)).flatten();
    let pages = (kind == MediaKind::Pdf && !payload.is_empty())
        .then(|| pdf_pages(&decode_prefix(payload, usize::MAX)))
        .flatten();
    Media {
        kind,
        mime: mime.to_owned(),
        size,
        pages,
        payload_chars: payload.len(),
        detail,
    }
}

/// The dimensions from the header (a JPEG's size marker may sit after a long EXIF block:
/// then the whole payload is read).
fn image_size(payload: &str, head: &[u8]) -> Option<(u32, u32)> {
    let size = imagesize::blob_size(head).or_else(|_| imagesize::blob_size(&decode_prefix(payload, usize::MAX)));
    let size = size.ok()?;
    Some((u32::try_from(size.width).ok()?, u32::try_from(size.height).ok()?))
}

/// The first `max_bytes` (about) of a base64 payload, decoded; what decodes cleanly.
/// Standard and URL-safe alphabets are both read (pydantic-ai sends Gemini base64url).
/// A payload with anything but base64 characters and white space is not base64: it
/// decodes to nothing, so its size is unknown (never a slice inside a character).
fn decode_prefix(payload: &str, max_bytes: usize) -> Vec<u8> {
    let wanted = max_bytes.saturating_mul(4) / 3 + 4;
    let mut clean = String::with_capacity(wanted.min(payload.len()));
    for c in payload.chars().filter(|c| !c.is_ascii_whitespace()).take(wanted) {
        if !c.is_ascii() {
            return Vec::new();
        }
        clean.push(c);
    }
    let usable = clean.len() / 4 * 4;
    let body = &clean[..usable];
    let (padded, unpadded) = if body.contains(['-', '_']) {
        (
            base64::engine::general_purpose::URL_SAFE,
            base64::engine::general_purpose::URL_SAFE_NO_PAD,
        )
    } else {
        (
            base64::engine::general_purpose::STANDARD,
            base64::engine::general_purpose::STANDARD_NO_PAD,
        )
    };
    padded
        .decode(body)
        .or_else(|_| padded.decode(body.trim_end_matches('=')))
        .or_else(|_| unpadded.decode(body.trim_end_matches('=')))
        .unwrap_or_default()
}

/// Pages of a PDF: its `/Type /Page` objects, else the page tree's `/Count`.
fn pdf_pages(pdf: &[u8]) -> Option<u32> {
    let finder = memchr::memmem::Finder::new(b"/Type");
    let mut pages = 0u32;
    for at in finder.find_iter(pdf) {
        let rest = &pdf[at + 5..];
        let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
        if rest.starts_with(b"/Page") && !rest.starts_with(b"/Pages") {
            pages += 1;
        }
    }
    if pages > 0 {
        return Some(pages);
    }
    let count = memchr::memmem::find(pdf, b"/Count")?;
    let digits: String = pdf[count + 6..]
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take_while(|b| b.is_ascii_digit())
        .map(|&b| char::from(b))
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_tiles_follow_the_documented_examples() {
        // "A 1024 x 1024 square image in detail: high mode costs 765 tokens".
        assert_eq!(openai_image(1024, 1024), 765);
        // "A 2048 x 4096 image in detail: high mode costs 1105 tokens".
        assert_eq!(openai_image(2048, 4096), 1105);
    }

    #[test]
    fn openai_patches_follow_the_documented_examples() {
        // "1024 x 1024 … 32 * 32 = 1024, below the cap of 1536".
        assert_eq!(openai_patches(1024, 1024), 1024);
        // "1800 x 2400 … 33 * 44 = 1452".
        assert_eq!(openai_patches(1800, 2400), 1452);
        // gpt-4.1-mini multiplies by 1.62.
        assert_eq!(OpenAiImages::PatchesMini.image(1024, 1024, false), 1659);
    }

    #[test]
    fn the_model_picks_the_openai_family() {
        let of = |m: &str| OpenAiImages::of_model(Some(m));
        assert_eq!(of("gpt-4o-2024-08-06"), OpenAiImages::Gpt4o);
        assert_eq!(of("gpt-4o-mini"), OpenAiImages::Gpt4oMini);
        assert_eq!(of("o3"), OpenAiImages::OSeries);
        assert_eq!(of("gpt-5"), OpenAiImages::Gpt5);
        assert_eq!(of("gpt-5-mini"), OpenAiImages::PatchesMini);
        assert_eq!(of("openai/gpt-4.1-nano"), OpenAiImages::PatchesNano);
        assert_eq!(of("o4-mini"), OpenAiImages::PatchesO4Mini);
        assert_eq!(OpenAiImages::known(Some("llama3.2")), None);
        assert_eq!(OpenAiImages::of_model(None), OpenAiImages::Gpt4o);
        // A 1024×1024 image: 765 on GPT-4o, 630 on GPT-5, 25,501 on gpt-4o-mini.
        assert_eq!(OpenAiImages::Gpt5.image(1024, 1024, false), 70 + 140 * 4);
        assert_eq!(OpenAiImages::Gpt4oMini.image(1024, 1024, false), 2_833 + 5_667 * 4);
        assert_eq!(OpenAiImages::OSeries.image(1024, 1024, true), 75);
    }

    #[test]
    fn gemini_media_resolution_sets_the_tokens_of_an_image_and_a_page() {
        let media = |kind, detail: Option<&str>| Media {
            kind,
            mime: String::new(),
            size: Some((4000, 3000)),
            pages: Some(2),
            payload_chars: 80,
            detail: detail.map(str::to_owned),
        };
        let gemini = |v3, resolution| Rules::Gemini { v3, resolution };
        let image = media(MediaKind::Image, None);
        let pdf = media(MediaKind::Pdf, None);
        // Gemini 3: the request's level; a part's own level wins over it.
        let levels = [(MediaResolution::Low, 280, 280), (MediaResolution::Medium, 560, 560)];
        for (level, per_image, per_page) in levels {
            assert_eq!(image.tokens(gemini(true, Some(level))), per_image, "{level:?}");
            assert_eq!(pdf.tokens(gemini(true, Some(level))), 2 * per_page, "{level:?}");
        }
        assert_eq!(image.tokens(gemini(true, Some(MediaResolution::UltraHigh))), 2_240);
        assert_eq!(pdf.tokens(gemini(true, None)), 2 * 560, "a page's default is medium");
        let part_high = media(MediaKind::Image, Some("MEDIA_RESOLUTION_HIGH"));
        assert_eq!(part_high.tokens(gemini(true, Some(MediaResolution::Low))), 1_120);
        // Gemini 2: 64 at low, 256 otherwise; a part's level is Gemini 3's only.
        assert_eq!(image.tokens(gemini(false, Some(MediaResolution::Low))), 64);
        assert_eq!(image.tokens(gemini(false, Some(MediaResolution::High))), 256);
        assert_eq!(part_high.tokens(gemini(false, Some(MediaResolution::Low))), 64);
        assert_eq!(pdf.tokens(gemini(false, Some(MediaResolution::Medium))), 2 * 256);
    }

    #[test]
    fn media_resolution_is_read_as_the_api_and_the_sdks_write_it() {
        use serde_json::json;
        for written in [
            json!("MEDIA_RESOLUTION_LOW"),
            json!("media_resolution_low"),
            json!({"level": "MEDIA_RESOLUTION_LOW"}),
        ] {
            assert_eq!(
                MediaResolution::parse(&written),
                Some(MediaResolution::Low),
                "{written}"
            );
        }
        assert_eq!(MediaResolution::parse(&json!("MEDIA_RESOLUTION_UNSPECIFIED")), None);
        let part = json!({"inlineData": {"mimeType": "image/png", "data": ""}, "mediaResolution": {"level": "MEDIA_RESOLUTION_ULTRA_HIGH"}});
        let media = media_part(part.as_object().expect("object")).expect("a media part");
        assert_eq!(
            media.tokens(Rules::Gemini {
                v3: true,
                resolution: None
            }),
            2_240
        );
    }

    #[test]
    fn gemini_3_takes_its_default_media_resolution() {
        assert!(gemini_3("gemini-3-pro-preview") && gemini_3("models/gemini-3.1-flash"));
        assert!(!gemini_3("gemini-2.5-flash") && !gemini_3("gemini-1.5-pro"));
        let image = |v3| {
            Media {
                kind: MediaKind::Image,
                mime: "image/png".into(),
                size: Some((4000, 3000)),
                pages: None,
                payload_chars: 80,
                detail: None,
            }
            .tokens(Rules::Gemini { v3, resolution: None })
        };
        assert_eq!(image(true), 1_120);
        assert_eq!(image(false), gemini_image(4000, 3000));
    }

    #[test]
    fn anthropic_patches_and_resizing() {
        // 1000×1000 needs no resize: 36 × 36 patches.
        assert_eq!(anthropic_image(1000, 1000, false), 1296);
        // A large screenshot is resized under both limits.
        let t = anthropic_image(2000, 1008, false);
        assert!(t <= 1568 && t > 1400, "{t}");
        assert!(anthropic_image(4000, 3000, true) <= 4784);
        assert_eq!(anthropic_image(200, 200, false), 64);
    }

    #[test]
    fn gemini_tiles() {
        assert_eq!(gemini_image(384, 384), 258);
        assert_eq!(gemini_image(2000, 1008), 3 * 2 * 258);
        // Scaled down to fit 3072×3072 first: at most 4 × 4 tiles, whatever a header claims.
        assert_eq!(gemini_image(6144, 3072), 4 * 2 * 258);
        assert_eq!(gemini_image(u32::MAX, u32::MAX), 16 * 258);
    }

    #[test]
    fn every_rule_caps_one_image_and_one_document() {
        let forged = |kind, size, pages| Media {
            kind,
            mime: String::new(),
            size,
            pages,
            payload_chars: 80,
            detail: None,
        };
        let rules = OpenAiImages::ALL.map(Rules::OpenAi).into_iter().chain([
            Rules::Anthropic { high_res: false },
            Rules::Anthropic { high_res: true },
            Rules::Gemini {
                v3: false,
                resolution: None,
            },
            Rules::Gemini {
                v3: true,
                resolution: Some(MediaResolution::UltraHigh),
            },
        ]);
        for rules in rules {
            let image = forged(MediaKind::Image, Some((u32::MAX, u32::MAX)), None).tokens(rules);
            // gpt-4o-mini bills its largest image (8 tiles) at 2,833 + 8 × 5,667.
            let most = if rules == Rules::OpenAi(OpenAiImages::Gpt4oMini) {
                48_169
            } else {
                5_000
            };
            assert!(image <= most, "{rules:?}: {image}");
            let pdf = forged(MediaKind::Pdf, None, Some(u32::MAX)).tokens(rules);
            assert!(pdf <= 600 * PDF_PAGE_TOKENS, "{rules:?}: {pdf}");
        }
    }

    #[test]
    fn a_payload_that_is_not_base64_has_no_size() {
        // Non-ASCII text where base64 should be: nothing decodes (this once sliced a
        // String inside the euro sign and panicked).
        for payload in ["€€".to_owned(), format!("{}€€", "A".repeat(3000)), "AAA€".to_owned()] {
            assert!(decode_prefix(&payload, 64 * 1024).is_empty(), "{payload:.20}");
            let media = from_payload("image/png", Some(&payload), None);
            assert_eq!((media.kind, media.size), (MediaKind::Image, None));
        }
    }

    #[test]
    fn url_safe_base64_reads_like_standard_base64() {
        // A 1×1 PNG whose standard encoding holds `+` and `/`, and its base64url twin.
        let bytes: Vec<u8> = (0u8..=255).collect();
        let standard = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let url_safe = base64::engine::general_purpose::URL_SAFE.encode(&bytes);
        assert!(standard.contains(['+', '/']) && url_safe.contains(['-', '_']));
        assert_eq!(decode_prefix(&standard, 1 << 20), bytes);
        assert_eq!(decode_prefix(&url_safe, 1 << 20), bytes);
    }

    #[test]
    fn media_parts_are_recognized_in_every_dialect() {
        // A 1×1 PNG.
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
        let anthropic =
            serde_json::json!({"type":"image","source":{"type":"base64","media_type":"image/png","data":png}});
        let openai = serde_json::json!({"type":"image_url","image_url":{"url":format!("data:image/png;base64,{png}"),"detail":"low"}});
        let gemini = serde_json::json!({"inlineData":{"mimeType":"image/png","data":png}});
        for part in [anthropic, openai, gemini] {
            let media = media_part(part.as_object().expect("object")).expect("media");
            assert_eq!((media.kind, media.size), (MediaKind::Image, Some((1, 1))), "{part}");
        }
        let text = serde_json::json!({"type":"text","text":"hi"});
        assert!(media_part(text.as_object().expect("object")).is_none());
    }
}
