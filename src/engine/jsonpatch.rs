//! RFC 6902 JSON Patch: apply one (`kubectl patch --type json`), and write the one that turns
//! a document into another (to show what changes from live to result).
//!
//! Both use the `json-patch` crate (`json_patch::patch`, `json_patch::diff`), which passes the
//! standard json-patch-tests suite. Around it: a depth check (the crate recurses without a
//! limit) and a patch that must be a list of operations.

use crate::value::Value;

use crate::engine::MAX_DEPTH;

/// Why a JSON Patch could not be applied.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonPatchError {
    /// The patch is not a list of well-formed operations.
    #[error("invalid JSON Patch: {0}")]
    InvalidPatch(String),
    /// An operation failed (missing path, failed `test`, bad index, ...); the document is
    /// left as it was.
    #[error("{0}")]
    Failed(String),
    /// The document or patch nests deeper than [`MAX_DEPTH`].
    #[error("document nests deeper than {MAX_DEPTH} levels")]
    TooDeep,
}

/// Apply the RFC 6902 `patch` (a list of operations) to `doc`; all or nothing.
pub fn apply_json_patch(doc: &Value, patch: &Value) -> Result<Value, JsonPatchError> {
    if too_deep(doc) || too_deep(patch) {
        return Err(JsonPatchError::TooDeep);
    }
    if !patch.is_array() {
        return Err(JsonPatchError::InvalidPatch(
            "a JSON Patch is a list of operations".to_owned(),
        ));
    }
    // The `json_patch` crate works on `serde_json`'s values: the documents cross over.
    let operations: json_patch::Patch = serde_json::to_value(patch)
        .and_then(serde_json::from_value)
        .map_err(|e| JsonPatchError::InvalidPatch(e.to_string()))?;
    let mut out = serde_json::to_value(doc).map_err(|e| JsonPatchError::Failed(e.to_string()))?;
    json_patch::patch(&mut out, &operations).map_err(|e| JsonPatchError::Failed(e.to_string()))?;
    Ok(Value::from(out))
}

/// An RFC 6902 patch turning `from` into `to`: `add`/`remove`/`replace` operations, object
/// keys in `to`'s order, list items compared by index. Identical documents give `[]`.
/// Documents nesting deeper than [`MAX_DEPTH`] get a single whole-document `replace`.
pub fn diff_json_patch(from: &Value, to: &Value) -> Value {
    let whole = || crate::json!([{ "op": "replace", "path": "", "value": to }]);
    if too_deep(from) || too_deep(to) {
        return whole();
    }
    let (Ok(from), Ok(to)) = (serde_json::to_value(from), serde_json::to_value(to)) else {
        return whole();
    };
    crate::value::to_value(json_patch::diff(&from, &to)).unwrap_or_else(|_| whole())
}

/// Does `v` hold a container nested inside [`MAX_DEPTH`] or more others? (Iterative.)
fn too_deep(v: &Value) -> bool {
    let mut stack = vec![(v, 0_usize)];
    while let Some((v, depth)) = stack.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(items) => Box::new(items.iter()),
            Value::Object(map) => Box::new(map.values()),
            _ => continue,
        };
        if depth >= MAX_DEPTH {
            return true;
        }
        stack.extend(children.map(|child| (child, depth + 1)));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn apply_runs_operations_in_order() {
        let doc = json!({"a": [1, 2], "b": {"c": 1}});
        let patch = json!([
            {"op": "add", "path": "/a/-", "value": 3},
            {"op": "remove", "path": "/b/c"},
            {"op": "replace", "path": "/a/0", "value": "x"},
            {"op": "copy", "from": "/a", "path": "/d"},
            {"op": "move", "from": "/d", "path": "/b/e"},
            {"op": "test", "path": "/b/e/2", "value": 3}
        ]);
        assert_eq!(
            apply_json_patch(&doc, &patch),
            Ok(json!({"a": ["x", 2, 3], "b": {"e": ["x", 2, 3]}}))
        );
    }

    #[test]
    fn apply_is_all_or_nothing_and_reports_failures() {
        let doc = json!({"a": 1});
        let patch = json!([{"op": "add", "path": "/b", "value": 2}, {"op": "test", "path": "/a", "value": 2}]);
        assert!(matches!(
            apply_json_patch(&doc, &patch),
            Err(JsonPatchError::Failed(_))
        ));
        let patch = json!([{"op": "remove", "path": "/missing"}]);
        assert!(matches!(
            apply_json_patch(&doc, &patch),
            Err(JsonPatchError::Failed(_))
        ));
    }

    #[test]
    fn apply_rejects_malformed_patches() {
        for patch in [
            json!({}),
            json!([{"op": "bogus", "path": ""}]),
            json!([{"op": "add", "path": "/a"}]),
        ] {
            assert!(matches!(
                apply_json_patch(&json!({}), &patch),
                Err(JsonPatchError::InvalidPatch(_))
            ));
        }
    }

    #[test]
    fn test_op_keeps_int_and_float_apart() {
        let patch = json!([{"op": "test", "path": "/a", "value": 1.0}]);
        assert!(apply_json_patch(&json!({"a": 1}), &patch).is_err());
    }

    #[test]
    fn diff_round_trips_and_escapes_pointer_tokens() {
        let from = json!({"a/b": 1, "c~d": [1, 2, 3], "gone": true});
        let to = json!({"a/b": 2, "c~d": [1, 3], "new": {"x": null}});
        let patch = diff_json_patch(&from, &to);
        assert_eq!(
            patch[0],
            json!({"op": "replace", "path": "/a~1b", "value": 2})
        );
        assert_eq!(apply_json_patch(&from, &patch), Ok(to));
        assert_eq!(diff_json_patch(&from, &from), json!([]));
    }

    #[test]
    fn too_deep_documents() {
        let mut deep = json!(1);
        for _ in 0..=MAX_DEPTH {
            deep = json!([deep]);
        }
        assert_eq!(
            apply_json_patch(&deep, &json!([])),
            Err(JsonPatchError::TooDeep)
        );
        let whole = diff_json_patch(&json!({}), &deep);
        assert_eq!(whole[0]["op"], "replace");
        assert_eq!(whole[0]["path"], "");
    }
}
