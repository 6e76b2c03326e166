//! Secrets: which objects are Secrets, and how their values are hidden. Every front end masks
//! through here (the diff, the panes, the patch view, the why panel, the commit and cluster
//! diffs, the lints).
//!
//! kubectl's rules (`pkg/cmd/diff/diff.go`, `Masker`), for an object whose apiVersion's version
//! is `v1` and kind is `Secret` (the group is not checked): every value of `data` becomes
//! `***`; a key on both sides whose values differ becomes `*** (before)` on the old side and
//! `*** (after)` on the new one, so a diff still shows that it changed.
//!
//! Added here:
//! - `stringData` is masked as `data` is; and folded into `data` (base64-encoded; `stringData`
//!   wins) where the API server's answer is shown, as the server does when it stores a core
//!   Secret: a real dry-run apply answers with `data` only, so `kubectl diff` against a cluster
//!   shows masked `data`, never `stringData` in clear.
//! - the `kubectl.kubernetes.io/last-applied-configuration` annotation holds the Secret's data
//!   too; kubectl prints it as it is. Here its `data` and `stringData` values are masked.

use std::borrow::Cow;

use base64::Engine as _;

use crate::engine::gojson;
use crate::engine::object::{GroupVersion, ObjectRef};
use crate::engine::plan::annotation::LAST_APPLIED;
use crate::value::{Map, Value};

/// A hidden value.
pub const MASK: &str = "***";
/// A hidden value that differs on the other side, on the old side.
pub const MASK_BEFORE: &str = "*** (before)";
/// ... and on the new side.
pub const MASK_AFTER: &str = "*** (after)";

/// The fields of a Secret whose values are hidden.
pub const FIELDS: [&str; 2] = ["data", "stringData"];

/// Whether kubectl masks this object: version `v1` (of any group), kind `Secret`.
#[must_use]
pub fn is_secret(obj: &Value) -> bool {
    let object = ObjectRef::of(obj);
    GroupVersion::parse(object.api_version).version == "v1" && object.kind == "Secret"
}

/// The core-group Secret (`apiVersion: v1`), whose `stringData` the API server folds into
/// `data`.
#[must_use]
pub fn is_core_secret(obj: &Value) -> bool {
    let object = ObjectRef::of(obj);
    object.api_version == "v1" && object.kind == "Secret"
}

/// Which side of a before/after pair a value is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Before,
    After,
}

/// What a Secret's value shows as, given the other side's value there (kubectl's rule).
#[must_use]
pub fn mask_text(v: &Value, other: Option<&Value>, side: Side) -> &'static str {
    match other {
        Some(o) if o != v => match side {
            Side::Before => MASK_BEFORE,
            Side::After => MASK_AFTER,
        },
        _ => MASK,
    }
}

/// Every value of a map hidden (a Secret's `data`); anything else is left alone.
pub fn mask_values(v: &mut Value) {
    if let Value::Object(m) = v {
        for item in m.values_mut() {
            *item = Value::String(MASK.into());
        }
    }
}

/// Whether a field of a Secret (its keys from the object's root) holds the Secret's values:
/// under `data` or `stringData`, or the last-applied annotation (which copies them).
#[must_use]
pub fn holds_values(keys: &[&str]) -> bool {
    matches!(keys, ["data" | "stringData", _, ..])
        || matches!(keys, ["metadata", "annotations", key] if *key == LAST_APPLIED)
}

/// Whether a field of a Secret (its keys from the object's root) shows any of the Secret's
/// values when written whole: one of [`FIELDS`] itself, or a field that [`holds_values`].
#[must_use]
pub fn shows_values(keys: &[&str]) -> bool {
    matches!(keys, [top] if FIELDS.contains(top)) || holds_values(keys)
}

/// A Secret with its values hidden: `data`, `stringData` and the annotation's copy of them.
pub fn mask_object(obj: &mut Value) {
    mask_at(obj, &[]);
}

/// The value found at `path` (keys from the object's root) of a Secret, with what it holds of
/// the Secret's values hidden.
pub fn mask_at(v: &mut Value, path: &[&str]) {
    match path {
        [] => {
            for field in FIELDS {
                if let Some(m) = v.get_mut(field) {
                    mask_values(m);
                }
            }
            if let Some(m) = v.get_mut("metadata") {
                mask_at(m, &["metadata"]);
            }
        }
        ["data" | "stringData"] => mask_values(v),
        ["data" | "stringData", _, ..] => *v = Value::String(MASK.into()),
        ["metadata"] => {
            if let Some(a) = v.get_mut("annotations") {
                mask_at(a, &["metadata", "annotations"]);
            }
        }
        ["metadata", "annotations"] => {
            if let Some(s) = v.get_mut(LAST_APPLIED) {
                mask_at(s, &["metadata", "annotations", LAST_APPLIED]);
            }
        }
        ["metadata", "annotations", key] if *key == LAST_APPLIED => {
            if let Value::String(s) = v
                && let Cow::Owned(masked) = mask_annotation(s)
            {
                *s = masked.into();
            }
        }
        _ => {}
    }
}

/// The last-applied annotation's JSON with the Secret's values hidden (as is when it holds
/// none; all of it when it is not JSON).
#[must_use]
pub fn mask_annotation(json: &str) -> Cow<'_, str> {
    let Ok(mut doc) = serde_json::from_str::<Value>(json) else {
        return Cow::Borrowed(MASK);
    };
    let mut changed = false;
    for field in FIELDS {
        if let Some(Value::Object(m)) = doc.get_mut(field) {
            for v in m.values_mut() {
                *v = Value::String(MASK.into());
                changed = true;
            }
        }
    }
    if !changed {
        return Cow::Borrowed(json);
    }
    match gojson::to_string(&doc) {
        Ok(mut masked) => {
            if json.ends_with('\n') {
                masked.push('\n');
            }
            Cow::Owned(masked)
        }
        Err(_) => Cow::Borrowed(MASK),
    }
}

/// kubectl's `Masker.run` on the two sides of a diff (either may be absent), over `fields`
/// (kubectl's: `data`; the panes': [`FIELDS`]).
pub fn mask_pair(mut from: Option<&mut Value>, mut to: Option<&mut Value>, fields: &[&str]) {
    for &field in fields {
        let from_data = from
            .as_deref_mut()
            .and_then(|o| o.get_mut(field))
            .and_then(Value::as_object_mut);
        let to_data = to
            .as_deref_mut()
            .and_then(|o| o.get_mut(field))
            .and_then(Value::as_object_mut);
        match (from_data, to_data) {
            (Some(from), Some(to)) => {
                for (k, v) in from.iter_mut() {
                    let t = to.get_mut(k);
                    let (before, after) = (
                        mask_text(v, t.as_deref(), Side::Before),
                        t.as_deref().map(|t| mask_text(t, Some(v), Side::After)),
                    );
                    if let (Some(t), Some(after)) = (t, after) {
                        *t = Value::String(after.into());
                    }
                    *v = Value::String(before.into());
                }
                for (k, t) in to.iter_mut() {
                    if !from.contains_key(k) {
                        *t = Value::String(MASK.into());
                    }
                }
            }
            (Some(only), None) | (None, Some(only)) => {
                for v in only.values_mut() {
                    *v = Value::String(MASK.into());
                }
            }
            (None, None) => {}
        }
    }
}

/// What the API server stores for a core Secret: `stringData` merged into `data`,
/// base64-encoded.
pub fn fold_string_data(obj: &mut Value) {
    if !is_core_secret(obj) {
        return;
    }
    let Some(root) = obj.as_object_mut() else {
        return;
    };
    let Some(Value::Object(string_data)) = root.remove("stringData") else {
        return;
    };
    let data = root
        .entry("data")
        .or_insert_with(|| Value::Object(Map::new()));
    if !data.is_object() {
        *data = Value::Object(Map::new());
    }
    if let Value::Object(data) = data {
        for (k, v) in string_data {
            let text = match &v {
                Value::String(s) => s.to_string(),
                other => gojson::to_string(other).unwrap_or_default(),
            };
            let encoded = base64::engine::general_purpose::STANDARD.encode(text.as_bytes());
            data.insert(k, Value::String(encoded.into()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn which_fields_show_a_secrets_values() {
        for keys in [
            &["data"][..],
            &["stringData"],
            &["data", "password"],
            &["stringData", "token"],
            &["metadata", "annotations", LAST_APPLIED],
        ] {
            assert!(shows_values(keys), "{keys:?}");
        }
        for keys in [
            &[][..],
            &["type"],
            &["dataset"],
            &["metadata", "annotations"],
            &["metadata", "annotations", "other"],
            &["metadata", "labels", "data"],
        ] {
            assert!(!shows_values(keys), "{keys:?}");
        }
    }

    #[test]
    fn kubectl_masker_rules() {
        let mut from = json!({"data": {"same": "YQ==", "changed": "Yg==", "gone": "Yw=="}});
        let mut to = json!({"data": {"same": "YQ==", "changed": "ZA==", "new": "ZQ=="}});
        mask_pair(Some(&mut from), Some(&mut to), &["data"]);
        assert_eq!(
            from,
            json!({"data": {"same": "***", "changed": "*** (before)", "gone": "***"}})
        );
        assert_eq!(
            to,
            json!({"data": {"same": "***", "changed": "*** (after)", "new": "***"}})
        );
        let mut created = json!({"data": {"a": "YQ=="}, "stringData": {"b": "c"}});
        mask_pair(None, Some(&mut created), &FIELDS);
        assert_eq!(
            created,
            json!({"data": {"a": "***"}, "stringData": {"b": "***"}})
        );
    }

    #[test]
    fn secrets_are_v1_secrets_of_any_group() {
        assert!(is_secret(&json!({"apiVersion": "v1", "kind": "Secret"})));
        assert!(is_secret(
            &json!({"apiVersion": "example.com/v1", "kind": "Secret"})
        ));
        assert!(!is_core_secret(
            &json!({"apiVersion": "example.com/v1", "kind": "Secret"})
        ));
        assert!(!is_secret(
            &json!({"apiVersion": "v1", "kind": "ConfigMap"})
        ));
    }

    #[test]
    fn string_data_folds_into_data_as_the_server_stores_it() {
        let mut s = json!({"apiVersion": "v1", "kind": "Secret",
                           "data": {"a": "b2xk", "k": "eA=="}, "stringData": {"a": "new", "pw": "hunter2", "f": "fo"}});
        fold_string_data(&mut s);
        assert_eq!(
            s,
            json!({"apiVersion": "v1", "kind": "Secret",
                   "data": {"a": "bmV3", "k": "eA==", "pw": "aHVudGVyMg==", "f": "Zm8="}})
        );
    }

    #[test]
    fn annotation_values_masked() {
        let text = "{\"data\":{\"pw\":\"aHVudGVyMg==\"},\"kind\":\"Secret\",\"stringData\":{\"x\":\"y\"}}\n";
        assert_eq!(
            mask_annotation(text),
            "{\"data\":{\"pw\":\"***\"},\"kind\":\"Secret\",\"stringData\":{\"x\":\"***\"}}\n"
        );
        assert_eq!(
            mask_annotation("{\"kind\":\"Secret\"}"),
            "{\"kind\":\"Secret\"}"
        );
        assert_eq!(mask_annotation("not json"), MASK);
    }

    /// Whatever part of a Secret a path reaches, what it holds of the values is hidden.
    #[test]
    fn values_hidden_at_every_path() {
        let annotation = "{\"data\":{\"pw\":\"eA==\"}}";
        let secret = json!({"apiVersion": "v1", "kind": "Secret",
            "metadata": {"name": "s", "annotations": {LAST_APPLIED: annotation}},
            "data": {"pw": "eA=="}, "stringData": {"u": "x"}});
        let hidden = "{\"data\":{\"pw\":\"***\"}}";
        let mut whole = secret.clone();
        mask_object(&mut whole);
        assert_eq!(whole["data"]["pw"], MASK);
        assert_eq!(whole["stringData"]["u"], MASK);
        assert_eq!(whole["metadata"]["annotations"][LAST_APPLIED], hidden);
        for (path, pick) in [
            (&["metadata"][..], &["annotations", LAST_APPLIED][..]),
            (&["metadata", "annotations"][..], &[LAST_APPLIED][..]),
            (&["metadata", "annotations", LAST_APPLIED][..], &[][..]),
        ] {
            let mut v = path.iter().fold(&secret, |v, k| &v[*k]).clone();
            mask_at(&mut v, path);
            assert_eq!(pick.iter().fold(&v, |v, k| &v[*k]), hidden, "{path:?}");
        }
        let mut pw = json!("eA==");
        mask_at(&mut pw, &["data", "pw"]);
        assert_eq!(pw, MASK);
    }
}
