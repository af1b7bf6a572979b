//! Which language a turn is in, as far as the loss report needs to know: English (the
//! language summaries are written in) or another one, told from the function words it
//! uses and its script; and a word's letters without their accents, so that a cognate
//! reads the same in both (`hábito` and `habit`, `clímatologia` and `climatology`).
//!
//! A turn in another language cannot be judged by how many of its words a summary holds:
//! a faithful English restatement shares almost none. [`super::listed`] judges such a turn
//! by what crosses languages instead.

/// Function words of English that no other language users write to agents in spells the
/// same way.
const ENGLISH: &[&str] = &[
    "the", "and", "of", "is", "are", "it", "this", "that", "with", "for", "be", "should", "must", "we", "you", "my",
    "our", "your", "when", "if", "not", "but", "all", "from", "at", "by", "so", "any", "each", "every", "only",
    "don't", "dont", "never", "always", "please", "than", "then", "there", "they", "them", "these", "those", "was",
    "were", "has", "have", "will", "would", "can", "could", "just", "also", "into", "which", "what", "how", "why",
    "where", "it's", "let's", "keep", "make", "use", "want", "need",
];

/// Function words of the other languages users write in (Portuguese, Spanish, French,
/// Italian, German, Dutch, Swedish, Polish, Czech, Turkish) that are not English words.
const ELSEWHERE: &[&str] = &[
    // Portuguese, Spanish
    "que", "não", "nao", "de", "da", "dos", "das", "um", "uma", "una", "uno", "para", "por", "com", "sem", "pra", "los",
    "las", "el", "la", "es", "está", "sí", "también", "pero", "muy", "em", "nas", "nos", "ao", "cada", "mais", "más",
    "se", "tem", "ser", "esse", "essa", "este", "esta", "isso", "eso", "hay", "sin", "del", "al", "lo",
    // French
    "le", "les", "des", "du", "une", "et", "est", "pas", "ne", "sur", "avec", "pour", "dans", "au", "aux", "je", "nous",
    "vous", "il", "ce", "cette", "qui", "mais", "ou", "sont", "faut", "être", // Italian
    "gli", "di", "della", "delle", "del", "che", "con", "sono", "anche", "nel", "nella", "alla", "ogni", "questo",
    "questa", "tutto", "perché", "più", "va", "non", // German
    "der", "das", "und", "nicht", "mit", "ist", "ein", "eine", "auf", "für", "zu", "im", "dem", "den", "bitte", "kein",
    "keine", "auch", "oder", "wenn", "immer", "nie", "nur", "soll", "muss", "bei", "vom", "zum", // Dutch
    "het", "een", "niet", "van", "voor", "met", "ik", "je", "wij", "zijn", "ook", "geen", "bij", "naar", "wordt",
    "moet", "altijd", "nooit", "alleen", // Swedish
    "och", "att", "inte", "för", "jag", "det", "som", "på", "med", "är", "ett", "aldrig", "alltid", "bara",
    // Polish, Czech
    "się", "jest", "że", "jak", "ale", "tylko", "dla", "po", "od", "nigdy", "zawsze", "bez", "jen", "pro", "nebo",
    "když", "vždy", // Turkish
    "ve", "bir", "bu", "için", "ile", "değil", "ama", "her", "asla",
];

/// Whether `text` is written in another language than English: mostly in another
/// script, or with more of the other languages' function words than English ones (at
/// least one).
pub fn is_foreign(text: &str) -> bool {
    let (mut latin, mut other) = (0usize, 0usize);
    for c in text.chars().filter(|c| c.is_alphabetic()) {
        if is_latin(c) {
            latin += 1;
        } else {
            other += 1;
        }
    }
    if other > latin {
        return true;
    }
    let (english, elsewhere) = function_words(text);
    elsewhere > english
}

/// How many of `text`'s words are English function words, and how many are another
/// language's.
fn function_words(text: &str) -> (usize, usize) {
    let (mut english, mut elsewhere) = (0, 0);
    for word in text
        .split(|c: char| !(c.is_alphabetic() || c == '\''))
        .filter(|w| !w.is_empty())
    {
        let word = word.to_lowercase();
        if ENGLISH.contains(&word.as_str()) {
            english += 1;
        } else if ELSEWHERE.contains(&word.as_str()) {
            elsewhere += 1;
        }
    }
    (english, elsewhere)
}

fn is_latin(c: char) -> bool {
    c.is_ascii_alphabetic() || ('\u{00C0}'..='\u{024F}').contains(&c)
}

/// `word` (lowercase) with the accents and marks of the Latin alphabets taken off (`ç` is
/// `c`, `ł` is `l`, `ß` is `ss`); other letters as they are.
pub fn without_accents(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ą' | 'ă' => out.push('a'),
            'ç' | 'ć' | 'č' => out.push('c'),
            'ď' => out.push('d'),
            'è' | 'é' | 'ê' | 'ë' | 'ę' | 'ě' => out.push('e'),
            'ğ' => out.push('g'),
            'ì' | 'í' | 'î' | 'ï' | 'ı' => out.push('i'),
            'ł' => out.push('l'),
            'ñ' | 'ń' | 'ň' => out.push('n'),
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ő' => out.push('o'),
            'ř' => out.push('r'),
            'ś' | 'š' | 'ş' => out.push('s'),
            'ß' => out.push_str("ss"),
            'ť' | 'ţ' => out.push('t'),
            'ù' | 'ú' | 'û' | 'ü' | 'ů' | 'ű' => out.push('u'),
            'ý' | 'ÿ' => out.push('y'),
            'ź' | 'ż' | 'ž' => out.push('z'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_in_another_language_is_told_by_its_function_words_or_script() {
        for foreign in [
            "no heatmap a semana começa na segunda, não no domingo",
            "non ricalcolare la climatologia ogni volta che si riapre il notebook",
            "keine Client-seitigen Fetches, lade in +page.server.ts",
            "het aanmeldformulier: naam, e-mail en maximaal 4 personen",
            "ビルドは毎晩2時に実行して",
        ] {
            assert!(is_foreign(foreign), "{foreign}");
        }
        for english in [
            "never modify third_party/ (vendored, overwritten by scripts/sync_vendor.sh)",
            "use defmt for logging, not rtt-target println",
            "Flyway migration; never edit an applied migration",
            "C++20 with -fno-exceptions",
        ] {
            assert!(!is_foreign(english), "{english}");
        }
    }

    #[test]
    fn accents_come_off_latin_letters_only() {
        assert_eq!(without_accents("hábito"), "habito");
        assert_eq!(without_accents("sequência"), "sequencia");
        assert_eq!(without_accents("dzięki"), "dzieki");
        assert_eq!(without_accents("straße"), "strasse");
        assert_eq!(without_accents("ありがとう"), "ありがとう");
    }
}
