//! Plain-text formatting shared by the commands: thousands separators, fixed-width
//! columns, and short id lists.

/// `4752` → `4,752`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Ids joined with commas, cut to `max` characters with an ellipsis.
pub fn id_list(prefix: &str, ids: &[&str], max: usize) -> String {
    if ids.is_empty() {
        return String::new();
    }
    let full = format!("{prefix}{}", ids.join(","));
    truncate(&full, max)
}

/// `text` cut to `max` characters, ending in `…` when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(4752), "4,752");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn lists_are_truncated() {
        assert_eq!(id_list("→", &["c1", "c2"], 20), "→c1,c2");
        assert_eq!(id_list("→", &["abcdef", "ghijkl"], 6), "→abcd…");
        assert_eq!(id_list("→", &[], 6), "");
    }
}
