//! Applying a merge patch as evanphx/json-patch v4 `MergePatch` does (RFC 7386, with
//! evanphx's own edges).
//!
//! Written here rather than taken from `json_patch::merge`, which follows the RFC text and
//! differs from what kubectl runs in four ways:
//! - evanphx prunes `null`s inside objects that sit in a list it adds
//!   (`{"a":[{"b":null}]}` onto `{}` gives `{"a":[{}]}`; the crate keeps `{"b":null}`);
//! - a `null` document is an error (`Invalid JSON Document`), not `{}`;
//! - a `null` or scalar patch is an error (`Invalid JSON Patch`), not a replacement;
//! - a list patch is returned with the same pruning.
//!
//! The crate also recurses without a depth limit.

use crate::value::{Map, Value};

use super::JsonMergeError;
use super::create::check_depth;

/// `jsonpatch.MergePatch(doc, patch)` (evanphx/json-patch v4): RFC 7386 merge.
///
/// - object onto object: merge key by key; a `null` removes the key; a value whose key is
///   absent (or `null`) in the document is added with its `null`s pruned;
/// - object onto a non-object document: the patch, `null`s pruned;
/// - a list patch: the list, `null`s pruned inside its objects (`null` items stay);
/// - a `null` document, or a `null`/scalar patch: an error.
///
/// Numbers are copied as they are (evanphx keeps their original text).
pub fn apply_merge_patch(doc: &Value, patch: &Value) -> Result<Value, JsonMergeError> {
    if doc.is_null() {
        return Err(JsonMergeError::BadJsonDoc);
    }
    match (doc, patch) {
        (Value::Object(doc), Value::Object(patch)) => {
            let mut out = doc.clone();
            merge_docs(&mut out, patch, 0)?;
            Ok(Value::Object(out))
        }
        (_, Value::Object(_) | Value::Array(_)) => {
            let mut out = patch.clone();
            prune_nulls(&mut out, 0)?;
            Ok(out)
        }
        _ => Err(JsonMergeError::BadJsonPatch),
    }
}

/// evanphx `mergeDocs` (with `mergeMerge` false).
fn merge_docs(doc: &mut Map, patch: &Map, depth: usize) -> Result<(), JsonMergeError> {
    check_depth(depth)?;
    // Deletions are made in one pass at the end (each `shift_remove` moves every later key):
    // the keys left keep their order, and the added ones come after them either way.
    let mut deleted: Vec<&str> = Vec::new();
    for (key, value) in patch {
        if value.is_null() {
            if doc.contains_key(key) {
                deleted.push(key);
            }
            continue;
        }
        match doc.get_mut(key) {
            Some(current) if !current.is_null() => merge_value(current, value, depth + 1)?,
            _ => {
                let mut added = value.clone();
                prune_nulls(&mut added, depth + 1)?;
                doc.insert(key.clone(), added);
            }
        }
    }
    match deleted.as_slice() {
        [] => {}
        [one] => {
            doc.shift_remove(one);
        }
        _ => {
            let deleted: std::collections::HashSet<&str> = deleted.into_iter().collect();
            doc.retain(|k, _| !deleted.contains(k.as_str()));
        }
    }
    Ok(())
}

/// evanphx `merge`: objects merge; anything else replaces, pruned only when the current
/// value was not an object.
fn merge_value(current: &mut Value, patch: &Value, depth: usize) -> Result<(), JsonMergeError> {
    if let (Value::Object(current), Value::Object(patch)) = (&mut *current, patch) {
        return merge_docs(current, patch, depth);
    }
    let mut replacement = patch.clone();
    if !current.is_object() {
        prune_nulls(&mut replacement, depth)?;
    }
    *current = replacement;
    Ok(())
}

/// evanphx `pruneNulls`: drop `null` members of objects, at any depth, also inside lists;
/// `null` list items stay.
fn prune_nulls(v: &mut Value, depth: usize) -> Result<(), JsonMergeError> {
    match v {
        Value::Object(map) => {
            check_depth(depth)?;
            map.retain(|_, item| !item.is_null());
            for item in map.values_mut() {
                prune_nulls(item, depth + 1)?;
            }
        }
        Value::Array(items) => {
            check_depth(depth)?;
            for item in items {
                prune_nulls(item, depth + 1)?;
            }
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn apply(doc: Value, patch: Value) -> Value {
        apply_merge_patch(&doc, &patch).unwrap()
    }

    #[test]
    fn rfc7386_examples() {
        // RFC 7386 appendix A, a selection.
        assert_eq!(
            apply(json!({"a": "b"}), json!({"a": "c"})),
            json!({"a": "c"})
        );
        assert_eq!(
            apply(json!({"a": "b"}), json!({"b": "c"})),
            json!({"a": "b", "b": "c"})
        );
        assert_eq!(apply(json!({"a": "b"}), json!({"a": null})), json!({}));
        assert_eq!(
            apply(json!({"a": [{"b": "c"}]}), json!({"a": [1]})),
            json!({"a": [1]})
        );
        assert_eq!(
            apply(
                json!({"a": {"b": "c"}}),
                json!({"a": {"b": "d", "c": null}})
            ),
            json!({"a": {"b": "d"}})
        );
        assert_eq!(
            apply(json!(["a", "b"]), json!({"a": "b", "c": null})),
            json!({"a": "b"})
        );
        assert_eq!(
            apply(json!({}), json!({"a": {"bb": {"ccc": null}}})),
            json!({"a": {"bb": {}}})
        );
    }

    #[test]
    fn nulls_pruned_inside_added_objects() {
        assert_eq!(
            apply(json!({"a": 1}), json!({"b": {"c": null, "d": 1}})),
            json!({"a": 1, "b": {"d": 1}})
        );
        assert_eq!(
            apply(json!({"a": null}), json!({"a": {"c": null}})),
            json!({"a": {}})
        );
    }

    #[test]
    fn nulls_pruned_inside_objects_in_added_lists_but_null_items_kept() {
        assert_eq!(
            apply(json!({}), json!({"a": [{"b": null, "c": 1}, null]})),
            json!({"a": [{"c": 1}, null]})
        );
        // A list replacing an object is not pruned (evanphx `merge` returns it untouched).
        assert_eq!(
            apply(json!({"a": {}}), json!({"a": [{"b": null}]})),
            json!({"a": [{"b": null}]})
        );
    }

    #[test]
    fn unpatched_nulls_in_document_stay() {
        assert_eq!(
            apply(json!({"a": null, "b": 1}), json!({"b": 2})),
            json!({"a": null, "b": 2})
        );
    }

    #[test]
    fn list_patch_is_returned_pruned() {
        assert_eq!(
            apply(json!({"a": 1}), json!([{"b": null}, null])),
            json!([{}, null])
        );
    }

    #[test]
    fn null_document_or_scalar_patch_is_an_error() {
        assert_eq!(
            apply_merge_patch(&json!(null), &json!({})),
            Err(JsonMergeError::BadJsonDoc)
        );
        assert_eq!(
            apply_merge_patch(&json!({}), &json!(null)),
            Err(JsonMergeError::BadJsonPatch)
        );
        assert_eq!(
            apply_merge_patch(&json!({}), &json!("x")),
            Err(JsonMergeError::BadJsonPatch)
        );
        assert_eq!(
            JsonMergeError::BadJsonDoc.to_string(),
            "Invalid JSON Document"
        );
    }

    #[test]
    fn too_deep_patch_is_an_error() {
        let mut patch = json!({});
        for _ in 0..crate::engine::MAX_DEPTH {
            patch = json!({ "a": patch });
        }
        assert_eq!(
            apply_merge_patch(&json!({}), &patch),
            Err(JsonMergeError::TooDeep)
        );
    }

    #[test]
    fn deletions_keep_the_order_of_the_keys_left() {
        let keys = |v: &Value| -> Vec<String> {
            v.as_object()
                .unwrap()
                .keys()
                .map(ToString::to_string)
                .collect()
        };
        let doc = json!({"a": 1, "b": 2, "c": 3, "d": 4, "f": 6});
        let one = apply_merge_patch(&doc, &json!({"c": null, "e": 5})).unwrap();
        assert_eq!(keys(&one), ["a", "b", "d", "f", "e"]);
        let many = apply_merge_patch(
            &doc,
            &json!({"b": null, "e": 5, "d": null, "a": 0, "missing": null}),
        )
        .unwrap();
        assert_eq!(keys(&many), ["a", "c", "f", "e"]);
        assert_eq!(many, json!({"a": 0, "c": 3, "f": 6, "e": 5}));
    }
}
