//! Helpers shared by the fuzz targets (each target uses only some of them).
#![allow(dead_code)]

use std::sync::LazyLock;

use applyscope::engine::Value;
use applyscope::engine::schema::{Meta, Schema};
use applyscope::engine::smp;

/// Inputs holding several documents separate them with a 0xFF byte (never valid UTF-8, so it
/// cannot occur inside a document).
pub const SEP: u8 = 0xFF;

/// Split the input into exactly `n` parts on [`SEP`]; `None` if it has fewer parts. Extra
/// separators stay in the last part (which then is not UTF-8 and is skipped).
pub fn split_n(data: &[u8], n: usize) -> Option<Vec<&[u8]>> {
    let parts: Vec<&[u8]> = data.splitn(n, |b| *b == SEP).collect();
    (parts.len() == n).then_some(parts)
}

/// One document as the strategic merge engine decodes JSON (`smp::parse_json`); `None` when the
/// bytes are not UTF-8 or not a JSON object.
pub fn json_doc(bytes: &[u8]) -> Option<Value> {
    let text = std::str::from_utf8(bytes).ok()?;
    smp::parse_json(text).ok()
}

/// The schema of the conformance vectors (apimachinery's `mergeItem` test type), so the seeds
/// taken from them reach the merge-key, retainKeys and primitive-list code paths.
static MERGE_ITEM: LazyLock<Schema> = LazyLock::new(|| {
    // Read from ../shared (third-party data, not copied into the repo); fuzzing runs where it is.
    let doc: Value = serde_json::from_str(include_str!(
        "../../../../shared/conformance/schema/swagger-merge-item.strict.json"
    ))
        .expect("the mergeItem schema is JSON");
    Schema::from_openapi(&doc).expect("the mergeItem schema loads")
});

/// The metadata every document pair is run under: a built-in kind (Deployment, from the embedded
/// Kubernetes schema), no metadata at all (opaque, as for untyped fields), and the conformance
/// vectors' `mergeItem`.
pub fn metas() -> [(&'static str, Meta<'static>); 3] {
    [
        (
            "apps/v1 Deployment",
            Schema::embedded()
                .root_for_gvk("apps/v1", "Deployment")
                .expect("the embedded schema has apps/v1 Deployment"),
        ),
        ("opaque", Meta::opaque()),
        (
            "mergeItem",
            MERGE_ITEM.root("mergeItem").expect("mergeItem is defined"),
        ),
    ]
}

/// Is `v` "simple" enough for `apply(o, diff2(o, m)) == m` to be expected to hold?
/// - no `null` anywhere (a `null` in `m` is a deletion directive, not a value);
/// - no key starting with `$` (patch directives: `$patch`, `$retainKeys`, `$setElementOrder/…`);
/// - in every list, items are pairwise distinct, and, for lists of objects, no two items share
///   a value under the same key (so no merge key, whatever the schema declares, is duplicated);
/// - lists are homogeneous: all objects, or all non-objects (no lists of lists either).
pub fn is_simple(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(_) | Value::Number(_) | Value::String(_) => true,
        Value::Object(m) => m.iter().all(|(k, v)| !k.starts_with('$') && is_simple(v)),
        Value::Array(items) => {
            if !items.iter().all(is_simple) {
                return false;
            }
            if items.iter().any(Value::is_array) {
                return false;
            }
            let objects = items.iter().filter(|i| i.is_object()).count();
            if objects != 0 && objects != items.len() {
                return false;
            }
            for (i, a) in items.iter().enumerate() {
                for b in &items[i + 1..] {
                    if a == b {
                        return false;
                    }
                    if let (Value::Object(a), Value::Object(b)) = (a, b)
                        && a.iter().any(|(k, va)| b.get(k) == Some(va))
                    {
                        return false;
                    }
                }
            }
            true
        }
    }
}
