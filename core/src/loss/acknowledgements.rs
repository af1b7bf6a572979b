//! The vocabulary of chatter beyond English: acknowledgements and thanks in the languages
//! users write to agents in (the scripts without spaces as whole words), laughter, the
//! notes of someone stepping away, and the go-ahead idioms — and what makes a short turn
//! with an emoji a reaction rather than a request. [`super::turns::classify`] reads them;
//! the rules are stated in `docs/replay.md` (Human turns).
//!
//! Only words that say nothing else alone belong here: no verb of a request, no noun a
//! project could be about.

/// Thanks and acknowledgements, lowercased, beyond the English and Romance ones the turn
/// classifier already holds: Germanic, Slavic, Turkish, Russian, and the words of Japanese,
/// Chinese and Korean that a turn is made of alone (those scripts are not cut at spaces).
const THANKS_AND_YES: &[&str] = &[
    // Italian, Portuguese, Spanish, French, German beyond the first list
    "mille",
    "benissimo",
    "fantastico",
    "massa",
    "demais",
    "ouais",
    "bon",
    "klasse",
    "spitze",
    "mega",
    "jo",
    "jep",
    "jawohl",
    "vielen",
    "dank",
    "alles",
    "läuft",
    // English thanks the first lists lack (British, slang)
    "ta",
    "cheers",
    "legend",
    "champ",
    "hero",
    "you're",
    "youre",
    // Dutch, Swedish, Danish, Norwegian
    "tak",
    "bedankt",
    "dankjewel",
    "dankje",
    "mooi",
    "goed",
    "oké",
    "oke",
    "prima",
    "tack",
    "toppen",
    "kanon",
    "bra",
    "perfekt",
    "takk",
    "fint",
    // Polish, Czech, Slovak
    "dzięki",
    "dziękuję",
    "dzieki",
    "dziekuje",
    "spoko",
    "świetnie",
    "swietnie",
    "okej",
    "díky",
    "diky",
    "děkuji",
    "dekuji",
    "dík",
    "skvělé",
    "skvele",
    "paráda",
    "parada",
    "dobře",
    "dobre",
    "ďakujem",
    // Turkish
    "teşekkürler",
    "teşekkür",
    "tesekkurler",
    "sağol",
    "sagol",
    "tamam",
    "harika",
    "süper",
    "eyvallah",
    // Russian, Ukrainian
    "спасибо",
    "дякую",
    "ок",
    "окей",
    "отлично",
    "супер",
    "класс",
    "понял",
    "ага",
    "да",
    // Japanese
    "ありがとう",
    "ありがとうございます",
    "ありがとうございました",
    "どうも",
    "了解",
    "了解です",
    "りょ",
    "おk",
    "おけ",
    "おっけー",
    "オッケー",
    "いいね",
    "完璧",
    "素晴らしい",
    "すごい",
    "はい",
    // Chinese
    "谢谢",
    "多谢",
    "好的",
    "好",
    "收到",
    "太好了",
    "完美",
    "棒",
    "可以",
    "明白",
    // Korean
    "감사합니다",
    "고마워",
    "고마워요",
    "좋아요",
    "좋아",
    "완벽해요",
    "네",
    "넵",
    "알겠습니다",
];

/// Laughter, in the forms users type it.
const LAUGHTER: &[&str] = &[
    "haha",
    "hahaha",
    "hehe",
    "hihi",
    "lol",
    "lmao",
    "rofl",
    "jaja",
    "jajaja",
    "kkk",
    "kkkk",
    "mdr",
    "xd",
    "ㅋㅋ",
    "ㅋㅋㅋ",
    "哈哈",
    "笑",
    "www",
];

/// Words a turn that only reacts, or steps away, opens with ("brb coffee", "damn that was
/// fast", "omg it works").
pub const REACTING: &[&str] = &[
    "brb", "afk", "bbl", "damn", "dang", "omg", "whoa", "woah", "wooo", "hehe", "hihi", "lmao", "jaja", "bravo",
    "yesss", "woot",
];

/// Go-ahead idioms: a turn of these says "carry on", nothing more ("lets go", "bora",
/// "ship it", "allez", "vamos").
const GO_AHEAD: &[&str] = &["bora", "vamos", "allez", "andiamo", "dai", "ship", "lets", "let's"];

/// Whether `word` (lowercased) is one of the acknowledgements, laughter or go-ahead words
/// of this module.
pub fn is_acknowledgement(word: &str) -> bool {
    THANKS_AND_YES.contains(&word) || LAUGHTER.contains(&word) || GO_AHEAD.contains(&word)
}

/// Whether `c` is an emoji or a pictograph (faces, hands, objects, symbols, the hearts
/// and stars of the older blocks).
pub fn is_emoji(c: char) -> bool {
    matches!(c as u32,
        0x1F300..=0x1FAFF | 0x2600..=0x27BF | 0x1F000..=0x1F2FF | 0x2B50 | 0x2B55)
}

/// The most words a reaction with an emoji has ("ship it 🚀", "hehe nice 😄").
pub const LONGEST_REACTION: usize = 4;

/// The most words of an aside: a remark about something else, marked as one by laughter,
/// a sigh or an emoji ("coffee machine died this morning, today is going to be long 😩",
/// "my cat walked across the keyboard, ignore that lol").
pub const LONGEST_ASIDE: usize = 14;

/// The words that mark a turn as an aside (laughter, a sigh).
const ASIDE_MARKS: &[&str] = &[
    "lol", "lmao", "rofl", "haha", "hahaha", "hehe", "ugh", "meh", "jaja", "mdr", "xd",
];

/// Whether `tokens` (lowercased words) or `text` carry a mark of an aside: laughter, a
/// sigh, an emoji.
pub fn marks_an_aside(tokens: &[String], text: &str) -> bool {
    tokens.iter().any(|w| ASIDE_MARKS.contains(&w.as_str())) || text.chars().any(is_emoji)
}

/// Request words that keep a short turn with an emoji a request ("no emojis 🙏", "please
/// rerun 🙏", "never push to main 🚫"): the asking words of a constraint or an order, not
/// the "let's" of "let's go".
pub const STILL_ASKS: &[&str] = &[
    "please", "pls", "plz", "can", "could", "would", "should", "must", "need", "want", "don't", "dont", "do", "make",
    "use", "add", "remove", "fix", "change", "check", "create", "update", "write", "run", "try", "keep", "avoid",
    "never", "always", "stop", "instead", "not", "no", "without", "except", "only",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emoji_are_told_from_letters_and_punctuation() {
        for c in ['🚀', '😄', '☕', '🙏', '👍', '❤', '✅', '⭐'] {
            assert!(is_emoji(c), "{c}");
        }
        for c in ['a', 'é', 'お', '!', '→', '€', '-'] {
            assert!(!is_emoji(c), "{c}");
        }
    }

    #[test]
    fn the_vocabularies_say_nothing_but_yes_thanks_or_go() {
        for word in [
            "dzięki",
            "ありがとうございます",
            "谢谢",
            "감사합니다",
            "mille",
            "jo",
            "haha",
            "bora",
        ] {
            assert!(is_acknowledgement(word), "{word}");
        }
        for word in ["deploy", "cache", "tests", "テスト", "缓存"] {
            assert!(!is_acknowledgement(word), "{word}");
        }
    }
}
