//! Secret values in a diff, hidden as `kubectl diff` hides them (`pkg/cmd/diff/diff.go`,
//! `Masker`), plus two steps kubectl gets from the API server or leaves undone.
//!
//! kubectl's rules, for an object whose apiVersion's version is `v1` and kind is `Secret` (the
//! group is not checked), unless `--show-secrets`: every value of `data` becomes `***`; a key
//! on both sides whose values differ becomes `*** (before)` on the live side and `*** (after)`
//! on the merged side, so the diff still shows that it changed.
//!
//! Added here:
//! - `stringData` is folded into `data` (base64-encoded; `stringData` wins), as the API server
//!   does when it stores a Secret: a real dry-run apply answers with `data` only, so
//!   `kubectl diff` against a cluster shows masked `data`, never `stringData` in clear. (Against
//!   a fake server that does not convert, kubectl prints `stringData` unmasked.)
//! - the `kubectl.kubernetes.io/last-applied-configuration` annotation holds the Secret's data
//!   too; kubectl prints it as it is. Here its `data` and `stringData` values are masked with
//!   `***` (both sides hold the same annotation, so this changes no line of the diff's verdict).

use crate::value::{Map, Value};

use crate::engine::gojson;
use crate::engine::plan::LAST_APPLIED;

const MASK: &str = "***";
const MASK_BEFORE: &str = "*** (before)";
const MASK_AFTER: &str = "*** (after)";

/// Whether kubectl masks this object: version `v1`, kind `Secret`.
#[must_use]
pub fn is_secret(obj: &Value) -> bool {
    let version = obj
        .get("apiVersion")
        .and_then(Value::as_str)
        .map(|a| a.rsplit('/').next().unwrap_or(a));
    version == Some("v1") && obj.get("kind").and_then(Value::as_str) == Some("Secret")
}

/// The core-group Secret (`apiVersion: v1`), whose `stringData` the API server folds into `data`.
fn is_core_secret(obj: &Value) -> bool {
    obj.get("apiVersion").and_then(Value::as_str) == Some("v1")
        && obj.get("kind").and_then(Value::as_str) == Some("Secret")
}

/// What the API server stores for a Secret: `stringData` merged into `data`, base64-encoded.
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
            data.insert(k, Value::String(base64(text.as_bytes()).into()));
        }
    }
}

/// kubectl's `Masker.run` on the two sides of a diff (either may be absent).
pub fn mask_pair(from: Option<&mut Value>, to: Option<&mut Value>) {
    let from_data = from
        .and_then(|o| o.get_mut("data"))
        .and_then(Value::as_object_mut);
    let to_data = to
        .and_then(|o| o.get_mut("data"))
        .and_then(Value::as_object_mut);
    match (from_data, to_data) {
        (Some(from), Some(to)) => {
            for (k, v) in from.iter_mut() {
                match to.get_mut(k) {
                    Some(t) if t != v => {
                        *v = Value::String(MASK_BEFORE.into());
                        *t = Value::String(MASK_AFTER.into());
                    }
                    Some(t) => {
                        *t = Value::String(MASK.into());
                        *v = Value::String(MASK.into());
                    }
                    None => *v = Value::String(MASK.into()),
                }
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

/// Mask `data` and `stringData` values inside the object's last-applied annotation.
pub fn mask_annotation(obj: &mut Value) {
    let Some(text) = obj
        .get_mut("metadata")
        .and_then(|m| m.get_mut("annotations"))
        .and_then(|a| a.get_mut(LAST_APPLIED))
    else {
        return;
    };
    let Some(s) = text.as_str() else { return };
    let Ok(mut doc) = serde_json::from_str::<Value>(s) else {
        return;
    };
    let mut changed = false;
    for field in ["data", "stringData"] {
        if let Some(Value::Object(m)) = doc.get_mut(field) {
            for v in m.values_mut() {
                *v = Value::String(MASK.into());
                changed = true;
            }
        }
    }
    if !changed {
        return;
    }
    if let Ok(mut masked) = gojson::to_string(&doc) {
        if s.ends_with('\n') {
            masked.push('\n');
        }
        *text = Value::String(masked.into());
    }
}

/// Standard base64 with padding (what the API server stores in `data`).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18u32, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> shift) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    #[test]
    fn kubectl_masker_rules() {
        let mut from = json!({"data": {"same": "YQ==", "changed": "Yg==", "gone": "Yw=="}});
        let mut to = json!({"data": {"same": "YQ==", "changed": "ZA==", "new": "ZQ=="}});
        mask_pair(Some(&mut from), Some(&mut to));
        assert_eq!(
            from,
            json!({"data": {"same": "***", "changed": "*** (before)", "gone": "***"}})
        );
        assert_eq!(
            to,
            json!({"data": {"same": "***", "changed": "*** (after)", "new": "***"}})
        );
        let mut created = json!({"data": {"a": "YQ=="}});
        mask_pair(None, Some(&mut created));
        assert_eq!(created, json!({"data": {"a": "***"}}));
    }

    #[test]
    fn secrets_are_v1_secrets_of_any_group() {
        assert!(is_secret(&json!({"apiVersion": "v1", "kind": "Secret"})));
        assert!(is_secret(
            &json!({"apiVersion": "example.com/v1", "kind": "Secret"})
        ));
        assert!(!is_secret(
            &json!({"apiVersion": "v1", "kind": "ConfigMap"})
        ));
    }

    #[test]
    fn string_data_folds_into_data_as_the_server_stores_it() {
        let mut s = json!({"apiVersion": "v1", "kind": "Secret",
                           "data": {"a": "b2xk", "k": "eA=="}, "stringData": {"a": "new", "pw": "hunter2"}});
        fold_string_data(&mut s);
        assert_eq!(
            s,
            json!({"apiVersion": "v1", "kind": "Secret",
                   "data": {"a": "bmV3", "k": "eA==", "pw": "aHVudGVyMg=="}})
        );
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
    }

    #[test]
    fn annotation_values_masked() {
        let mut s = json!({"metadata": {"annotations": {LAST_APPLIED:
            "{\"data\":{\"pw\":\"aHVudGVyMg==\"},\"kind\":\"Secret\",\"stringData\":{\"x\":\"y\"}}\n"}}});
        mask_annotation(&mut s);
        assert_eq!(
            s["metadata"]["annotations"][LAST_APPLIED],
            "{\"data\":{\"pw\":\"***\"},\"kind\":\"Secret\",\"stringData\":{\"x\":\"***\"}}\n"
        );
    }
}
