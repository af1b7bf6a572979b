//! Gemini's `media_resolution`: a request sets it for all its parts, and the provider
//! bills its images and PDF pages by it. Read where the transcript is loaded (a
//! request's `generationConfig`); counted by `tokens::media`.

use serde_json::Value;

/// Gemini's `media_resolution` level: how many tokens a picture or a PDF page may take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MediaResolution {
    /// `MEDIA_RESOLUTION_LOW`.
    Low,
    /// `MEDIA_RESOLUTION_MEDIUM`.
    Medium,
    /// `MEDIA_RESOLUTION_HIGH`.
    High,
    /// `MEDIA_RESOLUTION_ULTRA_HIGH` (Gemini 3, per part).
    UltraHigh,
}

impl MediaResolution {
    /// Every level, in the order [`MediaResolution::index`] numbers them.
    pub const ALL: [MediaResolution; 4] = [
        MediaResolution::Low,
        MediaResolution::Medium,
        MediaResolution::High,
        MediaResolution::UltraHigh,
    ];

    /// Its position in [`MediaResolution::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The level a request or part names: `MEDIA_RESOLUTION_LOW`, `media_resolution_low`
    /// or `low`, as a string or as `{"level": …}`; `UNSPECIFIED` and anything else: none.
    pub fn parse(value: &Value) -> Option<MediaResolution> {
        let name = match value {
            Value::String(s) => s.as_str(),
            Value::Object(o) => o.get("level")?.as_str()?,
            _ => return None,
        };
        let name = name.to_ascii_lowercase();
        match name.strip_prefix("media_resolution_").unwrap_or(&name) {
            "low" => Some(MediaResolution::Low),
            "medium" => Some(MediaResolution::Medium),
            "high" => Some(MediaResolution::High),
            "ultra_high" => Some(MediaResolution::UltraHigh),
            _ => None,
        }
    }

    /// Its name as Google's API writes it.
    pub fn name(self) -> &'static str {
        match self {
            MediaResolution::Low => "MEDIA_RESOLUTION_LOW",
            MediaResolution::Medium => "MEDIA_RESOLUTION_MEDIUM",
            MediaResolution::High => "MEDIA_RESOLUTION_HIGH",
            MediaResolution::UltraHigh => "MEDIA_RESOLUTION_ULTRA_HIGH",
        }
    }
}
