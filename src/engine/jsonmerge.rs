//! RFC 7386 JSON merge patch, and the three-way patch `kubectl apply` sends for custom
//! resources (types it has no Go struct for), as kubernetes/apimachinery
//! (`pkg/util/jsonmergepatch`, `pkg/util/mergepatch`) and evanphx/json-patch v4 compute it.
//!
//! | step | reference | here |
//! | --- | --- | --- |
//! | two-way diff | evanphx `CreateMergePatch` | [`create_merge_patch`] |
//! | apply | evanphx `MergePatch` | [`apply_merge_patch`] |
//! | keep only changes / only deletions | `keepOrDeleteNullInObj` | [`keep_or_delete_null_in_obj`] |
//! | do the two halves disagree | `mergepatch.HasConflicts` | [`has_conflicts`] |
//! | three-way | `CreateThreeWayJSONMergePatch` | [`create_three_way_json_merge_patch`] |
//! | refuse a patch touching a key | `RequireKeyUnchanged`, `RequireMetadataKeyUnchanged` | [`Precondition`] |
//! | error texts | `fmt` `%v`, `mergepatch.ToYAMLOrError` | [`go_sprint`], [`to_yaml`] |
//!
//! A `null` document stands for an absent one (Go treats both as `{}`). Every walk stops at
//! [`MAX_DEPTH`](crate::engine::MAX_DEPTH) with [`JsonMergeError::TooDeep`].

mod apply;
mod create;

use crate::value::{Map, Value};

pub use crate::engine::gofmt::sprint as go_sprint;
pub use crate::engine::goyaml::to_yaml;
pub use apply::apply_merge_patch;
pub use create::create_merge_patch;

use create::check_depth;

/// Why a merge patch could not be built or applied. Messages are the reference's.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JsonMergeError {
    /// evanphx `ErrBadJSONDoc`: a document that is not an object (or `null` when applying).
    #[error("Invalid JSON Document")]
    BadJsonDoc,
    /// evanphx `ErrBadJSONPatch`: a `null` or scalar merge patch.
    #[error("Invalid JSON Patch")]
    BadJsonPatch,
    /// evanphx `errBadMergeTypes`: one document is a list, the other is not.
    #[error("Mismatched JSON Documents")]
    MismatchedDocuments,
    /// A patch that should be an object is a list (three-way over list documents).
    #[error("json: cannot unmarshal array into Go value of type map[string]interface {{}}")]
    PatchNotAnObject,
    /// `mergepatch.ErrConflict`: never produced by the three-way in practice (its two halves
    /// cannot overlap), kept for parity. `patch` and `current` are YAML.
    #[error("patch:\n{patch}\nconflicts with changes made from original to current:\n{current}\n")]
    Conflict { patch: String, current: String },
    /// A precondition failed: `precondition failed for: map[...]` (the patch as Go's `%v`).
    ///
    /// Go returns this as a plain `fmt.Errorf`, not `mergepatch.ErrPreconditionFailed`, so
    /// kubectl's `IsPreconditionFailed` branch ("At least one of apiVersion, kind and name was
    /// changed") does not fire for custom resources; kubectl shows this message instead.
    #[error("{0}")]
    PreconditionFailed(String),
    /// The documents nest deeper than [`MAX_DEPTH`](crate::engine::MAX_DEPTH).
    #[error("document nests deeper than {} levels", crate::engine::MAX_DEPTH)]
    TooDeep,
}

/// `mergepatch.PreconditionFunc`s: a patch must not touch these keys.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Precondition {
    /// `RequireKeyUnchanged(key)`: the patch has no top-level `key`.
    KeyUnchanged(String),
    /// `RequireMetadataKeyUnchanged(key)`: the patch has no `metadata.key`.
    MetadataKeyUnchanged(String),
}

/// `mergepatch.RequireKeyUnchanged(key)`.
pub fn require_key_unchanged(key: &str) -> Precondition {
    Precondition::KeyUnchanged(key.to_owned())
}

/// `mergepatch.RequireMetadataKeyUnchanged(key)`.
pub fn require_metadata_key_unchanged(key: &str) -> Precondition {
    Precondition::MetadataKeyUnchanged(key.to_owned())
}

impl Precondition {
    /// The preconditions `kubectl apply` passes for custom resources: `apiVersion`, `kind`
    /// and `metadata.name` unchanged.
    pub fn kubectl_apply() -> Vec<Precondition> {
        vec![
            require_key_unchanged("apiVersion"),
            require_key_unchanged("kind"),
            require_metadata_key_unchanged("name"),
        ]
    }

    /// Does `patch` meet it? A patch that is not an object (or whose `metadata` is not an
    /// object) always does, as in Go.
    pub fn holds(&self, patch: &Value) -> bool {
        let Value::Object(map) = patch else {
            return true;
        };
        match self {
            Precondition::KeyUnchanged(key) => !map.contains_key(key),
            Precondition::MetadataKeyUnchanged(key) => match map.get("metadata") {
                Some(Value::Object(metadata)) => !metadata.contains_key(key),
                _ => true,
            },
        }
    }
}

/// `jsonmergepatch.CreateThreeWayJSONMergePatch(original, modified, current, preconditions...)`.
///
/// Additions and changes come from `create_merge_patch(current, modified)` without its nulls;
/// deletions from `create_merge_patch(original, modified)` with only its nulls; they must not
/// conflict; the patch is the deletions with the changes merged in (evanphx `MergePatch`,
/// which prunes `null`s inside objects in added lists), then checked against `preconditions`.
/// Numbers pass through float64 (see [`create_merge_patch`]).
pub fn create_three_way_json_merge_patch(
    original: &Value,
    modified: &Value,
    current: &Value,
    preconditions: &[Precondition],
) -> Result<Value, JsonMergeError> {
    let add_and_change = create_merge_patch(current, modified)?;
    let add_and_change = keep_or_delete_null_in_obj(as_patch_object(&add_and_change)?, false)?;
    let delete = create_merge_patch(original, modified)?;
    let delete = keep_or_delete_null_in_obj(as_patch_object(&delete)?, true)?;
    let (add_and_change, delete) = (Value::Object(add_and_change), Value::Object(delete));

    if has_conflicts(&add_and_change, &delete)? {
        return Err(JsonMergeError::Conflict {
            patch: to_yaml(&add_and_change),
            current: to_yaml(&delete),
        });
    }
    let patch = apply_merge_patch(&delete, &add_and_change)?;

    if preconditions.iter().any(|p| !p.holds(&patch)) {
        return Err(JsonMergeError::PreconditionFailed(format!(
            "precondition failed for: {}",
            go_sprint(&patch)
        )));
    }
    Ok(patch)
}

fn as_patch_object(patch: &Value) -> Result<&Map, JsonMergeError> {
    match patch {
        Value::Object(map) => Ok(map),
        _ => Err(JsonMergeError::PatchNotAnObject),
    }
}

/// `keepOrDeleteNullInObj`: with `keep_null`, keep only the `null` leaves (the deletions);
/// without, drop them (the additions and changes). Lists are leaves; an explicitly empty
/// object `{}` is a value (kept without `keep_null`); an object left empty by the filter
/// is dropped.
pub fn keep_or_delete_null_in_obj(obj: &Map, keep_null: bool) -> Result<Map, JsonMergeError> {
    filter_nulls(obj, keep_null, 0)
}

fn filter_nulls(obj: &Map, keep_null: bool, depth: usize) -> Result<Map, JsonMergeError> {
    check_depth(depth)?;
    let mut filtered = Map::new();
    for (key, value) in obj {
        match value {
            Value::Null if keep_null => {
                filtered.insert(key.clone(), Value::Null);
            }
            Value::Null => {}
            Value::Object(sub) if sub.is_empty() => {
                if !keep_null {
                    filtered.insert(key.clone(), Value::Object(Map::new()));
                }
            }
            Value::Object(sub) => {
                let sub = filter_nulls(sub, keep_null, depth + 1)?;
                if !sub.is_empty() {
                    filtered.insert(key.clone(), Value::Object(sub));
                }
            }
            _ if keep_null => {}
            _ => {
                filtered.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(filtered)
}

/// `mergepatch.HasConflicts(left, right)`: do the two overlap with different values at any
/// key? Objects compare only their shared keys; lists must have the same length and no
/// conflicting items; scalars must be equal with the same Go type (int64 `0` and float64
/// `0.0` conflict).
pub fn has_conflicts(left: &Value, right: &Value) -> Result<bool, JsonMergeError> {
    conflicts(left, right, 0)
}

fn conflicts(left: &Value, right: &Value, depth: usize) -> Result<bool, JsonMergeError> {
    match (left, right) {
        (Value::Object(l), Value::Object(r)) => {
            check_depth(depth)?;
            for (key, lv) in l {
                if let Some(rv) = r.get(key)
                    && conflicts(lv, rv, depth + 1)?
                {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        (Value::Array(l), Value::Array(r)) => {
            check_depth(depth)?;
            if l.len() != r.len() {
                return Ok(true);
            }
            for (lv, rv) in l.iter().zip(r) {
                if conflicts(lv, rv, depth + 1)? {
                    return Ok(true);
                }
            }
            Ok(false)
        }
        (Value::Object(_) | Value::Array(_), _) => Ok(true),
        // reflect.DeepEqual on string/float64/bool/int64/nil; Value's == keeps 0 and 0.0 apart.
        _ => Ok(left != right),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn three_way(
        original: Value,
        modified: Value,
        current: Value,
    ) -> Result<Value, JsonMergeError> {
        create_three_way_json_merge_patch(
            &original,
            &modified,
            &current,
            &Precondition::kubectl_apply(),
        )
    }

    fn filter(obj: Value, keep_null: bool) -> Value {
        Value::Object(keep_or_delete_null_in_obj(obj.as_object().unwrap(), keep_null).unwrap())
    }

    #[test]
    fn three_way_adds_changes_and_deletes_only_what_was_applied() {
        let patch = three_way(
            json!({"a": 1, "b": 1, "m": {"x": 1, "y": 1}}),
            json!({"b": 2, "m": {"x": 1}, "n": "new"}),
            json!({"a": 1, "b": 1, "m": {"x": 1, "y": 1, "z": 1}, "live": true}),
        );
        assert_eq!(
            patch,
            Ok(json!({"a": null, "b": 2, "m": {"y": null}, "n": "new"}))
        );
    }

    #[test]
    fn three_way_absent_documents_are_empty() {
        assert_eq!(
            three_way(json!(null), json!({"a": 1}), json!(null)),
            Ok(json!({"a": 1}))
        );
        assert_eq!(
            three_way(json!(null), json!(null), json!({"a": 1})),
            Ok(json!({}))
        );
    }

    #[test]
    fn three_way_prunes_nulls_inside_objects_in_added_lists() {
        let patch = three_way(
            json!({}),
            json!({"l": [{"a": null, "b": 1}, null]}),
            json!({}),
        );
        assert_eq!(patch, Ok(json!({"l": [{"b": 1}, null]})));
    }

    #[test]
    fn three_way_numbers_pass_through_float64() {
        assert_eq!(
            three_way(json!({}), json!({"a": 1.0}), json!({})),
            Ok(json!({"a": 1}))
        );
        assert_eq!(
            three_way(json!({"a": 1}), json!({"a": 1.0}), json!({"a": 1})),
            Ok(json!({}))
        );
    }

    #[test]
    fn three_way_list_documents_are_not_objects() {
        let err = three_way(json!([]), json!([]), json!([])).unwrap_err();
        assert_eq!(
            err.to_string(),
            "json: cannot unmarshal array into Go value of type map[string]interface {}"
        );
    }

    #[test]
    fn precondition_failure_message_prints_patch_like_go() {
        let err = three_way(
            json!({"kind": "A", "metadata": {"name": "x"}}),
            json!({"kind": "A", "metadata": {"name": "y", "labels": {"l": "v"}}}),
            json!({"kind": "A", "metadata": {"name": "x"}}),
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            "precondition failed for: map[metadata:map[labels:map[l:v] name:y]]"
        );
        let err = three_way(json!({"kind": "A"}), json!({"kind": "B"}), json!({})).unwrap_err();
        assert_eq!(err.to_string(), "precondition failed for: map[kind:B]");
    }

    #[test]
    fn preconditions_hold_for_non_object_patches_and_metadata() {
        assert!(require_key_unchanged("kind").holds(&json!([1])));
        assert!(require_metadata_key_unchanged("name").holds(&json!({"metadata": null})));
        assert!(
            !require_metadata_key_unchanged("name").holds(&json!({"metadata": {"name": null}}))
        );
        assert!(!require_key_unchanged("kind").holds(&json!({"kind": null})));
    }

    #[test]
    fn keep_null_keeps_only_null_leaves() {
        let obj = json!({"a": null, "b": 1, "m": {"c": null, "d": [null]}, "e": {}, "f": {"g": 1}});
        assert_eq!(
            filter(obj.clone(), true),
            json!({"a": null, "m": {"c": null}})
        );
        assert_eq!(
            filter(obj, false),
            json!({"b": 1, "m": {"d": [null]}, "e": {}, "f": {"g": 1}})
        );
    }

    #[test]
    fn conflicts_objects_compare_shared_keys_only() {
        assert_eq!(has_conflicts(&json!({"a": 1}), &json!({"b": 2})), Ok(false));
        assert_eq!(has_conflicts(&json!({"a": 1}), &json!({"a": 2})), Ok(true));
        assert_eq!(has_conflicts(&json!({}), &json!([1])), Ok(true));
    }

    #[test]
    fn conflicts_lists_by_length_and_items() {
        assert_eq!(has_conflicts(&json!([1, 2]), &json!([1, 2])), Ok(false));
        assert_eq!(has_conflicts(&json!([1]), &json!([])), Ok(true));
        assert_eq!(has_conflicts(&json!([1, 2]), &json!([1, 0])), Ok(true));
    }

    #[test]
    fn conflicts_int_zero_vs_float_zero() {
        assert_eq!(has_conflicts(&json!(0), &json!(0.0)), Ok(true));
        assert_eq!(has_conflicts(&json!(3.0), &json!(3.0)), Ok(false));
        assert_eq!(has_conflicts(&json!(0), &json!("0")), Ok(true));
        assert_eq!(has_conflicts(&json!(null), &json!(null)), Ok(false));
    }

    #[test]
    fn conflict_error_message_shape() {
        let err = JsonMergeError::Conflict {
            patch: to_yaml(&json!({"a": 1})),
            current: to_yaml(&json!({"a": null})),
        };
        assert_eq!(
            err.to_string(),
            "patch:\na: 1\n\nconflicts with changes made from original to current:\na: null\n\n"
        );
    }

    #[test]
    fn too_deep_is_an_error() {
        let mut v = json!({"x": null});
        for _ in 0..crate::engine::MAX_DEPTH {
            v = json!({ "a": v });
        }
        assert_eq!(has_conflicts(&v, &v), Err(JsonMergeError::TooDeep));
        assert_eq!(
            keep_or_delete_null_in_obj(v.as_object().unwrap(), true),
            Err(JsonMergeError::TooDeep)
        );
        assert_eq!(
            three_way(json!({}), v, json!({})),
            Err(JsonMergeError::TooDeep)
        );
    }
}
