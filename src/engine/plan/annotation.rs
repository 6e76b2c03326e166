//! The `kubectl.kubernetes.io/last-applied-configuration` annotation, encoded byte for byte as
//! kubectl encodes it (`GetModifiedConfiguration`): the object without the annotation, compact
//! JSON with sorted keys, `"annotations":{}` kept when otherwise empty, `<` `>` `&` escaped,
//! Go's numbers, and a trailing newline. kubectl reads the annotations as a map of strings (its
//! `GetAnnotations`) and writes them back: a null value becomes `""`, in the annotation and in
//! the object sent.

use crate::value::{Map, Value};

use crate::engine::gojson;

/// The annotation key.
pub const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// The API server's limit on an object's whole annotations map, keys and values together
/// (`TotalAnnotationSizeLimitB` in apimachinery's validation).
pub const ANNOTATIONS_LIMIT: usize = 256 * 1024;

/// The bytes the server counts for an object's annotations (every key and value), leaving out
/// the annotation `except` names.
#[must_use]
pub fn annotations_size(obj: &Value, except: Option<&str>) -> usize {
    obj.get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(Value::as_object)
        .map_or(0, |m| {
            m.iter()
                .filter(|(k, _)| except != Some(k.as_str()))
                .map(|(k, v)| k.len() + v.as_str().map_or(0, str::len))
                .sum()
        })
}

/// The annotation kubectl would store for `local`.
///
/// # Errors
/// When the object cannot be written as JSON (it always can, short of absurd nesting).
pub fn encode(local: &Value) -> Result<String, gojson::GoJsonError> {
    let mut obj = local.clone();
    set_annotations(&mut obj, |annotations| {
        annotations.shift_remove(LAST_APPLIED);
    });
    let mut text = gojson::to_string(&obj)?;
    text.push('\n');
    Ok(text)
}

/// `local` with its annotation set to `annotation` (kubectl's "modified" document).
#[must_use]
pub fn with_annotation(local: &Value, annotation: &str) -> Value {
    let mut obj = local.clone();
    set_annotations(&mut obj, |annotations| {
        annotations.insert(LAST_APPLIED, Value::String(annotation.into()));
    });
    obj
}

/// [`encode`] `local`, and return it as [`with_annotation`] would: one document, no copies.
///
/// # Errors
/// As [`encode`].
pub(super) fn encode_into(mut local: Value) -> Result<(String, Value), gojson::GoJsonError> {
    let mut old_at = None;
    set_annotations(&mut local, |annotations| {
        old_at = annotations.keys().position(|k| k == LAST_APPLIED);
        annotations.shift_remove(LAST_APPLIED);
    });
    let mut text = gojson::to_string(&local)?;
    text.push('\n');
    // Written by growing: up to twice the room it needs, and it is as long as the object.
    text.shrink_to_fit();
    let value = Value::String(text.as_str().into());
    // Where `with_annotation`'s insert would put it: in the old one's place, else last.
    set_annotations(&mut local, |annotations| match old_at {
        Some(i) => {
            annotations.shift_insert(i, LAST_APPLIED, value);
        }
        None => {
            annotations.insert(LAST_APPLIED, value);
        }
    });
    Ok((text, local))
}

/// The annotation of an object, if it has one.
#[must_use]
pub fn of(obj: &Value) -> Option<&str> {
    obj.get("metadata")?
        .get("annotations")?
        .get(LAST_APPLIED)?
        .as_str()
}

/// Edit `metadata.annotations`, creating `metadata` and `annotations` as kubectl's
/// `SetAnnotations` does (an empty map is kept).
fn set_annotations(obj: &mut Value, edit: impl FnOnce(&mut Map)) {
    let Value::Object(root) = obj else { return };
    let metadata = root
        .entry("metadata")
        .or_insert_with(|| Value::Object(Map::new()));
    if !metadata.is_object() {
        *metadata = Value::Object(Map::new());
    }
    let Value::Object(metadata) = metadata else {
        return;
    };
    let annotations = metadata
        .entry("annotations")
        .or_insert_with(|| Value::Object(Map::new()));
    if !annotations.is_object() {
        *annotations = Value::Object(Map::new());
    }
    if let Value::Object(annotations) = annotations {
        // kubectl 1.37 reads the annotations as a map of strings: a null value (`key:` with
        // nothing after it) reads as the empty string, and is written back as one.
        for (_, value) in annotations.iter_mut() {
            if value.is_null() {
                *value = Value::String("".into());
            }
        }
        edit(annotations);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn annotation_is_sorted_compact_escaped_with_newline() {
        let local = json!({"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "a&b"},
                           "data": {"z": "<x>", "a": null}});
        assert_eq!(
            encode(&local).unwrap(),
            "{\"apiVersion\":\"v1\",\"data\":{\"a\":null,\"z\":\"\\u003cx\\u003e\"},\"kind\":\"ConfigMap\",\"metadata\":{\"annotations\":{},\"name\":\"a\\u0026b\"}}\n"
        );
    }

    #[test]
    fn encode_into_equals_encode_then_with_annotation() {
        for local in [
            json!({"kind": "A", "metadata": {"name": "x"}}),
            json!({"kind": "A"}),
            json!({"kind": "A", "metadata": {"name": "x", "annotations": "bad"}}),
            json!({"kind": "A", "metadata": {"annotations": {"a": "1", LAST_APPLIED: "old", "z": "2"}}}),
            json!({"kind": "A", "metadata": {"annotations": {LAST_APPLIED: "old"}}, "spec": {"b": 1}}),
        ] {
            let text = encode(&local).unwrap();
            let modified = with_annotation(&local, &text);
            let (text2, modified2) = encode_into(local.clone()).unwrap();
            assert_eq!(text2, text);
            assert_eq!(
                serde_json::to_string(&modified2).unwrap(),
                serde_json::to_string(&modified).unwrap(),
                "key order too"
            );
        }
    }

    #[test]
    fn a_null_annotation_value_is_read_as_the_empty_string() {
        let local = json!({"metadata": {"annotations": {"owner": "team-a", "tracking-id": null},
                                        "labels": {"a": null}}});
        assert_eq!(
            encode(&local).unwrap(),
            "{\"metadata\":{\"annotations\":{\"owner\":\"team-a\",\"tracking-id\":\"\"},\"labels\":{\"a\":null}}}\n",
            "labels are not read this way"
        );
        let (text, modified) = encode_into(local).unwrap();
        assert_eq!(
            modified["metadata"]["annotations"],
            json!({"owner": "team-a", "tracking-id": "", LAST_APPLIED: text})
        );
        let whole_null = json!({"metadata": {"annotations": null}});
        assert_eq!(
            encode(&whole_null).unwrap(),
            "{\"metadata\":{\"annotations\":{}}}\n"
        );
    }

    #[test]
    fn annotation_drops_an_old_annotation_and_keeps_others() {
        let local = json!({"metadata": {"annotations": {LAST_APPLIED: "old", "team": "x"}}});
        assert_eq!(
            encode(&local).unwrap(),
            "{\"metadata\":{\"annotations\":{\"team\":\"x\"}}}\n"
        );
    }
}
