//! The enums a user names — on the command line, in `.ctxlens.toml`, in JSON, from
//! Python: each lists its values once ([`Named::ALL`], [`Named::name`]) and every front
//! end parses, completes and documents them from that list, so no front end keeps a
//! mirror that can fall behind.

/// An enum whose values have names.
pub trait Named: Copy + Sized + 'static {
    /// What one value is called in a message (`tokenizer`, `format`…).
    const KIND: &'static str;
    /// Every value, in the order lists and completions show them.
    const ALL: &'static [Self];

    /// The value's name.
    fn name(self) -> &'static str;

    /// Other spellings accepted for a value (`deterministic+tail`); none by default.
    fn alias(_text: &str) -> Option<Self> {
        None
    }
}

/// Every name of `T`, in [`Named::ALL`]'s order.
pub fn names<T: Named>() -> Vec<&'static str> {
    T::ALL.iter().map(|v| v.name()).collect()
}

/// The JSON Schema of a document's string that holds one of `T`'s names (a field kept as
/// the name, `&'static str`, rather than the enum): `{"type": "string", "enum": [...]}`.
#[cfg(feature = "schema")]
pub fn schema<T: Named>(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({ "type": "string", "enum": names::<T>() })
}

/// The value of `T` called `text`, else an error listing the names.
pub fn parse<T: Named>(text: &str) -> crate::Result<T> {
    T::ALL
        .iter()
        .copied()
        .find(|v| v.name() == text)
        .or_else(|| T::alias(text))
        .ok_or_else(|| crate::Error::UnknownName {
            kind: T::KIND,
            name: text.to_owned(),
            known: names::<T>(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent_config::Kind;
    use crate::compact::{Strategy, SummaryRole};
    use crate::tokens::Tokenizer;
    use crate::transcript::{FormatOverride, Provider};

    /// Every value's name parses back to it, and the names are distinct.
    fn round_trips<T: Named + PartialEq + std::fmt::Debug>() {
        for &value in T::ALL {
            assert_eq!(parse::<T>(value.name()).ok(), Some(value), "{}", value.name());
        }
        let mut all = names::<T>();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), T::ALL.len(), "{} names repeat", T::KIND);
    }

    #[test]
    fn each_named_enum_parses_its_own_names() {
        round_trips::<Tokenizer>();
        round_trips::<FormatOverride>();
        round_trips::<Provider>();
        round_trips::<Kind>();
        round_trips::<Strategy>();
        round_trips::<SummaryRole>();
        round_trips::<crate::transcript::CountMode>();
        round_trips::<crate::breakdown::By>();
    }

    #[test]
    fn an_unknown_name_is_refused_with_the_list() {
        let error = parse::<Provider>("azure").err().map(|e| e.to_string());
        assert_eq!(
            error.as_deref(),
            Some("unknown provider `azure` (one of: openai, anthropic, gemini, responses)")
        );
        assert_eq!(
            parse::<Strategy>("deterministic+tail").ok(),
            Some(Strategy::DeterministicThenTail)
        );
    }
}
