//! The values of [`super`]: the local object inferred from the server's merged object, and
//! where applyscope's planned result differs from that object. Pure: values in, values out.

use crate::engine::plan::LAST_APPLIED;
use crate::engine::secret;
use crate::value::{Map, Value};

/// Metadata only a server sets, left out of the inferred local object.
const SERVER_METADATA: [&str; 7] = [
    "resourceVersion",
    "uid",
    "creationTimestamp",
    "generation",
    "managedFields",
    "selfLink",
    "deletionTimestamp",
];

/// The local object kubectl diff does not pass, inferred from the server's merged object:
/// what only a server sets (`status`, [`SERVER_METADATA`]) and the last-applied annotation
/// left out; then, when there is a live object, only the fields last-applied names and those
/// where MERGED differs from live (maps compared key by key, anything else whole), with the
/// object's identity (`apiVersion`, `kind`, `metadata.name`, `metadata.namespace`).
#[must_use]
pub fn infer_local(merged: &Value, live: Option<&Value>, last_applied: Option<&Value>) -> Value {
    let mut local = merged.clone();
    if let Some(root) = local.as_object_mut() {
        root.shift_remove("status");
    }
    if let Some(meta) = local.get_mut("metadata").and_then(Value::as_object_mut) {
        for key in SERVER_METADATA {
            meta.shift_remove(key);
        }
        if let Some(a) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            a.shift_remove(LAST_APPLIED);
        }
        if meta
            .get("annotations")
            .is_some_and(|a| a.as_object().is_some_and(Map::is_empty))
        {
            meta.shift_remove("annotations");
        }
    }
    let Some(live) = live else {
        return local;
    };
    let mut projected =
        project(&local, live, last_applied).unwrap_or_else(|| Value::Object(Map::new()));
    if let Some(root) = projected.as_object_mut() {
        for key in ["apiVersion", "kind"] {
            if let Some(v) = merged.get(key) {
                root.insert(key, v.clone());
            }
        }
        let meta = root
            .entry("metadata")
            .or_insert_with(|| Value::Object(Map::new()));
        if let Some(meta) = meta.as_object_mut() {
            for key in ["name", "namespace"] {
                if let Some(v) = merged.get("metadata").and_then(|m| m.get(key)) {
                    meta.insert(key, v.clone());
                }
            }
        }
    }
    projected
}

/// The map `merged` kept where last-applied names a key or `live` differs.
fn project(merged: &Value, live: &Value, last_applied: Option<&Value>) -> Option<Value> {
    let (Value::Object(m), Value::Object(l)) = (merged, live) else {
        return None;
    };
    let mut out = Map::new();
    for (key, value) in m.iter() {
        let named = last_applied.and_then(|a| a.get(key.as_str()));
        let live_value = l.get(key);
        match (value, live_value) {
            (Value::Object(_), Some(lv @ Value::Object(_))) => {
                let child = project(value, lv, named);
                match child {
                    Some(c) if c.as_object().is_some_and(|c| !c.is_empty()) || named.is_some() => {
                        out.insert(key.clone(), c);
                    }
                    _ => {}
                }
            }
            _ if named.is_some() || live_value != Some(value) => {
                out.insert(key.clone(), value.clone());
            }
            _ => {}
        }
    }
    Some(Value::Object(out))
}

/// An object as the comparison sees it: without `managedFields` and the last-applied
/// annotation (kubectl diff leaves it as live; applyscope's plan writes the new one), an empty
/// annotations map dropped, a core Secret's `stringData` folded into `data`.
pub fn comparable(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.shift_remove("managedFields");
        if let Some(a) = meta.get_mut("annotations").and_then(Value::as_object_mut) {
            a.shift_remove(LAST_APPLIED);
        }
        if meta
            .get("annotations")
            .is_some_and(|a| a.as_object().is_some_and(Map::is_empty))
        {
            meta.shift_remove("annotations");
        }
    }
    secret::fold_string_data(&mut v);
    v
}

/// The paths (`spec.replicas`, `metadata.labels["app.kubernetes.io/name"]`, `spec.ports[0]`)
/// where `a` and `b` differ: maps key by key, lists of equal length item by item.
pub fn differences(a: &Value, b: &Value, path: &str, out: &mut Vec<String>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut keys: Vec<&str> = x.keys().map(|k| k.as_str()).collect();
            keys.extend(y.keys().map(|k| k.as_str()).filter(|k| !x.contains_key(k)));
            for key in keys {
                let at = join(path, key);
                match (x.get(key), y.get(key)) {
                    (Some(p), Some(q)) => differences(p, q, &at, out),
                    (p, q) if p != q => out.push(at),
                    _ => {}
                }
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                differences(p, q, &format!("{path}[{i}]"), out);
            }
        }
        _ if a != b => out.push(if path.is_empty() {
            ".".into()
        } else {
            path.into()
        }),
        _ => {}
    }
}

fn join(path: &str, key: &str) -> String {
    let plain = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match (path.is_empty(), plain) {
        (true, true) => key.to_owned(),
        (false, true) => format!("{path}.{key}"),
        (_, false) => format!("{path}[{key:?}]"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn json(text: &str) -> Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn local_is_what_last_applied_names_and_what_changes() {
        let live = json(
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","resourceVersion":"5","uid":"u","labels":{"ctrl":"x","app":"a"}},"data":{"mode":"a","ctrl":"y","old":"z"}}"#,
        );
        let merged = json(
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","namespace":"default","resourceVersion":"5","uid":"u","labels":{"ctrl":"x","app":"a"}},"data":{"mode":"b","ctrl":"y"}}"#,
        );
        let la = json(
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a","labels":{"app":"a"}},"data":{"mode":"a","old":"z"}}"#,
        );
        let local = infer_local(&merged, Some(&live), Some(&la));
        assert_eq!(
            local,
            json(
                r#"{"metadata":{"labels":{"app":"a"},"name":"a","namespace":"default"},"data":{"mode":"b"},"apiVersion":"v1","kind":"ConfigMap"}"#
            )
        );
        // A create: all of MERGED but what only a server sets.
        let created = infer_local(&merged, None, None);
        assert!(created.pointer("/metadata/uid").is_none());
        assert_eq!(created["data"]["ctrl"], Value::from("y"));
    }

    #[test]
    fn differences_name_paths() {
        let a = json(r#"{"spec":{"replicas":1,"x.y":"a","ports":[1,2]},"kind":"K"}"#);
        let b = json(r#"{"spec":{"replicas":2,"x.y":"a","ports":[1,3]},"status":{}}"#);
        let mut at = Vec::new();
        differences(&a, &b, "", &mut at);
        assert_eq!(at, ["spec.replicas", "spec.ports[1]", "kind", "status"]);
    }
}
