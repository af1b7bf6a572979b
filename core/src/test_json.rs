//! Arbitrary JSON values for the property tests that read JSON text (the estimator's
//! walk, the structural split): strings full of what those scans must get right —
//! quotes, backslashes, brackets and commas, line breaks, control and non-ASCII
//! characters — nested in arrays and objects.

use proptest::prelude::*;

/// Any JSON value, up to a few levels deep.
pub(crate) fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        "[a-z é日😀\"\\\\\n\t/\u{2028}\u{1}\u{7f}\u{1f}\\[\\]{},:]{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
            proptest::collection::vec(("[a-z\"é,\\]]{0,6}", inner), 0..6)
                .prop_map(|kv| serde_json::Value::Object(kv.into_iter().collect())),
        ]
    })
}
