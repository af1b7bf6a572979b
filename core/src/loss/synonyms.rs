//! Words that mean the same thing in the requests people give a coding agent, read as one
//! word: a summary that says "verify the config" restates "check the settings". Each
//! group is one meaning, named by its first word; a word maps to its group's name after
//! the light stem of [`super::meaning`] (so `docs` arrives as `doc`, `deleting` as
//! `delet`). Both sides of a comparison (the turn, and the summary or later message) go
//! through the same map, so a group only ever makes two texts closer.
//!
//! What belongs here: abbreviations a developer writes for a word (`repo`, `config`,
//! `dir`), and verbs or adjectives a summary uses in place of the user's with the same
//! effect on what the agent must do (`remove`/`delete`, `keep`/`preserve`). What does not:
//! words related but not interchangeable in an instruction (`add` is not `create`, `test`
//! is not `spec`, `never` is not `avoid` once negation is dropped).

/// The groups: each line is one meaning, its name first. Stems as [`super::meaning`]
/// makes them (lowercase; `-s`, `-ing`, `-ed`, `-ly` cut on long enough words).
const GROUPS: &[&[&str]] = &[
    // Abbreviations of things in a repository.
    &["document", "doc", "documentation", "docu"],
    &["directory", "dir", "folder"],
    &["repository", "repo"],
    &["configuration", "config", "cfg", "conf", "setting"],
    &["function", "func", "fn"],
    &["parameter", "param", "argument", "arg"],
    &["variable", "var"],
    &["database", "db"],
    &["message", "msg"],
    &["error", "err"],
    &["environment", "env"],
    &["authentication", "auth"],
    &["information", "info"],
    &["package", "pkg"],
    &["library", "lib"],
    &["application", "app"],
    &["dependency", "dep"],
    &["image", "img", "picture", "pic", "screenshot"],
    &["number", "num"],
    &["maximum", "max"],
    &["minimum", "min"],
    &["previous", "prev", "prior"],
    &["navigation", "nav"],
    &["evaluation", "eval"],
    // Numbers written out (not `one`, which is as often a pronoun), in English and in
    // the languages users write in — not the words that are also an article or a
    // preposition (`uno`, `ein`, `een`, Portuguese `dos`), nor `due`, `sei` or `tien`.
    &[
        "2", "two", "twice", "zwei", "twee", "deux", "dois", "duas", "dwa", "dva",
    ],
    &[
        "3", "three", "drei", "drie", "trois", "tres", "três", "tre", "trzy", "tři",
    ],
    &[
        "4", "four", "vier", "quatre", "cuatro", "quatro", "quattro", "cztery", "čtyři",
    ],
    &["5", "five", "fünf", "vijf", "cinq", "cinco", "cinque", "pięć", "pět"],
    &["6", "six", "sechs", "zes", "seis"],
    &[
        "7", "seven", "sieben", "zeven", "sept", "siete", "sete", "sette", "siedem", "sedm",
    ],
    &["8", "eight", "acht", "huit", "ocho", "oito", "otto", "osiem", "osm"],
    &[
        "9",
        "nine",
        "neun",
        "negen",
        "neuf",
        "nueve",
        "nove",
        "dziewięć",
        "devět",
    ],
    &["10", "ten", "zehn", "dix", "diez", "dez", "dieci", "dziesięć", "deset"],
    &["11", "eleven", "elf", "onze", "once", "undici"],
    &["12", "twelve", "zwölf", "twaalf", "douze", "doce", "dodici"],
    &["15", "fifteen", "fünfzehn", "vijftien", "quinze", "quince", "quindici"],
    &[
        "20", "twenty", "zwanzig", "twintig", "vingt", "veinte", "vinte", "venti",
    ],
    &["24", "twenty-four"],
    &[
        "30", "thirty", "dreißig", "dertig", "trente", "treinta", "trinta", "trenta",
    ],
    &[
        "40", "forty", "vierzig", "veertig", "quarante", "cuarenta", "quarenta", "quaranta",
    ],
    &[
        "50",
        "fifty",
        "fünfzig",
        "vijftig",
        "cinquante",
        "cincuenta",
        "cinquenta",
        "cinquanta",
    ],
    &[
        "60", "sixty", "sechzig", "zestig", "soixante", "sesenta", "sessenta", "sessanta",
    ],
    &["100", "hundred", "hundert", "honderd", "cent", "cien", "cem", "cento"],
    // Verbs a summary swaps for the user's.
    &[
        "remove",
        "remov",
        "delete",
        "delet",
        "drop",
        "rm",
        "eliminate",
        "eliminat",
        "strip",
    ],
    &[
        "modify", "modifi", "alter", "edit", "tweak", "adjust", "change", "chang", "update", "updat",
    ],
    &[
        "use", "using", "used", "utilize", "utiliz", "utilise", "employ", "leverage",
    ],
    &["run", "ran", "execute", "execut", "exec"],
    &["show", "display", "render"],
    &[
        "verify", "verifi", "check", "validate", "validat", "ensure", "ensur", "confirm",
    ],
    &["keep", "kept", "preserve", "preserv", "retain", "maintain"],
    &[
        "skip", "skipp", "ignore", "ignor", "omit", "omitt", "exclude", "exclud", "bypass",
    ],
    &["create", "creat", "generate", "generat"],
    &["explain", "describe", "describ", "clarify", "clarifi"],
    &["begin", "start", "initiate", "initiat"],
    // Adjectives.
    &["short", "brief", "concise", "terse", "succinct"],
    &["large", "big", "huge"],
    &["small", "tiny"],
    &["fast", "quick", "rapid", "speedy"],
    &["parallel", "concurrent", "simultaneous"],
    &["sequential", "serial", "consecutive"],
    &["existing", "exist", "current"],
    &["new", "separate", "separat", "additional", "extra"],
    &["limit", "cap", "restrict", "bound"],
    &["iterate", "iterat", "loop", "traverse", "travers"],
    &["individual", "single"],
    &["inside", "internal", "within"],
    &["height", "tall"],
    &["bug", "issue", "problem", "defect"],
];

/// Every way `word` (a group's name, or any word) may be written: its group's members,
/// or the word alone. A search that looks for a word's letters in raw text before it
/// reads words (the filter of lines after a compaction) looks for each of these.
pub fn spellings(word: &str) -> Vec<&str> {
    match GROUPS.iter().find(|group| group[0] == word) {
        Some(group) => group.to_vec(),
        None => vec![word],
    }
}

/// The group name of `word` (a stem), when it has one other than itself.
pub fn canonical(word: &str) -> Option<&'static str> {
    static MAP: std::sync::LazyLock<rustc_hash::FxHashMap<&'static str, &'static str>> =
        std::sync::LazyLock::new(|| {
            let mut map = rustc_hash::FxHashMap::default();
            for group in GROUPS {
                for &member in &group[1..] {
                    map.insert(member, group[0]);
                }
            }
            map
        });
    MAP.get(word).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abbreviations_and_swapped_verbs_read_as_one_word() {
        assert_eq!(canonical("repo"), Some("repository"));
        assert_eq!(canonical("doc"), Some("document"));
        assert_eq!(canonical("delet"), Some("remove"));
        assert_eq!(canonical("remov"), Some("remove"), "removing, removed");
        assert_eq!(canonical("preserv"), Some("keep"));
        assert_eq!(canonical("remove"), None, "a group's name is itself");
        assert_eq!(canonical("add"), None, "add is not create");
        assert_eq!(canonical("avoid"), None, "avoid is not never");
    }

    #[test]
    fn a_meaning_is_sought_in_every_spelling() {
        assert!(spellings("document").contains(&"doc"));
        assert_eq!(spellings("tabs"), vec!["tabs"]);
    }

    #[test]
    fn no_word_is_in_two_groups() {
        let mut seen = std::collections::HashMap::new();
        for group in GROUPS {
            for &member in &group[1..] {
                if let Some(other) = seen.insert(member, group[0]) {
                    assert_eq!(other, group[0], "{member} is in two groups");
                }
            }
        }
    }
}
