//! A message's top-level entries as written, and an object made back from some of them:
//! the request views of the dialects keep or rename keys without reformatting values.

use std::borrow::Cow;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

/// The top-level entries of a JSON object, in order, values as written.
pub(super) fn entries(raw: &str) -> Option<Vec<(Cow<'_, str>, &RawValue)>> {
    struct Entries;
    impl<'de> Visitor<'de> for Entries {
        type Value = Vec<(Cow<'de, str>, &'de RawValue)>;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("a JSON object")
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Vec::new();
            while let Some(key) = map.next_key::<Cow<'de, str>>()? {
                out.push((key, map.next_value::<&RawValue>()?));
            }
            Ok(out)
        }
    }
    let mut deserializer = serde_json::Deserializer::from_str(raw);
    deserializer.deserialize_map(Entries).ok()
}

/// `{"key":value,…}` from entries (values as written).
pub(super) fn object<'a>(entries: impl IntoIterator<Item = (Cow<'a, str>, Cow<'a, str>)>) -> String {
    let mut out = String::from("{");
    for (k, (key, value)) in entries.into_iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        out.push_str(&serde_json::to_string(key.as_ref()).unwrap_or_default());
        out.push(':');
        out.push_str(&value);
    }
    out.push('}');
    out
}

/// `raw` with only `keys` kept (in their order as written), or `None` when it has no
/// other key.
pub(super) fn keep_keys(raw: &str, keys: &[&str]) -> Option<String> {
    let all = entries(raw)?;
    if all.iter().all(|(k, _)| keys.contains(&k.as_ref())) {
        return None;
    }
    Some(object(
        all.into_iter()
            .filter(|(k, _)| keys.contains(&k.as_ref()))
            .map(|(k, v)| (k, Cow::Borrowed(v.get()))),
    ))
}
