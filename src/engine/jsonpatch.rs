//! RFC 6902 JSON Patch: apply one (`kubectl patch --type json`), and write the one that turns
//! a document into another (to show what changes from live to result).
//!
//! Applying uses the `json-patch` crate (`json_patch::patch`), which passes the standard
//! json-patch-tests suite; around it, a depth check (the crate recurses without a limit) and a
//! patch that must be a list of operations. Writing one is `json_patch::diff`'s algorithm on
//! the documents themselves (no `serde_json` copies), held equal to the crate's by a test.

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
/// keys in `to`'s order (then the removed ones in `from`'s), list items compared by index
/// (surplus items removed at the first surplus index). Identical documents give `[]`.
/// Documents nesting deeper than [`MAX_DEPTH`] get a single whole-document `replace`.
///
/// The operations are `json_patch::diff`'s, in its order (a test holds them equal), found on
/// the documents themselves: no copy of either is made (the crate wants two `serde_json`
/// values, two copies of megabyte documents).
pub fn diff_json_patch(from: &Value, to: &Value) -> Value {
    if too_deep(from) || too_deep(to) {
        return crate::json!([{ "op": "replace", "path": "", "value": to }]);
    }
    let mut ops = Vec::new();
    diff_into(from, to, &mut String::new(), &mut ops);
    Value::Array(ops)
}

/// The operations turning `from` into `to` at `pointer` (JSON Pointer text), appended to
/// `ops`. Depth: bounded by the caller's [`too_deep`] check.
fn diff_into(from: &Value, to: &Value, pointer: &mut String, ops: &mut Vec<Value>) {
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => {
            for (key, after) in b.iter() {
                let len = push_token(pointer, key);
                match a.get(key) {
                    Some(before) => diff_into(before, after, pointer, ops),
                    None => ops.push(op("add", pointer, Some(after))),
                }
                pointer.truncate(len);
            }
            for key in a.keys() {
                if !b.contains_key(key) {
                    let len = push_token(pointer, key);
                    ops.push(op("remove", pointer, None));
                    pointer.truncate(len);
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            let common = a.len().min(b.len());
            for (i, (before, after)) in a.iter().zip(b).enumerate() {
                let len = push_token(pointer, &i.to_string());
                diff_into(before, after, pointer, ops);
                pointer.truncate(len);
            }
            // Surplus items go one by one from the same index; new ones are added in order.
            for _ in b.len()..a.len() {
                let len = push_token(pointer, &common.to_string());
                ops.push(op("remove", pointer, None));
                pointer.truncate(len);
            }
            for (i, after) in b.iter().enumerate().skip(a.len()) {
                let len = push_token(pointer, &i.to_string());
                ops.push(op("add", pointer, Some(after)));
                pointer.truncate(len);
            }
        }
        _ if from == to => {}
        _ => ops.push(op("replace", pointer, Some(to))),
    }
}

/// Append `/token` to `pointer`, escaped (`~` → `~0`, `/` → `~1`); returns the length before.
fn push_token(pointer: &mut String, token: &str) -> usize {
    let len = pointer.len();
    pointer.push('/');
    for c in token.chars() {
        match c {
            '~' => pointer.push_str("~0"),
            '/' => pointer.push_str("~1"),
            c => pointer.push(c),
        }
    }
    len
}

/// One operation, its keys in the order the crate writes them (`op`, `path`, `value`).
fn op(name: &str, pointer: &str, value: Option<&Value>) -> Value {
    let mut m = crate::value::Map::with_capacity(3);
    m.insert("op", Value::from(name));
    m.insert("path", Value::from(pointer));
    if let Some(v) = value {
        m.insert("value", v.clone());
    }
    Value::Object(m)
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

    /// The crate's own diff, for the test that holds ours equal to it.
    fn crate_diff(from: &Value, to: &Value) -> Value {
        let (from, to) = (
            serde_json::to_value(from).unwrap(),
            serde_json::to_value(to).unwrap(),
        );
        crate::value::to_value(json_patch::diff(&from, &to)).unwrap()
    }

    #[test]
    fn diff_is_the_crates_diff() {
        let docs = [
            json!({}),
            json!({"a": 1, "b": [1, 2, 3], "c": {"d": "x", "e/f": null}}),
            json!({"b": [1, 2], "a": 1.0, "c": {"d": "y", "g~h": [true]}, "n": [{"x": 1}]}),
            json!({"a": [], "b": [1, 2, 3, 4, 5], "c": "s", "n": [{"x": 2}, {"y": 1}]}),
            json!({"a": {"b": {"c": [1, [2, [3]]]}}, "": 0, "b": [[1], {"z": []}]}),
            json!([1, 2, {"a": 1}]),
            json!("scalar"),
            json!(null),
        ];
        for from in &docs {
            for to in &docs {
                let ours = diff_json_patch(from, to);
                assert_eq!(ours, crate_diff(from, to), "{from} → {to}");
                if to.is_object() || to.is_array() {
                    assert_eq!(
                        apply_json_patch(from, &ours).as_ref(),
                        Ok(to),
                        "{from} → {to}"
                    );
                }
            }
        }
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
