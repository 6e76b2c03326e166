//! The requests of `kubectl apply --server-side`, as data, byte for byte as kubectl 1.37 sends
//! them (recorded from kubectl against a server: `resource.Helper.Patch`, whose query is
//! `url.Values.Encode`, keys sorted):
//!
//! | request | content type | query | body |
//! | --- | --- | --- | --- |
//! | apply, apply again | `application/apply-patch+yaml` | `[dryRun=All&]fieldManager=M&fieldValidation=V&force=false\|true` | the object as JSON (`json.Encoder`: sorted keys, `<>&` escaped, a newline) |
//! | save last-applied | `application/apply-patch+yaml` | `fieldManager=kubectl-last-applied&fieldValidation=V` | `{apiVersion, kind, metadata: {annotations: {last-applied}, name, namespace}}`, as above |
//! | csaupgrade | `application/json-patch+json` | `fieldManager=M&fieldValidation=V` | `[{"op":"replace","path":"/metadata/managedFields","value":[…]},{"op":"replace","path":"/metadata/resourceVersion","value":"RV"}]` |
//!
//! The csaupgrade's `resourceVersion` is the one of the answer before it: the server refuses
//! the patch (409) if the object changed since.

use crate::engine::gojson;
use crate::value::{Map, Value};

use super::{ClusterError, Request, Target, Validation, Verb};

/// The content type of a server-side apply.
pub const APPLY_PATCH: &str = "application/apply-patch+yaml";
/// The content type of the csaupgrade.
pub const JSON_PATCH: &str = "application/json-patch+json";

fn query(
    dry_run: bool,
    manager: &str,
    validation: Validation,
    force: Option<bool>,
) -> Vec<(String, String)> {
    let mut q = Vec::new();
    if dry_run {
        q.push(("dryRun".to_owned(), "All".to_owned()));
    }
    q.push(("fieldManager".to_owned(), manager.to_owned()));
    q.push(("fieldValidation".to_owned(), validation.query().to_owned()));
    if let Some(force) = force {
        q.push(("force".to_owned(), force.to_string()));
    }
    q
}

fn local(e: &gojson::GoJsonError) -> ClusterError {
    ClusterError::Local(e.to_string())
}

/// An apply PATCH of `body` by `manager`: `force` is `Some` for kubectl's own apply (it sends
/// `force=false` too), `None` for the `kubectl-last-applied` one (sent without options).
///
/// # Errors
/// The body cannot be written as JSON.
pub fn apply_patch(
    target: &Target,
    body: &Value,
    manager: &str,
    force: Option<bool>,
    validation: Validation,
    dry_run: bool,
) -> Result<Request, ClusterError> {
    let mut text = gojson::to_string(body).map_err(|e| local(&e))?;
    text.push('\n');
    Ok(Request {
        verb: Verb::Patch,
        path: target.path(),
        query: query(dry_run, manager, validation, force),
        content_type: Some(APPLY_PATCH),
        body: Some(text),
        resource: target.resource(),
        name: target.name.clone(),
    })
}

/// The fields of a `ManagedFieldsEntry`, in the order Go writes them.
const ENTRY_FIELDS: [&str; 7] = [
    "manager",
    "operation",
    "apiVersion",
    "time",
    "fieldsType",
    "fieldsV1",
    "subresource",
];

/// An entry as Go writes a `ManagedFieldsEntry`: its fields in the struct's order, empty ones
/// left out; `fieldsV1` with sorted keys (kubectl reads it through a map) unless `merged` (the
/// entry csaupgrade wrote, whose FieldsV1 is the field set's own order).
fn entry(e: &Value, merged: bool) -> Result<Value, ClusterError> {
    let mut m = Map::new();
    for k in ENTRY_FIELDS {
        let Some(v) = e.get(k) else { continue };
        if v.is_null() || v.as_str() == Some("") {
            continue;
        }
        let v = if k == "fieldsV1" && !merged {
            let sorted = gojson::to_string(v).map_err(|e| local(&e))?;
            serde_json::from_str(&sorted).map_err(|e| ClusterError::Local(e.to_string()))?
        } else {
            v.clone()
        };
        m.insert(k, v);
    }
    Ok(Value::Object(m))
}

/// The csaupgrade: a JSON patch replacing `metadata.managedFields` with `after` and
/// `metadata.resourceVersion` with `resource_version` (so that the server refuses it if the
/// object changed). `before` tells the entry csaupgrade merged (the one not among them).
///
/// # Errors
/// The body cannot be written as JSON.
pub fn upgrade_patch(
    target: &Target,
    before: &[Value],
    after: &[Value],
    resource_version: &str,
    manager: &str,
    validation: Validation,
    dry_run: bool,
) -> Result<Request, ClusterError> {
    let entries = after
        .iter()
        .map(|e| entry(e, !before.contains(e)))
        .collect::<Result<Vec<_>, _>>()?;
    let op = |path: &str, value: Value| {
        let mut m = Map::new();
        m.insert("op", Value::from("replace"));
        m.insert("path", Value::from(path));
        m.insert("value", value);
        Value::Object(m)
    };
    let body = Value::Array(vec![
        op("/metadata/managedFields", Value::Array(entries)),
        op("/metadata/resourceVersion", Value::from(resource_version)),
    ]);
    Ok(Request {
        verb: Verb::Patch,
        path: target.path(),
        query: query(dry_run, manager, validation, None),
        content_type: Some(JSON_PATCH),
        body: Some(gojson::to_string_in_order(&body).map_err(|e| local(&e))?),
        resource: target.resource(),
        name: target.name.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn target() -> Target {
        Target {
            api_version: "v1".into(),
            kind: "ConfigMap".into(),
            plural: "configmaps".into(),
            namespace: Some("default".into()),
            name: "test".into(),
        }
    }

    /// As recorded from kubectl 1.37.1 (`--validate=false`).
    #[test]
    fn apply_requests_are_kubectls() {
        let body = json!({"kind": "ConfigMap", "apiVersion": "v1", "metadata": {"name": "test", "namespace": "default"}, "data": {"key": "value<&>"}});
        let r = apply_patch(
            &target(),
            &body,
            "kubectl",
            Some(false),
            Validation::Ignore,
            false,
        )
        .unwrap();
        assert_eq!(
            r.uri(),
            "/api/v1/namespaces/default/configmaps/test?fieldManager=kubectl&fieldValidation=Ignore&force=false"
        );
        assert_eq!(
            r.body.as_deref(),
            Some(
                "{\"apiVersion\":\"v1\",\"data\":{\"key\":\"value\\u003c\\u0026\\u003e\"},\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"test\",\"namespace\":\"default\"}}\n"
            )
        );
        let dry =
            apply_patch(&target(), &body, "me", Some(true), Validation::Ignore, true).unwrap();
        assert_eq!(
            dry.uri(),
            "/api/v1/namespaces/default/configmaps/test?dryRun=All&fieldManager=me&fieldValidation=Ignore&force=true"
        );
        let saved = apply_patch(
            &target(),
            &body,
            "kubectl-last-applied",
            None,
            Validation::Ignore,
            false,
        )
        .unwrap();
        assert!(
            saved
                .uri()
                .ends_with("?fieldManager=kubectl-last-applied&fieldValidation=Ignore")
        );
    }

    #[test]
    fn the_upgrade_patch_is_kubectls() {
        let before = vec![
            json!({"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:key": {}}}, "manager": "kubectl", "operation": "Apply", "time": "2026-01-01T00:00:00Z"}),
            json!({"manager": "other", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {"f:z": {}, "f:a": {}}}}),
        ];
        let after = vec![
            json!({"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {"f:data": {".": {}, "f:key": {}}}, "manager": "kubectl", "operation": "Apply", "time": "2026-01-01T00:00:00Z"}),
            before[1].clone(),
        ];
        let r = upgrade_patch(
            &target(),
            &before,
            &after,
            "7",
            "kubectl",
            Validation::Strict,
            false,
        )
        .unwrap();
        assert_eq!(r.content_type, Some(JSON_PATCH));
        assert_eq!(
            r.uri(),
            "/api/v1/namespaces/default/configmaps/test?fieldManager=kubectl&fieldValidation=Strict"
        );
        assert_eq!(
            r.body.as_deref(),
            Some(
                r#"[{"op":"replace","path":"/metadata/managedFields","value":[{"manager":"kubectl","operation":"Apply","apiVersion":"v1","time":"2026-01-01T00:00:00Z","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:key":{}}}},{"manager":"other","operation":"Update","apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{"f:a":{},"f:z":{}}}}]},{"op":"replace","path":"/metadata/resourceVersion","value":"7"}]"#
            )
        );
    }
}
