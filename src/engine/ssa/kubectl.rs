//! What the whole `kubectl apply --server-side` command does to one object (kubectl
//! `apply.go`), as the requests it sends, each with the object it leaves:
//!
//! 1. [`StepKind::Apply`]: the file, as `application/apply-patch+yaml`, by the field manager
//!    (`kubectl` by default), forced with `--force-conflicts`;
//! 2. [`StepKind::SaveLastApplied`]: only for the manager `kubectl`, when the object carries
//!    the last-applied annotation and no Apply entry owns it: an apply of just that annotation
//!    by `kubectl-last-applied` (so that later applies never prune it);
//! 3. [`StepKind::UpgradeManagedFields`]: the Update entries that own the annotation (the
//!    client-side managers) are merged into the applier's entry (client-go csaupgrade), sent
//!    as a JSON patch of `metadata.managedFields`;
//! 4. [`StepKind::ApplyAgain`]: when step 3 changed something, the same apply again: what
//!    the client-side managers owned is now the applier's previous set, so what the file
//!    dropped is pruned (kubernetes#99003, fixed by kubernetes#112905).

use super::csaupgrade;
use super::lastapplied::ANNOTATION;
use super::path::PathElement;
use super::request::{Request, RequestError};
use super::set::Set;
use crate::value::{Map, Value};

/// The manager kubectl saves the annotation with.
pub const LAST_APPLIED_MANAGER: &str = "kubectl-last-applied";

/// Which request a step is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    Apply,
    SaveLastApplied,
    /// The client-side managers whose entries were merged into the applier's.
    UpgradeManagedFields {
        from: Vec<String>,
    },
    ApplyAgain,
}

/// One request and the object it leaves.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub kind: StepKind,
    /// The body sent (the apply configuration, or the new `metadata.managedFields`).
    pub body: Value,
    pub object: Value,
}

fn annotation_path() -> Set {
    Set::from_paths([[
        PathElement::field("metadata"),
        PathElement::field("annotations"),
        PathElement::field(ANNOTATION),
    ]
    .as_slice()])
}

fn managed_fields(obj: &Value) -> &[Value] {
    obj.get("metadata")
        .and_then(|m| m.get("managedFields"))
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice)
}

/// The requests `kubectl apply --server-side` makes for one object and what each leaves.
///
/// # Errors
/// The first request that fails (conflicts without `force`, bad managedFields, a config the
/// schema rejects).
pub fn apply_server_side(
    req: &Request<'_>,
    live: &Value,
    file: &Value,
    manager: &str,
    force: bool,
) -> Result<Vec<Step>, RequestError> {
    let mut steps = vec![Step {
        kind: StepKind::Apply,
        body: file.clone(),
        object: req.apply(live, file, manager, force)?,
    }];
    let annotation = annotation_of(&steps[0].object).map(str::to_owned);
    let Some(annotation) = annotation else {
        return Ok(steps);
    };
    let path = annotation_path();
    if manager == "kubectl"
        && csaupgrade::find_fields_owners(managed_fields(&steps[0].object), "Apply", &path)
            .is_empty()
    {
        let body = last_applied_body(&steps[0].object, &annotation);
        let object = req.apply(&steps[0].object, &body, LAST_APPLIED_MANAGER, force)?;
        steps.push(Step {
            kind: StepKind::SaveLastApplied,
            body,
            object,
        });
    }
    let object = &steps[steps.len() - 1].object;
    let entries = managed_fields(object);
    let mut from: Vec<String> = csaupgrade::find_fields_owners(entries, "Update", &path)
        .into_iter()
        .filter_map(|e| e.get("manager").and_then(Value::as_str).map(str::to_owned))
        .collect();
    from.sort();
    from.dedup();
    let names: Vec<&str> = from.iter().map(String::as_str).collect();
    // The csaupgrade changes only `metadata.managedFields`: it runs on a shell holding them,
    // and the object is copied only when they change.
    let before = object.get("metadata").and_then(|m| m.get("managedFields"));
    let mut shell = Map::new();
    if object.get("metadata").is_some_and(Value::is_object) {
        let mut meta = Map::new();
        if let Some(list) = before {
            meta.insert("managedFields", list.clone());
        }
        shell.insert("metadata", Value::Object(meta));
    }
    let mut shell = Value::Object(shell);
    csaupgrade::upgrade_managed_fields(&mut shell, &names, manager, "")?;
    let after = shell
        .get_mut("metadata")
        .and_then(Value::as_object_mut)
        .and_then(|m| m.shift_remove("managedFields"));
    if after.as_ref() == before {
        return Ok(steps);
    }
    let mut object = steps[steps.len() - 1].object.clone();
    if let Some(meta) = object.get_mut("metadata").and_then(Value::as_object_mut) {
        match after {
            Some(list) => {
                meta.insert("managedFields", list);
            }
            None => {
                meta.shift_remove("managedFields");
            }
        }
    }
    steps.push(Step {
        kind: StepKind::UpgradeManagedFields { from },
        body: Value::Array(managed_fields(&object).to_vec()),
        object,
    });
    let object = req.apply(&steps[steps.len() - 1].object, file, manager, force)?;
    steps.push(Step {
        kind: StepKind::ApplyAgain,
        body: file.clone(),
        object,
    });
    Ok(steps)
}

fn annotation_of(object: &Value) -> Option<&str> {
    object
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get(ANNOTATION))
        .and_then(Value::as_str)
}

/// `{apiVersion, kind, metadata: {name, namespace, annotations: {last-applied}}}`.
fn last_applied_body(object: &Value, annotation: &str) -> Value {
    let mut meta = Map::new();
    for k in ["name", "namespace"] {
        if let Some(v) = object.get("metadata").and_then(|m| m.get(k)) {
            meta.insert(k, v.clone());
        }
    }
    let mut annotations = Map::new();
    annotations.insert(ANNOTATION, Value::from(annotation));
    meta.insert("annotations", Value::Object(annotations));
    let mut body = Map::new();
    for k in ["apiVersion", "kind"] {
        if let Some(v) = object.get(k) {
            body.insert(k, v.clone());
        }
    }
    body.insert("metadata", Value::Object(meta));
    Value::Object(body)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::ssa::kubernetes;
    use crate::engine::ssa::managed::decode;

    fn v(s: &str) -> Value {
        serde_json::from_str(s).unwrap()
    }

    fn types(api_version: &str, kind: &str) -> Option<crate::engine::ssa::TypeRef> {
        kubernetes::embedded().root_for_gvk(api_version, kind)
    }

    fn request<'a>(api_version: &'a str, kind: &str, time: &'a str) -> Request<'a> {
        let kube = kubernetes::embedded();
        Request {
            schema: &kube.schema,
            root: kube.root_for_gvk(api_version, kind).unwrap(),
            api_version,
            types: &types,
            ignored: None,
            time,
            subresource: "",
        }
    }

    fn owned(obj: &Value, manager: &str, operation: &str) -> Option<String> {
        let entries = decode_list(obj);
        entries
            .into_iter()
            .find(|e| e["manager"] == manager && e["operation"] == operation)
            .map(|e| crate::engine::gojson::to_string_in_order(&e["fieldsV1"]).unwrap())
    }

    fn decode_list(obj: &Value) -> Vec<Value> {
        decode(obj["metadata"].get("managedFields")).unwrap();
        managed_fields(obj).to_vec()
    }

    /// SEMANTICS.md §6, worked example (kubernetes#99003 on a ConfigMap).
    #[test]
    fn migration_from_client_side_apply_prunes_on_the_second_apply() {
        let req = request("v1", "ConfigMap", "2026-11-25T10:00:00Z");
        let annotation = r#"{"apiVersion":"v1","data":{"key":"value","legacy":"unused"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"test","namespace":"default"}}"#;
        let mut created = v(
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"test","namespace":"default","annotations":{}},"data":{"key":"value","legacy":"unused"}}"#,
        );
        created["metadata"]["annotations"]
            .as_object_mut()
            .unwrap()
            .insert(ANNOTATION, Value::from(format!("{annotation}\n")));
        let live = req
            .update(&Value::Null, &created, "kubectl-client-side-apply")
            .unwrap();
        assert_eq!(
            owned(&live, "kubectl-client-side-apply", "Update").unwrap(),
            r#"{"f:data":{".":{},"f:key":{},"f:legacy":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}"#
        );
        let file = v(
            r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"test","namespace":"default"},"data":{"key":"value"}}"#,
        );
        let steps = apply_server_side(&req, &live, &file, "kubectl", false).unwrap();
        let kinds: Vec<&StepKind> = steps.iter().map(|s| &s.kind).collect();
        assert_eq!(
            kinds,
            [
                &StepKind::Apply,
                &StepKind::SaveLastApplied,
                &StepKind::UpgradeManagedFields {
                    from: vec!["kubectl-client-side-apply".to_owned()]
                },
                &StepKind::ApplyAgain
            ]
        );
        let first = &steps[0].object;
        assert_eq!(first["data"]["legacy"], "unused");
        assert_eq!(
            owned(first, "kubectl", "Apply").unwrap(),
            r#"{"f:data":{"f:key":{}}}"#
        );
        assert_eq!(
            owned(&steps[1].object, LAST_APPLIED_MANAGER, "Apply").unwrap(),
            r#"{"f:metadata":{"f:annotations":{"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}"#
        );
        let upgraded = &steps[2].object;
        assert_eq!(owned(upgraded, "kubectl-client-side-apply", "Update"), None);
        assert_eq!(
            owned(upgraded, "kubectl", "Apply").unwrap(),
            r#"{"f:data":{".":{},"f:key":{},"f:legacy":{}},"f:metadata":{"f:annotations":{".":{},"f:kubectl.kubernetes.io/last-applied-configuration":{}}}}"#
        );
        let last = &steps[3].object;
        assert_eq!(last["data"], v(r#"{"key":"value"}"#));
        assert_eq!(
            owned(last, "kubectl", "Apply").unwrap(),
            r#"{"f:data":{"f:key":{}}}"#
        );
        assert!(last["metadata"]["annotations"].get(ANNOTATION).is_some());
    }

    /// An autoscaler owns `spec.replicas`: the file's value conflicts, as the API server says.
    #[test]
    fn a_controller_owned_field_conflicts() {
        let req = request("apps/v1", "Deployment", "2026-11-25T10:00:00Z");
        let file = v(
            r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx","env":[{"name":"B","value":"1"}]}]}}}}"#,
        );
        let live = req.apply(&Value::Null, &file, "kubectl", false).unwrap();
        let mut scaled = live.clone();
        scaled["spec"]["replicas"] = Value::from(5);
        let live = req
            .update(&live, &scaled, "kube-controller-manager")
            .unwrap();
        let mut edited = live.clone();
        edited["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"] = Value::from("2");
        let live = req.update(&live, &edited, "kubectl-edit").unwrap();
        let mut next = file.clone();
        next["spec"]["replicas"] = Value::from(3);
        next["spec"]["template"]["spec"]["containers"][0]["env"][0]["value"] = Value::from("3");
        let err = req.apply(&live, &next, "kubectl", false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Apply failed with 2 conflicts: conflicts with \"kube-controller-manager\" using apps/v1:\n\
             - .spec.replicas\n\
             conflicts with \"kubectl-edit\" using apps/v1:\n\
             - .spec.template.spec.containers[name=\"web\"].env[name=\"B\"].value"
        );
        let forced = req.apply(&live, &next, "kubectl", true).unwrap();
        assert_eq!(forced["spec"]["replicas"], 3);
        assert_eq!(owned(&forced, "kube-controller-manager", "Update"), None);
    }
}
